# Block design for a VU9P card of the VCU1525 class (xcvu9p-fsgd2104-2L-e) with the MSM engine: XDMA Gen3 x16,
# 512-bit AXI4-Stream at 250 MHz, two H2C channels (scalars, points) into FIFOs of --fifo-depth entries (seed 002:
# 4K entries keep a host writing the two streams in chunks from deadlocking or starving the core), one C2H channel
# for the buckets, the user BAR as on the C1100, and a DDR4 controller per point-store channel of the core.  The core
# clock comes from the card's SI570 user clock (156.25 MHz): the four 300 MHz clocks are the DIMMs' references.
# See vivado/lib/zk_bd.tcl and README.md (AWS F1).
#
#   vivado -mode batch -source vivado/bd_vu9p.tcl -tclargs [--core TOP] [--core-mhz 278] [--fifo-depth 4096]
#                                                         [--out build/vivado/vu9p] [--ip build/ip]
# Default core: MsmAxis (the VU9P configuration first) when emitted, else PairFixture (the same two-FIFO shape).
source [file join [file dirname [file normalize [info script]]] lib zk_bd.tcl]

# The card's four DDR4 DIMMs, one per point-store channel of MsmAxis (zk_bd.tcl, "card memory"): 16 GB 72-bit
# RDIMMs (1 rank of x4 devices) at 2400 MT/s, tCK 833 ps, each with its own 300 MHz reference clock; the memory part
# is the one of the card's DIMMs as the public board files of the VCU1525 / Alveo U200 name it (another DIMM: change
# part, ranks and the latencies).  Pins: vivado/constraints/vu9p_ddr4_pins.tsv.  slrs: the SLR of each DIMM's I/O
# banks (DIMM 0 in SLR0, 1 and 2 in SLR1, 3 in SLR2), shell_slr: the SLR of the XDMA and the core's own logic.
set zk_vu9p_memory [dict create type DDR4 memory_type RDIMMs part MTA18ASF2G72PZ-2G3 data_bits 72 ranks 1 tck_ps 833 cl 17 cwl 12 \
    refclk_hz 300000000 refclk_ps 3332 axi_data_bits 512 axi_addr_bits 34 \
    pins [file join $zk::root vivado constraints vu9p_ddr4_pins.tsv] slrs {SLR0 SLR1 SLR1 SLR2} shell_slr SLR1]

# core_mhz: the core clock a build gets by default, and the clock every projection of the benchmark report is
# made at (zkspinal/bench reads it here).
set zk_board_vu9p [dict create name vu9p core_mhz 278 part xcvu9p-fsgd2104-2L-e \
    xdma [dict create lanes X16 speed 8.0_GT/s bytes 64 device_id 903F] \
    sysclk_hz 156250000 \
    flash FlashCtrl_vu9p \
    memory $zk_vu9p_memory \
    xdc [file join $zk::root vivado constraints vu9p.xdc] \
    default_cores {MsmAxis_vu9p MsmAxis_* PairFixture_*}]

if {![info exists ::zk_bd_library_only]} {
    set opts [zk::options $::argv [dict create core "" core-mhz [dict get $zk_board_vu9p core_mhz] fifo-depth 4096 out build/vivado/vu9p ip build/ip] \
        {bd_vu9p.tcl [--core TOP] [--core-mhz MHZ] [--fifo-depth N] [--out DIR] [--ip DIR]}]
    if {[dict get $opts core] eq ""} { dict set opts core [zk::bd::default_core [dict get $zk_board_vu9p default_cores]] }
    set zk_top [zk::bd::build $zk_board_vu9p $opts]
}
