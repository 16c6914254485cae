#!/bin/sh
# SPDX-License-Identifier: MIT
# LBR call stacks (perf record --call-graph lbr): the kernel records the
# user part of each call stack in the branch stack (branch_sample_type
# CALL_STACK), not in the callchain, and perf stitches it in: the kernel
# part of the callchain, then the target of the newest call, then the
# source of every call (see src/lib/model/aggregate.h, aggregate_lbr()).
# perf2gperf must write perf's stacks with every call source + 1 (a
# profile holds return addresses; pprof subtracts 1), and gperfcheck must
# accept the profile; --stats counts the samples as stacks from LBR:
#  - testdata/lbr/hot-lbr.perf.data, laid out as an LBR recording from
#    testdata/hot.perf.data by testdata/lbr/mklbr.pl (this machine has no
#    PMU), one sample in five with an empty branch stack, against
#    perf's stacks in testdata/lbr/hot-lbr.perf.data.expected (and, where
#    perf is installed, against perf script run now);
#  - ../shared/corpus/perfparser/vector_static_gcc/perf.lbr.data, recorded
#    on a machine with an Intel PMU, against perf script (where the corpus
#    and perf are there).
# perf's stacks come from perf script with testdata/perf-stacks.py and
# PERF_STACKS_LBR=1: a sample with an empty branch stack gets, from perf
# before 6.7, one frame read past the sample's end, which the script
# leaves out.
. "${top_srcdir:-$(dirname "$0")/..}/tests/test-subr.sh"
. "$top_srcdir/tests/stacks.sh"

stacks_py=$(testfile perf-stacks.py)
fixture=$(testfile lbr/hot-lbr.perf.data)
expected=$(testfile lbr/hot-lbr.perf.data.expected)

# perf_lbr_stacks FILE: perf script's stitched stacks of FILE, canonical
perf_lbr_stacks() {
	PERF_STACKS_LBR=1 PERF_STACKS_OUT=perf.expected HOME=$test_dir \
		perf script -i "$1" --no-inline -s "$stacks_py" > /dev/null \
		2> perf.err ||
		hard_error "perf script fails on $1: $(head -n 3 perf.err)"
	stacks_oracle perf.expected
}

# check_lbr FILE WANT SAMPLES: perf2gperf's stacks of FILE are those of
# canonical text WANT (perf's, call sources as they are), all SAMPLES
# samples from LBR
check_lbr() {
	stacks_dwarf_norm "$2" > want.stacks
	check_exit 0 "$PERF2GPERF" --stats --no-fixup "$1" lbr.prof
	check_grep "stacks from LBR          $(printf %12d "$3")"
	check_exit 0 "$GPERFCHECK" --dump lbr.prof
	stacks_dump out > got.stacks
	compare_text want.stacks got.stacks "perf2gperf's LBR stacks of $1"
	# the user frames are there: samples with user callers
	deep=$(awk '{ u = 0; for (i = 2; i <= NF; i++) u += length($i) < 18 }
		u > 1 { s += $1 } END { print s + 0 }' got.stacks)
	[ "$deep" -ge $(($3 / 2)) ] ||
		fail "only $deep samples of $1 have user callers"
}

stacks_oracle "$expected" > fixture.stacks
total=$(awk '{ s += $1 } END { print s + 0 }' fixture.stacks)
[ "$total" -gt 100 ] || hard_error "only $total samples in $expected"
check_lbr "$fixture" fixture.stacks "$total"

if ! have perf; then
	echo "perf is not installed: the fixture's oracle not rechecked," \
		"the corpus recording not compared"
	exit 0
fi
perf_lbr_stacks "$fixture" > perf.stacks
compare_text fixture.stacks perf.stacks "perf's view of $fixture"

data=$top_srcdir/../shared/corpus/perfparser/vector_static_gcc/perf.lbr.data
if [ ! -f "$data" ]; then
	echo "no corpus file $data: not compared"
	exit 0
fi
perf_lbr_stacks "$data" > corpus.stacks
total=$(awk '{ s += $1 } END { print s + 0 }' corpus.stacks)
[ "$total" -eq 29 ] || hard_error "perf shows $total samples, not 29"
check_lbr "$data" corpus.stacks 29

exit 0
