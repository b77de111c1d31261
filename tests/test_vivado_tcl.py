"""The Vivado scripts (vivado/) run under tclsh with the command stub (vivado/stub/), and what they ask Vivado to
build is checked by vivado/stub/check.py: connectivity of every core pin and interface, stream widths against the
emitted Verilog, clock domains meeting only in asynchronous FIFOs / the two-clock SmartConnect / reset
synchronizers, XDMA channels, the user BAR map, the flash controller (FlashCtrl_<board> at 0x20000 on both boards,
its ICAP clock, the configuration settings of the flash layout), documented parts and board pins, the packaged IP,
card memory (the VU9P's DDR4 controllers, the C1100's HBM ports).  Negative tests:
every single connection of a block design, dropped in turn, and script variants with a line removed or a property
changed make the checker fail.

Cores are found by name in build/rtl: PoseidonAxis_* and MsmAxis_* are checked as soon as they are emitted."""
from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import ROOT

from vivado_stub import check as vcheck, rtl as vrtl
from vivado_stub.boards import core_mhz
from zkspinal.paths import top_info

VIVADO = ROOT / "vivado"
RTL = ROOT / "build" / "rtl"
BOARDS = ("c1100", "vu9p")
# board-level core kinds: (glob, why it may be absent)
CORE_KINDS = {
    "PoseidonAxis": "PoseidonAxis is not emitted yet (hw/src/zkspinal/poseidon is being built)",
    "MsmAxis": "MsmAxis is not emitted yet (hw/src/zkspinal/msm is being built)",
    "KeccakSpongeAxis": "no KeccakSpongeAxis top emitted",
    "KeccakSpeed": "no KeccakSpeed top emitted",
    "PairFixture": "no PairFixture top emitted",
}


def tops(kind: str) -> list[str]:
    return sorted(p.stem for p in RTL.glob(f"{kind}_*.v"))


def run_stub(tmp: Path, script: Path, *args, env: dict | None = None, name: str = "record") -> tuple[subprocess.CompletedProcess, Path]:
    record = tmp / f"{name}.jsonl"
    e = None
    if env:
        import os
        e = dict(os.environ, **env)
    proc = subprocess.run(["tclsh", str(VIVADO / "stub" / "run.tcl"), str(record), str(script), *map(str, args)],
                          capture_output=True, text=True, cwd=tmp, env=e, timeout=120)
    return proc, record


def bd(tmp: Path, board: str, *args, env: dict | None = None, script: Path | None = None, name: str = "record"):
    return run_stub(tmp, script or VIVADO / f"bd_{board}.tcl", "--out", tmp / "proj", "--ip", tmp / "ip", *args,
                    env=env, name=name)


def facts(record: Path, t: str) -> list[dict]:
    out = []
    for line in record.read_text().splitlines():
        f = json.loads(line)
        if f["t"] == t:
            out.append(f)
    return out


def assert_clean(proc, record: Path, board: str | None):
    assert proc.returncode == 0, proc.stdout + proc.stderr
    problems = vcheck.check(record, board)
    assert problems == [], "\n".join(problems)


# ---------------------------------------------------------------- the port reader (Tcl) against Python's
def test_tcl_port_reader_matches_python(tmp_path):
    names = [p.stem for p in RTL.glob("*.v") if re.match(r"(PoseidonAxis|MsmAxis|KeccakSpongeAxis|KeccakSpeed|"
                                                        r"PairFixture|SystemBlock|InbandLast)_|FlashCtrl_(c1100|vu9p)$", p.stem)]
    assert len(names) >= 5
    script = tmp_path / "ports.tcl"
    script.write_text(f"source {VIVADO / 'lib' / 'zk_rtl.tcl'}\n"
                      "foreach t $argv { set i [zk::interfaces $t]\n"
                      "  dict for {n a} [dict get $i axis] { puts \"$t axis $n [dict get $a mode] [dict get $a width] [join [dict get $a signals] ,]\" }\n"
                      "  dict for {n a} [dict get $i axil] { puts \"$t axil $n [dict get $a mode] [dict get $a addr]\" }\n"
                      "  dict for {n a} [dict get $i axi] { puts \"$t axi $n [dict get $a mode] [dict get $a addr] "
                      "[dict get $a data] [dict get $a id] [join [dict get $a signals] ,]\" }\n"
                      "  puts \"$t status [join [dict get $i status] ,] [join [dict get $i status_in] ,] [join [dict get $i reset_out] ,]\"\n"
                      "  puts \"$t clocks [join [dict get $i aux_clocks] ,]\"\n"
                      "  puts \"$t ident [join [dict get $i ident] ,] [join [dict get $i ident_in] ,]\" }\n")
    out = subprocess.run(["tclsh", str(script), *names], capture_output=True, text=True, check=True).stdout
    want = []
    for t in names:
        i = vrtl.interfaces(t)
        want += [f"{t} axis {n} {a['mode']} {a['bytes']} {','.join(a['signals'])}" for n, a in i.axis.items()]
        want += [f"{t} axil {n} {a['mode']} {a['addr']}" for n, a in i.axil.items()]
        want += [f"{t} axi {n} {a['mode']} {a['addr']} {a['data']} {a['id']} {','.join(a['signals'])}"
                 for n, a in i.axi.items()]
        want.append(f"{t} status {','.join(i.status)} {','.join(i.status_in)} {','.join(i.reset_out)}")
        want.append(f"{t} clocks {','.join(i.aux_clocks)}")
        want.append(f"{t} ident {','.join(i.ident)} {','.join(i.ident_in)}")
    assert "FlashCtrl_c1100 clocks icap_clk" in want
    assert any(w.startswith("MsmAxis_vu9p axi m_axi_mem3 master 34 512 1 awid,") for w in want), "the point store"
    # every core a board design takes drives the identity; the system blocks take it
    ident = "ident_kind,ident_config,ident_version"
    for t in names:
        expect = (f"{t} ident  {ident}" if t.startswith("SystemBlock") else f"{t} ident  " if
                  t.startswith(("FlashCtrl", "InbandLast")) else f"{t} ident {ident} ")
        assert expect in want, t
    assert out.split("\n")[:-1] == want


def test_tcl_port_reader_refuses_unknown_ports(tmp_path):
    (tmp_path / "Odd_x.v").write_text("module Odd_x (\n  input  wire          aclk,\n  input  wire          aresetn,\n"
                                      "  input  wire [7:0]    mystery\n);\nendmodule\n")
    script = tmp_path / "odd.tcl"
    script.write_text(f"source {VIVADO / 'lib' / 'zk_rtl.tcl'}\nzk::interfaces Odd_x\n")
    proc = subprocess.run(["tclsh", str(script)], capture_output=True, text=True, env={"ZK_RTL": str(tmp_path), "PATH": "/usr/bin:/bin"})
    assert proc.returncode != 0 and "port mystery (in, 8 bits) follows no convention" in proc.stderr
    # an incomplete identity: two of the three words
    (tmp_path / "Half_x.v").write_text(port_shell("Half_x", [("aclk", "in", 1), ("aresetn", "in", 1)] + IDENT[:2]))
    script.write_text(f"source {VIVADO / 'lib' / 'zk_rtl.tcl'}\nzk::interfaces Half_x\n")
    proc = subprocess.run(["tclsh", str(script)], capture_output=True, text=True, env={"ZK_RTL": str(tmp_path), "PATH": "/usr/bin:/bin"})
    assert proc.returncode != 0 and "identity ports ident_kind,ident_config: all of" in proc.stderr, proc.stderr
    with pytest.raises(ValueError, match="identity ports"):
        vrtl.interfaces("Half_x", tmp_path)


