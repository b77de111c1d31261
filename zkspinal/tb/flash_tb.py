"""Testbench for FlashCtrl (hw/src/zkspinal/system/FlashCtrl.scala) against the JEDEC flash and ICAPE3 models of
sw/emu/zkflash_model.c (zkspinal/tb/flash_model.py): the host side of the SPI protocol through the AXI4-Lite window
(cocotbext-axi, random pauses on all five channels), the flash on the spi_* pins, ICAPE3 words on icap_*.

Expected flash contents are computed here in Python (AND programming, page wrap, erase) and compared both with
what the controller reads back and with the model's array.
Environment: ZK_FLASH_TIMING_OUT  where flash_timing writes its measured cycle counts (JSON)
"""
from __future__ import annotations

import json
import os

import cocotb
from cocotb.triggers import ClockCycles, FallingEdge

from reference_model import contract as C
from zkspinal.tb.base import Tb
from zkspinal.tb.flash_model import (BYTES_READ, DROPPED, IPROG_SEQUENCE, PAGES, PROTECTED, SECTORS, SUBSECTORS, Flash,
                            Icap)

SIZE, JEDEC = 1 << 20, 0x20BA14  # 1 MiB (capacity code 0x14 = 2^20 bytes), Micron MT25QL-like
# FlashCtrlRegs
CMD, AVAIL, MODE, SCLK, SETUP, HOLD, DISABLE, SS_POL, WRITE_BYTE = (
    C.FLASH_CMD, C.FLASH_AVAIL, C.FLASH_MODE, C.FLASH_SCLK, C.FLASH_SETUP, C.FLASH_HOLD, C.FLASH_DISABLE,
    C.FLASH_SS_POL, C.FLASH_WRITE_BYTE)
WBSTAR, ARM, FIRE, ICAP_STATUS, PINS, ID, INFO, IDCODE = (
    C.FLASH_WBSTAR, C.FLASH_ARM, C.FLASH_FIRE, C.FLASH_ICAP_STATUS, C.FLASH_PINS, C.FLASH_ID, C.FLASH_INFO,
    C.FLASH_IDCODE)
ARM_KEY, FIRE_KEY, ID_VALUE = C.FLASH_ARM_KEY, C.FLASH_FIRE_KEY, C.FLASH_ID_VALUE
SS_ON, SS_OFF, READ = (1 << 11) | 0x80, 1 << 11, 1 << 9
EMPTY = 1 << 31


def _int(v) -> int:
    """pins before the host configured the SPI master may be X (its config registers have no reset): a pull-up"""
    return int(str(v).lower().replace("x", "1").replace("z", "1"), 2)


class FlashTb(Tb):
    def __init__(self, dut, throttle: float = 0.3):
        super().__init__(dut, throttle)
        self.lite()
        self.flash = Flash(SIZE, JEDEC)
        self.icap = Icap()
        self.cycle = 0

    async def start(self, sclk_half: int = 0):
        self.dut.spi_dq_i.value = 0xF
        await super().start()
        cocotb.start_soon(self._pins())
        for addr, v in [(MODE, 0), (SCLK, sclk_half), (SETUP, 1), (HOLD, 1), (DISABLE, 1), (SS_POL, 0)]:
            await self.wr(addr, v)

    async def _pins(self):
        """every cycle: the controller's pins into the models, DQ1 back (DQ0/2/3 pulled up when not driven)"""
        d = self.dut
        while True:
            await FallingEdge(d.aclk)
            self.cycle += 1
            dq, oe = _int(d.spi_dq_o.value), _int(d.spi_dq_oe.value)
            wp_n = (dq >> 2) & 1 if oe & 4 else 1
            miso = self.flash.pins(_int(d.spi_ss_n.value), _int(d.spi_sclk.value), dq & 1 if oe & 1 else 1, wp_n)
            d.spi_dq_i.value = 0xD | (miso << 1)
            self.icap.pins(_int(d.icap_csib.value), _int(d.icap_rdwrb.value), _int(d.icap_i.value))

    async def rd(self, addr: int) -> int:
        return await self.axil.read_dword(addr)

    async def wr(self, addr: int, value: int):
        await self.axil.write_dword(addr, value & 0xFFFFFFFF)

    async def xfer(self, out: bytes, n_in: int = 0) -> bytes:
        """one command: CS# low, `out` bytes, `n_in` bytes read, CS# high; the FIFO's free slots checked first"""
        words = [SS_ON] + [(1 << 8) | b for b in out] + [READ] * n_in + [SS_OFF]
        i = 0
        while i < len(words):
            free = (await self.rd(AVAIL)) & 0x3FF
            for w in words[i:i + free]:
                await self.wr(CMD, w)
            i += free
        if not n_in:  # done when the last command left the FIFO and CS# rose at the pins
            depth = 1 << ((await self.rd(INFO)) & 15)
            while (await self.rd(AVAIL)) & 0x3FF != depth:
                pass
            await ClockCycles(self.dut.aclk, 4)
        got = bytearray()
        while len(got) < n_in:  # pop only what the occupancy (0x004 [25:16]) says is there
            for _ in range((await self.rd(AVAIL)) >> 16 & 0x3FF):
                v = await self.rd(CMD)
                assert not v & EMPTY, "response FIFO empty although its occupancy said otherwise"
                got.append(v & 0xFF)
        return bytes(got)

    async def status(self) -> int:
        return (await self.xfer(b"\x05", 1))[0]

    async def wait_ready(self, limit: int = 2000) -> int:
        for polls in range(1, limit):
            if not await self.status() & 1:
                return polls
        raise AssertionError("flash still busy: a hang")

    async def wren(self):
        await self.xfer(b"\x06")

    async def program(self, addr: int, data: bytes) -> int:
        await self.wren()
        await self.xfer(b"\x02" + addr.to_bytes(3, "big") + data)
        return await self.wait_ready()

    async def erase(self, op: int, addr: int) -> int:
        await self.wren()
        await self.xfer(bytes([op]) + addr.to_bytes(3, "big"))
        return await self.wait_ready()

    async def read(self, addr: int, n: int, fast: bool = False) -> bytes:
        if fast:
            return await self.xfer(b"\x0b" + addr.to_bytes(3, "big") + b"\x00", n)
        return await self.xfer(b"\x03" + addr.to_bytes(3, "big"), n)


