"""The host tools and libzkxdma under valgrind (memcheck, full leak check): no errors, no leaks, results still
right.  Under valgrind the interposer refuses mmap (valgrind cannot single-step the faulting access), so the
tools reach the registers through 4-byte pread/pwrite, the driver's other user-device interface."""
from __future__ import annotations

import hashlib
import io
import json
import random
import shutil
from pathlib import Path

import pytest

from zkspinal.sim.buildlock import make
from reference_model import contract as C, keccak
from zkspinal.tools.sw import MSM_TOP, PAIR_TOP, POSEIDON_TOP, SPEED_TOP, SPONGE_TOP, SW, VALGRIND, build_sw, emulator, ok, tool

pytestmark = pytest.mark.skipif(shutil.which("valgrind") is None, reason="valgrind is not installed")


@pytest.fixture(scope="module", autouse=True)
def sw():
    build_sw()


def test_keccak_tools_valgrind(tmp_path):
    with emulator(SPEED_TOP) as dev:
        r = ok(tool("zk-keccak", "-d", dev, "speed", "-r", 4, "-n", 6, "-e", 2, "-f", 3, valgrind=True))
        assert int(r.stdout.split()[1], 16) == keccak.checksum(4, 6, 2, 3)
        ok(tool("zk-status", "-d", dev, "-r", f"{C.KECCAK_SPEED_FREQ:#x}", valgrind=True))
        r = tool("zk-keccak", "-d", dev, "speed", "-f", 0, valgrind=True)  # an error path
        assert r.returncode == 1 and "refused" in r.stderr
    msgs = [random.Random(9).randbytes(n) for n in (0, 5, 135, 136, 300)]
    (tmp_path / "in.txt").write_text("".join(m.hex() + "\n" for m in msgs))
    with emulator(SPONGE_TOP) as dev:
        r = ok(tool("zk-keccak", "-d", dev, "sponge", "-m", "shake_256", "-l", 40, "-i", tmp_path / "in.txt", "-b", 2,
                    valgrind=True))
        assert r.stdout.split() == [hashlib.shake_256(m).hexdigest(40) for m in msgs]
        (tmp_path / "bad.txt").write_text("00\n0g\n")
        r = tool("zk-keccak", "-d", dev, "sponge", "-m", "sha3_256", "-i", tmp_path / "bad.txt", valgrind=True)
        assert r.returncode == 2


@pytest.mark.parametrize("mode", ["seq", "par", "naive"])
def test_pair_and_library_valgrind(mode):
    with emulator(PAIR_TOP) as dev:
        r = tool("zk-pair", "-d", dev, "-n", 80, "-s", 8, "-m", mode, "-t", 1500, valgrind=True)
        if mode == "naive":  # the deadlock and its watchdog path, leak-free too
            assert r.returncode == 1 and "no progress" in r.stderr, r.stderr
        else:
            ok(r)
        if mode == "seq":
            r = tool("check-lib", dev, valgrind=True)
            assert r.returncode == 0, r.stdout + r.stderr


@pytest.mark.parametrize("mode", ["par", "naive"])
def test_library_threads_helgrind(mode):
    """helgrind on the threaded paths: the reader, two writers with the chunk barrier, the watchdog's abort"""
    with emulator(PAIR_TOP) as dev:
        r = tool("zk-pair", "-d", dev, "-n", 64, "-s", 8, "-m", mode, "-t", 1500, timeout=300,
                 wrap=["valgrind", "--tool=helgrind", "-q", "--error-exitcode=99"])
        assert "Possible data race" not in r.stderr and r.returncode == (1 if mode == "naive" else 0), r.stderr


def test_poseidon_valgrind(tmp_path):
    """zk-poseidon: a good run (two arities, two writes), a core-rejected frame, a malformed file"""
    from reference_model.poseidon import cli as model
    lines = ["0x1 0x2", "0x0 0x1 0x2 0x3", "0x5 0x6"]
    (tmp_path / "in.txt").write_text("".join(l + "\n" for l in lines))
    want = []
    for l in lines:
        out = io.StringIO()
        assert model.main(["--arity", str(len(l.split()))], stdin=io.StringIO(l + "\n"), stdout=out) == 0
        want.append(out.getvalue().strip())
    slow = {"ZKEMU_TIMEOUT_MS": "120000"}
    with emulator(POSEIDON_TOP) as dev:
        r = ok(tool("zk-poseidon", "-d", dev, "-t", 60000, "-i", tmp_path / "in.txt", "-b", 2, valgrind=True, env=slow,
                    timeout=300))
        assert r.stdout.split() == want
        (tmp_path / "rej.txt").write_text("0x1 0x2 0x3\n0x1 0x2\n")
        r = tool("zk-poseidon", "-d", dev, "-t", 60000, "-i", tmp_path / "rej.txt", "--unchecked", valgrind=True,
                 env=slow, timeout=300)
        assert r.returncode == 2 and r.stdout.split() == ["rejected", want[0]], r.stderr
        (tmp_path / "bad.txt").write_text("0x1 0xg\n")
        r = tool("zk-poseidon", "-d", dev, "-i", tmp_path / "bad.txt", valgrind=True)
        assert r.returncode == 2 and "not 0x followed" in r.stderr


