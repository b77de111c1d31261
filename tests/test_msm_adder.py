"""TwistedEdwardsAdder against the model's mixed addition (reference_model/curves/precomputed.py), bit for bit.

Quick tier: the real adder under Icarus (48 additions: every edge case and random ones) and the multiplier-model
twin under Verilator (300).  Long tier: the real adder under Verilator (300, then 5,000 nearly back to back)."""
import pytest

from zkspinal.sim import simrun

TOP = "TwistedEdwardsAdder_bls12_377_g1"
# seven instances of one 377-bit Montgomery multiplier: compiled once instead of seven times
NO_INLINE = ("-fno-inline",)


def test_msm_adder_model_twin():
    """The same testbench on the twin with the multiplier model: the data-flow graph and operand order alone."""
    simrun.run(TOP + "_model", "zkspinal.tb.msm_adder_tb", "verilator", extra_env={"ZK_ADDER_COUNT": "300"})


@pytest.mark.long
def test_msm_adder():
    """Verilator build of the real adder: about an hour of C++ compilation on two cores, hence the long tier."""
    simrun.run(TOP, "zkspinal.tb.msm_adder_tb", "verilator", extra_env={"ZK_ADDER_COUNT": "300"}, build_args=NO_INLINE)


@pytest.mark.long
def test_msm_adder_long():
    simrun.run(TOP, "zkspinal.tb.msm_adder_tb", "verilator", extra_env={"ZK_ADDER_COUNT": "5000", "ZK_ADDER_GAP": "0.05"},
               build_args=NO_INLINE)


def test_msm_adder_icarus():
    """The real adder under Icarus (builds in a minute where Verilator compiles for an hour; few additions)."""
    simrun.run(TOP, "zkspinal.tb.msm_adder_tb", "icarus", extra_env={"ZK_ADDER_COUNT": "48"})
