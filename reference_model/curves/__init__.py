"""Elliptic-curve models: generic short Weierstrass arithmetic, BLS12-377 G1 and its a = -1 twisted Edwards form,
and the precomputed operands and mixed addition exactly as the MSM hardware computes them.

    from reference_model.curves import G1, TE, HW
    TE.to_edwards(P); HW.precompute(TE.to_edwards(P)); mixed_add(FQ, S, Q)
"""
from .bls12_377 import FQ, FR, G1
from .precomputed import MIXED_ADD_SCHEDULE, HardwarePoints, mixed_add
from .twisted_edwards import EdwardsForm, NoEdwardsImage
from .weierstrass import WeierstrassCurve, sqrt_mod

TE = EdwardsForm.of(G1, alpha=-1)   # x^3 + 1 = 0 at x = -1
HW = HardwarePoints(TE)

__all__ = ["FQ", "FR", "G1", "TE", "HW", "MIXED_ADD_SCHEDULE", "EdwardsForm", "HardwarePoints", "NoEdwardsImage",
           "WeierstrassCurve", "mixed_add", "sqrt_mod"]
