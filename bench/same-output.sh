#!/bin/sh
# SPDX-License-Identifier: MIT
#
# bench/same-output.sh - do two builds give the same output, byte for byte?
#
#   bench/same-output.sh OLD_BINDIR NEW_BINDIR [OUTDIR]
#
# Each BINDIR holds a perf2gperf and a gperfcheck (say src/ of two build
# trees).  A change that must not change any output (a restructuring, a
# speed-up) is checked by running both builds over every perf.data input
# there is and comparing everything they write:
#
#  - the inputs: testdata/*.perf.data (files and perf.data directories)
#    and testdata/*.perf.data.gz of this tree, and every perf.data file
#    (PERFILE2 magic, either byte order) or perf.data directory under the
#    external corpus, $P2G_CORPUS or else ../shared/corpus beside the
#    source tree (quipper/: perf 3.2 to 6.12; perfparser/: --call-graph
#    dwarf recordings with their binaries); no corpus, no corpus inputs;
#  - the options, for every input: none, --stats, --no-fixup,
#    --split OUT-%p.prof, --user-only, --kernel-only, --weight period,
#    --slot-width 32, --byte-order big, --info, --no-unwind, --max-stack 3,
#    input from stdin, output to stdout, --stats with --queue-size 65536
#    (a small time order), --format pprof and --format folded; for recordings whose binaries are at hand (testdata/dwarfprog
#    as run-dwarf-fixture.sh gives it, the perfparser binaries) also
#    --symfs DIR, with --max-stack 3, with --no-fixup and with each
#    --format; and once -o OUT with several fixtures;
#  - for each run: the exit status, stdout and stderr (the BINDIR and the
#    run's directory replaced by fixed words), the names of the files
#    written and each file's bytes (cmp);
#  - gperfcheck of both builds, plain and with --dump, --summary and
#    --json, on every distinct profile the old build wrote and on
#    testdata/*.prof and testdata/gperf/*: exit status, stdout, stderr.
#
# Every run gets HOME set to an empty directory (no ~/.debug of the
# user's; perfparser inputs get one holding their binaries by build ID),
# LC_ALL=C, and no DEBUGINFOD_URLS.  The two builds run side by side, one
# core each.
#
# It prints a line per difference ("DIFF case: what") and ends with
# "N passed, N failed", N counting comparisons; exit status 0 when all
# are the same, 1 when some differ (or a run timed out), 2 on trouble.
# The runs are kept in OUTDIR when it is given (OUTDIR/old/CASE and
# OUTDIR/new/CASE; OUTDIR must not exist or be empty), else in a
# temporary directory that is removed at the end.
#
# Environment:
#   P2G_CORPUS            the corpus (default: ../shared/corpus beside the
#                         source tree)
#   SAME_OUTPUT_MAX_MB    leave out inputs larger than this many MB
#                         (10^6 bytes; default 64, 0: no limit)
#   SAME_OUTPUT_TIMEOUT   seconds a single run may take (default 60); a
#                         run that times out counts as a difference
set -u

