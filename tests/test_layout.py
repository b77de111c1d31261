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


def scala_package_deps() -> dict[str, set[str]]:
    """zkspinal.<package> -> the zkspinal packages its Scala sources name (imports and qualified names; comments
    left out)."""
    deps: dict[str, set[str]] = {}
    for f in (ROOT / "hw" / "src" / "zkspinal").rglob("*.scala"):
        code = re.sub(r"/\*.*?\*/", "", f.read_text(), flags=re.S)
        code = re.sub(r"//[^\n]*", "", code)
        pkg = re.search(r"^package zkspinal\.(\w+)", code, re.M).group(1)
        deps.setdefault(pkg, set()).update(p for p in re.findall(r"\bzkspinal\.(\w+)\.", code) if p != pkg)
    return deps


def test_scala_packages_form_a_tree():
    """hw/README's package order: no cycle among the packages; `emit` (the emitter, contract files, tops lists) is the
    root nothing imports, `system` holds board RTL the cores do not import, `lib` imports no other package."""
    deps = scala_package_deps()
    assert {"lib", "field", "emit", "system"} <= set(deps)
    assert deps["lib"] == set()
    assert [p for p, d in deps.items() if "emit" in d] == []
    assert [p for p, d in deps.items() if "system" in d and p != "emit"] == []
    done: set[str] = set()

    def visit(p: str, path: tuple[str, ...]) -> None:
        assert p not in path, f"package cycle: {' -> '.join(path + (p,))}"
        if p not in done:
            for q in deps.get(p, ()):
                visit(q, path + (p,))
            done.add(p)
    for p in deps:
        visit(p, ())
