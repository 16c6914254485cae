#!/bin/sh
# SPDX-License-Identifier: MIT
# Work and memory linear in the input, on inputs that tests/blowup makes
# (see there) to be slow or large for a reader that is not:
#  - datamaps: 300000 mappings, scattered, a quarter of them replacing
#    one before, in one process (a scan of the process's mappings for
#    each new one took about 150 s);
#  - places: 100000 programs mapped in turn at one address, each with a
#    sample: 100000 places, all but one relocated (a search from the
#    bottom of the relocation area for each took minutes);
#  - buildids: 150000 libraries, each with a sample and a build id in the
#    header (a scan of the header's build ids for each place: 80 s);
#  - procs: 20000 processes, each its own program at one address;
#  - forks: 20000 processes forked from one with 5000 mappings, each
#    mapping a program of its own over one of them (each fork copied its
#    parent's mappings: 2.4 GB, 7 s);
#  - remaps: 20000 samples in one process, each followed by a mapping
#    over the one sampled, among 20000 others (each change after a sample
#    copied the process's mappings: 11 GB, a minute);
#  - groups: 5000 events and 5000 groups of all of them, for --info
#    (the text of the groups was built in memory: 5000 * 5000 names);
#  - buildids again, into pprof: each library missing (a scan of the
#    libraries told missing for each, and each warning written a byte
#    per write(2): 80000 took 16 s) and its build id looked up by path
#    (a scan of the header's for each: 14 s);
#  - unmapped: 100000 maps lines and 100000 PCs in none, for gperfcheck
#    and its --summary (a scan of the lines for each PC: 20 s, and over
#    a minute);
#  - samples: a million samples through --pid with 20000 ids (a scan of
#    the list for each sample: 5 s, where a search takes 0.1 s; the
#    limit is 2 s);
#  - splitmaps: --split into 15625 profiles among a million mappings
#    (arrays over every mapping made for each profile, and a scan of the
#    names written for each: 20 s).
# The limits do not depend on the machine's speed: CPU time (ulimit -t,
# not the wall clock, which a loaded machine stretches) of 30 s where a
# linear reader takes one or two and a quadratic one minutes (10 s for
# the later cases, where the quadratic readers took 15 s or more, 2 s
# for samples), and 200 MB of address space for --info where the whole text would take 325 MB and
# for forks and remaps where the copies took gigabytes (a linear reader
# takes 20 to 40 MB).  Each output is checked too.  Under a wrapper
# (valgrind) the inputs are small and there are no limits: that run looks
# for memory errors; with the sanitizers (slower, and reserving address space of
# their own) the inputs are of middle size and there are no limits.
# The outputs are large and checked by the test itself; the CPU limits
# are for perf2gperf (and gperfcheck) alone.
P2G_OUTPUT_CHECK=no
. "${top_srcdir:-$(dirname "$0")/..}/tests/test-subr.sh"

BLOWUP=$top_builddir/tests/blowup
[ -x "$BLOWUP" ] || hard_error "$BLOWUP is not built (make check builds it)"

if [ -n "${P2G_WRAPPER:-}" ]; then
	big=2000 small=2000 groups=300 limits=false huge=4000
else
	big=100000 small=20000 groups=5000 limits=true huge=1000000
fi
sanitized=false
grep -q '^P2G_SAN_CFLAGS = .*sanitize' "$top_builddir/Makefile" 2>/dev/null &&
	sanitized=true
# The sanitizers make the tools several times slower: middle sizes there,
# and no limits (that run, too, looks for memory errors).
if $sanitized; then
	big=20000 small=4000 groups=1000 limits=false huge=100000
fi

# Run a command with at most $1 CPU seconds when the limits are on, and,
# but under the sanitizers (which reserve terabytes of address space),
# at most 200 MB of address space.
mem_limited() {
	_ml_secs=$1
	shift
	if $limits && ! $sanitized; then
		(ulimit -v 200000 && ulimit -t "$_ml_secs" && exec "$@")
	elif $limits; then
		(ulimit -t "$_ml_secs" && exec "$@")
	else
		"$@"
	fi
}


# The lines of the maps text of profile $1 that match $2 (the text is
# read from the file as it is: gperfcheck --dump of large profiles takes
# longer than the conversion).
maps_lines() {
	grep -ac -- "$2" "$1" || :
}

# The value of a --stats line named $2 in file $1.
stat() {
	sed -n "s/^  $2  *\\([0-9][0-9]*\\)\$/\\1/p" "$1"
}

