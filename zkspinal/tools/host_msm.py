"""Builds the MSM host side (sw/host-msm, Rust: arkworks point conversion, bucket post-processing, the C ABI that
zk-msm links) into build/cargo with cargo, a no-op when it is up to date: for the tests, the benchmark and run.sh's
zk-msm path alike."""
from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

from zkspinal.paths import ROOT
CRATE = ROOT / "sw" / "host-msm"
TARGET = ROOT / "build" / "cargo"


def cargo() -> str:
    exe = shutil.which("cargo") or str(Path.home() / ".cargo" / "bin" / "cargo")
    if not Path(exe).exists():
        raise RuntimeError("cargo not found: install Rust (rustup) to build sw/host-msm")
    return exe


def build_host() -> Path:
    """Builds sw/host-msm (release) into build/cargo.  Returns the CLI's path."""
    env = dict(os.environ, CARGO_TARGET_DIR=str(TARGET))
    subprocess.run([cargo(), "build", "--release", "--locked", "--quiet"], cwd=CRATE, env=env, check=True)
    return TARGET / "release" / "host-msm"


def host_library() -> Path:
    return TARGET / "release" / "libzkmsm.so"
