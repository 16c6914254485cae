#!/bin/bash
# SPDX-License-Identifier: MIT
#
# bench/run-bench.sh - how fast does perf2gperf convert big perf.data files,
# compared with perf report -g none, perf script and cat?
#
#   bench/run-bench.sh [STEP...]      (as root: it runs perf record)
#
# Steps (default: all = machine inputs analyze time profile table clean):
#   machine   record the machine, the tools and the perf2gperf binary
#   inputs    make the inputs in $BENCH_DIR (kept if already there):
#               a.data  frame-pointer callchains, several hundred processes,
#                       > 400 MB: a real recording of testdata/progs
#                       (a-base.data, ~60 MB) repeated by bench/synth.py
#                       with new pids and shifted times
#               b.data  --call-graph dwarf recording of testdata/progs,
#                       ~450 MB (8 KiB of user stack per sample)
#               c.data  bench/manystacks.c: nearly every sample a new
#                       stack, 25 frames on average, ~200 MB
#               d.data  (only if BENCH_CASES names it) a-base.data
#                       repeated to $BENCH_D_MB (default 2000 MB)
#             and 32 MB cuts of a, b and c (a-small, b-small, c-small)
#             for callgrind
#   analyze   count samples, processes, distinct stacks and their bytes
#             (bench/synth.py --analyze; cached in CASE.analysis)
#   time      time perf2gperf (best and median of $BENCH_REPS runs
#             of each of the gperftools, pprof and folded outputs),
#             perf report --stdio -g none, perf script and cat on each
#             input, with the input in the page cache
#   profile   valgrind --tool=callgrind of perf2gperf on the small cuts,
#             perf stat -e task-clock,... and a perf record of perf2gperf
#             on the big inputs
#   table     print the results table (also written to results.md)
#             and the ratios pprof/gperftools, folded/gperftools,
#             perf report/pprof and perf report/folded
#   clean     delete the files in $BENCH_DIR larger than 100 MB
#             (skipped when BENCH_KEEP=1)
#   turns     (not in all) time $PERF2GPERF against $PERF2GPERF_BASE on
#             each input, in turns (new, old, new, old, ...: $BENCH_REPS
#             runs each), so that both meet the same spells of the
#             machine; print per case the best and median of each, the
#             ratios new/old of the medians and of the bests, the peak
#             RSS of each, and whether their profiles are byte-identical
#             (also written to turns.txt; the runs to turns.tsv)
#
# Environment:
#   BENCH_DIR        scratch directory (default /tmp/perf2gperf-bench);
#                    must not be inside the source tree
#   PERF2GPERF       the binary to measure (default: src/perf2gperf of this
#                    tree); it is copied to $BENCH_DIR/bin first, so a
#                    rebuild during the run does not change what is timed
#   PERF2GPERF_BASE  the binary to compare with in the turns step (the
#                    build before a change); copied to $BENCH_DIR/bin too
#   BENCH_REPS       perf2gperf and cat runs per input, and runs of each
#                    binary in the turns step (default 3)
#   BENCH_PERF_REPS  perf report and perf script runs (default 1)
#   BENCH_LOAD_MAX   wait before each timing until the other processes on
#                    the machine use at most this many CPUs (default 0.5)
#   BENCH_LOAD_WAIT  give up waiting after this many seconds and time
#                    anyway, marking the row (default 300)
#   BENCH_A_ROUNDS   rounds of the test programs per loop for a-base
#                    (default 4; two loops run in parallel)
#   BENCH_A_MB       size of a.data in MB (default 420)
#   BENCH_B_ROUNDS   rounds per loop for b.data (default 5)
#   BENCH_C_SECONDS  CPU seconds per thread of manystacks (2 threads) for
#                    c.data (default 20)
#   BENCH_D_MB       size of d.data in MB (default 2000)
#   BENCH_CASES      which inputs to make, time and profile (default "a b c";
#                    "a b c d" adds the 2 GB file)
#   BENCH_KEEP       1: keep the big files at the end
#
# MB are 10^6 bytes, MiB 2^20 bytes.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
bench_src=$top/bench
BENCH_DIR=${BENCH_DIR:-/tmp/perf2gperf-bench}
PERF2GPERF=${PERF2GPERF:-$top/src/perf2gperf}
PERF2GPERF_BASE=${PERF2GPERF_BASE:-}
REPS=${BENCH_REPS:-3}
PERF_REPS=${BENCH_PERF_REPS:-1}
LOAD_MAX=${BENCH_LOAD_MAX:-0.5}
LOAD_WAIT=${BENCH_LOAD_WAIT:-300}
A_ROUNDS=${BENCH_A_ROUNDS:-4}
A_MB=${BENCH_A_MB:-420}
B_ROUNDS=${BENCH_B_ROUNDS:-5}
C_SECONDS=${BENCH_C_SECONDS:-20}
D_MB=${BENCH_D_MB:-2000}
CASES=${BENCH_CASES:-a b c}
KEEP=${BENCH_KEEP:-0}
PERF=${PERF:-perf}
PYTHON=${PYTHON:-python3}
TIME=/usr/bin/time
HZ=$(getconf CLK_TCK)