def test_msm_valgrind(tmp_path):
    """zk-msm (links sw/host-msm, Rust + rayon): memcheck errors fail, and definite/indirect leaks; rayon's global
    thread pool stays reachable by design, as in tests/test_msm_host.py"""
    from zkspinal.tools.host_msm import build_host
    build_host()
    make(SW, "msm", check=True)
    vg = [a for a in VALGRIND if not a.startswith("--show-leak-kinds") and not a.startswith("--errors-for-leak-kinds")]
    vg += ["--errors-for-leak-kinds=definite,indirect"]
    with emulator(MSM_TOP) as dev:
        r = ok(tool("zk-msm", "-d", dev, "-g", 2, "-w", "6,6,6,6", "-B", 24, wrap=vg, timeout=300))
        assert r.stdout.startswith("0x") or r.stdout.strip() == "infinity"
        # resident points: the load and the scalar-only job (chunked: the aligned packet lists)
        r = ok(tool("zk-msm", "-d", dev, "-g", 7, "-w", "6,6,6,6", "-B", 24, "--resident", "-s", 64, wrap=vg, timeout=300))
        assert "resident points: 1 point-store load(s)" in r.stderr, r.stderr
        (tmp_path / "x.json").write_text(json.dumps({"points": ["infinity"], "scalars": ["0xzz"]}))
        r = tool("zk-msm", "-d", dev, "-i", tmp_path / "x.json", "-w", "6,6,6,6", "-B", 24, wrap=vg)
        assert r.returncode == 2 and "scalars[0]: '0xzz' is not valid hex" in r.stderr, r.stderr


# helgrind.supp: glibc's stack cache, which helgrind cannot see (worker stacks move between card threads)
HELGRIND = ["valgrind", "--tool=helgrind", "-q", "--error-exitcode=99",
            f"--suppressions={Path(__file__).parent / 'helgrind.supp'}"]


@pytest.mark.parametrize("checker", ["memcheck", "helgrind"])
def test_poseidon_cards_valgrind(tmp_path, checker):
    """zk-poseidon over two cards (one thread per card, the shared queue, the overlap figures) and discovery; card 1's
    DMA fails mid-run (--dma-error-after-beats), so the retry path runs too: no memcheck error or leak, no data race"""
    from reference_model.poseidon import cli as model
    from zkspinal.tools.sw import zkemu
    out = io.StringIO()
    assert model.main(["--arity", "2", "--gen", "8", "--seed", "4"], stdout=out) == 0
    lines = out.getvalue().splitlines()
    (tmp_path / "in.txt").write_text("".join(l + "\n" for l in lines))
    want = io.StringIO()
    assert model.main(["--arity", "2"], stdin=io.StringIO("".join(l + "\n" for l in lines)), stdout=want) == 0
    wrap = VALGRIND if checker == "memcheck" else HELGRIND
    with zkemu.cards([POSEIDON_TOP] * 2, extra={1: ["--dma-error-after-beats", "6"]}) as c:
        r = ok(tool("zk-poseidon", "-d", c.prefixes[0], "--devices", "all", "-t", 60000, "-i", tmp_path / "in.txt",
                    wrap=wrap, env={"ZKEMU_TIMEOUT_MS": "120000"}, timeout=600))
        assert r.stdout.split() == want.getvalue().split() and "dropped" in r.stderr, r.stderr
        assert "Possible data race" not in r.stderr
        ok(tool("zk-status", "-d", c.prefixes[0], "--list", wrap=wrap))


def test_msm_cards_valgrind():
    """zk-msm split by windows over two cards under memcheck (definite/indirect leaks, as above).  Not helgrind: the
    post-processing's rayon pool (sw/host-msm) synchronizes through atomics and Rust's futex locks, which helgrind
    does not see, so it reports races in arkworks code whatever our threads do; zk_spread's threads are checked by
    helgrind through zk-poseidon above"""
    from zkspinal.tools.host_msm import build_host
    from zkspinal.tools.sw import zkemu
    build_host()
    make(SW, "msm", check=True)
    vg = [a for a in VALGRIND if not a.startswith("--show-leak-kinds") and not a.startswith("--errors-for-leak-kinds")]
    vg += ["--errors-for-leak-kinds=definite,indirect"]
    with zkemu.cards([MSM_TOP] * 2) as c:
        r = ok(tool("zk-msm", "-d", c.prefixes[0], "--devices", "all", "-g", 2, "-w", "6,6,6,6", "-B", 24, wrap=vg,
                    timeout=600))
        assert "2 cards:" in r.stderr, r.stderr
        one = ok(tool("zk-msm", "-d", c.prefixes[0], "-g", 2, "-w", "6,6,6,6", "-B", 24))
        assert r.stdout == one.stdout
