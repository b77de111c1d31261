"""InbandLast (hw/src/zkspinal/system/InbandLast.scala), the in-band frame flag to TLAST adapter the C1100 block
design puts in front of cores that need TLAST per frame (Poseidon): zkspinal/tb/inband_last_tb.py, both simulators."""
from zkspinal.sim import simrun


def test_inband_last(sim):
    simrun.run("InbandLast_b32", "zkspinal.tb.inband_last_tb", sim)
