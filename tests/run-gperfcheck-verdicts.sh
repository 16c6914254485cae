#!/bin/sh
# SPDX-License-Identifier: MIT
# No verdict of gperfcheck passes what it cannot see, on committed
# profiles: libprofiler's of testdata/progs/shares.c (testdata/gperf/
# README, with the program for the names) and perf2gperf's of the
# committed DWARF recording testdata/dwarfprog.perf.data.gz (with its
# program):
#  - a function or mapping no one knows fails whatever the threshold,
#    naming the nearest known ones ("did you mean hot_loop?"); a real
#    function with no samples (one nm finds in the program, in no
#    sample of the dump's stacks) passes --max-share;
#  - --expect-mapping counts flat (self) samples unless --cum, and says
#    which; libprofiler's repeated stacks (counted from the dump with
#    awk) are a warning only under -v;
#  - --json gives each comparison of each assertion as fields; TAP
#    names each assertion it skips;
#  - --compare on draws with a fixed seed (tests/resample, independent
#    of the library): two draws of 1,500 samples from one run are the
#    same (exit 0); 1,500 from each of two runs too, in at least 95 of
#    100 draws (a third of them under $P2G_WRAPPER, all needed); 9
#    points moved, at 1,500 samples a side, different (exit 1); two
#    draws of 170 from one run too few samples to tell (exit 3, naming
#    the difference they could tell and the samples needed); 16 points
#    moved at 170 never the same; every row's difference is the one
#    computed from the two --json outputs; without the program, the
#    functions have no names, and a warning says that only mappings
#    were compared;
#  - a perf.data (little- and big-endian, file and pipe mode, gzip,
#    perf's version 1 magic) is named as one, exit status 1.
. "${top_srcdir:-$(dirname "$0")/..}/tests/test-subr.sh"
need_cmd gzip

RESAMPLE=$top_builddir/tests/resample
mkdir bin
gzip -dc < "$(testfile gperf/shares.gz)" > bin/shares
for f in a b shift shift16; do
	gzip -dc < "$(testfile gperf/shares-$f.prof.gz)" > $f.prof
done
G="$GPERFCHECK --binaries bin"

# --- names nobody knows
check_exit 1 $G --expect-function hot_lop --max-share 10 a.prof
check_grep "a.prof: function hot_lop: no function has that name, in the profile or in the symbols of its files (did you mean hot_loop?), --max-share 10%: FAIL" out
check_exit 1 $G --expect-function hot_lop --min-share 0 a.prof
check_exit 1 $G --expect-mapping libprofiler --max-share 100 a.prof
check_grep "mapping libprofiler: no line of the maps text has a file of that name (did you mean libprofiler.so.0.5.5?), --max-share 100%: FAIL" out
check_exit 0 $G --expect-mapping libprofiler.so.0.5.5 --max-share 1 a.prof
check_grep "mapping libprofiler.so.0.5.5: flat 0.0% (0 of 2591 samples), --max-share 1%: ok" out
# a function of the program in no sample
if have nm; then
	nm bin/shares | grep -q ' T frame_dummy$' ||
		nm bin/shares | grep -q ' t frame_dummy$' ||
		hard_error "no frame_dummy in the program"
fi
check_exit 0 "$GPERFCHECK" --dump a.prof
fd=$(nm bin/shares 2> /dev/null | awk '$3 == "frame_dummy" { print $1 }')
if [ -n "$fd" ]; then
	grep -q "0x0*$fd" out && hard_error "frame_dummy's address is in a stack"
fi
check_exit 0 $G --expect-function frame_dummy --max-share 0 a.prof
check_grep "function frame_dummy: cumulative 0.0% (0 of 2591 samples), --max-share 0%: ok" out
check_exit 1 $G --expect-function frame_dummy a.prof
check_grep "function frame_dummy: cumulative 0.0% (0 of 2591 samples), in some sample: FAIL" out
# without the program only the profile's frames are known: none
check_exit 1 "$GPERFCHECK" --binaries /nonexistent --expect-function main \
	--max-share 100 "$TESTDATA/gperf/good-64le.prof"
check_grep "function main: no function has that name" out

# perf2gperf's profile of a recording, with its program
mkdir -p symfs/opt/p2g-fixture dw
gzip -dc < "$(testfile dwarfprog.gz)" > symfs/opt/p2g-fixture/dwarfprog
cp symfs/opt/p2g-fixture/dwarfprog dw/
check_exit 0 "$PERF2GPERF" -q --symfs "$test_dir/symfs" \
	"$(testfile dwarfprog.perf.data.gz)" dw.prof
