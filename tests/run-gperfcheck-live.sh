#!/bin/sh
# SPDX-License-Identifier: MIT
# gperfcheck on real profiles that libprofiler writes now, with
# google-pprof's reading of each as the oracle:
#  - multi at CPUPROFILE_FREQUENCY 100 and 1000, and threads: valid;
#    --period-us 1e6/frequency; --min-samples and --max-samples hold at
#    google-pprof's total and fail beside it; for burn_a, burn_b, burn_c,
#    mid_x and path_b, --expect-function holds with --min-share at
#    google-pprof's cumulative share and fails just above it (PCs
#    symbolized through the maps text and the ELF files); all leaves of
#    multi have symbols (--symbolizable 100 when google-pprof names every
#    flat entry); --summary's top functions have google-pprof's flat
#    counts;
#  - threads: each spin function google-pprof finds, --expect-function
#    finds; one it does not (a starved thread), it does not;
#  - forkprof forks two children that exec (./hot and /bin/true), which
#    leave NAME_PID files: three valid profiles; in each child's,
#    google-pprof's sample count (0 for most runs of true) is the one
#    gperfcheck gives, and hot's names hot_loop at google-pprof's share.
# Which functions hold samples, and how many, is taken from google-pprof's
# reading of the same file, never assumed: CPU time varies with the load.
# Skips without gcc, google-pprof or libprofiler.
. "${top_srcdir:-$(dirname "$0")/..}/tests/test-subr.sh"

need_cmd gcc google-pprof
LIBPROFILER=${LIBPROFILER:-/usr/lib/x86_64-linux-gnu/libprofiler.so.0}
[ -f "$LIBPROFILER" ] || skip "no libprofiler ($LIBPROFILER)"
mkprogs=$(testfile progs/mkprogs.sh)
cflags=$(sed -n 's/^CFLAGS="\(.*\)"$/\1/p' "$mkprogs")
for p in multi threads hot forkprof; do
	extra=
	[ $p = threads ] && extra=-pthread
	${CC:-gcc} $cflags $extra -o $p "$TESTDATA/progs/$p.c" 2> cc.log || {
		cat cc.log >&2
		skip "cannot build $p.c"
	}
done

# profile NAME FREQ PROG: libprofiler's profile of ./PROG in NAME.prof
profile() {
	CPUPROFILE=$test_dir/$1.prof CPUPROFILE_FREQUENCY=$2 \
		LD_PRELOAD=$LIBPROFILER ./$3 > $1.log 2>&1 ||
		{ cat $1.log >&2; fail "$3 failed under libprofiler"; }
	[ -s $1.prof ] || skip "libprofiler wrote no $1.prof"
}

# google-pprof's text view: "Total: N samples", then flat flat% sum% cum cum% name
pprof_text() {
	HOME=$test_dir google-pprof --text --nodecount=1000 ./$2 $1 > $1.txt 2> $1.err ||
		{ cat $1.err >&2; fail "google-pprof cannot read $1"; }
	total=$(sed -n 's/^Total: \([0-9]*\) samples$/\1/p' $1.txt)
	[ -n "$total" ] || fail "no total in google-pprof's view of $1"
}

