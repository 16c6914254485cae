#!/bin/sh
# SPDX-License-Identifier: MIT
# gperfcheck on real profiles written by gperftools' libprofiler
# (testdata/*.prof, see testdata/README): each must pass, and what
# gperfcheck reads must be what the file holds, judged by readers that
# share no code with ours:
#  - gperf_ref_dump (tests/stacks.sh), an od + awk reading of the format
#    document, must print exactly the same --dump text (header, every
#    record in file order, trailer, maps lines);
#  - the total sample count must equal google-pprof's "Total: N samples"
#    kept in NAME.prof.pprof-text (and, when google-pprof is installed,
#    printed by it now);
#  - when google-pprof is installed, its --raw view of the stacks (with
#    --no-auto-signal-frm, so that it rewrites nothing) must equal ours,
#    stack by stack.
# The sampling period is 4000 us: the files were recorded with
# CPUPROFILE_FREQUENCY=250 (testdata/README), and libprofiler writes
# 1000000/frequency.
. "${top_srcdir:-$(dirname "$0")/..}/tests/test-subr.sh"
. "$top_srcdir/tests/stacks.sh"

have_pprof=yes
have google-pprof || have_pprof=no
[ $have_pprof = yes ] ||
	echo "note: google-pprof not installed: checking against the kept pprof text only"

n=0
for prof in "$TESTDATA"/*.prof; do
	[ -f "$prof" ] || continue
	name=$(basename "$prof" .prof)
	n=$((n + 1))

	check_exit 0 "$GPERFCHECK" "$prof"
	# nothing but warnings (which never change the exit status)
	[ ! -s out ] && ! grep -v ': warning: ' err > /dev/null ||
		fail "$name.prof: gperfcheck printed something"
	check_exit 0 "$GPERFCHECK" -q "$prof"
	check_exit 0 "$GPERFCHECK" --dump "$prof"
	mv out $name.dump

	gperf_ref_dump "$prof" > $name.ref
	compare_text $name.ref $name.dump "gperfcheck --dump of $name.prof"

	echo "header 0 3 0 4000 0" > header.exp
	head -n 1 $name.dump > header.got
	compare_text header.exp header.got "header of $name.prof"

	# total samples and records from the dump
	total=$(awk '/^[0-9]/ { t += $1 } END { print t + 0 }' $name.dump)
	records=$(grep -c '^[0-9]' $name.dump)
	[ "$records" -gt 0 ] || fail "$name.prof: no records"
	kept=$(testfile $name.prof.pprof-text)
	want=$(sed -n 's/^Total: \([0-9]*\) samples$/\1/p' "$kept")
	[ -n "$want" ] || hard_error "no Total line in $kept"
	[ "$total" -eq "$want" ] ||
		fail "$name.prof: $total samples in the dump, google-pprof said $want"

	# -s prints the same totals
	check_exit 0 "$GPERFCHECK" -s "$prof"
	check_grep "period 4000 us, $total samples in $records records" out

	if [ $have_pprof = yes ]; then
		# google-pprof needs a program; any existing ELF will do for
		# addresses (it only names the functions).
		prog=$TESTDATA/progs/$name
		[ -x "$prog" ] || prog=$GPERFCHECK
		google-pprof --text "$prog" "$prof" > $name.text 2> pprof.err ||
			{ cat pprof.err >&2; fail "google-pprof --text failed on $name.prof"; }
		now=$(sed -n 's/^Total: \([0-9]*\) samples$/\1/p' $name.text)
		[ "$now" = "$want" ] ||
			fail "$name.prof: google-pprof now says '$now' samples, kept text says $want"

		google-pprof --raw --no-auto-signal-frm "$prog" "$prof" \
			> $name.raw 2> pprof.err ||
			{ cat pprof.err >&2; fail "google-pprof --raw failed on $name.prof"; }
		stacks_perl_raw $name.raw > $name.perl
		stacks_dump $name.dump > $name.ours
		compare_text $name.perl $name.ours "stacks of $name.prof"
	fi
	echo "$name.prof: ok ($records records, $total samples)"
done
[ $n -gt 0 ] || skip "no testdata/*.prof"

exit 0