# datamaps: one sample, in the one program mapped after the data.
n=$big
$limits && n=300000
"$BLOWUP" datamaps $n > datamaps.data || hard_error "blowup datamaps failed"
cpu_limited 30 "$PERF2GPERF" datamaps.data datamaps.prof 2> datamaps.err ||
	fail "datamaps ($n mappings): perf2gperf failed: $(cat datamaps.err)"
"$GPERFCHECK" --dump datamaps.prof | grep -v "^header\|^slots" > datamaps.dump
cat > datamaps.expected << 'EOF'
1 0x400100
trailer 0 1 0
map 00400000-00401000 r-xp 00000000 00:00 0 /usr/bin/blowup
EOF
compare_text datamaps.expected datamaps.dump

# mmaps: the same with executable mappings, and samples in them; every
# second one of those is in a mapping replaced at its start.  The places:
# the 3/4 of the mappings not replaced, and the 1/8 replaced half a page
# on, whose first half stays mapped (as perf keeps it).
"$BLOWUP" mmaps $small > mmaps.data || hard_error "blowup mmaps failed"
cpu_limited 30 "$PERF2GPERF" --stats mmaps.data mmaps.prof 2> mmaps.err ||
	fail "mmaps ($small mappings): perf2gperf failed: $(cat mmaps.err)"
[ "$(stat mmaps.err 'samples written')" = $((small / 8)) ] ||
	fail "mmaps: not $((small / 8)) samples written: $(cat mmaps.err)"
[ "$(stat mmaps.err 'frames in no mapping')" = 0 ] ||
	fail "mmaps: frames in no mapping: $(cat mmaps.err)"
[ "$(stat mmaps.err 'mapped places')" = $((small * 3 / 4 + small / 8)) ] ||
	fail "mmaps: not $((small * 3 / 4 + small / 8)) places: $(cat mmaps.err)"

# places and procs: every place but one relocated.
for kind in places procs; do
	n=$big
	[ $kind = procs ] && n=$small
	"$BLOWUP" $kind $n > $kind.data || hard_error "blowup $kind failed"
	cpu_limited 30 "$PERF2GPERF" --stats $kind.data $kind.prof \
		2> $kind.err ||
		fail "$kind ($n): perf2gperf failed: $(cat $kind.err)"
	[ "$(stat $kind.err 'mapped places')" = $n ] &&
		[ "$(stat $kind.err 'places relocated')" = $((n - 1)) ] &&
		[ "$(stat $kind.err 'places overlapping')" = 0 ] ||
		fail "$kind: not $n places, $((n - 1)) relocated: $(cat $kind.err)"
	c=$(maps_lines $kind.prof ' r-xp 00000000 00:00 0 /usr/bin/blowup[0-9]*$')
	[ "$c" = $n ] || fail "$kind: $c mappings in the profile, not $n"
done

# forks: the parent's libraries, each child's program where it took a
# sample; remaps: every library, and each program mapped over one but
# the last (mapped after the last sample, in a space with none).
n=$small
"$BLOWUP" forks $n > forks.data || hard_error "blowup forks failed"
mem_limited 30 "$PERF2GPERF" --stats forks.data forks.prof 2> forks.err ||
	fail "forks ($n): perf2gperf failed: $(cat forks.err)"
[ "$(stat forks.err 'samples written')" = $((n / 16 + 1)) ] &&
	[ "$(stat forks.err 'mapped places')" = $((n / 4 + 1 + n / 16)) ] &&
	[ "$(stat forks.err 'frames in no mapping')" = 0 ] ||
	fail "forks: not $((n / 16 + 1)) samples in" \
		"$((n / 4 + 1 + n / 16)) places: $(cat forks.err)"
"$BLOWUP" remaps $((2 * n)) > remaps.data || hard_error "blowup remaps failed"
mem_limited 30 "$PERF2GPERF" --stats remaps.data remaps.prof 2> remaps.err ||
	fail "remaps ($n): perf2gperf failed: $(cat remaps.err)"
[ "$(stat remaps.err 'samples written')" = $n ] &&
	[ "$(stat remaps.err 'mapped places')" = $((2 * n - 1)) ] &&
	[ "$(stat remaps.err 'frames in no mapping')" = 0 ] ||
	fail "remaps: not $n samples in $((2 * n - 1)) places: $(cat remaps.err)"
