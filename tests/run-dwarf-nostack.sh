#!/bin/sh
# SPDX-License-Identifier: MIT
# DWARF samples whose stack copy is empty: the kernel writes dyn_size 0
# when it could copy none of the user stack (during exec, at exit), and
# perf then gives the sample no user frame (util/machine.c bails out when
# nothing was captured): a sample taken in the kernel keeps its kernel
# frames only, one taken in user mode is [ip] (perf-stacks.py's stack of
# a sample without a callchain).  testdata/dwarfprog-nostack.perf.data.gz
# is the DWARF fixture with every fourth sample's dyn_size set to 0
# (testdata/mknostack.pl); testdata/dwarfprog-nostack.perf.data.expected
# is perf's view of it (see testdata/README).  perf2gperf, given the
# program through --symfs, must write perf's stacks, and --stats count
# only the other samples as DWARF samples.
. "${top_srcdir:-$(dirname "$0")/..}/tests/test-subr.sh"
. "$top_srcdir/tests/stacks.sh"

prog=$(testfile dwarfprog.gz)
data=$(testfile dwarfprog-nostack.perf.data.gz)
expected=$(testfile dwarfprog-nostack.perf.data.expected)
need_cmd gzip

HOME=$test_dir/home
export HOME
mkdir -p "$HOME" symfs/opt/p2g-fixture
gzip -dc < "$prog" > symfs/opt/p2g-fixture/dwarfprog ||
	hard_error "cannot unpack $prog"

stacks_oracle "$expected" | stacks_dwarf_norm > want.stacks
total=$(awk '{ s += $1 } END { print s + 0 }' want.stacks)
[ "$total" -eq 248 ] || hard_error "$total samples in $expected, not 248"

check_exit 0 "$PERF2GPERF" --stats --no-fixup --symfs symfs "$data" ns.prof
check_grep "dwarf samples                     186"
check_exit 0 "$GPERFCHECK" --dump ns.prof
stacks_dump out > got.stacks
compare_text want.stacks got.stacks "stacks with empty stack copies"

exit 0
