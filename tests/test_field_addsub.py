"""ModAdd and ModSub (hw/src/zkspinal/field/ModAddSub.scala) and ModSum of 3 and 27 operands (ModSum.scala) against
reference_model.field.mod_add/mod_sub/mod_sum."""
import pytest

from zkspinal.sim import simrun
from conftest import field_params
from reference_model.field import FIELDS


# ModSum of 27 operands (the widest lane sum of the Poseidon engines) on their field in the quick tier, on every
# field in the soak; its table and its model are checked for every field by hw/test and test_model_field
CASES = [(core, field) for core in ("ModAdd", "ModSub", "ModSum3", "ModSum27") for field in FIELDS
         if core != "ModSum27" or field == "bls12_381_fr"]


@pytest.mark.parametrize("core,field", field_params(CASES))
def test_addsub(core, field, sim):
    simrun.run(f"{core}Stream_{field}", "zkspinal.tb.field_tb", sim)


@pytest.mark.long
@pytest.mark.parametrize("field", field_params(FIELDS))
@pytest.mark.parametrize("core", ["ModAdd", "ModSub", "ModSum3", "ModSum27"])
def test_addsub_soak(core, field):
    simrun.run(f"{core}Stream_{field}", "zkspinal.tb.field_tb", "verilator", testcase="cocotb_random_throttled",
               extra_env={"ZK_OPS": "1000000"})
