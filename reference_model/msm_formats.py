"""Binary formats of the MSM engine's streams and of the data-set files (see msm_formats.md for the rationale).

Streams: the generator's records (MsmRecord in hw/src/zkspinal/msm/MsmAxis.scala; tables in hw/REGISTERS.md), read
here from the generated contract for the curve's n-bit field elements (the `adder` argument: curves.adders; by
default BLS12-377's):
  scalar beat     two 32-byte scalars (plain unsigned integers, not Montgomery, < r).
  point record    the adder's three words at bits [0,n), [n,2n), [2n,3n), zero above: (QM, QP, QT) of the twisted
                  Edwards adder, (x, y, 3x^2) of the XYZZ adder (all zero: the point at infinity); the whole
                  512-bit beats that hold 3n bits (records_for(n).point_bytes: 192 bytes for n = 377, 381; 128 for
                  BN254's 254).
  bucket record   the adder's four words [0,n) .. [3n,4n) ((U, V, W, T) or (X, Y, ZZ, ZZZ)), then the tag at 4n:
                  window index, bucket index k, zero above; the beats that hold 4n + 28 bits (192 bytes for
                  n = 254, 377; 256 for BLS12-381's 381).
All field elements in the records are in the hardware Montgomery domain (x*2^n mod p), fully reduced.

Files (the layout the ZPrize test harness used, arkworks CanonicalSerialize, uncompressed):
  points   u64 LE count, then per point the curve's arkworks encoding (point_bytes(curve)): BLS12-377 and BN254
           x and y little-endian (48 or 32 bytes each) with the flags in the two top bits of y's last byte (bit 7
           = y is the larger of (y, -y), bit 6 = point at infinity, x = y = 0); BLS12-381 zcash style (x, y
           big-endian, 48 bytes each, infinity flag at bit 6 of the first byte).
  scalars  u64 LE count, then 32 bytes LE per scalar.
"""
from __future__ import annotations

import struct

from functools import lru_cache
from typing import NamedTuple

from . import contract as C
from .curves import ADDERS, HW
from .curves import G1 as HW_CURVE

DEFAULT_ADDER = ADDERS["bls12_377"]


class Records(NamedTuple):
    """The point and bucket records for n-bit field elements: their fields and their lengths (the whole beats
    that hold the fields: BLS12-377 192 and 192 bytes, BN254 128 and 192, BLS12-381 192 and 256)."""
    n: int
    point_fields: tuple
    bucket_fields: tuple
    tag: object
    point_bytes: int
    bucket_bytes: int

    @property
    def point_end(self) -> int:
        """the bits from here up are zero in a point record"""
        return self.point_fields[-1].end


@lru_cache(maxsize=None)
def records_for(n: int) -> Records:
    """the records of a curve whose field elements are n bits wide"""
    if n > C.MSM_RECORD_BUCKET.max_n:
        raise ValueError(f"{n}-bit field elements do not fit the records (at most {C.MSM_RECORD_BUCKET.max_n})")
    point = tuple(f.at(n) for f in (C.MSM_RECORD_POINT_QM, C.MSM_RECORD_POINT_QP, C.MSM_RECORD_POINT_QT))
    bucket = tuple(f.at(n) for f in (C.MSM_RECORD_BUCKET_U, C.MSM_RECORD_BUCKET_V, C.MSM_RECORD_BUCKET_W,
                                     C.MSM_RECORD_BUCKET_T))
    return Records(n, point, bucket, C.MSM_RECORD_BUCKET_TAG.at(n), C.MSM_RECORD_POINT.bytes(n),
                   C.MSM_RECORD_BUCKET.bytes(n))


def records_of(adder=None) -> Records:
    """the records of an adder's curve (curves.adders; default BLS12-377's)"""
    return records_for((adder or DEFAULT_ADDER).field.n)


FIELD_BITS = HW.f.n                                # n of the default curve (BLS12-377 Fq)
BEAT_BYTES = C.MSM_RECORD_POINT.beat_bytes
assert BEAT_BYTES == C.MSM_RECORD_SCALARS.bytes() == C.MSM_RECORD_BUCKET.beat_bytes
SCALAR_BYTES = C.MSM_RECORD_SCALARS_FIRST.at().width // 8
IDENTITY_ACCUMULATOR = HW.IDENTITY_S   # (2, 2, 4, 0) in the Montgomery domain: an unclaimed partial bucket (BLS12-377)


class FormatError(ValueError):
    """Malformed stream or file contents; the message names the offending record."""


