#!/bin/sh
# SPDX-License-Identifier: MIT
# Run each libFuzzer target for SECONDS, seeded from the fixtures in
# testdata/.  Usage: run-fuzzers.sh SRCDIR SECONDS (from the build
# directory, after 'make' with --enable-fuzzers).
#
# Before fuzzing, each target runs its seed corpus (fuzz/TARGET.seeds,
# made afresh) once as a whole and once seed by seed (-runs=0), and the
# script fails when the coverage ("cov:" of libFuzzer) of the whole is
# below that of its best single seed: the whole covers at least what
# each of its seeds does unless one input spoils the next (a target gone
# blind).  Then each target fuzzes for SECONDS, what it finds kept in
# fuzz/TARGET.corpus.  A crash leaves fuzz/crash-TARGET-* behind and makes
# the script fail; turn each one into a named regression fixture under
# testdata/regress/.  Logs: fuzz/TARGET.log, fuzz/TARGET.cov.
set -eu
srcdir=$1
seconds=$2
status=0
targets="fuzz-perfdata fuzz-info fuzz-sample fuzz-cpuprof fuzz-gperfcheck
	fuzz-symbols"

# Output of the tools' code (--info, gperfcheck's dumps) is dropped:
# -close_fd_mask=3 (libFuzzer and the sanitizers keep their own stderr).
opts="-rss_limit_mb=2048 -timeout=10 -close_fd_mask=3"

seed() {	# seed TARGET FILES...
	dir=fuzz/$1.seeds
	shift
	mkdir -p "$dir"
	for f in "$@"; do
		[ -f "$f" ] && cp "$f" "$dir/"
	done
	return 0
}

rm -rf fuzz/*.seeds fuzz/symfs
for t in fuzz-perfdata fuzz-info; do
	seed $t "$srcdir"/testdata/*.perf.data \
		"$srcdir"/testdata/regress/*.perf.data
	# a --call-graph dwarf recording, so that the unwinder is fuzzed
	# too (with its binary where the recording says, under symfs)
	if [ -f "$srcdir"/testdata/dwarfprog.perf.data.gz ]; then
		gzip -dc "$srcdir"/testdata/dwarfprog.perf.data.gz \
			> fuzz/$t.seeds/dwarfprog.perf.data
	fi
done
mkdir -p fuzz/symfs/opt/p2g-fixture
gzip -dc "$srcdir"/testdata/dwarfprog.gz \
	> fuzz/symfs/opt/p2g-fixture/dwarfprog
P2G_FUZZ_SYMFS=$(pwd)/fuzz/symfs
export P2G_FUZZ_SYMFS
seed fuzz-cpuprof "$srcdir"/testdata/*.prof "$srcdir"/testdata/gperf/*.prof
# the symbolizer: a kallsyms text and an ELF file with DWARF
seed fuzz-symbols "$srcdir"/testdata/symbols/kallsyms
cp fuzz/symfs/opt/p2g-fixture/dwarfprog fuzz/fuzz-symbols.seeds/
# and hostile ELF files (tests/mkelf, see run-hostile-binaries.sh): a
# DWARF function of many one-byte DIEs, scopes and functions sharing one
# range list, a wide level of inlined functions (with .debug_aranges and
# without), symbols that share one
# name, a demangler bomb, names with newlines and bytes that are not
# UTF-8, a stripped file with a debug link
if make tests/mkelf > /dev/null 2>&1; then
	h=fuzz/fuzz-symbols.seeds
	printf 'sym f 0x400100 0xf00\ndwarf 2000\n' | tests/mkelf $h/elf-dies
	printf 'sym f 0x400100 0xf00\ndwarf-ranges 20 40 5\n' |
		tests/mkelf $h/elf-ranges
	printf 'sym f 0x400100 0xf00\ndwarf-inlines 30\n' |
		tests/mkelf $h/elf-inlines
	printf 'sym f 0x400100 0xf00\ndwarf-inlines 30\nnoaranges\n' |
		tests/mkelf $h/elf-noaranges
	{
		printf 'sym %s 0x400100 16\n' \
			"$(awk 'BEGIN { while (n++ < 1024) printf "g" }')"
		awk 'BEGIN { for (i = 1; i < 100; i++)
			printf "alias 0x%x 16\n", 4194560 + i * 16 }'
	} | tests/mkelf $h/elf-alias
	name=_Z1fI1PI1aS0_E
	for r in 1 2 3 4 5 6 7 8 9 A B C D E F G H I J K L M N O P Q; do
		name=${name}S_IS${r}_S${r}_E
	done
	printf 'sym %sEvv 0x400100 16\n' "$name" | tests/mkelf $h/elf-bomb
	printf 'sym a\\x0ab\\xff 0x400100 16\nsym ok 0x400200 16\n' |
		tests/mkelf $h/elf-names
	printf 'stripped\ndebuglink elf-names 0\n' | tests/mkelf $h/elf-link
fi
# fuzz/regress: inputs on which a target once failed, named after it
seed fuzz-gperfcheck "$srcdir"/testdata/*.prof "$srcdir"/testdata/gperf/*.prof \
	"$srcdir"/testdata/gperf/*.prof.gz "$srcdir"/fuzz/regress/gperfcheck-*
# The sample target reads a 41-byte layout header, then a sample body:
# here IP|TID|TIME|CALLCHAIN|PERIOD with a three-entry user callchain.
mkdir -p fuzz/fuzz-sample.seeds
perl -e 'print pack("Q<5C", 0x127, 0, 0, 0, 0, 0),
	pack("Q<L<L<Q<Q<Q<Q<Q<Q<", 0x401136, 100, 101, 5, 1001001, 3,
	     0xfffffffffffffe00, 0x401136, 0x40117a)' \
	> fuzz/fuzz-sample.seeds/seed-callchain

# run TARGET ARGS...: the target with the options above; the perf.data
# targets take inputs as large as the --call-graph dwarf seed (libFuzzer
# would cut it at 1 MiB)
run() {
	t=$1
	shift
	case $t in
	fuzz-perfdata|fuzz-info) set -- -max_len=2097152 "$@" ;;
	esac
	# shellcheck disable=SC2086
	./fuzz/"$t" $opts "$@"
}

# cov TARGET DIR: the coverage of one run over the inputs in DIR, or
# nothing when the run fails (an input crashed it)
cov() {
	run "$1" -runs=0 "$2" 2>&1 |
		sed -n 's/^#[0-9]*[ 	]*DONE .*cov: \([0-9]*\).*/\1/p'
}

