#!/bin/sh
# SPDX-License-Identifier: MIT
# The kernel's maps line, and frames in no mapping (perf's [unknown]).
#
# Go pprof gives an address in no mapping to a mapping with a nonzero
# offset below which it lies (doc/pprof-readers.md, "Addresses in no
# mapping"), so perf2gperf writes the kernel line with offset 0.
#
#  1. The maps text of hot.perf.data's profile (kernel frames in it) is
#     pinned, kernel line included.
#  2. A profile with that maps text and crafted stacks with frames in no
#     mapping (below the program, between the libraries and the kernel,
#     just below the kernel): gperfcheck warns about the frames in no
#     mapping and not of a mapping that takes them; Go pprof (when
#     installed) reads the kernel mapping as exactly its line's range,
#     puts those frames in its mapping without a file, and gives each
#     binary the flat and cumulative shares worked out below by hand;
#     google-pprof (when installed) names none of those above the
#     program.
#  3. The same stacks with perf's pgoff as the kernel line's offset:
#     gperfcheck warns that Go pprof lowers the kernel's start to 0, and
#     Go pprof does so (the control: without it, 2 would prove nothing).
#  4. regress/unmapped-below-offset.perf.data has frames in no mapping
#     just below ld.so's and libc's text (offsets 0x1000, 0x26000), where
#     Go pprof would lower those mappings to take them: perf2gperf writes
#     a guard line named [unknown] over the free stretch around each
#     (src/lib/output/guards.h), so Go pprof gives each binary the shares
#     that perf report --children --sort dso gives (checked against perf
#     when installed, pinned from it otherwise); the same profile without
#     the guard lines is the control.
#  5. regress/kernel-module.perf.data maps a kernel module, "[p2gmod]",
#     at 0xffffffffc0000000 (a pid -1 MMAP, as perf writes modules), and
#     has frames in it: perf2gperf writes a line for it, offset 0, after
#     the kernel's; gperfcheck finds every frame in a mapping, and Go
#     pprof gives the module and the kernel's text each the shares that
#     perf report --children --sort dso gives (checked against perf when
#     installed, pinned from it otherwise); the profile without the
#     module's line is the control.  The pprof output (--format=pprof)
#     gives the module a Mapping of its own, and Go pprof the same
#     shares from it.
. "${top_srcdir:-$(dirname "$0")/..}/tests/test-subr.sh"
. "$top_srcdir/tests/stacks.sh"
. "$top_srcdir/tests/shares.sh"

data=$(testfile hot.perf.data)

# 1. the maps text
check_exit 0 "$PERF2GPERF" -q "$data" hot.prof
check_exit 0 "$GPERFCHECK" --dump hot.prof
sed -n 's/^map //p' out > maps.txt
cat > maps.exp <<'EOT'
00401000-00402000 r-xp /work/main/testdata/progs/hot (@1000) 9c8b0baecb25c2a6bbc387dc3e688a3cd068bfb4
00401000-00402000 r-xp 00001000 fe:00 5308652 /work/main/testdata/progs/hot
7ffae7c56000-7ffae7dac000 r-xp 00026000 fe:00 332835 /usr/lib/x86_64-linux-gnu/libc.so.6
7ffae7e25000-7ffae7e27000 r-xp [vdso] (@0) e95baaeaec8534edc5df3654182ddf12b19d9b23
7ffae7e25000-7ffae7e27000 r-xp 00000000 00:00 0 [vdso]
7ffae7e28000-7ffae7e4e000 r-xp 00001000 fe:00 332383 /usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2
ffffffff81000000-ffffffff8220bb08 r-xp /usr/lib/debug/boot/vmlinux-6.18.44-fc-v669 (@0) 4a5a9b0affb66c437abcd455d2738af879985fa9
ffffffff81000000-ffffffff8220bb08 r-xp 00000000 00:00 0 /usr/lib/debug/boot/vmlinux-6.18.44-fc-v669
EOT
compare_text maps.exp maps.txt "the maps text of hot.perf.data's profile"

