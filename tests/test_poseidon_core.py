"""PoseidonCore (hw/src/zkspinal/poseidon/PoseidonCore.scala) on its own, below the AXI4-Stream framing: whole
initial states of every arity (any tag), rejected jobs kept in order, random throttling on both sides, the output
held until the reorder buffer is full.  The top is the small configuration with the simulation model of the
Montgomery multiplier (PoseidonCore_small_model: same products and latency, so the same schedule; the real
multiplier inside the real core is covered by tests/test_poseidon_axis.py).  Testbench: tests/tb/poseidon_core_tb.py.
"""
import pytest

import simrun


def test_poseidon_core():
    """Every arity interleaved, rejected jobs, random throttling (Verilator: Icarus is slow on the wide state)."""
    simrun.run("PoseidonCore_small_model", "tb.poseidon_core_tb", "verilator", testcase="cocotb_mixed_throttled",
               extra_env={"ZK_JOBS": "24"})


@pytest.mark.long
def test_poseidon_core_output_stalled():
    """The output held until the reorder buffer is full (about 150,000 cycles driven from Python)."""
    simrun.run("PoseidonCore_small_model", "tb.poseidon_core_tb", "verilator", testcase="cocotb_output_stalled")
