"""sw/host-msm (the native host side) against the Python model: the same data sets, point records, bucket read-outs
and results bit for bit; bad-input errors; the C ABI from C under valgrind."""
from __future__ import annotations

import os
import random
import shutil
import subprocess
from pathlib import Path

import pytest

from zkspinal.refs import cargo
from zkspinal.tools.host_msm import ROOT, TARGET, build_host, host_library
from reference_model import msm, msm_data, msm_formats
from reference_model.curves import FQ, FR, G1, HW, TE

RNG_SEED = 5050
R = FR.p


@pytest.fixture(scope="module", autouse=True)
def host() -> Path:
    """the host library: arkworks' results, and the window-spec grammar the model parses with"""
    return build_host()


def test_cargo_unit_tests():
    """the crate's own unit tests (`cargo test`: the window-spec grammar every tool reads)"""
    r = subprocess.run([cargo(), "test", "--release", "--locked", "--lib", "--quiet"], cwd=ROOT / "sw" / "host-msm",
                       env={**os.environ, "CARGO_TARGET_DIR": str(TARGET)}, capture_output=True, text=True)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    assert "test result: ok" in r.stdout and " 0 failed" in r.stdout, r.stdout


def test_board_windows_are_the_generators():
    """the host library's default layout per curve (Curve::board_windows: zk-msm's and sw/msm-fpga's default) is the
    one the generator gives the curve's board tops (their configurations' windows: no board top is emitted here)"""
    from zkspinal.paths import msm_configs
    import ctypes
    lib = ctypes.CDLL(str(host_library()))
    lib.zkmsm_curve_board_windows.restype = ctypes.c_char_p
    tops = {0: ["MsmAxis_vu9p"], 1: ["MsmAxis_bn254_vu9p", "MsmAxis_bn254_c1100"], 2: ["MsmAxis_bls12_381_vu9p"]}
    for code, names in tops.items():
        spec = lib.zkmsm_curve_board_windows(code).decode()
        widths = [int(w) for part in spec.split(",") for w in
                  ([part.split("x")[0]] * int(part.split("x")[1]) if "x" in part else [part])]
        for t in names:
            cfg = msm_configs()[t]
            assert cfg["windows"] == widths and cfg["curve"].startswith(("bls12_377", "bn254", "bls12_381")[code]), \
                (t, spec)
    assert lib.zkmsm_curve_board_windows(9) is None


def run(host, *args, ok=True):
    out = subprocess.run([str(host), *map(str, args)], capture_output=True, text=True)
    if ok and out.returncode:
        raise AssertionError(f"host-msm {' '.join(map(str, args))}: {out.stderr}")
    return out


def rand_g1(rng):
    return G1.mul(G1.generator, rng.randrange(1, R))


def non_g1_point(rng):
    while True:
        P = G1.lift_x(rng.randrange(FQ.p))
        if P is not None and not G1.in_subgroup(P):
            return P


def edge_set(rng):
    """G1 points with repeats, a negation, infinity, all five points without a twisted Edwards image; scalars
    with 0, 1, r-1 and repeats."""
    base = [rand_g1(rng) for _ in range(10)]
    points = base + [base[0], base[0], G1.neg(base[1]), None, None] + TE.exceptional_points()
    scalars = [rng.randrange(R) for _ in points]
    scalars[0:4] = [0, 1, R - 1, R - 1]
    scalars[11] = scalars[1]            # base[1] and -base[1] with the same scalar
    return points, scalars


# ---- constants and generated data -----------------------------------------------------------------------
def test_constants_match_model(host):
    lines = dict(line.split() for line in run(host, "consts").stdout.splitlines())
    assert int(lines["s"], 16) == TE.s and int(lines["c"], 16) == TE.c and int(lines["d"], 16) == TE.d
    assert int(lines["identity_record"], 16).to_bytes(msm_formats.records_of().point_bytes, "big")[::-1] == \
        msm_formats.pack_point_records([HW.IDENTITY_Q])


@pytest.mark.parametrize("trivial", [False, True])
def test_gen_matches_model(host, tmp_path, trivial):
    flag = ["--trivial"] if trivial else []
    run(host, "gen", "--npow", 5, "--seed", 99, "--out", tmp_path / "rust", *flag)
    points, scalars = msm_data.generate(5, 99, trivial)
    msm_data.save(tmp_path / "py", points, scalars)
    for name in ("points", "scalars"):
        assert (tmp_path / "rust" / name).read_bytes() == (tmp_path / "py" / name).read_bytes(), name
    if trivial:
        assert set(points) == {G1.generator} and scalars[0] and not any(scalars[1:])
    assert msm_data.load(tmp_path / "rust") == (points, scalars)


