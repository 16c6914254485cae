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
#  - expectations on a hand-made profile of known shares: each share
#    option binds to the --expect-* before it (else a usage error), all
#    are checked, each has a line with its value, threshold and verdict;
#    --expect-mapping by path or file name; --flat and --cum; a function
#    that recurs counts once per sample; --json lists every mapping with
#    its samples, escaped;
#  - --compare: that profile moved elsewhere in memory has the same
#    shares (--tolerance 0), though --compare-stacks finds them
#    different; a profile of one recording given twice has the same
#    shares as of it given once;
#  - --compare-stacks: a profile against itself and its gzipped copy is
#    equal; against a profile of the same recording given twice (every
#    count doubled, run-output-options.sh) it differs, naming the first
#    stack; --tolerance 50 accepts that, 49 does not; the stacks in both
#    files are counted truly (comm(1) over the two dumps).
. "${top_srcdir:-$(dirname "$0")/..}/tests/test-subr.sh"
need_cmd gzip

hot=$(testfile hot.prof)
total=$(sed -n 's/^Total: \([0-9]*\) samples$/\1/p' "$TESTDATA/hot.prof.pprof-text")
[ -n "$total" ] || hard_error "no Total line in hot.prof.pprof-text"

check_exit 0 "$GPERFCHECK" -q --min-samples $total --max-samples $total --period-us 4000 "$hot"
check_exit 1 "$GPERFCHECK" --min-samples $((total + 1)) "$hot"
check_grep "$hot: $total samples, --min-samples $((total + 1)): FAIL" out
check_exit 1 "$GPERFCHECK" --max-samples $((total - 1)) "$hot"
check_grep "$hot: $total samples, --max-samples $((total - 1)): FAIL" out
check_exit 1 "$GPERFCHECK" --period-us 1000 "$hot"
check_grep "$hot: period 4000 us, --period-us 1000: FAIL" out
check_exit 2 "$GPERFCHECK" --min-samples x "$hot"
# every assertion is checked and has its line, those that hold too
check_exit 1 "$GPERFCHECK" --period-us 1000 --min-samples $total "$hot"
check_grep "$hot: period 4000 us, --period-us 1000: FAIL" out
check_grep "$hot: $total samples, --min-samples $total: ok" out
[ "$(wc -l < out)" -eq 2 ] || fail "2 assertions, $(wc -l < out) lines"

# Expectations, on a profile whose shares are plain by construction
# (10 samples; the maps files need not exist for mappings):
#   6 x prog 0x400100 <- libhot.so 0x7f0000001000
#   2 x libhot.so 0x7f0000001100 <- prog 0x400200
#   1 x prog 0x400300 <- prog 0x400310 <- prog 0x400320 (prog recurs)
#   1 x x.so 0x7f0000100010 <- libhot.so 0x7f0000001200
# prog: flat 7, cumulative 9 (once per sample: not 11); libhot.so:
# flat 2, cumulative 9; x.so: 1 and 1, and its path has a quote and a
# backslash, which --json must escape.
# shares_prof K: that profile with every count K times as large
shares_prof() {
	for w in 0 3 0 1000 0  $((6 * $1)) 2 0x400100 0x7f0000001000 \
		$((2 * $1)) 2 0x7f0000001100 0x400200 \
		$1 3 0x400300 0x400310 0x400320 \
		$1 2 0x7f0000100010 0x7f0000001200  0 1 0; do
		le64 $((w))
	done
	echo '00400000-00401000 r-xp 00000000 00:00 1 /opt/app/prog'
	echo '7f0000000000-7f0000002000 r-xp 00000000 00:00 2 /opt/lib/libhot.so'
	echo '7f0000100000-7f0000102000 r-xp 00000000 00:00 3 /opt/we"ird\dir/x.so'
}
shares_prof 1 > shares.prof
check_exit 0 "$GPERFCHECK" -q shares.prof
G="$GPERFCHECK shares.prof"
# a basename or a full path; cumulative with --cum
check_exit 0 $G --expect-mapping libhot.so --cum --min-share 90
check_grep "shares.prof: mapping libhot.so: cumulative 90.0% (9 of 10 samples), --min-share 90%: ok" out
check_exit 0 $G --expect-mapping /opt/lib/libhot.so --cum --min-share 90 --max-share 90
check_grep "mapping /opt/lib/libhot.so: cumulative 90.0% (9 of 10 samples), --min-share 90%, --max-share 90%: ok" out
check_exit 1 $G --expect-mapping libhot.so --cum --min-share 91
check_grep "mapping libhot.so: cumulative 90.0% (9 of 10 samples), --min-share 91%: FAIL" out
# a name no line of the maps text has fails, whatever the threshold,
# and the nearest names are offered
check_exit 1 $G --expect-mapping hot.so --max-share 100
check_grep "mapping hot.so: no line of the maps text has a file of that name (did you mean libhot.so?), --max-share 100%: FAIL" out
check_exit 1 $G --expect-mapping /opt/libhot.so --max-share 50
check_grep "mapping /opt/libhot.so: no line of the maps text has that path (did you mean /opt/lib/libhot.so?), --max-share 50%: FAIL" out
# prog recurs in one sample: counted once
check_exit 0 $G --expect-mapping prog --cum --min-share 90 --max-share 90
check_grep "mapping prog: cumulative 90.0% (9 of 10 samples)" out
# flat (self) samples by default, as perf report --sort dso counts;
# --flat and --cum, for the expectation before them
check_exit 0 $G --expect-mapping libhot.so --min-share 20 --max-share 20
check_grep "mapping libhot.so: flat 20.0% (2 of 10 samples), --min-share 20%, --max-share 20%: ok" out
check_exit 0 $G --expect-mapping libhot.so --cum --flat --min-share 20 --max-share 20
check_grep "mapping libhot.so: flat 20.0% (2 of 10 samples), --min-share 20%, --max-share 20%: ok" out
check_exit 1 $G --expect-mapping prog --flat --min-share 71
check_grep "mapping prog: flat 70.0% (7 of 10 samples), --min-share 71%: FAIL" out
check_exit 0 $G --expect-mapping libhot.so --flat --cum --min-share 90
check_exit 1 $G --expect-mapping libhot.so --cum --max-share 89.9
check_grep "--max-share 89.9%: FAIL" out
# each share option binds to the expectation before it, and every
# expectation is checked, whatever the order
check_exit 1 $G --expect-mapping libhot.so --cum --min-share 95 --expect-mapping prog
check_grep "mapping libhot.so: cumulative 90.0% (9 of 10 samples), --min-share 95%: FAIL" out
check_grep "mapping prog: flat 70.0% (7 of 10 samples), in some sample: ok" out
check_exit 1 $G --expect-mapping prog --expect-mapping libhot.so --cum --min-share 95
check_exit 0 $G --expect-mapping libhot.so --expect-mapping prog --min-share 70
check_exit 1 $G --expect-mapping prog --min-share 95 --expect-mapping libhot.so \
	--flat --min-share 21 --expect-mapping x.so
