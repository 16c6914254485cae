#!/bin/sh
# SPDX-License-Identifier: MIT
# Signals (doc/perf2gperf.1 and doc/gperfcheck.1, SIGNALS), each made to
# arrive at an exact point of a run by tests/onsyscall (ptrace: no sleeps,
# no races):
#  - SIGBUS: a mapped input truncated to one page right after it is
#    mapped, under --info (a pipe-mode file, read through the mapping
#    from its start) and in a conversion, ends perf2gperf with exit 1
#    and one line "perf2gperf: INPUT: offset 0xHEX: the file shrank
#    while it was read", leaving no output and no temporary file; a gzip
#    input, mapped when it is opened, is read (not through the mapping)
#    as it is inflated: truncated, it ends with "gzip data ends early";
#  - gperfcheck reads the binaries of the maps text without mapping them:
#    one truncated when it would have been mapped does not kill it;
#  - SIGXFSZ: past `ulimit -f`, the write fails with EFBIG and perf2gperf
#    exits 2 naming the file, with no temporary file left (the output
#    and, for a gzip input, the spool file in $TMPDIR);
#  - the signals that end a process by default end perf2gperf by that
#    signal, but only once the temporary output file is removed (the
#    signal arrives as the file is created); one ignored when perf2gperf
#    starts (nohup) stays ignored.
# Signals go to perf2gperf's own process, traced by onsyscall: no shell
# between; the profiles written whole are checked here instead.
P2G_OUTPUT_CHECK=no
. "${top_srcdir:-$(dirname "$0")/..}/tests/test-subr.sh"

need_cmd gzip
hot=$(testfile hot.perf.data)
pipe=$(testfile multi-pipe.perf.data)
dwarfgz=$(testfile dwarfprog.perf.data.gz)
recurse=$(testfile recurse.perf.data)
ONSYSCALL=$top_builddir/tests/onsyscall
[ -x "$ONSYSCALL" ] || hard_error "$ONSYSCALL is not built"
[ -d /proc/self/fd ] || skip "no /proc"

# Can this machine trace a child at all?
set +e
"$ONSYSCALL" open "$PWD/never" signal=TERM -- true 2> probe.err
rc=$?
set -e
[ $rc = 77 ] && skip "cannot trace here: $(cat probe.err)"
[ $rc = 0 ] || hard_error "onsyscall does not work: exit $rc: $(cat probe.err)"

page=$(getconf PAGESIZE)

# no_leftovers: fail if a temporary output file is here
no_leftovers() {
	for f in *.tmp* perf2gperf-spool-*; do
		[ -e "$f" ] && fail "temporary file left behind: $f"
	done
	:
}

# shrunk NAME [WHAT]: onsyscall acted, and the one line of a message
# for NAME is "offset 0xHEX: WHAT" (by default, that the file shrank)
shrunk() {
	_what=${2:-the file shrank while it was read}
	grep -q "^onsyscall: acted at " err ||
		hard_error "$1 was never mapped: $(cat err)"
	grep -v "^onsyscall: " err > msg || :
	grep -q "^perf2gperf: $1: offset 0x[0-9a-f]*: $_what\$" msg ||
		fail "no message \"$_what\" for $1: $(cat err)"
	[ "$(wc -l < msg)" = 1 ] || fail "more than the one line: $(cat msg)"
}

# The inputs must go on past their first page.
[ "$(wc -c < "$pipe")" -gt $((2 * page)) ] &&
[ "$(wc -c < "$dwarfgz")" -gt $((2 * page)) ] ||
	skip "pages of $page bytes: the inputs fit in two"

# --- SIGBUS under --info
cp "$pipe" info.data
check_exit 1 "$ONSYSCALL" mmap info.data truncate=page -- \
	"$PERF2GPERF" --info info.data
shrunk info.data

# --- a gzip input truncated once mapped
cp "$dwarfgz" in.gz
TMPDIR=$PWD check_exit 1 "$ONSYSCALL" mmap in.gz truncate=page -- \
	"$PERF2GPERF" in.gz gz.prof