for freq in 100 1000; do
	profile multi$freq $freq multi
	p=multi$freq.prof
	pprof_text $p multi
	[ "$total" -gt 20 ] || skip "only $total samples at $freq Hz"
	check_exit 0 "$GPERFCHECK" --period-us $((1000000 / freq)) \
		--min-samples $total --max-samples $total $p
	check_exit 1 "$GPERFCHECK" --min-samples $((total + 1)) $p
	check_exit 1 "$GPERFCHECK" --max-samples $((total - 1)) $p
	nfn=0
	for fn in burn_a burn_b burn_c mid_x path_b; do
		cum=$(awk -v f=$fn '$6 == f { print $4 }' $p.txt)
		[ -n "$cum" ] && [ "$cum" -gt 0 ] || continue
		nfn=$((nfn + 1))
		share=$(awk -v c=$cum -v t=$total 'BEGIN { printf "%.4f", 100 * c / t }')
		lower=$(awk -v s=$share 'BEGIN { printf "%.4f", s - 0.001 }')
		check_exit 0 "$GPERFCHECK" -q --expect-function $fn --min-share $lower $p
		if [ "$cum" -lt "$total" ]; then
			upper=$(awk -v s=$share 'BEGIN { printf "%.4f", s + 0.01 }')
			check_exit 1 "$GPERFCHECK" --expect-function $fn --min-share $upper $p
			check_grep "function $fn: cumulative $(printf %.1f $share)% ($cum of $total samples), --min-share $(printf %g $upper)%: FAIL" out
		fi
	done
	[ $nfn -ge 3 ] || fail "google-pprof names only $nfn of multi's functions in $p"
	if ! awk 'NR > 1 && $6 ~ /^0x/' $p.txt | grep -q .; then
		check_exit 0 "$GPERFCHECK" -q --symbolizable 100 $p
	fi
	check_exit 0 "$GPERFCHECK" -q --expect-mapping "$test_dir/multi" $p
	# --summary's top functions are google-pprof's flat counts
	check_exit 0 "$GPERFCHECK" -q --summary $p
	for fn in burn_a burn_b burn_c; do
		flat=$(awk -v f=$fn '$6 == f { print $1 }' $p.txt)
		[ -n "$flat" ] && [ "$flat" -gt 0 ] || continue
		grep -q "^    $fn $flat (" out ||
			fail "--summary does not give $fn $flat samples as google-pprof does: $(cat out)"
	done
	echo "multi at $freq Hz: $total samples, $nfn functions' shares as google-pprof says"
done

profile threads 250 threads
pprof_text threads.prof threads
nfn=0
for fn in spin_a spin_b spin_main; do
	# A thread the scheduler starved may hold no sample: google-pprof's
	# reading decides which functions must be found.
	cum=$(awk -v f=$fn '$6 == f { print $4 }' threads.prof.txt)
	if [ -n "$cum" ] && [ "$cum" -gt 0 ]; then
		nfn=$((nfn + 1))
		check_exit 0 "$GPERFCHECK" -q --expect-function $fn threads.prof
	else
		check_exit 1 "$GPERFCHECK" --expect-function $fn threads.prof
	fi
done
[ $nfn -ge 1 ] || skip "no samples in spin_a, spin_b or spin_main"
check_exit 1 "$GPERFCHECK" --expect-function no_such_function threads.prof
check_grep "function no_such_function: no function has that name, in the profile or in the symbols of its files, in some sample: FAIL" out

# forking: the children exec, and libprofiler writes NAME_PID for each;
# the sample counts are google-pprof's reading of each file (/bin/true
# seldom runs long enough for a sample, but may).
profile fp 100 forkprof
set -- fp.prof_*
[ $# -eq 2 ] || fail "expected two fp.prof_PID files, found: $*"
check_exit 0 "$GPERFCHECK" -q fp.prof "$@"
nhot=0
for f in "$@"; do
	if grep -aq "$test_dir/hot\$" $f; then
		prog=hot
		nhot=$((nhot + 1))
	else
		prog=/bin/true
	fi
	HOME=$test_dir google-pprof --text --nodecount=1000 $prog $f \
		> $f.txt 2> $f.err ||
		{ cat $f.err >&2; fail "google-pprof cannot read $f"; }
	total=$(sed -n 's/^Total: \([0-9]*\) samples$/\1/p' $f.txt)
	# google-pprof prints nothing at all for a profile with no samples
	[ -n "$total" ] || [ ! -s $f.txt ] ||
		fail "no total in google-pprof's view of $f"
	total=${total:-0}
	check_exit 0 "$GPERFCHECK" -s $f
	check_grep " $total samples in " out
	check_exit 1 "$GPERFCHECK" --min-samples $((total + 1)) $f
	check_grep "$total samples, --min-samples $((total + 1)): FAIL" out
	cum=$(awk '$6 == "hot_loop" { print $4 }' $f.txt)
	if [ $prog = hot ] && [ -n "$cum" ] && [ "$cum" -gt 0 ]; then
		share=$(awk -v c=$cum -v t=$total 'BEGIN { printf "%.4f", 100 * c / t - 0.001 }')
		check_exit 0 "$GPERFCHECK" -q --expect-function hot_loop \
			--min-share $share $f
	fi
done
[ $nhot -eq 1 ] || fail "expected one profile of ./hot, found $nhot"
echo "forkprof: fp.prof and $* (sample counts as google-pprof reads them)"
exit 0
