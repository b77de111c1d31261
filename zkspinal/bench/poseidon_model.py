"""Throughput of the Poseidon golden model, measured now on this machine.

  python -m zkspinal.bench.poseidon_model [--arities 2,4,8,11] [--seconds S] [--jobs J] [--no-neptune]

For each arity it prints hashes per second of
  kernel optimized / plain   the generated kernels (reference_model/poseidon/kernel.py), one process, CPU time
  step-by-step               permutation.py with operation counting (the specification the hardware follows)
  CLI                        python -m reference_model.poseidon end to end (parse, hash, format) on in-memory
                             lines, one process and with --jobs J worker processes (wall time), and the time a
                             1,000,000-hash check would take at that rate
  neptune-ref                the Rust reference (tests/refs/neptune) on the same lines, when it is built
  neptune in memory          the same crate hashing on one thread with no text in or out (`neptune-ref --bench`):
                             the CPU baseline of the report's PC2 projection
"""
from __future__ import annotations

import argparse
import io
import json
import os
import platform
import random
import subprocess
import sys
import time
from pathlib import Path

import gmpy2

from reference_model.poseidon import cli, compiled_kernel, count_ops, permute_optimized, poseidon_constants

from zkspinal.refs import NEPTUNE


def _states(arity: int, n: int, seed: int) -> list[list[int]]:
    p = poseidon_constants(arity).p
    rng = random.Random(seed)
    return [[(1 << arity) - 1] + [rng.randrange(p) for _ in range(arity)] for _ in range(n)]


def _rate(fn, make_input, seconds: float, clock=time.process_time) -> tuple[float, int]:
    """Hashes per second of fn over an input sized to take about `seconds`."""
    n = 64
    while True:
        data = make_input(n)
        t0 = clock()
        fn(data)
        dt = clock() - t0
        if dt >= seconds or n >= 4_000_000:
            return n / dt, n
        n = int(n * min(16.0, max(2.0, 1.2 * seconds / max(dt, 1e-4))))


def _cli_text(arity: int, n: int) -> str:
    out = io.StringIO()
    cli.main(["--arity", str(arity), "--gen", str(n), "--seed", "5"], stdout=out)
    return out.getvalue()


def _run_cli(arity: int, text: str, jobs: int) -> None:
    out, err = io.StringIO(), io.StringIO()
    if cli.main(["--arity", str(arity), "--jobs", str(jobs)], stdin=io.StringIO(text), stdout=out, stderr=err):
        raise RuntimeError(err.getvalue())


def _run_neptune(arity: int, text: str) -> None:
    subprocess.run([str(NEPTUNE), "--arity", str(arity)], input=text, capture_output=True, text=True, check=True)


NEPTUNE_IN_MEMORY = "neptune in memory (wall)"


def _neptune_in_memory(arity: int, seconds: float) -> tuple[float, int]:
    """neptune's own rate on one thread, no text in or out (`neptune-ref --bench`): the CPU baseline of PC2."""
    out = subprocess.run([str(NEPTUNE), "--arity", str(arity), "--bench", str(seconds)], capture_output=True,
                         text=True, check=True).stdout.split()
    fields = dict(zip(out[::2], out[1::2]))
    return float(fields["rate"]), int(fields["hashes"])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m zkspinal.bench.poseidon_model", description=__doc__.splitlines()[0])
    ap.add_argument("--arities", default="2,4,8,11")
    ap.add_argument("--seconds", type=float, default=2.0, help="target duration of each measurement")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="workers for the parallel CLI figure")
    ap.add_argument("--no-neptune", action="store_true", help="skip the Rust reference even if it is built")
    ap.add_argument("--json", help="also write the measurements to this file")
    a = ap.parse_args(argv)
    arities = [int(x) for x in a.arities.split(",")]

    print(f"Poseidon model throughput: python {platform.python_version()}, gmpy2 {gmpy2.version()}, "
          f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f}")
    print("hash/s per process (CPU time) unless marked wall; '1M check' = time to recompute a million digests")
    hdr = f"{'arity':>5} {'t':>3} {'R_P':>4}  {'what':<24} {'products':>8} {'hashes':>8} {'hash/s':>9} {'1M check':>9}"
    print(hdr)
    print("-" * len(hdr))
    results = []
    for arity in arities:
        c = poseidon_constants(arity)
        compiled_kernel(arity), compiled_kernel(arity, optimized=False)
        rows = []
        for opt in (True, False):
            k = compiled_kernel(arity, optimized=opt)
            rate, n = _rate(k, lambda m: _states(arity, m, 1), a.seconds)
            rows.append((f"kernel {'optimized' if opt else 'plain'}", count_ops(c, opt).mul, n, rate))
        rate, n = _rate(lambda ss: [permute_optimized(c, s) for s in ss], lambda m: _states(arity, m, 2),
                        a.seconds / 2)
        rows.append(("step-by-step optimized", count_ops(c).mul, n, rate))
        rate, n = _rate(lambda txt: _run_cli(arity, txt, 1), lambda m: _cli_text(arity, m), a.seconds)
        rows.append(("CLI, 1 process", count_ops(c).mul, n, rate))
        if a.jobs > 1:
            rate, n = _rate(lambda txt: _run_cli(arity, txt, a.jobs), lambda m: _cli_text(arity, m), a.seconds,
                            clock=time.perf_counter)
            rows.append((f"CLI, --jobs {a.jobs} (wall)", count_ops(c).mul, n, rate))
        if NEPTUNE.exists() and not a.no_neptune:
            rate, n = _rate(lambda txt: _run_neptune(arity, txt), lambda m: _cli_text(arity, m), a.seconds,
                            clock=time.perf_counter)
            rows.append(("neptune-ref (wall)", count_ops(c).mul, n, rate))
            rate, n = _neptune_in_memory(arity, a.seconds)
            rows.append((NEPTUNE_IN_MEMORY, count_ops(c).mul, n, rate))
        results += [{"arity": arity, "t": c.t, "what": what, "products": muls, "hashes": n, "hash_per_s": rate}
                    for what, muls, n, rate in rows]
        for what, muls, n, rate in rows:
            print(f"{arity:>5} {c.t:>3} {c.params.r_p:>4}  {what:<24} {muls:>8} {n:>8} {rate:>9.0f} "
                  f"{1e6 / rate:>8.0f}s")
        sys.stdout.flush()
    if a.json:
        Path(a.json).write_text(json.dumps(results, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
