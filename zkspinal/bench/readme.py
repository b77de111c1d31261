"""Copies the measured tables of build/bench/report.md into the README's performance section, so the README never
drifts from what was measured.

    python -m zkspinal.bench readme [--report build/bench/report.md] [--readme README.md] [--merge] [--check]

The section sits between the lines `<!-- bench:begin -->` and `<!-- bench:end -->` of the README; everything
between them is replaced by the report (its title line dropped, headings moved down one level, plots named
rather than linked: they are build products).  --merge (for a report of some cores, `./run.sh bench --only ...`)
replaces only the README's sections the report has, each under a line saying when and at which revision it was
measured, and in "Area: LUTs per DSP" only the table rows of the designs the report measured (new ones go above
the published designs'); in "MSM per curve" only the rows of the engines the report measured, each group of rows
under the stamp of the run that measured it; the other sections stay as they are.  --check exits 1 when the README's section differs
from what the report would make it.
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


AREA, ANCHORS, CURVES = "### Area: LUTs per DSP", "### Published anchors", "### MSM per curve"


def _sections(body: str) -> tuple[list[str], dict[str, list[str]]]:
    """The lines before the first `### ` heading, and each `### ` section's lines (heading first) by heading."""
    head: list[str] = []
    parts: dict[str, list[str]] = {}
    current = head
    for line in body.split("\n"):
        if line.startswith("### "):
            current = parts[line] = []
        current.append(line)
    return head, parts


def _design(row: str) -> str:
    return row.split("|")[1].strip()


def _merge_area(old: list[str], new: list[str]) -> list[str]:
    """The README's area table with the report's measured rows (`zkspinal` in the source column) replacing the rows
    of the same design, new designs inserted above the first published row."""
    rows = {_design(r): r for r in new if r.startswith("| ") and "| zkspinal" in r}
    out, placed = [], set()
    for line in old:
        if line.startswith("| ") and _design(line) in rows:
            out.append(rows[_design(line)])
            placed.add(_design(line))
            continue
        if line.startswith("| ") and "published" in line and len(placed) < len(rows):
            out += [r for d, r in rows.items() if d not in placed]
            placed = set(rows)
        out.append(line)
    return out


def _stamped_rows(lines: list[str]) -> tuple[dict[str, str], dict[str, str]]:
    """A per-curve section's table rows by engine (the third column) and each engine's stamp: a stamp line
    `_`A`, `B`: Measured ..._` names its engines, a plain `_Measured ..._` covers the rows no other stamp names."""
    rows = {r.split("|")[3].strip(): r for r in lines
            if r.startswith("| ") and not r.startswith("| curve ") and not r.startswith("|---")}
    stamps, plain = {}, None
    for line in lines:
        if not (line.startswith("_") and line.endswith("_") and "Measured " in line):
            continue
        named, sep, text = line[1:-1].partition(": Measured ")
        if sep and named.startswith("`"):
            stamps.update({e.strip(): "Measured " + text for e in named.split(",")})
        else:
            plain = line[1:-1]
    return rows, {e: stamps.get(e, plain) for e in rows}


def _merge_curves(old: list[str], new: list[str], stamp: str) -> list[str]:
    """The per-curve section with the report's rows replacing the README's rows of the same engine and joining the
    others (after them), each group of rows under its run's stamp; the text below the table is the report's, but
    for a report without BN254 and BLS12-381 rows (sections.NO_CURVES) when the README keeps some."""
    from zkspinal.bench.sections import NO_CURVES

    old_rows, old_stamps = _stamped_rows(old)
    new_rows = _stamped_rows(new)[0]
    engines = list(old_rows) + [e for e in new_rows if e not in old_rows]
    stamps = {e: (stamp if e in new_rows else old_stamps[e]) for e in engines}
    groups: dict[str, list[str]] = {}
    for e in engines:
        groups.setdefault(stamps[e], []).append(e)
    lines = [new[0], ""]
    if len(groups) == 1:
        lines.append(f"_{stamp}_")
    else:
        lines += [f"_{', '.join(names)}: {s}_" for s, names in groups.items()]
    table = [r for r in new if r.startswith("| curve ") or r.startswith("|---")]
    lines += ["", *table, *((new_rows.get(e) or old_rows[e]) for e in engines)]
    below = new[new.index(table[-1]) + 1 + len(new_rows):]
    kept = [e for e in old_rows if e not in new_rows]
    if kept and any(line.startswith(NO_CURVES) for line in below):
        old_table_end = max(i for i, line in enumerate(old) if line.startswith("|"))
        below = old[old_table_end + 1:]
    return lines + below


def merge(old_body: str, report_body: str) -> str:
    """The README's section with the report's sections put in (see --merge)."""
    _, old = _sections(old_body)
    old_head = old_body.split("\n### ", 1)[0].split("\n")
    head, new = _sections(report_body)
    stamp = " ".join(line for line in head if line.strip())
    out = dict(old)
    for title, lines in new.items():
        if title == AREA and AREA in old:
            out[AREA] = _merge_area(old[AREA], lines)
        elif title == ANCHORS:
            out[title] = lines
        elif title == CURVES and CURVES in old:
            out[CURVES] = _merge_curves(old[CURVES], lines, stamp)
        else:
            out[title] = [lines[0], "", f"_{stamp}_", *lines[1:]]
    # sections new to the README go before the area table
    tail = (AREA, ANCHORS)
    order = [t for t in old if t not in tail] + [t for t in new if t not in old and t not in tail]
    order += [t for t in tail if t in out]
    return "\n".join([*old_head, *(line for t in order for line in out[t])]).strip("\n")


def current(readme: str) -> str:
    if BEGIN not in readme or END not in readme:
        raise ValueError(f"the README has no {BEGIN} ... {END} section")
    return readme.split(BEGIN, 1)[1].split(END, 1)[0].strip("\n")


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
    ap.add_argument("--merge", action="store_true", help="replace only the sections (and area rows) the report has")
    ap.add_argument("--check", action="store_true")
    a = ap.parse_args(argv)
    if not a.report.exists():
        print(f"bench readme: {a.report} is missing: run ./run.sh bench first", file=sys.stderr)
        return 1
    old = a.readme.read_text()
    body = section(a.report.read_text())
    new = splice(old, merge(current(old), body) if a.merge else body)
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
