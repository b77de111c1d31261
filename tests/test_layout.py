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


PY_PACKAGES = {"zkspinal": "zkspinal", "reference_model": "reference_model", "zkemu": "sw/emu",
               "vivado_stub": "vivado/stub"}


def python_import_graph() -> dict[str, set[str]]:
    """module -> the modules of the installed packages it imports, at the top or inside a function"""
    import ast

    files = {}
    for pkg, d in PY_PACKAGES.items():
        for f in (ROOT / d).rglob("*.py"):
            rel = f.relative_to(ROOT / d).with_suffix("")
            if "build" in rel.parts or "target" in rel.parts:
                continue
            parts = [pkg, *rel.parts]
            if parts[-1] == "__init__":
                parts = parts[:-1]
            files[".".join(parts)] = f
    graph: dict[str, set[str]] = {}
    for mod, f in files.items():
        is_pkg = f.name == "__init__.py"
        edges = graph.setdefault(mod, set())
        tree = ast.parse(f.read_text())
        # a `python -m` entry point's `if __name__ == "__main__":` block runs only as the program, never on import
        tree.body = [n for n in tree.body if not (isinstance(n, ast.If) and "__main__" in ast.unparse(n.test))]
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    here = mod.split(".") if is_pkg else mod.split(".")[:-1]
                    here = here[:len(here) - node.level + 1]
                    base = ".".join([*here, *([base] if base else [])])
                targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in files else base for a in node.names]
            else:
                continue
            edges.update(t for t in targets if t in files and t != mod)
    return graph


def test_no_python_import_cycle():
    """No module of the installed packages imports, directly or through others, a module that imports it back (an
    import inside a function counts too: it hides the cycle, it does not remove it; a `__main__` block does not)."""
    graph = python_import_graph()
    assert "zkspinal.sim.simrun" in graph and "reference_model.msm" in graph
    state: dict[str, int] = {}
    cycles = []

    def visit(m: str, path: list[str]) -> None:
        state[m] = 1
        for n in sorted(graph.get(m, ())):
            if state.get(n) == 1:
                cycles.append(" -> ".join(path[path.index(n):] + [m, n]) if n in path else f"{m} -> {n}")
            elif n not in state:
                visit(n, path + [m])
        state[m] = 2
    for m in sorted(graph):
        if m not in state:
            visit(m, [])
    assert cycles == []
