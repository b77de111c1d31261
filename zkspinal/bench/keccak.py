"""Benchmark of the Keccak cores against the SNAP hls_sponge design (seed 003) and this machine's CPU.

    python -m zkspinal.bench.keccak [--rounds 2000] [--mhz MHZ] [--luts 331680] [--ffs 663360] [--no-synth]
                                 [--no-sponge] [--json FILE]

For every rounds-per-cycle setting, KeccakSpeed_r<K>_u1:
  cycles per permutation per unit  measured in simulation (Verilator, through the AXI4-Lite registers: the CYCLES
                                   and PERMS registers of a job that keeps every slot of the unit busy; the
                                   checksum is checked against the CPU program);
  LUT / FF                         yosys synth_xilinx (zkspinal/synth/yosys.py) of the 1-unit top; the part shared by
                                   all units (register bank, dispatcher) is measured as LUT(u1) - (LUT(u4) - LUT(u1))/3
                                   on the default configuration and taken off to get the cost of one more unit;
  projection                       units that fit the LUT and FF budget (KU060: 331,680 LUTs, 663,360 FFs; also with
                                   the 69,756 LUTs the seed's SNAP shell occupies) times the unit's rate at --mhz.
Simulator output goes to build/bench/keccak-sim.log.  Next to them: the seed's published 150.9 M permutations/s (32 units, KU060) and 4.35 M/s (160-thread POWER8),
and the CPU program's rate measured here.  The sponge's absorb rate (cycles per SHA3-256 block) comes from
KeccakSpongeAxis simulations.
"""
from __future__ import annotations

import argparse
import json
import math
import os
import sys
import tempfile
from pathlib import Path

from zkspinal.paths import ROOT

from zkspinal.sim import simrun
from zkspinal.bench import anchors
from zkspinal.synth import yosys as synth
from zkspinal.bench.simlog import simulator_output_to_log
from zkspinal.tools import keccak_speed as cli
from vivado_stub.boards import core_mhz

SETTINGS = [1, 2, 3, 4, 6, 8, 12, 24]
# seed 003, published: KU060 with 32 test_speed units, row nb_elmts = 65,536; the 160-thread CPU on the same row;
# the SNAP shell's fixed LUTs in the seed's utilisation table
SEED_FPGA_RATE = anchors.SNAP["perm_per_s"]
SEED_FPGA_UNITS = anchors.SNAP["units"]
SEED_CPU_RATE = anchors.SNAP["cpu_perm_per_s"]
SEED_SHELL_LUTS = 69_756


LOG = ROOT / "build" / "bench" / "keccak-sim.log"


def measure_unit(rpc: int, rounds: int) -> dict:
    """Runs a job on KeccakSpeed_r<rpc>_u1 that fills every slot twice; returns cycles per permutation."""
    top = f"KeccakSpeed_r{rpc}_u1"
    meta = simrun.top_info(top)
    runs = 2 * meta["slots_per_unit"]
    expected = cli.run_cpu(rounds, runs, runs, runs)["checksum"]
    case = {"rounds": rounds, "runs": runs, "elements": runs, "freq": runs, "checksum": expected}
    with tempfile.TemporaryDirectory() as d:
        out = Path(d) / "speed.json"
        with simulator_output_to_log(LOG):
            simrun.run(top, "zkspinal.tb.keccak_speed_tb", "verilator", testcase="cocotb_job", quiet=True,
                       extra_env={"ZK_CASES": json.dumps([case]), "ZK_SPEED_OUT": str(out)})
        res = json.loads(out.read_text())
    assert res["checksum"] == expected and res["perms"] == rounds * runs
    return {"top": top, "cycles": res["cycles"], "perms": res["perms"], "runs": runs, "rounds": rounds,
            "cycles_per_perm": res["cycles"] / res["perms"], "slots": meta["slots_per_unit"],
            "steps_per_perm": meta["steps_per_permutation"]}


def synth_top(top: str) -> dict:
    return synth.run(simrun.RTL / simrun.top_info(top)["file"], top)


def measure_sponge(core: str) -> dict:
    top = f"KeccakSpongeAxis_{core}"
    with tempfile.TemporaryDirectory() as d:
        out = Path(d) / "sponge.json"
        with simulator_output_to_log(LOG):
            simrun.run(top, "zkspinal.tb.keccak_sponge_tb", "verilator", testcase="cocotb_back_to_back", quiet=True,
                       extra_env={"ZK_BENCH_OUT": str(out), "ZK_MESSAGES": "10"})
        return json.loads(out.read_text())


def measure_cpu() -> dict:
    threads = os.cpu_count() or 1
    rows = {}
    for t in sorted({1, threads}):
        r = cli.run_cpu(100_000, 65_536, 64, 65_536, threads=t)  # 6.4 M permutations
        rows[t] = r["rate"]
    return {"threads": threads, "rate_1_thread": rows[1], "rate_all_threads": rows[threads]}


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="bench keccak", description=__doc__.split("\n\n")[0])
    p.add_argument("--rounds", type=int, default=2000, help="NB_ROUNDS of the measured jobs")
    p.add_argument("--mhz", type=float, default=core_mhz("c1100"),
                   help="clock for the projections (default: the C1100 block design's core clock)")
    p.add_argument("--luts", type=int, default=331_680, help="LUT budget (KU060)")
    p.add_argument("--ffs", type=int, default=663_360, help="FF budget (KU060)")
    p.add_argument("--no-synth", action="store_true", help="skip yosys (cycles and CPU only)")
    p.add_argument("--no-sponge", action="store_true")
    p.add_argument("--settings", default=",".join(map(str, SETTINGS)),
                   help="rounds-per-cycle settings to measure (default: all)")
    p.add_argument("--cpu-from", type=Path, metavar="JSON",
                   help="take the CPU program's rates from this file (measure_cpu's figures, written by the report "
                        "before any yosys run starts) instead of measuring them now")
    p.add_argument("--json", type=Path, default=ROOT / "build" / "bench" / "keccak.json")
    return p


