"""Builds and starts the XDMA emulator of the card that carries a top (the card top Card_<TOP>, CardTops.scala: the
core wired to the system block, the adapters and the flash controller as the board design wires them).

    python -m zkemu build TOP              # Verilator build into build/emu/Card_TOP (cached by source md5)
    python -m zkemu run TOP --dir DIR [harness options]   # serve DIR/xdma0_* until SIGINT/SIGTERM
    python -m zkemu with TOP -- CMD ARGS...   # CMD against a fresh emulated card: every @DEV in ARGS becomes
                                                     # its device prefix, LD_PRELOAD the interposer; CMD's exit status
    python -m zkemu with TOP,TOP... -- CMD ARGS...   # several cards in one directory (xdma0_*, xdma1_*, ...):
                                                     # @DIR the directory, @DEV<i> card i's prefix, @DEV card 0's

The card's ports name its XDMA channels (h2c_K, c2h_K) and user BAR windows, so the harness (zkemu_card.cpp) needs no
table of tops; a core of a new kind plugs in by its kind joining CardTops.kinds.  WAVES=1 builds with FST tracing
(run: pass --fst FILE; emulator(): the trace goes to build/emu/Card_<TOP>_waves/<TOP>.fst).
"""
from __future__ import annotations

import os
import random
import re
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

from zkemu import gen_glue, verilate  # the port glue; the one Verilator build (also the harnesses')

from zkspinal.paths import ROOT, RTL, manifest  # noqa: E402  the build tree's one reader of the manifest

EMU = ROOT / "sw" / "emu"
CONTRACT = ROOT / "sw" / "lib" / "zk_contract.h"  # the bus's user BAR map (UserBar)

OUT = ROOT / "build" / "emu"
PRELOAD = ROOT / "sw" / "build" / "libzkemu.so"

SOURCES = ["zkemu_card.cpp", "zkemu_transport.cpp", "zkemu_bus.cpp", "zkemu_mem.cpp", "zkflash_model.c"]
HEADERS = ["zkemu_model.h", "zkemu_bus.h", "zkemu_transport.h", "zkemu_mem.h", "zkemu_proto.h", "zkflash_model.h"]


def card_of(top: str) -> str:
    """The card top (hw/src/zkspinal/emit/CardTops.scala) that carries `top`: Card_<top>; a card top is its own; a
    flash controller alone is served by the card with no core (Card_flash_small)."""
    if top.startswith("Card_"):
        return top
    if top.startswith("FlashCtrl_"):
        return "Card_flash_small"
    return f"Card_{top}"


def build(top: str, waves: bool | None = None) -> Path:
    """Returns the emulator binary of the card carrying `top` (emitted first if missing or stale), building it when
    its sources changed (verilate.build_exe): the card's Verilog, its core's and the core's primitive models."""
    from zkspinal.sim import rtl

    card = card_of(top)
    rtl.ensure([card])
    core = manifest()[card]["core"]
    waves = os.environ.get("WAVES", "0") == "1" if waves is None else waves
    mdir = OUT / (card + ("_waves" if waves else ""))
    OUT.mkdir(parents=True, exist_ok=True)
    glue = port_glue(card, mdir.name)
    rtl_files = [RTL / f"{card}.v", *([RTL / f"{core}.v", *sim_models(core)] if core else [])]
    return verilate.build_exe(card, rtl_files, [*(EMU / s for s in SOURCES), glue], mdir, "zkemu",
                              inputs=[*(EMU / h for h in HEADERS), EMU / "gen_glue.py", CONTRACT],
                              include=[EMU, CONTRACT.parent], waves=waves)


def port_glue(top: str, name: str | None = None) -> Path:
    """The C++ that gives a Model (zkemu_model.h) the ports of `top` by name, generated from the emitted Verilog into
    build/emu/<name>_glue.cpp when missing or older than the Verilog or gen_glue.py: the emulator's port mapping,
    which the benchmark harnesses (bench_*.cpp) share."""
    src = RTL / f"{top}.v"
    OUT.mkdir(parents=True, exist_ok=True)
    glue = OUT / f"{name or top}_glue.cpp"
    if not glue.exists() or glue.stat().st_mtime < max(src.stat().st_mtime, (EMU / "gen_glue.py").stat().st_mtime):
        tmp = glue.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(gen_glue.glue(top, gen_glue.ports(src.read_text(), top)))
        os.replace(tmp, glue)
    return glue