# blind TARGET: fail if the seeds together cover less than the best one
blind() {
	all=$(cov "$1" "fuzz/$1.seeds")
	best=0
	bestname=
	one=fuzz/$1.one
	for f in "fuzz/$1.seeds"/*; do
		rm -rf "$one"
		mkdir "$one"
		cp "$f" "$one/"
		c=$(cov "$1" "$one")
		echo "$(basename "$f") ${c:-crash}"
		if [ -n "$c" ] && [ "$c" -gt "$best" ]; then
			best=$c
			bestname=$(basename "$f")
		fi
	done > "fuzz/$1.cov"
	rm -rf "$one"
	if [ -z "$all" ]; then
		echo "$1: FAILED: it crashes on its seed corpus (see the seeds" \
			"marked crash in fuzz/$1.cov)"
		return 1
	fi
	echo "$1: seed corpus cov $all, best single seed cov $best ($bestname)"
	if [ "$all" -lt "$best" ]; then
		echo "$1: FAILED: the seed corpus covers less than one of its" \
			"seeds: an input spoils the ones after it (see fuzz/$1.cov)"
		return 1
	fi
	return 0
}

for t in $targets; do
	blind $t || status=1
done

for t in $targets; do
	echo "== $t: $seconds s"
	mkdir -p "fuzz/$t.corpus"
	if ! run $t -seed=1 -max_total_time="$seconds" \
		-print_final_stats=1 -artifact_prefix="fuzz/crash-$t-" \
		"fuzz/$t.corpus" "fuzz/$t.seeds" > "fuzz/$t.log" 2>&1; then
		echo "$t: FAILED; see fuzz/$t.log and fuzz/crash-$t-*"
		tail -n 40 "fuzz/$t.log"
		status=1
	else
		grep -E '^stat::number_of_executed_units|^#[0-9]+.*DONE' \
			"fuzz/$t.log" | tail -n 2
	fi
done
exit $status