say() { printf '%s\n' "run-bench: $*" >&2; }
die() { say "$*"; exit 2; }

# ---- set-up --------------------------------------------------------------

check_dir() {
	# resolve without creating anything, then refuse the source tree
	BENCH_DIR=$(realpath -m "$BENCH_DIR")
	case "$BENCH_DIR/" in
	"$(realpath "$top")"/*)
		die "BENCH_DIR=$BENCH_DIR is inside the source tree; use a" \
		    "scratch directory" ;;
	esac
	mkdir -p "$BENCH_DIR/bin" "$BENCH_DIR/progs" "$BENCH_DIR/out" \
		"$BENCH_DIR/log"
	P2G=$BENCH_DIR/bin/perf2gperf
}

check_tools() {
	command -v "$PERF" >/dev/null || die "perf not found"
	command -v "$PYTHON" >/dev/null || die "python3 not found"
	[ -x "$TIME" ] || die "$TIME not found (apt-get install time)"
	[ -x "$PERF2GPERF" ] || die "$PERF2GPERF not found (run make first)"
}

# Copy the binary once per run, so that what is timed does not change if
# somebody rebuilds the tree meanwhile.
install_p2g() {
	cp "$PERF2GPERF" "$P2G.new"
	mv "$P2G.new" "$P2G"
}

step_machine() {
	{
		echo "date:        $(date -u '+%Y-%m-%d %H:%M UTC')"
		echo "nproc:       $(nproc)"
		echo "cpu:         $(sed -n 's/^model name[[:space:]]*: //p' \
			/proc/cpuinfo | sort | uniq -c | sed 's/^ *//')"
		echo "cpu flags:   $(grep -m1 '^flags' /proc/cpuinfo |
			grep -o 'hypervisor' || echo bare metal?)"
		echo "memory:      $(awk '/MemTotal/ {printf "%.1f GiB", \
			$2/1048576}' /proc/meminfo)"
		echo "kernel:      $(uname -r) $(uname -m)"
		echo "perf:        $($PERF --version)"
		echo "python:      $($PYTHON --version 2>&1)"
		echo "valgrind:    $(valgrind --version 2>/dev/null || echo none)"
		echo "gcc:         $(gcc --version | head -n1)"
		echo "perf2gperf:  $PERF2GPERF: $("$P2G" --version | head -n1)"
		echo "binary:      $(sha256sum "$P2G" | cut -c1-16)," \
			"$(wc -c < "$P2G") bytes"
		echo "build:       CFLAGS = $(sed -n 's/^CFLAGS = //p' \
			"$top/Makefile" 2>/dev/null)"
		echo "git:         $(git -C "$top" rev-parse --short HEAD \
			2>/dev/null || echo '?')$(git -C "$top" status \
			--porcelain -- src 2>/dev/null | grep -q . &&
			echo ' (src/ has uncommitted changes)')"
		echo "sample rate: perf_event_max_sample_rate =" \
			"$(cat /proc/sys/kernel/perf_event_max_sample_rate)"
		echo "loadavg:     $(cat /proc/loadavg)"
	} > "$BENCH_DIR/machine.txt"
	cat "$BENCH_DIR/machine.txt"
}

# ---- load ----------------------------------------------------------------

# Busy jiffies of all CPUs (user nice system irq softirq steal).
busy_jiffies() {
	awk '$1 == "cpu" { print $2 + $3 + $4 + $7 + $8 + $9; exit }' \
		/proc/stat
}

# CPUs the rest of the machine keeps busy, over 2 seconds in which this
# script only sleeps.
others_busy() {
	b0=$(busy_jiffies)
	sleep 2
	b1=$(busy_jiffies)
	awk -v d=$((b1 - b0)) -v hz="$HZ" 'BEGIN { printf "%.2f", d / hz / 2 }'
}

