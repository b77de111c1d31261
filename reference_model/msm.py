"""Multi-scalar multiplication as the zkspinal MSM engine and its host compute it, on every curve of
curves.ADDERS (BLS12-377 G1 by default; the `adder` argument of each step picks another).

  result = sum_i s_i * P_i,   P_i on the curve, 0 <= s_i < r (integers; for G1 points the same as mod r).

Split of the work (Pippenger's bucket method, the Hardcaml ZPrize split):
  host       precompute_points: every P_i to its adder's point record (curves.adders: BLS12-377's precomputed
             twisted Edwards operand, or the affine (x, y) of an XYZZ adder); points the adder cannot take (no twisted
             Edwards image) and, when checked, points outside G1 become "exceptions": their record is the identity
             and their term s_i * P_i is added on the host.
  hardware   accumulate_buckets: scalars cut into signed-digit windows (WindowLayout.digits); for every point and
             window with digit d != 0, bucket |d| of that window += sign(d) * Q_i through the mixed adder.
  host       postprocess: the buckets to the curve's Jacobian coordinates, per window sum_k k * bucket_k (running
             sums), windows combined by doubling, back to affine, plus the exceptions.

Signed-digit recoding (windows w_0 .. w_{W-1} from the least significant bit, offsets o_j = w_0 + ... + w_{j-1}):
  c_0 = 0;  for j < W-1:  v = ((s >> o_j) mod 2^w_j) + c_j;  if v >= 2^(w_j - 1): d_j = v - 2^w_j, c_{j+1} = 1
                                                             else:                d_j = v,         c_{j+1} = 0
  top window: d_{W-1} = (s >> o_{W-1}) + c_{W-1} (all remaining bits, never negative, no carry out).
  Then s = sum_j d_j * 2^o_j exactly.  |d_j| <= 2^(w_j - 1), so window j < W-1 has B_j = 2^(w_j - 1) buckets
  (k = 1 .. B_j, bucket k holds the points with |d_j| = k, k - 1 is its memory address); the top window has
  B_top = ((r - 1) >> o_top) + 1 buckets.  A negative digit adds -Q_i (a free negation, see curves.precomputed).
  The default layout is Hardcaml's: 13 windows of 13 bits then 7 windows of 12 bits = 253 bits, giving
  13*4096 + 6*2048 + 2,390 = 67,926 buckets ((r-1) >> 241 = 2,389, plus a carry: the top digit is at most 2,390;
  Hardcaml read back all 4,095 non-zero values of its unsigned 12-bit top window: 69,631).

Bucket contents: every bucket starts as the identity accumulator and receives its points in increasing point
index.  An engine that keeps that per-bucket order returns these values bit for bit; ours reorders (a bucket that
is busy in the adder pipeline lets later additions go first) and spreads a hot bucket over partial buckets that
follow the buckets in the read-out (WindowLayout.partials records, each tagged with its bucket, merged on the host:
merge_partials), so it returns the same points in other projective coordinates (compare with same_buckets).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from . import contract as C
from .curves import ADDERS, FR, G1, HW, TE

DEFAULT_ADDER = ADDERS["bls12_377"]

SCALAR_BITS = FR.p.bit_length()   # 253
MAX_BUCKET_INDEX = (1 << C.MSM_RECORD_TAG_BUCKET.width) - 1    # the bucket tag's field (contract: MsmRecord)
MAX_WINDOWS = (1 << C.MSM_RECORD_TAG_WINDOW.width) - 1          # the window tag's field


@dataclass(frozen=True)
class WindowLayout:
    """widths least significant first; order = the scalar bound; partials = partial bucket records after the
    buckets in an engine's read-out (the engine's PARTIALS register; 0 for the model's own read-out)."""
    widths: tuple[int, ...]
    order: int = FR.p
    partials: int = 0
    offsets: tuple[int, ...] = field(init=False)

    def __post_init__(self):
        w = tuple(int(x) for x in self.widths)
        object.__setattr__(self, "widths", w)
        if not 1 <= len(w) <= MAX_WINDOWS:
            raise ValueError(f"window layout needs 1 to {MAX_WINDOWS} windows, got {len(w)}")
        if any(x < 1 for x in w):
            raise ValueError(f"window widths must be >= 1: {w}")
        bits = (self.order - 1).bit_length()
        if sum(w) < bits:
            raise ValueError(f"windows {w} cover {sum(w)} bits; scalars have {bits}")
        offs, o = [], 0
        for x in w:
            offs.append(o)
            o += x
        object.__setattr__(self, "offsets", tuple(offs))
        for j in range(len(w)):
            if self.buckets(j) > MAX_BUCKET_INDEX:
                raise ValueError(f"window {j} would need {self.buckets(j)} buckets; the bucket tag allows "
                                 f"{MAX_BUCKET_INDEX}")

    @classmethod
    def of_top(cls, info: dict) -> "WindowLayout":
        """The layout of an emitted MsmAxis top, from its manifest entry (windows, scalar bound, partial records)."""
        return cls(tuple(info["windows"]), order=int(info["bound"], 16), partials=info["partials"])

    @classmethod
    def parse(cls, spec: str) -> "WindowLayout":
        """'13x13,12x7' (width x count, ...) or '13,13,12' (one width per window), least significant first: the
        host library's grammar (reference_model.host_lib), the one zk-msm and host-msm read."""
        from .host_lib import windows_parse
        return cls(windows_parse(spec, MAX_WINDOWS))

    @property
    def num_windows(self) -> int:
        return len(self.widths)

    def buckets(self, j: int) -> int:
        if j < len(self.widths) - 1:
            return 1 << (self.widths[j] - 1)
        return ((self.order - 1) >> self.offsets[j]) + 1

    @property
    def total_buckets(self) -> int:
        return sum(self.buckets(j) for j in range(self.num_windows))

    @property
    def total_records(self) -> int:
        """records of a read-out: every bucket, then the partial buckets"""
        return self.total_buckets + self.partials

    def digits(self, s: int) -> list[int]:
        if not 0 <= s < self.order:
            raise ValueError(f"scalar {s:#x} not in [0, r)")
        out, carry = [], 0
        for j, (w, o) in enumerate(zip(self.widths, self.offsets)):
            if j == len(self.widths) - 1:
                out.append((s >> o) + carry)
                break
            v = ((s >> o) & ((1 << w) - 1)) + carry
            if v >= 1 << (w - 1):
                out.append(v - (1 << w))
                carry = 1
            else:
                out.append(v)
                carry = 0
        return out

    def __str__(self):
        runs, out = [], []
        for w in self.widths:
            if runs and runs[-1][0] == w:
                runs[-1][1] += 1
            else:
                runs.append([w, 1])
        for w, n in runs:
            out.append(f"{w}x{n}" if n > 1 else f"{w}")
        return ",".join(out)


