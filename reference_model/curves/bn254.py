"""BN254 (alt_bn128) G1: y^2 = x^3 + 3 over Fq (254 bits), prime order r (254 bits, cofactor 1): the curve of
Ethereum's pairing precompiles (circom/snarkjs, rapidsnark, gnark, halo2-KZG).  Like BLS12-381 G1 it has no point
of order 2, so the MSM adds in XYZZ coordinates (reference_model/curves/xyzz.py)."""
from __future__ import annotations

from ..field import get
from .weierstrass import WeierstrassCurve

FQ = get("bn254_fq")
FR = get("bn254_fr")

G1 = WeierstrassCurve(name="bn254_g1", field=FQ, a=0, b=3, order=FR.p, cofactor=1, generator=(1, 2))
