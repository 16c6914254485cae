#!/bin/sh
# SPDX-License-Identifier: MIT
# Every fixture as a big-endian machine would have recorded it, with perf
# as the oracle.  tests/perfswap (its own tables of every layout, sharing
# no code with the library; see perfswap.c) writes each
# testdata/*.perf.data - file, pipe and directory form, -z included when
# the zstd program is there - with every field big-endian.  Then:
#  1. perfswap swapped every record and feature (it drops and counts what
#     it cannot swap; nothing of the fixtures may be dropped);
#  2. (in the live tier) perf reads the swapped file as it reads the
#     original: the same stacks (testdata/perf-stacks.py, compared with
#     NAME.perf.data.expected, perf's reading of the original) and, for
#     file-mode inputs, the same
#     `perf report -D` listing of every record and its fields, the same
#     header (perf report --header-only -I: every feature) and the same
#     `perf script` text with task and mmap events (tracepoint fields
#     decoded from RAW).  This vouches for perfswap;
#  3. perf2gperf --info says big-endian and otherwise what it says of the
#     original;
#  4. for every (event, pid) of the oracle, and with no selection:
#     perf2gperf --no-fixup of the swapped file writes a big-endian profile
#     (gperfcheck --summary; header slot 1 is 3 in big-endian order) that
#     holds perf's stacks and dumps (gperfcheck --dump) exactly as the
#     profile of the original does, mappings and build ids included; with
#     --byte-order little it is byte for byte the original's profile;
#  5. a pipe-mode file reads the same from standard input.
#
# Known gaps of perf 6.1's reading of big-endian files, stepped around
# here (each is perf's, not perfswap's; perf2gperf's reading of MMAP2
# prot, in the maps of step 4, agrees with the original):
#  - MMAP2 prot and flags are not swapped (perf prints ---p): the perms of
#    MMAP2 lines are not compared;
#  - EVENT_UPDATE payloads are not swapped (scale): "... scale:" lines are
#    not compared;
#  - in pipe mode, the events of HEADER_ATTR records are not marked as
#    swapped (perf_event__process_attr never sets evsel->needs_swap), so
#    perf reads the u32 pairs of samples (pid/tid, cpu/res) exchanged and
#    cannot parse RAW; and HEADER_FEATURE records are not swapped, so the
#    features (the compressed feature's mmap size among them) are lost.
#    For pipe mode perf's stacks are compared without the pid, and where
#    perf cannot read the file at all (RAW, -z) the perf2gperf checks are
#    made against the original's oracle only.  The -D, header and script
#    comparisons are made for file-mode inputs only.
. "${top_srcdir:-$(dirname "$0")/..}/tests/test-subr.sh"
. "$top_srcdir/tests/stacks.sh"

PERFSWAP=$top_builddir/tests/perfswap
[ -x "$PERFSWAP" ] || hard_error "$PERFSWAP is not built"
# perf is the oracle of step 2, in the live tier; steps 1 and 3-5 check
# perf2gperf against the original's reading without it
have_perf=no
if have perf && perf version > /dev/null 2>&1; then
	have_perf=yes
fi
stacks_py=$(testfile perf-stacks.py)

if "$PERF2GPERF" --help | grep -q -e '--byte-order'; then
	byte_order=yes
else
	# TODO: once perf2gperf has --byte-order, check that --byte-order
	# little of a swapped file is byte for byte the original's profile.
	byte_order=no
	echo "TODO: perf2gperf has no --byte-order: little-endian output of" \
		"big-endian input not checked"
fi

# perf_stacks DATA OUT: perf's stacks of DATA, sorted as the oracles are.
perf_stacks() {
	rm -f "$2.unsorted"
	PERF_STACKS_OUT=$2.unsorted perf script -i "$1" --no-inline \
		-s "$stacks_py" > perf.out 2> perf.err || return 1
	[ -f "$2.unsorted" ] || return 1
	LC_ALL=C sort -t "$TAB" -k3,3 -k4,4n -k5,5 "$2.unsorted" > "$2"
}

