"""Elliptic-curve models: generic short Weierstrass arithmetic, BLS12-377 G1 and its a = -1 twisted Edwards form,
and the precomputed operands and mixed addition exactly as the MSM hardware computes them; BN254 and BLS12-381 G1
and the XYZZ bucket addition of the Weierstrass adder (xyzz.py).  CURVES maps the MSM's curve names (zk-msm's
--curve) to their G1.

    from reference_model.curves import G1, TE, HW
    TE.to_edwards(P); HW.precompute(TE.to_edwards(P)); mixed_add(FQ, S, Q)
"""
from .bls12_377 import FQ, FR, G1
from .precomputed import MIXED_ADD_SCHEDULE, HardwarePoints, mixed_add
from .twisted_edwards import EdwardsForm, NoEdwardsImage
from .weierstrass import WeierstrassCurve, sqrt_mod
from . import xyzz
from .adders import ADDERS, TwistedEdwardsAdder, XyzzAdder, adder_of

TE = ADDERS["bls12_377"].te   # alpha = -1: x^3 + 1 = 0 at x = -1
HW = ADDERS["bls12_377"].hw
CURVES = {name: a.curve for name, a in ADDERS.items()}

__all__ = ["FQ", "FR", "G1", "TE", "HW", "MIXED_ADD_SCHEDULE", "EdwardsForm", "HardwarePoints", "NoEdwardsImage",
           "WeierstrassCurve", "mixed_add", "sqrt_mod", "CURVES", "xyzz", "ADDERS", "TwistedEdwardsAdder", "XyzzAdder",
           "adder_of"]