# 2. crafted stacks: 64-bit little-endian slots, each written from its
# hex digits (kernel addresses are beyond the shell's signed arithmetic)
q() {
	for v in "$@"; do
		h=$(printf '%016s' "${v#0x}" | tr ' ' 0)
		for i in 15 13 11 9 7 5 3 1; do
			printf "\\$(printf '%03o' "0x$(echo "$h" | cut -c$i-$((i + 1)))")"
		done
	done
}
# count, depth, PCs (leaf first):
#  A 5  program, program, libc
#  B 3  kernel, libc, program
#  C 2  [unknown] below the program, program, program
#  D 4  program, [unknown] between the libraries and the kernel, program
#  E 1  kernel, [unknown] just below the kernel, program
{
	q 0 3 0 1001 0
	q 5 3 0x401152 0x401192 0x7ffae7c5724a
	q 3 3 0xffffffff8161dc84 0x7ffae7d28350 0x401192
	q 2 3 0x5555 0x401163 0x401192
	q 4 3 0x401174 0x7ffd12345678 0x401192
	q 1 3 0xffffffff8161dc84 0xffffffff80ff0000 0x401192
	q 0 1 0
} > stacks.bin
cat stacks.bin maps.txt > unknown.prof
# 15 samples: hot 9 flat (A, D), all 15 cumulative; libc 0 and 8 (A, B);
# the kernel 4 and 4 (B, E); no mapping 2 (C) and 7 (C, D, E)
cat > shares.exp <<EOT
[kernel.kallsyms]${TAB}26.67${TAB}26.67
[unknown]${TAB}13.33${TAB}46.67
hot${TAB}60.00${TAB}100.00
libc.so.6${TAB}0.00${TAB}53.33
EOT

check_exit 0 "$GPERFCHECK" unknown.prof
check_grep "unknown.prof: warning: 7 of 45 PCs (counted by samples) are in no executable mapping"
if grep -q "lowers its start" err; then
	cat err >&2
	fail "gperfcheck: a mapping of perf2gperf's maps text takes frames in no mapping"
fi

# 3. perf's pgoff as the kernel's offset
sed 's/^\(ffffffff81000000-[0-9a-f]* r-xp \)00000000/\1ffffffff81000000/
     s/ (@0) \([0-9a-f]*\)$/ (@ffffffff81000000) \1/' maps.txt > maps.old
grep -q ' ffffffff81000000 00:00 0 ' maps.old ||
	hard_error "could not make the old kernel line"
cat stacks.bin maps.old > old.prof
check_exit 0 "$GPERFCHECK" old.prof
check_grep "old.prof: warning: 7 of these are below a mapping with a nonzero offset: Go pprof lowers its start to take them (7 by /usr/lib/debug/boot/vmlinux-6.18.44-fc-v669 at 0xffffffff81000000, offset 0xffffffff81000000, from 0x0)"

if have go; then
	go_env
	go_raw unknown.prof unknown.raw
	go_raw old.prof old.raw
	grep -q '^[0-9]*: 0xffffffff81000000/0xffffffff8220bb08/0x0 .*vmlinux' unknown.raw || {
		sed -n '/^Mappings/,$p' unknown.raw >&2
		fail "Go pprof does not read the kernel mapping as its line's range"
	}
	shares_go_raw unknown.raw > unknown.shares
	compare_text shares.exp unknown.shares "Go pprof's shares of unknown.prof"
	grep -q '^[0-9]*: 0x0/0xffffffff8220bb08/0x0 .*vmlinux' old.raw || {
		sed -n '/^Mappings/,$p' old.raw >&2
		fail "control: Go pprof does not stretch the kernel line with offset = start; the test proves nothing"
	}
	echo "Go pprof: the kernel is its text only, frames in no mapping stay unknown"
else
	echo "note: go is not installed: Go pprof's reading not checked"
fi

# google-pprof symbolizes every address in no library's line with the
# program named on its command line (ParseLibraries): the program is
# hot.c built as testdata/progs/mkprogs.sh builds it (no symbol at these
# addresses), not the recorded binary, which is not in testdata.
cflags=$(sed -n 's/^CFLAGS="\(.*\)"$/\1/p' "$TESTDATA/progs/mkprogs.sh")
if have google-pprof &&
   ${CC:-gcc} $cflags -o hot "$TESTDATA/progs/hot.c" 2> cc.log; then
	HOME=$test_dir google-pprof --raw ./hot unknown.prof > perl.raw 2> perl.err || {
		cat perl.err >&2
		fail "google-pprof --raw cannot read unknown.prof"
	}
	# Callers are looked up less 1.  0x5555 is left out: google-pprof
	# gives it the program's lowest symbol (its design, whatever the
	# maps text says; doc/pprof-readers.md).
	for a in 00007ffd12345677 ffffffff80feffff; do
		grep -q "^0x$a 0x$a\$" perl.raw || {
			cat perl.raw >&2
			fail "google-pprof names the frame in no mapping 0x$a"
		}
	done
	echo "google-pprof: frames in no mapping have no name"
else
	echo "note: no google-pprof, or hot.c does not build: its reading not checked"
fi

