# SPDX-License-Identifier: MIT
# Helpers of the tests of the outputs with names (run-folded.sh,
# run-pprof-names.sh), sourced after test-subr.sh:
#
#   names_setup             skip unless perf records here, gcc builds and
#                           perf's stackcollapse.py is installed; sets
#                           $STACKCOLLAPSE to the script
#   names_record PROG [OPT...]  build testdata/progs/PROG.c with the
#                           fixtures' flags (mkprogs.sh) and record it
#                           (cpu-clock, one sample per ms, -g and OPTs)
#                           into PROG.data
#   names_oracle DATA [ARG...]  perf's folded stacks of DATA
#                           (stackcollapse.py with ARGs) on stdout

names_setup() {
	need_cmd perf gcc
	STACKCOLLAPSE=
	for _ns_d in /usr/lib/perf-core /usr/libexec/perf-core \
		     /usr/share/perf-core; do
		if [ -f $_ns_d/scripts/python/stackcollapse.py ]; then
			STACKCOLLAPSE=$_ns_d/scripts/python/stackcollapse.py
			break
		fi
	done
	[ -n "$STACKCOLLAPSE" ] ||
		skip "perf's scripts/python/stackcollapse.py is not installed"
	perf record -q -e cpu-clock -o probe.data -- true > probe.log 2>&1 ||
		skip "perf record does not work here: $(head -n 1 probe.log)"
	perf script -i probe.data -s "$STACKCOLLAPSE" > probe.out 2>&1 ||
		skip "perf script cannot run python scripts: $(head -n 1 probe.out)"
}

names_record() {
	_nr_p=$1
	shift
	_nr_flags=$(sed -n 's/^CFLAGS="\(.*\)"$/\1/p' \
		"$(testfile progs/mkprogs.sh)")
	[ -n "$_nr_flags" ] || hard_error "no CFLAGS line in mkprogs.sh"
	${CC:-gcc} $_nr_flags -pthread -o $_nr_p "$(testfile progs/$_nr_p.c)" \
		2> cc.log || {
		cat cc.log >&2
		skip "cannot build $_nr_p.c"
	}
	perf record -q -e cpu-clock -c 1000000 -g "$@" -o $_nr_p.data \
		-- ./$_nr_p > $_nr_p.rec.log 2>&1 || {
		cat $_nr_p.rec.log >&2
		hard_error "perf record of $_nr_p failed"
	}
}

names_oracle() {
	_no_data=$1
	shift
	perf script -i "$_no_data" -s "$STACKCOLLAPSE" -- "$@" 2> oracle.err || {
		cat oracle.err >&2
		hard_error "perf script stackcollapse failed on $_no_data"
	}
}
