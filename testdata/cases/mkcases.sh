#!/bin/sh
# SPDX-License-Identifier: MIT
# Write the folded-stack cases of tests/run-cases.sh: for each recording
# named below, NAME.args (perf2gperf's arguments), NAME.oracle (perf's)
# and NAME.expected, the output of the oracle: perf's own stackcollapse.py
# (whose names --folded-style=perf gives) with no binaries to read (an empty --symfs and HOME).  In the two
# files, @TESTDATA@ stands for testdata/ and @EMPTY@ for an empty
# directory.  Run from the top of the source tree, with perf installed:
#	testdata/cases/mkcases.sh
set -eu
SC=/usr/lib/perf-core/scripts/python/stackcollapse.py
E=$(mktemp -d)
trap 'rm -rf "$E"' EXIT
# NAME RECORDING [STACKCOLLAPSE-OPTIONS]
while read -r name data opts; do
	[ -n "$name" ] || continue
	printf -- '-q --symfs=@EMPTY@ -f folded --folded-style=perf%s @TESTDATA@/%s -\n' \
		"${opts:+ $opts}" "$data" > testdata/cases/$name.args
	printf -- '--symfs=@EMPTY@ -i @TESTDATA@/%s -s %s%s\n' \
		"$data" "$SC" "${opts:+ -- $opts}" > testdata/cases/$name.oracle
	# shellcheck disable=SC2086
	HOME=$E perf script --symfs="$E" -i "testdata/$data" -s "$SC" \
		${opts:+-- $opts} > testdata/cases/$name.expected
done <<'LIST'
folded-example example.perf.data
folded-hot hot.perf.data
folded-hot-nocg hot-nocg.perf.data
folded-hot-read hot-read.perf.data
folded-hot-user hot-user.perf.data --include-pid
folded-recurse recurse.perf.data
folded-multi-inject multi-inject.perf.data --include-tid
folded-multi-inject-pipe multi-inject-pipe.perf.data
folded-multi-pipe multi-pipe.perf.data --include-pid --include-tid
folded-multi-z multi-z.perf.data
folded-threads-dir threads-dir.perf.data --include-tid
folded-threads-z-pipe threads-z-pipe.perf.data
folded-kernel-module regress/kernel-module.perf.data
folded-mem-topology-bits regress/mem-topology-bits.perf.data
folded-mmap-overlap regress/mmap-overlap.perf.data
folded-unmapped-below-offset regress/unmapped-below-offset.perf.data
folded-sample-at-zero regress/sample-at-zero.perf.data
folded-thread-names regress/thread-names.perf.data --include-pid --include-tid
folded-kernel-vmlinux-path regress/kernel-vmlinux-path.perf.data
LIST
