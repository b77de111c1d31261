"""SystemBlock (hw/src/zkspinal/system/SystemBlock.scala), the register block at BAR offset 0x10000 of every board
design: zkspinal/tb/system_block_tb.py on both simulators, and the other status counts on Icarus (their Verilog
differs only in the number of status words; a Verilator build costs over a minute each)."""
import pytest

from zkspinal.sim import simrun


def test_system_block(sim):
    simrun.run("SystemBlock_s2", "zkspinal.tb.system_block_tb", sim)


@pytest.mark.parametrize("top", ["SystemBlock_s0", "SystemBlock_s8"])
def test_system_block_status_counts(top):
    simrun.run(top, "zkspinal.tb.system_block_tb", "icarus")
