# SPDX-License-Identifier: MIT
# Shared set-up for the shell tests tests/run-*.sh (after elfutils'
# tests/test-subr.sh).  Source it first thing:
#
#	. "${top_srcdir:-$(dirname "$0")/..}/tests/test-subr.sh"
#
# It stops the test at the first failing command (set -e), moves into a
# private, freshly created directory $top_builddir/tests/NAME.dir (NAME =
# the script's name without .sh) that is removed when the test passes or
# skips and kept for inspection when it fails, and defines:
#
#   $PERF2GPERF, $GPERFCHECK   the tools under test (in $top_builddir/src);
#                              $PERF2GPERF checks every profile it writes
#                              with gperfcheck (see below)
#   $TESTDATA                  $top_srcdir/testdata
#   testfile NAME              print the path of testdata/NAME; skip if absent
#   have CMD...                true if every CMD is on $PATH; perf, go,
#                              pprof, google-pprof and valgrind count only
#                              in the live tier (live: P2G_LIVE=1, set by
#                              make check-live)
#   need_cmd CMD...            skip unless have CMD...
#   live_rest                  end the test here, passed, unless live
#   compare_text EXP ACT [WHAT]  diff -u EXP ACT; fail (showing the diff)
#                              when they differ
#   check_exit N CMD...        run CMD with stdout in ./out and stderr in
#                              ./err; fail unless it exits with status N
#                              (a death by signal always fails)
#   check_grep STRING [FILE]  fail unless FILE (default ./err) contains STRING
#   le64 N                    print N as 8 little-endian bytes (for
#                             hand-made gperftools profiles)
#   symfs_link SYMFS DIR PROF  a --symfs tree for a recording made
#                             elsewhere with its binaries in DIR: for each
#                             path in the maps text of profile PROF with a
#                             file of that name under DIR, SYMFS/PATH is
#                             made a symbolic link to it
#   mkvmlinux S OUT [BID]     assemble S (${CC:-gcc}) and link it (ld) as a
#                             kernel image OUT: text at 0xffffffff81000000,
#                             entry _text, build ID the hex BID (else one
#                             ld computes); a hard error if that fails
#   hot_before DATA           for a recording DATA of bin/hot (hot.c):
#                             perf script's names of its frames in
#                             ./names (a hard error without hot_loop),
#                             and perf2gperf's folded stacks, profile
#                             and profile's dump in before.folded,
#                             before.prof and before.dump (a hard error
#                             when the stacks miss a name of ./names)
#   go_env                    point HOME, GOCACHE, GOPATH and PPROF_TMPDIR
#                             into the test directory, so that go tool
#                             pprof writes nothing elsewhere
#   go_raw PROFILE RAW        go tool pprof -raw -symbolize=none PROFILE
#                             into RAW (its stderr in RAW.err); fail,
#                             showing that stderr, when it cannot read
#                             PROFILE
#   fail MSG / skip MSG / hard_error MSG   exit 1 / 77 / 99 with MSG
#
# Exit status, as the Automake parallel harness reads it: 0 pass, 77 skip,
# 99 hard error (the test could not run as designed), anything else fail.
# The harness exports top_srcdir and top_builddir as absolute paths; when
# they are missing (a test run by hand from the build directory) they
# default to the script's tree and the current directory.

set -e

test_name=$(basename "$0" .sh)

if [ -z "$top_srcdir" ]; then
	top_srcdir=$(cd "$(dirname "$0")/.." && pwd)
fi
if [ -z "$top_builddir" ]; then
	top_builddir=$(pwd)
fi
top_srcdir=$(cd "$top_srcdir" && pwd)
top_builddir=$(cd "$top_builddir" && pwd)
export top_srcdir top_builddir

TESTDATA=$top_srcdir/testdata
PERF2GPERF=$top_builddir/src/perf2gperf
GPERFCHECK=$top_builddir/src/gperfcheck
TAB=$(printf '\t')
LC_ALL=C
export LC_ALL

