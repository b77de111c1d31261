"""Failure paths of the host tools and libzkxdma through the emulator: a missing device, an emulator socket opened
without the interposer, misaligned buffers and short reads (check-lib), a core that stops answering (streams and
registers), SIGINT in the middle of a job (clean stop, core reset, card reusable)."""
from __future__ import annotations

import hashlib
import os
import random
import signal
import subprocess
import tempfile
import time

import pytest

from zkspinal.tools.sw import BIN, PAIR_TOP, PRELOAD, SPEED_TOP, SPONGE_TOP, build_sw, emulator, ok, tool, zkemu


@pytest.fixture(scope="module", autouse=True)
def sw():
    build_sw()


def test_missing_device(tmp_path):
    r = tool("zk-status", "-d", tmp_path / "xdma9")
    assert r.returncode == 1 and f"{tmp_path}/xdma9_user: open: No such file or directory" in r.stderr
    r = tool("zk-keccak", "-c", 7, "speed", preload=False)
    assert r.returncode == 1 and "/dev/xdma7_user: open: No such file or directory" in r.stderr
    r = tool("zk-keccak", "speed", preload=False, env={"ZKXDMA_DEVICE": str(tmp_path / "card")})
    assert r.returncode == 1 and f"{tmp_path}/card_user: open" in r.stderr


def test_emulator_without_interposer_and_after_exit():
    with emulator(SPEED_TOP) as dev:
        r = tool("zk-status", "-d", dev, preload=False)
        assert r.returncode == 1 and "No such device or address" in r.stderr and "LD_PRELOAD=libzkemu.so" in r.stderr
    r = tool("zk-status", "-d", dev)  # the directory is gone with the emulator
    assert r.returncode == 1 and "No such file or directory" in r.stderr


def test_emulator_killed():
    """A card that went away under the device files (the emulator killed, its sockets left behind): ENODEV."""
    exe = zkemu.build(SPEED_TOP)
    with tempfile.TemporaryDirectory(prefix="zkemu.") as d:
        p = subprocess.Popen([str(exe), "--dir", d], stdout=subprocess.DEVNULL)
        try:
            for _ in range(500):
                if os.path.exists(f"{d}/xdma0_user"):
                    break
                time.sleep(0.01)
            ok(tool("zk-status", "-d", f"{d}/xdma0"))
        finally:
            p.kill()
            p.wait()
        r = tool("zk-status", "-d", f"{d}/xdma0")
        assert r.returncode == 1 and f"{d}/xdma0_user: open: No such device" in r.stderr, r.stderr


def test_library_checks():
    """misaligned buffers refused with the path, short reads completed, missing channels (sw/lib/check_lib.c)"""
    with emulator(PAIR_TOP) as dev:
        r = tool("check-lib", dev)
        assert r.returncode == 0, r.stdout + r.stderr


def test_stream_core_hangs():
    """The core stops after 40 beats: the transfer ends after the timeout with the blocked device named; the
    registers of the hung core read all ones; a reset through the system block brings it back."""
    with emulator(PAIR_TOP, ["--freeze-after-beats", "40"]) as dev:
        t0 = time.monotonic()
        r = tool("zk-pair", "-d", dev, "-n", 200, "-s", 8, "-t", 1500)
        assert r.returncode == 1 and time.monotonic() - t0 < 10
        assert "no progress for 1500 ms (the core stopped accepting or answering)" in r.stderr, r.stderr
        assert "_h2c_" in r.stderr.splitlines()[0]
        ok(tool("zk-status", "-d", dev, "-k", "pair"))  # the system block still answers
        ok(tool("zk-pair", "-d", dev, "-n", 200, "-s", 8))  # zk-pair reset the core after the failure


def test_register_core_hangs():
    with emulator(SPEED_TOP, ["--freeze-after-writes", "6"]) as dev:  # the 6th write starts the job
        r = tool("zk-keccak", "-d", dev, "speed", "-r", 1000, "-n", 1000, "-t", 2000)
        assert r.returncode == 1 and "stopped answering (registers read all ones)" in r.stderr, r.stderr
        r = tool("zk-status", "-d", dev)
        assert r.returncode == 1 and "does not answer" in r.stderr
        ok(tool("zk-status", "-d", dev, "--reset"))
        r = ok(tool("zk-keccak", "-d", dev, "speed", "-r", 3, "-n", 5))
        from reference_model import keccak
        assert int(r.stdout.split()[1], 16) == keccak.checksum(3, 5, 1, 65536)


def test_sigint_stops_and_resets(tmp_path):
    rng = random.Random(3)
    msgs = [rng.randbytes(100) for _ in range(5000)]
    (tmp_path / "big.txt").write_text("".join(m.hex() + "\n" for m in msgs))
    (tmp_path / "small.txt").write_text("".join(m.hex() + "\n" for m in msgs[:20]))
    env = dict(os.environ, LD_PRELOAD=str(PRELOAD))
    with emulator(SPONGE_TOP) as dev:
        p = subprocess.Popen([str(BIN / "zk-keccak"), "-d", dev, "sponge", "-m", "sha3_256", "-i", tmp_path / "big.txt",
                              "-o", tmp_path / "out.txt"], env=env, stderr=subprocess.PIPE, text=True)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:  # SIGINT once the job runs: the core has hashed messages
            st = tool("zk-status", "-d", dev, "-k", "keccak-sponge").stdout
            if "messages " in st and int(st.split("messages ")[1].split()[0]) > 0:
                break
            time.sleep(0.05)
        assert p.poll() is None, "the job ended before the signal: make it longer"
        p.send_signal(signal.SIGINT)
        _, err = p.communicate(timeout=30)
        assert p.returncode == 130 and "interrupted; resetting the core" in err, err
        r = ok(tool("zk-keccak", "-d", dev, "sponge", "-m", "sha3_256", "-i", tmp_path / "small.txt"))
        assert r.stdout.split() == [hashlib.sha3_256(m).hexdigest() for m in msgs[:20]]


def test_sigint_during_register_job():
    """SIGINT while zk-keccak waits on a long test_speed job: exit 130, the reset leaves the core idle (CONTROL
    0x4), and the next job's checksum is right."""
    env = dict(os.environ, LD_PRELOAD=str(PRELOAD))
    with emulator(SPEED_TOP) as dev:
        p = subprocess.Popen([str(BIN / "zk-keccak"), "-d", dev, "speed"], env=env, stderr=subprocess.PIPE, text=True)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and "control 0x1" not in tool("zk-status", "-d", dev).stdout:
            time.sleep(0.05)
        p.send_signal(signal.SIGINT)
        _, err = p.communicate(timeout=30)
        assert p.returncode == 130 and "resetting the core" in err, err
        assert "control 0x4" in ok(tool("zk-status", "-d", dev)).stdout
        from reference_model import keccak
        r = ok(tool("zk-keccak", "-d", dev, "speed", "-r", 2, "-n", 3))
        assert int(r.stdout.split()[1], 16) == keccak.checksum(2, 3, 1, 65536)
