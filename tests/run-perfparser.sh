#!/bin/sh
# SPDX-License-Identifier: MIT
# DWARF stacks against an independent unwinder: KDAB perfparser's own
# dumps (NAME.expected.txt) of the --call-graph dwarf recordings of
# ../shared/corpus/perfparser (see its README; skipped without it), made
# on other machines with their static binaries, which perf 6.1 does not
# unwind at all.  The binaries reach perf2gperf through a --symfs tree of
# links (symfs_link).  For each of vector_static_gcc/perf.data,
# vector_static_gcc/perf.data.zstd and fork_static_gcc/perf.data.zstd,
# at least 95% of the samples must have the very stack perfparser gives,
# once the ways the two write a stack are made one:
#  - perfparser writes each caller as the return address - 1 (libdw's
#    address inside the call), a profile the return address itself: +1
#    on every user frame after the first (stacks_dwarf_norm);
#  - perfparser repeats the IP as a caller when the sample is at a
#    function's first instruction: a second user frame equal to the first
#    is dropped from its stacks;
#  - perfparser drops a leaf in the vdso, which it cannot resolve without
#    the machine's vdso: a user leaf in the [vdso] mapping is dropped from
#    ours.
# The test prints how many samples each rule touched.  perfparser's dump
# has two lines for each frame and each inlined frame: a real frame is
# one whose address line reads "ADDR ADDR" (a user frame) or whose symbol
# line names [kernel.kallsyms] (a kernel frame, "ADDR 0").
# Then the event names of the hybrid-PMU and uprobe recordings (see
# below), and contentsize.data, dwarf samples whose stack copy is shorter than
# asked (dyn_size < size; 0 for the samples taken during exec), against
# perf's own view (perf script with testdata/perf-stacks.py, where perf
# is installed): every stack must be perf's, and every user frame in the
# binary perf script -F dso names (by the profile's maps text).
. "${top_srcdir:-$(dirname "$0")/..}/tests/test-subr.sh"
. "$top_srcdir/tests/stacks.sh"

pp=$top_srcdir/../shared/corpus/perfparser
[ -d "$pp" ] || skip "no corpus at $pp"
pp=$(cd "$pp" && pwd)
HOME=$test_dir
export HOME

# perfparser_stacks FILE: canonical stacks (stacks.sh) of a perfparser
# dump, its repeated IPs dropped; "dup N" on stderr
perfparser_stacks() {
	awk -v TAB="$TAB" "$stacks_kernel_awk"'
		function flush() {
			if (s != "")
				print s TAB 1
			s = ""
			nu = 0
			first = ""
			line = 0
		}
		/^[^\t]/ { flush(); next }
		/^\t[^\t]*: [0-9]+$/ { next }
		/^$/ { next }
		{
			sub(/^\t/, "")
			if (++line % 2 == 1) {
				split($0, t, "\t")
				split(t[1], a, " ")
				next
			}
			if (a[1] != "0" && a[1] == a[2])
				v = "0x" a[1]
			else if (index($0, "[kernel.kallsyms]") > 0)
				v = "0x" a[1]
			else
				next
			if (!is_kernel(v)) {
				if (++nu == 1)
					first = v
				else if (nu == 2 && v == first) {
					dup++
					next
				}
			}
			s = s (s != "" ? " " : "") v
		}
		END {
			flush()
			print "dup " dup + 0 > "/dev/stderr"
		}' "$1" | stacks_sum
}

# without_vdso_leaf DUMP: the canonical stacks of gperfcheck --dump text
# DUMP, a user leaf in its [vdso] mapping dropped; "vdso N" on stderr
without_vdso_leaf() {
	range=$(awk '$1 == "map" && / \[vdso\]/ { print $2; exit }' "$1")
	stacks_dump "$1" | awk -v r="$range" "$stacks_awk_lib$stacks_kernel_awk"'
		BEGIN {
			split(r, b, "-")
			lo = norm(b[1])
			hi = norm(b[2])
		}
		# hex strings of one length compare as numbers
		function inrange(a) {
			return r != "" && length(a) == length(lo) &&
			    length(a) == length(hi) && a >= lo && a < hi
		}
		{
			c = $1
			s = ""
			user = 0
			for (i = 2; i <= NF; i++) {
				if (!is_kernel($i) && user++ == 0 && inrange($i)) {
					n += c
					continue
				}
				s = s (s != "" ? " " : "") $i
			}
			if (s != "")
				print s "\t" c
		}
		END { print "vdso " n + 0 > "/dev/stderr" }' | stacks_sum
}

