"""The two-FIFO path of libzkxdma (zk-pair, the transport of zk-msm) through the emulator on PairFixture_d16: two
H2C streams consumed in lockstep behind 16-word FIFOs.  Seed 002's deadlock: writing more than the FIFO holds to
one stream before the other hangs (the watchdog ends it with a clear message); chunks below the depth complete,
on one thread alternating or on two threads with a barrier per chunk."""
from __future__ import annotations

import random
import re
import time

import pytest

from zkspinal.tools.sw import PAIR_DEPTH, PAIR_TOP, build_sw, emulator, ok, tool

E = 32


@pytest.fixture(scope="module")
def dev():
    build_sw()
    with emulator(PAIR_TOP) as d:
        yield d


def files(tmp_path, rng, n):
    a, b = rng.randbytes(n * E), rng.randbytes(n * E)
    (tmp_path / "a.bin").write_bytes(a)
    (tmp_path / "b.bin").write_bytes(b)
    return a, b


def run_pair(dev, tmp_path, mode, chunk, timeout_ms=10000):
    return tool("zk-pair", "-d", dev, "-a", tmp_path / "a.bin", "-b", tmp_path / "b.bin", "-m", mode, "-s", chunk,
                "-o", tmp_path / "out.bin", "-t", timeout_ms)


@pytest.mark.parametrize("mode,chunk", [("seq", 8), ("par", 8), ("seq", 1), ("par", PAIR_DEPTH - 1)])
def test_chunked_pairs(dev, tmp_path, seed, mode, chunk):
    rng = random.Random(seed + chunk)
    n = rng.randint(5 * PAIR_DEPTH, 12 * PAIR_DEPTH)
    a, b = files(tmp_path, rng, n)
    ok(run_pair(dev, tmp_path, mode, chunk))
    assert (tmp_path / "out.bin").read_bytes() == bytes(x ^ y for x, y in zip(a, b)), f"SEED={seed}"


def test_naive_transfer_deadlocks(dev, tmp_path, seed):
    """All of stream 0 first: fine below the FIFO depth, a deadlock past it, ended by the watchdog; the tool resets
    the core and the next (chunked) run is correct."""
    rng = random.Random(seed)
    a, b = files(tmp_path, rng, PAIR_DEPTH // 2)
    ok(run_pair(dev, tmp_path, "naive", 1))
    a, b = files(tmp_path, rng, 4 * PAIR_DEPTH)
    t0 = time.monotonic()
    r = run_pair(dev, tmp_path, "naive", 1, timeout_ms=1000)
    assert r.returncode == 1 and time.monotonic() - t0 < 8
    assert f"xdma0_h2c_0: write of {4 * PAIR_DEPTH * E} bytes: no progress for 1000 ms" in r.stderr, r.stderr
    assert "resetting the core" in r.stderr
    ok(run_pair(dev, tmp_path, "seq", PAIR_DEPTH // 2))
    assert (tmp_path / "out.bin").read_bytes() == bytes(x ^ y for x, y in zip(a, b))


def test_chunk_above_depth_deadlocks(dev, tmp_path, seed):
    """Chunking only helps below the FIFO depth: chunks of 3x the depth hang on one thread too."""
    files(tmp_path, random.Random(seed), 6 * PAIR_DEPTH)
    r = run_pair(dev, tmp_path, "seq", 3 * PAIR_DEPTH, timeout_ms=1000)
    assert r.returncode == 1 and "no progress for 1000 ms" in r.stderr, r.stderr
    ok(run_pair(dev, tmp_path, "par", 4))


def test_pair_bad_input(dev, tmp_path):
    (tmp_path / "a.bin").write_bytes(bytes(E * 3))
    (tmp_path / "b.bin").write_bytes(bytes(E * 3 + 5))
    r = run_pair(dev, tmp_path, "seq", 4)
    assert r.returncode == 2 and "not a whole number of 32-byte elements" in r.stderr
    (tmp_path / "b.bin").write_bytes(bytes(E * 4))
    r = run_pair(dev, tmp_path, "seq", 4)
    assert r.returncode == 2 and "has 3 elements" in r.stderr
    assert run_pair(dev, tmp_path, "sideways", 4).returncode == 2


@pytest.mark.long
@pytest.mark.parametrize("mode", ["seq", "par"])
def test_pairs_soak(dev, tmp_path, seed, mode):
    """20,000 pairs in chunks of half the FIFO depth."""
    a, b = files(tmp_path, random.Random(seed), 20000)
    ok(run_pair(dev, tmp_path, mode, PAIR_DEPTH // 2))
    assert (tmp_path / "out.bin").read_bytes() == bytes(x ^ y for x, y in zip(a, b)), f"SEED={seed}"


def test_driver_timeout(dev, tmp_path, seed):
    """The driver's own transfer timeout (the interposer's ZKEMU_TIMEOUT_MS, 10 s by default like the driver's)
    ends the blocked transfers before the library's watchdog: ETIMEDOUT with the device named (the write that
    stalled, or the read waiting behind it, whichever timed out first)."""
    files(tmp_path, random.Random(seed), 4 * PAIR_DEPTH)
    r = tool("zk-pair", "-d", dev, "-a", tmp_path / "a.bin", "-b", tmp_path / "b.bin", "-m", "naive", "-t", 60000,
             env={"ZKEMU_TIMEOUT_MS": "800"}, timeout=60)
    n = 4 * PAIR_DEPTH * E
    assert r.returncode == 1 and re.search(rf"xdma0_(h2c_0: write|c2h_0: read) of {n} bytes: Connection timed out",
                                           r.stderr), r.stderr
    ok(run_pair(dev, tmp_path, "seq", 8))
