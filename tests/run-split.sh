#!/bin/sh
# SPDX-License-Identifier: MIT
# --split of a system-wide recording (testdata/system-wide.perf.data.gz:
# 80 processes, 84 threads, many of a sample or two), against perf
# script's samples per process and thread (run here when perf is there,
# else as testdata/system-wide.perf.data.counts keeps them):
#  - --split (pid), --split=tid with a pattern of %t alone, --split=comm
#    with %c alone: one file per process, thread or command, named from
#    the pattern, each with perf's samples of it (a command's: those of
#    its processes, as --split names them);
#  - stderr: one summary line (profiles, samples) and one warning for
#    the profiles whose stacks all share their second frame, where -v
#    gives a note and the warnings per profile;
#  - --min-samples N, split or merged: what is left out, said in the
#    summary, is what perf counts under N;
#  - patterns that cannot name the profiles are usage errors, and write
#    nothing; -q prints nothing.
. "${top_srcdir:-$(dirname "$0")/..}/tests/test-subr.sh"

gunzip -c "$(testfile system-wide.perf.data.gz)" > sw.data
want=$(testfile system-wide.perf.data.counts)
# counts: "PID TID SAMPLES" a thread, as perf script counts them
if have perf &&
   perf script -i sw.data -F pid,tid > script.out 2> /dev/null; then
	tr '/' ' ' < script.out |
		awk '{ n[$1 " " $2]++ } END { for (k in n) print k, n[k] }' |
		sort -n > counts
	compare_text "$want" counts "perf script's samples per thread"
	echo "oracle: perf script"
else
	cp "$want" counts
	echo "oracle: testdata/system-wide.perf.data.counts (no perf)"
fi
total=$(awk '{ s += $3 } END { print s }' counts)
awk '{ n[$1] += $3 } END { for (p in n) print p, n[p] }' counts |
	sort -n > per-pid
nproc=$(wc -l < per-pid)
nthr=$(wc -l < counts)

# samples PREFIX SUFFIX FILE...: "KEY SAMPLES" of each profile, KEY its
# name between PREFIX and SUFFIX, as gperfcheck --summary counts them
samples() {
	_pre=$1 _suf=$2
	shift 2
	"$GPERFCHECK" --summary "$@" 2> /dev/null |
		sed -n "s|^$_pre\\(.*\\)$_suf: .*, \\([0-9]*\\) samples in .*|\\1 \\2|p" |
		sort -n
}

# --- by process: files, counts, and a quiet stderr
mkdir pid
check_exit 0 "$PERF2GPERF" --split sw.data 'pid/%p.prof'
[ "$(ls pid | wc -l)" -eq "$nproc" ] ||
	fail "--split wrote $(ls pid | wc -l) profiles for $nproc processes"
samples pid/ .prof pid/*.prof > got
compare_text per-pid got "samples per --split profile (pid)"
check_grep "sw.data: $nproc profiles (one per process), $total samples written"
strips=$(sed -n 's/.*warning: in \([0-9]*\) of the profiles every stack has the same second frame.*/\1/p' err)
[ -n "$strips" ] || fail "no summary of the second-frame warnings: $(cat err)"
spaces=$(sed -n 's/.*warning: in \([0-9]*\) of the profiles maps lines have a path with a space.*/\1/p' err)
spaces=${spaces:-0}
# the summary, that warning and the one of paths with spaces (a memfd
# "(deleted)"): nothing else (no note on the two events: perf's dummy:HG
# has no samples)
[ "$(wc -l < err)" -eq 3 ] || fail "--split printed $(wc -l < err) lines:
$(cat err)"
echo "--split: $nproc profiles, $total samples, 3 lines on stderr"

# -v: a note and the warnings of each profile
check_exit 0 "$PERF2GPERF" -v --split sw.data 'pid/%p.prof'
sed -n 's|^perf2gperf: pid/\([0-9]*\)\.prof: pid \1 (\(.*\)): \([0-9]*\) samples$|\1 \3 \2|p' err |
	sort -n > notes
cut -d' ' -f1,2 notes > got
compare_text per-pid got "-v notes of the --split profiles"
n=$(grep -c "prof: warning: every stack has the same second frame" err) || :
[ "$n" -eq "$strips" ] ||
	fail "-v gave $n second-frame warnings, the summary $strips"
n=$(grep -c "prof: warning: 1 maps lines have a path with a space" err) || :
[ "$n" -eq "$spaces" ] ||
	fail "-v gave $n warnings of paths with spaces, the summary $spaces"
