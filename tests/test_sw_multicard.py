"""Several cards in one host, through emulated cards in one directory (DIR/xdma0_*, DIR/xdma1_*, ... as /dev holds
them): discovery (zk-status --list, --devices all / N,M / prefixes and their errors), zk-poseidon over two cards
(every arity, digests in input order against the model), zk-msm split by windows over two cards (random and
adversarial scalar sets against the one-card result, the model and arkworks), and every fault the issue names on one
card of two, injected through the emulator: a hang (--freeze-after-beats), a DMA error status (--dma-error-after-beats),
a card that disappears (its emulator killed mid-job), every card failing, SIGINT; each ends with correct results from
the remaining cards or a clear exit 1 / 130, and leaves each card reusable.  Long tier: four cards."""
from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import time
import zlib

import pytest

from zkspinal.paths import top_info
from zkspinal.tools.host_msm import build_host
from zkspinal.sim.buildlock import make
from test_sw_msm import SMALL, model, small_set
from test_sw_poseidon import interleaved, model_digests, model_lines
from zkspinal.tools.sw import BIN, MSM_TOP, POSEIDON_TOP, PRELOAD, SW, build_sw, ok, tool, zkemu

REV0_CARD = "Card_KeccakSpongeAxis_r1_rev0"  # a card whose system block predates the identity words (CardTops.scala)
SLOW = {"ZKEMU_TIMEOUT_MS": "120000"}  # the emulated Poseidon core's latency (test_sw_poseidon.py)


@pytest.fixture(scope="module", autouse=True)
def built():
    build_sw()
    build_host()
    make(SW, "all", "msm", check=True)


def poseidon(prefix, tmp_path, lines, *args, name="in.txt", env=None):
    inp, out = tmp_path / name, tmp_path / (name + ".out")
    inp.write_text("".join(l + "\n" for l in lines))
    r = tool("zk-poseidon", "-d", prefix, "-i", inp, "-o", out, *args, env={**SLOW, **(env or {})}, timeout=600)
    return r, out


def poseidon_spread(prefixes, tmp_path, lines, batch: int, seed):
    """zk-poseidon over every card of the emulator directory in writes of `batch` preimages: it succeeds and its
    digests are the model's, in input order; the run's result (stderr has the per-card lines)"""
    r, out = poseidon(prefixes[0], tmp_path, lines, "--devices", "all", "-b", batch, "-t", 60000)
    ok(r)
    assert out.read_text().splitlines() == model_digests(lines), f"SEED={seed}"
    return r


def identity(top: str) -> tuple[str, dict]:
    """the identity words `top` drives (the manifest's, the configuration checked against zlib's CRC-32 of its name)
    as zk_card_describe prints them, and the manifest entry"""
    m = top_info(top)
    assert int(m["ident_config"], 16) == zlib.crc32(m["ident_config_name"].encode()), m
    return f"identity: kind {m['ident_kind']}, config {m['ident_config']}, version {m['ident_version']}; ", m


