"""SystemBlock (hw/src/zkspinal/system/SystemBlock.scala), the register block at BAR offset 0x10000 of every board
design: tests/tb/system_block_tb.py on several status counts, both simulators."""
import pytest

import simrun


@pytest.mark.parametrize("top", ["SystemBlock_s2", "SystemBlock_s0"])
def test_system_block(sim, top):
    simrun.run(top, "tb.system_block_tb", sim)


def test_system_block_wide():
    simrun.run("SystemBlock_s8", "tb.system_block_tb", "verilator")
