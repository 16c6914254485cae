# SPDX-License-Identifier: MIT
# Per-binary sample shares, as perf report and Go pprof give them, in one
# canonical form: "NAME<TAB>SELF<TAB>CHILDREN" per binary, percentages of
# all samples with two decimals (as perf prints them), sorted by name.
# SELF counts the samples whose leaf is in the binary, CHILDREN those
# with a frame anywhere in it (each sample once), as
# `perf report --children --sort dso` does.  Kernel images are named
# [kernel.kallsyms] (perf's name); frames in no mapping are [unknown].
# The same per function ("_sym"): a frame's function is its symbol's (for
# pprof, a location's last, outermost line), functions perf leaves
# unnamed (an address in perf report) left out.
# Sourced by tests after test-subr.sh and stacks.sh (go_raw_awk).

# shares_perf PERFDATA [KEY]: perf report's shares, by dso or (KEY sym)
# by function
shares_perf() {
	perf report -i "$1" --children --sort "${2:-dso}" --stdio -g none \
		2> /dev/null |
	awk '/^#/ || NF < 3 { next }
		$1 ~ /%$/ && $2 ~ /%$/ {
			c = $1; s = $2
			sub(/%$/, "", c); sub(/%$/, "", s)
			n = $0
			sub(/^ *[^ ]+ +[^ ]+ +/, "", n)
			sub(/^\[[.k]\] /, "", n)
			sub(/ +$/, "", n)
			if (n !~ /^(0x)?[0-9a-f]+$/)
				printf "%s\t%.2f\t%.2f\n", n, s, c
		}' | LC_ALL=C sort
}

# shares_go_raw [FILE]: the shares in `go tool pprof -raw` output.  A
# location's binary is its mapping's file (basename); the mapping pprof
# makes for locations it finds in no mapping has no file: [unknown].
shares_go_raw() {
	_shares_go_raw "" ${1+"$1"}
}

# shares_go_raw_sym [FILE]: the same by function; locations without one
# are left out
shares_go_raw_sym() {
	_shares_go_raw sym ${1+"$1"}
}

_shares_go_raw() {
	_sg_key=$1
	shift
	awk -v key="$_sg_key" "$go_raw_awk"'
		sect == "l" && /^ *[0-9]+: 0x/ {
			id = $1
			sub(/:$/, "", id)
			for (i = 3; i <= NF; i++)
				if ($i ~ /^M=/)
					lm[id] = substr($i, 3)
		}
		# a line: "NAME FILE:LINE s=START", the last one the
		# outermost function
		sect == "l" && / s=[0-9]+/ {
			f = $0
			sub(/^ *([0-9]+: 0x[0-9a-f]+ )?(M=[0-9]+ )?(\[F\] )?/, "", f)
			sub(/ [^ ]*:[0-9]+ s=[0-9]+.*$/, "", f)
			lf[id] = f
			next
		}
		sect == "l" { next }
		sect == "m" && /^[0-9]+: 0x/ {
			id = $1
			sub(/:$/, "", id)
			f = NF >= 3 ? $3 : ""
			n = split(f, p, "/")
			f = n ? p[n] : ""
			if (f ~ /^vmlinux/)
				f = "[kernel.kallsyms]"
			mf[id] = f == "" ? "[unknown]" : f
		}
		END {
			for (i = 1; i <= ns; i++) {
				n = split(ids[i], l, " ")
				split("", seen)
				tot += cnt[i]
				for (j = 1; j <= n; j++) {
					m = l[j] in lm ? lm[l[j]] : ""
					f = m in mf ? mf[m] : "[unknown]"
					if (key == "sym")
						f = l[j] in lf ? lf[l[j]] : ""
					if (f == "")
						continue
					if (j == 1)
						self[f] += cnt[i]
					if (!(f in seen)) {
						seen[f] = 1
						cum[f] += cnt[i]
					}
				}
			}
			for (f in cum)
				printf "%s\t%.2f\t%.2f\n", f,
					100 * self[f] / tot, 100 * cum[f] / tot
		}' ${1+"$1"} | LC_ALL=C sort
}

# shares_binaries FILE: the lines of FILE for binaries (not [unknown])
shares_binaries() {
	grep -v '^\[unknown\]	' "$1" || :
}
