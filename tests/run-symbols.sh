#!/bin/sh
# SPDX-License-Identifier: MIT
# The symbolizer names every frame as perf does: build
# testdata/progs/symprog.c (a static function, an inlined one, a global
# and a weak symbol at one address, a .cold part, a .constprop clone),
# record it with perf record -g, and compare the driver's name for every
# callchain frame of every sample (user-space, libc, ld.so, vdso and
# kernel) with perf script's.  perf's build-ID cache goes into the test
# directory (HOME), where the driver finds the vdso and the kernel's
# kallsyms copy as perf script does.
# With --lines, the inlined functions, files and lines of every other
# byte of symprog's functions are addr2line -i's (binutils), but for the
# outermost function, which is the symbol's (perf's name) rather than
# DWARF's (scaled.constprop.0, not scaled); the same with its DWARF
# compressed (-gz=zlib), as a distribution's debug files are, and built
# with clang, whose DWARF has no .debug_aranges.
# With g++ and the demangler built in, the same for
# testdata/progs/symcxx.cc: C++ names demangled as perf shows them.
# Then perf's build-ID cache: the program, added with perf buildid-cache
# and moved away, is found there (and named); a different program put
# at its path is refused ("build ID differs"), and so is the cache
# entry's when the recording's build ID is changed.
# Also the older cache layout (HOME/.debug/PATH/BUILDID/elf) and the
# --binaries directories: a file of the same base name, any file with the
# build ID, the build-ID tree perf archive unpacks; a file there with
# another build ID is refused.
# Needs perf allowed to record and gcc; skips otherwise (the C++ part
# needs g++ and libiberty, and is left out with a note without them).
. "${top_srcdir:-$(dirname "$0")/..}/tests/test-subr.sh"
. "$top_srcdir/tests/symframes.sh"

need_cmd perf gcc
src=$(testfile progs/symprog.c)
HOME=$test_dir/home
export HOME
mkdir -p "$HOME"

${CC:-gcc} -O2 -g -fno-omit-frame-pointer -o symprog "$src" 2> cc.log || {
	cat cc.log >&2
	skip "cannot build symprog.c"
}
n=20000000
[ -n "${P2G_WRAPPER:-}" ] && n=5000000
perf record -q -g -F 2000 -o sym.data -- ./symprog $n > rec.log 2>&1 ||
	skip "perf record does not work here: $(head -n 1 rec.log)"

perf_frames sym.data lookup.in expected
for f in leaf_static real_name cold_path main; do
	grep -q " $f\$" expected ||
		hard_error "perf names no frame $f (recording too short?)"
done
$SYMLOOKUP --home "$HOME" < lookup.in > got ||
	fail "symlookup failed"
compare_text expected got "the names of the frames"

