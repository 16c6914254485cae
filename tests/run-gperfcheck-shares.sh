#!/bin/sh
# SPDX-License-Identifier: MIT
# gperfcheck's shares of functions (--json, --expect-function with
# --flat/--cum, --compare) on real profiles that libprofiler writes now,
# with google-pprof's reading of the same files as the oracle:
#  - recurse (walk recurses 40 deep: cumulative counts each sample once),
#    multi (functions called on several paths) and hot: for every
#    function the program defines (nm), --json's flat_samples and
#    cum_samples are google-pprof --text's flat and cum counts
#    (--no-auto-signal-frm, so that it drops no frame), and the total
#    its "Total: N samples";
#  - every such function as an --expect-function of one command line,
#    --cum and --flat, with --min-share and --max-share just around
#    google-pprof's share: all hold; just above it: every one fails and
#    has its line;
#  - --compare: multi.prof and a copy with every mapping moved 256 MiB
#    up (tests/aslr-shift.py: PCs and maps lines; google-pprof reads the
#    same text from both) have the same shares (every difference 0; at
#    about 100 samples, the same within 15 points, too few samples to
#    tell within the default 8), though --compare-stacks finds no stack
#    in common; two runs of multi are never different; hot's profile
#    and multi's differ, with hot_loop a difference.
# Under $P2G_WRAPPER, recurse is left out.  Skips without gcc, google-pprof, libprofiler or python3.
. "${top_srcdir:-$(dirname "$0")/..}/tests/test-subr.sh"

need_cmd gcc google-pprof nm python3
LIBPROFILER=${LIBPROFILER:-/usr/lib/x86_64-linux-gnu/libprofiler.so.0}
[ -f "$LIBPROFILER" ] || skip "no libprofiler ($LIBPROFILER)"
mkprogs=$(testfile progs/mkprogs.sh)
shift_py=$top_srcdir/tests/aslr-shift.py
cflags=$(sed -n 's/^CFLAGS="\(.*\)"$/\1/p' "$mkprogs")

# profile NAME PROG: libprofiler's profile of ./PROG at 250 Hz in NAME.prof
profile() {
	CPUPROFILE=$test_dir/$1.prof CPUPROFILE_FREQUENCY=250 \
		LD_PRELOAD=$LIBPROFILER ./$2 > $1.log 2>&1 ||
		{ cat $1.log >&2; fail "$2 failed under libprofiler"; }
	[ -s $1.prof ] || skip "libprofiler wrote no $1.prof"
}

# pprof_text PROF PROG: google-pprof's text view in PROF.txt ("Total: N
# samples", then flat flat% sum% cum cum% name); $total
pprof_text() {
	HOME=$test_dir google-pprof --text --no-auto-signal-frm \
		--nodecount=100000 ./$2 $1 > $1.txt 2> $1.err ||
		{ cat $1.err >&2; fail "google-pprof cannot read $1"; }
	total=$(sed -n 's/^Total: \([0-9]*\) samples$/\1/p' $1.txt)
	[ -n "$total" ] || fail "no total in google-pprof's view of $1"
}

# under valgrind, fewer programs
progs="recurse multi hot"
[ -z "${P2G_WRAPPER:-}" ] || progs="multi hot"
for p in $progs; do
	${CC:-gcc} $cflags -o $p "$TESTDATA/progs/$p.c" 2> cc.log || {
		cat cc.log >&2
		skip "cannot build $p.c"
	}
	profile $p $p
	pprof_text $p.prof $p
	[ "$total" -ge 20 ] || skip "only $total samples in $p.prof"
	# the functions the program defines
	nm $p | awk '$2 == "T" || $2 == "t" { print $3 }' | sort -u > $p.fns
	check_exit 0 "$GPERFCHECK" --json $p.prof
	mv out $p.json
	python3 -m json.tool $p.json > /dev/null || fail "$p: --json is not JSON"
	# name flat cum, for each function of the program, from each side
	awk 'NR > 1 && NF == 6 { print $6, $1, $4 }' $p.prof.txt | sort > $p.all
	join $p.fns $p.all > $p.want || true
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
fns = set(open(sys.argv[2]).read().split())
for f in d["functions"]:
    if f["name"] in fns:
        print(f["name"], f["flat_samples"], f["cum_samples"])