# Wait until the machine is quiet enough.  The 1-minute load average lags
# by a minute and counts this script's own previous timing, so the gate is
# the CPU use of everybody else over the last 2 seconds; the load average
# is logged with every result.
LOADED=0
GATE_BUSY=0
wait_quiet() {
	local waited=0 busy
	while :; do
		busy=$(others_busy)
		GATE_BUSY=$busy
		if awk -v b="$busy" -v m="$LOAD_MAX" 'BEGIN { exit !(b <= m) }'
		then
			return 0
		fi
		if [ "$waited" -ge "$LOAD_WAIT" ]; then
			say "machine still busy ($busy CPUs, loadavg" \
			    "$(cut -d' ' -f1-3 /proc/loadavg)) after" \
			    "${waited}s: timing anyway, marked 'loaded'"
			LOADED=1
			return 0
		fi
		if [ "$waited" -eq 0 ]; then
			say "waiting: others use $busy CPUs (loadavg" \
			    "$(cut -d' ' -f1-3 /proc/loadavg))"
		fi
		sleep 8
		waited=$((waited + 10))
	done
}

# ---- inputs --------------------------------------------------------------

# shellcheck disable=SC2086 # $cflags is a list of options
build_progs() {
	local cflags p
	cflags="-O0 -g -fno-omit-frame-pointer -fno-inline -no-pie"
	for p in hot recurse multi forkexec; do
		[ "$BENCH_DIR/progs/$p" -nt "$top/testdata/progs/$p.c" ] ||
			gcc $cflags -o "$BENCH_DIR/progs/$p" \
				"$top/testdata/progs/$p.c"
	done
	[ "$BENCH_DIR/progs/threads" -nt "$top/testdata/progs/threads.c" ] ||
		gcc $cflags -pthread -o "$BENCH_DIR/progs/threads" \
			"$top/testdata/progs/threads.c"
	[ "$BENCH_DIR/progs/manystacks" -nt "$bench_src/manystacks.c" ] ||
		gcc $cflags -pthread -o "$BENCH_DIR/progs/manystacks" \
			"$bench_src/manystacks.c"
}

# perf record ARGS... -- COMMAND, in progs/ (forkexec runs ./hot), output
# to $1.  Says how many events the kernel lost (should be 0).
record() {
	out=$1
	shift
	(cd "$BENCH_DIR/progs" &&
	 "$PERF" record -q -e cpu-clock -m 16M -o "$out.tmp" "$@" \
		>"$BENCH_DIR/log/$(basename "$out").record.log" 2>&1) ||
		die "perf record failed: see $BENCH_DIR/log/"
	mv "$out.tmp" "$out"
	lost=$("$P2G" --stats "$out" "$BENCH_DIR/out/record.prof" 2>&1 |
		awk '/events lost by kernel/ { print $NF }')
	say "recorded $out: $(wc -c < "$out") bytes, events lost: ${lost:-?}"
}

# Check that perf reads a synthesized file.
verify_perf_reads() {
	f=$1
	log=$BENCH_DIR/log/$(basename "$f").verify.log
	{
		"$PERF" report --stdio -i "$f" --header-only
		"$PERF" report -i "$f" --stdio -g none 2>&1 | head -n 30
	} > "$log" 2>&1 || die "perf cannot read $f: see $log"
	grep -q '^# Samples: ' "$log" || die "perf report of $f shows no" \
		"samples: see $log"
	say "perf reads $f: $(grep -m1 '^# Samples: ' "$log")"
}

make_a_base() {
	if [ ! -s "$BENCH_DIR/a-base.data" ]; then
		say "recording a-base.data (2 x $A_ROUNDS rounds of the test" \
		    "programs, -F 20000 -g)"
		record "$BENCH_DIR/a-base.data" -F 20000 -g -- sh -c "
			r() { ./multi; ./recurse; ./hot; ./threads; ./forkexec; }
			loop() { i=0; while [ \$i -lt $A_ROUNDS ]; do r
				i=\$((i + 1)); done; }
			loop & loop; wait"
	fi
}

make_a() {
	make_a_base
	[ -s "$BENCH_DIR/a.data" ] &&
		[ "$BENCH_DIR/a.data" -nt "$BENCH_DIR/a-base.data" ] && return 0
	"$PYTHON" "$bench_src/synth.py" --target-mb "$A_MB" \
		"$BENCH_DIR/a-base.data" "$BENCH_DIR/a.data"
	verify_perf_reads "$BENCH_DIR/a.data"
}

