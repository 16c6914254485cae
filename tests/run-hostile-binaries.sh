#!/bin/sh
# SPDX-License-Identifier: MIT
# Hostile binaries (every ELF the tools can reach is the attacker's: a
# mapping's path, ~/.debug, --binaries, --symfs), on files tests/mkelf
# and tests/mkdata make here:
#  - .gnu_debuglink: a stripped program names its debug file and that
#    file's CRC; the debug file is read for its symbols.  The same debug
#    file padded into a sparse file of 8 GiB (a few KB on disk) is not
#    read whole for its CRC (26 s): a debug file ends where its ELF
#    contents end, so it is refused at once.
# The limits are on CPU time (ulimit -t, not the wall clock); under a
# wrapper (valgrind) or the sanitizers there are none.
. "${top_srcdir:-$(dirname "$0")/..}/tests/test-subr.sh"

MKDATA=$top_builddir/tests/mkdata
MKELF=$top_builddir/tests/mkelf
[ -x "$MKDATA" ] && [ -x "$MKELF" ] ||
	hard_error "tests/mkdata or tests/mkelf is not built (make check builds them)"
limits=true
[ -z "${P2G_WRAPPER:-}" ] || limits=false
grep -q '^P2G_SAN_CFLAGS = .*sanitize' "$top_builddir/Makefile" 2>/dev/null &&
	limits=false

# Run a command with at most $1 CPU seconds when the limits are on.
cpu_limited() {
	_cl_secs=$1
	shift
	if $limits; then
		(ulimit -t "$_cl_secs" && exec "$@")
	else
		"$@"
	fi
}

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
if truncate -s 8G prog.debug 2> /dev/null; then
	check_exit 0 cpu_limited 5 "$PERF2GPERF" -f folded link.data \
		link.folded
	echo 'prog;[unknown] 1' > expected
	compare_text expected link.folded "names from a padded debug file"
else
	echo "note: no sparse file of 8 GiB here: the CRC bound not checked"
fi
exit 0
