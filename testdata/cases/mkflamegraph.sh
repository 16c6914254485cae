#!/bin/sh
# SPDX-License-Identifier: MIT
# Write the flamegraph-* cases of tests/run-cases.sh, the default folded
# output (--folded-style=flamegraph): for each recording named below,
# NAME.args (perf2gperf's options, with @TESTDATA@ for testdata/ and
# @EMPTY@ for an empty directory) and NAME.expected, what FlameGraph's
# stackcollapse-perf.pl prints of perf script's output with no binaries
# to read (an empty --symfs and HOME).  The script is not ours and is not
# copied here: give its path.  Run from the top of the source tree, with
# perf installed:
#	testdata/cases/mkflamegraph.sh /path/to/stackcollapse-perf.pl
set -eu
PL=$1
E=$(mktemp -d)
trap 'rm -rf "$E"' EXIT
# NAME RECORDING [PERF2GPERF-OPTION=STACKCOLLAPSE-PERF-OPTION...]
while read -r name data opts; do
	[ -n "$name" ] || continue
	ours= theirs=
	for o in $opts; do
		ours="$ours ${o%%=*}"
		theirs="$theirs ${o#*=}"
	done
	printf -- '-q --symfs=@EMPTY@ -f folded%s @TESTDATA@/%s -\n' \
		"$ours" "$data" > testdata/cases/flamegraph-$name.args
	# shellcheck disable=SC2086
	HOME=$E perf script --symfs="$E" -F comm,pid,tid,time,ip,sym,dso \
		-i "testdata/$data" | perl "$PL" $theirs \
		> testdata/cases/flamegraph-$name.expected
done <<'LIST'
hot hot.perf.data
hot-kernel hot.perf.data --annotate-kernel=--kernel
example example.perf.data
recurse recurse.perf.data
threads-dir threads-dir.perf.data --include-tid=--tid
multi-pid multi.perf.data --include-pid=--pid
kernel-module regress/kernel-module.perf.data --annotate-kernel=--kernel
kernel-vmlinux-path regress/kernel-vmlinux-path.perf.data
mmap-overlap regress/mmap-overlap.perf.data
LIST