make_d() {
	make_a_base
	[ -s "$BENCH_DIR/d.data" ] &&
		[ "$BENCH_DIR/d.data" -nt "$BENCH_DIR/a-base.data" ] && return 0
	"$PYTHON" "$bench_src/synth.py" --target-mb "$D_MB" \
		"$BENCH_DIR/a-base.data" "$BENCH_DIR/d.data"
	verify_perf_reads "$BENCH_DIR/d.data"
}

make_b() {
	[ -s "$BENCH_DIR/b.data" ] && return 0
	say "recording b.data (2 x $B_ROUNDS rounds, -F 4000" \
	    "--call-graph dwarf)"
	record "$BENCH_DIR/b.data" -F 4000 --call-graph dwarf -- sh -c "
		r() { ./multi; ./recurse; ./hot; }
		loop() { i=0; while [ \$i -lt $B_ROUNDS ]; do r
			i=\$((i + 1)); done; }
		loop & loop; wait"
}

make_c() {
	[ -s "$BENCH_DIR/c.data" ] && return 0
	say "recording c.data (manystacks, ${C_SECONDS}s x 2 threads," \
	    "-F 20000 -g)"
	record "$BENCH_DIR/c.data" -F 20000 -g -- ./manystacks "$C_SECONDS" 2
}

make_small() {
	local c=$1 big
	big=$BENCH_DIR/$c.data
	[ "$c" = a ] && big=$BENCH_DIR/a-base.data
	[ -s "$BENCH_DIR/$c-small.data" ] &&
		[ "$BENCH_DIR/$c-small.data" -nt "$big" ] && return 0
	"$PYTHON" "$bench_src/synth.py" --copies 1 --limit-mb 32 \
		"$big" "$BENCH_DIR/$c-small.data"
	verify_perf_reads "$BENCH_DIR/$c-small.data"
}

step_inputs() {
	local c
	build_progs
	for c in $CASES; do
		case $c in
		a|b|c)	"make_$c"
			make_small "$c" ;;
		d)	make_d ;;
		*)	die "unknown case $c (a b c d)" ;;
		esac
	done
}

# ---- analysis -------------------------------------------------------------

analysis() {	# FILE KEY
	local a=$1.analysis
	if [ ! -s "$a" ] || [ "$1" -nt "$a" ]; then
		"$PYTHON" "$bench_src/synth.py" --analyze "$1" > "$a.tmp"
		mv "$a.tmp" "$a"
	fi
	sed -n "s/^$2=//p" "$a"
}

step_analyze() {
	local c f
	for c in $CASES; do
		for f in "$BENCH_DIR/$c.data" "$BENCH_DIR/$c-small.data"; do
			[ -s "$f" ] || continue
			analysis "$f" samples > /dev/null
			say "$(basename "$f"): $(tr '\n' ' ' < "$f.analysis")"
		done
	done
}

# ---- timing --------------------------------------------------------------

# The file timed() appends to; the turns step keeps its runs apart.
RUNS=runs.tsv

# timed LABEL CASE FILE COMMAND...: run COMMAND (stdout to /dev/null),
# append "case tool bytes wall maxrss_kb user sys others_cpus loadavg
# loaded" to $BENCH_DIR/$RUNS.  others_cpus: the CPUs that other
# processes used during the run (all busy time minus the command's user
# and system time), or in the 2 seconds before it for runs under a second
# (jiffies are too coarse for shorter runs).
timed() {
	local label=$1 case=$2 file=$3 la b0 b1 t0 t1 rss u s wall others
	shift 3
	wait_quiet
	la=$(cut -d' ' -f1 /proc/loadavg)
	b0=$(busy_jiffies)
	t0=$(date +%s%N)
	if ! "$TIME" -f '%e %M %U %S' -o "$BENCH_DIR/log/time.out" \
		"$@" > /dev/null 2>> "$BENCH_DIR/log/$case.$label.stderr"
	then
		say "$label on $case failed: see $BENCH_DIR/log/$case.$label.stderr"
		tail -n 3 "$BENCH_DIR/log/time.out" >&2
		return 0
	fi
	t1=$(date +%s%N)
	b1=$(busy_jiffies)
	# time -o may hold a "Command exited..." line first; take the last
	# shellcheck disable=SC2046 # split into fields on purpose
	set -- $(tail -n1 "$BENCH_DIR/log/time.out")
	rss=$2 u=$3 s=$4
	wall=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.4f", (b - a) / 1e9 }')
	others=$(awk -v d=$((b1 - b0)) -v hz="$HZ" -v u="$u" -v s="$s" \
		-v w="$wall" -v g="$GATE_BUSY" 'BEGIN {
			if (w < 1) { printf "%.2f", g; exit }
			o = (d / hz - u - s) / w
			if (o < 0) o = 0; printf "%.2f", o }')
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$case" "$label" \
		"$(wc -c < "$file")" "$wall" "$rss" "$u" "$s" "$others" "$la" \
		"$LOADED" >> "$BENCH_DIR/$RUNS"
	say "$case $label: ${wall}s, ${rss} KiB, user ${u}s sys ${s}s" \
	    "(others $others CPUs, loadavg $la)"
	LOADED=0
}

