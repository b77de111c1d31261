"""The cocotb testbenches, one per core (<core>_tb.py), and the test data they share: run on an emitted top by
zkspinal.sim.simrun.run for the tests (tests/test_*.py), the benchmarks and the demonstration."""
