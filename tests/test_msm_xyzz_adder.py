"""XyzzAdder (hw/src/zkspinal/msm/XyzzAdder.scala) against the model's data path (reference_model/curves/xyzz.py),
bit for bit, on BN254 and BLS12-381 G1: every special case (load, double, cancel), edge values and random additions
under random input gaps.

Quick tier: the BN254 multiplier-model twin under Verilator (300 additions) and the real BN254 adder under Icarus
(40).  Long tier: the BLS12-381 twin, the real adders under Icarus and Verilator, then 5,000 nearly back to back."""
import pytest

from zkspinal.sim import simrun

CURVES = ["bn254_g1", "bls12_381_g1"]
TB = "zkspinal.tb.msm_xyzz_adder_tb"
NO_INLINE = ("-fno-inline",)   # ten instances of one Montgomery multiplier: compiled once


@pytest.mark.parametrize("curve", [CURVES[0], pytest.param(CURVES[1], marks=pytest.mark.long)])
def test_xyzz_adder_model_twin(curve):
    simrun.run(f"XyzzAdder_{curve}_model", TB, "verilator", extra_env={"ZK_ADDER_COUNT": "300"})


def test_xyzz_adder_icarus():
    simrun.run("XyzzAdder_bn254_g1", TB, "icarus", extra_env={"ZK_ADDER_COUNT": "40"})


@pytest.mark.long
@pytest.mark.parametrize("curve", CURVES)
def test_xyzz_adder_long(curve):
    simrun.run(f"XyzzAdder_{curve}", TB, "icarus", extra_env={"ZK_ADDER_COUNT": "60"})
    simrun.run(f"XyzzAdder_{curve}", TB, "verilator", extra_env={"ZK_ADDER_COUNT": "5000", "ZK_ADDER_GAP": "0.05"},
               build_args=NO_INLINE)
