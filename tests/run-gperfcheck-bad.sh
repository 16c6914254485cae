#!/bin/sh
# SPDX-License-Identifier: MIT
# gperfcheck on the hand-made profiles of testdata/gperf: every file in
# the table of testdata/gperf/README must give the exit status written
# there; an invalid file must be reported at exactly the offset derived
# by hand in the README, a valid one must dump exactly as FILE.dump (also
# written by hand).  The same dumps are cross-checked with the od + awk
# reader of tests/stacks.sh and, when Go is installed, with go tool pprof
# (which must read the same stacks from all four slot layouts).  The
# 64 KiB maps-line limit is tested at its boundary with files made here.
. "${top_srcdir:-$(dirname "$0")/..}/tests/test-subr.sh"
. "$top_srcdir/tests/stacks.sh"

readme=$(testfile gperf/README)
G=$TESTDATA/gperf

have_go=no
if have go; then
	have_go=yes
	go_env
fi

# The table: "FILE EXIT OFFSET description", FILE good-*.prof or bad-*.prof.
awk '$1 ~ /^(good|bad)-.*\.prof$/ && ($2 == "0" || $2 == "1") {
	print $1, $2, $3 }' "$readme" > table
[ -s table ] || hard_error "no file table in $readme"

# Every kept profile is documented, and every documented one exists.
for f in "$G"/*.prof; do
	b=$(basename "$f")
	grep -q "^$b " table || fail "$b is not in the table of $readme"
done

nbad=0
ngood=0
while read -r file status offset; do
	path=$G/$file
	[ -f "$path" ] || fail "$file is in the README but missing"
	if [ "$status" = 1 ]; then
		nbad=$((nbad + 1))
		check_exit 1 "$GPERFCHECK" "$path"
		[ ! -s out ] || fail "$file: gperfcheck printed on stdout"
		[ "$(wc -l < err)" -eq 1 ] || fail "$file: expected one error line"
		prefix="gperfcheck: $path: offset $offset: "
		case $(cat err) in
		"$prefix"?*) ;;
		*)	cat err >&2
			fail "$file: expected an error starting '$prefix'" ;;
		esac
		echo "$file: $(sed 's/^[^:]*: [^:]*: //' err)"
		check_exit 1 "$GPERFCHECK" -q "$path"
		[ ! -s out ] && [ ! -s err ] || fail "$file: -q printed something"
		check_exit 1 "$GPERFCHECK" --dump "$path"
		check_exit 1 "$GPERFCHECK" --summary "$path"
	else
		ngood=$((ngood + 1))
		[ "$offset" = - ] || hard_error "valid $file with an offset in the table"
		exp=$(testfile gperf/$file.dump)
		check_exit 0 "$GPERFCHECK" "$path"
		# nothing but warnings (which never change the exit status)
		[ ! -s out ] && ! grep -v ': warning: ' err > /dev/null ||
			fail "$file: gperfcheck printed something"
		check_exit 0 "$GPERFCHECK" --dump "$path"
		compare_text "$exp" out "gperfcheck --dump $file"
		gperf_ref_dump "$path" > ref
		compare_text "$exp" ref "od reading of $file (test bug)"
		if [ $have_go = yes ]; then
			go tool pprof -raw -symbolize=none "$path" > go.out 2> go.err ||
				{ cat go.err >&2; fail "go tool pprof cannot read $file"; }
			stacks_go_raw go.out > go.stacks
			stacks_dump "$exp" > exp.stacks
			compare_text exp.stacks go.stacks "Go pprof's reading of $file"
		fi
		echo "$file: valid, dump as expected"
	fi
done < table
[ $nbad -ge 13 ] && [ $ngood -ge 4 ] ||
	hard_error "table too short ($nbad bad, $ngood good files)"

# Several files: the status is 1 when any is invalid, every invalid one is
# reported, the valid ones are not.
check_exit 1 "$GPERFCHECK" "$G/good-64le.prof" "$G/bad-pc0.prof" \
	"$G/good-32be.prof" "$G/bad-java.prof"
[ "$(wc -l < err)" -eq 2 ] || fail "expected two error lines for two bad files"
check_grep "$G/bad-pc0.prof: offset 0x40: "
check_grep "$G/bad-java.prof: offset 0x10: "
check_exit 0 "$GPERFCHECK" "$G/good-64le.prof" "$G/good-32le.prof"

# --- the maps line length limit, at the boundary (see the README):
# header + record + trailer (0x58 bytes), a valid maps line (52 bytes),
# then "k=vvv...v" of L bytes.
longline() {
	head -c 88 "$G/bad-maps-line.prof"
	printf '00400000-00402000 r-xp 00000000 fe:00 123 /bin/prog\nk='
	awk -v n=$(($1 - 2)) 'BEGIN { s = "vvvvvvvvvvvvvvvv"
		while (length(s) < n) s = s s
		printf "%s\n", substr(s, 1, n) }'
}
longline 65535 > line65535.prof
longline 65536 > line65536.prof
[ "$(wc -c < line65536.prof)" -eq $((0x8c + 65537)) ] ||
	hard_error "line65536.prof has the wrong size"
check_exit 0 "$GPERFCHECK" line65535.prof
check_exit 1 "$GPERFCHECK" line65536.prof
check_grep "gperfcheck: line65536.prof: offset 0x8c: "
if [ $have_go = yes ]; then
	go tool pprof -raw -symbolize=none line65535.prof > /dev/null 2> go.err ||
		{ cat go.err >&2; fail "Go pprof rejects a 65535-byte maps line"; }
	if go tool pprof -raw -symbolize=none line65536.prof > /dev/null 2> go.err; then
		fail "Go pprof reads a 65536-byte maps line: the 64 KiB rule is wrong"
	fi
fi

# --- the depth limit (16777215 PCs per record), at the boundary: a
# 32-bit little-endian header, then a record of count 1 whose PC slots
# are the zeros of a sparse file.  One PC more than the limit is refused
# at the depth slot; the limit itself is read on, to the PC 0 after it.
# deep SIZE DEPTH-BYTES FILE
deep() {
	printf '\0\0\0\0\3\0\0\0\0\0\0\0\350\3\0\0\0\0\0\0\1\0\0\0' > "$3"
	printf "$2" >> "$3"
	truncate -s $((0x1c + 4 * $1)) "$3" || hard_error "truncate failed"
}
deep 16777216 '\0\0\0\1' deep1.prof
check_exit 1 "$GPERFCHECK" deep1.prof
check_grep "gperfcheck: deep1.prof: offset 0x18: record 0 has 16777216 PCs, more than the 16777215 read here"
deep 16777215 '\377\377\377\0' deep0.prof
check_exit 1 "$GPERFCHECK" deep0.prof
check_grep "gperfcheck: deep0.prof: offset 0x1c: record 0 has PC 0 at depth 0"
rm -f deep0.prof deep1.prof

exit 0