D="$GPERFCHECK --binaries dw dw.prof"
check_exit 1 $D --expect-function leaf_mol --max-share 100
check_grep "function leaf_mol: no function has that name, in the profile or in the symbols of its files (did you mean leaf_mul or leaf_xor?), --max-share 100%: FAIL" out
check_exit 1 $D --expect-mapping dwarfprg --max-share 100
check_grep "(did you mean dwarfprog?)" out
# qsort and abort: in the static program, in no sample
for f in qsort abort; do
	if have nm; then
		nm dw/dwarfprog | grep -q " [Tt] $f$" ||
			hard_error "no $f in the program"
	fi
	check_exit 0 $D --expect-function $f --max-share 0
	check_grep "function $f: cumulative 0.0% (0 of 248 samples), --max-share 0%: ok" out
done
# a versioned symbol is nearest to its name without the version
check_exit 1 $G --expect-function __libc_start_main --min-share 1 a.prof
check_grep "(did you mean __libc_start_main@@GLIBC_2.34?)" out
check_exit 0 $D --expect-mapping dwarfprog --min-share 90
check_grep "mapping dwarfprog: flat " out

# --- flat by default for mappings; the measure is always said
check_exit 0 $G --expect-mapping libc.so.6 --max-share 1 a.prof
check_grep "a.prof: mapping libc.so.6: flat 0.0% (0 of 2591 samples), --max-share 1%: ok" out
check_exit 1 $G --expect-mapping libc.so.6 --cum --max-share 1 a.prof
check_grep "a.prof: mapping libc.so.6: cumulative 100.0% (2591 of 2591 samples), --max-share 1%: FAIL" out
check_exit 0 $G --expect-function hot_loop --min-share 50 a.prof
check_grep "function hot_loop: cumulative 50.2% (1301 of 2591 samples)" out
check_exit 0 $G --expect-function main --flat --max-share 0 a.prof
check_grep "function main: flat 0.0% (0 of 2591 samples)" out

# --- the repeated stacks, a note only under -v
check_exit 0 "$GPERFCHECK" --dump a.prof
rep=$(awk '/^[0-9]/ { $1 = ""; if (seen[$0]++) n++ } END { print n + 0 }' out)
[ "$rep" -gt 0 ] || hard_error "a.prof repeats no stack"
check_exit 0 "$GPERFCHECK" a.prof
[ ! -s err ] || fail "a warning without -v: $(cat err)"
check_exit 0 "$GPERFCHECK" -v a.prof
check_grep "a.prof: warning: $rep records repeat the stack of an earlier record"
check_exit 0 "$GPERFCHECK" -v -q a.prof
[ ! -s err ] || fail "-q with -v printed: $(cat err)"

# --- --json: the fields of every comparison
if have python3; then
	check_exit 1 $G --json --expect-function hot_loop --min-share 40 \
		--max-share 45 --expect-mapping shares --min-share 99 \
		--expect-function hot_lop --min-samples 3000 a.prof
	python3 -c '
import json
d = json.load(open("out"))
c = d["checks"]
def strip(x):
    return {k: v for k, v in x.items() if k != "check"}
want = [
    {"kind": "function", "name": "hot_loop", "measure": "cum",
     "operator": ">=", "value": 50.2123, "threshold": 40, "samples": 1301,
     "total": 2591, "verdict": "ok", "known": True, "ok": False},
    {"kind": "function", "name": "hot_loop", "measure": "cum",
     "operator": "<=", "value": 50.2123, "threshold": 45, "samples": 1301,
     "total": 2591, "verdict": "fail", "known": True, "ok": False},
    {"kind": "mapping", "name": "shares", "measure": "flat",
     "operator": ">=", "value": 100, "threshold": 99, "samples": 2591,
     "total": 2591, "verdict": "ok", "known": True, "ok": True},
    {"kind": "function", "name": "hot_lop", "measure": "cum",
     "operator": ">", "value": 0, "threshold": 0, "samples": 0,
     "total": 2591, "verdict": "fail", "known": False,
     "did_you_mean": ["hot_loop"], "ok": False},
    {"kind": "min_samples", "name": None, "measure": None,
     "operator": ">=", "value": 2591, "threshold": 3000, "samples": 2591,
     "total": 2591, "verdict": "fail", "ok": False},
]
got = [strip(x) for x in c]
assert got == want, got
assert d["status"] == 1
assert d["warnings"] == [], d["warnings"]
' || fail "--json checks: $(cat out)"
fi

