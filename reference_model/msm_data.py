"""MSM inputs: deterministic generation, the data-set directory (ZPrize harness files), the JSON form, validation.

Generation (reproduced bit for bit by sw/host-msm `host-msm gen`):
  draw(seed, label, i) = int.from_bytes(SHA-256(TAG || label || seed || i || 0x00) || SHA-256(... || 0x01),
                         "little") mod r,  with TAG = b"zkspinal-msm-gen", seed and i as 8-byte little-endian.
  point i  = k_i * G with k_i = draw(seed, b"point", i), or G when k_i = 0  (uniform over G1 \\ {O})
  scalar i = draw(seed, b"scalar", i)                                       (uniform over [0, r))
  --trivial: every point is G and every scalar is 0 except scalar 0 (Hardcaml's driver-debugging input).

Data-set directory: `points` and `scalars` in arkworks' uncompressed CanonicalSerialize form (msm_formats).
JSON form: {"points": [{"x": "0x..", "y": "0x.."} | "infinity", ...], "scalars": ["0x..", ...]}, coordinates and
scalars as big-endian hex strings (JSON integers are accepted too); other keys are ignored.
"""
from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path

from . import host_lib
from .curves import FR, G1
from .curves.weierstrass import fixed_base_mul_many, fixed_base_table
from .msm_formats import FormatError, deserialize_points, deserialize_scalars, serialize_points, serialize_scalars

GEN_TAG = b"zkspinal-msm-gen"


class MsmInputError(ValueError):
    """Bad MSM input; the message names the item (points[i], scalars[i], the file)."""


def draw(seed: int, label: bytes, i: int, order: int = FR.p) -> int:
    head = GEN_TAG + label + seed.to_bytes(8, "little") + i.to_bytes(8, "little")
    wide = hashlib.sha256(head + b"\x00").digest() + hashlib.sha256(head + b"\x01").digest()
    return int.from_bytes(wide, "little") % order


_TABLES: dict = {}


def generate(npow: int, seed: int, trivial: bool = False, curve=G1):
    """(points, scalars) with n = 2^npow, on `curve` (a curves.WeierstrassCurve; BLS12-377 G1 by default)."""
    n = 1 << npow
    r = curve.order
    if trivial:
        return [curve.generator] * n, [draw(seed, b"scalar", 0, r)] + [0] * (n - 1)
    if curve.name not in _TABLES:
        _TABLES[curve.name] = fixed_base_table(curve, curve.generator, r.bit_length())
    ks = [draw(seed, b"point", i, r) or 1 for i in range(n)]
    return fixed_base_mul_many(curve, _TABLES[curve.name], ks), [draw(seed, b"scalar", i, r) for i in range(n)]


def save(directory, points, scalars, curve=G1) -> None:
    d = Path(directory)
    d.mkdir(parents=True, exist_ok=True)
    (d / "points").write_bytes(serialize_points(points, curve))
    (d / "scalars").write_bytes(serialize_scalars(scalars))


def load(directory, check_subgroup: bool = False, curve=G1):
    """(points, scalars) of `curve` from a data-set directory, validated like the JSON form."""
    d = Path(directory)
    try:
        points = deserialize_points((d / "points").read_bytes(), curve)
        scalars = deserialize_scalars((d / "scalars").read_bytes())
    except (OSError, FormatError) as e:
        raise MsmInputError(f"{d}: {e}") from None
    validate(points, scalars, check_subgroup, curve)
    return points, scalars


def validate(points, scalars, check_subgroup: bool = False, curve=G1) -> None:
    if len(points) != len(scalars):
        raise MsmInputError(f"{len(points)} points but {len(scalars)} scalars")
    for i, P in enumerate(points):
        if not curve.is_on_curve(P):
            raise MsmInputError(f"points[{i}]: (0x{P[0]:x}, 0x{P[1]:x}) is not on the curve y^2 = x^3 + {curve.b}")
        if check_subgroup and not curve.in_subgroup(P):
            raise MsmInputError(f"points[{i}]: (0x{P[0]:x}, 0x{P[1]:x}) is not in the G1 subgroup")
    for i, s in enumerate(scalars):
        if not 0 <= s < curve.order:
            raise MsmInputError(f"scalars[{i}]: 0x{s:x} is not below r = 0x{curve.order:x}")


def from_json(doc) -> tuple[list, list]:
    """Parses the JSON form (a decoded document) by the host library's parser (sw/host-msm/src/instance.rs: the one
    zk-msm uses, so both engines take and refuse the same files; other keys are ignored)."""
    try:
        return host_lib.read_instance(json.dumps(doc).encode())
    except ValueError as e:
        raise MsmInputError(str(e)) from None


def load_json(path, check_subgroup: bool = False):
    try:
        text = Path(path).read_bytes()
    except OSError as e:
        raise MsmInputError(f"{path}: {e.strerror}") from None
    try:
        points, scalars = host_lib.read_instance(text)
    except ValueError as e:
        raise MsmInputError(f"{path}: {e}") from None
    try:
        validate(points, scalars, check_subgroup)
    except MsmInputError as e:
        raise MsmInputError(f"{path}: {e}") from None
    return points, scalars


def to_json(points, scalars) -> dict:
    return {
        "points": ["infinity" if P is None else {"x": f"0x{P[0]:096x}", "y": f"0x{P[1]:096x}"} for P in points],
        "scalars": [f"0x{s:064x}" for s in scalars],
    }


def load_any(path, check_subgroup: bool = False, curve=G1):
    """A JSON file (BLS12-377's) or a data-set directory of `curve`."""
    if Path(path).is_dir():
        return load(path, check_subgroup, curve)
    if curve is not G1:
        raise MsmInputError(f"{path}: the JSON form is read for BLS12-377 only; a data-set directory for {curve.name}")
    return load_json(path, check_subgroup)


SCALAR_SETS = ("random", "equal", "zero", "max", "alternating", "hammer", "sparse", "half_ones", "below16")


def scalar_set(name: str, layout, n: int, r: random.Random) -> list[int]:
    """The named scalar sets of the tests and the benchmark (SCALAR_SETS), below the layout's order (msm.WindowLayout),
    drawn from r: random, equal, zero, max (order-1), alternating, hammer (one bucket of window 0 gets every point),
    sparse (70 % zero), half_ones, below16 (random below 2^16)."""
    bound = layout.order
    if name == "random":
        return [r.randrange(bound) for _ in range(n)]
    if name == "equal":
        return [r.randrange(bound)] * n
    if name == "zero":
        return [0] * n
    if name == "max":
        return [bound - 1] * n
    if name == "alternating":
        a, b = r.randrange(bound), r.randrange(bound)
        return [(a, b)[i % 2] for i in range(n)]
    if name == "hammer":  # window 0 digit always 3 (bucket 3 of window 0 gets every point), the rest random
        w0 = layout.widths[0]
        return [min((r.randrange(bound) >> w0 << w0) | 3, bound - 1) for _ in range(n)]
    if name == "sparse":
        return [r.randrange(bound) if r.random() < 0.3 else 0 for _ in range(n)]
    if name == "half_ones":  # half the scalars 1 (bucket 1 of window 0), the rest random
        return [1 if r.random() < 0.5 else r.randrange(bound) for _ in range(n)]
    if name == "below16":  # random scalars below 2^16
        return [r.randrange(min(bound, 1 << 16)) for _ in range(n)]
    raise ValueError(name)
