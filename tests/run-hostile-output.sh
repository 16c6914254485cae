#!/bin/sh
# SPDX-License-Identifier: MIT
# Hostile names in the outputs (a recording and the binaries it maps are
# the attacker's: a command and a symbol may hold any bytes but NUL), on
# inputs tests/mkdata and tests/mkelf make here:
#  - pprof: a command, a symbol and a file name that are not UTF-8 go
#    into proto3 string fields, which strict parsers refuse: protoc
#    --decode must read the profile (invalid bytes as U+FFFD);
#  - folded: a newline in a symbol or a command must not start a line of
#    the file's choosing (each line is "stack COUNT" and the counts add
#    up to the samples), and a 100 KB name in many stacks must not
#    multiply the output (names cut at 4096 bytes);
#  - --split=comm: commands that map to one file name ("a/b" and "a_b",
#    "" and "unknown") get distinct names, and ".." names no directory;
#  - messages: -s's event name and gperfcheck --dump's maps text are
#    printed with their control bytes escaped.
. "${top_srcdir:-$(dirname "$0")/..}/tests/test-subr.sh"

MKDATA=$top_builddir/tests/mkdata
MKELF=$top_builddir/tests/mkelf
[ -x "$MKDATA" ] && [ -x "$MKELF" ] ||
	hard_error "tests/mkdata or tests/mkelf is not built (make check builds them)"

# A binary with two functions, one named to forge a folded line, with
# bytes that are not UTF-8 (\xff\xfe) and a carriage return.
printf 'sym bad\\x0afake;line;real_func\\x201000000000\\x0dx\\xff\\xfe 0x400100 0x100\nsym ok 0x400200 0x100\n' |
	"$MKELF" bin
bin=$test_dir/bin
# A second mapping, of a file that is not there, has a name with a byte
# that is not UTF-8 and a terminal escape in it.
printf '%s\n' 'event ev\x1b]0;title\x07\x1b[2J\x0d\x0aX' \
	'comm 100 co\x0amm\xc3' \
	"mmap 100 0x400000 0x1000 0 $bin" \
	"mmap 100 0x500000 0x1000 0 $bin\\xff\\x1b[2J" \
	'sample 100 0x400150 0x400150 0x400250' \
	'sample 100 0x400250 0x400250' \
	'sample 100 0x500150 0x500150' | "$MKDATA" > names.data

# pprof: every string field UTF-8.
check_exit 0 "$PERF2GPERF" -f pprof names.data names.pb
if have protoc; then
	cat > profile.proto <<'PROTO'
syntax = "proto3";
package perftools.profiles;
message Profile {
  repeated ValueType sample_type = 1;
  repeated Sample sample = 2;
  repeated Mapping mapping = 3;
  repeated Location location = 4;
  repeated Function function = 5;
  repeated string string_table = 6;
  int64 drop_frames = 7;
  int64 keep_frames = 8;
  int64 time_nanos = 9;
  int64 duration_nanos = 10;
  ValueType period_type = 11;
  int64 period = 12;
  repeated int64 comment = 13;
  int64 default_sample_type = 14;
}
message ValueType { int64 type = 1; int64 unit = 2; }
message Sample { repeated uint64 location_id = 1; repeated int64 value = 2;
  repeated Label label = 3; }
message Label { int64 key = 1; int64 str = 2; int64 num = 3;
  int64 num_unit = 4; }
message Mapping { uint64 id = 1; uint64 memory_start = 2;
  uint64 memory_limit = 3; uint64 file_offset = 4; int64 filename = 5;
  int64 build_id = 6; bool has_functions = 7; bool has_filenames = 8;
  bool has_line_numbers = 9; bool has_inline_frames = 10; }
message Location { uint64 id = 1; uint64 mapping_id = 2; uint64 address = 3;
  repeated Line line = 4; bool is_folded = 5; }
message Line { uint64 function_id = 1; int64 line = 2; int64 column = 3; }
message Function { uint64 id = 1; int64 name = 2; int64 system_name = 3;
  int64 filename = 4; int64 start_line = 5; }
