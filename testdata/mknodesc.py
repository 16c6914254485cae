#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Copy a file-mode perf.data without its HEADER_EVENT_DESC feature, as a
recording made without it (perf inject, older perfs) is: its events are
then named only by the attrs and, for tracepoints, the tracing data.

  mknodesc.py IN OUT

The header's feature bit 12 is cleared and its entry taken out of the
feature section table (one perf_file_section per feature bit set, in bit
order, after the data); the sections themselves stay where they are, at
the offsets the other entries give (tools/perf/util/header.c).
"""
import struct
import sys

EVENT_DESC = 12
data = bytearray(open(sys.argv[1], "rb").read())
if data[:8] != b"PERFILE2":
    sys.exit("not a little-endian file-mode perf.data")
data_off, data_size = struct.unpack_from("<QQ", data, 40)
flags = list(struct.unpack_from("<4Q", data, 72))
if not flags[0] & (1 << EVENT_DESC):
    sys.exit("no event_desc feature")
bits = [b for b in range(256) if flags[b // 64] & (1 << (b % 64))]
table = data_off + data_size
k = bits.index(EVENT_DESC)
entry = table + 16 * k
del data[entry:entry + 16]
# 16 bytes back after the table, so that the sections stay in place
end = table + 16 * (len(bits) - 1)
data[end:end] = bytes(16)
flags[0] &= ~(1 << EVENT_DESC)
struct.pack_into("<4Q", data, 72, *flags)
open(sys.argv[2], "wb").write(data)
