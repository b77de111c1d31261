"""Synthetic configuration images for the zk-flash tests, in the .bin packet format of UG570 ("Configuration
Packets", "Device ID Check"): padding, the bus-width detection pattern, the sync word, type-1 writes (TIMER, WBSTAR,
CMD), the IDCODE write, then a type-2 frame-data packet of random words.  Not a loadable bitstream: what zk-flash
checks (sync word, IDCODE) and what it must carry unchanged (every byte)."""
from __future__ import annotations

import random
import struct

XCU55N, XCVU9P = 0x04B77093, 0x14B31093


def image(idcode: int, frame_words: int, seed: int = 1) -> bytes:
    r = random.Random(seed)
    words = [0xFFFFFFFF] * 8 + [0x000000BB, 0x11220044, 0xFFFFFFFF, 0xFFFFFFFF, 0xAA995566, 0x20000000,
                                0x30022001, 0x00000000, 0x30020001, 0x00000000, 0x30008001, 0x00000000,
                                0x20000000, 0x30018001, idcode, 0x30008001, 0x00000001, 0x30004000,
                                0x50000000 | frame_words]
    words += [r.getrandbits(32) for _ in range(frame_words)]
    words += [0x30008001, 0x0000000D, 0x20000000, 0x20000000]  # DESYNC
    return struct.pack(f">{len(words)}I", *words)
