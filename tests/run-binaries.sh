#!/bin/sh
# SPDX-License-Identifier: MIT
# --binaries: a recording converted where its program is no longer at
# its recorded path.  Build testdata/progs/hot.c, record it with
# --call-graph dwarf (perf's build-ID cache in the test directory, HOME),
# take perf script's names of the program's frames and perf2gperf's
# folded stacks and profile, then run perf archive, move the program
# away and empty the cache:
#  - with nothing to find it, one warning names the file ("not found",
#    with -v where it was looked for) and the program's names are gone;
#  - with --binaries DIR, DIR the unpacked perf archive, a directory
#    holding the program under its own name, or under another name, the
#    DWARF stacks (the profile) and the folded stacks are those of
#    before the move, and hold perf script's names;
#  - a DIR holding another build of the program under its name is
#    refused with one warning ("build ID differs");
#  - perf buildid-cache -a of the moved program: found in the cache;
#  - gperfcheck --expect-function names the program's function only with
#    --binaries.
# Needs perf allowed to record, perf archive, tar with bzip2 and gcc;
# skips otherwise.
. "${top_srcdir:-$(dirname "$0")/..}/tests/test-subr.sh"

need_cmd perf gcc tar bzip2
src=$(testfile progs/hot.c)
HOME=$test_dir/home
export HOME
mkdir -p "$HOME" bin
${CC:-gcc} -O2 -g -o bin/hot "$src" 2> cc.log || {
	cat cc.log >&2
	skip "cannot build hot.c"
}
perf record -q --call-graph dwarf -F 500 -o r.data -- ./bin/hot \
	> rec.log 2>&1 ||
	skip "perf record does not work here: $(head -n 1 rec.log)"

# perf script's names of the program's frames, and what perf2gperf
# makes with the program in place
hot_before r.data

perf archive r.data > archive.log 2>&1 ||
	hard_error "perf archive failed: $(head -n 1 archive.log)"
[ -s r.data.tar.bz2 ] || skip "perf archive wrote no r.data.tar.bz2"
mkdir arch
tar xjf r.data.tar.bz2 -C arch ||
	hard_error "cannot unpack r.data.tar.bz2"

mv bin/hot hot.moved
rm -rf "$HOME/.debug"
bin=$test_dir/bin/hot

# found nowhere: one warning (the unwinder and the symbolizer both miss
# it), and -v says where it was looked for
check_exit 0 "$PERF2GPERF" -v -f folded r.data none.folded
check_grep "warning: $bin: no usable file (not found)"
[ "$(grep -c "no usable file" err)" -eq 1 ] ||
	fail "the missing program is not reported once: $(cat err)"
check_grep "$bin: looked for at $bin"
! grep -q ';hot_loop' none.folded ||
	fail "hot_loop named with the program moved away"

# found through --binaries
mkdir byname bybid
cp hot.moved byname/hot
cp hot.moved bybid/renamed
dirs="arch byname bybid"
[ -z "${P2G_WRAPPER:-}" ] || dirs=arch
for dir in $dirs; do
	check_exit 0 "$PERF2GPERF" --binaries "$dir" -f folded r.data \
		$dir.folded
	! grep -q "no usable file.*/bin/hot" err ||
		fail "--binaries $dir: $(cat err)"
	compare_text before.folded $dir.folded "folded with --binaries $dir"
	check_exit 0 "$PERF2GPERF" -q --no-fixup --binaries "$dir" r.data \
		$dir.prof
	check_exit 0 "$GPERFCHECK" --dump $dir.prof
	compare_text before.dump out "the profile with --binaries $dir"
done

# gperfcheck's names: hot_loop only with --binaries
check_exit 1 "$GPERFCHECK" -q --expect-function hot_loop before.prof
check_exit 0 "$GPERFCHECK" -q --binaries arch --expect-function hot_loop \
	before.prof

# another build under the program's name: refused, and said so once;
# an empty directory first in the list changes nothing
mkdir other empty
${CC:-gcc} -O0 -o other/hot "$src" 2> cc.log ||
	hard_error "cannot build hot.c again: $(head -n 1 cc.log)"
check_exit 0 "$PERF2GPERF" --binaries empty --binaries other -f folded \
	r.data other.folded
check_grep "warning: $bin: no usable file (build ID differs)"
[ "$(grep -c "no usable file" err)" -eq 1 ] ||
	fail "the refused program is not reported once: $(cat err)"
! grep -q ';hot_loop' other.folded ||
	fail "hot_loop named from a binary with another build ID"

# perf buildid-cache -a: the cache has it
perf buildid-cache -a "$test_dir/hot.moved" > bc.log 2>&1 ||
	hard_error "perf buildid-cache -a failed: $(head -n 1 bc.log)"
check_exit 0 "$PERF2GPERF" -f folded r.data cache.folded
! grep -q "no usable file.*/bin/hot" err ||
	fail "with the cache: $(cat err)"
while read -r fn; do
	grep -q ";$fn[; ]" cache.folded ||
		fail "$fn is not named from perf's build-ID cache"
done < names

exit 0
