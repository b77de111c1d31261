"""zk-poseidon end to end through the XDMA emulator on PoseidonInband_small (PoseidonAxis behind InbandLast, as on
the C1100 design), against the model CLI (reference_model.poseidon): every arity interleaved in one file and across
DMA writes, the model's own file format both ways; malformed input files; frames the core rejects (error beats keep
their place); a core that stops answering; the system block's INFO and BAD registers as the emulator mirrors them.
The small configuration's latency is ~217,000 cycles for arity 11 (tens of thousands of emulated cycles per second),
so the quick tier hashes a few dozen preimages; the long tier a thousand."""
from __future__ import annotations

import io
import os
import random
import re
import time
import zlib

import pytest

from reference_model import contract as C
from reference_model.poseidon import cli as model
from zkspinal.paths import top_info
from zkspinal.tools.sw import POSEIDON_TOP, ROOT, build_sw, emulator, ok, tool

P = 0x73EDA753299D7D483339D80809A1D80553BDA402FFFE5BFEFFFFFFFF00000001
ARITIES = (2, 4, 8, 11)


def model_lines(arity: int, k: int, seed: int) -> list[str]:
    out = io.StringIO()
    assert model.main(["--arity", str(arity), "--gen", str(k), "--seed", str(seed)], stdout=out) == 0
    return out.getvalue().splitlines()


def model_digests(lines: list[str]) -> list[str]:
    """the model CLI's digests, one arity at a time (its format takes one arity per run)"""
    res = {}
    for a in sorted({len(l.split()) for l in lines}):
        mine = [i for i, l in enumerate(lines) if len(l.split()) == a]
        out = io.StringIO()
        assert model.main(["--arity", str(a)], stdin=io.StringIO("".join(lines[i] + "\n" for i in mine)), stdout=out) == 0
        res.update(zip(mine, out.getvalue().splitlines()))
    return [res[i] for i in range(len(lines))]


def interleaved(seed: int, per_arity: int) -> list[str]:
    rng = random.Random(seed)
    lines = [l for a in ARITIES for l in model_lines(a, per_arity, seed * 16 + a)]
    rng.shuffle(lines)
    return lines


@pytest.fixture(scope="module")
def dev():
    build_sw()
    with emulator(POSEIDON_TOP) as d:
        yield d


# an arity-11 hash takes ~217,000 cycles from input to digest: a second on a shared machine's emulator, <1 ms on a
# card; the driver's 10 s transfer timeout and the tool's watchdog are raised for the emulator (a test sets -t lower)
SLOW = {"ZKEMU_TIMEOUT_MS": "120000"}


def run(dev, tmp_path, lines: list[str], *args, name="in.txt"):
    inp, out = tmp_path / name, tmp_path / (name + ".out")
    inp.write_text("".join(l + "\n" for l in lines))
    return tool("zk-poseidon", "-d", dev, "-t", 60000, "-i", inp, "-o", out, *args, env=SLOW, timeout=300), out


def test_every_arity_interleaved(dev, seed, tmp_path):
    """3 preimages of each arity in random order, in writes of 5 preimages (frames of every arity meet write
    boundaries); the digests in the model's format, checked by the tool (-k) and here"""
    lines = interleaved(seed, 3)
    want = model_digests(lines)
    (tmp_path / "want.txt").write_text("".join(w + "\n" for w in want))
    r, out = run(dev, tmp_path, lines, "-b", 5, "-k", tmp_path / "want.txt")
    ok(r)
    assert out.read_text().splitlines() == want, f"SEED={seed}"
    m = re.search(r"(\d+) hashes, (\d+) elements in [\d.]+ s of DMA jobs: (\d+) hashes/s", r.stderr)
    assert m and int(m.group(1)) == len(lines) and int(m.group(2)) == 3 * sum(ARITIES), r.stderr
    # -a N: the model's single-arity file as is, all in one write; a wrong expected digest is exit 3
    lines = model_lines(4, 4, seed)
    want = model_digests(lines)
    bad = want[:2] + [f"0x{int(want[2], 16) ^ 1:064x}"] + want[3:]
    (tmp_path / "bad.txt").write_text("".join(w + "\n" for w in bad))
    r, out = run(dev, tmp_path, lines, "-a", 4, "-k", tmp_path / "bad.txt", name="a4.txt")
    assert r.returncode == 3 and "digest 3 differs" in r.stderr, r.stderr
    assert out.read_text().splitlines() == want


