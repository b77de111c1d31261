"""ModAdd and ModSub (hw/src/zkspinal/field/ModAddSub.scala) against reference_model.field.mod_add/mod_sub."""
import pytest

from zkspinal.sim import simrun
from reference_model.field import FIELDS


@pytest.mark.parametrize("field", list(FIELDS))
@pytest.mark.parametrize("core", ["ModAdd", "ModSub"])
def test_addsub(core, field, sim):
    simrun.run(f"{core}Stream_{field}", "zkspinal.tb.field_tb", sim)


@pytest.mark.long
@pytest.mark.parametrize("field", list(FIELDS))
@pytest.mark.parametrize("core", ["ModAdd", "ModSub"])
def test_addsub_soak(core, field):
    simrun.run(f"{core}Stream_{field}", "zkspinal.tb.field_tb", "verilator", testcase="cocotb_random_throttled",
               extra_env={"ZK_OPS": "1000000"})
