"""zk-msm end to end through the XDMA emulator on MsmAxis_small (its multiplier-model twin in the quick tier, the real
multipliers in the long tier; four 6-bit windows, scalars < 2^24), as on the VU9P
design (scalars on H2C 0, points on H2C 1, buckets on C2H 0): the model's data sets (generated, directory and JSON
forms) with their scalars cut to 24 bits, the result against `python -m reference_model.msm run` and arkworks' CPU
MSM; malformed inputs; the engine's own error response (TLAST inside a stream: the chunked write path; a scalar
beyond the bound); a core that stops answering."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import pytest

from zkspinal.tools.host_msm import build_host
from zkspinal.sim.buildlock import make
from reference_model import msm_data
from zkspinal.tools.sw import MSM_REAL_TOP, MSM_TOP, ROOT, SW, emulator, ok, tool

SMALL = ["-w", "6,6,6,6", "-B", 24]


def model(*args) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "reference_model.msm", *map(str, args)], cwd=ROOT, capture_output=True,
                          text=True)


def small_set(tmp_path, npow: int, seed: int):
    """the model's data set with each scalar cut to its low 24 bits: JSON form and directory, and the model's result"""
    assert model("gen", "--npow", npow, "--seed", seed, "--out", tmp_path / "full", "--json", tmp_path / "full.json").returncode == 0
    doc = json.loads((tmp_path / "full.json").read_text())
    doc["scalars"] = [f"0x{int(s, 16) & 0xFFFFFF:064x}" for s in doc["scalars"]]
    (tmp_path / "in.json").write_text(json.dumps(doc))
    points, scalars = msm_data.from_json(doc)
    msm_data.save(tmp_path / "ds", points, scalars)
    r = model("run", "--input", tmp_path / "in.json")
    assert r.returncode == 0, r.stderr
    (tmp_path / "expect.txt").write_text(r.stdout)
    return r.stdout.strip()


@pytest.fixture(scope="module")
def built():
    build_host()
    make(SW, "all", "msm", check=True)


@pytest.fixture(scope="module")
def dev(built):
    with emulator(MSM_TOP) as d:
        yield d


def test_msm_against_model(dev, tmp_path, seed):
    want = small_set(tmp_path, 3, seed)
    for src in ("in.json", "ds"):
        r = ok(tool("zk-msm", "-d", dev, "-i", tmp_path / src, *SMALL, "-x", tmp_path / "expect.txt"))
        assert r.stdout.strip() == want, f"SEED={seed}"
        assert "convert" in r.stderr and "post-process" in r.stderr and "CPU MSM" in r.stderr
        assert "8 points (0 host exceptions), 160 buckets + 80 partial records" in r.stderr  # 32 + 32 + 32 + 64 buckets; lane 1 copies 32 + 32, 2 x 8 partials
    # the tool's own generator (the model's gen, scalars cut the same way) gives the same set
    r = ok(tool("zk-msm", "-d", dev, "-g", 3, "--seed", seed, *SMALL, "-x", tmp_path / "expect.txt", "-o", tmp_path / "o.txt"))
    assert (tmp_path / "o.txt").read_text().strip() == want
    # a wrong expected result: exit 3
    (tmp_path / "bad.txt").write_text("infinity\n")
    r = tool("zk-msm", "-d", dev, "-i", tmp_path / "ds", *SMALL, "-x", tmp_path / "bad.txt")
    assert r.returncode == 3 and "differs from" in r.stderr


def test_msm_odd_count_and_infinity(dev, tmp_path):
    """an odd count (the last scalar beat half used) with the point at infinity among the points"""
    small_set(tmp_path, 2, 5)
    doc = json.loads((tmp_path / "in.json").read_text())
    doc["points"] = doc["points"][:3] + ["infinity"]
    doc["points"], doc["scalars"] = doc["points"][1:], doc["scalars"][1:]
    (tmp_path / "odd.json").write_text(json.dumps(doc))
    want = model("run", "--input", tmp_path / "odd.json").stdout.strip()
    r = ok(tool("zk-msm", "-d", dev, "-i", tmp_path / "odd.json", *SMALL))
    assert r.stdout.strip() == want and "3 points" in r.stderr


@pytest.mark.parametrize("case", ["bad_json", "bad_hex", "coord_ge_p", "unequal", "scalar_bound", "not_on_curve",
                                  "windows", "narrow_windows", "empty"])
def test_msm_malformed(dev, tmp_path, case):
    small_set(tmp_path, 1, 3)
    doc = json.loads((tmp_path / "in.json").read_text())
    text, args, msg = None, SMALL, None
    if case == "bad_json":
        text, msg = '{"points": [', "malformed JSON"
    elif case == "bad_hex":
        doc["scalars"][0] = "0xzz"
        msg = "scalars[0]: '0xzz' is not valid hex"
    elif case == "coord_ge_p":
        doc["points"][0]["x"] = "0x01ae3a4617c510eac63b05c06ca1493b1a22d9f300f5138f1ef3622fba094800170b5d44300000008508c00000000001"
        msg = "points[0].x: 0x1ae3a4617c510eac63b05c06ca1493b1a22d9f300f5138f1ef3622fba094800170b5d44300000008508c00000000001 is not below p"
    elif case == "unequal":
        doc["scalars"] = doc["scalars"][:1]
        msg = "2 points but 1 scalars"
    elif case == "scalar_bound":
        doc["scalars"][1] = "0x1000000"
        msg = "scalar 1 is not below 2^24"
    elif case == "not_on_curve":
        doc["points"][0]["y"] = "0x5"
        msg = "not on the curve"
    elif case == "windows":
        args, msg = ["-w", "8,8,8", "-B", 24], "the engine has 4 windows, --windows 8,8,8 has 3"
    elif case == "narrow_windows":
        args, msg = ["-w", "6,6,6", "-B", 24], "windows [6, 6, 6] cover 18 bits; scalars have 24"
    elif case == "empty":
        doc = {"points": [], "scalars": []}
        msg = "no points"
    (tmp_path / "x.json").write_text(text if text is not None else json.dumps(doc))
    r = tool("zk-msm", "-d", dev, "-i", tmp_path / "x.json", *args)
    assert r.returncode == 2 and msg in r.stderr, r.stderr
    # the engine is untouched: the next job is right
    r = ok(tool("zk-msm", "-d", dev, "-i", tmp_path / "in.json", *SMALL, "-x", tmp_path / "expect.txt"))


def test_both_engines_read_the_same_files(dev, tmp_path):
    """The model engine (./run.sh msm, reference_model.msm run) and the RTL engine (zk-msm) read one JSON grammar,
    the host library's: a file other tools wrote (more keys, at the top and in a point; JSON integers beside hex
    strings) gives both the same result, and each malformed file is refused by both with the same message."""
    small_set(tmp_path, 1, 5)
    doc = json.loads((tmp_path / "in.json").read_text())
    doc.update(name="small", curve="bls12_377_g1", expected="see expect.txt")
    doc["points"][0]["note"] = "first"
    doc["scalars"] = [int(x, 16) for x in doc["scalars"][:1]] + doc["scalars"][1:]
    (tmp_path / "other.json").write_text(json.dumps(doc))
    m = model("run", "--input", tmp_path / "other.json")
    assert m.returncode == 0, m.stderr
    r = ok(tool("zk-msm", "-d", dev, "-i", tmp_path / "other.json", *SMALL, "-x", tmp_path / "expect.txt"))
    assert m.stdout.strip() == (tmp_path / "expect.txt").read_text().strip(), r.stdout
    bad = {"unknown.json": ('{"pts": [], "scalars": []}', "missing key 'points'"),
           "float.json": (json.dumps({**doc, "scalars": [1.5] + doc["scalars"][1:]}), "scalars[0]: 1.5 is not a non-negative integer"),
           "point.json": (json.dumps({**doc, "points": [{"x": "0x1"}] + doc["points"][1:]}), "points[0]: expected")}
    for name, (text, msg) in bad.items():
        (tmp_path / name).write_text(text)
        m = model("run", "--input", tmp_path / name)
        r = tool("zk-msm", "-d", dev, "-i", tmp_path / name, *SMALL)
        assert m.returncode != 0 and msg in m.stderr, (name, m.stderr)
        assert r.returncode == 2 and msg in r.stderr, (name, r.stderr)


def test_msm_engine_errors(dev, tmp_path):
    """the engine's defined responses, reported with their ERROR bits, and the engine reset after them: chunked
    writes with --strict-tlast (FRAMING 0) put TLAST inside the scalar stream (XDMA ends every write with it): error
    bit 1; the bucket read-out then never comes, so the job ends at -t"""
    small_set(tmp_path, 3, 9)
    r = tool("zk-msm", "-d", dev, "-i", tmp_path / "ds", *SMALL, "-s", 2, "--strict-tlast", "-t", 2000)
    assert r.returncode == 1 and "TLAST before the last scalar" in r.stderr, r.stderr
    assert "resetting the engine" in r.stderr
    ok(tool("zk-msm", "-d", dev, "-i", tmp_path / "ds", *SMALL, "-x", tmp_path / "expect.txt"))


@pytest.mark.parametrize("chunk", [2, 4])
def test_msm_chunked(dev, tmp_path, chunk):
    """the chunked lockstep path (N points per write, TLAST on each: FRAMING 1) gives the model's result"""
    small_set(tmp_path, 3, 10)
    ok(tool("zk-msm", "-d", dev, "-i", tmp_path / "ds", *SMALL, "-s", chunk, "-x", tmp_path / "expect.txt"))


