#!/bin/sh
# SPDX-License-Identifier: MIT
# perf2gperf --vmlinux FILE end to end, perf 6.1 the oracle.  A vmlinux
# is made here (mkvmlinux: gcc, ld) for the kernel of
# testdata/regress/kernel-module.perf.data and testdata/hot.perf.data:
# linked where their kernel text is, with a function (vmx_ADDR) around
# each kernel address of their callchains, except the lowest, which
# lies past the end of its function; their module frames ([p2gmod]) it
# must not name.  With the recorded kernel's build ID:
#   a. --format=folded is perf script report stackcollapse --vmlinux's
#      output, byte for byte;
#   b. in --format=pprof, go tool pprof -raw names each kernel address
#      as perf script -F ip,sym --vmlinux does.
# With another build ID perf uses the vmlinux and nothing else (not its
# kallsyms copy, put in the build-ID cache here, nor /proc/kallsyms): no
# kernel frame has a name, in perf's output and in perf2gperf's, which
# says why.  Given --kallsyms too, perf takes that file, and so does
# perf2gperf.  With --symfs, a relative --vmlinux is read under it and
# an absolute one as it is, as perf reads them (a folded comparison).
# A missing --vmlinux, or one that is not ELF, is a usage error naming
# it.  Skips without gcc, ld, perf (with python scripting) or go.
. "${top_srcdir:-$(dirname "$0")/..}/tests/test-subr.sh"

need_cmd ${CC:-gcc} ld
km=$(testfile regress/kernel-module.perf.data)
hot=$(testfile hot.perf.data)
fixtures="$km $hot"
# under valgrind the conversions of one (the vmlinux is for both)
converted=$fixtures
[ -n "${P2G_WRAPPER:-}" ] && converted=$km
HOME=$test_dir/home
export HOME
mkdir -p "$HOME"

# c. not a usable file at all
check_exit 2 "$PERF2GPERF" --folded-style=perf -f folded --vmlinux nonexistent "$km" x.folded
check_grep "perf2gperf: --vmlinux: cannot read 'nonexistent'"
printf 'not an ELF file\n' > notelf
check_exit 2 "$PERF2GPERF" --folded-style=perf -f folded --vmlinux notelf "$km" x.folded
check_grep "perf2gperf: --vmlinux: 'notelf' is not an ELF file"

need_cmd perf
perf script report stackcollapse -i "$km" > probe.out 2>&1 ||
	skip "perf script report stackcollapse fails: $(head -n 1 probe.out)"

# the recorded kernel and the addresses in it (its text is below the
# modules' 0xffffffffc0000000)
for f in $fixtures; do
	perf buildid-list -i "$f" > bids.out 2> /dev/null ||
		hard_error "perf buildid-list failed on $f"
	awk '$2 == "[kernel.kallsyms]" { print $1 }' bids.out >> kbids
	perf script -F ip,sym -i "$f" > ips.out 2> /dev/null ||
		hard_error "perf script -F ip,sym failed on $f"
	awk '$1 ~ /^ffffffff[89ab]/ { print $1 }' ips.out >> kaddrs.all
done
kbid=$(sort -u kbids)
case $kbid in
*[!0-9a-f]*|'') hard_error "not one kernel build ID: $kbid" ;;
esac
sort -u kaddrs.all > kaddrs
[ "$(wc -l < kaddrs)" -ge 2 ] || hard_error "too few kernel addresses"

