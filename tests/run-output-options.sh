#!/bin/sh
# SPDX-License-Identifier: MIT
# The output options of doc/perf2gperf.1 on the committed fixtures, with
# perf's own reading (NAME.perf.data.expected) as the oracle:
#  - --split on forkexec (parent "forkexec" and exec'd child "hot") and
#    spawn-free threads: one file per process, named by the %p/%c pattern,
#    each holding exactly perf's stacks of that process; a pattern
#    without %p, and '-', are usage errors;
#  - --user-only / --kernel-only on hot (kernel samples with user parts):
#    the stacks are perf's with the kernel (user) frames taken out, and
#    samples left with no frame dropped; both together are a usage error;
#  - --weight period on multi-2ev: each record counts its periods in
#    header periods (1001 us = 1001001 ns for cpu-clock), rounded, at
#    least 1, with the per-stack period sums of the oracle;
#  - several inputs (-o): one input gives what INPUT OUTPUT gives; the
#    same recording twice gives every stack twice the count; two
#    recordings give all the samples of both; an OUTPUT that is one of
#    the inputs is refused and left alone;
#  - --slot-width: 32 on an x86_64 recording fails (exit 1) naming the
#    first address that does not fit; auto gives 64 there; an armv7
#    recording of ../shared/corpus (when present) gets 32-bit slots by
#    default and 64 with --slot-width 64, with the same stacks.
. "${top_srcdir:-$(dirname "$0")/..}/tests/test-subr.sh"
. "$top_srcdir/tests/stacks.sh"

KSTART=0xffff800000000000

# --- --split
fe=$(testfile forkexec.perf.data)
check_exit 0 "$PERF2GPERF" -q --no-fixup --split "$fe" 'fe-%p-%c.prof'
ls fe-*.prof > split.list
[ "$(wc -l < split.list)" -eq 2 ] || fail "--split wrote $(wc -l < split.list) files for 2 processes"
cut -f4 "$fe.expected" | sort -u > pids
while read -r pid; do
	f=$(ls fe-$pid-*.prof 2>/dev/null) || fail "--split wrote no file for pid $pid"
	check_exit 0 "$GPERFCHECK" --dump "$f"
	stacks_dump out > got
	stacks_oracle "$fe.expected" cpu-clock $pid > want
	compare_text want got "--split profile of pid $pid"
done < pids
ls fe-*-hot.prof fe-*-forkexec.prof > /dev/null 2>&1 ||
	fail "--split file names do not carry the commands: $(cat split.list)"
check_exit 2 "$PERF2GPERF" --split "$fe" nopid.prof
check_grep "%p"
check_exit 2 "$PERF2GPERF" --split "$fe" -
[ ! -e nopid.prof ] || fail "a file was written for a bad --split pattern"
echo "--split: $(tr '\n' ' ' < split.list)"

# --- --user-only / --kernel-only
hot=$(testfile hot.perf.data)
# the oracle with kernel (user) frames taken out, stacks left empty dropped
oracle_part() {	# oracle kernel|user
	awk -F "$TAB" -v part="$2" "$stacks_awk_lib"'
		{
			n = split($5, a, " ")
			s = ""
			for (i = 1; i <= n; i++) {
				x = norm(a[i])
				k = length(x) == 18 && x >= "0xffff800000000000"
				if ((part == "kernel") != k || x == "0x0")
					continue
				s = s (s != "" ? " " : "") x
			}
			if (s != "")
				print s "\t" $1
		}' "$1" | stacks_sum
}
for part in user kernel; do
	check_exit 0 "$PERF2GPERF" -q --no-fixup --$part-only "$hot" $part.prof
	check_exit 0 "$GPERFCHECK" --dump $part.prof
	stacks_dump out > $part.got
	oracle_part "$hot.expected" $part > $part.want
	[ -s $part.want ] || hard_error "hot.perf.data has no $part frames"
	compare_text $part.want $part.got "--$part-only stacks of hot"
done
check_exit 2 "$PERF2GPERF" --user-only --kernel-only "$hot" both.prof
check_grep "exclude each other"

