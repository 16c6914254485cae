#!/bin/sh
# SPDX-License-Identifier: MIT
# gperfcheck's symbols (doc/gperfcheck.1, --expect-function) come from
# where pprof's come from, addr2line and nm:
#  - a binary stripped of its .symtab, with its symbols in a separate
#    debug file found through its .gnu_debuglink, beside it or in its
#    .debug directory: the PCs of a profile are named from the debug
#    file;
#  - without the debug file, and without a .dynsym, nothing is named
#    (--symbolizable 100 fails); nor with a stale debug file (without a
#    build id, its CRC is not the one .gnu_debuglink gives);
#  - a bare file name in the maps text is in the current directory, and
#    so is its debug file;
#  - a PC past the end of a function but before the next is not named,
#    as perf names it (a symbol's size bounds it), though pprof names it
#    after the function from nm's table.
# The oracles: nm on the unstripped binary for the addresses and names,
# and, where google-pprof runs, its --text view of the same profile.
# Skips without gcc, objcopy, strip, nm or readelf.
. "${top_srcdir:-$(dirname "$0")/..}/tests/test-subr.sh"
need_cmd gcc objcopy strip nm readelf od

mkprogs=$(testfile progs/mkprogs.sh)
cflags=$(sed -n 's/^CFLAGS="\(.*\)"$/\1/p' "$mkprogs")
${CC:-gcc} $cflags -o multi.full "$TESTDATA/progs/multi.c" 2> cc.log || {
	cat cc.log >&2
	skip "cannot build multi.c"
}

# byte V, q V...: the 64-bit little-endian slots of a profile
byte() { printf "\\$(printf '%03o' "$1")"; }
q() {
	for v in "$@"; do
		i=0
		while [ $i -lt 8 ]; do
			byte $(( (v >> (8 * i)) & 255 ))
			i=$((i + 1))
		done
	done
}

# The file offset of the executable segment: the maps line maps the
# file from offset 0 at BASE, so a symbol at VADDR is at
# BASE + VADDR - seg_vaddr + seg_offset.
set -- $(readelf -lW multi.full | awk '$1 == "LOAD" && / E / { print $2, $3; exit }')
[ $# -eq 2 ] || hard_error "no executable LOAD segment in multi.full"
seg_off=$(($1))
seg_va=$(($2))
base=$((0x10000000))
size=$(wc -c < multi.full)
end=$((base + (size + 4095) / 4096 * 4096))
addr_of() {
	a=$(nm multi.full | awk -v f="$1" '$3 == f { print $1 }')
	[ -n "$a" ] || hard_error "nm finds no $1 in multi.full"
	echo $((base + 0x$a - seg_va + seg_off))
}
burn_b=$(addr_of burn_b)
main=$(addr_of main)
inside_b=$((burn_b + 4))
# the first function followed by a gap before the next symbol, and the
# first PC in that gap: named after the function from nm's table
nm -nS multi.full > syms
gap_fn=
gap=
prev=
pend=0
while read -r f1 f2 f3 f4; do
	if [ -n "$f4" ]; then t=$f3 n=$f4 sz=$((0x$f2)); else t=$f2 n=$f3 sz=0; fi
	case $t in t|T|w|W) ;; *) continue ;; esac
	a=$((0x$f1))
	if [ -n "$prev" ] && [ $pend -lt $a ]; then
		gap_fn=$prev
		gap=$((base + pend - seg_va + seg_off))
		break
	fi
	prev=
	if [ $sz -gt 0 ]; then prev=$n pend=$((a + sz)); fi
done < syms

# prof DIR [PATH]: a profile of DIR/multi (or of PATH, as the maps text
# names it): burn_b (3 samples), and the PC in the gap after $gap_fn
# (1 sample)
prof() {
	{
		q 0 3 0 10000 0
		q 3 2 $inside_b $((main + 5))
		[ -z "$gap" ] || q 1 2 $gap $((main + 9))
		q 0 1 0
		printf '%x-%x r-xp 00000000 00:00 0 %s\n' $base $end \
			"${2:-$test_dir/$1/multi}"
	} > $1.prof
}

