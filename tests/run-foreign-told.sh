#!/bin/sh
# SPDX-License-Identifier: MIT
# What is missing is told without --stats, what is not is not:
#  - samples and events the kernel lost: a warning with their number
#    (testdata/regress/lost.perf.data, mkregress.pl: 1075 lost samples,
#    perf report's "Total Lost Samples: 1075", and 7 lost events);
#  - perf record -a's tracking event dummy:HG, which has no samples, is
#    no second sampling event to choose from (system-wide.perf.data.gz);
#  - DWARF stacks that stop because the stack copy ended are stacks
#    unwound in part, not whole (dwarfprog-shortcopy.perf.data.gz,
#    mknostack.pl: every fourth sample's copy cut to 64 bytes, 62 of
#    248), and the stack memory there is no file to look for;
#  - run as perf_to_profile, which pprof runs with no option to give,
#    no message points to perf2gperf's options.
# In the live tier, the same on ../shared/corpus/foreign (a perf 4.15
# file with one lost sample, a perf record -a file with dummy:HG).
. "${top_srcdir:-$(dirname "$0")/..}/tests/test-subr.sh"

lost=$(testfile regress/lost.perf.data)
check_exit 0 "$PERF2GPERF" "$lost" l.prof
check_grep "warning: 1075 samples lost: the kernel could not record them"
check_grep "warning: 7 events lost: perf's buffer was full"

sw=$(testfile system-wide.perf.data.gz)
check_exit 0 "$PERF2GPERF" "$sw" sw.prof
if grep -q "sampling events" err; then
	cat err >&2
	fail "dummy:HG, without samples, counted as a sampling event"
fi

prog=$(testfile dwarfprog.gz)
short=$(testfile dwarfprog-shortcopy.perf.data.gz)
need_cmd gzip
mkdir -p symfs/opt/p2g-fixture
gzip -dc < "$prog" > symfs/opt/p2g-fixture/dwarfprog ||
	hard_error "cannot unpack $prog"
check_exit 0 "$PERF2GPERF" --stats --no-fixup --symfs symfs "$short" s.prof
check_grep "62 of 248 user stacks unwound only in part (0 without a binary, 62 at the end of the stack copy)"
check_grep "dwarf copy ended early             62"
if grep -q "no usable file" err; then
	cat err >&2
	fail "the stack memory past the copy looked for as a file"
fi
# the whole copies: no stack stopped
check_exit 0 "$PERF2GPERF" --stats --no-fixup --symfs symfs \
	"$(testfile dwarfprog.perf.data.gz)" w.prof
check_grep "dwarf stopped early                 0"

# perf_to_profile: no option to point to
ptp=$top_builddir/src/perf_to_profile
[ -x "$ptp" ] || hard_error "no $ptp"
for f in "$sw" "$short" "$lost" "$(testfile multi-2ev.perf.data)"; do
	check_exit 0 "$ptp" -i "$f" -o ptp.pb.gz -f
	if grep -E -e '--[a-z]|-v says' err; then
		fail "perf_to_profile points to options it cannot take"
	fi
done
check_grep "2 sampling events; converting cpu-clock"

live_rest
corpus=$top_srcdir/../shared/corpus/foreign
[ -d "$corpus" ] || {
	echo "no foreign corpus: not tried on its files"
	exit 0
}
f=$corpus/EmbeddedErasmus_GameOfLife__bin_perf.data
if [ -f "$f" ]; then
	n=$(sed -n 's/^# Total Lost Samples: //p' "$f.report")
	check_exit 0 "$PERF2GPERF" -f folded "$f" e.folded
	check_grep "warning: $n sample lost"
fi
f=$corpus/CiZ01_ebpf-perf-analytics__perf.data
if [ -f "$f" ]; then
	check_exit 0 "$PERF2GPERF" -f folded "$f" c.folded
	if grep -q "sampling events" err; then
		fail "dummy:HG of $f counted as a sampling event"
	fi
fi
if have perf; then
	perf report --stdio -i "$lost" > report.out 2> /dev/null ||
		hard_error "perf report cannot read $lost"
	check_grep "# Total Lost Samples: 1075" report.out
fi
echo "lost samples told, dummy events and cut stacks counted as they are"
exit 0