# perf_dump DATA OUT: `perf report -D` without what differs by byte order
# or by file name: the hex dumps of the raw records, the file names; and
# perf 6.1's gaps (MMAP2 perms, EVENT_UPDATE scale).  With a third
# argument, file offsets and record sizes too (recompressed data).
perf_dump() {
	perf report -D -i "$1" 2> perf.err |
		sed -e '/^\.  [0-9a-f][0-9a-f][0-9a-f][0-9a-f]:  /d' \
		    -e '/^\.\.\. scale: /d' \
		    -e 's/^\(0x[0-9a-f]*\)@[^ ]* /\1@FILE /' \
		    -e 's/^0@[^ ]* /0@FILE /' \
		    -e 's/^\(.*PERF_RECORD_MMAP2 .*\]: \)[-r][-w][-x][-ps] /\1PERMS /' \
		> "$2.tmp"
	if [ -n "$3" ]; then
		sed -e 's/^0x[0-9a-f]*@FILE \[0x[0-9a-f]*\]/OFF@FILE [SIZE]/' \
		    -e 's/ 0x[0-9a-f]* \[0x[0-9a-f]*\]: \(PERF_\)/ OFF [SIZE]: \1/' \
		    -e '/^\. \.\.\. raw event: size [0-9]* bytes$/d' \
			"$2.tmp" > "$2"
	else
		mv "$2.tmp" "$2"
	fi
}

# perf_header DATA OUT: every feature as perf prints it, without the file
# time; perf's notes on stderr (bpf_prog_info of another byte order) out.
perf_header() {
	perf report --header-only -I -i "$1" 2> perf.err |
		sed -e '/^# captured on/d' > "$2"
}

# perf_text DATA OUT: perf script with task and mmap events.
perf_text() {
	perf script --show-task-events --show-mmap-events -i "$1" \
		2> perf.err |
		sed -e 's/^\(.*PERF_RECORD_MMAP2 .*\]: \)[-r][-w][-x][-ps] /\1PERMS /' \
		> "$2"
}

# no_sizes FILE...: leave out the data size and feature offset lines of
# header listings (recompressed data has other sizes).
no_sizes() {
	for _ns_f in "$@"; do
		sed -e '/^# data size/d' -e '/^# feat offset/d' "$_ns_f" \
			> "$_ns_f.tmp"
		mv "$_ns_f.tmp" "$_ns_f"
	done
}

# be_header PROF: fail unless the profile's header is big-endian (64-bit
# slots: slot 1, the header size 3, ends in 03).
be_header() {
	set -- "$1" "$(od -An -tx1 -j8 -N8 "$1" | tr -d ' \n')"
	[ "$2" = 0000000000000003 ] ||
		fail "$1: header slot 1 is $2, not a big-endian 3"
}

# The swapped hot.perf.data must be readable by perf at all.
hot=$(testfile hot.perf.data)
check_exit 0 "$PERFSWAP" "$hot" probe.be
[ $have_perf = no ] || perf_stacks probe.be probe.stacks ||
	{ cat perf.err >&2; skip "perf cannot read a big-endian perf.data"; }

