#!/bin/sh
# SPDX-License-Identifier: MIT
# A mapped perf.data file is read on a second thread while the first
# converts its records (src/lib/perfdata/reader.c); P2G_NO_THREADS=1
# reads and converts on one thread, as every other input is.  Both must
# give the same bytes:
#  - for every committed recording (testdata/*.perf.data: file and pipe
#    mode, perf.data directories, zstd-compressed records, where the
#    reading thread stops at the first compressed record and leaves the
#    rest to the converting thread), the profile, --split profiles and
#    --stats;
#  - for a record in the middle of the data that is too short (an error
#    at its offset, after the records before it have been converted), the
#    exit status and the messages;
#  - for a file cut inside a record with data.size 0 (read as far as it
#    goes, with a warning from the reading thread), the warnings and the
#    profile.
. "${top_srcdir:-$(dirname "$0")/..}/tests/test-subr.sh"

need_cmd cmp dd

# both NAME ARGS...: run perf2gperf ARGS with and without threads; the
# exit status, stdout, stderr and every NAME.*.prof written must agree.
both() {
	name=$1
	shift
	rm -f "$name".*.prof
	set +e
	"$PERF2GPERF" "$@" > $name.thr.out 2> $name.thr.err
	rc_thr=$?
	for f in "$name".*.prof; do
		[ -e "$f" ] && mv "$f" "thr-$f"
	done
	P2G_NO_THREADS=1 "$PERF2GPERF" "$@" > $name.one.out 2> $name.one.err
	rc_one=$?
	set -e
	[ $rc_thr = $rc_one ] ||
		fail "perf2gperf $*: exit $rc_thr with threads, $rc_one without"
	compare_text $name.one.out $name.thr.out "stdout of perf2gperf $*"
	compare_text $name.one.err $name.thr.err "stderr of perf2gperf $*"
	for f in "$name".*.prof; do
		[ -e "$f" ] || continue
		cmp "$f" "thr-$f" ||
			fail "perf2gperf $*: $f differs with threads"
	done
	rm -f "$name".*.prof thr-"$name".*.prof
}

n=0
for data in "$TESTDATA"/*.perf.data; do
	base=$(basename "$data" .perf.data)
	n=$((n + 1))
	thinned 3 || continue
	both $base -q "$data" $base.all.prof
	both $base-stats -q --stats "$data" $base-stats.all.prof
	both $base-split -q --split -o "$base-split.%p.prof" "$data"
done
[ $n -gt 10 ] || hard_error "only $n recordings in $TESTDATA"

# A record in the middle of the data whose size is less than a header:
# the error names its offset, after the records before it.
data=$(testfile threads.perf.data)
set -- $(od -An -t u8 -j 40 -N 16 "$data")
off=$1
end=$(($1 + $2))
mid=$(($1 + $2 / 2))
while [ $off -lt $mid ]; do
	size=$(od -An -t u2 -j $((off + 6)) -N 2 "$data" | tr -d ' ')
	[ "$size" -ge 8 ] || hard_error "bad record size $size at $off"
	off=$((off + size))
done
cp "$data" bad.data
printf '\004\000' | dd of=bad.data bs=1 seek=$((off + 6)) conv=notrunc \
	2>/dev/null
both bad bad.data bad.x.prof
grep -q "offset $(printf '0x%x' $off): record size 4" bad.thr.err ||
	fail "not the error expected: $(cat bad.thr.err)"

# A file cut inside a record, with data.size 0: read as far as it goes,
# with a warning (from the reading thread) at the cut.
dd if="$data" of=salvage.data bs=$((end - 1000)) count=1 2>/dev/null
dd if=/dev/zero of=salvage.data bs=1 seek=48 count=8 conv=notrunc 2>/dev/null
both salvage salvage.data salvage.x.prof
grep -q "data ends inside a record" salvage.thr.err ||
	fail "no warning in: $(cat salvage.thr.err)"
exit 0
