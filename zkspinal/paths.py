"""Where things are: the repository (the editable install points here) and the build tree."""
from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BUILD = ROOT / "build"
RTL = BUILD / "rtl"
SW = ROOT / "sw"
