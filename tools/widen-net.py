#!/usr/bin/env python3
"""Widens an xq network file (docs: xq-eval/src/nnue/mod.rs, "The file") to twice its
accumulator width with the same output: each hidden unit is copied, the copy's input
weights are jittered by a few units (so that training can tell the two apart) and the
unit's output weight is split between the two (ceil and floor of half). The jitter changes
the output slightly; everything else is exact. It reads and writes networks of one output
bucket (format version 1); widen before `xq train --buckets`.

    python3 tools/widen-net.py IN.nnue OUT.nnue [JITTER [SEED]]
"""
import random
import struct
import sys

INPUTS = 1260


def fnv1a(data: bytes) -> int:
    h = 0xCBF29CE484222325
    for b in data:
        h ^= b
        h = (h * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


def main() -> None:
    src, dst = sys.argv[1], sys.argv[2]
    jitter = int(sys.argv[3]) if len(sys.argv) > 3 else 2
    rng = random.Random(int(sys.argv[4]) if len(sys.argv) > 4 else 1)
    raw = open(src, 'rb').read()
    assert raw[:4] == b'XQNN', 'not an xq network'
    version, h, inputs = struct.unpack_from('<HHI', raw, 4)
    assert version == 1, f'format version {version}: only one-bucket networks (version 1) are widened'
    assert inputs == INPUTS, (version, inputs)
    assert fnv1a(raw[:-8]) == struct.unpack_from('<Q', raw, len(raw) - 8)[0], 'bad checksum'
    n = INPUTS * h + h + 2 * h
    vals = list(struct.unpack_from(f'<{n}h', raw, 12))
    (bias,) = struct.unpack_from('<i', raw, 12 + 2 * n)
    ft = [vals[i * h:(i + 1) * h] for i in range(INPUTS)]
    ft_b = vals[INPUTS * h:INPUTS * h + h]
    out = vals[INPUTS * h + h:]
    clip = lambda v: max(-32768, min(32767, v))
    wide_ft = []
    for row in ft:
        wide_ft += row + [clip(w + rng.randint(-jitter, jitter)) for w in row]
    wide_b = ft_b + ft_b
    wide_out = []
    for half in (out[:h], out[h:]):
        hi = [-((-o) // 2) for o in half]  # ceil(o / 2)
        lo = [o // 2 for o in half]        # floor(o / 2)
        wide_out += hi + lo
    body = b'XQNN' + struct.pack('<HHI', 1, 2 * h, INPUTS)
    body += struct.pack(f'<{len(wide_ft) + len(wide_b) + len(wide_out)}h', *(wide_ft + wide_b + wide_out))
    body += struct.pack('<i', bias)
    body += struct.pack('<Q', fnv1a(body))
    open(dst, 'wb').write(body)
    print(f'{src}: width {h} -> {dst}: width {2 * h}, jitter {jitter}')


if __name__ == '__main__':
    main()