n=0
for name in vector_static_gcc/perf.data vector_static_gcc/perf.data.zstd \
    fork_static_gcc/perf.data.zstd; do
	f=$pp/$name
	[ -f "$f" ] && [ -f "$f.expected.txt" ] ||
		hard_error "$f or its expected.txt is missing"
	tag=$(echo "$name" | tr / _)
	rm -rf symfs
	mkdir symfs
	check_exit 0 "$PERF2GPERF" --folded-style=perf -q "$f" plain.prof
	symfs_link symfs "$pp" plain.prof
	[ -n "$(find symfs -type l)" ] ||
		hard_error "$name: no binary of the corpus matches its maps"
	check_exit 0 "$PERF2GPERF" --folded-style=perf -q --no-fixup --symfs symfs "$f" $tag.prof
	check_exit 0 "$GPERFCHECK" --dump $tag.prof
	cp out $tag.dump
	without_vdso_leaf out > $tag.got 2> $tag.vdso
	# --binaries with the recording's directory finds the binaries by
	# name with no --symfs tree: the same stacks, and names in folded
	check_exit 0 "$PERF2GPERF" --folded-style=perf -q --no-fixup \
		--binaries "$(dirname "$f")" "$f" $tag.bin.prof
	check_exit 0 "$GPERFCHECK" --dump $tag.bin.prof
	compare_text $tag.dump out "$name: stacks with --binaries"
	check_exit 0 "$PERF2GPERF" --folded-style=perf --binaries "$(dirname "$f")" \
		-f folded "$f" $tag.folded
	! grep -q "no usable file" err ||
		fail "$name: --binaries warned: $(cat err)"
	grep -q ';main;' $tag.folded ||
		fail "$name: no main in the folded stacks with --binaries"
	perfparser_stacks "$f.expected.txt" 2> $tag.dup |
		stacks_dwarf_norm > $tag.want
	read -r matched total pct <<EOF
$(stacks_agree $tag.want $tag.got)
EOF
	echo "$name: $matched of $total samples agree ($pct%);" \
		"repeated IPs dropped: $(cut -d' ' -f2 $tag.dup)," \
		"vdso leaves dropped: $(cut -d' ' -f2 $tag.vdso)"
	[ "$total" -gt 20 ] || hard_error "$name: only $total samples"
	got=$(awk '{ s += $1 } END { print s + 0 }' $tag.got)
	[ "$got" -eq "$total" ] ||
		fail "$name: $got samples converted, perfparser has $total"
	if [ $((matched * 100)) -lt $((total * 95)) ]; then
		stacks_worst $tag.want $tag.got >&2
		fail "$name: only $matched of $total samples agree with perfparser"
	fi
	n=$((n + 1))
done

# Event names: hybrid-PMU names (cpp-inlining.perf.data, perf 6.6; perf
# 6.1 cannot read it, so the names are the corpus README's) and a uprobe
# in file mode (named by the event_desc feature) and pipe mode (named only
# by the tracing data: perf's trace-event-read.c) must be listed by
# --info and chosen by -e.
f=$pp/cpp-inlining/cpp-inlining.perf.data
check_exit 0 "$PERF2GPERF" --info "$f"
awk '/^# events/ { s = 1; next } /^#/ { s = 0 } s { print $2 }' out > ev.got
printf '%s\n' cpu_atom/cycles:Pu/ cpu_core/cycles:Pu/ dummy:HGu > ev.want
compare_text ev.want ev.got "events of cpp-inlining.perf.data"
check_exit 0 "$PERF2GPERF" --folded-style=perf -q -e cpu_core/cycles:Pu/ "$f" hybrid.prof
check_exit 1 "$PERF2GPERF" --folded-style=perf -q -e cpu_atom/cycles:Pu/ "$f" hybrid.prof
check_grep "no samples of event cpu_atom/cycles:Pu/"
for f in "$pp/probe.data.file" "$pp/probe.data.stream"; do
	check_exit 0 "$PERF2GPERF" --info "$f"
	awk '/^# events/ { s = 1; next } /^#/ { s = 0 } s { print $1, $2 }' \
		out > ev.got
	echo "1 probe_untitled1:main" > ev.want
	compare_text ev.want ev.got "events of $f"
	check_exit 0 "$PERF2GPERF" --folded-style=perf -q -e probe_untitled1:main "$f" probe.prof
done

# The tracing data of the stream (its magic at 0x94, 2832 bytes): cut
# short, an error at the offset where they end; not tracing data, a
# warning at their start and the tracepoint keeps its number.
f=$pp/probe.data.stream
[ "$(dd if="$f" bs=1 skip=$((0x97)) count=7 2> /dev/null)" = tracing ] ||
	hard_error "$f: no tracing data at 0x94"