DEFAULT_LAYOUT = WindowLayout((13,) * 13 + (12,) * 7)


def default_layout(adder=DEFAULT_ADDER) -> WindowLayout:
    """Hardcaml's window shape (twenty windows of 13 bits, then 12) stretched over the curve's scalar bits, as the
    board configurations (MsmConfig.hardcamlWindows): 13x13,12x7 on BLS12-377, 13x14,12x6 on BN254, 13x15,12x5
    on BLS12-381."""
    r = adder.curve.order
    wide = (r - 1).bit_length() - 20 * 12
    return WindowLayout((13,) * wide + (12,) * (20 - wide), order=r)


# ---- host: points to the hardware's operands ----------------------------------------------------------
@dataclass
class PrecomputedPoints:
    records: list            # the adder's point record per point, Montgomery domain
    exceptions: list         # indices of the points handled on the host


def precompute_points(points, check_subgroup: bool = True, adder=DEFAULT_ADDER) -> PrecomputedPoints:
    """Infinity becomes the identity record.  A point the adder cannot take (on BLS12-377: no twisted Edwards
    image) or, when check_subgroup is set, a point outside G1 (the twisted Edwards formulas are complete on G1 only)
    becomes an exception: its record is the identity and the host adds its term."""
    records, exceptions = [], []
    for i, P in enumerate(points):
        if P is not None and (not adder.representable(P) or (check_subgroup and not adder.curve.in_subgroup(P))):
            records.append(adder.identity_record)
            exceptions.append(i)
        else:
            records.append(adder.record(P))
    return PrecomputedPoints(records, exceptions)


# ---- hardware: bucket accumulation --------------------------------------------------------------------
def accumulate_buckets(layout: WindowLayout, records, scalars, adder=DEFAULT_ADDER) -> list[list[tuple]]:
    """buckets[j][k-1]: the accumulator of window j, bucket k, exactly as the engine returns it."""
    if len(records) != len(scalars):
        raise ValueError(f"{len(records)} points but {len(scalars)} scalars")
    buckets = [[adder.identity_bucket] * layout.buckets(j) for j in range(layout.num_windows)]
    for Q, s in zip(records, scalars):
        for j, d in enumerate(layout.digits(s)):
            if d:
                row = buckets[j]
                row[abs(d) - 1] = adder.add(row[abs(d) - 1], Q, negate=d < 0)
    return buckets


def adder_of(i: int, j: int, adders: int, shared: int) -> int:
    """The engine's adder that adds point i's digit of window j: a shared low window (j < shared, a copy in every
    adder) takes every adders-th point; window j >= shared belongs to adder (j - shared) mod adders."""
    return i % adders if j < shared else (j - shared) % adders


def effective_scalars(scalars, records, adder=DEFAULT_ADDER) -> list[int]:
    """the scalars whose digits reach an adder: 0 for a point at infinity the engine drops (adder.skips_infinity)"""
    if not adder.skips_infinity:
        return list(scalars)
    return [0 if adder.point_of(q) is None else s for s, q in zip(scalars, records)]


