#!/bin/sh
# SPDX-License-Identifier: MIT
# Time order by rounds (src/order.c), against perf's ordered events.
# tests/rounds rewrites a fixture (file mode, multi.perf.data, read on two
# threads; pipe mode, multi-pipe.perf.data, read on one) with a
# FINISHED_ROUND after every sample, and with one sample held back by M
# samples:
#  - held back by one, it comes before any round could release a record
#    later than it: nothing is out of order;
#  - held back by two or more, a later record was released before it
#    came: perf counts one "out of order event", and perf2gperf must
#    count the same (--stats "records out of order", and a warning), with
#    the reading thread and without.
# A reader that ignored the rounds and sorted everything would count
# none.  Whatever the order, the samples are the same: the stacks of each
# profile (gperfcheck --dump) must be the original's.  Where perf runs,
# its count is the oracle (with PERF_CONFIG=/dev/null: a report.queue-size
# of the user's would change it); the expected counts written below were
# checked against perf 6.1's.
. "${top_srcdir:-$(dirname "$0")/..}/tests/test-subr.sh"
. "$top_srcdir/tests/stacks.sh"

ROUNDS=$top_builddir/tests/rounds
[ -x "$ROUNDS" ] || hard_error "$ROUNDS is not built"

have_perf=no
if command -v perf > /dev/null 2>&1 && perf version > /dev/null 2>&1; then
	have_perf=yes
fi

# case N M EXPECTED: sample N of $data held back by M samples; EXPECTED
# records out of order.
case_() {
	name=$base-$1-$2
	"$ROUNDS" "$data" $name.data $1 $2 ||
		hard_error "tests/rounds $1 $2 failed"
	want=$3
	if [ $have_perf = yes ]; then
		PERF_CONFIG=/dev/null perf report --stdio -i $name.data \
			> /dev/null 2> $name.perf ||
			hard_error "perf report cannot read $name.data"
		perf_n=$(sed -n 's/^\([0-9][0-9]*\) out of order events recorded.*/\1/p' \
			$name.perf)
		[ "${perf_n:-0}" = "$want" ] ||
			hard_error "perf counts ${perf_n:-0} out of order events in $name.data, not $want"
	fi
	for threads in "" 1; do
		P2G_NO_THREADS=$threads check_exit 0 "$PERF2GPERF" --stats \
			$name.data $name.prof
		got=$(sed -n 's/^  records out of order *\([0-9]*\)$/\1/p' err)
		[ "${got:-0}" = "$want" ] ||
			fail "perf2gperf counts ${got:-0} records out of order in $name.data (P2G_NO_THREADS=$threads), perf $want"
		if [ "$want" -gt 0 ]; then
			check_grep "$want record came after later ones"
		elif grep -q "out of order" err; then
			fail "perf2gperf warns of records out of order in $name.data"
		fi
		"$GPERFCHECK" --dump $name.prof | stacks_dump > $name.stacks
		compare_text orig.stacks $name.stacks "stacks of $name.data"
	done
}

for base in multi multi-pipe; do
	data=$(testfile $base.perf.data)
	"$PERF2GPERF" -q "$data" orig.prof
	"$GPERFCHECK" --dump orig.prof | stacks_dump > orig.stacks
	[ -s orig.stacks ] || hard_error "no stacks in the profile of $data"
	case_ 100 1 0
	case_ 100 2 1
	case_ 0 5 1
	case_ 300 50 1
done
exit 0
