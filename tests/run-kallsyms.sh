#!/bin/sh
# SPDX-License-Identifier: MIT
# Kernel symbols as perf reads them from kallsyms.
#  1. testdata/symbols/kallsyms, made by hand, against the rules of perf
#     6.1 (tools/perf/util/symbol.c): only T, t, W, w lines; a symbol
#     reaches the next one, the kernel's last one (and a module's last
#     one before the kernel) the end of the page after its own; of
#     symbols at one address the last one listed (the others have no
#     size once the ends are fixed, and perf prefers one with a size);
#     a module's symbols name only that module's mapping (named by its
#     .ko file, with '-' read as '_', or as [name]), the kernel's only
#     the kernel's; malformed lines, lines at address 0, names starting
#     with '$' are left out; a CRLF line ending is read.  The same from
#     perf's copy in its build-ID cache, found by the kernel's build ID.
#     And a --vmlinux made at test time (gcc, ld), relocated as the
#     recording's kernel map says, refused with another build ID, and
#     found without --vmlinux where perf looks first (./vmlinux).
#  2. The oracle: perf record -g of a shell reading /proc files (frames
#     deep in the kernel), with perf's build-ID cache in the test
#     directory; every frame's name, kernel and user-space, must be perf
#     script's.  Skipped where perf cannot record kernel frames.
. "${top_srcdir:-$(dirname "$0")/..}/tests/test-subr.sh"
. "$top_srcdir/tests/symframes.sh"

ks=$(testfile symbols/kallsyms)
K='map ffffffff81000000 0 ffffffff81000000 -1 - [kernel.kallsyms]_text'
cat > fixture.in <<EOT
$K
file
ffffffff81000000
ffffffff810000ff
ffffffff81000100
ffffffff81000180
ffffffff81000200
ffffffff81000300
ffffffff81000450
ffffffff81000500
ffffffff81001fff
ffffffff81002000
ffffffff80ffffff
ffffffffc0000000
map ffffffffc0000000 0 0 -1 - /lib/modules/6.1.0/kernel/foo-bar.ko
ffffffffc0000000
ffffffffc0000041
ffffffffc000ffff
ffffffffc0010000
ffffffff81000100
map ffffffffc0010000 ffffffffc0020000 0 -1 - [other]
ffffffffc0010fff
ffffffffc0011000
EOT
cat > fixture.exp <<EOT
file $ks
ffffffff81000000 _text
ffffffff810000ff _text
ffffffff81000100 startup_64
ffffffff81000180 startup_64
ffffffff81000200 weak_fn
ffffffff81000300 after_label
ffffffff81000450 last_kernel_fn
ffffffff81000500 crlf_fn
ffffffff81001fff crlf_fn
ffffffff81002000 [unknown]
ffffffff80ffffff [unknown]
ffffffffc0000000 [unknown]
ffffffffc0000000 mod_a_fn
ffffffffc0000041 mod_a_init
ffffffffc000ffff mod_a_init
ffffffffc0010000 [unknown]
ffffffff81000100 [unknown]
ffffffffc0010fff other_fn
ffffffffc0011000 [unknown]
EOT
$SYMLOOKUP --kallsyms "$ks" --home "$test_dir/nohome" \
	< fixture.in > fixture.out ||
	fail "symlookup failed"
compare_text fixture.exp fixture.out "the names from $ks"

# perf's kallsyms copy in its build-ID cache, for the recorded build ID;
# a module looked up before the kernel's build ID is known has no name
# yet, but is not remembered so
kbid=0123456789abcdef0123456789abcdef01234567
mkdir -p "home/.debug/[kernel.kallsyms]/$kbid"
cp "$ks" "home/.debug/[kernel.kallsyms]/$kbid/kallsyms"
cat > cache.in <<EOT
map ffffffffc0000000 0 0 -1 - [foo_bar]
file
ffffffffc0000040
map ffffffff81000000 0 ffffffff81000000 -1 $kbid [kernel.kallsyms]_text
file
ffffffff81000100
map ffffffffc0000000 0 0 -1 - [foo_bar]
ffffffffc0000040
EOT
cat > cache.exp <<EOT
file - kernel build ID not known yet
ffffffffc0000040 [unknown]
file $test_dir/home/.debug/[kernel.kallsyms]/$kbid/kallsyms
ffffffff81000100 startup_64
ffffffffc0000040 mod_a_init
EOT
$SYMLOOKUP --home "$test_dir/home" < cache.in > cache.out ||
	fail "symlookup failed"
