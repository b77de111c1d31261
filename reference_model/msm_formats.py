"""Binary formats of the MSM engine's streams and of the data-set files (see msm_formats.md for the rationale).

Streams: the generator's records (MsmRecord in hw/src/zkspinal/msm/MsmAxis.scala; tables in hw/REGISTERS.md), read
here from the generated contract for the curve's n-bit field elements (the `adder` argument: curves.adders; by
default BLS12-377's):
  scalar beat     two 32-byte scalars (plain unsigned integers, not Montgomery, < r).
  point record    the adder's three words at bits [0,n), [n,2n), [2n,3n), zero above: (QM, QP, QT) of the twisted
                  Edwards adder, (x, y, 3x^2) of the XYZZ adder (all zero: the point at infinity).
  bucket record   the adder's four words [0,n) .. [3n,4n) ((U, V, W, T) or (X, Y, ZZ, ZZZ)), then the tag at 4n:
                  window index, bucket index k.
All field elements in the records are in the hardware Montgomery domain (x*2^n mod p), fully reduced.

Files (the layout the ZPrize test harness used, arkworks CanonicalSerialize, uncompressed):
  points   u64 LE count, then per point x (48 bytes LE) and y (48 bytes LE) with the flags in the two top bits of
           y's last byte: bit 7 = y is the larger of (y, -y), bit 6 = point at infinity (x = y = 0).
  scalars  u64 LE count, then 32 bytes LE per scalar.
"""
from __future__ import annotations

import struct

from functools import lru_cache

from . import contract as C
from .curves import ADDERS, HW

DEFAULT_ADDER = ADDERS["bls12_377"]


@lru_cache(maxsize=None)
def record_fields(n: int) -> tuple[tuple, tuple, object]:
    """(the point record's three fields, the bucket record's four, the tag) for n-bit field elements"""
    if n > C.MSM_RECORD_BUCKET.max_n:
        raise ValueError(f"{n}-bit field elements do not fit the records (at most {C.MSM_RECORD_BUCKET.max_n})")
    point = tuple(f.at(n) for f in (C.MSM_RECORD_POINT_QM, C.MSM_RECORD_POINT_QP, C.MSM_RECORD_POINT_QT))
    bucket = tuple(f.at(n) for f in (C.MSM_RECORD_BUCKET_U, C.MSM_RECORD_BUCKET_V, C.MSM_RECORD_BUCKET_W,
                                     C.MSM_RECORD_BUCKET_T))
    return point, bucket, C.MSM_RECORD_BUCKET_TAG.at(n)


FIELD_BITS = HW.f.n                                # n of the default curve (BLS12-377 Fq)
POINT_FIELDS, BUCKET_FIELDS, TAG = record_fields(FIELD_BITS)
assert C.MSM_RECORD_POINT.bytes == C.MSM_RECORD_BUCKET.bytes
BEAT_BYTES = C.MSM_RECORD_POINT.beat_bytes
RECORD_BEATS = C.MSM_RECORD_POINT.beats
RECORD_BYTES = C.MSM_RECORD_POINT.bytes            # point and bucket records alike
RECORD_BITS = C.MSM_RECORD_POINT.bits
SCALAR_BYTES = C.MSM_RECORD_SCALARS_FIRST.at().width // 8
POINT_END = POINT_FIELDS[-1].end                   # the bits from here up are zero in a point record
FQ_BYTES = 48
IDENTITY_ACCUMULATOR = HW.IDENTITY_S   # (2, 2, 4, 0) in the Montgomery domain: an unclaimed partial bucket (BLS12-377)


class FormatError(ValueError):
    """Malformed stream or file contents; the message names the offending record."""


def _fields_to_record(fields, values, tag: int = 0, tag_field=TAG) -> bytes:
    acc = tag_field.put(tag) if tag else 0
    for f, v in zip(fields, values, strict=True):
        acc |= f.put(int(v))
    return acc.to_bytes(RECORD_BYTES, "little")


def _record_fields(rec: bytes, fields) -> tuple[list[int], int]:
    """the fields' values and the whole record as an integer"""
    acc = int.from_bytes(rec, "little")
    return [f.get(acc) for f in fields], acc


def _tag(window: int, bucket: int) -> int:
    return C.MSM_RECORD_TAG_WINDOW.put(window) | C.MSM_RECORD_TAG_BUCKET.put(bucket)


