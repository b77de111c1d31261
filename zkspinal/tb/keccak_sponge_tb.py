"""Testbench for KeccakSpongeAxis (hw/src/zkspinal/keccak/KeccakSpongeAxis.scala): messages through cocotbext-axi
AXI4-Stream source and sink, digests against hashlib (and the model), error packets for malformed input."""
from __future__ import annotations

import hashlib
import json
import os
import random

import cocotb
from cocotb.triggers import ClockCycles, RisingEdge, with_timeout
from cocotbext.axi import AxiStreamFrame

from reference_model import keccak as K
from zkspinal.tb.base import Tb

HASHLIB = {"sha3_224": hashlib.sha3_224, "sha3_256": hashlib.sha3_256, "sha3_384": hashlib.sha3_384,
           "sha3_512": hashlib.sha3_512, "shake_128": hashlib.shake_128, "shake_256": hashlib.shake_256}


def env_int(name: str, default: int) -> int:
    return int(os.environ.get(name, default))


def expected(mode: str, msg: bytes, out_len: int) -> bytes:
    """hashlib's digest (the independent reference), cross-checked with the model."""
    m = K.MODES[mode]
    ref = HASHLIB[mode](msg).digest(out_len) if m.digest is None else HASHLIB[mode](msg).digest()
    assert ref == K.digest(mode, msg, out_len), f"model disagrees with hashlib on {mode} len {len(msg)}"
    return ref


class Message:
    """One input packet and the output packet it must produce."""

    def __init__(self, mode: str | int, msg: bytes, out_len: int = 0, tkeep: list[int] | None = None,
                 error: int = 0, label: str = ""):
        code = K.MODES[mode].code if isinstance(mode, str) else mode
        self.label = label or f"{mode} len {len(msg)} out {out_len}"
        self.frame = AxiStreamFrame(K.sponge_header(code, out_len) + msg, tkeep=tkeep)
        self.error = error
        self.want = error.to_bytes(8, "little") if error else expected(mode, msg, out_len)

    @classmethod
    def malformed(cls, data: bytes, tkeep: list[int], error: int, label: str) -> "Message":
        """A hand-made packet (header included) that must produce the error packet `error`."""
        m = cls(0xFF, b"", error=error, label=label)
        m.frame = AxiStreamFrame(data, tkeep=tkeep)
        return m


class SpongeTb(Tb):
    def __init__(self, dut, throttle: float = 0.0):
        super().__init__(dut, throttle)
        self.source = self.axis_source("s_axis")
        self.sink = self.axis_sink("m_axis")
        self.protocol_errors: list[str] = []

    async def start(self):
        await super().start()
        cocotb.start_soon(self._check_output_protocol())

    async def _check_output_protocol(self):
        """AXI4-Stream rules on m_axis: once valid, valid and the beat stay until accepted; TKEEP contiguous."""
        d = self.dut
        held = None
        while True:
            await RisingEdge(d.aclk)
            valid, ready = int(d.m_axis_tvalid.value), int(d.m_axis_tready.value)
            beat = (int(d.m_axis_tdata.value), int(d.m_axis_tkeep.value), int(d.m_axis_tlast.value),
                    int(d.m_axis_tuser.value)) if valid else None
            if held is not None and beat != held:
                self.protocol_errors.append(f"beat {held} changed to {beat} before it was accepted")
            if valid and beat[1] & (beat[1] + 1):
                self.protocol_errors.append(f"non-contiguous TKEEP {beat[1]:#x} on the output")
            held = beat if valid and not ready else None

    async def run(self, messages: list[Message], timeout_cycles: int) -> tuple[int, int]:
        """Sends every message back to back, checks every output packet in order; returns (cycles, error packets)."""
        t0 = cocotb.utils.get_sim_time("ns")
        for m in messages:
            await self.source.send(m.frame)
        for i, m in enumerate(messages):
            frame = await with_timeout(self.sink.recv(), timeout_cycles * 4, "ns")
            got = bytes(frame.tdata)
            user = frame.tuser if isinstance(frame.tuser, int) else set(frame.tuser)
            want_user = 0xFF if m.error else 0
            assert got == m.want and user == want_user, (
                f"message {i} ({m.label}): got {got.hex()} tuser {user}, expected {m.want.hex()} tuser {want_user}")
        assert not self.protocol_errors, self.protocol_errors[:5]
        cycles = int((cocotb.utils.get_sim_time("ns") - t0) / 4)
        errors = sum(1 for m in messages if m.error)
        await ClockCycles(self.dut.aclk, 2)
        return cycles, errors


def length_messages(r: random.Random) -> list[Message]:
    """Per mode: message lengths 0, 1, 7, 8, 9, rate-1, rate, rate+1, multi-block and a random one; SHAKE
    output lengths 1, 7, 8, rate-1, rate, rate+1 and several blocks."""
    out = []
    for name, m in K.MODES.items():
        rate = m.rate
        lengths = [0, 1, 7, 8, 9, rate - 1, rate, rate + 1, 2 * rate - 1, 2 * rate, 3 * rate + 5, r.randrange(600)]
        outs = [32] if m.digest else [1, 7, 8, rate - 1, rate, rate + 1, 2 * rate + 3, 3 * rate]
        for i, n in enumerate(lengths):
            out.append(Message(name, r.randbytes(n), outs[i % len(outs)]))
    return out


def mixed_messages(r: random.Random, count: int) -> list[Message]:
    names = list(K.MODES)
    out = []
    for _ in range(count):
        name = r.choice(names)
        rate = K.MODES[name].rate
        n = r.choice([0, r.randrange(1, 9), rate - 1, rate, rate + 1, r.randrange(4 * rate)])
        out.append(Message(name, r.randbytes(n), r.randrange(1, 3 * rate)))
    return out


