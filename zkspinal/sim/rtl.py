"""The one rule for "is the Verilog current", and the emission of what is not: used by pytest (conftest), the tools
(keccak-speed) and every ./run.sh command that needs a top (hash, msm: `python -m zkspinal.sim.rtl ensure TOP`).

A top is stale when its file in build/rtl is missing or older than a generator source (the Scala sources, build.mill,
constants/); stale tops are emitted in one Mill run (`Emit --only 'A|B'`, log in build/emit.log, md5 lines on
stderr), and so is an on-demand top (a large board configuration a plain emit leaves out: build/rtl/on_demand.json)
the first time it is asked for.  A top the generator lacks is refused at once, with the tops it has of that kind,
when the manifest is current (no elaboration run to find out).

    python -m zkspinal.sim.rtl ensure TOP [TOP ...]    (exit 1 with the reason on stderr)
    python -m zkspinal.sim.rtl emit [--only REGEX]     (./run.sh emit: every top, or those matching; md5 lines on
                                                        stdout, exit 1 with the end of build/emit.log)
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from zkspinal import paths
from zkspinal.paths import BUILD, ROOT, RTL
from zkspinal.sim.buildlock import locked

MANIFEST = RTL / "manifest.json"
ON_DEMAND = RTL / "on_demand.json"   # the tops a plain emit leaves out (large board configurations), by name


def generator_sources() -> list[Path]:
    """What the emitted Verilog depends on."""
    return [*(ROOT / "hw" / "src").rglob("*.scala"), ROOT / "build.mill", *(ROOT / "constants").rglob("*")]


def newest_source() -> float:
    """The modification time of the newest generator source."""
    return max(p.stat().st_mtime for p in generator_sources())


def stale(emitted: Path, newest: float | None = None) -> bool:
    """`emitted` is missing or older than a generator source (`newest`: newest_source(), when already known)."""
    return not emitted.exists() or (newest_source() if newest is None else newest) > emitted.stat().st_mtime


def _no_such_top(top: str, known: dict, note: str = "") -> RuntimeError:
    kind = top.split("_", 1)[0] + "_"
    return RuntimeError(f"no top {top}; the generator's{note}: {' '.join(t for t in known if t.startswith(kind))}")


def emit(only: str | None = None, out=sys.stderr) -> None:
    """Runs the generator (every top, or those matching `only`) under the emit lock; its md5 lines go to `out`."""
    args = ["--only", only] if only else []
    # one generator run at a time (run.sh's emit takes the same lock): two would write the same files
    with locked(BUILD / "locks" / "emit.lock"):
        with open(BUILD / "emit.log", "w") as log:
            rc = subprocess.run([str(ROOT / "mill"), "--no-daemon", "hw.runMain", "zkspinal.emit.Emit", *args],
                                cwd=ROOT, stdout=log, stderr=subprocess.STDOUT).returncode
        text = (BUILD / "emit.log").read_text(errors="replace")
    if rc != 0:
        raise RuntimeError("Mill/SpinalHDL elaboration failed; end of build/emit.log:\n" + "\n".join(text.splitlines()[-30:]))
    md5 = [line for line in text.splitlines() if line.startswith("md5 ")]
    if not md5:
        raise RuntimeError("the generator printed no md5 lines (see build/emit.log)")
    out.write("".join(line + "\n" for line in md5))


def _emitted() -> tuple[dict, set[str]]:
    """The last emit's manifest and its on-demand tops (both empty before the first emit)."""
    known = json.loads(MANIFEST.read_text()) if MANIFEST.exists() else {}
    return known, set(json.loads(ON_DEMAND.read_text())) if ON_DEMAND.exists() else set()


def known_tops() -> set[str]:
    """The tops the last emit wrote and the on-demand ones it left out (empty before the first emit)."""
    known, on_demand = _emitted()
    return set(known) | on_demand


def top_info(top: str) -> dict:
    """The manifest entry of `top` (paths.top_info); an on-demand top the last emit left out is emitted first."""
    known, on_demand = _emitted()
    if top not in known and top in on_demand:
        ensure([top])
    return paths.top_info(top, RTL)


def ensure(tops: list[str]) -> None:
    """Every top in `tops` emitted and current (see the module's docstring)."""
    newest = newest_source()
    known, on_demand = _emitted()
    if known and not stale(MANIFEST, newest):
        for top in tops:
            if top not in known and top not in on_demand:
                raise _no_such_top(top, {**known, **dict.fromkeys(on_demand)})
    todo = [t for t in tops if t not in known or stale(RTL / f"{t}.v", newest)]
    if todo:
        try:
            emit("|".join(todo))
        except RuntimeError:
            # a top the (older) manifest lacks is likelier a wrong name than a broken generator: say which exist
            for top in todo:
                if known and top not in known:
                    raise _no_such_top(top, known, " (as last emitted)") from None
            raise
    missing = [t for t in todo if not (RTL / f"{t}.v").exists()]
    if missing:
        raise RuntimeError(f"the generator emitted no {' '.join(missing)}")


def main(argv: list[str]) -> int:
    emitting = argv[:1] == ["emit"] and (len(argv) == 1 or (len(argv) == 3 and argv[1] == "--only"))
    if not emitting and (len(argv) < 2 or argv[0] != "ensure"):
        print(__doc__, file=sys.stderr)
        return 2
    try:
        if emitting:
            emit(argv[2] if len(argv) == 3 else None, out=sys.stdout)
        else:
            ensure(argv[1:])
    except RuntimeError as e:
        print(e, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
