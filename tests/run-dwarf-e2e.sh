#!/bin/sh
# SPDX-License-Identifier: MIT
# End to end for DWARF call stacks on fresh data: build testdata/progs/
# threads.c and forkexec.c (with hot.c, which forkexec's child execs as
# ./hot) twice, with the frame-pointer flags of testdata/progs/mkprogs.sh
# and with -O2 -fomit-frame-pointer (so that no frame-pointer walk can
# give the right stacks); record each with perf record --call-graph dwarf;
# take perf's own reading with testdata/perf-stacks.py (as
# testdata/mkfixtures.sh does); convert one profile per process (--split,
# so that every process keeps its own addresses); and check that at least
# 99% of the samples of all processes get perf's stack:
#  - in gperfcheck --dump of the --no-fixup profiles, and
#  - in go tool pprof -raw of the default profiles (when go is installed).
# perf prints every user frame after the first as return address - 1
# (util/unwind-libunwind-local.c, util/unwind-libdw.c), a gperftools
# profile holds return addresses: perf's stacks are compared after +1 on
# those frames (stacks_dwarf_norm in tests/stacks.sh).  On failure the
# stacks that differ most are printed.
# perf's own unwinder is not always right: in a process that forked from
# one already sampled and then ran exec (forkexec's ./hot), perf 6.1's
# libunwind now and then stops at __libc_start_call_main (perf script -v
# shows it reading address 0x1 there), where the same program run
# directly, and the parent, go on to __libc_start_main and _start.  So for
# forkexec, a sample whose perf stack is a proper prefix of ours counts
# as agreeing, and is counted apart ("perf stopped early"); for threads,
# which has no such process, only exact agreement counts.
# Needs perf allowed to record (root, or perf_event_paranoid <= 1), perf
# built with python scripting, and gcc; skips otherwise.  Under
# $P2G_WRAPPER (make check-valgrind) only the -O2 build is recorded and
# Go pprof is left out, to keep the run short.
. "${top_srcdir:-$(dirname "$0")/..}/tests/test-subr.sh"
. "$top_srcdir/tests/stacks.sh"

need_cmd perf gcc
stacks_py=$(testfile perf-stacks.py)
mkprogs=$(testfile progs/mkprogs.sh)
for p in threads forkexec hot; do
	testfile progs/$p.c > /dev/null
done

# Look for binaries nowhere but at their recorded paths: not in the
# user's ~/.debug.  go_env does the same for go.
HOME=$test_dir
export HOME
use_go=no
if [ -z "${P2G_WRAPPER:-}" ] && have go; then
	use_go=yes
	go_env
fi

perf record -q -N -e cpu-clock -o probe.data -- true > probe.log 2>&1 ||
	skip "perf record does not work here: $(head -n 1 probe.log)"
perf record -q -N -e cpu-clock --call-graph dwarf -o probe.data -- true \
	> probe.log 2>&1 ||
	skip "perf record --call-graph dwarf does not work here: $(head -n 1 probe.log)"

fpflags=$(sed -n 's/^CFLAGS="\(.*\)"$/\1/p' "$mkprogs")
[ -n "$fpflags" ] || hard_error "no CFLAGS line in $mkprogs"
variants="fp nofp"
[ -z "${P2G_WRAPPER:-}" ] || variants=nofp
for v in $variants; do
	case $v in
	fp)	cflags=$fpflags ;;
	nofp)	cflags="-O2 -g -fomit-frame-pointer" ;;
	esac
	mkdir $v
	for p in threads forkexec hot; do
		${CC:-gcc} $cflags -pthread -o $v/$p "$TESTDATA/progs/$p.c" \
			2> cc.log || {
			cat cc.log >&2
			skip "cannot build $p.c with $cflags -pthread"
		}
	done
done

# tag PID: append " pPID" to each canonical line, as if a last frame, so
# that the stacks of all processes can be compared at once
tag() {
	awk -v p="$1" '{ print $0 " p" p }'
}

