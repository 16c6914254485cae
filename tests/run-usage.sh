#!/bin/sh
# SPDX-License-Identifier: MIT
# Command-line handling of both tools: --help and --version succeed and
# print to stdout only; every usage error exits 2 and points to --help;
# unreadable input is trouble (2), not invalid input (1).  Exit statuses
# are the ones both tools document: 0 success, 1 invalid input, 2 trouble.
# perf2gperf with no arguments converts ./perf.data into ./perf.prof.
. "${top_srcdir:-$(dirname "$0")/..}/tests/test-subr.sh"

hot=$(testfile hot.perf.data)

# --- help and version: exit 0, text on stdout, nothing on stderr
for tool in "$PERF2GPERF" "$GPERFCHECK"; do
	name=$(basename "$tool")
	for opt in --help -h; do
		check_exit 0 "$tool" $opt
		[ -s out ] || fail "$name $opt printed nothing on stdout"
		[ ! -s err ] || fail "$name $opt wrote to stderr"
		check_grep "Usage: $name" out
		check_grep "Exit status" out
	done
	for opt in --version -V; do
		check_exit 0 "$tool" $opt
		[ ! -s err ] || fail "$name $opt wrote to stderr"
		head -n 1 out | grep -q "^$name " ||
			fail "$name $opt: first line does not name $name"
		# house style: --version names the libdw and zlib versions,
		# and the optional libraries as configure found them
		check_grep "libdw" out
		check_grep "zlib" out
		for lib in ZSTD:libzstd LIBDEBUGINFOD:libdebuginfod \
			LIBIBERTY:libiberty; do
			if grep -q "^#define HAVE_${lib%%:*} 1" \
				"$top_builddir/config.h"; then
				grep -q "without ${lib#*:}" out &&
					fail "$name $opt denies ${lib#*:}"
			else
				check_grep "without ${lib#*:}" out
			fi
		done
	done
	# A write error on stdout is trouble, not success.
	if [ -w /dev/full ]; then
		check_exit 2 sh -c '"$1" --help > /dev/full' sh "$tool"
		check_exit 2 sh -c '"$1" --version > /dev/full' sh "$tool"
	fi
done

# --- usage errors of perf2gperf: exit 2, "Try" on stderr, stdout empty,
# no output file created
usage_error() {
	check_exit 2 "$PERF2GPERF" "$@"
	check_grep "Try 'perf2gperf --help'"
	[ ! -s out ] || fail "usage error printed on stdout: $*"
	[ ! -e out.prof ] || fail "usage error created the output: $*"
}
usage_error --bogus
usage_error -Z "$hot" out.prof
usage_error
usage_error "$hot"
usage_error "$hot" out.prof extra
usage_error --period-us 0 "$hot" out.prof
usage_error --period-us -5 "$hot" out.prof
usage_error --period-us abc "$hot" out.prof
usage_error --period-us "" "$hot" out.prof
usage_error -p abc "$hot" out.prof
usage_error -t 1,,x "$hot" out.prof
usage_error --info
usage_error --info "$hot" out.prof
usage_error --event
# an option that takes a word names its words, in order, when given
# another
usage_error --weight x "$hot" out.prof
check_grep "perf2gperf: --weight: 'x' is not samples or period"
usage_error --slot-width 16 "$hot" out.prof
check_grep "perf2gperf: --slot-width: '16' is not 32, 64 or auto"
usage_error --split=x "$hot" 'out-%p.prof'
check_grep "perf2gperf: --split: 'x' is not pid, tid or comm"

# --period-us N > 0 is accepted and written as the header period
check_exit 0 "$PERF2GPERF" -q --period-us 4000 "$hot" out.prof
check_exit 0 "$GPERFCHECK" -d out.prof
head -n 1 out > head.txt
echo "header 0 3 0 4000 0" > head.exp
compare_text head.exp head.txt
rm -f out.prof

# --- input that cannot be read: exit 2 with the file name
check_exit 2 "$PERF2GPERF" "$test_dir/nonexistent.data" out.prof
check_grep "nonexistent.data"
[ ! -e out.prof ] || fail "output created for a missing input"
# A directory that is not a perf.data directory (no "data" header file)
# is invalid input (exit status 1), and the message says what is wrong.
mkdir adir
check_exit 1 "$PERF2GPERF" adir out.prof
check_grep "adir: is a directory, but not a perf.data directory"
[ ! -e out.prof ] || fail "output created for a directory input"

# --- gperfcheck: usage errors and unreadable files exit 2
check_exit 2 "$GPERFCHECK"
check_grep "Try 'gperfcheck --help'"
check_exit 2 "$GPERFCHECK" --bogus
check_grep "Try 'gperfcheck --help'"
check_exit 2 "$GPERFCHECK" "$test_dir/nonexistent.prof"
check_grep "nonexistent.prof"
check_exit 2 "$GPERFCHECK" adir
check_grep "adir"
# A file we cannot open for reading (not testable as root, who may read
# anything: then this part is skipped with a note).
echo x > unreadable.prof
chmod 000 unreadable.prof
if cat unreadable.prof > /dev/null 2>&1; then
	echo "note: running as root; skipping the permission-denied check"
else
	check_exit 2 "$GPERFCHECK" unreadable.prof
	check_exit 2 "$PERF2GPERF" unreadable.prof out.prof
fi
chmod 644 unreadable.prof

# --- no arguments: ./perf.data into ./perf.prof, as perf report reads
# ./perf.data; without one, a usage error
mkdir noargs
(cd noargs && "$PERF2GPERF" > ../out 2> ../err) && fail "no arguments and no perf.data: exit 0"
check_grep "missing INPUT or OUTPUT"
cp "$hot" noargs/perf.data
check_exit 0 "$PERF2GPERF" -q "$hot" want.prof
(cd noargs && "$PERF2GPERF" > ../out 2> ../err) ||
	fail "no arguments, with a perf.data: $(cat err)"
check_grep "converting ./perf.data into ./perf.prof"
cmp want.prof noargs/perf.prof || fail "perf.prof is not perf.data's profile"

exit 0