def program_expect(mem: bytearray, addr: int, data: bytes):
    """the part's rule: bytes past the page end wrap to its start, programming only clears bits"""
    base = addr & ~255
    for i, b in enumerate(data[-256:] if len(data) > 256 else data):
        at = base + ((addr - base + i) & 255)
        mem[at] &= b


@cocotb.test()
async def flash_id_regs(dut):
    tb = FlashTb(dut)
    await tb.start()
    assert await tb.rd(ID) == ID_VALUE
    info = await tb.rd(INFO)
    assert 1 << C.FLASH_INFO_CMD_DEPTH_LOG2.get(info) >= 260, f"INFO {info:#x}: the command FIFO holds a page program"
    assert not C.FLASH_INFO_STARTUPE3.get(info) and not C.FLASH_INFO_ICAPE3.get(info), \
        f"INFO {info:#x}: the small top has pins and ICAP ports"
    assert await tb.rd(IDCODE) & 0x0FFFFFFF == 0x04B77093
    rdid = await tb.xfer(b"\x9f", 3)
    assert rdid == JEDEC.to_bytes(3, "big"), rdid.hex()
    assert await tb.rd(PINS) == 3


@cocotb.test()
async def flash_program_erase(dut):
    tb = FlashTb(dut)
    await tb.start()
    r = tb.r
    expect = bytearray(b"\xff" * SIZE)
    page = r.randbytes(256)
    await tb.program(0x1000, page)
    program_expect(expect, 0x1000, page)
    tail = r.randbytes(100)  # 64 bytes to 0x11C0..0x11FF, the other 36 wrap to 0x1100
    await tb.program(0x11C0, tail)
    program_expect(expect, 0x11C0, tail)
    again = r.randbytes(256)  # no erase in between: AND
    await tb.program(0x1000, again)
    program_expect(expect, 0x1000, again)
    await tb.program(0x23456, b"\x00\x5a")
    program_expect(expect, 0x23456, b"\x00\x5a")
    assert await tb.read(0x1000, 0x200) == bytes(expect[0x1000:0x1200])
    assert await tb.read(0x10F0, 0x40, fast=True) == bytes(expect[0x10F0:0x1130])
    # 4-byte address mode (B7/E9): the 3-byte opcodes then take 4 address bytes; the 4-byte opcodes always do
    await tb.xfer(b"\xb7")
    assert (await tb.xfer(b"\x70", 1))[0] & 1, "flag status b0: 4-byte mode"
    assert await tb.xfer(b"\x03\x00\x00\x11\xc0", 8) == bytes(expect[0x11C0:0x11C8])
    await tb.xfer(b"\xe9")
    assert not (await tb.xfer(b"\x70", 1))[0] & 1
    assert await tb.xfer(b"\x13\x00\x00\x11\x00", 8) == bytes(expect[0x1100:0x1108])
    assert tb.flash.mem() == bytes(expect)
    await tb.erase(0x20, 0x1234)  # 4 KiB at 0x1000
    expect[0x1000:0x2000] = b"\xff" * 0x1000
    await tb.erase(0xD8, 0x2FFFF)  # 64 KiB at 0x20000
    expect[0x20000:0x30000] = b"\xff" * 0x10000
    assert await tb.read(0xFF8, 0x10) == bytes(expect[0xFF8:0x1008])
    assert await tb.read(0x23450, 0x10) == b"\xff" * 0x10
    assert tb.flash.mem() == bytes(expect)
    assert (tb.flash.count(PAGES), tb.flash.count(SUBSECTORS), tb.flash.count(SECTORS)) == (4, 1, 1)