compare_text cache.exp cache.out "the names from perf's kallsyms copy"

# what /proc/kallsyms shows to a reader it hides addresses from: nothing
sed 's/^[0-9a-f]*/0000000000000000/' "$ks" > zeros
printf '%s\nfile\nffffffff81000100\n' "$K" > zeros.in
$SYMLOOKUP --kallsyms zeros --kernel-build-id 00 --home "$test_dir/nohome" \
	< zeros.in > zeros.out || fail "symlookup failed"
printf 'file - not found\nffffffff81000100 [unknown]\n' > zeros.exp
compare_text zeros.exp zeros.out "the names from a kallsyms of zeros"

# --vmlinux: an ELF kernel (a hand-written one, linked where the kernel
# is) with the recorded build ID, relocated by where the recording's
# kernel map starts; a label (_text) loses to a function of a size at
# its address; a PC past a function's end has no name; a vmlinux with
# another build ID is refused
if command -v ${CC:-gcc} > /dev/null 2>&1 && command -v ld > /dev/null 2>&1 &&
   command -v readelf > /dev/null 2>&1; then
	printf '%s\n' .text '.globl _text' '_text:' '.globl kfunc_a' \
		'.type kfunc_a,@function' 'kfunc_a: nop; nop; ret' \
		'.size kfunc_a, 3' '.p2align 4' '.globl kfunc_b' \
		'.type kfunc_b,@function' 'kfunc_b: nop; ret' \
		'.size kfunc_b, 2' > vm.s
	${CC:-gcc} -c vm.s -o vm.o 2> vm.log &&
		ld -Ttext=0xffffffff81000000 --build-id -e _text \
			-o vmlinux vm.o 2>> vm.log ||
		hard_error "cannot build a vmlinux: $(head -n 1 vm.log)"
	vbid=$(readelf -n vmlinux | awk '/Build ID:/ { print $3 }')
	[ -n "$vbid" ] || hard_error "no build ID in vmlinux"
	cat > vm.in <<EOT
map ffffffff81200000 0 ffffffff81200000 -1 $vbid [kernel.kallsyms]_text
file
ffffffff81200000
ffffffff81200002
ffffffff81200005
ffffffff81200011
ffffffff81000011
EOT
	cat > vm.exp <<EOT
file $test_dir/vmlinux
ffffffff81200000 kfunc_a
ffffffff81200002 kfunc_a
ffffffff81200005 [unknown]
ffffffff81200011 kfunc_b
ffffffff81000011 [unknown]
EOT
	$SYMLOOKUP --vmlinux "$test_dir/vmlinux" --home "$test_dir/nohome" \
		< vm.in > vm.out || fail "symlookup failed"
	compare_text vm.exp vm.out "the names from a vmlinux"
	sed "s/ $vbid / 0123456789abcdef0123456789abcdef01234567 /" vm.in |
		$SYMLOOKUP --vmlinux "$test_dir/vmlinux" \
			--home "$test_dir/nohome" > vmbad.out ||
		fail "symlookup failed"
	check_grep "file - build ID differs" vmbad.out
	check_grep "ffffffff81200000 [unknown]" vmbad.out
	# without --vmlinux: where perf looks, first ./vmlinux
	$SYMLOOKUP --home "$test_dir/nohome" < vm.in > vmcwd.out ||
		fail "symlookup failed"
	sed "s|^file .*|file vmlinux|" vm.exp > vmcwd.exp
	compare_text vmcwd.exp vmcwd.out "the names from ./vmlinux"
else
	echo "note: no gcc, ld or readelf: --vmlinux not checked"
fi