# ---- point records --------------------------------------------------------------------------------------
def test_point_records_match_model(host, tmp_path):
    rng = random.Random(RNG_SEED)
    points, scalars = edge_set(rng)
    points.append(non_g1_point(rng))
    scalars.append(rng.randrange(R))
    msm_data.save(tmp_path, points, scalars)
    for check in (False, True):
        out = tmp_path / f"records{check}.bin"
        flags = ["--check-subgroup"] if check else []
        printed = run(host, "precompute", "--dir", tmp_path, "--out", out, *flags).stdout.split()
        pre = msm.precompute_points(points, check_subgroup=check)
        assert out.read_bytes() == msm_formats.pack_point_records(pre.records)
        assert [int(i) for i in printed[2:]] == pre.exceptions and int(printed[1]) == len(pre.exceptions)
        assert len(pre.exceptions) == 5 + check     # the five without an image (+ the non-G1 point when checked)


# ---- bucket read-out and post-processing ----------------------------------------------------------------
@pytest.mark.parametrize("windows", ["13x13,12x7", "5x50,3", "16x16", "3x84,1", "11x23"])
def test_buckets_and_result_match_model(host, tmp_path, windows):
    rng = random.Random(windows)
    points, scalars = edge_set(rng)
    points += [rand_g1(rng) for _ in range(12)]
    scalars += [rng.randrange(R) for _ in range(12)]
    layout = msm.WindowLayout.parse(windows)
    msm_data.save(tmp_path, points, scalars)
    pre = msm.precompute_points(points, check_subgroup=False)
    buckets = msm.accumulate_buckets(layout, pre.records, scalars)
    data = msm_formats.pack_bucket_records(layout, buckets)
    run(host, "buckets", "--dir", tmp_path, "--out", tmp_path / "b.bin", "--windows", windows)
    assert (tmp_path / "b.bin").read_bytes() == data                    # the engine model agrees bit for bit
    (tmp_path / "py.bin").write_bytes(data)
    expected = msm.format_result(msm.postprocess(layout, buckets, points, scalars, pre.exceptions))
    assert run(host, "post", "--dir", tmp_path, "--buckets", tmp_path / "py.bin", "--windows", windows).stdout.strip() \
        == expected
    assert run(host, "msm", "--dir", tmp_path).stdout.strip() == expected   # arkworks


def test_post_merges_partial_buckets(host, tmp_path):
    """A read-out with partial buckets (post --partials N, what zk-msm passes from the engine's PARTIALS): the
    first points in the buckets, the rest of every bucket they hit in partials, the result unchanged."""
    rng = random.Random(11)
    points = [rand_g1(rng) for _ in range(8)]
    scalars = [rng.randrange(R) for _ in range(4)] + [7, 7, 9, 9]
    layout = msm.WindowLayout.parse("16x16")
    msm_data.save(tmp_path, points, scalars)
    pre = msm.precompute_points(points, check_subgroup=False)
    head = msm.accumulate_buckets(layout, pre.records[:6], scalars[:6])
    tail = msm.accumulate_buckets(layout, pre.records[6:], scalars[6:])
    parts = [(j, k, S) for j, w in enumerate(tail) for k, S in enumerate(w, start=1) if S != msm.HW.IDENTITY_S]
    lp = msm.WindowLayout(layout.widths, partials=len(parts) + 3)
    (tmp_path / "p.bin").write_bytes(msm_formats.pack_bucket_records(lp, head, parts))
    want = run(host, "msm", "--dir", tmp_path).stdout.strip()
    got = run(host, "post", "--dir", tmp_path, "--buckets", tmp_path / "p.bin", "--windows", "16x16",
              "--partials", lp.partials).stdout.strip()
    assert got == want
    bad = run(host, "post", "--dir", tmp_path, "--buckets", tmp_path / "p.bin", "--windows", "16x16", ok=False)
    assert bad.returncode == 1 and "partial" in bad.stderr


def test_host_end_to_end_against_arkworks(host, tmp_path):
    """1024 generated points: records, engine model, post-processing, all in the host crate, against arkworks and
    against the model's post-processing of the same read-out."""
    run(host, "gen", "--npow", 10, "--seed", 4, "--out", tmp_path)
    run(host, "buckets", "--dir", tmp_path, "--out", tmp_path / "b.bin")
    got = run(host, "post", "--dir", tmp_path, "--buckets", tmp_path / "b.bin").stdout.strip()
    assert got == run(host, "msm", "--dir", tmp_path).stdout.strip()
    points, scalars = msm_data.load(tmp_path)
    buckets = msm_formats.unpack_bucket_records(msm.DEFAULT_LAYOUT, (tmp_path / "b.bin").read_bytes(), FQ.p)
    assert msm.format_result(msm.postprocess(msm.DEFAULT_LAYOUT, buckets)) == got


@pytest.mark.long
def test_host_end_to_end_large(host, tmp_path):
    run(host, "gen", "--npow", 16, "--seed", 8, "--out", tmp_path)
    run(host, "buckets", "--dir", tmp_path, "--out", tmp_path / "b.bin")
    got = run(host, "post", "--dir", tmp_path, "--buckets", tmp_path / "b.bin").stdout.strip()
    assert got == run(host, "msm", "--dir", tmp_path).stdout.strip()


