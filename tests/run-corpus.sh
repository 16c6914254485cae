#!/bin/sh
# SPDX-License-Identifier: MIT
# perf2gperf on the external corpus ../shared/corpus/quipper: 40 real
# perf.data files from perf 3.2 to 6.12 (x86_64, i686, armv7; file and
# pipe mode; see its README.md and MANIFEST.tsv), each with perf 6.1's
# reading (NAME.expected: count, period, event, pid, stack) and the raw
# callchains as stored (NAME.expected-raw, all events summed, event "*").
# The corpus is not ours and is never copied; without it the test skips.
#
# For every file whose MANIFEST script_rc is 0 (perf reads it):
#  1. perf2gperf --info: the samples of every process equal the raw
#     oracle's; when raw_eq is yes (perf's view equals the raw chains),
#     the samples of every event equal perf's view too;
#  2. stacks (addresses 0 left out of the oracles' stacks: the corpus
#     oracles keep them, a gperftools profile cannot hold them): for the
#     processes with the most samples (all of them with
#     P2G_CORPUS_FULL=1; otherwise as many as fit in P2G_CORPUS_BUDGET
#     conversions a file, default 60), every event of the file is
#     converted with --no-fixup -e EVENT -p PID; the stacks summed over
#     the events must equal the raw oracle's for that pid, and, when
#     raw_eq is yes, each (event, pid) must equal perf's view.
# Then every recording of ../shared/corpus/perfparser (KDAB perfparser's
# test files, made on other machines, with their binaries; see its
# README): every event with samples is converted, merged and --split,
# with the binaries linked into a --symfs tree, and gperfcheck must accept
# every profile.  Either corpus may be absent.
# A file perf2gperf cannot read must be refused cleanly: exit 1 and a
# "FILE: offset 0xHEX: message" line; it is listed as unsupported, which
# does not fail the test.  Anything else fails it: different counts or
# stacks, an exit status of 2 or more (or a signal), exit 1 without an
# offset.  The files perf itself cannot read (script_rc != 0): the
# corrupted perf.data.piped.corrupted.zero_size_sample-3.2 must be refused
# with exit 1; perf.data.piped.intel_pt-4.14 (no oracle) must convert to a
# valid profile or be refused cleanly.
# At the end a table (file, result, detail) is printed, and kept in the
# test log.
. "${top_srcdir:-$(dirname "$0")/..}/tests/test-subr.sh"
. "$top_srcdir/tests/stacks.sh"

corpus=$top_srcdir/../shared/corpus/quipper
pp=$top_srcdir/../shared/corpus/perfparser
[ -f "$corpus/MANIFEST.tsv" ] || [ -d "$pp" ] ||
	skip "no corpus at $corpus or $pp"
HOME=$test_dir
export HOME
budget=${P2G_CORPUS_BUDGET:-60}
[ "${P2G_CORPUS_FULL:-0}" = 1 ] && budget=0

: > results
# result NAME RESULT DETAIL: one row of the table
result() {
	printf '%s\t%s\t%s\n' "$1" "$2" "$3" >> results
	printf '%-48s %-12s %s\n' "$1" "$2" "$3"
}

# first_line FILE: the first line of FILE, shortened, for the table
first_line() {
	head -n 1 "$1" | sed "s|$corpus/||" | cut -c1-150
}

# run_tool NAME ARGS...: run perf2gperf ARGS; classify the exit in $how:
# ok, nosamples (exit 1, nothing passes the filters), refused (exit 1 with
# an offset), bad (anything else); stderr in ./tool.err
run_tool() {
	set +e
	"$PERF2GPERF" "$@" > tool.out 2> tool.err
	rc=$?
	set -e
	if [ $rc -eq 0 ]; then
		how=ok
	elif [ $rc -eq 1 ] && grep -q "pass the filters" tool.err; then
		how=nosamples
	elif [ $rc -eq 1 ] && grep -q "^perf2gperf: .*: offset 0x[0-9a-f]*: " tool.err; then
		how=refused
	else
		how=bad
	fi
}

# info_counts INFO: "process COUNT PID" and "event COUNT NAME" lines
info_counts() {
	awk '
		/^# events/ { s = "event"; next }
		/^# processes/ { s = "process"; next }
		/^#/ { s = ""; next }
		s == "event" && $1 > 0 { n = $1; $1 = ""; sub(/^ /, ""); print "event", n, $0 }
		s == "process" { print "process", $1, $2 }' "$1" | sort
}

