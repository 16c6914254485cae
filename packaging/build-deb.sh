#!/bin/sh
# SPDX-License-Identifier: MIT
# Build the Debian package as a distribution would: from the release
# tarball (made here with make dist in BUILDDIR) with packaging/debian
# copied in as debian/, dpkg-buildpackage -us -uc -b as an unprivileged
# user (nobody, when run as root), which runs make check; then lintian
# on the .deb, which must report no error (E:).  The .deb and the logs
# are left in OUTDIR.
#
#	packaging/build-deb.sh BUILDDIR OUTDIR
#
# Needs dpkg-dev, debhelper, lintian and fakeroot, and the build
# dependencies of packaging/debian/control.
set -eu
[ $# -eq 2 ] || { echo "usage: $0 BUILDDIR OUTDIR" >&2; exit 2; }
top=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "$1" && pwd)
mkdir -p "$2"
out=$(cd "$2" && pwd)

rm -f "$build"/perf2gperf-*.tar.gz
make -s -C "$build" dist > /dev/null
tarball=$(ls "$build"/perf2gperf-*.tar.gz)
version=$(basename "$tarball" .tar.gz | sed 's/^perf2gperf-//')

rm -rf "$out/src"
mkdir -p "$out/src"
cp "$tarball" "$out/src/perf2gperf_$version.orig.tar.gz"
tar -xzf "$tarball" -C "$out/src"
cp -r "$top/packaging/debian" "$out/src/perf2gperf-$version/debian"

as_user= who=$(id -un)
if [ "$(id -u)" -eq 0 ]; then
	chown -R nobody "$out/src"
	as_user="runuser -u nobody --" who=nobody
fi
started=$(date +%s)
# HOME and PATH as a build chroot has them
if ! (cd "$out/src/perf2gperf-$version" &&
	$as_user env HOME=/nonexistent PATH=/usr/sbin:/usr/bin:/sbin:/bin \
		dpkg-buildpackage -us -uc -b) \
	> "$out/build.log" 2>&1; then
	tail -n 60 "$out/build.log"
	echo "build-deb.sh: dpkg-buildpackage failed (log: $out/build.log)" >&2
	exit 1
fi
echo "build-deb.sh: dpkg-buildpackage took $(($(date +%s) - started)) s as $who"
grep -E '^# (TOTAL|PASS|SKIP|FAIL|ERROR):' "$out/build.log" || {
	echo "build-deb.sh: the package build ran no make check" >&2
	exit 1
}
deb=$(ls "$out"/src/perf2gperf_"$version"-*_*.deb)
cp "$deb" "$out/"
lintian --fail-on error "$deb" > "$out/lintian.log" 2>&1 || {
	cat "$out/lintian.log"
	echo "build-deb.sh: lintian reports errors on $(basename "$deb")" >&2
	exit 1
}
echo "build-deb.sh: $(basename "$deb"): lintian: $(grep -c '^E:' "$out/lintian.log") errors, $(grep -c '^W:' "$out/lintian.log") warnings"
cat "$out/lintian.log"
dpkg-deb -c "$deb" | awk '{ print $NF, $(NF-1), $(NF-2) }' |
	grep -e 'perf_to_profile' -e 'bin/' | head