# --lines against addr2line -i, for the program $1 (symprog.c built)
lines_check() {
	printf 'map 0 0 0 1 - %s\n' "$test_dir/$1" > lines.in
	# the bytes of the functions, as file offsets (where the program's
	# executable segment has its offsets equal to its addresses)
	fns='^(leaf_static|real_name|cold_path|scaled)'
	nm -S "$1" | awk -v fns="$fns" '
	function hex(s,   i, n, d) {
		n = 0
		for (i = 1; i <= length(s); i++) {
			d = index("0123456789abcdef", substr(s, i, 1))
			n = n * 16 + d - 1
		}
		return n
	}
	$3 ~ /^[tT]$/ && $4 ~ fns {
		for (o = 0; o < hex($2); o += 2)
			printf "@%x\n", hex($1) + o
	}' >> lines.in
	readelf -lW "$1" |
		awk '$1 == "LOAD" && / R E / && $2 != $3 { exit 1 }' ||
		hard_error "$1's text has offsets unlike its addresses"
	sed -n 's/^@/0x/p' lines.in > lines.addrs
	addr2line -a -i -f -e "$1" < lines.addrs > a2l.txt ||
		hard_error "addr2line failed"
	awk '/^0x/ {
		if (out != "")
			print out
		a = $1
		sub(/^0x0*/, "", a)
		out = "@" a " "
		sep = ""
		next
	}
	{
		fn = $0
		getline loc
		sub(/ \(discriminator [0-9]+\)$/, "", loc)
		sub(/:\?$/, ":0", loc)	# no line
		out = out sep fn "@" loc
		sep = ";"
	}
	END { if (out != "") print out }' a2l.txt |
		sed -E 's/(^@[0-9a-f]+ |;)[^;@]*@([^;]*)$/\1@\2/' > lines.exp
	$SYMLOOKUP --lines < lines.in > lines.raw || fail "symlookup failed"
	sed -E 's/(^@[0-9a-f]+ |;)[^;@]*@([^;]*)$/\1@\2/' lines.raw > lines.got
	grep -q ';' lines.exp || hard_error "addr2line shows no inlined frame"
	compare_text lines.exp lines.got \
		"the inlined frames and lines of $1"
}
if have addr2line; then
	lines_check symprog
	# its DWARF compressed, as in a distribution's debug files
	if ${CC:-gcc} -O2 -g -gz=zlib -fno-omit-frame-pointer \
		-o symprog-gz "$src" 2> cc.log &&
		readelf -SW symprog-gz | grep -q 'debug_info .* C '; then
		lines_check symprog-gz
	else
		echo "note: no -gz=zlib: compressed DWARF not checked"
	fi
	# clang's DWARF, which has no .debug_aranges
	if have clang; then
		clang -O2 -g -fno-omit-frame-pointer -o symprog-clang "$src" \
			2> cc.log || hard_error "clang cannot build symprog.c"
		lines_check symprog-clang
	else
		echo "note: no clang: its DWARF not checked"
	fi
else
	echo "note: no addr2line: --lines not checked"
fi

# C++ names
if ! have ${CXX:-g++}; then
	echo "note: no g++: C++ names not checked"
elif [ "$($SYMLOOKUP --demangles)" != yes ]; then
	echo "note: built without libiberty: C++ names not checked"
else
	${CXX:-g++} -O2 -g -fno-omit-frame-pointer -o symcxx \
		"$(testfile progs/symcxx.cc)" 2> cxx.log || {
		cat cxx.log >&2
		hard_error "cannot build symcxx.cc"
	}
	perf record -q -g -F 2000 -o cxx.data -- ./symcxx 20000000 \
		> cxxrec.log 2>&1 || hard_error "perf record failed"
	perf_frames cxx.data cxx.in cxx.exp
	for f in "ns::K::spin" "ns::K::run" "twice<unsigned long>" \
		"(anonymous namespace)::hidden"; do
		grep -q -F " $f" cxx.exp ||
			hard_error "perf names no frame $f (too short a run?)"
	done
	$SYMLOOKUP --home "$HOME" < cxx.in > cxx.got ||
		fail "symlookup failed"
	compare_text cxx.exp cxx.got "the names of the C++ frames"
fi

# the vdso, which perf record keeps in its cache
vbid=$(perf buildid-list -i sym.data | awk '$2 == "[vdso]" { print $1 }')
if [ -n "$vbid" ]; then
	printf 'map 7f0000000000 0 0 1 %s [vdso]\nfile\n' "$vbid" > vdso.in
	$SYMLOOKUP --home "$HOME" < vdso.in > vdso.out ||
		fail "symlookup failed"
	check_grep "file $HOME/.debug/.build-id/" vdso.out
	check_grep "/vdso" vdso.out
fi

# perf's build-ID cache: move the program away after adding it
bid=$(perf buildid-list -i sym.data | awk '$2 ~ /symprog$/ { print $1 }')
[ -n "$bid" ] || hard_error "no build ID for symprog in sym.data"
perf buildid-cache -a "$test_dir/symprog" > bc.log 2>&1 ||
	hard_error "perf buildid-cache -a failed: $(head -n 1 bc.log)"
addr=$(awk '$2 == "real_name" { print $1; exit }' expected)
[ -n "$addr" ] || hard_error "no frame in real_name"
grep -m 1 -B 1 -x -e "$addr" lookup.in | head -n 1 > map.line
mv symprog symprog.moved
{ cat map.line; echo file; echo "$addr"; } > moved.in
$SYMLOOKUP --home "$HOME" < moved.in > moved.out || fail "symlookup failed"
check_grep "file $HOME/.debug/" moved.out
check_grep "$addr real_name" moved.out

