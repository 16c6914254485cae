#!/bin/sh
# SPDX-License-Identifier: MIT
# Hostile binaries (every ELF the tools can reach is the attacker's: a
# mapping's path, ~/.debug, --binaries, --symfs), on files tests/mkelf
# and tests/mkdata make here:
#  - .gnu_debuglink: a stripped program names its debug file and that
#    file's CRC; the debug file is read for its symbols.  The same debug
#    file padded into a sparse file of 8 GiB (a few KB on disk) is not
#    read whole for its CRC (26 s): a debug file ends where its ELF
#    contents end, so it is refused at once;
#  - one binary per file, not per spelling of its path: a program of
#    200000 symbols (10 MB) mapped under 300 spellings of its path
#    (/dir/./big, /dir/././big...) was read and kept 300 times (3.4 GB);
#    200 MB of address space must do;
#  - names pointed to in place: 60000 symbols whose names are all one
#    string of 64 KiB (a 1.5 MB ELF) took 3.8 GB, a copy each; 200 MB of
#    address space must do;
#  - a demangler bomb: four C++ names of about 600 bytes whose template
#    arguments refer back to those before, doubling the name every
#    other level (to gigabytes: 10 s and more each, and the memory);
#    names are demangled to 4096 bytes at most, ending in "...";
#  - demangling only what is shown: 100000 C++ names of 160 bytes, each
#    demangling to 5 KB (an 18 MB ELF), one of them sampled: every name
#    was demangled as the file was read (1.5 s, 430 MB); the sampled one
#    is demangled alone, within 200 MB of address space;
#  - a DWARF work budget per file: one function with a million one-byte
#    child DIEs (a 1 MB ELF) and 1000 addresses sampled in it, into
#    pprof (with its lines): each lookup walked every DIE (35 s); the
#    work stops at 16 units per byte of the file (under a second);
#  - descriptors: 60 binaries with DWARF, each kept while a pprof
#    profile's lines are read, under a soft limit of 30 open files: the
#    tools raise it to the hard limit and name them all; under a hard
#    limit of 30 too, as a file kept for its lines holds no descriptor
#    (its DWARF is read); with no descriptor left for a binary the run
#    fails, saying why, where it told them "not found" and exited 0
#    (needs gcc; not under a wrapper, which needs descriptors of its
#    own); gperfcheck, with a program and its debug file to open and
#    room for one, fails too, where it named nothing.
# The limits are on CPU time (ulimit -t, not the wall clock); under a
# wrapper (valgrind) or the sanitizers there are none.
. "${top_srcdir:-$(dirname "$0")/..}/tests/test-subr.sh"

hostile_setup


# The CRC-32 of file $1, as .gnu_debuglink holds it: gzip's trailer.
crc32() {
	gzip -c < "$1" | tail -c 8 | od -An -tu4 -N4 | tr -d ' '
}

printf 'sym burn 0x400100 0x100\n' | "$MKELF" prog.debug
printf 'stripped\ndebuglink prog.debug %s\n' "$(crc32 prog.debug)" |
	"$MKELF" prog
printf 'comm 100 prog\nmmap 100 0x400000 0x1000 0 %s\nsample 100 0x400150\n' \
	"$test_dir/prog" | "$MKDATA" > link.data
check_exit 0 "$PERF2GPERF" -f folded link.data link.folded
echo 'prog;burn 1' > expected
compare_text expected link.folded "names through .gnu_debuglink"
# gperfcheck holds the program and its debug file open at once: with
# room for one of them only, it fails saying so (it named nothing and
# exited 0).  Not under a wrapper or the sanitizers, which need
# descriptors of their own.
check_exit 0 "$PERF2GPERF" link.data link.prof
if $limits; then
	check_exit 2 sh -c 'ulimit -n 4 && exec "$@"' sh "$GPERFCHECK" \
		--summary link.prof
	check_grep 'too many open files'
fi
if truncate -s 8G prog.debug 2> /dev/null; then
	check_exit 0 cpu_limited 5 "$PERF2GPERF" -f folded \
		--folded-style=perf link.data link.folded
	echo 'prog;[unknown] 1' > expected
	compare_text expected link.folded "names from a padded debug file"
