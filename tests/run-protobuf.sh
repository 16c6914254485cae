#!/bin/sh
# SPDX-License-Identifier: MIT
# The protobuf encoder as an independent reader sees it: protoc
# --decode_raw (Debian's protobuf-compiler) of the tiny profile that
# tests/unit/test-protobuf encodes with pprof_encode() gives the fields
# profile.proto numbers, each where the profile puts it: sample types,
# a sample with its packed location ids and values ("\003\270\027" is
# the packed 3, 3000) and its labels, a mapping with its flags, a
# location with two lines (an inlined function first), one in no
# mapping, the functions, duration, period type, period, a comment and
# the string table, "" first.  Skips without protoc.
. "${top_srcdir:-$(dirname "$0")/..}/tests/test-subr.sh"

need_cmd protoc
unit=$top_builddir/tests/unit/test-protobuf
[ -x "$unit" ] || hard_error "$unit is not built"
${P2G_WRAPPER:-} "$unit" tiny.pb > unit.out 2>&1 || {
	cat unit.out >&2
	fail "tests/unit/test-protobuf failed"
}
protoc --decode_raw < tiny.pb > tiny.txt 2> protoc.err || {
	cat protoc.err >&2
	fail "protoc cannot decode the profile"
}
cat > tiny.exp <<'END'
1 {
  1: 1
  2: 2
}
1 {
  1: 3
  2: 4
}
2 {
  1: "\001\002"
  2: "\003\270\027"
  3 {
    1: 5
    2: 6
  }
  3 {
    1: 7
    3: 42
  }
  3 {
    1: 8
    3: 43
  }
}
3 {
  1: 1
  2: 4194304
  3: 4198400
  4: 0
  5: 9
  6: 10
  7: 1
  8: 1
  9: 1
  10: 1
}
4 {
  1: 1
  2: 1
  3: 4194595
  4 {
    1: 1
    2: 7
  }
  4 {
    1: 2
    2: 12
  }
}
4 {
  1: 2
  3: 2147418112
}
5 {
  1: 1
  2: 11
  3: 11
  4: 12
}
5 {
  1: 2
  2: 13
  3: 13
  4: 12
}
10: 5000
11 {
  1: 3
  2: 4
}
12: 1000
13: 14
6: ""
6: "samples"
6: "count"
6: "cpu"
6: "nanoseconds"
6: "comm"
6: "prog"
6: "pid"
6: "tid"
6: "/bin/prog"
6: "abcd"
6: "inner"
6: "prog.c"
6: "outer"
6: "perf version 6.1"
END
compare_text tiny.exp tiny.txt "protoc --decode_raw of the encoded profile"