[ "$(grep -c ': FAIL$' out)" -eq 2 ] && [ "$(grep -c ': ok$' out)" -eq 1 ] ||
	fail "three expectations, not two failures and one pass: $(cat out)"
# a share option with nothing to bind to is a usage error
for opt in "--min-share 3" "--max-share 3" --flat --cum; do
	check_exit 2 $G $opt
	check_grep "applies to the --expect-function or --expect-mapping before it"
	check_exit 2 $G $opt --expect-mapping prog
done
check_exit 2 $G --expect-mapping prog --min-share 3 --min-share 4
check_exit 2 $G --expect-mapping prog --min-share 101
# --json: every mapping with its samples (no function has a name here:
# the files do not exist), strings escaped
check_exit 0 "$GPERFCHECK" --json --expect-mapping libhot.so --cum shares.prof
grep -F -q '"path":"/opt/we\"ird\\dir/x.so","flat_samples":1,"cum_samples":1}' out ||
	fail "--json does not escape a path: $(cat out)"
if have python3; then
	python3 -m json.tool out > /dev/null || fail "--json is not JSON: $(cat out)"
	python3 -c '
import json
d = json.load(open("out"))
m = {x["path"]: (x["flat_samples"], x["cum_samples"]) for x in d["mappings"]}
want = {"/opt/app/prog": (7, 9), "/opt/lib/libhot.so": (2, 9),
        "/opt/we\"ird\\dir/x.so": (1, 1)}
assert m == want, m
assert d["functions"] == [], d["functions"]
assert d["checks"] == [{"kind": "mapping", "name": "libhot.so",
    "measure": "cum", "operator": ">", "value": 90, "threshold": 0,
    "samples": 9, "total": 10, "verdict": "ok", "known": True,
    "check": "mapping libhot.so: cumulative 90.0% (9 of 10 samples), in some sample",
    "ok": True}], d["checks"]
assert d["warnings"] == [], d["warnings"]
' || fail "--json of shares.prof: $(cat out)"
fi