# --- TAP names what it skips
check_exit 1 "$GPERFCHECK" --tap --expect-function hot_loop --min-share 3 \
	--expect-mapping prog --period-us 10 "$TESTDATA/gperf/bad-pc0.prof"
cat > tap.exp << TAP
1..4
not ok 1 - $TESTDATA/gperf/bad-pc0.prof: offset 0x40: record 0 has PC 0 at depth 1
ok 2 - $TESTDATA/gperf/bad-pc0.prof: function hot_loop, cumulative, --min-share 3% # SKIP not a valid profile
ok 3 - $TESTDATA/gperf/bad-pc0.prof: mapping prog, flat, in some sample # SKIP not a valid profile
ok 4 - $TESTDATA/gperf/bad-pc0.prof: --period-us 10 # SKIP not a valid profile
TAP
compare_text tap.exp out "--tap of an invalid profile"

# --- --compare on draws of fixed seeds
# draw SEED N IN OUT
draw() {
	"$RESAMPLE" $1 $2 $3 $4 || hard_error "resample $* failed"
}
# verdicts N A B K: --compare of K pairs of draws of N samples from A
# and from B, seeds 2i and 2i + 1; the count of each exit status in
# same, different, few
verdicts() {
	same=0 different=0 few=0
	i=1
	while [ $i -le $4 ]; do
		draw $((2 * i)) $1 $2 x.prof
		draw $((2 * i + 1)) $1 $3 y.prof
		st=0
		$G -q --compare x.prof y.prof || st=$?
		case $st in
		0) same=$((same + 1)) ;;
		1) different=$((different + 1)) ;;
		3) few=$((few + 1)) ;;
		*) fail "--compare exits $st on draws $i of $2 and $3" ;;
		esac
		i=$((i + 1))
	done
	echo "$4 draws of $1 from $2 and $3: $same the same, $different different, $few too few"
}
# rows_check A B: each row's difference (A - B, points, of the measure
# shown) is the one of the two --json views of A and B
rows_check() {
	check_exit 0 $G --json $1
	mv out $1.json
	check_exit 0 $G --json $2
	mv out $2.json
	st=0
	$G --json --compare $1 $2 > cmp.json || st=$?
	have python3 || return 0
	python3 -c '
import json, sys
a, b, c = (json.load(open(f)) for f in sys.argv[1:4])
def counts(d):
    m = {("function", f["name"]): f for f in d["functions"]}
    for x in d["mappings"]:
        m[("mapping", x["path"].rsplit("/", 1)[-1])] = x
    return m
ca, cb = counts(a), counts(b)
assert c["samples_a"] == a["samples"] and c["samples_b"] == b["samples"]
assert len(c["rows"]) == len(set(ca) | set(cb)), c["rows"]
for r in c["rows"]:
    key = (r["kind"], r["name"])
    f = "flat_samples" if r["measure"] == "flat" else "cum_samples"
    xa = ca[key][f] if key in ca else 0
    xb = cb[key][f] if key in cb else 0
    d = 100.0 * xa / a["samples"] - 100.0 * xb / b["samples"]
    assert abs(d - r["value"]) < 1e-3, (r, d)
    assert r["low"] <= r["value"] + 1 and r["high"] >= r["value"] - 1, r
    assert r["threshold"] == 8 and r["operator"] == "within"
' $1.json $2.json cmp.json || fail "--compare --json rows of $1 and $2: $(cat cmp.json)"
}

k=10
runs=100
[ -z "${P2G_WRAPPER:-}" ] || { k=3; runs=33; }
# two draws of 1,500 from one run: the same
verdicts 1500 a.prof a.prof $k
[ $same -eq $k ] || fail "two draws of 1500 from one run: $same of $k the same"
draw 1 1500 a.prof x.prof
draw 2 1500 a.prof y.prof
check_exit 0 $G --compare x.prof y.prof
check_grep "x.prof and y.prof: the same shares: each of the 9 functions and mappings within 8 points (95% confidence), 1500 and 1500 samples" out
rows_check x.prof y.prof
# 9 points moved, 1,500 a side: different, hot_loop and cold_loop
verdicts 1500 a.prof shift.prof $k
[ $different -eq $k ] || fail "9 points moved at 1500: $different of $k different"
draw 3 1500 shift.prof y.prof
check_exit 1 $G --compare x.prof y.prof
check_grep "x.prof and y.prof: different shares: 2 of 9 functions and mappings" out
awk 'NR > 2 && $9 == "different" { print $10 }' out | sort > diff.got
printf 'cold_loop\nhot_loop\n' > diff.exp
compare_text diff.exp diff.got "the rows that differ"
rows_check x.prof y.prof
# two draws of 170 from one run: too few samples to tell
verdicts 170 a.prof a.prof $k
[ $few -eq $k ] || fail "two draws of 170 from one run: $few of $k too few"
draw 4 170 a.prof x.prof
draw 5 170 a.prof y.prof
check_exit 3 $G --compare x.prof y.prof
grep -q '^x.prof and y.prof: too few samples to tell: 170 and 170 samples tell from chance only differences of about [0-9.]* points or more; for a tolerance of 8 points, about [0-9]* samples each would be needed' out ||
	fail "--compare of 170 samples: $(cat out)"
