"""reference_model/msm: window layouts and signed digits, the Pippenger model against arkworks' MSM (crates.io,
through sw/host-msm) and against double-and-add, edge cases, bucket formats, data sets and the CLI."""
from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest

from zkspinal.tools.host_msm import ROOT, build_host
from reference_model import contract as C, msm, msm_data, msm_formats
from reference_model.curves import FQ, FR, G1, HW, TE

R = FR.p
RNG_SEED = 777


@pytest.fixture(scope="module", autouse=True)
def host():
    """the host library: arkworks' results, and the window-spec grammar the model parses with"""
    return build_host()


def arkworks(host, tmp_path, points, scalars) -> str:
    d = tmp_path / f"set{sum(1 for _ in tmp_path.iterdir())}"
    msm_data.save(d, points, scalars)
    out = subprocess.run([str(host), "msm", "--dir", str(d)], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()


def rand_g1(rng):
    return G1.mul(G1.generator, rng.randrange(1, R))


# ---- layouts and digits -------------------------------------------------------------------------------
def test_default_layout():
    L = msm.DEFAULT_LAYOUT
    assert L.widths == (13,) * 13 + (12,) * 7 and sum(L.widths) == 253 and L.offsets[-1] == 241
    assert [L.buckets(j) for j in range(20)] == [4096] * 13 + [2048] * 6 + [2390]
    assert L.total_buckets == 67926
    assert str(L) == "13x13,12x7" and msm.WindowLayout.parse("13x13,12x7") == L
    assert msm.WindowLayout.parse("16, 16,16x14").widths == (16,) * 16


@pytest.mark.parametrize("spec", ["", "13x13", "0,253", "x3", "13x13,12x7,abc", "2x127,1", "22,8x29", "253"])
def test_bad_layouts(spec):
    with pytest.raises(ValueError):
        msm.WindowLayout.parse(spec)


@pytest.mark.parametrize("spec", ["13x13,12x7", "16x16", "1,2x126", "7x36,1", "21,8x29", "20x12,13"])
def test_signed_digits_recombine(spec):
    L = msm.WindowLayout.parse(spec)
    rng = random.Random(spec)
    specials = [0, 1, R - 1, R - 2, (1 << 252), (R - 1) >> 1] + [(1 << o) - 1 for o in L.offsets[1:]] + \
               [(1 << (o + w - 1)) for o, w in zip(L.offsets, L.widths) if o + w - 1 < 253]
    for s in specials + [rng.randrange(R) for _ in range(300)]:
        if not 0 <= s < R:
            continue
        d = L.digits(s)
        assert sum(dj << o for dj, o in zip(d, L.offsets)) == s
        for j, dj in enumerate(d):
            assert abs(dj) <= L.buckets(j)
            if j == L.num_windows - 1:
                assert dj >= 0
            else:
                assert -(1 << (L.widths[j] - 1)) <= dj < (1 << (L.widths[j] - 1))
    top = L.num_windows - 1
    worst = max(L.digits(s)[top] for s in specials if 0 <= s < R)
    assert worst <= L.buckets(top)
    with pytest.raises(ValueError):
        L.digits(R)


def test_top_window_bucket_count_is_tight():
    L = msm.DEFAULT_LAYOUT
    # a scalar whose top digit reaches the bound: top bits of r-1 plus a carry from the window below
    s = ((R - 1) >> 241 << 241) | (1 << 240)
    assert s < R and L.digits(s)[-1] == L.buckets(19)


# ---- MSM against arkworks and double-and-add ----------------------------------------------------------
@pytest.mark.parametrize("n", [1, 2, 3, 16, 1024])
def test_random_msm_against_arkworks(host, tmp_path, n):
    points, scalars = msm_data.generate(max(n - 1, 0).bit_length(), seed=n)
    points, scalars = points[:n], scalars[:n]
    got = msm.msm_pippenger(points, scalars, check_subgroup=n < 1024)
    assert msm.format_result(got) == arkworks(host, tmp_path, points, scalars)
    if n <= 16:
        assert got == msm.msm_double_and_add(points, scalars)


@pytest.mark.parametrize("spec", ["16x16", "5x50,3", "2x126,1", "11x23"])
def test_other_layouts_against_double_and_add(spec):
    rng = random.Random(spec)
    points = [rand_g1(rng) for _ in range(6)]
    scalars = [rng.randrange(R) for _ in range(5)] + [R - 1]
    assert msm.msm_pippenger(points, scalars, msm.WindowLayout.parse(spec)) == msm.msm_double_and_add(points, scalars)


def _edge_cases(rng):
    P = [rand_g1(rng) for _ in range(8)]
    ex = TE.exceptional_points()
    some = [rng.randrange(R) for _ in range(8)]
    return {
        "scalar 0, 1, r-1": (P[:3], [0, 1, R - 1]),
        "all scalars zero": (P, [0] * 8),
        "all scalars equal": (P, [some[0]] * 8),
        "all scalars r-1": (P, [R - 1] * 8),
        "repeated point": ([P[0]] * 9, some + [R - 1]),
        "point and its negation": ([P[0], G1.neg(P[0]), P[1]], [some[0], some[0], some[1]]),
        "negation, different scalars": ([P[0], G1.neg(P[0])], [some[0], some[1]]),
        "infinity": ([None, P[0], None], [some[0], some[1], R - 1]),
        "only infinity": ([None, None], [1, R - 1]),
        "no twisted Edwards image": (ex + P[:3], some[:5] + [1, R - 1, some[7]]),
        "hammered bucket": (P, [1 + (5 << 13)] * 4 + [(R - 1) - (5 << 13)] * 4),
        "two alternating values": (P, [some[0], some[1]] * 4),
        "trivial input": ([G1.generator] * 8, [some[0]] + [0] * 7),
    }


def test_edge_cases_against_arkworks_and_double_and_add(host, tmp_path):
    for name, (points, scalars) in _edge_cases(random.Random(RNG_SEED)).items():
        got = msm.msm_pippenger(points, scalars)
        assert got == msm.msm_double_and_add(points, scalars), name
        assert msm.format_result(got) == arkworks(host, tmp_path, points, scalars), name


def test_points_outside_g1_go_to_the_host():
    rng = random.Random(RNG_SEED + 1)
    outside = []
    while len(outside) < 2:
        Q = G1.lift_x(rng.randrange(FQ.p))
        if Q is not None and not G1.in_subgroup(Q):
            outside.append(Q)
    points = outside + [rand_g1(rng)] + TE.exceptional_points()[:1]
    scalars = [rng.randrange(R) for _ in points]
    pre = msm.precompute_points(points)
    assert pre.exceptions == [0, 1, 3] and pre.records[0] == HW.IDENTITY_Q
    assert msm.msm_pippenger(points, scalars) == msm.msm_double_and_add(points, scalars)


# ---- buckets --------------------------------------------------------------------------------------------
def test_bucket_contents_and_postprocessing():
    rng = random.Random(RNG_SEED + 2)
    L = msm.WindowLayout.parse("6x42,1")
    points = [rand_g1(rng) for _ in range(40)]
    scalars = [rng.randrange(R) for _ in range(40)]
    pre = msm.precompute_points(points)
    buckets = msm.accumulate_buckets(L, pre.records, scalars)
    # every bucket holds exactly the signed sum of its points
    for j in range(L.num_windows):
        for k in range(1, L.buckets(j) + 1):
            want = None
            for P, s in zip(points, scalars):
                d = L.digits(s)[j]
                if abs(d) == k:
                    want = G1.add(want, P if d > 0 else G1.neg(P))
            S = buckets[j][k - 1]
            assert HW.consistent(S)
            assert TE.from_edwards(TE.to_affine(HW.to_extended(S))) == want
    dense = msm.postprocess(L, buckets, dense=True)
    assert dense == msm.postprocess(L, buckets) == msm.msm_double_and_add(points, scalars)
    # another arrival order gives the same points in other coordinates
    order = list(range(40))
    rng.shuffle(order)
    shuffled = msm.accumulate_buckets(L, [pre.records[i] for i in order], [scalars[i] for i in order])
    assert shuffled != buckets
    assert all(msm.buckets_equivalent(a, b) for wa, wb in zip(buckets, shuffled) for a, b in zip(wa, wb))


def test_bucket_records_roundtrip_and_errors():
    rng = random.Random(RNG_SEED + 3)
    L = msm.WindowLayout.parse("4x63,1")
    points = [rand_g1(rng) for _ in range(5)]
    scalars = [rng.randrange(R) for _ in range(5)]
    buckets = msm.accumulate_buckets(L, msm.precompute_points(points).records, scalars)
    data = msm_formats.pack_bucket_records(L, buckets)
    rb = msm_formats.records_of().bucket_bytes
    assert len(data) == L.total_buckets * rb
    assert msm_formats.unpack_bucket_records(L, data, FQ.p) == buckets
    # the record layout, bit by bit, as the contract declares it (MsmRecord): U V W T, then the tag (window, bucket)
    n = FQ.p.bit_length()
    rec = int.from_bytes(data[rb * 9:rb * 10], "little")
    fields = (C.MSM_RECORD_BUCKET_U, C.MSM_RECORD_BUCKET_V, C.MSM_RECORD_BUCKET_W, C.MSM_RECORD_BUCKET_T)
    tag = C.MSM_RECORD_TAG_WINDOW.put(1) | C.MSM_RECORD_TAG_BUCKET.put(2)
    assert rec == sum(f.at(n).put(v) for f, v in zip(fields, buckets[1][1])) | C.MSM_RECORD_BUCKET_TAG.at(n).put(tag)
    W = C.MSM_RECORD_BUCKET_W.at(n)
    with pytest.raises(msm_formats.FormatError, match="needs"):
        msm_formats.unpack_bucket_records(L, data[:-rb], FQ.p)
    with pytest.raises(msm_formats.FormatError, match="bucket record 1: tag says window 0 bucket 3"):
        msm_formats.unpack_bucket_records(L, data[:rb] + data[2 * rb:3 * rb] + data[rb:2 * rb] + data[3 * rb:], FQ.p)
    zero_w = int.from_bytes(data[:rb], "little") & ~W.mask
    with pytest.raises(msm_formats.FormatError, match="W = 0"):
        msm_formats.unpack_bucket_records(L, zero_w.to_bytes(rb, "little") + data[rb:], FQ.p)
    big = int.from_bytes(data[:rb], "little") | C.MSM_RECORD_BUCKET_U.at(n).mask
    with pytest.raises(msm_formats.FormatError, match=">= p"):
        msm_formats.unpack_bucket_records(L, big.to_bytes(rb, "little") + data[rb:], FQ.p)


def test_partial_bucket_records_merge_and_errors():
    """A read-out with partial buckets (the engine spreads a hot bucket over them): buckets of the first points,
    partials holding the rest of two buckets' points, unclaimed partials as the identity tagged 0/0."""
    rng = random.Random(RNG_SEED + 5)
    L = msm.WindowLayout.parse("4x63,1")
    LP = msm.WindowLayout(L.widths, partials=4)
    assert LP.total_records == L.total_buckets + 4
    records = msm.precompute_points([rand_g1(rng) for _ in range(6)]).records
    scalars = [3, 3, 3, 5, 3, 5]                     # window 0 only: buckets 3 and 5 (2 is also hit, k = 5 -> -3)
    whole = msm.accumulate_buckets(L, records, scalars)
    head = msm.accumulate_buckets(L, records[:3], scalars[:3])
    tail = msm.accumulate_buckets(L, records[3:], scalars[3:])
    parts = [(j, k, S) for j, w in enumerate(tail) for k, S in enumerate(w, start=1) if S != msm.HW.IDENTITY_S]
    assert 1 <= len(parts) <= 2
    data = msm_formats.pack_bucket_records(LP, head, parts)
    rb, first, n = msm_formats.records_of().bucket_bytes, L.total_buckets, FQ.p.bit_length()
    assert len(data) == LP.total_records * rb
    got = msm_formats.unpack_bucket_records(LP, data, FQ.p)
    assert msm.same_buckets(got, whole) and not msm.same_buckets(head, whole)
    unclaimed = data[(first + 3) * rb:(first + 4) * rb]
    assert unclaimed == msm_formats.pack_bucket_records(msm.WindowLayout(L.widths, partials=1), head)[-rb:]
    tag = C.MSM_RECORD_BUCKET_TAG.at(n)
    bad_tag = int.from_bytes(data[first * rb:(first + 1) * rb], "little") | tag.put(C.MSM_RECORD_TAG_WINDOW.put(63))
    with pytest.raises(msm_formats.FormatError, match="outside the layout"):
        msm_formats.unpack_bucket_records(LP, data[:first * rb] + bad_tag.to_bytes(rb, "little") + data[(first + 1) * rb:],
                                          FQ.p)
    not_identity = data[:first * rb] + data[first * rb:(first + 3) * rb] + \
        (int.from_bytes(data[first * rb:(first + 1) * rb], "little") & ~tag.mask).to_bytes(rb, "little")
    with pytest.raises(msm_formats.FormatError, match="unclaimed"):
        msm_formats.unpack_bucket_records(LP, not_identity, FQ.p)
    with pytest.raises(ValueError, match="room"):
        msm_formats.pack_bucket_records(msm.WindowLayout(L.widths, partials=0), head, parts)


def test_stream_words():
    rng = random.Random(RNG_SEED + 4)
    scalars = [rng.randrange(R) for _ in range(3)]
    stream = msm_formats.scalar_stream(scalars)
    assert len(stream) == 128 and stream[96:] == bytes(32)
    assert msm_formats.unpack_scalars(stream[:96]) == scalars
    pre = msm.precompute_points([rand_g1(rng), None])
    data = msm_formats.pack_point_records(pre.records)
    assert len(data) == 2 * msm_formats.records_of().point_bytes and msm_formats.unpack_point_records(data, FQ.p) == pre.records
    with pytest.raises(msm_formats.FormatError, match=f"point record 1: bits above {msm_formats.records_of().point_end}"):
        msm_formats.unpack_point_records(data[:-1] + b"\x01", FQ.p)


# ---- data sets ------------------------------------------------------------------------------------------
def test_generate_save_load(tmp_path):
    points, scalars = msm_data.generate(4, seed=3)
    assert len(points) == 16 and all(G1.in_subgroup(P) for P in points) and all(0 <= s < R for s in scalars)
    assert msm_data.generate(4, seed=3) == (points, scalars) and msm_data.generate(4, seed=4) != (points, scalars)
    pts = points[:3] + [None]
    msm_data.save(tmp_path / "d", pts, scalars[:4])
    assert msm_data.load(tmp_path / "d") == (pts, scalars[:4])
    doc = msm_data.to_json(pts, scalars[:4])
    assert msm_data.from_json(json.loads(json.dumps(doc))) == (pts, scalars[:4])
    tp, ts = msm_data.generate(3, seed=1, trivial=True)
    assert tp == [G1.generator] * 8 and ts[0] != 0 and ts[1:] == [0] * 7


# ---- CLI ------------------------------------------------------------------------------------------------
def cli(*args):
    return subprocess.run([sys.executable, "-m", "reference_model.msm", *map(str, args)], capture_output=True,
                          text=True, cwd=ROOT)


def test_cli_run(host, tmp_path):
    rng = random.Random(RNG_SEED + 5)
    points = [rand_g1(rng) for _ in range(5)] + [None]
    scalars = [rng.randrange(R) for _ in range(6)]
    doc = msm_data.to_json(points, scalars)
    doc["comment"] = "other keys are ignored"
    f = tmp_path / "in.json"
    f.write_text(json.dumps(doc))
    out = cli("run", "--input", f)
    assert out.returncode == 0, out.stderr
    line = out.stdout.strip()
    assert line == arkworks(host, tmp_path, points, scalars)
    assert len(line.split()) == 2 and all(len(h) == 98 and h.startswith("0x") for h in line.split())
    assert cli("run", "--input", f, "--windows", "16x16").stdout.strip() == line
    assert cli("run", "--input", f, "--method", "double-and-add").stdout.strip() == line
    f.write_text(json.dumps(msm_data.to_json(points[:2], [0, 0])))
    assert cli("run", "--input", f).stdout.strip() == "infinity"
    ds = tmp_path / "ds"
    assert cli("gen", "--npow", 3, "--seed", 5, "--out", ds).returncode == 0
    p8, s8 = msm_data.load(ds)
    assert cli("run", "--input", ds).stdout.strip() == msm.format_result(msm.msm_double_and_add(p8, s8))


def test_cli_streams_and_post(tmp_path):
    rng = random.Random(RNG_SEED + 6)
    points = [rand_g1(rng) for _ in range(4)] + TE.exceptional_points()[:1]
    scalars = [rng.randrange(R) for _ in range(5)]
    f = tmp_path / "in.json"
    f.write_text(json.dumps(msm_data.to_json(points, scalars)))
    out = cli("streams", "--input", f, "--out", tmp_path / "s", "--windows", "9x28,1")
    assert out.returncode == 0, out.stderr
    s = tmp_path / "s"
    assert (s / "exceptions.txt").read_text() == "4\n"
    rb = msm_formats.records_of().point_bytes
    assert (s / "scalars.bin").stat().st_size == 3 * C.MSM_RECORD_SCALARS.bytes() and (s / "points.bin").stat().st_size == 5 * rb
    want = msm.format_result(msm.msm_double_and_add(points, scalars))
    assert (s / "result.txt").read_text().strip() == want == out.stdout.strip()
    post = cli("post", "--input", f, "--buckets", s / "buckets.bin", "--windows", "9x28,1")
    assert post.returncode == 0 and post.stdout.strip() == want
    bad = cli("post", "--input", f, "--buckets", s / "buckets.bin")
    assert bad.returncode == 1 and "bucket data is" in bad.stderr


def _bad(tmp_path, text, *extra):
    f = tmp_path / "bad.json"
    f.write_text(text)
    out = cli("run", "--input", f, *extra)
    assert out.returncode == 1 and out.stdout == "", (out.returncode, out.stdout, out.stderr)
    assert out.stderr.startswith("msm: error: ")
    return out.stderr


def test_cli_bad_input(tmp_path):
    g = G1.generator
    ok = {"x": f"0x{g[0]:x}", "y": f"0x{g[1]:x}"}
    cases = [
        ({"points": [ok, {"x": ok["x"], "y": f"0x{(g[1] + 1) % FQ.p:x}"}], "scalars": ["0x1", "0x2"]},
         "points[1]: ", "is not on the curve"),
        ({"points": [ok, ok], "scalars": ["0x1", f"0x{R:x}"]}, "scalars[1]: 0x", "is not below r"),
        ({"points": [ok, ok], "scalars": ["0x1"]}, "2 points but 1 scalars", ""),
        ({"points": [ok], "scalars": ["12"]}, "scalars[0]: '12' is not 0x-prefixed hex", ""),
        ({"points": [ok], "scalars": ["0xzz"]}, "scalars[0]: '0xzz' is not valid hex", ""),
        ({"points": [{"x": f"0x{FQ.p:x}", "y": "0x0"}], "scalars": ["0x1"]}, "points[0].x: 0x", "is not below p"),
        ({"points": ["inf"], "scalars": ["0x1"]}, "points[0]: expected", ""),
        ({"points": [ok]}, "missing key 'scalars'", ""),
        ({"points": ok, "scalars": []}, "points: expected a list", ""),
        ([1, 2], "top level: expected an object", ""),
    ]
    for doc, must, also in cases:
        err = _bad(tmp_path, json.dumps(doc))
        assert must in err and also in err, (doc, err)
    err = _bad(tmp_path, '{"points": [], "scalars": [}')
    assert "malformed JSON" in err and "line 1 column" in err
    assert "--windows" in _bad(tmp_path, json.dumps({"points": [ok], "scalars": ["0x1"]}), "--windows", "13x3")
    missing = cli("run", "--input", tmp_path / "nope.json")
    assert missing.returncode == 1 and "No such file" in missing.stderr
    assert cli("run").returncode == 2 and cli("bogus").returncode == 2


# ---- the Weierstrass curves (XYZZ adder) --------------------------------------------------------------
def _py_ecc_msm(name, points, scalars):
    """sum s_i P_i by py_ecc (bn128, bls12_381): an independent reference"""
    from py_ecc import optimized_bls12_381, optimized_bn128
    E = {"bn254": optimized_bn128, "bls12_381": optimized_bls12_381}[name]
    acc = E.Z1
    for P, s in zip(points, scalars):
        if P is not None:
            acc = E.add(acc, E.multiply((E.FQ(P[0]), E.FQ(P[1]), E.FQ.one()), s))
    if E.is_inf(acc):
        return None
    x, y = E.normalize(acc)
    return int(x.n), int(y.n)


@pytest.mark.parametrize("name", ["bn254", "bls12_381"])
def test_weierstrass_msm_every_set(name):
    """Pippenger with the XYZZ adder (buckets in order) against double-and-add and py_ecc, on random and adversarial
    sets: every addition a doubling (equal points, equal scalars), P and -P alternating, infinity in the input,
    scalars 0, 1 and r - 1, half-ones, below 2^16, the hammer; every case of the adder is met."""
    from reference_model.curves import ADDERS
    A = ADDERS[name]
    C = A.curve
    rng = random.Random(RNG_SEED + 40)
    layout = msm.WindowLayout((8,) * -(-C.order.bit_length() // 8), order=C.order)
    n = 12
    base = [C.mul(C.generator, rng.randrange(1, C.order)) for _ in range(n)]
    P0 = base[0]
    point_sets = {
        "random": base,
        "equal": [P0] * n,
        "alternating": [P0 if i % 2 == 0 else C.neg(P0) for i in range(n)],
        "infinity": [None if i % 3 == 0 else P for i, P in enumerate(base)],
    }
    cases = set()
    for pname, points in point_sets.items():
        for sname in ("random", "equal", "zero", "max", "half_ones", "below16", "hammer"):
            scalars = msm_data.scalar_set(sname, layout, n, rng)
            scalars[0] = {"zero": 0, "max": C.order - 1}.get(sname, 1 if sname == "half_ones" else scalars[0])
            want = msm.msm_double_and_add(points, scalars, C)
            got = msm.msm_pippenger(points, scalars, layout, adder=A)
            assert got == want, (pname, sname)
            assert msm.postprocess(layout, msm.accumulate_buckets(layout, msm.precompute_points(points, adder=A)
                                                                  .records, scalars, A), dense=True, adder=A) == want
            if pname in ("random", "equal") and sname in ("random", "equal"):
                assert got == _py_ecc_msm(name, points, scalars), (pname, sname)
            # which special cases the in-order accumulation meets
            B = {}
            for Q, s in zip(msm.precompute_points(points, adder=A).records, scalars):
                for j, d in enumerate(layout.digits(s)):
                    if d:
                        key = (j, abs(d))
                        B[key], case = A.add_case(B.get(key, A.identity_bucket), Q, negate=d < 0)
                        cases.add(case)
    assert cases == {"add", "load", "skip", "double", "cancel"}


@pytest.mark.parametrize("name", ["bn254", "bls12_381"])
def test_weierstrass_points_outside_the_subgroup(name):
    """BLS12-381 G1 has a cofactor: a curve point outside G1 becomes a host exception when the subgroup is checked
    (the XYZZ formulas are right on any curve point, so unchecked it is simply added).  BN254 has cofactor 1."""
    from reference_model.curves import ADDERS
    A = ADDERS[name]
    C = A.curve
    rng = random.Random(RNG_SEED + 41)
    while True:
        P = C.lift_x(rng.randrange(C.p), odd_y=rng.random() < 0.5)
        if P is not None:
            break
    assert C.in_subgroup(P) == (C.cofactor == 1)
    points, scalars = [P, C.generator], [rng.randrange(C.order), rng.randrange(C.order)]
    layout = msm.WindowLayout((16,) * 16, order=C.order)
    pre = msm.precompute_points(points, adder=A)
    assert pre.exceptions == ([] if C.cofactor == 1 else [0])
    want = msm.msm_double_and_add(points, scalars, C)
    assert msm.msm_pippenger(points, scalars, layout, adder=A) == want
    assert msm.msm_pippenger(points, scalars, layout, check_subgroup=False, adder=A) == want


@pytest.mark.parametrize("curve", ["bn254", "bls12_381"])
def test_cli_other_curves(tmp_path, curve):
    """The model CLI on --curve: gen writes the curve's data set, run (Pippenger on the curve's default layout and
    double-and-add) equals py_ecc's MSM, streams writes the curve's records (2-beat BN254 points, 4-beat BLS12-381
    buckets) and post reads its buckets back to the same result; the JSON form is refused off BLS12-377."""
    from py_ecc import optimized_bls12_381, optimized_bn128
    E = optimized_bn128 if curve == "bn254" else optimized_bls12_381
    from reference_model.curves import adder_of
    adder = adder_of(curve)
    ds = tmp_path / "ds"
    assert cli("gen", "--curve", curve, "--npow", 3, "--seed", 7, "--out", ds).returncode == 0
    points, scalars = msm_data.load(ds, True, adder.curve)
    assert (points, scalars) == msm_data.generate(3, 7, curve=adder.curve)
    acc = E.Z1
    for P, s in zip(points, scalars):
        acc = E.add(acc, E.multiply((E.FQ(P[0]), E.FQ(P[1]), E.FQ.one()), s))
    want = "0x%096x 0x%096x" % tuple(int(c.n) for c in E.normalize(acc))
    for method in ("pippenger", "double-and-add"):
        out = cli("run", "--curve", curve, "--input", ds, "--method", method)
        assert out.returncode == 0 and out.stdout.strip() == want, out.stderr
    windows = ",".join(["8"] * 32)
    out = cli("streams", "--curve", curve, "--input", ds, "--out", tmp_path / "s", "--windows", windows)
    assert out.returncode == 0 and out.stdout.strip() == want, out.stderr
    R = msm_formats.records_of(adder)
    assert (tmp_path / "s" / "points.bin").stat().st_size == 8 * R.point_bytes
    L = msm.WindowLayout(msm.WindowLayout.parse(windows).widths, order=adder.curve.order)
    assert (tmp_path / "s" / "buckets.bin").stat().st_size == L.total_buckets * R.bucket_bytes
    post = cli("post", "--curve", curve, "--input", ds, "--buckets", tmp_path / "s" / "buckets.bin", "--windows", windows)
    assert post.returncode == 0 and post.stdout.strip() == want, post.stderr
    (tmp_path / "in.json").write_text(json.dumps(msm_data.to_json(points[:1], scalars[:1])))
    bad = cli("run", "--curve", curve, "--input", tmp_path / "in.json")
    assert bad.returncode == 1 and "JSON form is read for bls12_377 only" in bad.stderr, bad.stderr
