"""Resource estimates: yosys synth_xilinx of an emitted top (yosys: flat; hier: every distinct module once) and
the netlist analyses the benchmarks and tests read (cell counts, DSP cascades, logic depth), cached in build/synth."""
