"""One benchmark report: every core's measured figures, the projections, the area (LUTs per DSP48E2) beside the
published designs', the published anchors, the CPU baselines.

    python -m zkspinal.bench report [--quick] [--out build/bench] [--only CORES] [--reuse CORES]
                                                                      (./run.sh bench [--quick])

Runs each benchmark module with --json into OUT/<core>.json (its printed output into OUT/<core>.log), then writes
OUT/report.md, OUT/report.json (the same figures, for checks) and PNG plots (Keccak rate against LUTs, Poseidon hash
rate against DSP budget, MSM adder-busy fraction over time).  After the cores' sections, "Area: LUTs per DSP" puts
the yosys figures of the Montgomery multipliers, the MSM adder and the whole MSM and Poseidon tops (those measured)
above the published designs' (anchors.AREA).  --quick: small sizes, one prime and three of its cores, two Keccak
settings, no sponge runs, a small grid of the Poseidon sweep, five MSM sets, the Poseidon and MSM cycles without
their yosys runs (about 10 minutes on 2 cores); the full run
measures everything (the yosys results of the Poseidon and MSM tops take hours the first time and are cached under
build/synth by the md5 of the Verilog).  The CPU-bound benchmarks (and the Keccak CPU program's rate) run first on
an otherwise idle machine; then the yosys runs of the rest start ahead of them, --jobs at a time (SynthAhead), while
their simulations run, those that need no yosys result first.  Progress bars go to stderr on a terminal and stay
quiet otherwise (CI).
"""
from __future__ import annotations

import argparse
import contextlib
import datetime
import importlib
import io
import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

from zkspinal.paths import ROOT

from zkspinal.bench import anchors, sections

# core -> (module, arguments of the full run, arguments of the quick run or None: left out of it); every module takes
# --json FILE
PLAN: dict[str, tuple[str, list[str], list[str] | None]] = {
    "field": ("field", [], ["--fields", "bls12_381_fr", "--cores", "MontMul,ConstMul,ModAdd",
                            "--ops", "200"]),
    "keccak": ("keccak", [], ["--rounds", "200", "--no-sponge", "--settings", "1,2"]),
    # the PC2 profile (default --config), the arity-2 profile, small; the quick run simulates only small (the
    # profiles' rings hold 748 and 935 hashes: thousands of hashes per arity to measure a steady state)
    "poseidon": ("poseidon", ["--also", "arity2,small", "--synth-also", "arity2"],
                 ["--config", "small", "--no-synth", "--hashes", "200", "--sweep-grid", "1,2/1,2/2,8"]),
    # the quick MSM run pays the VU9P twin's fixed bucket clear and read-out (~310k cycles) per set: five sets
    # the VU9P engine keeps its points in card memory: the hot sets and a random set again from its point store
    "msm": ("msm", ["--resident", "half_ones,below16,random"], ["--no-synth", "--npows", "11", "--adversarial-npow", "9", "--sample-cycles", "128",
                        "--sets", "half_ones,below16,zero,hammer,equal"]),
    # BN254 and BLS12-381 on their board tops' twins (builds of minutes each, random 2^14 runs of minutes): the full
    # report only (None: not in --quick)
    "msm-curves": ("msm_curves", [], None),
    "poseidon-model": ("poseidon_model", [], ["--arities", "2,8,11", "--seconds", "0.3", "--jobs", "2"]),
    # arkworks' Groth16 at 2^20 constraints on all cores and one (setup and proofs: tens of minutes), 2^24 projected
    # from it; the quick run measures 2^12 and projects 2^20 and 2^24.  The card's side joins `msm` in the report
    "groth16": ("groth16", ["--npows", "20", "--project", "24"], ["--npows", "12", "--project", "20,24"]),
    "msm-host": ("msm_host", [], ["--npow", "12", "--reps", "1"]),
    "host": ("host", [], ["--count", "200000", "--repeat", "2"]),
}


def progress(items, desc: str):
    """tqdm on a terminal, the plain iterable in CI or when stderr is not a terminal."""
    quiet = os.environ.get("CI") or not sys.stderr.isatty()
    if quiet:
        return items
    from tqdm import tqdm

    return tqdm(items, desc=desc, unit="bench", file=sys.stderr)


