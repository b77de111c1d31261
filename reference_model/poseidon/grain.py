"""Poseidon round constants from the Grain LFSR (Poseidon paper, appendix F; Filecoin's instance).

The 80-bit LFSR starts from the instance encoding, most significant bit first:
  field type (2 bits: 1 = prime field) | S-box (4 bits: 1 = x^5) | field size in bits (12) | t (12) | R_F (10)
  | R_P (10) | thirty 1-bits.
Each step computes b = s[0] ^ s[13] ^ s[23] ^ s[38] ^ s[51] ^ s[62], drops s[0] and appends b.  The first 160
outputs are discarded.  Afterwards outputs are taken in pairs (b1, b2): b2 is kept when b1 = 1.  The first
`field bits` kept bits, most significant first, form a candidate; candidates >= p are dropped.  Round r of the
plain permutation uses constants r*t .. r*t + t - 1.
"""
from __future__ import annotations

TAPS = (0, 13, 23, 38, 51, 62)


def _append(bits: list[int], width: int, value: int) -> None:
    bits.extend((value >> i) & 1 for i in range(width - 1, -1, -1))


class Grain:
    """The LFSR state as an int: sequence position i (0 = oldest bit) is integer bit i."""

    def __init__(self, field_bits: int, t: int, r_f: int, r_p: int, field_type: int = 1, sbox: int = 1):
        seq: list[int] = []
        _append(seq, 2, field_type)
        _append(seq, 4, sbox)
        _append(seq, 12, field_bits)
        _append(seq, 12, t)
        _append(seq, 10, r_f)
        _append(seq, 10, r_p)
        _append(seq, 30, (1 << 30) - 1)
        assert len(seq) == 80
        self.state = sum(b << i for i, b in enumerate(seq))
        for _ in range(160):
            self.step()

    def step(self) -> int:
        s = self.state
        b = ((s >> 0) ^ (s >> 13) ^ (s >> 23) ^ (s >> 38) ^ (s >> 51) ^ (s >> 62)) & 1
        self.state = (s >> 1) | (b << 79)
        return b

    def next_kept_bit(self) -> int:
        """The self-shrinking output: draw pairs until the first bit of a pair is 1, return its second bit."""
        while True:
            b1 = self.step()
            b2 = self.step()
            if b1:
                return b2

    def next_candidate(self, field_bits: int) -> int:
        x = 0
        for _ in range(field_bits):
            x = (x << 1) | self.next_kept_bit()
        return x


def round_constants(p: int, t: int, r_f: int, r_p: int) -> list[int]:
    """The t*(R_F + R_P) round constants, round-major, canonical (< p)."""
    n = p.bit_length()
    g = Grain(n, t, r_f, r_p)
    out: list[int] = []
    while len(out) < t * (r_f + r_p):
        c = g.next_candidate(n)
        if c < p:
            out.append(c)
    return out
