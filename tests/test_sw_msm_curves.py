"""zk-msm on the curves other than BLS12-377 through the XDMA emulator: BN254 cards with four 6-bit windows and scalars
< 2^24 as the BLS12-377 small tops (MsmAxis_bn254_small2_model: two adders and a point store, 32 BN254 points per
4 KiB page, for streamed and resident jobs), two-beat point records and three-beat bucket records.
Results against arkworks (zk-msm's own CPU check, and `host-msm msm --curve bn254` on the same data-set directory);
the curve taken from the card's identity (VERSION[31:16]) when --curve is absent; a --curve other than the card's
refused before anything is sent (exit 2), also on a BLS12-377 card (MsmAxis_small2_model), and cards of two curves in
one run; zk-status naming the curve."""
from __future__ import annotations

import json
import os
import shutil
import struct
import subprocess
import time

import pytest

from test_sw_msm import SMALL, built, small_set  # noqa: F401  (the fixture `built`: host-msm and the tools)
from zkspinal.paths import top_info
from zkspinal.tools.host_msm import build_host
from zkspinal.tools.sw import VALGRIND, emulator, ok, tool, zkemu

# one BN254 card build for the quick tier: two adders and a point store, serving streamed and resident jobs
BN_TOP = BN_STORE_TOP = "MsmAxis_bn254_small2_model"
BLS377_TOP = "MsmAxis_small2_model"           # a BLS12-377 card (test_sw_msm's: no build of its own)
MASK24 = (1 << 24) - 1


@pytest.fixture(scope="module")
def bn(built):  # noqa: F811
    with emulator(BN_TOP) as d:
        yield d


def status(dev) -> dict:
    r = ok(tool("zk-status", "-d", dev, "-k", "msm"))
    return dict(line.split(" ", 1) for line in r.stdout.splitlines())


