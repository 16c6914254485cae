#!/bin/sh
# SPDX-License-Identifier: MIT
# The default folded output follows FlameGraph's stackcollapse-perf.pl,
# the convention of flame graphs: a frame without a name is named after
# its file ([hot], [libc.so.6], [[kernel.kallsyms]]), names are tidied
# as the script tidies them; --folded-style=perf gives perf's
# stackcollapse.py output.  tests/run-cases.sh checks the
# testdata/cases/flamegraph-* cases, what stackcollapse-perf.pl printed
# of perf script's output (testdata/cases/mkflamegraph.sh); here
# --folded-style=perf gives the folded-hot case, perf's.  In the live
# tier, where the script is at hand
# (../shared/tools/flamegraph/stackcollapse-perf.pl, or
# stackcollapse-perf.pl on PATH), perf and the script are run again on
# every recording of those cases, and on a C++ program recorded here
# (names with "(anonymous namespace)", which the script drops, and
# ns::K::run).
. "${top_srcdir:-$(dirname "$0")/..}/tests/test-subr.sh"

cases=$TESTDATA/cases
mkdir empty
HOME=$test_dir/empty
export HOME
hot=$(testfile hot.perf.data)
check_exit 0 "$PERF2GPERF" -q --symfs=empty -f folded --folded-style=perf \
	"$hot" -
compare_text "$cases/folded-hot.expected" out "--folded-style=perf"
check_exit 0 "$PERF2GPERF" -q --symfs=empty -f folded "$hot" -
compare_text "$cases/flamegraph-hot.expected" out "the default style"
check_exit 2 "$PERF2GPERF" --folded-style=inferno -f folded "$hot" -

live_rest
pl=$top_srcdir/../shared/tools/flamegraph/stackcollapse-perf.pl
[ -f "$pl" ] || pl=$(command -v stackcollapse-perf.pl || true)
if [ -z "$pl" ] || ! have perf perl; then
	echo "no stackcollapse-perf.pl, perl or perf: not checked against them"
	exit 0
fi
for args in "$cases"/flamegraph-*.args; do
	name=$(basename "$args" .args)
	data=$(sed -n 's|.*@TESTDATA@/\([^ ]*\) -$|\1|p' "$args")
	opts=
	grep -q -e '--include-tid' "$args" && opts="$opts --tid"
	grep -q -e '--include-pid' "$args" && opts="$opts --pid"
	grep -q -e '--annotate-kernel' "$args" && opts="$opts --kernel"
	# shellcheck disable=SC2086
	perf script --symfs=empty -F comm,pid,tid,time,ip,sym,dso \
		-i "$TESTDATA/$data" 2> perf.err | perl "$pl" $opts > pl.out ||
		hard_error "perf script | stackcollapse-perf.pl failed on $data"
	compare_text "$cases/$name.expected" pl.out "stackcollapse-perf.pl of $data"
done
need_cmd g++
g++ -O2 -g -fno-omit-frame-pointer -o symcxx "$TESTDATA/progs/symcxx.cc" ||
	hard_error "cannot build symcxx.cc"
perf record -q -g -F 999 -o cxx.data ./symcxx > /dev/null 2>&1 ||
	skip "perf record cannot record here"
perf script -F comm,pid,tid,time,ip,sym,dso -i cxx.data 2> /dev/null |
	perl "$pl" > cxx.exp
check_exit 0 "$PERF2GPERF" -q -f folded cxx.data cxx.folded
compare_text cxx.exp cxx.folded "the folded stacks of a C++ program"
grep -q 'ns::K::run' cxx.folded || fail "no ns::K::run in the C++ program's stacks"
echo "folded output: FlameGraph's names by default, perf's with --folded-style=perf"
exit 0
