#!/bin/sh
# SPDX-License-Identifier: MIT
# JIT code named from /tmp/perf-PID.map, as perf names it: build
# testdata/progs/jitprog.c (x86-64), which copies code into anonymous
# executable memory and writes the perf map a JIT writes (a name with
# spaces in it, too); record it with perf record -g; every frame's name,
# in the JIT code and elsewhere, must be perf script's.  The perf map is
# kept for perf script and the symbolizer, and removed at the end.
# Needs x86-64, gcc and perf allowed to record; skips otherwise.
. "${top_srcdir:-$(dirname "$0")/..}/tests/test-subr.sh"
. "$top_srcdir/tests/symframes.sh"

need_cmd perf gcc
[ "$(uname -m)" = x86_64 ] || skip "jitprog.c is x86-64 code"
src=$(testfile progs/jitprog.c)
HOME=$test_dir/home
export HOME
mkdir -p "$HOME"
${CC:-gcc} -O2 -fno-omit-frame-pointer -o jitprog "$src" 2> cc.log || {
	cat cc.log >&2
	skip "cannot build jitprog.c"
}
n=30000000
[ -n "${P2G_WRAPPER:-}" ] && n=10000000
perf record -q -g -F 2000 -o jit.data -- ./jitprog $n keep > rec.log 2>&1 ||
	skip "perf record does not work here: $(head -n 1 rec.log)"
pid=$(perf script -i jit.data -F pid --show-mmap-events 2>/dev/null |
	awk '/PERF_RECORD_MMAP2/ && / \/.*\/jitprog$/ { print $1; exit }')
[ -n "$pid" ] || hard_error "no mapping of jitprog in jit.data"
jitmap=/tmp/perf-$pid.map
trap '_rc=$?; rm -f "$jitmap"; test_exit $_rc' EXIT
[ -f "$jitmap" ] || hard_error "jitprog wrote no $jitmap"

perf_frames jit.data jit.in jit.exp
grep -q ' LazyCompile:\*count one\.js:1$' jit.exp ||
	hard_error "perf names no JIT frame (recording too short?)"
grep -q ' jit_two$' jit.exp || hard_error "perf names no frame jit_two"
$SYMLOOKUP --home "$HOME" < jit.in > jit.got || fail "symlookup failed"
compare_text jit.exp jit.got "the names of the frames"

# symbols_file() names the map; without it nothing is named
grep -m 1 -A 1 ' //anon$' jit.in > one.in
echo file >> one.in
$SYMLOOKUP < one.in > one.out || fail "symlookup failed"
check_grep "file $jitmap" one.out
rm -f "$jitmap"
$SYMLOOKUP < one.in > gone.out || fail "symlookup failed"
check_grep "file - not found" gone.out
check_grep " [unknown]" gone.out
exit 0
