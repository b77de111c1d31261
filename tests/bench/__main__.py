"""./run.sh bench [core] [options]: runs one core's benchmark, or every one in turn.

    python -m tests.bench                 every benchmark below, each with its defaults
    python -m tests.bench CORE [ARGS...]  one benchmark; ARGS go to it (CORE --help lists them)
"""
from __future__ import annotations

import importlib
import sys
from pathlib import Path

sys.path[:0] = [str(Path(__file__).resolve().parents[2]), str(Path(__file__).resolve().parents[1])]

# core name on the command line -> module under tests/bench
BENCHES = {
    "field": "field",
    "poseidon-model": "poseidon_model",
    "msm-host": "msm_host",
    "keccak": "keccak",
    "host": "host",
    "system": "system",
}


def main(argv: list[str]) -> int:
    if argv and argv[0] in ("-h", "--help"):
        print(__doc__)
        print("cores: " + ", ".join(BENCHES))
        return 0
    if argv and argv[0] not in BENCHES:
        print(f"bench: unknown core '{argv[0]}'; known: {', '.join(BENCHES)}", file=sys.stderr)
        return 2
    selected = [argv[0]] if argv else list(BENCHES)
    rc = 0
    for name in selected:
        print(f"\n=== bench {name} ===", flush=True)
        module = importlib.import_module(f"tests.bench.{BENCHES[name]}")
        rc |= module.main(argv[1:] if argv else [])
    return rc


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
