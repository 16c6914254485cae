#!/bin/sh
# SPDX-License-Identifier: MIT
# perf2gperf --info on the crafted inputs of testdata/regress/ (made by
# mkregress.pl from hot.perf.data; see testdata/README):
#  - mem-topology-bits.perf.data: a MEM_TOPOLOGY node whose bitmap
#    claims 2^64-1 bits.  The section is reported malformed; the rest of
#    the summary is printed and the exit status is 0.
#  - sample-callchain-nr.perf.data: the second sample's callchain claims
#    2^32 entries.  --info reports the error as the conversion does
#    (file and offset, exit status 1), after printing the summary with
#    the one sample read before it.
#  - attr-ids-shared.perf.data: 100 attrs whose ids all lie in one
#    section: refused (exit 1), in --info too.
. "${top_srcdir:-$(dirname "$0")/..}/tests/test-subr.sh"

topo=$(testfile regress/mem-topology-bits.perf.data)
check_exit 0 "$PERF2GPERF" --info "$topo"
check_grep '# memory nodes (nr 1, block size 0x8000000):' out
check_grep '# memory topology: malformed section at 0x' out
check_grep '# events (samples):' out
[ ! -s err ] || { cat err >&2; fail "mem-topology-bits: --info wrote to stderr"; }

chain=$(testfile regress/sample-callchain-nr.perf.data)
check_exit 1 "$PERF2GPERF" -q "$chain" chain.prof
check_grep "$chain: offset 0x"
grep "^perf2gperf: " err > convert.err
[ ! -e chain.prof ] || fail "sample-callchain-nr: a profile was written"
check_exit 1 "$PERF2GPERF" --info "$chain"
compare_text convert.err err "the error of --info"
printf '%12d  cpu-clock\n' 1 > want
grep -A1 '^# events (samples):' out | tail -n 1 > got
compare_text want got "the samples --info counted before the error"

# 100 attrs whose ids are one section: refused at the attr whose ids no
# longer fit in the file with the others'
shared=$(testfile regress/attr-ids-shared.perf.data)
check_exit 1 "$PERF2GPERF" -q "$shared" shared.prof
check_grep "the ids of attrs 0 to 1 add up to more bytes than the file has"
check_exit 1 "$PERF2GPERF" --info "$shared"
check_grep "the ids of attrs 0 to 1 add up to more bytes than the file has"
echo "malformed MEM_TOPOLOGY, an undecodable sample, shared ids: as documented"
exit 0