def machine() -> dict:
    cpu = platform.processor() or "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    try:
        rev = subprocess.run(["git", "describe", "--always", "--dirty"], cwd=ROOT, capture_output=True,
                             text=True).stdout.strip()
    except OSError:
        rev = "unknown"
    return {"cpu": cpu, "cpus": os.cpu_count(), "load": os.getloadavg()[0], "revision": rev,
            "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")}


def bench_module(core: str, quick: bool):
    """A core's benchmark module and the arguments the report gives it (PLAN's full or quick ones)."""
    module, full, fast = PLAN[core]
    return importlib.import_module(f"zkspinal.bench.{module}"), fast if quick else full


def run_bench(core: str, out: Path, quick: bool, extra: list[str] = ()) -> dict:
    """Runs one benchmark module (its output into OUT/<core>.log); returns its JSON and the seconds it took."""
    mod, argv = bench_module(core, quick)
    json_file = out / f"{core}.json"
    json_file.unlink(missing_ok=True)
    log = out / f"{core}.log"
    t0 = time.perf_counter()
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        rc = mod.main([*argv, *extra, "--json", str(json_file)])
    log.write_text(buf.getvalue())
    if rc:
        raise RuntimeError(f"bench {core} exited with {rc}; its output is in {log}")
    return {"data": json.loads(json_file.read_text()), "seconds": time.perf_counter() - t0, "log": str(log)}


def write_report(results: dict, out: Path, quick: bool, only: str | None = None) -> Path:
    m = machine()
    command = "./run.sh bench" + (" --quick" if quick else "") + (f" --only {only}" if only else "")
    lines = [
        "# zkspinal benchmark report",
        "",
        f"Measured {m['date']} on {m['cpu']} ({m['cpus']} CPUs, load {m['load']:.1f}), revision `{m['revision']}`, "
        f"with `{command}`. Cycles come from simulation, resources from yosys "
        "`synth_xilinx -family xcup`, rates are projected at the stated clock; published figures are marked with "
        "their source.",
        "",
    ]
    figures = {}
    for core, res in results.items():
        md, fig = sections.render(core, res["data"], out)
        took = f"an earlier run, {res['date']}" if res["seconds"] is None else f"{res['seconds']:.0f} s"
        lines += [md, f"_({took}; full output in `{Path(res['log']).name}`)_", ""]
        figures[core] = fig
    for name, cross in (("pc2", sections.pc2), ("msm-per-curve", sections.msm_per_curve),
                        ("groth16", sections.groth16)):
        made = cross({core: res["data"] for core, res in results.items()})
        if made:
            lines += [made[0], ""]
            figures[name] = made[1]
    md, figures["area"] = sections.area({core: res["data"] for core, res in results.items()})
    lines += [md, "", "## Published anchors", "", anchors.table(), ""]
    report = out / "report.md"
    report.write_text("\n".join(lines))
    (out / "report.json").write_text(json.dumps({"machine": m, "quick": quick, "figures": figures}, indent=1))
    return report


# measured first, with no synthesis beside them: their figures are CPU rates and would drop with yosys on the other
# cores (so is the Keccak CPU program's rate, measured before them and handed to the Keccak bench)
CPU_BOUND = ("poseidon-model", "msm-host", "host")


def synth_targets(core: str, quick: bool) -> list[tuple[str, str]]:
    """The (kind, top) yosys runs a core's benchmark will ask for with the report's arguments."""
    mod, argv = bench_module(core, quick)
    return getattr(mod, "synth_targets", lambda _: [])(argv)