usage() {
	echo "usage: $0 OLD_BINDIR NEW_BINDIR [OUTDIR]" >&2
	exit 2
}
[ $# -eq 2 ] || [ $# -eq 3 ] || usage

srcdir=$(cd "$(dirname "$0")/.." && pwd) || exit 2
testdata=$srcdir/testdata
corpus=${P2G_CORPUS:-$srcdir/../shared/corpus}
max_mb=${SAME_OUTPUT_MAX_MB:-64}
limit=${SAME_OUTPUT_TIMEOUT:-60}

bindir() {
	[ -x "$1/perf2gperf" ] && [ -x "$1/gperfcheck" ] || {
		echo "$0: $1: no perf2gperf and gperfcheck there" >&2
		exit 2
	}
	(cd "$1" && pwd)
}
old_bin=$(bindir "$1") || exit 2
new_bin=$(bindir "$2") || exit 2

if [ $# -eq 3 ]; then
	work=$3
	mkdir -p "$work" || exit 2
	[ -z "$(ls -A "$work")" ] || {
		echo "$0: $work is not empty" >&2
		exit 2
	}
	work=$(cd "$work" && pwd)
	keep=yes
else
	work=$(mktemp -d "${TMPDIR:-/tmp}/same-output.XXXXXX") || exit 2
	keep=no
fi
cleanup() {
	[ $keep = yes ] || rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 2' HUP INT TERM

LC_ALL=C
export LC_ALL
unset DEBUGINFOD_URLS P2G_WRAPPER || :

passed=0
failed=0
ncases=0
mkdir "$work/old" "$work/new" "$work/home" || exit 2
: > "$work/profiles"

# differ CASE WHAT: one line per difference
differ() {
	echo "DIFF $1: $2"
	failed=$((failed + 1))
}

# sed_quote STRING: STRING as a literal in a sed regular expression
sed_quote() {
	printf '%s\n' "$1" | sed 's/[][|\.*^$]/\\&/g'
}

# normalise FILE SIDE_DIR QUOTED_BIN: FILE with the paths of one side
# replaced
normalise() {
	sed -e "s|$(sed_quote "$2")|RUNDIR|g" -e "s|$3|BINDIR|g" "$1"
}

# same CASE WHAT A B: one comparison of two files
same() {
	if cmp -s "$3" "$4"; then
		passed=$((passed + 1))
	else
		differ "$1" "$2 ($(cmp "$3" "$4" 2>&1 | sed 's|.*: ||' | head -n 1))"
	fi
}

# compare CASE: the runs of CASE in old/CASE and new/CASE
compare() {
	_o=$work/old/$1
	_n=$work/new/$1
	for _s in "$_o" "$_n"; do
		if [ "$(cat "$_s/.status")" = 124 ]; then
			differ "$1" "timed out after ${limit}s (${_s##*/})"
			return
		fi
	done
	same "$1" "exit status $(cat "$_o/.status") vs $(cat "$_n/.status")" \
		"$_o/.status" "$_n/.status"
	for _f in stdout stderr; do
		if cmp -s "$_o/.$_f" "$_n/.$_f"; then
			passed=$((passed + 1))
			continue
		fi
		normalise "$_o/.$_f" "$_o" "$old_q" > "$_o/.$_f.norm"
		normalise "$_n/.$_f" "$_n" "$new_q" > "$_n/.$_f.norm"
		same "$1" "$_f" "$_o/.$_f.norm" "$_n/.$_f.norm"
	done
	(cd "$_o" && ls) > "$_o/.files"
	(cd "$_n" && ls) > "$_n/.files"
	if cmp -s "$_o/.files" "$_n/.files"; then
		passed=$((passed + 1))
	else
		differ "$1" "files written: $(tr '\n' ' ' < "$_o/.files")vs $(tr '\n' ' ' < "$_n/.files")"
	fi
	while IFS= read -r _f; do
		[ -f "$_n/$_f" ] || continue
		same "$1" "file $_f" "$_o/$_f" "$_n/$_f"
		case $_f in
		*.prof) printf '%s\n' "$_o/$_f" >> "$work/profiles" ;;
		esac
	done < "$_o/.files"
}

# run SIDE BIN CASE STDIN ENV... -- ARGS...: run BIN/ARGS in SIDE/CASE,
# ENV (NAME=VALUE words) in the environment; stdin from STDIN
run() {
	_r_dir=$work/$1/$3
	_r_bin=$2
	_r_in=$4
	shift 4
	mkdir -p "$_r_dir" || exit 2
	cd "$_r_dir" || exit 2
	set -- env HOME="$home" "$@"
	# the words before -- are the environment, the rest the command
	_r_n=0
	for _r_a; do
		[ "$_r_a" = -- ] && break
		_r_n=$((_r_n + 1))
	done
	_r_i=0
	for _r_a; do
		shift
		_r_i=$((_r_i + 1))
		if [ $_r_i -le $_r_n ]; then
			set -- "$@" "$_r_a"
		elif [ $_r_i -eq $((_r_n + 1)) ]; then
			set -- "$@" timeout -k 5 "$limit" "$_r_bin/$tool"
		else
			set -- "$@" "$_r_a"
		fi
	done
	"$@" < "$_r_in" > .stdout 2> .stderr
	echo $? > .status
	cd "$work" || exit 2
}

# case_run CASE STDIN ENV... -- ARGS...: run both builds' $tool, compare
# (the functions share one namespace: each keeps to its own prefix)
case_run() {
	ncases=$((ncases + 1))
	run old "$old_bin" "$@" &
	run new "$new_bin" "$@"
	wait
	compare "$1"
}

# convert ID INPUT [SYMFS]: every option set on INPUT
convert() {
	_id=$1
	_in=$2
	_sym=${3:-}
	tool=perf2gperf
	case_run $_id.default /dev/null -- "$_in" out.prof
	case_run $_id.stats /dev/null -- --stats "$_in" out.prof
	case_run $_id.nofixup /dev/null -- --no-fixup "$_in" out.prof
	case_run $_id.split /dev/null -- --split "$_in" 'OUT-%p.prof'
	case_run $_id.user /dev/null -- --user-only "$_in" out.prof
	case_run $_id.kernel /dev/null -- --kernel-only "$_in" out.prof
	case_run $_id.weight /dev/null -- --weight period "$_in" out.prof
	case_run $_id.slot32 /dev/null -- --slot-width 32 "$_in" out.prof
	case_run $_id.big /dev/null -- --byte-order big "$_in" out.prof
	case_run $_id.info /dev/null -- --info "$_in"
	case_run $_id.nounwind /dev/null -- --no-unwind "$_in" out.prof
	case_run $_id.maxstack /dev/null -- --max-stack 3 "$_in" out.prof
	case_run $_id.order /dev/null -- --queue-size 65536 --stats "$_in" \
		out.prof
	case_run $_id.pprof /dev/null -- --format pprof "$_in" out.pb.gz
	case_run $_id.folded /dev/null -- --format folded "$_in" out.folded
	# a directory cannot come through a pipe; both builds must say so
	case_run $_id.stdin "$_in" -- - out.prof
	case_run $_id.stdout /dev/null -- "$_in" -
	[ -n "$_sym" ] || return 0
	case_run $_id.symfs /dev/null -- --stats --symfs "$_sym" "$_in" out.prof
	case_run $_id.symfs-max3 /dev/null -- --max-stack 3 --symfs "$_sym" \
		"$_in" out.prof
	case_run $_id.symfs-nofixup /dev/null -- --no-fixup --symfs "$_sym" \
		"$_in" out.prof
	case_run $_id.symfs-pprof /dev/null -- --format pprof --symfs "$_sym" \
		"$_in" out.pb.gz
	case_run $_id.symfs-folded /dev/null -- --format folded \
		--symfs "$_sym" "$_in" out.folded
}

# too_big PATH: PATH (a file or directory) is over SAME_OUTPUT_MAX_MB
too_big() {
	[ "$max_mb" -gt 0 ] || return 1
	_kb=$(du -sk "$1" | cut -f1)
	if [ $((_kb * 1024)) -gt $((max_mb * 1000000)) ]; then
		echo "note: left out $1 ($((_kb * 1024 / 1000000)) MB > $max_mb MB)" >&2
		return 0
	fi
	return 1
}

# is_perfdata FILE: FILE starts with the perf.data magic, either order
is_perfdata() {
	case $(head -c 8 "$1" 2> /dev/null) in
	PERFILE2|2ELIFREP) return 0 ;;
	esac
	return 1
}

# case_id PATH: a case name made from a path
case_id() {
	printf '%s\n' "$1" | sed 's|[^A-Za-z0-9._-]|_|g'
}

start=$(date +%s)
old_q=$(sed_quote "$old_bin")
new_q=$(sed_quote "$new_bin")

# --- the fixtures
home=$work/home
symfs_fx=$work/symfs-fx
if [ -f "$testdata/dwarfprog.gz" ]; then
	mkdir -p "$symfs_fx/opt/p2g-fixture"
	gzip -dc < "$testdata/dwarfprog.gz" > "$symfs_fx/opt/p2g-fixture/dwarfprog" &&
		chmod +x "$symfs_fx/opt/p2g-fixture/dwarfprog" || exit 2
fi
for f in "$testdata"/*.perf.data "$testdata"/*.perf.data.gz; do
	[ -e "$f" ] || continue
	too_big "$f" && continue
	name=${f##*/}
	case $name in
	dwarfprog.*) convert "fx-$name" "$f" "$symfs_fx" ;;
	*) convert "fx-$name" "$f" ;;
	esac
