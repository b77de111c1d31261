"""cocotb side of the demonstration (zkspinal/tools/demo.py): a few Montgomery products through a MontMulStream top."""
import json
import os

import cocotb

from reference_model import field as F
from zkspinal.sim import stream
from zkspinal.tb.base import start_flow


@cocotb.test()
async def demo_products(dut):
    f = F.get(os.environ["ZK_FIELD"])
    pairs = [(3, 5), (f.p - 1, f.p - 1), (2, f.inv(2)), (0x1234567890ABCDEF, 0xFEDCBA0987654321)]
    ops = [(f.to_mont(a), f.to_mont(b)) for a, b in pairs]

    def drive_in(item):
        dut.io_input_payload_0.value, dut.io_input_payload_1.value = item

    await start_flow(dut)
    stats = await stream.drive(dut, ops, drive_in, lambda: int(dut.io_output_payload_value.value), 1.0, 1.0)
    rows = [{"a": a, "b": b, "rtl": f.from_mont(out), "model": f.mul(a, b)} for (a, b), out in zip(pairs, stats.outputs)]
    with open(os.environ["ZK_DEMO_OUT"], "w") as fh:
        json.dump({"rows": rows, "latency": stats.first_out - stats.first_in}, fh)
