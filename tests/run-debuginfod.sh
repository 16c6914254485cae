#!/bin/sh
# SPDX-License-Identifier: MIT
# --debuginfod: a recording converted where its program is gone, its
# files served by elfutils' own debuginfod on 127.0.0.1.  Build
# testdata/progs/hot.c, record it with --call-graph dwarf (perf's
# build-ID cache in the test directory, HOME), take perf2gperf's folded
# stacks (names, inlined functions, DWARF-unwound stacks) and profile,
# then serve the program stripped and its debug file (objcopy
# --only-keep-debug), move the program away and empty the cache:
#  - found nowhere: the program's functions are unnamed, its stacks not
#    unwound;
#  - no network unasked: with DEBUGINFOD_URLS naming a server that
#    accepts and never answers, perf2gperf without --debuginfod,
#    gperfcheck without it and perf_to_profile without DEBUGINFOD_URLS
#    connect to nothing (the server logs each connection);
#  - with the debuginfod server: the folded stacks and the profile are
#    those made with the program in place, gperfcheck --debuginfod
#    names the program's function, perf_to_profile with DEBUGINFOD_URLS
#    set does too, and the server's log shows the program's executable
#    and debuginfo each asked for once;
#  - a build of hot.c whose own functions have their CFI in .debug_frame
#    only (-fno-asynchronous-unwind-tables), served stripped with its
#    debug file: its DWARF-unwound profile equals the one made with the
#    program in place (the unwinder fetches the debuginfo for the CFI);
#  - a file of another build ID in the client's cache under the
#    program's build ID is refused, and said so;
#  - the stalled server with DEBUGINFOD_TIMEOUT=2 costs about the
#    timeout per build ID asked, the progress line shows the fetch, and
#    one warning names the server and the build IDs.
# Needs perf allowed to record, gcc, strip, objcopy, readelf, debuginfod,
# python3 and curl, and a build with libdebuginfod; skips otherwise.
. "${top_srcdir:-$(dirname "$0")/..}/tests/test-subr.sh"

need_cmd perf gcc strip objcopy readelf debuginfod python3 curl
grep -q '^#define HAVE_LIBDEBUGINFOD 1' "$top_builddir/config.h" ||
	skip "built without libdebuginfod"
src=$(testfile progs/hot.c)
unset DEBUGINFOD_URLS DEBUGINFOD_CACHE_PATH DEBUGINFOD_TIMEOUT \
	DEBUGINFOD_RETRY_LIMIT DEBUGINFOD_PROGRESS DEBUGINFOD_VERBOSE
HOME=$test_dir/home
export HOME
mkdir -p "$HOME" bin srv other

# the servers, stopped by their PIDs however the test ends
srv_pid=
stall_pid=
trap 'rc=$?
	[ -z "$srv_pid" ] || kill "$srv_pid" 2> /dev/null || :
	[ -z "$stall_pid" ] || kill "$stall_pid" 2> /dev/null || :
	test_exit $rc' EXIT

${CC:-gcc} -O2 -g -o bin/hot "$src" 2> cc.log || {
	cat cc.log >&2
	skip "cannot build hot.c"
}
${CC:-gcc} -O0 -g -o other/hot "$src" 2> cc.log ||
	hard_error "cannot build hot.c again: $(head -n 1 cc.log)"
${CC:-gcc} -O2 -g -fno-asynchronous-unwind-tables -fno-unwind-tables \
	-o bin/hotcfi "$src" 2> cc.log ||
	hard_error "cannot build hot.c with .debug_frame: $(head -n 1 cc.log)"
bid=$(readelf -n bin/hot | awk '/Build ID:/ { print $3 }')
bid2=$(readelf -n bin/hotcfi | awk '/Build ID:/ { print $3 }')
[ -n "$bid" ] && [ -n "$bid2" ] || skip "gcc gives hot no build ID"
perf record -q --call-graph dwarf -F 500 -o r.data -- ./bin/hot \
	> rec.log 2>&1 ||
	skip "perf record does not work here: $(head -n 1 rec.log)"
perf record -q --call-graph dwarf -F 500 -o cfi.data -- ./bin/hotcfi \
	> rec.log 2>&1 ||
	hard_error "perf record failed: $(head -n 1 rec.log)"

