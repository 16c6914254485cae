#!/bin/sh
# SPDX-License-Identifier: MIT
# Spooled and compressed input grows only as far as the data that is
# used (doc/perf2gperf.1, LIMITATIONS and --max-inflate):
#  - a file-mode perf.data followed by 64 MB of zeros, on a pipe and
#    gzip-compressed, is spooled only as far as its header declares: it
#    converts under a file size limit of a few MB (ulimit -f), with the
#    profile of the file alone;
#  - gzip data that is not a perf.data file is refused from its first
#    bytes, before the rest is inflated, under the same limit;
#  - a pipe-mode perf.data followed by 16 MB of FINISHED_ROUND records,
#    gzip-compressed, is read as it is inflated, never spooled: it
#    converts under the same limit, with --max-inflate 0, to the profile
#    of the file alone; compressed over 100 times, it is refused by
#    --max-inflate 100, naming the option; the zstd stream of perf
#    record -z has the same bound (tests/unit/test-zstream.c), and the
#    -z fixtures convert with the default bound.
. "${top_srcdir:-$(dirname "$0")/..}/tests/test-subr.sh"
need_cmd gzip head

hot=$(testfile hot.perf.data)
pipe=$(testfile multi-pipe.perf.data)

# 64 MB of zeros without reading /dev/zero more than once
head -c 64000000 /dev/zero > zeros
cat "$hot" zeros > hot-zeros.data
gzip -1 -c hot-zeros.data > hot-zeros.data.gz
gzip -1 -c zeros > zeros.gz
rm -f hot-zeros.data
# 2^21 FINISHED_ROUND records (type 68, size 8, little-endian as the
# fixture is)
printf '\104\0\0\0\0\0\10\0' > rounds
for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21; do
	cat rounds rounds > rounds2
	mv rounds2 rounds
done
cat "$pipe" rounds | gzip -9 > pipe-rounds.data.gz
rm -f rounds

check_exit 0 "$PERF2GPERF" -q "$hot" hot.prof
"$GPERFCHECK" --dump hot.prof > hot.dump

# ulimit -f counts 512-byte blocks in dash, 1024 in bash: 4 or 8 MB
limited() {
	(ulimit -f 8192 && exec "$@")
}

{ cat "$hot"; cat zeros; } | limited "$PERF2GPERF" -q - piped.prof > out 2> err ||
	{ cat err >&2; fail "a perf.data and zeros on a pipe: not converted"; }
"$GPERFCHECK" --dump piped.prof > piped.dump
compare_text hot.dump piped.dump "the profile of a perf.data and zeros on a pipe"

check_exit 0 limited "$PERF2GPERF" -q hot-zeros.data.gz gz.prof
"$GPERFCHECK" --dump gz.prof > gz.dump
compare_text hot.dump gz.dump "the profile of a gzip perf.data and zeros"

check_exit 1 limited "$PERF2GPERF" zeros.gz z.prof
check_grep "zeros.gz: offset 0x0: not a perf.data file (no PERFILE2 magic)"
[ ! -e z.prof ] || fail "a profile was written for zeros.gz"

check_exit 0 "$PERF2GPERF" -q "$pipe" pipe.prof
"$GPERFCHECK" --dump pipe.prof > pipe.dump
check_exit 0 limited "$PERF2GPERF" -q --max-inflate 0 pipe-rounds.data.gz \
	rounds.prof
"$GPERFCHECK" --dump rounds.prof > rounds.dump
compare_text pipe.dump rounds.dump \
	"the profile of a gzip pipe-mode perf.data and its rounds"
check_exit 1 "$PERF2GPERF" --max-inflate 100 pipe-rounds.data.gz p.prof
check_grep "gzip data inflates to over 100 times its size"
check_grep "(--max-inflate lifts the bound)"
check_exit 2 "$PERF2GPERF" --max-inflate x pipe-rounds.data.gz p.prof

for f in multi-z.perf.data threads-z-pipe.perf.data; do
	check_exit 0 "$PERF2GPERF" -q "$(testfile $f)" z.prof
done
exit 0
