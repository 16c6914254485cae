#!/bin/sh
# mkfixtures.sh - regenerate every fixture in testdata/.
#
# Needs: x86_64, perf (tested: 6.1), gcc, python3, google-perftools
# (libprofiler + google-pprof), and permission to profile (root, or
# kernel.perf_event_paranoid <= 1).  Only the software event cpu-clock (and
# task-clock) is used.  Recording happens in testdata/progs so that the
# mapping paths in the files are <abs>/testdata/progs/NAME.
#
# Outputs (all in testdata/):
#   NAME.perf.data            perf record output
#   NAME.perf.data.expected   perf's reading of it (perf-stacks.py, sorted)
#   NAME.perf.data.header     perf report --header-only (file-mode files)
#   NAME.prof                 real libprofiler CPU profile (hot multi threads)
#   NAME.prof.pprof-text      google-pprof --text of it
#   fixtures.stats            counts and cross-check results
# Sample counts differ from run to run; fixtures.stats records this run's.
set -eu

T=$(cd "$(dirname "$0")" && pwd)
PERF=${PERF:-perf}
LIBPROFILER=${LIBPROFILER:-/usr/lib/x86_64-linux-gnu/libprofiler.so.0}
PPROF=${PPROF:-google-pprof}
TAB=$(printf '\t')

"$T/progs/mkprogs.sh"

