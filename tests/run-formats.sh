#!/bin/sh
# SPDX-License-Identifier: MIT
# Input forms other than a plain perf.data file, and the output byte
# order (doc/perf2gperf.1, DESCRIPTION, --byte-order and LIMITATIONS):
#  - gzip: a gzip-compressed fixture, from a file and from standard input,
#    file and pipe mode, converts to the very bytes the plain file gives;
#    so do two gzip members of one file; a cut gzip file and a corrupt one
#    fail (exit 1) naming the offset; gzip of something else is "not a
#    perf.data file";
#  - pipe mode with text after the last record (perf's own messages, when
#    stderr went into the same file) converts as without it, with a
#    warning naming the offset where the text starts;
#  - a perf.data directory: a data.N file cut inside a record fails
#    (exit 1) naming DIR/data.N and the offset of that record, with and
#    without --info, and is read to there with a warning when the header
#    says perf did not finish (data size 0); the output may not be one of its files (exit 2,
#    the file untouched); 41 files (tests/deal) convert as the 2 they
#    were dealt from, under a soft limit of 30 open files; a directory
#    whose header file has no data.N beside it is read with a warning;
#  - --byte-order: big writes the same profile as little, every slot
#    byte-swapped; native is little on a little-endian machine; the
#    default is the byte order of the recording (little for the
#    fixtures; run-cross-endian.sh covers big-endian recordings); a bad
#    value is a usage error.
# The zstd fixtures (perf record -z) are in run-convert-fixtures.sh, with
# perf's own reading as the oracle; tests/unit/test-zstream.c covers
# records split across compressed records, corrupt data and bombs.
. "${top_srcdir:-$(dirname "$0")/..}/tests/test-subr.sh"
need_cmd gzip od

multi=$(testfile multi.perf.data)
pipe=$(testfile multi-pipe.perf.data)

# --- gzip
check_exit 0 "$PERF2GPERF" -q "$multi" plain.prof
gzip -c < "$multi" > multi.gz
check_exit 0 "$PERF2GPERF" -q multi.gz gz.prof
cmp plain.prof gz.prof || fail "gzip input converts differently"
check_exit 0 sh -c '"$1" -q - gzin.prof < "$2"' sh "$PERF2GPERF" multi.gz
cmp plain.prof gzin.prof || fail "gzip on standard input converts differently"
check_exit 0 "$PERF2GPERF" -q "$pipe" pplain.prof
gzip -c < "$pipe" > pipe.gz
check_exit 0 sh -c '"$1" -q - pgz.prof < "$2"' sh "$PERF2GPERF" pipe.gz
cmp pplain.prof pgz.prof || fail "gzipped pipe-mode input converts differently"
# two members: gzip reads them as one stream
size=$(wc -c < "$multi")
half=$((size / 2))
head -c $half "$multi" | gzip -c > two.gz
tail -c +$((half + 1)) "$multi" | gzip -c >> two.gz
gzip -dc < two.gz | cmp - "$multi" || hard_error "two-member gzip is wrong"
check_exit 0 "$PERF2GPERF" -q two.gz two.prof
cmp plain.prof two.prof || fail "two-member gzip input converts differently"
# cut: the offset is where the compressed data ends
gzsize=$(wc -c < multi.gz)
head -c $((gzsize / 2)) multi.gz > cut.gz
check_exit 1 "$PERF2GPERF" cut.gz cut.prof
check_grep "cut.gz: offset 0x$(printf %x $((gzsize / 2))): gzip data ends early"
[ ! -e cut.prof ] || fail "output written for a cut gzip input"
# corrupt: a block type that does not exist (first byte after the header
# with both type bits set)
cp multi.gz bad.gz
printf '\377' | dd of=bad.gz bs=1 seek=10 conv=notrunc 2>/dev/null
check_exit 1 "$PERF2GPERF" bad.gz bad.prof
check_grep "bad.gz: offset 0x"
check_grep "gzip data is corrupt"
echo "just text" | gzip -c > text.gz
check_exit 1 "$PERF2GPERF" text.gz text.prof
check_grep "not a perf.data file"

# --- pipe mode with text appended
cp "$pipe" text.data
printf '[ perf record: Woken up 1 times to write data ]\n' >> text.data
check_exit 0 "$PERF2GPERF" text.data text.prof
cmp pplain.prof text.prof || fail "text after the records changed the output"
check_grep "text.data: offset 0x$(printf %x $(wc -c < "$pipe")): warning: text after the last record; ignored"

