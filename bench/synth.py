#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Build large perf.data files for the benchmark from a real recording, and
count their distinct stacks.

  synth.py [--copies N | --target-mb MB] [--pid-step S] [--limit-mb MB]
           IN OUT
      Write a valid file-mode perf.data OUT: the header, attrs and ids of IN,
      then its data section repeated N times, then its feature sections.
      In copy k (k = 0 .. N-1):
        - every pid and tid > 0 (samples, sample_id trailers, MMAP, MMAP2,
          COMM, FORK, EXIT, NAMESPACES, SWITCH_CPU_WIDE) becomes
          pid + k * S (default S = 4194304, the largest pid_max, so copies
          never collide; --pid-step 0 keeps the pids), so that every copy
          is a separate set of processes;
        - every non-zero timestamp is shifted by k * (span + 1), span being
          the time range of IN, so time never goes backwards across copies
          (perf report's ordered-events queue stays happy);
        - records perf itself made (types >= 64) are dropped, except
          FINISHED_ROUND.
      data.size is fixed up, the feature section table (at data.offset +
      data.size) and every feature offset are moved by the bytes added, and
      the sample_time feature gets the new last timestamp.
      --limit-mb keeps only the first MB megabytes of IN's data section
      (whole records): with --copies 1 it cuts a small input out of a big
      one.

  synth.py --analyze FILE
      Count samples, processes and distinct (pid, stack) pairs of FILE the
      way perf2gperf keys its stack table (context markers and zero
      addresses dropped; a sample without a chain is [ip]), and the bytes
      those stacks take as 8-byte PCs.  Prints key=value lines.

Only little-endian file-mode PERFILE2 files are handled (not pipe mode, not
perf record -z).  All attrs must share one sample_type.
"""

import argparse
import os
import struct
import sys

MAGIC = b"PERFILE2"
HDR = struct.Struct("<8sQQ QQ QQ QQ 4Q")

# sample_type bits
S_IP = 1 << 0
S_TID = 1 << 1
S_TIME = 1 << 2
S_ADDR = 1 << 3
S_READ = 1 << 4
S_CALLCHAIN = 1 << 5
S_ID = 1 << 6
S_CPU = 1 << 7
S_PERIOD = 1 << 8
S_STREAM_ID = 1 << 9
S_IDENTIFIER = 1 << 16

# read_format bits
F_TOTAL_TIME_ENABLED = 1 << 0
F_TOTAL_TIME_RUNNING = 1 << 1
F_ID = 1 << 2
F_GROUP = 1 << 3
F_LOST = 1 << 4

R_MMAP, R_LOST, R_COMM, R_EXIT, R_THROTTLE, R_UNTHROTTLE, R_FORK = 1, 2, 3, 4, 5, 6, 7
R_SAMPLE, R_MMAP2 = 9, 10
R_SWITCH_CPU_WIDE, R_NAMESPACES = 15, 16
R_USER_START = 64
R_FINISHED_ROUND = 68

HEADER_SAMPLE_TIME = 21
CONTEXT_MAX = 0xFFFFFFFFFFFFF001  # (u64)-4095: markers are >= this

U32 = struct.Struct("<I")
U64 = struct.Struct("<Q")
REC_HDR = struct.Struct("<IHH")


def die(msg):
    sys.stderr.write("synth.py: %s\n" % msg)
    sys.exit(1)


class PerfFile:
    def __init__(self, path):
        self.path = path
        self.f = open(path, "rb")
        raw = self.f.read(HDR.size)
        if len(raw) < HDR.size:
            die("%s: too short for a perf.data header" % path)
        v = HDR.unpack(raw)
        if v[0] != MAGIC:
            die("%s: not a little-endian file-mode perf.data (magic %r)"
                % (path, v[0]))
        (_, self.header_size, self.attr_size, self.attrs_off, self.attrs_size,
         self.data_off, self.data_size, self.et_off, self.et_size) = v[:9]
        self.flags = list(v[9:13])
        self.file_size = os.fstat(self.f.fileno()).st_size
        if self.data_off + self.data_size > self.file_size:
            die("%s: data section runs past the end of the file" % path)
        self._read_attrs()

    def _read_attrs(self):
        self.f.seek(self.attrs_off)
        raw = self.f.read(self.attrs_size)
        types = set()
        self.sample_id_all = False
        self.read_format = 0
        for o in range(0, len(raw) - self.attr_size + 1, self.attr_size):
            sample_type, read_format, flags = struct.unpack_from(
                "<QQQ", raw, o + 24)
            types.add(sample_type)
            self.read_format = read_format
            if flags & (1 << 18):
                self.sample_id_all = True
        if len(types) != 1:
            die("%s: %d different sample_types; only one is handled"
                % (self.path, len(types)))
        self.sample_type = types.pop()
        st = self.sample_type
        # offsets inside a SAMPLE record (header included)
        o = 8
        o += 8 if st & S_IDENTIFIER else 0
        self.s_ip = o if st & S_IP else None
        o += 8 if st & S_IP else 0
        self.s_tid = o if st & S_TID else None
        o += 8 if st & S_TID else 0
        self.s_time = o if st & S_TIME else None
        o += 8 if st & S_TIME else 0
        for bit in (S_ADDR, S_ID, S_STREAM_ID, S_CPU, S_PERIOD):
            o += 8 if st & bit else 0
        self.s_after_period = o  # READ, then CALLCHAIN
        # the sample_id trailer of other records, counted from the end
        t = 0
        self.t_tid = self.t_time = None
        if self.sample_id_all:
            if st & S_TID:
                self.t_tid = t
                t += 8
            if st & S_TIME:
                self.t_time = t
                t += 8
            for bit in (S_ID, S_STREAM_ID, S_CPU, S_IDENTIFIER):
                t += 8 if st & bit else 0
        self.trailer = t

    def read_data(self, limit=None):
        size = self.data_size
        if limit is not None and limit < size:
            size = limit
        self.f.seek(self.data_off)
        buf = self.f.read(size)
        if limit is not None and limit < self.data_size:
            # keep whole records only
            end = 0
            while end + 8 <= len(buf):
                rsize = REC_HDR.unpack_from(buf, end)[2]
                if rsize < 8 or end + rsize > len(buf):
                    break
                end += rsize
            buf = buf[:end]
        return buf

    def features(self):
        """[(bit, offset, size)] of the feature section table."""
        out = []
        bits = [b for b in range(256) if self.flags[b // 64] >> (b % 64) & 1]
        tab = self.data_off + self.data_size
        self.f.seek(tab)
        raw = self.f.read(16 * len(bits))
        if len(raw) < 16 * len(bits):
            die("%s: feature section table is truncated" % self.path)
        for i, b in enumerate(bits):
            off, size = struct.unpack_from("<QQ", raw, 16 * i)
            out.append((b, off, size))
        return out


def callchain_offset(pf, buf, pos):
    """Offset of the callchain nr of the sample at POS, or None."""
    o = pos + pf.s_after_period
    if pf.sample_type & S_READ:
        rf = pf.read_format
        if rf & F_GROUP:
            nr = U64.unpack_from(buf, o)[0]
            o += 8
            o += 8 if rf & F_TOTAL_TIME_ENABLED else 0
            o += 8 if rf & F_TOTAL_TIME_RUNNING else 0
            o += nr * (8 + (8 if rf & F_ID else 0) + (8 if rf & F_LOST else 0))
        else:
            o += 8
            for bit in (F_TOTAL_TIME_ENABLED, F_TOTAL_TIME_RUNNING, F_ID,
                        F_LOST):
                o += 8 if rf & bit else 0
    return o if pf.sample_type & S_CALLCHAIN else None


def scan(pf, buf):
    """Patch lists for the records in BUF (the data section)."""
    ids32 = []      # u32 pid/tid positions
    times = []      # u64 timestamp positions
    drops = []      # (start, end) of perf-made records other than rounds
    tmin, tmax = None, 0
    pos, n = 0, len(buf)
    unpack_hdr = REC_HDR.unpack_from
    unpack64 = U64.unpack_from
    s_tid, s_time = pf.s_tid, pf.s_time
    trailer, t_tid, t_time = pf.trailer, pf.t_tid, pf.t_time
    while pos + 8 <= n:
        rtype, _, size = unpack_hdr(buf, pos)
        if size < 8 or pos + size > n:
            die("bad record at data offset %d (size %d)" % (pos, size))
        if rtype == R_SAMPLE:
            if s_tid is not None:
                ids32.append(pos + s_tid)
                ids32.append(pos + s_tid + 4)
            if s_time is not None:
                times.append(pos + s_time)
        elif rtype >= R_USER_START:
            if rtype != R_FINISHED_ROUND:
                drops.append((pos, pos + size))
        else:
            if rtype in (R_MMAP, R_MMAP2, R_COMM, R_NAMESPACES,
                         R_SWITCH_CPU_WIDE):
                ids32 += (pos + 8, pos + 12)
            elif rtype in (R_FORK, R_EXIT):
                ids32 += (pos + 8, pos + 12, pos + 16, pos + 20)
                times.append(pos + 24)
            elif rtype in (R_THROTTLE, R_UNTHROTTLE):
                times.append(pos + 8)
            if trailer and size - 8 >= trailer:
                t = pos + size - trailer
                if t_tid is not None:
                    ids32 += (t + t_tid, t + t_tid + 4)
                if t_time is not None:
                    times.append(t + t_time)
        pos += size
    for p in times:
        t = unpack64(buf, p)[0]
        if t:
            if tmin is None or t < tmin:
                tmin = t
            if t > tmax:
                tmax = t
    return ids32, times, drops, (tmin or 0), tmax


def synth(args):
    pf = PerfFile(args.input)
    limit = int(args.limit_mb * 1e6) if args.limit_mb else None
    base = pf.read_data(limit)
    if not base:
        die("%s: empty data section" % args.input)
    ids32, times, drops, tmin, tmax = scan(pf, base)
    span = tmax - tmin + 1
    copies = args.copies
    if args.target_mb:
        copies = max(1, -(-int(args.target_mb * 1e6) // len(base)))
    step = args.pid_step
    dropped = sum(e - s for s, e in drops)
    per_copy = len(base) - dropped
    new_data = len(base) + (copies - 1) * per_copy
    delta = new_data - pf.data_size
    feats = pf.features()
    tab_off = pf.data_off + pf.data_size
    tab_end = tab_off + 16 * len(feats)

    with open(args.output + ".tmp", "wb") as out:
        # header, attrs, ids: everything before the data section
        pf.f.seek(0)
        head = bytearray(pf.f.read(pf.data_off))
        struct.pack_into("<Q", head, 48, new_data)
        out.write(head)
        unpack32, pack32 = U32.unpack_from, U32.pack_into
        unpack64, pack64 = U64.unpack_from, U64.pack_into
        for k in range(copies):
            if k == 0:
                out.write(base)
                continue
            b = bytearray(base)
            if step:
                add = k * step
                for p in ids32:
                    v = unpack32(b, p)[0]
                    if 0 < v < 0x80000000:
                        pack32(b, p, v + add)
            shift = k * span
            for p in times:
                t = unpack64(b, p)[0]
                if t:
                    pack64(b, p, t + shift)
            mv = memoryview(b)
            last = 0
            for s, e in drops:
                out.write(mv[last:s])
                last = e
            out.write(mv[last:])
            del mv
        # the feature table, moved, then the feature sections as they were
        for bit, off, size in feats:
            if off < tab_off:
                die("feature %d at 0x%x lies before the data end" % (bit, off))
            out.write(struct.pack("<QQ", off + delta, size))
        pf.f.seek(tab_end)
        rest = bytearray(pf.f.read())
        for bit, off, size in feats:
            if bit == HEADER_SAMPLE_TIME and size >= 16 and tmax:
                r = off - tab_end
                first, lastt = struct.unpack_from("<QQ", rest, r)
                struct.pack_into("<QQ", rest, r, first,
                                 max(lastt, tmax) + (copies - 1) * span)
        out.write(rest)
    os.replace(args.output + ".tmp", args.output)
    sys.stderr.write(
        "synth.py: %s: %d copies of %d data bytes (%d per extra copy), "
        "pid step %d, time step %d ns: %d bytes\n"
        % (args.output, copies, len(base), per_copy, step, span,
           os.path.getsize(args.output)))


def analyze(path):
    pf = PerfFile(path)
    st = pf.sample_type
    stacks = {}
    samples = 0
    procs = {}
    chunk = 64 << 20
    off, end = pf.data_off, pf.data_off + pf.data_size
    pf.f.seek(off)
    carry = b""
    unpack_hdr = REC_HDR.unpack_from
    unpack64 = U64.unpack_from
    s_tid, s_ip = pf.s_tid, pf.s_ip
    has_cc = bool(st & S_CALLCHAIN)
    while off < end:
        buf = carry + pf.f.read(min(chunk, end - off))
        off += len(buf) - len(carry)
        pos, n = 0, len(buf)
        while pos + 8 <= n:
            rtype, _, size = unpack_hdr(buf, pos)
            if size < 8:
                die("bad record size %d" % size)
            if pos + size > n:
                break
            if rtype == R_SAMPLE:
                samples += 1
                pid = U32.unpack_from(buf, pos + s_tid)[0] if s_tid else 0
                procs[pid] = procs.get(pid, 0) + 1
                if has_cc:
                    c = callchain_offset(pf, buf, pos)
                    nr = unpack64(buf, c)[0]
                    key = (pid, buf[c + 8:c + 8 + 8 * nr])
                else:
                    key = (pid, b"")
                if key[1] == b"" and s_ip is not None:
                    key = (pid, buf[pos + s_ip:pos + s_ip + 8])
                stacks[key] = stacks.get(key, 0) + 1
            pos += size
        carry = buf[pos:]
    # count PCs of each distinct stack the way perf2gperf does (markers
    # and zeros dropped), and merge keys that become equal
    final = {}
    for (pid, raw), cnt in stacks.items():
        pcs = [v for v in struct.unpack("<%dQ" % (len(raw) // 8), raw)
               if v and v < CONTEXT_MAX]
        k = (pid, tuple(pcs) or (-1,))   # [ip]: one frame
        final[k] = final.get(k, 0) + cnt
    frames = sum(len(k[1]) for k in final)
    per_pid = {}
    for pid, _ in final:
        per_pid[pid] = per_pid.get(pid, 0) + 1
    top = max(procs, key=lambda p: procs[p]) if procs else 0
    print("file=%s" % path)
    print("bytes=%d" % os.path.getsize(path))
    print("data_bytes=%d" % pf.data_size)
    print("samples=%d" % samples)
    print("processes=%d" % len(procs))
    print("distinct_stacks=%d" % len(final))
    print("stack_frames=%d" % frames)
    print("stack_bytes=%d" % (8 * frames))
    print("max_depth=%d" % max((len(k[1]) for k in final), default=0))
    print("top_pid=%d" % top)
    print("top_pid_samples=%d" % procs.get(top, 0))
    print("top_pid_stacks=%d" % per_pid.get(top, 0))


def main():
    ap = argparse.ArgumentParser(
        description="Synthesize large perf.data files; count stacks.")
    ap.add_argument("--analyze", action="store_true",
                    help="print counts for INPUT and exit")
    ap.add_argument("--copies", type=int, default=2)
    ap.add_argument("--target-mb", type=float, default=0,
                    help="as many copies as make at least MB megabytes")
    ap.add_argument("--pid-step", type=int, default=4194304)
    ap.add_argument("--limit-mb", type=float, default=0)
    ap.add_argument("input")
    ap.add_argument("output", nargs="?")
    args = ap.parse_args()
    if args.analyze:
        analyze(args.input)
        return
    if not args.output:
        ap.error("OUTPUT is required")
    if args.copies < 1:
        ap.error("--copies must be at least 1")
    synth(args)


if __name__ == "__main__":
    main()
