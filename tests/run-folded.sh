#!/bin/sh
# SPDX-License-Identifier: MIT
# --format=folded prints what perf's own stackcollapse.py (perf script
# report stackcollapse) prints, byte for byte: recorded here and now (the
# names must be those of the binaries on this machine), testdata/progs/
# multi.c (several call paths) and threads.c (three threads), with -g
# frame-pointer callchains and a fixed period of 1 ms of cpu-clock:
#  - the default lines, and with each of the script's options (pid and
#    tid in the first frame, _[k] after kernel functions, no comm);
#  - with --weight period, each count is the samples' periods: the
#    script's count times 1000000;
#  - the suffix .folded chooses the format.
# testdata/progs/noret.c: a return address that is the first byte of
# the next function is named as perf names it (as it is, not less 1).
# Recorded with --call-graph dwarf, perf takes 1 from the return
# addresses its unwinding finds, and names caller there (compared from
# main on: what lies below main is libc's, named by the symbolizer).
# Then JIT code (testdata/progs/jitprog.c, x86-64), named from its
# /tmp/perf-PID.map: the anonymous mapping carries its process to the
# symbolizer.
# Skips without perf (allowed to record, with python scripting), gcc or
# the script.
. "${top_srcdir:-$(dirname "$0")/..}/tests/test-subr.sh"
. "$top_srcdir/tests/names.sh"

names_setup
progs="multi threads"
optsets="--include-pid|--include-pid --include-tid|--kernel|--no-comm"
# under valgrind, less
if [ -n "${P2G_WRAPPER:-}" ]; then
	progs=multi
	optsets="--include-pid --include-tid"
fi

for p in $progs; do
	names_record $p
	names_oracle $p.data > $p.exp
	[ -s $p.exp ] || hard_error "perf printed no stacks for $p"
	check_exit 0 "$PERF2GPERF" --folded-style=perf -q $p.data $p.folded
	compare_text $p.exp $p.folded "perf2gperf $p.data $p.folded"

	IFS='|'
	for opts in $optsets; do
		unset IFS
		names_oracle $p.data $opts > $p.opt.exp
		# perf2gperf's names for the script's options
		ours=$(echo "$opts" | sed 's/--kernel/--annotate-kernel/')
		check_exit 0 "$PERF2GPERF" --folded-style=perf -q --format=folded $ours $p.data -
		compare_text $p.opt.exp out "perf2gperf --format=folded $ours"
		IFS='|'
	done
	unset IFS

	awk '{ $NF = $NF * 1000000; print }' $p.exp > $p.period.exp
	check_exit 0 "$PERF2GPERF" --folded-style=perf -q --weight period -f folded $p.data -
	compare_text $p.period.exp out "perf2gperf --weight period"
	echo "$p: $(wc -l < $p.exp) lines as perf's stackcollapse.py prints them"
done

# the return address just past a noreturn call
names_record noret
names_oracle noret.data > noret.exp
grep -q ';nextfn;spin ' noret.exp ||
	hard_error "perf does not name noret's return address nextfn"
check_exit 0 "$PERF2GPERF" --folded-style=perf -q noret.data noret.folded
compare_text noret.exp noret.folded "perf2gperf noret.data noret.folded"

# from_main FILE: the lines of FILE from main on, summed
from_main() {
	sed -n 's/^\([^;]*\);.*;main;/\1;main;/p' "$1" |
		awk '{ n = $NF; $NF = ""; sum[$0] += n }
		     END { for (k in sum) print k sum[k] }' | sort
}
perf record -q -e cpu-clock -c 1000000 --call-graph dwarf -o noretd.data \
	-- ./noret > noretd.rec.log 2>&1 ||
	hard_error "perf record --call-graph dwarf of noret failed"
names_oracle noretd.data > noretd.all
from_main noretd.all > noretd.exp
grep -q '^noret;main;caller;spin ' noretd.exp ||
	hard_error "perf does not name noret's unwound return address caller"
check_exit 0 "$PERF2GPERF" --folded-style=perf -q noretd.data noretd.folded
from_main noretd.folded > noretd.out
compare_text noretd.exp noretd.out "perf2gperf noretd.data (from main on)"

# Frames unwound with DWARF are named as perf names them there: by the
# functions' DWARF names (addr2line's, which perf reads for inlined
# frames): testdata/progs/cprop.c's clone work.constprop.0 is "work", and
# libc's __libc_start_main@@GLIBC_2.34 "__libc_start_main_impl" (when
# its debug info is installed); in C++ (cpropxx.cc) the linkage names,
# demangled (ns::step), an anonymous namespace's function (no linkage
# name) by its ELF symbol alone and by its DWARF name when a function is
# inlined there.  Frame-pointer callchains keep the ELF symbols' names
# (checked above).  The whole stacks are compared.
# dwarf_case PROG SUFFIX COMPILER: build testdata/progs/PROG.SUFFIX,
# record it, compare
dwarf_case() {
	$3 -O2 -g -fno-omit-frame-pointer -o $1 "$(testfile progs/$1.$2)" \
		2> cc.log || {
		cat cc.log >&2
		skip "cannot build $1"
	}
	perf record -q -e cpu-clock -F 499 --call-graph dwarf -o $1.data \
		-- ./$1 60000000 > $1.rec.log 2>&1 ||
		hard_error "perf record --call-graph dwarf of $1 failed"
	names_oracle $1.data > $1.exp
	check_exit 0 "$PERF2GPERF" --folded-style=perf -q $1.data $1.folded
	compare_text $1.exp $1.folded "perf2gperf $1.data $1.folded"
}
dwarf_case cprop c "${CC:-gcc}"
grep -q ';main;work' cprop.exp ||
	hard_error "perf does not name cprop's clone of work by its DWARF name"
if have "${CXX:-g++}"; then
	dwarf_case cpropxx cc "${CXX:-g++}"
	grep -q ';ns::work;ns::step ' cpropxx.exp ||
		hard_error "perf does not name cpropxx's inlined ns::step"
fi

# JIT code: the perf map is the program's to write and ours to remove
[ "$(uname -m)" = x86_64 ] || exit 0
${CC:-gcc} -O2 -fno-omit-frame-pointer -o jitprog \
	"$(testfile progs/jitprog.c)" 2> cc.log || {
	cat cc.log >&2
	skip "cannot build jitprog.c"
}
perf record -q -g -F 2000 -o jit.data -- ./jitprog 10000000 keep \
	> jit.rec.log 2>&1 || hard_error "perf record of jitprog failed"
pid=$(perf script -i jit.data -F pid --show-mmap-events 2>/dev/null |
	awk '/PERF_RECORD_MMAP2/ && / \/.*\/jitprog$/ { print $1; exit }')
[ -n "$pid" ] || hard_error "no mapping of jitprog in jit.data"
trap '_rc=$?; rm -f /tmp/perf-$pid.map; test_exit $_rc' EXIT
names_oracle jit.data > jit.exp
grep -q ';jit_two ' jit.exp || hard_error "perf names no JIT code in jit.data"
check_exit 0 "$PERF2GPERF" --folded-style=perf -q jit.data jit.folded
compare_text jit.exp jit.folded "perf2gperf jit.data jit.folded"
echo "jitprog: $(wc -l < jit.exp) lines as perf's stackcollapse.py prints them"