cd "$T/progs"
rm -f ../*.perf.data ../*.perf.data.expected ../*.perf.data.header \
      ../*.prof ../*.prof.pprof-text ../fixtures.stats

# ---- perf.data fixtures (frame-pointer callchains, -g) ---------------------
for p in hot recurse multi threads forkexec; do
	$PERF record -e cpu-clock -F 999 -g -o ../$p.perf.data -- ./$p
done
# user space only: no kernel frames, so every stack shares main's return
# address as its second frame (the shape pprof's heuristic strips)
$PERF record -e cpu-clock:u -F 999 -g -o ../hot-user.perf.data -- ./hot
# no callchain
$PERF record -e cpu-clock -F 999 -o ../hot-nocg.perf.data -- ./hot
# pipe mode (the programs print to stderr, so stdout carries only perf data)
$PERF record -e cpu-clock -F 999 -g -o - -- ./multi > ../multi-pipe.perf.data
# two events in one file
$PERF record -e cpu-clock -e task-clock -F 999 -g -o ../multi-2ev.perf.data -- ./multi
# zstd-compressed records (perf record -z), small buffers so that the
# compressed stream spans several records; file and pipe mode
$PERF record -e cpu-clock -F 999 -g -z -m 8 -o ../multi-z.perf.data -- ./multi
$PERF record -e cpu-clock -F 999 -g -z -m 8 -o - -- ./threads > ../threads-z-pipe.perf.data
# PERF_SAMPLE_READ: a group whose leader samples (read_format
# ID|GROUP|LOST), and one event read with its samples (ID|LOST)
$PERF record -e '{cpu-clock,task-clock}:S' -F 999 -g -o ../multi-group.perf.data -- ./multi
$PERF record -e 'cpu-clock:S' -F 999 -g -o ../hot-read.perf.data -- ./hot
# rewritten by perf inject (build ids added), file and pipe form
$PERF record -e cpu-clock -F 999 -g -o ../multi-inject-src.perf.data -- ./multi
$PERF inject -b -i ../multi-inject-src.perf.data -o ../multi-inject.perf.data
rm -f ../multi-inject-src.perf.data
$PERF record -e cpu-clock -F 999 -g -o - -- ./multi 2>/dev/null |
	$PERF inject -b > ../multi-inject-pipe.perf.data
# tracepoints: RAW data in the samples, tracing data (in pipe mode a
# HEADER_TRACING_DATA record whose payload follows it)
tp="-e sched:sched_process_fork -e sched:sched_process_exec -e syscalls:sys_enter_wait4"
$PERF record $tp -g -o ../forkexec-tp.perf.data -- ./forkexec
$PERF record $tp -g -o - -- ./forkexec > ../forkexec-tp-pipe.perf.data
# a perf.data directory (perf record --threads): header file data, records
# in data.0 and data.1
rm -rf ../threads-dir.perf.data
$PERF record --threads -e cpu-clock -F 999 -g -o ../threads-dir.perf.data -- ./threads
# bundled example for the README (separate recording of multi)
$PERF record -e cpu-clock -F 999 -g -o ../example.perf.data -- ./multi

# ---- real gperftools profiles ----------------------------------------------
for p in hot multi threads; do
	CPUPROFILE=../$p.prof CPUPROFILE_FREQUENCY=250 LD_PRELOAD=$LIBPROFILER ./$p
done

cd "$T"
chmod 644 ./*.perf.data/* ./*.prof 2>/dev/null || :
for f in ./*.perf.data; do [ -f "$f" ] && chmod 644 "$f"; done

# ---- oracles ---------------------------------------------------------------
for f in *.perf.data; do
	PERF_STACKS_OUT=$f.unsorted $PERF script -i $f --no-inline \
		-s perf-stacks.py 2> $f.log
	LC_ALL=C sort -t "$TAB" -k3,3 -k4,4n -k5,5 $f.unsorted > $f.expected
	rm -f $f.unsorted
	case $f in
	*-pipe.perf.data) ;;
	*) $PERF report -i $f --header-only > $f.header ;;
	esac
	{
		echo "== $f"
		grep '^perf-stacks:' $f.log
		$PERF report -D -i $f 2>/dev/null | python3 rawchains.py $f.expected \
			|| echo "rawchains check FAILED for $f" >&2
		echo "perf report -D PERF_RECORD_SAMPLE lines: $($PERF report -D -i $f 2>/dev/null | grep -c 'PERF_RECORD_SAMPLE(')"
		case $f in
		*-pipe.perf.data) ;;
		*) echo "perf script -F event per event:" \
			$($PERF script -i $f -F event 2>/dev/null | sort | uniq -c | tr -s ' ')
		   ;;
		esac
		echo "expected per event (count, period):" \
			$(awk -F "$TAB" '{c[$3]+=$1; p[$3]+=$2} END {for (e in c) print e, c[e], p[e]}' $f.expected | sort)
	} >> fixtures.stats
	rm -f $f.log
done

# ---- pprof text of the libprofiler profiles ----------------------------------
for p in hot multi threads; do
	$PPROF --text progs/$p $p.prof > $p.prof.pprof-text
done

# ---- DWARF call stacks (perf record --call-graph dwarf) ----------------------
# Each program is compiled and recorded at the neutral path
# /opt/p2g-fixture (so that the recorded path and the DWARF comp_dir name
# no checkout); the program and the recording are committed
# gzip-compressed, the oracle as is.  /opt/p2g-fixture is removed
# afterwards: tests must find the program through --symfs, not at its
# recorded path.
FX=/opt/p2g-fixture

# dwarf_fixture NAME STACK-SIZE GCC-FLAGS...: progs/NAME.c built with
# GCC-FLAGS, recorded with --call-graph dwarf,STACK-SIZE
dwarf_fixture() {
	_n=$1
	_size=$2
	shift 2
	rm -rf $FX
	mkdir -p $FX
	cp "$T/progs/$_n.c" $FX/
	(cd $FX && ${CC:-gcc} "$@" -o $_n $_n.c)
	rm -f "$T/$_n.perf.data" "$T/$_n.perf.data.gz"
	(cd $FX && $PERF record -N -q -e cpu-clock -F 499 \
		--call-graph dwarf,$_size -o "$T/$_n.perf.data" -- ./$_n)
	cd "$T"
	chmod 644 $_n.perf.data
	PERF_STACKS_OUT=$_n.perf.data.unsorted $PERF script \
		-i $_n.perf.data --no-inline -s perf-stacks.py 2> $_n.log
	LC_ALL=C sort -t "$TAB" -k3,3 -k4,4n -k5,5 $_n.perf.data.unsorted \
		> $_n.perf.data.expected
	{
		echo "== $_n.perf.data (committed as $_n.perf.data.gz)"
		grep '^perf-stacks:' $_n.log
		echo "perf report -D PERF_RECORD_SAMPLE lines: $($PERF report -D -i $_n.perf.data 2>/dev/null | grep -c 'PERF_RECORD_SAMPLE(')"
		echo "uncompressed size: $(wc -c < $_n.perf.data)"
		echo "build id of $FX/$_n: $(readelf -n $FX/$_n | sed -n 's/.*Build ID: //p')"
	} >> fixtures.stats
	gzip -9 -n -f $_n.perf.data
	gzip -9 -n -c $FX/$_n > $_n.gz
	rm -f $_n.perf.data.unsorted $_n.log
	rm -rf $FX
}

# progs/dwarfprog.c, static-pie without frame pointers.
#>>> dwarf
dwarf_fixture dwarfprog 4096 -static-pie -O2 -g -fomit-frame-pointer -pthread
#<<< dwarf

# A return address of 0 under DWARF unwinding: progs/pc0.c (spin() without
# CFI, its frame pointer on a frame record whose return address is 0).
#>>> pc0
dwarf_fixture pc0 1024 -O2 -fno-asynchronous-unwind-tables -fno-unwind-tables
#<<< pc0

# ---- a system-wide recording (perf record -a) ------------------------------
# Whatever else runs on the machine is in it too: the test programs, a
# loop of short commands (many processes of a few samples each, some
# under one command) and other users' processes and kernel threads.
# Committed gzip-compressed, with perf script's samples per pid and tid
# as the oracle of the --split tests.
#>>> system-wide
rm -f "$T/system-wide.perf.data.gz"
(cd "$T/progs" && $PERF record -a -g -e cpu-clock -F 499 \
	-o ../system-wide.perf.data -- sh -c './threads; for i in $(seq 30); do sh -c "ls -R /usr/share/doc; cat /proc/cpuinfo" >/dev/null 2>&1; done; ./multi')
cd "$T"
chmod 644 system-wide.perf.data
$PERF script -i system-wide.perf.data -F pid,tid 2>/dev/null |
	tr '/' ' ' | awk '{ n[$1 " " $2]++ } END { for (k in n) print k, n[k] }' |
	LC_ALL=C sort -n > system-wide.perf.data.counts
{
	echo "== system-wide.perf.data (committed as system-wide.perf.data.gz)"
	echo "samples: $(awk '{ s += $3 } END { print s }' system-wide.perf.data.counts)," \
		"processes: $(cut -d' ' -f1 system-wide.perf.data.counts | sort -u | wc -l)," \
		"threads: $(wc -l < system-wide.perf.data.counts)"
} >> fixtures.stats
gzip -9 -n -f system-wide.perf.data
#<<< system-wide

cat fixtures.stats