# check_file NAME RAW_EQ: the checks for a file perf reads
check_file() {
	name=$1
	raw_eq=$2
	f=$corpus/$name
	raw=$f.expected-raw
	exp=$f.expected

	run_tool --info "$f"
	case $how in
	ok)	mv tool.out $name.info ;;
	refused)
		result "$name" unsupported "$(first_line tool.err)"
		return ;;
	*)	result "$name" FAIL "--info exit $rc: $(first_line tool.err)"
		return ;;
	esac

	# 1. sample counts
	{
		awk -F "$TAB" '{ p[$4] += $1 } END { for (k in p) print "process", p[k], k }' "$raw"
		[ "$raw_eq" != yes ] ||
			awk -F "$TAB" '{ e[$3] += $1 } END { for (k in e) print "event", e[k], k }' "$exp"
	} | sort > $name.count-perf
	if [ "$raw_eq" = yes ]; then
		info_counts $name.info > $name.count-ours
	else
		info_counts $name.info | grep '^process' > $name.count-ours || :
	fi
	if ! diff -u $name.count-perf $name.count-ours > $name.count-diff; then
		result "$name" FAIL "sample counts differ from perf's ($(grep -c '^[-+][a-z]' $name.count-diff) lines; see $name.count-diff)"
		return
	fi

	# 2. stacks, pid by pid, most samples first
	awk '/^# events/ { s = 1; next } /^#/ { s = 0 } s && $1 > 0 { $1 = ""; sub(/^ /, ""); print }' \
		$name.info > $name.events
	nev=$(wc -l < $name.events)
	awk -F "$TAB" '{ p[$4] += $1 } END { for (k in p) print p[k], k }' "$raw" |
		sort -k1,1nr -k2,2n > $name.pids
	npids=$(wc -l < $name.pids)
	if [ "$budget" -eq 0 ]; then
		take=$npids
	else
		take=$((budget / (nev > 0 ? nev : 1)))
		[ $take -ge 1 ] || take=1
	fi
	[ $take -le $npids ] || take=$npids
	head -n $take $name.pids > $name.pids-taken
	checked=0
	relocated=0
	total=$(awk '{ s += $1 } END { print s + 0 }' $name.pids)
	bad=
	while read -r count pid; do
		: > pid.all
		pid_reloc=no
		while IFS= read -r ev; do
			run_tool -q -s --no-fixup -e "$ev" -p $pid "$f" pair.prof
			case $how in
			ok)	"$GPERFCHECK" --dump pair.prof > pair.dump 2> gc.err || {
					bad="gperfcheck rejects -e $ev -p $pid: $(first_line gc.err)"
					break 2
				}
				stacks_dump pair.dump > pair.stacks ;;
			nosamples)
				: > pair.stacks ;;
			refused)
				result "$name" unsupported "-e $ev -p $pid: $(first_line tool.err)"
				return ;;
			*)	bad="exit $rc with -e $ev -p $pid: $(first_line tool.err)"
				break 2 ;;
			esac
			rm -f pair.prof
			# A process whose address spaces (before and after
			# exec) put different files at the same addresses
			# has some moved: then only the counts can agree.
			if grep -q '^  places relocated *[1-9]' tool.err; then
				relocated=$((relocated + 1))
				pid_reloc=yes
				awk -v n="$(stacks_oracle "$exp" "$ev" $pid drop0 |
					awk '{ s += $1 } END { print s + 0 }')" \
					'{ s += $1 } END { exit s != n }' pair.stacks || {
					bad="sample count of -e $ev -p $pid (relocated) differs from perf's view"
					break 2
				}
				continue
			fi
			if [ "$raw_eq" = yes ]; then
				stacks_oracle "$exp" "$ev" $pid drop0 > pair.exp
				if ! cmp -s pair.exp pair.stacks; then
					diff -u pair.exp pair.stacks > "$name.diff-$pid" || :
					bad="stacks of -e $ev -p $pid differ from perf's view ($name.diff-$pid)"
					break 2
				fi
			fi
			awk '{ c = $1; $1 = ""; sub(/^ /, ""); print $0 "\t" c }' pair.stacks >> pid.all
		done < $name.events
		if [ $pid_reloc = yes ]; then
			checked=$((checked + count))
			continue
		fi
		stacks_sum < pid.all > pid.stacks
		stacks_oracle "$raw" "" $pid drop0 > pid.exp
		if ! cmp -s pid.exp pid.stacks; then
			diff -u pid.exp pid.stacks > "$name.rawdiff-$pid" || :
			bad="stacks of pid $pid differ from the raw chains ($name.rawdiff-$pid: $(grep -c '^-[0-9]' "$name.rawdiff-$pid") missing, $(grep -c '^+[0-9]' "$name.rawdiff-$pid") extra)"
			break
		fi
		checked=$((checked + count))
	done < $name.pids-taken
	if [ -n "$bad" ]; then
		result "$name" FAIL "$bad"
	else
		result "$name" ok "stacks of $take/$npids pids ($checked/$total samples), $nev events; all counts${relocated:+}$( [ $relocated -eq 0 ] || echo "; $relocated (event, pid) relocated: counts only")"
	fi
}

