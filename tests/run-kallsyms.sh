#!/bin/sh
# SPDX-License-Identifier: MIT
# Kernel symbols as perf reads them from kallsyms.
#  1. testdata/symbols/kallsyms, made by hand, against the rules of perf
#     6.1 (tools/perf/util/symbol.c): only T, t, W, w lines; a symbol
#     reaches the next one, the kernel's last one (and a module's last
#     one before the kernel) the end of the page after its own; of
#     symbols at one address the last one listed (the others have no
#     size once the ends are fixed, and perf prefers one with a size);
#     a module's symbols name only that module's mapping (named by its
#     .ko file, with '-' read as '_', or as [name]), the kernel's only
#     the kernel's; malformed lines, lines at address 0, names starting
#     with '$' are left out; a CRLF line ending is read.  The same from
#     perf's copy in its build-ID cache, found by the kernel's build ID.
#     And a --vmlinux made at test time (gcc, ld), relocated as the
#     recording's kernel map says, refused with another build ID, and
#     found without --vmlinux where perf looks first (./vmlinux).
#     Through the outputs with names: hot.perf.data's kernel frames, and
#     the frame of regress/kernel-module.perf.data's module, as perf
#     script names them with the same --kallsyms (below).
#  2. The oracle: perf record -g of a shell reading /proc files (frames
#     deep in the kernel), with perf's build-ID cache in the test
#     directory; every frame's name, kernel and user-space, must be perf
#     script's.  Skipped where perf cannot record kernel frames.
. "${top_srcdir:-$(dirname "$0")/..}/tests/test-subr.sh"
. "$top_srcdir/tests/symframes.sh"

ks=$(testfile symbols/kallsyms)
K='map ffffffff81000000 0 ffffffff81000000 -1 - [kernel.kallsyms]_text'
cat > fixture.in <<EOT
$K
file
ffffffff81000000
ffffffff810000ff
ffffffff81000100
ffffffff81000180
ffffffff81000200
ffffffff81000300
ffffffff81000450
ffffffff81000500
ffffffff81001fff
ffffffff81002000
ffffffff80ffffff
ffffffffc0000000
map ffffffffc0000000 0 0 -1 - /lib/modules/6.1.0/kernel/foo-bar.ko
ffffffffc0000000
ffffffffc0000041
ffffffffc000ffff
ffffffffc0010000
ffffffff81000100
map ffffffffc0010000 ffffffffc0020000 0 -1 - [other]
ffffffffc0010fff
ffffffffc0011000
EOT
cat > fixture.exp <<EOT
file $ks
ffffffff81000000 _text
ffffffff810000ff _text
ffffffff81000100 startup_64
ffffffff81000180 startup_64
ffffffff81000200 weak_fn
ffffffff81000300 after_label
ffffffff81000450 last_kernel_fn
ffffffff81000500 crlf_fn
ffffffff81001fff crlf_fn
ffffffff81002000 [unknown]
ffffffff80ffffff [unknown]
ffffffffc0000000 [unknown]
ffffffffc0000000 mod_a_fn
ffffffffc0000041 mod_a_init
ffffffffc000ffff mod_a_init
ffffffffc0010000 [unknown]
ffffffff81000100 [unknown]
ffffffffc0010fff other_fn
ffffffffc0011000 [unknown]
EOT
$SYMLOOKUP --kallsyms "$ks" --home "$test_dir/nohome" \
	< fixture.in > fixture.out ||
	fail "symlookup failed"
compare_text fixture.exp fixture.out "the names from $ks"

# perf's kallsyms copy in its build-ID cache, for the recorded build ID;
# a module looked up before the kernel's build ID is known has no name
# yet, but is not remembered so
kbid=0123456789abcdef0123456789abcdef01234567
mkdir -p "home/.debug/[kernel.kallsyms]/$kbid"
cp "$ks" "home/.debug/[kernel.kallsyms]/$kbid/kallsyms"
cat > cache.in <<EOT
map ffffffffc0000000 0 0 -1 - [foo_bar]
file
ffffffffc0000040
map ffffffff81000000 0 ffffffff81000000 -1 $kbid [kernel.kallsyms]_text
file
ffffffff81000100
map ffffffffc0000000 0 0 -1 - [foo_bar]
ffffffffc0000040
EOT
cat > cache.exp <<EOT
file - kernel build ID not known yet
ffffffffc0000040 [unknown]
file $test_dir/home/.debug/[kernel.kallsyms]/$kbid/kallsyms
ffffffff81000100 startup_64
ffffffffc0000040 mod_a_init
EOT
$SYMLOOKUP --home "$test_dir/home" < cache.in > cache.out ||
	fail "symlookup failed"
