"""sw/host-msm on the XYZZ curves (BN254; BLS12-381 where the records are not involved) against the Python model:
the same generated data sets bit for bit, the same point records and bucket read-outs, the same results as the
model's post-processing and arkworks'; points off the curve or (BLS12-381) off the subgroup refused."""
from __future__ import annotations

import random
import subprocess
from pathlib import Path

import pytest

from zkspinal.tools.host_msm import build_host
from reference_model import msm, msm_data, msm_formats
from reference_model.curves import bls12_381, bn254
from reference_model.curves.adders import adder_of

CURVES = {"bn254": bn254.G1, "bls12_381": bls12_381.G1}


@pytest.fixture(scope="module")
def host() -> Path:
    return build_host()


def run(host, *args, ok=True):
    out = subprocess.run([str(host), *map(str, args)], capture_output=True, text=True)
    if ok and out.returncode:
        raise AssertionError(f"host-msm {' '.join(map(str, args))}: {out.stderr}")
    return out


def fq_bytes(G) -> int:
    return (G.p.bit_length() + 7) // 8


def save(G, d: Path, points, scalars):
    """the data set in arkworks' encoding of G's points (msm_formats: zcash style on BLS12-381)"""
    msm_data.save(d, points, scalars, G)


def fmt(G, P) -> str:
    n = 2 * fq_bytes(G)
    return "infinity" if P is None else f"0x{P[0]:0{n}x} 0x{P[1]:0{n}x}"


@pytest.mark.parametrize("curve", list(CURVES))
def test_gen_matches_model(host, tmp_path, curve):
    G = CURVES[curve]
    run(host, "gen", "--curve", curve, "--npow", 4, "--seed", 99, "--out", tmp_path)
    points, scalars = msm_data.generate(4, 99, curve=G)
    assert (tmp_path / "points").read_bytes() == msm_formats.serialize_points(points, G)   # arkworks' encoding
    assert (tmp_path / "scalars").read_bytes() == msm_formats.serialize_scalars(scalars)


def edge_set(G, rng):
    R = G.order
    base = [G.mul(G.generator, rng.randrange(1, R)) for _ in range(10)]
    points = base + [base[0], base[0], G.neg(base[1]), None, G.generator]
    scalars = [rng.randrange(R) for _ in points]
    scalars[0:4] = [0, 1, R - 1, R - 1]
    scalars[11] = scalars[1]
    return points, scalars


@pytest.mark.parametrize("windows", ["13x20", "8x32", "5x51"])
def test_bn254_records_buckets_and_result_match_model(host, tmp_path, windows):
    G, adder = bn254.G1, adder_of("bn254")
    rng = random.Random(windows)
    points, scalars = edge_set(G, rng)
    save(G, tmp_path, points, scalars)
    pre = msm.precompute_points(points, check_subgroup=True, adder=adder)
    run(host, "precompute", "--curve", "bn254", "--dir", tmp_path, "--out", tmp_path / "rec.bin")
    assert (tmp_path / "rec.bin").read_bytes() == msm_formats.pack_point_records(pre.records, adder=adder)
    layout = msm.WindowLayout(msm.WindowLayout.parse(windows).widths, order=G.order)
    buckets = msm.accumulate_buckets(layout, pre.records, msm.effective_scalars(scalars, pre.records, adder),
                                     adder=adder)
    data = msm_formats.pack_bucket_records(layout, buckets, adder=adder)
    run(host, "buckets", "--curve", "bn254", "--dir", tmp_path, "--out", tmp_path / "b.bin", "--windows", windows)
    assert (tmp_path / "b.bin").read_bytes() == data
    expected = fmt(G, msm.postprocess(layout, buckets, points, scalars, pre.exceptions, adder=adder))
    assert run(host, "post", "--curve", "bn254", "--dir", tmp_path, "--buckets", tmp_path / "b.bin",
               "--windows", windows).stdout.strip() == expected
    assert run(host, "msm", "--curve", "bn254", "--dir", tmp_path).stdout.strip() == expected   # arkworks


@pytest.mark.parametrize("curve", list(CURVES))
def test_bad_points_refused(host, tmp_path, curve):
    G = CURVES[curve]
    rng = random.Random(36)
    points, scalars = edge_set(G, rng)
    x, y = points[2]
    save(G, tmp_path, points[:2] + [(x, (y + 1) % G.p)] + points[3:], scalars)
    e = run(host, "msm", "--curve", curve, "--dir", tmp_path, ok=False)
    assert e.returncode == 1 and "points[2]: not on the curve" in e.stderr, e.stderr
    if curve == "bls12_381":
        while True:
            P = G.lift_x(rng.randrange(G.p))
            if P is not None and not G.in_subgroup(P):
                break
        save(G, tmp_path, points[:4] + [P] + points[5:], scalars)
        e = run(host, "msm", "--curve", curve, "--dir", tmp_path, ok=False)
        assert "points[4]: not in the prime-order subgroup" in e.stderr, e.stderr
    # another curve's data set: wrong sizes or points off this curve
    other = "bls12_381" if curve == "bn254" else "bn254"
    run(host, "gen", "--curve", other, "--npow", 2, "--seed", 1, "--out", tmp_path / "o")
    e = run(host, "msm", "--curve", curve, "--dir", tmp_path / "o", ok=False)
    assert e.returncode == 1 and "host-msm: error:" in e.stderr
