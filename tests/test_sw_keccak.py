"""zk-keccak end to end through the XDMA emulator: test_speed against the model (reference_model.keccak) and the
sponge against hashlib, every mode, edge lengths around the rate; malformed input files; the core's error packet."""
from __future__ import annotations

import hashlib
import os
import random
import subprocess

import pytest

from reference_model import contract as C, keccak
from zkspinal.tools.sw import PRELOAD, SPEED_TOP, SPONGE_TOP, build_sw, emulator, ok, tool

RATES = {"sha3_224": 144, "sha3_256": 136, "sha3_384": 104, "sha3_512": 72, "shake_128": 168, "shake_256": 136}


@pytest.fixture(scope="module")
def speed_dev():
    build_sw()
    with emulator(SPEED_TOP) as dev:
        yield dev


@pytest.fixture(scope="module")
def sponge_dev():
    build_sw()
    with emulator(SPONGE_TOP) as dev:
        yield dev


def test_speed_checksums(speed_dev, seed):
    rng = random.Random(seed)
    cases = [(1, 1, 1, 1), (3, 8, 0, 4)] + [
        (rng.randint(1, 12), rng.randint(1, 24), rng.randint(0, 5), rng.randint(1, 6)) for _ in range(3)]
    for rounds, runs, elmts, freq in cases:
        r = ok(tool("zk-keccak", "-d", speed_dev, "speed", "-r", rounds, "-n", runs, "-e", elmts, "-f", freq))
        out = dict(line.split(" ", 1) for line in r.stdout.splitlines())
        want = keccak.checksum(rounds, runs, elmts, freq)
        assert int(out["checksum"], 16) == want, (rounds, runs, elmts, freq, f"SEED={seed}")
        calls = len(keccak.selected_runs(runs, elmts, freq))
        assert int(out["calls"]) == calls and int(out["permutations"]) == calls * rounds
        # --expect: the tool's own comparison
        exp = tool("zk-keccak", "-d", speed_dev, "speed", "-r", rounds, "-n", runs, "-e", elmts, "-f", freq,
                   "-x", f"{want ^ 1:x}")
        assert exp.returncode == 3 and "!= expected" in exp.stderr


def test_speed_refused_and_registers(speed_dev):
    r = tool("zk-keccak", "-d", speed_dev, "speed", "-r", 5, "-n", 2, "-f", 0)
    assert r.returncode == 1 and "refused the job" in r.stderr and "[FREQ = 0]" in r.stderr
    # the same registers through mmap (fault + single-step) and through pread
    a = ok(tool("zk-status", "-d", speed_dev)).stdout
    b = ok(tool("zk-status", "-d", speed_dev, env={"ZKEMU_MMAP": "0"})).stdout
    assert a == b and f"retc {C.KECCAK_SPEED_RETC_FAILURE:#x}" in a and "error 0x1" in a


def messages(rng, rate):
    lens = [0, 1, 7, 8, rate - 9, rate - 1, rate, rate + 1, 2 * rate, rng.randint(0, 3 * rate)]
    return [bytes(rng.getrandbits(8) for _ in range(n)) for n in lens]


@pytest.mark.parametrize("mode", list(RATES))
def test_sponge_vs_hashlib(sponge_dev, seed, mode, tmp_path):
    rng = random.Random(seed * 8 + list(RATES).index(mode))
    msgs = messages(rng, RATES[mode])
    shake = mode.startswith("shake")
    out_len = rng.choice([1, 32, 200]) if shake else None
    h = lambda m: (getattr(hashlib, mode)(m).digest(out_len) if shake else getattr(hashlib, mode)(m).digest())
    inp, out, chk = tmp_path / "in.txt", tmp_path / "out.txt", tmp_path / "want.txt"
    inp.write_text("".join(m.hex() + "\n" for m in msgs))
    chk.write_text("".join(h(m).hex() + "\n" for m in msgs))
    args = ["-d", sponge_dev, "sponge", "-m", mode, "-i", inp, "-o", out, "-b", 4] + (["-l", out_len] if shake else [])
    r = ok(tool("zk-keccak", *args, "-k", chk))
    assert out.read_text() == chk.read_text(), f"SEED={seed}"
    assert "messages/s" in r.stderr
    # a wrong expected digest is reported
    lines = chk.read_text().splitlines()
    lines[3] = ("0" if lines[3][0] != "0" else "1") + lines[3][1:]
    chk.write_text("\n".join(lines) + "\n")
    bad = tool("zk-keccak", *args, "-k", chk)
    assert bad.returncode == 3 and "digest 4 differs" in bad.stderr


