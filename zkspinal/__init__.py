"""zkspinal's Python side: the simulation layer (sim), the commands run.sh runs (tools) and the benchmarks (bench).
The golden model is the package reference_model, the XDMA emulator's driver the package zkemu (sw/emu); all three
are installed into .venv (editable) by ./run.sh setup from pyproject.toml."""