def bad_messages(r: random.Random) -> list[Message]:
    """Malformed packets, each with the error code it must produce."""
    def keep_list(msg_len: int, beat: int, keep: int) -> list[int]:
        """TKEEP per byte for header + msg, with `keep` on message beat `beat` (1-based after the header)."""
        total = 8 + msg_len + (-msg_len % 8)
        keeps = [1] * (8 + msg_len) + [0] * (-msg_len % 8)
        base = 8 * beat
        for b in range(8):
            keeps[base + b] = (keep >> b) & 1
        return keeps[:total]

    def padded(msg: bytes) -> bytes:
        return msg + bytes(-len(msg) % 8)

    B = K.ERR_BAD_KEEP
    msgs = [
        Message(6, r.randbytes(20), 32, error=K.ERR_BAD_MODE, label="mode 6"),
        Message(0xFF, b"", 32, error=K.ERR_BAD_MODE, label="mode 0xff, empty"),
        Message(7, r.randbytes(400), 32, error=K.ERR_BAD_MODE, label="mode 7, long"),
        Message("shake_128", r.randbytes(10), 0, error=K.ERR_BAD_LENGTH, label="shake length 0"),
        Message("shake_256", b"", 0, error=K.ERR_BAD_LENGTH, label="shake length 0, empty"),
    ]
    # header TKEEP partial (TLAST on it) and a bad mode with a bad header TKEEP (codes combine)
    msgs.append(Message.malformed(K.sponge_header(1), [1] * 5 + [0] * 3, B, "header keep 0x1f"))
    msgs.append(Message.malformed(K.sponge_header(9) + r.randbytes(16), [1] * 7 + [0] + [1] * 16,
                                  K.ERR_BAD_MODE | B, "mode 9 + header keep 0x7f"))
    # TKEEP not 0xFF before TLAST (first beat, after two whole sha3_512 blocks were absorbed, a null beat)
    for msg_len, beat, keep in [(24, 1, 0x0F), (200, 19, 0xFE), (40, 2, 0x00)]:
        msg = r.randbytes(msg_len)
        msgs.append(Message.malformed(K.sponge_header(3) + padded(msg), keep_list(msg_len, beat, keep), B,
                                      f"keep {keep:#04x} on beat {beat} of {msg_len}"))
    # non-contiguous TKEEP on the TLAST beat
    for keep in [0x05, 0x80, 0xFD]:
        msgs.append(Message.malformed(K.sponge_header(5, 64) + r.randbytes(16),
                                      [1] * 16 + [(keep >> b) & 1 for b in range(8)], B, f"last keep {keep:#04x}"))
    return msgs


def null_last_beat(r: random.Random) -> Message:
    """A valid packet whose TLAST beat has TKEEP = 0 (zero message bytes on it)."""
    msg = r.randbytes(16)
    m = Message("sha3_224", msg, label="null TLAST beat")
    m.frame = AxiStreamFrame(K.sponge_header(0) + msg + bytes(8), tkeep=[1] * 24 + [0] * 8)
    return m


def timeout_for(messages: list[Message]) -> int:
    blocks = sum(len(m.frame.tdata) // 64 + 4 + len(m.want) // 64 for m in messages)
    return 400 * blocks + 20_000


@cocotb.test()
async def cocotb_lengths_throttled(dut):
    """Every mode at the block-boundary lengths, random pauses on both ports."""
    tb = SpongeTb(dut, throttle=0.3)
    await tb.start()
    msgs = length_messages(tb.r)
    _, _ = await tb.run(msgs, timeout_for(msgs))
    assert int(dut.status_messages.value) == len(msgs) and int(dut.status_errors.value) == 0
    dut._log.info(f"{len(msgs)} messages match hashlib")


@cocotb.test()
async def cocotb_bad_input(dut):
    """Malformed packets interleaved with good ones: one error packet each, the good digests unaffected."""
    tb = SpongeTb(dut, throttle=0.2)
    await tb.start()
    msgs = mixed_messages(tb.r, 12) + [null_last_beat(tb.r)]
    for b in bad_messages(tb.r):
        msgs.insert(tb.r.randrange(len(msgs) + 1), b)
    _, errors = await tb.run(msgs, timeout_for(msgs))
    assert int(dut.status_errors.value) == errors, f"status_errors {int(dut.status_errors.value)} != {errors}"
    assert int(dut.status_messages.value) == len(msgs) - errors
    dut._log.info(f"{errors} malformed packets answered with error packets among {len(msgs)}")


@cocotb.test()
async def cocotb_back_to_back(dut):
    """Mixed modes back to back at full rate; reports cycles per absorbed block."""
    tb = SpongeTb(dut)
    await tb.start()
    msgs = mixed_messages(tb.r, env_int("ZK_MESSAGES", 40))
    cycles, _ = await tb.run(msgs, timeout_for(msgs))
    # long single-mode messages: absorb throughput in cycles per block
    rate = K.MODES["sha3_256"].rate
    n_blocks = 16
    longs = [Message("sha3_256", tb.r.randbytes(rate * n_blocks - 1)) for _ in range(2)]
    long_cycles, _ = await tb.run(longs, timeout_for(longs))
    per_block = long_cycles / (2 * n_blocks)
    dut._log.info(f"{len(msgs)} mixed messages in {cycles} cycles; sha3_256: {per_block:.1f} cycles per block")
    out = os.environ.get("ZK_BENCH_OUT")
    if out:
        with open(out, "w") as fh:
            json.dump({"top": os.environ["ZK_TOP"], "sha3_256_cycles_per_block": per_block,
                       "bytes_per_cycle": rate / per_block}, fh)