def additions_per_adder(layout: WindowLayout, scalars, adders: int, shared: int) -> list[int]:
    """Additions (non-zero digits) each adder performs: what its BUSY counter reads after the job (scalars as
    effective_scalars gives them)."""
    per = [0] * adders
    for i, s in enumerate(scalars):
        for j, d in enumerate(layout.digits(s)):
            if d:
                per[adder_of(i, j, adders, shared)] += 1
    return per


def buckets_equivalent(a: tuple, b: tuple, adder=DEFAULT_ADDER) -> bool:
    """Two accumulators hold the same curve point (possibly in other projective coordinates)."""
    return adder.equivalent(a, b)


def same_buckets(a: list[list[tuple]], b: list[list[tuple]], adder=DEFAULT_ADDER) -> bool:
    """Every bucket of a holds the same curve point as the bucket of b (the shapes must agree)."""
    return len(a) == len(b) and all(len(wa) == len(wb) and all(adder.equivalent(x, y) for x, y in zip(wa, wb))
                                    for wa, wb in zip(a, b))


def merge_partials(buckets: list[list[tuple]], partials, adder=DEFAULT_ADDER) -> list[list[tuple]]:
    """Adds each partial bucket (window j, bucket k, accumulator) into bucket k of window j (the result is an
    accumulator of the same point sum)."""
    out = [list(w) for w in buckets]
    for j, k, S in partials:
        out[j][k - 1] = adder.merge(out[j][k - 1], S)
    return out


# ---- host: post-processing, in the curve's Jacobian coordinates ---------------------------------------
def window_sum(buckets_j, dense: bool = False, adder=DEFAULT_ADDER) -> tuple:
    """sum_k k * bucket_k (Jacobian).  Running sums from the top bucket down: running += B_k, total += running.
    Between non-empty buckets the running sum is constant, so the sparse form adds gap * running with one scalar
    multiplication instead of gap additions (same point, fewer operations)."""
    G = adder.curve
    if dense:
        running = total = G.INFINITY_JAC
        for S in reversed(buckets_j):
            running = G.jac_add(running, adder.to_jacobian(S))
            total = G.jac_add(total, running)
        return total
    items = [(k, S) for k, S in enumerate(buckets_j, start=1) if not adder.equivalent(S, adder.identity_bucket)]
    running = total = G.INFINITY_JAC
    for idx in range(len(items) - 1, -1, -1):
        k, S = items[idx]
        running = G.jac_add(running, adder.to_jacobian(S))
        gap = k - (items[idx - 1][0] if idx else 0)
        total = G.jac_add(total, G.jac_mul(running, gap))
    return total


def combine_windows(layout: WindowLayout, sums: list, adder=DEFAULT_ADDER) -> tuple:
    """sum_j 2^o_j * sums[j], Horner from the top window (Jacobian)."""
    G = adder.curve
    acc = G.INFINITY_JAC
    for j in range(layout.num_windows - 1, -1, -1):
        if j < layout.num_windows - 1:
            for _ in range(layout.widths[j]):
                acc = G.jac_double(acc)
        acc = G.jac_add(acc, sums[j])
    return acc


def postprocess(layout: WindowLayout, buckets, points=(), scalars=(), exceptions=(), dense: bool = False,
                adder=DEFAULT_ADDER):
    """Bucket read-out -> affine short Weierstrass result (None = infinity), adding the host-side terms."""
    G = adder.curve
    R = combine_windows(layout, [window_sum(b, dense, adder) for b in buckets], adder)
    for i in exceptions:
        R = G.jac_add(R, G.jac_mul(G.to_jacobian(points[i]), scalars[i]))
    return G.to_affine(R)


# ---- whole MSMs ---------------------------------------------------------------------------------------
def msm_pippenger(points, scalars, layout: WindowLayout = DEFAULT_LAYOUT, check_subgroup: bool = True,
                  adder=DEFAULT_ADDER):
    if len(points) != len(scalars):
        raise ValueError(f"{len(points)} points but {len(scalars)} scalars")
    pre = precompute_points(points, check_subgroup, adder)
    buckets = accumulate_buckets(layout, pre.records, scalars, adder)
    return postprocess(layout, buckets, points, scalars, pre.exceptions, adder=adder)


def msm_double_and_add(points, scalars, curve=G1):
    """The plain definition: sum of s_i * P_i, each by double-and-add in Jacobian coordinates."""
    if len(points) != len(scalars):
        raise ValueError(f"{len(points)} points but {len(scalars)} scalars")
    R = curve.INFINITY_JAC
    for P, s in zip(points, scalars):
        R = curve.jac_add(R, curve.jac_mul(curve.to_jacobian(P), s))
    return curve.to_affine(R)


def format_result(P) -> str:
    return "infinity" if P is None else f"0x{P[0]:096x} 0x{P[1]:096x}"


if __name__ == "__main__":
    from .msm_cli import main
    raise SystemExit(main())
