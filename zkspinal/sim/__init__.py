"""The simulation layer: cocotb builds (simrun), build locks, the C++ benchmark harnesses' wrappers."""
