#!/bin/sh
# SPDX-License-Identifier: MIT
# --off-cpu: the time each thread waits off the CPU, on the stack it left
# with.  Offline, on testdata/offcpu.perf.data (testdata/progs/offcpu.c
# recorded with -g -e cpu-clock -e sched:sched_switch --switch-events):
#  - --info says the file can give off-CPU time;
#  - the folded stacks equal those tests/offcpu-oracle.py computes from
#    perf script's text (committed as offcpu.perf.data.offcpu), names
#    hidden by an empty --symfs and --kallsyms=/dev/null as there;
#  - the gperftools profile counts the same microseconds, with a 1 us
#    period; --off-cpu=blocked leaves out the preempted time, as the
#    oracle does (offcpu.perf.data.offcpu-blocked);
#  - without event_desc (offcpu-nodesc.perf.data), the same, the
#    tracepoint named by the tracing data;
#  - a recording without switch records fails, naming --switch-events;
#  - damaged copies of the recording fail cleanly or convert.
# Live (make check-live): recorded here, per task and system-wide, the
# totals per stack within 2% of the oracle's, each known wait of the
# program (20 x 10 ms, 10 x 30 ms, 100 ms in read() and in the thread
# that writes then) at least 95% there and less than 150%,
# the pprof profile (off-CPU nanoseconds, and the cpu-clock samples'
# periods) read by Go pprof with -sample_index, and
# perf2gperf record --off-cpu.
. "${top_srcdir:-$(dirname "$0")/..}/tests/test-subr.sh"

data=$(testfile offcpu.perf.data)
mkdir empty
HOME=$test_dir/empty
export HOME
P2G="$PERF2GPERF -q --symfs=empty --kallsyms=/dev/null --folded-style=perf"

check_exit 0 $P2G --info "$data"
check_grep "name = sched:sched_switch, type = 2" out
check_grep "off-CPU time: yes (" out

check_exit 0 $P2G --off-cpu -f folded "$data" offcpu.folded
compare_text "$data.offcpu" offcpu.folded "perf2gperf --off-cpu"

# gperftools: a 1 us period, counts in us (per stack, each rounded)
check_exit 0 $P2G --off-cpu "$data" offcpu.prof
"$GPERFCHECK" --dump offcpu.prof > dump 2>/dev/null ||
	fail "gperfcheck rejects offcpu.prof"
grep -q '^header 0 3 0 1 0$' dump || fail "the period is not 1 us"
us=$(awk '$1 ~ /^[0-9]+$/ && NF > 1 { s += $1 } END { print s }' dump)
want=$(awk '{ s += $NF } END { print s }' "$data.offcpu")
[ $((us - want)) -le 10 ] && [ $((want - us)) -le 10 ] ||
	fail "gperftools counts $us us, the oracle $want"

# blocked: the preempted time left out (one switch-out in state R,
# prev_state read from the raw data with the format's offset and size)
check_exit 0 $P2G --off-cpu=blocked -f folded "$data" blocked.folded
compare_text "$data.offcpu-blocked" blocked.folded "--off-cpu=blocked"
cmp -s blocked.folded offcpu.folded && fail "nothing was preempted"
# --stats: each of the 33 sched_switch samples a switch-out counted, but
# the preempted one, none waiting at the end or dropped
check_exit 0 $P2G -s --off-cpu=blocked "$data" x.prof
for l in "off-CPU switch-outs *32$" "waiting at the end *0$" \
	 "switch-ins lost *0$" "preempted left out *1$"; do
	grep -q "$l" err || fail "--stats has no line '$l'"
done

# without event_desc (testdata/mknodesc.py), the tracing data name the
# tracepoint, and give the same off-CPU time
nodesc=$(testfile offcpu-nodesc.perf.data)
check_exit 0 $P2G --info "$nodesc"
check_grep "sched:sched_switch" out
grep -q "tracepoint-" out && fail "a tracepoint has no name"
check_exit 0 $P2G --off-cpu -f folded "$nodesc" nodesc.folded
compare_text "$data.offcpu" nodesc.folded "perf2gperf --off-cpu (no event_desc)"

# usage: blocked or all, and no other event
check_exit 2 $P2G --off-cpu=some "$data" x.prof
check_exit 2 $P2G --off-cpu -e cpu-clock "$data" x.prof