def _fields_to_record(fields, values, size: int, tag: int = 0, tag_field=None) -> bytes:
    acc = tag_field.put(tag) if tag else 0
    for f, v in zip(fields, values, strict=True):
        acc |= f.put(int(v))
    return acc.to_bytes(size, "little")


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
    R = records_of(adder)
    return b"".join(_fields_to_record(R.point_fields, q, R.point_bytes) for q in records)


def unpack_point_records(data: bytes, p: int, adder=DEFAULT_ADDER) -> list[tuple]:
    R = records_of(adder)
    size, point_fields, end = R.point_bytes, R.point_fields, R.point_end
    if len(data) % size:
        raise FormatError(f"point record data is {len(data)} bytes, not a multiple of {size}")
    out = []
    for i in range(len(data) // size):
        fields, acc = _record_fields(data[i * size:(i + 1) * size], point_fields)
        if acc >> end:
            raise FormatError(f"point record {i}: bits above {end} are not zero")
        if any(v >= p for v in fields):
            raise FormatError(f"point record {i}: a coordinate is >= p")
        out.append(tuple(fields))
    return out


# ---- the point store (resident points: hw/src/zkspinal/msm/PointStore.scala) ---------------------------
STORE_PAGE_BYTES = 4096


def store_points_per_page(adder=DEFAULT_ADDER) -> int:
    """point records to a 4 KiB page: 21 of 192 bytes (BLS12-377, BLS12-381), 32 of 128 bytes (BN254)"""
    return STORE_PAGE_BYTES // records_of(adder).point_bytes


def store_block(channels: int, adder=DEFAULT_ADDER) -> int:
    """points of a block of the point store (the unit of BASE): page b of every channel, channels x q records"""
    return channels * store_points_per_page(adder)


def store_location(i: int, channels: int, adder=DEFAULT_ADDER, base: int = 0) -> tuple[int, int]:
    """(channel, byte address in the channel's own memory) of point i of the set at block `base` (BASE): store point
    base * store_block + i, in channel i mod channels as that channel's point j = i // channels from page `base` on,
    q = store_points_per_page records to a 4 KiB page (the rest of the page unused), so no burst crosses a page."""
    j, q, size = i // channels, store_points_per_page(adder), records_of(adder).point_bytes
    return i % channels, (base + j // q) * STORE_PAGE_BYTES + (j % q) * size


# ---- bucket records ------------------------------------------------------------------------------------
def pack_bucket_records(layout, buckets, partials=(), adder=DEFAULT_ADDER) -> bytes:
    """buckets[j][k-1] = (U, V, W, T) for window j, bucket k; records in read-out order (window, then k), then
    layout.partials partial bucket records: `partials` as (j, k, (U, V, W, T)), the rest unclaimed (the identity
    tagged window 0, bucket 0)."""
    R = records_of(adder)
    fields, size, tag = R.bucket_fields, R.bucket_bytes, R.tag
    out = []
    for j, window in enumerate(buckets):
        if len(window) != layout.buckets(j):
            raise ValueError(f"window {j}: {len(window)} buckets, layout says {layout.buckets(j)}")
        for k, S in enumerate(window, start=1):
            out.append(_fields_to_record(fields, S, size, _tag(j, k), tag))
    partials = list(partials)
    if len(partials) > layout.partials:
        raise ValueError(f"{len(partials)} partial buckets, the layout has room for {layout.partials}")
    for j, k, S in partials:
        out.append(_fields_to_record(fields, S, size, _tag(j, k), tag))
    out += [_fields_to_record(fields, adder.identity_bucket, size)] * (layout.partials - len(partials))
    return b"".join(out)


def _bucket_fields(data: bytes, idx: int, p: int, what: str, adder) -> tuple[tuple, int, int]:
    R = records_of(adder)
    size = R.bucket_bytes
    fields, acc = _record_fields(data[idx * size:(idx + 1) * size], R.bucket_fields)
    tag = R.tag.get(acc)
    if acc >> R.tag.end:
        raise FormatError(f"{what} record {idx}: bits above the tag are not zero")
    if any(v >= p for v in fields):
        raise FormatError(f"{what} record {idx}: a coordinate is >= p")
    if adder.kind == "twisted_edwards" and fields[2] == 0:
        raise FormatError(f"{what} record {idx}: W = 0 is no point")
    return tuple(fields), C.MSM_RECORD_TAG_WINDOW.get(tag), C.MSM_RECORD_TAG_BUCKET.get(tag)


def unpack_bucket_records(layout, data: bytes, p: int, adder=DEFAULT_ADDER) -> list[list[tuple]]:
    """Parses a read-out stream, checking its length, every tag and every coordinate, and adds the partial buckets
    into theirs (without partial records the buckets are returned word for word)."""
    total, size = layout.total_records, records_of(adder).bucket_bytes
    if len(data) != total * size:
        raise FormatError(f"bucket data is {len(data)} bytes; the layout {layout} needs {total} records of "
                          f"{size} bytes = {total * size}")
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
# BLS12-377 and BN254: arkworks' short Weierstrass form, x and y little-endian in ceil(bits(p) / 8) bytes each, the
# flags in y's two top bits (bit 7: y is the larger of (y, -y), bit 6: the point at infinity, x = y = 0).
# BLS12-381: ark-bls12-381's own form, that of zcash: x and y big-endian in 48 bytes each, the flags in the three top
# bits of x's first byte (bit 7 compressed: 0 here, bit 6 infinity with every other bit zero, bit 5 the sign: 0
# uncompressed).
ZCASH_ENCODED = ("bls12_381_g1",)


def point_bytes(curve) -> int:
    """bytes of one uncompressed point of `curve` (a curves.WeierstrassCurve) in the data-set file"""
    return 2 * ((curve.p.bit_length() + 7) // 8)


def _encode(P, curve) -> bytes:
    w = point_bytes(curve) // 2
    if curve.name in ZCASH_ENCODED:
        if P is None:
            return bytes([0x40]) + bytes(2 * w - 1)
        return P[0].to_bytes(w, "big") + P[1].to_bytes(w, "big")
    p = curve.p
    if P is None:
        return bytes(w) + (1 << 6 << (8 * (w - 1))).to_bytes(w, "little")
    x, y = P
    flag = (1 << 7) if y > p - y else 0
    return x.to_bytes(w, "little") + (y | flag << (8 * (w - 1))).to_bytes(w, "little")


def _decode(b: bytes, i: int, curve):
    w = len(b) // 2
    p = curve.p
    if curve.name in ZCASH_ENCODED:
        flags = b[0] >> 5
        x = int.from_bytes(bytes([b[0] & 0x1F]) + b[1:w], "big")
        y = int.from_bytes(b[w:], "big")
        if flags & 4:
            raise FormatError(f"points[{i}]: the compressed flag in an uncompressed file")
        if flags & 1:
            raise FormatError(f"points[{i}]: a sign flag in an uncompressed point")
        if flags & 2:
            if x or y:
                raise FormatError(f"points[{i}]: infinity flag with non-zero coordinates")
            return None
    else:
        top_shift = 8 * w - 2
        x = int.from_bytes(b[:w], "little")
        yf = int.from_bytes(b[w:], "little")
        flags, y = yf >> top_shift, yf & ((1 << top_shift) - 1)
        if flags == 3:
            raise FormatError(f"points[{i}]: invalid flags (both infinity and negative)")
        if flags == 1:
            if x or y:
                raise FormatError(f"points[{i}]: infinity flag with non-zero coordinates")
            return None
    if x >= p or y >= p:
        raise FormatError(f"points[{i}]: coordinate not below p")
    return (x, y)


def serialize_points(points, curve=None) -> bytes:
    """an arkworks Vec<G1Affine> of `curve` (default BLS12-377 G1), uncompressed"""
    curve = curve or HW_CURVE
    return struct.pack("<Q", len(points)) + b"".join(_encode(P, curve) for P in points)


def deserialize_points(data: bytes, curve=None) -> list:
    """Points from an arkworks uncompressed Vec<G1Affine> of `curve` (default BLS12-377 G1); checks sizes, flags and
    that coordinates are < p.  (Curve membership is the caller's check.)"""
    curve = curve or HW_CURVE
    size = point_bytes(curve)
    if len(data) < 8:
        raise FormatError("points file shorter than its 8-byte count")
    (n,) = struct.unpack_from("<Q", data)
    if len(data) != 8 + n * size:
        raise FormatError(f"points file: count {n} needs {8 + n * size} bytes, file has {len(data)}")
    return [_decode(data[8 + i * size:8 + (i + 1) * size], i, curve) for i in range(n)]


def serialize_scalars(scalars) -> bytes:
    return struct.pack("<Q", len(scalars)) + pack_scalars(scalars)


def deserialize_scalars(data: bytes) -> list[int]:
    if len(data) < 8:
        raise FormatError("scalars file shorter than its 8-byte count")
    (n,) = struct.unpack_from("<Q", data)
    if len(data) != 8 + n * SCALAR_BYTES:
        raise FormatError(f"scalars file: count {n} needs {8 + n * SCALAR_BYTES} bytes, file has {len(data)}")
    return unpack_scalars(data[8:])