def test_msm_core_stops_answering(built, tmp_path):
    small_set(tmp_path, 3, 4)
    with emulator(MSM_TOP, ["--freeze-after-beats", "6"]) as d:
        t0 = time.monotonic()
        r = tool("zk-msm", "-d", d, "-i", tmp_path / "ds", *SMALL, "-t", 1500)
        assert r.returncode == 1 and time.monotonic() - t0 < 30, r.stderr
        assert "no progress for 1500 ms" in r.stderr and "resetting the engine" in r.stderr, r.stderr
        ok(tool("zk-msm", "-d", d, "-i", tmp_path / "ds", *SMALL, "-x", tmp_path / "expect.txt"))


def test_msm_resident(dev, tmp_path, seed):
    """--resident: the points go into the card's point store once (the emulator's card memory), then each job streams
    only its scalars; --reuse keeps a store that already holds the points, so a second MSM over the same points with
    new scalars loads nothing; chunked loads and scalar streams; both results against the model"""
    want = small_set(tmp_path, 6, seed)
    r = ok(tool("zk-msm", "-d", dev, "-i", tmp_path / "ds", *SMALL, "--resident", "-x", tmp_path / "expect.txt"))
    assert r.stdout.strip() == want and "resident points: 1 point-store load(s)" in r.stderr, r.stderr
    # the same points, other scalars: the store is reused
    doc = json.loads((tmp_path / "in.json").read_text())
    doc["scalars"] = doc["scalars"][::-1]
    (tmp_path / "again.json").write_text(json.dumps(doc))
    m = model("run", "--input", tmp_path / "again.json")
    assert m.returncode == 0, m.stderr
    (tmp_path / "again.txt").write_text(m.stdout)
    r = ok(tool("zk-msm", "-d", dev, "-i", tmp_path / "again.json", *SMALL, "--resident", "--reuse",
                "-x", tmp_path / "again.txt"))
    assert "resident points: 0 point-store load(s)" in r.stderr, r.stderr
    # chunked: 64 records (3 pages) per load write, 64 scalar beats per write
    r = ok(tool("zk-msm", "-d", dev, "-i", tmp_path / "ds", *SMALL, "--resident", "-s", 64, "-x", tmp_path / "expect.txt"))
    assert "resident points: 1 point-store load(s)" in r.stderr, r.stderr
    # a streamed job after resident ones is unaffected
    ok(tool("zk-msm", "-d", dev, "-i", tmp_path / "ds", *SMALL, "-x", tmp_path / "expect.txt"))
    assert tool("zk-msm", "-d", dev, "-i", tmp_path / "ds", *SMALL, "--reuse").returncode == 2  # --reuse alone


