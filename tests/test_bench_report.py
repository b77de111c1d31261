"""Smoke test of ./run.sh bench --quick: the report is produced and its numbers are sane (non-zero, utilizations
at most 1, projections consistent with the measured cycles and the stated clock), and the README section is the
report's."""
from __future__ import annotations

import datetime
import json
import os
import shutil
import subprocess
import sys

import pytest

from zkspinal.sim.buildlock import locked
from conftest import ROOT
from zkspinal.bench import anchors, readme, sections

pytestmark = pytest.mark.xdist_group("bench")


@pytest.fixture(scope="module")
def report():
    """One quick report per test run, whichever worker asks first (the others wait for it and read it)."""
    out = ROOT / "build" / "bench-smoke"
    run_id = os.environ.get("PYTEST_XDIST_TESTRUNUID", str(os.getpid()))
    marker = out / "run-id"
    with locked(ROOT / "build" / "bench-smoke.lock"):
        if not (marker.exists() and marker.read_text() == run_id):
            marker.unlink(missing_ok=True)
            env = dict(os.environ, CI="1")  # progress bars off
            proc = subprocess.run([sys.executable, "-m", "zkspinal.bench", "--quick", "--out", str(out)], cwd=ROOT,
                                  env=env, capture_output=True, text=True, timeout=2400)
            assert proc.returncode == 0, f"bench --quick failed:\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"
            marker.write_text(run_id)
    return out


def test_report_files(report):
    md = (report / "report.md").read_text()
    for title in ("Field arithmetic", "Keccak-f[1600]", "Poseidon (PoseidonAxis)", "MSM bucket engine",
                  "PC2 of one 32 GiB sector", "Poseidon golden model", "MSM host side", "Area: LUTs per DSP", "Published anchors"):
        assert title in md, f"report.md lacks its {title} section"
    # the area comparison comes after every core's section, before the anchors
    assert md.index("## Host formatting cost") < md.index("## Area: LUTs per DSP") < md.index("## Published anchors")
    for png in ("keccak_rate_vs_luts.png", "poseidon_rate_vs_dsp.png", "msm_busy_over_time.png"):
        assert (report / png).stat().st_size > 1000, png
        assert f"]({png})" in md, f"report.md does not show {png}"
    # the published anchors are named beside the measured figures
    assert anchors.TRIDENT["source"] in md and anchors.HARDCAML["source"] in md


def test_poseidon_figures(report):
    p = json.loads((report / "report.json").read_text())["figures"]["poseidon"]
    assert p["measured"]
    for r in p["measured"]:
        assert r["cycles_per_hash"] > 0 and r["latency"] > r["cycles_per_hash"], r
        assert 0 < r["utilization"] <= 1, r
        # the projection is the stated clock over the measured cycles; the cycles are the generator's schedule
        assert r["mhash_s"] == pytest.approx(p["mhz"] / r["cycles_per_hash"], rel=1e-9)
        assert r["cycles_per_hash"] == pytest.approx(r["beats"] / (r["engines"] * r["members"]), rel=1e-9)
        assert r["dsp_tiles"] > 0
    # wider arities take more cycles per hash
    for cfg in {r["config"] for r in p["measured"]}:
        cyc = [r["cycles_per_hash"] for r in sorted((r for r in p["measured"] if r["config"] == cfg),
                                                     key=lambda r: r["arity"])]
        assert cyc == sorted(cyc), cfg
    assert p["sweep"]["configs"] > 4 and p["sweep"]["mont_mul_dsp_tiles"] > p["sweep"]["const_mul_dsp_tiles"] > 0


