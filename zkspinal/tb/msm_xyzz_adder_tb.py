"""Testbench for XyzzAdder (hw/src/zkspinal/msm/XyzzAdder.scala): bucket additions B +- Q against
reference_model.curves.adders.XyzzAdder (xyzz.bucket_add in the Montgomery domain) bit for bit, one result per
accepted input, in order, `latency` cycles later.

Operands: buckets of random G1 points in random XYZZ scalings, point records (x, y, 3x^2), and every special case
of the adder: load (a bucket at infinity, also one left by a cancellation), double (the point equals the bucket,
either sign), cancel (the point is minus the bucket); plus raw field values (0, 1, p - 1, 2^n - 1 clipped below p,
random: the data path is defined on any reduced values, so the model of the formulas is).  The input is a Flow (no
ready): valid is dropped at random (ZK_ADDER_GAP); every output cycle is checked against the expected latency.
Environment: ZK_ADDER_COUNT (random additions), ZK_ADDER_GAP (probability of an idle cycle).
"""
from __future__ import annotations

import os
import random

import cocotb

from reference_model.curves import ADDERS
from zkspinal.sim.simrun import top_info
from zkspinal.tb.base import start_flow
from zkspinal.tb.bucket_adder import drive_and_check

CURVE_OF_TOP = {"bn254_g1": "bn254", "bls12_381_g1": "bls12_381"}


def operands(A, r: random.Random, count: int) -> list[tuple]:
    """(bucket, record, negate) triples: the special cases first, then random ones"""
    C, f = A.curve, A.field
    p = C.p

    def point():
        return C.mul(C.generator, r.randrange(1, C.order))

    def bucket(P):
        """P in XYZZ with a random Z, Montgomery words"""
        z = r.randrange(1, p)
        return tuple(f.to_mont(v) for v in (P[0] * z * z % p, P[1] * z ** 3 % p, z * z % p, z ** 3 % p))

    pts = [point() for _ in range(6)]
    P = pts[0]
    cases = [
        (A.identity_bucket, A.record(P), False),                    # load
        (A.identity_bucket, A.record(P), True),                     # load of -P
        (bucket(P), A.record(P), False),                            # double
        (bucket(C.neg(P)), A.record(P), True),                      # double of -P
        (bucket(P), A.record(P), True),                             # cancel
        (bucket(C.neg(P)), A.record(P), False),                     # cancel
        (bucket(pts[1]), A.record(pts[2]), False),                  # add
        (bucket(pts[1]), A.record(pts[2]), True),
    ]
    # a bucket left at infinity by a cancellation (X, Y not zero) loads
    cancelled = A.add(bucket(P), A.record(P), negate=True)
    cases.append((cancelled, A.record(pts[3]), False))
    edge = [0, 1, 2, p - 1, p - 2, p >> 1, f.to_mont(1), min((1 << f.n) - 1, p - 3)]
    for _ in range(16):
        cases.append((tuple(r.choice(edge) for _ in range(4)), tuple(r.choice(edge) for _ in range(3)), r.random() < 0.5))
    while len(cases) < count:
        if r.random() < 0.75:
            B, Q = bucket(r.choice(pts)), A.record(r.choice(pts))
        else:
            B, Q = tuple(r.randrange(p) for _ in range(4)), tuple(r.randrange(p) for _ in range(3))
        cases.append((B, Q, r.random() < 0.5))
    return cases


@cocotb.test()
async def adder_vs_model(dut):
    r = random.Random(cocotb.RANDOM_SEED)
    info = top_info(os.environ["ZK_TOP"])
    A = ADDERS[CURVE_OF_TOP[info["curve"]]]
    latency = info["latency"]
    count = int(os.environ.get("ZK_ADDER_COUNT", "200"))
    gap = float(os.environ.get("ZK_ADDER_GAP", "0.3"))
    cases = operands(A, r, count)
    met = {A.add_raw_case(B, Q, neg)[1] for B, Q, neg in cases}
    await start_flow(dut, idle=("io_input_valid",))
    await drive_and_check(dut, cases, A.add_raw, latency, gap, r)
    assert met >= {"add", "load", "double", "cancel"}, met
