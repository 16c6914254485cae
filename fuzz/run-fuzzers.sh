#!/bin/sh
# SPDX-License-Identifier: MIT
# Run each libFuzzer target for SECONDS, seeded from the fixtures in
# testdata/.  Usage: run-fuzzers.sh SRCDIR SECONDS (from the build
# directory, after 'make' with --enable-fuzzers).  A crash leaves
# fuzz/crash-TARGET-* behind and makes the script fail; turn each one into
# a named regression fixture under testdata/regress/.
set -eu
srcdir=$1
seconds=$2
status=0

seed() {	# seed TARGET FILES...
	dir=fuzz/$1.corpus
	shift
	mkdir -p "$dir"
	for f in "$@"; do
		[ -f "$f" ] && cp "$f" "$dir/"
	done
	return 0
}

seed fuzz-perfdata "$srcdir"/testdata/*.perf.data "$srcdir"/testdata/regress/*.perf.data
# a --call-graph dwarf recording, so that the unwinder is fuzzed too
if [ -f "$srcdir"/testdata/dwarfprog.perf.data.gz ]; then
	gzip -dc "$srcdir"/testdata/dwarfprog.perf.data.gz \
		> fuzz/fuzz-perfdata.corpus/dwarfprog.perf.data
fi
seed fuzz-cpuprof "$srcdir"/testdata/*.prof "$srcdir"/testdata/gperf/*.prof
# The sample target reads a 41-byte layout header, then a sample body:
# here IP|TID|TIME|CALLCHAIN|PERIOD with a three-entry user callchain.
mkdir -p fuzz/fuzz-sample.corpus
perl -e 'print pack("Q<5C", 0x127, 0, 0, 0, 0, 0),
	pack("Q<L<L<Q<Q<Q<Q<Q<Q<", 0x401136, 100, 101, 5, 1001001, 3,
	     0xfffffffffffffe00, 0x401136, 0x40117a)' \
	> fuzz/fuzz-sample.corpus/seed-callchain

for t in fuzz-perfdata fuzz-sample fuzz-cpuprof; do
	echo "== $t: $seconds s"
	if ! ./fuzz/$t -max_total_time="$seconds" -timeout=10 \
		-rss_limit_mb=2048 -print_final_stats=1 \
		-artifact_prefix="fuzz/crash-$t-" "fuzz/$t.corpus" \
		> "fuzz/$t.log" 2>&1; then
		echo "$t: FAILED; see fuzz/$t.log and fuzz/crash-$t-*"
		tail -n 40 "fuzz/$t.log"
		status=1
	else
		grep -E '^stat::number_of_executed_units|^#[0-9]+.*DONE' \
			"fuzz/$t.log" | tail -n 2
	fi
done
exit $status
