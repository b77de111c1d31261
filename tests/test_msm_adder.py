"""TwistedEdwardsAdder against the model's mixed addition (reference_model/curves/precomputed.py), bit for bit."""
import pytest

import simrun

TOP = "TwistedEdwardsAdder_bls12_377_g1"
# seven instances of one 377-bit Montgomery multiplier: compiled once instead of seven times
NO_INLINE = ("-fno-inline",)


def test_msm_adder_model_twin():
    """The same testbench on the twin with the multiplier model: the data-flow graph and operand order alone."""
    simrun.run(TOP + "_model", "tb.msm_adder_tb", "verilator", extra_env={"ZK_ADDER_COUNT": "300"})


def test_msm_adder():
    simrun.run(TOP, "tb.msm_adder_tb", "verilator", extra_env={"ZK_ADDER_COUNT": "300"}, build_args=NO_INLINE)


@pytest.mark.long
def test_msm_adder_long():
    simrun.run(TOP, "tb.msm_adder_tb", "verilator", extra_env={"ZK_ADDER_COUNT": "5000", "ZK_ADDER_GAP": "0.05"},
               build_args=NO_INLINE)
