#!/bin/sh
# SPDX-License-Identifier: MIT
# Record the libprofiler profiles shares-*.prof.gz of testdata/progs/
# shares.c (testdata/gperf/README): two runs of one program (a, b), one
# with 9 points of hot_loop's share moved to cold_loop (shift), one with
# 16 (shift16).  Run from anywhere; writes into this directory.  The
# program is built and run in /tmp/p2g-shares, the path the profiles'
# maps text names, and kept as shares.gz.  Sample counts and libc's
# addresses change from run to run.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
dir=/tmp/p2g-shares
mkdir -p $dir
cp "$here/../progs/shares.c" $dir/
cd $dir
# Debian's libprofiler: linked only with --no-as-needed (nothing in the
# program calls it; its constructor starts the profiler)
gcc -O0 -g -fno-omit-frame-pointer -fno-inline -no-pie -o shares shares.c \
	-Wl,--no-as-needed -l:libprofiler.so.0
run() {
	CPUPROFILE=$dir/$1.prof CPUPROFILE_FREQUENCY=1000 ./shares $2 $3 $4 2800
	gzip -9 -n -c $dir/$1.prof > "$here/shares-$1.prof.gz"
}
run a 50 30 20
run b 50 30 20
run shift 42 30 28
run shift16 34 30 36
gzip -9 -n -c shares > "$here/shares.gz"
