"""The MSM adder's operands, field operation by field operation as the hardware computes them.

Two representations, both with every coordinate in the Montgomery domain of Fq (x~ = x*2^377 mod p, fully
reduced, see reference_model.field):

  Precomputed point  Q = (QM, QP, QT) = ((y - x)/2, (y + x)/2, 4*d*x*y)   from the affine twisted Edwards (x, y);
                     made once on the host per input point; the identity (0, 1) gives (1/2, 1/2, 0).
  Accumulator        S = (U, V, W, T) = (2*(Y - X), 2*(Y + X), 4*Z, T)    from extended (X : Y : Z : T);
                     a bucket holds one; an empty bucket holds the identity (2, 2, 4, 0).
                     Invariant (from T*Z = X*Y): 4*T*W = V^2 - U^2.  Back to extended coordinates, scaled by 4:
                     (X : Y : Z : T) = (V - U : V + U : W : 4*T).

With these the unified a = -1 addition (add-2008-hwcd-3, Z2 = 1) loses every constant: S + Q costs 7 Montgomery
multiplications and 6 modular additions/subtractions, in four dependent stages (MIXED_ADD_SCHEDULE below; the
hardware adder implements exactly this list).  Each line is (stage, result, operation, left operand, right operand):

  stage 1   P1 = U * QM    mont_mul   (Y1-X1)(y2-x2)               = A
            P2 = V * QP    mont_mul   (Y1+X1)(y2+x2)               = B
            P3 = T * QT    mont_mul   4d*T1*x2*y2                   = 2C
  stage 2   E  = P2 - P1   mod_sub                                  = B - A
            H  = P2 + P1   mod_add                                  = B + A
            F  = W  - P3   mod_sub    (W delayed by stage 1)        = 2(D - C),  D = 2*Z1
            G  = W  + P3   mod_add                                  = 2(D + C)
  stage 3   P4 = E * F     mont_mul                                 = 2*X3
            P5 = G * H     mont_mul                                 = 2*Y3
            T' = E * H     mont_mul                                 = T3
            W' = F * G     mont_mul                                 = 4*Z3
  stage 4   U' = P5 - P4   mod_sub                                  = 2(Y3 - X3)
            V' = P5 + P4   mod_add                                  = 2(Y3 + X3)

Negation is free: -Q = (QP, QM, -QT).  The adder does it without touching QT by swapping the multiplier operands
QM/QP in stage 1 and swapping the results of the stage-2 pair (F, G), i.e. F = W + P3, G = W - P3.  Every operation
is fully reduced, so both ways give the same bits (``mixed_add(S, Q, negate=True) == mixed_add(S, neg(Q))``).
"""
from __future__ import annotations

from ..field import FieldConfig, mod_add, mod_sub, mont_mul
from .twisted_edwards import EdwardsForm

# (stage, result, operation, left, right) -- the adder's data-flow graph.  Inputs: U V W T (accumulator),
# QM QP QT (precomputed point); outputs U' V' W' T'.
MIXED_ADD_SCHEDULE = (
    (1, "P1", "mont_mul", "U", "QM"),
    (1, "P2", "mont_mul", "V", "QP"),
    (1, "P3", "mont_mul", "T", "QT"),
    (2, "E", "mod_sub", "P2", "P1"),
    (2, "H", "mod_add", "P2", "P1"),
    (2, "F", "mod_sub", "W", "P3"),
    (2, "G", "mod_add", "W", "P3"),
    (3, "P4", "mont_mul", "E", "F"),
    (3, "P5", "mont_mul", "G", "H"),
    (3, "T'", "mont_mul", "E", "H"),
    (3, "W'", "mont_mul", "F", "G"),
    (4, "U'", "mod_sub", "P5", "P4"),
    (4, "V'", "mod_add", "P5", "P4"),
)
SCHEDULE_INPUTS = ("U", "V", "W", "T", "QM", "QP", "QT")
SCHEDULE_OUTPUTS = ("U'", "V'", "W'", "T'")
_OPS = {"mont_mul": mont_mul, "mod_add": mod_add, "mod_sub": mod_sub}


