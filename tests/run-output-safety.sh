#!/bin/sh
# SPDX-License-Identifier: MIT
# perf2gperf never leaves a damaged or partial output behind: it writes
# OUTPUT.tmpXXXXXX beside OUTPUT and renames it only on success.  So, on
# any failure: no OUTPUT, no OUTPUT.tmp*, an existing OUTPUT untouched.
# It refuses to write over its INPUT (by any name: same path, hard link,
# symbolic link) and leaves the input intact.  Invalid input gives exit 1
# and a message "perf2gperf: FILE: offset 0xHEX: ..."; trouble with the
# output (missing or read-only directory, write error) gives exit 2.
# Damaged copies of real fixtures in bulk are run-mutate.sh's; the
# defects it found are kept here as named cases.
. "${top_srcdir:-$(dirname "$0")/..}/tests/test-subr.sh"

hot=$(testfile hot.perf.data)

# no_leftovers DIR: fail if DIR holds a temporary output file
no_leftovers() {
	for f in "$1"/*.tmp*; do
		[ -e "$f" ] && fail "temporary file left behind: $f"
	done
	:
}

# expect_invalid INPUT: exit 1, "offset 0x" message naming INPUT, no output
expect_invalid() {
	rm -f out.prof
	check_exit 1 "$PERF2GPERF" "$1" out.prof
	check_grep "perf2gperf: $1: offset 0x"
	[ ! -e out.prof ] || fail "output written for invalid input $1"
	no_leftovers .
	# --info says the same
	check_exit 1 "$PERF2GPERF" --info "$1"
	check_grep "perf2gperf: $1: offset 0x"
	# to stdout: nothing written
	check_exit 1 "$PERF2GPERF" "$1" -
	[ ! -s out ] || fail "invalid input $1 wrote to stdout"
}

# --- a truncated file-mode perf.data: invalid; no output, no temporary
head -c 20000 "$hot" > truncated.data
expect_invalid truncated.data
head -c 100 "$hot" > truncated-header.data
expect_invalid truncated-header.data

# --- an existing output is kept as it was when the conversion fails
echo "precious" > keep.prof
cp keep.prof keep.orig
check_exit 1 "$PERF2GPERF" truncated.data keep.prof
cmp keep.prof keep.orig || fail "a failed conversion changed the existing output"
no_leftovers .
# ... and replaced when it succeeds
check_exit 0 "$PERF2GPERF" -q "$hot" keep.prof
check_exit 0 "$GPERFCHECK" keep.prof
no_leftovers .

# --- OUTPUT is INPUT: refused with exit 2, input untouched
cp "$hot" in.data
chmod 644 in.data
check_exit 2 "$PERF2GPERF" in.data in.data
cmp in.data "$hot" || fail "perf2gperf changed its input"
check_exit 2 "$PERF2GPERF" in.data ./in.data
cmp in.data "$hot" || fail "perf2gperf changed its input (./in.data)"
ln in.data hardlink.data
check_exit 2 "$PERF2GPERF" in.data hardlink.data
cmp in.data "$hot" || fail "perf2gperf changed its input (hard link)"
ln -s in.data symlink.data
check_exit 2 "$PERF2GPERF" in.data symlink.data
cmp in.data "$hot" || fail "perf2gperf changed its input (symbolic link)"
check_exit 2 "$PERF2GPERF" symlink.data in.data
cmp in.data "$hot" || fail "perf2gperf changed its input (through a symlink)"
[ -L symlink.data ] || fail "the symbolic link was replaced"
no_leftovers .

# --- output directory trouble: exit 2, nothing created
check_exit 2 "$PERF2GPERF" "$hot" nosuchdir/out.prof
[ ! -e nosuchdir ] || fail "perf2gperf created a directory"
echo x > notadir
check_exit 2 "$PERF2GPERF" "$hot" notadir/out.prof
mkdir ro
chmod 555 ro
if ( : > ro/probe ) 2> /dev/null; then
	rm -f ro/probe
	echo "note: running as root, ro/ is writable; using /proc/self instead"
	# nobody, not even root, can create a file in /proc/self
	if [ -d /proc/self ] && ! ( : > /proc/self/p2g-probe ) 2> /dev/null; then
		check_exit 2 "$PERF2GPERF" "$hot" /proc/self/out.prof
	fi
else
	check_exit 2 "$PERF2GPERF" "$hot" ro/out.prof
	[ -z "$(ls -A ro)" ] || fail "files created in a read-only directory"
fi
chmod 755 ro
# a write error on stdout
if [ -w /dev/full ]; then
	check_exit 2 sh -c '"$1" -q "$2" - > /dev/full' sh "$PERF2GPERF" "$hot"
fi

# --- garbage is invalid input (1), with an offset, never a crash
cp "$TESTDATA/README" text.data
expect_invalid text.data
: > empty.data
expect_invalid empty.data
head -c 4096 /dev/zero > zeros.data
expect_invalid zeros.data
{ printf 'PERFILE2'; head -c 4096 /dev/zero | tr '\0' '\377'; } > ffs.data
expect_invalid ffs.data
{ printf 'PERFILE2'; head -c 200 "$TESTDATA/README"; } > magic-text.data
expect_invalid magic-text.data

# --- defects found by the mutation test (seeds 1-3, 1500 mutants), kept
# as named cases.  patch FILE OFFSET OCTAL: overwrite one byte.
patch() {
	printf "\\$3" | dd of="$1" bs=1 seek=$2 count=1 conv=notrunc 2> /dev/null
}
# attrs-size-past-eof: the attrs section size (header bytes 0x20-0x27)
# made huge (byte 0x25 = 0xa2): the section runs past the end of the
# file, which is invalid input (exit 1), not trouble (2).
cp "$hot" attrs-size-past-eof.data
chmod 644 attrs-size-past-eof.data
patch attrs-size-past-eof.data 37 242
expect_invalid attrs-size-past-eof.data
# newline-in-mmap-filename: byte 892 is inside the file name of an MMAP2
# record (".../ld-linux-x86-64.so.2"); a newline there (file names may
# hold one) must not break the maps text: the output must be valid.
cp "$hot" newline-in-mmap-filename.data
chmod 644 newline-in-mmap-filename.data
patch newline-in-mmap-filename.data 892 012
check_exit 0 "$PERF2GPERF" -q newline-in-mmap-filename.data nl.prof
check_exit 0 "$GPERFCHECK" nl.prof

exit 0