def build_harness(top: str, harness: Path, out: Path, name: str, **kwargs) -> Path:
    """Builds (or reuses) a benchmark harness (sw/emu/bench_*.cpp) of `top` on the emulator's port mapping: the
    harness, the bus helpers (zkemu_bus.cpp), the card memory model (zkemu_mem.cpp) and the port glue of `top` (named
    after `out`); kwargs go to
    verilate.build_exe (opt_fast, verilator_opt, waves)."""
    headers = [EMU / h for h in ("zkemu_model.h", "zkemu_bus.h", "zkemu_mem.h", "zkemu_proto.h")]
    return verilate.build_exe(top, [RTL / f"{top}.v", *sim_models(top)],
                              [harness, EMU / "zkemu_bus.cpp", EMU / "zkemu_mem.cpp", port_glue(top, out.name)], out, name,
                              inputs=[*headers, CONTRACT], include=[EMU, CONTRACT.parent],
                              defines={**top_defines(top), **(kwargs.pop("defines", None) or {})}, **kwargs)


def top_defines(top: str) -> dict[str, str]:
    """What a harness of `top` is told of it at compile time, from its manifest entry: its field width n
    (ZK_TOP_N) and, for a top with stream records (MsmAxis: "records"), their bytes (ZK_TOP_POINT_BYTES,
    ZK_TOP_BUCKET_BYTES, ZK_TOP_SCALAR_BEAT_BYTES), which the harness checks against the contract at n."""
    info = manifest().get(top, {})
    out = {"ZK_TOP_N": str(info["n"])} if isinstance(info.get("n"), int) else {}
    rec = info.get("records") or {}
    for key in ("point_bytes", "bucket_bytes", "scalar_beat_bytes"):
        if key in rec:
            out[f"ZK_TOP_{key.upper()}"] = str(rec[key])
    return out


def sim_models(top: str) -> list[Path]:
    """The simulation models of the primitives `top` instantiates (listed in the manifest by Emit)."""
    return [RTL / m for m in manifest().get(top, {}).get("sim_models", [])]


def _throttle(top: str) -> list[str]:
    # random gaps on every stream port (ZKEMU_THROTTLE percent, default 30), reproducible with SEED
    seed = os.environ.get("SEED") or str(random.SystemRandom().randrange(1, 1 << 31))
    print(f"zkemu {top}: throttle seed SEED={seed}", file=sys.stderr)
    return ["--throttle", os.environ.get("ZKEMU_THROTTLE", "30"), "--seed", seed]


def _start(top: str, exe: Path, d: str, prefix: str, ports: list[str], extra: list[str], seed_args: list[str],
           log_name: str = "emu.log"):
    """one emulator process serving d/prefix_*, its output in d/log_name; returns (process, log) once its user device
    exists"""
    fst = f"{top}.fst" if prefix == "xdma0" else f"{top}_{prefix}.fst"
    waves = ["--fst", str(exe.parent / fst)] if os.environ.get("WAVES", "0") == "1" else []
    log = open(Path(d) / log_name, "w+")
    p = subprocess.Popen([str(exe), "--dir", d, "--prefix", prefix, *ports, *seed_args, *waves, *extra], stdout=log,
                         stderr=subprocess.STDOUT)
    user = Path(d) / f"{prefix}_user"
    for _ in range(500):
        if user.exists() or p.poll() is not None:
            break
        time.sleep(0.01)
    if not user.exists():
        _stop(p, log)
        log.seek(0)
        raise RuntimeError(f"the emulator for {top} ({prefix}) did not start: {log.read()}")
    return p, log


def _stop(p: subprocess.Popen, log) -> None:
    p.terminate()
    try:
        p.wait(10)
    except subprocess.TimeoutExpired:
        p.kill()
        p.wait()
    log.close()


@contextmanager
def emulator(top: str, extra: list[str] | None = None, prefix: str = "xdma0", ports: list[str] | None = None):
    """Starts the emulator of the card carrying `top` in a fresh directory; yields the device prefix (DIR/xdma0).
    ports: a channel map other than the card's (--h2c K=PORT, --c2h K=PORT)."""
    exe = build(top)
    with tempfile.TemporaryDirectory(prefix="zkemu.") as d:
        p, log = _start(top, exe, d, prefix, ports or [], extra or [], _throttle(top))
        try:
            yield f"{d}/{prefix}"
        finally:
            _stop(p, log)