else
	echo "note: no sparse file of 8 GiB here: the CRC bound not checked"
fi

# 300 spellings of one path (30 under a wrapper or the sanitizers, which
# run without limits)
n=300
$limits || n=30
awk 'BEGIN { for (i = 0; i < 200000; i++)
	printf "sym function_number_%07d 0x%x 16\n", i, 4194560 + i * 16 }' |
	"$MKELF" big
{
	echo 'comm 100 spell'
	p=$test_dir i=1
	while [ $i -le $n ]; do
		p=$p/.
		printf 'mmap 100 %d 0x1000 0 %s/big\nsample 100 %d\n' \
			$((0x10000000 * i)) "$p" $((0x10000000 * i + 0x150))
		i=$((i + 1))
	done
} | "$MKDATA" > spell.data
if $limits; then
	check_exit 0 sh -c 'ulimit -v 200000 && exec "$@"' sh "$PERF2GPERF" \
		-f folded spell.data spell.folded
else
	check_exit 0 "$PERF2GPERF" -f folded spell.data spell.folded
fi
echo "spell;function_number_0000005 $n" > expected
compare_text expected spell.folded "names of one file under $n spellings"

{
	printf 'sym %s 0x400100 16\n' \
		"$(awk 'BEGIN { while (n++ < 65536) printf "g" }')"
	awk 'BEGIN { for (i = 1; i < 60000; i++)
		printf "alias 0x%x 16\n", 4194560 + i * 16 }'
} | "$MKELF" alias
printf 'comm 100 alias\nmmap 100 0x400000 0x1000 0 %s/alias\nsample 100 0x400150\n' \
	"$test_dir" | "$MKDATA" > alias.data
if $limits; then
	check_exit 0 sh -c 'ulimit -v 200000 && exec "$@"' sh "$PERF2GPERF" \
		-f folded alias.data alias.folded
else
	check_exit 0 "$PERF2GPERF" -f folded alias.data alias.folded
fi
grep -q '^alias;g*\.\.\. 1$' alias.folded ||
	fail "the shared name: $(cut -c 1-100 alias.folded)"

# "sym" lines for N functions f0, f1, ... at ADDR, ADDR + 16, ...:
# mangled names of fK<P<a, P>, fK<a, a>, ...> with LEVELS levels of
# template arguments that refer back to those before, doubling the name
# every other level
bombs() {
	awk -v levels="$1" -v n="$2" -v addr="$3" '
	function ref(i,   k, s, d) {
		d = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
		k = i - 1
		s = ""
		do {
			s = substr(d, k % 36 + 1, 1) s
			k = int(k / 36)
		} while (k > 0)
		return "S" s "_"
	}
	BEGIN {
		for (i = 0; i < levels; i++)
			tail = tail "S_I" ref(i + 2) ref(i + 2) "E"
		for (k = 0; k < n; k++)
			printf "sym _Z%d%sI1PI1aS0_E%sEvv 0x%x 16\n",
				length("f" k), "f" k, tail, addr + 16 * k
	}'
}
{
	for k in 52 53 54 55; do
		bombs $k 1 $((0x400100 + 16 * (k - 52)))
	done
} | "$MKELF" bombs
printf 'comm 100 bomb\nmmap 100 0x400000 0x1000 0 %s/bombs\nsample 100 0x400104\n' \
	"$test_dir" | "$MKDATA" > bomb.data
if $limits; then
	check_exit 0 sh -c 'ulimit -v 200000 && ulimit -t 10 && exec "$@"' sh \
		"$PERF2GPERF" -f folded bomb.data bomb.folded
else
	check_exit 0 "$PERF2GPERF" -f folded bomb.data bomb.folded
fi
# demangled and cut (or, built without libiberty, as mangled)
awk '(/^bomb;f0<P<a, P>, f0<a, a>, / && /\.\.\. 1$/ &&
	length($0) <= 4096 + 20) || /^bomb;_Z2f0I1PI1aS0_E/ { ok++ }
	END { exit !(ok == 1 && NR == 1) }' bomb.folded ||
	fail "the bomb's name: $(cut -c 1-200 bomb.folded)"

