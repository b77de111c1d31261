"""KaratsubaMul (hw/src/zkspinal/field/KaratsubaMul.scala, Karatsuba.scala): exact n x n -> 2n products."""
import pytest

from zkspinal.sim import simrun
from conftest import field_params
from reference_model.field import FIELDS


@pytest.mark.parametrize("field", field_params(FIELDS))
def test_karatsuba(field, sim):
    simrun.run(f"KaratsubaMulStream_{field}", "zkspinal.tb.field_tb", sim)


@pytest.mark.long
@pytest.mark.parametrize("field", field_params(FIELDS))
def test_karatsuba_soak(field):
    simrun.run(f"KaratsubaMulStream_{field}", "zkspinal.tb.field_tb", "verilator", testcase="cocotb_random_throttled",
               extra_env={"ZK_OPS": "1000000"})
