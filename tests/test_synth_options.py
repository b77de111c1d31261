"""The whole-top synthesis options of zkspinal/synth/yosys.py: a top's manifest `shreg_min_size` (Vivado's
synth_design -shreg_min_size) keeps shorter register chains in flip-flops in the yosys figures too, flattened and
hierarchical (zkspinal/synth/hier.py), and the Vivado build passes the same number (tests/test_vivado_tcl.py)."""
from __future__ import annotations

import json
import shutil

import pytest

from zkspinal.synth import hier, yosys as synth

pytestmark = pytest.mark.skipif(shutil.which("yosys") is None, reason="yosys is not installed")

# two register chains of 8 bits: 5 stages (shorter than 10) and 12 stages
def chain(n):
    return f"""module Chain{n}(input clk, input [7:0] d, output [7:0] q);
  reg [7:0] r [0:{n - 1}];
  integer i;
  always @(posedge clk) begin
    r[0] <= d;
    for (i = 1; i < {n}; i = i + 1) r[i] <= r[i - 1];
  end
  assign q = r[{n - 1}];
endmodule
"""


DELAYS = chain(5) + chain(12) + """module Delays(input clk, input [7:0] a, input [7:0] b, output [7:0] x, output [7:0] y);
  Chain5 s(.clk(clk), .d(a), .q(x));
  Chain12 t(.clk(clk), .d(b), .q(y));
endmodule
"""


def write_top(d, shreg):
    d.mkdir()
    v = d / "Delays.v"
    v.write_text(DELAYS)
    if shreg is not None:
        (d / "manifest.json").write_text(json.dumps({"Delays": {"file": "Delays.v", "shreg_min_size": shreg}}))
    return v


@pytest.mark.parametrize("run", ["flat", "hier"])
def test_shreg_min_size(tmp_path, run):
    def figures(v):
        return synth.run(v, "Delays") if run == "flat" else hier.run(v, "Delays", depth=False)
    default = figures(write_top(tmp_path / "default", None))
    assert (default["srl"], default["ff"]) == (16, 0), default      # both chains in SRL16E
    ten = figures(write_top(tmp_path / "ten", 10))
    assert (ten["srl"], ten["ff"]) == (8, 40), ten                    # the 5-stage chain in 40 flip-flops
    assert ten["shreg_min_size"] == 10 and default.get("shreg_min_size", 3) == 3


def test_commands():
    assert synth.synth_commands("T", True) == ["synth_xilinx -family xcup -top T -flatten -noiopad -noclkbuf"]
    split = synth.synth_commands("T", False, 10)
    assert split[0].endswith("-run :map_luts") and split[-1].endswith("-run finalize:")
    assert "xilinx_srl -fixed -minlen 10" in split and "-flatten" not in " ".join(split)
