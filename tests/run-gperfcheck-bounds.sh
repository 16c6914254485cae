#!/bin/sh
# SPDX-License-Identifier: MIT
# gperfcheck on profiles made here whose numbers, not their size, are
# hostile:
#  - --lenient accepts records of no PCs (the format document allows
#    them): alone, or last after a record with PCs, they must be read and
#    summarized (no depth, no leaf), never reported as out of memory;
#  - counts whose sum passes 2^64: a profile holding one stack 2^64 + 1
#    times (2^63 + 2^63 + 1) is not "the same" as one holding it once
#    (--compare-stacks), its shares are not exact (--compare, and
#    --expect-mapping fails), and it fails --max-samples 1, as sums that
#    wrap would have it pass;
#  - a file that is not a profile is refused after its header, before
#    the rest is read: /dev/zero and a long pipe of zeros under a memory
#    limit (a reader of the whole file first would take up to 16 GiB).
#    The limit is left out under valgrind and the sanitizers, which need
#    the address space; the endless input is then left out too.
. "${top_srcdir:-$(dirname "$0")/..}/tests/test-subr.sh"

# slots HEX...: 64-bit little-endian slots, each given in hex
slots() {
	for _h in "$@"; do
		_h=$(printf '%016s' "$_h" | tr ' ' 0)
		_i=16
		while [ "$_i" -gt 0 ]; do
			_b=$(printf '%s' "$_h" | cut -c $((_i - 1))-"$_i")
			printf "\\$(printf '%03o' "0x$_b")"
			_i=$((_i - 2))
		done
	done
}
maps='400000-401000 r-xp 0 00:00 0 /nonexistent/prog'

# header 0 3 0 10000 0; one record of count 1 and no PCs; the trailer
{ slots 0 3 0 2710 0  1 0  0 1 0; echo "$maps"; } > nopc.prof
# a record with PCs, then one without: the last PC of the pool is
# followed by nothing
{ slots 0 3 0 2710 0  2 1 400100  3 0  0 1 0; echo "$maps"; } > nopc2.prof
for f in nopc.prof nopc2.prof; do
	check_exit 1 "$GPERFCHECK" "$f"
	check_grep "has no PCs"
	check_exit 0 "$GPERFCHECK" --lenient --summary --dump "$f"
	check_exit 0 "$GPERFCHECK" --lenient --json "$f"
	check_exit 0 "$GPERFCHECK" --lenient --symbolizable 0 \
		--min-samples 1 "$f"
	check_exit 1 "$GPERFCHECK" --lenient --expect-function main "$f"
done
# no PC at all: nothing to compare, the same; 5 samples, 2 with a PC:
# too few samples to tell
check_exit 0 "$GPERFCHECK" --lenient --compare nopc.prof nopc.prof
check_grep "the same shares: each of the 0 functions and mappings" out
check_exit 3 "$GPERFCHECK" --lenient --compare nopc2.prof nopc2.prof
check_grep "too few samples to tell: 5 and 5 samples" out
check_exit 0 "$GPERFCHECK" --lenient --summary nopc.prof
check_grep "1 samples in 1 records, max depth 0" out
check_exit 0 "$GPERFCHECK" --lenient --summary nopc2.prof
check_grep "5 samples in 2 records, max depth 1" out
check_grep "samples by depth: 1:2" out

# one stack once, and the same stack 2^64 + 1 times
{ slots 0 3 0 2710 0  1 1 400100  0 1 0; echo "$maps"; } > once.prof
{ slots 0 3 0 2710 0  8000000000000000 1 400100 \
	8000000000000000 1 400100  1 1 400100  0 1 0; echo "$maps"; } > wrap.prof
check_exit 1 "$GPERFCHECK" --compare-stacks once.prof wrap.prof
check_grep "first difference: stack 0x400100: 1 samples in once.prof" out
check_exit 1 "$GPERFCHECK" --compare-stacks wrap.prof wrap.prof
check_grep "not exact" out
# the shares of a total that does not fit are no verdict either: had
# the sum wrapped to 1, wrap.prof would have once.prof's shares
check_exit 1 "$GPERFCHECK" --compare once.prof wrap.prof
check_grep "a sum of 2^64-1 or more samples: the shares are not exact" out
check_exit 1 "$GPERFCHECK" --compare wrap.prof wrap.prof
check_exit 1 "$GPERFCHECK" --expect-mapping prog wrap.prof
check_grep "(a sum of 2^64-1 or more samples: not exact): FAIL" out
check_exit 1 "$GPERFCHECK" --max-samples 1 wrap.prof
check_grep "18446744073709551615 samples, --max-samples 1: FAIL" out
check_exit 0 "$GPERFCHECK" --max-samples 1 once.prof
check_exit 0 "$GPERFCHECK" --lenient --summary --json wrap.prof

# Not a profile: refused from its header, with the message the whole
# file gets.
check_exit 1 "$GPERFCHECK" - < /dev/null
check_grep "file of 0 bytes is too short for a header"
head -c 1000 /dev/zero > zeros
check_exit 1 "$GPERFCHECK" zeros
check_grep "zeros: offset 0x8: header slot 1 is 0, expected 3"
if [ -n "${P2G_WRAPPER:-}" ] || grep -q __asan_init "$GPERFCHECK"; then
	echo "valgrind or a sanitizer: no memory limit, no endless input"
else
	for opt in "" --lenient --strict; do
		check_exit 1 sh -c 'ulimit -v 200000 && exec "$@" /dev/zero' \
			sh "$GPERFCHECK" $opt
		check_grep "/dev/zero: offset 0x8: header slot 1 is 0, expected 3"
		# ends with SIGPIPE once gperfcheck is gone
		check_exit 1 sh -c 'ulimit -v 200000 && head -c 4000000000 \
			/dev/zero | "$@" -' sh "$GPERFCHECK" $opt
		check_grep "(standard input): offset 0x8: header slot 1 is 0"
	done
fi
exit 0
