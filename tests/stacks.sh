# SPDX-License-Identifier: MIT
# Stack helpers for the shell tests; source after test-subr.sh.
#
# Every reader of a profile is brought to one canonical text, so that
# perf's own view, our dump and both pprofs can be compared with diff:
#
#	COUNT 0xPC0 0xPC1 ...
#
# one line per distinct stack (leaf first, lower-case hex without leading
# zeros), COUNT the sum over all records/samples with that exact stack,
# lines sorted by stack (LC_ALL=C).  A stack is only ever compared with
# the same stack: order and duplicate records do not matter, counts do.
#
# Functions (all write to stdout):
#   stacks_oracle FILE [EVENT [PID [drop0]]]  a testdata/*.expected or
#		corpus *.expected(-raw) oracle ("count<TAB>period<TAB>event
#		<TAB>pid<TAB>hex addrs"), keeping lines of EVENT and PID (empty:
#		all); with drop0, addresses 0 are left out of the stacks (the
#		corpus oracles keep them, testdata/perf-stacks.py drops them; a
#		gperftools profile cannot hold PC 0, so perf2gperf drops them)
#   stacks_dump [FILE]     gperfcheck --dump output (stdin by default)
#   stacks_go_raw [FILE]   `go tool pprof -raw -symbolize=none` output
#   stacks_perl_raw FILE   `google-pprof --raw PROG PROFILE` output
#   gperf_ref_dump FILE    an independent reading (od + awk, written from
#		the format document) of a gperftools CPU profile, printed in
#		gperfcheck --dump's layout
#   leaf_copies_check DEF NOFIX   compare two dumps record by record; see
#		the function
# and, for DWARF call stacks (perf record --call-graph dwarf), filters
# from canonical text to canonical text (stdin by default):
#   stacks_dwarf_norm [FILE]   perf's view of a DWARF stack -> what a
#		gperftools profile holds: +1 on every user frame after the
#		first user frame (see the function)
#   stacks_leaf_only [FILE]    what is left without unwinding: the kernel
#		frames of a stack that has any, else its first frame
#   stacks_truncate N [FILE]   the first (leaf-side) N frames of each stack
#   stacks_agree EXP ACT      print "MATCHED TOTAL PERCENT": the samples of
#		EXP whose stack ACT has as well (sum over stacks of the smaller
#		count) against EXP's total
#   stacks_agree_prefix EXP ACT   print "EXACT LONGER TOTAL": EXACT as
#		stacks_agree's MATCHED; LONGER the rest of EXP's samples
#		matched with samples of ACT whose stack goes on beyond EXP's
#		(EXP's stack a proper prefix, leaf side, of ACT's; the last
#		word of each line, a tag such as a pid, must be equal)
#   stacks_worst EXP ACT [N]  the N (10) stacks whose counts differ most
#
# Only POSIX awk (mawk is fine): addresses are 64-bit, beyond awk's exact
# integers, so they are handled as hex strings and +1 is done digit by
# digit (hexinc).  Counts are converted to numbers (exact below 2^53).

LC_ALL=C
export LC_ALL

# awk functions shared by the readers below.
stacks_awk_lib='
function norm(a) {
	a = tolower(a)
	sub(/^0x/, "", a)
	sub(/^0+/, "", a)
	if (a == "")
		a = "0"
	return "0x" a
}
# Add 1 to a hex address, as a string (pprof stores return address - 1
# for every frame but the leaf; this undoes it).
function hexinc(h,   digits, out, carry, i, d) {
	digits = "0123456789abcdef"
	h = tolower(h)
	sub(/^0x/, "", h)
	out = ""
	carry = 1
	for (i = length(h); i >= 1; i--) {
		d = index(digits, substr(h, i, 1)) - 1 + carry
		if (d == 16) {
			d = 0
			carry = 1
		} else
			carry = 0
		out = substr(digits, d + 1, 1) out
	}
	if (carry)
		out = "1" out
	return norm(out)
}
function hexval(h,   digits, v, i) {
	digits = "0123456789abcdef"
	h = tolower(h)
	sub(/^0x/, "", h)
	v = 0
	for (i = 1; i <= length(h); i++)
		v = v * 16 + index(digits, substr(h, i, 1)) - 1
	return v
}
'

