#!/bin/sh
# SPDX-License-Identifier: MIT
# perf2gperf --info shows every feature section that
# `perf report --header-only -I` shows: for each fixture (file and pipe
# mode, a perf.data directory, zstd, tracepoints, a sampling group) and,
# when ../shared/corpus/quipper is there, each corpus file perf reads,
# every "# ..." line perf prints (blanks normalized) must be a line of
# --info.  Left out, with the reason:
#  - "# captured on": the file's modification time, as the local clock
#    shows it, not in the file;
#  - "# event : ...": perf's own attr dump (flags spelled out); --info
#    has its own event lines, checked against perf in run-info.sh;
#  - "# ========" and bare "#": frames;
#  - perf's bpf_prog_info lines ("# bpf_prog_info", "# \tsub_prog"): the
#    BPF programs loaded while recording, not decoded by perf2gperf
#    (they say nothing about the profile);
#  - "# clockid:" and "# reference time:" (clock_data): perf prints the
#    wall-clock time in the local time zone.
# Skips without perf.
. "${top_srcdir:-$(dirname "$0")/..}/tests/test-subr.sh"
need_cmd perf

norm() {
	grep '^# .' | sed 's/[ 	]*$//; s/[ 	][ 	]*/ /g' | sort -u
}

files=
for f in "$TESTDATA"/*.perf.data; do
	[ -e "$f.expected" ] && files="$files $f"
done
corpus=$top_srcdir/../shared/corpus/quipper
if [ -d "$corpus" ]; then
	for f in "$corpus"/perf.data.* "$corpus"/*.perf.data; do
		case $f in *.expected*) continue ;; esac
		[ -f "$f" ] && files="$files $f"
	done
fi

n=0
for f in $files; do
	name=$(basename "$f")
	perf report --header-only -I -i "$f" > perf.raw 2> /dev/null || continue
	norm < perf.raw |
		grep -v -e '^# captured on' -e '^# event : ' -e '^# ========' \
			-e '^# bpf_prog_info' -e '^# sub_prog' \
			-e '^# clockid:' -e '^# reference time:' > perf.lines
	[ -s perf.lines ] || continue
	# (a file whose data are damaged still has its header shown: exit
	# 1 with the header printed is fine here)
	rc=0
	"$PERF2GPERF" --info "$f" > out 2> err || rc=$?
	[ $rc -le 1 ] || { cat err >&2; fail "$name: --info exit status $rc"; }
	norm < out > ours.lines
	if ! comm -23 perf.lines ours.lines > missing || [ -s missing ]; then
		head -n 10 missing >&2
		fail "$name: $(wc -l < missing) lines of perf report -I missing from --info"
	fi
	n=$((n + 1))
done
[ $n -gt 0 ] || skip "perf read none of the files"
echo "$n files: every line of perf report --header-only -I is in --info"
exit 0
