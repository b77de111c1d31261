"""sw/scripts/program.sh: the dry run prints every step in order (JTAG and flash), option errors exit 2, and a real
run against a scratch sysfs/dev tree with stand-in vivado/modprobe/rmmod/lspci commands performs the steps in order
(remove, program, rescan, driver with poll_mode, device check); shellcheck-clean."""
from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import ROOT

SCRIPT = ROOT / "sw" / "scripts" / "program.sh"


def run(*args, env=None, cwd=None):
    return subprocess.run(["bash", str(SCRIPT), *map(str, args)], capture_output=True, text=True, env=env, cwd=cwd,
                          timeout=60)


def test_dry_run_jtag():
    p = run("--dry-run", "--poll-mode", "--bdf", "0000:03:00.0", "--board", "vu9p", "x.bit")
    assert p.returncode == 0, p.stderr
    out = p.stdout
    order = ["echo 1 > /sys/bus/pci/devices/0000:03:00.0/remove", "rmmod xdma", "get_hw_devices xcvu9p*",
             "set_property PROGRAM.FILE {x.bit}", "program_hw_devices", "vivado -mode batch",
             "echo 1 > /sys/bus/pci/rescan", "modprobe xdma poll_mode=1", "zk-status -d /dev/xdma0 -k none"]
    pos = [out.find(s) for s in order]
    assert all(i >= 0 for i in pos) and pos == sorted(pos), out


def test_dry_run_flash():
    p = run("--dry-run", "--flash", "img.mcs", "--flash-part", "mt25qu01g-spi-x1_x2_x4", "--driver", "/opt/xdma.ko")
    assert p.returncode == 0, p.stderr
    for s in ("get_cfgmem_parts {mt25qu01g-spi-x1_x2_x4}", "PROGRAM.FILES [list {img.mcs}]", "program_hw_cfgmem",
              "boot_hw_device", "get_hw_devices xcu55n*", "insmod /opt/xdma.ko"):
        assert s in p.stdout, s
    assert "poll_mode" not in p.stdout


@pytest.mark.parametrize("args, message", [
    (["--dry-run"], "no bitstream given"),
    (["--dry-run", "--flash", "a.mcs"], "--flash needs --flash-part"),
    (["--dry-run", "--flash", "a.mcs", "--flash-part", "p", "b.bit"], "not both"),
    (["--dry-run", "--board", "u280", "b.bit"], "--board c1100 or vu9p"),
    (["--dry-run", "--frobnicate", "b.bit"], "unknown option --frobnicate"),
    (["--dry-run", "--card", "x", "b.bit"], "--card N"),
])
def test_usage_errors(args, message):
    p = run(*args)
    assert p.returncode == 2 and message in p.stderr, p.stderr


def test_unreadable_bitstream(tmp_path):
    p = run(tmp_path / "missing.bit")
    assert p.returncode == 1 and "cannot read" in p.stderr


def test_real_run_with_stand_ins(tmp_path):
    """Every step performed, in order, on a scratch tree: the stand-ins log their arguments, the 'driver' creates
    the user device file, and rescan/remove are files the script writes."""
    bindir, log = tmp_path / "bin", tmp_path / "log"
    bindir.mkdir()
    sysfs, dev = tmp_path / "sys", tmp_path / "dev"
    (sysfs / "bus/pci/devices/0000:65:00.0").mkdir(parents=True)
    dev.mkdir()
    modules = tmp_path / "modules"
    modules.write_text("xdma 200704 0 - Live 0x0\n")
    for name, extra in {"vivado": 'cat "$6" >> "$LOG.tcl"', "rmmod": "", "lspci": 'echo "0000:65:00.0 Processing accelerators: Xilinx"',
                        "modprobe": f'touch "{dev}/xdma0_user"', "insmod": "", "zk-status": ""}.items():
        f = bindir / name
        f.write_text(f'#!/bin/sh\necho "{name} $*" >> "$LOG"\n{extra}\n')
        f.chmod(0o755)
    bit = tmp_path / "zk.bit"
    bit.write_bytes(b"\0" * 16)
    env = dict(os.environ, PATH=f"{bindir}:{os.environ['PATH']}", LOG=str(log), ZK_SYSFS=str(sysfs),
               ZK_STATUS=str(bindir / "zk-status"),
               ZK_DEVDIR=str(dev), ZK_PROC_MODULES=str(modules))
    p = run("--poll-mode", "--timeout", 3, bit, env=env)
    assert p.returncode == 0, p.stdout + p.stderr
    calls = log.read_text().splitlines()
    assert [c.split()[0] for c in calls] == ["lspci", "rmmod", "vivado", "modprobe", "zk-status"], calls
    assert calls[3] == "modprobe xdma poll_mode=1"
    assert calls[4] == f"zk-status -d {dev}/xdma0 -k none"
    assert (sysfs / "bus/pci/devices/0000:65:00.0/remove").read_text() == "1\n"
    assert (sysfs / "bus/pci/rescan").read_text() == "1\n"
    tcl = Path(str(log) + ".tcl").read_text()
    assert f"set_property PROGRAM.FILE {{{bit}}}" in tcl and "get_hw_devices xcu55n*" in tcl
    assert f"card ready at {dev}/xdma0" in p.stdout
    # the driver loads but no device appears: a clear failure, not a hang
    (bindir / "modprobe").write_text('#!/bin/sh\necho "modprobe $*" >> "$LOG"\n')
    os.remove(dev / "xdma0_user")
    p = run("--timeout", 1, bit, env=env)
    assert p.returncode == 1 and "did not appear within 1 s" in p.stderr


@pytest.mark.skipif(shutil.which("shellcheck") is None, reason="shellcheck not installed (apt-get install shellcheck)")
def test_shellcheck_clean():
    p = subprocess.run(["shellcheck", str(SCRIPT)], capture_output=True, text=True)
    assert p.returncode == 0, p.stdout
