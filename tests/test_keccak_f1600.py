"""KeccakF1600 (hw/src/zkspinal/keccak/KeccakF1600.scala) for every rounds-per-cycle setting against
reference_model.keccak: edge and random states under random valid/ready throttling, and the latency and
initiation interval the generator reports at full rate.

Every 1600-bit state is a valid input, so the core has no malformed-input case; KeccakSpongeAxis and KeccakSpeed
test theirs.  Quick tier: both simulators for the smallest, the default and the pipelined core, Verilator for the
other settings (Icarus evaluates their wide multi-round expressions slowly); the long tier adds Icarus for those
and a 20,000-state soak per setting.
"""
import pytest

from zkspinal.sim import simrun

BOTH_SIMS = [1, 2, 24]
VERILATOR_ONLY = [3, 4, 6, 8, 12]


@pytest.mark.parametrize("rpc", BOTH_SIMS)
def test_keccak_f1600(rpc, sim):
    simrun.run(f"KeccakF1600_r{rpc}", "zkspinal.tb.keccak_f1600_tb", sim)


@pytest.mark.parametrize("rpc", VERILATOR_ONLY)
def test_keccak_f1600_verilator(rpc):
    simrun.run(f"KeccakF1600_r{rpc}", "zkspinal.tb.keccak_f1600_tb", "verilator")


@pytest.mark.long
@pytest.mark.parametrize("rpc", VERILATOR_ONLY)
def test_keccak_f1600_icarus(rpc):
    simrun.run(f"KeccakF1600_r{rpc}", "zkspinal.tb.keccak_f1600_tb", "icarus")


@pytest.mark.long
@pytest.mark.parametrize("rpc", BOTH_SIMS + VERILATOR_ONLY)
def test_keccak_f1600_soak(rpc):
    simrun.run(f"KeccakF1600_r{rpc}", "zkspinal.tb.keccak_f1600_tb", "verilator", testcase="cocotb_random_throttled",
               extra_env={"ZK_OPS": "20000"})
