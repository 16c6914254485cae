#!/bin/sh
# SPDX-License-Identifier: MIT
# The progress line (--progress shows it from the start, whatever stderr
# is): it names the input, the share of its size and the samples so far
# (the bytes and samples for a stream), and while a file-mode perf.data
# on standard input is copied to a temporary file, the share of it
# copied.  Into a file or a pipe each state is a line of its own, at most
# one a second, and the final state (the whole size, every sample: 876,
# the samples perf-stacks.py counts in multi-2ev.perf.data.expected) is
# the last.  On a terminal (util-linux's script gives one) the line is
# written over and cleared before every message and at the end, so that
# no message shares a line of the screen with it.  Without --progress, a
# stderr that is not a terminal gets none; -q silences it.
. "${top_srcdir:-$(dirname "$0")/..}/tests/test-subr.sh"

two=$(testfile multi-2ev.perf.data)
pipe=$(testfile multi-pipe.perf.data)
cr=$(printf '\r')

# lines FILE SECONDS: FILE, written in SECONDS (whole, rounded up), has
# progress lines, no carriage return, and at most one line a second
# beside the final state of each phase (the copy, the reading)
lines() {
	! grep -q "$cr" "$1" || fail "a carriage return in $1 (not a terminal)"
	n=$(grep -c -E '(samples|[0-9] (KiB|MiB|GiB))(, [0-9]+:[0-9][0-9] left)?$' "$1") ||
		fail "no progress line in $1"
	[ "$n" -le $(($2 + 3)) ] ||
		fail "$n progress lines in $2 s in $1: $(cat "$1")"
}

# run CMD...: check_exit 0 CMD, and lines err over the time it took
run() {
	t0=$(date +%s)
	check_exit 0 "$@"
	lines err $(($(date +%s) - t0 + 1))
}

# a note at the end (two sampling events)
run "$PERF2GPERF" --progress "$two" out.prof
check_grep "2 sampling events"
check_grep "% of 92 KiB, 0 samples"
[ "$(grep -c 'of 92 KiB, ' err)" -le 2 ] ||
	fail "more than the first and the final line in a short run: $(cat err)"
grep -v 'sampling events' err | tail -n 1 |
	grep -q ': 100% of 92 KiB, 876 samples$' ||
	fail "the final state is not the last progress line: $(cat err)"

# the statistics, and a stream (no size: bytes and samples)
run sh -c 'cat "$2" | "$1" --progress --stats - out.prof' sh \
	"$PERF2GPERF" "$pipe"
check_grep "statistics:"
grep -Eq '\(standard input\): [0-9]+ KiB, [0-9]+ samples' err ||
	fail "no bytes and samples for a stream: $(cat err)"

# a file-mode perf.data on standard input: the copy, then the reading
run sh -c 'cat "$2" | "$1" --progress - out.prof' sh \
	"$PERF2GPERF" "$two"
grep -Eq '^perf2gperf: \(standard input\): copying to a temporary file: +[0-9]+% of [0-9]+ KiB$' err ||
	fail "no progress while standard input is copied: $(cat err)"
grep -Eq '^perf2gperf: \(standard input\): copying to a temporary file: 100% of [0-9]+ KiB$' err ||
	fail "no final line of the copy: $(cat err)"
check_grep "(standard input): 100% of 92 KiB, 876 samples"
check_grep "2 sampling events"
check_exit 0 sh -c 'cat "$2" | "$1" - out.prof' sh "$PERF2GPERF" "$two"
! grep -q "KiB" err || fail "a progress line of the copy without --progress"
check_exit 0 sh -c 'cat "$2" | "$1" -q --progress - out.prof' sh \
	"$PERF2GPERF" "$two"
[ ! -s err ] || fail "-q --progress printed while copying: $(cat err)"

# many states a second (a 28 MB copy of standard input, read in large
# blocks, that takes a second or two): one line a second at most.  Not
# under a wrapper, where the run takes long enough for any count.
if [ -z "${P2G_WRAPPER:-}" ]; then
	BLOWUP=$top_builddir/tests/blowup
	[ -x "$BLOWUP" ] || hard_error "$BLOWUP is not built"
	"$BLOWUP" datamaps 400000 > big.data
	run sh -c 'cat "$2" | "$1" --progress - out.prof' sh \
		"$PERF2GPERF" big.data
	check_grep "copying to a temporary file: 100% of "
	rm -f big.data
fi

# a warning while the records are read (a stream cut inside a record)
head -c 30000 "$pipe" > cut.data
run "$PERF2GPERF" --progress cut.data out.prof
check_grep "cut.data: offset 0x7500: warning: "

# no terminal: nothing; -q: nothing
check_exit 0 "$PERF2GPERF" "$two" out.prof
! grep -q "KiB" err || fail "a progress line without a terminal"
check_exit 0 "$PERF2GPERF" -q --progress "$two" out.prof
[ ! -s err ] || fail "-q --progress printed: $(cat err)"

# a terminal: the line is written over, and cleared before a message
# and at the end (the screen's lines are what follows the last carriage
# return of each)
if have script && script -qec true /dev/null > /dev/null 2>&1; then
	script -qec "'$PERF2GPERF' --progress '$two' out.prof" /dev/null \
		> tty 2>&1 < /dev/null || fail "perf2gperf failed on a terminal"
	tr -d '\n' < tty | grep -q "$cr"'perf2gperf: .*: *0% of 92 KiB, 0 samples' ||
		fail "no progress line on the terminal: $(cat -A tty)"
	awk -F "$cr" '{ line = $NF }
		line ~ /samples$/ || line ~ /[0-9] (KiB|MiB|GiB)/ { bad = 1 }
		END { exit bad }' tty ||
		fail "progress left on the screen: $(cat -A tty)"
	grep -q '2 sampling events' tty || fail "no note on the terminal"
fi
exit 0
