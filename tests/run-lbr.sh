#!/bin/sh
# SPDX-License-Identifier: MIT
# LBR call stacks (perf record --call-graph lbr): the kernel records the
# user part of each call stack in the branch stack (branch_sample_type
# CALL_STACK), not in the callchain, and perf stitches it in: the kernel
# part of the callchain, then the target of the newest call, then the
# source of every call (see src/lib/model/aggregate.h, aggregate_lbr()).
# perf2gperf must write perf's stacks with every call source + 1 (a
# profile holds return addresses; pprof subtracts 1):
#  - on ../shared/corpus/perfparser/vector_static_gcc/perf.lbr.data, a
#    recording on a machine with an Intel PMU (skipped without it);
#  - --stats counts every sample as a stack from LBR, and gperfcheck
#    accepts the profile.
# Oracle: perf script with testdata/perf-stacks.py, PERF_STACKS_LBR=1 (a
# sample with an empty branch stack gets, from perf before 6.7, one frame
# read past the sample's end: the script leaves it out).
. "${top_srcdir:-$(dirname "$0")/..}/tests/test-subr.sh"
. "$top_srcdir/tests/stacks.sh"

need_cmd perf
stacks_py=$(testfile perf-stacks.py)
data=$top_srcdir/../shared/corpus/perfparser/vector_static_gcc/perf.lbr.data
[ -f "$data" ] || skip "no corpus file $data"

PERF_STACKS_LBR=1 PERF_STACKS_OUT=perf.expected HOME=$test_dir \
	perf script -i "$data" --no-inline -s "$stacks_py" > /dev/null \
	2> perf.err || hard_error "perf script fails: $(head -n 3 perf.err)"
stacks_oracle perf.expected | stacks_dwarf_norm > want.stacks
total=$(awk '{ s += $1 } END { print s + 0 }' want.stacks)
[ "$total" -eq 29 ] || hard_error "perf shows $total samples, not 29"

check_exit 0 "$PERF2GPERF" --stats --no-fixup "$data" lbr.prof
check_grep "stacks from LBR                    29"
check_exit 0 "$GPERFCHECK" --dump lbr.prof
stacks_dump out > got.stacks
compare_text want.stacks got.stacks "perf2gperf's LBR stacks"

# The user frames are there: samples with more than one user frame.
deep=$(awk '{ u = 0; for (i = 2; i <= NF; i++) u += length($i) < 18 }
	u > 1 { s += $1 } END { print s + 0 }' got.stacks)
[ "$deep" -ge 20 ] || fail "only $deep samples have user callers"

exit 0