nfiles=0 nprof=0
for data in "$TESTDATA"/*.perf.data; do
	name=$(basename "$data" .perf.data)
	oracle=$data.expected
	[ -f "$oracle" ] || { echo "$name: no oracle, skipped"; continue; }
	thinned 3 || continue
	be=$name.be
	rm -rf "$be"

	# 1. swap: nothing dropped
	check_exit 0 "$PERFSWAP" "$data" "$be"
	cp err $name.swap.err
	if grep -q 'COMPRESSED.*no zstd program' err; then
		echo "$name: no zstd program to swap compressed records; skipped"
		continue
	fi
	grep -q 'records swapped, 0 dropped; [0-9]* features swapped, 0 dropped$' \
		$name.swap.err || { cat $name.swap.err >&2;
		fail "perfswap left out parts of $name"; }
	nfiles=$((nfiles + 1))
	case $name in
	*-pipe) mode=pipe ;;
	*) mode=file ;;
	esac
	case $name in
	*-z*) recompressed=yes ;;
	*) recompressed= ;;
	esac

	# 2. perf's reading (not under a wrapper: it checks perfswap and
	# perf, not the tools)
	if [ -n "${P2G_WRAPPER:-}" ] || [ $have_perf = no ]; then
		:
	elif [ $mode = file ]; then
		perf_stacks "$be" $name.perf ||
			{ cat perf.err >&2; fail "perf cannot read the swapped $name"; }
		compare_text "$oracle" $name.perf "perf's stacks of the swapped $name"
		perf_dump "$data" $name.D.orig $recompressed
		perf_dump "$be" $name.D.be $recompressed
		compare_text $name.D.orig $name.D.be "perf report -D of the swapped $name"
		perf_header "$data" $name.H.orig
		perf_header "$be" $name.H.be
		[ -z "$recompressed" ] || no_sizes $name.H.orig $name.H.be
		compare_text $name.H.orig $name.H.be "perf's header of the swapped $name"
		perf_text "$data" $name.T.orig
		perf_text "$be" $name.T.be
		compare_text $name.T.orig $name.T.be "perf script of the swapped $name"
		echo "$name: perf reads the swapped file as the original:" \
			"$(wc -l < $name.D.be) lines of -D, $(wc -l < $name.H.be) of header"
	elif perf_stacks "$be" $name.perf; then
		cut -f1,2,3,5 "$oracle" | LC_ALL=C sort > $name.nopid.orig
		cut -f1,2,3,5 $name.perf | LC_ALL=C sort > $name.nopid.be
		compare_text $name.nopid.orig $name.nopid.be \
			"perf's stacks (pid aside) of the swapped $name"
		echo "$name: perf reads the swapped pipe file's stacks as the original's"
	else
		echo "$name: perf 6.1 cannot read this big-endian pipe file" \
			"($(sed -n '/^interpreting/d; p; q' perf.err)); perf2gperf checked" \
			"against the original's oracle"
	fi

	# 3. --info
	check_exit 0 "$PERF2GPERF" --info "$be"
	check_grep "big-endian" out
	sed -e '/^# format/d' out > $name.info.be
	check_exit 0 "$PERF2GPERF" --info "$data"
	sed -e '/^# format/d' out > $name.info.orig
	[ -z "$recompressed" ] || no_sizes $name.info.orig $name.info.be
	compare_text $name.info.orig $name.info.be \
		"perf2gperf --info of the swapped $name"

	# 4. the profiles, per (event, pid) and with no selection
	# Under a wrapper (make check-valgrind) one (event, pid) per file:
	# the memory checks need the code paths, not every selection.
	cut -f3,4 "$oracle" | sort -u |
		if [ -n "${P2G_WRAPPER:-}" ]; then sed 1q; else cat; fi \
		> $name.evpid
	echo "- -" >> $name.evpid
	while read -r ev pid; do
		if [ "$ev" = - ]; then
			set -- --no-fixup
			what="perf2gperf --no-fixup $name"
		else
			set -- --no-fixup -e "$ev" -p "$pid"
			what="perf2gperf --no-fixup -e $ev -p $pid $name"
		fi
		check_exit 0 "$PERF2GPERF" -q "$@" "$be" be.prof
		check_exit 0 "$GPERFCHECK" --summary be.prof
		check_grep "big-endian" out
		be_header be.prof
		check_exit 0 "$GPERFCHECK" --dump be.prof
		sed -e '/^slots /d' out > be.dump
		check_exit 0 "$PERF2GPERF" -q "$@" "$data" orig.prof
		check_exit 0 "$GPERFCHECK" --dump orig.prof
		sed -e '/^slots /d' out > orig.dump
		compare_text orig.dump be.dump "$what (swapped) against the original"
		if [ "$ev" != - ]; then
			stacks_oracle "$oracle" "$ev" "$pid" > want
			stacks_dump be.dump > got
			compare_text want got "$what (swapped) against perf's stacks"
		fi
		if [ $byte_order = yes ]; then
			check_exit 0 "$PERF2GPERF" -q --byte-order little "$@" \
				"$be" le.prof
			cmp le.prof orig.prof ||
				fail "$what --byte-order little (swapped)" \
					"differs from the original's profile"
		fi
		nprof=$((nprof + 1))
	done < $name.evpid

	# 5. standard input
	if [ $mode = pipe ]; then
		check_exit 0 "$PERF2GPERF" -q --no-fixup "$be" file.prof
		check_exit 0 sh -c '"$1" -q --no-fixup - stdin.prof < "$2"' \
			sh "$PERF2GPERF" "$be"
		cmp file.prof stdin.prof ||
			fail "swapped $name read from standard input differs"
	fi
	echo "$name: $(sed -n 's/.*: \([0-9]*\) records swapped.*/\1/p' \
		$name.swap.err) records swapped; perf2gperf agrees"
done
[ $nfiles -gt 0 ] || skip "no fixtures with oracles"
echo "$nfiles big-endian fixtures, $nprof profiles as perf reads them"
exit 0