test_dir=$top_builddir/tests/$test_name.dir
# A status 77 that does not come from skip() (say, a command that happened
# to exit 77 under set -e) must not pass for a skip: skip() leaves this
# marker, and the exit trap turns an unmarked 77 into a hard error.  The
# marker is a file so that skip() also works in $(...) subshells.
skip_marker=$test_dir/.skipped

fail() {
	echo "FAIL: $test_name: $*" >&2
	exit 1
}

skip() {
	echo "SKIP: $test_name: $*" >&2
	: > "$skip_marker" 2>/dev/null || :
	exit 77
}

hard_error() {
	echo "ERROR: $test_name: $*" >&2
	exit 99
}

# Decide the final status once, whatever way the script ends.
test_exit() {
	_te_rc=$1
	trap - EXIT
	cd "$top_builddir" 2>/dev/null || cd /
	if [ "$_te_rc" -eq 77 ] && [ ! -f "$skip_marker" ]; then
		echo "ERROR: $test_name: a command exited with 77 (not a skip)" >&2
		_te_rc=99
	fi
	if [ "$_te_rc" -eq 0 ] && [ -s "$output_rejects" ]; then
		echo "FAIL: $test_name: perf2gperf wrote profiles that gperfcheck rejects:" >&2
		head -n 10 "$output_rejects" >&2
		_te_rc=1
	fi
	case $_te_rc in
	0|77)	rm -rf "$test_dir" ;;
	*)	echo "$test_name: exit status $_te_rc; files kept in $test_dir" >&2 ;;
	esac
	exit "$_te_rc"
}

rm -rf "$test_dir"
mkdir -p "$test_dir" || hard_error "cannot create $test_dir"
trap 'test_exit $?' EXIT
trap 'exit 99' HUP INT TERM
cd "$test_dir"

# make check-valgrind (or any P2G_WRAPPER) runs every tool under the
# wrapper: small scripts in the test directory stand in for the tools, so
# that tests can keep quoting "$PERF2GPERF".
if [ -n "${P2G_WRAPPER:-}" ]; then
	mkdir -p "$test_dir/.wrap"
	for _tool in perf2gperf gperfcheck; do
		printf '#!/bin/sh\nexec %s "%s" "$@"\n' "$P2G_WRAPPER" \
			"$top_builddir/src/$_tool" > "$test_dir/.wrap/$_tool"
		chmod +x "$test_dir/.wrap/$_tool"
	done
	PERF2GPERF=$test_dir/.wrap/perf2gperf
	GPERFCHECK=$test_dir/.wrap/gperfcheck
fi

# thinned N: true for one call in N under a wrapper, where every run of a
# tool costs about a second; always true without one.  A test walking the
# committed recordings asks it of each: the plain and sanitizer passes
# walk them all, the wrapper's sees a fixed third (or Nth) of them.
_thinned_calls=0
thinned() {
	[ -n "${P2G_WRAPPER:-}" ] || return 0
	_thinned_calls=$((_thinned_calls + 1))
	[ $(((_thinned_calls - 1) % $1)) -eq 0 ]
}

for tool in "$PERF2GPERF" "$GPERFCHECK"; do
	[ -x "$tool" ] || hard_error "$tool is not built (run make first)"
done

# Every gperftools profile that perf2gperf writes must pass gperfcheck:
# $PERF2GPERF runs the tool, then gperfcheck on each file of the test
# directory that the run created or changed and that starts with a CPU
# profile header (so OUTPUT '-' redirected to a file is checked too).  A
# rejected file is named on stderr and fails the test at its end, whatever
# the script made of the exit status.  Off under $P2G_WRAPPER (valgrind
# would run gperfcheck as well, for twice the time) and for a test that
# sets P2G_OUTPUT_CHECK=no before sourcing this file (one that signals
# or watches perf2gperf's own process: the check puts a shell between).
output_rejects=$test_dir/.check/rejected
if [ -z "${P2G_WRAPPER:-}" ] && [ "${P2G_OUTPUT_CHECK:-yes}" != no ]; then
	mkdir -p "$test_dir/.check"
	cat > "$test_dir/.check/perf2gperf" <<EOW
