#!/bin/sh
# SPDX-License-Identifier: MIT
# --format=pprof carries perf's names: Go's pprof reads them from the
# profile alone (-symbolize=none: no binary is looked at), and its
# stacks, read as folded stacks, are perf's own stackcollapse.py output
# for the same recording (testdata/progs/multi.c and threads.c, recorded
# here and now).  The comm, pid and tid labels are there, and tid tells
# the threads apart; the start time and duration come from the
# recording's clock data (perf record -k), the comments (perf's version,
# host, command line) from its header.  Then pprof given the perf.data
# itself: it runs perf_to_profile (the build tree's, first on PATH), and
# -top names the busiest function perf names.
# Skips without perf (recording, with python scripting), gcc, go or
# perf's stackcollapse.py.
. "${top_srcdir:-$(dirname "$0")/..}/tests/test-subr.sh"
. "$top_srcdir/tests/names.sh"

need_cmd go
go_env
go tool pprof -h > /dev/null 2>&1 || skip "go tool pprof does not run"
names_setup

# go_folded RAW: the stacks of `go tool pprof -raw` output RAW as
# stackcollapse.py prints them (comm;root;...;leaf COUNT, sorted): the
# first value of each sample, its comm label, each location's outermost
# function (the last of its lines: Debian's perf 6.1 shows no inlined
# functions in callchains), "[unknown]" for a location without any.
go_folded() {
	awk '
	/^Samples:/ { part = "s"; getline; next }
	/^Locations/ { part = "l"; next }
	/^Mappings/ { part = "" }
	part == "s" && /^ +[0-9]+ +[0-9]+: / {
		ns++; cnt[ns] = $1; ids[ns] = ""
		for (i = 3; i <= NF; i++) ids[ns] = ids[ns] " " $i
		next
	}
	part == "s" && /^ +comm:\[/ {
		c = $0; sub(/^ +comm:\[/, "", c); sub(/\]$/, "", c)
		comm[ns] = c; next
	}
	part == "l" && /^ +[0-9]+: 0x/ {
		id = $1; sub(/:$/, "", id)
		f = 3
		if ($3 ~ /^M=/) f = 4
		nl[id] = 0
		if (f <= NF && $f !~ /^s=/) { nl[id] = 1; fn[id, 1] = $f }
		next
	}
	part == "l" && /^             [^ ]/ { nl[id]++; fn[id, nl[id]] = $1 }
	END {
		for (s = 1; s <= ns; s++) {
			n = split(ids[s], v, " ")
			line = comm[s]
			gsub(/ /, "_", line)
			for (k = n; k >= 1; k--) {
				id = v[k]
				if (nl[id] == 0) { line = line ";[unknown]"; continue }
				line = line ";" fn[id, nl[id]]
			}
			sum[line] += cnt[s]
		}
		for (line in sum) print line, sum[line]
	}' "$1" | sort
}

for p in multi threads; do
	# with clock data, which ties perf's clock to the time of day
	names_record $p -k CLOCK_MONOTONIC
	names_oracle $p.data > $p.exp
	check_exit 0 "$PERF2GPERF" --folded-style=perf -q $p.data $p.pb.gz
	go_raw $p.pb.gz $p.raw
	go_folded $p.raw > $p.go
	compare_text $p.exp $p.go "Go pprof's stacks of $p.pb.gz"
	for label in comm pid tid; do
		grep -q "[ ]$label:\[" $p.raw || fail "no $label label in $p.pb.gz"
	done
	# the start: the day the recording was written (-raw prints UTC)
	day=$(date -u -r $p.data +%Y-%m-%d)
	grep -q "^Time: $day " $p.raw ||
		fail "$p.pb.gz: no start time of $day ($(grep '^Time' $p.raw))"
	grep -q '^Duration: ' $p.raw || fail "$p.pb.gz: no duration"
	# comments: perf's version, the host, perf's command line
	grep -q "^Comment: perf version $(perf version | sed 's/^perf version //')\$" \
		$p.raw || fail "$p.pb.gz: no comment with perf's version"
	grep -q "^Comment: hostname $(uname -n)\$" $p.raw ||
		fail "$p.pb.gz: no comment with the host name"
	grep -q "^Comment: cmdline .*perf record .* -o $p.data -- ./$p\$" \
		$p.raw || fail "$p.pb.gz: no comment with perf's command line"
	echo "$p: Go pprof reads perf's $(wc -l < $p.exp) stacks and names"
done
# threads.c runs three threads: three tids
tids=$(grep -o 'tid:\[[0-9]*\]' threads.raw | sort -u | wc -l)
[ "$tids" -eq 3 ] || fail "threads.pb.gz has $tids tids, not 3"

# pprof perf.data: pprof runs perf_to_profile -i IN -o OUT -f
[ -x "$top_builddir/src/perf_to_profile" ] ||
	hard_error "$top_builddir/src/perf_to_profile is not built"
PATH=$top_builddir/src:$PATH go tool pprof -raw -symbolize=none \
	multi.data > multi.p2p.raw 2> multi.p2p.err || {
	cat multi.p2p.err >&2
	fail "go tool pprof cannot read multi.data through perf_to_profile"
}
go_folded multi.p2p.raw > multi.p2p.go
compare_text multi.exp multi.p2p.go "Go pprof's stacks of multi.data"
PATH=$top_builddir/src:$PATH go tool pprof -top -symbolize=none \
	multi.data > multi.top 2> multi.top.err ||
	fail "go tool pprof -top multi.data failed"
# the busiest leaf perf names is there
leaf=$(sort -t' ' -k2,2nr multi.exp | head -n 1 | sed 's/ [0-9]*$//; s/.*;//')
grep -q " $leaf\$" multi.top || fail "go tool pprof -top multi.data does not name $leaf"
echo "pprof multi.data (perf_to_profile): perf's stacks; -top names $leaf"