PROTO
	gzip -dc names.pb > names.raw
	protoc --decode=perftools.profiles.Profile profile.proto \
		< names.raw > decoded 2> protoc.err || {
		cat protoc.err >&2
		fail "protoc cannot decode the pprof profile"
	}
	# the command, the symbol and the file name, U+FFFD for each bad byte
	check_grep 'string_table: "co\nmm\357\277\275"' decoded
	check_grep 'real_func 1000000000\rx\357\277\275\357\277\275"' decoded
	check_grep "string_table: \"$bin\\357\\277\\275\\033[2J\"" decoded
fi

# folded, in both styles: one line per distinct stack, each "stack
# COUNT", the counts adding up to the 3 samples.
for style in flamegraph perf; do
	check_exit 0 "$PERF2GPERF" -f folded --folded-style=$style names.data \
		names.folded
	awk '!/^[^\r]* [0-9]+$/ { bad++ } { n += $NF; lines++ }
		END { if (bad || n != 3 || lines != 3) exit 1 }' names.folded ||
		fail "folded lines forged ($style): $(od -c names.folded | head -n 20)"
	grep -q 'co_mm.;ok;bad fake:line:real_func 1000000000 x' names.folded ||
		fail "the names are not in the folded lines ($style)"
done

# A name of 100000 bytes in 300 stacks: at most 4096 bytes of it each.
long=$(awk 'BEGIN { while (n++ < 100000) printf "f" }')
printf 'sym %s 0x400100 0x800\n' "$long" | "$MKELF" long
{
	echo 'comm 100 long'
	echo "mmap 100 0x400000 0x1000 0 $test_dir/long"
	i=0
	while [ $i -lt 300 ]; do
		printf 'sample 100 0x400150 %s\n' $((0x400150 + i))
		i=$((i + 1))
	done
} | "$MKDATA" > long.data
check_exit 0 "$PERF2GPERF" -f folded long.data long.folded
awk 'length($0) > 2 * 4096 + 100 { exit 1 } END { if (NR != 1) exit 1 }' \
	long.folded || fail "folded names not cut: $(wc -c < long.folded) bytes"
grep -q '^long;f*\.\.\.;f*\.\.\. 300$' long.folded ||
	fail "a long name does not end in ...: $(cut -c 1-100 long.folded)"

# --split=comm: six commands, six distinct files, none outside prof/.
pid=100
for c in a/b a_b .. unknown '' .; do
	printf 'comm %d %s\nmmap %d 0x400000 0x1000 0 %s\nsample %d 0x400150 0x400150\n' \
		$pid "${c:-\\x00}" $pid "$bin" $pid
	pid=$((pid + 1))
done | "$MKDATA" > comms.data
mkdir -p prof/sub/__
check_exit 0 "$PERF2GPERF" --split=comm comms.data 'prof/%c.prof'
ls prof | grep -v '^sub$' > written
printf '%s\n' _.prof __.prof a_b-2.prof a_b.prof unknown-2.prof \
	unknown.prof > expected
compare_text expected written "files of --split=comm"
printf 'comm 100 ..\nmmap 100 0x400000 0x1000 0 %s\nsample 100 0x400150 0x400150\n' \
	"$bin" | "$MKDATA" > dots.data
check_exit 0 "$PERF2GPERF" --split=comm dots.data 'prof/sub/%c/cpu.prof'
[ -f prof/sub/__/cpu.prof ] && [ ! -f prof/cpu.prof ] ||
	fail "command .. wrote outside the pattern's directory"

# Messages: no control byte of the input reaches the terminal.
esc=$(printf '\033')
check_exit 0 "$PERF2GPERF" -s names.data names.prof
grep -q "$esc" err && fail "-s prints an escape byte: $(od -c err | head)"
check_grep 'samples of ev\x1b]0;title\x07\x1b[2J\x0d\x0aX'
check_exit 0 "$GPERFCHECK" --dump names.prof
grep -q "$esc\\|$(printf '\377')" out &&
	fail "--dump prints the maps text raw: $(od -c out | tail)"
check_grep "${bin}\\xff\\x1b[2J" out
exit 0