#!/bin/sh
# perf2gperf, then gperfcheck on the profiles it wrote (tests/test-subr.sh)
d='$test_dir'
snap() {
	find "\$d" -path "\$d/.check" -prune -o -type f \\
		-printf '%i %s %T@ %p\\n' 2> /dev/null | LC_ALL=C sort
}
snap > "\$d/.check/before.\$\$"
'$PERF2GPERF' "\$@"
rc=\$?
if [ \$rc -eq 0 ]; then
	snap | LC_ALL=C comm -13 "\$d/.check/before.\$\$" - | cut -d' ' -f4- |
	while IFS= read -r f; do
		case \$(od -An -v -t x1 -N 16 "\$f" 2> /dev/null | tr -d ' \\n') in
		0000000003000000*|0000000000000003*) ;;
		00000000000000000300000000000000) ;;
		00000000000000000000000000000003) ;;
		*) continue ;;
		esac
		'$GPERFCHECK' "\$f" > /dev/null 2> "\$d/.check/err.\$\$" &&
			continue
		echo "perf2gperf \$*: \$(grep -v ': warning: ' "\$d/.check/err.\$\$" | head -n 1)" |
			tee -a '$output_rejects' >&2
	done
fi
rm -f "\$d/.check/before.\$\$" "\$d/.check/err.\$\$"
exit \$rc
EOW
	chmod +x "$test_dir/.check/perf2gperf"
	PERF2GPERF=$test_dir/.check/perf2gperf
fi

testfile() {
	if [ ! -f "$TESTDATA/$1" ]; then
		skip "test data $1 is missing"
	fi
	printf '%s\n' "$TESTDATA/$1"
}

# The tools of the live tier: make check runs as a distribution's build
# does, offline and without them, whether they are installed or not;
# make check-live (P2G_LIVE=1) records with perf, drives pprof and runs
# under valgrind.
live_tools=" perf go pprof google-pprof valgrind "

live() {
	[ "${P2G_LIVE:-}" = 1 ]
}

have() {
	for _hv_cmd in "$@"; do
		case $live_tools in
		*" $_hv_cmd "*) live || return 1 ;;
		esac
		command -v "$_hv_cmd" >/dev/null 2>&1 || return 1
	done
}

# cpu_limited SECS CMD...: CMD with at most SECS seconds of CPU time
# when the test has set limits=true (it leaves them off under a wrapper
# or the sanitizers, which are slower).
limits=false
cpu_limited() {
	_cl_secs=$1
	shift
	if $limits; then
		(ulimit -t "$_cl_secs" && exec "$@")
	else
		"$@"
	fi
}

# hostile_setup: for the tests of hostile input, MKDATA and MKELF (the
# generators, which make check builds) and limits=true, but under a
# wrapper (valgrind) or the sanitizers, which are slower.
hostile_setup() {
	MKDATA=$top_builddir/tests/mkdata
	MKELF=$top_builddir/tests/mkelf
	[ -x "$MKDATA" ] && [ -x "$MKELF" ] ||
		hard_error "tests/mkdata or tests/mkelf is not built (make check builds them)"
	limits=true
	[ -z "${P2G_WRAPPER:-}" ] || limits=false
	! grep -q '^P2G_SAN_CFLAGS = .*sanitize' "$top_builddir/Makefile" \
		2>/dev/null || limits=false
}

# What follows needs the live tier: in make check, end the test here.
live_rest() {
	live && return 0
	echo "$test_name: the rest runs in the live tier (make check-live)"
	exit 0
}

need_cmd() {
	for _nc_cmd in "$@"; do
		have "$_nc_cmd" && continue
		case $live_tools in
		*" $_nc_cmd "*)
			live || skip "$_nc_cmd is used in the live tier only (make check-live)" ;;
		esac
		skip "$_nc_cmd is not installed"
	done
}

