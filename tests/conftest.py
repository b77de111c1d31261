"""pytest configuration: the emitted RTL up to date, the quick/long tiers."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from zkspinal.paths import ROOT


def pytest_addoption(parser):
    parser.addoption("--long", action="store_true", help="also run the long (soak) tier")
    parser.addoption("--sim", action="append", default=None, help="simulator(s) to use (icarus, verilator)")


def pytest_configure(config):
    config.addinivalue_line("markers", "long: soak tier, run with --long")


def pytest_collection_modifyitems(config, items):
    if config.getoption("--long"):
        return
    skip = pytest.mark.skip(reason="long tier: use --long")
    for item in items:
        if "long" in item.keywords:
            item.add_marker(skip)


# Field cores whose own tests run in the long tier (CI: 50 minutes on two cores).  The quick tier keeps the two that
# bound the generator's widths, BLS12-381 Fr (255 bits: Poseidon) and BLS12-377 Fq (377: the twisted Edwards MSM);
# the primes of the Weierstrass MSM curves (BN254 Fq and Fr, BLS12-381 Fq) are in the quick tier inside their engines'
# multipliers, and BLS12-377 Fr (253 bits, no engine computes in it: MSM scalars are only sliced) is BLS12-381 Fr's
# width class.
LONG_TIER_FIELDS = {"bn254_fq", "bn254_fr", "bls12_381_fq", "bls12_377_fr"}


def field_params(fields) -> list:
    """pytest parameters over field names (or tuples whose last item is one): the LONG_TIER_FIELDS marked long"""
    out = []
    for f in fields:
        name = f[-1] if isinstance(f, tuple) else f
        out.append(pytest.param(*f, marks=pytest.mark.long) if isinstance(f, tuple) and name in LONG_TIER_FIELDS
                   else pytest.param(f, marks=pytest.mark.long) if name in LONG_TIER_FIELDS
                   else pytest.param(*f) if isinstance(f, tuple) else f)
    return out


def selected_sims(config) -> list[str]:
    env = os.environ.get("SIM")
    return config.getoption("--sim") or (env.split(",") if env else ["icarus", "verilator"])


def pytest_generate_tests(metafunc):
    if "sim" in metafunc.fixturenames:
        metafunc.parametrize("sim", selected_sims(metafunc.config))


def pytest_sessionstart(session):
    """Emits the Verilog once (on the controller, not on xdist workers) when any generator source is newer
    than the manifest."""
    if hasattr(session.config, "workerinput") or os.environ.get("ZK_NO_EMIT") == "1":
        return
    from zkspinal.sim import rtl

    if rtl.stale(rtl.MANIFEST):
        rtl.emit()


@pytest.fixture(scope="module")
def seed():
    """The random seed of a module's tests: SEED= replays one, otherwise a fresh one, printed either way."""
    from zkspinal.sim.simrun import seed_from_env

    s = seed_from_env()
    print(f"SEED={s}")
    return s
