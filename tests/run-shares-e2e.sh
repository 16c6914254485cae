#!/bin/sh
# SPDX-License-Identifier: MIT
# Per-binary shares on fresh recordings of programs built without frame
# pointers, whose perf record -g stacks hold frames in no mapping (perf's
# [unknown]): python3 running a loop, and gzip compressing text.  For
# each, perf2gperf's profile read by go tool pprof -raw gives every
# binary the flat and cumulative share of samples that
# `perf report --children --sort dso` gives it (tests/shares.sh), to
# within 0.5 points: perf looks a return address up as it is and pprof
# looks up the address less 1, so a return address at the very start of
# a mapping (a frame in the file's headers, seen now and then in such
# stacks) counts differently.  The kernel's cumulative share was off by
# tens of points when Go pprof took the kernel line down to address 0
# (doc/pprof-readers.md).  Kernel modules are left out
# (perf names them, the legacy format has no line for them).
# google-pprof shows no binaries, only names: not compared here.
# Needs root (or perf_event_paranoid <= 1), perf, go, python3 and gzip;
# skips otherwise.
. "${top_srcdir:-$(dirname "$0")/..}/tests/test-subr.sh"
. "$top_srcdir/tests/stacks.sh"
. "$top_srcdir/tests/shares.sh"

need_cmd perf go python3 gzip
go_env
perf record -q -e cpu-clock -g -o probe.data -- true > probe.log 2>&1 ||
	skip "perf record does not work here: $(head -n 1 probe.log)"
go tool pprof -h > /dev/null 2>&1 || skip "go tool pprof does not run"

# The interpreter itself, not a wrapper script that would exec it.
py=$(python3 -c 'import sys; print(sys.executable)')
[ -x "$py" ] || skip "python3 does not name its executable"
seq 1 1500000 > text

# compare NAME: record the command in "$@" after NAME, convert, compare
compare() {
	name=$1
	shift
	perf record -q -e cpu-clock -F 999 -g -o $name.data -- "$@" \
		> $name.rec.log 2>&1 || {
		cat $name.rec.log >&2
		fail "perf record of $name failed"
	}
	check_exit 0 "$PERF2GPERF" -q $name.data $name.prof
	go_raw $name.prof $name.raw
	shares_perf $name.data > $name.perf.all
	[ -s $name.perf.all ] || fail "perf report gives no shares for $name"
	shares_go_raw $name.raw > $name.go.all
	for s in perf go; do
		shares_binaries $name.$s.all |
			grep -v '^\[[^]]*\]	' > $name.$s.files || :
		grep '^\[kernel.kallsyms\]	\|^\[vdso\]	' $name.$s.all \
			>> $name.$s.files || :
		LC_ALL=C sort -o $name.$s.files $name.$s.files
	done
	grep -q '^\[kernel.kallsyms\]	' $name.perf.files ||
		echo "note: $name: no kernel samples"
	# join on the name; a binary only one side has counts as 0 there
	LC_ALL=C join -t "$TAB" -a 1 -a 2 -e 0 -o 0,1.2,1.3,2.2,2.3 \
		$name.perf.files $name.go.files > $name.both
	awk -F "$TAB" -v n=$name '
		function d(a, b) { return a > b ? a - b : b - a }
		{
			printf "%s: %s perf %s/%s pprof %s/%s\n", n, $1, $2, $3, $4, $5
			if (d($2, $4) > 0.5 || d($3, $5) > 0.5)
				bad = bad " " $1
		}
		END { if (bad != "") { print n ": differ:" bad; exit 1 } }' \
		$name.both || fail "$name: per-binary shares differ between perf report and Go pprof"
	if grep -q '^\[unknown\]	' $name.perf.all; then
		echo "$name: perf's [unknown]: $(grep '^\[unknown\]	' $name.perf.all | cut -f3)% cumulative"
	fi
}

compare python3 "$py" -c '
x = 0
for i in range(3000000):
    x += i * i % 7
'
compare gzip gzip -9 -k -f text

exit 0