warm() { cat "$1" > /dev/null; }

time_case() {
	local c=$1 f out i
	f=$BENCH_DIR/$c.data
	[ -s "$f" ] || { say "no $f: run the inputs step"; return 0; }
	out=$BENCH_DIR/out/$c.prof
	# one untimed run: warms the cache and gets the counts
	warm "$f"
	"$P2G" --stats "$f" "$out" 2> "$BENCH_DIR/log/$c.stats" ||
		die "perf2gperf failed on $f: see $BENCH_DIR/log/$c.stats"
	i=0
	while [ $i -lt "$REPS" ]; do
		warm "$f"
		timed cat "$c" "$f" cat "$f"
		i=$((i + 1))
	done
	i=0
	while [ $i -lt "$REPS" ]; do
		warm "$f"
		timed perf2gperf "$c" "$f" "$P2G" -q "$f" "$out"
		warm "$f"
		timed pprof "$c" "$f" "$P2G" -q --format=pprof "$f" \
			"$out.pb.gz"
		warm "$f"
		timed folded "$c" "$f" "$P2G" -q --format=folded "$f" \
			"$out.folded"
		i=$((i + 1))
	done
	i=0
	while [ $i -lt "$PERF_REPS" ]; do
		warm "$f"
		timed perf-report "$c" "$f" "$PERF" report -i "$f" --stdio \
			-g none
		warm "$f"
		timed perf-script "$c" "$f" timeout 1800 "$PERF" script -i "$f"
		i=$((i + 1))
	done
}

step_time() {
	: > "$BENCH_DIR/runs.tsv"
	for c in $CASES; do
		time_case "$c"
	done
}

# ---- two builds in turns ----------------------------------------------------

# A change is judged against the build before it: on this shared machine
# the speed drifts by tens of percent over minutes, so the two binaries
# are run alternately on the same warm input and compared by their
# medians, within one run of this step.
turns_case() {
	local c=$1 f i new old
	f=$BENCH_DIR/$c.data
	[ -s "$f" ] || { say "no $f: run the inputs step"; return 0; }
	new=$BENCH_DIR/out/$c.turns-new.prof
	old=$BENCH_DIR/out/$c.turns-base.prof
	i=0
	while [ $i -lt "$REPS" ]; do
		rm -f "$new" "$old"
		warm "$f"
		timed new "$c" "$f" "$P2G" -q "$f" "$new"
		warm "$f"
		timed base "$c" "$f" "$P2G_BASE" -q "$f" "$old"
		i=$((i + 1))
	done
	if [ -s "$new" ] && [ -s "$old" ] && cmp -s "$new" "$old"; then
		printf '%s\tidentical\n' "$c" >> "$BENCH_DIR/turns.cmp"
	else
		say "$c: the two profiles differ (or a run failed):" \
		    "$new $old"
		printf '%s\tDIFFER\n' "$c" >> "$BENCH_DIR/turns.cmp"
	fi
}