# Sum "STACK<TAB>COUNT" lines per stack, print "COUNT STACK" sorted by stack.
stacks_sum() {
	awk -F "$TAB" '{ c[$1] += $2 } END { for (k in c) printf "%s\t%.0f\n", k, c[k] }' |
		sort | awk -F "$TAB" '{ print $2 " " $1 }'
}

stacks_oracle() {
	awk -F "$TAB" -v ev="$2" -v pid="$3" -v drop0="$4" "$stacks_awk_lib"'
		ev != "" && $3 != ev { next }
		pid != "" && $4 != pid { next }
		{
			n = split($5, a, " ")
			s = ""
			for (i = 1; i <= n; i++) {
				a[i] = norm(a[i])
				if (drop0 != "" && a[i] == "0x0")
					continue
				s = s (s != "" ? " " : "") a[i]
			}
			print s "\t" $1
		}' "$1" | stacks_sum
}

stacks_dump() {
	awk "$stacks_awk_lib"'
		/^[0-9]/ {
			s = ""
			for (i = 2; i <= NF; i++)
				s = s (i > 2 ? " " : "") norm($i)
			print s "\t" $1
		}' ${1+"$1"} | stacks_sum
}

# go tool pprof -raw prints "Samples:", a line of sample types, one line
# "  COUNT  NANOSECONDS: LOCID LOCID ..." per sample (leaf first), then
# "Locations" with "  LOCID: 0xADDR M=..." lines, then "Mappings".  Go's
# legacy reader stores every frame but the leaf as its address - 1.
# The awk rules that read its sections: sect is "s", "l" or "m"; sample i
# (1..ns) has count cnt[i] and its location ids in ids[i].
go_raw_awk='
		/^Samples:/ { sect = "s"; next }
		/^Locations/ { sect = "l"; next }
		/^Mappings/ { sect = "m"; next }
		sect == "s" && /^ *[0-9]+ +[0-9]+:/ {
			ns++
			cnt[ns] = $1
			sub(/^[^:]*: */, "")
			ids[ns] = $0
			next
		}'
stacks_go_raw() {
	awk "$stacks_awk_lib$go_raw_awk"'
		sect == "s" && /^ *[0-9]/ { bad = "unparsed sample line: " $0 }
		sect == "l" && /^ *[0-9]+: 0x/ {
			id = $1
			sub(/:$/, "", id)
			addr[id] = $2
		}
		END {
			if (bad != "") {
				print bad > "/dev/stderr"
				exit 1
			}
			for (i = 1; i <= ns; i++) {
				n = split(ids[i], l, " ")
				s = ""
				for (j = 1; j <= n; j++) {
					if (!(l[j] in addr)) {
						print "no location " l[j] > "/dev/stderr"
						exit 1
					}
					a = j == 1 ? norm(addr[l[j]]) : hexinc(addr[l[j]])
					s = s (j > 1 ? " " : "") a
				}
				print s "\t" cnt[i]
			}
		}' ${1+"$1"} | stacks_sum
}