compare_text() {
	if ! diff -u "$1" "$2" > compare.diff 2>&1; then
		head -n 200 compare.diff >&2
		fail "${3:-$2} differs from ${1}"
	fi
}

# check_exit N CMD [ARG...]: run CMD, stdout to ./out, stderr to ./err.
check_exit() {
	_ce_want=$1
	shift
	set +e
	"$@" > out 2> err
	_ce_got=$?
	set -e
	if [ "$_ce_got" -ne "$_ce_want" ] || [ "$_ce_got" -ge 128 ]; then
		echo "command: $*" >&2
		echo "--- stdout (first lines):" >&2
		head -n 20 out >&2
		echo "--- stderr (first lines):" >&2
		head -n 20 err >&2
		fail "exit status $_ce_got, expected $_ce_want: $*"
	fi
}

# Fail unless FILE (default ./err) contains the fixed string PATTERN.
check_grep() {
	if ! grep -F -q -e "$1" "${2:-err}"; then
		echo "--- ${2:-err}:" >&2
		head -n 20 "${2:-err}" >&2
		fail "'$1' not found in ${2:-err}"
	fi
}

# See the list at the top.
symfs_link() {
	"$GPERFCHECK" --dump "$3" 2> /dev/null | awk '
		$1 == "map" {
			for (i = 2; i <= NF; i++)
				if (substr($i, 1, 1) == "/") {
					print $i
					break
				}
		}' | sort -u |
	while IFS= read -r _sl_path; do
		_sl_bin=$(find "$2" -type f -name "$(basename "$_sl_path")" |
			head -n 1)
		[ -n "$_sl_bin" ] || continue
		mkdir -p "$1$(dirname "$_sl_path")"
		ln -sf "$_sl_bin" "$1$_sl_path"
	done
}

# See the list at the top.
mkvmlinux() {
	${CC:-gcc} -c "$1" -o "$2.o" 2> "$2.log" &&
		ld -Ttext=0xffffffff81000000 --build-id${3:+=0x$3} -e _text \
			-o "$2" "$2.o" 2>> "$2.log" ||
		hard_error "cannot build a vmlinux from $1: $(head -n 1 "$2.log")"
	rm -f "$2.o"
}

# See the list at the top.
hot_before() {
	perf script -i "$1" -F ip,sym,dso > script.txt 2> script.err ||
		hard_error "perf script failed: $(head -n 1 script.err)"
	awk '$NF ~ /bin\/hot\)$/ && $2 != "[unknown]" { print $2 }' \
		script.txt | sort -u > names
	grep -qx hot_loop names || hard_error "perf script names no hot_loop"
	check_exit 0 "$PERF2GPERF" -q -f folded "$1" before.folded
	check_exit 0 "$PERF2GPERF" -q --no-fixup "$1" before.prof
	check_exit 0 "$GPERFCHECK" --dump before.prof
	mv out before.dump
	while read -r fn; do
		grep -q ";$fn[; ]" before.folded ||
			hard_error "$fn is not in the folded stacks of $1"
	done < names
}

# See the list at the top.
go_env() {
	HOME=$test_dir
	GOCACHE=$test_dir/go-cache
	GOPATH=$test_dir/go-path
	PPROF_TMPDIR=$test_dir/pprof-tmp
	export HOME GOCACHE GOPATH PPROF_TMPDIR
	mkdir -p "$PPROF_TMPDIR"
}

# See the list at the top.
go_raw() {
	go tool pprof -raw -symbolize=none "$1" > "$2" 2> "$2.err" || {
		cat "$2.err" >&2
		fail "go tool pprof cannot read $1"
	}
}

# See the list at the top.
le64() {
	_le_n=$1
	for _le_i in 1 2 3 4 5 6 7 8; do
		printf "\\$(printf '%03o' $((_le_n & 255)))"
		_le_n=$((_le_n >> 8))
	done
}
