"""The DSP48E2 layer (hw/src/zkspinal/field/Dsp48e2.scala, DspChain.scala):

- our simulation model of the primitive (hw/sim/DSP48E2.v), as DspCheck instantiates it, against the inferred form
  of the same chains (registers, multiply, add), cycle by cycle, under random and extreme operands;
- the synthesized netlists: every chain is a cascade (each link's PCIN driven by the previous link's PCOUT, no
  LUT between), for DspCheck and for the multipliers whose yosys runs the benchmark caches (long tier: run them).
"""
import pytest

from zkspinal.sim import simrun
from zkspinal.synth import yosys as synth


def test_dsp_model_matches_inferred_form(sim):
    simrun.run("DspCheck", "zkspinal.tb.dsp_check_tb", sim)


def cascade_report(top: str) -> dict:
    info = simrun.top_info(top)
    return info, synth.run(simrun.RTL / info["file"], top)


def test_dsp_check_netlist_has_cascades():
    info, r = cascade_report("DspCheck")
    # two copies of the chains: the primitives are DSP48E2 cells, the inferred form maps to DSPs without cascades
    # (yosys packs no DSP48E2 registers, adders or cascades): so the primitives' links are the cascaded ones
    links, chains = info["dsp_tiles"], info["dsp_chains"]
    assert r["dsp_cascaded"] == links - chains, r
    assert r["dsp_chains"] == chains, r
    assert r["dsp_acin"] >= 3, r  # chain 0 takes its A through ACIN on links 1..3


@pytest.mark.long
@pytest.mark.parametrize("top", ["MontMul_bls12_381_fr", "ConstMul_bls12_381_fr", "RomConstMul_bls12_381_fr",
                                 "MontMul_bls12_377_fq"])
def test_multiplier_netlist_has_cascades(top):
    info, r = cascade_report(top)
    assert r["dsp"] == info["dsp_tiles"], r
    assert r["dsp_pcin_other"] == 0, r
    assert r["dsp_cascaded"] == info["dsp_tiles"] - info["dsp_chains"], r