# The binary slot reader behind gperf_ref_dump and stacks_perl_raw: reads
# "od -An -v -t x1" output (any number of bytes a line) and parses a CPU
# profile as the format document describes it.
#   start=0:  the file is a profile; detect slot width and byte order the
#             way Go pprof does (32 LE, 32 BE, 64 LE, 64 BE; exactly
#             0,3,0,P>0,0); print the dump lines, then "@maps OFFSET".
#   start=perl: skip up to the line "--- profile" of google-pprof --raw
#             output first; the records there end at the end of file (perl
#             writes no trailer); print "STACK<TAB>COUNT" lines with
#             callers' addresses + 1.
stacks_slots_awk='
function word(i,   s, k, o) {
	s = ""
	o = base + i * w
	if (o + w > nb) {
		short = 1
		return "0"
	}
	for (k = 0; k < w; k++)
		s = big ? s b[o + k] : b[o + k] s
	sub(/^0+/, "", s)
	return s == "" ? "0" : s
}
function try(width, bigend) {
	w = width
	big = bigend
	short = 0
	return word(0) == "0" && word(1) == "3" && word(2) == "0" &&
	    word(3) != "0" && word(4) == "0" && !short
}
{ for (i = 1; i <= NF; i++) b[nb++] = $i }
END {
	base = 0
	if (start == "perl") {
		# "\n--- profile\n"
		pat = "0a 2d 2d 2d 20 70 72 6f 66 69 6c 65 0a"
		np = split(pat, p, " ")
		for (o = 0; o + np <= nb; o++) {
			for (k = 1; k <= np && b[o + k - 1] == p[k]; k++)
				;
			if (k > np)
				break
		}
		if (o + np > nb) {
			print "no --- profile line" > "/dev/stderr"
			exit 1
		}
		base = o + np
	}
	if (!(try(4, 0) || try(4, 1) || try(8, 0) || try(8, 1))) {
		print "no gperftools CPU profile header" > "/dev/stderr"
		exit 1
	}
	if (start != "perl") {
		print "header 0 3 0 " hexval(word(3)) " 0"
		print "slots " (w * 8) "-bit " (big ? "big" : "little") "-endian"
	}
	i = 5
	for (;;) {
		if (base + i * w == nb && start == "perl")
			break
		c = word(i)
		n = hexval(word(i + 1))
		if (short || base + (i + 2 + n) * w > nb) {
			print "record at slot " i " runs past the end" > "/dev/stderr"
			exit 1
		}
		if (c == "0" && n == 1 && word(i + 2) == "0") {
			if (start == "perl") {
				print "trailer in perl output" > "/dev/stderr"
				exit 1
			}
			print "trailer 0 1 0"
			i += 3
			break
		}
		s = ""
		for (k = 0; k < n; k++) {
			a = word(i + 2 + k)
			if (start == "perl")
				a = k == 0 ? norm(a) : hexinc(a)
			else
				a = norm(a)
			s = s (k > 0 ? " " : "") a
		}
		if (start == "perl")
			print s "\t" hexval(c)
		else
			print hexval(c) " " s
		i += 2 + n
	}
	if (start != "perl")
		print "@maps " (base + i * w)
}
'

gperf_ref_dump() {
	od -An -v -t x1 "$1" | awk -v start=0 "$stacks_awk_lib$stacks_slots_awk" \
		> ref_dump.tmp || return 1
	grep -v '^@maps ' ref_dump.tmp
	_rd_off=$(sed -n 's/^@maps //p' ref_dump.tmp)
	rm -f ref_dump.tmp
	tail -c +$((_rd_off + 1)) "$1" | awk '{ print "map " $0 }'
}

stacks_perl_raw() {
	od -An -v -t x1 "$1" |
		awk -v start=perl "$stacks_awk_lib$stacks_slots_awk" | stacks_sum
}

# leaf_copies_check DEFAULT_DUMP NOFIXUP_DUMP: the two dumps of one input
# (perf2gperf without and with --no-fixup, which write the same records in
# the same order) must differ only in extra copies of the leaf PC inserted
# right after it: record i of DEFAULT is [pc0 x (1+e), pc1, ...] where
# record i of NOFIXUP is [pc0, pc1, ...], e >= 0, same count.  Collapsing
# repeated leading PCs instead would be wrong: a true stack may start
# pc0, pc0 (a sample on the return address of a recursive call).
# Prints "RECORDS_WITH_COPIES TOTAL_COPIES UNPROTECTED", UNPROTECTED being
# the number of records whose true stack starts pc0, pc0 but got no copy
# (Go pprof would drop their true second frame); prints the first mismatch
# on stderr and returns 1 when the dumps are not related this way.
leaf_copies_check() {
	awk '
		FNR == 1 { f++ }
		!/^[0-9]/ { next }
		f == 1 { d[++nd] = $0; next }
		{ r[++nr] = $0 }
		END {
			if (nd != nr) {
				printf "%d records with fixup, %d without\n", nd, nr > "/dev/stderr"
				exit 1
			}
			for (i = 1; i <= nd; i++) {
				n1 = split(d[i], D, " ")
				n2 = split(r[i], R, " ")
				e = n1 - n2
				ok = D[1] == R[1] && e >= 0
				for (k = 2; ok && k <= 2 + e; k++)
					ok = D[k] == R[2]
				for (k = 3; ok && k <= n2; k++)
					ok = D[k + e] == R[k]
				if (!ok) {
					print "record " i " with fixup:    " d[i] > "/dev/stderr"
					print "record " i " without fixup: " r[i] > "/dev/stderr"
					exit 1
				}
				if (e > 0) {
					recs++
					copies += e
				} else if (n2 >= 3 && R[2] == R[3])
					unprot++
			}
			print recs + 0, copies + 0, unprot + 0
		}' "$1" "$2"
}

