"""The report's section for each benchmark: a Markdown table (with the anchors beside the measured figures), the
figures the smoke test checks, and the plots.

render(core, data, out) -> (markdown, figures); `data` is what the core's benchmark wrote with --json.
"""
from __future__ import annotations

import os
from pathlib import Path

from zkspinal.bench import anchors


def _plot():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _verdict(misses: list[str], met: str) -> str:
    """The report's line for a benchmark's target checks: each miss, or `met` when there is none."""
    return " ".join(f"TARGET MISSED: {m}." for m in misses) if misses else met


def field(data: dict, out: Path) -> tuple[str, dict]:
    from zkspinal.bench.field import markdown, verdicts

    rows = data["rows"]
    md = "## Field arithmetic\n\n" + markdown(rows, data["sim"])
    if any("dsp" in r for r in rows):
        md += "\n\n" + _verdict(verdicts(rows), "All field targets met.")
    figs = {"rows": [_field_figures(r) for r in rows]}
    return md, figs


def _field_figures(r: dict) -> dict:
    from zkspinal.bench.field import cascade_links

    synth = {"lut": r["lut"], "srl": r["srl"], "lut_per_dsp": anchors.lut_per_dsp(r["lut"], r["dsp"]),
             "dsp_cascaded": r["dsp_cascaded"]} if "dsp" in r else {}
    return {"name": f"{r['core']}_{r['field']}", "latency": r["latency_cycles"], "ops_per_cycle": r["ops_per_cycle"],
            "dsp": r.get("dsp"), "cascade_links": cascade_links(r), **synth}