compare_text cache.exp cache.out "the names from perf's kallsyms copy"

# what /proc/kallsyms shows to a reader it hides addresses from: nothing
sed 's/^[0-9a-f]*/0000000000000000/' "$ks" > zeros
printf '%s\nfile\nffffffff81000100\n' "$K" > zeros.in
$SYMLOOKUP --kallsyms zeros --kernel-build-id 00 --home "$test_dir/nohome" \
	< zeros.in > zeros.out || fail "symlookup failed"
printf 'file - not found\nffffffff81000100 [unknown]\n' > zeros.exp
compare_text zeros.exp zeros.out "the names from a kallsyms of zeros"

# --vmlinux: an ELF kernel (a hand-written one, linked where the kernel
# is) with the recorded build ID, relocated by where the recording's
# kernel map starts; a label (_text) loses to a function of a size at
# its address; a PC past a function's end has no name; a vmlinux with
# another build ID is refused
if have ${CC:-gcc} && have ld &&
   have readelf; then
	printf '%s\n' .text '.globl _text' '_text:' '.globl kfunc_a' \
		'.type kfunc_a,@function' 'kfunc_a: nop; nop; ret' \
		'.size kfunc_a, 3' '.p2align 4' '.globl kfunc_b' \
		'.type kfunc_b,@function' 'kfunc_b: nop; ret' \
		'.size kfunc_b, 2' > vm.s
	mkvmlinux vm.s vmlinux
	vbid=$(readelf -n vmlinux | awk '/Build ID:/ { print $3 }')
	[ -n "$vbid" ] || hard_error "no build ID in vmlinux"
	cat > vm.in <<EOT
map ffffffff81200000 0 ffffffff81200000 -1 $vbid [kernel.kallsyms]_text
file
ffffffff81200000
ffffffff81200002
ffffffff81200005
ffffffff81200011
ffffffff81000011
EOT
	cat > vm.exp <<EOT
file $test_dir/vmlinux
ffffffff81200000 kfunc_a
ffffffff81200002 kfunc_a
ffffffff81200005 [unknown]
ffffffff81200011 kfunc_b
ffffffff81000011 [unknown]
EOT
	$SYMLOOKUP --vmlinux "$test_dir/vmlinux" --home "$test_dir/nohome" \
		< vm.in > vm.out || fail "symlookup failed"
	compare_text vm.exp vm.out "the names from a vmlinux"
	sed "s/ $vbid / 0123456789abcdef0123456789abcdef01234567 /" vm.in |
		$SYMLOOKUP --vmlinux "$test_dir/vmlinux" \
			--home "$test_dir/nohome" > vmbad.out ||
		fail "symlookup failed"
	check_grep "file - build ID differs" vmbad.out
	check_grep "ffffffff81200000 [unknown]" vmbad.out
	# without --vmlinux: where perf looks, first ./vmlinux
	$SYMLOOKUP --home "$test_dir/nohome" < vm.in > vmcwd.out ||
		fail "symlookup failed"
	sed "s|^file .*|file vmlinux|" vm.exp > vmcwd.exp
	compare_text vmcwd.exp vmcwd.out "the names from ./vmlinux"
else
	echo "note: no gcc, ld or readelf: --vmlinux not checked"
fi

# perf2gperf --kallsyms: the kernel frames of testdata/hot.perf.data
# (recorded on another kernel) named from a kallsyms file that gives
# each of its kernel addresses a name of its own, in folded output; the
# same with the file in a perf archive tree's place in the build-ID cache
hotdata=$(testfile hot.perf.data)
check_exit 0 "$PERF2GPERF" --folded-style=perf -q --no-fixup "$hotdata" hot.prof
check_exit 0 "$GPERFCHECK" --dump hot.prof
cp out hot.dump
awk '/^[0-9]/ { for (i = 2; i <= NF; i++) if ($i ~ /^0xffff/) print $i }' \
	out | sed 's/^0x//' | sort -u > hot.kaddrs
[ "$(wc -l < hot.kaddrs)" -ge 5 ] ||
	hard_error "hot.perf.data has too few kernel addresses"
awk '{ print $1, "T", "p2g_k_" $1 }' hot.kaddrs > hot.kallsyms
# the folded kernel part of each stack, root first, as the dump orders it
awk '/^[0-9]/ {
	s = ""
	for (i = NF; i >= 2; i--)
		if ($i ~ /^0xffff/)
			s = s ";p2g_k_" substr($i, 3)
	if (s != "")
		print substr(s, 2)
}' out | sort -u > hot.kexp
HOME=$test_dir/nohome check_exit 0 "$PERF2GPERF" --folded-style=perf -q -f folded \
	--kallsyms hot.kallsyms "$hotdata" hot.folded
