#!/bin/sh
# SPDX-License-Identifier: MIT
# gperfcheck on gzip-compressed profiles and the formats next door
# (testdata/gperf/README, "Compressed profiles and neighbouring
# formats"): each file of the table gives its exit status and names
# what it is; a gzipped valid profile dumps exactly as the plain one; the
# same from standard input.  Made here: a profile gzipped in two members
# (read as gzip reads it), and a gzip bomb (600 MiB of zeros, refused
# at 512 MiB).
. "${top_srcdir:-$(dirname "$0")/..}/tests/test-subr.sh"
need_cmd gzip

readme=$(testfile gperf/README)
G=$TESTDATA/gperf
grep '^neighbour ' "$readme" > table
[ "$(wc -l < table)" -ge 5 ] || hard_error "no neighbour table in $readme"
while read -r tag file status said; do
	check_exit $status "$GPERFCHECK" "$G/$file"
	if [ "$said" != - ]; then
		check_grep "$file: $said"
	fi
	check_exit $status sh -c '"$1" - < "$2"' sh "$GPERFCHECK" "$G/$file"
done < table

check_exit 0 "$GPERFCHECK" --dump "$G/good-64le.prof.gz"
mv out gz.dump
compare_text "$G/good-64le.prof.dump" gz.dump "dump of good-64le.prof.gz"

# two members
head -c 50 "$G/good-64le.prof" | gzip -n -c > two.gz
tail -c +51 "$G/good-64le.prof" | gzip -n -c >> two.gz
check_exit 0 "$GPERFCHECK" --dump two.gz
compare_text "$G/good-64le.prof.dump" out "dump of a two-member gzip profile"

# a bomb: refused at its bound (512 MiB), not read to the end (skipped
# under a wrapper such as valgrind: too slow there)
if [ -z "${P2G_WRAPPER:-}" ]; then
	dd if=/dev/zero bs=1M count=600 2> /dev/null | gzip -1 -n -c > bomb.gz
	check_exit 1 "$GPERFCHECK" bomb.gz
	check_grep "decompression bomb"
fi
exit 0
