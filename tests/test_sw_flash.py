"""zk-flash end to end through the XDMA emulator on FlashCtrl_small, whose pins drive the JEDEC flash and ICAPE3 models
of sw/emu/zkflash_model.c (the ones test_system_flash.py uses): info, write + verify, read, bad files, a verify
failure injected by the model (a stuck bit), write protection, an interrupted write (SIGINT) that leaves the golden
image intact, reload through a fake sysfs, and valgrind.  The flash contents live in an image file the emulator
loads at start and saves at exit, so each test checks every byte of the flash afterwards."""
from __future__ import annotations

import os
import shutil
import signal
import subprocess
import time
from pathlib import Path

import pytest

from zkspinal.tb.bitstream import XCU55N, XCVU9P, image
from zkspinal.tools.sw import BIN, PRELOAD, build_sw, emulator, ok, tool

TOP = "FlashCtrl_small"
# one worker builds and runs this top's emulator (build/emu/FlashCtrl_small is shared)
pytestmark = pytest.mark.xdist_group("emu_" + TOP)
SIZE, HALF = 1 << 20, 1 << 19
GOLDEN = image(XCU55N, 1500, seed=7)
OLD_UPDATE = bytes([0xA5]) * HALF  # what the update slot held before: the parts a write does not cover stay


@pytest.fixture(scope="module", autouse=True)
def sw():
    build_sw()


def flash_file(tmp_path: Path) -> Path:
    f = tmp_path / "flash.img"
    f.write_bytes(GOLDEN + b"\xff" * (HALF - len(GOLDEN)) + OLD_UPDATE)
    return f


def card(flash: Path, *extra):
    return emulator(TOP, ["--flash-image", str(flash), "--flash-size", str(SIZE), "--flash-jedec", "0x20BA14", *extra])


def test_flash_info(tmp_path):
    flash = flash_file(tmp_path)
    with card(flash) as dev:
        out = ok(tool("zk-flash", "-d", dev, "info")).stdout
    assert "jedec_id 0x20ba14 (Micron)" in out and f"size {SIZE}" in out and "address_bytes 3" in out
    assert "golden_slot 0x00000000 bitstream idcode 0x04b77093 (xcu55n)" in out
    assert "update_slot 0x00080000 empty or not a bitstream" in out and "design_idcode 0x04b77093" in out


def test_flash_write_verify_read(tmp_path):
    flash = flash_file(tmp_path)
    img = image(XCU55N, 2700, seed=3)  # 10.9 KiB: two 4 KiB subsectors and a partial third
    (tmp_path / "new.bin").write_bytes(img)
    with card(flash) as dev:
        r = ok(tool("zk-flash", "-d", dev, "write", tmp_path / "new.bin"))
        assert "verified: crc32" in r.stdout and "KiB/s" in r.stdout and "program" in r.stderr, r.stdout + r.stderr
        ok(tool("zk-flash", "-d", dev, "read", tmp_path / "back.bin", "-o", HALF, "-n", len(img)))
        assert (tmp_path / "back.bin").read_bytes() == img
        info = ok(tool("zk-flash", "-d", dev, "info")).stdout
        assert "update_slot 0x00080000 bitstream idcode 0x04b77093" in info
    mem = flash.read_bytes()
    tail = (len(img) + 4095) & ~4095
    assert mem[:HALF] == GOLDEN + b"\xff" * (HALF - len(GOLDEN)), "the golden slot changed"
    assert mem[HALF:HALF + len(img)] == img
    assert mem[HALF + len(img):HALF + tail] == b"\xff" * (tail - len(img)), "the last subsector was not erased"
    assert mem[HALF + tail:] == OLD_UPDATE[tail:], "erased more than the image needs"


