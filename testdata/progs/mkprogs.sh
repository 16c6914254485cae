#!/bin/sh
# Rebuild the test programs in testdata/progs with the exact flags used for
# the fixtures.  Run from anywhere; binaries are written next to the sources.
set -eu
cd "$(dirname "$0")"
CC=${CC:-gcc}
CFLAGS="-O0 -g -fno-omit-frame-pointer -fno-inline -no-pie"
for p in hot recurse multi forkexec spawn2 forkprof; do
	$CC $CFLAGS -o $p $p.c
done
$CC $CFLAGS -pthread -o threads threads.c
$CC $CFLAGS -pthread -o offcpu offcpu.c