# go_rules_hit DUMP: print "yes" if Go pprof's legacy reader would change a
# record of the profile dumped in DUMP (gperfcheck --dump text), "no" if
# it reads every record as written (the rules: doc/pprof-readers.md,
# "The second-frame rules").
go_rules_hit() {
	awk '
		/^[0-9]/ {
			n++
			if (NF >= 3)
				sec[$3]++
			if (NF >= 3 && $2 == $3)
				dup = 1
		}
		END {
			hit = dup
			for (a in sec)
				if (sec[a] >= n - int(n / 32))
					hit = 1
			print hit ? "yes" : "no"
		}' "$1"
}

# Kernel addresses are the upper half of the 64-bit space (x86_64 puts
# the kernel at 0xffff800000000000 and above); canonical text is lower
# case with no leading zeros, so a 16-digit string starting ffff8..ffff f
# is one.
stacks_kernel_awk='
function is_kernel(a) {
	return length(a) == 18 && substr(a, 3, 5) >= "ffff8"
}
'

# perf's unwinders (libunwind and libdw, perf 6.1 util/unwind-*.c) report
# every user frame but the first (the interrupted IP, an "activation") as
# return address - 1, so that the address falls inside the call
# instruction; a gperftools profile holds the return addresses themselves
# (pprof subtracts 1).  Kernel frames (PERF_SAMPLE_CALLCHAIN) are raw.
stacks_dwarf_norm() {
	awk "$stacks_awk_lib$stacks_kernel_awk"'
		{
			s = $1
			user = 0
			for (i = 2; i <= NF; i++) {
				a = $i
				if (!is_kernel(a) && user++)
					a = hexinc(a)
				s = s " " a
			}
			print s
		}' ${1+"$1"}
}

stacks_leaf_only() {
	awk "$stacks_kernel_awk"'
		{
			s = ""
			for (i = 2; i <= NF && is_kernel($i); i++)
				s = s " " $i
			if (s == "")
				s = " " $2
			print s "\t" $1
		}' ${1+"$1"} | sed 's/^ //' | stacks_sum
}

stacks_truncate() {
	_st_n=$1
	shift
	awk -v n="$_st_n" '
		{
			s = ""
			for (i = 2; i <= NF && i <= n + 1; i++)
				s = s (i > 2 ? " " : "") $i
			print s "\t" $1
		}' ${1+"$1"} | stacks_sum
}

stacks_agree() {
	stacks_agree_prefix "$1" "$2" |
		awk '{ printf "%d %d %.2f\n", $1, $3, $3 ? 100 * $1 / $3 : 0 }'
}

stacks_agree_prefix() {
	awk '
		FNR == 1 { f++ }
		{
			c = $1
			$1 = ""
			if (f == 1) { e[$0] += c; tot += c } else a[$0] += c
		}
		END {
			for (k in e) {
				m = (k in a) ? (a[k] < e[k] ? a[k] : e[k]) : 0
				exact += m
				left[k] = e[k] - m
				if (k in a)
					a[k] -= m
			}
			for (k in e) {
				if (left[k] == 0)
					continue
				tag = k
				sub(/.* /, "", tag)
				pre = k
				sub(/ [^ ]*$/, "", pre)
				for (x in a) {
					if (a[x] == 0)
						continue
					t = x
					sub(/.* /, "", t)
					px = x
					sub(/ [^ ]*$/, "", px)
					if (t != tag || length(px) <= length(pre) ||
					    substr(px, 1, length(pre) + 1) != pre " ")
						continue
					m = a[x] < left[k] ? a[x] : left[k]
					longer += m
					left[k] -= m
					a[x] -= m
					if (left[k] == 0)
						break
				}
			}
			printf "%d %d %d\n", exact, longer, tot
		}' "$1" "$2"
}

stacks_worst() {
	awk -v n="${3:-10}" '
		FNR == 1 { f++ }
		{
			c = $1
			$1 = ""
			if (f == 1) e[$0] += c; else a[$0] += c
			k[$0] = 1
		}
		END {
			for (s in k) {
				d = e[s] - a[s]
				printf "%d\t%d\t%d\t%s\n", d < 0 ? -d : d, e[s], a[s], s
			}
		}' "$1" "$2" | sort -t "$TAB" -k1,1nr -k4,4 | head -n "${3:-10}" |
		awk -F "$TAB" '{ printf "  expected %d, got %d:%s\n", $2, $3, $4 }'
}