# ---------------------------------------------------------------- IP packaging
def test_package_ip_every_board_top(tmp_path):
    proc, record = run_stub(tmp_path, VIVADO / "package_ip.tcl", "--out", tmp_path / "ip")
    assert_clean(proc, record, None)
    packaged = sorted(f["name"] for f in facts(record, "component"))
    # *_model tops (the simulation model of the multiplier) are not synthesisable and not packaged
    expected = sorted([t for k in [*CORE_KINDS, "SystemBlock", "InbandLast"] for t in tops(k) if not t.endswith("_model")] +
                      ["FlashCtrl_c1100", "FlashCtrl_vu9p"])
    assert packaged == expected
    # the flash controller's second clock is a clock interface of its own, with no bus on it
    buses = {(f["component"], f["name"]) for f in facts(record, "bus")}
    assert ("FlashCtrl_c1100", "icap_clk") in buses and ("FlashCtrl_small", "icap_clk") not in buses
    version = (VIVADO / "VERSION").read_text().strip()
    for c in facts(record, "component"):
        assert c["vendor"] == "zkspinal.org" and c["version"] == version and c["saved"] == "1"
    # the revision and description come from git
    rev = subprocess.run(["git", "rev-list", "--count", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout.strip()
    props = {(f["component"], f["k"]): f["v"] for f in facts(record, "component_prop")}
    assert props[("SystemBlock_s2", "core_revision")] == rev


def test_package_ip_checker_sees_a_wrong_port_map(tmp_path):
    proc, record = run_stub(tmp_path, VIVADO / "package_ip.tcl", "--out", tmp_path / "ip", "KeccakSpongeAxis_r1")
    assert_clean(proc, record, None)
    text = record.read_text().replace('"physical":"s_axis_tlast"', '"physical":"m_axis_tlast"')
    record.write_text(text)
    problems = vcheck.check(record, None)
    assert any("m_axis_tlast" in p for p in problems), problems


# ---------------------------------------------------------------- block designs, every emitted core on every board
def memory_refusal(top: str, board: str) -> str | None:
    """What bd_<board>.tcl says when it refuses a core's memory channels (None: the board takes them): more channels
    than the board's DIMMs or HBM switch groups (MsmAxis_bn254_c1100's eight on the VU9P), channels in the layout of
    the other memory (the VU9P tops' channels, each from address 0, on the C1100's HBM; the C1100 top's windows of one
    address space on the VU9P's DIMMs), or a channel wider than its DIMM or HBM window."""
    axi = vrtl.interfaces(top).axi
    mem = vcheck.BOARDS[board].get("memory")
    if not axi:
        return None
    if mem is None:
        return "has no card memory"
    store = top_info(top).get("point_store") or {}
    shared = store.get("window_bits", 0)
    if mem["type"] == "DDR4":
        channels, window = len(mem["slrs"]), 1 << 34
    else:
        channels, window = mem["stacks"] * mem["stack_ports"] // mem["group_ports"], mem["group_ports"] * mem["pc_bytes"]
    if len(axi) > channels:
        return "memory channels; board"
    if mem["type"] == "HBM" and (1 << shared) != window:
        return "memories of their own from address 0" if not shared else f"windows of 2^{shared} bytes"
    if mem["type"] == "DDR4" and shared:
        return "in one address space (an HBM layout"
    if any(1 << store.get("address_bits", a["addr"]) > window for a in axi.values()):
        return "an HBM channel is 1024 MiB" if mem["type"] == "HBM" else "one DIMM has 34"
    return None


@pytest.mark.parametrize("board", BOARDS)
@pytest.mark.parametrize("kind", list(CORE_KINDS))
def test_block_design(tmp_path, board, kind):
    found = tops(kind)
    if kind == "KeccakSpeed":
        found = found[:3]  # register-only cores differ only in their generics: three are enough
    if not found:
        pytest.skip(CORE_KINDS[kind])
    for top in found:
        proc, record = bd(tmp_path, board, "--core", top, name=top)
        refusal = memory_refusal(top, board)
        if refusal:
            # a core whose card memory the board cannot give is refused, not built half-connected
            assert proc.returncode != 0 and refusal in proc.stderr, proc.stderr
            continue
        assert_clean(proc, record, board)
        cells = {f["path"]: f["vlnv"] for f in facts(record, "cell")}
        assert cells["/core"].split(":")[2] == top
        ifs = vrtl.interfaces(top)
        # stream widths: the core's interfaces are the Verilog's, each reaches its own XDMA channel
        xdma = {f["k"]: f["v"] for f in facts(record, "cell_prop") if f["path"] == "/xdma_0"}
        ins = [n for n, a in ifs.axis.items() if a["mode"] == "slave"]
        outs = [n for n, a in ifs.axis.items() if a["mode"] == "master"]
        assert int(xdma["CONFIG.xdma_rnum_chnl"]) == max(1, len(ins))
        assert int(xdma["CONFIG.xdma_wnum_chnl"]) == max(1, len(outs))
        if kind == "PoseidonAxis":
            assert any(v.split(":")[2].startswith("InbandLast_") for v in cells.values()), "no frame adapter"


@pytest.mark.parametrize("board, first_choice, fallback", [("c1100", "PoseidonAxis", "KeccakSpongeAxis"),
                                                           ("vu9p", "MsmAxis", "PairFixture")])
def test_default_core(tmp_path, board, first_choice, fallback):
    proc, record = bd(tmp_path, board)
    assert_clean(proc, record, board)
    core = next(f["vlnv"] for f in facts(record, "cell") if f["path"] == "/core").split(":")[2]
    assert core.startswith(first_choice if tops(first_choice) else fallback), core
    # the default core clock is the board's core_mhz, the clock the benchmark report projects at
    props = {(f["path"], f["k"]): f["v"] for f in facts(record, "cell_prop")}
    assert float(props[("/core_clk", "CONFIG.CLKOUT1_REQUESTED_OUT_FREQ")]) == core_mhz(board)


@pytest.mark.parametrize("board", BOARDS)
def test_parameters_reach_the_design(tmp_path, board):
    proc, record = bd(tmp_path, board, "--core", "PairFixture_d16", "--core-mhz", 175, "--fifo-depth", 1024)
    assert_clean(proc, record, board)
    props = {(f["path"], f["k"]): f["v"] for f in facts(record, "cell_prop")}
    assert props[("/core_clk", "CONFIG.CLKOUT1_REQUESTED_OUT_FREQ")] == "175"
    fifos = [p for (p, k) in props if k == "CONFIG.FIFO_DEPTH"]
    assert len(fifos) == 3 and all(props[(p, "CONFIG.FIFO_DEPTH")] == "1024" for p in fifos)
    assert all(props[(p, "CONFIG.IS_ACLK_ASYNC")] == "1" and props[(p, "CONFIG.HAS_TLAST")] == "1" for p in fifos)
    for bad in (["--fifo-depth", 1000], ["--core-mhz", 0], ["--core", "NoSuchTop_x"], ["--bogus", 1]):
        proc, record = bd(tmp_path, board, *bad, name="bad")
        assert proc.returncode != 0, bad


# ---------------------------------------------------------------- negative tests
@pytest.mark.parametrize("board, core", [("c1100", "KeccakSpongeAxis_r1"), ("c1100", "KeccakSpeed_r2_u1"),
                                         ("vu9p", "PairFixture_d16"), ("vu9p", "MsmAxis_small2_model"),
                                         ("c1100", "MsmAxis_bn254_small2_model")])  # the C1100 layout (HBM windows)
def test_every_dropped_connection_fails(tmp_path, board, core):
    if core not in tops(core.split("_")[0]):
        pytest.skip(f"{core} not emitted")
    proc, record = bd(tmp_path, board, "--core", core)
    assert_clean(proc, record, board)
    n = int(facts(record, "result")[0]["connects"])
    assert n > 20
    silent = []
    for k in range(n):
        proc, rec = bd(tmp_path, board, "--core", core, env={"ZK_STUB_DROP": str(k)}, name="drop")
        dropped = facts(rec, "dropped")
        assert len(dropped) == 1
        if proc.returncode == 0 and not vcheck.check(rec, board):
            silent.append(dropped[0]["ends"])
    assert silent == [], f"connections whose removal the checker does not see: {silent}"


def copy_scripts(tmp: Path) -> Path:
    dst = tmp / "vivado"
    shutil.copytree(VIVADO, dst, ignore=shutil.ignore_patterns("__pycache__", "*.md"))
    return dst


@pytest.mark.parametrize("edit, expect", [
    # one connect removed from the script: the core's reset
    (("lib/zk_bd.tcl", "    zk::bd::net sys/core_aresetn core/aresetn\n", ""), "/core/aresetn"),
    # the system block's status words left unconnected
    (("lib/zk_bd.tcl", "    foreach cs $status { zk::bd::net [join $cs /] sys/status_$i; incr i }\n", ""), "status"),
    # the identity left unconnected, or two of its words crossed
    (("lib/zk_bd.tcl", "    foreach p $zk::ident_ports { zk::bd::net core/$p sys/$p }\n", ""), "/sys/ident_kind"),
    (("lib/zk_bd.tcl", "    foreach p $zk::ident_ports { zk::bd::net core/$p sys/$p }\n",
      "    zk::bd::net core/ident_kind sys/ident_config\n    zk::bd::net core/ident_config sys/ident_kind\n"
      "    zk::bd::net core/ident_version sys/ident_version\n"), "/sys/ident_config is driven by /core/ident_kind"),
    # an H2C FIFO on one clock only: the domains meet outside a crossing
    (("lib/zk_bd.tcl", "CONFIG.HAS_TLAST 1 CONFIG.HAS_TKEEP 1 CONFIG.IS_ACLK_ASYNC 1]\n        zk::bd::inet xdma_0/M_AXIS_H2C",
      "CONFIG.HAS_TLAST 1 CONFIG.HAS_TKEEP 1 CONFIG.IS_ACLK_ASYNC 0]\n        zk::bd::inet xdma_0/M_AXIS_H2C"), "clock domains"),
    # the core clocked by the XDMA clock
    (("lib/zk_bd.tcl", "zk::bd::net core_clk/clk_out1 core/aclk", "zk::bd::net xdma_0/axi_aclk core/aclk"), "clock domains"),
    # no width converter: 256-bit XDMA beats straight into a 64-bit core
    (("lib/zk_bd.tcl", "if {$w != $xbytes} {\n            zk::bd::converter h2c", "if {0} {\n            zk::bd::converter h2c"), "widths differ"),
    # the system block at the wrong BAR offset
    (("lib/zk_bd.tcl", "variable sys_offset $zk::contract::user_bar_system", "variable sys_offset 0x20000"),
     "/sys/s_axil/regs"),
    # a wrong part and a wrong pin
    (("bd_c1100.tcl", "xcu55n-fsvh2892-2L-e", "xcu55c-fsvh2892-2L-e"), "part"),
    (("constraints/c1100.xdc", "PACKAGE_PIN BF41", "PACKAGE_PIN BF42"), "board pins"),
    # the flash controller at the wrong BAR offset, clocked by the core clock, its ICAP on the 250 MHz XDMA clock,
    # the other board's controller (another IDCODE), no fallback to the golden image, no quad SPI boot
    (("lib/zk_bd.tcl", "variable flash_offset $zk::contract::user_bar_flash", "variable flash_offset 0x30000"),
     "/flash/s_axil/regs"),
    (("lib/zk_bd.tcl", "zk::bd::net xdma_0/axi_aclk flash/aclk", "zk::bd::net core_clk/clk_out1 flash/aclk"), "axi_aclk"),
    (("lib/zk_bd.tcl", "zk::bd::net core_clk/clk_out2 flash/icap_clk", "zk::bd::net xdma_0/axi_aclk flash/icap_clk"),
     "ICAPE3 runs at 200 MHz at most"),
    (("bd_c1100.tcl", "flash FlashCtrl_c1100", "flash FlashCtrl_vu9p"), "needs one FlashCtrl_c1100"),
    (("constraints/c1100.xdc", "CONFIGFALLBACK ENABLE", "CONFIGFALLBACK DISABLE"), "CONFIGFALLBACK"),
    (("constraints/c1100.xdc", "set_property CONFIG_MODE SPIx4", "set_property CONFIG_MODE SPIx1"), "CONFIG_MODE"),
])
def test_script_variant_fails(tmp_path, edit, expect):
    path, old, new = edit
    dst = copy_scripts(tmp_path)
    f = dst / path
    text = f.read_text()
    assert text.count(old) >= 1, f"{path}: the text to edit is gone: {old!r}"
    f.write_text(text.replace(old, new))
    proc, record = bd(tmp_path, "c1100", "--core", "KeccakSpongeAxis_r1", script=dst / "bd_c1100.tcl",
                      env={"ZK_RTL": str(RTL)})
    problems = vcheck.check(record, "c1100")
    assert problems, f"the checker accepts the variant {edit}"
    assert any(expect in p for p in problems), problems


@pytest.mark.parametrize("board", BOARDS)
def test_flash_controller_on_both_boards(tmp_path, board):
    proc, record = bd(tmp_path, board)
    assert_clean(proc, record, board)
    cells = {f["path"]: f["vlnv"].split(":")[2] for f in facts(record, "cell")}
    assert [c for c, v in cells.items() if v.startswith("FlashCtrl_")] == ["/flash"]
    assert cells["/flash"] == f"FlashCtrl_{board}"
    seg = {tuple(a["seg"]): (int(a["offset"], 0), int(a["range"], 0)) for a in facts(record, "address")}
    assert seg[("/flash/s_axil/regs",)] == (0x20000, 0x10000)
    nets = [set(f["ends"]) for f in facts(record, "net")]
    assert {"/xdma_0/axi_aclk", "/flash/aclk"} <= next(n for n in nets if "/flash/aclk" in n)
    assert {"/xdma_0/axi_aresetn", "/flash/aresetn"} <= next(n for n in nets if "/flash/aresetn" in n)
    assert next(n for n in nets if "/flash/icap_clk" in n) == {"/core_clk/clk_out2", "/flash/icap_clk"}
    props = {(f["path"], f["k"]): f["v"] for f in facts(record, "cell_prop")}
    assert float(props[("/core_clk", "CONFIG.CLKOUT2_REQUESTED_OUT_FREQ")]) <= 200
    assert props[("/xdma_0", "CONFIG.axilite_master_scale")] == "Megabytes"
    assert int(props[("/xdma_0", "CONFIG.axilite_master_size")]) << 20 >= 256 << 10
    assert any("/flash/s_axil" in f["ends"] for f in facts(record, "intf_net"))


def test_flash_controller_left_out_fails(tmp_path):
    dst = copy_scripts(tmp_path)
    f = dst / "lib" / "zk_bd.tcl"
    text = f.read_text()
    start = text.index("    # the flash controller on the last master port")
    tail = "[get_bd_addr_segs flash/s_axil/regs]\n"
    end = text.index(tail, start) + len(tail)
    f.write_text(text[:start] + text[end:])
    proc, record = bd(tmp_path, "c1100", "--core", "KeccakSpongeAxis_r1", script=dst / "bd_c1100.tcl",
                      env={"ZK_RTL": str(RTL)})
    assert proc.returncode == 0, proc.stderr
    problems = vcheck.check(record, "c1100")
    assert any("needs one FlashCtrl_c1100" in p for p in problems), problems


def test_two_icap_primitives_fail(tmp_path):
    """A second flash controller would put a second ICAPE3 and STARTUPE3 into the device."""
    proc, record = bd(tmp_path, "vu9p", "--core", "PairFixture_d16")
    assert_clean(proc, record, "vu9p")
    lines = record.read_text().splitlines()
    flash = next(line for line in lines if '"t":"cell"' in line and '"path":"/flash"' in line)
    record.write_text("\n".join(lines + [flash.replace('"/flash"', '"/flash2"')]) + "\n")
    problems = vcheck.check(record, "vu9p")
    assert any("2 ICAPE3 primitives" in p for p in problems), problems
    assert any("2 STARTUPE3 primitives" in p for p in problems), problems


@pytest.mark.parametrize("override, expect", [("h2c0_fifo:CONFIG.TDATA_NUM_BYTES=16", "widths differ"),
                                              ("c2h0_fifo:CONFIG.IS_ACLK_ASYNC=0", "clock domains"),
                                              ("xdma_0:CONFIG.xdma_axi_intf_mm=AXI_Memory_Mapped", "AXI4-Stream"),
                                              ("xdma_0:CONFIG.xdma_wnum_chnl=2", "C2H channels"),
                                              ("xdma_0:CONFIG.axilite_master_scale=Kilobytes", "user BAR"),
                                              ("core_clk:CONFIG.CLKOUT2_REQUESTED_OUT_FREQ=250", "ICAPE3"),
                                              ("core_clk:CONFIG.CLKOUT2_USED=false", "core_clk/clk_out2")])
def test_property_change_fails(tmp_path, override, expect):
    proc, record = bd(tmp_path, "c1100", "--core", "KeccakSpongeAxis_r1", env={"ZK_STUB_SET": override})
    problems = vcheck.check(record, "c1100")
    assert any(expect in p for p in problems), problems


# ---------------------------------------------------------------- the stub refuses what Vivado would refuse
@pytest.mark.parametrize("body, message", [
    ("create_bd_design d\ncreate_bd_cell -type ip -vlnv xilinx.com:ip:xlconstant:1.1 c\n"
     "connect_bd_net [get_bd_pins c/dout] [get_bd_pins nope/x]\n", "needs two or more objects"),
    ("create_bd_design d\ncreate_bd_cell -type ip -vlnv zkspinal.org:zk:Nothing_x:0.1 c\n", "is not in the IP repositories"),
    ("create_bd_design d\ncreate_bd_cell -type ip -vlnv xilinx.com:ip:xlconstant:1.1 c\n"
     "create_bd_cell -type ip -vlnv xilinx.com:ip:xlconstant:1.1 c\n", "exists"),
    ("launch_runs synth_1 -jobz 2\n", "unknown option -jobz"),
    ("set_property CONFIG.X 1 [get_bd_cells nothing]\n", "no object"),
])
def test_stub_refuses(tmp_path, body, message):
    script = tmp_path / "s.tcl"
    script.write_text(body)
    proc, record = run_stub(tmp_path, script)
    assert proc.returncode == 1
    assert message in facts(record, "result")[0]["error"]


# ---------------------------------------------------------------- the batch build
@pytest.mark.parametrize("board", BOARDS)
def test_build_flow(tmp_path, board):
    out = tmp_path / "out"
    proc, record = run_stub(tmp_path, VIVADO / "build.tcl", "--board", board, "--out", out, "--ip", tmp_path / "ip",
                            "--core-mhz", 150, "--jobs", 1, "--flash-mb", 128)
    assert_clean(proc, record, board)
    runs = facts(record, "run")
    assert [r["runs"] for r in runs] == [["synth_1"], ["impl_1"]] and all(r["jobs"] == "1" for r in runs)
    reports = {r["kind"]: r["file"] for r in facts(record, "report")}
    assert reports["report_utilization"].startswith(str(out / "reports"))
    assert reports["report_timing_summary"] == str(out / "reports" / "timing_summary.rpt")
    assert {"report_clock_interaction", "report_cdc"} <= set(reports)
    bit, golden = str(out / f"zk_{board}.bit"), str(out / f"zk_{board}_golden.bit")
    assert facts(record, "result")[0]["bitstreams"] == [bit, golden]
    cfg = facts(record, "cfgmem")[0]
    assert cfg["size"] == "128" and cfg["interface"] == "SPIx4" and cfg["file"] == str(out / f"zk_{board}.mcs")
    # the flash layout: golden image at 0 rebooting into the update image at half the flash (64 MiB of 128)
    assert cfg["loadbit"].split() == ["up", "0x0", golden, "up", "0x04000000", bit]
    props = {f["file"]: dict(zip(f["props"][::2], f["props"][1::2])) for f in facts(record, "bitstream")}
    assert props[golden]["BITSTREAM.CONFIG.NEXT_CONFIG_ADDR"] == "0x04000000"
    assert props[golden]["BITSTREAM.CONFIG.NEXT_CONFIG_REBOOT"] == "ENABLE"
    assert props[bit] == {"BITSTREAM.CONFIG.NEXT_CONFIG_REBOOT": "DISABLE"}
    clk = {f["k"]: f["v"] for f in facts(record, "cell_prop") if f["path"] == "/core_clk"}
    assert clk["CONFIG.CLKOUT1_REQUESTED_OUT_FREQ"] == "150"
    # the core's shreg_min_size (its manifest entry, 3 by default) on the top's run and the core's out-of-context run
    core = next(f["vlnv"] for f in facts(record, "cell") if f["path"] == "/core").split(":")[2]
    shreg = {f["obj"]: f["v"] for f in facts(record, "prop") if f["k"] == "STEPS.SYNTH_DESIGN.ARGS.SHREG_MIN_SIZE"}
    want = str(json.loads((ROOT / "build" / "rtl" / "manifest.json").read_text())[core].get("shreg_min_size", 3))
    assert shreg == {"run:synth_1": want, "run:zk_*_core_0_synth_1": want}


@pytest.mark.parametrize("edit, expect", [
    (("set_property BITSTREAM.CONFIG.NEXT_CONFIG_ADDR $half", "set_property BITSTREAM.CONFIG.NEXT_CONFIG_ADDR 0x0"),
     "NEXT_CONFIG_ADDR"),
    (("-loadbit \"up 0x0 $golden up $half $bit\"", "-loadbit \"up 0x0 $golden\""), "bitstreams at"),
    (("set_property BITSTREAM.CONFIG.NEXT_CONFIG_REBOOT DISABLE", "set_property BITSTREAM.CONFIG.NEXT_CONFIG_REBOOT ENABLE"),
     "update"),
])
def test_build_flash_layout_variant_fails(tmp_path, edit, expect):
    old, new = edit
    dst = copy_scripts(tmp_path)
    f = dst / "build.tcl"
    assert old in f.read_text()
    f.write_text(f.read_text().replace(old, new))
    proc, record = run_stub(tmp_path, f, "--board", "c1100", "--core", "KeccakSpongeAxis_r1", "--out", tmp_path / "out",
                            "--ip", tmp_path / "ip", "--flash-mb", 128, env={"ZK_RTL": str(RTL)})
    assert proc.returncode == 0, proc.stderr
    problems = vcheck.check(record, "c1100")
    assert any(expect in p for p in problems), problems


def test_build_refuses_unknown_board(tmp_path):
    proc, record = run_stub(tmp_path, VIVADO / "build.tcl", "--board", "u250")
    assert proc.returncode == 1 and "--board c1100 or vu9p" in facts(record, "result")[0]["error"]


# ---------------------------------------------------------------- cores that are still being built drop in by name
def port_shell(top: str, ports: list[tuple[str, str, int]]) -> str:
    """A module header with the given ports and no body: the port shape a core will have, for the scripts."""
    lines = [f"  {'input ' if d == 'in' else 'output'} wire {f'[{w - 1}:0]' if w > 1 else ''} {n}" for n, d, w in ports]
    return f"module {top} (\n" + ",\n".join(lines) + "\n);\nendmodule\n"


def axis(prefix: str, mode: str, nbytes: int, user: int = 0) -> list[tuple[str, str, int]]:
    fwd, back = ("in", "out") if mode == "slave" else ("out", "in")
    out = [(f"{prefix}_tvalid", fwd, 1), (f"{prefix}_tready", back, 1), (f"{prefix}_tdata", fwd, 8 * nbytes),
           (f"{prefix}_tkeep", fwd, nbytes), (f"{prefix}_tlast", fwd, 1)]
    return out + ([(f"{prefix}_tuser", fwd, user)] if user else [])


def axil(prefix: str, addr: int) -> list[tuple[str, str, int]]:
    sig = [("awvalid", "in", 1), ("awready", "out", 1), ("awaddr", "in", addr), ("awprot", "in", 3),
           ("wvalid", "in", 1), ("wready", "out", 1), ("wdata", "in", 32), ("wstrb", "in", 4), ("bvalid", "out", 1),
           ("bready", "in", 1), ("bresp", "out", 2), ("arvalid", "in", 1), ("arready", "out", 1),
           ("araddr", "in", addr), ("arprot", "in", 3), ("rvalid", "out", 1), ("rready", "in", 1),
           ("rdata", "out", 32), ("rresp", "out", 2)]
    return [(f"{prefix}_{n}", d, w) for n, d, w in sig]


IDENT = [("ident_kind", "out", 32), ("ident_config", "out", 32), ("ident_version", "out", 32)]

# the shapes the colleagues' tops are specified with: Poseidon 256-bit in/out and AXI4-Lite status; MSM scalars and
# points in, buckets out (512-bit), AXI4-Lite control; both with the identity outputs
SHELLS = {
    "PoseidonAxis_shape": ("PoseidonAxis", axis("s_axis", "slave", 32, user=4) + axis("m_axis", "master", 32) +
                           axil("s_axil", 12) + IDENT),
    "MsmAxis_shape": ("MsmAxis", axis("s_axis_scalars", "slave", 32) + axis("s_axis_points", "slave", 64) +
                      axis("m_axis_buckets", "master", 64) + axil("s_axil", 12) + [("status_buckets", "out", 32)] + IDENT),
}


def shell_rtl(tmp_path: Path, shell: str, kind: str, ports: list, entry: dict | None = None) -> Path:
    """a copy of build/rtl with a port shell of `shell` (kind `kind`, and `entry`'s keys) in it and in the manifest"""
    rtl_dir = tmp_path / "rtl"
    shutil.copytree(RTL, rtl_dir, ignore=shutil.ignore_patterns("*Mul*", "*Mont*", "*Mod*", "KeccakF*"))
    clocked = [("aclk", "in", 1), ("aresetn", "in", 1)]
    (rtl_dir / f"{shell}.v").write_text(port_shell(shell, clocked + ports))
    manifest = json.loads((RTL / "manifest.json").read_text())
    manifest[shell] = {"kind": kind, "file": f"{shell}.v", **(entry or {})}
    (rtl_dir / "manifest.json").write_text("{\n" + ",\n".join(f'  "{k}": {json.dumps(v)}' for k, v in sorted(manifest.items())) + "\n}\n")
    return rtl_dir


def test_core_without_identity_refused(tmp_path):
    """a core without the identity outputs would give a card the host cannot name: the block design refuses it"""
    kind, ports = SHELLS["PoseidonAxis_shape"]
    rtl_dir = shell_rtl(tmp_path, "Anonymous_shape", kind, [p for p in ports if p not in IDENT])
    proc, record = bd(tmp_path, "c1100", "--core", "Anonymous_shape", env={"ZK_RTL": str(rtl_dir)})
    assert proc.returncode != 0
    assert "Anonymous_shape has no identity outputs (ident_kind,ident_config,ident_version)" in facts(record, "result")[0]["error"]


@pytest.mark.parametrize("shell, board", [("PoseidonAxis_shape", "c1100"), ("MsmAxis_shape", "vu9p"),
                                          ("MsmAxis_shape", "c1100")])
def test_future_core_shape_drops_in(tmp_path, shell, board):
    kind, ports = SHELLS[shell]
    rtl_dir = shell_rtl(tmp_path, shell, kind, ports)
    proc, record = bd(tmp_path, board, "--core", shell, env={"ZK_RTL": str(rtl_dir)})
    assert proc.returncode == 0, proc.stdout + proc.stderr
    problems = vcheck.check(record, board, rtl_dir)
    assert problems == [], "\n".join(problems)
    cells = {f["path"]: f["vlnv"].split(":")[2] for f in facts(record, "cell")}
    if kind == "PoseidonAxis":
        assert cells["/h2c0_frames"] == "InbandLast_b32"        # per-frame TLAST from the in-band flag
        assert "/h2c0_width" not in cells                        # 256-bit core on a 256-bit XDMA
        assert cells["/sys"] == "SystemBlock_s2"                 # the adapter's two counters
    else:
        xbytes = vcheck.BOARDS[board]["xdma_bytes"]
        assert ("/h2c0_width" in cells) == (xbytes != 32) and ("/h2c1_width" in cells) == (xbytes != 64)
        assert "/h2c0_frames" not in cells


# ---------------------------------------------------------------- the VU9P floorplan of a two-adder MSM engine
FLOORPLAN_BREAKS = {
    "adder 1 unassigned": (lambda t: t.replace("NAME =~ zk_vu9p_i/core/inst/core/lanes_1/* &&", "NAME =~ lanes_9/* &&"),
                           "adder 1 (zk_vu9p_i/core/inst/core/lanes_1/scheduler_reg) is in 0 floorplan pblocks"),
    "adders share an SLR": (lambda t: t.replace("pb_zk_adder1] -add {SLR2}", "pb_zk_adder1] -add {SLR0}"), "share SLR0"),
    "adder in the shell's SLR": (lambda t: t.replace("pb_zk_adder1] -add {SLR2}", "pb_zk_adder1] -add {SLR1}"),
                                 "adder 1 shares the shell"),
    "an SLR the part lacks": (lambda t: t.replace("pb_zk_adder1] -add {SLR2}", "pb_zk_adder1] -add {SLR3}"),
                              "SLR0..SLR2"),
    "a pblock of two SLRs": (lambda t: t.replace("pb_zk_adder1] -add {SLR2}", "pb_zk_adder1] -add {SLR2 SLR1}"),
                             "one whole SLR"),
    "a FIFO left out": (lambda t: t.replace(" zk_vu9p_i/h2c*", ""), "h2c0_fifo"),
    "a whole adder in one SLR": (lambda t: t.replace("lanes_0/* && NAME !~ zk_vu9p_i/core/inst/core/lanes_0/adder/tOut/* && "
                                                     "NAME !~ zk_vu9p_i/core/inst/core/lanes_0/adder/wOut/*", "lanes_0/*"),
                                 "2 floorplan pblocks"),
    "an SLR over its DSPs": (lambda t: t.replace(" && NAME !~ zk_vu9p_i/core/inst/core/lanes_1/adder/wOut/*", "")
                             .replace("lanes_*/adder/wOut/*", "lanes_0/adder/wOut/*"), "SLR2 is given 2,502 DSP48E2"),
    "a product left out": (lambda t: t.replace("NAME =~ zk_vu9p_i/core/inst/core/lanes_*/adder/tOut/*", "NAME =~ none"),
                           "product tOut"),
    "the engine's logic left out": (lambda t: t.replace("NAME =~ zk_vu9p_i/core/inst/*", "NAME =~ zk_vu9p_i/none/*"),
                                    "the core's own logic"),
}


@pytest.mark.parametrize("brk", [None, *FLOORPLAN_BREAKS])
def test_vu9p_floorplan_of_two_adders(tmp_path, brk):
    """Each adder of a two-adder MsmAxis in an SLR pblock of its own beside the shell's SLR, every cell on the core's
    paths in the shell's pblock; each way of breaking that is reported."""
    top = "MsmAxis_small2_model"
    if top not in tops("MsmAxis"):
        pytest.skip(f"{top} not emitted")
    proc, record = bd(tmp_path, "vu9p", "--core", top)
    assert_clean(proc, record, "vu9p")
    if brk is None:
        return
    edit, expect = FLOORPLAN_BREAKS[brk]
    xdc = VIVADO / "constraints" / "vu9p.xdc"
    broken = tmp_path / "vu9p.xdc"
    broken.write_text(edit(xdc.read_text()))
    assert broken.read_text() != xdc.read_text(), brk
    record.write_text(record.read_text().replace(str(xdc), str(broken)))
    problems = vcheck.check(record, "vu9p")
    assert any(expect in p for p in problems), (brk, problems)


# ---------------------------------------------------------------- the VU9P's card memory (MSM point store)
@pytest.mark.parametrize("top", ["MsmAxis_vu9p", "MsmAxis_bn254_vu9p", "MsmAxis_bls12_381_vu9p"])
def test_vu9p_card_memory(tmp_path, top):
    """The VU9P tops' four point-store channels (each curve's, by name): one DDR4 controller per channel as the
    board's DIMMs need, reached through a clock crossing and, for the DIMMs outside the shell's SLR, a Multi SLR
    Crossing register slice; the DDR4 pins of the build as the board's pin table says; the packaged core declares an
    address space per channel."""
    if top not in tops("MsmAxis"):
        pytest.skip(f"{top} not emitted")
    assert json.loads((RTL / "manifest.json").read_text())[top]["point_store"]["channels"] == 4
    proc, record = bd(tmp_path, "vu9p", "--core", top)
    assert_clean(proc, record, "vu9p")
    cells = {f["path"]: f["vlnv"].split(":")[2] for f in facts(record, "cell")}
    props = {(f["path"], f["k"]): f["v"] for f in facts(record, "cell_prop")}
    assert [c for c in sorted(cells) if cells[c] == "ddr4"] == [f"/ddr4_{c}" for c in range(4)]
    assert [c for c in sorted(cells) if cells[c] == "axi_register_slice"] == ["/mem0_slr", "/mem3_slr"]
    assert all(props[(f"/ddr4_{c}", "CONFIG.C0.DDR4_AxiAddressWidth")] == "34" for c in range(4))
    spaces = {tuple(a["seg"]): (a["space"], int(a["range"], 0)) for a in facts(record, "address")}
    for c in range(4):
        assert spaces[(f"/ddr4_{c}/C0_DDR4_MEMORY_MAP/C0_DDR4_ADDRESS_BLOCK",)] == (f"/core/m_axi_mem{c}", 1 << 34)
    xdc = next(Path(f) for f in facts(record, "result")[0]["files"] if f.endswith("_ddr4.xdc"))
    pins = re.findall(r"PACKAGE_PIN (\w+) IOSTANDARD (\w+)\} \[get_ports \{(\S+)\}\]", xdc.read_text())
    per_channel = 17 + 2 + 2 + 5 + 3 + 72 + 36 + 2  # adr ba bg, ck_t/c cke cs_n odt, act_n par reset_n, dq dqs, refclk
    assert len(pins) == 4 * per_channel and len({p for p, _, _ in pins}) == len(pins)
    std = {port: s for _, s, port in pins}
    assert std["ddr4_c2_dq[71]"] == "POD12_DCI" and std["ddr4_c3_dqs_c[17]"] == "DIFF_POD12_DCI"
    assert std["ddr4_c0_reset_n"] == "LVCMOS12" and std["ddr4_c1_refclk_clk_p"] == "LVDS"
    assert "ddr4_c0_cs_n[1]" not in std, "one rank: one chip select"
    assert set(vcheck.load(record)["components"][top]["spaces"]) == {f"m_axi_mem{c}" for c in range(4)}


SPLIT_RULE = "add_cells_to_pblock [get_pblocks pb_zk_adder{a}] [get_cells -quiet -hierarchical -filter {{IS_PRIMITIVE && " \
             "NAME =~ zk_vu9p_i/core/inst/core/hub/{where}far{r}_*}}]"
SPLIT_BREAKS = {
    "regions share an SLR": ([(SPLIT_RULE.format(a=1, r=1, where=w), SPLIT_RULE.format(a=0, r=1, where=w))
                              for w in ("", "adder/")], "regions [0] and 1 share SLR0"),
    "a region over two SLRs": ([(SPLIT_RULE.format(a=1, r=1, where=""), SPLIT_RULE.format(a=0, r=1, where=""))],
                               "region 1 is spread over SLRs [0, 2]"),
    "a region's memories left out": ([(SPLIT_RULE.format(a=0, r=0, where=""), "")],
                                     "bucket memory far0_memories_0 (zk_vu9p_i/core/inst/core/hub/far0_memories_0/mem_reg) "
                                     "is in 0 floorplan pblocks"),
    "a product left out": ([(SPLIT_RULE.format(a=1, r=1, where="adder/"), "")], "product far1_q"),
    "the hub in a region's SLR": ([(" && NAME !~ zk_vu9p_i/core/inst/core/hub/far*", "")],
                                  "far0_memories_0/mem_reg) is in 2 floorplan pblocks"),
    "a region in the shell's SLR": ([("pb_zk_adder1] -add {SLR2}", "pb_zk_adder1] -add {SLR1}")],
                                    "region 1 in SLR1 is not an SLR beside the shell's SLR1"),
}


@pytest.mark.parametrize("brk", [None, *SPLIT_BREAKS])
def test_vu9p_floorplan_of_a_split_adder(tmp_path, brk):
    """BLS12-381's one adder (ten products of 440 DSP48E2: more than an SLR's 2,280) is a split lane: the hub with
    the shell in SLR1, products a, b, pp, rr, ppp and windows 0, 1 in SLR0, the other five and windows 2, 3 in SLR2
    (its small twin: the same adder); each way of breaking that is reported."""
    top = "MsmAxis_bls12_381_small_model"
    if top not in tops("MsmAxis"):
        pytest.skip(f"{top} not emitted")
    info = top_info(top)
    assert info["adders"] == 1 and info["dsp_tiles"] == 4400 and info["split"]["windows"] == [[0, 1], [2, 3]]
    proc, record = bd(tmp_path, "vu9p", "--core", top)
    assert_clean(proc, record, "vu9p")
    if brk is None:
        return
    edits, expect = SPLIT_BREAKS[brk]
    xdc = VIVADO / "constraints" / "vu9p.xdc"
    text = xdc.read_text()
    for old, new in edits:
        assert old in text, (brk, old)
        text = text.replace(old, new)
    broken = tmp_path / "vu9p.xdc"
    broken.write_text(text)
    record.write_text(record.read_text().replace(str(xdc), str(broken)))
    problems = vcheck.check(record, "vu9p")
    assert any(expect in p for p in problems), (brk, problems)


def test_vu9p_split_adder_uram(tmp_path):
    """The board top's split (windows 0..12 in SLR0, 13..19 in SLR2: 286 and 154 URAM288 of the 320 an SLR has) is
    placed; its twenty bucket memories in one SLR (440) are refused."""
    top = "MsmAxis_bls12_381_vu9p"
    if top not in tops("MsmAxis"):
        pytest.skip(f"{top} not emitted (on demand)")
    proc, record = bd(tmp_path, "vu9p", "--core", top)
    assert_clean(proc, record, "vu9p")
    xdc = VIVADO / "constraints" / "vu9p.xdc"
    broken = tmp_path / "vu9p.xdc"
    broken.write_text(xdc.read_text().replace(SPLIT_RULE.format(a=1, r=1, where=""), SPLIT_RULE.format(a=0, r=1, where="")))
    record.write_text(record.read_text().replace(str(xdc), str(broken)))
    problems = vcheck.check(record, "vu9p")
    assert any("SLR0 is given 440 URAM288 of bucket memories; it has 320" in p for p in problems), problems


def broken_scripts(tmp_path: Path, edits: list[tuple[str, str, str]]) -> Path:
    """A copy of vivado/ with each (file, old text, new text) edit made (the old text must still be there)."""
    dst = copy_scripts(tmp_path)
    for path, old, new in edits:
        f = dst / path
        text = f.read_text()
        assert text.count(old) >= 1, f"{path}: the text to edit is gone: {old!r}"
        f.write_text(text.replace(old, new))
    return dst


MEMORY_BREAKS = {
    "channels crossed": (("lib/zk_ddr4.tcl", "zk::bd::inet core/$p mem${c}_cc/S00_AXI",
                          "zk::bd::inet core/m_axi_mem[expr {[llength $masters] - 1 - $c}] mem${c}_cc/S00_AXI"),
                         "memory path /core/m_axi_mem0 -> /ddr4_0/C0_DDR4_S_AXI"),
    "no SLR crossing": (("lib/zk_ddr4.tcl", "if {$hops} {", "if {0} {"), "no register slice mem0_slr"),
    "two crossings for one boundary": (("lib/zk_ddr4.tcl", "CONFIG.NUM_SLR_CROSSINGS $hops", "CONFIG.NUM_SLR_CROSSINGS 2"),
                                       "mem0_slr: 2 SLR crossings"),
    "crossing on one clock": (("lib/zk_ddr4.tcl", "zk::bd::net $ddr/c0_ddr4_ui_clk mem${c}_cc/aclk1",
                               "zk::bd::net core_clk/clk_out1 mem${c}_cc/aclk1"), "clock domains meet outside a crossing"),
    "another DIMM": (("bd_vu9p.tcl", "part MTA18ASF2G72PZ-2G3", "part MTA9ASF1G72PZ-2G3"), "the board's DIMMs need"),
    "a channel's window too small": (("lib/zk_ddr4.tcl", "-range [expr {1 << [dict get $ifs axi $p addr]}]",
                                      "-range [expr {1 << 30}]"), "address map"),
    "a DQ pin moved": (("constraints/vu9p_ddr4_pins.tsv", "c0\tdq\tAW28 ", "c0\tdq\tAW27 "), "DDR4 pins of the build"),
    "a channel's pins left out": (("constraints/vu9p_ddr4_pins.tsv", "c3\tdqs_c\t", "c3\tdqs_x\t"), "no dqs_c pins"),
    "slave side in the wrong SLR": (("constraints/vu9p.xdc", "pb_zk_adder0] [get_cells -quiet -hierarchical -filter "
                                     "{IS_PRIMITIVE && NAME =~ zk_vu9p_i/mem0_slr", "pb_zk_adder1] [get_cells -quiet "
                                     "-hierarchical -filter {IS_PRIMITIVE && NAME =~ zk_vu9p_i/mem0_slr"),
                                    "belongs in SLR0"),
    "memory reset by the host": (("lib/zk_ddr4.tcl", "zk::bd::net rst_ddr$c/peripheral_aresetn $ddr/c0_ddr4_aresetn",
                                  "zk::bd::net sys/core_aresetn $ddr/c0_ddr4_aresetn"), "c0_ddr4_aresetn"),
}


def assert_break_found(tmp_path: Path, board: str, top: str, edits: list, expect: str):
    """bd_<board>.tcl with `edits` made, on `top`: the script stops or the checker names `expect`."""
    if top not in tops("MsmAxis"):
        pytest.skip(f"{top} not emitted")
    dst = broken_scripts(tmp_path, edits)
    proc, record = bd(tmp_path, board, "--core", top, script=dst / f"bd_{board}.tcl", env={"ZK_RTL": str(RTL)})
    problems = [proc.stderr] if proc.returncode else vcheck.check(record, board)
    assert any(expect in p for p in problems), (edits, problems)


@pytest.mark.parametrize("brk", list(MEMORY_BREAKS))
def test_vu9p_card_memory_variant_fails(tmp_path, brk):
    edit, expect = MEMORY_BREAKS[brk]
    assert_break_found(tmp_path, "vu9p", "MsmAxis_vu9p", [edit], expect)


# ---------------------------------------------------------------- the C1100's card memory: HBM
GIB, PC = 1 << 30, 256 << 20


@pytest.mark.parametrize("top", ["MsmAxis_bn254_c1100", "MsmAxis_bn254_c1100_model"])
def test_c1100_hbm(tmp_path, top):
    """MsmAxis_bn254_c1100 (and its multiplier-model twin) by name on the C1100: its eight 1 GiB point-store channels
    on the HBM's ports SAXI_00, SAXI_04, ..., SAXI_28 (one per 4-port switch group, every other port off), each through
    a two-clock SmartConnect from the core clock to the 450 MHz HBM clock, its window the four pseudo-channels of its
    group at c * 1 GiB; both stacks' catastrophic-temperature flags ORed onto hbm_cattrip (no tie to 0); no memory
    pins (the HBM is in the package)."""
    if top not in tops("MsmAxis"):
        pytest.skip(f"{top} not emitted")
    store = json.loads((RTL / "manifest.json").read_text())[top]["point_store"]
    assert (store["channels"], store["address_bits"]) == (8, 30)
    assert {a["data"] for a in vrtl.interfaces(top).axi.values()} == {512}
    proc, record = bd(tmp_path, "c1100", "--core", top)
    assert_clean(proc, record, "c1100")
    cells = {f["path"]: f["vlnv"].split(":")[2] for f in facts(record, "cell")}
    props = {(f["path"], f["k"]): f["v"] for f in facts(record, "cell_prop")}
    assert [c for c in cells if cells[c] == "hbm"] == ["/hbm"] and "ddr4" not in cells.values()
    ports = [0, 4, 8, 12, 16, 20, 24, 28]
    assert [xx for xx in range(32) if props[("/hbm", f"CONFIG.USER_SAXI_{xx:02d}")] == "true"] == ports
    assert (props[("/hbm", "CONFIG.USER_HBM_DENSITY")], props[("/hbm", "CONFIG.USER_HBM_STACK")]) == ("8GB", "2")
    assert props[("/hbm_clk", "CONFIG.CLKOUT1_REQUESTED_OUT_FREQ")] == props[("/hbm", "CONFIG.USER_AXI_CLK_FREQ")] == "450"
    intf = {tuple(sorted(f["ends"])) for f in facts(record, "intf_net")}
    nets = [set(f["ends"]) for f in facts(record, "net")]
    for c, xx in enumerate(ports):
        assert (f"/core/m_axi_mem{c}", f"/mem{c}_cc/S00_AXI") in intf
        assert (f"/hbm/SAXI_{xx:02d}", f"/mem{c}_cc/M00_AXI") in intf
        assert props[(f"/mem{c}_cc", "CONFIG.NUM_CLKS")] == "2"
        assert {f"/mem{c}_cc/aclk1", f"/hbm/AXI_{xx:02d}_ACLK", "/hbm_clk/clk_out1"} <= next(
            n for n in nets if f"/hbm/AXI_{xx:02d}_ACLK" in n)
        window = sorted((int(a["offset"], 0), int(a["range"], 0), a["seg"][0]) for a in facts(record, "address")
                        if a["space"] == f"/core/m_axi_mem{c}")
        assert window == [(c * GIB + k * PC, PC, f"/hbm/SAXI_{xx:02d}/HBM_MEM{xx + k:02d}") for k in range(4)]
    cattrip = next(n for n in nets if "/hbm_cattrip" in n)
    assert cattrip == {"/hbm_cattrip", "/hbm_cattrip_or/Res"} and props[("/hbm_cattrip_or", "CONFIG.C_OPERATION")] == "or"
    assert {"/hbm/DRAM_0_STAT_CATTRIP", "/hbm_cattrip_or/Op1"} in nets and {"/hbm/DRAM_1_STAT_CATTRIP", "/hbm_cattrip_or/Op2"} in nets
    assert {"/core_clk/clk_out2", "/hbm/HBM_REF_CLK_0", "/hbm/HBM_REF_CLK_1", "/hbm/APB_0_PCLK"} <= next(
        n for n in nets if "/hbm/HBM_REF_CLK_0" in n)
    files = facts(record, "result")[0]["files"]
    assert [f for f in files if f.endswith(".xdc")] == [str(VIVADO / "constraints" / "c1100.xdc")]
    assert set(vcheck.load(record)["components"][top]["spaces"]) == {f"m_axi_mem{c}" for c in range(8)}


def test_c1100_without_hbm_ties_cattrip(tmp_path):
    """A core without memory channels gets no HBM, and hbm_cattrip is held low as before."""
    proc, record = bd(tmp_path, "c1100", "--core", "KeccakSpongeAxis_r1")
    assert_clean(proc, record, "c1100")
    assert not any(f["vlnv"].split(":")[2] in ("hbm", "util_vector_logic") for f in facts(record, "cell"))
    assert {"/const_0/dout", "/hbm_cattrip"} <= next(set(f["ends"]) for f in facts(record, "net") if "/hbm_cattrip" in f["ends"])


def axi4_master(prefix: str, addr: int, data: int = 512) -> list[tuple[str, str, int]]:
    """The ports of an AXI4 memory master (the point store's m_axi_mem<c>)."""
    out = [("awvalid", "out", 1), ("awready", "in", 1), ("awaddr", "out", addr), ("awid", "out", 1), ("awlen", "out", 8),
           ("awsize", "out", 3), ("awburst", "out", 2), ("wvalid", "out", 1), ("wready", "in", 1), ("wdata", "out", data),
           ("wstrb", "out", data // 8), ("wlast", "out", 1), ("bvalid", "in", 1), ("bready", "out", 1), ("bid", "in", 1),
           ("bresp", "in", 2), ("arvalid", "out", 1), ("arready", "in", 1), ("araddr", "out", addr), ("arid", "out", 1),
           ("arlen", "out", 8), ("arsize", "out", 3), ("arburst", "out", 2), ("rvalid", "in", 1), ("rready", "out", 1),
           ("rdata", "in", data), ("rid", "in", 1), ("rresp", "in", 2), ("rlast", "in", 1)]
    return [(f"{prefix}_{n}", d, w) for n, d, w in out]


@pytest.mark.parametrize("channels, own, window, refusal", [
    (9, 30, 30, "has 9 memory channels; board c1100 has 8 HBM channels"),  # a ninth switch group does not exist
    (1, 31, 31, "its memory channels address windows of 2^31 bytes"),      # wider than its group
    (2, 20, 0, "memories of their own from address 0"),   # a DDR4 layout: every channel's addresses from 0
    (2, 20, 30, None)])                                                    # two small channels: one stack
def test_c1100_hbm_channels(tmp_path, channels, own, window, refusal):
    """An MSM-shaped core with `channels` point-store channels of 2^own bytes at c * 2^window (the manifest's
    point_store, as PointStoreConfig.sharedSpace writes it) on the C1100: more channels than the HBM's eight switch
    groups, a window other than one group's 1 GiB, or channels that do not carry their window's base (a SmartConnect
    forwards addresses unchanged) are refused with the reason; two channels of 1 MiB in windows of 1 GiB build on the
    first stack alone (its flag straight onto hbm_cattrip), each mapped to its own switch group."""
    kind, ports = SHELLS["MsmAxis_shape"]
    port_bits = (window + max(1, channels - 1).bit_length()) if window else own
    mem = [p for c in range(channels) for p in axi4_master(f"m_axi_mem{c}", port_bits)]
    store = {"point_store": {"channels": channels, "address_bits": own, "port_address_bits": port_bits,
                             "window_bits": window}}
    rtl_dir = shell_rtl(tmp_path, "MsmAxis_hbm_shape", kind, ports + mem, store)
    proc, record = bd(tmp_path, "c1100", "--core", "MsmAxis_hbm_shape", env={"ZK_RTL": str(rtl_dir)})
    if refusal:
        assert proc.returncode != 0 and refusal in facts(record, "result")[0]["error"], proc.stderr
        return
    assert proc.returncode == 0, proc.stderr
    assert vcheck.check(record, "c1100", rtl_dir) == []
    props = {(f["path"], f["k"]): f["v"] for f in facts(record, "cell_prop")}
    assert (props[("/hbm", "CONFIG.USER_HBM_DENSITY")], props[("/hbm", "CONFIG.USER_HBM_STACK")]) == ("4GB", "1")
    assert {"/hbm/DRAM_0_STAT_CATTRIP", "/hbm_cattrip"} in [set(f["ends"]) for f in facts(record, "net")]
    window = sorted((a["space"], int(a["offset"], 0), a["seg"][0]) for a in facts(record, "address") if "mem" in a["space"])
    assert window == [("/core/m_axi_mem0", 0, "/hbm/SAXI_00/HBM_MEM00"), ("/core/m_axi_mem1", GIB, "/hbm/SAXI_04/HBM_MEM04")]


def test_vu9p_refuses_a_shared_space_core(tmp_path):
    """Channels that are windows of one address space (the HBM layout) on the VU9P's DIMMs, each a memory of its own
    from address 0: refused with the reason, before anything is built."""
    kind, ports = SHELLS["MsmAxis_shape"]
    mem = [p for c in range(2) for p in axi4_master(f"m_axi_mem{c}", 31)]
    store = {"point_store": {"channels": 2, "address_bits": 20, "port_address_bits": 31, "window_bits": 30}}
    rtl_dir = shell_rtl(tmp_path, "MsmAxis_hbm_shape", kind, ports + mem, store)
    proc, record = bd(tmp_path, "vu9p", "--core", "MsmAxis_hbm_shape", env={"ZK_RTL": str(rtl_dir)})
    assert proc.returncode != 0
    assert "windows of 2^30 bytes in one address space (an HBM layout" in facts(record, "result")[0]["error"], proc.stderr


HBM_BREAKS = {
    # the second port of each group, consistently (enabled, connected and mapped): off the switch group's first
    "a channel on another port of its group": ([("lib/zk_hbm.tcl", "set port [format %02d [expr {$c * $group}]]",
                                                 "set port [format %02d [expr {$c * $group + 1}]]"),
                                                ("lib/zk_hbm.tcl", "set used [expr {$xx % $group == 0 && ",
                                                 "set used [expr {$xx % $group == 1 && ")], "AXI ports [1, 5"),
    "every window at 0": ([("lib/zk_hbm.tcl", "[expr {$c * [zk::bd::hbm_window $m] + $k * $pc}]", "[expr {$k * $pc}]")],
                          "address map"),
    "crossing on one clock": ([("lib/zk_hbm.tcl", "zk::bd::net hbm_clk/clk_out1 $cc/aclk1 hbm/AXI_${port}_ACLK",
                               "zk::bd::net core_clk/clk_out1 $cc/aclk1\n    zk::bd::net hbm_clk/clk_out1 hbm/AXI_${port}_ACLK")],
                              "clock domains meet outside a crossing"),
    "no SmartConnect": ([("lib/zk_hbm.tcl", "zk::bd::inet core/$p $cc/S00_AXI\n    zk::bd::inet $cc/M00_AXI hbm/SAXI_$port",
                         "zk::bd::inet core/$p hbm/SAXI_$port")], "no SmartConnect crosses"),
    "one stack's flag twice": ([("lib/zk_hbm.tcl", "zk::bd::net hbm/DRAM_1_STAT_CATTRIP hbm_cattrip_or/Op2",
                                "zk::bd::net hbm/DRAM_0_STAT_CATTRIP hbm_cattrip_or/Op2")], "every HBM stack's flag"),
    "switch off": ([("lib/zk_hbm.tcl", "CONFIG.USER_SWITCH_ENABLE_[format %02d $s] TRUE",
                    "CONFIG.USER_SWITCH_ENABLE_[format %02d $s] FALSE")], "switch is off"),
    "AXI reset by the host": ([("lib/zk_hbm.tcl", "zk::bd::net rst_hbm/peripheral_aresetn hbm/AXI_${port}_ARESET_N",
                               "zk::bd::net sys/core_aresetn hbm/AXI_${port}_ARESET_N")], "ARESET_N follows the host"),
    "AXI clock over 450 MHz": ([("bd_c1100.tcl", "axi_mhz 450", "axi_mhz 500")], "USER_AXI_CLK_FREQ 500"),
    "reference clock not what the IP is told": ([("lib/zk_hbm.tcl", "CONFIG.USER_HBM_REF_CLK_$s [dict get $m refclk_mhz]",
                                                 "CONFIG.USER_HBM_REF_CLK_$s 200")], "the IP is set for 200"),
    "an unknown parameter": ([("lib/zk_hbm.tcl", "CONFIG.USER_APB_EN false", "CONFIG.USER_APB_EN false CONFIG.USER_MADE_UP 1")],
                             "USER_MADE_UP is not a parameter the checker knows"),
}


# the quick tier's C1100-shaped engine (two channels in HBM windows, one stack) for every break but the second
# stack's flag, which needs the eight channels of the board top (emitted on demand: the long tier's)
TWO_STACKS = ("one stack's flag twice",)


@pytest.mark.parametrize("brk", list(HBM_BREAKS))
def test_c1100_hbm_variant_fails(tmp_path, brk):
    edits, expect = HBM_BREAKS[brk]
    top = "MsmAxis_bn254_c1100_model" if brk in TWO_STACKS else "MsmAxis_bn254_small2_model"
    assert_break_found(tmp_path, "c1100", top, edits, expect)


def test_emulator_cards_wire_as_the_block_design():
    """The emulator's card tops (CardTop.scala) put InbandLast in front of exactly the kinds the block design frames
    in-band (zk_bd.tcl `inband_kinds`), and pick the system block its `system_block_for` would (the smallest emitted
    SystemBlock_s<k> with k >= the card's status words)."""
    bd = (ROOT / "vivado" / "lib" / "zk_bd.tcl").read_text()
    inband = set(re.search(r"variable inband_kinds \{([^}]*)\}", bd).group(1).split())
    manifest = json.loads((ROOT / "build" / "rtl" / "manifest.json").read_text())
    cards = {k: v for k, v in manifest.items() if v["kind"] == "Card"}
    assert cards, "no card tops emitted"
    sizes = sorted(v["status_count"] for v in manifest.values() if v["kind"] == "SystemBlock")
    for name, c in cards.items():
        if c["core"]:
            assert c["inband"] == (manifest[c["core"]]["kind"] in inband), name
        assert c["status_count"] == min(k for k in sizes if k >= c["status_words"]), name
