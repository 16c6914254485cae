#!/bin/sh
# SPDX-License-Identifier: MIT
# A recording perf did not finish (perf killed): data size 0 in its
# header.  perf sets the feature bits when it starts but writes their
# table after the data only when it finishes, so there is no table to
# read: reading one at data offset + 0 took records for sections and
# gave a warning for each.  testdata/regress/unfinished.perf.data
# (mkregress.pl) is such a file whose libc mapping carries its build ID in
# its MMAP2 record: one warning (data size 0), none about features, the
# samples perf script counts, and the build ID in the profile.  In the
# live tier, the same on ../shared/corpus/foreign's unfinished file.
. "${top_srcdir:-$(dirname "$0")/..}/tests/test-subr.sh"

data=$(testfile regress/unfinished.perf.data)
check_exit 0 "$PERF2GPERF" --no-fixup "$data" u.prof
check_grep "data size is 0 (perf did not finish the file)"
if grep -q "feature [^s]" err; then
	cat err >&2
	fail "warnings about feature sections of an unfinished file"
fi
[ "$(grep -c "perf.data: .*warning" err)" = 1 ] || {
	cat err >&2
	fail "more than one warning about the file"
}
check_exit 0 "$GPERFCHECK" --dump u.prof
check_grep "libc.so.6 (@26000) c0ffeec0ffeec0ffeec0ffeec0ffeec0ffeec000" out
# the 3 samples: the first 3 of hot.perf.data, whose frames perf script
# -F ip,dso gives as hot+0x1152, hot+0x1192, libc.so.6+0x2724a (perf 6.1
# reads no sample of the unfinished file itself: it takes the end of the
# file for its feature table)
grep "^[0-9]* 0x" out > stacks.got
echo "3 0x401152 0x401192 0x7ffae7c5724a" > stacks.exp
compare_text stacks.exp stacks.got "the stacks"
check_exit 0 "$PERF2GPERF" --info "$data"
if grep -q "malformed section" out; then
	fail "--info reads feature sections in an unfinished file"
fi

live_rest
f=$top_srcdir/../shared/corpus/foreign/js4ngu_riscv-gnu-toolchain__test_perf.data
[ -f "$f" ] || {
	echo "no foreign corpus: not tried on its unfinished file"
	exit 0
}
check_exit 0 "$PERF2GPERF" -e cycles:ppp -f folded "$f" js.folded
if grep -q "feature [^s]" err; then
	cat err >&2
	fail "warnings about feature sections of $f"
fi
[ "$(awk '{ n += $NF } END { print n }' js.folded)" = 57 ] ||
	fail "not the 57 samples of cycles:ppp in $f"
echo "unfinished recordings: no feature table read, build IDs kept"
exit 0