print("Total:", d["samples"])
' $p.json $p.fns | sort > $p.got
	echo "Total: $total" >> $p.want
	sort -o $p.want $p.want
	compare_text $p.want $p.got "$p: flat and cum samples of google-pprof and --json"
	n=$(grep -vc '^Total:' $p.want)
	[ "$n" -ge 2 ] || fail "$p: google-pprof names only $n of its functions"

	# each function as an expectation, shares around google-pprof's
	set --
	set_hi=
	while read -r fn flat cum; do
		[ "$fn" = Total: ] && continue
		lo=$(awk -v c=$cum -v t=$total 'BEGIN { printf "%.4f", 100 * c / t - 0.0001 }')
		hi=$(awk -v c=$cum -v t=$total 'BEGIN { printf "%.4f", 100 * c / t + 0.0001 }')
		flo=$(awk -v c=$flat -v t=$total 'BEGIN { printf "%.4f", 100 * c / t - 0.0001 }')
		fhi=$(awk -v c=$flat -v t=$total 'BEGIN { printf "%.4f", 100 * c / t + 0.0001 }')
		case $lo in -*) lo=0 ;; esac
		case $flo in -*) flo=0 ;; esac
		case $hi in 100.*) hi=100 ;; esac
		case $fhi in 100.*) fhi=100 ;; esac
		set -- "$@" --expect-function $fn --min-share $lo --max-share $hi \
			--expect-function $fn --flat --min-share $flo --max-share $fhi
		# just above: fails unless at 100%
		[ "$cum" -lt "$total" ] && set_hi="$set_hi $fn:$hi"
	done < $p.want
	check_exit 0 "$GPERFCHECK" "$@" $p.prof
	[ "$(grep -c ': ok$' out)" -eq $((2 * n)) ] ||
		fail "$p: $((2 * n)) expectations, $(grep -c ': ok$' out) ok lines"
	set --
	for x in $set_hi; do
		set -- "$@" --expect-function ${x%%:*} --cum --min-share ${x#*:}
	done
	if [ $# -gt 0 ]; then
		check_exit 1 "$GPERFCHECK" "$@" $p.prof
		[ "$(grep -c ': FAIL$' out)" -eq $(($# / 5)) ] ||
			fail "$p: $(($# / 5)) failing expectations, $(grep -c ': FAIL$' out) FAIL lines"
	fi
	echo "$p: $total samples, $n functions as google-pprof counts them"
done

# the same program moved elsewhere in memory
python3 "$shift_py" multi.prof moved.prof 10000000 ||
	hard_error "aslr-shift.py failed"
pprof_text moved.prof multi
compare_text multi.prof.txt moved.prof.txt "google-pprof of multi.prof and its moved copy"
check_exit 0 "$GPERFCHECK" --compare --tolerance 15 multi.prof moved.prof
check_grep "multi.prof and moved.prof: the same shares" out
check_grep "  flat A   flat B    cum A    cum B  A-B of      95% bounds           verdict    name" out
[ "$(awk 'NR > 2 && !/^[(]/ && $6 != "+0.00"' out | wc -l)" -eq 0 ] ||
	fail "a difference between multi.prof and its moved copy: $(cat out)"
check_exit 3 "$GPERFCHECK" --compare multi.prof moved.prof
check_grep "multi.prof and moved.prof: too few samples to tell" out
check_exit 1 "$GPERFCHECK" --compare-stacks multi.prof moved.prof

# another run of the same program: too few samples to tell, or the same
profile multi2 multi
st=0
"$GPERFCHECK" --compare multi.prof multi2.prof > out || st=$?
cat out
[ $st = 0 ] || [ $st = 3 ] || fail "two runs of multi: exit status $st"

# another program
check_exit 1 "$GPERFCHECK" --compare hot.prof multi.prof
check_grep "hot.prof and multi.prof: different shares" out
# hot_loop holds (nearly) every sample of hot and none of multi: a row
# that differs (a sample of hot may fall elsewhere, in _start or libc,
# putting the mappings' rows first)
awk '$NF == "hot_loop" && $(NF - 1) == "different" && $2 == "0.00%" &&
     $4 == "0.00%" && $1 + 0 >= 90 { found = 1 } END { exit !found }' out ||
	fail "hot_loop is not a difference: $(cat out)"
exit 0
