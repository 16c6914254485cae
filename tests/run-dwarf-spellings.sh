#!/bin/sh
# SPDX-License-Identifier: MIT
# One binary under many spellings of its path, its samples unwound with
# DWARF.  tests/respell rewrites testdata/dwarfprog.perf.data.gz (perf
# record --call-graph dwarf of testdata/dwarfprog.gz, as in
# run-dwarf-fixture.sh) so that its 248 samples, with the registers and
# stack copies perf wrote, fall to 200 processes, each of which maps the
# program under its own spelling of its path: through a symbolic link, a
# hard link, /opt//p2g-fixture/dwarfprog, /opt/p2g-fixture/./dwarfprog,
# /opt/p2g-fixture/././dwarfprog and so on.  The unwinder and the
# symbolizer key the files they open by device and inode, so that the
# one file is opened and read once; keyed by path, each spelling was a
# file of its own, opened and kept (a recording mapping libLLVM under
# 400 spellings: 2 GB).  Under a hard limit of 30 open files, and 100 MB
# of address space where limits apply:
#  - gperftools (the default; the unwinder alone): every sample unwound
#    (--stats), into one profile (the processes' mappings moved apart,
#    their paths being different) and one per process, the stacks of
#    the 200 profiles together those of the recording under its one
#    true path, which agree with perf's (dwarfprog.perf.data.expected);
#  - folded (the symbolizer too, with the lines of the frames unwound
#    with DWARF): the lines of the recording under its true path;
#  - pprof (with lines): nothing missing, and the strings of the
#    profile under the true path (functions, source file, comments) but
#    for the mappings' names and build ID.
# The unwinder's live Dwfls (one per process, up to 64) each hold a copy
# of the file's descriptor: they give them back, least recently used
# first, before they take half the limit.  And 60 copies of the program
# (60 files), one a process: a quarter of the limit stays open, the
# files used least recently closed and opened again when next used.  The limit on descriptors is
# not set under a wrapper (valgrind), which needs descriptors of its
# own, and 40 processes do there; the one on address space is not set
# under the sanitizers either.
. "${top_srcdir:-$(dirname "$0")/..}/tests/test-subr.sh"
. "$top_srcdir/tests/stacks.sh"

RESPELL=$top_builddir/tests/respell
[ -x "$RESPELL" ] ||
	hard_error "tests/respell is not built (make check builds it)"
prog=$(testfile dwarfprog.gz)
data=$(testfile dwarfprog.perf.data.gz)
expected=$(testfile dwarfprog.perf.data.expected)
need_cmd gzip od

limits=true
[ -z "${P2G_WRAPPER:-}" ] || limits=false
vlimit=$limits
grep -q '^P2G_SAN_CFLAGS = .*sanitize' "$top_builddir/Makefile" 2>/dev/null &&
	vlimit=false
n=200
$limits || n=40

HOME=$test_dir/home
export HOME
mkdir -p "$HOME"
dir=/opt/p2g-fixture
mkdir -p symfs$dir
gzip -dc < "$prog" > symfs$dir/dwarfprog || hard_error "cannot unpack $prog"
ln -s dwarfprog symfs$dir/link || hard_error "cannot make a symbolic link"
ln symfs$dir/dwarfprog symfs$dir/hard || hard_error "cannot make a hard link"
{
	echo $dir/link
	echo $dir/hard
	echo /opt//p2g-fixture/dwarfprog
	p=$dir i=3
	while [ $i -lt $n ]; do
		p=$p/.
		echo $p/dwarfprog
		i=$((i + 1))
	done
} > spellings
gzip -dc < "$data" > true.data || hard_error "cannot unpack $data"
"$RESPELL" $dir/dwarfprog spellings < true.data > spell.data ||
	hard_error "tests/respell failed"

# bounded PROG ARG...: run under the limits (exit status and output as
# check_exit leaves them)
bounded() {
	_want=$1
	shift
	if $vlimit; then
		check_exit $_want sh -c \
			'ulimit -n 30 && ulimit -v 100000 && exec "$@"' sh "$@"
	elif $limits; then
		check_exit $_want sh -c 'ulimit -n 30 && exec "$@"' sh "$@"
	else
		check_exit $_want "$@"
	fi
}

# The stacks under the true path, and perf's.
stacks_oracle "$expected" | stacks_dwarf_norm > want.stacks
total=$(awk '{ s += $1 } END { print s + 0 }' want.stacks)
[ "$total" -gt 100 ] || hard_error "only $total samples in $expected"

# unwound FILE: every sample of the --stats in FILE unwound to the end
unwound() {
	_s=$(sed -n 's/^  dwarf samples  *//p' "$1")
	_u=$(sed -n 's/^  dwarf unwound  *//p' "$1")
	[ -n "$_s" ] && [ "$_s" -eq $total ] && [ "$_u" -eq $total ] || {
		cat "$1" >&2
		fail "$1: $_u of $_s samples unwound, $total recorded"
	}
}
check_exit 0 "$PERF2GPERF" --stats --no-fixup --symfs symfs true.data \
	true.prof