def test_discovery(tmp_path):
    """zk-status --list names every card with its core (the system block's KIND, CONFIG, VERSION: the values the
    RTL drives), system block and channels; a card whose system block predates the identity words (the card top Card_KeccakSpongeAxis_r1_rev0)
    is named as such, and its unmapped offsets are left alone; --devices all takes the cards with the tool's core and
    names the others; a listed card without it, a bad list and an empty directory are errors"""
    pid, pm = identity(POSEIDON_TOP)
    mid, mm = identity(MSM_TOP)
    assert (pm["ident_kind_name"], mm["ident_kind_name"]) == ("poseidon", "msm")
    with zkemu.cards([POSEIDON_TOP, MSM_TOP, POSEIDON_TOP, REV0_CARD]) as c:
        for _ in range(2):  # twice: the probe of card 3 made no bad access
            r = ok(tool("zk-status", "-d", c.prefixes[0], "--list"))
            lines = r.stdout.splitlines()
            assert len(lines) == 4, r.stdout
            assert lines[0].startswith(f"card 0 {c.prefixes[0]}: poseidon arities 2,4,8,11, 1 engine(s), 2 multiplier(s); "
                                       f"{pid}system block: revision 1, 2 status words, reset 16 cycles"), lines[0]
            assert lines[1].startswith(f"card 1 {c.prefixes[1]}: msm 4 windows, 2 adder(s), 80 partial records; "
                                       f"{mid}system block: revision 1, 0 status words") and "channels h2c 0x3, c2h 0x1" in lines[1]
            assert lines[2].startswith(f"card 2 {c.prefixes[2]}: poseidon arities 2,4,8,11, 1 engine(s), 2 multiplier(s); {pid}")
            assert lines[3] == (f"card 3 {c.prefixes[3]}: no-identity ({c.prefixes[3]}_user: system block revision 0 "
                                "(INFO 0x00001002) has no KIND, CONFIG, VERSION words: rebuild the bitstream); system "
                                "block: revision 0, 2 status words, reset 16 cycles, 0 bad accesses; channels h2c 0x1, c2h 0x1")
        # one card in full: the identity words as registers
        s = dict(l.split(" ", 1) for l in ok(tool("zk-status", "-d", c.prefixes[1], "-k", "none")).stdout.splitlines())
        assert (s["system_revision"], s["core_kind"], s["core_config"], s["core_version"]) == (
            "1", f"{mm['ident_kind']} (msm)", mm["ident_config"], str(mm["ident_version"]))
        s = dict(l.split(" ", 1) for l in ok(tool("zk-status", "-d", c.prefixes[3], "-k", "none")).stdout.splitlines())
        assert s["system_revision"] == "0" and "core_kind" not in s and s["system_bad_accesses"] == "0"
        lines4 = model_lines(2, 4, 1)
        r, out = poseidon(c.prefixes[0], tmp_path, lines4, "--devices", "all")
        ok(r)
        assert f"skipping {c.prefixes[1]}: msm" in r.stderr and out.read_text().splitlines() == model_digests(lines4)
        assert f"skipping {c.prefixes[3]}: no-identity" in r.stderr
        assert f"card {c.prefixes[0]}: " in r.stderr and f"card {c.prefixes[2]}: " in r.stderr
        # a listed card without the core: exit 1, named; prefixes work as well as numbers
        r, _ = poseidon(c.prefixes[0], tmp_path, lines4, "--devices", "0,1")
        assert r.returncode == 1 and f"{c.prefixes[1]}: msm 4 windows" in r.stderr and "not a poseidon core" in r.stderr
        r = tool("zk-msm", "-d", c.prefixes[0], "--devices", "all", "-g", 2, *SMALL)
        ok(r)
        assert f"skipping {c.prefixes[0]}: poseidon" in r.stderr
        for bad in ("x", "0,0", ""):
            r, _ = poseidon(c.prefixes[0], tmp_path, lines4, "--devices", bad)
            assert r.returncode == 2 and "--devices" in r.stderr, (bad, r.stderr)
        # a card whose emulator is gone (a stale socket): unreachable, named, skipped by "all"
        c.procs[2].kill()
        c.procs[2].wait()
        r = ok(tool("zk-status", "-d", c.prefixes[0], "--list"))
        assert re.search(rf"card 2 {c.prefixes[2]}: unreachable \({c.prefixes[2]}_user: open: ", r.stdout), r.stdout
    empty = tmp_path / "none"
    empty.mkdir()
    r = tool("zk-status", "-d", f"{empty}/xdma0", "--list")
    assert r.returncode == 1 and "no card in" in r.stderr
    r, _ = poseidon(f"{empty}/xdma0", tmp_path, model_lines(2, 1, 1), "--devices", "all")
    assert r.returncode == 1 and "no card in" in r.stderr and "carries a poseidon core" in r.stderr


