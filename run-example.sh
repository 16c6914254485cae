#!/bin/sh
# SPDX-License-Identifier: MIT
# Build perf2gperf and run it on the bundled example: convert
# testdata/example.perf.data (perf 6.1, cpu-clock -g, the program in
# testdata/progs/multi.c) into example.prof, validate it, and show what
# pprof makes of it.  On Debian, missing packages are installed first.
# The build is in _build-example/, out of the source tree, so that
# run-tests.sh (which builds in _build*/) can run before or after it.
set -eu
cd "$(dirname "$0")"

need="gcc make autoconf automake pkg-config libdw-dev libelf-dev zlib1g-dev
      libzstd-dev google-perftools"
./install-deps.sh $need

echo "== building in _build-example/"
[ -x configure ] || ./autogen.sh
if [ -f config.status ]; then
	echo "run-example.sh: the source tree is configured in place;" \
		"run 'make distclean' first" >&2
	exit 2
fi
mkdir -p _build-example
(cd _build-example &&
	{ [ -f Makefile ] || ../configure -q; } &&
	make -s -j"$(nproc 2>/dev/null || echo 2)")
bin=_build-example/src

echo "== converting testdata/example.perf.data"
$bin/perf2gperf --stats testdata/example.perf.data example.prof

echo "== validating example.prof"
$bin/gperfcheck --summary example.prof

# Show pprof's view.  The recording names /work/main/testdata/progs/multi,
# which a fresh checkout rebuilds here with the same compiler and flags
# but, built at another path, with another build ID: Go pprof (which
# shows every frame, kernel ones included; see README) refuses such a
# binary, while google-pprof (perl, from google-perftools) checks no
# build ID and symbolizes it with nm and addr2line, leaving kernel frames
# out.  'go tool pprof' reads the same stacks but names no C functions.
testdata/progs/mkprogs.sh >/dev/null 2>&1 || true
if command -v google-pprof >/dev/null 2>&1; then
	echo "== google-pprof --text testdata/progs/multi example.prof"
	google-pprof --text testdata/progs/multi example.prof
elif command -v go >/dev/null 2>&1; then
	echo "== go tool pprof -top example.prof"
	PPROF_BINARY_PATH=testdata/progs go tool pprof -top example.prof
else
	echo "== no pprof installed; gperfcheck's view:"
	$bin/gperfcheck --dump example.prof
fi