def synth_targets(argv: list[str]) -> list[tuple[str, str]]:
    """The yosys runs main(argv) asks for (report.py starts them early)."""
    args = parser().parse_args(argv)
    if args.no_synth:
        return []
    tops = ["KeccakSpeed_r2_u1", "KeccakSpeed_r2_u4"]
    tops += [f"KeccakSpeed_r{x}_u1" for x in args.settings.split(",") if x and f"KeccakSpeed_r{x}_u1" not in tops]
    return [("flat", t) for t in tops]


def main(argv: list[str] | None = None) -> int:
    p = parser()
    args = p.parse_args(argv)
    f = args.mhz * 1e6

    cpu = json.loads(args.cpu_from.read_text()) if args.cpu_from else measure_cpu()
    print(f"CPU program (sw/keccak-cpu) on this machine: {cpu['rate_1_thread'] / 1e6:.2f} M permutations/s on 1 "
          f"thread, {cpu['rate_all_threads'] / 1e6:.2f} M/s on {cpu['threads']} threads "
          f"(seed's 160-thread CPU: {SEED_CPU_RATE / 1e6:.2f} M/s)", flush=True)

    settings = [int(x) for x in args.settings.split(",") if x]
    if not settings or any(x not in SETTINGS for x in settings):
        p.error(f"--settings: choose among {SETTINGS}")
    rows = []
    for rpc in settings:
        row = {"rpc": rpc, **measure_unit(rpc, args.rounds)}
        rows.append(row)
        print(f"  r{rpc}: {row['cycles_per_perm']:.3f} cycles per permutation per unit "
              f"({row['perms']} permutations in {row['cycles']} cycles)", flush=True)

    shared = None
    if not args.no_synth:
        u1, u4 = synth_top("KeccakSpeed_r2_u1"), synth_top("KeccakSpeed_r2_u4")
        shared = {k: u1[k] - (u4[k] - u1[k]) / 3 for k in ("lut", "ff")}
        for row in rows:
            s = synth_top(row["top"])
            row.update({"lut_top": s["lut"], "ff_top": s["ff"], "lut_levels": s["lut_levels"],
                        "lut_unit": s["lut"] - shared["lut"], "ff_unit": s["ff"] - shared["ff"]})
            print(f"  {row['top']}: {s['lut']} LUT, {s['ff']} FF, {s['lut_levels']} LUT levels", flush=True)

    print(f"\nKeccak-f[1600] test_speed units at {args.mhz:.0f} MHz (cycles measured in simulation"
          + (f"; LUT/FF from yosys, shared part {shared['lut']:.0f} LUT / {shared['ff']:.0f} FF)" if shared else ")"))
    head = f"{'rpc':>4} {'cyc/perm':>9} {'M perm/s':>9}"
    if shared:
        head += (f" {'LUT/unit':>9} {'FF/unit':>8} {'levels':>6} {'units':>6} {'G perm/s':>9} {'x seed':>7}"
                 f" {'units*':>6} {'G perm/s*':>9}")
    print(head)
    for row in rows:
        rate = f / row["cycles_per_perm"]
        row["perms_per_s_unit"] = rate
        line = f"{row['rpc']:>4} {row['cycles_per_perm']:>9.3f} {rate / 1e6:>9.2f}"
        if shared:
            def fit(luts):
                return max(0, min(math.floor((luts - shared["lut"]) / row["lut_unit"]),
                                  math.floor((args.ffs - shared["ff"]) / row["ff_unit"])))
            units, units_shell = fit(args.luts), fit(args.luts - SEED_SHELL_LUTS)
            row.update({"units_fit": units, "perms_per_s": units * rate, "units_fit_after_shell": units_shell,
                        "perms_per_s_after_shell": units_shell * rate})
            line += (f" {row['lut_unit']:>9.0f} {row['ff_unit']:>8.0f} {row['lut_levels']:>6} {units:>6}"
                     f" {units * rate / 1e9:>9.3f} {units * rate / SEED_FPGA_RATE:>7.2f}"
                     f" {units_shell:>6} {units_shell * rate / 1e9:>9.3f}")
        print(line)
    print(f"seed 003 (published): {SEED_FPGA_RATE / 1e6:.1f} M perm/s with {SEED_FPGA_UNITS} units on a KU060; "
          f"units* = after the seed's {SEED_SHELL_LUTS:,} shell LUTs")

    sponge = {}
    if not args.no_sponge:
        for core in ("r1", "r2", "r24"):
            s = measure_sponge(core)
            sponge[core] = s
            print(f"KeccakSpongeAxis_{core}: {s['sha3_256_cycles_per_block']:.1f} cycles per SHA3-256 block, "
                  f"{s['bytes_per_cycle'] * f / 1e6:.0f} MB/s at {args.mhz:.0f} MHz")

    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps({"mhz": args.mhz, "luts": args.luts, "ffs": args.ffs, "cpu": cpu,
                                     "shared": shared, "units": rows, "sponge": sponge,
                                     "seed": {"fpga_rate": SEED_FPGA_RATE, "cpu_rate": SEED_CPU_RATE}}, indent=1))
    print(f"results in {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
