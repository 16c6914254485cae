#!/bin/sh
# SPDX-License-Identifier: MIT
# The format: --format chooses it, else OUTPUT's suffix (.pb.gz and .pb
# pprof, .folded folded, anything else gperftools), and the filters,
# --split and several inputs work with each.  The folded stacks of
# committed fixtures equal perf's own stackcollapse.py output for them
# (testdata/NAME.perf.data.folded, made with no binaries to read: every
# user frame [unknown]; here too the binaries are hidden with an empty
# --symfs and HOME).  Where Go's pprof is installed, it reads the pprof
# outputs; else only their gzip magic is checked.  perf_to_profile takes
# pprof's options and writes into the file pprof made.
. "${top_srcdir:-$(dirname "$0")/..}/tests/test-subr.sh"

multi=$(testfile multi.perf.data)
threads=$(testfile threads.perf.data)
forkexec=$(testfile forkexec.perf.data)
mkdir empty
HOME=$test_dir/empty
export HOME
P2G="$PERF2GPERF -q --symfs=empty --folded-style=perf"

# kind FILE: what FILE holds
kind() {
	if [ "$(head -c 2 "$1" | od -An -tx1 | tr -d ' ')" = 1f8b ]; then
		echo pprof
	elif "$GPERFCHECK" -q "$1" > /dev/null 2>&1; then
		echo gperftools
	elif grep -q -v -E '^[^ ].* [0-9]+$' "$1"; then
		echo other
	else
		echo folded
	fi
}

# expect_kind FILE KIND
expect_kind() {
	got=$(kind "$1")
	[ "$got" = "$2" ] || fail "$1 holds $got, not $2"
}

for out in a.pb.gz:pprof b.pb:pprof c.folded:folded d.prof:gperftools \
	   e:gperftools f.pb.gz.old:gperftools; do
	check_exit 0 $P2G "$multi" ${out%%:*}
	expect_kind ${out%%:*} ${out#*:}
done
# --format wins over the suffix
check_exit 0 $P2G --format=gperftools "$multi" g.pb.gz
expect_kind g.pb.gz gperftools
check_exit 0 $P2G -f folded "$multi" h.prof
expect_kind h.prof folded
check_exit 0 $P2G --format pprof "$multi" i.folded
expect_kind i.folded pprof
check_exit 2 $P2G --format=svg "$multi" j
check_grep "--format: 'svg' is not gperftools, pprof or folded"

# perf's own folded stacks
check_exit 0 $P2G "$multi" multi.folded
compare_text "$multi.folded" multi.folded "perf2gperf multi.perf.data"
check_exit 0 $P2G --include-pid --include-tid "$threads" threads.folded
compare_text "$threads.folded" threads.folded "perf2gperf threads.perf.data"
check_exit 0 $P2G --include-pid "$forkexec" forkexec.folded
compare_text "$forkexec.folded" forkexec.folded \
	"perf2gperf forkexec.perf.data"
check_exit 2 $P2G --no-comm --include-pid "$multi" x.folded

# a filter: one thread of three
tid=$(sed -n '2s/^threads-[0-9]*\/\([0-9]*\);.*/\1/p' "$threads.folded")
check_exit 0 $P2G --include-pid --include-tid -t $tid "$threads" one.folded
grep "/$tid;" "$threads.folded" > one.exp
compare_text one.exp one.folded "perf2gperf -t $tid"

# --split: a file per process, in the format of the pattern's suffix
check_exit 0 $P2G --split --include-pid "$forkexec" 'split-%p.folded'
n=0
for f in split-*.folded; do
	n=$((n + 1))
	pid=${f#split-}
	pid=${pid%.folded}
	grep -e "-$pid;" "$forkexec.folded" > split.exp
	compare_text split.exp $f "perf2gperf --split ($f)"
done
[ $n -eq $(wc -l < "$forkexec.folded") ] ||
	fail "--split wrote $n files for $(wc -l < "$forkexec.folded") processes"
check_exit 0 $P2G --split "$forkexec" 'split-%p.pb.gz'
for f in split-*.pb.gz; do
	expect_kind $f pprof
done

# several inputs: their lines together (one process each, pids apart)
check_exit 0 $P2G --include-pid -o both.folded "$multi" "$forkexec"
sed 's/^multi;/multi-MULTI;/' "$multi.folded" > both.tmp
pid=$(sed -n 's/^multi-\([0-9]*\);.*/\1/p' both.folded | head -n 1)
[ -n "$pid" ] || fail "no multi-PID line in both.folded"
sed "s/MULTI/$pid/" both.tmp | cat - "$forkexec.folded" | sort > both.exp
compare_text both.exp both.folded "perf2gperf -o both.folded (2 inputs)"

# perf_to_profile, as pprof runs it: -f to replace OUTPUT, which it
# writes in place (pprof reads the file it made through its own handle)
p2p=$top_builddir/src/perf_to_profile
[ -x "$p2p" ] || hard_error "$p2p is not built"
: > made.pb.gz
ino=$(ls -i made.pb.gz | cut -d' ' -f1)
check_exit 2 "$p2p" -i "$multi" -o made.pb.gz
check_grep "made.pb.gz exists (-f replaces it)"
check_exit 0 "$p2p" -i "$multi" -o made.pb.gz -f
expect_kind made.pb.gz pprof
[ "$(ls -i made.pb.gz | cut -d' ' -f1)" = "$ino" ] ||
	fail "perf_to_profile replaced its OUTPUT rather than writing into it"
check_exit 2 "$p2p" "$multi" x.pb.gz
for h in -h --help; do
	check_exit 0 "$p2p" $h
	check_grep "Usage: perf_to_profile -i INPUT -o OUTPUT [-f]" out
done
for v in -V --version; do
	check_exit 0 "$p2p" $v
	check_grep "perf_to_profile (perf2gperf) " out
done
check_exit 2 "$p2p" --bogus
check_grep "unrecognized option '--bogus'"

if have go && go_env &&
   go tool pprof -h > /dev/null 2>&1; then
	for f in a.pb.gz b.pb i.folded; do
		go tool pprof -raw "$f" > $f.raw 2> $f.err || {
			cat $f.err >&2
			fail "go tool pprof cannot read $f"
		}
		grep -q '^samples/count cpu/nanoseconds$' $f.raw ||
			fail "$f: not the sample types samples/count cpu/nanoseconds"
	done
else
	echo "note: no go tool pprof; pprof outputs checked by their magic only"
fi
