"""The device budgets of vivado/fit/budgets.tsv (each board's part, its SLRs, its platform's share) and the yosys
figures recorded per shipped top in vivado/fit/records.tsv: the one place the benchmarks, the fit test and the
Vivado build (vivado/lib/zk_fit.tcl reads the same files) take them from."""
from __future__ import annotations

from pathlib import Path

FIT = Path(__file__).resolve().parents[1] / "fit"
BUDGETS = FIT / "budgets.tsv"
RECORDS = FIT / "records.tsv"
RESOURCES = ("lut", "ff", "dsp", "bram36", "uram")
NAMES = {"lut": "LUT6 sites + SRL", "ff": "FF", "dsp": "DSP48E2", "bram36": "BRAM36", "uram": "URAM288"}


def _rows(path: Path) -> list[list[str]]:
    return [line.split("\t") for line in path.read_text().splitlines() if line.strip() and not line.startswith("#")]


def budgets() -> dict[str, dict]:
    """{board: {"part": {resource: n}, "slrs": {SLRn: {...}}, "platform": {"part" or SLRn: {...}}}} (the file's source
    column is for its readers)"""
    out: dict[str, dict] = {}
    for board, scope, *nums, _source in _rows(BUDGETS):
        b = out.setdefault(board, {"part": {}, "slrs": {}, "platform": {}})
        figures = dict(zip(RESOURCES, map(int, nums)))
        if scope == "part":
            b["part"] = figures
        elif scope.startswith("SLR"):
            b["slrs"][scope] = figures
        elif scope == "platform" or scope.startswith("platform@"):
            where = scope.partition("@")[2] or "part"
            had = b["platform"].setdefault(where, dict.fromkeys(RESOURCES, 0))
            for k in RESOURCES:
                had[k] += figures[k]
        else:
            raise ValueError(f"{BUDGETS}: unknown scope {scope!r}")
    return out


def platform_total(board: dict) -> dict[str, int]:
    return {k: sum(p[k] for p in board["platform"].values()) for k in RESOURCES}


def records(path: Path = RECORDS) -> dict[str, dict]:
    """{top: {"board", "md5", "part": {resource: n}, "slrs": {SLRn: {...}}}} of vivado/fit/records.tsv"""
    out: dict[str, dict] = {}
    if not path.exists():
        return out
    for top, board, md5, scope, *nums in _rows(path):
        r = out.setdefault(top, {"board": board, "md5": md5, "part": {}, "slrs": {}})
        figures = dict(zip(RESOURCES, map(int, nums)))
        if scope == "part":
            r["part"] = figures
        else:
            r["slrs"][scope] = figures
    return out


def write_record(top: str, board: str, md5: str, part: dict, slrs: dict | None = None, path: Path = RECORDS) -> None:
    """Replaces the record of `top` in `path` (the rest of the file stays as it is)."""
    head = [line for line in path.read_text().splitlines() if line.startswith("#")] if path.exists() else [
        "# yosys figures of each shipped top (written by the benchmarks that synthesize whole tops: ./run.sh bench",
        "# poseidon / msm); zk_fit.tcl refuses to build a top whose figures do not fit its board, tests/test_fit.py",
        "# checks every record.  lut = LUT6 sites + SRL.",
        "# top\tboard\tverilog md5\tscope\tlut\tff\tdsp\tbram36\turam"]
    rows = [r for r in _rows(path) if r[0] != top] if path.exists() else []
    for scope, fig in [("part", part), *sorted((slrs or {}).items())]:
        rows.append([top, board, md5, scope, *(str(int(round(fig[k]))) for k in RESOURCES)])
    rows.sort(key=lambda r: (r[0], r[3] != "part", r[3]))
    path.write_text("\n".join(head + ["\t".join(r) for r in rows]) + "\n")