unwound err
check_exit 0 "$GPERFCHECK" --dump true.prof
stacks_dump out > true.stacks
set -- $(stacks_agree want.stacks true.stacks)
echo "true path: $1 of $2 samples ($3%) have perf's stack"
[ $(($1 * 100)) -ge $(($2 * 99)) ] ||
	fail "only $3% of the samples have perf's stack under the true path"

# 1. gperftools, one profile, and one per process
bounded 0 "$PERF2GPERF" --stats --symfs symfs spell.data spell.prof
unwound err
check_exit 0 "$GPERFCHECK" spell.prof
mkdir split
bounded 0 "$PERF2GPERF" --stats --no-fixup --symfs symfs --split spell.data \
	split/%p.prof
unwound err
np=$(ls split | wc -l)
[ "$np" -eq $n ] || fail "$np profiles written for $n processes"
check_exit 0 "$GPERFCHECK" --dump split/*.prof
stacks_dump out > spell.stacks
cmp -s true.stacks spell.stacks || {
	diff -u true.stacks spell.stacks | head -n 40 >&2
	fail "the stacks under $n spellings are not those under the true path"
}

# 2. folded, with the names and lines of the symbolizer
check_exit 0 "$PERF2GPERF" -f folded --symfs symfs true.data true.folded
bounded 0 "$PERF2GPERF" -f folded --symfs symfs spell.data spell.folded
sort true.folded > true.sorted
sort spell.folded > spell.sorted
compare_text true.sorted spell.sorted "folded stacks under $n spellings"
grep -q '^dwarfprog;__clone3;start_thread;thread_b;deep;deep;' \
	true.sorted || fail "no thread_b stack in the folded output"

# pb_strings FILE: the string table of the pprof profile FILE (field 6
# of profile.proto's Profile), one string a line, read from the bytes
pb_strings() {
	gzip -dc < "$1" | od -An -v -tu1 | awk '
	function varint(   v, m, c) {
		v = 0
		m = 1
		do {
			c = b[p++]
			v += (c % 128) * m
			m *= 128
		} while (c >= 128 && p < n)
		return v
	}
	{ for (i = 1; i <= NF; i++) b[n++] = $i }
	END {
		while (p < n) {
			tag = varint()
			if (tag % 8 == 0)
				varint()
			else if (tag % 8 == 1)
				p += 8
			else if (tag % 8 == 5)
				p += 4
			else if (tag % 8 == 2) {
				len = varint()
				if (int(tag / 8) == 6) {
					s = ""
					for (i = 0; i < len; i++)
						s = s sprintf("%c", b[p + i])
					print s
				}
				p += len
			} else
				exit 1
		}
	}'
}

# 3. pprof, with lines: the strings of the profile under the true path,
# but for the mappings' names and build ID (the header's table of build
# IDs names the true path only)
check_exit 0 "$PERF2GPERF" -f pprof --symfs symfs true.data true.pb.gz
bounded 0 "$PERF2GPERF" -f pprof --stats --symfs symfs spell.data spell.pb.gz
unwound err
grep -q 'not found\|no usable file' err && fail "binaries lost: $(head -n 3 err)"
{ echo $dir/dwarfprog; echo ca31ef92ca34996a49252f86feb8b66fc92c9041; } \
	>> spellings
pb_strings true.pb.gz > true.strings || fail "cannot read true.pb.gz"
pb_strings spell.pb.gz > spell.strings || fail "cannot read spell.pb.gz"
for f in true spell; do
	grep -vxF -f spellings $f.strings | sort -u > $f.names
done
compare_text true.names spell.names "strings of the pprof profile under $n spellings"
for w in main run_main mid_one mid_two leaf_mul leaf_xor thread_a \
	 thread_b deep $dir/dwarfprog.c; do
	grep -qxF "$w" spell.names || fail "$w is not in the pprof profile"
done

# 4. 60 copies of the program, 60 files: the unwinder keeps a quarter
# of the limit open (7 of 30), those used least recently closed and
# opened again when next used, where it kept all 60 and failed
i=1
while [ $i -le 60 ]; do
	mkdir -p symfs$dir/copy/$i
	cp symfs$dir/dwarfprog symfs$dir/copy/$i/dwarfprog
	echo $dir/copy/$i/dwarfprog
	i=$((i + 1))
done > copies
"$RESPELL" $dir/dwarfprog copies < true.data > copies.data ||
	hard_error "tests/respell failed"
rm -rf split
mkdir split
bounded 0 "$PERF2GPERF" --stats --no-fixup --symfs symfs --split \
	copies.data split/%p.prof
unwound err
check_exit 0 "$GPERFCHECK" --dump split/*.prof
stacks_dump out > copies.stacks
cmp -s true.stacks copies.stacks || {
	diff -u true.stacks copies.stacks | head -n 40 >&2
	fail "the stacks of 60 copies are not those of the one program"
}

exit 0
