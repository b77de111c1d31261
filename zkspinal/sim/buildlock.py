"""An exclusive file lock, so that parallel pytest workers (or a benchmark beside a test run) never build the same
simulation or synthesise the same top at the same time: the second one waits, then finds the result cached."""
from __future__ import annotations

import fcntl
import subprocess
from contextlib import contextmanager
from pathlib import Path

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