@cocotb.test()
async def flash_status_polling(dut):
    tb = FlashTb(dut)
    await tb.start()
    assert await tb.status() == 0
    await tb.wren()
    assert await tb.status() == 2  # WEL
    await tb.xfer(b"\x04")
    assert await tb.status() == 0
    await tb.xfer(b"\x02\x00\x00\x00\x12")  # no WREN: dropped
    assert tb.flash.count(DROPPED) == 1 and tb.flash.mem(0, 1) == b"\xff"
    polls = await tb.program(0, b"\x12")
    assert polls >= 2, "the model's busy time was not seen by polling"
    assert await tb.status() == 0 and tb.flash.mem(0, 1) == b"\x12"
    # erase busy is longer than program busy, and the flag status register reports ready after it
    erase_polls = await tb.erase(0x20, 0)
    assert erase_polls > polls
    assert (await tb.xfer(b"\x70", 1))[0] & 0x80


@cocotb.test()
async def flash_write_protect(dut):
    tb = FlashTb(dut)
    await tb.start()
    top = SIZE - 0x10000
    await tb.wren()
    await tb.xfer(b"\x01\x04")  # BP0: the top 64 KiB sector protected
    await tb.wait_ready()
    assert await tb.status() == 0x04
    await tb.program(top + 0x100, b"\x00" * 16)
    assert await tb.status() == 0x06, "a refused program leaves WEL set (MT25Q)"
    await tb.erase(0xD8, top)
    assert await tb.read(top + 0x100, 16) == b"\xff" * 16
    assert tb.flash.count(PROTECTED) == 2
    fsr = (await tb.xfer(b"\x70", 1))[0]
    assert fsr & 0x02, f"flag status {fsr:#x}: no protection error"
    await tb.xfer(b"\x50")
    await tb.program(0x100, b"\x00")  # outside: allowed
    assert await tb.read(0x100, 1) == b"\x00"
    # SRWD with W# low: the status register is frozen (hardware protection)
    await tb.wren()
    await tb.xfer(b"\x01\x84")
    await tb.wait_ready()
    await tb.wr(PINS, 0b10)  # drive W# low
    await tb.wren()
    await tb.xfer(b"\x01\x00")
    assert await tb.status() == 0x84, "WRSR went through with SRWD set and W# low"
    await tb.wr(PINS, 0b11)
    await tb.wren()
    await tb.xfer(b"\x01\x00")
    await tb.wait_ready()
    assert await tb.status() == 0
    await tb.program(top, b"\x00")
    assert await tb.read(top, 1) == b"\x00"


@cocotb.test()
async def icap_guard_and_sequence(dut):
    tb = FlashTb(dut)
    await tb.start()
    await tb.wr(FIRE, FIRE_KEY)  # not armed
    await tb.wr(ARM, 0x12345678)  # wrong key
    await tb.wr(ARM, ARM_KEY)
    await tb.wr(FIRE, ARM_KEY)  # armed, wrong fire key: refused and disarmed
    await tb.wr(FIRE, FIRE_KEY)  # no longer armed
    await tb.wr(ARM, ARM_KEY)
    await tb.wr(WBSTAR, 0x1000)  # WBSTAR frozen while armed: refused, disarms
    await ClockCycles(dut.aclk, 50)
    st = await tb.rd(ICAP_STATUS)
    assert tb.icap.words() == [] and st & 7 == 0, f"ICAP words {tb.icap.words()} status {st:#x}"
    assert (st >> 8) & 0xFF == 5, f"refusals {(st >> 8) & 0xff}"
    assert await tb.rd(WBSTAR) == 0
    await tb.wr(WBSTAR, 0x00080000)
    await tb.wr(ARM, ARM_KEY)
    assert await tb.rd(ARM) == 1
    await tb.wr(FIRE, FIRE_KEY)
    await ClockCycles(dut.aclk, 40)
    want = [0x00080000 if w is None else w for w in IPROG_SEQUENCE]
    assert tb.icap.words() == want, [hex(w) for w in tb.icap.words()]
    assert tb.icap.wbstar() == 0x00080000 and tb.icap.iprogs() == 1
    st = await tb.rd(ICAP_STATUS)
    assert st & 0b1111 == 0b1100 and st >> 16 == 1, f"status {st:#x}"


@cocotb.test()
async def flash_timing(dut):
    """cycles per 256-byte page program and per 256-byte read at SCLK = aclk / 6 (SCLK register 2)"""
    tb = FlashTb(dut, throttle=0.0)
    await tb.start(sclk_half=2)
    data = tb.r.randbytes(256)
    await tb.wren()
    c0 = tb.cycle
    await tb.xfer(b"\x02\x00\x10\x00" + data)
    pp = tb.cycle - c0
    await tb.wait_ready()
    c0 = tb.cycle
    got = await tb.read(0x1000, 256)
    rd = tb.cycle - c0
    # SCLK falls once more after the last byte: the part starts shifting out the next one (257)
    assert got == data and tb.flash.count(BYTES_READ) == 257
    figures = {"sclk_half_period_cycles": 3, "page_program_cycles": pp, "page_read_cycles": rd}
    dut._log.info(f"flash timing: {figures}")
    out = os.environ.get("ZK_FLASH_TIMING_OUT")
    if out:
        with open(out, "w") as f:
            json.dump(figures, f)