def host_msm(*args) -> str:
    r = subprocess.run([str(build_host()), *map(str, args)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return r.stdout.strip()


def bn254_set(tmp_path, npow: int, seed: int) -> str:
    """host-msm's BN254 data set (the model's generator) with each scalar cut to its low 24 bits, as a data-set
    directory `ds` (64-byte points) and the JSON form `in.json`; arkworks' result (host-msm msm) into expect.txt"""
    ds = tmp_path / "ds"
    host_msm("gen", "--curve", "bn254", "--npow", npow, "--seed", seed, "--out", ds)
    data = (ds / "scalars").read_bytes()
    n = struct.unpack_from("<Q", data)[0]
    scalars = [int.from_bytes(data[8 + 32 * i:40 + 32 * i], "little") & MASK24 for i in range(n)]
    (ds / "scalars").write_bytes(data[:8] + b"".join(s.to_bytes(32, "little") for s in scalars))
    pts = (ds / "points").read_bytes()[8:]
    assert len(pts) == 64 * n  # BN254: x, y little-endian, the flags in the top bits of y's last byte
    points = [{"x": hex(int.from_bytes(pts[64 * i:64 * i + 32], "little")),
               "y": hex(int.from_bytes(pts[64 * i + 32:64 * i + 64], "little") & ((1 << 254) - 1))} for i in range(n)]
    (tmp_path / "in.json").write_text(json.dumps({"curve": "bn254", "points": points,
                                                  "scalars": [hex(s) for s in scalars]}))
    want = host_msm("msm", "--curve", "bn254", "--dir", ds)
    (tmp_path / "expect.txt").write_text(want + "\n")
    return want


def test_bn254_streamed(bn, tmp_path, seed):
    """-g 8 --curve bn254 on the BN254 card: arkworks' result (the tool's CPU check), 2-beat records; without --curve
    the card's identity gives the curve and the same result; the data-set directory and the JSON form of a set agree
    with host-msm's arkworks MSM (-x); chunked lockstep writes (pairs of 2-beat records)"""
    r = ok(tool("zk-msm", "-d", bn, "-g", 8, "--seed", seed, "--curve", "bn254", *SMALL, "-o", tmp_path / "r.txt"))
    assert "bn254: 256 points (0 host exceptions), 160 buckets" in r.stderr and "CPU MSM" in r.stderr, r.stderr
    result = (tmp_path / "r.txt").read_text()
    assert result.startswith("0x") and len(result.split()[0]) == 2 + 64, result  # 32-byte coordinates
    r = ok(tool("zk-msm", "-d", bn, "-g", 8, "--seed", seed, *SMALL))
    assert r.stdout == result and "bn254: 256 points" in r.stderr, f"SEED={seed}"
    want = bn254_set(tmp_path, 5, seed)
    for src in ("ds", "in.json"):
        r = ok(tool("zk-msm", "-d", bn, "-i", tmp_path / src, *SMALL, "-x", tmp_path / "expect.txt"))
        assert r.stdout.strip() == want, f"{src}: SEED={seed}"
    for chunk in (2, 4):
        ok(tool("zk-msm", "-d", bn, "-i", tmp_path / "ds", *SMALL, "-s", chunk, "-x", tmp_path / "expect.txt"))
    s = status(bn)
    assert s["core_curve"] == "bn254" and s["core_version"] == str(top_info(BN_TOP)["ident_version"]), s


def test_bn254_inputs_of_another_curve_refused(bn, tmp_path):
    """the curve flows through the readers: BLS12-377's JSON set and data-set directory on the BN254 card (the curve
    from its identity) are malformed input (exit 2), the coordinates above BN254's p or the files not of 64-byte
    points; the engine is untouched (the next job is right)"""
    small_set(tmp_path, 2, 3)  # BLS12-377's model set: in.json, ds
    r = tool("zk-msm", "-d", bn, "-i", tmp_path / "in.json", *SMALL)
    assert r.returncode == 2 and "points[0].x: 0x" in r.stderr and "is not below p" in r.stderr, r.stderr
    r = tool("zk-msm", "-d", bn, "-i", tmp_path / "ds", *SMALL)
    assert r.returncode == 2 and "64-byte points (bn254)" in r.stderr, r.stderr
    r = tool("zk-msm", "-d", bn, "-g", 2, "--curve", "p256", *SMALL)
    assert r.returncode == 2 and "unknown curve \"p256\"" in r.stderr, r.stderr
    ok(tool("zk-msm", "-d", bn, "-g", 3, *SMALL))


def test_bn254_resident(built, tmp_path, seed):  # noqa: F811
    """--resident on the BN254 card with a point store: the 2-beat records go into card memory (32 per 4 KiB page),
    then scalar-only jobs; chunked loads of one page per write, --reuse, and a streamed job: one result, arkworks'"""
    want = bn254_set(tmp_path, 8, seed)
    with emulator(BN_STORE_TOP) as d:
        info = top_info(BN_STORE_TOP)
        assert info["point_store"]["points_per_page"] == 32 and info["records"]["point_bytes"] == 128
        r = ok(tool("zk-msm", "-d", d, "-i", tmp_path / "ds", *SMALL, "--resident", "-x", tmp_path / "expect.txt"))
        assert r.stdout.strip() == want and "resident points: 1 point-store load(s)" in r.stderr, r.stderr
        s = status(d)
        assert (s["stored"], s["capacity"], s["core_curve"]) == ("256", str(info["point_store"]["capacity"]), "bn254")
        r = ok(tool("zk-msm", "-d", d, "-g", 8, "--seed", seed, "--curve", "bn254", *SMALL, "--resident", "-s", 32))
        assert "resident points: 1 point-store load(s)" in r.stderr, r.stderr
        streamed = ok(tool("zk-msm", "-d", d, "-g", 8, "--seed", seed, *SMALL))
        assert r.stdout == streamed.stdout, f"SEED={seed}"
        r = ok(tool("zk-msm", "-d", d, "-i", tmp_path / "ds", *SMALL, "--resident", "-x", tmp_path / "expect.txt"))
        r = ok(tool("zk-msm", "-d", d, "-i", tmp_path / "ds", *SMALL, "--resident", "--reuse",
                    "-x", tmp_path / "expect.txt"))
        assert "resident points: 0 point-store load(s)" in r.stderr, r.stderr


def test_curve_mismatch_refused(bn):
    """--curve other than the card's: exit 2 naming the device, the card's curve and the one asked for, before any
    DMA (the engine's counters unchanged); both ways, on the BN254 card and on a BLS12-377 card, whose identity gives
    bls12_377 by default; cards of two curves in one run are refused too"""
    before = status(bn)
    r = tool("zk-msm", "-d", bn, "-g", 3, "--curve", "bls12_377", *SMALL)
    assert r.returncode == 2, r.stderr
    assert f"{bn}: the card's engine is for curve bn254, --curve asks for bls12_377: refused" in r.stderr, r.stderr
    assert status(bn) == before
    with emulator(BLS377_TOP) as d:
        before = status(d)
        assert before["core_curve"] == "bls12_377" and before["core_version"] == str(top_info(BLS377_TOP)["ident_version"])
        r = tool("zk-msm", "-d", d, "-g", 3, "--curve", "bn254", *SMALL)
        assert r.returncode == 2, r.stderr
        assert f"{d}: the card's engine is for curve bls12_377, --curve asks for bn254: refused" in r.stderr, r.stderr
        assert status(d) == before
        r = ok(tool("zk-msm", "-d", d, "-g", 3, *SMALL))
        assert "bls12_377: 8 points" in r.stderr, r.stderr
        ok(tool("zk-msm", "-d", d, "-g", 3, "--curve", "bls12_377", *SMALL))


def test_cards_of_two_curves(built):  # noqa: F811
    """--devices over two BN254 cards and a BLS12-377 one: all three refused (one MSM runs on one curve, exit 2 naming
    the cards); the two BN254 cards split the windows (the second card's 3-beat bucket records follow the first's as
    partial records) to arkworks' result, the one-card result; the BLS12-377 card alone runs its own curve"""
    with zkemu.cards([BN_TOP, BLS377_TOP, BN_TOP]) as c:
        r = tool("zk-msm", "-d", c.prefixes[0], "--devices", "all", "-g", 6, *SMALL)
        assert r.returncode == 2 and "the cards are for different curves" in r.stderr, r.stderr
        assert f"{c.prefixes[0]} bn254" in r.stderr and f"{c.prefixes[1]} bls12_377" in r.stderr, r.stderr
        r = tool("zk-msm", "-d", c.prefixes[0], "--devices", "0,2", "-g", 6, "--curve", "bls12_377", *SMALL)
        assert r.returncode == 2 and "--curve asks for bls12_377: refused" in r.stderr, r.stderr
        two = ok(tool("zk-msm", "-d", c.prefixes[0], "--devices", "0,2", "-g", 6, *SMALL))
        assert "2 cards:" in two.stderr and "bn254: 64 points" in two.stderr, two.stderr
        one = ok(tool("zk-msm", "-d", c.prefixes[2], "-g", 6, "--curve", "bn254", *SMALL))
        assert one.stdout == two.stdout
        r = ok(tool("zk-msm", "-d", c.prefixes[0], "--devices", "1", "-g", 2, *SMALL))
        assert "bls12_377: 4 points" in r.stderr, r.stderr


@pytest.mark.skipif(shutil.which("valgrind") is None, reason="valgrind is not installed")
def test_bn254_valgrind(bn, tmp_path):
    """the curve paths of zk-msm under memcheck (definite/indirect leaks: rayon's pool stays reachable, as in
    test_sw_valgrind.py): a BN254 run with the curve from the identity, the JSON reader, a refused --curve"""
    vg = [a for a in VALGRIND if not a.startswith("--show-leak-kinds") and not a.startswith("--errors-for-leak-kinds")]
    vg += ["--errors-for-leak-kinds=definite,indirect"]
    r = ok(tool("zk-msm", "-d", bn, "-g", 2, *SMALL, "-s", 2, wrap=vg, timeout=300))
    assert "bn254: 4 points" in r.stderr, r.stderr
    bn254_set(tmp_path, 1, 2)
    ok(tool("zk-msm", "-d", bn, "-i", tmp_path / "in.json", *SMALL, "-x", tmp_path / "expect.txt", wrap=vg, timeout=300))
    r = tool("zk-msm", "-d", bn, "-g", 2, "--curve", "bls12_381", *SMALL, wrap=vg, timeout=300)
    assert r.returncode == 2 and "asks for bls12_381" in r.stderr, r.stderr


@pytest.mark.long  # its own emulator build (about three minutes): CI's quick tier covers BLS12-381 in test_msm_axis
def test_bls12_381_streamed(built, tmp_path, seed):  # noqa: F811
    """-g 8 --curve bls12_381 on the BLS12-381 card (MsmAxis_bls12_381_small_model: three-beat point records, four-beat
    bucket records, the XYZZ adder of 381-bit products): arkworks' result (the tool's CPU check); without --curve the
    card's identity gives the curve; --curve bn254 on it refused before anything is sent (exit 2)"""
    with emulator("MsmAxis_bls12_381_small_model") as dev:
        assert status(dev)["core_curve"] == "bls12_381"
        r = ok(tool("zk-msm", "-d", dev, "-g", 8, "--seed", seed, "--curve", "bls12_381", *SMALL,
                    "-o", tmp_path / "r.txt"))
        assert "bls12_381: 256 points" in r.stderr and "CPU MSM" in r.stderr, r.stderr
        result = (tmp_path / "r.txt").read_text()
        assert result.startswith("0x") and len(result.split()[0]) == 2 + 96, result  # 48-byte coordinates
        r = ok(tool("zk-msm", "-d", dev, "-g", 8, "--seed", seed, *SMALL))
        assert r.stdout == result, f"SEED={seed}"
        bad = tool("zk-msm", "-d", dev, "-g", 4, "--curve", "bn254", *SMALL)
        assert bad.returncode == 2 and "bls12_381" in bad.stderr and "bn254" in bad.stderr, bad.stderr


@pytest.mark.long  # the board tops' real multipliers: measured here (2 cores), a build of 10 to 14 minutes and 5 to 9 minutes
# of simulation per top (2^10 points streamed, then resident)
@pytest.mark.parametrize("top,curve", [("MsmAxis_bn254_vu9p", "bn254"), ("MsmAxis_bn254_c1100", "bn254"),
                                       ("MsmAxis_bls12_381_vu9p", "bls12_381")])
def test_board_top_real_long(built, tmp_path, seed, top, curve):  # noqa: F811
    """A board's engine itself (real multipliers, the board's windows, full-size scalars) through zk-msm and the
    emulated card on ZK_BOARD_NPOW (default 10) points of host-msm's set: arkworks' result, streamed and, where the
    top has a point store, from it"""
    npow = int(os.environ.get("ZK_BOARD_NPOW", "10"))
    ds = tmp_path / "ds"
    host_msm("gen", "--curve", curve, "--npow", npow, "--seed", seed, "--out", ds)
    (tmp_path / "expect.txt").write_text(host_msm("msm", "--curve", curve, "--dir", ds) + "\n")
    with emulator(top) as d:
        assert status(d)["core_curve"] == curve
        store = top_info(top).get("point_store", {}).get("capacity", 0) > 0
        for extra in ([], ["--resident"]) if store else ([],):
            t0 = time.monotonic()
            # a few hundred cycles a second: zk-msm's progress timeout (-t, ms) and the emulator's as long as the run
            r = ok(tool("zk-msm", "-d", d, "-i", ds, *extra, "-x", tmp_path / "expect.txt", "-t", 86400000,
                        env={"ZKEMU_TIMEOUT_MS": "86400000"}, timeout=24 * 3600))
            print(f"{top} 2^{npow} points {extra}: arkworks' result ({time.monotonic() - t0:.0f} s)", flush=True)
            assert f"{curve}: {1 << npow} points" in r.stderr, r.stderr