head -c 1000 "$f" > cut.data
check_exit 1 "$PERF2GPERF" --info cut.data
check_grep "cut.data: offset 0x3e8: tracing data end early (852 of 2832 bytes)"
cp "$f" bad.data
printf X | dd of=bad.data bs=1 seek=$((0x96)) conv=notrunc 2> /dev/null
check_exit 0 "$PERF2GPERF" --info bad.data
check_grep "bad.data: offset 0x94: warning: tracing data unreadable"
grep -q "^ *1  tracepoint-1329\$" out || fail "bad.data: $(grep -A1 '# events' out)"

# contentsize.data: stack copies shorter than asked, against perf
if ! have perf; then
	echo "perf is not installed: contentsize.data and the uprobe" \
		"recordings not compared with perf"
	exit 0
fi
# perf's names and stacks of the uprobe recordings
for f in "$pp/probe.data.file" "$pp/probe.data.stream"; do
	PERF_STACKS_OUT=probe.expected perf script -i "$f" --no-inline \
		-s "$TESTDATA/perf-stacks.py" > /dev/null 2> perf.err ||
		hard_error "perf script fails on $f: $(head -n 3 perf.err)"
	cut -f3 probe.expected | sort -u > ev.perf
	echo probe_untitled1:main > ev.want
	compare_text ev.want ev.perf "perf's events of $f"
	stacks_oracle probe.expected > probe.want
	check_exit 0 "$PERF2GPERF" --folded-style=perf -q --no-fixup -e probe_untitled1:main "$f" \
		probe.prof
	check_exit 0 "$GPERFCHECK" --dump probe.prof
	stacks_dump out > probe.got
	compare_text probe.want probe.got "stacks of $f"
done
f=$pp/contentsize.data
PERF_STACKS_OUT=cs.expected perf script -i "$f" --no-inline \
	-s "$TESTDATA/perf-stacks.py" > /dev/null 2> perf.err ||
	hard_error "perf script fails on $f: $(head -n 3 perf.err)"
stacks_oracle cs.expected | stacks_dwarf_norm > cs.want
check_exit 0 "$PERF2GPERF" --folded-style=perf -q --no-fixup "$f" cs.prof
check_exit 0 "$GPERFCHECK" --dump cs.prof
stacks_dump out > cs.got
compare_text cs.want cs.got "contentsize.data's stacks"
# ...and the user frames of each sample in the binaries perf names, by
# the profile's maps text (the program's and libc's text each lie under
# a mapping of the same file that overlaps their end, which leaves them
# the rest, as in perf)
perf script -i "$f" -F ip,dso --no-inline 2> perf.err > cs.perfdso ||
	hard_error "perf script fails on $f: $(head -n 3 perf.err)"
awk 'function flush() { if (s != "") print s; s = "" }
	NF == 0 || /^[^ \t]/ { flush(); next }
	$1 ~ /^ffff/ { next }
	{ d = $NF; gsub(/^\(|\)$/, "", d); n = split(d, p, "/")
	  s = s (s != "" ? ";" : "") p[n] }
	END { flush() }' cs.perfdso | LC_ALL=C sort | uniq -c > csdso.want
awk 'function hex(s,  i, v) {
		s = tolower(s); sub(/^0x/, "", s); v = 0
		for (i = 1; i <= length(s); i++)
			v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
		return v
	}
	/^map / {
		split($2, r, "-")
		lo[++nm] = hex(r[1]); hi[nm] = hex(r[2])
		n = split($NF, p, "/"); f[nm] = p[n]
		next
	}
	/^[0-9]+ 0x/ { st[++ns] = $0 }
	END {
		for (i = 1; i <= ns; i++) {
			n = split(st[i], a, " ")
			s = ""
			for (j = 2; j <= n; j++) {
				if (a[j] ~ /^0xffff/)
					continue
				d = "[unknown]"
				x = hex(a[j])
				for (k = 1; k <= nm; k++)
					if (x >= lo[k] && x < hi[k])
						d = f[k]
				s = s (s != "" ? ";" : "") d
			}
			for (c = 0; c < a[1] && s != ""; c++)
				print s
		}
	}' out | LC_ALL=C sort | uniq -c > csdso.got
compare_text csdso.want csdso.got "contentsize.data's user frames' binaries"
echo "contentsize.data: $(awk '{ s += $1 } END { print s + 0 }' cs.got) samples, all perf's, in perf's binaries"

exit 0
