"""Keccak-f[1600], the SHA-3/SHAKE sponge and the SNAP hls_sponge test_speed checksum (FIPS 202).

Mirrors hw/src/zkspinal/keccak: KeccakF1600 (keccak_f1600, keccak_round), KeccakSpongeAxis (sponge, MODES,
sponge_header) and KeccakSpeed (test_speed, checksum, selected_runs).  The state is 25 little-endian 64-bit
lanes, lane (x, y) at index x + 5*y, as in FIPS 202 section 3.1.2 and in tiny_sha3.
"""
from __future__ import annotations

from dataclasses import dataclass

MASK64 = (1 << 64) - 1
ROUNDS = 24


def _rc_bit(t: int) -> int:
    """rc(t) of FIPS 202 Algorithm 5: the LFSR x^8 + x^6 + x^5 + x^4 + 1 stepped t times from 1."""
    if t % 255 == 0:
        return 1
    r = 1
    for _ in range(t % 255):
        r <<= 1
        if r & 0x100:
            r ^= 0x171
    return r & 1


def _round_constant(ir: int) -> int:
    """RC of round ir (Algorithm 6): bit 2^j - 1 is rc(j + 7 ir) for j = 0..6."""
    rc = 0
    for j in range(7):
        rc |= _rc_bit(j + 7 * ir) << ((1 << j) - 1)
    return rc


