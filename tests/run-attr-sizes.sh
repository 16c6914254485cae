#!/bin/sh
# SPDX-License-Identifier: MIT
# Every perf_event_attr size: tests/attrsize rewrites fixtures (file and
# pipe mode, one event, two events, a sampling group) with their attrs
# SIZE bytes long, as perf versions with a smaller or larger struct
# perf_event_attr write them: 64 with a size field of 0 (the oldest perf),
# 64 (PERF_ATTR_SIZE_VER0) to 136 (VER8), and 144 and 256, larger than any
# perf knows.  For each:
#  - perf2gperf writes exactly the bytes it writes for the original, for
#    every event of the file, and --info gives the event the new size;
#  - where perf itself reads the rewritten file (perf script with
#    testdata/perf-stacks.py), perf sees the same stacks as in the
#    original (NAME.perf.data.expected): the rewriting keeps the meaning.
#    perf 6.1 refuses attrs larger than its own struct; that is noted.
# A size that would drop a field the file uses is skipped with a note.
. "${top_srcdir:-$(dirname "$0")/..}/tests/test-subr.sh"

ATTRSIZE=$top_builddir/tests/attrsize
[ -x "$ATTRSIZE" ] || hard_error "$ATTRSIZE is not built"
have_perf=no
have perf && perf version >/dev/null 2>&1 && have_perf=yes
[ $have_perf = yes ] || echo "note: perf is not installed: only perf2gperf's own agreement is checked"

nchecked=0
for name in hot multi-2ev multi-pipe multi-group; do
	data=$(testfile $name.perf.data)
	events=$(cut -f3 "$data.expected" | sort -u)
	for ev in $events; do
		check_exit 0 "$PERF2GPERF" -q --no-fixup -e "$ev" "$data" $name.$ev.orig.prof
	done
	for size in 0 64 72 80 88 96 104 112 120 128 136 144 256; do
		set +e
		"$ATTRSIZE" "$data" $name.$size.data $size 2> attrsize.err
		rc=$?
		set -e
		if [ $rc -eq 3 ]; then
			echo "note: $name: a field past $size bytes is set; size $size skipped"
			continue
		fi
		[ $rc -eq 0 ] || { cat attrsize.err >&2; hard_error "attrsize $name $size failed"; }
		thinned 4 || continue
		for ev in $events; do
			check_exit 0 "$PERF2GPERF" -q --no-fixup -e "$ev" $name.$size.data $name.$ev.$size.prof
			cmp $name.$ev.orig.prof $name.$ev.$size.prof ||
				fail "$name with $size-byte attrs: event $ev converts differently"
		done
		check_exit 0 "$PERF2GPERF" --info $name.$size.data
		# (as recorded: 0 stays 0)
		grep '^# event : ' out | grep -v -q "size = $size," &&
			fail "$name with $size-byte attrs: --info shows another size"
		nchecked=$((nchecked + 1))
		[ $have_perf = yes ] || continue
		if PERF_STACKS_OUT=$name.$size.perf perf script -i $name.$size.data \
			--no-inline -s "$TESTDATA/perf-stacks.py" > perf.out 2> perf.err &&
			[ -f $name.$size.perf ]; then
			LC_ALL=C sort -t "$TAB" -k3,3 -k4,4n -k5,5 $name.$size.perf > $name.$size.sorted
			compare_text "$data.expected" $name.$size.sorted \
				"perf's reading of $name with $size-byte attrs"
		else
			echo "note: perf $(perf version | cut -d' ' -f3) does not read $size-byte attrs: $(grep -i -m1 -e abi -e error perf.err || head -n 1 perf.err)"
		fi
	done
done
echo "$nchecked rewritten files convert as their originals"
min=40
[ -z "${P2G_WRAPPER:-}" ] || min=10
[ $nchecked -ge $min ] || fail "too few sizes checked ($nchecked)"
exit 0
