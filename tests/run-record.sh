#!/bin/sh
# SPDX-License-Identifier: MIT
# perf2gperf record [-o OUTPUT] [PERF-RECORD-OPTIONS] -- CMD [ARGS]:
#  - with a stand-in perf ($PERF) that logs its arguments and writes a
#    committed pipe-mode recording: perf gets 'record -o -', -g and
#    -F 999 unless the options choose a call graph or a rate, then the
#    options, '--' and the command; the profile is byte for byte the
#    conversion of that recording; OUTPUT is -o, else CMD's name + .prof;
#  - Ctrl-C, which perf2gperf leaves to perf: the profile is written;
#  - a perf that fails: its exit status is said, exit 2, no profile;
#  - a perf that cannot be run: exit 2, the reason, and where to get perf
#    when it is not installed;
#  - usage errors: no command, perf options without --;
#  - with the real perf, where it can record: a profile of ./hot that
#    gperfcheck accepts and that names hot_loop.
. "${top_srcdir:-$(dirname "$0")/..}/tests/test-subr.sh"

pipe=$(testfile multi-pipe.perf.data)

# the stand-in: its arguments to perf.args, the recording to stdout
cat > fakeperf <<EOF
#!/bin/sh
printf '%s\n' "\$*" > "$test_dir/perf.args"
cat "$pipe"
EOF
chmod +x fakeperf
check_exit 0 "$PERF2GPERF" -q "$pipe" want.prof

PERF=$test_dir/fakeperf
export PERF
check_exit 0 "$PERF2GPERF" record -- ./prog a b
[ "$(cat perf.args)" = "record -o - -g -F 999 -- ./prog a b" ] ||
	fail "perf was run as: $(cat perf.args)"
cmp want.prof prog.prof || fail "prog.prof is not the recording's profile"
check_grep "prog.prof: "

rm -f prog.prof
check_exit 0 "$PERF2GPERF" record -o mine.prof -F 99 --call-graph=dwarf -a \
	-- /usr/bin/prog
[ "$(cat perf.args)" = "record -o - -F 99 --call-graph=dwarf -a -- /usr/bin/prog" ] ||
	fail "perf was run as: $(cat perf.args)"
cmp want.prof mine.prof || fail "mine.prof is not the recording's profile"
[ ! -e prog.prof ] || fail "-o was not followed"

check_exit 0 "$PERF2GPERF" record -q --output=sys.prof -c 1000 -g -a --
[ "$(cat perf.args)" = "record -o - -q -c 1000 -g -a" ] ||
	fail "perf was run as: $(cat perf.args)"
cmp want.prof sys.prof || fail "sys.prof is not the recording's profile"

# Ctrl-C: perf2gperf ignores it (perf ends the stream), and a perf that
# ends by raising SIGINT again after its stream is complete has not failed
cat > intperf <<EOF
#!/bin/sh
cat "$pipe"
kill -INT \$PPID
kill -INT \$\$
EOF
chmod +x intperf
PERF=$test_dir/intperf check_exit 0 "$PERF2GPERF" record -- ./prog
cmp want.prof prog.prof || fail "prog.prof is not the recording's profile"
! grep -q 'killed\|failed' err || fail "perf's SIGINT taken for a failure: $(cat err)"
rm -f prog.prof

# SIGINT or SIGTERM sent to perf2gperf alone (kill, a supervisor, a
# timeout): perf gets SIGINT, as from a terminal's Ctrl-C, ends its
# stream, and the profile of what it recorded is written.  The stand-in
# records until it gets SIGINT (any other signal ends it with no stream,
# which fails the test); it says it is ready once its trap is set.
cat > waitperf <<EOF
#!/bin/sh
trap 'kill \$w 2> /dev/null; cat "$pipe"; exit 0' INT
sleep 600 &
w=\$!
echo \$\$ > "$test_dir/perf.ready"
wait \$w
exit 9
EOF
chmod +x waitperf
p2g=$top_builddir/src/perf2gperf
for sig in INT TERM; do
	rm -f perf.ready sig.prof
	PERF=$test_dir/waitperf $P2G_WRAPPER "$p2g" record -o sig.prof -- ./prog \
		> sig.out 2> sig.err &
	pid=$!
	i=0
	while [ ! -s perf.ready ] && [ $i -lt 600 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	[ -s perf.ready ] || { kill $pid; fail "the stand-in perf did not start"; }
	kill -$sig $pid
	i=0
	while kill -0 $pid 2> /dev/null && [ $i -lt 600 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	if kill -0 $pid 2> /dev/null; then
		kill -KILL $pid "$(cat perf.ready)" 2> /dev/null || :
		fail "perf2gperf record, sent SIG$sig, did not stop perf in 60 s"
	fi
	rc=0
	wait $pid || rc=$?
	[ $rc -eq 0 ] || { cat sig.err >&2;
		fail "perf2gperf record, sent SIG$sig: exit status $rc"; }
	cmp want.prof sig.prof ||
		fail "after SIG$sig, sig.prof is not the recording's profile"
done

# a perf that fails before it writes anything
cat > badperf <<EOF
#!/bin/sh
echo "badperf: cannot record" >&2
exit 3
EOF
chmod +x badperf
PERF=$test_dir/badperf check_exit 2 "$PERF2GPERF" record -- ./prog
check_grep "badperf: cannot record"
check_grep "perf2gperf: $test_dir/badperf record failed (exit status 3)"
for f in prog.prof prog.prof.tmp*; do
	[ ! -e "$f" ] || fail "$f left behind by a failed recording"
done

# a perf that cannot be run
PERF=$test_dir/no-such-perf check_exit 2 "$PERF2GPERF" record -- ./prog
check_grep "perf2gperf: cannot run $test_dir/no-such-perf: No such file or directory"
PERF=p2g-no-such-perf check_exit 2 "$PERF2GPERF" record -- ./prog
check_grep "cannot run p2g-no-such-perf: not found in PATH (install perf"
[ ! -e prog.prof ] || fail "a profile without perf"

# usage errors
check_exit 2 "$PERF2GPERF" record
check_grep "no command to run"
check_exit 2 "$PERF2GPERF" record -F 99 ./prog
check_grep "perf record's options need -- before the command ('-F')"

# the real perf
unset PERF
live_rest
have perf || skip "perf is not installed"
${CC:-gcc} -O2 -fno-omit-frame-pointer -o hot "$TESTDATA/progs/hot.c" \
	2> cc.log || skip "cannot build hot.c"
if ! perf record -q -o probe.data -- true > probe.log 2>&1; then
	skip "perf cannot record here: $(head -n 1 probe.log)"
fi
check_exit 0 "$PERF2GPERF" record -- ./hot
check_grep "perf2gperf: hot.prof: "
echo "perf record of ./hot: $(sed -n 's/.*hot.prof: \([0-9]* samples\) .*/\1/p' err)"
check_exit 0 "$GPERFCHECK" -q --expect-function hot_loop hot.prof
exit 0