def _rotation_offsets() -> list[int]:
    """rho offsets (section 3.2.2): lane (x, y) visited at step t rotates by (t+1)(t+2)/2 mod 64."""
    off = [0] * 25
    x, y = 1, 0
    for t in range(24):
        off[x + 5 * y] = ((t + 1) * (t + 2) // 2) % 64
        x, y = y, (2 * x + 3 * y) % 5
    return off


ROUND_CONSTANTS = [_round_constant(i) for i in range(ROUNDS)]
RHO = _rotation_offsets()
# pi (section 3.2.3): A'[x, y] = A[(x + 3y) mod 5, x]; PI_SRC[dst] is the source lane of lane dst
PI_SRC = [((x + 3 * y) % 5) + 5 * x for y in range(5) for x in range(5)]


def _rotl(v: int, n: int) -> int:
    return ((v << n) | (v >> (64 - n))) & MASK64 if n else v


def keccak_round(a: list[int], ir: int) -> list[int]:
    """Rnd(A, ir) = iota(chi(pi(rho(theta(A)))), ir)."""
    c = [a[x] ^ a[x + 5] ^ a[x + 10] ^ a[x + 15] ^ a[x + 20] for x in range(5)]
    d = [c[(x - 1) % 5] ^ _rotl(c[(x + 1) % 5], 1) for x in range(5)]
    t = [a[i] ^ d[i % 5] for i in range(25)]
    b = [_rotl(t[PI_SRC[i]], RHO[PI_SRC[i]]) for i in range(25)]
    out = [b[i] ^ ((~b[(i % 5 + 1) % 5 + 5 * (i // 5)] & MASK64) & b[(i % 5 + 2) % 5 + 5 * (i // 5)])
           for i in range(25)]
    out[0] ^= ROUND_CONSTANTS[ir]
    return out


def keccak_f1600(state: list[int], rounds: range | None = None) -> list[int]:
    """Keccak-f[1600] (24 rounds) on 25 lanes; `rounds` selects a sub-range (the hardware's partial steps)."""
    assert len(state) == 25 and all(0 <= v <= MASK64 for v in state)
    a = list(state)
    for ir in rounds if rounds is not None else range(ROUNDS):
        a = keccak_round(a, ir)
    return a


# ----------------------------------------------------------------------------------------------- sponge
@dataclass(frozen=True)
class Mode:
    code: int  # the mode byte of KeccakSpongeAxis's header beat
    name: str
    rate: int  # bytes
    suffix: int  # domain separation bits and the first padding bit (SHA3: 01 then 1; SHAKE: 1111 then 1)
    digest: int | None  # bytes; None: extendable output, length given per message


MODES = {m.name: m for m in [
    Mode(0, "sha3_224", 144, 0x06, 28),
    Mode(1, "sha3_256", 136, 0x06, 32),
    Mode(2, "sha3_384", 104, 0x06, 48),
    Mode(3, "sha3_512", 72, 0x06, 64),
    Mode(4, "shake_128", 168, 0x1F, None),
    Mode(5, "shake_256", 136, 0x1F, None),
]}
MODE_BY_CODE = {m.code: m for m in MODES.values()}


def _xor_bytes_into(state: list[int], block: bytes) -> None:
    for i in range(0, len(block), 8):
        state[i // 8] ^= int.from_bytes(block[i:i + 8], "little")


def pad(msg: bytes, rate: int, suffix: int) -> bytes:
    """pad10*1 with the domain suffix: msg || suffix-bits || 0* || 1, a whole number of blocks."""
    padded = bytearray(msg)
    padded.append(suffix)
    padded.extend(b"\x00" * (-len(padded) % rate))
    padded[-1] |= 0x80
    return bytes(padded)


def sponge(msg: bytes, rate: int, suffix: int, out_len: int) -> bytes:
    """Absorb the padded message block by block, then squeeze out_len bytes (one permutation per rate)."""
    state = [0] * 25
    padded = pad(msg, rate, suffix)
    for off in range(0, len(padded), rate):
        _xor_bytes_into(state, padded[off:off + rate])
        state = keccak_f1600(state)
    out = bytearray()
    while True:
        lanes = b"".join(v.to_bytes(8, "little") for v in state)
        out += lanes[:rate]
        if len(out) >= out_len:
            return bytes(out[:out_len])
        state = keccak_f1600(state)


def digest(mode: str, msg: bytes, out_len: int | None = None) -> bytes:
    m = MODES[mode]
    n = m.digest if m.digest is not None else out_len
    if n is None or n < 1:
        raise ValueError(f"{mode} needs an output length >= 1")
    return sponge(msg, m.rate, m.suffix, n)


def sha3_224(msg: bytes) -> bytes: return digest("sha3_224", msg)
def sha3_256(msg: bytes) -> bytes: return digest("sha3_256", msg)
def sha3_384(msg: bytes) -> bytes: return digest("sha3_384", msg)
def sha3_512(msg: bytes) -> bytes: return digest("sha3_512", msg)
def shake_128(msg: bytes, n: int) -> bytes: return digest("shake_128", msg, n)
def shake_256(msg: bytes, n: int) -> bytes: return digest("shake_256", msg, n)


def sponge_header(mode_code: int, out_len: int = 0) -> bytes:
    """KeccakSpongeAxis header beat: byte 0 mode code, bytes 1-3 reserved (0), bytes 4-7 the SHAKE output
    length in bytes (little-endian; ignored by the SHA3 modes)."""
    return bytes([mode_code & 0xFF, 0, 0, 0]) + (out_len & 0xFFFFFFFF).to_bytes(4, "little")


# Error codes of KeccakSpongeAxis's error packet (TDATA of its single beat, TUSER = 1); bits may combine.
ERR_BAD_MODE = 1  # mode byte not in MODE_BY_CODE
ERR_BAD_KEEP = 2  # header TKEEP not 0xFF, TKEEP not 0xFF before TLAST, or TKEEP not 2^k - 1 on the last beat
ERR_BAD_LENGTH = 4  # SHAKE output length 0


# ------------------------------------------------------------------------------------ SNAP test_speed
def test_speed(run_number: int, nb_rounds: int) -> int:
    """hls_sponge test_speed: lanes st[i] = i + run, Keccak-f[1600] nb_rounds times, 64-bit sum of the lanes."""
    st = [(i + run_number) & MASK64 for i in range(25)]
    for _ in range(nb_rounds):
        st = keccak_f1600(st)
    return sum(st) & MASK64


def selected_runs(nb_test_runs: int, nb_elmts: int, freq: int) -> list[int]:
    """The runs whose test_speed enters the checksum: nb_elmts > run % freq."""
    if freq <= 0:
        raise ValueError("freq must be >= 1")
    return [r for r in range(nb_test_runs) if nb_elmts > r % freq]


def checksum(nb_rounds: int, nb_test_runs: int, nb_elmts: int, freq: int) -> int:
    """XOR of test_speed(run) over the selected runs (the action's chk_out)."""
    x = 0
    for r in selected_runs(nb_test_runs, nb_elmts, freq):
        x ^= test_speed(r, nb_rounds)
    return x