def test_sponge_malformed_input(sponge_dev, tmp_path):
    inp = tmp_path / "in.txt"
    for text, line in [("00\nabc\n", 2), ("616263\nzz\n", 2), ("\n\n0x00\n", 3)]:
        inp.write_text(text)
        r = tool("zk-keccak", "-d", sponge_dev, "sponge", "-m", "sha3_256", "-i", inp)
        assert r.returncode == 2 and f"in.txt:{line}: not a hex string" in r.stderr, r.stderr
    inp.write_text("00\n")
    assert tool("zk-keccak", "-d", sponge_dev, "sponge", "-m", "sha3_999", "-i", inp).returncode == 2
    r = tool("zk-keccak", "-d", sponge_dev, "sponge", "-m", "shake_128", "-i", inp)
    assert r.returncode == 2 and "needs -l" in r.stderr
    assert tool("zk-keccak", "-d", sponge_dev, "bogus").returncode == 2
    assert tool("zk-keccak", "-d", sponge_dev, "sponge", "-i", tmp_path / "none.txt", "-m", "sha3_256").returncode == 1


def test_sponge_core_error_packet(sponge_dev, tmp_path):
    """A malformed packet written straight to the device (mode code 7) comes back as the core's 8-byte error packet,
    the error counter moves, and the next job is unaffected."""
    probe = (
        "import os,sys\n"
        "h=os.open(sys.argv[1]+'_h2c_0',os.O_WRONLY); c=os.open(sys.argv[1]+'_c2h_0',os.O_RDONLY)\n"
        "os.write(h, bytes([7,0,0,0,0,0,0,0])+b'abcdefgh')\n"
        "r=os.read(c, 32); print(len(r), r[0])\n")
    env = dict(os.environ, LD_PRELOAD=str(PRELOAD))
    before = ok(tool("zk-status", "-d", sponge_dev, "-k", "keccak-sponge")).stdout
    r = subprocess.run(["python3", "-c", probe, sponge_dev], env=env, capture_output=True, text=True, timeout=60)
    assert r.stdout.split() == ["8", "1"], r.stderr
    after = ok(tool("zk-status", "-d", sponge_dev, "-k", "keccak-sponge")).stdout
    errors = lambda s: int(s.split("errors ")[1].split()[0])
    assert errors(after) == errors(before) + 1
    inp = tmp_path / "in.txt"
    inp.write_text("616263\n")
    r = ok(tool("zk-keccak", "-d", sponge_dev, "sponge", "-m", "sha3_256", "-i", inp))
    assert r.stdout.strip() == hashlib.sha3_256(b"abc").hexdigest()


@pytest.mark.long
def test_sponge_soak(sponge_dev, seed, tmp_path):
    """5,000 messages of random lengths (0..600 bytes) in jobs of 256, SHA3-256, against hashlib."""
    rng = random.Random(seed)
    msgs = [rng.randbytes(rng.randint(0, 600)) for _ in range(5000)]
    (tmp_path / "in.txt").write_text("".join(m.hex() + "\n" for m in msgs))
    (tmp_path / "want.txt").write_text("".join(hashlib.sha3_256(m).hexdigest() + "\n" for m in msgs))
    ok(tool("zk-keccak", "-d", sponge_dev, "sponge", "-m", "sha3_256", "-i", tmp_path / "in.txt", "-o",
            tmp_path / "out.txt", "-k", tmp_path / "want.txt", timeout=1800))


def test_sponge_on_another_channel(tmp_path):
    """a core on DMA channel pair 2 (h2c_2, c2h_2): --channel 2; channel 0 does not exist there"""
    inp = tmp_path / "in.txt"
    inp.write_text("616263\n\n")
    ports = ["--h2c", "2=h2c_0", "--c2h", "2=c2h_0"]  # the card's stream ports on XDMA channels 2
    with emulator(SPONGE_TOP, ports=ports) as dev:
        r = ok(tool("zk-keccak", "-d", dev, "--channel", 2, "sponge", "-m", "sha3_224", "-i", inp))
        assert r.stdout.split() == [hashlib.sha3_224(b"abc").hexdigest(), hashlib.sha3_224(b"").hexdigest()]
        r = tool("zk-keccak", "-d", dev, "sponge", "-m", "sha3_224", "-i", inp)
        assert r.returncode == 1 and "xdma0_h2c_0: open: No such file or directory" in r.stderr
