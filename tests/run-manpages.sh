#!/bin/sh
# SPDX-License-Identifier: MIT
# The man pages document exactly the options the tools take: every long
# option defined in `TOOL --help` (an option line "  -x, --long ..." or
# "      --long ...") is a tagged paragraph (.TP/.IP tag) in the OPTIONS
# section of doc/TOOL.1, and every long option tagged there is in --help.
# Each page also has the sections the house style asks for (NAME,
# SYNOPSIS, DESCRIPTION, OPTIONS, EXIT STATUS, EXAMPLES, SEE ALSO),
# documents the exit statuses 0, 1 and 2, has no word twice in a row in
# its text ("an an OUTPUT", outside the examples), and, when groff is
# installed, formats without warnings.
. "${top_srcdir:-$(dirname "$0")/..}/tests/test-subr.sh"

# help_options TOOL: long options defined in TOOL --help, one a line
help_options() {
	"$1" --help > help.txt || fail "$1 --help failed"
	sed -n 's/^ *\(-[A-Za-z0-9], *\)\{0,1\}\(--[a-z0-9][a-z0-9-]*\).*/\2/p' help.txt |
		sort -u
}

# help_short: "-x --long" for each option --help gives both names of
# (after help_options has written help.txt)
help_short() {
	sed -n 's/^ *\(-[A-Za-z0-9]\), *\(--[a-z0-9][a-z0-9-]*\).*/\1 \2/p' help.txt |
		sort -u
}

# man_tags PAGE: the tags of the OPTIONS section, as text
man_tags() {
	awk '
		/^\.SH/ { opts = ($0 ~ /^\.SH +"?OPTIONS"?$/); next }
		!opts { next }
		/^\.TP/ { tag = 1; next }
		/^\.IP/ { line = $0; sub(/^\.IP */, "", line); print line; next }
		tag && /^\.(PD|\\")/ { next }
		tag { print; tag = 0 }' "$1" |
		sed -e 's/\\f[BIRP]//g' -e 's/\\f(..//g' -e 's/\\-/-/g' \
		    -e 's/\\(em/ /g' -e 's/"/ /g'
}

# man_options PAGE: long options in the tags of the OPTIONS section
man_options() {
	man_tags "$1" |
		tr -s ' \t' '\n\n' | sed -n 's/^\(--[a-z0-9][a-z0-9-]*\).*/\1/p' |
		sort -u
}

# man_short PAGE: "-x --long" for each tag that gives both names
man_short() {
	man_tags "$1" | tr ',=' '  ' |
		awk '{	short = long = ""
			for (i = 1; i <= NF; i++)
				if ($i ~ /^-[A-Za-z0-9]$/ && short == "")
					short = $i
				else if ($i ~ /^--[a-z0-9]/ && long == "")
					long = $i
			if (short != "" && long != "")
				print short, long }' |
		sort -u
}

# doubled PAGE: the words of PAGE's text (macro arguments included,
# examples and comments left out) that repeat the word before them
doubled() {
	awk '
		/^\.EX/ { ex = 1; next }
		/^\.EE/ { ex = 0; next }
		ex || /^\.\\"/ { next }
		/^\.(B|I|BR|RB|IR|RI|BI|IB)( |$)/ { sub(/^\.[A-Z]+ */, ""); gsub(/"/, " ") }
		/^\./ { next }
		{ print }' "$1" |
		sed -e 's/\\f[BIRP]//g' -e 's/\\-/-/g' -e 's/\\([a-z][a-z]/ /g' \
		    -e 's/\\&//g' |
		tr -s ' \t' '\n\n' |
		awk 'NF && $0 == prev && $0 ~ /^[a-z]+$/ { print prev " " $0 } NF { prev = $0 }'
}

for tool in perf2gperf gperfcheck; do
	page=$top_srcdir/doc/$tool.1
	[ -f "$page" ] || fail "doc/$tool.1 is missing"
	[ -s "$page" ] || fail "doc/$tool.1 is empty"

	help_options "$top_builddir/src/$tool" > $tool.help
	[ "$(wc -l < $tool.help)" -ge 3 ] ||
		hard_error "found only $(wc -l < $tool.help) long options in $tool --help"
	man_options "$page" > $tool.man
	compare_text $tool.help $tool.man \
		"long options tagged in doc/$tool.1 OPTIONS (vs $tool --help)"
	help_short > $tool.help-short
	man_short "$page" > $tool.man-short
	compare_text $tool.help-short $tool.man-short \
		"short names of the options in doc/$tool.1 OPTIONS (vs $tool --help)"
	echo "$tool: $(wc -l < $tool.help) long options, $(wc -l < $tool.help-short) with a short name, same in --help and doc/$tool.1"

	for sect in NAME SYNOPSIS DESCRIPTION OPTIONS "EXIT STATUS" EXAMPLES "SEE ALSO"; do
		grep -q "^\.SH \"*$sect\"*\$" "$page" ||
			fail "doc/$tool.1 has no $sect section"
	done
	doubled "$page" > $tool.doubled
	[ ! -s $tool.doubled ] ||
		fail "doc/$tool.1 repeats a word: $(tr '\n' ';' < $tool.doubled)"
	awk '/^\.SH/ { s = ($0 ~ /EXIT STATUS/); next } s' "$page" > $tool.exit
	for st in 0 1 2; do
		grep -q -e "^\.B $st\$" -e "^$st\$" -e "\\\\fB$st\\\\f[RP]" $tool.exit ||
			fail "doc/$tool.1: exit status $st not documented in EXIT STATUS"
	done

	if have groff; then
		groff -t -man -ww -z "$page" > groff.log 2>&1 || :
		if [ -s groff.log ]; then
			cat groff.log >&2
			fail "groff warns about doc/$tool.1"
		fi
	fi
done

exit 0