sed -n 's/^[^;]*;\(.*\) [0-9]*$/\1/p' hot.folded | tr ';' '\n' |
	grep -q '^p2g_k_' || fail "--kallsyms named no kernel frame"
sed -n 's/^[^;]*;\(.*\) [0-9]*$/\1/p' hot.folded |
	awk -F';' '{ s = ""
		for (i = 1; i <= NF; i++)
			if ($i ~ /^p2g_k_/ || s != "")
				s = s ";" $i
		if (s != "") print substr(s, 2) }' | sort -u > hot.kgot
compare_text hot.kexp hot.kgot "the kernel frames named by --kallsyms"
kbid=$(awk '$1 == "map" && $2 ~ /^ffff/ && $4 ~ /vmlinux/ && $5 ~ /^\(@/ {
	print $6; exit }' hot.dump)
[ -n "$kbid" ] || hard_error "no kernel build ID in hot.perf.data's maps"
mkdir -p "arch/[kernel.kallsyms]/$kbid"
cp hot.kallsyms "arch/[kernel.kallsyms]/$kbid/kallsyms"
HOME=$test_dir/nohome check_exit 0 "$PERF2GPERF" --folded-style=perf -q -f folded \
	--binaries arch "$hotdata" hot.arch.folded
compare_text hot.folded hot.arch.folded \
	"the kernel frames named from a perf archive tree"
check_exit 2 "$PERF2GPERF" --folded-style=perf -f folded --kallsyms nonexistent "$hotdata" x.folded
check_grep "--kallsyms: cannot read 'nonexistent'"
check_exit 2 "$PERF2GPERF" --folded-style=perf -f folded --vmlinux nonexistent "$hotdata" x.folded
check_grep "--vmlinux: cannot read 'nonexistent'"

# A kernel module through the outputs with names.
# regress/kernel-module.perf.data has frames at 0xffffffff8161dc84 in the
# kernel's text and at 0xffffffffc0000123 in the module [p2gmod] (a pid
# -1 MMAP).  mod.kallsyms names both, the module's symbols as
# /proc/kallsyms lists them (NAME, a tab, [MODULE]): the folded output
# (with --annotate-kernel, _[k] on the kernel's own function only, as
# stackcollapse.py's --kernel does) and the pprof output name the
# module's frame p2gmod_tick, and its pprof Mapping has functions.
# decoy.kallsyms adds a symbol of a module that was not recorded between
# p2gmod_tick and the frame: perf fixes every symbol's end before it
# gives the symbols to the modules' maps (tools/perf/util/symbol.c,
# __dso__load_kallsyms: symbols__fixup_end, then maps__split_kallsyms,
# which drops the symbols of a module without a map), so p2gmod_tick
# ends there and the frame has no name, nor its Mapping functions.
# Pinned (kernel frames only, --kernel-only, as the user frames' names
# depend on this machine's libc), and checked against perf script with
# the same --kallsyms when perf is installed: its names of the kernel
# addresses, and stackcollapse.py's stacks.  perf 6.1's Python scripts
# get a name from kallsyms's modules followed by a NUL and "[MODULE]"
# (trace-event-python.c passes the length the name had before
# maps__split_kallsyms cut it at the tab), which stackcollapse.py
# prints: left out of perf's stacks before they are compared.
moddata=$(testfile regress/kernel-module.perf.data)
printf '%s\n' 'ffffffff81000000 T _stext' 'ffffffff81000000 T _text' \
	'ffffffff8161da60 T free_unref_folios' \
	'ffffffff8161e400 T __isolate_free_page' \
	"ffffffffc0000100 t p2gmod_tick${TAB}[p2gmod]" \
	"ffffffffc0000200 t p2gmod_exit${TAB}[p2gmod]" > mod.kallsyms
awk -v d="ffffffffc0000120 t decoy_fn${TAB}[p2gdecoy]" \
	'{ print } /p2gmod_tick/ { print d }' mod.kallsyms > decoy.kallsyms
printf '%s\n' 'ffffffff8161dc84 free_unref_folios' \
	'ffffffffc0000123 p2gmod_tick' > mod.names.exp
printf '%s\n' 'hot;free_unref_folios;p2gmod_tick 1' \
	'hot;p2gmod_tick;free_unref_folios 1' > mod.kfolded.exp