# perf script's names of the program's frames (the oracle), and what
# perf2gperf makes with the program in place
hot_before r.data

check_exit 0 "$PERF2GPERF" -q --no-fixup cfi.data cfi-before.prof
check_exit 0 "$GPERFCHECK" --dump cfi-before.prof
mv out cfi-before.dump
# a user stack of three frames at least: unwound through .debug_frame
awk '/^[0-9]/ && NF >= 4 && !/0xffff/ { n++ } END { exit !n }' \
	cfi-before.dump ||
	hard_error "hotcfi's profile has no user stack of three frames"

# served: the programs without their symbols, and their debug files
for p in hot hotcfi; do
	strip -o srv/$p bin/$p
	objcopy --only-keep-debug bin/$p srv/$p.debug
	mv bin/$p $p.moved
done
rm -rf "$HOME/.debug"

# a server that accepts connections and never answers; it logs each
cat > stall.py <<'PY'
import os, socket, sys
s = socket.socket()
s.bind(("127.0.0.1", 0))
s.listen(64)
with open(sys.argv[1] + ".tmp", "w") as f:
    f.write("%d\n" % s.getsockname()[1])
os.rename(sys.argv[1] + ".tmp", sys.argv[1])
held = []
while True:
    c, _ = s.accept()
    held.append(c)
    with open(sys.argv[2], "a") as f:
        f.write("connection\n")
PY
: > stall.log
python3 stall.py stall.port stall.log 2> stall.err &
stall_pid=$!
i=0
while [ ! -s stall.port ]; do
	i=$((i + 1))
	[ $i -le 300 ] && kill -0 $stall_pid 2> /dev/null ||
		hard_error "the stalled server did not start: $(cat stall.err)"
	sleep 0.1
done
stall=http://127.0.0.1:$(cat stall.port)
# Where the environment names the stalled server, the tools run as they
# are: valgrind (make check-valgrind) asks DEBUGINFOD_URLS for its own
# debug files.
p2g=$top_builddir/src/perf2gperf
gpc=$top_builddir/src/gperfcheck

# seconds since the epoch, with fractions
now() {
	date +%s.%N
}

# found nowhere: unnamed, not unwound (timed: the base of the stalled
# server's cost below)
t0=$(now)
check_exit 0 "$p2g" -f folded r.data none.folded
t1=$(now)
check_grep "$test_dir/bin/hot: no usable file (not found)"
! grep -q ';hot_loop' none.folded ||
	fail "hot_loop named with the program moved away"
check_exit 0 "$PERF2GPERF" -q --no-fixup r.data none.prof
check_exit 1 "$GPERFCHECK" -q --expect-function hot_loop none.prof

# no network unasked, whatever the environment says
DEBUGINFOD_URLS=$stall DEBUGINFOD_TIMEOUT=2 \
	DEBUGINFOD_CACHE_PATH=$test_dir/cache0
export DEBUGINFOD_URLS DEBUGINFOD_TIMEOUT DEBUGINFOD_CACHE_PATH
check_exit 0 "$p2g" -f folded r.data unasked.folded
! grep -q ';hot_loop' unasked.folded ||
	fail "hot_loop named without --debuginfod"
check_exit 1 "$gpc" -q --expect-function hot_loop none.prof
unset DEBUGINFOD_URLS
check_exit 0 "$top_builddir/src/perf_to_profile" -i r.data -o p0.pb.gz
[ -s stall.log ] && fail "a server was asked without --debuginfod"
! gzip -dc < p0.pb.gz | grep -aq hot_loop ||
	fail "perf_to_profile named hot_loop with no DEBUGINFOD_URLS"

