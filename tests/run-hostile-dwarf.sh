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
# 136 addresses are sampled, 128 in "g", 8 in the list; the profiles are
# made in a few seconds of CPU time and 200 MB of address space (no
# limits under a wrapper or the sanitizers).  The names: the symbol "f"
# in folded stacks, and in the pprof profile (read with protoc, when
# installed) "g" inlined at each of its 128 addresses.
. "${top_srcdir:-$(dirname "$0")/..}/tests/test-subr.sh"

hostile_setup

# run CMD...: CMD in 5 s of CPU time and 200 MB of address space
run() {
	if $limits; then
		check_exit 0 sh -c 'ulimit -t 5 && ulimit -v 200000 &&
			exec "$@"' sh "$@"
	else
		check_exit 0 "$@"
	fi
}

# The samples: 128 addresses in "g", 8 in the range list.
{
	echo 'comm 100 dw'
	echo "mmap 100 0x400000 0x1000 0 $test_dir/dw"
	i=0
	while [ $i -lt 128 ]; do
		echo "sample 100 $((0x400100 + i * 28))"
		i=$((i + 1))
	done
	i=0
	while [ $i -lt 8 ]; do
		echo "sample 100 $((0x400f00 + i * 32))"
		i=$((i + 1))
	done
} | "$MKDATA" > dw.data
echo 'f 136' > expected

for shape in '10000 100000' '0 100000 500'; do
	printf 'sym f 0x400100 0xf00\ndwarf-ranges %s\n' "$shape" |
		"$MKELF" dw
	run "$PERF2GPERF" -f folded --no-comm dw.data dw.folded
	compare_text expected dw.folded "names with dwarf-ranges $shape"
	run "$PERF2GPERF" -f pprof dw.data dw.pb.gz
	have protoc || continue
	gzip -dc dw.pb.gz | protoc --decode_raw > decoded 2> protoc.err || {
		cat protoc.err >&2
		fail "protoc cannot decode the pprof profile"
	}
	# the locations (field 4 of the profile) by their number of
	# lines (field 4 of a location): 2 with "g" inlined, else 1
	awk '/^4 \{/ { loc = 1; n = 0 }
		loc && /^  4 \{/ { n++ }
		loc && /^\}/ { count[n]++; loc = 0 }
		END { printf "%d %d\n", count[1], count[2] }' decoded > lines
	echo '8 128' > expected.lines
	compare_text expected.lines lines "inlined g with dwarf-ranges $shape"
	grep -q '^6: "g"$' decoded || fail "no g in the string table"
done
exit 0
