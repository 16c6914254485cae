#!/bin/sh
# SPDX-License-Identifier: MIT
# Mapped paths with spaces ("4º ano/...", "chrome (deleted)"): Go pprof
# takes the path of a maps line up to its first space, so perf2gperf
# warns as gperfcheck does, and the brief line that carries the build ID
# (by which pprof finds the file) is kept, its spaces written as \040 so
# that Go pprof reads the path, offset and build ID whole.
# testdata/regress/path-spaces.perf.data (mkregress.pl) maps libc as
# "/opt/my libs/libc 2.so" with a build ID; in the live tier, go tool
# pprof must read that build ID, and the same holds for the file of
# ../shared/corpus/foreign whose program lies under "4º ano/".
. "${top_srcdir:-$(dirname "$0")/..}/tests/test-subr.sh"

data=$(testfile regress/path-spaces.perf.data)
check_exit 0 "$PERF2GPERF" "$data" s.prof
check_grep "s.prof: warning: 1 maps lines have a path with a space, which Go pprof cuts at the space"
check_exit 0 "$GPERFCHECK" --dump s.prof
# (--dump shows the maps text's backslash escaped, as \x5c)
check_grep 'r-xp /opt/my\x5c040libs/libc\x5c0402.so (@26000) ba5eba11ba5eba11ba5eba11ba5eba11ba5eba11' out
check_grep 'r-xp 00026000 00:00 0 /opt/my libs/libc 2.so' out

live_rest
if have go; then
	go_env
	go_raw s.prof s.raw
	grep -q 'libc\\0402.so ba5eba11ba5eba11ba5eba11ba5eba11ba5eba11' s.raw ||
		{ cat s.raw >&2; fail "go tool pprof reads no build ID for the path with spaces"; }
fi
f=$top_srcdir/../shared/corpus/foreign/EmbeddedErasmus_GameOfLife__bin_perf.data
[ -f "$f" ] || {
	echo "no foreign corpus: not tried on its file"
	exit 0
}
check_exit 0 "$PERF2GPERF" "$f" e.prof
check_grep "e.prof: warning: 1 maps lines have a path with a space"
if have go; then
	go_raw e.prof e.raw
	grep -q 'game_of_life b667e8553cebea610a32d3f1243455eabdefad1e' e.raw ||
		fail "$f: go tool pprof reads no build ID for the program"
fi
echo "paths with spaces: warned of, their build IDs kept"
exit 0
