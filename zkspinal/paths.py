"""Where things are: the repository (the editable install points here), the build tree, and the emitted tops'
manifest (build/rtl/manifest.json, one entry per top: its file, kind, md5 and the generator's figures).  Every
Python reader of the manifest goes through manifest() / top_info()."""
from __future__ import annotations

import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BUILD = ROOT / "build"
RTL = BUILD / "rtl"
SW = ROOT / "sw"


def _emitted(rtl: Path, name: str) -> dict:
    """a JSON file every emit writes into `rtl`; a clear error when there was no emit"""
    path = Path(rtl) / name
    if not path.exists():
        raise RuntimeError(f"{path} is missing: run ./run.sh (or ./mill hw.runMain zkspinal.emit.Emit) first")
    return json.loads(path.read_text())


def manifest(rtl: Path = RTL) -> dict:
    """{top: entry} of the tops emitted into `rtl`."""
    return _emitted(rtl, "manifest.json")


def top_info(top: str, rtl: Path = RTL) -> dict:
    """The manifest entry of `top`; a clear error when it was not emitted."""
    m = manifest(rtl)
    if top not in m:
        raise RuntimeError(f"top {top} is not in {Path(rtl) / 'manifest.json'}: emit it first")
    return m[top]


def msm_configs(rtl: Path = RTL) -> dict:
    """{MsmAxis top: {curve, windows, adders, on_demand}} of every MSM configuration, on-demand ones included (the
    generator writes it with every emit, without elaborating the tops)."""
    return _emitted(rtl, "msm_configs.json")