# ---- scalar stream -------------------------------------------------------------------------------------
def pack_scalars(scalars) -> bytes:
    return b"".join(int(s).to_bytes(SCALAR_BYTES, "little") for s in scalars)


def scalar_stream(scalars) -> bytes:
    """The scalar stream as beats: n words, zero-padded to a whole beat when n is odd."""
    data = pack_scalars(scalars)
    return data + bytes(-len(data) % BEAT_BYTES)


def unpack_scalars(data: bytes) -> list[int]:
    if len(data) % SCALAR_BYTES:
        raise FormatError(f"scalar data is {len(data)} bytes, not a multiple of {SCALAR_BYTES}")
    return [int.from_bytes(data[i:i + SCALAR_BYTES], "little") for i in range(0, len(data), SCALAR_BYTES)]


# ---- point records -------------------------------------------------------------------------------------
def pack_point_records(records, adder=DEFAULT_ADDER) -> bytes:
    fields = record_fields(adder.field.n)[0]
    return b"".join(_fields_to_record(fields, q) for q in records)


def unpack_point_records(data: bytes, p: int, adder=DEFAULT_ADDER) -> list[tuple]:
    if len(data) % RECORD_BYTES:
        raise FormatError(f"point record data is {len(data)} bytes, not a multiple of {RECORD_BYTES}")
    point_fields = record_fields(adder.field.n)[0]
    end = point_fields[-1].end
    out = []
    for i in range(len(data) // RECORD_BYTES):
        fields, acc = _record_fields(data[i * RECORD_BYTES:(i + 1) * RECORD_BYTES], point_fields)
        if acc >> end:
            raise FormatError(f"point record {i}: bits above {end} are not zero")
        if any(v >= p for v in fields):
            raise FormatError(f"point record {i}: a coordinate is >= p")
        out.append(tuple(fields))
    return out


# ---- the point store (resident points: hw/src/zkspinal/msm/PointStore.scala) ---------------------------
STORE_PAGE_BYTES = 4096
STORE_POINTS_PER_PAGE = STORE_PAGE_BYTES // RECORD_BYTES          # 21: a page is one 63-beat read burst


def store_location(i: int, channels: int) -> tuple[int, int]:
    """(channel, byte address) of point i in the point store: channel i mod channels, as that channel's point
    j = i // channels, 21 records to a 4 KiB page (its last 64 bytes unused), so no burst crosses a page."""
    j = i // channels
    return i % channels, (j // STORE_POINTS_PER_PAGE) * STORE_PAGE_BYTES + (j % STORE_POINTS_PER_PAGE) * RECORD_BYTES


# ---- bucket records ------------------------------------------------------------------------------------
def pack_bucket_records(layout, buckets, partials=(), adder=DEFAULT_ADDER) -> bytes:
    """buckets[j][k-1] = (U, V, W, T) for window j, bucket k; records in read-out order (window, then k), then
    layout.partials partial bucket records: `partials` as (j, k, (U, V, W, T)), the rest unclaimed (the identity
    tagged window 0, bucket 0)."""
    _, bucket_fields, tag = record_fields(adder.field.n)
    out = []
    for j, window in enumerate(buckets):
        if len(window) != layout.buckets(j):
            raise ValueError(f"window {j}: {len(window)} buckets, layout says {layout.buckets(j)}")
        for k, S in enumerate(window, start=1):
            out.append(_fields_to_record(bucket_fields, S, _tag(j, k), tag))
    partials = list(partials)
    if len(partials) > layout.partials:
        raise ValueError(f"{len(partials)} partial buckets, the layout has room for {layout.partials}")
    for j, k, S in partials:
        out.append(_fields_to_record(bucket_fields, S, _tag(j, k), tag))
    out += [_fields_to_record(bucket_fields, adder.identity_bucket)] * (layout.partials - len(partials))
    return b"".join(out)


def _bucket_fields(data: bytes, idx: int, p: int, what: str, adder) -> tuple[tuple, int, int]:
    _, bucket_fields, tag_field = record_fields(adder.field.n)
    fields, acc = _record_fields(data[idx * RECORD_BYTES:(idx + 1) * RECORD_BYTES], bucket_fields)
    tag = tag_field.get(acc)
    if any(v >= p for v in fields):
        raise FormatError(f"{what} record {idx}: a coordinate is >= p")
    if adder.kind == "twisted_edwards" and fields[2] == 0:
        raise FormatError(f"{what} record {idx}: W = 0 is no point")
    return tuple(fields), C.MSM_RECORD_TAG_WINDOW.get(tag), C.MSM_RECORD_TAG_BUCKET.get(tag)


def unpack_bucket_records(layout, data: bytes, p: int, adder=DEFAULT_ADDER) -> list[list[tuple]]:
    """Parses a read-out stream, checking its length, every tag and every coordinate, and adds the partial buckets
    into theirs (without partial records the buckets are returned word for word)."""
    total = layout.total_records
    if len(data) != total * RECORD_BYTES:
        raise FormatError(f"bucket data is {len(data)} bytes; the layout {layout} needs {total} records of "
                          f"{RECORD_BYTES} bytes = {total * RECORD_BYTES}")
    buckets, idx = [], 0
    for j in range(layout.num_windows):
        window = []
        for k in range(1, layout.buckets(j) + 1):
            fields, tw, tk = _bucket_fields(data, idx, p, "bucket", adder)
            if (tw, tk) != (j, k):
                raise FormatError(f"bucket record {idx}: tag says window {tw} bucket {tk}, expected window {j} "
                                  f"bucket {k}")
            window.append(fields)
            idx += 1
        buckets.append(window)
    partials = []
    for _ in range(layout.partials):
        fields, tw, tk = _bucket_fields(data, idx, p, "partial bucket", adder)
        if (tw, tk) == (0, 0):
            if fields != tuple(adder.identity_bucket):
                raise FormatError(f"partial bucket record {idx}: unclaimed (tag 0/0) but not the identity")
        elif tw >= layout.num_windows or not 1 <= tk <= layout.buckets(tw):
            raise FormatError(f"partial bucket record {idx}: tag window {tw} bucket {tk} is outside the layout")
        else:
            partials.append((tw, tk, fields))
        idx += 1
    if not partials:
        return buckets
    from .msm import merge_partials
    return merge_partials(buckets, partials, adder)


# ---- data-set files (arkworks CanonicalSerialize, uncompressed) ----------------------------------------
def serialize_points(points, p: int) -> bytes:
    out = [struct.pack("<Q", len(points))]
    for P in points:
        if P is None:
            out.append(bytes(FQ_BYTES) + (1 << 6 << (8 * (FQ_BYTES - 1))).to_bytes(FQ_BYTES, "little"))
            continue
        x, y = P
        flag = (1 << 7) if y > p - y else 0
        out.append(x.to_bytes(FQ_BYTES, "little") + (y | flag << (8 * (FQ_BYTES - 1))).to_bytes(FQ_BYTES, "little"))
    return b"".join(out)


def deserialize_points(data: bytes, p: int) -> list:
    """Points from an arkworks uncompressed Vec<G1Affine>; checks sizes, flags and that coordinates are < p.
    (Curve membership is the caller's check.)"""
    if len(data) < 8:
        raise FormatError("points file shorter than its 8-byte count")
    (n,) = struct.unpack_from("<Q", data)
    if len(data) != 8 + n * 2 * FQ_BYTES:
        raise FormatError(f"points file: count {n} needs {8 + n * 2 * FQ_BYTES} bytes, file has {len(data)}")
    out = []
    top_shift = 8 * FQ_BYTES - 2
    for i in range(n):
        off = 8 + i * 2 * FQ_BYTES
        x = int.from_bytes(data[off:off + FQ_BYTES], "little")
        yf = int.from_bytes(data[off + FQ_BYTES:off + 2 * FQ_BYTES], "little")
        flags, y = yf >> top_shift, yf & ((1 << top_shift) - 1)
        if flags == 3:
            raise FormatError(f"points[{i}]: invalid flags (both infinity and negative)")
        if flags == 1:
            if x or y:
                raise FormatError(f"points[{i}]: infinity flag with non-zero coordinates")
            out.append(None)
            continue
        if x >= p or y >= p:
            raise FormatError(f"points[{i}]: coordinate not below p")
        out.append((x, y))
    return out


def serialize_scalars(scalars) -> bytes:
    return struct.pack("<Q", len(scalars)) + pack_scalars(scalars)


def deserialize_scalars(data: bytes) -> list[int]:
    if len(data) < 8:
        raise FormatError("scalars file shorter than its 8-byte count")
    (n,) = struct.unpack_from("<Q", data)
    if len(data) != 8 + n * SCALAR_BYTES:
        raise FormatError(f"scalars file: count {n} needs {8 + n * SCALAR_BYTES} bytes, file has {len(data)}")
    return unpack_scalars(data[8:])
