#!/bin/sh
# SPDX-License-Identifier: MIT
# Threads named as perf names them when their samples are taken
# (tools/perf/util/thread.c): the idle task (pid and tid 0) "swapper", a
# thread with no COMM yet ":TID" (for good if it never gets one), then
# its COMM.  On testdata/regress/thread-names.perf.data (mkregress.pl:
# one sample of each; the case folded-thread-names compares the folded
# stacks with perf's stackcollapse.py) the folded and pprof outputs name
# them so; in the live tier, the samples of each name in three files of
# ../shared/corpus/foreign (system-wide with pid 0 and threads never
# named, a thread sampled before its first COMM) equal those of perf's
# stackcollapse.py, and go tool pprof shows the pprof comm labels.
. "${top_srcdir:-$(dirname "$0")/..}/tests/test-subr.sh"

data=$(testfile regress/thread-names.perf.data)
check_exit 0 "$PERF2GPERF" -q -f folded --include-pid --include-tid \
	"$data" t.folded
cut -d';' -f1 t.folded | LC_ALL=C sort > names.got
cat > names.exp <<'EOT'
:5271-5270/5271
swapper-0/0
worker-5270/5271
EOT
compare_text names.exp names.got "the thread names"
check_exit 0 "$PERF2GPERF" -q -f pprof "$data" t.pb.gz

live_rest
if have go; then
	go_env
	go_raw t.pb.gz t.raw
	for c in swapper :5271 worker; do
		grep -q "comm:\[$c\]" t.raw ||
			fail "no sample of $c in the pprof profile"
	done
fi
corpus=$top_srcdir/../shared/corpus/foreign
[ -d "$corpus" ] || {
	echo "no foreign corpus: not tried on its files"
	exit 0
}
mkdir empty
HOME=$test_dir/empty
export HOME
# by_name FOLDED: the samples of each first frame
by_name() {
	awk '{ c = $NF; sub(/;.*| [0-9]+$/, ""); n[$0] += c }
	     END { for (k in n) print k, n[k] }' "$1" | LC_ALL=C sort
}
for f in CiZ01_ebpf-perf-analytics__perf.data \
	 llvm_llvm-lnt__tests_testing_Inputs_fib-aarch64.perf_data \
	 amit-choudhari_Specdefender__test_perf.data; do
	[ -f "$corpus/$f" ] || continue
	check_exit 0 "$PERF2GPERF" -q --symfs=empty -f folded "$corpus/$f" c.folded
	by_name c.folded > c.got
	by_name "$corpus/$f.py.nosym.folded" > c.exp
	compare_text c.exp c.got "$f: the samples of each thread name"
done
echo "threads named as perf names them"
exit 0
