"""ctypes view of sw/emu/zkflash_model.c (built as sw/build/libzkflash.so): the JEDEC SPI NOR flash and the ICAPE3
recorder that the XDMA emulator links into its harness, so that cocotb and the emulator test against one model."""
from __future__ import annotations

import ctypes

from zkspinal.paths import SW

LIB = SW / "build" / "libzkflash.so"

# counters (zkflash_count)
COMMANDS, PAGES, SUBSECTORS, SECTORS, PROTECTED, BUSY_IGNORED, DROPPED, BYTES_READ = range(8)
# IPROG through ICAPE3, UG570 "IPROG Using ICAP" (WBSTAR value at index 4)
IPROG_SEQUENCE = [0xFFFFFFFF, 0xAA995566, 0x20000000, 0x30020001, None, 0x30008001, 0x0000000F, 0x20000000]


def _lib() -> ctypes.CDLL:
    lib = ctypes.CDLL(str(LIB))
    P, U32, U8 = ctypes.c_void_p, ctypes.c_uint32, ctypes.c_uint8
    for name, res, args in [
        ("zkflash_new", P, [U32, U32]), ("zkflash_free", None, [P]), ("zkflash_set_busy", None, [P, U32, U32, U32, U32]),
        ("zkflash_add_stuck", ctypes.c_int, [P, U32, U8]), ("zkflash_mem", ctypes.POINTER(U8), [P]),
        ("zkflash_size", U32, [P]), ("zkflash_status", U8, [P]), ("zkflash_set_status", None, [P, U8]),
        ("zkflash_pins", ctypes.c_int, [P, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_int]),
        ("zkflash_count", ctypes.c_uint64, [P, ctypes.c_int]),
        ("zkicap_new", P, []), ("zkicap_free", None, [P]), ("zkicap_pins", ctypes.c_int, [P, ctypes.c_int, ctypes.c_int, U32]),
        ("zkicap_words", U32, [P]), ("zkicap_word", U32, [P, U32]), ("zkicap_wbstar", U32, [P]),
        ("zkicap_iprogs", U32, [P]), ("zkicap_bitswap", U32, [U32]),
    ]:
        f = getattr(lib, name)
        f.restype, f.argtypes = res, args
    return lib


class Flash:
    def __init__(self, size: int, jedec: int, busy=(300, 1500, 3000, 100)):
        self.lib = _lib()
        self.h = self.lib.zkflash_new(size, jedec)
        assert self.h, f"bad flash size {size}"
        self.size = size
        self.lib.zkflash_set_busy(self.h, *busy)

    def pins(self, cs_n: int, sclk: int, dq0: int, wp_n: int) -> int:
        return self.lib.zkflash_pins(self.h, cs_n, sclk, dq0, wp_n)

    def mem(self, addr: int = 0, n: int | None = None) -> bytes:
        n = self.size - addr if n is None else n
        return ctypes.string_at(ctypes.addressof(self.lib.zkflash_mem(self.h).contents) + addr, n)

    def count(self, which: int) -> int:
        return self.lib.zkflash_count(self.h, which)

    def status(self) -> int:
        return self.lib.zkflash_status(self.h)

    def stuck(self, addr: int, mask: int):
        assert self.lib.zkflash_add_stuck(self.h, addr, mask) == 0

    def close(self):
        self.lib.zkflash_free(self.h)


class Icap:
    def __init__(self):
        self.lib = _lib()
        self.h = self.lib.zkicap_new()

    def pins(self, csib: int, rdwrb: int, data: int) -> int:
        return self.lib.zkicap_pins(self.h, csib, rdwrb, data)

    def words(self) -> list[int]:
        return [self.lib.zkicap_word(self.h, i) for i in range(min(256, self.lib.zkicap_words(self.h)))]

    def wbstar(self) -> int:
        return self.lib.zkicap_wbstar(self.h)

    def iprogs(self) -> int:
        return self.lib.zkicap_iprogs(self.h)

    def close(self):
        self.lib.zkicap_free(self.h)