def test_edge_elements(dev, tmp_path):
    """0, 1, p-1, short and upper-case hex, tabs and extra blanks: parsed as the model parses them"""
    lines = ["0x0 0x1", f"0x{P - 1:x} 0X1".replace("0X1", "0x1"), f"\t0x{P - 1:X}   0x00ff\t",
             " ".join(["0x" + "0" * 64] * 11)]
    lines[2] = lines[2].replace(f"0x{P - 1:X}", "0x" + f"{P - 1:X}")
    want = model_digests([" ".join(l.split()) for l in lines])
    r, out = run(dev, tmp_path, lines)
    ok(r)
    assert out.read_text().splitlines() == want


@pytest.mark.parametrize("case", ["bad_hex", "too_many_digits", "not_below_p", "wrong_arity", "arity_not_built",
                                  "empty_file", "blank_line", "hash_type", "no_file"])
def test_malformed_input(dev, tmp_path, case):
    good = model_lines(2, 2, 7)
    lines, args, msg = {
        "bad_hex": (good + ["0x12 0xzz"], [], "in.txt:3: an element is not 0x followed by 1 to 64 hex digits"),
        "too_many_digits": (good + ["0x1 0x" + "1" * 65], [], "in.txt:3: an element is not 0x"),
        "not_below_p": ([f"0x1 0x{P:x}"] + good, [], "in.txt:1: an element is not below the modulus"),
        "wrong_arity": (good + ["0x1 0x2 0x3"], ["-a", "2"], "in.txt:3: expected 2 elements, got 3"),
        "arity_not_built": (good + ["0x1 0x2 0x3"], [], "in.txt:3: 3 elements: the card hashes arities 2 4 8 11"),
        "empty_file": ([], [], "in.txt: no preimages"),
        "blank_line": (good + [""], [], "in.txt:3: 0 elements"),
        "hash_type": (good, ["--hash-type", "constant"], "needs a TUSER header frame"),
        "no_file": (good, ["-i", tmp_path / "missing.txt"], "missing.txt: open: No such file or directory"),
    }[case]
    r, out = run(dev, tmp_path, lines, *args)
    assert r.returncode == (1 if case == "no_file" else 2), r.stderr
    assert msg in r.stderr, r.stderr
    assert not out.exists()  # nothing was hashed, no output written
    # the card is untouched: the next job is right
    r, out = run(dev, tmp_path, good, name="good.txt")
    assert ok(r) and out.read_text().splitlines() == model_digests(good)


def test_core_rejects_frames(dev, tmp_path):
    """--unchecked lets malformed frames through to the core: an element >= p and an arity it does not have.  Each
    is answered by a flagged beat (TDATA 0; TUSER is lost behind XDMA), the counters name the check, exit 2, and the
    frames after them keep their digests"""
    good = model_lines(2, 2, 11) + model_lines(8, 1, 12)
    lines = [good[0], f"0x{P:x} 0x5", good[1], "0x1 0x2 0x3", good[2]]
    r, out = run(dev, tmp_path, lines, "--unchecked", "-b", 2)
    assert r.returncode == 2, r.stderr
    assert "in.txt:2: the core rejected this preimage (2 elements)" in r.stderr
    assert "in.txt:4: the core rejected this preimage (3 elements)" in r.stderr
    assert "2 preimages rejected; the core counted 1 out of range, 1 arity not built in, 0 too long" in r.stderr
    want = model_digests(good)
    assert out.read_text().splitlines() == [want[0], "rejected", want[1], "rejected", want[2]]
    st = ok(tool("zk-status", "-d", dev, "-k", "poseidon")).stdout
    assert re.search(r"^err_range 0x[1-9]", st, re.M) and re.search(r"^inband_partial 0$", st, re.M), st


def test_core_stops_answering(tmp_path):
    """the core hangs after 20 input beats: the job ends after -t with the blocked device named and exit 1; the tool
    resets the core, and the next run is right"""
    build_sw()
    lines = model_lines(4, 8, 3)
    with emulator(POSEIDON_TOP, ["--freeze-after-beats", "20"]) as d:
        t0 = time.monotonic()
        r, out = run(d, tmp_path, lines, "-t", 1500)
        assert r.returncode == 1 and time.monotonic() - t0 < 30, r.stderr
        assert "no progress for 1500 ms (the core stopped accepting or answering)" in r.stderr, r.stderr
        assert "job failed; resetting the core" in r.stderr and not out.exists()
        r, out = run(d, tmp_path, lines[:3], name="again.txt")
        assert ok(r) and out.read_text().splitlines() == model_digests(lines[:3])