def test_poseidon_two_cards_every_arity(seed, tmp_path):
    """arities 2, 4, 8, 11 interleaved over two cards in writes of 3: the digests in input order, as the model's
    (the one-card result, test_sw_poseidon.py); both cards took jobs and were busy at once"""
    with zkemu.cards([POSEIDON_TOP] * 2) as c:
        r = poseidon_spread(c.prefixes, tmp_path, interleaved(seed, 2), 3, seed)
        for p in c.prefixes:
            m = re.search(rf"card {p}: (\d+) hashes in (\d+) job", r.stderr)
            assert m and int(m.group(1)) > 0, r.stderr
        m = re.search(r"2 cards: ([\d.]+) s from the first job to the last, some card busy ([\d.]+) s, all 2 busy at "
                      r"once ([\d.]+) s", r.stderr)
        assert m and float(m.group(3)) > 0, r.stderr


def msm_sets(tmp_path, npow, seed):
    """the model's random set (scalars < 2^24) and adversarial variants of it: name -> JSON path"""
    small_set(tmp_path, npow, seed)
    doc = json.loads((tmp_path / "in.json").read_text())
    n = len(doc["scalars"])
    variants = {"random": doc["scalars"], "all_max": [0xFFFFFF] * n, "zero": [0] * n, "ones": [1] * n,
                "one_bucket": [0x20 << 6 | 0x20] * n, "alternating": [0xFFFFFF if i % 2 else 1 for i in range(n)]}
    out = {}
    for name, sc in variants.items():
        d = dict(doc, scalars=[s if isinstance(s, str) else f"0x{s:064x}" for s in sc])
        (tmp_path / f"{name}.json").write_text(json.dumps(d))
        out[name] = tmp_path / f"{name}.json"
    return out


def check_msm_cards(prefixes, sets, *extra):
    one = prefixes[0]
    for name, path in sets.items():
        want = model("run", "--input", path).stdout.strip()
        r1 = ok(tool("zk-msm", "-d", one, "-i", path, *SMALL))
        rn = ok(tool("zk-msm", "-d", one, "--devices", ",".join(prefixes), "-i", path, *SMALL, *extra))
        assert rn.stdout.strip() == r1.stdout.strip() == want, (name, rn.stderr)
        assert f"{len(prefixes)} cards:" in rn.stderr and "retried" in rn.stderr


def test_msm_two_cards(seed, tmp_path):
    """one MSM split by windows over two cards equals the one-card result, the model and arkworks (the tool checks
    it), for the random set and the adversarial ones; chunked writes too"""
    sets = msm_sets(tmp_path, 4, seed)
    with zkemu.cards([MSM_TOP] * 2) as c:
        check_msm_cards(c.prefixes, sets)
        ok(tool("zk-msm", "-d", c.prefixes[0], "--devices", "all", "-i", sets["random"], *SMALL, "-s", 4,
                "-x", tmp_path / "expect.txt"))


# ---- faults on card 1 of two: injected by its emulator.  -t 6000: two emulated Poseidon cores share two cores of
# CPU, and an arity-2 hash takes ~38,000 cycles from input to digest (seconds there), so a healthy card's first digest
# can take longer than the 1.5 s the one-card hang tests use
# on the first H2C beat: however few preimages the spread gives the card (it took as few as 4 in 2 jobs), its first
# job meets the fault
FAULTS = {"hang": ["--freeze-after-beats", "1"], "dma_error": ["--dma-error-after-beats", "1"]}


