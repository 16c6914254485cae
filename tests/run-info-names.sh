#!/bin/sh
# SPDX-License-Identifier: MIT
# The commands --info gives the processes of a system-wide recording
# (testdata/system-wide.perf.data.gz: 80 processes, some forked by a
# shell without a COMM record of their own) are those perf gives their
# main threads: perf report --sort pid (run here when perf is there,
# else as testdata/system-wide.perf.data.threads keeps it), "TID:COMM" a
# thread.  A process that only forked takes its parent's command.
. "${top_srcdir:-$(dirname "$0")/..}/tests/test-subr.sh"

gunzip -c "$(testfile system-wide.perf.data.gz)" > sw.data
want=$(testfile system-wide.perf.data.threads)
if have perf &&
   perf report -i sw.data --sort pid -F pid -g none --stdio \
	> report.out 2> /dev/null; then
	grep -v '^#' report.out | sed '/^$/d; s/^ *//; s/ *$//' |
		LC_ALL=C sort > threads
	compare_text "$want" threads "perf report's threads"
	echo "oracle: perf report"
else
	cp "$want" threads
	echo "oracle: testdata/system-wide.perf.data.threads (no perf)"
fi

check_exit 0 "$PERF2GPERF" --info sw.data
# "PID:COMM" of each process --info lists (COUNT PID COMM...)
awk '/^# processes/ { s = 1; next }
	s && !/^#/ { c = $3; for (i = 4; i <= NF; i++) c = c " " $i
		     print $2 ":" c }' out | LC_ALL=C sort > ours
[ "$(wc -l < ours)" -eq 80 ] || fail "--info lists $(wc -l < ours) processes, not 80"
# perf's line for the main thread of each of them
awk -F: 'NR == FNR { want[$1] = $0; next }
	$1 in want { print want[$1] }' threads ours | LC_ALL=C sort > theirs
[ "$(wc -l < theirs)" -eq 80 ] || fail "perf names $(wc -l < theirs) of the 80 main threads"
compare_text theirs ours "the commands of --info's processes"
