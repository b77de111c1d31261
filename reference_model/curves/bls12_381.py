"""BLS12-381 G1 (y^2 = x^3 + 4): only used to cross-check the generic Weierstrass code against py_ecc."""
from __future__ import annotations

from ..field import FieldConfig, get
from .weierstrass import WeierstrassCurve

FQ = FieldConfig(
    "bls12_381_fq",
    0x1A0111EA397FE69A4B1BA7B6434BACD764774B84F38512BF6730D2A0F6B0F6241EABFFFEB153FFFFB9FEFFFFFFFFAAAB,
)

G1 = WeierstrassCurve(
    name="bls12_381_g1",
    field=FQ,
    a=0,
    b=4,
    order=get("bls12_381_fr").p,
    cofactor=0x396C8C005555E1568C00AAAB0000AAAB,
    generator=(
        0x17F1D3A73197D7942695638C4FA9AC0FC3688C4F9774B905A14E3A3F171BAC586C55E83FF97A1AEFFB3AF00ADB22C6BB,
        0x08B3F481E3AAA0F1A09E30ED741D8AE4FCF5E095D5D00AF600DB18CB2C04B3EDD03CC744A2888AE40CAA232946C5E7E1,
    ),
)
