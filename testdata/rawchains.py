#!/usr/bin/python3
# rawchains.py - cross-check a .expected file against perf's raw dump.
#
#   perf report -D -i FILE.perf.data | python3 rawchains.py FILE.perf.data.expected
#
# Parses every PERF_RECORD_SAMPLE in the `perf report -D` dump (sample ip,
# pid, and the raw "FP chain" entries as the kernel wrote them), applies the
# same rules as perf-stacks.py (drop entries >= 0xfffffffffffff000 and 0,
# empty/absent chain -> [ip]) and compares the multiset of (pid, stack) with
# the .expected file summed over events (the -D dump does not name the event).
# Also checks that the first non-marker raw entry equals the sample ip.
# Prints one summary line; exit status 1 on any mismatch.
import re
import sys
from collections import Counter

MARK = 0xfffffffffffff000
samp_re = re.compile(r'PERF_RECORD_SAMPLE\([^)]*\): (-?\d+)/(-?\d+): 0x([0-9a-f]+)')
ent_re = re.compile(r'^\.{5}\s+\d+: ([0-9a-f]+)\s*$')

raw = Counter()
n = n_markers = n_zero = first_ne_ip = leaf_eq_ret = 0
cur = None


def flush():
    global n_zero, first_ne_ip, leaf_eq_ret
    if cur is None:
        return
    pid, ip, chain = cur
    st = []
    first = None
    for a in chain:
        if a >= MARK:
            continue
        if first is None:
            first = a
        if a == 0:
            n_zero += 1
            continue
        st.append(a)
    if first is not None and first != ip:
        first_ne_ip += 1
    if not st:
        st = [ip]
    if len(st) >= 2 and st[0] == st[1]:
        leaf_eq_ret += 1
    raw[(pid, ' '.join('%x' % a for a in st))] += 1


for line in sys.stdin:
    m = samp_re.search(line)
    if m:
        flush()
        n += 1
        cur = (int(m.group(1)), int(m.group(3), 16), [])
        continue
    if cur is not None:
        m = ent_re.match(line)
        if m:
            a = int(m.group(1), 16)
            if a >= MARK:
                n_markers += 1
            cur[2].append(a)
        elif line.startswith('... FP chain') or line.startswith(' ...'):
            pass
        elif line.strip() == '' or not line.startswith('.'):
            flush()
            cur = None
flush()

exp = Counter()
with open(sys.argv[1]) as f:
    for line in f:
        cnt, per, ev, pid, st = line.rstrip('\n').split('\t')
        exp[(int(pid), st)] += int(cnt)

ok = raw == exp and first_ne_ip == 0
print('rawchains: %s samples=%d expected_samples=%d raw_markers=%d '
      'raw_zero=%d first_raw_ne_ip=%d leaf_eq_ret=%d'
      % ('OK' if ok else 'MISMATCH', n, sum(exp.values()), n_markers,
         n_zero, first_ne_ip, leaf_eq_ret))
sys.exit(0 if ok else 1)
