#!/bin/sh
# SPDX-License-Identifier: MIT
# Build perf2gperf and run every test: install the build and test
# dependencies (Debian), then autogen, configure --enable-werror, make,
# make check (the offline tier), make distcheck and make check-live (the
# tests that record with perf, drive pprof, read ../shared/corpus or
# loop long) in _build/; the Debian package built from the release
# tarball as nobody, and lintian on it, in _build/deb/; both tiers again
# under AddressSanitizer and UndefinedBehaviorSanitizer in _build-san/;
# the libFuzzer targets for FUZZ_SECONDS (default 15) each in
# _build-fuzz/; and the offline tier under valgrind (make
# check-valgrind) in _build/.  Exits non-zero on any failure.  Test logs:
# _build*/tests/*.log and _build*/test-suite.log (the last tier run in
# that tree); fuzzer logs: _build-fuzz/fuzz/*.log; the package's:
# _build/deb/build.log and lintian.log.
set -eu
cd "$(dirname "$0")"
top=$(pwd)
jobs=$(nproc 2>/dev/null || echo 2)
started=$(date +%s)

# phase TITLE: announce the next pass, with the minutes spent so far.
phase() {
	echo "== $1 (at $(( ($(date +%s) - started) / 60 )) min)"
}

need="gcc make autoconf automake pkg-config libdw-dev libelf-dev zlib1g-dev
      libzstd-dev zstd
      linux-perf google-perftools golang-go golang-github-google-pprof-dev
      libiberty-dev protobuf-compiler libdebuginfod-dev debuginfod curl
      clang libclang-rt-14-dev valgrind perl python3 python3-pytest cmake
      dpkg-dev debhelper fakeroot lintian"
./install-deps.sh $need

summary() {
	# One closing line per pass: "NAME: N passed, N failed, N skipped".
	log=$1/test-suite.log
	[ -f "$log" ] || return 0
	awk -v name="$2" '
		/^# PASS:/ { p = $3 } /^# FAIL:/ { f = $3 } /^# ERROR:/ { e = $3 }
		/^# SKIP:/ { s = $3 } /^# XPASS:/ { x = $3 }
		END { printf "%s: %d passed, %d failed, %d skipped\n",
		      name, p, f + e + x, s }' "$log"
}

show_failures() {
	for f in "$1"/tests/*.log "$1"/tests/unit/*.log; do
		[ -f "$f" ] || continue
		if grep -q '^:test-result: \(FAIL\|ERROR\)' "${f%.log}.trs" 2>/dev/null; then
			echo "==== $f"
			tail -n 60 "$f"
		fi
	done
}

phase "autogen"
# The builds are out of the tree: a configuration in place (./configure
# run in the source tree) would stop them.
if [ -f config.status ]; then
	echo "run-tests.sh: the source tree is configured in place; make distclean"
	make -s distclean
fi
./autogen.sh

phase "build and check (_build)"
rm -rf _build
mkdir _build
cd _build
../configure -q --enable-werror
make -j"$jobs"
if ! make -j"$jobs" check; then
	show_failures .
	summary . tests
	exit 1
fi
summary . tests

phase "distcheck"
make -j"$jobs" distcheck DISTCHECK_CONFIGURE_FLAGS=--enable-werror

phase "live tier (_build)"
if ! make -j"$jobs" check-live; then
	show_failures .
	summary . live
	exit 1
fi
summary . live
cd "$top"

phase "Debian package from the release tarball (_build/deb)"
packaging/build-deb.sh _build _build/deb

phase "build and check under ASan and UBSan (_build-san)"
rm -rf _build-san
mkdir _build-san
cd _build-san
../configure -q --enable-werror --enable-sanitizers
make -j"$jobs"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=0
export ASAN_OPTIONS
UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export UBSAN_OPTIONS
# A quarter of the mutation runs: the fuzzers cover that ground under
# the sanitizers at a hundred times the rate.
if ! make -j"$jobs" check; then
	show_failures .
	summary . sanitizers
	exit 1
fi
summary . sanitizers
if ! make -j"$jobs" check-live P2G_LIVE_MUTATE_RUNS=100; then
	show_failures .
	summary . "sanitizers, live tier"
	exit 1
fi
summary . "sanitizers, live tier"
cd "$top"

phase "libFuzzer targets, ${FUZZ_SECONDS:-15} s each (_build-fuzz)"
rm -rf _build-fuzz
mkdir _build-fuzz
cd _build-fuzz
../configure -q --enable-werror --enable-fuzzers CC=clang
make -j"$jobs"
make fuzz FUZZ_SECONDS="${FUZZ_SECONDS:-15}"
cd "$top"

phase "test suite under valgrind (_build)"
cd _build
unset ASAN_OPTIONS UBSAN_OPTIONS
if ! make -j"$jobs" check-valgrind; then
	show_failures .
	summary . valgrind
	exit 1
fi
summary . valgrind
phase "all tests passed"