printf '%s\n' '0xffffffffc0000000/0xffffffffc0010000/0x0 [p2gmod] [FN]' \
	> mod.map.exp
sed 's/p2gmod_tick/[unknown]/' mod.names.exp > decoy.names.exp
sed 's/p2gmod_tick/[unknown]/' mod.kfolded.exp | sort > decoy.kfolded.exp
sed 's/ \[FN\]$//' mod.map.exp > decoy.map.exp
# under valgrind, mod.kallsyms only
kinds="mod decoy"
[ -n "${P2G_WRAPPER:-}" ] && kinds=mod
for k in $kinds; do
	HOME=$test_dir/nohome check_exit 0 "$PERF2GPERF" --folded-style=perf -q -f folded \
		--kernel-only --kallsyms $k.kallsyms "$moddata" $k.kfolded
	compare_text $k.kfolded.exp $k.kfolded \
		"the kernel frames of kernel-module named from $k.kallsyms"
	HOME=$test_dir/nohome check_exit 0 "$PERF2GPERF" --folded-style=perf -q \
		--kallsyms $k.kallsyms "$moddata" $k.pb.gz
	if have go; then
		(go_env && go tool pprof -raw -symbolize=none $k.pb.gz) \
			> $k.raw 2> $k.err || {
			cat $k.err >&2
			fail "go tool pprof cannot read $k.pb.gz"
		}
		# "ADDRESS NAME" of each kernel location, and the module's
		# Mapping without its id
		awk '/^Locations/ { l = 1; next } /^Mappings/ { l = 0 }
			l && $2 ~ /^0xffff/ {
				print substr($2, 3), (NF > 3 ? $4 : "[unknown]")
			}' $k.raw | sort -u > $k.names.go
		compare_text $k.names.exp $k.names.go \
			"Go pprof's names of $k.pb.gz's kernel addresses"
		awk '/^Mappings/ { m = 1 }
			m && $3 == "[p2gmod]" { $1 = ""; print substr($0, 2) }' \
			$k.raw > $k.map.go
		compare_text $k.map.exp $k.map.go \
			"Go pprof's Mapping of [p2gmod] in $k.pb.gz"
	fi
	have perf || continue
	HOME=$test_dir/nohome perf script -i "$moddata" \
		--kallsyms $k.kallsyms -F ip,sym > $k.script 2> $k.err || {
		cat $k.err >&2
		hard_error "perf script --kallsyms $k.kallsyms failed"
	}
	awk '$1 ~ /^ffff/ { print $1, $2 }' $k.script | sort -u > $k.names.perf
	compare_text $k.names.exp $k.names.perf \
		"perf script's names of kernel-module's kernel addresses"
	for a in "" --annotate-kernel; do
		HOME=$test_dir/nohome check_exit 0 "$PERF2GPERF" --folded-style=perf -q \
			-f folded $a --kallsyms $k.kallsyms "$moddata" \
			$k$a.folded
		HOME=$test_dir/nohome perf script report stackcollapse \
			-i "$moddata" --kallsyms $k.kallsyms \
			${a:+-- --kernel} > $k$a.sc 2> $k.err || {
			echo "note: perf's stackcollapse does not run:" \
				"$(head -n 1 $k.err)"
			break
		}
		tr '\000' '\001' < $k$a.sc |
			sed "s/$(printf '\001')\[[^];]*\]//g" > $k$a.perf
		compare_text $k$a.perf $k$a.folded \
			"the folded stacks of kernel-module, $k.kallsyms $a"
	done
done
echo "kernel-module: the module's frame named as perf names it"

# the oracle
live_rest
have perf || skip "perf is not installed"
HOME=$test_dir/home
export HOME
mkdir -p "$HOME"
rounds=2000
[ -n "${P2G_WRAPPER:-}" ] && rounds=500
perf record -q -g -e cpu-clock -F 4000 -o k.data -- sh -c "
	i=0
	while [ \$i -lt $rounds ]; do
		i=\$((i + 1))
		read -r x < /proc/self/stat
		read -r x < /proc/self/status
	done" > rec.log 2>&1 ||
	skip "perf record does not work here: $(head -n 1 rec.log)"
perf_frames k.data k.in k.exp
grep -q '^ffff' k.exp || skip "perf recorded no kernel frames here"
kframes=$(grep -c '^ffff' k.exp)
[ "$kframes" -ge 20 ] || skip "perf recorded only $kframes kernel frames"
$SYMLOOKUP --home "$HOME" < k.in > k.got || fail "symlookup failed"
compare_text k.exp k.got "the names of the frames"
exit 0
