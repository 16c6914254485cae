#!/bin/sh
# SPDX-License-Identifier: MIT
# DWARF unwinding on a committed recording, for machines without perf (a
# packager's chroot, another libc): testdata/dwarfprog.perf.data.gz is
# perf record --call-graph dwarf,4096 of the static-pie program
# testdata/dwarfprog.gz (testdata/progs/dwarfprog.c, no frame pointers),
# recorded as /opt/p2g-fixture/dwarfprog; testdata/dwarfprog.perf.data
# .expected is perf's own view of it (see testdata/README).  The program is
# given to perf2gperf through --symfs, HOME is the test directory (no
# ~/.debug of the user's), and the test checks that
#  - with the right binary the stacks are perf's (user frames after the
#    first one +1: perf prints return address - 1, a profile holds return
#    addresses) for at least 99% of the samples, and --stats counts them
#    as unwound, none without binary;
#  - the binary is also found by build ID in ~/.debug/.build-id, laid out
#    as perf buildid-cache makes it;
#  - a binary at the right path with another build ID is not used: --stats
#    counts every sample "without binary" and the stacks are the kernel
#    frames and the sampled IP only;
#  - a FIFO at the recorded path is no binary either, and does not hang;
#  - --max-stack 3 writes at most 3 frames, the leaf-side 3 of perf's;
#  - --no-unwind writes what perf2gperf wrote before it could unwind: the
#    kernel callchain of a sample taken in the kernel, the IP otherwise.
. "${top_srcdir:-$(dirname "$0")/..}/tests/test-subr.sh"
. "$top_srcdir/tests/stacks.sh"

prog=$(testfile dwarfprog.gz)
data=$(testfile dwarfprog.perf.data.gz)
expected=$(testfile dwarfprog.perf.data.expected)
need_cmd gzip od dd

HOME=$test_dir/home
export HOME
mkdir -p "$HOME"
path=/opt/p2g-fixture/dwarfprog

mkdir -p symfs/opt/p2g-fixture wrongfs/opt/p2g-fixture
gzip -dc < "$prog" > symfs$path || hard_error "cannot unpack $prog"
chmod +x symfs$path

# The wrong binary: the same bytes with one byte of the build ID changed
# (so the code would unwind fine; only the ID tells them apart).  The ID is
# the descriptor of the GNU build-id note (namesz 4, descsz 20, type 3,
# "GNU\0"), in the first page.
off=$(head -c 4096 symfs$path | od -An -v -t x1 | awk '
	{ for (i = 1; i <= NF; i++) b[n++] = $i }
	END {
		pat = "04 00 00 00 14 00 00 00 03 00 00 00 47 4e 55 00"
		np = split(pat, p, " ")
		for (o = 0; o + np <= n; o++) {
			for (k = 1; k <= np && b[o + k - 1] == p[k]; k++)
				;
			if (k > np) {
				id = ""
				for (k = 0; k < 20; k++)
					id = id b[o + np + k]
				print o + np, id
				exit
			}
		}
	}')
buildid=${off#* }
off=${off% *}
case $buildid in
????????????????????????????????????????) ;;
*)	hard_error "build ID note of $path not found (got '$buildid')" ;;
esac
echo "$path: build ID $buildid"
cp symfs$path wrongfs$path
# its first byte, complemented
byte=$(printf %o $((255 - 0x$(echo $buildid | cut -c1-2))))
printf "\\$byte" | dd of=wrongfs$path bs=1 seek=$off conv=notrunc 2> /dev/null
cmp -s symfs$path wrongfs$path && hard_error "could not change the build ID"

stacks_oracle "$expected" > perf.stacks
stacks_dwarf_norm perf.stacks > want.stacks
total=$(awk '{ s += $1 } END { print s + 0 }' perf.stacks)
[ "$total" -gt 100 ] || hard_error "only $total samples in $expected"
echo "perf's view: $total samples in $(wc -l < perf.stacks) stacks"

# stat_of NAME [FILE]: the number on the --stats line "  NAME   N"
stat_of() {
	sed -n "s/^  $1  *\([0-9][0-9]*\)\$/\1/p" "${2:-err}"
}

# dwarf_stats FILE: the four DWARF lines are there, in order, after the
# other statistics, with the number right-aligned like theirs; sets
# $d_samples $d_unwound $d_stopped $d_nobin
dwarf_stats() {
	awk '
		/: statistics:$/ { inblock = 1; next }
		inblock && /^  records / { width = length($0) }
		inblock && /^  dwarf / {
			nd++
			want = nd == 1 ? "samples" : nd == 2 ? "unwound" : \
			    nd == 3 ? "stopped early" : "without binary"
			label = $0
			sub(/^  dwarf /, "", label)
			sub(/ *[0-9]+$/, "", label)
			if (label != want) {
				print "dwarf line " nd " is \"" $0 "\", expected dwarf " want
				exit 1
			}
			if (length($0) != width) {
				print "\"" $0 "\" is not aligned with \"  records\""
				exit 1
			}
			next
		}
		inblock && nd > 0 && /^  / {
			print "\"" $0 "\" follows the dwarf lines"
			exit 1
		}
		inblock && !/^  / { inblock = 0 }
		END { if (nd != 4) { print nd + 0 " dwarf lines in --stats"; exit 1 } }
	' "$1" > stats.check || {
		cat "$1" >&2
		fail "$(cat stats.check)"
	}
	d_samples=$(stat_of "dwarf samples" "$1")
	d_unwound=$(stat_of "dwarf unwound" "$1")
	d_stopped=$(stat_of "dwarf stopped early" "$1")
	d_nobin=$(stat_of "dwarf without binary" "$1")
	[ "$d_samples" -eq "$total" ] ||
		fail "dwarf samples $d_samples in $1, perf has $total"
	[ $((d_unwound + d_stopped + d_nobin)) -eq "$d_samples" ] ||
		fail "$1: unwound $d_unwound + stopped $d_stopped + without binary $d_nobin != dwarf samples $d_samples"
}

