#!/bin/sh
# SPDX-License-Identifier: MIT
# End to end on fresh data: build testdata/progs/multi.c and hot.c with the
# flags of testdata/progs/mkprogs.sh, record them with perf (-g,
# frame-pointer chains; hot with cpu-clock:u, the case where every stack
# shares its second frame), take perf's own reading with
# testdata/perf-stacks.py (as testdata/mkfixtures.sh does), convert, and
# check that
#  - gperfcheck accepts the profile;
#  - go tool pprof -raw reads exactly perf's stacks;
#  - google-pprof --no-auto-signal-frm reads exactly perf's stacks from
#    the --no-fixup profile;
#  - both pprofs, given the program, name its functions: for multi every
#    function of multi.c (burn_a, burn_b, burn_c, mid_x, mid_y, path_a,
#    path_b, main); for hot both hot_loop and main (Go pprof would lose
#    main without perf2gperf's leaf copies).  `go tool pprof` as shipped
#    with some Go releases cannot name the functions of C programs at all
#    (Go 1.19's cmd/pprof symbolizes through the Go line table and never
#    reaches its DWARF fallback for a C binary); so Go's names are required
#    only if Go names hot_loop in libprofiler's own profile of the same
#    program (testdata/hot.prof), and skipped with a note otherwise.
# Needs perf allowed to record (root, or perf_event_paranoid <= 1), perf
# built with python scripting, gcc, go and google-pprof; skips otherwise.
. "${top_srcdir:-$(dirname "$0")/..}/tests/test-subr.sh"
. "$top_srcdir/tests/stacks.sh"

need_cmd perf gcc go google-pprof
go_env
stacks_py=$(testfile perf-stacks.py)
mkprogs=$(testfile progs/mkprogs.sh)
testfile progs/multi.c > /dev/null
testfile progs/hot.c > /dev/null

perf record -q -e cpu-clock -o probe.data -- true > probe.log 2>&1 ||
	skip "perf record does not work here: $(head -n 1 probe.log)"

cflags=$(sed -n 's/^CFLAGS="\(.*\)"$/\1/p' "$mkprogs")
[ -n "$cflags" ] || hard_error "no CFLAGS line in $mkprogs"
for p in multi hot; do
	${CC:-gcc} $cflags -o $p "$TESTDATA/progs/$p.c" 2> cc.log || {
		cat cc.log >&2
		skip "cannot build $p.c with $cflags"
	}
done

# Can this go tool pprof name a C program's functions at all?  Ask it
# about libprofiler's own profile of hot.
go_names=no
if [ -f "$TESTDATA/hot.prof" ]; then
	go tool pprof -top -nodecount=50 ./hot "$TESTDATA/hot.prof" > probe.top 2>&1 || :
	grep -q -w hot_loop probe.top && go_names=yes
fi
[ $go_names = yes ] || echo "note: $(go version): go tool pprof does not name" \
	"hot_loop in libprofiler's testdata/hot.prof; Go's function names not checked"

# record NAME EVENT: perf.data of ./NAME in NAME.data, perf's stacks of its
# busiest process in NAME.exp (canonical), that pid in $pid
record() {
	perf record -q -e $2 -F 999 -g -o $1.data -- ./$1 > $1.rec.log 2>&1 || {
		cat $1.rec.log >&2
		fail "perf record of $1 failed"
	}
	PERF_STACKS_OUT=$1.unsorted perf script -i $1.data --no-inline \
		-s "$stacks_py" > $1.script.log 2>&1 || {
		cat $1.script.log >&2
		skip "perf script -s (python scripting) does not work here"
	}
	[ -s $1.unsorted ] || fail "perf recorded no samples of $1"
	pid=$(awk -F "$TAB" '{ c[$4] += $1 } END { for (p in c) print c[p], p }' \
		$1.unsorted | sort -n | tail -n 1 | cut -d' ' -f2)
	stacks_oracle $1.unsorted "" $pid > $1.exp
}

# has_names FILE NAME...: fail unless every NAME is a word in FILE
has_names() {
	f=$1
	shift
	for fn in "$@"; do
		grep -q -w "$fn" "$f" || {
			cat "$f" >&2
			fail "$fn is missing from $f"
		}
	done
}

for spec in multi:cpu-clock hot:cpu-clock:u; do
	p=${spec%%:*}
	ev=${spec#*:}
	record $p $ev
	echo "$p: recorded $(awk '{ s += $1 } END { print s }' $p.exp) samples in $(wc -l < $p.exp) stacks (pid $pid)"

	check_exit 0 "$PERF2GPERF" -q -p $pid $p.data $p.prof
	check_exit 0 "$GPERFCHECK" $p.prof
	check_exit 0 "$PERF2GPERF" -q --no-fixup -p $pid $p.data $p.nofix.prof
	check_exit 0 "$GPERFCHECK" $p.nofix.prof

	go_raw $p.prof $p.go.raw
	stacks_go_raw $p.go.raw > $p.go
	compare_text $p.exp $p.go "Go pprof's reading of $p.prof"

	google-pprof --raw --no-auto-signal-frm ./$p $p.nofix.prof > $p.perl.raw 2> perl.err ||
		{ cat perl.err >&2; fail "google-pprof cannot read $p.nofix.prof"; }
	stacks_perl_raw $p.perl.raw > $p.perl
	compare_text $p.exp $p.perl "google-pprof's reading of $p.nofix.prof"

	go tool pprof -top -nodecount=50 ./$p $p.prof > $p.go.top 2> go.err ||
		{ cat go.err >&2; fail "go tool pprof -top failed on $p.prof"; }
	google-pprof --text ./$p $p.prof > $p.perl.text 2> perl.err ||
		{ cat perl.err >&2; fail "google-pprof --text failed on $p.prof"; }
	case $p in
	multi)	names="burn_a burn_b burn_c mid_x mid_y path_a path_b main" ;;
	hot)	names="hot_loop main" ;;
	esac
	[ $go_names = no ] || has_names $p.go.top $names
	has_names $p.perl.text $names
	echo "$p: both pprofs read perf's stacks; function names found: $names"
done

exit 0
