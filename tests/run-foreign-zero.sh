#!/bin/sh
# SPDX-License-Identifier: MIT
# Samples whose only frame is address 0: perf counts them (perf script
# prints "0 [unknown]"), so the folded and pprof outputs keep them; the
# gperftools format cannot hold address 0, so that output leaves them out
# and a warning says how many and why.  On
# testdata/regress/sample-at-zero.perf.data (mkregress.pl: 1 of its 3
# samples at 0; the folded case folded-sample-at-zero compares with perf's
# stackcollapse.py) and, in the live tier, on the two files of
# ../shared/corpus/foreign that have such samples, against perf's own
# stackcollapse.py counts, and with go tool pprof.
. "${top_srcdir:-$(dirname "$0")/..}/tests/test-subr.sh"

data=$(testfile regress/sample-at-zero.perf.data)
check_exit 0 "$PERF2GPERF" --stats "$data" z.prof
check_grep "warning: 1 sample at address 0 (perf's [unknown]) left out: the gperftools format cannot hold address 0"
# stat NAME: the number --stats gives for NAME
stat() {
	awk -v k="$1" 'index($0, "  " k " ") == 1 { print $NF }' err
}
[ "$(stat "samples at address 0")" = 1 ] || fail "not 1 sample at address 0"
[ "$(stat "samples written")" = 2 ] || fail "not 2 samples written"
check_exit 0 "$PERF2GPERF" --stats -f pprof "$data" z.pb.gz
[ "$(stat "samples written")" = 3 ] || fail "not 3 samples in pprof"
if grep -q "address 0 (" err; then
	fail "the pprof output warns about address 0"
fi
check_exit 0 "$PERF2GPERF" -f folded "$data" z.folded
[ "$(awk '{ n += $NF } END { print n }' z.folded)" = 3 ] ||
	fail "the folded stacks do not count the 3 samples"

live_rest
if have go; then
	go_env
	go_raw z.pb.gz z.raw
	n=$(awk '/^Samples/ { s = 1; next } /^Locations/ { s = 0 }
		s && /^ +[0-9]+ +[0-9]+:/ { n += $1 } END { print n }' z.raw)
	[ "$n" = 3 ] || fail "go tool pprof counts $n samples, not 3"
	grep -q "^ *[0-9]*: 0x0 " z.raw ||
		fail "go tool pprof shows no location at address 0"
fi
corpus=$top_srcdir/../shared/corpus/foreign
[ -d "$corpus" ] || {
	echo "no foreign corpus: not tried on its files"
	exit 0
}
for f in bndnio_embedded_audio_transcoder__src_perf.data \
	 mstange_linux-perf-data__tests_fixtures_fibo.compressed2.pipe.data; do
	[ -f "$corpus/$f" ] || continue
	want=$(awk '{ n += $NF } END { print n }' "$corpus/$f.py.nosym.folded")
	check_exit 0 "$PERF2GPERF" -q -f folded "$corpus/$f" c.folded
	got=$(awk '{ n += $NF } END { print n }' c.folded)
	[ "$got" = "$want" ] ||
		fail "$f: $got samples in the folded stacks, perf's $want"
	check_exit 0 "$PERF2GPERF" --stats -f pprof "$corpus/$f" c.pb.gz
	[ "$(stat "samples written")" = "$want" ] ||
		fail "$f: not perf's $want samples in pprof"
done
echo "samples at address 0 kept where the format holds them"
exit 0