# perf2gperf --kallsyms: the kernel frames of testdata/hot.perf.data
# (recorded on another kernel) named from a kallsyms file that gives
# each of its kernel addresses a name of its own, in folded output; the
# same with the file in a perf archive tree's place in the build-ID cache
hotdata=$(testfile hot.perf.data)
check_exit 0 "$PERF2GPERF" -q --no-fixup "$hotdata" hot.prof
check_exit 0 "$GPERFCHECK" --dump hot.prof
cp out hot.dump
awk '/^[0-9]/ { for (i = 2; i <= NF; i++) if ($i ~ /^0xffff/) print $i }' \
	out | sed 's/^0x//' | sort -u > hot.kaddrs
[ "$(wc -l < hot.kaddrs)" -ge 5 ] ||
	hard_error "hot.perf.data has too few kernel addresses"
awk '{ print $1, "T", "p2g_k_" $1 }' hot.kaddrs > hot.kallsyms
# the folded kernel part of each stack, root first, as the dump orders it
awk '/^[0-9]/ {
	s = ""
	for (i = NF; i >= 2; i--)
		if ($i ~ /^0xffff/)
			s = s ";p2g_k_" substr($i, 3)
	if (s != "")
		print substr(s, 2)
}' out | sort -u > hot.kexp
HOME=$test_dir/nohome check_exit 0 "$PERF2GPERF" -q -f folded \
	--kallsyms hot.kallsyms "$hotdata" hot.folded
sed -n 's/^[^;]*;\(.*\) [0-9]*$/\1/p' hot.folded | tr ';' '\n' |
	grep -q '^p2g_k_' || fail "--kallsyms named no kernel frame"
sed -n 's/^[^;]*;\(.*\) [0-9]*$/\1/p' hot.folded |
	awk -F';' '{ s = ""
		for (i = 1; i <= NF; i++)
			if ($i ~ /^p2g_k_/ || s != "")
				s = s ";" $i
		if (s != "") print substr(s, 2) }' | sort -u > hot.kgot
compare_text hot.kexp hot.kgot "the kernel frames named by --kallsyms"
kbid=$(awk '$1 == "map" && $2 ~ /^ffff/ && $4 ~ /vmlinux/ && $5 ~ /^\(@/ {
	print $6; exit }' hot.dump)
[ -n "$kbid" ] || hard_error "no kernel build ID in hot.perf.data's maps"
mkdir -p "arch/[kernel.kallsyms]/$kbid"
cp hot.kallsyms "arch/[kernel.kallsyms]/$kbid/kallsyms"
HOME=$test_dir/nohome check_exit 0 "$PERF2GPERF" -q -f folded \
	--binaries arch "$hotdata" hot.arch.folded
compare_text hot.folded hot.arch.folded \
	"the kernel frames named from a perf archive tree"
check_exit 2 "$PERF2GPERF" -f folded --kallsyms nonexistent "$hotdata" x.folded
check_grep "--kallsyms: cannot read 'nonexistent'"
check_exit 2 "$PERF2GPERF" -f folded --vmlinux nonexistent "$hotdata" x.folded
check_grep "--vmlinux: cannot read 'nonexistent'"

# the oracle
command -v perf > /dev/null 2>&1 || skip "perf is not installed"
HOME=$test_dir/home
export HOME
mkdir -p "$HOME"
rounds=2000
[ -n "${P2G_WRAPPER:-}" ] && rounds=500
perf record -q -g -e cpu-clock -F 4000 -o k.data -- sh -c "
	i=0
	while [ \$i -lt $rounds ]; do
		i=\$((i + 1))
		read -r x < /proc/self/stat
		read -r x < /proc/self/status
	done" > rec.log 2>&1 ||
	skip "perf record does not work here: $(head -n 1 rec.log)"
perf_frames k.data k.in k.exp
grep -q '^ffff' k.exp || skip "perf recorded no kernel frames here"
kframes=$(grep -c '^ffff' k.exp)
[ "$kframes" -ge 20 ] || skip "perf recorded only $kframes kernel frames"
$SYMLOOKUP --home "$HOME" < k.in > k.got || fail "symlookup failed"
compare_text k.exp k.got "the names of the frames"
exit 0