mkdir beside dotdebug stripped
objcopy --only-keep-debug multi.full multi.debug ||
	hard_error "objcopy --only-keep-debug failed"
for d in beside dotdebug stripped; do
	strip --strip-all -o $d/multi multi.full || hard_error "strip failed"
	readelf -SW $d/multi | grep -q '\.symtab' &&
		hard_error "strip left a .symtab in $d/multi"
	(cd $d && objcopy --add-gnu-debuglink=../multi.debug multi) ||
		hard_error "objcopy --add-gnu-debuglink failed"
	prof $d
done
cp multi.debug beside/multi.debug
mkdir dotdebug/.debug
cp multi.debug dotdebug/.debug/multi.debug

if [ -n "$gap" ]; then
	top="burn_b 3 (75.0%)"
	named=75
	printf '0 main\n1 %s\n3 burn_b\n' "$gap_fn" | sort > flat.exp
else
	echo "note: no gap after a function of multi: PCs past a function's end not checked"
	top="burn_b 3 (100.0%)"
	named=100
	printf '0 main\n3 burn_b\n' | sort > flat.exp
fi
for d in beside dotdebug; do
	check_exit 0 "$GPERFCHECK" -q --expect-function burn_b --min-share 75 \
		--symbolizable $named $d.prof
	[ $named = 100 ] ||
		check_exit 1 "$GPERFCHECK" -q --symbolizable 100 $d.prof
	check_exit 0 "$GPERFCHECK" --summary $d.prof
	# one function a line after the heading: burn_b alone
	check_grep "top functions (leaf samples):" out
	sed -n '/^  top functions (leaf samples):$/,$p' out > top.got
	printf '  top functions (leaf samples):\n    %s\n' "$top" > top.exp
	compare_text top.exp top.got "--summary's top functions (the PC past the end of $gap_fn unnamed)"
	if have google-pprof; then
		HOME=$test_dir google-pprof --text $d/multi $d.prof \
			> $d.txt 2> $d.err || {
			cat $d.err >&2
			fail "google-pprof cannot read $d.prof"
		}
		awk 'NR > 1 { print $1, $6 }' $d.txt | sort > $d.flat
		compare_text flat.exp $d.flat "google-pprof's flat view of $d.prof"
	fi
done

check_exit 1 "$GPERFCHECK" --symbolizable 100 stripped.prof
check_grep "a leaf with a symbol: 0.0% (0 of " out

# a bare name in the maps text is a file of the current directory, and
# so is its debug file
prof bare multi
(cd beside && "$GPERFCHECK" -q --expect-function burn_b --symbolizable $named \
	../bare.prof) || fail "a bare file name in the maps text finds no debug file"

# without a build id, the debug file must have the CRC .gnu_debuglink
# gives, as addr2line requires: a stale one names nothing
${CC:-gcc} $cflags -Wl,--build-id=none -o multi.nobid "$TESTDATA/progs/multi.c" ||
	hard_error "cannot build multi.c without a build id"
if [ "$(nm multi.nobid | awk '$3 == "burn_b"')" = "$(nm multi.full | awk '$3 == "burn_b"')" ]; then
	mkdir nobid
	objcopy --only-keep-debug multi.nobid nobid/multi.debug &&
		strip --strip-all -o nobid/multi multi.nobid &&
		(cd nobid && objcopy --add-gnu-debuglink=multi.debug multi) ||
		hard_error "cannot strip multi.nobid"
	prof nobid
	check_exit 0 "$GPERFCHECK" -q --expect-function burn_b nobid.prof
	cp multi.debug nobid/multi.debug
	check_exit 1 "$GPERFCHECK" --symbolizable 100 nobid.prof
	check_grep "a leaf with a symbol: 0.0% (0 of " out
else
	echo "note: multi.nobid is laid out unlike multi: stale debug files not checked"
fi
exit 0
