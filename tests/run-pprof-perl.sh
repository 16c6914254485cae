#!/bin/sh
# SPDX-License-Identifier: MIT
# Perl pprof (google-pprof, gperftools' src/pprof) must read perf's stacks
# from perf2gperf's output.
#
# What perl pprof does to a CPU profile: doc/pprof-readers.md (it keeps
# perf2gperf's leaf copies, made for Go pprof, as an extra frame, so
# --no-fixup is the output for it).  Its --raw prints the profile after
# its rewriting ("--- profile" then 64-bit native slots, callers still
# - 1, no trailer); stacks_perl_raw in tests/stacks.sh adds the 1 back.
# So:
#  1. --no-fixup output read with --no-auto-signal-frm is exactly perf's
#     stacks, for every fixture and every (event, pid) in its oracle;
#  2. the default output of multi and threads (where no leaf copy is
#     needed and no second PC is common to all stacks) read with plain
#     google-pprof is exactly perf's stacks;
#  3. control: the --no-fixup output of hot-user (all stacks share main's
#     return address) read WITHOUT --no-auto-signal-frm is not perf's
#     stacks (perl strips the shared frame); if it were, 1 would prove
#     nothing about the option.
. "${top_srcdir:-$(dirname "$0")/..}/tests/test-subr.sh"
. "$top_srcdir/tests/stacks.sh"

need_cmd google-pprof
HOME=$test_dir
export HOME

# perl_read PROFILE OUT NAME [OPTION]: perl pprof's reading, canonical.
# google-pprof needs a program file; the fixture's program names the
# functions, but any ELF file gives the same addresses.
perl_read() {
	prog=$TESTDATA/progs/${3%%-*}
	[ -x "$prog" ] || prog=$PERF2GPERF
	google-pprof --raw $4 "$prog" "$1" > $2.raw 2> $2.err || {
		cat $2.err >&2
		fail "google-pprof --raw cannot read $1"
	}
	stacks_perl_raw $2.raw > $2
}

for name in hot-user multi threads; do
	testfile $name.perf.data > /dev/null
done

# 1. --no-fixup, --no-auto-signal-frm
n=0
for data in "$TESTDATA"/*.perf.data; do
	[ -f "$data.expected" ] || continue
	name=$(basename "$data" .perf.data)
	cut -f3,4 "$data.expected" | sort -u > $name.evpid
	while IFS=$TAB read -r ev pid; do
		n=$((n + 1))
		tag=$name-$n
		check_exit 0 "$PERF2GPERF" -q --no-fixup -e "$ev" -p "$pid" "$data" $tag.prof
		perl_read $tag.prof $tag.perl $name --no-auto-signal-frm
		stacks_oracle "$data.expected" "$ev" "$pid" > $tag.exp
		compare_text $tag.exp $tag.perl \
			"google-pprof --no-auto-signal-frm of perf2gperf --no-fixup -e $ev -p $pid $name.perf.data"
		echo "$name ($ev, pid $pid): google-pprof --no-auto-signal-frm reads perf's $(wc -l < $tag.exp) stacks"
	done < $name.evpid
done

# 2. default output, plain google-pprof
for name in multi threads; do
	data=$TESTDATA/$name.perf.data
	check_exit 0 "$PERF2GPERF" -q "$data" $name.def.prof
	perl_read $name.def.prof $name.def.perl $name
	stacks_oracle "$data.expected" > $name.exp
	compare_text $name.exp $name.def.perl "google-pprof's reading of perf2gperf $name.perf.data"
	echo "$name: google-pprof reads perf's stacks from the default output"
done

# 3. control
data=$TESTDATA/hot-user.perf.data
check_exit 0 "$PERF2GPERF" -q --no-fixup "$data" hu.prof
perl_read hu.prof hu.perl hot-user
stacks_oracle "$data.expected" > hu.exp
if cmp -s hu.exp hu.perl; then
	fail "hot-user: plain google-pprof reads the --no-fixup output unchanged; expected it to strip the shared second frame"
fi
grep -q "Removing" hu.perl.err ||
	fail "hot-user: google-pprof did not say it removed a frame"
echo "hot-user: plain google-pprof strips the shared frame, as expected"

exit 0
