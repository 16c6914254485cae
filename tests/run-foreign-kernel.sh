#!/bin/sh
# SPDX-License-Identifier: MIT
# Kernel names only from the recorded kernel: from a source whose build
# ID is the recording's kernel build ID, which perf 4.x kept under the
# vmlinux path it found (/lib/modules/RELEASE/build/vmlinux) rather than
# "[kernel.kallsyms]"; without a kernel build ID, from /proc/kallsyms
# only when the recording's host name and release are this machine's.
# Otherwise the kernel's frames stay unnamed, as perf leaves them, with
# one warning.  testdata/regress/kernel-vmlinux-path.perf.data
# (mkregress.pl) is such a perf 4.x table over a kernel frame: a kallsyms
# copy in a perf archive tree (--binaries) under the recorded build ID
# names it, one under another build ID does not, and nothing else does
# (the cases folded-kernel-vmlinux-path and folded-threads-z-pipe compare
# with perf's stackcollapse.py).  In the live tier, the perf 4.10 file of
# ../shared/corpus/foreign gives perf's stackcollapse.py output.
. "${top_srcdir:-$(dirname "$0")/..}/tests/test-subr.sh"

data=$(testfile regress/kernel-vmlinux-path.perf.data)
mkdir empty
HOME=$test_dir/empty
export HOME
bid=4a5a9b0affb66c437abcd455d2738af879985fa9
mkdir -p "arch/[kernel.kallsyms]/$bid" "other/[kernel.kallsyms]/0123456789abcdef0123456789abcdef01234567"
printf 'ffffffff81000000 T _text\nffffffff8161dc00 T p2g_kernel_function\nffffffff8161e000 T p2g_after\n' \
	> "arch/[kernel.kallsyms]/$bid/kallsyms"
cp "arch/[kernel.kallsyms]/$bid/kallsyms" \
	"other/[kernel.kallsyms]/0123456789abcdef0123456789abcdef01234567/"

check_exit 0 "$PERF2GPERF" -q --symfs=empty --binaries=arch -f folded --folded-style=perf "$data" -
check_grep "hot;[unknown];[unknown];p2g_kernel_function 1" out

check_exit 0 "$PERF2GPERF" --symfs=empty --binaries=other -f folded --folded-style=perf "$data" -
check_grep "hot;[unknown];[unknown];[unknown] 3" out
[ "$(grep -c "kernel frames are not named" err)" = 1 ] || {
	cat err >&2
	fail "not one warning about the kernel's names"
}
check_grep "kernel frames are not named: no vmlinux or kallsyms with the recorded build ID"

# no kernel build ID, recorded on another machine (or kernel)
pipe=$(testfile threads-z-pipe.perf.data)
check_exit 0 "$PERF2GPERF" --symfs=empty -f folded "$pipe" -
host=$(uname -n) release=$(uname -r)
if [ "$host" = vm ] && [ "$release" = 6.18.44-fc-v669 ]; then
	echo "this machine recorded $pipe: the other-machine check is not made"
else
	check_grep "kernel frames are not named: recorded on another machine or kernel, with no kernel build ID"
fi

live_rest
f=$top_srcdir/../shared/corpus/foreign/NanXiao_images__perf_perf.data
[ -f "$f" ] || {
	echo "no foreign corpus: not tried on its perf 4.10 file"
	exit 0
}
check_exit 0 "$PERF2GPERF" --symfs=empty -f folded --folded-style=perf "$f" n.folded
compare_text "$f.py.nosym.folded" n.folded "$f: the folded stacks"
[ "$(grep -c "kernel frames are not named" err)" = 1 ] ||
	fail "$f: not one warning about the kernel's names"
echo "kernel names from the recorded kernel only"
exit 0
