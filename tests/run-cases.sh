#!/bin/sh
# SPDX-License-Identifier: MIT
# The table of cases in testdata/cases/ (testdata/README says how they
# were made): for each NAME.args, perf2gperf run with those arguments
# prints NAME.expected on standard output and exits with NAME.status (0
# when there is none).  In the files, @TESTDATA@ stands for testdata/
# and @EMPTY@ for an empty directory (HOME is one too, so that no
# build-ID cache is read).  A case with NAME.oracle has an expected
# output that perf printed: in the live tier, perf is run again with
# those arguments and must still print NAME.expected, so that the table
# stays perf's word and not a copy of perf2gperf's.
. "${top_srcdir:-$(dirname "$0")/..}/tests/test-subr.sh"

cases=$TESTDATA/cases
mkdir empty
HOME=$test_dir/empty
export HOME

# expand FILE: its line with the placeholders filled in
expand() {
	sed -e "s|@TESTDATA@|$TESTDATA|g" -e "s|@EMPTY@|$test_dir/empty|g" \
		"$1"
}

oracle=no
if have perf && perf version > /dev/null 2>&1; then
	oracle=yes
fi
n=0 checked=0
for args in "$cases"/*.args; do
	[ -f "$args" ] || continue
	name=$(basename "$args" .args)
	want=0
	[ ! -f "$cases/$name.status" ] || want=$(cat "$cases/$name.status")
	# shellcheck disable=SC2046
	set -- $(expand "$args")
	check_exit "$want" "$PERF2GPERF" "$@"
	compare_text "$cases/$name.expected" out "perf2gperf $(cat "$args")"
	n=$((n + 1))
	if [ $oracle = yes ] && [ -f "$cases/$name.oracle" ]; then
		# shellcheck disable=SC2046
		perf script $(expand "$cases/$name.oracle") > perf.out \
			2> perf.err || { cat perf.err >&2;
			fail "$name: perf script $(cat "$cases/$name.oracle") failed"; }
		compare_text "$cases/$name.expected" perf.out \
			"perf script $(cat "$cases/$name.oracle")"
		checked=$((checked + 1))
	fi
done
[ $n -gt 0 ] || hard_error "no cases in $cases"
echo "$n cases passed; $checked expected outputs checked against perf"
