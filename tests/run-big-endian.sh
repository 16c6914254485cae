#!/bin/sh
# SPDX-License-Identifier: MIT
# Big-endian recordings on this little-endian machine.  tests/byteswap
# writes fixtures (file and pipe mode; one event, two events with ids,
# threads, fork+exec) as a big-endian machine's perf would have: every
# field swapped, the attr flag bits laid out as a big-endian compiler
# does; feature sections and records that do not bear on the stacks left
# out.  Then:
#  - where perf reads the swapped file (perf 6.1 reads big-endian files),
#    its stacks (testdata/perf-stacks.py) are the original's
#    (NAME.perf.data.expected): the swapping is right;
#  - perf2gperf reads it as big-endian (--info, with perf's event names:
#    misread flag bits would add modifiers), and for every (event, pid)
#    of the oracle writes perf's stacks and the original's header
#    (period from the frequency flag) (gperfcheck --dump) in a
#    big-endian profile by default, and the same records in a
#    little-endian one with --byte-order little;
#  - the pipe-mode file reads the same from standard input.
# Without perf, only perf2gperf's agreement with the oracle is checked.
. "${top_srcdir:-$(dirname "$0")/..}/tests/test-subr.sh"
. "$top_srcdir/tests/stacks.sh"

BYTESWAP=$top_builddir/tests/byteswap
[ -x "$BYTESWAP" ] || hard_error "$BYTESWAP is not built"
stacks_py=$(testfile perf-stacks.py)
have_perf=no
command -v perf > /dev/null 2>&1 && perf version > /dev/null 2>&1 && have_perf=yes

n=0
for name in hot multi multi-2ev multi-pipe threads forkexec; do
	data=$(testfile $name.perf.data)
	check_exit 0 "$BYTESWAP" "$data" $name.be
	if [ $have_perf = yes ]; then
		PERF_STACKS_OUT=$name.perf perf script -i $name.be --no-inline \
			-s "$stacks_py" > perf.out 2> perf.err ||
			{ cat perf.err >&2; fail "perf cannot read the swapped $name"; }
		LC_ALL=C sort -t "$TAB" -k3,3 -k4,4n -k5,5 $name.perf > $name.perf.sorted
		compare_text "$data.expected" $name.perf.sorted \
			"perf's reading of the big-endian $name"
	fi
	check_exit 0 "$PERF2GPERF" --info $name.be
	check_grep "big-endian" out
	# the event names perf gives (no stray modifiers from misread flags)
	for ev in $(cut -f3 "$data.expected" | sort -u); do
		check_grep "# event : name = $ev," out
	done
	cut -f3,4 "$data.expected" | sort -u > evpid
	while IFS=$TAB read -r ev pid; do
		stacks_oracle "$data.expected" "$ev" "$pid" > want
		check_exit 0 "$PERF2GPERF" -q --no-fixup -e "$ev" -p "$pid" $name.be be.prof
		check_exit 0 "$GPERFCHECK" --summary be.prof
		check_grep "big-endian" out
		check_exit 0 "$GPERFCHECK" --dump be.prof
		stacks_dump out > got
		head -n 1 out > header.be
		compare_text want got "perf2gperf -e $ev -p $pid of the big-endian $name"
		# the same header (period from the frequency: the freq flag
		# bit read right) as from the original
		check_exit 0 "$PERF2GPERF" -q --no-fixup -e "$ev" -p "$pid" "$data" orig.prof
		check_exit 0 "$GPERFCHECK" --dump orig.prof
		head -n 1 out > header.orig
		compare_text header.orig header.be "header of the big-endian $name"
		check_exit 0 "$PERF2GPERF" -q --no-fixup --byte-order little -e "$ev" -p "$pid" $name.be le.prof
		check_exit 0 "$GPERFCHECK" --summary le.prof
		check_grep "little-endian" out
		check_exit 0 "$GPERFCHECK" --dump le.prof
		stacks_dump out > got.le
		compare_text want got.le "--byte-order little of the big-endian $name"
		n=$((n + 1))
	done < evpid
	case $name in
	*-pipe)
		check_exit 0 "$PERF2GPERF" -q --no-fixup $name.be file.prof
		check_exit 0 sh -c '"$1" -q --no-fixup - stdin.prof < "$2"' sh "$PERF2GPERF" $name.be
		cmp file.prof stdin.prof || fail "big-endian pipe file: stdin differs" ;;
	esac
done
echo "$n (event, pid) profiles of big-endian files as perf reads them${have_perf:+ (perf: $have_perf)}"
exit 0