# no switch records: --off-cpu says what perf record needs
check_exit 1 $P2G --off-cpu "$(testfile multi.perf.data)" x.prof
check_grep "record it with perf record -e sched:sched_switch --switch-events"
# ... in pipe mode too, once the events have come with the data
check_exit 1 $P2G --off-cpu "$(testfile multi-pipe.perf.data)" x.prof
check_grep "record it with perf record -e sched:sched_switch --switch-events"
foreign=$top_srcdir/../shared/corpus/foreign/akneni_flg__test_perf_offcpu.data
if [ -f "$foreign" ]; then
	check_exit 1 $P2G --off-cpu "$foreign" x.prof
	check_grep "record it with perf record --switch-events"
	check_exit 0 $P2G --info "$foreign"
	check_grep "off-CPU time: no (perf record --switch-events is missing)" out
fi

# damaged copies (tests/mutate, as run-mutate.sh): exit 0 or 1, a
# failure naming its offset or the whole file, no output left behind
seed=${P2G_MUTATE_SEED:-20261128}
runs=${P2G_MUTATE_RUNS:-100}
i=0
while [ $i -lt "$runs" ]; do
	"$top_builddir/tests/mutate" "$seed" $i "$nodesc" in.data
	rc=0
	timeout 20 $P2G --off-cpu in.data m.prof 2> err || rc=$?
	case $rc in
	0) "$GPERFCHECK" -q m.prof || fail "mutant #$i (seed $seed): bad profile" ;;
	1) grep -q ': offset 0x[0-9a-f]*: ' err ||
		grep -Eq 'no samples|no off-CPU time|pass the filters' err ||
		fail "mutant #$i (seed $seed): $(head -n 1 err)"
	   [ -e m.prof ] && fail "mutant #$i (seed $seed): m.prof left" ;;
	*) fail "mutant #$i (seed $seed): exit $rc: $(head -n 1 err)" ;;
	esac
	rm -f m.prof
	i=$((i + 1))
done

live_rest
need_cmd perf go python3 gcc

oracle="python3 $top_srcdir/tests/offcpu-oracle.py"
script() {
	perf script -i "$1" --ns --show-switch-events --show-task-events \
		-F comm,pid,tid,time,event,trace,ip,sym 2>/dev/null
}
${CC:-gcc} -O0 -g -fno-omit-frame-pointer -fno-inline -no-pie -pthread \
	-o offcpu "$top_srcdir/testdata/progs/offcpu.c" ||
	skip "cannot build offcpu.c"

# within FILE_A FILE_B PCT: "stack NS ..." lines of A and B agree within
# PCT percent, stack by stack, and B has no stack A lacks.
within() {
	python3 - "$1" "$2" "$3" <<'EOP' || fail "$1 and $2 differ"
import sys
def read(p):
    d = {}
    for l in open(p):
        k, v = l.rsplit(" ", 1)
        d[k] = d.get(k, 0) + int(v)
    return d
a, b, pct = read(sys.argv[1]), read(sys.argv[2]), float(sys.argv[3])
bad = 0
for k in set(a) | set(b):
    x, y = a.get(k, 0), b.get(k, 0)
    if abs(x - y) > max(x, y) * pct / 100 and abs(x - y) > 2:
        print("%s: %d vs %d" % (k, x, y), file=sys.stderr)
        bad = 1
sys.exit(bad)
EOP
}