# check_agree WHAT WANT GOT: at least 99% of WANT's samples have their
# stack in GOT; prints the figure, and the worst stacks on failure
check_agree() {
	set -- "$1" "$2" "$3" $(stacks_agree_prefix "$2" "$3")
	case $1 in
	*forkexec*) ok=$(($4 + $5)) ;;
	*) ok=$4 ;;
	esac
	echo "$1: $4 of $6 samples ($(($4 * 100 / $6))%) have perf's stack;" \
		"$5 more where perf stopped early and ours goes on"
	if [ $((ok * 100)) -lt $(($6 * 99)) ]; then
		echo "stacks differing most (perf's count, ours, stack + pid):" >&2
		stacks_worst "$2" "$3" >&2
		bad="$bad $1"
	fi
}

bad=
for v in $variants; do
	for p in threads forkexec; do
		r=$v-$p
		# forkexec's child runs ./hot: record in the variant's directory
		(cd $v && perf record -q -N -e cpu-clock -F 999 --call-graph dwarf \
			-o ../$r.data -- ./$p) > $r.rec.log 2>&1 || {
			cat $r.rec.log >&2
			fail "perf record --call-graph dwarf of $v/$p failed"
		}
		PERF_STACKS_OUT=$r.unsorted perf script -i $r.data --no-inline \
			-s "$stacks_py" > $r.script.log 2>&1 || {
			cat $r.script.log >&2
			skip "perf script -s (python scripting) does not work here"
		}
		[ -s $r.unsorted ] || fail "perf recorded no samples of $v/$p"
		pids=$(cut -f4 $r.unsorted | sort -u)

		check_exit 0 "$PERF2GPERF" -q --no-fixup --split $r.data \
			"$r.%p.nofix.prof"
		[ $use_go = no ] ||
			check_exit 0 "$PERF2GPERF" -q --split $r.data "$r.%p.prof"
		: > $r.want
		: > $r.dump
		: > $r.go
		: > $r.leaf.want
		: > $r.leaf.dump
		for pid in $pids; do
			stacks_oracle $r.unsorted "" $pid > $r.$pid.perf
			stacks_dwarf_norm $r.$pid.perf | tag $pid >> $r.want
			stacks_leaf_only $r.$pid.perf | tag $pid >> $r.leaf.want
			[ -f $r.$pid.nofix.prof ] || continue
			check_exit 0 "$GPERFCHECK" --dump $r.$pid.nofix.prof
			stacks_dump out > $r.$pid.dump
			tag $pid < $r.$pid.dump >> $r.dump
			stacks_leaf_only $r.$pid.dump | tag $pid >> $r.leaf.dump
			[ $use_go = yes ] || continue
			go_raw $r.$pid.prof $r.$pid.go.raw
			stacks_go_raw $r.$pid.go.raw | tag $pid >> $r.go
		done
		echo "$r: perf shows $(awk '{ s += $1 } END { print s }' $r.want) samples in $(wc -l < $r.want) stacks," \
			"$(echo $pids | wc -w) processes;" \
			"deepest $(awk '{ if (NF - 2 > m) m = NF - 2 } END { print m }' $r.want) frames"
		# What needs no unwinding (the kernel frames, else the sampled
		# IP) must agree exactly, or the comparison itself is broken.
		# The one exception: a sample whose leaf lies in a place the
		# layout moved (src/lib/output/bases.c, from 0x100000000000:
		# the program a child runs between fork and exec, where the
		# program it execs is mapped too) has it at the new address.
		set -- $(stacks_agree $r.leaf.want $r.leaf.dump)
		moved=$(awk 'length($2) == 14 && substr($2, 1, 3) == "0x1" {
				s += $1 } END { print s + 0 }' $r.leaf.dump)
		[ $(($2 - $1)) -le "$moved" ] || {
			stacks_worst $r.leaf.want $r.leaf.dump >&2
			fail "$r: the kernel frames or sampled IPs differ from perf's in $(($2 - $1)) of $2 samples"
		}
		check_agree "$r (gperfcheck --dump, --no-fixup)" $r.want $r.dump
		[ $use_go = no ] ||
			check_agree "$r (go tool pprof -raw)" $r.want $r.go
	done
done
[ -z "$bad" ] || fail "fewer than 99% of the samples have perf's stack in:$bad"

exit 0
