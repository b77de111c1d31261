"""Host-side cost per element of the formats the tools feed the cores (sw/tools/hostbench.c), against the
50 M elements/s per core that keeps a card fed (issue 8).

    python -m zkspinal.bench.host [--count 2000000] [--repeat 5] [--arity 11] [--json FILE]

Stages (BLS12-381 Fr elements, one thread): parse (0x-hex text -> limbs, range-checked), pack (limbs -> 32-byte
little-endian words with the in-band last-element flag), be2le (32-byte big-endian binary -> words), text2word
(parse + pack).  Rates are per CPU-second of the benchmark thread (the machine is shared, so wall time
understates a core); the wall-clock rate and the load average are printed next to them.  No Montgomery
conversion runs on the host: the cores convert (MontConvert) or the data arrives in Montgomery form.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
from pathlib import Path

from zkspinal.paths import ROOT
TARGET = 50e6


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--count", type=int, default=2_000_000)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--arity", type=int, default=11)
    ap.add_argument("--json")
    a = ap.parse_args(argv)
    subprocess.run(["make", "-s", "-C", str(ROOT / "sw")], check=True)
    load = os.getloadavg()[0]
    out = subprocess.run([str(ROOT / "sw" / "build" / "hostbench"), "-n", str(a.count), "-r", str(a.repeat), "-a",
                          str(a.arity)], capture_output=True, text=True, check=True).stdout
    rows = {}
    for line in out.splitlines():
        f = line.split()
        if f[0] in ("parse", "pack", "be2le", "text2word"):
            rows[f[0]] = {"per_cpu_s": float(f[1]), "per_wall_s": float(f[2]), "bytes_per_cpu_s": float(f[3])}
    print(f"host cost per element: {a.count} BLS12-381 Fr elements, {a.arity} per line, best of {a.repeat}; "
          f"{cpu_model()}, load average {load:.1f} on {os.cpu_count()} CPUs")
    print(f"{'stage':<10} {'M elem/s (CPU)':>15} {'M elem/s (wall)':>16} {'MB/s in (CPU)':>14}  target 50 M/s")
    for k, r in rows.items():
        verdict = "ok" if r["per_cpu_s"] >= TARGET else "BELOW"
        print(f"{k:<10} {r['per_cpu_s'] / 1e6:15.1f} {r['per_wall_s'] / 1e6:16.1f} {r['bytes_per_cpu_s'] / 1e6:14.0f}  "
              f"{verdict}")
    if a.json:
        Path(a.json).write_text(json.dumps({"load": load, "cpu": cpu_model(), "stages": rows}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
