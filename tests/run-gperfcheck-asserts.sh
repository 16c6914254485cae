#!/bin/sh
# SPDX-License-Identifier: MIT
# gperfcheck's modes, --json, assertions, warnings and --compare
# (doc/gperfcheck.1):
#  - --strict and --lenient give the exit status the mode table of
#    testdata/gperf/README derives by hand for each hand-made profile;
#  - --min-samples/--max-samples at and beside the sample count of
#    libprofiler's testdata/hot.prof, which google-pprof's own text view
#    gives (hot.prof.pprof-text, "Total: N samples"), and --period-us
#    against its period, 4000 us (recorded with CPUPROFILE_FREQUENCY=250,
#    testdata/mkfixtures.sh); failing ones exit 1 naming the assertion;
#  - warnings, which never change the exit status: the --no-fixup
#    profile of hot-user (every stack shares main's return address,
#    testdata/README) warns of the shared second frame; good-64be.prof
#    (hand-made, testdata/gperf/README) has 3 of its 10 PCs, counted by
#    samples, outside its one mapping; a maps path with a space is
#    warned of; -q silences all;
#  - --compare: a profile against itself and its gzipped copy is equal;
#    against a profile of the same recording given twice (every count
#    doubled, run-output-options.sh) it differs, naming the first stack;
#    --tolerance 50 accepts that, 49 does not.
. "${top_srcdir:-$(dirname "$0")/..}/tests/test-subr.sh"
need_cmd gzip

hot=$(testfile hot.prof)
total=$(sed -n 's/^Total: \([0-9]*\) samples$/\1/p' "$TESTDATA/hot.prof.pprof-text")
[ -n "$total" ] || hard_error "no Total line in hot.prof.pprof-text"

check_exit 0 "$GPERFCHECK" -q --min-samples $total --max-samples $total --period-us 4000 "$hot"
check_exit 1 "$GPERFCHECK" --min-samples $((total + 1)) "$hot"
check_grep "$total samples, fewer than --min-samples $((total + 1))"
check_exit 1 "$GPERFCHECK" --max-samples $((total - 1)) "$hot"
check_grep "more than --max-samples $((total - 1))"
check_exit 1 "$GPERFCHECK" --period-us 1000 "$hot"
check_grep "the period is 4000 us, not --period-us 1000"
check_exit 2 "$GPERFCHECK" --min-samples x "$hot"

# --strict and --lenient: the table "mode FILE STRICT LENIENT" of
# testdata/gperf/README
readme=$(testfile gperf/README)
grep '^mode ' "$readme" > modes
[ "$(wc -l < modes)" -ge 15 ] || hard_error "no mode table in $readme"
while read -r tag file strict lenient; do
	check_exit $strict "$GPERFCHECK" -q --strict "$TESTDATA/gperf/$file"
	check_exit $lenient "$GPERFCHECK" -q --lenient "$TESTDATA/gperf/$file"
done < modes
check_exit 1 "$GPERFCHECK" --strict "$TESTDATA/gperf/good-nomaps.prof"
check_grep "no maps text after the trailer"

# --json: one object per file, the verdict and its offset (bad-pc0.prof:
# 0x40 = 64 in testdata/gperf/README), valid JSON where python3 can say
check_exit 1 "$GPERFCHECK" -q --json "$TESTDATA/gperf/good-64le.prof" \
	"$TESTDATA/gperf/bad-pc0.prof"
[ "$(wc -l < out)" -eq 2 ] || fail "--json gave $(wc -l < out) lines for 2 files"
head -n 1 out | grep -q '"valid":true,"slot_bits":64,"byte_order":"little"' ||
	fail "--json of good-64le.prof: $(head -n 1 out)"
tail -n 1 out | grep -q '"status":1,"valid":false,"error":{"message":"[^"]*","offset":64}' ||
	fail "--json of bad-pc0.prof: $(tail -n 1 out)"
if command -v python3 > /dev/null 2>&1; then
	python3 -c 'import json, sys
for line in sys.stdin: json.loads(line)' < out || fail "--json is not JSON"
fi

# warnings
hu=$(testfile hot-user.perf.data)
check_exit 0 "$PERF2GPERF" -q --no-fixup "$hu" hu.prof
check_exit 0 "$GPERFCHECK" hu.prof
check_grep "hu.prof: warning: every record has the second frame 0x401192"
check_exit 0 "$GPERFCHECK" "$TESTDATA/gperf/good-64be.prof"
check_grep "warning: 3 of 10 PCs (counted by samples) are in no executable mapping"
cp "$TESTDATA/gperf/good-nomaps.prof" space.prof
printf '00400000-00402000 r-xp 00000000 08:01 1 /tmp/a b/prog\n' >> space.prof
check_exit 0 "$GPERFCHECK" space.prof
check_grep "1 maps lines have a path with a space"
cp "$TESTDATA/gperf/good-nomaps.prof" glued.prof
printf '00400000-00402000 r-xp 00000000 08:01 1234/usr/bin/prog\n' >> glued.prof
check_exit 0 "$GPERFCHECK" glued.prof
check_grep "1 maps lines have no space between the inode and the path"
check_exit 0 "$GPERFCHECK" -q hu.prof space.prof
[ ! -s err ] || fail "-q printed warnings"

# --compare
multi=$(testfile multi.perf.data)
check_exit 0 "$PERF2GPERF" -q --no-fixup "$multi" one.prof
check_exit 0 "$PERF2GPERF" -q --no-fixup -o twice.prof "$multi" "$multi"
gzip -n -c one.prof > one.prof.gz
check_exit 0 "$GPERFCHECK" --compare one.prof one.prof.gz
check_grep "the same" out
check_exit 1 "$GPERFCHECK" --compare one.prof twice.prof
check_grep "first difference: stack 0x" out
# the first record of one.prof, as its dump shows it ("count pc pc ...")
check_exit 0 "$GPERFCHECK" --dump one.prof
first=$(awk 'NR == 3' out)
pcs=${first#* }
check_exit 1 "$GPERFCHECK" --compare one.prof twice.prof
check_grep "first difference: stack $pcs: ${first%% *} samples in one.prof, $((2 * ${first%% *})) in twice.prof" out
check_exit 0 "$GPERFCHECK" --compare --tolerance 50 one.prof twice.prof
check_exit 1 "$GPERFCHECK" --compare --tolerance 49% one.prof twice.prof
check_exit 2 "$GPERFCHECK" --compare one.prof
exit 0