# shares_check NAME PATTERN WHAT SAYS: the shares of $data are NAME.exp
# as perf report gives them (when installed) and as Go pprof reads
# NAME.prof (when installed); Go pprof gives other shares without the
# lines matching PATTERN (WHAT), the control
shares_check() {
	if have perf; then
		shares_perf "$data" > $1.perf
		compare_text $1.exp $1.perf "perf report's shares of $data"
	fi
	have go || return 0
	go_env
	grep -av "$2" $1.prof > no$1.prof
	for p in "$1" "no$1"; do
		go_raw $p.prof $p.raw
		shares_go_raw $p.raw > $p.shares
	done
	compare_text $1.exp $1.shares "Go pprof's shares of $1.prof, with $3"
	if cmp -s $1.exp no$1.shares; then
		fail "control: Go pprof gives the same shares without $3; the test proves nothing"
	fi
	echo "Go pprof: $4"
}

# 4. guard lines
data=$(testfile regress/unmapped-below-offset.perf.data)
check_exit 0 "$PERF2GPERF" -q "$data" below.prof
check_exit 0 "$GPERFCHECK" --dump below.prof
sed -n 's/^map \(.*\[unknown\]\)$/\1/p' out > guards.txt
cat > guards.exp <<'EOT'
7ffae7c30000-7ffae7c56000 r-xp 00000000 00:00 0 [unknown]
7ffae7e27000-7ffae7e28000 r-xp 00000000 00:00 0 [unknown]
EOT
compare_text guards.exp guards.txt "the guard lines of unmapped-below-offset's profile"
# perf report --children --sort dso on the file, by its design: the
# program in every sample, libc in the first and third, [unknown] frames
# in the second and third
cat > below.exp <<EOT
[unknown]${TAB}0.00${TAB}66.67
hot${TAB}100.00${TAB}100.00
libc.so.6${TAB}0.00${TAB}66.67
EOT
shares_check below '\[unknown\]$' "the guard lines" \
	"frames in no mapping below a mapping with an offset stay unknown"

# 5. a kernel module
data=$(testfile regress/kernel-module.perf.data)
check_exit 0 "$PERF2GPERF" -q "$data" mod.prof
check_exit 0 "$GPERFCHECK" --dump mod.prof
grep '^map ffffffff' out > modmaps.txt
cat > modmaps.exp <<'EOT'
map ffffffff81000000-ffffffff8220bb08 r-xp /usr/lib/debug/boot/vmlinux-6.18.44-fc-v669 (@0) 4a5a9b0affb66c437abcd455d2738af879985fa9
map ffffffff81000000-ffffffff8220bb08 r-xp 00000000 00:00 0 /usr/lib/debug/boot/vmlinux-6.18.44-fc-v669
map ffffffffc0000000-ffffffffc0010000 r-xp 00000000 00:00 0 [p2gmod]
EOT
compare_text modmaps.exp modmaps.txt "the kernel's and the module's lines"
check_exit 0 "$GPERFCHECK" mod.prof
if grep -q "no executable mapping" err; then
	cat err >&2
	fail "gperfcheck: frames of kernel-module's profile in no mapping"
fi
# perf report --children --sort dso on the file, by its design: the
# program in every sample (the leaf of the first), libc in the first
# two, the kernel's text and the module in the second and third (the
# leaf of one each)
cat > mod.exp <<EOT
[kernel.kallsyms]${TAB}33.33${TAB}66.67
[p2gmod]${TAB}33.33${TAB}66.67
hot${TAB}33.33${TAB}100.00
libc.so.6${TAB}0.00${TAB}66.67
EOT
shares_check mod ' \[p2gmod\]$' "the module's line" \
	"the module's frames are the module's"

# the pprof output: a Mapping for the module, at the module's range
check_exit 0 "$PERF2GPERF" -q "$data" mod.pb.gz
if have go; then
	go_env
	go tool pprof -raw -symbolize=none mod.pb.gz > modpb.raw 2> modpb.err || {
		cat modpb.err >&2
		fail "go tool pprof cannot read mod.pb.gz"
	}
	grep -q '^[0-9]*: 0xffffffffc0000000/0xffffffffc0010000/0x0 \[p2gmod\]' \
		modpb.raw || {
		sed -n '/^Mappings/,$p' modpb.raw >&2
		fail "no Mapping of the module in mod.pb.gz"
	}
	shares_go_raw modpb.raw > modpb.shares
	compare_text mod.exp modpb.shares "Go pprof's shares of mod.pb.gz"
	echo "Go pprof: the module's frames are the module's in the pprof output"
fi

exit 0
