#!/bin/sh
# SPDX-License-Identifier: MIT
# Address spaces on fresh recordings, with perf's own symbols as the
# oracle (perf script -F pid,ip,sym), and both pprofs reading the result:
#  - spawn2 forks two children that exec hot and multi: three processes,
#    three programs, all linked at 0x400000 (mkprogs.sh builds without
#    PIE), so two of them must move in the merged profile.  The merged
#    --user-only profile, read by Go pprof (the standalone pprof built
#    from Debian's golang-github-google-pprof-dev: go tool pprof cannot
#    name C functions), has perf's user-space stacks of all three
#    processes, function by function, shared library (libc) frames
#    included, and its mappings of the three programs carry the build
#    ids perf recorded for them (perf buildid-list).  The --split profiles, read by google-pprof each with its
#    own program, have perf's stacks of that process.
#  - a system-wide recording (perf record -a) of a copy of multi named
#    p2gsysPID converts, and --comm p2gsysPID picks exactly perf's
#    stacks of it out of the recording.
# Frames perf cannot name ([unknown]) and frames pprof leaves unnamed (an
# address, <unknown>, ??) compare as "?".  Stacks whose leaf is inside
# libc or ld.so are left out on both sides (at most 5% of the samples):
# there perf and pprof name functions differently (aliases such as
# __GI___libc_write for write, inlined functions such as arch_fork),
# which says nothing about the addresses.  Skips without perf, gcc or either pprof
# (each pprof part on its own).
. "${top_srcdir:-$(dirname "$0")/..}/tests/test-subr.sh"
. "$top_srcdir/tests/stacks.sh"

need_cmd perf gcc
mkprogs=$(testfile progs/mkprogs.sh)
stacks_py=$(testfile perf-stacks.py)
perf record -q -e cpu-clock -o probe.data -- true > probe.log 2>&1 ||
	skip "perf record does not work here: $(head -n 1 probe.log)"
cflags=$(sed -n 's/^CFLAGS="\(.*\)"$/\1/p' "$mkprogs")
for p in hot multi spawn2; do
	${CC:-gcc} $cflags -o $p "$TESTDATA/progs/$p.c" 2> cc.log || {
		cat cc.log >&2
		skip "cannot build $p.c with $cflags"
	}
done

# perf's symbolic stacks, user frames only: "pid<TAB>leaf;...;root" lines
# summed as "count<TAB>pid<TAB>stack".
perf_syms() {
	perf script -i "$1" -F pid,ip,sym --no-inline 2> /dev/null | awk '
		function flush() {
			if (pid != "" && s != "") c[pid "\t" s]++
			s = ""
		}
		/^ *[0-9]+ *$/ { flush(); pid = $1 + 0; next }
		/^\t/ {
			addr = $1
			if (length(addr) == 16 && addr >= "ffff800000000000")
				next
			sym = $2
			sub(/\+0x[0-9a-f]+$/, "", sym)
			if (sym == "" || sym == "[unknown]") sym = "?"
			s = s (s != "" ? ";" : "") sym
			next
		}
		END { flush(); for (k in c) print c[k] "\t" k }' | sort
}

# keep "count<TAB>[pid<TAB>]stack" lines whose leaf is one of the test
# programs' functions
ours='^(hot_loop|main|burn_[abc]|mid_[xy]|path_[ab]|spawn_burn)(;|$)'
own_leaf() {
	awk -F "$TAB" -v re="$ours" '$NF ~ re'
}

# Go pprof -traces (sample counts) -> "count<TAB>leaf;...;root", summed
go_syms() {
	awk '
		function flush() { if (s != "") c[s] += n; s = "" }
		/^-+\+-+$/ { flush(); next }
		/^ *[0-9]+ +[^ ]/ && s == "" { n = $1; f = $2 }
		/^ +[^ 0-9-]/ && s != "" { f = $1 }
		/^ *[0-9]+ +[^ ]/ || /^ +[^ 0-9-]/ {
			if (f ~ /^0x[0-9a-f]+$/ || f == "<unknown>") f = "?"
			s = s (s != "" ? ";" : "") f
		}
		END { flush(); for (k in c) print c[k] "\t" k }' "$1" | sort
}

# google-pprof --collapsed ("root;...;leaf count") -> "count<TAB>leaf;...;root"
perl_syms() {
	awk '{
		n = $NF
		$NF = ""
		sub(/ $/, "")
		k = split($0, a, ";")
		s = ""
		for (i = k; i >= 1; i--) {
			f = a[i]
			sub(/<[0-9a-f]+>$/, "", f)	# the address it adds
			if (f ~ /^0x[0-9a-f]+$/ || f == "??") f = "?"
			s = s (s != "" ? ";" : "") f
		}
		c[s] += n
	} END { for (k in c) print c[k] "\t" k }' "$1" | sort
}

perf record -q -e cpu-clock -F 999 -g -o spawn.data -- ./spawn2 ./hot ./multi \
	> rec.log 2>&1 || { cat rec.log >&2; fail "perf record of spawn2 failed"; }
perf_syms spawn.data > spawn.perf
[ "$(cut -f2 spawn.perf | sort -u | wc -l)" -eq 3 ] ||
	skip "the recording does not hold samples of all three processes"
check_exit 0 "$PERF2GPERF" -s --user-only spawn.data merged.prof
check_grep "3 processes merged"
grep -q '^  places relocated *[1-9]' err ||
	fail "three programs at 0x400000, yet no place was moved"