c=$(maps_lines remaps.prof ' r-xp 00000000 00:00 0 /usr/bin/blowup[0-9]*$')
[ "$c" = $((n - 1)) ] ||
	fail "remaps: $c programs in the profile, not $((n - 1))"

# buildids: each library's mapping with its build id.
n=$big
$limits && n=150000
"$BLOWUP" buildids $n > buildids.data || hard_error "blowup buildids failed"
cpu_limited 30 "$PERF2GPERF" buildids.data buildids.prof 2> buildids.err ||
	fail "buildids ($n): perf2gperf failed: $(cat buildids.err)"
c=$(maps_lines buildids.prof \
	' r-xp /usr/lib/blowup/lib[0-9]*\.so (@0) [0-9a-f]\{40\}$')
[ "$c" = $n ] || fail "buildids: $c mappings with a build id, not $n"
grep -aq '^10002000-10004000 r-xp /usr/lib/blowup/lib1\.so (@0) 010102030505060709090a0b0d0d0e0f11111213$' \
	buildids.prof || fail "buildids: lib1.so has not its build id"

# buildids into pprof: one warning per library, the build ids in the
# profile's mappings.
cpu_limited 10 "$PERF2GPERF" -f pprof buildids.data buildids.pb.gz \
	2> buildids-pprof.err ||
	fail "buildids ($n) into pprof: perf2gperf failed: $(tail -n 3 buildids-pprof.err)"
c=$(grep -c ': no usable file (not found)' buildids-pprof.err || :)
[ "$c" = $n ] || fail "buildids into pprof: $c warnings, not $n"

# unmapped: every PC in no line, and said so.
n=$big
"$BLOWUP" unmapped $n > unmapped.data || hard_error "blowup unmapped failed"
"$PERF2GPERF" -q unmapped.data unmapped.prof ||
	fail "unmapped ($n): perf2gperf failed"
for opt in --quiet --summary; do
	check_exit 0 cpu_limited 10 "$GPERFCHECK" $opt unmapped.prof
	[ $opt = --quiet ] ||
		check_grep "$n of $n PCs (counted by samples) are in no executable mapping"
done

# samples: --pid with 20000 ids, the one sampled last in the list.
"$BLOWUP" samples $huge > samples.data || hard_error "blowup samples failed"
ids=$(awk 'BEGIN { for (i = 2001; i <= 22000; i++) printf "%d,", i;
	print 1000 }')
cpu_limited 2 "$PERF2GPERF" --stats -p "$ids" samples.data samples.prof \
	2> samples.err || fail "samples ($huge) with --pid: perf2gperf failed: $(cat samples.err)"
[ "$(stat samples.err 'samples written')" = $huge ] ||
	fail "samples: not $huge samples written: $(cat samples.err)"

# splitmaps: one profile per process with a sample, each of one place.
"$BLOWUP" splitmaps $huge > splitmaps.data ||
	hard_error "blowup splitmaps failed"
mkdir split
cpu_limited 10 "$PERF2GPERF" -q --split splitmaps.data 'split/%p.prof' ||
	fail "splitmaps ($huge): perf2gperf failed"
c=$(ls split | wc -l)
[ "$c" = $((huge / 64)) ] || fail "splitmaps: $c profiles, not $((huge / 64))"
c=$(maps_lines split/2000.prof ' /usr/bin/blowup0$')
[ "$c" = 1 ] || fail "splitmaps: 2000.prof does not map its program"
rm -rf split

# groups: each line of --info's is "# group: {" and the 13-byte names
# ("cpu-clock:HG,"), cut at 4095 bytes; the memory stays small.
"$BLOWUP" groups $groups > groups.data || hard_error "blowup groups failed"
if $limits && ! $sanitized; then
	(ulimit -v 200000 && ulimit -t 30 &&
		exec "$PERF2GPERF" --info groups.data) > groups.out 2> groups.err
else
	"$PERF2GPERF" --info groups.data > groups.out 2> groups.err
fi || fail "groups: --info failed: $(cat groups.err)"
grep '^# group:' groups.out | awk -v n=$groups '
	{ c++ }
	n * 13 + 10 >= 4095 && length($0) != 4095 { bad++ }
	n * 13 + 10 < 4095 && length($0) != n * 13 + 10 { bad++ }
	END { exit !(c == n && bad == 0) }' ||
	fail "groups: not $groups lines of the group, of the right length"
exit 0
