"""MontgomeryMul (hw/src/zkspinal/field/MontgomeryMul.scala) against reference_model.field.mont_mul."""
import pytest

from zkspinal.sim import simrun
from conftest import field_params
from reference_model.field import FIELDS

FIELD_NAMES = list(FIELDS)


@pytest.mark.parametrize("field", field_params(FIELD_NAMES))
def test_montmul(field, sim):
    simrun.run(f"MontMulStream_{field}", "zkspinal.tb.field_tb", sim)


@pytest.mark.long
@pytest.mark.parametrize("field", FIELD_NAMES)
def test_montmul_soak(field):
    simrun.run(f"MontMulStream_{field}", "zkspinal.tb.field_tb", "verilator", testcase="cocotb_random_throttled",
               extra_env={"ZK_OPS": "1000000"})
