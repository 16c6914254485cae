#!/bin/sh
# SPDX-License-Identifier: MIT
# Damaged symbol sources never crash or hang the symbolizer: copies of a
# freshly built testdata/progs/symprog.c (ELF, symbols, DWARF) and of
# testdata/symbols/kallsyms, damaged by tests/mutate with a fixed,
# printed seed, are looked up (with --lines) at a spread of addresses;
# the driver must finish, within a time limit, with status 0 and no
# sanitizer report.  Needs gcc (for the ELF part).
. "${top_srcdir:-$(dirname "$0")/..}/tests/test-subr.sh"
. "$top_srcdir/tests/symframes.sh"

need_cmd timeout
seed=${P2G_MUTATE_SEED:-20261127}
runs=${P2G_SYMBOLS_MUTATE_RUNS:-60}
[ -n "${P2G_WRAPPER:-}" ] && runs=10
echo "mutation seed $seed, $runs runs per source"
mutate=$top_builddir/tests/mutate
[ -x "$mutate" ] || hard_error "tests/mutate is not built"
ks=$(testfile symbols/kallsyms)

# run KIND I ARGS...: the driver on lookup.in; fail unless it exits 0
run() {
	kind=$1 i=$2
	shift 2
	rc=0
	timeout 20 $SYMLOOKUP "$@" < lookup.in > out 2> err || rc=$?
	case $rc in
	0) ;;
	124) fail "$kind #$i (seed $seed): timed out" ;;
	*) cat err >&2; fail "$kind #$i (seed $seed): exit $rc" ;;
	esac
	if grep -q 'Sanitizer\|runtime error' err; then
		cat err >&2
		fail "$kind #$i (seed $seed): sanitizer report"
	fi
}

if have ${CC:-gcc} &&
   ${CC:-gcc} -O2 -g -o symprog "$(testfile progs/symprog.c)" 2> cc.log; then
	{
		printf 'map 0 0 0 1 - %s\nfile\n' "$test_dir/m.elf"
		a=4096
		while [ $a -lt 5120 ]; do
			printf '@%x\n' $a
			a=$((a + 13))
		done
	} > lookup.in
	i=0
	while [ $i -lt "$runs" ]; do
		"$mutate" "$seed" "$i" symprog m.elf
		run ELF $i --lines --home "$test_dir/nohome"
		i=$((i + 1))
	done
else
	echo "note: cannot build symprog.c: ELF damage not checked"
fi

{
	echo 'map ffffffff81000000 0 ffffffff81000000 -1 - [kernel.kallsyms]'
	echo file
	for a in ffffffff81000000 ffffffff81000100 ffffffff81000300 \
		 ffffffff81000500 ffffffffc0000040; do
		echo $a
	done
	echo 'map ffffffffc0000000 0 0 -1 - [foo_bar]'
	echo ffffffffc0000040
} > lookup.in
i=0
while [ $i -lt "$runs" ]; do
	"$mutate" "$seed" "$i" "$ks" m.kallsyms
	run kallsyms $i --kallsyms m.kallsyms --home "$test_dir/nohome"
	i=$((i + 1))
done
exit 0