def test_system_block_info_and_bad(dev):
    """the emulator mirrors SystemBlock's INFO, identity words and BAD (hw/src/zkspinal/system/SystemBlock.scala):
    INFO = revision 1, the status count of the block the C1100 design picks for InbandLast's two words (SystemBlock_s2)
    and 16 reset cycles; KIND, CONFIG, VERSION the top's ident_* outputs (as in the manifest); BAD counts reads of
    unmapped offsets of the 4 KiB window and writes to anything but RESET, which read 0 / are ignored; RESET does not
    clear it; mmap and pread paths agree"""
    def fields(r):
        return dict(l.split(" ", 1) for l in ok(r).stdout.splitlines())
    def at(off: int) -> str:  # a system block register's user-BAR address as zk-status names it
        return f"{C.USER_BAR_SYSTEM + off:#x}"
    info = (C.SYSTEM_INFO_REVISION.put(C.SYSTEM_REVISION) | C.SYSTEM_INFO_RESET_CYCLES.put(C.SYSTEM_RESET_CYCLES_DEFAULT)
            | C.SYSTEM_INFO_STATUS_COUNT.put(2))
    s = fields(tool("zk-status", "-d", dev, "-k", "none", "-r", at(C.SYSTEM_INFO)))
    assert s["system_status_words"] == "2" and s["system_reset_cycles"] == str(C.SYSTEM_RESET_CYCLES_DEFAULT)
    assert s[at(C.SYSTEM_INFO)] == f"0x{info:08x}" and s["system_revision"] == str(C.SYSTEM_REVISION)
    bad0 = int(s["system_bad_accesses"])
    # unmapped reads: past the two status words, below the identity words; mapped ones do not count
    past, below = at(C.SYSTEM_STATUS + 8), at(C.SYSTEM_KIND - 4)
    ident = [at(C.SYSTEM_KIND), at(C.SYSTEM_CONFIG), at(C.SYSTEM_VERSION)]
    reads = [past, below, at(C.SYSTEM_STATUS), at(C.SYSTEM_STATUS + 4), *ident]
    s = fields(tool("zk-status", "-d", dev, "-k", "none", *(a for r in reads for a in ("-r", r))))
    assert s[past] == "0x00000000" and s[below] == "0x00000000"
    m = top_info(POSEIDON_TOP)
    assert [int(s[k], 16) for k in ident] == [
        m["ident_kind"], int(m["ident_config"], 16), m["ident_version"]] == [1, zlib.crc32(b"small"), 1]
    assert s["core_kind"] == "1 (poseidon)" and s["core_config"] == m["ident_config"]
    assert int(s["system_bad_accesses"]) == bad0  # read before the -r reads
    s = fields(tool("zk-status", "-d", dev, "-k", "none", env={"ZKEMU_MMAP": "0"}))
    assert int(s["system_bad_accesses"]) == bad0 + 2
    # writes to read-only registers count (and change nothing); RESET writes do not, and do not clear BAD
    writes = [(C.SYSTEM_ID, 5), (C.SYSTEM_INFO, 0), (C.SYSTEM_STATUS + 0x10, 1), (C.SYSTEM_RESET, 0)]
    s = fields(tool("zk-status", "-d", dev, "-k", "none", *(a for off, v in writes for a in ("-w", f"{at(off)}={v}")),
                    "--reset"))
    assert s["system_id"] == f"{C.SYSTEM_MAGIC:#x}" and s["system_status_words"] == "2"
    assert int(s["system_bad_accesses"]) == bad0 + 5


@pytest.mark.long
def test_many_preimages_long(dev, seed, tmp_path):
    lines = interleaved(seed, 250)  # 1,000 preimages, 16 writes
    want = model_digests(lines)
    r, out = run(dev, tmp_path, lines, "-b", 64)
    ok(r)
    assert out.read_text().splitlines() == want, f"SEED={seed}"


# the C1100 profiles' bitstream tops (real multipliers, DSP48E2 simulation models) and the arities they serve
BITSTREAM_TOPS = {"PoseidonInband_pc2": (8, 11), "PoseidonInband_arity2": (2,)}