def test_msm_resident_memory_fails(built, tmp_path):
    """card memory that answers SLVERR (the emulator's --mem-fail-after): the load is reported failed with the
    engine's MEMORY error bit, no hang, and the engine is reset"""
    small_set(tmp_path, 4, 3)
    with emulator(MSM_TOP, ["--mem-fail-after", "10"]) as d:
        r = tool("zk-msm", "-d", d, "-i", tmp_path / "ds", *SMALL, "--resident", "-t", 5000)
        assert r.returncode == 1 and "point store load failed" in r.stderr, r.stderr
        assert "memory" in r.stderr.lower() and "resetting the engine" in r.stderr, r.stderr
        # the streamed path does not touch the memory: still exact
        ok(tool("zk-msm", "-d", d, "-i", tmp_path / "ds", *SMALL, "-x", tmp_path / "expect.txt"))


@pytest.mark.long
def test_msm_long(dev, tmp_path, seed):
    small_set(tmp_path, 10, seed)  # 1,024 points
    ok(tool("zk-msm", "-d", dev, "-i", tmp_path / "ds", *SMALL, "-x", tmp_path / "expect.txt", timeout=900))


@pytest.mark.long
def test_msm_real_multipliers(built, tmp_path, seed):
    """the same tool on the engine with its real 377-bit Montgomery multipliers: the model's result, one-shot and
    chunked"""
    small_set(tmp_path, 6, seed)
    with emulator(MSM_REAL_TOP) as d:
        for extra in ([], ["-s", 8]):
            ok(tool("zk-msm", "-d", d, "-i", tmp_path / "ds", *SMALL, *extra, "-x", tmp_path / "expect.txt",
                    timeout=1800))
        # an engine without a point store refuses --resident with a clear message
        r = tool("zk-msm", "-d", d, "-i", tmp_path / "ds", *SMALL, "--resident")
        assert r.returncode == 1 and "no point store (CAPACITY 0)" in r.stderr, r.stderr


