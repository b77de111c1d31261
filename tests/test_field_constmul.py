"""ConstMul and MontConvert (hw/src/zkspinal/field/ConstMul.scala) against reference_model.field."""
import pytest

import simrun
from reference_model.field import FIELDS


@pytest.mark.parametrize("field", list(FIELDS))
@pytest.mark.parametrize("core", ["ConstMul", "ToMont", "FromMont"])
def test_constmul(core, field, sim):
    simrun.run(f"{core}Stream_{field}", "tb.field_tb", sim)


@pytest.mark.long
@pytest.mark.parametrize("field", list(FIELDS))
@pytest.mark.parametrize("core", ["ConstMul", "ToMont", "FromMont"])
def test_constmul_soak(core, field):
    simrun.run(f"{core}Stream_{field}", "tb.field_tb", "verilator", testcase="cocotb_random_throttled",
               extra_env={"ZK_OPS": "1000000"})
