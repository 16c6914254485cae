#!/bin/sh
# SPDX-License-Identifier: MIT
# gperfcheck --compare on profiles libprofiler writes now: testdata/
# progs/shares.c, linked as Debian needs (-Wl,--no-as-needed: without it
# the program, which calls nothing of libprofiler, is linked without it
# and writes no profile; checked), run twice with the same shares and
# once with 9 points of hot_loop's moved to cold_loop, about 2,000
# samples each (CPUPROFILE_FREQUENCY=1000):
#  - the two runs are never different (the same, or too few samples to
#    tell if the machine gave fewer samples);
#  - the moved run is different from the first, hot_loop among the rows
#    that differ, and no function but the three loops;
#  - each run's hot_loop share is within 8 points of what the program
#    asks for (50 and 42 percent of the work), by --expect-function.
# Skips without gcc or libprofiler.
. "${top_srcdir:-$(dirname "$0")/..}/tests/test-subr.sh"
need_cmd gcc
LIBPROFILER=${LIBPROFILER:-/usr/lib/x86_64-linux-gnu/libprofiler.so.0}
[ -f "$LIBPROFILER" ] || skip "no libprofiler ($LIBPROFILER)"
cflags="-O0 -g -fno-omit-frame-pointer -fno-inline -no-pie"
src=$(testfile progs/shares.c)

# as-needed, the library is dropped and no profile is written
${CC:-gcc} $cflags -Wl,--as-needed -o dropped "$src" "$LIBPROFILER" 2> cc.log ||
	{ cat cc.log >&2; skip "cannot build shares.c"; }
CPUPROFILE=$test_dir/dropped.prof ./dropped 50 30 20 1 2> run.log ||
	fail "shares failed: $(cat run.log)"
[ ! -e dropped.prof ] || echo "note: libprofiler wrote a profile without --no-as-needed"
${CC:-gcc} $cflags -o shares "$src" -Wl,--no-as-needed "$LIBPROFILER" 2> cc.log ||
	{ cat cc.log >&2; skip "cannot build shares.c with libprofiler"; }

# run NAME HOT WARM COLD: NAME.prof, about 2,000 samples
run() {
	CPUPROFILE=$test_dir/$1.prof CPUPROFILE_FREQUENCY=1000 \
		./shares $2 $3 $4 2000 > $1.log 2>&1 ||
		{ cat $1.log >&2; fail "shares failed"; }
	[ -s $1.prof ] || fail "libprofiler wrote no $1.prof"
	check_exit 0 "$GPERFCHECK" -q --min-samples 1 $1.prof
}
run a 50 30 20
run b 50 30 20
run shift 42 30 28
check_exit 0 "$GPERFCHECK" -s a.prof b.prof shift.prof
cat out

st=0
"$GPERFCHECK" --compare a.prof b.prof > out || st=$?
cat out
[ $st = 0 ] || [ $st = 3 ] || fail "two runs of one program: exit status $st"
check_exit 1 "$GPERFCHECK" --compare a.prof shift.prof
awk 'NR > 2 && $9 == "different" { print $10 }' out | sort > diff.got
# hot_loop moved most (8 points); the shares the other loops get from
# one run to the next vary by a few points on a loaded machine, so
# cold_loop and warm_loop may or may not be told apart, and nothing
# else may differ
grep -q -x hot_loop diff.got || fail "hot_loop is not among the rows that differ"
! grep -v -x -e hot_loop -e cold_loop -e warm_loop diff.got ||
	fail "rows that should not differ do"
check_exit 0 "$GPERFCHECK" --expect-function hot_loop --min-share 42 \
	--max-share 58 a.prof b.prof
check_exit 0 "$GPERFCHECK" --expect-function hot_loop --min-share 34 \
	--max-share 50 shift.prof
exit 0
