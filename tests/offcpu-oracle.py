#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Off-CPU time computed from perf script's text alone, to check
perf2gperf --off-cpu against.  Reads on stdin the output of

  perf script --ns --show-switch-events --show-task-events \
      -F comm,pid,tid,time,event,trace,ip,sym

and prints folded stacks, "comm;root;...;leaf MICROSECONDS", sorted, the
nanoseconds of each stack summed and divided by 1000 at the end.

A sched:sched_switch sample (prev_state not X or Z, prev_pid not 0) is
a switch-out of prev_pid at its time, with its stack; the thread comes
back at its next PERF_RECORD_SWITCH IN, PERF_RECORD_SWITCH_CPU_WIDE IN,
CPU_WIDE OUT naming it as the next pid/tid, or sched_switch naming it as
next_pid; a second switch-out before that drops the first; a thread that
exits waits until its PERF_RECORD_EXIT, one that never comes back until
the latest time in the output.  With --blocked, switch-outs in state R
(R, R+) are left out.  With --totals, prints "tid NANOSECONDS" per
thread and "stack NANOSECONDS" lines instead.
"""
import re
import sys

blocked = "--blocked" in sys.argv
totals = "--totals" in sys.argv

head = re.compile(r"^(.*?)\s+(-?\d+)/(-?\d+)\s+(\d+)\.(\d+):\s+(.*)$")
pending = {}    # tid -> (stack, time)
stacks = {}     # stack -> ns
per_tid = {}
latest = 0


def come_back(tid, t):
    p = pending.pop(tid, None)
    if p is None:
        return
    stack, since = p
    d = max(0, t - since)
    stacks[stack] = stacks.get(stack, 0) + d
    per_tid[tid] = per_tid.get(tid, 0) + d


def name_of(line):
    # "ffffffff82265488 __schedule" or "122f short_sleeps+0x1f"
    parts = line.strip().split(None, 1)
    sym = parts[1] if len(parts) > 1 else "[unknown]"
    sym = re.sub(r"\+0x[0-9a-f]+$", "", sym)
    sym = re.sub(r" \(.*\)$", "", sym)
    return sym.replace(";", ":")


lines = sys.stdin.read().split("\n")
i = 0
while i < len(lines):
    m = head.match(lines[i])
    i += 1
    if not m:
        continue
    comm, tid = m.group(1).strip(), int(m.group(3))
    t = int(m.group(4)) * 10**9 + int(m.group(5).ljust(9, "0")[:9])
    rest = m.group(6)
    latest = max(latest, t)
    frames = []
    while i < len(lines) and lines[i].startswith(("\t", " ")) and \
            lines[i].strip():
        frames.append(name_of(lines[i]))
        i += 1
    if rest.startswith("sched:sched_switch:"):
        f = dict(re.findall(r"(\w+)=(\S+)", rest))
        nxt = int(f.get("next_pid", "-1"))
        if nxt > 0:
            come_back(nxt, t)
        prev = int(f["prev_pid"])
        state = f.get("prev_state", "")
        if prev <= 0 or state[:1] in ("X", "Z"):
            continue
        pending.pop(prev, None)
        if blocked and state.startswith("R"):
            continue
        stack = ";".join([comm.replace(" ", "_")] + frames[::-1])
        pending[prev] = (stack, t)
    elif rest.startswith("PERF_RECORD_SWITCH_CPU_WIDE OUT"):
        m2 = re.search(r"next pid/tid:\s*(\d+)/\s*(\d+)", rest)
        if m2:
            come_back(int(m2.group(2)), t)
    elif rest.startswith(("PERF_RECORD_SWITCH IN",
                          "PERF_RECORD_SWITCH_CPU_WIDE IN")):
        come_back(tid, t)
    elif rest.startswith("PERF_RECORD_EXIT("):
        m2 = re.match(r"PERF_RECORD_EXIT\((\d+):(\d+)\)", rest)
        come_back(int(m2.group(2)), t)
for tid in list(pending):
    come_back(tid, latest)
if totals:
    for tid in sorted(per_tid):
        print("tid %d %d" % (tid, per_tid[tid]))
    for s in sorted(stacks):
        print("stack %d %s" % (stacks[s], s))
else:
    for s in sorted(stacks):
        print("%s %d" % (s, stacks[s] // 1000))