@pytest.mark.parametrize("fault", ["hang", "dma_error", "disappears"])
def test_poseidon_card_fault(tmp_path, fault):
    """card 1 hangs / returns an error status / disappears mid-job: it is named with what failed, its preimages are
    retried on card 0 (said on stderr), the digests are right; a hung or failed card is reset and works again"""
    lines = model_lines(2, 12, 7)
    want = model_digests(lines)
    # disappears: card 1 freezes two beats into its first job (whatever size the spread gives that job), so the kill
    # lands while its DMA is in flight
    inject = FAULTS.get(fault, ["--freeze-after-beats", "2"])
    with zkemu.cards([POSEIDON_TOP] * 2, extra={1: inject}) as c:
        t0 = time.monotonic()
        if fault == "disappears":  # card 1 freezes in its first job, then its emulator dies: the socket closes
            env = dict(os.environ, LD_PRELOAD=str(PRELOAD), **SLOW)
            inp = tmp_path / "in.txt"
            inp.write_text("".join(l + "\n" for l in lines))
            p = subprocess.Popen([str(BIN / "zk-poseidon"), "-d", c.prefixes[0], "--devices", "all", "-t", "60000",
                                  "-i", inp, "-o", tmp_path / "out.txt"], env=env, stderr=subprocess.PIPE, text=True)
            time.sleep(3)
            c.procs[1].kill()
            _, err = p.communicate(timeout=300)
            r = subprocess.CompletedProcess(p.args, p.returncode, "", err)
            out = tmp_path / "out.txt"
        else:
            r, out = poseidon(c.prefixes[0], tmp_path, lines, "--devices", "all", "-t", 6000)
        ok(r)
        assert time.monotonic() - t0 < 120
        assert out.read_text().splitlines() == want
        why = {"hang": "no progress for 6000 ms", "dma_error": "Input/output error", "disappears": "Input/output error"}
        named = rf"{c.prefixes[1]}_(h2c|c2h)_0: (write|read) of \d+ bytes.*{why[fault]}"
        if fault == "disappears":  # or, should the kill land between a job's DMA and its counter check: the user BAR
            named += rf"|{c.prefixes[1]}_user: .*0xffffffff"
        assert re.search(named, r.stderr), r.stderr
        assert re.search(rf"zk: card {c.prefixes[1]} dropped; its \d+ preimages \(\d+\.\.\d+\) are retried on the 1 "
                         r"remaining card\(s\)", r.stderr), r.stderr
        assert f"card {c.prefixes[1]}: " in r.stderr and "(dropped)" in r.stderr
        if fault != "disappears":  # reset by the tool: reusable alone
            r, out = poseidon(c.prefixes[1], tmp_path, lines[:3], name="again.txt")
            assert ok(r) and out.read_text().splitlines() == want[:3]


def test_poseidon_every_card_fails(tmp_path):
    """both cards fail: exit 1 with each card named, no digests written, no hang"""
    lines = model_lines(2, 8, 8)
    with zkemu.cards([POSEIDON_TOP] * 2, extra={0: FAULTS["dma_error"], 1: FAULTS["hang"]}) as c:
        r, out = poseidon(c.prefixes[0], tmp_path, lines, "--devices", "all", "-t", 6000)
        assert r.returncode == 1 and not out.exists(), r.stderr
        assert "every card failed; the last:" in r.stderr and c.prefixes[0] in r.stderr and c.prefixes[1] in r.stderr


@pytest.mark.parametrize("fault", ["hang", "dma_error"])
def test_msm_card_fault(tmp_path, fault):
    """an MSM card hangs / fails its DMA: its window range is retried on the other card, the result is right"""
    small_set(tmp_path, 4, 11)
    with zkemu.cards([MSM_TOP] * 2, extra={1: FAULTS[fault]}) as c:
        r = ok(tool("zk-msm", "-d", c.prefixes[0], "--devices", "all", "-i", tmp_path / "in.json", *SMALL, "-t", 1500,
                    "-x", tmp_path / "expect.txt"))
        assert re.search(rf"zk: card {c.prefixes[1]} dropped; its 1 window range\(s\) \(\d\.\.\d\) are retried", r.stderr)
        assert ("no progress for 1500 ms" if fault == "hang" else "Input/output error") in r.stderr, r.stderr
        assert "resetting the engine" in r.stderr
        ok(tool("zk-msm", "-d", c.prefixes[1], "-i", tmp_path / "in.json", *SMALL, "-x", tmp_path / "expect.txt"))