# another program at the recorded path: refused, named from the cache
printf 'int main(void) { return 0; }\n' > other.c
${CC:-gcc} -o symprog other.c
$SYMLOOKUP --home "$HOME" < moved.in > other.out || fail "symlookup failed"
check_grep "$addr real_name" other.out
# without the cache: nothing, because the build ID differs
$SYMLOOKUP --home "$test_dir/nohome" < moved.in > nocache.out ||
	fail "symlookup failed"
check_grep "file - build ID differs" nocache.out
check_grep "$addr [unknown]" nocache.out
# a recorded build ID that is nowhere: not found
sed "s/ $bid / 0123456789abcdef0123456789abcdef01234567 /" moved.in > nobid.in
$SYMLOOKUP --home "$HOME" < nobid.in > nobid.out || fail "symlookup failed"
check_grep "file - build ID differs" nobid.out
check_grep "$addr [unknown]" nobid.out

# the older cache layout, with no .build-id link
rm -rf "$HOME/.debug/.build-id"
$SYMLOOKUP --home "$HOME" < moved.in > old.out || fail "symlookup failed"
check_grep "$addr real_name" old.out
check_grep "file $HOME/.debug/" old.out
# --binaries: nothing in the cache; a file of the same base name with
# another build ID is refused, one with the build ID under another name
# is found; then the same base name; then the build-ID tree
mkdir bin1 bin2 bin3 bin4
cp symprog bin1/symprog
cp symprog.moved bin2/renamed
cp symprog.moved bin3/symprog
tree=bin4/.build-id/$(echo $bid | cut -c1-2)/$(echo $bid | cut -c3-)
mkdir -p $tree
cp symprog.moved $tree/elf
for d in bin1 bin2 bin3 bin4; do
	$SYMLOOKUP --home "$test_dir/nohome" --binaries "$test_dir/bin1" \
		--binaries "$test_dir/$d" < moved.in > $d.out ||
		fail "symlookup failed"
done
check_grep "file - build ID differs" bin1.out
check_grep "$addr [unknown]" bin1.out
check_grep "file $test_dir/bin2/renamed" bin2.out
check_grep "$addr real_name" bin2.out
check_grep "file $test_dir/bin3/symprog" bin3.out
check_grep "file $test_dir/bin4/.build-id/" bin4.out
check_grep "$addr real_name" bin4.out
# under a symfs: the debug file by build ID under its
# /usr/lib/debug/.build-id (binutils' objcopy makes one) is found, but
# names nothing, its program headers being emptied (no file offset can
# be placed): as perf script --symfs names it; then the recorded path
# there
if have objcopy; then
	sub=$(echo $bid | cut -c1-2)/$(echo $bid | cut -c3-)
	mkdir -p symfs/usr/lib/debug/.build-id/$(echo $bid | cut -c1-2)
	objcopy --only-keep-debug symprog.moved \
		symfs/usr/lib/debug/.build-id/$sub.debug ||
		hard_error "objcopy --only-keep-debug failed"
	$SYMLOOKUP --home "$test_dir/nohome" --symfs "$test_dir/symfs" \
		< moved.in > symfs.out || fail "symlookup failed"
	check_grep "file $test_dir/symfs/usr/lib/debug/.build-id/$sub.debug" \
		symfs.out
	perfname=$(HOME=$test_dir/nohome perf script -i sym.data \
		--symfs "$test_dir/symfs" -F ip,sym 2> /dev/null |
		awk -v a="${addr#@}" '$1 == a { print $2; exit }')
	[ -n "$perfname" ] || hard_error "perf script shows no frame $addr"
	check_grep "$addr $perfname" symfs.out
	mkdir -p "symfs$test_dir"
	cp symprog.moved "symfs$test_dir/symprog"
	$SYMLOOKUP --home "$test_dir/nohome" --symfs "$test_dir/symfs" \
		< moved.in > symfs2.out || fail "symlookup failed"
	check_grep "file $test_dir/symfs$test_dir/symprog" symfs2.out
	check_grep "$addr real_name" symfs2.out
fi
exit 0
