#!/bin/sh
# SPDX-License-Identifier: MIT
# Files that are not regular files, where the tools write or read
# (doc/perf2gperf.1, FILES; doc/gperfcheck.1):
#  - an OUTPUT that is a FIFO or a character device is written into, as
#    cp does, never replaced by a regular file; a symbolic link is
#    followed and kept, the file it names replaced; a directory is
#    refused (exit 2), and so is an empty OUTPUT, before any input is
#    read;
#  - a file of a perf.data directory that is a FIFO, a link to
#    /dev/stdin or a directory is refused (exit 1) with a message naming
#    it, never opened and waited on;
#  - gperfcheck does not open a file of the maps text that is a FIFO.
# Only files made here are used (a FIFO, a device node made with mknod,
# links): never anything under /dev.  A tool that waited on a FIFO
# would wait forever: `timeout` turns that into a failure; a run that
# passes never waits.
. "${top_srcdir:-$(dirname "$0")/..}/tests/test-subr.sh"

need_cmd mkfifo timeout
hot=$(testfile hot.perf.data)
dir=$TESTDATA/threads-dir.perf.data

# guarded CMD...: CMD, ended (exit 124) if it still runs after 5
# minutes: it would wait forever on a FIFO
guarded() {
	timeout 300 "$@"
}

check_exit 0 "$PERF2GPERF" -q "$hot" ref.prof

# --- OUTPUT a FIFO: written into.  The shell holds it open for reading
# and writing, so that perf2gperf's open never waits; the profile is
# smaller than a FIFO's buffer.
mkfifo out.fifo
exec 3<> out.fifo
check_exit 0 guarded "$PERF2GPERF" -q "$hot" out.fifo
[ -p out.fifo ] || fail "the FIFO was replaced"
head -c "$(wc -c < ref.prof)" <&3 > got.prof
exec 3>&-
cmp ref.prof got.prof || fail "what went through the FIFO is not the profile"
for f in out.fifo.tmp*; do
	[ -e "$f" ] && fail "temporary file left behind: $f"
done

# --- OUTPUT a character device (the null device, made here; usable only
# where the file system allows devices)
if mknod null c 1 3 2> /dev/null && ( : > null ) 2> /dev/null; then
	check_exit 0 "$PERF2GPERF" -q "$hot" null
	[ -c null ] || fail "the device node was replaced"
	for f in null.tmp*; do
		[ -e "$f" ] && fail "temporary file left behind: $f"
	done
else
	echo "note: no usable device node here; device node output not tested"
fi

# --- OUTPUT a symbolic link: the link is kept, its target replaced
# (through a temporary file in the target's directory)
mkdir sub
echo old > sub/target.prof
ln -s sub/target.prof link.prof
check_exit 0 "$PERF2GPERF" -q "$hot" link.prof
[ -L link.prof ] || fail "the symbolic link was replaced"
cmp ref.prof sub/target.prof || fail "the link's target is not the profile"
# a chain of links, relative to each link's own directory
ln -s ../link.prof sub/link2.prof
rm sub/target.prof
check_exit 0 "$PERF2GPERF" -q "$hot" sub/link2.prof
[ -L sub/link2.prof ] && [ -L link.prof ] || fail "a link of the chain was replaced"
cmp ref.prof sub/target.prof || fail "a dangling link's target was not created"
ls sub link.prof > listing
grep -q tmp listing && fail "temporary file left behind: $(cat listing)"
# a link to a FIFO: written into the FIFO
mkfifo sub/f.fifo
ln -s sub/f.fifo fifolink.prof
exec 3<> sub/f.fifo
check_exit 0 guarded "$PERF2GPERF" -q "$hot" fifolink.prof
[ -p sub/f.fifo ] && [ -L fifolink.prof ] || fail "the link or its FIFO was replaced"
head -c "$(wc -c < ref.prof)" <&3 > got.prof
exec 3>&-
cmp ref.prof got.prof || fail "what went through the linked FIFO is not the profile"

# --- OUTPUT a directory, or empty: refused
mkdir outdir
check_exit 2 "$PERF2GPERF" -q "$hot" outdir
check_grep "perf2gperf: outdir: is a directory"
[ -z "$(ls -A outdir)" ] || fail "something was written in outdir"
# refused before the input is read: a missing input is not reported
check_exit 2 "$PERF2GPERF" no-such-input.data ""
check_grep "perf2gperf: OUTPUT is an empty name"
check_exit 2 "$PERF2GPERF" -o "" no-such-input.data
check_grep "perf2gperf: OUTPUT is an empty name"

# --- a perf.data directory whose data.1 is not a regular file
if [ -f "$dir/data" ] && [ -f "$dir/data.1" ]; then
	# copy_dir NAME: a copy of the fixture directory as NAME
	copy_dir() {
		cp -r "$dir" "$1"
		chmod -R u+w "$1"
		rm "$1/data.1"
	}
	copy_dir fifodir
	mkfifo fifodir/data.1
	# a writer that never writes: a blocking open would succeed, and the
	# reading then wait forever
	exec 3<> fifodir/data.1
	check_exit 1 guarded "$PERF2GPERF" fifodir fifodir.prof
	check_grep "perf2gperf: fifodir: data.1: is a FIFO, not a regular file"
	check_exit 1 guarded "$PERF2GPERF" --info fifodir
	check_grep "perf2gperf: fifodir: data.1: is a FIFO, not a regular file"
	exec 3>&-
	[ ! -e fifodir.prof ] || fail "output written for fifodir"
	# a link to /dev/stdin (read, not written), which is here a FIFO
	# with a writer that never writes
	copy_dir stdindir
	ln -s /dev/stdin stdindir/data.1
	mkfifo in.fifo
	exec 3<> in.fifo
	check_exit 1 guarded "$PERF2GPERF" stdindir stdindir.prof <&3
	check_grep "perf2gperf: stdindir: data.1: is a FIFO, not a regular file"
	exec 3>&-
	copy_dir subdirdir
	mkdir subdirdir/data.1
	check_exit 1 "$PERF2GPERF" subdirdir subdirdir.prof
	check_grep "perf2gperf: subdirdir: data.1: is a directory, not a regular file"
else
	echo "note: no perf.data directory fixture; directory checks skipped"
fi

# --- gperfcheck: a maps line naming a FIFO, with the only PC in it
mkfifo lib.fifo
{
	le64 0; le64 3; le64 0; le64 10000; le64 0
	le64 1; le64 1; le64 $((0x401000))
	le64 0; le64 1; le64 0
	printf '00400000-00500000 r-xp 00000000 00:00 0 %s\n' "$PWD/lib.fifo"
} > fifo.prof
# (no writer: a blocking open of it would wait forever)
for mode in --summary --json "--symbolizable 0" "--expect-function main"; do
	set +e
	# shellcheck disable=SC2086
	guarded "$GPERFCHECK" $mode fifo.prof > out 2> err
	rc=$?
	set -e
	case $rc in
	0|1)	;;
	124)	fail "gperfcheck $mode waited on the FIFO of the maps text" ;;
	*)	fail "gperfcheck $mode: exit $rc: $(cat err)" ;;
	esac
done
[ -p lib.fifo ] || hard_error "lib.fifo is gone"

exit 0
