"""Hash types (domain separation): the domain tag in lane 0 of the initial state and the preimage layout.

Initial state = [tag, preimage..., zero padding], width t = arity + 1; the digest is lane 1 after the permutation.
  MerkleTree          tag 2^arity - 1                 preimage of exactly `arity` elements (Filecoin's default)
  ConstantLength(L)   tag L * 2^64, 1 <= L <= arity    L elements, then arity - L zeros
  Encryption          tag 2^32                        `arity` elements
  Custom(id)          tag id * 2^40, 1 <= id <= 256   `arity` elements
  Sponge              tag 0                           `arity` elements
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class HashType:
    kind: str                 # merkle | constant | encryption | custom | sponge
    value: int = 0            # L for constant, id for custom

    KINDS = ("merkle", "constant", "encryption", "custom", "sponge")

    def __post_init__(self):
        if self.kind not in self.KINDS:
            raise ValueError(f"hash type must be one of {', '.join(self.KINDS)}, not {self.kind!r}")
        if self.kind == "custom" and not 1 <= self.value <= 256:
            raise ValueError(f"custom domain id must be 1..256, not {self.value}")
        if self.kind == "constant" and self.value < 1:
            raise ValueError(f"constant length must be at least 1, not {self.value}")

    def tag(self, arity: int) -> int:
        return {
            "merkle": (1 << arity) - 1,
            "constant": self.value << 64,
            "encryption": 1 << 32,
            "custom": self.value << 40,
            "sponge": 0,
        }[self.kind]

    def preimage_length(self, arity: int) -> int:
        if self.kind == "constant":
            if self.value > arity:
                raise ValueError(f"constant length {self.value} exceeds the arity {arity}")
            return self.value
        return arity

    def initial_state(self, preimage, arity: int) -> list[int]:
        n = self.preimage_length(arity)
        if len(preimage) != n:
            raise ValueError(f"{self} takes {n} elements, got {len(preimage)}")
        return [self.tag(arity), *preimage] + [0] * (arity - n)

    def __str__(self) -> str:
        return {"constant": f"ConstantLength({self.value})", "custom": f"Custom({self.value})"}.get(
            self.kind, {"merkle": "MerkleTree", "encryption": "Encryption", "sponge": "Sponge"}.get(self.kind, ""))


MERKLE = HashType("merkle")


def MerkleTree() -> HashType:
    return MERKLE


def ConstantLength(length: int) -> HashType:
    return HashType("constant", length)


def Encryption() -> HashType:
    return HashType("encryption")


def Custom(ident: int) -> HashType:
    return HashType("custom", ident)


def Sponge() -> HashType:
    return HashType("sponge")