: > manifest
[ ! -f "$corpus/MANIFEST.tsv" ] || tail -n +2 "$corpus/MANIFEST.tsv" > manifest
[ -s manifest ] || [ ! -f "$corpus/MANIFEST.tsv" ] ||
	hard_error "empty MANIFEST.tsv"
corpus=$(cd "$corpus" 2> /dev/null && pwd || :)
while IFS=$TAB read -r name bytes format script_rc samples stacks raw_samples raw_eq; do
	f=$corpus/$name
	if [ ! -f "$f" ] || [ ! -f "$f.expected-raw" ]; then
		result "$name" FAIL "listed in MANIFEST.tsv but missing"
		continue
	fi
	if [ "$script_rc" = 0 ]; then
		check_file "$name" "$raw_eq"
		continue
	fi
	# perf cannot read it either
	run_tool -q --no-fixup "$f" nooracle.prof
	case $name in
	perf.data.piped.corrupted.zero_size_sample-3.2)
		if [ $how = refused ]; then
			result "$name" ok "corrupted: refused, $(first_line tool.err)"
		else
			result "$name" FAIL "corrupted file: exit $rc, expected 1 with an offset: $(first_line tool.err)"
		fi ;;
	*)	case $how in
		ok)	if "$GPERFCHECK" -q nooracle.prof; then
				result "$name" ok "no oracle (perf fails); converted to a valid profile"
			else
				result "$name" FAIL "no oracle; converted, but gperfcheck rejects the output"
			fi ;;
		refused|nosamples)
			result "$name" unsupported "no oracle (perf fails); $(first_line tool.err)" ;;
		*)	result "$name" FAIL "exit $rc: $(first_line tool.err)" ;;
		esac ;;
	esac
	rm -f nooracle.prof
done < manifest

# The perfparser corpus: every recording, every event with samples, the
# binaries given through a --symfs tree of links (symfs_link); each
# profile, merged and --split, must pass gperfcheck.
nquipper=$(wc -l < results)
npp=0
if [ -d "$pp" ]; then
	pp=$(cd "$pp" && pwd)
	find "$pp" -type f | LC_ALL=C sort > pp.files
	while IFS= read -r f; do
		[ "$(head -c 8 "$f" | tr -d '\000')" = PERFILE2 ] || continue
		name=perfparser/${f#"$pp"/}
		npp=$((npp + 1))
		rm -rf symfs
		mkdir symfs
		run_tool -q "$f" plain.prof
		[ $how = ok ] && symfs_link symfs "$pp" plain.prof
		run_tool --info "$f"
		if [ $how != ok ]; then
			result "$name" FAIL "--info exit $rc: $(first_line tool.err)"
			continue
		fi
		awk '/^# events/ { s = 1; next } /^#/ { s = 0 }
			s && $1 > 0 { $1 = ""; sub(/^ /, ""); print }' \
			tool.out > events
		bad=
		n=0
		while IFS= read -r ev; do
			rm -f split.*.prof
			for mode in merged split; do
				if [ $mode = merged ]; then
					run_tool -q --symfs symfs -e "$ev" "$f" pp.prof
					outs=pp.prof
				else
					run_tool -q --symfs symfs -e "$ev" --split \
						"$f" 'split.%p.prof'
					outs=$(ls split.*.prof 2> /dev/null || :)
				fi
				if [ $how != ok ]; then
					bad="-e $ev ($mode): exit $rc: $(first_line tool.err)"
					break 2
				fi
				for o in $outs; do
					"$GPERFCHECK" -q "$o" 2> gc.err || {
						bad="gperfcheck rejects -e $ev ($mode): $(first_line gc.err)"
						break 3
					}
					n=$((n + 1))
				done
			done
		done < events
		if [ -n "$bad" ]; then
			result "$name" FAIL "$bad"
		else
			result "$name" ok "$(wc -l < events) events, $n profiles valid, binaries: $(find symfs -type l | wc -l)"
		fi
	done < pp.files
fi

echo
echo "=== corpus summary: $(cut -f2 results | sort | uniq -c | awk '{ printf "%s %s, ", $1, $2 }' | sed 's/, $//')"
awk -F "$TAB" '$2 != "ok" { printf "  %-48s %-12s %s\n", $1, $2, $3 }' results
[ "$nquipper" -eq "$(wc -l < manifest)" ] || hard_error "a file has no result"
if grep -q "${TAB}FAIL$TAB" results; then
	fail "$(grep -c "${TAB}FAIL$TAB" results) corpus files fail (table above; diffs kept in $test_dir)"
fi

exit 0
