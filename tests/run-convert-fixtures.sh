#!/bin/sh
# SPDX-License-Identifier: MIT
# Convert every testdata/*.perf.data that has an oracle and compare the
# stacks with perf's own reading of the file (NAME.perf.data.expected,
# made with perf's python interface, see testdata/README):
#  - with --no-fixup the profile must hold exactly perf's stacks: for each
#    (event, pid) of the oracle, `perf2gperf --no-fixup -e EVENT -p PID`
#    dumped with gperfcheck, summed per stack, equals the oracle lines of
#    that event and pid (multi-2ev: cpu-clock and task-clock; forkexec:
#    both processes);
#  - without options perf2gperf takes the first event of the file (the
#    first "# event" line of perf report --header-only) and the process
#    with the most samples;
#  - the header period is 1001 us: the fixtures were recorded with -F 999
#    (testdata/README), 1e6 / 999 = 1001.001, rounded; tracepoint
#    fixtures (NAME-tp*) have period 1;
#  - the pipe-mode file gives the same result read from a file or stdin,
#    and writing to stdout ('-') gives the same bytes as writing a file;
#  - the default output differs from --no-fixup only by copies of the
#    leaf inserted right after it (leaf_copies_check in stacks.sh; a
#    plain "collapse repeated leading PCs" would be wrong, since a true
#    stack may start pc0, pc0 in recursion), and it has copies exactly
#    when Go pprof's rules would change a record as recorded
#    (go_rules_hit); records whose true stack starts pc0, pc0 always get
#    one.  run-pprof-go.sh shows that Go then reads perf's stacks.
. "${top_srcdir:-$(dirname "$0")/..}/tests/test-subr.sh"
. "$top_srcdir/tests/stacks.sh"

echo "header 0 3 0 $(awk 'BEGIN { printf "%d", 1000000 / 999 + 0.5 }') 0" \
	> header.exp
# tracepoints (NAME-tp*) count events, not time: a period of 1 event is
# written as 1 us (doc/perf2gperf.1, PERIOD)
echo "header 0 3 0 1 0" > header-tp.exp

# convert OUT ARGS...: perf2gperf ARGS > OUT.prof, check it, dump it to
# OUT.dump and its canonical stacks to OUT.stacks.
convert() {
	o=$1
	shift
	check_exit 0 "$PERF2GPERF" -q "$@" $o.prof
	[ ! -s err ] || { cat err >&2; fail "perf2gperf -q printed on stderr: $*"; }
	check_exit 0 "$GPERFCHECK" --dump $o.prof
	mv out $o.dump
	head -n 1 $o.dump > $o.header
	case $o in
	*-tp*) compare_text header-tp.exp $o.header "header of perf2gperf $*" ;;
	*) compare_text header.exp $o.header "header of perf2gperf $*" ;;
	esac
	stacks_dump $o.dump > $o.stacks
}

