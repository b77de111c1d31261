"""Published figures of the designs zkspinal is measured against (one place; ../shared/docs/domain.md summarises
the seeds they come from)."""
from __future__ import annotations

# TRIDENT (seed 001): Varium C1100, 100 MHz, 4,108 DSP48E2; hashes per second by arity, the "hash rate" column of
# its table (for arity 2 the same table's 850,000 hashes in 0.877 s give 0.97 M/s; we compare with the higher figure)
TRIDENT = {"source": "TRIDENT (seed 001), Varium C1100", "mhz": 100, "dsp": 4108, "lut": 533050,
           "hash_per_s": {2: 0.991e6, 8: 358e3, 11: 305e3}, "arity2_run": (850_000, 0.877)}

# ZPrize 2022 Hardcaml MSM (seeds 000, 004): AWS F1 VU9P, 278 MHz, one adder, 2^26 points x 20 windows
HARDCAML = {"source": "ZPrize 2022 Hardcaml MSM (seeds 000, 004), AWS F1", "mhz": 278, "bucket_phase_s": 4.968,
            "four_msm_s": 20.34, "points": 1 << 26, "windows": 20, "host_post_s": 0.470,
            "host_convert_s": 1167.977}

# CAPI SNAP hls_sponge (seed 003): KU060, 32 test_speed units; the 160-thread POWER8 CPU
SNAP = {"source": "CAPI SNAP hls_sponge (seed 003), KU060", "perm_per_s": 150_941_821, "units": 32,
        "cpu_perm_per_s": 4_352_266}

# Area after Vivado implementation (CLB LUTs, which include the LUTs used as shift registers), for the report's
# LUT-per-DSP comparison
AREA = [
    {"design": "Hardcaml ZPrize MSM, whole design on VU9P incl. the AWS shell",
     "source": "Vivado, published (seeds 000, 004)", "dsp": 2999, "lut": 387166},
    {"design": "Hardcaml's 377-bit mixed adder alone", "source": "Vivado, from Hardcaml's repository history",
     "dsp": 1376, "lut": 167533},
    {"design": "TRIDENT Poseidon on the C1100", "source": "Vivado, published (seed 001)", "dsp": TRIDENT["dsp"],
     "lut": TRIDENT["lut"]},
]


def lut_per_dsp(lut: int, dsp: int) -> int | None:
    """LUTs per DSP48E2, rounded (None without DSPs)."""
    return round(lut / dsp) if dsp else None


def _trident_arity2_run() -> str:
    hashes, seconds = TRIDENT["arity2_run"]
    return f"{hashes:,} hashes in {seconds} s: {hashes / seconds / 1e6:.2f} Mhash/s"


def table() -> str:
    rows = [
        ("Poseidon", TRIDENT["source"],
         f"{TRIDENT['hash_per_s'][2] / 1e6:.3f} Mhash/s arity 2 ({_trident_arity2_run()}; ratios use the higher "
         f"figure), {TRIDENT['hash_per_s'][8] / 1e3:.0f} Khash/s arity 8, "
         f"{TRIDENT['hash_per_s'][11] / 1e3:.0f} Khash/s arity 11; {TRIDENT['dsp']:,} DSP at {TRIDENT['mhz']} MHz"),
        ("MSM", HARDCAML["source"],
         f"bucket phase {HARDCAML['bucket_phase_s']} s per 2^26 MSM, {HARDCAML['four_msm_s']} s for 4 x 2^26, "
         f"{HARDCAML['mhz']} MHz; host post-processing {HARDCAML['host_post_s']} s"),
        ("Keccak", SNAP["source"],
         f"{SNAP['perm_per_s'] / 1e6:.1f} M permutations/s with {SNAP['units']} units; CPU (160 threads) "
         f"{SNAP['cpu_perm_per_s'] / 1e6:.2f} M/s"),
    ]
    out = ["| core | design | published |", "|---|---|---|"]
    out += [f"| {a} | {b} | {c} |" for a, b, c in rows]
    return "\n".join(out)
