"""Sends file descriptors 1 and 2 (simulator builds and runs, which write there directly) to a log file while a
benchmark measures, so that its own table stays readable."""
from __future__ import annotations

import os
import sys
from pathlib import Path


class simulator_output_to_log:
    def __init__(self, log: Path):
        self.path = log

    def __enter__(self):
        self.path.parent.mkdir(parents=True, exist_ok=True)
        sys.stdout.flush(), sys.stderr.flush()
        self.saved = [os.dup(1), os.dup(2)]
        self.log = open(self.path, "a")
        os.dup2(self.log.fileno(), 1), os.dup2(self.log.fileno(), 2)

    def __exit__(self, *exc):
        sys.stdout.flush(), sys.stderr.flush()
        for fd, saved in zip((1, 2), self.saved):
            os.dup2(saved, fd)
            os.close(saved)
        self.log.close()
