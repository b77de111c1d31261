"""Copies the measured tables of build/bench/report.md into the README's performance section, so the README never
drifts from what was measured.

    python -m zkspinal.bench readme [--report build/bench/report.md] [--readme README.md] [--check]

The section sits between the lines `<!-- bench:begin -->` and `<!-- bench:end -->` of the README; everything
between them is replaced by the report (its title line dropped, headings moved down one level, plots named
rather than linked: they are build products).  --check exits 1 when the README's section differs from the report.
"""
from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

from zkspinal.paths import ROOT
BEGIN, END = "<!-- bench:begin -->", "<!-- bench:end -->"


def section(report: str) -> str:
    lines = report.splitlines()
    if lines and lines[0].startswith("# "):
        lines = lines[1:]
    out = []
    for line in lines:
        if line.startswith("#"):
            line = "#" + line
        # plots are build products, not committed: name them instead of linking them
        out.append(re.sub(r"!\[([^\]]*)\]\(([^)/]+\.png)\)", r"Plot: \1, `build/bench/\2` after `./run.sh bench`.",
                          line))
    return "\n".join(out).strip("\n")


def splice(readme: str, body: str) -> str:
    if BEGIN not in readme or END not in readme:
        raise ValueError(f"the README has no {BEGIN} ... {END} section")
    head, rest = readme.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    return f"{head}{BEGIN}\n{body}\n{END}{tail}"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="bench readme", description=__doc__.split("\n\n")[0])
    ap.add_argument("--report", type=Path, default=ROOT / "build" / "bench" / "report.md")
    ap.add_argument("--readme", type=Path, default=ROOT / "README.md")
    ap.add_argument("--check", action="store_true")
    a = ap.parse_args(argv)
    if not a.report.exists():
        print(f"bench readme: {a.report} is missing: run ./run.sh bench first", file=sys.stderr)
        return 1
    old = a.readme.read_text()
    new = splice(old, section(a.report.read_text()))
    if a.check:
        if new != old:
            print(f"bench readme: {a.readme}'s performance section differs from {a.report}", file=sys.stderr)
            return 1
        return 0
    a.readme.write_text(new)
    print(f"{a.readme}: performance section updated from {a.report}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