@pytest.mark.long
@pytest.mark.parametrize("top", sorted(BITSTREAM_TOPS))
def test_bitstream_top_long(top, seed, tmp_path):
    """The configuration that goes into the bitstream, not its multiplier-model twin: ZK_REAL_HASHES (default
    10,000) preimages of every arity it serves through zk-poseidon and the emulator, each digest checked by the
    tool (-k) against the model's; the rate printed is the emulator's, not the card's."""
    build_sw()
    per_arity = int(os.environ.get("ZK_REAL_HASHES", "10000"))
    with emulator(top) as dev:
        for a in BITSTREAM_TOPS[top]:
            lines = model_lines(a, per_arity, seed * 16 + a)
            want = model_digests(lines)
            (tmp_path / f"want{a}.txt").write_text("".join(w + "\n" for w in want))
            inp, out = tmp_path / f"in{a}.txt", tmp_path / f"out{a}.txt"
            inp.write_text("".join(l + "\n" for l in lines))
            r = tool("zk-poseidon", "-d", dev, "-t", 600000, "-a", a, "-b", 2000, "-i", inp, "-o", out,
                     "-k", tmp_path / f"want{a}.txt", env={"ZKEMU_TIMEOUT_MS": "3600000"}, timeout=6 * 3600)
            ok(r)
            assert out.read_text().splitlines() == want, f"{top} arity {a} SEED={seed}"
            print(f"{top} arity {a}: {per_arity} digests equal the model's; {r.stderr.strip().splitlines()[-1]}")


def test_usage():
    build_sw()
    r = tool("zk-poseidon", "-h", preload=False)
    assert r.returncode == 0 and "--unchecked" in r.stdout and "exit: 0 ok" in r.stdout
    for bad in (["--bogus"], ["-b", "0"], ["-a", "17"], ["extra"]):
        assert tool("zk-poseidon", *bad, preload=False).returncode == 2, bad


@pytest.mark.long
def test_soak_through_the_card_long(seed, tmp_path):
    """The million-hash soak through the host tool on a card: ZK_SOAK_HASHES (default 1,000,000) random preimages of
    the arities ZK_SOAK_TOP serves (default PoseidonInband_pc2_model, the PC2 profile's twin behind InbandLast),
    interleaved, through zk-poseidon and the emulated card (libzkxdma, in-band framing, the RTL system block), in jobs
    of 100,000 from one emulator; every digest checked by the tool (-k) against neptune's (an independent reference).
    ZK_SOAK_FROM (a multiple of 100,000) skips the jobs before it: a soak stopped part way resumes with the same
    SEED."""
    from zkspinal import refs

    top = os.environ.get("ZK_SOAK_TOP", "PoseidonInband_pc2_model")
    total = int(os.environ.get("ZK_SOAK_HASHES", "1000000"))
    first = int(os.environ.get("ZK_SOAK_FROM", "0"))
    chunk = 100_000
    assert first % chunk == 0 and 0 <= first < total, f"ZK_SOAK_FROM={first}: a multiple of {chunk} below {total}"
    arities = top_info(top)["arities"]
    p = int(top_info(top)["p"], 16)
    build_sw()
    refs.neptune_ref()
    with emulator(top) as dev:
        for start in range(first, total, chunk):
            rng = random.Random(seed + start)
            rows = [[rng.randrange(p) for _ in range(rng.choice(arities))] for _ in range(min(chunk, total - start))]
            want: list[str] = [""] * len(rows)
            for a in arities:
                mine = [i for i, r in enumerate(rows) if len(r) == a]
                for i, d in zip(mine, refs.neptune_digests([rows[i] for i in mine], a)):
                    want[i] = f"0x{d:064x}"
            inp, out, exp = tmp_path / "in.txt", tmp_path / "out.txt", tmp_path / "want.txt"
            inp.write_text("".join(" ".join(f"0x{x:064x}" for x in r) + "\n" for r in rows))
            exp.write_text("".join(w + "\n" for w in want))
            t0 = time.monotonic()
            r = tool("zk-poseidon", "-d", dev, "-t", 600000, "-b", 2000, "-i", inp, "-o", out, "-k", exp,
                     env={"ZKEMU_TIMEOUT_MS": "3600000"}, timeout=6 * 3600)
            ok(r)
            assert out.read_text().splitlines() == want, f"{top} preimages {start}.. SEED={seed}"
            print(f"soak {top}: preimages {start}..{start + len(rows) - 1} equal neptune's "
                  f"({time.monotonic() - t0:.0f} s; {r.stderr.strip().splitlines()[-1]})", flush=True)
