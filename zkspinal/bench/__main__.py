"""./run.sh bench [core] [options]: one core's benchmark, or all of them with the report.

    python -m zkspinal.bench [--quick]             every benchmark, then build/bench/report.md and its plots
    python -m zkspinal.bench CORE [ARGS...]        one benchmark; ARGS go to it (CORE --help lists them)
"""
from __future__ import annotations

import importlib
import sys
from pathlib import Path


# core name on the command line -> module under zkspinal/bench
BENCHES = {
    "field": "field",
    "poseidon": "poseidon",
    "poseidon-model": "poseidon_model",
    "msm-host": "msm_host",
    "keccak": "keccak",
    "host": "host",
    "system": "system",
    "msm": "msm",
    "msm-curves": "msm_curves",
    "groth16": "groth16",
    "multicard": "multicard",
    "report": "report",
    "readme": "readme",
}


def main(argv: list[str]) -> int:
    if argv and argv[0] in ("-h", "--help"):
        print(__doc__)
        print("cores: " + ", ".join(BENCHES))
        return 0
    if not argv or argv[0].startswith("-"):
        argv = ["report", *argv]
    if argv[0] not in BENCHES:
        print(f"bench: unknown core '{argv[0]}'; known: {', '.join(BENCHES)}", file=sys.stderr)
        return 2
    module = importlib.import_module(f"zkspinal.bench.{BENCHES[argv[0]]}")
    return module.main(argv[1:])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
