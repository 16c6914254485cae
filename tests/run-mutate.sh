#!/bin/sh
# SPDX-License-Identifier: MIT
# In-suite mutation test: thousands of damaged copies of real fixtures
# (tests/mutate, fixed seed) through both tools.  Every run must end with
# exit 0 or 1 within a time bound; a failure must name the file and the
# byte offset (a few whole-file verdicts such as "no samples" have none);
# a failed conversion must leave no output file.  Reproduce a failure with
# the printed seed and index: tests/mutate SEED INDEX FIXTURE OUT.
. "${top_srcdir:-.}/tests/test-subr.sh"

seed=${P2G_MUTATE_SEED:-20261122}
runs=${P2G_MUTATE_RUNS:-400}	# per fixture
echo "mutation seed $seed, $runs runs per fixture"
mutate=$top_builddir/tests/mutate
[ -x "$mutate" ] || fail "tests/mutate is not built"

# Messages that judge the whole file and so carry no offset.
whole_file='no samples|no event named|describes no events|is empty|out of memory|pass the filters'

check_run() {	# check_run KIND FIXTURE INDEX RC
	kind=$1 fx=$2 i=$3 rc=$4
	case $rc in
	0|1) ;;
	124) fail "$kind $fx #$i (seed $seed): timed out" ;;
	*) cat err; fail "$kind $fx #$i (seed $seed): exit $rc" ;;
	esac
	if [ "$rc" -eq 1 ]; then
		grep -q ': offset 0x[0-9a-f]*: ' err ||
			grep -Eq "$whole_file" err || {
			cat err
			fail "$kind $fx #$i (seed $seed): no offset in the message"
		}
	fi
	if grep -q 'Sanitizer\|runtime error' err; then
		cat err
		fail "$kind $fx #$i (seed $seed): sanitizer report"
	fi
}

total=0
for fx in multi.perf.data multi-pipe.perf.data multi-2ev.perf.data \
	  recurse.perf.data hot.perf.data; do
	src=$(testfile "$fx")
	i=0
	while [ $i -lt "$runs" ]; do
		"$mutate" "$seed" "$i" "$src" in.data
		rm -f out.prof
		rc=0
		timeout 20 $PERF2GPERF -q in.data out.prof 2>err || rc=$?
		check_run perf2gperf "$fx" "$i" "$rc"
		if [ "$rc" -ne 0 ]; then
			for f in out.prof out.prof.tmp*; do
				[ -e "$f" ] && fail "perf2gperf $fx #$i (seed $seed): $f left behind"
			done
		else
			$GPERFCHECK -q out.prof ||
				fail "perf2gperf $fx #$i (seed $seed): wrote an invalid profile"
		fi
		i=$((i + 1))
		total=$((total + 1))
	done
done

for fx in multi.prof threads.prof hot.prof; do
	src=$(testfile "$fx")
	i=0
	while [ $i -lt "$runs" ]; do
		"$mutate" "$seed" "$i" "$src" in.prof
		rc=0
		timeout 20 $GPERFCHECK in.prof >/dev/null 2>err || rc=$?
		check_run gperfcheck "$fx" "$i" "$rc"
		i=$((i + 1))
		total=$((total + 1))
	done
done
echo "$total damaged files: every run ended cleanly"
