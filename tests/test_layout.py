"""The layout rules of the house (docs: README "Layout", tests/README): the repository's Python is importable as the
packages pyproject.toml installs (no file edits sys.path), nothing a user runs lives under tests/, and a test imports
the code it tests, never a benchmark (but the test of the benchmark report)."""
from __future__ import annotations

import importlib
import re
import tomllib

import pytest

from zkspinal.paths import ROOT

PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
PACKAGES = PYPROJECT["tool"]["setuptools"]["packages"]


def python_sources():
    for top in ("zkspinal", "reference_model", "tests", "sw", "vivado"):
        for f in (ROOT / top).rglob("*.py"):
            rel = f.relative_to(ROOT).as_posix()
            if "/build/" not in f"/{rel}" and "/target/" not in rel:
                yield rel, f.read_text()


def test_no_file_edits_sys_path():
    edits = [rel for rel, text in python_sources() if re.search(r"sys\.path\s*(\[|\.insert|\.append|\.extend|\+?=)", text)]
    assert edits == []


@pytest.mark.parametrize("package", PACKAGES)
def test_package_is_installed(package):
    """every package of pyproject.toml imports from the installed (editable) project: ./run.sh setup installed it"""
    mod = importlib.import_module(package)
    assert ROOT in __import__("pathlib").Path(mod.__file__).resolve().parents


def test_tests_hold_only_tests():
    """under tests/: test files, the Rust reference helpers (refs/), valgrind's suppressions, the runner's own files;
    the testbenches (zkspinal.tb) and what users run are in zkspinal/"""
    allowed = re.compile(r"^tests/(test_\w+\.py|conftest\.py|summary\.py|README\.md|Makefile|\w+\.supp|refs/.*)$")
    stray = [f.relative_to(ROOT).as_posix() for f in (ROOT / "tests").rglob("*")
             if f.is_file() and "__pycache__" not in f.parts and "target" not in f.parts
             and not allowed.match(f.relative_to(ROOT).as_posix())]
    assert stray == []


def test_tests_import_no_benchmark():
    users = [rel for rel, text in python_sources() if rel.startswith("tests/") and rel != "tests/test_bench_report.py"
             and re.search(r"^\s*(from|import) zkspinal\.bench\b", text, re.M)]
    assert users == []