step_turns() {
	local c
	[ -n "$PERF2GPERF_BASE" ] ||
		die "the turns step needs PERF2GPERF_BASE, the binary to" \
		    "compare with"
	[ -x "$PERF2GPERF_BASE" ] || die "$PERF2GPERF_BASE not found"
	P2G_BASE=$BENCH_DIR/bin/perf2gperf-base
	cp "$PERF2GPERF_BASE" "$P2G_BASE.new"
	mv "$P2G_BASE.new" "$P2G_BASE"
	RUNS=turns.tsv
	: > "$BENCH_DIR/$RUNS"
	: > "$BENCH_DIR/turns.cmp"
	for c in $CASES; do
		turns_case "$c"
	done
	RUNS=runs.tsv
	{
		echo "turns: $BENCH_DIR/bin/perf2gperf" \
			"($(sha256sum "$P2G" | cut -c1-16), from $PERF2GPERF)"
		echo "  against $P2G_BASE" \
			"($(sha256sum "$P2G_BASE" | cut -c1-16), from" \
			"$PERF2GPERF_BASE), $REPS runs each, loadavg" \
			"$(cut -d' ' -f1-3 /proc/loadavg) at the end"
		echo
		awk -F '\t' '
		function median(a, n,    i, j, t) {
			for (i = 1; i <= n; i++)
				for (j = i + 1; j <= n; j++)
					if (a[j] < a[i]) {
						t = a[i]; a[i] = a[j]; a[j] = t
					}
			return n % 2 ? a[(n + 1) / 2] \
				: (a[n / 2] + a[n / 2 + 1]) / 2
		}
		FILENAME ~ /turns.cmp$/ { same[$1] = $2; next }
		{
			k = $1 SUBSEP $2
			if (!($1 in seen)) { seen[$1] = 1; order[++nc] = $1 }
			n[k]++; w[k, n[k]] = $4
			if (!(k in best) || $4 < best[k]) best[k] = $4
			if ($5 > rss[k]) rss[k] = $5
			if ($8 > others[$1]) others[$1] = $8
			if ($10 == 1) loaded[$1] = 1
		}
		END {
			printf "| %-4s | %-4s | %8s | %8s | %8s | %8s | %8s | %8s | %8s | %8s | %6s | %-9s |\n",
				"case", "runs", "new best", "old best",
				"new med", "old med", "best n/o", "med n/o",
				"new MiB", "old MiB", "others", "profiles"
			print "|------|------|----------|----------|----------|----------|----------|----------|----------|----------|--------|-----------|"
			for (i = 1; i <= nc; i++) {
				c = order[i]; kn = c SUBSEP "new"
				ko = c SUBSEP "base"
				if (!(kn in best) || !(ko in best)) continue
				for (j = 1; j <= n[kn]; j++) v[j] = w[kn, j]
				mn = median(v, n[kn])
				for (j = 1; j <= n[ko]; j++) v[j] = w[ko, j]
				mo = median(v, n[ko])
				printf "| %-4s | %4d | %8.3f | %8.3f | %8.3f | %8.3f | %8.3f | %8.3f | %8.1f | %8.1f | %6.2f | %-9s |%s\n",
					c, n[kn], best[kn], best[ko], mn, mo,
					best[kn] / best[ko], mn / mo,
					rss[kn] / 1024, rss[ko] / 1024,
					others[c], same[c],
					loaded[c] ? " loaded" : ""
			}
		}' "$BENCH_DIR/turns.cmp" "$BENCH_DIR/turns.tsv"
	} | tee "$BENCH_DIR/turns.txt"
}

# ---- where the time goes ---------------------------------------------------

profile_case() {
	local c=$1 small big cg ir bytes samples
	small=$BENCH_DIR/$c-small.data
	big=$BENCH_DIR/$c.data
	if [ -s "$small" ] && command -v valgrind > /dev/null; then
		cg=$BENCH_DIR/log/callgrind.$c.out
		valgrind --tool=callgrind --callgrind-out-file="$cg" \
			"$P2G" -q "$small" "$BENCH_DIR/out/$c-small.prof" \
			2> "$BENCH_DIR/log/callgrind.$c.log"
		callgrind_annotate --threshold=99 "$cg" \
			> "$BENCH_DIR/log/callgrind.$c.self.txt" 2>&1
		callgrind_annotate --inclusive=yes --threshold=99 "$cg" \
			> "$BENCH_DIR/log/callgrind.$c.incl.txt" 2>&1
		ir=$(sed -n 's/^summary: //p' "$cg" | cut -d' ' -f1)
		bytes=$(wc -c < "$small")
		samples=$(analysis "$small" samples)
		awk -v ir="$ir" -v b="$bytes" -v s="$samples" -v c="$c" \
			'BEGIN { printf "%s-small\t%d\t%d\t%d\t%.1f\t%.0f\n",
				c, b, s, ir, ir / b, ir / s }' \
			>> "$BENCH_DIR/callgrind.tsv"
		say "callgrind $c-small: $ir Ir for $bytes bytes, $samples" \
		    "samples"
	fi
	if [ -s "$big" ]; then
		warm "$big"
		wait_quiet
		"$PERF" stat -r "$REPS" -e task-clock,page-faults \
			-e context-switches,cpu-migrations -- \
			"$P2G" -q "$big" "$BENCH_DIR/out/$c.prof" \
			> /dev/null 2> "$BENCH_DIR/log/perfstat.$c.txt"
		wait_quiet
		"$PERF" record -q -e cpu-clock -F 10000 -g \
			-o "$BENCH_DIR/log/self.$c.perf.data" -- \
			"$P2G" -q "$big" "$BENCH_DIR/out/$c.prof" 2>/dev/null
		"$PERF" report -i "$BENCH_DIR/log/self.$c.perf.data" --stdio \
			--no-children -g none --percent-limit 1 \
			--sort dso,symbol 2>/dev/null |
			grep -v '^#' | grep -v '^$' > "$BENCH_DIR/log/self.$c.txt"
		rm -f "$BENCH_DIR/log/self.$c.perf.data"
	fi
}