[ "$(wc -l < err)" -eq $((nproc + strips + spaces + 1)) ] ||
	fail "-v --split printed $(wc -l < err) lines, not $((nproc + strips + spaces + 1))"
# (under valgrind, less: no -q, no merged --min-samples, fewer patterns)
if [ -z "${P2G_WRAPPER:-}" ]; then
	check_exit 0 "$PERF2GPERF" -q --split sw.data 'pid/%p.prof'
	[ ! -s err ] || fail "-q --split printed: $(cat err)"
fi

# --- by thread, named by %t alone
mkdir tid
check_exit 0 "$PERF2GPERF" -v --split=tid sw.data 'tid/%t.prof'
[ "$(ls tid | wc -l)" -eq "$nthr" ] ||
	fail "--split=tid wrote $(ls tid | wc -l) profiles for $nthr threads"
awk '{ print $2, $3 }' counts | sort -n > per-tid
samples tid/ .prof tid/*.prof > got
compare_text per-tid got "samples per --split=tid profile"
sed -n 's|^perf2gperf: tid/\([0-9]*\)\.prof: thread \1 of pid \([0-9]*\) (.*): \([0-9]*\) samples$|\2 \1 \3|p' err |
	sort -n > got
compare_text counts got "-v notes of the --split=tid profiles (pid, tid)"
check_grep "sw.data: $nthr profiles (one per thread), $total samples written"

# --- by command, named by %c alone: each command's processes together
mkdir comm
check_exit 0 "$PERF2GPERF" --split=comm sw.data 'comm/%c.prof'
awk '{ c = $0; sub(/^[^ ]* [^ ]* /, "", c); gsub("/", "_", c)
       n[c] += $2 } END { for (c in n) print c, n[c] }' notes | sort > want
samples comm/ .prof comm/*.prof | sort > got
compare_text want got "samples per --split=comm profile"
[ "$(wc -l < want)" -lt "$nproc" ] || fail "no command has two processes"
ls comm | grep -q '^kworker_' || fail "no kworker_* file: $(ls comm)"
check_grep "$(wc -l < want) profiles (one per command), $total samples written"
echo "--split=tid: $nthr profiles; --split=comm: $(wc -l < want)"

# --- --min-samples, split and merged: perf's processes under N left out
mkdir min
check_exit 0 "$PERF2GPERF" --split --min-samples 5 sw.data 'min/%p.prof'
awk '$2 >= 5' per-pid > want
samples min/ .prof min/*.prof > got
compare_text want got "--split --min-samples 5 profiles"
out=$(awk '$2 < 5 { n++; s += $2 } END { print n, s }' per-pid)
check_grep "$(wc -l < want) profiles (one per process), $((total - ${out#* })) samples written; ${out% *} with fewer than 5 samples left out (${out#* } samples)"
if [ -z "${P2G_WRAPPER:-}" ]; then
	check_exit 0 "$PERF2GPERF" --min-samples 20 sw.data merged.prof
	out=$(awk '$2 < 20 { n++; s += $2 } END { print n, s }' per-pid)
	check_grep "sw.data: ${out% *} processes with fewer than 20 samples left out (${out#* } samples)"
	[ "$(samples '' '' merged.prof | cut -d' ' -f2)" -eq $((total - ${out#* })) ] ||
		fail "--min-samples 20: the merged profile has $(samples '' '' merged.prof)"
	most=$(sort -k2n per-pid | tail -n 1 | cut -d' ' -f2)
	check_exit 1 "$PERF2GPERF" --min-samples $((most + 1)) sw.data none.prof
	check_grep "no process has --min-samples $((most + 1)) samples (the most has $most)"
	[ ! -e none.prof ] || fail "a profile written with nothing in it"
fi

# --- patterns that cannot name the profiles: usage errors, nothing read
bad="--split=tid|x-%p.prof --split=comm|x-%c-%p.prof"
[ -n "${P2G_WRAPPER:-}" ] ||
	bad="$bad --split|x-%p-%t.prof --split=pid|x-%c.prof --split=thread|x-%p.prof"
for bad in $bad; do
	check_exit 2 "$PERF2GPERF" "${bad%|*}" sw.data "${bad#*|}"
	check_grep "Try 'perf2gperf --help'"
done
! ls x-* > /dev/null 2>&1 || fail "a bad pattern wrote $(ls x-*)"
exit 0
