#!/bin/sh
# SPDX-License-Identifier: MIT
# Install the Debian packages named as arguments that are not installed
# yet: apt-get update first, then apt-get install, through sudo unless
# run as root.  Nothing is done when all are there, or on a system
# without apt-get and dpkg-query.  run-example.sh and run-tests.sh call
# it, each with the packages it needs.
set -eu

command -v apt-get >/dev/null 2>&1 || exit 0
command -v dpkg-query >/dev/null 2>&1 || exit 0
missing=
for p in "$@"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
		grep -q "install ok installed" || missing="$missing $p"
done
[ -n "$missing" ] || exit 0
SUDO=
[ "$(id -u)" -eq 0 ] || SUDO=sudo
echo "== installing:$missing"
$SUDO apt-get update -qq
$SUDO env DEBIAN_FRONTEND=noninteractive \
	apt-get install -y -qq --no-install-recommends $missing