shrunk in.gz "gzip data ends early"
[ ! -e gz.prof ] || fail "an output was left for a truncated gzip input"
no_leftovers

# --- SIGBUS in a conversion
cp "$pipe" conv.data
check_exit 1 "$ONSYSCALL" mmap conv.data truncate=page -- \
	"$PERF2GPERF" conv.data conv.prof
shrunk conv.data
[ ! -e conv.prof ] || fail "an output was left after SIGBUS"
no_leftovers

# --- gperfcheck and a binary of the maps text that shrinks: the profile
# names a copy of perf2gperf (whose symbol table lies past its first
# page) with its one PC in it
cp "$top_builddir/src/perf2gperf" bin
{
	le64 0; le64 3; le64 0; le64 10000; le64 0
	le64 1; le64 1; le64 $((0x400100))
	le64 0; le64 1; le64 0
	printf '00400000-10400000 r-xp 00000000 00:00 0 %s\n' "$PWD/bin"
} > bin.prof
for mode in --summary "--symbolizable 0"; do
	set +e
	# shellcheck disable=SC2086
	"$ONSYSCALL" mmap bin truncate=page -- "$GPERFCHECK" $mode bin.prof \
		> out 2> err
	rc=$?
	set -e
	[ $rc -le 1 ] || fail "gperfcheck $mode: exit $rc: $(cat err)"
	cp "$top_builddir/src/perf2gperf" bin
done

# --- SIGXFSZ: a file size limit of one block (ulimit -f counts 512- or
# 1024-byte blocks), far below the profile's size
check_exit 0 "$PERF2GPERF" -q "$recurse" big.ref
check_exit 0 "$GPERFCHECK" -q big.ref
[ "$(wc -c < big.ref)" -gt 4096 ] || hard_error "big.ref is too small"
check_exit 2 sh -c 'ulimit -f 1 && exec "$@"' sh "$PERF2GPERF" -q "$recurse" big.prof
check_grep "perf2gperf: big.prof: write: File too large"
[ ! -e big.prof ] || fail "an output was left past the size limit"
no_leftovers
# the spool of a gzip input, in $TMPDIR
TMPDIR=$PWD check_exit 2 sh -c 'ulimit -f 1 && exec "$@"' sh "$PERF2GPERF" -q "$dwarfgz" big.prof
check_grep "cannot write the spooled input to $PWD: File too large"
[ ! -e big.prof ] || fail "an output was left past the size limit"
no_leftovers

# --- the signals that end the process: the temporary file goes first.
# Not under a wrapper: valgrind takes a pending signal itself (it polls
# with sigtimedwait), so the tracer never sees it delivered.
if [ -n "${P2G_WRAPPER:-}" ]; then
	echo "note: under $P2G_WRAPPER; the ending signals are not tested"
	exit 0
fi
check_exit 0 "$PERF2GPERF" -q "$hot" ref.prof
check_exit 0 "$GPERFCHECK" -q ref.prof
for sig in HUP INT QUIT TERM PIPE ALRM USR1 USR2 XCPU VTALRM; do
	set +e
	"$ONSYSCALL" open "$PWD/sig.prof.tmp" signal=$sig -- \
		"$PERF2GPERF" -q "$hot" sig.prof > out 2> err
	rc=$?
	set -e
	grep -q "^onsyscall: acted at $PWD/sig.prof.tmp" err ||
		hard_error "SIG$sig was not sent: exit $rc: $(cat err)"
	[ $rc -gt 128 ] && [ "$(kill -l $((rc - 128)))" = "$sig" ] ||
		fail "SIG$sig: exit $rc, not an end by SIG$sig: $(cat err)"
	[ ! -e sig.prof ] || fail "SIG$sig: an output was left"
	no_leftovers
	rm -f core core.*
done
# ignored from the start: the conversion goes on
check_exit 0 sh -c 'trap "" HUP && exec "$@"' sh \
	"$ONSYSCALL" open "$PWD/sig.prof.tmp" signal=HUP:inherit -- \
	"$PERF2GPERF" -q "$hot" sig.prof
cmp ref.prof sig.prof || fail "with SIGHUP ignored, a different profile"
no_leftovers

exit 0