done
# several inputs into one profile (-o OUTPUT INPUT...)
set --
for n in hot multi forkexec threads-dir multi-pipe; do
	[ -e "$testdata/$n.perf.data" ] && set -- "$@" "$testdata/$n.perf.data"
done
if [ $# -gt 1 ]; then
	tool=perf2gperf
	case_run fx-several /dev/null -- --stats -o out.prof "$@"
fi

# --- the corpus
if [ -d "$corpus" ]; then
	corpus=$(cd "$corpus" && pwd)
	# perfparser's binaries: by build ID in a ~/.debug of their own, and
	# under a symfs at the paths the recordings name
	home_pp=$work/home-pp
	symfs_pp=$work/symfs-pp
	mkdir -p "$home_pp" "$symfs_pp"
	find "$corpus" -type f | LC_ALL=C sort > "$work/corpus-files"
	while IFS= read -r f; do
		[ "$(head -c 4 "$f" | od -An -c | tr -d ' ')" = '177ELF' ] ||
			continue
		id=$(readelf -n "$f" 2> /dev/null | sed -n 's/.*Build ID: *//p' |
			head -n 1)
		if [ -n "$id" ]; then
			mkdir -p "$home_pp/.debug/.build-id/${id%"${id#??}"}"
			ln -sf "$f" "$home_pp/.debug/.build-id/${id%"${id#??}"}/${id#??}"
		fi
		for d in "${f%/*}"/*; do
			[ -f "$d" ] && is_perfdata "$d" || continue
			# the whole path: not a directory of the same name
			grep -aoE "/[A-Za-z0-9._/+-]*/${f##*/}[^A-Za-z0-9._/+-]" \
				"$d" 2> /dev/null | sed 's/.$//'
		done | sort -u | while IFS= read -r p; do
			mkdir -p "$symfs_pp${p%/*}" &&
				ln -sf "$f" "$symfs_pp$p"
		done
	done < "$work/corpus-files"
	while IFS= read -r f; do
		is_perfdata "$f" || continue
		too_big "$f" && continue
		rel=${f#"$corpus"/}
		case $rel in
		perfparser/*)
			home=$home_pp
			convert "$(case_id "$rel")" "$f" "$symfs_pp" ;;
		*)	home=$work/home
			convert "$(case_id "$rel")" "$f" ;;
		esac
	done < "$work/corpus-files"
	home=$work/home
	# perf.data directories (perf record --threads)
	find "$corpus" -type f -name data | LC_ALL=C sort |
		while IFS= read -r f; do
			is_perfdata "$f" && [ -f "$f.0" ] && echo "${f%/data}"
		done > "$work/corpus-dirs"
	while IFS= read -r d; do
		too_big "$d" && continue
		convert "$(case_id "${d#"$corpus"/}")" "$d"
	done < "$work/corpus-dirs"
fi

# --- gperfcheck on the profiles written and on the profile fixtures
sort -u "$work/profiles" | tr '\n' '\0' | xargs -0 -r md5sum |
	sort -k1,1 -u -s | cut -c35- > "$work/profiles.distinct"
tool=gperfcheck
# The fixtures one by one (several are defective, each in its own way);
# the profiles written, many to a run (a run of gperfcheck checks its
# FILEs one after the other: no difference can hide behind another).
nprof=$(wc -l < "$work/profiles.distinct")
batch=0
while [ $batch -lt "$nprof" ]; do
	set --
	while IFS= read -r f; do
		set -- "$@" "$f"
	done <<EOF_LIST
$(sed -n "$((batch + 1)),$((batch + 40))p" "$work/profiles.distinct")
EOF_LIST
	id=gc/written-$((batch + 1))-$((batch + $#))
	case_run "$id.dump" /dev/null -- --dump "$@"
	case_run "$id.summary" /dev/null -- --summary "$@"
	case_run "$id.json" /dev/null -- --json "$@"
	batch=$((batch + 40))
done
for f in "$testdata"/*.prof "$testdata"/gperf/*; do
	case $f in
	*/README|*.sh) continue ;;
	esac
	[ -f "$f" ] || continue
	id=gc/$(case_id "${f#"$srcdir"/}")
	case_run "$id.check" /dev/null -- "$f"
	case_run "$id.dump" /dev/null -- --dump "$f"
	case_run "$id.summary" /dev/null -- --summary "$f"
	case_run "$id.json" /dev/null -- --json "$f"
done

end=$(date +%s)
echo "note: $ncases runs of each build ($nprof distinct profiles written) in $((end - start)) s" >&2
echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