# --- perf.data directories
dir=$TESTDATA/threads-dir.perf.data
if [ -f "$dir/data" ] && [ -f "$dir/data.1" ]; then
	cp -r "$dir" cutdir
	chmod -R u+w cutdir
	# cut data.1 inside its last record: find that record's offset
	n=$(wc -c < cutdir/data.1)
	off=0
	while [ $off -lt $n ]; do
		rsize=$(od -A n -t u2 -j $((off + 6)) -N 2 cutdir/data.1 | tr -d ' ')
		[ $((off + rsize)) -lt $n ] || break
		off=$((off + rsize))
	done
	head -c $((off + 10)) "$dir/data.1" > cutdir/data.1
	check_exit 1 "$PERF2GPERF" cutdir cut.prof
	check_grep "cutdir/data.1: offset 0x$(printf %x $off): record runs past the end"
	[ ! -e cut.prof ] || fail "output written for a cut directory"
	check_exit 1 "$PERF2GPERF" --info cutdir
	check_grep "cutdir/data.1: offset 0x$(printf %x $off): record runs past the end"
	# perf killed: the header's data size is 0, nothing follows the data
	# (no feature is written), and any file may end inside a record
	dstart=$(od -A n -t u8 -j 40 -N 8 cutdir/data | tr -d ' ')
	dsize=$(od -A n -t u8 -j 48 -N 8 cutdir/data | tr -d ' ')
	head -c $((dstart + dsize)) "$dir/data" > cutdir/data
	dd if=/dev/zero of=cutdir/data bs=1 seek=48 count=8 conv=notrunc 2> /dev/null
	dd if=/dev/zero of=cutdir/data bs=1 seek=72 count=32 conv=notrunc 2> /dev/null
	check_exit 0 "$PERF2GPERF" cutdir killed.prof
	check_grep "cutdir: offset 0x30: warning: data size is 0"
	check_grep "cutdir/data.1: offset 0x$(printf %x $off): warning: data ends inside a record"
	# the output may not replace any of the directory's files
	cp "$dir/data.1" data1.copy
	check_exit 2 "$PERF2GPERF" "$dir" "$dir/data.1"
	check_grep "output is an input file"
	cmp "$dir/data.1" data1.copy || fail "the output replaced DIR/data.1"
	# every file is open at once: 41 files convert with a soft limit of
	# 30 open files (raised to the hard limit, as perf does)
	DEAL=$top_builddir/tests/deal
	[ -x "$DEAL" ] || hard_error "$DEAL is not built"
	mkdir dealt
	"$DEAL" "$dir" dealt 20 2 || hard_error "tests/deal failed"
	check_exit 0 "$PERF2GPERF" -q "$dir" whole.prof
	# (not under a wrapper: valgrind keeps the limit for itself)
	hard=$(ulimit -H -n)
	if [ -z "${P2G_WRAPPER:-}" ] && (ulimit -S -n 30) 2> /dev/null &&
	   { [ "$hard" = unlimited ] || [ "$hard" -ge 64 ]; }; then
		check_exit 0 sh -c 'ulimit -S -n 30 && "$1" -q dealt dealt.prof' \
			sh "$PERF2GPERF"
		"$GPERFCHECK" --compare-stacks whole.prof dealt.prof > /dev/null ||
			fail "41 files dealt from threads-dir convert differently"
	fi
	# only the header file
	mkdir onlyhead
	cp "$dir/data" onlyhead/data
	check_exit 1 "$PERF2GPERF" onlyhead onlyhead.prof
	check_grep "no data.0 file"
else
	echo "note: no perf.data directory fixture; directory checks skipped"
fi

# --- byte order
check_exit 0 "$PERF2GPERF" -q --byte-order little "$multi" le.prof
cmp plain.prof le.prof || fail "--byte-order little differs from the default"
check_exit 0 "$PERF2GPERF" -q --byte-order native "$multi" native.prof
if [ "$(printf '\001\000' | od -A n -t u2 | tr -d ' ')" = 1 ]; then
	cmp le.prof native.prof || fail "--byte-order native is not little here"
fi
check_exit 0 "$PERF2GPERF" -q --byte-order big "$multi" be.prof
check_exit 0 "$GPERFCHECK" --summary be.prof
check_grep "64-bit big-endian" out
# every 8-byte slot of the binary part swapped, the maps text the same
slots=$(($(od -A n -t u8 -v le.prof | wc -w)))
od -A n -t x1 -v le.prof | tr -s ' \n' '\n\n' | sed '/^$/d' > le.bytes
od -A n -t x1 -v be.prof | tr -s ' \n' '\n\n' | sed '/^$/d' > be.bytes
[ "$(wc -l < le.bytes)" = "$(wc -l < be.bytes)" ] || fail "--byte-order big changed the size"
awk 'NR == FNR { le[FNR] = $0; next }
	{ be[FNR] = $0 }
	END {
		# binary part: up to the trailer 0 1 0 (three slots)
		for (i = 1; i + 24 <= FNR; i += 8) {
			for (k = 0; k < 8; k++)
				if (le[i + k] != be[i + 7 - k]) { print "slot at byte " i - 1; exit 1 }
			if (le[i] == "00" && le[i + 8] == "01" && le[i + 16] == "00") {
				z = 1
				for (k = 1; k < 8; k++)
					if (le[i + k] != "00" || le[i + 16 + k] != "00" || le[i + 8 + k] != "00") z = 0
				if (z) { end = i + 24; break }
			}
		}
		if (!end) { print "no trailer"; exit 1 }
		for (i = end; i <= FNR; i++)
			if (le[i] != be[i]) { print "maps byte " i - 1; exit 1 }
	}' le.bytes be.bytes > swap.diff || fail "big-endian profile is not the little one swapped: $(cat swap.diff)"
[ "$slots" -gt 0 ] || hard_error "od read nothing"
check_exit 2 "$PERF2GPERF" --byte-order middle "$multi" x.prof
check_grep "--byte-order: 'middle' is not little, big or native"

exit 0