def keccak(data: dict, out: Path) -> tuple[str, dict]:
    mhz = data["mhz"]
    units = data["units"]
    has_synth = any("lut_unit" in u for u in units)
    head = ["rounds/cycle", "cycles/perm/unit", f"M perm/s per unit @ {mhz:.0f} MHz"]
    if has_synth:
        head += ["LUT/unit", "FF/unit", "LUT levels", "units in a KU060", "G perm/s", "x SNAP"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for u in units:
        cells = [str(u["rpc"]), f"{u['cycles_per_perm']:.3f}", f"{u['perms_per_s_unit'] / 1e6:.2f}"]
        if has_synth:
            cells += [f"{u['lut_unit']:.0f}", f"{u['ff_unit']:.0f}", str(u["lut_levels"]), str(u["units_fit"]),
                      f"{u['perms_per_s'] / 1e9:.3f}", f"{u['perms_per_s'] / anchors.SNAP['perm_per_s']:.2f}"]
        lines.append("| " + " | ".join(cells) + " |")
    cpu = data["cpu"]
    lines += ["", f"CPU program on this machine: {cpu['rate_1_thread'] / 1e6:.2f} M perm/s (1 thread), "
                  f"{cpu['rate_all_threads'] / 1e6:.2f} M perm/s ({cpu['threads']} threads). "
                  f"{anchors.SNAP['source']}: {anchors.SNAP['perm_per_s'] / 1e6:.1f} M perm/s "
                  f"({anchors.SNAP['units']} units), its CPU {anchors.SNAP['cpu_perm_per_s'] / 1e6:.2f} M/s."]
    figs = {"mhz": mhz, "units": [{"rpc": u["rpc"], "cycles_per_perm": u["cycles_per_perm"],
                                   "perms_per_s_unit": u["perms_per_s_unit"], "lut_unit": u.get("lut_unit")}
                                  for u in units], "cpu_rate": cpu["rate_all_threads"]}
    if has_synth:
        plt = _plot()
        fig, ax = plt.subplots(figsize=(6, 4))
        xs = [u["lut_unit"] for u in units]
        ys = [u["perms_per_s_unit"] / 1e6 for u in units]
        ax.plot(xs, ys, "o-")
        for u, x, y in zip(units, xs, ys):
            ax.annotate(f"r{u['rpc']}", (x, y), textcoords="offset points", xytext=(4, 4))
        ax.set_xscale("log"), ax.set_yscale("log")
        ax.set_xlabel("LUTs per test_speed unit (yosys)")
        ax.set_ylabel(f"M permutations/s per unit @ {mhz:.0f} MHz")
        ax.set_title("Keccak-f[1600]: rate against LUTs per rounds-per-cycle setting")
        ax.grid(True, which="both", alpha=0.3)
        fig.tight_layout()
        fig.savefig(out / "keccak_rate_vs_luts.png", dpi=110)
        plt.close(fig)
        lines += ["", "![Keccak rate against LUTs](keccak_rate_vs_luts.png)"]
    return "## Keccak-f[1600] test_speed units\n\n" + "\n".join(lines), figs


def poseidon_model(data: list, out: Path) -> tuple[str, dict]:
    lines = ["| arity | t | what | products/hash | hash/s |", "|---|---|---|---|---|"]
    for r in data:
        lines.append(f"| {r['arity']} | {r['t']} | {r['what']} | {r['products']} | {r['hash_per_s']:,.0f} |")
    figs = {"rows": [{"arity": r["arity"], "what": r["what"], "hash_per_s": r["hash_per_s"]} for r in data]}
    return ("## Poseidon golden model and neptune on this CPU\n\n" + "\n".join(lines) +
            "\n\nThe CPU baseline a user would otherwise run is the neptune row (Rust, one process)."), figs


def msm_host(data: list, out: Path) -> tuple[str, dict]:
    lines = ["| points | buckets | conversion (points/s) | post-processing (s) | arkworks full MSM (s) |",
             "|---|---|---|---|---|"]
    for r in data:
        lines.append(f"| {r['points']:,} | {r['buckets']:,} | {r['convert_points_per_s']:,.0f} | {r['post_s']:.4f} | "
                     f"{r['arkworks_msm_s']:.4f} |")
    h = anchors.HARDCAML
    lines += ["", f"{h['source']} host: conversion {h['points'] / h['host_convert_s']:,.0f} points/s, "
                  f"post-processing {h['host_post_s']} s per 2^26 MSM."]
    figs = {"rows": [{"points": r["points"], "convert_points_per_s": r["convert_points_per_s"],
                      "post_s": r["post_s"], "arkworks_msm_s": r["arkworks_msm_s"]} for r in data]}
    return "## MSM host side (BLS12-377 G1)\n\n" + "\n".join(lines), figs


def host(data: dict, out: Path) -> tuple[str, dict]:
    lines = ["| stage | M elements/s per core (CPU time) | M elements/s (wall) |", "|---|---|---|"]
    for k, r in data["stages"].items():
        lines.append(f"| {k} | {r['per_cpu_s'] / 1e6:.1f} | {r['per_wall_s'] / 1e6:.1f} |")
    lines += ["", "Target: at least 50 M elements/s per core, so the host never starves a card."]
    figs = {"stages": {k: r["per_cpu_s"] for k, r in data["stages"].items()}}
    return "## Host formatting cost (sw/lib)\n\n" + "\n".join(lines), figs


def _synth_rows(rows: list[tuple[str, dict]]) -> list[str]:
    """Markdown rows of yosys figures (hier_synth.run's keys) for (label, figures) pairs."""
    head = ["", "DSP48E2", "LUT", "SRL", "LUT per DSP", "LUT6 sites", "FF", "BRAM36", "URAM", "deepest logic"]
    out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for label, r in rows:
        depth = f"{r['lut_levels']} LUT levels, {r['carry_bits']}-bit carry chain"
        if "depth_pass" in r:  # a whole top's flattened pass counts carry chains along one path (a module's own
            # chains_per_path leaves out its submodules, unlike its levels and chain bits)
            depth += f", at most {r['chains_per_path']} chain(s) on one path"
        out.append(f"| {label} | {r['dsp']:,} | {r['lut']:,} | {r['srl']:,} | {_ratio(r['lut'], r['dsp'])} | "
                   f"{r['lut_sites']:,} | {r['ff']:,} | {r['bram36']:,} | {r['uram']:,} | {depth} |")
    return out


def _fit_lines(fits: dict | None) -> list[str]:
    """The utilization table of the whole tops a benchmark synthesized, against their board's part and SLRs
    (zkspinal/synth/fit.py, vivado/fit/budgets.tsv), with the budget verdict."""
    if not fits or not fits.get("tops"):
        return []
    from vivado_stub.budgets import NAMES, RESOURCES
    from zkspinal.synth.fit import budget_targets_text, target_misses

    board = fits["board"]
    head = ["top", "scope"] + [NAMES[r] for r in RESOURCES]
    out = ["", f"Use of the {board} part by each whole top (yosys figures; with the platform's share of "
               f"`vivado/fit/budgets.tsv` added; the figures are recorded in `vivado/fit/records.tsv`, which the "
               f"Vivado build checks):", "", "| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    misses = []
    for top, rows in fits["tops"].items():
        for scope in dict.fromkeys(r["scope"] for r in rows):
            cells = []
            for r in (x for x in rows if x["scope"] == scope):
                cell = f"{r['core']:,} = {r['core_percent']:.1f} % ({r['percent']:.1f} % with platform)"
                cells.append(cell if r["fits"] else f"**{cell}: does not fit**")
            out.append(f"| `{top}` | {scope} | " + " | ".join(cells) + " |")
        misses += target_misses(top, board, rows)
    out += ["", _verdict(misses, f"Every top fits the {board} part; budget targets met ({budget_targets_text()}).")]
    return out


def _memory_lines(syn: dict) -> list[str]:
    """Where a whole top's memories went (hier_synth.memories): the ones in block RAM or UltraRAM, memories of one
    module with the same width, copies and primitives per memory on one row (their depths as a range)."""
    rows = [r for r in syn.get("memories") or [] if r["bram36"] or r["uram"]]
    if not rows:
        return []
    groups: dict[tuple, list[dict]] = {}
    for r in rows:
        groups.setdefault((r["module"], r["width"], r["copies"], r["bram36"], r["uram"]), []).append(r)
    out = ["", f"Memories of `{syn['top']}` in block RAM or UltraRAM (yosys' mapping; width x depth of one memory, "
               f"copies: one per read port beyond the primitive's; primitives of all its instances; memories of a "
               f"module alike but for their depth on one row):", "",
           "| module | memory | width x depth | copies | instances | BRAM36 | URAM288 |", "|---|---|---|---|---|---|---|"]
    for (module, width, copies, bram, uram), g in groups.items():
        depths = sorted({r["depth"] for r in g})
        depth = str(depths[0]) if len(depths) == 1 else f"{depths[0]}..{depths[-1]}"
        name = f"`{g[0]['memory']}`" if len(g) == 1 else f"{len(g)} memories (`{g[0]['memory']}`, ...)"
        inst = sum(r["instances"] for r in g)
        out.append(f"| `{module}` | {name} | {width} x {depth} | {copies} | {inst} | {bram * inst:g} | {uram * inst} |")
    return out


def _ratio(lut: int, dsp: int) -> str:
    ratio = anchors.lut_per_dsp(lut, dsp)
    return "-" if ratio is None else f"{ratio:,}"


def poseidon(data: dict, out: Path) -> tuple[str, dict]:
    mhz = data["mhz"]
    tr = anchors.TRIDENT
    measured = data.get("measured") or [{"config": data["top"].split("_", 1)[1], "top": data["top"],
                                         "simulated": data["simulated"], "meta": data["meta"],
                                         "arities": data["arities"]}]
    head = ["configuration", "arity", "beats", "cycles/hash", "latency (cycles)", "utilization",
            f"Mhash/s @ {mhz:.0f} MHz", "DSP tiles", "Mhash/s per 1,000 DSP",
            f"{tr['source'].split(' (')[0]} Mhash/s @ {tr['mhz']} MHz", "x TRIDENT", "x TRIDENT per DSP"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    rows = []
    for res in measured:
        meta = res["meta"]
        for m in res["arities"]:
            t_rate = tr["hash_per_s"].get(m["arity"])
            per_kdsp = m["mhash_s"] * 1000 / meta["dsp_tiles"]
            t_cells = ["-", "-", "-"]
            if t_rate:
                t_per_kdsp = t_rate / 1e6 * 1000 / tr["dsp"]
                t_cells = [f"{t_rate / 1e6:.3f}", f"{m['mhash_s'] * 1e6 / t_rate:.2f}", f"{per_kdsp / t_per_kdsp:.2f}"]
            lines.append(f"| {res['config']} ({_shape(meta)}) | {m['arity']} | "
                         f"{m['beats']} | {m['cycles_per_hash']:.2f} | {m['latency']} | {m['utilization']:.1%} | "
                         f"{m['mhash_s']:.3f} | {meta['dsp_tiles']:,} | {per_kdsp:.3f} | " + " | ".join(t_cells) + " |")
            rows.append({"config": res["config"], "arity": m["arity"], "engines": meta["engines"],
                         "members": meta["members"],
                         "beats": m["beats"], "cycles_per_hash": m["cycles_per_hash"], "latency": m["latency"],
                         "utilization": m["utilization"], "mhash_s": m["mhash_s"], "dsp_tiles": meta["dsp_tiles"]})
    sims = ", ".join(f"`{r['simulated']}`" for r in measured)
    lines += ["", f"Configuration = engines x (hashes per ring position, S-box units of 3 Montgomery multipliers, "
                  f"constant product slots); utilization counts both kinds of multiplier. Cycles from Verilator ({sims}: the multiplier model, cycle-identical to the real "
                  f"top), every digest checked against the model; steady-state cycles/hash equal the generator's "
                  f"beats per group program / hashes per group (checked); Mhash/s projected at the stated {mhz:.0f} MHz (no place and route "
                  f"here). DSP tiles: the generator's count of DSP48E2. "
                  f"{tr['source']}: published, {tr['dsp']:,} DSP at {tr['mhz']} MHz."]
    from zkspinal.bench.poseidon import TARGETS, MIN_UTILIZATION, rate_verdicts

    with_targets = [r for r in measured if r["config"] in TARGETS]
    if with_targets:
        def goal(c: str) -> str:
            rates = ", ".join(f"arity {a} >= {v / 1e6:.1f} Mhash/s" for a, v in sorted(TARGETS[c].items()))
            busy = f", >= {MIN_UTILIZATION[c]:.0%} of the multipliers busy" if c in MIN_UTILIZATION else ""
            return f"{c}: {rates}{busy}"
        met = "Rate targets met (" + "; ".join(goal(r["config"]) for r in with_targets) + ")."
        lines += ["", _verdict([m for r in with_targets for m in rate_verdicts(r)], met)]
    syn = data.get("synth")
    figs = {"mhz": mhz, "measured": rows, "synth": None, "sweep": None, "plots": []}
    if syn:
        srows = [(f"`{syn['top']}` (whole top)", syn)] + [(f"`{y['top']}` (whole top)", y)
                                                          for y in data.get("synth_also") or []]
        for mod, what in (("ExpandedConstMul", "constant multiplier"), ("MontgomeryMul", "Montgomery multiplier")):
            mm = syn.get("modules", {}).get(mod)
            if mm:
                srows.insert(0, (f"{what} (x{mm['instances']})", mm))
        lines += ["", f"yosys `synth_xilinx -family xcup`, hierarchical; deepest register-to-register logic in "
                      f"`{syn['deepest_module']}`:", ""] + _synth_rows(srows)
        lines += ["", f"{tr['source']} after Vivado implementation (published): {tr['dsp']:,} DSP, "
                      f"{tr['lut']:,} LUT."]
        lines += ["", " ".join(_poseidon_area_verdict(y) for y in [syn, *(data.get("synth_also") or [])])]
        lines += _fit_lines(data.get("fit"))
        lines += _memory_lines(syn)
        figs["synth"] = {k: syn[k] for k in ("dsp", "lut", "lut_sites", "ff", "bram36", "uram", "lut_levels",
                                             "carry_bits")}
    sw = data.get("sweep")
    if sw:
        figs["sweep"] = {"configs": len(sw["configs"]), "mont_mul_dsp_tiles": sw["mont_mul_dsp_tiles"],
                         "const_mul_dsp_tiles": sw["const_mul_dsp_tiles"]}
        best = []
        for i, arity in enumerate(sw["arities"]):
            t_rate = tr["hash_per_s"].get(arity)
            if not t_rate:
                continue
            ok = [c for c in sw["configs"] if mhz * 1e6 / c["cycles_per_hash"][i] >= t_rate]
            if ok:
                c = min(ok, key=lambda c: (c["dsp_tiles"], c["cycles_per_hash"][i]))
                best.append(f"arity {arity}: {_shape(c)}, {c['dsp_tiles']:,} DSP "
                            f"tiles, {mhz / c['cycles_per_hash'][i]:.3f} Mhash/s")
        lines += ["", f"Generator schedule (`PoseidonSweep`, not simulated: cycles/hash = beats per group / hashes "
                      f"per group) for {len(sw['configs'])} configurations, {sw['mont_mul_dsp_tiles']} DSP tiles per "
                      f"Montgomery multiplier (3 per S-box unit), {sw['const_mul_dsp_tiles']} per constant multiplier. "
                      f"Smallest configuration at least as fast as TRIDENT at {mhz:.0f} MHz: "
                      + ("; ".join(best) if best else "none") + "."]
        _poseidon_plot(measured, sw, mhz, out / "poseidon_rate_vs_dsp.png")
        figs["plots"].append("poseidon_rate_vs_dsp.png")
        lines += ["", "![Poseidon hash rate against DSP budget](poseidon_rate_vs_dsp.png)"]
    return "## Poseidon (PoseidonAxis)\n\n" + "\n".join(lines), figs


PC2_TARGET_MIN = 9.0  # issue 21: Poseidon time of PC2 for one 32 GiB sector on one card


def pc2(results: dict) -> tuple[str, dict] | None:
    """The Poseidon time of Filecoin's PC2 for one 32 GiB sector (zkspinal/bench/pc2.py): every measured Poseidon
    configuration that serves arities 8 and 11, neptune on this CPU (the poseidon-model bench's in-memory rows, one
    thread, scaled to every core) and TRIDENT (published rates).  None without a Poseidon benchmark."""
    from zkspinal.bench import pc2 as work
    from zkspinal.bench.poseidon_model import NEPTUNE_IN_MEMORY

    pos = results.get("poseidon")
    if not pos:
        return None
    tr = anchors.TRIDENT
    mhz = pos["mhz"]
    head = ["hasher", "arity 11 Mhash/s", "arity 8 Mhash/s", "Poseidon time per sector"]
    out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    figs: dict = {"work": {str(a): n for a, n in work.WORK.items()}, "minutes": {}}
    misses = []

    def row(name: str, rates: dict) -> float | None:
        s = work.seconds(rates)
        if s is not None:
            out.append(f"| {name} | {rates[11] / 1e6:.4f} | {rates[8] / 1e6:.4f} | {s / 60:.1f} min |")
        return s

    for res in pos.get("measured") or []:
        s = row(f"`{res['top']}` @ {mhz:.0f} MHz", {m["arity"]: m["mhash_s"] * 1e6 for m in res["arities"]})
        if s is not None:
            figs["minutes"][res["config"]] = s / 60
            if res["top"] == pos["top"] and s / 60 > PC2_TARGET_MIN:  # the target is the bitstream configuration's
                misses.append(f"PC2 on `{res['top']}` takes {s / 60:.1f} min of Poseidon per 32 GiB sector (target "
                              f"<= {PC2_TARGET_MIN:.0f} min)")
    cpu = {r["arity"]: r["hash_per_s"] for r in results.get("poseidon-model") or [] if r["what"] == NEPTUNE_IN_MEMORY}
    cores = os.cpu_count() or 1
    if work.seconds(cpu) is not None:
        figs["minutes"]["neptune_one_core"] = row("neptune 13 on one core of this CPU (measured)", cpu) / 60
        row(f"neptune 13 on this machine's {cores} cores (one core's rate x {cores})",
            {a: r * cores for a, r in cpu.items()})
        cpu_note = ("neptune: `neptune-ref --bench` (OptimizedStatic, MerkleTree preimages, one thread, in memory) "
                    "from the poseidon-model bench; a CPU hashes PC2 on every core, so the second row assumes "
                    "perfect scaling.")
    else:
        cpu_note = "neptune on this CPU: not measured in this run (the poseidon-model bench needs arities 8 and 11)."
    figs["minutes"]["trident"] = row(f"{tr['source'].split(' (')[0]} (published rates, {tr['mhz']} MHz)",
                                     tr["hash_per_s"]) / 60
    md = ["## PC2 of one 32 GiB sector (Poseidon)", "", f"Work: {work.work_text()}. {cpu_note}", "", *out, "",
          _verdict(misses, f"PC2 target met: at most {PC2_TARGET_MIN:.0f} min of Poseidon per sector on one card.")]
    return "\n".join(md), figs


def _shape(m: dict) -> str:
    """engines x (hashes per ring position, S-box units, product slots) of a manifest or sweep entry"""
    return (f"{m['engines']} x ({m['members']} hash{'es' if m['members'] > 1 else ''}, {m['sbox_units']} S-box "
            f"unit{'s' if m['sbox_units'] > 1 else ''}, {m['multipliers_per_engine']} slots)")


def _poseidon_area_verdict(syn: dict) -> str:
    from zkspinal.bench.poseidon import area_targets_text, area_verdicts

    targets = area_targets_text(syn["top"])
    met = (f"Area target met: {targets} ({_ratio(syn['lut'], syn['dsp'])})." if targets
           else f"No area target for `{syn['top']}`.")
    return _verdict(area_verdicts(syn), met)


def _poseidon_plot(measured: list, sw: dict, mhz: float, path: Path) -> None:
    plt = _plot()
    tr = anchors.TRIDENT
    arities = sw["arities"]
    cols = 2
    fig, axes = plt.subplots((len(arities) + cols - 1) // cols, cols, figsize=(10, 7.5), squeeze=False)
    series = sorted({(c["members"], c["sbox_units"]) for c in sw["configs"]})
    cmap = plt.get_cmap("viridis")
    for i, arity in enumerate(arities):
        ax = axes[i // cols][i % cols]
        for k, (g, u) in enumerate(series):
            cs = sorted((c for c in sw["configs"] if (c["members"], c["sbox_units"]) == (g, u)),
                        key=lambda c: c["dsp_tiles"])
            ax.plot([c["dsp_tiles"] for c in cs], [mhz / c["cycles_per_hash"][i] for c in cs], "o-", ms=4, lw=0.8,
                    color=cmap(k / max(1, len(series) - 1)), alpha=0.8,
                    label=f"generator schedule, {g} hash{'es' if g > 1 else ''} per position, {u} S-box unit"
                          f"{'s' if u > 1 else ''}")
        for res in measured:
            m = next((r for r in res["arities"] if r["arity"] == arity), None)
            if m:
                ax.plot([res["meta"]["dsp_tiles"]], [m["mhash_s"]], "*", ms=14, color="tab:red", mec="black",
                        label="measured (Verilator cycles)")
                ax.annotate(res["config"], (res["meta"]["dsp_tiles"], m["mhash_s"]), textcoords="offset points",
                            xytext=(6, -10), fontsize=8)
        t_rate = tr["hash_per_s"].get(arity)
        if t_rate:
            ax.plot([tr["dsp"]], [t_rate / 1e6], "X", ms=11, color="black",
                    label=f"TRIDENT (published, {tr['mhz']} MHz)")
        ax.axvline(5952, color="gray", ls=":", lw=1)
        ax.set_xscale("log"), ax.set_yscale("log")
        ax.set_title(f"arity {arity}")
        ax.set_xlabel("DSP tiles (generator count; dotted: the C1100's 5,952 DSP)")
        ax.set_ylabel(f"Mhash/s projected @ {mhz:.0f} MHz")
        ax.grid(True, which="both", alpha=0.3)
    for j in range(len(arities), axes.size):
        axes[j // cols][j % cols].axis("off")
    handles, labels = axes[0][0].get_legend_handles_labels()
    uniq = dict(zip(labels, handles))
    fig.legend(uniq.values(), uniq.keys(), loc="lower center", ncol=3, fontsize=7)
    fig.suptitle("Poseidon (BLS12-381 Fr): hash rate against DSP budget")
    fig.tight_layout(rect=(0, 0.1, 1, 0.96))
    fig.savefig(path, dpi=110)
    plt.close(fig)


def _runs(layout: str) -> str:
    """'13,13,12' -> '2 x 13 + 1 x 12'."""
    runs: list[list] = []
    for w in layout.split(","):
        if runs and runs[-1][1] == w:
            runs[-1][0] += 1
        else:
            runs.append([1, w])
    return " + ".join(f"{k} x {w}" for k, w in runs)


def msm(data: dict, out: Path) -> tuple[str, dict]:
    mhz = data.get("mhz", anchors.HARDCAML["mhz"])
    h = anchors.HARDCAML
    rows = data["rows"]
    lines = _msm_rows(rows)
    A, S = data.get("adders", 1), data.get("shared_windows", 0)
    placing = (f"windows 0..{S - 1} shared (a copy in each adder, point i's digits on adder i mod {A}), window "
               f"j >= {S} on adder (j - {S}) mod {A}" if S else f"window j on adder j mod {A}")
    lines += ["", f"`{data['top']}` (the multiplier model: cycle-identical to the real engine) in Verilator"
                  + (f", windows {_runs(data['layout'])} bits ({data['buckets']:,} buckets), "
                     f"{A} adder(s) ({placing}) of latency {data['adder_latency']}"
                     if "layout" in data else "")
                  + ". Busy = an adder's additions / (accumulate + flush cycles); stalls = cycles an addition waited "
                    "for room in a retry queue, deferred = additions whose bucket was busy, spilled = additions into "
                    "partial buckets. Every set's buckets (partial records merged) equal the model's as curve "
                    "points. The all-equal, r-1 and alternating sets hold ten hot buckets per adder at once, spread "
                    "over partial buckets; r-1's non-zero digits fall unequally on the adders' windows, so one "
                    "adder has less to do (its lower busy figure is the split, not waiting). Points from the point "
                    "store: loaded into card memory first (memory models: 40 cycles to a read's first beat, 10 % of "
                    "the beats held back), the job streams only scalars."]
    for r in rows:
        if r.get("port_bound_frac") is not None:
            lines += ["", f"{r['set']} 2^{r['npow']}: {r['additions'] / r['points']:.2f} additions per point; the "
                          f"point port (three beats a point) bounds each adder at {r['port_bound_frac']:.1%} busy, "
                          f"and the lowest adder reaches {min(r['adder_busy_frac']) / r['port_bound_frac']:.0%} of "
                          f"that bound."]
    figs = {"mhz": mhz, "rows": [{k: r.get(k) for k in ("set", "source", "npow", "points", "additions", "cycles", "acc_cycles",
                                                        "busy", "busy_frac", "adder_busy_frac", "other_cycles")}
                                 for r in rows],
            "projection": None, "synth": None, "timelines": {}, "plots": []}
    pr = data.get("projection")
    if pr:
        lines += ["", f"| projected at {mhz:g} MHz (from {pr['from']}) | zkspinal | {h['source']} (published, "
                      f"{h['mhz']} MHz) |", "|---|---|---|",
                  f"| bucket phase, one 2^26 MSM | {pr['one_s']:.3f} s ({pr['cycles_2_26']:,} cycles; "
                  f"{pr['bound_s']:.3f} s at 100% busy) | {h['bucket_phase_s']} s |",
                  f"| four 2^26 MSMs end to end | {pr['four_s']:.2f} s (each: max(bucket phase, "
                  f"{pr.get('transfer_s', 0):.2f} s PCIe Gen3 x16), plus the last post-processing"
                  + (f", {pr['post_s']:.3f} s measured" if pr.get("post_s") is not None else "")
                  + f"; points converted once per point set) | {h['four_msm_s']} s |"]
        figs["projection"] = {k: pr.get(k) for k in ("cycles_2_26", "one_s", "four_s", "bound_s", "transfer_s",
                                                      "post_s")}
        figs["projection"]["from"] = pr["from"]
    if rows and "adder_busy_frac" in rows[0]:
        lines += ["", _msm_rate_verdict(rows, pr, data.get("curve", "bls12_377_g1"), data.get("board", "vu9p"))]
    syn = data.get("synth")
    if syn:
        srows = []
        mods = syn.get("modules", {})
        if "MontgomeryMul" in mods:
            srows.append((f"Montgomery multiplier (x{mods['MontgomeryMul']['instances']})", mods["MontgomeryMul"]))
        if "TwistedEdwardsAdder" in mods:
            srows.append(("adder (7 multipliers + 6 add/sub)", mods["TwistedEdwardsAdder"]))
        srows.append((f"`{syn['top']}` (whole engine)", syn))
        lines += ["", f"yosys `synth_xilinx -family xcup`, hierarchical; deepest register-to-register logic in "
                      f"`{syn['deepest_module']}`:", ""] + _synth_rows(srows)
        lines += ["", _msm_area_verdict(syn, (data.get("memory") or {}).get("uram288"), data.get("board", "vu9p"),
                                        data.get("curve", "bls12_377_g1"))]
        lines += _fit_lines(data.get("fit"))
        mem = data.get("memory")
        if mem:
            per = mem.get("uram288_per_adder")
            lines += ["", f"Bucket memories by shape: {mem['bucket_bits'] / 8e6:.1f} MB = {mem['uram288']} URAM288 "
                          + (f"({' + '.join(map(str, per))} per adder; " if per and len(per) > 1 else "(")
                          + "VU9P: 960, 320 per SLR)."]
        figs["synth"] = {k: syn[k] for k in ("dsp", "lut", "lut_sites", "ff", "bram36", "uram", "lut_levels",
                                             "carry_bits")}
    timed = [r for r in rows if r.get("timeline") and r["timeline"]["cycle"]]
    if timed:
        for r in timed:
            tl = r["timeline"]
            figs["timelines"][f"{r['set']}_2^{r['npow']}"] = {"every": tl["every"], "windows": len(tl["cycle"]),
                                                             "min": min(tl["busy_frac"]), "max": max(tl["busy_frac"]),
                                                             "cycle": tl["cycle"], "busy_frac": tl["busy_frac"],
                                                             "adders": tl.get("adders", [tl["busy_frac"]])}
        _msm_plot(timed, out / "msm_busy_over_time.png")
        figs["plots"].append("msm_busy_over_time.png")
        lines += ["", f"Each adder's busy fraction per window of {timed[0]['timeline']['every']:,} cycles (its BUSY "
                      "register read over AXI4-Lite while the job runs, accumulate and flush phases):", "",
                  "![MSM adder-busy fraction over time](msm_busy_over_time.png)"]
    return "## MSM bucket engine (MsmAxis, BLS12-377 G1)\n\n" + "\n".join(lines), figs


def _msm_rows(rows: list) -> list[str]:
    """The table of an MSM benchmark's jobs, one row per scalar set and point source."""
    lines = ["| scalar set | points from | points | additions | cycles | accumulate cycles | busy per adder | stalls | "
             "deferred | spilled | buckets checked |", "|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        busy = " / ".join(f"{b:.2%}" for b in r.get("adder_busy_frac", [r["busy_frac"]]))
        source = "point store" if r.get("source") == "store" else "stream"
        lines.append(f"| {r['set']} | {source} | {r['points']:,} | {r['additions']:,} | {r['cycles']:,} | {r['acc_cycles']:,} | "
                     f"{busy} | {r['stalls']:,} | {r['deferred']:,} | {r.get('spilled', 0):,} | "
                     f"{'yes' if r['checked'] else 'no' if r['checked'] is False else 'not checked'} |")
    return lines


SET_NAMES = {"half_ones": "half-ones", "below16": "below-2^16"}
CURVE_NAMES = {"bls12_377_g1": "BLS12-377 G1", "bn254_g1": "BN254 G1", "bls12_381_g1": "BLS12-381 G1"}


def _curve_row(run: dict) -> tuple[str, dict]:
    """One engine's row of the per-curve summary (a `bench msm` JSON: BLS12-377's or one of msm_curves' runs)."""
    from zkspinal.bench.msm import ENGINE_MAX_DSP, ONE_MSM_MAX_S, RANDOM_MIN_BUSY
    from zkspinal.bench.msm_curves import lut_figures, real_top

    curve, board, mhz = run["curve"], run["board"], run["mhz"]
    pr = run.get("projection") or {}
    rnd = max((r for r in run["rows"] if r["set"] == "random" and r.get("source") == "stream"),
              key=lambda r: r["points"], default=None)
    hot = next((r for r in run["rows"] if r["set"] == "half_ones" and r.get("source") == "store"), None)
    syn, lut = run.get("synth"), lut_figures(run)
    target_s = ONE_MSM_MAX_S.get((curve, board))
    cells = [CURVE_NAMES.get(curve, curve), f"{board}, {mhz:g} MHz", f"`{real_top(run['top'])}`",
             f"{run['adders']} x {run['adder_latency']}",
             f"{pr['one_s']:.3f} s (<= {target_s} s)" if pr else "not measured",
             f"{min(rnd['adder_busy_frac']):.2%} (>= {RANDOM_MIN_BUSY:.0%})" if rnd else "not measured",
             f"{min(hot['adder_busy_frac']):.2%} (>= 90%)" if hot else "not measured",
             f"{syn['dsp']:,} (<= {ENGINE_MAX_DSP[board]:,})" if syn else "not synthesized",
             (f"{lut['part_percent']:.1f} %" + (f" / {lut['slr']} {lut['slr_percent']:.1f} %" if lut["slr"] else "")
              + " (<= 55 %)") if lut else "not synthesized",
             f"{syn['lut_levels']} levels, {syn['carry_bits']}-bit chain" if syn else "not synthesized"]
    figs = {"curve": curve, "board": board, "top": real_top(run["top"]), "one_s": pr.get("one_s"),
            "random_busy": min(rnd["adder_busy_frac"]) if rnd else None,
            "half_ones_store_busy": min(hot["adder_busy_frac"]) if hot else None,
            "dsp": syn["dsp"] if syn else None, "lut_percent": lut["part_percent"] if lut else None,
            "lut_slr_percent": lut["slr_percent"] if lut else None}
    return "| " + " | ".join(cells) + " |", figs


NO_CURVES = "No BN254 or BLS12-381 engine in this run"


def msm_per_curve(results: dict) -> tuple[str, dict] | None:
    """One row per curve and board: the BLS12-377 engine (`bench msm`) and the BN254 / BLS12-381 ones
    (`bench msm-curves`), each against its targets.  None without either benchmark."""
    runs = ([results["msm"]] if results.get("msm") else []) + list((results.get("msm-curves") or {}).get("runs", []))
    if not runs:
        return None
    head = ["curve", "board, clock", "engine", "adders x latency", "2^26 bucket phase", "busy, random",
            "busy, half-ones from store", "DSP48E2", "LUT6 + SRL with platform: part / fullest SLR", "deepest logic"]
    lines = ["## MSM per curve", "", "| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    figs = {"rows": []}
    for run in runs:
        row, fig = _curve_row(run)
        lines.append(row)
        figs["rows"].append(fig)
    others = runs[1 if results.get("msm") else 0:]
    missed = [m for run in others for m in run.get("missed", [])]
    verdict = (_verdict(missed, "Every curve's targets met (BN254 and BLS12-381 rows; BLS12-377's verdicts are in its "
                                "own section)" + ("." if all(run.get("synth") for run in runs) else
                                                  "; the area of the rows marked not synthesized is not measured "
                                                  "in this run."))
               if others else NO_CURVES + " (`./run.sh bench msm-curves` measures them); BLS12-377's verdicts are in "
                                          "its own section.")
    lines += ["", "Projected from the multiplier-model twins' cycles (Verilator) at the board's core clock; busy = the "
                  "lowest adder's additions per accumulate cycle; resources from yosys of the real top "
                  "(hierarchical), with the platform's share of `vivado/fit/budgets.tsv`.  Details: the sections of "
                  "`bench msm` (BLS12-377) and `bench msm-curves` (the others).", "", verdict]
    return "\n".join(lines), figs


def msm_curves(data: dict, out: Path) -> tuple[str, dict]:
    """`bench msm-curves`: per top, its jobs, the real top's yosys figures and its use of the board's part."""
    lines = []
    for run in data["runs"]:
        lines += [f"### `{run['top']}` ({CURVE_NAMES.get(run['curve'], run['curve'])}, {run['board']}, "
                  f"{run['mhz']:g} MHz)", "",
                  f"Windows {_runs(run['layout'])} bits ({run['buckets']:,} buckets), {run['adders']} adder(s) of "
                  f"latency {run['adder_latency']}.", ""] + _msm_rows(run["rows"])
        pr = run.get("projection")
        if pr:
            lines += ["", f"Projected at {run['mhz']:g} MHz (from {pr['from']}): one 2^26 bucket phase "
                          f"{pr['one_s']:.3f} s ({pr['cycles_2_26']:,} cycles; {pr['bound_s']:.3f} s at 100% busy)."]
        syn = run.get("synth")
        if syn:
            mods = syn.get("modules", {})
            srows = [(f"Montgomery multiplier (x{mods['MontgomeryMul']['instances']})", mods["MontgomeryMul"])] \
                if "MontgomeryMul" in mods else []
            if "XyzzAdder" in mods:
                srows.append((f"adder (`XyzzAdder`, x{mods['XyzzAdder']['instances']})", mods["XyzzAdder"]))
            srows.append((f"`{syn['top']}` (whole engine)", syn))
            lines += ["", f"yosys `synth_xilinx -family xcup`, hierarchical; deepest register-to-register logic in "
                          f"`{syn['deepest_module']}`:", ""] + _synth_rows(srows)
            lines += _fit_lines(run.get("fit"))
        lines += ["", _verdict(run.get("missed", []), "Targets met." if syn else
                               "Rate targets met; the real top was not synthesized in this run (--no-synth)."), ""]
    return "## MSM on BN254 and BLS12-381 G1 (MsmAxis, XYZZ adder)\n\n" + "\n".join(lines).rstrip("\n"), \
        {"runs": [_curve_row(run)[1] for run in data["runs"]]}


def _msm_area_verdict(syn: dict, uram: int | None = None, board: str = "vu9p", curve: str = "bls12_377_g1") -> str:
    from zkspinal.bench.msm import area_targets_text, area_verdicts

    return _verdict(area_verdicts(syn, uram, board, curve), f"Area targets met: {area_targets_text(board, curve)}.")


def _msm_rate_verdict(rows: list, projection: dict | None, curve: str = "bls12_377_g1", board: str = "vu9p") -> str:
    from zkspinal.bench.msm import (FOUR_MSM_MAX_S, HOT_MIN_BUSY, ONE_MSM_MAX_S, RANDOM_MIN_BUSY, hot_sets,
                                    rate_verdicts)

    max_one_s = ONE_MSM_MAX_S.get((curve, board), 2.5)
    four = FOUR_MSM_MAX_S if curve == "bls12_377_g1" else None
    hot = hot_sets(curve)
    return _verdict(rate_verdicts(rows, projection, max_one_s, four, hot),
                    f"Rate targets met: every adder >= {RANDOM_MIN_BUSY:.0%} busy on random scalars and >= "
                    f"{HOT_MIN_BUSY:.0%} on the {' and '.join(SET_NAMES.get(s, s) for s in hot)} set{'s' if len(hot) > 1 else ''}; "
                    f"one 2^26 bucket phase <= "
                    f"{max_one_s} s" + (f", four MSMs <= {four} s." if four else "."))


def _msm_plot(rows: list, path: Path) -> None:
    plt = _plot()
    fig, (a1, a2) = plt.subplots(1, 2, figsize=(11, 4), sharey=True)
    for r in rows:
        ax = a1 if r["set"] == "random" else a2
        tl = r["timeline"]
        x = [c / 1e3 for c in tl["cycle"]]
        series = tl.get("adders") or [tl["busy_frac"]]
        fracs = r.get("adder_busy_frac") or [r["busy_frac"]]
        line = None
        for a, (fr, overall) in enumerate(zip(series, fracs)):
            kw = {"color": line.get_color()} if line is not None else {}
            (line,) = ax.plot(x, fr, lw=1, ls=("-", "--", ":", "-.")[a % 4], **kw,
                              label=f"{r['set']} 2^{r['npow']} adder {a} ({overall:.1%} overall)")
    for ax, title in ((a1, "random scalars"), (a2, "adversarial scalars")):
        ax.set_title(title)
        ax.set_xlabel("k cycles since the accumulate phase began")
        ax.set_ylim(-0.02, 1.02)
        ax.grid(True, alpha=0.3)
        if ax.lines:
            ax.legend(fontsize=8, loc="lower left" if ax is a1 else "upper right")
    a1.set_ylabel("adder busy fraction per window")
    fig.suptitle("MSM bucket engine: each adder's busy fraction over time")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


# (core, field) of the field rows the area table shows: the Montgomery multipliers of the Poseidon and MSM sizes
AREA_FIELD_ROWS = {("MontMul", "bls12_381_fr"), ("MontMul", "bls12_377_fq")}


def _area_measured(results: dict) -> list[tuple[str, dict]]:
    """(label, yosys figures) of our designs in the report's data, those whose yosys figures are present."""
    rows = []
    for r in results.get("field", {}).get("rows", []):
        if (r["core"], r["field"]) in AREA_FIELD_ROWS and "dsp" in r:
            rows.append((f"{r['bits']}-bit Montgomery multiplier (`{r['core']}_{r['field']}`)", r))
    msm_syn = (results.get("msm") or {}).get("synth")
    if msm_syn:
        adder = msm_syn.get("modules", {}).get("TwistedEdwardsAdder")
        if adder:
            rows.append(("MSM adder (`TwistedEdwardsAdder`: 7 multipliers + 6 add/sub)", adder))
        rows.append((f"`{msm_syn['top']}` (whole MSM engine)", msm_syn))
    pos = results.get("poseidon") or {}
    for syn in [pos.get("synth"), *pos.get("synth_also", [])]:
        if syn:
            rows.append((f"`{syn['top']}` (whole Poseidon top)", syn))
    return rows


def _area_row(design: str, source: str, dsp: int, lut: int, srl: int | None) -> tuple[str, dict]:
    """One row of the area table: its Markdown and its figures (srl None: counted in LUT, as Vivado does)."""
    md = (f"| {design} | {source} | {dsp:,} | {lut:,} | {'in LUT' if srl is None else f'{srl:,}'} | "
          f"{_ratio(lut, dsp)} |")
    return md, {"design": design, "published": srl is None, "dsp": dsp, "lut": lut, "srl": srl,
                "lut_per_dsp": anchors.lut_per_dsp(lut, dsp)}


def area(results: dict) -> tuple[str, dict]:
    """The LUTs per DSP48E2 of our designs (yosys) above the published designs' (Vivado); `results` maps each core
    to the data its benchmark wrote."""
    rows = [_area_row(label, "zkspinal, yosys", r["dsp"], r["lut"], r["srl"]) for label, r in _area_measured(results)]
    rows += [_area_row(a["design"], a["source"], a["dsp"], a["lut"], None) for a in anchors.AREA]
    lines = ["| design | source | DSP48E2 | LUT | SRL | LUT per DSP |", "|---|---|---|---|---|---|"]
    lines += [md for md, _ in rows]
    lines += ["", "LUT per DSP = LUT / DSP48E2, rounded. Ours: yosys `synth_xilinx -family xcup` (the whole tops "
                  "hierarchically), LUT counts LUT1..LUT6 and SRL the shift registers yosys maps into LUTs; published: "
                  "Vivado after implementation, whose CLB LUTs include the shift registers. Rows without a yosys run "
                  "in this report (a quick run skips the whole tops) are left out."]
    return "## Area: LUTs per DSP\n\n" + "\n".join(lines), {"rows": [fig for _, fig in rows]}


PCIE_BYTES_PER_S = 12.5e9  # PCIe Gen3 x16, the issue's figure


def _card_msm(run: dict, n: int) -> tuple[float, float]:
    """(bucket phase, PCIe) seconds of one n-point MSM with resident bases on a board engine (`bench msm` JSON):
    the random set's accumulate cycles per point times n plus its fixed cycles (clear, flush, read-out) at the board
    clock; the n scalars in, the read-out's records back"""
    from zkspinal.paths import top_info

    rnd = next(r for r in run["rows"] if r["set"] == "random")
    phase = (rnd["acc_cycles"] / rnd["points"] * n + rnd["cycles"] - rnd["acc_cycles"]) / (run["mhz"] * 1e6)
    rec = top_info(run["top"])["records"]
    moved = n * rec["scalar_beat_bytes"] / 2 + (run["buckets"] + run["partials"]) * rec["bucket_bytes"]
    return phase, moved / PCIE_BYTES_PER_S


def groth16(results: dict) -> tuple[str, dict] | None:
    """The Groth16 row: arkworks on this CPU (`bench groth16`: measured, or projected from a measured size) against a
    proof whose four G1 MSMs run on the curve's board engine with the key's queries resident (`bench msm` /
    `bench msm-curves`: bucket phases from the twin's cycles at the board clock, PCIe at 12.5 GB/s) and whose host
    steps (synthesis, witness map, post-processing, B in G2 meanwhile) are the measured ones."""
    g = results.get("groth16")
    if not g:
        return None
    curve = g["curve"] + "_g1"
    engines = ([results["msm"]] if results.get("msm") else []) + list((results.get("msm-curves") or {}).get("runs", []))
    eng = next((e for e in engines if e["curve"] == curve and e["board"] == "vu9p"
                and any(r["set"] == "random" for r in e.get("rows", []))), None)
    cores = max(r["threads"] for r in g["runs"])
    head = ["constraints", "arkworks, 1 core", f"arkworks, {cores} cores", "card: G1 MSMs (bucket phases + PCIe + "
            "post-processing)", f"card: synthesis + witness map ({cores} cores)", "card proof", "speed-up"]
    lines = [f"## Groth16 ({CURVE_NAMES.get(curve, curve)}, MiMC chain circuit)", "",
             "| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    figs = {"rows": []}
    for k in sorted({r["log2"] for r in g["runs"]}):
        one = next((r for r in g["runs"] if r["log2"] == k and r["threads"] == 1), None)
        all_ = next((r for r in g["runs"] if r["log2"] == k and r["threads"] == cores), None)
        if not all_:
            continue
        tag = f" (projected from 2^{all_['projected_from']})" if all_["projected"] else ""
        fig = {"log2": k, "constraints": all_["constraints"], "projected": all_["projected"],
               "arkworks_1_s": one["prove_s"] if one else None, "arkworks_all_s": all_["prove_s"]}
        card = "no `bench msm` run of this curve's VU9P engine"
        total = speed = "—"
        if eng:
            parts = [_card_msm(eng, all_["sizes"][q]) for q in "ablh"]
            g1 = sum(ph + io for ph, io in parts) + 4 * all_["post_s"]
            host = all_["synthesize_s"] + all_["witness_map_s"]
            proof = host + max(g1, all_["msm_s"]["g2"])
            fig.update(card_g1_s=g1, card_host_s=host, card_proof_s=proof, speedup=all_["prove_s"] / proof)
            card = f"{g1:.3f} s ({sum(ph for ph, _ in parts):.3f} + {sum(io for _, io in parts):.3f} + " \
                   f"4 x {all_['post_s']:.3f})"
            total, speed = f"{proof:.3f} s", f"{all_['prove_s'] / proof:.1f}x"
            host_s = f"{host:.3f} s"
        else:
            host_s = "—"
        lines.append(f"| 2^{k} ({all_['constraints']:,}){tag} | " + (f"{one['prove_s']:.2f} s" if one else "—") +
                     f" | {all_['prove_s']:.2f} s | {card} | {host_s} | {total} | {speed} |")
        figs["rows"].append(fig)
    if eng:
        lines += ["", f"Card: `{eng['top']}`'s cycles at {eng['mhz']:g} MHz; B in G2 on the CPU while the card runs "
                      "(the card proof takes the longer of the two); the four G1 MSMs one after another, each "
                      "post-processed on the host before the next (sw/msm-fpga's `CardProver`)."]
    return "\n".join(lines), figs


def groth16_steps(data: dict, out: Path) -> tuple[str, dict]:
    """`bench groth16`: arkworks' proof and its steps per size and thread count (projected rows marked)."""
    head = ["constraints", "threads", "setup", "proof", "synthesis", "witness map", "G1 MSM A / B / L / H", "G2 MSM",
            "post-processing one board read-out"]
    lines = ["## Groth16 on this CPU (arkworks)", "", "| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in sorted(data["runs"], key=lambda r: (r["log2"], -r["threads"])):
        m = r["msm_s"]
        tag = f" (projected from 2^{r['projected_from']})" if r["projected"] else ""
        lines.append(f"| 2^{r['log2']} ({r['constraints']:,}){tag} | {r['threads']} | "
                     + ("—" if r["setup_s"] is None else f"{r['setup_s']:.2f} s") +
                     f" | {r['prove_s']:.2f} s | {r['synthesize_s']:.3f} s | {r['witness_map_s']:.3f} s | "
                     f"{m['a']:.3f} / {m['b']:.3f} / {m['l']:.3f} / {m['h']:.3f} s | {m['g2']:.3f} s | "
                     f"{r['post_s']:.3f} s ({r['readout_records']:,} records) |")
    lines += ["", "The MiMC chain circuit of `sw/msm-fpga/examples` (644 constraints per hash); projected rows scale the "
                  "largest measured size (MSMs by n / log2 n, the witness map by n log2 n, synthesis by n)."]
    return "\n".join(lines), {"runs": data["runs"]}


RENDER = {"field": field, "keccak": keccak, "poseidon": poseidon, "msm": msm, "msm-curves": msm_curves, "groth16": groth16_steps,
          "poseidon-model": poseidon_model, "msm-host": msm_host, "host": host}


def render(core: str, data, out: Path) -> tuple[str, dict]:
    return RENDER[core](data, out)
