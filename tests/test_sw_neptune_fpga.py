"""sw/neptune-fpga (neptune's BatchHasher on the card through libzkxdma) against neptune's CPU Poseidon, through the
XDMA emulator on PoseidonInband_small: arity 2, 4, 8, 11; batches split into several DMA jobs (max_batch_size
smaller than the batch), a batch larger than the core's reorder buffer (256 entries) in one job; a core that stops
answering.  The crate's example `compare` does the hashing and the comparison (examples/compare.rs).  Filecoin's PC2
trees (neptune_fpga::tree): tree_c and tree_r_last built through the card equal, row by row, those of neptune's own
TreeBuilder and ColumnTreeBuilder (examples/trees.rs): 2^6 nodes on the small top here, 2^13 to 2^15 (compound trees
included) on the PC2 profile's twin in the long tier."""
from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest

from zkspinal import refs
from zkspinal.tools.sw import POSEIDON_TOP, PRELOAD, ROOT, build_sw, emulator

CRATE = ROOT / "sw" / "neptune-fpga"
TARGET = refs.NEPTUNE_TARGET  # shared with neptune-ref: the same neptune/blstrs builds
EXE = TARGET / "release" / "examples" / "compare"
TREES = TARGET / "release" / "examples" / "trees"
SLOW = {"ZKEMU_TIMEOUT_MS": "120000"}  # an arity-11 hash is ~217,000 cycles from input to digest


def build_examples() -> None:
    refs.cargo_build(CRATE, TARGET, "--examples")


@pytest.fixture(scope="module")
def dev():
    build_sw()
    build_examples()
    with emulator(POSEIDON_TOP) as d:
        yield d


def compare(dev, arity, count, batch, seed, timeout_ms=60000, env=None):
    e = dict(os.environ, LD_PRELOAD=str(PRELOAD), **SLOW, **(env or {}))
    return subprocess.run([str(EXE), dev, str(arity), str(count), str(batch), str(seed), str(timeout_ms)], env=e,
                          capture_output=True, text=True, timeout=600)


@pytest.mark.parametrize("arity,count,batch", [(2, 10, 4), (2, 300, 1000), (4, 5, 2), (8, 3, 8), (11, 2, 2)])
def test_batch_hasher_vs_neptune(dev, seed, arity, count, batch):
    r = compare(dev, arity, count, batch, seed)
    jobs = -(-count // batch)
    assert r.returncode == 0, f"SEED={seed}: {r.stderr}"
    assert r.stdout.startswith(f"ok {count} digests, {jobs} jobs"), r.stdout


def test_core_stops_answering():
    build_sw()
    with emulator(POSEIDON_TOP, ["--freeze-after-beats", "9"]) as d:
        r = compare(d, 4, 6, 6, 1, timeout_ms=1500)
        assert r.returncode == 1 and "no progress for 1500 ms" in r.stderr, r.stderr
        r = compare(d, 2, 3, 3, 2)  # the hasher reset the core after the failure
        assert r.returncode == 0, r.stderr


def test_missing_device(tmp_path):
    r = compare(str(tmp_path / "xdma7"), 2, 1, 1, 1)
    assert r.returncode == 1 and "xdma7_" in r.stderr and "No such file or directory" in r.stderr, r.stderr


def test_two_cards(tmp_path):
    """the same hasher over two cards (all_cards: discovery in the emulator directory, and an explicit list): the
    digests in input order, both cards took a share; card 1 failing its DMA mid-batch is named and its share is
    hashed by card 0"""
    build_sw()
    from zkspinal.tools.sw import zkemu
    with zkemu.cards([POSEIDON_TOP] * 2) as c:
        r = compare(f"all:{c.dir}", 2, 24, 8, 5)
        assert r.returncode == 0, r.stderr
        m = re.match(r"ok 24 digests on 2 cards, shares (\d+)\+(\d+)", r.stdout)
        assert m and int(m.group(1)) > 0 and int(m.group(2)) > 0 and int(m.group(1)) + int(m.group(2)) == 24, r.stdout
        r = compare(",".join(c.prefixes), 4, 6, 6, 6)
        assert r.returncode == 0 and r.stdout.startswith("ok 6 digests on 2 cards"), r.stderr
    with zkemu.cards([POSEIDON_TOP] * 2, extra={1: ["--dma-error-after-beats", "6"]}) as c:
        r = compare(f"all:{c.dir}", 2, 16, 8, 7)
        assert r.returncode == 0 and r.stdout.startswith("ok 16 digests on 2 cards"), r.stderr
        assert f"{c.prefixes[1]}_" in r.stderr and "Input/output error" in r.stderr and "dropped" in r.stderr, r.stderr


def trees(dev, leaves, seed, batch=1000):
    e = dict(os.environ, LD_PRELOAD=str(PRELOAD), ZKEMU_TIMEOUT_MS="600000")
    return subprocess.run([str(TREES), dev, str(leaves), str(batch), str(seed), "600000"], env=e, capture_output=True,
                          text=True, timeout=4 * 3600)


def test_trees_vs_neptune_builders(dev, seed):
    """tree_c (64 columns of 11 labels, then the octree) and tree_r_last (octree, 2 rows discarded) through the
    card: every row equals neptune's own builders'; 64 + 2 x 9 = 82 hashes, jobs of 16 (a row in several jobs)"""
    r = trees(dev, 64, seed, batch=16)
    assert r.returncode == 0, f"SEED={seed}: {r.stderr}"
    assert r.stdout.startswith("ok 64 leaves (1 sub-tree): tree_c root 0x"), r.stdout
    assert ", 82 hashes on the card" in r.stdout, r.stdout


def test_trees_bad_shape(dev):
    """a node count that is no Filecoin tree: a clear error, exit 1, nothing hashed"""
    r = trees(dev, 4095, 1)
    assert r.returncode == 1 and "4095 leaves: not 8^k, 2 x 8^k or 4 x 8^k" in r.stderr, r.stderr


@pytest.mark.long
@pytest.mark.parametrize("leaves", [1 << 13, 1 << 14, 1 << 15])
def test_trees_pc2_long(leaves, seed):
    """the PC2 profile (arities 8 and 11) twin: 2^13 (two sub-trees under an arity-2 top), 2^14 (four, arity-4 top),
    2^15 (one octree)"""
    build_examples()
    build_sw()
    with emulator("PoseidonInband_pc2_model") as d:
        r = trees(d, leaves, seed, batch=4096)
    assert r.returncode == 0, f"SEED={seed}: {r.stderr}"
    print(r.stdout)
    subs = {1 << 13: 2, 1 << 14: 4, 1 << 15: 1}[leaves]
    assert r.stdout.startswith(f"ok {leaves} leaves ({subs} sub-tree"), r.stdout
