#!/bin/sh
# SPDX-License-Identifier: MIT
# perf2gperf --info against perf's own reading of the fixtures:
#  - the header fields (hostname, os release, perf version, arch, nrcpus,
#    cpudesc, cpuid, total memory, cmdline, data offset/size, feat
#    offset, sample times) equal those of `perf report --header-only`
#    (testdata/NAME.perf.data.header), compared as "key : value" with
#    surrounding blanks trimmed;
#  - the samples per event and per process equal the totals of perf's
#    python view (NAME.perf.data.expected), events with no samples aside;
#  - the same for the pipe-mode file (events and processes only: it has no
#    .header), read from the file and from stdin.
. "${top_srcdir:-$(dirname "$0")/..}/tests/test-subr.sh"

keys='hostname|os release|perf version|arch|nrcpus online|nrcpus avail|cpudesc|cpuid|total memory|cmdline|data offset|data size|feat offset|time of first sample|time of last sample'

# "# key : value" lines -> "key : value", for the keys above
header_fields() {
	awk -v keys="$keys" '
		BEGIN { n = split(keys, k, "|"); for (i = 1; i <= n; i++) want[k[i]] = 1 }
		/^# [^:]*:/ {
			line = substr($0, 3)
			i = index(line, ":")
			key = substr(line, 1, i - 1)
			val = substr(line, i + 1)
			gsub(/^[ \t]+|[ \t]+$/, "", key)
			gsub(/^[ \t]+|[ \t]+$/, "", val)
			if (key in want && !(key in seen)) {
				seen[key] = 1
				print key " : " val
			}
		}' "$1" | sort
}

# The "# events (samples):" and "# processes (samples, all events):"
# sections of --info -> "event COUNT NAME" / "process COUNT PID" lines
# (events with 0 samples left out: perf's view cannot list them).
info_counts() {
	awk '
		/^# events/ { s = "event"; next }
		/^# processes/ { s = "process"; next }
		/^#/ { s = ""; next }
		s == "event" && $1 > 0 { n = $1; $1 = ""; sub(/^ /, ""); print "event", n, $0 }
		s == "process" { print "process", $1, $2 }' "$1" | sort
}

oracle_counts() {
	awk -F "$TAB" '{ e[$3] += $1; p[$4] += $1 }
		END {
			for (k in e) print "event", e[k], k
			for (k in p) print "process", p[k], k
		}' "$1" | sort
}

n=0
for data in "$TESTDATA"/*.perf.data; do
	name=$(basename "$data" .perf.data)
	[ -f "$data.expected" ] || continue
	check_exit 0 "$PERF2GPERF" --info "$data"
	mv out $name.info
	[ ! -s err ] || { cat err >&2; fail "$name: --info wrote to stderr"; }

	if [ -f "$data.header" ]; then
		n=$((n + 1))
		header_fields "$data.header" > $name.perf
		header_fields $name.info > $name.ours
		[ "$(wc -l < $name.perf)" -ge 10 ] ||
			hard_error "$name.perf.data.header: too few known fields"
		# every field perf shows must be in --info, with the same value
		compare_text $name.perf $name.ours "perf2gperf --info $name.perf.data"
	fi

	oracle_counts "$data.expected" > $name.count-perf
	info_counts $name.info > $name.count-ours
	compare_text $name.count-perf $name.count-ours \
		"sample counts of perf2gperf --info $name.perf.data"

	# the same from standard input (not for a perf.data directory)
	[ -f "$data" ] || continue
	check_exit 0 sh -c '"$1" --info - < "$2"' sh "$PERF2GPERF" "$data"
	info_counts out > $name.count-stdin
	compare_text $name.count-perf $name.count-stdin \
		"sample counts of perf2gperf --info - < $name.perf.data"
	echo "$name: --info agrees with perf"
done
[ $n -gt 0 ] || skip "no fixtures with a .header file"

exit 0