def _compile(schedule):
    """Turns the schedule into register-file steps; checks every operand is defined before use."""
    slots = {name: i for i, name in enumerate(SCHEDULE_INPUTS)}
    steps, last_stage = [], 0
    for stage, dst, op, lhs, rhs in schedule:
        if stage < last_stage:
            raise ValueError("schedule must be ordered by stage")
        last_stage = stage
        for operand in (lhs, rhs):
            if operand not in slots:
                raise ValueError(f"schedule: {dst} uses {operand} before it is computed")
        slots[dst] = len(slots)
        steps.append((_OPS[op], slots[dst], slots[lhs], slots[rhs]))
    return steps, len(slots), tuple(slots[o] for o in SCHEDULE_OUTPUTS)


_STEPS, _NSLOTS, _OUT = _compile(MIXED_ADD_SCHEDULE)
_NEGATE_SWAPS = {"QM": "QP", "QP": "QM", "F": "G", "G": "F"}


def _negated_schedule():
    """The same graph with QM/QP swapped as multiplier operands and F/G swapped as results."""
    out = []
    for stage, dst, op, lhs, rhs in MIXED_ADD_SCHEDULE:
        if stage == 1:
            rhs = _NEGATE_SWAPS.get(rhs, rhs)
        if stage == 2 and dst in ("F", "G"):
            dst = _NEGATE_SWAPS[dst]
        out.append((stage, dst, op, lhs, rhs))
    return tuple(sorted(out, key=lambda s: s[0]))


_STEPS_NEG, _, _OUT_NEG = _compile(_negated_schedule())


def mixed_add(f: FieldConfig, S: tuple, Q: tuple, negate: bool = False) -> tuple:
    """One pass through the hardware adder: S + Q (or S - Q), all values in the Montgomery domain."""
    steps, out = (_STEPS_NEG, _OUT_NEG) if negate else (_STEPS, _OUT)
    reg = [0] * _NSLOTS
    reg[0:7] = (*S, *Q)
    for fn, d, a, b in steps:
        reg[d] = fn(f, reg[a], reg[b])
    return tuple(reg[i] for i in out)


class HardwarePoints:
    """Conversions between the curve's twisted Edwards points and the adder's Montgomery-domain operands."""

    def __init__(self, te: EdwardsForm):
        self.te = te
        self.f = f = te.field
        half = f.inv(2)
        self.IDENTITY_Q = (f.to_mont(half), f.to_mont(half), 0)
        self.IDENTITY_S = (f.to_mont(2), f.to_mont(2), f.to_mont(4), 0)
        self._four_d = 4 * te.d % f.p

    def precompute(self, E: tuple[int, int]) -> tuple:
        """Affine twisted Edwards (x, y) -> (QM, QP, QT) in the Montgomery domain."""
        f, p = self.f, self.f.p
        x, y = E
        half = f.inv(2)
        return (f.to_mont((y - x) * half % p), f.to_mont((y + x) * half % p),
                f.to_mont(self._four_d * x % p * y % p))

    def neg(self, Q: tuple) -> tuple:
        qm, qp, qt = Q
        return qp, qm, mod_sub(self.f, 0, qt)

    def from_extended(self, X4: tuple) -> tuple:
        """Extended (X, Y, Z, T) -> accumulator (U, V, W, T), Montgomery domain."""
        f, p = self.f, self.f.p
        X, Y, Z, T = (int(v) for v in X4)
        return (f.to_mont(2 * (Y - X) % p), f.to_mont(2 * (Y + X) % p), f.to_mont(4 * Z % p), f.to_mont(T))

    def to_extended(self, S: tuple) -> tuple:
        """Accumulator -> extended (V - U : V + U : W : 4T) with plain (non-Montgomery) coordinates."""
        f, p = self.f, self.f.p
        U, V, W, T = (f.from_mont(v) for v in S)
        return (V - U) % p, (V + U) % p, W, 4 * T % p

    def consistent(self, S: tuple) -> bool:
        """4*T*W == V^2 - U^2 and W != 0: holds for every accumulator the adder can produce from G1 points."""
        f, p = self.f, self.f.p
        U, V, W, T = (f.from_mont(v) for v in S)
        return W != 0 and (4 * T * W - V * V + U * U) % p == 0 and all(0 <= v < p for v in S)