step_profile() {
	: > "$BENCH_DIR/callgrind.tsv"
	# The table names the binary these counts are of: a run without
	# this step prints the counts of an earlier one.
	sha256sum "$P2G" | cut -c1-16 > "$BENCH_DIR/callgrind.binary"
	for c in $CASES; do
		profile_case "$c"
	done
}

# ---- the table -------------------------------------------------------------

step_table() {
	[ -s "$BENCH_DIR/runs.tsv" ] || die "no runs.tsv: run the time step"
	: > "$BENCH_DIR/cases.tsv"
	for c in $(cut -f1 "$BENCH_DIR/runs.tsv" | uniq); do
		f=$BENCH_DIR/$c.data
		[ -s "$f" ] || [ -s "$f.analysis" ] || continue
		printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$c" \
			"$(analysis "$f" samples)" \
			"$(analysis "$f" distinct_stacks)" \
			"$(analysis "$f" stack_bytes)" \
			"$(analysis "$f" processes)" \
			"$(awk '$1 == "samples" && NF == 2 { print $2 }' \
				"$BENCH_DIR/log/$c.stats")" \
			>> "$BENCH_DIR/cases.tsv"
	done
	awk -F '\t' -v md="$BENCH_DIR/results.md" '
	function median(a, n,    i, j, t) {
		for (i = 1; i <= n; i++)
			for (j = i + 1; j <= n; j++)
				if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
		return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
	}
	FILENAME ~ /cases.tsv$/ {
		samples[$1] = $6 != "" ? $6 : $2; stacks[$1] = $3
		sbytes[$1] = $4; procs[$1] = $5; corder[++nc] = $1; next
	}
	{
		k = $1 SUBSEP $2
		if (!(k in n)) { order[++nk] = k }
		n[k]++; w[k, n[k]] = $4; bytes[$1] = $3
		if (!(k in best) || $4 < best[k]) { best[k] = $4; rss[k] = $5 }
		if ($5 > maxrss[k]) maxrss[k] = $5
		if ($8 > others[k]) others[k] = $8
		if ($10 == 1) loaded[k] = 1
	}
	END {
		hdr = sprintf("| %-4s | %7s | %9s | %-11s | %8s | %8s | %8s | %12s | %8s | %7s | %6s |",
			"case", "MB", "samples", "tool", "best s", "median s",
			"MB/s", "samples/s", "RSS MiB", "x p2g", "others")
		print hdr; print hdr > md
		sep = "|------|---------|-----------|-------------|----------|----------|----------|--------------|----------|---------|--------|"
		print sep; print sep > md
		for (i = 1; i <= nk; i++) {
			split(order[i], kk, SUBSEP); c = kk[1]; t = kk[2]
			p = c SUBSEP "perf2gperf"
			for (j = 1; j <= n[order[i]]; j++) v[j] = w[order[i], j]
			med = median(v, n[order[i]])
			medk[order[i]] = med
			b = best[order[i]]
			line = sprintf("| %-4s | %7.1f | %9d | %-11s | %8.3f | %8.3f | %8.0f | %12s | %8.1f | %7s | %6.2f |%s",
				c, bytes[c] / 1e6, samples[c], t, b, med,
				bytes[c] / 1e6 / b,
				t == "cat" ? "-" : sprintf("%.0f", samples[c] / b),
				maxrss[order[i]] / 1024,
				(p in best) ? sprintf("%.2f", b / best[p]) : "-",
				others[order[i]],
				loaded[order[i]] ? " loaded" : "")
			print line; print line > md
		}
		print "" > md
		s = sprintf("| %-4s | %9s | %10s | %14s | %9s | %14s | %13s | %6s |",
			"case", "processes", "stacks", "stack MiB",
			"p2g RSS", "target RSS", "RSS - stacks", "met")
		print ""; print s; print s > md
		s = "|------|-----------|------------|----------------|-----------|----------------|---------------|--------|"
		print s; print s > md
		for (i = 1; i <= nc; i++) {
			c = corder[i]
			p = c SUBSEP "perf2gperf"
			if (!(p in best)) continue
			r = maxrss[p] / 1024; sm = sbytes[c] / 1048576
			s = sprintf("| %-4s | %9d | %10d | %14.1f | %9.1f | %14.1f | %13.1f | %6s |",
				c, procs[c], stacks[c], sm, r, 64 + sm,
				r - sm, r <= 64 + sm ? "yes" : "no")
			print s; print s > md
		}
		# the named outputs against the gperftools output and against
		# perf report: ratios of the medians (of the bests in
		# brackets); the targets are at most 2 and at least 10
		s = sprintf("| %-4s | %-24s | %8s | %8s | %6s | %6s |",
			"case", "ratio of times", "medians", "bests",
			"target", "met")
		print ""; print s; print "" > md; print s > md
		s = "|------|--------------------------|----------|----------|--------|--------|"
		print s; print s > md
		for (i = 1; i <= nc; i++) {
			c = corder[i]
			ratio(c, "pprof", "perf2gperf", "<= 2")
			ratio(c, "folded", "perf2gperf", "<= 2")
			ratio(c, "perf-report", "pprof", ">= 10")
			ratio(c, "perf-report", "folded", ">= 10")
		}
	}
	function ratio(c, a, b, target,    ka, kb, rm, rb, ok, s) {
		ka = c SUBSEP a; kb = c SUBSEP b
		if (!(ka in medk) || !(kb in medk)) return
		rm = medk[ka] / medk[kb]; rb = best[ka] / best[kb]
		split(target, tt, " ")
		ok = tt[1] == "<=" ? rm <= tt[2] : rm >= tt[2]
		s = sprintf("| %-4s | %-24s | %8.2f | %8.2f | %6s | %6s |",
			c, a " / " (b == "perf2gperf" ? "gperftools" : b),
			rm, rb, target, ok ? "yes" : "NO")
		print s; print s > md
	}' "$BENCH_DIR/cases.tsv" "$BENCH_DIR/runs.tsv"
	if [ -s "$BENCH_DIR/callgrind.tsv" ]; then
		echo
		echo "callgrind, one run on each cut, of binary" \
			"$(cat "$BENCH_DIR/callgrind.binary" 2>/dev/null ||
			   echo '(not recorded)')$(
			   [ "$(cat "$BENCH_DIR/callgrind.binary" 2>/dev/null)" = \
			     "$(sha256sum "$P2G" | cut -c1-16)" ] ||
			   echo ', not the one timed above')"
		printf '%-8s %10s %8s %14s %8s %10s\n' input bytes samples Ir \
			Ir/byte Ir/sample
		awk -F '\t' '{ printf "%-8s %10d %8d %14d %8.1f %10.0f\n",
			$1, $2, $3, $4, $5, $6 }' "$BENCH_DIR/callgrind.tsv"
	fi
}

step_clean() {
	if [ "$KEEP" = 1 ]; then
		say "BENCH_KEEP=1: keeping the big files"
		return 0
	fi
	find "$BENCH_DIR" -type f -size +100M -print -delete |
		sed 's/^/run-bench: deleted /' >&2
}

# ---- main -------------------------------------------------------------------

check_tools
check_dir
install_p2g
[ $# -gt 0 ] || set -- all
for step in "$@"; do
	case $step in
	all)
		step_machine
		step_inputs
		step_analyze
		step_time
		step_profile
		step_table
		step_clean ;;
	machine|inputs|analyze|time|profile|table|clean|turns)
		"step_$step" ;;
	*)
		die "unknown step $step (machine inputs analyze time profile" \
		    "table clean turns all)" ;;
	esac
done