def test_pc2_projection(report):
    """The PC2 work is Filecoin's count for a 32 GiB sector, and every time is that work over the row's rates."""
    from zkspinal.bench import pc2

    # the octree count is the sum over its levels: 8 sub-trees of 2^27 leaves, then one hash over their roots
    levels = sum(pc2.SUB_TREE_LEAVES // 8 ** k for k in range(1, 10) if pc2.SUB_TREE_LEAVES // 8 ** k)
    assert pc2.OCTREE_HASHES == pc2.SUB_TREES * levels + 1 and pc2.WORK == {11: 2 ** 30, 8: 2 * 153_391_689}
    figs = json.loads((report / "report.json").read_text())["figures"]
    f, p = figs["pc2"], figs["poseidon"]
    assert f["work"] == {"11": 2 ** 30, "8": 2 * 153_391_689}
    for cfg, minutes in f["minutes"].items():
        if cfg in ("neptune_one_core", "trident"):
            continue
        rate = {r["arity"]: r["mhash_s"] * 1e6 for r in p["measured"] if r["config"] == cfg}
        assert minutes * 60 == pytest.approx(2 ** 30 / rate[11] + 2 * 153_391_689 / rate[8], rel=1e-9)
    tr = anchors.TRIDENT["hash_per_s"]
    assert f["minutes"]["trident"] * 60 == pytest.approx(2 ** 30 / tr[11] + 2 * 153_391_689 / tr[8], rel=1e-9)
    md = (report / "report.md").read_text()
    main_cfg = json.loads((report / "poseidon.json").read_text())["top"].split("_", 1)[1]
    assert ("TARGET MISSED: PC2" in md) == (f["minutes"][main_cfg] > sections.PC2_TARGET_MIN)


def test_msm_figures(report):
    m = json.loads((report / "report.json").read_text())["figures"]["msm"]
    rows = {(r["set"], r["npow"]): r for r in m["rows"]}
    assert any(s == "random" for s, _ in rows) and len(rows) >= 6, list(rows)
    for r in rows.values():
        A = len(r["adder_busy_frac"])
        assert 0 <= r["busy_frac"] <= 1 and r["cycles"] > r["acc_cycles"] and A * r["acc_cycles"] >= r["busy"], r
        assert r["busy"] == r["additions"] and r["busy_frac"] == pytest.approx(r["busy"] / (A * r["acc_cycles"])), r
        assert sum(r["adder_busy_frac"]) == pytest.approx(r["busy"] / r["acc_cycles"]), r
    assert all(min(r["adder_busy_frac"]) > 0.9 for (s, _), r in rows.items() if s == "random")
    assert rows[next(k for k in rows if k[0] == "zero")]["busy"] == 0
    pr = m["projection"]
    src = next(r for r in m["rows"] if f"{r['set']} 2^{r['npow']}" == pr["from"])
    # one 2^26 bucket phase: the measured accumulate cycles scaled to 2^26 points, plus the fixed cycles
    cycles = src["acc_cycles"] * (1 << 26) / src["points"] + src["other_cycles"]
    assert pr["cycles_2_26"] == pytest.approx(cycles, abs=1)
    assert pr["one_s"] == pytest.approx(pr["cycles_2_26"] / (m["mhz"] * 1e6), rel=1e-6)
    # four MSMs: each the longer of its bucket phase and its PCIe transfer, plus the last post-processing
    four = 4 * max(pr["one_s"], pr["transfer_s"]) + (pr["post_s"] or 0)
    assert pr["four_s"] == pytest.approx(four) and pr["bound_s"] <= pr["one_s"]
    assert set(m["timelines"]) == {f"{s}_2^{n}" for s, n in rows}
    for name, tl in m["timelines"].items():
        assert tl["windows"] >= 3 and all(0 <= f <= 1 for f in tl["busy_frac"]), name
        set_, npow = name.split("_2^")
        r = rows[(set_, int(npow))]
        # the windows cover the accumulate phase but its edges (the cycles before the first sample and after the
        # last, e.g. the adder latency drained at the end): their cycle-weighted mean is the job's busy fraction
        # within the uncovered share
        widths = [b - a for a, b in zip([0] + tl["cycle"][:-1], tl["cycle"])]
        slack = 0.02 + max(0, r["acc_cycles"] - sum(widths)) / r["acc_cycles"]
        mean = sum(f * w for f, w in zip(tl["busy_frac"], widths)) / sum(widths)
        assert mean == pytest.approx(r["busy_frac"], abs=slack), name
        assert len(tl["adders"]) == len(r["adder_busy_frac"]), name  # one series per adder
        for series, overall in zip(tl["adders"], r["adder_busy_frac"]):
            mean = sum(f * w for f, w in zip(series, widths)) / sum(widths)
            assert mean == pytest.approx(overall, abs=slack), name


def _synth_fixture(top: str, modules: dict, lut: int = 981234) -> dict:
    """A result in the shape hier_synth.run returns (no yosys run: the Poseidon and MSM tops take hours)."""
    fig = {"dsp": 4660, "lut": lut, "lut_sites": 812345, "ff": 1200345, "srl": 10, "lutram": 20, "carry4": 3000,
           "bram36": 12, "uram": 0, "lut_levels": 4, "carry_bits": 68}
    return {"top": top, **fig, "deepest_module": "MontgomeryMul",
            "modules": {name: {"instances": k, **{f: v // k for f, v in fig.items()}} for name, k in modules.items()}}


def _poseidon_with_synth(report, lut: int = 981234) -> dict:
    p = json.loads((report / "poseidon.json").read_text())
    p["top"] = "PoseidonAxis_c1100"
    p["synth"] = _synth_fixture(p["top"], {p["top"]: 1, "MontgomeryMul": 6, "ExpandedConstMul": 20}, lut)
    return p


def _msm_with_synth(report, lut: int = 981234) -> dict:
    m = json.loads((report / "msm.json").read_text())
    m["synth"] = _synth_fixture("MsmAxis_vu9p", {"MsmAxis_vu9p": 1, "TwistedEdwardsAdder": 1, "MontgomeryMul": 7}, lut)
    m["memory"] = {"bucket_bits": 67926 * 4 * 377, "uram288": 462}
    return m


def test_synth_parts_render(report, tmp_path):
    p = _poseidon_with_synth(report)
    md, figs = sections.poseidon(p, tmp_path)
    # DSP48E2 | LUT | SRL | LUT per DSP (981,234 / 4,660 = 210.6) | LUT6 sites | FF | BRAM36
    assert "| Montgomery multiplier (x6) | 776 |" in md and "| constant multiplier (x20) | 233 |" in md
    assert "| 4,660 | 981,234 | 10 | 211 | 812,345 | 1,200,345 | 12 |" in md
    assert f"{anchors.TRIDENT['lut']:,} LUT" in md and figs["synth"]["lut_sites"] == 812345
    assert "TARGET MISSED: PoseidonAxis_c1100: 981,234 LUT on 4,660 DSP48E2, 211 per DSP > 110" in md
    md, _ = sections.poseidon(_poseidon_with_synth(report, lut=4660 * 110), tmp_path)
    assert "TARGET MISSED" not in md and "Area target met: the whole `PoseidonAxis_c1100` at most 110 LUT" in md
    m = _msm_with_synth(report)
    md, figs = sections.msm(m, tmp_path)
    assert "| adder (7 multipliers + 6 add/sub) | 4,660 | 981,234 | 10 | 211 |" in md
    assert "| Montgomery multiplier (x7) | 665 | 140,176 | 1 | 211 |" in md
    assert "462 URAM288" in md and "deepest register-to-register logic in `MontgomeryMul`" in md
    assert "TARGET MISSED: the adder (TwistedEdwardsAdder) uses 981,234 LUT > 340,000" in md
    assert "TARGET MISSED: MsmAxis_vu9p uses 981,234 LUT > 800,000" in md
    md, _ = sections.msm(_msm_with_synth(report, lut=340_000), tmp_path)
    assert "TARGET MISSED: the adder" not in md and "Area targets met: each adder" in md
    # the adder's LUT cap is BLS12-377's; the other curves' tops are bounded by their share of the device and SLRs
    from zkspinal.bench import msm as bench_msm

    syn = {"top": "MsmAxis_bls12_381_vu9p", "lut": 420_223, "dsp": 4_400, "modules": {"XyzzAdder": {"lut": 383_134}}}
    assert bench_msm.area_verdicts(syn, 440, "vu9p", "bls12_381_g1") == []
    assert bench_msm.area_verdicts(syn, 440, "vu9p") == ["the adder (XyzzAdder) uses 383,134 LUT > 340,000"]
    assert "each adder" not in bench_msm.area_targets_text("vu9p", "bls12_381_g1")


def test_area_table(report):
    """Our rows (yosys) with LUT / DSP48E2 rounded, then the three published rows; rows without data left out."""
    field = json.loads((report / "field.json").read_text())
    results = {"field": field, "poseidon": _poseidon_with_synth(report), "msm": _msm_with_synth(report)}
    md, figs = sections.area(results)
    rows = figs["rows"]
    ours = [r for r in rows if not r["published"]]
    assert [r["design"] for r in ours] == [
        "255-bit Montgomery multiplier (`MontMul_bls12_381_fr`)",
        "MSM adder (`TwistedEdwardsAdder`: 7 multipliers + 6 add/sub)",
        "`MsmAxis_vu9p` (whole MSM engine)", "`PoseidonAxis_c1100` (whole Poseidon top)"]
    mont = next(r for r in field["rows"] if r["core"] == "MontMul")
    assert (ours[0]["dsp"], ours[0]["lut"], ours[0]["srl"]) == (mont["dsp"], mont["lut"], mont["srl"])
    for r in rows:
        assert r["lut_per_dsp"] == round(r["lut"] / r["dsp"]), r
        srl = "in LUT" if r["published"] else f"{r['srl']:,}"
        assert f"| {r['dsp']:,} | {r['lut']:,} | {srl} | {r['lut_per_dsp']:,} |" in md, r
    assert ours[1]["lut_per_dsp"] == 211
    published = [(r["dsp"], r["lut"], r["lut_per_dsp"]) for r in rows if r["published"]]
    assert published == [(2999, 387166, 129), (1376, 167533, 122), (4108, 533050, 130)]
    assert all(a["source"] in md for a in anchors.AREA)
    assert md.index("MsmAxis_vu9p") < md.index(anchors.AREA[0]["design"])
    # the quick report has no whole-top yosys runs: only the field's multiplier among our rows
    quick = json.loads((report / "report.json").read_text())["figures"]["area"]["rows"]
    assert [r["design"] for r in quick if not r["published"]] == [ours[0]["design"]]
    assert sum(r["published"] for r in quick) == 3


def test_field_figures(report):
    from zkspinal.bench.field import area_target

    rows = json.loads((report / "report.json").read_text())["figures"]["field"]["rows"]
    assert rows
    for r in rows:
        assert r["latency"] > 0 and 0.99 <= r["ops_per_cycle"] <= 1.0, r
        assert r["lut_per_dsp"] == (round(r["lut"] / r["dsp"]) if r["dsp"] else None), r
        assert r["dsp_cascaded"] == r["cascade_links"], r
    montmul = [r for r in rows if r["name"].startswith("MontMul_")]
    dsp, lut = area_target("MontMul", 255)
    assert montmul and all(0 < r["dsp"] <= dsp and r["lut"] <= lut for r in montmul), montmul
    md = (report / "report.md").read_text()
    head = ("| field | bits | core | latency (cycles) | ops/cycle | DSP48E2 | LUT | LUT per DSP | "
            "LUT (generator's model) | SRL | FF | CARRY4 | cascaded DSP links | LUT levels | carry chain (bits) |")
    assert head in md
    assert "LUT counts LUT1..LUT6 and SRL the shift registers yosys maps into LUTs" in md
    assert "All field targets met." in md or "TARGET MISSED:" in md


def test_keccak_projection_consistent(report):
    k = json.loads((report / "report.json").read_text())["figures"]["keccak"]
    for u in k["units"]:
        assert u["cycles_per_perm"] > 0
        # the projection is the stated clock divided by the measured cycles
        assert u["perms_per_s_unit"] == pytest.approx(k["mhz"] * 1e6 / u["cycles_per_perm"], rel=1e-9)
        assert u["lut_unit"] > 0
    # more rounds per cycle never takes more cycles per permutation
    cycles = [u["cycles_per_perm"] for u in sorted(k["units"], key=lambda u: u["rpc"])]
    assert cycles == sorted(cycles, reverse=True)
    assert k["cpu_rate"] > 0


def test_cpu_baselines(report):
    f = json.loads((report / "report.json").read_text())["figures"]
    assert all(r["hash_per_s"] > 0 for r in f["poseidon-model"]["rows"])
    assert all(r["convert_points_per_s"] > 0 and r["arkworks_msm_s"] > 0 for r in f["msm-host"]["rows"])
    assert all(v > 0 for v in f["host"]["stages"].values())


def test_readme_section_splices_report(report, tmp_path):
    fake = tmp_path / "README.md"
    fake.write_text(f"# x\n{readme.BEGIN}\nSECTION-BEFORE-SPLICE\n{readme.END}\ntail\n")
    assert readme.main(["--report", str(report / "report.md"), "--readme", str(fake)]) == 0
    text = fake.read_text()
    assert "SECTION-BEFORE-SPLICE" not in text and text.endswith("tail\n")
    for heading in ("### Field arithmetic", "### Poseidon (PoseidonAxis)", "### MSM bucket engine",
                    "### Area: LUTs per DSP", "### Published anchors"):
        assert heading in text, heading
    assert "`build/bench/poseidon_rate_vs_dsp.png`" in text and "`build/bench/msm_busy_over_time.png`" in text
    assert readme.main(["--report", str(report / "report.md"), "--readme", str(fake), "--check"]) == 0


def test_hier_depth_covers_submodules():
    """A module's deepest logic in the hierarchical result includes its submodules' (the MSM adder is as deep as
    its Montgomery multipliers); its own logic's depth stays beside it."""
    from zkspinal.synth import hier as hier_synth
    stat = "\n".join(["=== Adder ===", "", "     LUT2                            4", "     Mul                             7",
                      "", "=== Mul ===", "", "     LUT6                          900", "", "=== Top ===", "",
                      "     Adder                           1", "     LUT3                            9", "",
                      "=== design hierarchy ===", "", "     Top                             1",
                      "       Adder                         1", "         Mul                         7"])
    mods = {"Top": {"instances": 1, "lut_levels": 2, "carry_bits": 16},
            "Adder": {"instances": 1, "lut_levels": 1, "carry_bits": 0},
            "Mul": {"instances": 7, "lut_levels": 4, "carry_bits": 68}}
    result = {"top": "Top", "lut_levels": 4, "carry_bits": 68, "deepest_module": "Mul", "modules": mods}
    flat = {"lut_levels": 3, "carry_bits": 12, "chains_per_path": 1}
    out = hier_synth.merge(result, flat, stat)
    m = out["modules"]
    assert (m["Adder"]["lut_levels"], m["Adder"]["carry_bits"]) == (4, 68)
    assert (m["Adder"]["own_lut_levels"], m["Adder"]["own_carry_bits"]) == (1, 0)
    assert (m["Top"]["lut_levels"], m["Top"]["carry_bits"]) == (4, 68) and m["Mul"]["lut_levels"] == 4
    assert (out["lut_levels"], out["chains_per_path"], out["deepest_module"]) == (4, 1, "Mul")


def test_readme_merge_replaces_only_the_reports_sections():
    """`bench readme --merge`: the report's sections replace the README's (stamped with the report's revision), the
    others stay, and the area table keeps its other rows while the report's rows replace or join them."""
    row = "| {} | {} | 1 | {} | 3 | 2 |"
    old = "\n".join(["Measured A.", "", "### Field arithmetic", "", "field rows", "", "### Poseidon (PoseidonAxis)",
                     "", "old rows", "", readme.AREA, "", row.format("mm", "zkspinal, yosys", 10),
                     row.format("`P`", "zkspinal, yosys", 20), row.format("T", "Vivado, published", 30), "",
                     readme.ANCHORS, "", "anchors"])
    report = "\n".join(["Measured B with `./run.sh bench --only poseidon`.", "", "### Poseidon (PoseidonAxis)", "",
                        "new rows", "", "### PC2 of one 32 GiB sector (Poseidon)", "", "pc2 rows", "", readme.AREA,
                        "", row.format("`P`", "zkspinal, yosys", 21), row.format("`Q`", "zkspinal, yosys", 22),
                        row.format("T", "Vivado, published", 30), "", readme.ANCHORS, "", "anchors"])
    merged = readme.merge(old, report)
    assert "field rows" in merged and "old rows" not in merged and "new rows" in merged and "pc2 rows" in merged
    assert merged.count("_Measured B with `./run.sh bench --only poseidon`._") == 2
    rows = [line for line in merged.splitlines() if line.startswith("| ")]
    assert rows == [row.format("mm", "zkspinal, yosys", 10), row.format("`P`", "zkspinal, yosys", 21),
                    row.format("`Q`", "zkspinal, yosys", 22), row.format("T", "Vivado, published", 30)]
    assert merged.index("### PC2") < merged.index(readme.AREA) < merged.index(readme.ANCHORS)
    assert readme.merge(merged, report) == merged  # merging the same report again changes nothing


def test_readme_merge_keeps_the_other_engines_per_curve():
    """`bench readme --merge` of a report measuring some engines: in "MSM per curve" the report's rows replace the
    README's rows of the same engine, the others stay, each group under the stamp of the run that measured it, and a
    report without BN254 or BLS12-381 rows does not put its "none in this run" line over rows the README keeps."""
    head = "| curve | board, clock | engine | 2^26 bucket phase |"
    row = "| {} | vu9p | `{}` | {} s |"

    def per_curve(rows, text):
        return "\n".join([readme.CURVES, "", head, "|---|---|---|---|", *rows, "", text, ""])

    old = "\n".join(["Measured A.", "", per_curve([row.format("BLS12-377 G1", "E377", 2.4)], sections.NO_CURVES + "."),
                     readme.AREA, "", "area"])
    old = readme.merge(old, "\n".join(["Measured A with `--only msm`.", "",
                                       per_curve([row.format("BLS12-377 G1", "E377", 2.4)],
                                                 sections.NO_CURVES + ".")]))
    curves = "\n".join(["Measured B with `--only msm-curves`.", "",
                        per_curve([row.format("BN254 G1", "E254", 2.3), row.format("BLS12-381 G1", "E381", 4.8)],
                                  "Every curve's targets met.")])
    merged = readme.merge(old, curves)
    rows = [line for line in merged.splitlines() if line.startswith("| ") and "curve |" not in line]
    assert rows == [row.format("BLS12-377 G1", "E377", 2.4), row.format("BN254 G1", "E254", 2.3),
                    row.format("BLS12-381 G1", "E381", 4.8)]
    assert "_`E377`: Measured A with `--only msm`._" in merged
    assert "_`E254`, `E381`: Measured B with `--only msm-curves`._" in merged
    assert "Every curve's targets met." in merged and sections.NO_CURVES not in merged
    assert readme.merge(merged, curves) == merged  # merging the same report again changes nothing
    # BLS12-377 measured again: its row and stamp change, the curves' rows keep theirs and their verdict
    again = readme.merge(merged, "\n".join(["Measured C with `--only msm`.", "",
                                            per_curve([row.format("BLS12-377 G1", "E377", 2.3)],
                                                      sections.NO_CURVES + ".")]))
    assert row.format("BLS12-377 G1", "E377", 2.3) in again and row.format("BN254 G1", "E254", 2.3) in again
    assert "_`E377`: Measured C with `--only msm`._" in again
    assert "_`E254`, `E381`: Measured B with `--only msm-curves`._" in again
    assert "Every curve's targets met." in again and sections.NO_CURVES not in again
    assert again.index(readme.CURVES) < again.index(readme.AREA)


def test_report_reuses_measured_cores(report, tmp_path):
    """`bench report --only A,B --reuse A,B`: the cores' JSON of an earlier run reported as it is, nothing measured
    again; the report names the command and the sections of those cores only."""
    out = tmp_path / "bench"
    shutil.copytree(report, out)
    (out / "report.md").unlink()
    from zkspinal.bench import report as rep
    assert rep.main(["--quick", "--out", str(out), "--only", "poseidon-model,poseidon",
                     "--reuse", "poseidon-model,poseidon", "--jobs", "0"]) == 0
    md = (out / "report.md").read_text()
    assert "`./run.sh bench --quick --only poseidon-model,poseidon`" in md
    assert "## Poseidon (PoseidonAxis)" in md and "## PC2 of one 32 GiB sector" in md and "## MSM" not in md
    # each reused section names when its JSON was written, not when the report was rendered
    stamp = datetime.datetime.fromtimestamp((out / "poseidon.json").stat().st_mtime, datetime.timezone.utc)
    assert md.count("_(an earlier run, ") == 2
    assert f"_(an earlier run, {stamp:%Y-%m-%d %H:%M} UTC;" in md


def test_depth_stops_at_lutram_and_names_a_loop():
    """The depth walk (zkspinal.synth.yosys._depth): a LUTRAM whose written data comes from its own read (a
    read-modify-write) ends a path like a register, and a real combinational loop raises, naming a cell of it (it
    used to grow the walk's stack until memory ran out)."""
    from zkspinal.synth import yosys as ys

    def cell(t, ins, outs):
        return {"type": t, "port_directions": {**{p: "input" for p in ins}, **{p: "output" for p in outs}},
                "connections": {**ins, **outs}}
    ram = {"cells": {"ram": cell("RAM256X1D", {"D": [5], "A": [1]}, {"DPO": [4]}),
                     "lut": cell("LUT2", {"I0": [4]}, {"O": [5]}),
                     "ff": cell("FDRE", {"D": [4]}, {"Q": [6]})}, "ports": {}}
    assert ys._depth(ram)["lut_levels"] == 1
    loop = {"cells": {"a": cell("LUT2", {"I0": [3]}, {"O": [2]}), "b": cell("LUT2", {"I0": [2]}, {"O": [3]}),
                      "ff": cell("FDRE", {"D": [3]}, {"Q": [4]})}, "ports": {}}
    with pytest.raises(ValueError, match="combinational loop through LUT2"):
        ys._depth(loop)


def test_fit_table_renders(tmp_path):
    """A whole top's use of its board renders as a table; an overflow and a missed budget target are named."""
    from zkspinal.synth import fit

    rows = fit.table("c1100", {"lut": 500_000, "ff": 600_000, "dsp": 5_250, "bram36": 1_300, "uram": 516})
    md = "\n".join(sections._fit_lines({"board": "c1100", "tops": {"PoseidonAxis_pc2": rows}}))
    assert "| `PoseidonAxis_pc2` | part | 500,000 = 57.4 % (64.5 % with platform) |" in md
    assert ("TARGET MISSED: PoseidonAxis_pc2 does not fit c1100 (part): BRAM36 1,300 + platform 100 = 1,400 > "
            "1,344.") in md and "**1,300 = 96.7 % (104.2 % with platform): does not fit**" in md
    assert "the core's BRAM36 96.7 % > 90 %" in md and "core + platform LUT6 sites + SRL 64.5 % > 55 %" in md
    assert "URAM288 80.6 % >" not in md  # 516 / 640 = 80.6 %: within the target, not named
    ok = fit.table("c1100", {"lut": 300_000, "ff": 600_000, "dsp": 5_250, "bram36": 1_100, "uram": 516})
    md = "\n".join(sections._fit_lines({"board": "c1100", "tops": {"PoseidonAxis_pc2": ok}}))
    assert "TARGET MISSED" not in md and "Every top fits the c1100 part; budget targets met" in md


def _curve_run(top: str, curve: str, board: str, one_s: float, busy: float, synth: dict | None = None,
               lut_rows: list | None = None, missed: list | None = None) -> dict:
    """A `bench msm` JSON as msm_curves keeps it: one random 2^14 row, one half-ones row from the point store."""
    row = {"points": 1 << 14, "npow": 14, "additions": 1, "cycles": 2, "acc_cycles": 1, "stalls": 0, "deferred": 0, "busy_frac": 0.99,
           "checked": True}
    run = {"top": top, "curve": curve, "board": board, "mhz": 278.0 if board == "vu9p" else 250.0, "adders": 2,
           "adder_latency": 182, "layout": "13,12", "buckets": 10, "projection": {"one_s": one_s, "from": "random 2^14",
                                                                                   "cycles_2_26": 1, "bound_s": 1.0},
           "rows": [{**row, "set": "random", "source": "stream", "adder_busy_frac": [busy, 0.995]},
                    {**row, "set": "half_ones", "source": "store", "npow": 12, "adder_busy_frac": [0.98, 0.97]}],
           "missed": missed or []}
    if synth:
        run["synth"] = synth
        run["fit"] = {"board": board, "tops": {top.removesuffix("_model"): lut_rows}}
    return run


def test_msm_per_curve_renders():
    """The README's row per curve: the projection, the lowest adder's busy figures, and (when synthesized) DSP, the
    LUT share of the part and of the fullest SLR with their targets; a miss of any curve is named, a row without
    its yosys run says so instead of claiming the area targets."""
    from zkspinal.synth import fit

    syn = {"top": "MsmAxis_bn254_vu9p", "dsp": 4_400, "lut": 1, "srl": 0, "lut_sites": 1, "ff": 1, "bram36": 0,
           "uram": 400, "lut_levels": 6, "carry_bits": 68, "deepest_module": "MsmLane"}
    rows = fit.table("vu9p", {"lut": 400_000, "ff": 1, "dsp": 4_400, "bram36": 0, "uram": 400},
                     {"SLR0": {"lut": 150_000, "ff": 1, "dsp": 2_100, "bram36": 0, "uram": 200},
                      "SLR1": {"lut": 100_000, "ff": 1, "dsp": 200, "bram36": 0, "uram": 0},
                      "SLR2": {"lut": 150_000, "ff": 1, "dsp": 2_100, "bram36": 0, "uram": 200}})
    runs = [_curve_run("MsmAxis_bn254_vu9p_model", "bn254_g1", "vu9p", 2.434, 0.9923, syn, rows),
            _curve_run("MsmAxis_bls12_381_vu9p_model", "bls12_381_g1", "vu9p", 5.2, 0.9962,
                       missed=["one 2^26 bucket phase 5.200 s > 5.0 s"])]
    md, figs = sections.msm_per_curve({"msm-curves": {"runs": runs}})
    lines = md.splitlines()
    bn = next(line for line in lines if line.startswith("| BN254 G1"))
    assert "| vu9p, 278 MHz | `MsmAxis_bn254_vu9p` | 2 x 182 | 2.434 s (<= 2.5 s) | 99.23% (>= 99%) |" in bn
    assert "| 97.00% (>= 90%) | 4,400 (<= 6,100) |" in bn and "6 levels, 68-bit chain" in bn
    slr1 = next(r for r in rows if r["resource"] == "lut" and r["scope"] == "SLR1")
    assert f"/ SLR1 {slr1['percent']:.1f} % (<= 55 %)" in bn  # the shell's SLR holds the platform: the fullest
    bls = next(line for line in lines if line.startswith("| BLS12-381 G1"))
    assert "5.200 s (<= 5.0 s)" in bls and bls.count("not synthesized") == 3
    assert "TARGET MISSED: one 2^26 bucket phase 5.200 s > 5.0 s." in md
    assert figs["rows"][0]["dsp"] == 4_400 and figs["rows"][1]["dsp"] is None
    md, _ = sections.msm_per_curve({"msm-curves": {"runs": runs[:1]}})
    assert "Every curve's targets met" in md and "not measured in this run" not in md
    assert sections.msm_per_curve({}) is None
    # the BLS12-377 row alone (a report without `bench msm-curves`) claims nothing of the other curves
    eng = {"top": "MsmAxis_vu9p_model", "curve": "bls12_377_g1", "board": "vu9p", "mhz": 278, "synth": None,
           "rows": [], "projection": None}
    md, _ = sections.msm_per_curve({"msm": {**runs[0], **eng}})
    assert "No BN254 or BLS12-381 engine in this run" in md and "Every curve's targets met" not in md
    detail, _ = sections.msm_curves({"runs": [runs[0], {**runs[1], "missed": []}]}, None)
    assert "### `MsmAxis_bn254_vu9p_model` (BN254 G1, vu9p, 278 MHz)" in detail
    assert "the real top was not synthesized in this run" in detail


def test_groth16_row():
    """The Groth16 row: the card's four G1 MSMs from the engine's random-set cycles (accumulate cycles per point times
    the query's length plus the fixed cycles, at the board clock), PCIe at 12.5 GB/s for the scalars and the
    read-out, four post-processings; the host's synthesis and witness map; B in G2 meanwhile (the longer counts)"""
    run = {"log2": 20, "threads": 2, "constraints": 1_000_000, "projected": False, "setup_s": 100.0, "prove_s": 60.0,
           "synthesize_s": 4.0, "witness_map_s": 6.0, "post_s": 0.5, "readout_records": 79_130,
           "sizes": {"a": 1_000_000, "b": 1_000_000, "l": 999_000, "h": 1_048_575},
           "msm_s": {"a": 8.0, "b": 8.0, "l": 8.0, "h": 9.0, "g2": 20.0}}
    one = {**run, "threads": 1, "prove_s": 110.0}
    eng = {"top": "MsmAxis_vu9p_model", "curve": "bls12_377_g1", "board": "vu9p", "mhz": 250, "buckets": 70_682,
           "partials": 8_448, "rows": [{"set": "random", "points": 16_384, "cycles": 16_384 * 10 + 300_000,
                                        "acc_cycles": 16_384 * 10}]}
    md, figs = sections.groth16({"groth16": {"curve": "bls12_377", "runs": [run, one]}, "msm": eng})
    row = figs["rows"][0]
    phases = sum((10 * n + 300_000) / 250e6 for n in run["sizes"].values())
    pcie = sum(n * 32 + (70_682 + 8_448) * 192 for n in run["sizes"].values()) / 12.5e9
    assert abs(row["card_g1_s"] - (phases + pcie + 4 * 0.5)) < 1e-9
    assert abs(row["card_proof_s"] - (10.0 + 20.0)) < 1e-9  # B in G2 (20 s) outlasts the card's G1 MSMs
    assert "| 2^20 (1,000,000) | 110.00 s | 60.00 s |" in md and "| 30.000 s | 2.0x |" in md
    assert sections.groth16({}) is None
    md, _ = sections.groth16({"groth16": {"curve": "bn254", "runs": [run]}, "msm": eng})
    assert "no `bench msm` run of this curve's VU9P engine" in md
