#!/bin/sh
# SPDX-License-Identifier: MIT
# Names and shares on fresh recordings (-g, 499 samples a second), as
# perf shows them, for what the other tests of the outputs with names
# (run-folded.sh, run-pprof-names.sh) do not record:
#  - programs built without frame pointers: python3 running a loop and
#    gzip compressing text, whose stacks hold frames perf names
#    [unknown];
#  - a syscall-heavy loop (dd of small blocks), with kernel frames;
#  - several processes: a shell running gzip and wc over and over, then
#    exec'ing gzip: its samples from before are named sh, as perf names
#    them (the name at the time);
#  - a binary moved away after recording (testdata/progs/multi.c), named
#    from perf's build-ID cache (HOME is the test directory: perf record
#    put the binary there).
# For each, --format=folded prints what perf's stackcollapse.py prints,
# byte for byte.  For python3 and the shell, the --format=pprof profile
# read by go tool pprof -raw gives each binary and each function the
# flat and cumulative shares that perf report --children --sort dso and
# --sort sym give it (tests/shares.sh), to within 0.5 points (a return
# address at the very start of a mapping counts differently: perf looks
# it up as it is, pprof less 1).  perf and perf2gperf read the same
# frame-pointer callchains, so the stacks are as deep on both sides.
# Skips without perf (allowed to record, with python scripting), gcc,
# go, python3 or gzip.
. "${top_srcdir:-$(dirname "$0")/..}/tests/test-subr.sh"
. "$top_srcdir/tests/names.sh"
. "$top_srcdir/tests/stacks.sh"
. "$top_srcdir/tests/shares.sh"

need_cmd go python3 gzip dd wc
go_env
names_setup
go tool pprof -h > /dev/null 2>&1 || skip "go tool pprof does not run"

# The interpreter itself, not a wrapper script that would exec it.
py=$(python3 -c 'import sys; print(sys.executable)')
[ -x "$py" ] || skip "python3 does not name its executable"
loops=1500000
lines=600000
# under valgrind, less
if [ -n "${P2G_WRAPPER:-}" ]; then
	loops=300000
	lines=200000
fi
seq 1 $lines > text

# record NAME CMD...: perf record CMD into NAME.data, leaving the
# build-ID cache alone
record() {
	_r_n=$1
	shift
	perf record -q -e cpu-clock -F 499 -g -N -o $_r_n.data \
		-- "$@" > $_r_n.rec.log 2>&1 || {
		cat $_r_n.rec.log >&2
		hard_error "perf record of $_r_n failed"
	}
}

# folded NAME: perf2gperf's folded stacks of NAME.data are perf's
folded() {
	names_oracle $1.data > $1.exp
	[ -s $1.exp ] || hard_error "perf printed no stacks for $1"
	check_exit 0 "$PERF2GPERF" --folded-style=perf -q $1.data $1.folded
	compare_text $1.exp $1.folded "perf2gperf $1.data $1.folded"
	echo "$1: $(wc -l < $1.exp) lines as stackcollapse.py prints them"
}

# shares NAME: per binary and per function, perf report's shares are
# pprof's
shares() {
	check_exit 0 "$PERF2GPERF" --folded-style=perf -q $1.data $1.pb.gz
	go tool pprof -raw $1.pb.gz > $1.raw 2> $1.err || {
		cat $1.err >&2
		fail "go tool pprof cannot read $1.pb.gz"
	}
	for _s_k in dso sym; do
		shares_perf $1.data $_s_k > $1.$_s_k.perf
		[ -s $1.$_s_k.perf ] || fail "perf report gives no shares for $1"
		if [ $_s_k = dso ]; then
			shares_go_raw $1.raw
		else
			shares_go_raw_sym $1.raw
		fi > $1.$_s_k.go
		# names perf shows twice (a function in two binaries) are
		# one in pprof's sums: left out
		cut -f1 $1.$_s_k.perf | uniq -d > $1.$_s_k.twice
		for _s_s in perf go; do
			awk -F "$TAB" 'NR == FNR { twice[$0] = 1; next }
				!($1 in twice) && $1 != "[unknown]"' \
				$1.$_s_k.twice $1.$_s_k.$_s_s > $1.$_s_k.$_s_s.cmp
		done
		# a name only one side has counts as 0 there
		LC_ALL=C join -t "$TAB" -a 1 -a 2 -e 0 -o 0,1.2,1.3,2.2,2.3 \
			$1.$_s_k.perf.cmp $1.$_s_k.go.cmp > $1.$_s_k.both
		awk -F "$TAB" -v n="$1 $_s_k" '
			function d(a, b) { return a > b ? a - b : b - a }
			d($2, $4) > 0.5 || d($3, $5) > 0.5 {
				printf "%s: %s perf %s/%s pprof %s/%s\n", n,
					$1, $2, $3, $4, $5
				bad++
			}
			END { if (bad) exit 1 }' $1.$_s_k.both ||
			fail "$1: shares by $_s_k differ between perf report and pprof"
		echo "$1: $(wc -l < $1.$_s_k.both) shares by $_s_k as perf's"
	done
}

record python3 "$py" -c "
x = 0
for i in range($loops):
    x += i * i % 7
"
folded python3
shares python3

record gzip gzip -9 -c text
folded gzip

record procs sh -c 'i=0
while [ $i -lt 60000 ]; do i=$((i + 1)); done
for i in 1 2 3 4; do gzip -1 -c text | wc -l; done
exec gzip -1 -c text > /dev/null'
folded procs
grep -q '^sh;' procs.exp || hard_error "perf shows no samples of sh"
shares procs

record dd dd if=/dev/zero of=/dev/null bs=16 count=$lines
folded dd
names_oracle dd.data --kernel > dd.k
grep -q '_\[k\]' dd.k || echo "note: perf recorded no kernel frames"

# the binary moved away: named from ~/.debug
names_record multi
mkdir -p gone
mv multi gone/
folded multi
grep -q ';burn_' multi.exp ||
	hard_error "perf does not name the moved binary's functions"
exit 0