need=$(sed -n 's/.* about \([0-9]*\) samples each would be needed.*/\1/p' out)
[ "$need" -gt 170 ] && [ "$need" -lt 5000 ] || fail "$need samples needed"
rows_check x.prof y.prof
# 16 points moved at 170: never the same
verdicts 170 a.prof shift16.prof $k
[ $same -eq 0 ] || fail "16 points moved at 170: $same of $k the same"
# two real runs, 1,500 samples each: the same in 95 of 100 draws
verdicts 1500 a.prof b.prof $runs
[ $same -ge $((runs * 95 / 100)) ] ||
	fail "two runs at 1500: only $same of $runs draws the same"
# without the program, only the mappings are compared, and the warning
# says so: the shift between functions of one file does not show
for f in a shift; do
	sed 's|/tmp/p2g-shares/|/nonexistent/di/|' $f.prof > n$f.prof
done
check_exit 0 "$GPERFCHECK" --dump na.prof
grep -q '^map .* /nonexistent/di/shares$' out ||
	hard_error "the maps text of na.prof names no /nonexistent/di/shares"
check_exit 0 "$GPERFCHECK" --compare na.prof nshift.prof
check_grep "na.prof: warning: 2591 of 2591 samples have no function name at their leaf: --compare sees only their mappings"
check_grep "nshift.prof: warning: 2319 of 2319 samples have no function name"
check_exit 0 "$GPERFCHECK" --json --compare na.prof nshift.prof
grep -q '"unnamed_a":2591,"unnamed_b":2319' out || fail "--json: $(cat out)"
check_exit 1 $G --compare na.prof nshift.prof
[ ! -s err ] || fail "a warning with the program at hand: $(cat err)"
# the tolerance, the confidence
check_exit 3 $G --compare --tolerance 1 a.prof b.prof
check_grep "a.prof and b.prof: too few samples to tell: 2591 and 2638 samples tell from chance only differences of about 4.1 points or more; for a tolerance of 1 point, about 64391 samples each would be needed (3 of 9 functions and mappings unsure at 95% confidence)" out
check_exit 0 $G --compare --confidence 80 a.prof b.prof
check_grep "(80% confidence)" out
check_exit 2 $G --compare --confidence 100 a.prof b.prof

# --- a perf.data is named as one
for f in hot.perf.data multi-pipe.perf.data; do
	check_exit 1 "$GPERFCHECK" "$(testfile $f)"
	check_grep "gperfcheck: $TESTDATA/$f: this is a perf.data file; convert it with perf2gperf"
done
gzip -n -c "$TESTDATA/hot.perf.data" > hot.perf.data.gz
check_exit 1 "$GPERFCHECK" hot.perf.data.gz
check_grep "hot.perf.data.gz: this is a perf.data file (gzip-compressed); convert it with perf2gperf"
"$top_builddir/tests/perfswap" "$TESTDATA/hot.perf.data" be.perf.data ||
	hard_error "perfswap failed"
od -An -c -N 8 be.perf.data | tr -d ' \n' | grep -qx 2ELIFREP ||
	hard_error "perfswap wrote no big-endian magic"
check_exit 1 "$GPERFCHECK" be.perf.data
check_grep "be.perf.data: this is a perf.data file; convert it with perf2gperf"
check_exit 1 "$GPERFCHECK" --json be.perf.data
grep -q '"status":1,"valid":false,"error":{"message":"this is a perf.data file; convert it with perf2gperf"}' out ||
	fail "--json of a perf.data: $(cat out)"
# perf's version 1 magic, then zeros
{ printf PERFFILE; head -c 96 /dev/zero; } > v1.perf.data
check_exit 1 "$GPERFCHECK" v1.perf.data
check_grep "this is a perf.data file"
exit 0