@pytest.mark.long
def test_msm_vu9p_real_long(built, tmp_path, seed):
    """The VU9P bitstream's engine itself (MsmAxis_vu9p: real multipliers, twenty 13/12-bit windows, full 253-bit
    scalars, the point store on four DDR4 models) through zk-msm and the emulated card on ZK_VU9P_NPOW (default 10)
    points: the model's result, streamed and from the point store."""
    npow = int(os.environ.get("ZK_VU9P_NPOW", "10"))
    top = "MsmAxis_vu9p"
    assert model("gen", "--npow", npow, "--seed", seed, "--out", tmp_path / "ds", "--json", tmp_path / "in.json").returncode == 0
    r = model("run", "--input", tmp_path / "in.json")
    assert r.returncode == 0, r.stderr
    (tmp_path / "expect.txt").write_text(r.stdout)
    with emulator(top) as d:
        for extra in ([], ["--resident"]):
            t0 = time.monotonic()
            # the real multipliers simulate at a few hundred cycles a second: zk-msm's progress timeout (-t, ms)
            # and the emulator's as long as the run may take
            r = tool("zk-msm", "-d", d, "-i", tmp_path / "ds", *extra, "-x", tmp_path / "expect.txt",
                     "-t", 86400000, env={"ZKEMU_TIMEOUT_MS": "86400000"}, timeout=24 * 3600)
            ok(r)
            print(f"{top} 2^{npow} points {extra}: the model's result ({time.monotonic() - t0:.0f} s)", flush=True)


def test_usage(built):
    r = tool("zk-msm", "-h", preload=False)
    assert r.returncode == 0 and "--scalar-bits" in r.stdout and "exit: 0 ok" in r.stdout
    for bad in ([], ["-g", 2, "-i", "x"], ["-g", 2, "-w", "6,0"], ["-g", 27], ["-g", 2, "extra"]):
        assert tool("zk-msm", *bad, preload=False).returncode == 2, bad