class Cards:
    """Several emulated cards in one directory, as /dev holds xdma0_*, xdma1_*, ...: `dir`, `prefixes`, and the
    processes (`procs[i]` serves card i: kill it to make the card disappear)."""

    def __init__(self, d: str, prefixes: list[str], procs: list):
        self.dir, self.prefixes, self.procs = d, prefixes, procs


@contextmanager
def cards(tops: list[str], extra: dict[int, list[str]] | None = None, ports: list[str] | None = None):
    """Starts one emulator per entry of `tops` (card i = tops[i], prefix xdma<i>) in one fresh directory, each with its
    own throttle seed (SEED + i when SEED is set); extra[i]: more harness options for card i (fault injection)."""
    exes = [build(t) for t in tops]
    base = os.environ.get("SEED")
    with tempfile.TemporaryDirectory(prefix="zkemu.") as d:
        started = []
        try:
            for i, (top, exe) in enumerate(zip(tops, exes)):
                seed = str(int(base) + i) if base else str(random.SystemRandom().randrange(1, 1 << 31))
                print(f"zkemu {top} xdma{i}: throttle seed SEED={seed}", file=sys.stderr)
                throttle = ["--throttle", os.environ.get("ZKEMU_THROTTLE", "30"), "--seed", seed]
                started.append(_start(top, exe, d, f"xdma{i}", ports or [], (extra or {}).get(i, []),
                                      throttle, f"emu_xdma{i}.log"))
            yield Cards(d, [f"{d}/xdma{i}" for i in range(len(tops))], [p for p, _ in started])
        finally:
            for p, log in started:
                _stop(p, log)


def expand(arg: str, d: str, prefixes: list[str]) -> str:
    """@DIR -> the cards' directory, @DEV<i> -> card i's device prefix, @DEV -> card 0's."""
    arg = re.sub(r"@DEV(\d+)", lambda m: prefixes[int(m.group(1))] if int(m.group(1)) < len(prefixes) else
                 _no_card(m.group(0), len(prefixes)), arg)
    return arg.replace("@DEV", prefixes[0]).replace("@DIR", d)


def _no_card(word: str, n: int) -> str:
    raise SystemExit(f"zkemu with: {word} names no card (there are {n}: @DEV0..@DEV{n - 1})")


def run_with(tops: list[str], cmd: list[str]) -> int:
    """`with`: one command against fresh emulated cards, one per entry of `tops` in one directory (its stdin, stdout
    and stderr are the caller's); each emulator's own log goes to the directory and is shown only when the command
    fails"""
    if not PRELOAD.exists():
        raise SystemExit(f"{PRELOAD} missing: make -C sw")
    with cards(tops) as c:
        # the driver's transfer timeout (the interposer's ZKEMU_TIMEOUT_MS) suits a card, not a simulation 10^4
        # times slower: 10 minutes unless the caller set it
        env = dict(os.environ, LD_PRELOAD=str(PRELOAD))
        env.setdefault("ZKEMU_TIMEOUT_MS", "600000")
        rc = subprocess.run([expand(a, c.dir, c.prefixes) for a in cmd], env=env).returncode
        if rc not in (0, 2, 3):
            for i, top in enumerate(tops):
                log = Path(c.dir) / f"emu_xdma{i}.log"
                sys.stderr.write(f"zkemu {top} (xdma{i}): the emulator's log:\n{log.read_text()[-2000:]}")
        return rc


def main() -> None:
    if len(sys.argv) < 3 or sys.argv[1] not in ("build", "run", "with"):
        raise SystemExit(__doc__)
    top = sys.argv[2]
    if sys.argv[1] == "with":
        if len(sys.argv) < 5 or sys.argv[3] != "--":
            raise SystemExit("usage: python -m zkemu with TOP[,TOP...] -- CMD ARGS...")
        sys.exit(run_with([t for t in top.split(",") if t], sys.argv[4:]))
    exe = build(top)
    if sys.argv[1] == "build":
        print(exe)
        return
    os.execv(str(exe), [str(exe), *sys.argv[3:]])