# elfutils' debuginfod serving srv/, on a port free a moment ago
port=$(python3 -c 'import socket
s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
debuginfod -F srv -p "$port" -d "$test_dir/db.sqlite" > srv.log 2>&1 &
srv_pid=$!
url=http://127.0.0.1:$port
# until it has indexed the four files (bounded: a minute)
i=0
until curl -sf -o /dev/null "$url/buildid/$bid/executable" &&
	curl -sf -o /dev/null "$url/buildid/$bid/debuginfo" &&
	curl -sf -o /dev/null "$url/buildid/$bid2/executable" &&
	curl -sf -o /dev/null "$url/buildid/$bid2/debuginfo"; do
	i=$((i + 1))
	[ $i -le 600 ] && kill -0 $srv_pid 2> /dev/null ||
		hard_error "debuginfod did not serve $bid: $(tail -n 3 srv.log)"
	sleep 0.1
done

# asks: the server's log lines for the program's FILE (executable or
# debuginfo) since line $mark
asks() {
	tail -n +$((mark + 1)) srv.log | grep -c "GET /buildid/$bid/$1 " || :
}

DEBUGINFOD_URLS=$url DEBUGINFOD_CACHE_PATH=$test_dir/cache1
export DEBUGINFOD_URLS DEBUGINFOD_CACHE_PATH
mark=$(wc -l < srv.log)
check_exit 0 "$PERF2GPERF" --debuginfod --stats -f folded r.data \
	with.folded
compare_text before.folded with.folded "folded stacks from debuginfod"
! grep -q "no usable file" err || fail "with the server: $(cat err)"
check_grep "  $bid executable  from $test_dir/cache1/$bid/executable"
check_grep "  $bid debuginfo   from $test_dir/cache1/$bid/debuginfo"
[ "$(asks executable)" -eq 1 ] && [ "$(asks debuginfo)" -eq 1 ] ||
	fail "the program's files not asked once each: $(tail -n +$((mark + 1)) srv.log)"
check_exit 0 "$PERF2GPERF" -q --debuginfod --no-fixup r.data with.prof
check_exit 0 "$GPERFCHECK" --dump with.prof
compare_text before.dump out "the DWARF-unwound profile from debuginfod"
check_exit 0 "$GPERFCHECK" -q --debuginfod --expect-function hot_loop \
	none.prof
check_exit 0 "$PERF2GPERF" -q --no-fixup cfi.data cfi-none.prof
check_exit 0 "$GPERFCHECK" --dump cfi-none.prof
! cmp -s cfi-before.dump out ||
	hard_error "hotcfi's stacks unwound with the program moved away"
check_exit 0 "$PERF2GPERF" -q --debuginfod --no-fixup cfi.data \
	cfi-with.prof
check_exit 0 "$GPERFCHECK" --dump cfi-with.prof
compare_text cfi-before.dump out "unwound with CFI from the debuginfo"
check_exit 0 "$top_builddir/src/perf_to_profile" -i r.data -o p1.pb.gz
gzip -dc < p1.pb.gz | grep -aq hot_loop ||
	fail "perf_to_profile with DEBUGINFOD_URLS did not name hot_loop"

# a file of another build ID in the client's cache, under the program's
# build ID: refused (the client finds it there and asks no server)
mkdir -p cache2/$bid
cp other/hot cache2/$bid/executable
cp other/hot cache2/$bid/debuginfo
DEBUGINFOD_URLS=$stall DEBUGINFOD_CACHE_PATH=$test_dir/cache2
check_exit 0 "$p2g" --debuginfod -f folded r.data refused.folded
! grep -q ';hot_loop' refused.folded ||
	fail "hot_loop named from a file of another build ID"
check_grep "debuginfod servers $stall: "
check_grep "$bid (executable: build ID differs)"
[ -s stall.log ] && fail "a server was asked for a file in the cache"

# the stalled server: about the timeout per build ID asked
: > stall.log
DEBUGINFOD_CACHE_PATH=$test_dir/cache3
t2=$(now)
check_exit 0 "$p2g" --debuginfod --progress -f folded r.data \
	stalled.folded
t3=$(now)
check_grep "debuginfod: fetching the executable of $bid"
check_grep "debuginfod servers $stall: "
check_grep "$bid (executable: "
[ "$(grep -c "debuginfod servers" err)" -eq 1 ] ||
	fail "not one warning about the servers: $(cat err)"
n=$(grep "debuginfod servers" err | grep -o '[0-9a-f]\{40\} (' | sort -u |
	wc -l)
[ "$(wc -l < stall.log)" -le "$n" ] ||
	fail "$(wc -l < stall.log) connections for $n build IDs"
awk -v a="$t0" -v b="$t1" -v c="$t2" -v d="$t3" -v n="$n" 'BEGIN {
	extra = (d - c) - (b - a)
	printf "stalled server: %.1f s more for %d build IDs\n", extra, n
	exit !(extra < 2 * n + 3) }' ||
	fail "the stalled server cost more than its timeout per build ID"
