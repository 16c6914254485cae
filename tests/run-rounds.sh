#!/bin/sh
# SPDX-License-Identifier: MIT
# Time order by rounds (src/lib/perfdata/order.c), against perf's ordered events.
# tests/rounds rewrites a fixture (file mode, multi.perf.data; pipe mode,
# multi-pipe.perf.data) with a
# FINISHED_ROUND after every sample, and with one sample held back by M
# samples:
#  - held back by one, it comes before any round could release a record
#    later than it: nothing is out of order;
#  - held back by two or more, a later record was released before it
#    came: perf counts one "out of order event", and perf2gperf must
#    count the same (--stats "records out of order", and a warning).
# A reader that ignored the rounds and sorted everything would count
# none.  Whatever the order, the samples are the same: the stacks of each
# profile (gperfcheck --dump) must be the original's.  Where perf runs,
# its count is the oracle (with PERF_CONFIG=/dev/null: a report.queue-size
# of the user's would change it); the expected counts written below were
# checked against perf 6.1's.
#
# A perf.data directory (perf record --threads) has a file per CPU, each
# in time order and all spanning the same time: perf2gperf reads them side
# by side, merged by time.  With a time order that holds only 1000 bytes
# (--queue-size), reading the files one after the other puts 13 of
# threads-dir's records out of order; the merge, none, even when the time
# order holds a single record (--queue-size 1).  Either way the
# stacks must be those perf script shows (the fixture's .expected).  So
# too when tests/deal has dealt each of its files out to 4 (runs of 3
# records in turn): 8 files, all in time order and of the same span.
. "${top_srcdir:-$(dirname "$0")/..}/tests/test-subr.sh"
. "$top_srcdir/tests/stacks.sh"

ROUNDS=$top_builddir/tests/rounds
[ -x "$ROUNDS" ] || hard_error "$ROUNDS is not built"

have_perf=no
if have perf && perf version > /dev/null 2>&1; then
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
	check_exit 0 "$PERF2GPERF" --stats $name.data $name.prof
	got=$(sed -n 's/^  records out of order *\([0-9]*\)$/\1/p' err)
	[ "${got:-0}" = "$want" ] ||
		fail "perf2gperf counts ${got:-0} records out of order in $name.data, perf $want"
	if [ "$want" -gt 0 ]; then
		check_grep "$want record came after later ones"
	elif grep -q "out of order" err; then
		fail "perf2gperf warns of records out of order in $name.data"
	fi
	"$GPERFCHECK" --dump $name.prof | stacks_dump > $name.stacks
	compare_text orig.stacks $name.stacks "stacks of $name.data"
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

# --queue-size bounds the time order: holding a single record, records
# of threads.perf.data that perf writes after later ones (the default
# puts none out of order) come out of order, counted and warned of.
data=$(testfile threads.perf.data)
check_exit 0 "$PERF2GPERF" --stats "$data" q.prof
got=$(sed -n 's/^  records out of order *\([0-9]*\)$/\1/p' err)
[ "${got:-0}" = 0 ] || fail "$got records of $data out of order"
check_exit 0 "$PERF2GPERF" --queue-size=1 --stats "$data" q.prof
got=$(sed -n 's/^  records out of order *\([0-9]*\)$/\1/p' err)
[ "${got:-0}" -gt 0 ] ||
	fail "--queue-size=1 puts no record of $data out of order"
check_grep "came after later ones"

DEAL=$top_builddir/tests/deal
[ -x "$DEAL" ] || hard_error "$DEAL is not built"
dir=$TESTDATA/threads-dir.perf.data
if [ -f "$dir/data.1" ]; then
	stacks_oracle "$dir.expected" > dir.exp
	mkdir dealt
	"$DEAL" "$dir" dealt 4 3 || hard_error "tests/deal failed"
	[ -f dealt/data.7 ] && [ ! -f dealt/data.8 ] ||
		hard_error "tests/deal did not make data.0 to data.7"
	for d in "$dir" dealt; do
		for queue in --queue-size=1 --queue-size=1000 ""; do
			check_exit 0 "$PERF2GPERF" $queue --stats --no-fixup \
				"$d" dir.prof
			got=$(sed -n 's/^  records out of order *\([0-9]*\)$/\1/p' err)
			[ "${got:-0}" = 0 ] ||
				fail "perf2gperf counts $got records of $d out of order ($queue)"
			"$GPERFCHECK" --dump dir.prof | stacks_dump > dir.stacks
			compare_text dir.exp dir.stacks \
				"stacks of $d ($queue)"
		done
	done
else
	echo "note: no perf.data directory fixture; its time order is not checked"
fi
exit 0
