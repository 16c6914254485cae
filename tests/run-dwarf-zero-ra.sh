#!/bin/sh
# SPDX-License-Identifier: MIT
# A return address of 0 under DWARF unwinding ends the stack; it is never
# written as a frame (a gperftools profile cannot hold PC 0: gperfcheck
# rejects "record N has PC 0", and perl pprof takes a record starting
# with 0 for the end of the data).  A 0 marks the bottom of a thread's
# stack; libdw's CFI unwinder stops there, but its frame-pointer
# fallback, for code without CFI, returns it as a frame.
# testdata/pc0.perf.data.gz is perf record --call-graph dwarf of
# testdata/progs/pc0.c (testdata/pc0.gz), whose spin() has no CFI and
# its frame pointer on a frame record with return address 0 (see
# testdata/README).  Unwound by libdw (src/lib/model/unwind.c):
#  - gperfcheck accepts the profile;
#  - the stacks are perf's (testdata/pc0.perf.data.expected, where perf's
#    frame for the 0, printed as 0 - 1, is a context marker to
#    perf-stacks.py and left out);
#  - --stats counts every sample as unwound to the end.
. "${top_srcdir:-$(dirname "$0")/..}/tests/test-subr.sh"
. "$top_srcdir/tests/stacks.sh"

prog=$(testfile pc0.gz)
data=$(testfile pc0.perf.data.gz)
expected=$(testfile pc0.perf.data.expected)
need_cmd gzip

HOME=$test_dir/home
export HOME
mkdir -p "$HOME" symfs/opt/p2g-fixture
gzip -dc < "$prog" > symfs/opt/p2g-fixture/pc0 || hard_error "cannot unpack $prog"

stacks_oracle "$expected" | stacks_dwarf_norm > want.stacks
total=$(awk '{ s += $1 } END { print s + 0 }' want.stacks)
[ "$total" -gt 20 ] || hard_error "only $total samples in $expected"

check_exit 0 "$PERF2GPERF" --stats --no-fixup --symfs symfs "$data" pc0.prof
check_grep "dwarf unwound            $(printf %12d "$total")"
check_exit 0 "$GPERFCHECK" --dump pc0.prof
stacks_dump out > got.stacks
compare_text want.stacks got.stacks "stacks"

exit 0