# the vmlinux: _text at the kernel's start, then a function 5 bytes
# before each address, 10 long; the lowest's 8 long, 16 bytes before it
{
	printf '.text\n.globl _text\n_text:\n'
	end=0
	gap=
	while read -r a; do
		off=$((0x${a#ffffffff} - 0x81000000))
		if [ -z "$gap" ]; then
			gap=$a
			start=$((off - 16))
			size=8
		else
			start=$((off - 5))
			size=10
		fi
		[ "$start" -ge "$end" ] || continue
		printf '.org %d\n.globl vmx_%s\n.type vmx_%s,@function\n' \
			"$start" "$a" "$a"
		printf 'vmx_%s: .skip %d\n.size vmx_%s, %d\n' \
			"$a" "$size" "$a" "$size"
		end=$((start + size))
	done < kaddrs
	echo "$gap" > gap
} > vm.s
gap=$(cat gap)
# (not named ./vmlinux, where perf and perf2gperf look without --vmlinux)
mkvmlinux vm.s kernel.elf "$kbid"
mkvmlinux vm.s kernel-other.elf 0123456789abcdef0123456789abcdef01234567
# what a perf2gperf falling back past the vmlinux would find first
mkdir -p "$HOME/.debug/[kernel.kallsyms]/$kbid"
sed 's/.*/& t cache_&/' kaddrs > "$HOME/.debug/[kernel.kallsyms]/$kbid/kallsyms"

# perf_knames F V: perf's names (ADDR NAME) of the kernel and module
# addresses of recording F with vmlinux V
perf_knames() {
	perf script -F ip,sym --vmlinux "$2" -i "$1" 2> perf.err |
		awk '$1 ~ /^ffffffff/ { print $1, $2 }' | sort -u
}
# go_knames P: go tool pprof's names of the same in profile P
go_knames() {
	go_raw "$1" "$1.raw"
	awk '/^Locations/ { l = 1; next } /^Mappings/ { l = 0 }
		l && $2 ~ /^0xffffffff/ {
			n = "[unknown]"
			if ($3 ~ /^M=/ && NF >= 4) n = $4
			print substr($2, 3), n
		}' "$1.raw" | sort -u
}

nonamed='no kernel frame is named'
have_go=yes
if have go && go tool pprof -h > /dev/null 2>&1; then
	go_env
	HOME=$test_dir/home
else
	have_go=
fi
for f in $converted; do
	b=$(basename "$f" .perf.data)
	for v in kernel.elf kernel-other.elf; do
		# a.
		perf script report stackcollapse -i "$f" --vmlinux $v \
			> $b.$v.exp 2> perf.err || {
			cat perf.err >&2
			hard_error "perf's stackcollapse failed on $f"
		}
		check_exit 0 "$PERF2GPERF" --folded-style=perf --vmlinux $v "$f" $b.$v.folded
		compare_text $b.$v.exp $b.$v.folded \
			"perf2gperf --vmlinux $v $b's folded stacks"
		perf_knames "$f" $v > $b.$v.perfnames
		if [ $v = kernel.elf ]; then
			grep -q ' vmx_' $b.$v.perfnames ||
				hard_error "perf names nothing of $b from $v"
			! grep "^$gap " $b.$v.perfnames |
				grep -v ' \[unknown\]$' ||
				hard_error "perf names $gap, past its function"
			! grep -q 'build ID differs' err ||
				fail "a warning about the build ID of $v"
		else
			! grep -v ' \[unknown\]$' $b.$v.perfnames ||
				hard_error "perf names frames of $b from $v"
			check_grep \
			    "warning: --vmlinux $v: build ID differs: $nonamed"
		fi
		! grep -v '^ffffffff[89ab]' $b.$v.perfnames |
			grep -v ' \[unknown\]$' ||
			hard_error "perf names a module frame of $b from $v"
		# b.
		[ -n "$have_go" ] || continue
		check_exit 0 "$PERF2GPERF" --folded-style=perf -q --vmlinux $v "$f" $b.$v.pb.gz
		go_knames $b.$v.pb.gz > $b.$v.gonames
		compare_text $b.$v.perfnames $b.$v.gonames \
			"go tool pprof's names of $b's kernel frames from $v"
	done
	[ "$f" != "$km" ] || grep -q '^ffffffffc' $b.kernel.elf.perfnames ||
		hard_error "no module frame in $f"
	if cmp -s $b.kernel.elf.exp $b.kernel-other.elf.exp; then
		hard_error "$b's stacks do not tell the two vmlinux files apart"
	fi
done
# --kallsyms wins over --vmlinux, in perf and here
sed 's/.*/& t kall_&/' kaddrs > kallsyms
perf script report stackcollapse -i "$km" --vmlinux kernel.elf \
	--kallsyms kallsyms > both.exp 2> perf.err || {
	cat perf.err >&2
	hard_error "perf's stackcollapse failed on $km"
}
grep -q ';kall_' both.exp || hard_error "perf did not take --kallsyms"
check_exit 0 "$PERF2GPERF" --folded-style=perf -q --vmlinux kernel.elf --kallsyms kallsyms \
	"$km" both.folded
compare_text both.exp both.folded \
	"the folded stacks with --vmlinux and --kallsyms"
# with --symfs, a relative --vmlinux is under it and an absolute one is
# not, in perf (dso__load_vmlinux) and here; perf 6.1 also wants the
# relative name readable as given (symbol__validate_sym_arguments): the
# other build ID's file there, that perf does not read
mkdir -p sfs/boot boot
cp kernel.elf sfs/boot/vmx
cp kernel-other.elf boot/vmx
for v in boot/vmx "$test_dir/kernel.elf"; do
	perf script report stackcollapse -i "$km" --symfs sfs --vmlinux "$v" \
		> symfs.exp 2> perf.err || {
		cat perf.err >&2
		hard_error "perf's stackcollapse --symfs failed on $km"
	}
	grep -q ';vmx_' symfs.exp ||
		hard_error "perf names nothing from --symfs sfs --vmlinux $v"
	check_exit 0 "$PERF2GPERF" --folded-style=perf -q --symfs sfs --vmlinux "$v" "$km" \
		symfs.folded
	compare_text symfs.exp symfs.folded \
		"the folded stacks with --symfs sfs --vmlinux $v"
done
check_exit 2 "$PERF2GPERF" --folded-style=perf -f folded --symfs sfs --vmlinux kernel.elf \
	"$km" x.folded
check_grep "perf2gperf: --vmlinux: cannot read 'sfs/kernel.elf'"
[ -n "$have_go" ] || skip "go tool pprof is not installed"
exit 0
