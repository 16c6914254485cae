#!/bin/sh
# SPDX-License-Identifier: MIT
# Hostile DWARF, on ELF files tests/mkelf makes here (its dwarf-ranges
# line): scopes that share one range list of 100000 entries, the last
# of them over the end of .text (0x400f00 to 0x401000), the others
# above it:
#  - 10000 lexical blocks of "f" name the list, then "g" is inlined
#    over the rest of .text.  Where each lookup read the list once per
#    block (about 13 s for each address not in it), the work budget of
#    the file ran out in the first lookup, and "g" was never found: the
#    list is read once, the blocks after the first can never be the
#    first to hold an address, and each lookup is a binary search;
#  - 500 functions name the list: the index of the unit's functions
#    held a copy of it for each (3.1 GB), where it now holds it once.
# 136 addresses are sampled, 128 in "g", 8 in the list.  And a wide
# level: "f" has 100000 one-byte inlined copies of "g" (its dwarf-inlines
# line), those over the 1000 addresses sampled last in DIE order; each
# lookup tried the copies one by one, until the work budget ran out
# (after 117 addresses), where a binary search finds the one copy.
# The profiles are made in a few seconds of CPU time and 200 MB of
# address space (no limits under a wrapper or the sanitizers).  The
# names: the symbol "f" in folded stacks, and in the pprof profile (read
# with protoc, when installed) and the symbolizer's frames "g" inlined
# at each of its addresses.
# And DWARF without .debug_aranges (as clang writes it): the frames are
# those of the same DWARF with it.
. "${top_srcdir:-$(dirname "$0")/..}/tests/test-subr.sh"

hostile_setup
. "$top_srcdir/tests/symframes.sh"

# run CMD...: CMD in 5 s of CPU time and 200 MB of address space
run() {
	if $limits; then
		check_exit 0 sh -c 'ulimit -t 5 && ulimit -v 200000 &&
			exec "$@"' sh "$@"
	else
		check_exit 0 "$@"
	fi
}

# lines PROFILE: the number of its locations with 1 line, then with 2
# (with "g" inlined), read with protoc; false without protoc.
lines() {
	have protoc || return 1
	gzip -dc "$1" | protoc --decode_raw > decoded 2> protoc.err || {
		cat protoc.err >&2
		fail "protoc cannot decode the pprof profile"
	}
	grep -q '^6: "g"$' decoded || fail "no g in the string table"
	# locations are field 4 of the profile, their lines field 4
	awk '/^4 \{/ { loc = 1; n = 0 }
		loc && /^  4 \{/ { n++ }
		loc && /^\}/ { count[n]++; loc = 0 }
		END { printf "%d %d\n", count[1], count[2] }' decoded > lines
}

# samples N START STEP: N samples of process 100, at START, START + STEP...
samples() {
	awk -v n="$1" -v a="$2" -v step="$3" 'BEGIN {
		for (i = 0; i < n; i++)
			printf "sample 100 %d\n", a + i * step }'
}

# The samples: 128 addresses in "g", 8 in the range list.
{
	echo 'comm 100 dw'
	echo "mmap 100 0x400000 0x1000 0 $test_dir/dw"
	samples 128 $((0x400100)) 28
	samples 8 $((0x400f00)) 32
} | "$MKDATA" > dw.data
echo 'f 136' > expected

for shape in '10000 100000' '0 100000 500'; do
	printf 'sym f 0x400100 0xf00\ndwarf-ranges %s\n' "$shape" |
		"$MKELF" dw
	run "$PERF2GPERF" -f folded --no-comm dw.data dw.folded
	compare_text expected dw.folded "names with dwarf-ranges $shape"
	run "$PERF2GPERF" -f pprof dw.data dw.pb.gz
	lines dw.pb.gz || continue
	echo '8 128' > expected.lines
	compare_text expected.lines lines "inlined g with dwarf-ranges $shape"
done

printf 'sym f 0x400100 0xf00\ndwarf-inlines 100000\n' | "$MKELF" wide
{
	echo 'comm 100 wide'
	echo "mmap 100 0x400000 0x1000 0 $test_dir/wide"
	samples 1000 $((0x400100)) 3
} | "$MKDATA" > wide.data
run "$PERF2GPERF" -f folded --no-comm wide.data wide.folded
echo 'f 1000' > expected
compare_text expected wide.folded "names in the wide level"
run "$PERF2GPERF" -f pprof wide.data wide.pb.gz
if lines wide.pb.gz; then
	echo '0 1000' > expected.lines
	compare_text expected.lines lines "inlined g in the wide level"
fi
# the same frames from the symbolizer alone (no protoc needed)
{
	echo "map 400000 401000 0 1 - $test_dir/wide"
	samples 1000 $((0x400100)) 3 | awk '{ printf "%x\n", $3 }'
} > wide.in
run $SYMLOOKUP --lines < wide.in
mv out wide.frames
n=$(grep -c '^[0-9a-f]* g@[^;]*;f@' wide.frames || :)
[ "$n" = 1000 ] ||
	fail "inlined g at $n of 1000 addresses of the wide level (symlookup)"

# Where .debug_aranges is missing (clang writes none), the units' own
# ranges say which unit holds an address: the same DWARF with and
# without it gives the same frames, "g" inlined in "f".
for f in ar noar; do
	{
		printf 'sym f 0x400100 0xf00\ndwarf-inlines 8\n'
		[ $f = ar ] || echo noaranges
	} | "$MKELF" $f
	printf 'map 400000 401000 0 1 - %s/%s\n400100\n400104\n400107\n400200\n' \
		"$test_dir" $f > $f.in
	run $SYMLOOKUP --lines < $f.in
	mv out $f.frames
done
grep -q '^400104 g@[^;]*;f@' ar.frames ||
	hard_error "no inlined g with .debug_aranges: $(cat ar.frames)"
compare_text ar.frames noar.frames "frames without .debug_aranges"

# A string section of the DWARF that does not end in a NUL: libdw 0.188
# reads a line table's file names (in .debug_line_str) with strlen(),
# past the section's end (a heap overflow under ASan; garbage names
# else).  Such DWARF gives no lines, its functions named by their
# symbols.  (With gcc, whose DWARF 5 has a .debug_line_str.)
if have ${CC:-gcc} && have readelf && have nm; then
	printf 'int f(int x) { return x * 3; }\nint main(int c, char **v) { (void)v; return f(c); }\n' > s.c
	${CC:-gcc} -g -O0 -o sprog s.c 2> cc.log || hard_error "cannot build s.c"
	set -- $(readelf -SW sprog | sed -n 's/^.*\] \.debug_line_str  *[A-Z]*  *[0-9a-f]*  *\([0-9a-f]*\)  *\([0-9a-f]*\) .*/\1 \2/p')
	f=$(nm sprog | awk '$3 == "f" { print $1 }' | sed 's/^0*//')
	if [ $# = 2 ] && [ -n "$f" ]; then
		printf 'map 0 0 0 1 - %s/sprog\n@%s\n' "$test_dir" "$f" > s.in
		run $SYMLOOKUP --lines < s.in
		grep -q "^@$f f@.*s\.c:1\$" out ||
			hard_error "no line for f: $(cat out)"
		printf A | dd of=sprog bs=1 seek=$((0x$1 + 0x$2 - 1)) \
			conv=notrunc 2> /dev/null
		run $SYMLOOKUP --lines < s.in
		echo "@$f f@??:0" > expected
		compare_text expected out "f, its .debug_line_str unended"
	else
		echo "note: no .debug_line_str in gcc's DWARF: not checked"
	fi
fi
exit 0
