#!/bin/sh
# SPDX-License-Identifier: MIT
# The examples of doc/examples/ run as their test harnesses run them,
# on testdata/gperf/good-64le.prof (3 samples, all in /bin/prog:
# testdata/gperf/README), once where the mapping "prog" must hold 50% of
# the samples (it holds 100%: pass) and once where "libc.so.6" must
# (the maps text has no such file: fail); and their comparisons with a
# reference, on libprofiler's profiles (testdata/gperf/README,
# testdata/README): shares-b against shares-a, two runs of one program,
# the same (pass); hot.prof against shares-a, another program,
# different (fail); good-64le.prof against itself, 3 samples, too few
# to tell (gperfcheck's exit status 3: skip):
#  - automake: the example project is built (autoreconf -i, configure)
#    and 'make check' runs profile.test, which prints gperfcheck --tap,
#    through automake's tap-driver.sh: 3 results, PASS, or the share's
#    FAIL; without autoreconf, tap-driver.sh is run directly as the
#    generated Makefile would; prove reads the same TAP;
#  - CTest: the cmake example's add_test() passes, fails or skips;
#  - pytest: test_profile.py, reading gperfcheck --json, passes, fails
#    or skips.
# Each part skips on its own when its tool is missing; the test skips
# when all do.
. "${top_srcdir:-$(dirname "$0")/..}/tests/test-subr.sh"

examples=$top_srcdir/doc/examples
prof=$(testfile gperf/good-64le.prof)
sa=$(testfile gperf/shares-a.prof.gz)
sb=$(testfile gperf/shares-b.prof.gz)
hot=$(testfile hot.prof)
PROFILE=$prof
REFERENCE=$prof
GPERFCHECK=$GPERFCHECK
export PROFILE GPERFCHECK REFERENCE
ran=0

# compare_env KIND: REFERENCE and PROFILE of a comparison that comes out
# KIND (same, different or few), and a MAPPING that holds at least 50%
# of PROFILE's samples
compare_env() {
	case $1 in
	same) echo "REFERENCE=$sa PROFILE=$sb MAPPING=shares" ;;
	different) echo "REFERENCE=$sa PROFILE=$hot MAPPING=hot" ;;
	few) echo "REFERENCE=$prof PROFILE=$prof MAPPING=prog" ;;
	esac
}

# TAP: the plan first, then the lines
check_exit 0 env MAPPING=prog sh "$examples/automake/profile.test"
head -n 1 out | grep -qx '1\.\.3' || fail "--tap: no plan first: $(cat out)"
[ "$(grep -c '^ok [1-3] - ' out)" -eq 3 ] || fail "--tap: $(cat out)"
check_exit 1 env MAPPING=libc.so.6 sh "$examples/automake/profile.test"
grep -q '^not ok 3 - .*mapping libc.so.6: no line of the maps text has a file of that name, --min-share 50%$' out ||
	fail "--tap of a failing share: $(cat out)"
# the comparison: one line, ok, not ok, or a skip
check_exit 0 env $(compare_env same) sh "$examples/automake/compare.test"
grep -qx '1\.\.1' out && grep -q '^ok 1 - --compare: .*: the same shares' out ||
	fail "--tap --compare, the same: $(cat out)"
check_exit 1 env $(compare_env different) sh "$examples/automake/compare.test"
grep -q '^not ok 1 - --compare: .*: different shares' out ||
	fail "--tap --compare, different: $(cat out)"
