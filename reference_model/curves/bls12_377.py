"""BLS12-377 G1: y^2 = x^3 + 1 over Fq (377 bits), subgroup order r (253 bits), the curve of the ZPrize MSM."""
from __future__ import annotations

from ..field import get
from .weierstrass import WeierstrassCurve

FQ = get("bls12_377_fq")
FR = get("bls12_377_fr")

G1 = WeierstrassCurve(
    name="bls12_377_g1",
    field=FQ,
    a=0,
    b=1,
    order=FR.p,
    cofactor=0x170B5D44300000000000000000000000,  # (z - 1)^2 / 3 with z = 0x8508c00000000001
    generator=(
        0x008848DEFE740A67C8FC6225BF87FF5485951E2CAA9D41BB188282C8BD37CB5CD5481512FFCD394EEAB9B16EB21BE9EF,
        0x01914A69C5102EFF1F674F5D30AFEEC4BD7FB348CA3E52D96D182AD44FB82305C2FE3D3634A9591AFD82DE55559C8EA6,
    ),
)
