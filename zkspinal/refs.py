"""The independent references built with cargo: finding cargo, building neptune-ref (tests/refs/neptune, the
crates.io crate `neptune` that Filecoin hashes with) and asking it for digests.

neptune-ref reads one preimage per line (hexadecimal field elements, as `python -m reference_model.poseidon`) and
prints one digest per line.  It is built with `cargo build --release --locked` into build/refs/neptune when missing
or older than its sources; sw/neptune-fpga builds into the same target directory (same neptune and blstrs builds).
"""
from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path
from typing import Iterable, Sequence

from zkspinal.paths import BUILD, ROOT

NEPTUNE_CRATE = ROOT / "tests" / "refs" / "neptune"
NEPTUNE_TARGET = BUILD / "refs" / "neptune"
NEPTUNE = NEPTUNE_TARGET / "release" / "neptune-ref"


def cargo() -> str:
    """cargo on PATH or in ~/.cargo/bin; a clear error when Rust is not installed."""
    exe = shutil.which("cargo") or str(Path.home() / ".cargo" / "bin" / "cargo")
    if not Path(exe).exists():
        raise RuntimeError("cargo not found: the Rust references and host crates need a Rust toolchain "
                           "(cargo on PATH or in ~/.cargo/bin; ./run.sh setup installs it)")
    return exe


def cargo_build(manifest_dir: Path, target: Path, *extra: str) -> None:
    """`cargo build --release --locked` of the crate in manifest_dir into target; raises with cargo's stderr."""
    r = subprocess.run([cargo(), "build", "--release", "--locked", "--quiet", *extra], cwd=manifest_dir,
                       env=dict(os.environ, CARGO_TARGET_DIR=str(target)), capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError(f"cargo build of {manifest_dir} failed:\n{r.stderr[-4000:]}")


def neptune_ref() -> Path:
    """The neptune-ref binary, built when missing or older than its sources."""
    crate = NEPTUNE_CRATE
    sources = [crate / "Cargo.toml", crate / "Cargo.lock", *sorted((crate / "src").rglob("*.rs"))]
    if not NEPTUNE.exists() or NEPTUNE.stat().st_mtime < max(s.stat().st_mtime for s in sources):
        cargo_build(NEPTUNE_CRATE, NEPTUNE_TARGET)
    return NEPTUNE


def run_neptune(args: Sequence[str], text: str = "") -> list[str]:
    """neptune-ref's output lines for `args` and stdin `text`; raises with its stderr when it fails."""
    r = subprocess.run([str(neptune_ref()), *args], input=text, capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError(f"neptune-ref {' '.join(args)}: {r.stderr.strip()}")
    return r.stdout.splitlines()


def neptune_digests(preimages: Iterable[Sequence[int]], arity: int) -> list[int]:
    """neptune's Merkle-tree digests (standard strength) of the preimages."""
    text = "".join(" ".join(f"0x{x:064x}" for x in row) + "\n" for row in preimages)
    return [int(d, 16) for d in run_neptune(["--arity", str(arity)], text)]
