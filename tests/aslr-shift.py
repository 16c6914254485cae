#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# aslr-shift.py IN OUT OFFSET: copy the 64-bit little-endian gperftools
# CPU profile IN to OUT as if every mapping had been loaded OFFSET bytes
# higher (address space layout randomisation): each PC of each record
# and the start and end of each maps line move by OFFSET (hex); counts,
# the header, file offsets and paths stay as they are.
import re
import struct
import sys

src, dst, off = sys.argv[1], sys.argv[2], int(sys.argv[3], 16)
data = open(src, 'rb').read()
words = lambda at, n: struct.unpack_from('<%dQ' % n, data, at)
hdr = words(0, 5)
if hdr[0] != 0 or hdr[2] != 0:
    sys.exit('%s: not a 64-bit little-endian CPU profile' % src)
pos = 8 * (2 + hdr[1])
out = bytearray(data[:pos])
while True:
    count, n = words(pos, 2)
    pcs = words(pos + 16, n)
    if (count, n) == (0, 1) and pcs == (0,):
        out += data[pos:pos + 24]
        pos += 24
        break
    out += struct.pack('<2Q', count, n)
    out += struct.pack('<%dQ' % n, *[pc + off for pc in pcs])
    pos += 16 + 8 * n


def shift(m):
    lo, hi = m.group(1), m.group(2)
    if int(hi, 16) + off >= 1 << 64:
        return m.group(0)       # [vsyscall], at the top: stays
    return '%0*x-%0*x' % (len(lo), int(lo, 16) + off,
                          len(hi), int(hi, 16) + off)


maps = data[pos:].decode('latin-1')
maps = re.sub(r'(?m)^([0-9a-fA-F]+)-([0-9a-fA-F]+)', shift, maps)
out += maps.encode('latin-1')
open(dst, 'wb').write(out)