class SynthAhead:
    """The yosys runs the remaining benchmarks will ask for, started before them, `jobs` at a time, each in its own
    process (zkspinal/synth/yosys.py or hier.py, output in OUT/synth-<top>.log), the hierarchical tops first
    (they take the longest), then the flat ones, largest Verilog first.  Each run holds its cache entry's lock, so a
    benchmark asking for the same top waits for it and reads it from the cache; one that asks for a top not yet
    started runs it itself (the worker then finds it cached).  A failed run is left to the benchmark, which runs it
    again and reports the error."""

    def __init__(self, targets: list[tuple[str, str]], jobs: int, out: Path):
        from zkspinal.sim import simrun
        from concurrent.futures import ThreadPoolExecutor

        files = {top: simrun.RTL / simrun.top_info(top)["file"] for _, top in targets}
        self.targets = targets = sorted(targets, key=lambda t: (t[0] != "hier", -files[t[1]].stat().st_size))
        self.pool = ThreadPoolExecutor(max_workers=max(1, jobs)) if targets else None
        self.procs: list[subprocess.Popen] = []
        self.runs = [self.pool.submit(self._run, kind, files[top], top, out) for kind, top in targets]

    def _run(self, kind: str, verilog: Path, top: str, out: Path) -> int:
        module = "zkspinal.synth.hier" if kind == "hier" else "zkspinal.synth.yosys"
        with open(out / f"synth-{top}.log", "w") as log:
            proc = subprocess.Popen([sys.executable, "-m", module, str(verilog), top], stdout=log,
                                    stderr=subprocess.STDOUT)
            self.procs.append(proc)
            return proc.wait()

    def close(self, abort: bool) -> None:
        """Normally the runs left are cached ones (a benchmark ran them itself): wait for them; on an error, stop
        them (a half-finished run leaves no result, only its lock file)."""
        if not self.pool:
            return
        self.pool.shutdown(wait=False, cancel_futures=True)
        for proc in self.procs:
            if abort and proc.poll() is None:
                proc.terminate()
            proc.wait()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="bench report", description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="small sizes: about 10 minutes on 2 cores")
    ap.add_argument("--out", type=Path, default=ROOT / "build" / "bench")
    ap.add_argument("--only", help="comma-separated cores (default: all)")
    ap.add_argument("--reuse", default="",
                    help="comma-separated cores whose OUT/<core>.json from an earlier run of the same arguments is "
                         "reported as it is, not measured again")
    ap.add_argument("--jobs", type=int,
                    help="yosys runs started ahead of the benchmarks that need them (default: CPUs - 1, with --quick "
                         "CPUs: its simulations are short; 0: none)")
    args = ap.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    cores = [c for c in (args.only.split(",") if args.only else PLAN)]
    unknown = [c for c in cores if c not in PLAN]
    if unknown:
        ap.error(f"unknown core(s) {', '.join(unknown)}; known: {', '.join(PLAN)}")
    full_only = [c for c in cores if PLAN[c][2] is None]
    if args.quick and args.only and full_only:
        ap.error(f"{', '.join(full_only)}: in the full report only (no --quick)")
    if args.quick:
        cores = [c for c in cores if c not in full_only]
    if args.jobs is None:
        args.jobs = max(1, (os.cpu_count() or 2) - (0 if args.quick else 1))
    reused = {}
    for core in filter(None, args.reuse.split(",")):
        f = args.out / f"{core}.json"
        if core not in cores or not f.exists():
            ap.error(f"--reuse {core}: not among the cores, or {f} is missing")
        when = datetime.datetime.fromtimestamp(f.stat().st_mtime, datetime.timezone.utc)
        reused[core] = {"data": json.loads(f.read_text()), "seconds": None, "log": str(args.out / f"{core}.log"),
                        "date": when.strftime("%Y-%m-%d %H:%M UTC")}
    cores = [c for c in cores if c not in reused]
    first = [c for c in cores if c in CPU_BOUND]
    # the simulations that wait for no yosys result run while the others' yosys runs go on
    wants = {c: synth_targets(c, args.quick) for c in cores if c not in CPU_BOUND}
    rest = sorted(wants, key=lambda c: bool(wants[c]))
    extra = {}
    if "keccak" in cores:
        from zkspinal.bench import keccak
        cpu_file = args.out / "keccak-cpu.json"
        print("Keccak CPU program ...", flush=True)
        cpu_file.write_text(json.dumps(keccak.measure_cpu()))
        extra["keccak"] = ["--cpu-from", str(cpu_file)]
    results, ahead, ok = {}, None, False
    try:
        for core in progress(first + rest, "benchmarks"):
            if core in rest and ahead is None and args.jobs > 0:
                ahead = SynthAhead([t for c in rest for t in wants[c]], args.jobs, args.out)
                if ahead.targets:
                    print(f"yosys ahead ({args.jobs} at a time): {', '.join(t for _, t in ahead.targets)}", flush=True)
            print(f"bench {core} ...", flush=True)
            results[core] = run_bench(core, args.out, args.quick, extra.get(core, []))
        ok = True
    finally:
        if ahead:
            ahead.close(abort=not ok)
    results |= reused
    order = [c for c in (args.only.split(",") if args.only else PLAN) if c in results]
    report = write_report({c: results[c] for c in order}, args.out, args.quick, args.only)
    print(f"report: {report}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
