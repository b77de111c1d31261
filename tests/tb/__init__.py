"""cocotb testbench helpers shared by the core tests."""
