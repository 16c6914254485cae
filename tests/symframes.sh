# SPDX-License-Identifier: MIT
# Helpers for the tests of the symbolizer (tests/symlookup.c), sourced
# after tests/test-subr.sh.
#
#   SYMLOOKUP                   the driver, under $P2G_WRAPPER if set
#   perf_frames DATA IN EXP     from perf.data DATA, write IN, the
#                               driver's input (a "map" line and the
#                               address of every callchain frame of every
#                               sample, from perf script's MMAP events and
#                               build IDs), and EXP, perf script's name of
#                               each ("ADDR NAME"), in the same order;
#                               user-space addresses as file offsets
#                               ("@OFFSET", as perf script shows them)
#                               but in JIT code (perf maps), named with
#                               their anonymous mapping

SYMLOOKUP=$top_builddir/tests/symlookup
[ -x "$SYMLOOKUP" ] ||
	hard_error "$SYMLOOKUP is not built (make check builds it)"
if [ -n "${P2G_WRAPPER:-}" ]; then
	SYMLOOKUP="$P2G_WRAPPER $SYMLOOKUP"
fi

perf_frames() {
	perf buildid-list -i "$1" > buildids 2> buildids.err || :
	perf script -i "$1" --show-mmap-events -F pid,ip,sym,dso \
		> frames.txt 2> frames.err ||
		fail "perf script failed: $(head -n 3 frames.err)"
	awk -v IN="$2" -v EXP="$3" '
	function hex(s,   i, n, c) {
		n = 0
		sub(/^0x/, "", s)
		for (i = 1; i <= length(s); i++) {
			c = index("0123456789abcdef", substr(s, i, 1))
			if (c == 0)
				return -1
			n = n * 16 + c - 1
		}
		return n
	}
	# a hex address padded to 16 digits: kernel addresses are compared
	# as strings, beyond what awk numbers hold exactly
	function pad(s) {
		sub(/^0x/, "", s)
		while (length(s) < 16)
			s = "0" s
		return s
	}
	FILENAME == "buildids" { bid[$2] = $1; next }
	/PERF_RECORD_MMAP/ {
		split($3, pt, "/")
		mp = pt[1]
		if (!match($0, /\[0x[0-9a-f]+\(0x[0-9a-f]+\) @ (0x)?[0-9a-f]+/))
			next
		r = substr($0, RSTART + 1, RLENGTH - 1)
		split(r, f, /[()@ ]+/)
		path = $0
		sub(/.*\]: [^ ]+ /, "", path)
		k = ++nm[mp]
		ms[mp, k] = f[1]; ml[mp, k] = f[2]; mo[mp, k] = f[3]
		mpath[mp, k] = path
		next
	}
	/^ *-?[0-9]+ *$/ { pid = $1; next }
	/^\t/ {
		ip = $1
		dso = $NF
		sym = $2
		for (i = 3; i < NF; i++)
			sym = sym " " $i
		if (dso == "([unknown])")
			next
		if (length(ip) >= 16 && substr(ip, 1, 4) == "ffff") {
			# kernel space: absolute addresses
			# the last kernel mapping that starts at or before ip
			best = 0
			for (k = 1; k <= nm[-1]; k++)
				if (pad(ms[-1, k]) <= pad(ip) &&
				    (best == 0 ||
				     pad(ms[-1, k]) > pad(ms[-1, best])))
					best = k
			if (best == 0)
				next
			p = mpath[-1, best]
			b = p in bid ? bid[p] : "-"
			if (p ~ /^\[kernel\.kallsyms\]/ &&
			    "[kernel.kallsyms]" in bid)
				b = bid["[kernel.kallsyms]"]
			print "map " substr(ms[-1, best], 3) " 0 " \
			    mo[-1, best] " -1 " b " " p > IN
			print ip > IN
			print ip " " sym > EXP
			next
		}
		d = substr(dso, 2, length(dso) - 2)
		if (d ~ /^\/tmp\/perf-[0-9]+\.map$/) {
			# JIT code: the address as it is, in anonymous memory
			a = hex(ip)
			for (k = 1; k <= nm[pid]; k++)
				if (mpath[pid, k] == "//anon" &&
				    hex(ms[pid, k]) <= a &&
				    a < hex(ms[pid, k]) + hex(ml[pid, k]))
					break
			if (k > nm[pid])
				next
			print "map " substr(ms[pid, k], 3) " 0 " mo[pid, k] \
			    " " pid " - //anon" > IN
			print ip > IN
			print ip " " sym > EXP
			next
		}
		rel = hex(ip)
		for (k = 1; k <= nm[pid]; k++)
			if (mpath[pid, k] == d && hex(mo[pid, k]) <= rel &&
			    rel < hex(mo[pid, k]) + hex(ml[pid, k]))
				break
		if (k > nm[pid])
			next
		b = d in bid ? bid[d] : "-"
		print "map " substr(ms[pid, k], 3) " " \
		    sprintf("%x", 0) " " mo[pid, k] " " pid " " b " " d > IN
		print "@" ip > IN
		print "@" ip " " sym > EXP
	}' buildids frames.txt
}
