"""Benchmark of the system blocks the board designs add around a core (hw/src/zkspinal/system): yosys
synth_xilinx -family xcup estimates of SystemBlock (every emitted status count) and InbandLast, and the InbandLast
throughput measured in simulation (beats per cycle with both ports always ready).

    python -m zkspinal.bench system [--no-sim]
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from zkspinal.paths import ROOT
RTL = ROOT / "build" / "rtl"


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(prog="bench system", description=__doc__.splitlines()[0])
    ap.add_argument("--no-sim", action="store_true", help="resource estimates only")
    a = ap.parse_args(argv)
    from zkspinal.synth import yosys as synth

    tops = sorted(p.stem for p in RTL.glob("SystemBlock_s*.v")) + sorted(p.stem for p in RTL.glob("InbandLast_*.v"))
    if not tops:
        print("bench system: no SystemBlock/InbandLast top in build/rtl: emit first", file=sys.stderr)
        return 1
    print(f"{'top':<18} {'LUT':>5} {'FF':>5} {'CARRY4':>6} {'LUT levels':>10}")
    for t in tops:
        r = synth.run(RTL / f"{t}.v", t)
        print(f"{t:<18} {r['lut']:>5} {r['ff']:>5} {r['carry4']:>6} {r['lut_levels']:>10}")
    if not a.no_sim:
        from zkspinal.sim import simrun

        for t in sorted(p.stem for p in RTL.glob("InbandLast_*.v")):
            simrun.run(t, "zkspinal.tb.inband_last_tb", "icarus", testcase="cocotb_rate", quiet=True)
            log = simrun.SIM_BUILD / "icarus" / t / "zkspinal.tb.inband_last_tb.log"
            rate = [line for line in log.read_text().splitlines() if "InbandLast rate" in line]
            print(f"{t}: {rate[-1].strip() if rate else 'no rate line in ' + str(log)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
