#!/bin/sh
# SPDX-License-Identifier: MIT
# make install (into a DESTDIR, with prefix /usr, as a package installs):
# the two programs, their manual pages, and in docdir README, NEWS, every
# document under doc/ that the manual pages or README name, and the
# integration examples that gperfcheck's manual page points to; the
# perf_to_profile link in pkglibexecdir is relative and runs perf2gperf
# (--version answers as perf_to_profile).  make uninstall removes them.
. "${top_srcdir:-$(dirname "$0")/..}/tests/test-subr.sh"

[ -f "$top_builddir/Makefile" ] || skip "no Makefile in $top_builddir"
root=$test_dir/root
${MAKE:-make} -s -C "$top_builddir" install DESTDIR="$root" prefix=/usr \
	> install.log 2>&1 || { tail -n 20 install.log >&2; fail "make install failed"; }

docdir=$root/usr/share/doc/perf2gperf
for f in usr/bin/perf2gperf usr/bin/gperfcheck; do
	[ -x "$root/$f" ] || fail "/$f is not installed"
done
for f in perf2gperf.1 gperfcheck.1; do
	[ -f "$root/usr/share/man/man1/$f" ] || fail "man page $f is not installed"
done
for f in README NEWS; do
	[ -f "$docdir/$f" ] || fail "$f is not installed in docdir"
done
# every document the manual pages and README send readers to
docs=$(cat "$top_srcdir"/doc/*.1 "$top_srcdir/README" |
	sed 's/\\-/-/g' | grep -o 'doc/[a-z0-9-]*\.md' | sort -u)
[ -n "$docs" ] || hard_error "no doc/*.md named in the manual pages or README"
for d in $docs; do
	[ -f "$docdir/$(basename "$d")" ] || fail "$d is named but not installed"
done
for f in README automake/configure.ac automake/Makefile.am \
	 automake/profile.test cmake/CMakeLists.txt pytest/test_profile.py; do
	[ -f "$docdir/examples/$f" ] || fail "examples/$f is not installed"
done

p2p=$root/usr/libexec/perf2gperf/perf_to_profile
[ -L "$p2p" ] || fail "no perf_to_profile link in pkglibexecdir"
case $(readlink "$p2p") in
/*)	fail "perf_to_profile links to $(readlink "$p2p"), not a relative path" ;;
esac
[ "$(cd "$(dirname "$p2p")" && readlink -f "$(readlink "$p2p")")" = \
  "$(readlink -f "$root/usr/bin/perf2gperf")" ] ||
	fail "perf_to_profile does not lead to /usr/bin/perf2gperf"
check_exit 0 "$p2p" --version
check_grep "perf_to_profile (perf2gperf) " out

${MAKE:-make} -s -C "$top_builddir" uninstall DESTDIR="$root" prefix=/usr \
	> uninstall.log 2>&1 || fail "make uninstall failed"
left=$(find "$root" -type f -o -type l)
[ -z "$left" ] || fail "make uninstall left: $left"
echo "installed: $(echo $docs | wc -w) documents named by the manuals, the examples, a relative perf_to_profile link"