# --compare by shares: the same profile with every mapping 0x10000000
# higher (ASLR; tests/aslr-shift.py) has exactly the same shares, though
# no stack in common: the same at 10000 samples, too few samples to tell
# at 10 (exit status 3), every difference 0 either way; a profile of
# other mappings has others
if have python3; then
	python3 "$top_srcdir/tests/aslr-shift.py" shares.prof moved.prof 10000000 ||
		hard_error "aslr-shift.py failed"
	check_exit 0 "$GPERFCHECK" --dump moved.prof
	grep -q '^6 0x10400100 0x7f0010001000$' out ||
		hard_error "aslr-shift.py moved nothing: $(cat out)"
	check_exit 3 "$GPERFCHECK" --compare shares.prof moved.prof
	check_grep "shares.prof and moved.prof: too few samples to tell: 10 and 10 samples" out
	[ "$(awk 'NR > 2 && $6 != "+0.00"' out | wc -l)" -eq 0 ] &&
	[ "$(awk 'NR > 2 && $9 == "unsure"' out | wc -l)" -eq 3 ] ||
		fail "--compare of 10 moved samples: $(cat out)"
	check_exit 1 "$GPERFCHECK" --compare-stacks shares.prof moved.prof
	shares_prof 1000 > big.prof
	python3 "$top_srcdir/tests/aslr-shift.py" big.prof bigmoved.prof 10000000 ||
		hard_error "aslr-shift.py failed"
	check_exit 0 "$GPERFCHECK" --compare big.prof bigmoved.prof
	check_grep "big.prof and bigmoved.prof: the same shares: each of the 3 functions and mappings within 8 points (95% confidence), 10000 and 10000 samples" out
	[ "$(awk 'NR > 2 && $6 == "+0.00" && $9 == "same"' out | wc -l)" -eq 3 ] ||
		fail "--compare of 10000 moved samples: $(cat out)"
	# libhot.so: 9 of 10 samples against 0 of 3, a difference even
	# these few samples show
	check_exit 1 "$GPERFCHECK" --compare --tolerance 5 shares.prof \
		"$TESTDATA/gperf/good-64le.prof"
	check_grep "different shares: 1 of 3 functions and mappings differ, beyond chance and not within 5 points (95% confidence), 10 and 3 samples" out
	check_exit 1 "$GPERFCHECK" --compare big.prof \
		"$TESTDATA/gperf/good-64le.prof"
	check_grep "different shares: 1 of 3 functions and mappings differ, beyond chance and not within 8 points (95% confidence), 10000 and 3 samples" out
	awk '$NF == "libhot.so" && $(NF - 1) == "mapping" && $(NF - 2) == "different"' out | grep -q . ||
		fail "libhot.so is not a difference: $(cat out)"
fi

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
if have python3; then
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

# --compare-stacks: the exact comparison of stacks
multi=$(testfile multi.perf.data)
check_exit 0 "$PERF2GPERF" -q --no-fixup "$multi" one.prof
check_exit 0 "$PERF2GPERF" -q --no-fixup -o twice.prof "$multi" "$multi"
gzip -n -c one.prof > one.prof.gz
check_exit 0 "$GPERFCHECK" --compare-stacks one.prof one.prof.gz
check_grep "the same stacks" out
check_exit 1 "$GPERFCHECK" --compare-stacks one.prof twice.prof
check_grep "first difference: stack 0x" out
# the first record of one.prof, as its dump shows it ("count pc pc ...")
check_exit 0 "$GPERFCHECK" --dump one.prof
first=$(awk 'NR == 3' out)
pcs=${first#* }
check_exit 1 "$GPERFCHECK" --compare-stacks one.prof twice.prof
check_grep "first difference: stack $pcs: ${first%% *} samples in one.prof, $((2 * ${first%% *})) in twice.prof" out
check_exit 0 "$GPERFCHECK" --compare-stacks --tolerance 50 one.prof twice.prof
check_exit 1 "$GPERFCHECK" --compare-stacks --tolerance 49% one.prof twice.prof
check_exit 2 "$GPERFCHECK" --compare-stacks one.prof
# ... and its count of the stacks: with --tolerance 100 a stack may be
# missing on one side; the stacks in both are counted from the dumps
check_exit 0 "$GPERFCHECK" --dump one.prof
grep '^[0-9]' out | cut -d' ' -f2- | sort -u > one.stacks
check_exit 0 "$GPERFCHECK" --dump hu.prof
grep '^[0-9]' out | cut -d' ' -f2- | sort -u > hu.stacks
na=$(wc -l < one.stacks)
nb=$(wc -l < hu.stacks)
nboth=$(comm -12 one.stacks hu.stacks | wc -l)
check_exit 0 "$GPERFCHECK" --compare-stacks --tolerance 100 one.prof hu.prof
check_grep "one.prof and hu.prof: the same stacks, $na in one.prof, $nb in hu.prof, $nboth in both;" out

# --compare: the shares of functions and mappings, which twice the
# samples of one recording leaves as they were
check_exit 0 "$GPERFCHECK" --compare one.prof twice.prof
check_grep "one.prof and twice.prof: the same shares" out
check_exit 1 "$GPERFCHECK" --compare one.prof hu.prof
check_grep "one.prof and hu.prof: different shares" out
check_exit 2 "$GPERFCHECK" --compare one.prof
exit 0