# agree WHAT WANT GOT [MIN]: at least MIN (99) percent of WANT's samples
# have their stack in GOT
agree() {
	set -- "$1" "$2" "$3" "${4:-99}" $(stacks_agree "$2" "$3")
	echo "$1: $5 of $6 samples ($7%) have perf's stack"
	if [ $(($5 * 100)) -lt $(($6 * $4)) ]; then
		echo "stacks differing most (perf's count, ours, stack):" >&2
		stacks_worst "$2" "$3" >&2
		fail "$1: only $7% of the samples have perf's stack (need $4%)"
	fi
}

# convert NAME OPTION...: convert with OPTIONS into NAME.prof (stats in
# NAME.err), check it and leave its stacks in NAME.stacks
convert() {
	_cv=$1
	shift
	check_exit 0 "$PERF2GPERF" --stats --no-fixup "$@" "$data" $_cv.prof
	cp err $_cv.err
	check_exit 0 "$GPERFCHECK" $_cv.prof
	check_exit 0 "$GPERFCHECK" --dump $_cv.prof
	stacks_dump out > $_cv.stacks
}

# 1. the right binary through --symfs
convert unwound --symfs symfs
dwarf_stats unwound.err
[ "$d_nobin" -eq 0 ] || fail "$d_nobin samples without binary, although --symfs has it"
[ $((d_unwound * 100)) -ge $((total * 99)) ] ||
	fail "only $d_unwound of $total samples unwound to the end"
agree "--symfs symfs" want.stacks unwound.stacks
# and with the fix-up (leaf copies) the profile is valid too
check_exit 0 "$PERF2GPERF" -q --symfs symfs "$data" fixup.prof
check_exit 0 "$GPERFCHECK" fixup.prof

# 2. found by build ID in ~/.debug (perf buildid-cache's layout:
# .build-id/XX/REST -> ../../PATH/ID, a directory holding elf)
xx=$(echo $buildid | cut -c1-2)
mkdir -p "$HOME/.debug/.build-id/$xx" "$HOME/.debug$path/$buildid"
cp symfs$path "$HOME/.debug$path/$buildid/elf"
ln -s "../..$path/$buildid" "$HOME/.debug/.build-id/$xx/${buildid#??}"
convert cache
dwarf_stats cache.err
[ "$d_nobin" -eq 0 ] || fail "$d_nobin samples without binary, although ~/.debug has it"
agree "~/.debug/.build-id" want.stacks cache.stacks
rm -rf "$HOME/.debug"

# 3. a binary with another build ID at the recorded path is not used
convert wrong --symfs wrongfs
dwarf_stats wrong.err
[ "$d_nobin" -eq "$total" ] ||
	fail "$d_nobin of $total samples counted without binary, with a binary of another build ID"
stacks_leaf_only perf.stacks > leaf.stacks
stacks_leaf_only wrong.stacks > wrong.leaf
agree "--symfs with another build ID" leaf.stacks wrong.leaf 100
# ... and nothing more than the sampled user IP after the kernel frames
awk "$stacks_kernel_awk"'
	{
		u = 0
		for (i = 2; i <= NF; i++)
			u += !is_kernel($i)
		if (u > 1) {
			print "more than one user frame: " $0
			exit 1
		}
	}' wrong.stacks > wrong.check || fail "$(cat wrong.check)"

# 3b. a FIFO at the recorded path is no binary, and nothing waits on it
# (a recording names whatever paths it likes)
if mkfifo fifofs$path 2> /dev/null ||
   { mkdir -p fifofs${path%/*} && mkfifo fifofs$path; }; then
	convert fifo --symfs fifofs
	dwarf_stats fifo.err
	[ "$d_nobin" -eq "$total" ] ||
		fail "$d_nobin of $total samples counted without binary, with a FIFO as the binary"
else
	echo "note: cannot make a FIFO here; that case is not checked"
fi

# 4. --max-stack 3: the leaf-side 3 frames (kernel frames count)
convert max3 --symfs symfs --max-stack 3
deepest=$(awk '{ if (NF - 1 > m) m = NF - 1 } END { print m + 0 }' max3.stacks)
[ "$deepest" -le 3 ] || fail "--max-stack 3 wrote a stack of $deepest frames"
stacks_truncate 3 want.stacks > want3.stacks
agree "--max-stack 3" want3.stacks max3.stacks

# 5. --no-unwind: as before unwinding (user IP, or the kernel callchain)
convert nounwind --symfs symfs --no-unwind
agree "--no-unwind" leaf.stacks nounwind.stacks 100
cmp -s leaf.stacks nounwind.stacks || {
	diff -u leaf.stacks nounwind.stacks | head -n 40 >&2
	fail "--no-unwind wrote other stacks than the kernel callchain or IP"
}

exit 0
