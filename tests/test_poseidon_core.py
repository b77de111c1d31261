"""PoseidonCore (hw/src/zkspinal/poseidon/PoseidonCore.scala) on its own, below the AXI4-Stream framing: whole
initial states of every arity (any tag), rejected jobs kept in order, random throttling on both sides, runs of one
arity that fill whole groups, the output held until the reorder buffer is full.  The tops are the small
configuration (one hash per ring position) and small_group (two hashes per position sharing two S-box units and
three product slots), both with the simulation model of the Montgomery multiplier (same products and latency, so
the same schedule; the real multiplier inside the real core is covered by tests/test_poseidon_axis.py).
Testbench: zkspinal/tb/poseidon_core_tb.py.
"""
import pytest

from zkspinal.sim import simrun


CORES = ["PoseidonCore_small_model", "PoseidonCore_small_group_model"]


@pytest.mark.parametrize("top", CORES)
def test_poseidon_core(top):
    """Every arity interleaved, rejected jobs, random throttling (Verilator: Icarus is slow on the wide state)."""
    simrun.run(top, "zkspinal.tb.poseidon_core_tb", "verilator", testcase="cocotb_mixed_throttled", extra_env={"ZK_JOBS": "24"})


@pytest.mark.parametrize("top", CORES)
def test_poseidon_core_groups(top):
    """Runs of one arity at full rate: whole groups, groups cut short by an arity change and by the input running dry."""
    simrun.run(top, "zkspinal.tb.poseidon_core_tb", "verilator", testcase="cocotb_groups_full_rate")


@pytest.mark.long
def test_poseidon_core_output_stalled():
    """The output held until the reorder buffer is full (about 150,000 cycles driven from Python)."""
    simrun.run("PoseidonCore_small_model", "zkspinal.tb.poseidon_core_tb", "verilator", testcase="cocotb_output_stalled")