# The tops the Vivado scripts build by default, each on its board: the block designs' first default cores
# (bd_<board>.tcl default_cores), the documented profiles beside them and the fallbacks when those are not emitted.
# They meet the budget targets (zkspinal/synth/fit.py BUDGET_TARGETS) as well as fitting (tests/test_fit.py).
SHIPPED = {
    "PoseidonAxis_pc2": "c1100",      # the C1100's default: Filecoin PC2 (arities 8 and 11)
    "PoseidonAxis_arity2": "c1100",   # the C1100's arity-2 profile
    "KeccakSpongeAxis_r24": "c1100",  # the C1100's fallback
    "MsmAxis_vu9p": "vu9p",           # the VU9P's default: the two-adder MSM engine
    "PairFixture_d16": "vu9p",        # the VU9P's fallback (the two-FIFO shape)
}
# Every other top a block design accepts (a default_cores pattern, or --core by name; not the _model simulation twins,
# not the oversized test configuration), with the boards it is built on: each must fit every one of them (the part,
# with the platform's share), without the budget targets of the shipped tops.  Its record is on the first board.
OTHER = {
    "PoseidonAxis_c1100": ("c1100",),              # bd_c1100's second default (two engines of ten multipliers)
    "PoseidonAxis_small": ("c1100",),              # one engine of two multipliers (tests, bring-up)
    "PoseidonAxis_small_plain": ("c1100",),        # the same with the plain schedule
    "KeccakSpongeAxis_r1": ("c1100", "vu9p"),      # the C1100's other sponges
    "KeccakSpongeAxis_r2": ("c1100", "vu9p"),
    "MsmAxis_small": ("vu9p",),                    # the quick tier's MSM engine (small windows)
    "MsmAxis_bn254_vu9p": ("vu9p",),               # BN254 G1, two XYZZ adders, four DDR4 channels (on demand)
    "MsmAxis_bls12_381_vu9p": ("vu9p",),           # BLS12-381 G1, one XYZZ adder (on demand)
    "MsmAxis_bn254_c1100": ("c1100",),             # BN254 G1, two XYZZ adders, the point store in HBM (on demand)
    **{f"KeccakSpeed_{c}": ("c1100", "vu9p")       # the SNAP test_speed benchmark, on either card
       for c in ("r1_u1", "r2_u1", "r2_u2", "r2_u4", "r3_u1", "r4_u1", "r6_u1", "r8_u1", "r12_u1", "r24_u1", "r24_u2")},
}
# Other tops held to the shipped tops' routability target too (core + platform at most 55 % of the LUT6 sites + SRL of
# the part and of each SLR the floorplan fills): the new curves' board tops (issue "MSM on BN254 and BLS12-381 G1")
LUT_TARGET_ALSO = ("MsmAxis_bn254_vu9p", "MsmAxis_bls12_381_vu9p", "MsmAxis_bn254_c1100")
# Tops whose whole-top synthesis has not been recorded yet, with the reason: tests/test_fit.py skips them by name
# (visible in every run) instead of passing; an entry goes once `python -m zkspinal.synth.fit TOP` has run.
PENDING: dict[str, str] = {}
# Other tops that fit their part but no SLR placement of the board's floorplan holds (the build refuses them:
# vivado/stub/floorplan.py), with the reason.  tests/test_fit.py requires the recorded placement to overflow; an entry
# goes once a floorplan places the top.
UNPLACED: dict[str, str] = {}
# Shipped tops that fit their part but miss a budget target today, with the reason and what is missed (the scopes
# whose LUT budget is over).  tests/test_fit.py requires exactly these misses: a top that overflows, misses another
# target or another scope fails, and so does a top listed here that meets its targets (the entry must go).
KNOWN_MISSES = {
    "MsmAxis_vu9p": ("the shell's SLR1: 67.0 % of its LUTs with the platform's 134,000 (the part: 53.3 %, SLR0 and SLR2 "
                     "46.5 %).  The part's DSP48E2 force it: the engine's 5,838 leave at least 5,838 - 2 x 2,280 = "
                     "1,278 for SLR1, four Montgomery products of 417 DSP and 29,360 LUT each, 251,000 LUT with the "
                     "platform (63.8 %) before anything else; 55 % there needs products of about 18,000 LUT",
                     ("SLR1",)),
}


def board_of(top: str) -> str:
    """The board a top's record is made for (its shipped board, else the first it is built on)."""
    if top in SHIPPED:
        return SHIPPED[top]
    if top in OTHER:
        return OTHER[top][0]
    raise KeyError(f"{top} is neither shipped nor another buildable top (vivado/stub/budgets.py SHIPPED, OTHER)")