check_exit 0 env $(compare_env few) sh "$examples/automake/compare.test"
grep -q '^ok 1 - --compare: .*: too few samples to tell: 3 and 3 samples.* # SKIP too few samples to tell$' out ||
	fail "--tap --compare, too few samples: $(cat out)"

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
	# the comparison: a pass, a failure, a skip that fails nothing
	for k in same:PASS:0 different:FAIL:1 few:SKIP:0; do
		st=0
		(cd am && env $(compare_env ${k%%:*}) MAKEFLAGS= \
			MFLAGS= MAKELEVEL= make -s check > ../make.log 2>&1) ||
			st=1
		r=${k#*:}
		[ $st = ${r#*:} ] ||
			{ cat make.log >&2; fail "make check of the ${k%%:*} comparison exits $st"; }
		[ "$(tap_results am/compare.trs)" = "${r%:*}=1 global=${r%:*}" ] ||
			fail "make check, ${k%%:*}: $(tap_results am/compare.trs)"
	done
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
	for k in same:PASS different:FAIL few:SKIP; do
		env $(compare_env ${k%:*}) AM_TAP_AWK=awk $SHELL "$driver" \
			--test-name compare.test --log-file c.log --trs-file c.trs \
			--color-tests no --enable-hard-errors yes \
			--expect-failure no --ignore-exit -- \
			sh "$examples/automake/compare.test" ||
			hard_error "tap-driver.sh failed"
		[ "$(tap_results c.trs)" = "${k#*:}=1 global=${k#*:}" ] ||
			fail "tap-driver.sh, ${k%:*}: $(tap_results c.trs)"
	done
	ran=$((ran + 1))
else
	echo "note: no automake: its TAP driver not tried"
fi
if have prove; then
	check_exit 0 env MAPPING=prog prove --exec sh "$examples/automake/profile.test"
	check_grep "Result: PASS" out
	check_exit 1 env MAPPING=libc.so.6 prove --exec sh "$examples/automake/profile.test"
	check_grep "Failed test:  3" out
	check_exit 0 env $(compare_env same) prove --exec sh "$examples/automake/compare.test"
	check_grep "Result: PASS" out
	check_exit 1 env $(compare_env different) prove --exec sh "$examples/automake/compare.test"
	check_grep "Failed test:  1" out
	check_exit 0 env $(compare_env few) prove -v --exec sh "$examples/automake/compare.test"
	check_grep "# SKIP too few samples to tell" out
	check_grep "Result: PASS" out
	ran=$((ran + 1))
fi

# CTest
if have cmake && have ctest; then
	# the mapping's share and the comparison: a mapping that holds
	# enough and the same shares pass; other shares fail the
	# comparison; too few samples to tell skip it; libc.so.6, which
	# the maps text does not have, fails the share
	for k in same different few libc; do
		if [ $k = libc ]; then
			eval "$(compare_env few)"
			MAPPING=libc.so.6
		else
			eval "$(compare_env $k)"
		fi
		cmake -S "$examples/cmake" -B cm-$k -DGPERFCHECK="$GPERFCHECK" \
			-DPROFILE="$PROFILE" -DREFERENCE="$REFERENCE" \
			-DMAPPING=$MAPPING > cmake.log 2>&1 ||
			{ cat cmake.log >&2; hard_error "cmake failed on the example"; }
	done
	REFERENCE=$prof PROFILE=$prof
	(cd cm-same && ctest > ../ctest.log 2>&1) ||
		{ cat ctest.log >&2; fail "ctest failed on the same shares"; }
	grep -q '100% tests passed, 0 tests failed out of 3' ctest.log ||
		fail "ctest: $(cat ctest.log)"
	(cd cm-different && ctest > ../ctest.log 2>&1) &&
		fail "ctest passed different shares"
	grep -q '67% tests passed, 1 tests failed out of 3' ctest.log &&
	grep -q 'profile-compare (Failed)' ctest.log || fail "ctest: $(cat ctest.log)"
	(cd cm-few && ctest > ../ctest.log 2>&1) ||
		{ cat ctest.log >&2; fail "ctest failed on too few samples to tell"; }
	grep -q 'profile-compare (Skipped)' ctest.log || fail "ctest: $(cat ctest.log)"
	(cd cm-libc && ctest > ../ctest.log 2>&1) &&
		fail "ctest passed a share of 0%"
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
	check_grep "2 passed, 1 skipped" out
	check_exit 1 env MAPPING=libc.so.6 $pytest -q -p no:cacheprovider test_profile.py
	check_grep "1 failed, 1 passed, 1 skipped" out
	check_exit 0 env $(compare_env same) $pytest -q -p no:cacheprovider test_profile.py
	check_grep "3 passed" out
	check_exit 1 env $(compare_env different) $pytest -q -p no:cacheprovider test_profile.py
	check_grep "1 failed, 2 passed" out
	ran=$((ran + 1))
else
	echo "note: no pytest (python3-pytest): the pytest example not tried"
fi
[ $ran -gt 0 ] || skip "no automake, prove, cmake or pytest"
exit 0