def test_flash_bad_files(tmp_path):
    flash = flash_file(tmp_path)
    files = {"junk.bin": bytes(range(256)) * 8, "empty.bin": b"", "vu9p.bin": image(XCVU9P, 200),
             "nosync.bit": b"\x00\x09\x0f\xf0" * 2000 + image(XCU55N, 10)[:40],  # sync word beyond 4 KiB
             "noid.bin": b"\xff" * 32 + bytes.fromhex("aa995566 20000000 50000004") + b"\x00" * 16,
             "huge.bin": image(XCU55N, HALF // 4)}
    for name, data in files.items():
        (tmp_path / name).write_bytes(data)
    with card(flash) as dev:
        for name, why in [("junk.bin", "no sync word"), ("empty.bin", "no sync word"), ("nosync.bit", "no sync word"),
                          ("noid.bin", "frame data before any IDCODE"), ("vu9p.bin", "IDCODE 0x14b31093 (xcvu9p)"),
                          ("huge.bin", "do not fit the update slot")]:
            r = tool("zk-flash", "-d", dev, "write", tmp_path / name)
            assert r.returncode == 2 and why in r.stderr, (name, r.returncode, r.stderr)
        r = tool("zk-flash", "-d", dev, "write", tmp_path / "vu9p.bin", "--part", "xcvu9p")  # the owner says so
        assert r.returncode == 0, r.stderr
        r = ok(tool("zk-flash", "-d", dev, "write", tmp_path / "junk.bin", "--force"))
        assert "not a bitstream" in r.stderr and "verified" in r.stdout
        r = tool("zk-flash", "-d", dev, "bogus")
        assert r.returncode == 2
    assert flash.read_bytes()[:HALF].startswith(GOLDEN)


def test_flash_verify_failure_injected(tmp_path):
    flash = flash_file(tmp_path)
    img = image(XCU55N, 600, seed=5)
    at = next(i for i in range(200, len(img)) if not img[i] & 0x10)  # a byte whose bit 4 must program to 0
    (tmp_path / "new.bin").write_bytes(img)
    with card(flash, "--flash-stuck", f"{HALF + at:#x}:0x10") as dev:
        r = tool("zk-flash", "-d", dev, "write", tmp_path / "new.bin")
    assert r.returncode == 3, r.stderr
    assert f"verify FAILED: 1 bytes differ, first at {HALF + at:#010x}" in r.stderr and "golden image is untouched" in r.stderr


def test_flash_write_protected(tmp_path):
    flash = flash_file(tmp_path)
    (tmp_path / "new.bin").write_bytes(image(XCU55N, 300))
    with card(flash, "--flash-status", "0x10") as dev:  # BP2: the top 8 sectors, the whole update slot
        r = tool("zk-flash", "-d", dev, "write", tmp_path / "new.bin")
    assert r.returncode == 1 and "write-protected" in r.stderr, r.stderr
    assert flash.read_bytes()[HALF:] == OLD_UPDATE


def test_flash_interrupted_write(tmp_path):
    flash = flash_file(tmp_path)
    img = image(XCU55N, 8000, seed=9)  # 32 KiB: long enough to be interrupted while programming
    (tmp_path / "new.bin").write_bytes(img)
    with card(flash) as dev:
        env = dict(os.environ, LD_PRELOAD=str(PRELOAD))
        p = subprocess.Popen([str(BIN / "zk-flash"), "-d", dev, "write", str(tmp_path / "new.bin")], env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        time.sleep(2.5)
        p.send_signal(signal.SIGINT)
        out, err = p.communicate(timeout=60)
    assert p.returncode == 130, (p.returncode, err)
    assert "interrupted" in err and "the golden image at 0x00000000 is untouched" in err, err
    mem = flash.read_bytes()
    assert mem[:HALF] == GOLDEN + b"\xff" * (HALF - len(GOLDEN)), "the golden slot changed"
    assert mem[HALF:HALF + len(img)] != img, "the write finished before the interrupt: nothing was tested"


def fake_sysfs(root: Path) -> tuple[Path, Path]:
    dev = root / "devices/pci0000:00/0000:01:00.0"
    dev.mkdir(parents=True)
    (dev / "remove").write_text("")
    (root / "bus/pci").mkdir(parents=True)
    (root / "bus/pci/rescan").write_text("")
    (root / "class/xdma/xdma0_user").mkdir(parents=True)
    (root / "class/xdma/xdma0_user/device").symlink_to("../../../devices/pci0000:00/0000:01:00.0")
    return dev / "remove", root / "bus/pci/rescan"


def test_flash_reload(tmp_path):
    flash = flash_file(tmp_path)
    remove, rescan = fake_sysfs(tmp_path / "sys")
    with card(flash, "--reload-ms", "400") as dev:
        log = Path(dev).parent / "emu.log"
        r = ok(tool("zk-flash", "-d", dev, "reload", "--sysfs", tmp_path / "sys", "--dry-run"))
        assert f"would run: echo 1 > {remove}" in r.stdout and f"would run: echo 1 > {rescan}" in r.stdout
        assert remove.read_text() == "" and "IPROG" not in log.read_text(), "the dry run touched something"
        r = ok(tool("zk-flash", "-d", dev, "reload", "--sysfs", tmp_path / "sys", "--settle-ms", "0"))
        assert "reloaded" in r.stdout, r.stdout
        assert remove.read_text() == "1\n" and rescan.read_text() == "1\n"
        assert "IPROG through ICAPE3, WBSTAR 0x00080000" in log.read_text() and "reconfigured" in log.read_text()
        ok(tool("zk-flash", "-d", dev, "info"))  # the card answers again
        r = tool("zk-flash", "-d", dev, "reload", "--sysfs", tmp_path / "nowhere")
        assert r.returncode == 1 and "give --pci BDF" in r.stderr


@pytest.mark.skipif(shutil.which("valgrind") is None, reason="valgrind is not installed")
def test_flash_valgrind(tmp_path):
    flash = flash_file(tmp_path)
    (tmp_path / "new.bin").write_bytes(image(XCU55N, 200, seed=2))
    (tmp_path / "junk.bin").write_bytes(b"\x00" * 100)
    with card(flash) as dev:
        ok(tool("zk-flash", "-d", dev, "info", valgrind=True, timeout=300))
        ok(tool("zk-flash", "-d", dev, "write", tmp_path / "new.bin", valgrind=True, timeout=300))
        ok(tool("zk-flash", "-d", dev, "read", tmp_path / "b.bin", "-o", 0, "-n", 1000, valgrind=True, timeout=300))
        assert tool("zk-flash", "-d", dev, "write", tmp_path / "junk.bin", valgrind=True).returncode == 2


def test_flash_4byte_addressing(tmp_path):
    """a 32 MiB part (capacity code 0x19): zk-flash switches to the 4-byte-address opcodes (0x13, 0x12, 0x21)
    for the update slot at 16 MiB, which 3-byte addresses cannot reach"""
    big, half = 32 << 20, 16 << 20
    flash = tmp_path / "flash32.img"
    flash.write_bytes(GOLDEN + b"\xff" * (big - len(GOLDEN)))
    img = image(XCU55N, 700, seed=11)
    (tmp_path / "new.bin").write_bytes(img)
    with emulator(TOP, ["--flash-image", str(flash), "--flash-size", str(big), "--flash-jedec", "0x20BA19"]) as dev:
        info = ok(tool("zk-flash", "-d", dev, "info")).stdout
        assert f"size {big}" in info and "address_bytes 4" in info and "golden_slot 0x00000000 bitstream" in info
        ok(tool("zk-flash", "-d", dev, "write", tmp_path / "new.bin"))
    mem = flash.read_bytes()
    assert mem[half:half + len(img)] == img
    # 3-byte addresses would have wrapped 16 MiB to 0, over the golden image
    assert mem[:half] == GOLDEN + b"\xff" * (half - len(GOLDEN))
