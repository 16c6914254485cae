#!/bin/sh
# SPDX-License-Identifier: MIT
# Records that stop short in a file-mode recording:
#  - a record in the middle of the data that is too short: an error at its
#    offset, exit status 1, after the records before it have been read;
#  - a file cut inside a record with data.size 0: read as far as it goes,
#    with a warning at the cut, and a valid profile of what came before.
. "${top_srcdir:-$(dirname "$0")/..}/tests/test-subr.sh"

need_cmd dd od

# A record in the middle of the data whose size is less than a header:
# the error names its offset, after the records before it.
data=$(testfile threads.perf.data)
set -- $(od -An -t u8 -j 40 -N 16 "$data")
off=$1
end=$(($1 + $2))
mid=$(($1 + $2 / 2))
while [ $off -lt $mid ]; do
	size=$(od -An -t u2 -j $((off + 6)) -N 2 "$data" | tr -d ' ')
	[ "$size" -ge 8 ] || hard_error "bad record size $size at $off"
	off=$((off + size))
done
cp "$data" bad.data
printf '\004\000' | dd of=bad.data bs=1 seek=$((off + 6)) conv=notrunc \
	2>/dev/null
check_exit 1 "$PERF2GPERF" bad.data bad.prof
check_grep "offset $(printf '0x%x' $off): record size 4"

# A file cut inside a record, with data.size 0: read as far as it goes,
# with a warning at the cut.
dd if="$data" of=salvage.data bs=$((end - 1000)) count=1 2>/dev/null
dd if=/dev/zero of=salvage.data bs=1 seek=48 count=8 conv=notrunc 2>/dev/null
check_exit 0 "$PERF2GPERF" salvage.data salvage.prof
check_grep "data ends inside a record"
check_exit 0 "$GPERFCHECK" salvage.prof
exit 0
