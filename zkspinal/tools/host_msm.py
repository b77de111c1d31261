"""Builds the MSM host side (sw/host-msm, Rust: arkworks point conversion, bucket post-processing, the C ABI that
zk-msm links) into build/cargo with cargo, a no-op when it is up to date: for the tests, the benchmark and run.sh's
zk-msm path alike."""
from __future__ import annotations

from pathlib import Path

from zkspinal.paths import ROOT
from zkspinal.refs import cargo_build

CRATE = ROOT / "sw" / "host-msm"
TARGET = ROOT / "build" / "cargo"


def build_host() -> Path:
    """Builds sw/host-msm (release) into build/cargo.  Returns the CLI's path."""
    cargo_build(CRATE, TARGET)
    return TARGET / "release" / "host-msm"


def host_library() -> Path:
    return TARGET / "release" / "libzkmsm.so"