nfiles=0
for data in "$TESTDATA"/*.perf.data; do
	[ -f "$data.expected" ] || continue
	thinned 3 || continue
	name=$(basename "$data" .perf.data)
	oracle=$data.expected
	nfiles=$((nfiles + 1))

	# every (event, pid) of the oracle, with --no-fixup
	cut -f3,4 "$oracle" | sort -u > $name.evpid
	[ -s $name.evpid ] || hard_error "empty oracle $oracle"
	while IFS=$TAB read -r ev pid; do
		convert $name.nf --no-fixup -e "$ev" -p "$pid" "$data"
		stacks_oracle "$oracle" "$ev" "$pid" > $name.exp
		compare_text $name.exp $name.nf.stacks \
			"perf2gperf --no-fixup -e $ev -p $pid $name.perf.data"
		echo "$name: $ev pid $pid: $(wc -l < $name.exp) stacks as perf reads them"
	done < $name.evpid

	# no selection: the first event, all processes merged (perf report --header-only does not read pipe-mode files: a pipe
	# fixture NAME-pipe recorded with the same events as NAME has the
	# events of NAME.perf.data.header, in the same order)
	header=$data.header
	[ -f "$header" ] || header=${data%-pipe.perf.data}.perf.data.header
	if [ -f "$header" ]; then
		ev=$(sed -n 's/^# event : name = \([^,]*\),.*/\1/p' "$header" | head -n 1)
	else
		[ "$(cut -f3 "$oracle" | sort -u | wc -l)" -eq 1 ] ||
			hard_error "$name: several events and no header to order them"
		ev=$(cut -f3 "$oracle" | sort -u)
	fi
	[ -n "$ev" ] || hard_error "no event in $data.header"
	# Where no mapped file had to move (the processes' addresses do not
	# collide) the merged profile holds perf's stacks of every process;
	# else its sample count is theirs, and --split gives each process
	# the profile -p gives it.
	check_exit 0 "$PERF2GPERF" -q -s --no-fixup "$data" $name.nf.prof
	grep '^  places relocated' err > $name.reloc ||
		fail "$name: --stats has no 'places relocated' line"
	convert $name.nf "--no-fixup" "$data"
	stacks_oracle "$oracle" "$ev" "" > $name.exp
	if grep -q ' 0$' $name.reloc; then
		compare_text $name.exp $name.nf.stacks "perf2gperf --no-fixup $name.perf.data"
	else
		[ "$(awk '{ s += $1 } END { print s }' $name.exp)" = \
		  "$(awk '{ s += $1 } END { print s }' $name.nf.stacks)" ] ||
			fail "$name: merged profile has another sample count than perf"
		check_exit 0 "$PERF2GPERF" -q --no-fixup -e "$ev" --split "$data" "$name.split.%p.prof"
		for f in $name.split.*.prof; do
			p=${f#$name.split.}
			p=${p%.prof}
			check_exit 0 "$PERF2GPERF" -q --no-fixup -e "$ev" -p $p "$data" $name.one.prof
			cmp $f $name.one.prof ||
				fail "$name: --split profile of pid $p differs from -p $p"
		done
		echo "$name: merged with $(awk '{ print $3 }' $name.reloc) places relocated; --split agrees with -p"
	fi

	# the default output: only leaf copies added, and only where needed
	convert $name.def "$data"
	r=$(leaf_copies_check $name.def.dump $name.nf.dump) ||
		fail "$name: default output is not --no-fixup plus leaf copies"
	set -- $r
	recs=$1 copies=$2 unprotected=$3
	hit=$(go_rules_hit $name.nf.dump)
	[ "$unprotected" -eq 0 ] ||
		fail "$name: $unprotected records start pc0, pc0 but got no leaf copy"
	if [ "$hit" = yes ]; then
		[ "$copies" -gt 0 ] ||
			fail "$name: Go pprof would change records, but no leaf copies were added"
	else
		cmp $name.def.prof $name.nf.prof ||
			fail "$name: Go pprof reads it as is, yet the default output differs from --no-fixup"
	fi
	echo "$name: default output: $copies leaf copies in $recs records (Go rules hit: $hit)"
done
[ $nfiles -gt 0 ] || skip "no fixtures with oracles"

# The leaf copies are needed where the README says they are: hot-user
# (every stack shares its second frame) and recurse (26 samples whose leaf
# equals the first return address).
for name in hot-user recurse; do
	[ -f $name.def.dump ] || continue
	r=$(leaf_copies_check $name.def.dump $name.nf.dump)
	set -- $r
	[ "$2" -gt 0 ] || fail "$name: expected leaf copies in the default output"
done
if [ -f recurse.nf.dump ]; then
	dup=$(awk '/^[0-9]/ && NF >= 3 && $2 == $3 { n += $1 } END { print n + 0 }' recurse.nf.dump)
	[ "$dup" -eq 26 ] || fail "recurse: $dup samples with pc0 == pc1, README says 26"
fi

# --- selection by thread and command (threads: pid 5279, tids 5279 122,
# 5281 160, 5282 199 samples; forkexec: parent "forkexec" 107, child
# "hot" 425 samples - testdata/README)
threads=$(testfile threads.perf.data)
total=0
for t in 5279:122 5281:160 5282:199; do
	convert tid --no-fixup -t ${t%:*} "$threads"
	n=$(awk '{ s += $1 } END { print s }' tid.stacks)
	[ "$n" -eq ${t#*:} ] || fail "threads: tid ${t%:*} has $n samples, README says ${t#*:}"
	total=$((total + n))
done
convert tid --no-fixup -t 5279,5281,5282 "$threads"
stacks_oracle "$threads.expected" > tid.exp
compare_text tid.exp tid.stacks "perf2gperf -t 5279,5281,5282 threads.perf.data"

forkexec=$(testfile forkexec.perf.data)
awk -F "$TAB" '{ c[$4] += $1 } END { for (p in c) print c[p], p }' \
	"$forkexec.expected" | sort -n > fe.pids
[ "$(cut -d' ' -f1 fe.pids | tr '\n' ' ')" = "107 425 " ] ||
	hard_error "forkexec oracle does not have 107 + 425 samples"
parent=$(sed -n 1p fe.pids | cut -d' ' -f2)
child=$(sed -n 2p fe.pids | cut -d' ' -f2)
convert comm --no-fixup -c forkexec "$forkexec"
stacks_oracle "$forkexec.expected" "" $parent > comm.exp
compare_text comm.exp comm.stacks "perf2gperf -c forkexec forkexec.perf.data"
convert comm --no-fixup -c hot "$forkexec"
stacks_oracle "$forkexec.expected" "" $child > comm.exp
compare_text comm.exp comm.stacks "perf2gperf -c hot forkexec.perf.data"

# --- pipe mode: from the file and from stdin, same bytes
pipe=$(testfile multi-pipe.perf.data)
convert pipe-file --no-fixup "$pipe"
check_exit 0 sh -c '"$1" -q --no-fixup - pipe-stdin.prof < "$2"' sh "$PERF2GPERF" "$pipe"
cmp pipe-file.prof pipe-stdin.prof || fail "pipe input read from stdin differs"
stacks_oracle "$pipe.expected" > pipe.exp
compare_text pipe.exp pipe-file.stacks "perf2gperf --no-fixup multi-pipe.perf.data"
# a file-mode file on stdin too
hot=$(testfile hot.perf.data)
convert hot-file "$hot"
check_exit 0 sh -c '"$1" -q - hot-stdin.prof < "$2"' sh "$PERF2GPERF" "$hot"
cmp hot-file.prof hot-stdin.prof || fail "file-mode input read from stdin differs"

# --- output to stdout, same bytes as to a file
check_exit 0 "$PERF2GPERF" -q "$hot" -
cmp out hot-file.prof || fail "output to stdout differs from output to a file"
check_exit 0 sh -c '"$1" -q - - < "$2" > both.prof' sh "$PERF2GPERF" "$hot"
cmp both.prof hot-file.prof || fail "stdin to stdout differs from file to file"

exit 0
