"""zkemu: the XDMA emulator's driver (installed as the package zkemu): the Verilator build (verilate), the port glue
(gen_glue), building and starting emulated cards (card).  `python -m zkemu with TOP -- CMD @DEV ARGS` runs CMD
against a fresh card."""
