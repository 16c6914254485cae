#!/bin/sh
# SPDX-License-Identifier: MIT
# The progress line (--progress shows it from the start, whatever stderr
# is): it names the input, the share of its size and the samples so far
# (the bytes and samples for a stream), and while a file-mode perf.data
# on standard input is copied to a temporary file, the share of it
# copied; it is cleared before every message (a warning, a note, the
# statistics) and at the end, so that no message shares a line of the
# screen with it.  Without --progress, a stderr that is not a terminal
# gets none; -q silences it.
. "${top_srcdir:-$(dirname "$0")/..}/tests/test-subr.sh"

two=$(testfile multi-2ev.perf.data)
pipe=$(testfile multi-pipe.perf.data)
cr=$(printf '\r')

# clean FILE: every line of FILE as the screen shows it (what follows
# its last carriage return) is empty or a message, never progress; the
# last line ends with a newline or is blank
clean() {
	tr '\r' '\n' < "$1" | grep -q ' samples$' ||
		fail "no progress line in $1: $(cat "$1")"
	awk -F "$cr" -v what="$1" '
		{ line = $NF }
		line ~ /samples(, [0-9]+:[0-9][0-9] left)?$/ ||
		line ~ /[0-9] (KiB|MiB|GiB)/ {
			print what ": progress left on the screen: " line
			bad = 1
		}
		END { exit bad }' "$1" || fail "progress not cleared in $1"
	tail -c 1 "$1" | od -An -c | grep -q '\\n' ||
		[ -z "$(tail -n 1 "$1" | tr -d " $cr")" ] ||
		fail "$1 ends in a progress line"
}

# a note at the end (two sampling events)
check_exit 0 "$PERF2GPERF" --progress "$two" out.prof
check_grep "2 sampling events"
check_grep "% of 92 KiB, 0 samples"
clean err

# the statistics, and a stream (no size: bytes and samples)
check_exit 0 sh -c 'cat "$2" | "$1" --progress --stats - out.prof' sh \
	"$PERF2GPERF" "$pipe"
check_grep "statistics:"
grep -Eq '\(standard input\): [0-9]+ KiB, [0-9]+ samples' err ||
	fail "no bytes and samples for a stream: $(cat err)"
clean err

# a file-mode perf.data on standard input: the copy, then the reading
check_exit 0 sh -c 'cat "$2" | "$1" --progress - out.prof' sh \
	"$PERF2GPERF" "$two"
tr '\r' '\n' < err |
	grep -Eq '^perf2gperf: \(standard input\): copying to a temporary file: +[0-9]+% of [0-9]+ KiB$' ||
	fail "no progress while standard input is copied: $(cat err)"
check_grep "2 sampling events"
clean err
check_exit 0 sh -c 'cat "$2" | "$1" - out.prof' sh "$PERF2GPERF" "$two"
! grep -q "$cr" err || fail "a progress line of the copy without a terminal"
check_exit 0 sh -c 'cat "$2" | "$1" -q --progress - out.prof' sh \
	"$PERF2GPERF" "$two"
[ ! -s err ] || fail "-q --progress printed while copying: $(cat err)"

# a warning while the records are read (a stream cut inside a record)
head -c 30000 "$pipe" > cut.data
check_exit 0 "$PERF2GPERF" --progress cut.data out.prof
check_grep "cut.data: offset 0x7500: warning: "
clean err

# no terminal: nothing; -q: nothing
check_exit 0 "$PERF2GPERF" "$two" out.prof
! grep -q "$cr" err || fail "a progress line without a terminal"
check_exit 0 "$PERF2GPERF" -q --progress "$two" out.prof
[ ! -s err ] || fail "-q --progress printed: $(cat err)"
exit 0