# 100000 (2000 under a wrapper or the sanitizers) names of 160 bytes
# that demangle to 5 KB each: f0<P<a, P>, f0<a, a>, ...
n=100000
$limits || n=2000
bombs 14 $n $((0x400100)) | "$MKELF" mangled
printf 'comm 100 many\nmmap 100 0x400000 0x2000000 0 %s/mangled\nsample 100 %d\n' \
	"$test_dir" $((0x400100 + 16 * 7 + 4)) | "$MKDATA" > mangled.data
for f in folded pprof; do
	if $limits; then
		check_exit 0 sh -c 'ulimit -v 200000 && ulimit -t 10 &&
			exec "$@"' sh "$PERF2GPERF" -f $f mangled.data \
			mangled.$f
	else
		check_exit 0 "$PERF2GPERF" -f $f mangled.data mangled.$f
	fi
done
awk '(/^many;f7<P<a, P>, f7<a, a>, / && /\.\.\. 1$/) ||
	/^many;_Z2f7I1PI1aS0_E/ { ok++ } END { exit !(ok == 1 && NR == 1) }' \
	mangled.folded || fail "the sampled name: $(cut -c 1-200 mangled.folded)"

# DWARF: a smaller function under a wrapper
dies=1000000
[ -z "${P2G_WRAPPER:-}" ] || dies=20000
printf 'sym f 0x400100 0xf00\ndwarf %d\n' $dies | "$MKELF" dies
{
	echo 'comm 100 dies'
	echo "mmap 100 0x400000 0x1000 0 $test_dir/dies"
	i=0
	while [ $i -lt 1000 ]; do
		echo "sample 100 $((0x400100 + i * 3))"
		i=$((i + 1))
	done
} | "$MKDATA" > dies.data
check_exit 0 cpu_limited 10 "$PERF2GPERF" -f folded --no-comm dies.data \
	dies.folded
echo 'f 1000' > expected
compare_text expected dies.folded "names in the function of many DIEs"
check_exit 0 cpu_limited 10 "$PERF2GPERF" -f pprof dies.data dies.pb.gz

if have ${CC:-gcc} && [ -z "${P2G_WRAPPER:-}" ]; then
	printf 'int f(void) { return 1; }\nint main(void) { return f(); }\n' \
		> t.c
	${CC:-gcc} -g -O0 -o t t.c 2> cc.log || hard_error "cannot build t.c"
	f=$(nm t | awk '$3 == "f" { print $1 }')
	[ -n "$f" ] || hard_error "no f in t"
	mkdir many
	{
		echo 'comm 100 many'
		i=1
		while [ $i -le 60 ]; do
			cp t many/t$i
			printf 'mmap 100 %d 0x1000 0x1000 %s/many/t%d\n' \
				$((0x10000000 * i + 0x1000)) "$test_dir" $i
			printf 'sample 100 %d\n' $((0x10000000 * i + 0x$f))
			i=$((i + 1))
		done
	} | "$MKDATA" > many.data
	check_exit 0 sh -c 'ulimit -S -n 30 && exec "$@"' sh \
		"$PERF2GPERF" -f pprof many.data many.pb.gz
	grep -q 'no usable file' err && fail "binaries lost: $(head -n 3 err)"
	# a file kept for its lines holds no descriptor: a hard limit of
	# 30 does too
	check_exit 0 sh -c 'ulimit -n 30 && exec "$@"' sh \
		"$PERF2GPERF" -f pprof many.data many.pb.gz
	grep -q 'no usable file' err && fail "binaries lost: $(head -n 3 err)"
	# with no descriptor for a binary (but for the input's), the run
	# fails saying why (the program itself: $PERF2GPERF checks what it
	# writes, with descriptors of its own)
	check_exit 2 sh -c 'ulimit -n 4 && exec "$@"' sh \
		"$top_builddir/src/perf2gperf" -f pprof many.data many.pb.gz
	check_grep 'too many open files'
	grep -q 'not found' err && fail "told not found: $(head -n 3 err)"
fi
exit 0
