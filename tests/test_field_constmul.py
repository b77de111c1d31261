"""ConstMul and MontConvert (hw/src/zkspinal/field/ConstMul.scala) and RomConstMul (ExpandedConstMul.scala: the
constant from a ROM table by index, the Poseidon engines' multiplier) against reference_model.field."""
import pytest

from zkspinal.sim import simrun
from conftest import field_params
from reference_model.field import FIELDS


@pytest.mark.parametrize("field", field_params(FIELDS))
@pytest.mark.parametrize("core", ["ConstMul", "ToMont", "FromMont", "RomConstMul"])
def test_constmul(core, field, sim):
    simrun.run(f"{core}Stream_{field}", "zkspinal.tb.field_tb", sim)


@pytest.mark.long
@pytest.mark.parametrize("field", field_params(FIELDS))
@pytest.mark.parametrize("core", ["ConstMul", "ToMont", "FromMont", "RomConstMul"])
def test_constmul_soak(core, field):
    simrun.run(f"{core}Stream_{field}", "zkspinal.tb.field_tb", "verilator", testcase="cocotb_random_throttled",
               extra_env={"ZK_OPS": "1000000"})
