"""FlashCtrl (hw/src/zkspinal/system/FlashCtrl.scala) in cocotb against the JEDEC SPI NOR flash and ICAPE3 models of
sw/emu/zkflash_model.c: erase, program (page wrap, AND), read-back, status polling, write protection (BP bits,
SRWD with W#), the IPROG guard words and the ICAPE3 word sequence, and the cycle counts the README projects from.
AXI4-Lite traffic is randomly throttled on all channels."""
import json

import pytest

from zkspinal.sim import simrun
from zkspinal.sim.buildlock import make
from conftest import ROOT

TOP = "FlashCtrl_small"


@pytest.fixture(scope="module", autouse=True)
def model_lib():
    make(ROOT / "sw", "build/libzkflash.so", check=True)


@pytest.mark.xdist_group(TOP)
def test_flash_ctrl(sim, tmp_path):
    out = tmp_path / "timing.json"
    simrun.run(TOP, "zkspinal.tb.flash_tb", sim, extra_env={"ZK_FLASH_TIMING_OUT": str(out)})
    t = json.loads(out.read_text())
    # one page program: 4 + 256 bytes of 8 SCLK periods of 6 cycles, plus CS# timing and the host's writes
    assert 260 * 48 <= t["page_program_cycles"] < 260 * 48 * 1.3, t
    assert 260 * 48 <= t["page_read_cycles"] < 260 * 48 * 1.5, t
