"""BLS12-381 G1: y^2 = x^3 + 4 over Fq (381 bits), subgroup order r (255 bits, the Poseidon field), odd cofactor:
Filecoin's and Zcash's Groth16 curve and Ethereum's KZG.  No point of order 2, so no twisted Edwards model: the MSM
adds in XYZZ coordinates (reference_model/curves/xyzz.py)."""
from __future__ import annotations

from ..field import get
from .weierstrass import WeierstrassCurve

FQ = get("bls12_381_fq")
FR = get("bls12_381_fr")

G1 = WeierstrassCurve(
    name="bls12_381_g1",
    field=FQ,
    a=0,
    b=4,
    order=FR.p,
    cofactor=0x396C8C005555E1568C00AAAB0000AAAB,
    generator=(
        0x17F1D3A73197D7942695638C4FA9AC0FC3688C4F9774B905A14E3A3F171BAC586C55E83FF97A1AEFFB3AF00ADB22C6BB,
        0x08B3F481E3AAA0F1A09E30ED741D8AE4FCF5E095D5D00AF600DB18CB2C04B3EDD03CC744A2888AE40CAA232946C5E7E1,
    ),
)
