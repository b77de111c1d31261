"""Several emulated cards in one host: wall time and overlap of zk-poseidon and zk-msm over 1, 2 and 4 cards.

    python -m zkspinal.bench multicard [--cards 1,2,4] [--preimages 1200] [--npow 10] [--batch 64]

Each card is its own emulator process (Verilator, one core each while it clocks), without throttling.  Prints, per
card count: the tools' wall time of the DMA jobs, the time every card had a job in flight at once (the overlap; the
measure that does not depend on how many CPU cores the emulators get), and for the MSM each window range's engine
cycles (what a real card would spend).  On a machine with fewer cores than emulated cards the wall time measures the
CPU, not the cards: the CPU count is printed with the figures."""
from __future__ import annotations

import argparse
import io
import os
import re
import sys
import time

from reference_model.poseidon import cli as model
from zkspinal.tools.sw import MSM_TOP, POSEIDON_TOP, SW, build_sw, ok, tool, zkemu


def poseidon(n: int, lines: list[str], batch: int, tmp: str) -> dict:
    inp = os.path.join(tmp, "in.txt")
    with open(inp, "w") as f:
        f.write("".join(l + "\n" for l in lines))
    with zkemu.cards([POSEIDON_TOP] * n) as c:
        t0 = time.monotonic()
        r = ok(tool("zk-poseidon", "-d", c.prefixes[0], "--devices", "all", "-b", batch, "-t", 120000, "-i", inp,
                    "-o", os.path.join(tmp, f"out{n}.txt"), env={"ZKEMU_TIMEOUT_MS": "300000"}, timeout=3600))
        wall = time.monotonic() - t0
    dma = float(re.search(r"in ([\d.]+) s of DMA jobs", r.stderr).group(1))
    m = re.search(r"all \d+ busy at once ([\d.]+) s", r.stderr)
    shares = re.findall(r"card \S+: (\d+) hashes in (\d+) job", r.stderr)
    return {"dma": dma, "wall": wall, "all_busy": float(m.group(1)) if m else dma,
            "shares": "+".join(s for s, _ in shares) or str(len(lines)),
            "out": open(os.path.join(tmp, f"out{n}.txt")).read()}


def msm(n: int, npow: int) -> dict:
    with zkemu.cards([MSM_TOP] * n) as c:
        r = ok(tool("zk-msm", "-d", c.prefixes[0], "--devices", "all", "-g", npow, "--seed", 1, "-w", "6,6,6,6", "-B", 24,
                    "-t", 120000, env={"ZKEMU_TIMEOUT_MS": "300000"}, timeout=3600))
    run = float(re.search(r"engine \(stream \+ read-out\) ([\d.]+) s", r.stderr).group(1))
    post = float(re.search(r"post-process ([\d.]+) s", r.stderr).group(1))
    ranges = [(int(a), int(b)) for a, b in re.findall(r"windows \d+\.\.\d+: (\d+) cycles, (\d+) additions", r.stderr)]
    if not ranges:  # one card: the summary line's cycles and additions
        m = re.search(r"\[(\d+) cycles, (\d+) additions", r.stderr)
        ranges = [(int(m.group(1)), int(m.group(2)))]
    m = re.search(r"all \d+ busy at once ([\d.]+) s", r.stderr)
    return {"run": run, "post": post, "ranges": ranges, "all_busy": float(m.group(1)) if m else run,
            "result": r.stdout}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m zkspinal.bench multicard", description=__doc__.splitlines()[0])
    ap.add_argument("--cards", default="1,2,4")
    ap.add_argument("--preimages", type=int, default=1200)
    ap.add_argument("--batch", type=int, default=64)
    ap.add_argument("--npow", type=int, default=10)
    a = ap.parse_args(argv)
    os.environ["ZKEMU_THROTTLE"] = "0"
    build_sw()
    import tempfile
    counts = [int(x) for x in a.cards.split(",")]
    out = io.StringIO()
    assert model.main(["--arity", "2", "--gen", str(a.preimages), "--seed", "1"], stdout=out) == 0
    lines = out.getvalue().splitlines()
    print(f"CPU cores available: {len(os.sched_getaffinity(0))}; load average {os.getloadavg()[0]:.2f} at the start")
    print(f"\nzk-poseidon, {a.preimages} arity-2 preimages, writes of {a.batch}, PoseidonInband_small:")
    print("| cards | DMA jobs wall (s) | all cards busy at once (s) | preimages per card | x one card |")
    print("|---|---|---|---|---|")
    base = None
    with tempfile.TemporaryDirectory() as tmp:
        ref = None
        for n in counts:
            p = poseidon(n, lines, a.batch, tmp)
            ref = ref or p["out"]
            assert p["out"] == ref, f"{n} cards: digests differ from {counts[0]} card(s)"
            base = base or p["dma"]
            print(f"| {n} | {p['dma']:.2f} | {p['all_busy']:.2f} | {p['shares']} | {base / p['dma']:.2f} |")
    print(f"\nzk-msm, 2^{a.npow} points (the model's set, scalars < 2^24), MsmAxis_small2_model, split by windows:")
    print("| cards | engine wall (s) | all cards busy at once (s) | engine cycles per window range | additions per range | "
          "longest range / one card's cycles | post-process (s) |")
    print("|---|---|---|---|---|---|---|")
    one, ref = None, None
    for n in counts:
        m = msm(n, a.npow)
        ref = ref or m["result"]
        assert m["result"] == ref, f"{n} cards: the MSM differs from {counts[0]} card(s)"
        one = one or m["ranges"][0][0]
        cyc = ", ".join(f"{c:,}" for c, _ in m["ranges"])
        add = ", ".join(f"{b:,}" for _, b in m["ranges"])
        print(f"| {n} | {m['run']:.2f} | {m['all_busy']:.2f} | {cyc} | {add} | {max(c for c, _ in m['ranges']) / one:.2f} | "
              f"{m['post']:.3f} |")
    print(f"\nload average {os.getloadavg()[0]:.2f} at the end")
    return 0


if __name__ == "__main__":
    sys.exit(main())