check_exit 0 "$GPERFCHECK" merged.prof

# --- Go pprof, merged
pprof_bin=
if have go &&
	[ -d /usr/share/gocode/src/github.com/google/pprof ]; then
	go_env
	(cd "$test_dir" && GO111MODULE=off GOPATH=/usr/share/gocode \
		go build -o pprof github.com/google/pprof) > gobuild.log 2>&1 &&
		pprof_bin=$test_dir/pprof
fi
if [ -n "$pprof_bin" ]; then
	"$pprof_bin" -traces -sample_index=samples merged.prof > merged.traces 2> pprof.err ||
		{ cat pprof.err >&2; fail "pprof cannot read the merged profile"; }
	go_syms merged.traces | own_leaf > merged.go
	awk -F "$TAB" '{ c[$3] += $1 } END { for (k in c) print c[k] "\t" k }' \
		spawn.perf | sort > spawn.perf.all0
	own_leaf < spawn.perf.all0 > spawn.perf.all
	awk -F "$TAB" -v a="$(awk '{ s += $1 } END { print s }' spawn.perf.all)" \
		'{ s += $1 } END { exit !(a >= s * 0.95) }' spawn.perf.all0 ||
		fail "more than 5% of the samples are in libc or ld.so: test program too light"
	compare_text spawn.perf.all merged.go "Go pprof's stacks of the merged profile"
	for f in hot_loop burn_a spawn_burn __libc_start_call_main; do
		grep -q "$f" merged.go || fail "Go pprof does not name $f"
	done
	# the build ids perf recorded reach Go pprof's mappings (from the
	# brief maps line that precedes each /proc/maps line)
	"$pprof_bin" -raw -symbolize=none merged.prof > merged.raw 2> pprof.err ||
		fail "pprof -raw cannot read the merged profile"
	perf buildid-list -i spawn.data 2> /dev/null | while read -r id path; do
		case $path in
		*/hot|*/multi|*/spawn2)
			grep -q "$path $id" merged.raw ||
				fail "Go pprof has no build id $id for $path" ;;
		esac
	done
	echo "Go pprof: merged profile of 3 programs: $(wc -l < merged.go) stacks as perf names them"
else
	echo "note: no standalone pprof (golang-go and golang-github-google-pprof-dev): Go part skipped"
fi

# --- google-pprof, one profile per process
if have google-pprof; then
	check_exit 0 "$PERF2GPERF" -q --user-only --no-fixup --split spawn.data 'proc-%p-%c.prof'
	n=0
	for f in proc-*.prof; do
		pid=${f#proc-}
		pid=${pid%%-*}
		comm=${f#proc-$pid-}
		comm=${comm%.prof}
		HOME=$test_dir google-pprof --no-auto-signal-frm --collapsed ./$comm $f \
			> $f.collapsed 2> $f.err || { cat $f.err >&2; fail "google-pprof cannot read $f"; }
		perl_syms $f.collapsed | own_leaf > $f.perl
		awk -F "$TAB" -v pid=$pid '$2 == pid { print $1 "\t" $3 }' spawn.perf |
			own_leaf > $f.want
		compare_text $f.want $f.perl "google-pprof's stacks of $f"
		n=$((n + 1))
	done
	[ $n -eq 3 ] || fail "--split wrote $n profiles for 3 processes"
	echo "google-pprof: 3 --split profiles as perf names them"
else
	echo "note: google-pprof is not installed: perl part skipped"
fi

# --- system-wide, one program picked out by --comm.  The program is a
# copy of multi with a name of its own: other tests may run a multi of
# theirs meanwhile, which --comm multi would rightly take too.
sysprog=p2gsys$$
cp multi $sysprog
if perf record -q -a -e cpu-clock -F 999 -g -o sys.data -- ./$sysprog > sysrec.log 2>&1; then
	check_exit 0 "$PERF2GPERF" -q sys.data sys.prof
	check_exit 0 "$GPERFCHECK" sys.prof
	PERF_STACKS_OUT=sys.unsorted perf script -i sys.data --no-inline -s "$stacks_py" > /dev/null 2>&1 ||
		fail "perf cannot read its system-wide recording"
	pid=$(perf script -i sys.data -F comm,pid 2> /dev/null |
		awk -v p=$sysprog '$1 == p { print $2; exit }')
	[ -n "$pid" ] || fail "no sample of $sysprog in the system-wide recording"
	# perf's own --comms filter: the command at the time of each sample
	# (a sample taken in its pid while it was still perf's child
	# "perf-exec" is not its)
	PERF_STACKS_OUT=comm.unsorted perf script -i sys.data --comms $sysprog \
		--no-inline -s "$stacks_py" > /dev/null 2>&1 ||
		fail "perf script --comms $sysprog failed"
	check_exit 0 "$PERF2GPERF" -q --no-fixup --comm $sysprog sys.data comm.prof
	check_exit 0 "$GPERFCHECK" --dump comm.prof
	stacks_dump out > comm.got
	stacks_oracle comm.unsorted cpu-clock "" > comm.want
	compare_text comm.want comm.got "--comm $sysprog from the system-wide recording"
	echo "system-wide: $(cut -f4 sys.unsorted | sort -u | wc -l) processes; --comm $sysprog gives perf's $(wc -l < comm.want) stacks of pid $pid"
else
	echo "note: perf record -a does not work here: $(head -n 1 sysrec.log)"
fi
exit 0
