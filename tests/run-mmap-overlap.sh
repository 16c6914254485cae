#!/bin/sh
# SPDX-License-Identifier: MIT
# A mapping over part of others: perf keeps the parts of the old mappings
# that the new one does not cover, the part above with its file offset
# moved along.  testdata/regress/mmap-overlap.perf.data (mkregress.pl)
# maps data over the middle of libc's text and another file's text over
# the upper half of the program's page, then takes samples in the parts
# kept (one in libc's part above the data).  Each frame must be in the
# binary perf script -F ip,dso names, each binary must have the shares
# of perf report --children --sort dso, and the folded stacks must be
# perf script's.
. "${top_srcdir:-$(dirname "$0")/..}/tests/test-subr.sh"
. "$top_srcdir/tests/shares.sh"

data=$(testfile regress/mmap-overlap.perf.data)
check_exit 0 "$PERF2GPERF" --folded-style=perf -q --no-fixup "$data" ov.prof
check_exit 0 "$GPERFCHECK" --dump ov.prof
# the dump's stacks, each frame as the basename of its mapping's file
awk '
	/^map / {
		split($2, r, "-")
		lo[++nm] = r[1]; hi[nm] = r[2]
		n = split($NF, p, "/"); f[nm] = p[n]
		next
	}
	/^[0-9]+ 0x/ { st[++ns] = $0 }
	function hex(s,  i, v) {
		s = tolower(s); sub(/^0x/, "", s); v = 0
		for (i = 1; i <= length(s); i++)
			v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
		return v
	}
	END {
		for (i = 1; i <= ns; i++) {
			n = split(st[i], a, " ")
			line = ""
			for (j = 2; j <= n; j++) {
				d = "[unknown]"
				for (k = 1; k <= nm; k++)
					if (hex(a[j]) >= hex(lo[k]) &&
					    hex(a[j]) < hex(hi[k]))
						d = f[k]
				line = line (j > 2 ? ";" : "") d
			}
			for (c = 0; c < a[1]; c++)
				print line
		}
	}' out | LC_ALL=C sort > dsos.got
# the same of the dump as perf report --children --sort dso gives them
awk '{
	n = split($0, d, ";"); split("", seen); tot++
	self[d[1]]++
	for (j = 1; j <= n; j++)
		if (!(d[j] in seen)) { seen[d[j]] = 1; cum[d[j]]++ }
	}
	END {
		for (x in cum)
			printf "%s\t%.2f\t%.2f\n", x, 100 * self[x] / tot,
				100 * cum[x] / tot
	}' dsos.got | LC_ALL=C sort > shares.got
cat > dsos.exp <<'EOT'
hot;hot;libc.so.6
hot;hot;libc.so.6
hot;hot;libc.so.6
EOT
compare_text dsos.exp dsos.got "the binaries of the frames"
check_exit 0 "$PERF2GPERF" --folded-style=perf -q -f folded "$data" ov.folded
cat > folded.exp <<'EOT'
hot;__libc_start_call_main;[unknown];[unknown] 2
hot;getaddrinfo;[unknown];[unknown] 1
EOT
LC_ALL=C sort ov.folded > folded.got
compare_text folded.exp folded.got "the folded stacks"
have perf || {
	echo "perf is not installed: not compared with perf"
	exit 0
}
perf script -i "$data" -F ip,dso 2> perf.err > perf.dsos ||
	hard_error "perf script fails on $data: $(head -n 3 perf.err)"
awk 'NF == 0 { if (s != "") print s; s = ""; next }
	{ d = $2; gsub(/[()]/, "", d); n = split(d, p, "/")
	  s = s (s != "" ? ";" : "") p[n] }
	END { if (s != "") print s }' perf.dsos | LC_ALL=C sort > dsos.perf
compare_text dsos.perf dsos.got "the binaries of the frames against perf script"
shares_perf "$data" > shares.perf
compare_text shares.perf shares.got "the shares against perf report --sort dso"
perf script -i "$data" -F comm,ip,sym 2> perf.err > perf.syms ||
	hard_error "perf script fails on $data: $(head -n 3 perf.err)"
awk 'NF == 0 { if (s != "") c[s]++; s = ""; next }
	NF == 1 && $1 !~ /^[0-9a-f]+$/ { comm = $1; next }
	{ s = ($2 == "" ? "[unknown]" : $2) (s != "" ? ";" s : "") }
	END { if (s != "") c[s]++
	      for (x in c) print comm ";" x, c[x] }' perf.syms |
	LC_ALL=C sort > folded.perf
compare_text folded.perf folded.got "the folded stacks against perf script"
echo "mmap-overlap.perf.data: the parts of overlapped mappings kept, as perf keeps them"
exit 0
