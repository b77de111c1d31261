"""An exclusive file lock, so that parallel pytest workers (or a benchmark beside a test run) never build the same
simulation or synthesise the same top at the same time: the second one waits, then finds the result cached."""
from __future__ import annotations

import fcntl
from contextlib import contextmanager
from pathlib import Path


@contextmanager
def locked(path: Path):
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "a") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)
