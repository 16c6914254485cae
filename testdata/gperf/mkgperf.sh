#!/bin/sh
# SPDX-License-Identifier: MIT
# mkgperf.sh - write the hand-made gperftools CPU profiles in this folder
# (testdata/gperf/*.prof).  The bytes, and the offset of each defect, are
# explained file by file in README; this script only spells them out.
# Run from anywhere: sh testdata/gperf/mkgperf.sh.  POSIX sh and printf.
set -eu
cd "$(dirname "$0")"

# byte V: one byte of value V (0-255)
byte() { printf "\\$(printf '%03o' "$1")"; }
# slot WIDTH ORDER V: V as a WIDTH-byte word, ORDER le or be
slot() {
	i=0
	while [ $i -lt "$1" ]; do
		if [ "$2" = le ]; then s=$((8 * i)); else s=$((8 * ($1 - 1 - i))); fi
		byte $(( ($3 >> s) & 255 ))
		i=$((i + 1))
	done
}
# words WIDTH ORDER V...: several slots
words() { wd=$1; o=$2; shift 2; for v in "$@"; do slot $wd $o $v; done; }
q() { words 8 le "$@"; }		# 64-bit little-endian slots

MAPLINE='00400000-00402000 r-xp 00000000 fe:00 123 /bin/prog'

# ---- good files -------------------------------------------------------
{ q 0 3 0 1001 0
  q 2 2 0x401152 0x401192
  q 1 1 0x401163
  q 0 1 0
  printf '%s\n' "$MAPLINE"
} > good-64le.prof

{ words 8 be 0 3 0 1001 0
  words 8 be 3 3 0x401152 0x401192 0x7ffae7c5724a
  words 8 be 1 1 0x401163
  words 8 be 0 1 0
  printf '00400000-00402000: /bin/prog\n'
} > good-64be.prof

{ words 4 le 0 3 0 10000 0
  words 4 le 5 3 0xa0000 0xc0000 0xe0000
  words 4 le 1 1 0xa0000
  words 4 le 0 1 0
  printf 'build=/bin/prog\n000a0000-000f0000 r-xp 00000000 00:00 0 $build\n'
} > good-32le.prof

{ words 4 be 0 3 0 4000 0
  words 4 be 1 1 0x8048000
  words 4 be 7 2 0x8048123 0x8048456
  words 4 be 0 1 0
  printf '08048000-08049000 r-xp 00000000 08:01 42 /bin/prog32\n'
} > good-32be.prof

{ q 0 3 0 1001 0
  q 1 1 0x401152
  q 0 1 0
} > good-nomaps.prof

# ---- bad files --------------------------------------------------------
: > bad-empty.prof
printf 'hello, this is not a profile\n' > bad-magic.prof
q 0 3 > bad-short-header.prof
{ words 4 le 0 4 0 1001 0; words 4 le 1 1 0x8048000; words 4 le 0 1 0
} > bad-slot1.prof
{ q 0 3 1 1001 0; q 1 1 0x401163; q 0 1 0; } > bad-java.prof
{ q 0 3 0 0 0;    q 1 1 0x401163; q 0 1 0; } > bad-period0.prof
{ q 0 3 0 1001 7; q 1 1 0x401163; q 0 1 0; } > bad-padding.prof
{ q 0 3 0 1001 0; q 1 1 0x401163; q 0 2 0x401152 0x401192; q 0 1 0
} > bad-count0.prof
{ q 0 3 0 1001 0; q 1 1 0x401163; q 1 0; q 0 1 0; } > bad-nopcs.prof
{ q 0 3 0 1001 0; q 2 3 0x401152 0 0x7ffae7c5724a; q 0 1 0
} > bad-pc0.prof
{ q 0 3 0 1001 0; q 1 1 0x401163; q 1 100 0x401152 0x401192
} > bad-longrec.prof
{ q 0 3 0 1001 0; q 1 1 0x401163; } > bad-notrailer.prof
{ q 0 3 0 1001 0; q 1 1 0x401163; q 0 1; } > bad-cut-trailer.prof
{ q 0 3 0 1001 0; q 1 1 0x401163; q 0 1 0
  printf '00400000-00402000 r-xp 00000000 fe:00 123 /bin/p\000rog\n'
} > bad-nul-maps.prof
{ q 0 3 0 1001 0; q 1 1 0x401163; q 0 1 0
  printf '%s\nthis is not a maps line\n' "$MAPLINE"
} > bad-maps-line.prof
{ words 4 be 0 3 0 4000 0
  words 4 be 1 2 0x8048123 0x8048456
  words 4 be 1 2 0x8048123 0
  words 4 be 0 1 0
} > bad-32be-pc0.prof
