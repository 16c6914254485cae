#!/bin/sh
# SPDX-License-Identifier: MIT
# Go pprof (go tool pprof, google/pprof's legacy reader) must read perf's
# stacks from perf2gperf's default output: for every fixture with an
# oracle and every (event, pid) in it, `go tool pprof -raw
# -symbolize=none` of `perf2gperf -e EVENT -p PID` gives, stack by stack,
# the counts of perf's own reading (NAME.perf.data.expected).  Go stores
# every frame but the leaf as address - 1; stacks_go_raw adds the 1 back.
#
# The default output carries extra leaf copies where Go would otherwise
# rewrite a stack (doc/pprof-readers.md, "The second-frame rules").  To
# show that this matters, the --no-fixup output of hot-user (every stack
# shares main's return address) and recurse (samples on a recursive
# call's return address) must NOT read as perf's stacks in Go; if it did,
# this test would prove nothing, so that fails too.
. "${top_srcdir:-$(dirname "$0")/..}/tests/test-subr.sh"
. "$top_srcdir/tests/stacks.sh"

need_cmd go
go_env
go tool pprof -h > /dev/null 2>&1 || skip "go tool pprof does not run"

# go_read PROFILE OUT: Go's reading of PROFILE in canonical form
go_read() {
	go_raw "$1" $2.raw
	stacks_go_raw $2.raw > $2
}

for name in hot-user recurse multi threads; do
	testfile $name.perf.data > /dev/null
done

n=0
for data in "$TESTDATA"/*.perf.data; do
	[ -f "$data.expected" ] || continue
	name=$(basename "$data" .perf.data)
	cut -f3,4 "$data.expected" | sort -u > $name.evpid
	while IFS=$TAB read -r ev pid; do
		n=$((n + 1))
		tag=$name-$n
		check_exit 0 "$PERF2GPERF" -q -e "$ev" -p "$pid" "$data" $tag.prof
		go_read $tag.prof $tag.go
		stacks_oracle "$data.expected" "$ev" "$pid" > $tag.exp
		compare_text $tag.exp $tag.go \
			"Go pprof's reading of perf2gperf -e $ev -p $pid $name.perf.data"
		echo "$name ($ev, pid $pid): Go pprof reads perf's $(wc -l < $tag.exp) stacks"
	done < $name.evpid
done

# The fixup is what makes this work: without it Go damages these two.
for name in hot-user recurse; do
	data=$TESTDATA/$name.perf.data
	check_exit 0 "$PERF2GPERF" -q --no-fixup "$data" $name.nofix.prof
	go_read $name.nofix.prof $name.nofix.go
	stacks_oracle "$data.expected" > $name.exp
	if cmp -s $name.exp $name.nofix.go; then
		fail "$name: Go pprof reads the --no-fixup output correctly too; the test proves nothing"
	fi
	echo "$name: without the fixup Go pprof reads $(diff $name.exp $name.nofix.go | grep -c '^>') wrong stacks"
done

exit 0
