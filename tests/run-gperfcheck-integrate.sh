#!/bin/sh
# SPDX-License-Identifier: MIT
# The examples of doc/examples/ run as their test harnesses run them,
# on testdata/gperf/good-64le.prof (3 samples, all in /bin/prog:
# testdata/gperf/README), once where the mapping "prog" must hold 50% of
# the samples (it holds 100%: pass) and once where "libc.so.6" must
# (it holds none: fail):
#  - automake: the example project is built (autoreconf -i, configure)
#    and 'make check' runs profile.test, which prints gperfcheck --tap,
#    through automake's tap-driver.sh: 3 results, PASS, or the share's
#    FAIL; without autoreconf, tap-driver.sh is run directly as the
#    generated Makefile would; prove reads the same TAP;
#  - CTest: the cmake example's add_test() passes or fails;
#  - pytest: test_profile.py, reading gperfcheck --json, passes or
#    fails.
# Each part skips on its own when its tool is missing; the test skips
# when all do.
. "${top_srcdir:-$(dirname "$0")/..}/tests/test-subr.sh"

examples=$top_srcdir/doc/examples
prof=$(testfile gperf/good-64le.prof)
PROFILE=$prof
GPERFCHECK=$GPERFCHECK
export PROFILE GPERFCHECK
ran=0

# TAP: the plan first, then the lines
check_exit 0 env MAPPING=prog sh "$examples/automake/profile.test"
head -n 1 out | grep -qx '1\.\.3' || fail "--tap: no plan first: $(cat out)"
[ "$(grep -c '^ok [1-3] - ' out)" -eq 3 ] || fail "--tap: $(cat out)"
check_exit 1 env MAPPING=libc.so.6 sh "$examples/automake/profile.test"
grep -q '^not ok 3 - .*mapping libc.so.6: cumulative 0.0% (0 of 3 samples), --min-share 50% (no mapping has that basename)$' out ||
	fail "--tap of a failing share: $(cat out)"

# automake's TAP driver: ":test-result: R" lines and a global result
tap_results() {
	grep '^:test-result:' "$1" | cut -d' ' -f2 | sort | uniq -c |
		awk '{ printf "%s%s=%s", (NR > 1 ? " " : ""), $2, $1 }'
	printf ' global=%s\n' "$(sed -n 's/^:global-test-result: //p' "$1")"
}
driver=$(ls /usr/share/automake-*/tap-driver.sh 2> /dev/null | tail -n 1)
if have autoreconf && have automake &&
   [ -n "$driver" ]; then
	cp -R "$examples/automake" am
	chmod -R u+w am
	(cd am && autoreconf -i > ../autoreconf.log 2>&1 && ./configure -q) ||
		{ cat autoreconf.log >&2; hard_error "the automake example does not build"; }
	(cd am && MAPPING=prog MAKEFLAGS= MFLAGS= MAKELEVEL= make -s check > ../make.log 2>&1) ||
		{ cat make.log am/test-suite.log >&2; fail "make check failed on the example"; }
	[ "$(tap_results am/profile.trs)" = "PASS=3 global=PASS" ] ||
		fail "make check: $(tap_results am/profile.trs)"
	(cd am && MAPPING=libc.so.6 MAKEFLAGS= MFLAGS= MAKELEVEL= make -s check > ../make.log 2>&1) &&
		fail "make check passed a share of 0%"
	# the share fails (the exit status is ignored: --ignore-exit)
	[ "$(tap_results am/profile.trs)" = "FAIL=1 PASS=2 global=FAIL" ] ||
		fail "make check: $(tap_results am/profile.trs)"
	ran=$((ran + 1))
elif [ -n "$driver" ]; then
	for m in prog libc.so.6; do
		MAPPING=$m AM_TAP_AWK=awk $SHELL "$driver" --test-name profile.test \
			--log-file $m.log --trs-file $m.trs --color-tests no \
			--enable-hard-errors yes --expect-failure no --ignore-exit -- \
			sh "$examples/automake/profile.test" ||
			hard_error "tap-driver.sh failed"
	done
	[ "$(tap_results prog.trs)" = "PASS=3 global=PASS" ] ||
		fail "tap-driver.sh: $(tap_results prog.trs)"
	[ "$(tap_results libc.so.6.trs)" = "FAIL=1 PASS=2 global=FAIL" ] ||
		fail "tap-driver.sh: $(tap_results libc.so.6.trs)"
	ran=$((ran + 1))
else
	echo "note: no automake: its TAP driver not tried"
fi
if have prove; then
	check_exit 0 env MAPPING=prog prove --exec sh "$examples/automake/profile.test"
	check_grep "Result: PASS" out
	check_exit 1 env MAPPING=libc.so.6 prove --exec sh "$examples/automake/profile.test"
	check_grep "Failed test:  3" out
	ran=$((ran + 1))
fi

# CTest
if have cmake && have ctest; then
	for m in prog libc.so.6; do
		cmake -S "$examples/cmake" -B cm-$m -DGPERFCHECK="$GPERFCHECK" \
			-DPROFILE="$prof" -DMAPPING=$m > cmake.log 2>&1 ||
			{ cat cmake.log >&2; hard_error "cmake failed on the example"; }
	done
	(cd cm-prog && ctest > ../ctest.log 2>&1) ||
		{ cat ctest.log >&2; fail "ctest failed on a share of 100%"; }
	grep -q '100% tests passed, 0 tests failed out of 2' ctest.log ||
		fail "ctest: $(cat ctest.log)"
	(cd cm-libc.so.6 && ctest > ../ctest.log 2>&1) &&
		fail "ctest passed a share of 0%"
	grep -q '50% tests passed, 1 tests failed out of 2' ctest.log ||
		fail "ctest: $(cat ctest.log)"
	grep -q 'profile-share (Failed)' ctest.log || fail "ctest: $(cat ctest.log)"
	ran=$((ran + 1))
else
	echo "note: no cmake: the CTest example not tried"
fi

# pytest: Debian's python3-pytest gives pytest-3
pytest=
if have pytest-3; then
	pytest=pytest-3
elif have python3 && python3 -c 'import pytest' 2> /dev/null; then
	pytest="python3 -m pytest"
fi
if [ -n "$pytest" ]; then
	cp "$examples/pytest/test_profile.py" .
	check_exit 0 env MAPPING=prog $pytest -q -p no:cacheprovider test_profile.py
	check_grep "2 passed" out
	check_exit 1 env MAPPING=libc.so.6 $pytest -q -p no:cacheprovider test_profile.py
	check_grep "1 failed, 1 passed" out
	ran=$((ran + 1))
else
	echo "note: no pytest (python3-pytest): the pytest example not tried"
fi
[ $ran -gt 0 ] || skip "no automake, prove, cmake or pytest"
exit 0