# ---- bad input ------------------------------------------------------------------------------------------
def _error(host, *args) -> str:
    out = run(host, *args, ok=False)
    assert out.returncode == 1, (out.returncode, out.stderr)
    assert out.stdout == ""
    return out.stderr


def test_bad_inputs_are_named(host, tmp_path):
    rng = random.Random(RNG_SEED + 1)
    points = [rand_g1(rng) for _ in range(4)]
    scalars = [rng.randrange(R) for _ in range(4)]
    good = tmp_path / "good"
    msm_data.save(good, points, scalars)
    run(host, "buckets", "--dir", good, "--out", tmp_path / "b.bin")

    off = tmp_path / "off"
    msm_data.save(off, points[:2] + [(points[2][0], (points[2][1] + 1) % FQ.p)] + points[3:], scalars)
    assert "points[2]" in _error(host, "precompute", "--dir", off, "--out", tmp_path / "x")
    assert "points[2]" in _error(host, "msm", "--dir", off)

    big = tmp_path / "big"
    msm_data.save(big, points, scalars[:1] + [R] + scalars[2:])
    assert "scalars[1]" in _error(host, "post", "--dir", big, "--buckets", tmp_path / "b.bin")

    uneq = tmp_path / "uneq"
    msm_data.save(uneq, points, scalars)
    (uneq / "scalars").write_bytes(msm_formats.serialize_scalars(scalars[:3]))
    assert "4 points but 3 scalars" in _error(host, "buckets", "--dir", uneq, "--out", tmp_path / "x")

    trunc = tmp_path / "trunc"
    msm_data.save(trunc, points, scalars)
    (trunc / "points").write_bytes((trunc / "points").read_bytes()[:-5])
    assert "count 4 needs" in _error(host, "precompute", "--dir", trunc, "--out", tmp_path / "x")

    data = (tmp_path / "b.bin").read_bytes()
    rb = msm_formats.records_of().bucket_bytes
    cases = {
        "short": (data[:-rb], "bucket data is"),
        "swapped": (data[:rb] + data[2 * rb:3 * rb] + data[rb:2 * rb] + data[3 * rb:],
                    "bucket record 1: tag says window 0 bucket 3, expected window 0 bucket 2"),
        "big": (data[:5 * rb] + (int.from_bytes(data[5 * rb:6 * rb], "little") | msm_formats.records_of().bucket_fields[0].mask).to_bytes(rb, "little")
                + data[6 * rb:], "bucket record 5 (window 0 bucket 6): a coordinate is >= p"),
    }
    for name, (blob, msg) in cases.items():
        (tmp_path / f"{name}.bin").write_bytes(blob)
        assert msg in _error(host, "post", "--dir", good, "--buckets", tmp_path / f"{name}.bin"), name
    assert "--windows" in _error(host, "post", "--dir", good, "--buckets", tmp_path / "b.bin", "--windows", "13x5")
    assert run(host, "frobnicate", ok=False).returncode == 2


# ---- the C ABI ------------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def capi_check(host) -> Path:
    exe = ROOT / "build" / "msm" / "capi_check"
    exe.parent.mkdir(parents=True, exist_ok=True)
    src = ROOT / "sw" / "host-msm" / "tests" / "capi_check.c"
    subprocess.run(["cc", "-std=c11", "-Wall", "-Wextra", "-Werror", "-O1", "-g",
                    f"-I{ROOT / 'sw' / 'host-msm' / 'include'}", str(src), f"-L{TARGET / 'release'}", "-lzkmsm",
                    f"-Wl,-rpath,{TARGET / 'release'}", "-o", str(exe)], check=True)
    assert host_library().exists()
    return exe


def test_c_abi_matches_model_without_leaks(capi_check, tmp_path):
    if shutil.which("valgrind") is None:
        pytest.fail("valgrind is not installed (apt-get install valgrind)")
    rng = random.Random(RNG_SEED + 2)
    points, scalars = edge_set(rng)
    layout = msm.WindowLayout.parse("8x31,5")
    msm_data.save(tmp_path, points, scalars)
    pre = msm.precompute_points(points, check_subgroup=False)
    buckets = msm.accumulate_buckets(layout, pre.records, scalars)
    (tmp_path / "b.bin").write_bytes(msm_formats.pack_bucket_records(layout, buckets))
    expected = msm.format_result(msm.postprocess(layout, buckets, points, scalars, pre.exceptions))
    cmd = ["valgrind", "--quiet", "--leak-check=full", "--errors-for-leak-kinds=definite,indirect",
           "--error-exitcode=9", str(capi_check), "--dir", str(tmp_path), "--buckets", str(tmp_path / "b.bin"),
           "--records", str(tmp_path / "rec.bin"), "--windows", ",".join(map(str, layout.widths))]
    out = subprocess.run(cmd, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0] == "exceptions " + " ".join(map(str, [len(pre.exceptions), *pre.exceptions]))
    assert lines[1] == f"result {expected}" and lines[2] == f"cpu {expected}" and lines[3] == "errors ok"
    assert (tmp_path / "rec.bin").read_bytes() == msm_formats.pack_point_records(pre.records)