# known WANT_MS FUNC FOLDED: the time on the stacks through FUNC is at
# least 95% of WANT_MS; more is the scheduler's delay (within 5% on an
# idle machine, up to a fifth more on a busy one), but not half as much
# again, which would be a wait counted twice
known() {
	got=$(awk -v f=";$2;" 'index($0 ";", f) { s += $NF }
		END { print int(s / 1000) }' "$3")
	[ "$got" -ge $(($1 * 95 / 100)) ] && [ "$got" -lt $(($1 * 3 / 2)) ] ||
		fail "$2 waited $got ms in $3, not about $1 ms"
	echo "$2: $got ms off the CPU for $1 ms of known waits"
}

for mode in task wide; do
	opt=
	[ $mode = wide ] && opt=-a
	perf record -q $opt -g -e cpu-clock -e sched:sched_switch \
		--switch-events -o $mode.data -- ./offcpu 2> rec.err ||
		skip "perf record fails: $(head -n 1 rec.err)"
	script $mode.data | $oracle > $mode.exp
	check_exit 0 $PERF2GPERF -q --off-cpu -f folded $mode.data $mode.folded
	if [ $mode = task ]; then
		compare_text $mode.exp $mode.folded "perf2gperf --off-cpu ($mode)"
	else
		# the program's own stacks (perf names the command of a
		# sample of an exited thread, tid -1, ":-1")
		grep '^offcpu;' $mode.exp > $mode.exp.own || true
		grep '^offcpu;' $mode.folded > $mode.folded.own || true
		within $mode.exp.own $mode.folded.own 2
	fi
	grep '^offcpu;' $mode.folded > $mode.own
	known 200 short_sleeps $mode.own
	known 300 long_sleeps $mode.own
	known 100 filler $mode.own
	known 100 read $mode.own
	# pprof: off-CPU time and the on-CPU samples, each by -sample_index
	check_exit 0 $PERF2GPERF -q --off-cpu -f pprof $mode.data $mode.pb.gz
	go_env
	go tool pprof -sample_index=off-cpu -traces $mode.pb.gz > $mode.traces \
		2> $mode.traces.err || fail "go tool pprof cannot read $mode.pb.gz"
	grep -q "Type: off-cpu" $mode.traces || fail "$mode.pb.gz: no off-cpu"
	grep -q "state:  blocked" $mode.traces ||
		fail "no state label in $mode.pb.gz"
	# the nanoseconds of all samples, those of the folded stacks
	go_raw $mode.pb.gz $mode.raw
	ns=$(awk '/^ *[0-9]+ +[0-9]+ +[0-9]+: / { sub(":", "", $3); s += $3 }
		END { printf "%d", s / 1000 }' $mode.raw)
	us=$(awk '{ s += $NF } END { print s }' $mode.folded)
	# (each folded line is rounded down: up to 1 us less a line)
	lines=$(wc -l < $mode.folded)
	[ $((ns - us)) -le $lines ] && [ $((us - ns)) -le 1 ] ||
		fail "$mode.pb.gz has $ns us off the CPU, $mode.folded $us"
	# the on-CPU samples: the periods of the cpu-clock samples (each
	# sample one of the columns only)
	grep -q "^samples/count cpu/nanoseconds off-cpu/nanoseconds" $mode.raw ||
		fail "$mode.pb.gz lacks the cpu sample type"
	cpu=$(awk '/^ *[0-9]+ +[0-9]+ +[0-9]+: / { s += $2 }
		END { printf "%d", s }' $mode.raw)
	want=$(perf script -i $mode.data -F event,period 2>/dev/null |
		awk '$2 == "cpu-clock:" { s += $1 } END { printf "%d", s }')
	[ "$cpu" = "$want" ] ||
		fail "$mode.pb.gz: $cpu ns on the CPU, perf script $want"
	go tool pprof -sample_index=cpu -top $mode.pb.gz > $mode.top \
		2>&1 || fail "go tool pprof -sample_index=cpu fails"
	grep -q "Type: cpu" $mode.top || fail "no cpu view in $mode.pb.gz"
done

# sched_switch without callchains: the message asks for -g
perf record -q -e sched:sched_switch --switch-events -o nog.data \
	-- ./offcpu 2> rec.err || skip "perf record fails: $(head -n 1 rec.err)"
check_exit 1 $PERF2GPERF -q --off-cpu nog.data x.prof
check_grep "record it with perf record -g"

# perf2gperf record --off-cpu
check_exit 0 $PERF2GPERF record --off-cpu -o rec.folded -- ./offcpu
grep '^offcpu;' rec.folded > rec.own
known 200 short_sleeps rec.own
known 100 filler rec.own
# ... and into pprof, on-CPU and off-CPU in one profile
check_exit 0 $PERF2GPERF record --off-cpu -o rec.pb.gz -- ./offcpu
go_raw rec.pb.gz rec.raw
grep -q "^samples/count cpu/nanoseconds off-cpu/nanoseconds" rec.raw ||
	fail "perf2gperf record --off-cpu -o rec.pb.gz: not both views"
