"""The report's section for each benchmark: a Markdown table (with the anchors beside the measured figures), the
figures the smoke test checks, and the plots.

render(core, data, out) -> (markdown, figures); `data` is what the core's benchmark wrote with --json.
"""
from __future__ import annotations

from pathlib import Path

from tests.bench import anchors


def _plot():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def field(data: dict, out: Path) -> tuple[str, dict]:
    from tests.bench.field import markdown

    rows = data["rows"]
    md = "## Field arithmetic\n\n" + markdown(rows, data["sim"])
    figs = {"rows": [{"name": f"{r['core']}_{r['field']}", "latency": r["latency_cycles"],
                      "ops_per_cycle": r["ops_per_cycle"], "dsp": r.get("dsp")} for r in rows]}
    return md, figs


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


RENDER = {"field": field, "keccak": keccak, "poseidon-model": poseidon_model, "msm-host": msm_host, "host": host}


def render(core: str, data, out: Path) -> tuple[str, dict]:
    return RENDER[core](data, out)