# --- --weight period
m2=$(testfile multi-2ev.perf.data)
check_exit 0 "$PERF2GPERF" -q --no-fixup --weight period -e cpu-clock "$m2" w.prof
check_exit 0 "$GPERFCHECK" --dump w.prof
stacks_dump out > w.got
awk -F "$TAB" -v unit=1001001 "$stacks_awk_lib"'
	$3 == "cpu-clock" {
		n = split($5, a, " ")
		s = ""
		for (i = 1; i <= n; i++)
			s = s (s != "" ? " " : "") norm(a[i])
		p[s] += $2
	}
	END {
		for (s in p) {
			c = int(p[s] / unit + 0.5)
			print (c > 0 ? c : 1), s
		}
	}' "$m2.expected" | sort -k2 > w.want
sort -k2 w.got > w.got.sorted
compare_text w.want w.got.sorted "--weight period counts of multi-2ev cpu-clock"
check_exit 2 "$PERF2GPERF" --weight time "$m2" x.prof
check_grep "--weight: 'time'"

# --- several inputs (-o OUTPUT INPUT...)
multi=$(testfile multi.perf.data)
check_exit 0 "$PERF2GPERF" -q --no-fixup "$multi" one.prof
check_exit 0 "$PERF2GPERF" -q --no-fixup -o one-o.prof "$multi"
cmp one.prof one-o.prof || fail "-o OUTPUT INPUT differs from INPUT OUTPUT"
# the same recording twice: its processes kept apart, but the same files
# at the same places, so every stack counts twice
check_exit 0 "$PERF2GPERF" -q --no-fixup -s -o twice.prof "$multi" "$multi"
check_grep "processes written                   2"
check_exit 0 "$GPERFCHECK" --dump one.prof
stacks_dump out | awk '{ $1 = 2 * $1; print }' > twice.want
check_exit 0 "$GPERFCHECK" --dump twice.prof
stacks_dump out > twice.got
compare_text twice.want twice.got "one recording given twice"
# two recordings: all samples of both, each file at one place
check_exit 0 "$PERF2GPERF" -q --no-fixup -o both.prof "$hot" "$multi"
check_exit 0 "$GPERFCHECK" --summary both.prof
want=$(awk -F "$TAB" '{ s += $1 } END { print s }' "$hot.expected" "$multi.expected")
check_grep " $want samples" out
cp "$multi" in.data
check_exit 2 "$PERF2GPERF" -o in.data "$hot" in.data
check_grep "output is an input file"
cmp in.data "$multi" || fail "an input was overwritten"
check_exit 2 "$PERF2GPERF" --split -o 'x%p' "$hot" "$multi"
check_grep "--split takes one INPUT"

# --- --slot-width
check_exit 1 "$PERF2GPERF" --slot-width 32 "$hot" s32.prof
check_grep "does not fit a 32-bit slot"
check_grep "address 0x"
[ ! -e s32.prof ] || fail "a partial 32-bit profile was left"
check_exit 0 "$PERF2GPERF" -q "$hot" auto.prof
check_exit 0 "$GPERFCHECK" --summary auto.prof
check_grep "64-bit" out
check_exit 2 "$PERF2GPERF" --slot-width 16 "$hot" x.prof
corpus=$top_srcdir/../shared/corpus/quipper
arm=$corpus/perf.data.armv7-3.4
if [ -f "$arm" ]; then
	check_exit 0 "$PERF2GPERF" -q --no-fixup "$arm" arm.prof
	check_exit 0 "$GPERFCHECK" --summary arm.prof
	check_grep "32-bit little-endian" out
	# one process: its own addresses, whatever the slot width
	pid=$(awk -F "$TAB" '{ c[$4] += $1 } END { for (p in c) print c[p], p }' \
		"$arm.expected-raw" | sort -n | tail -n 1 | cut -d' ' -f2)
	check_exit 0 "$PERF2GPERF" -q --no-fixup -p $pid "$arm" arm.prof
	check_exit 0 "$GPERFCHECK" --dump arm.prof
	stacks_dump out > arm32.stacks
	check_exit 0 "$PERF2GPERF" -q --no-fixup --slot-width 64 -p $pid "$arm" arm64.prof
	check_exit 0 "$GPERFCHECK" --dump arm64.prof
	stacks_dump out > arm64.stacks
	compare_text arm32.stacks arm64.stacks "32- and 64-bit profiles of armv7"
	echo "armv7: 32-bit slots by default"
else
	echo "note: $corpus not present: the 32-bit recording is not checked"
fi
exit 0
