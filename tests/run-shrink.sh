#!/bin/sh
# SPDX-License-Identifier: MIT
# A regular input is mapped (src/lib/input/input.c): if another process truncates
# it while perf2gperf reads it, the next page read past the new end
# raises SIGBUS.  perf2gperf must then say "INPUT: offset 0xHEX: the file
# shrank while it was read", exit 1 and leave no output, not even a
# temporary file.
#
# Made deterministic without timing: with -o OUT A B, every input is
# opened before any is read, and a file input is mapped when it is opened
# while a named pipe is read to its end when it is opened.  So with A a
# copy of a fixture and B a FIFO, perf2gperf maps A, then waits on B; A
# is truncated then (B seen open in /proc/PID/fd, A still mapped in
# /proc/PID/maps), B is fed and closed, and the reading of A runs into
# the pages that are gone.  The same run
# without the truncation must succeed, so that the failure is the
# truncation's.
# The test watches perf2gperf's own process ($!): no shell between.
P2G_OUTPUT_CHECK=no
. "${top_srcdir:-$(dirname "$0")/..}/tests/test-subr.sh"

need_cmd mkfifo truncate
file=$(testfile multi.perf.data)
pipe=$(testfile multi-pipe.perf.data)
[ -d /proc/self/fd ] || skip "no /proc"

# wait_for WHAT CMD...: poll CMD for up to 60 s (perf2gperf is $pid);
# unless CMD is exited, perf2gperf must not end meanwhile.
wait_for() {
	_wf_what=$1
	shift
	_wf_n=0
	until "$@"; do
		if [ "$1" != exited ] && exited; then
			exec 3>&-
			fail "perf2gperf ended before it $_wf_what: $(cat err)"
		fi
		_wf_n=$((_wf_n + 1))
		if [ $_wf_n -gt 600 ]; then
			kill $pid 2> /dev/null || :
			hard_error "perf2gperf never $_wf_what"
		fi
		sleep 0.1
	done
}

is_mapped() {
	grep -q "/a\.data\$" /proc/$pid/maps 2> /dev/null
}

exited() {
	[ ! -e /proc/$pid ] || grep -q '^[0-9]* (.*) Z' /proc/$pid/stat
}

has_fifo() {
	ls -l /proc/$pid/fd 2> /dev/null | grep -q "b\.fifo\$"
}

mapped_and_waiting() {
	is_mapped && has_fifo
}

# run TRUNCATE: convert a.data and b.fifo into out.prof; with TRUNCATE
# set, a.data is truncated while perf2gperf waits on b.fifo.
run() {
	rm -f a.data b.fifo out.prof out.prof.tmp*
	cp "$file" a.data
	mkfifo b.fifo
	# Opened read-write, the FIFO never blocks this shell, and it has a
	# writer before perf2gperf opens it.
	exec 3<> b.fifo
	"$PERF2GPERF" -q -o out.prof a.data b.fifo > out 2> err 3>&- 4>&- &
	pid=$!
	# Until the child has applied its redirections, it still holds this
	# shell's descriptor of b.fifo: only with a.data mapped too is the
	# open descriptor perf2gperf's own.  Then a.data has been opened and
	# read as far as perfdata_open() reads, and stays mapped.
	wait_for "mapped a.data and opened b.fifo" mapped_and_waiting
	if [ "$1" = yes ]; then
		truncate -s 0 a.data
	fi
	# Fed through a write-only descriptor, this shell no longer reading:
	# should perf2gperf die, cat gets EPIPE instead of waiting for room.
	exec 4> b.fifo 3>&-
	cat "$pipe" >&4 || :
	exec 4>&-
	wait_for "ended" exited
	set +e
	wait $pid
	rc=$?
	set -e
}

run no
[ $rc = 0 ] || fail "without truncation: exit $rc: $(cat err)"
[ -s out.prof ] || fail "without truncation: no profile"
"$GPERFCHECK" -q out.prof || fail "without truncation: a bad profile"

run yes
[ $rc = 1 ] || fail "a truncated input gives exit $rc, not 1: $(cat err)"
grep -q "^perf2gperf: a\.data: offset 0x[0-9a-f]*: the file shrank while it was read\$" err ||
	fail "no message that a.data shrank: $(cat err)"
[ ! -e out.prof ] || fail "an output was left behind"
for f in out.prof.tmp*; do
	[ -e "$f" ] && fail "temporary file left behind: $f"
done
exit 0