def test_sigint_stops_every_card(tmp_path):
    """SIGINT while both cards hash: exit 130, each card reset; both give right digests afterwards"""
    lines = model_lines(2, 200, 9)
    inp = tmp_path / "big.txt"
    inp.write_text("".join(l + "\n" for l in lines))
    env = dict(os.environ, LD_PRELOAD=str(PRELOAD), **SLOW)
    with zkemu.cards([POSEIDON_TOP] * 2) as c:
        p = subprocess.Popen([str(BIN / "zk-poseidon"), "-d", c.prefixes[0], "--devices", "all", "-t", "60000", "-i", inp,
                              "-o", tmp_path / "out.txt"], env=env, stderr=subprocess.PIPE, text=True)
        deadline = time.monotonic() + 60
        busy = set()
        while time.monotonic() < deadline and len(busy) < 2:  # both cards have taken frames
            for i, pre in enumerate(c.prefixes):
                st = tool("zk-status", "-d", pre, "-k", "poseidon").stdout
                if re.search(r"^inband_frames [1-9]", st, re.M):
                    busy.add(i)
            time.sleep(0.1)
        assert p.poll() is None and len(busy) == 2, "the job ended before the signal: make it longer"
        p.send_signal(signal.SIGINT)
        _, err = p.communicate(timeout=60)
        assert p.returncode == 130 and err.count("interrupted; resetting the core") == 2, err
        for pre in c.prefixes:
            r, out = poseidon(pre, tmp_path, lines[:3], name="again.txt")
            assert ok(r) and out.read_text().splitlines() == model_digests(lines[:3])


@pytest.mark.long
def test_four_cards_long(seed, tmp_path):
    """four cards: every arity (50 preimages each) and the MSM sets of 64 points split one window per card"""
    with zkemu.cards([POSEIDON_TOP] * 4) as c:
        r = poseidon_spread(c.prefixes, tmp_path, interleaved(seed, 50), 16, seed)
        assert "4 cards:" in r.stderr
    sets = msm_sets(tmp_path, 6, seed)
    with zkemu.cards([MSM_TOP] * 4) as c:
        check_msm_cards(c.prefixes, sets)


def test_zkemu_with_several_cards(seed, tmp_path):
    """`python -m zkemu with TOP,TOP -- CMD` starts the cards in one directory as a user would: zk-status --list
    sees both (@DIR), zk-poseidon spreads over them (@DEV0 --devices all) with the model's digests, @DEV1 is card 1,
    and a card number past the last is a clear error before anything runs"""
    import sys
    env = {**os.environ, **SLOW}

    def with_cards(tops, *cmd, stdin=None):
        return subprocess.run([sys.executable, "-m", "zkemu", "with", ",".join(tops), "--", *map(str, cmd)], env=env,
                              capture_output=True, text=True, timeout=900, input=stdin)
    r = with_cards([POSEIDON_TOP, "PairFixture_d16"], BIN / "zk-status", "--list", "-d", "@DIR/xdma0")
    assert r.returncode == 0, r.stderr
    assert re.search(r"xdma0.*poseidon", r.stdout) and re.search(r"xdma1", r.stdout), r.stdout
    lines = interleaved(seed, 1)
    inp, out = tmp_path / "in.txt", tmp_path / "out.txt"
    inp.write_text("".join(l + "\n" for l in lines))
    r = with_cards([POSEIDON_TOP] * 2, BIN / "zk-poseidon", "-d", "@DEV1", "--devices", "all", "-b", 2, "-t", 120000, "-i", inp,
                   "-o", out)
    assert r.returncode == 0, r.stderr
    assert out.read_text().splitlines() == model_digests(lines), f"SEED={seed}"
    assert "2 cards" in r.stderr, r.stderr
    r = with_cards([POSEIDON_TOP], BIN / "zk-status", "-d", "@DEV3")
    assert r.returncode != 0 and "@DEV3 names no card (there are 1: @DEV0..@DEV0)" in r.stderr, r.stderr
