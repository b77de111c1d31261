"""KeccakSpongeAxis (hw/src/zkspinal/keccak/KeccakSpongeAxis.scala) against hashlib's sha3_* / shake_*: lengths
around the block boundaries for every mode under random throttling on both AXI4-Stream ports (cocotbext-axi),
back-to-back mixed modes, and malformed packets (bad mode code, sparse or non-0xFF TKEEP, SHAKE length 0), each
answered by one error packet while the surrounding digests stay exact.  Quick tier: the default core on both
simulators and the smallest on Verilator; the long tier adds the pipelined core and a 3,000-message soak."""
import pytest

from zkspinal.sim import simrun


def test_keccak_sponge(sim):
    simrun.run("KeccakSpongeAxis_r2", "zkspinal.tb.keccak_sponge_tb", sim)


def test_keccak_sponge_small_core():
    simrun.run("KeccakSpongeAxis_r1", "zkspinal.tb.keccak_sponge_tb", "verilator")


@pytest.mark.long
def test_keccak_sponge_pipelined_core():
    simrun.run("KeccakSpongeAxis_r24", "zkspinal.tb.keccak_sponge_tb", "verilator")


@pytest.mark.long
@pytest.mark.parametrize("core", ["r1", "r2", "r24"])
def test_keccak_sponge_soak(core):
    simrun.run(f"KeccakSpongeAxis_{core}", "zkspinal.tb.keccak_sponge_tb", "verilator", testcase="cocotb_back_to_back",
               extra_env={"ZK_MESSAGES": "3000"})
