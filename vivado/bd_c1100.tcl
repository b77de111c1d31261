# Block design for the AMD Varium C1100 (xcu55n-fsvh2892-2L-e): XDMA Gen3 x8, 256-bit AXI4-Stream at 250 MHz,
# H2C/C2H channels for the core's streams through asynchronous FIFOs to the core clock, the AXI4-Lite master on
# the user BAR to the core's registers (0x00000), the system block (0x10000) and the flash controller (0x20000),
# and for a core with memory channels (MsmAxis_bn254_c1100's point store) the package's HBM2, one AXI port per
# channel.  See vivado/lib/zk_bd.tcl and vivado/lib/zk_hbm.tcl.
#
#   vivado -mode batch -source vivado/bd_c1100.tcl -tclargs [--core TOP] [--core-mhz 250] [--fifo-depth 4096]
#                                                          [--out build/vivado/c1100] [--ip build/ip]
# Default core: PoseidonAxis (the PC2 profile first, then the C1100 configuration) when emitted, else the Keccak sponge.
source [file join [file dirname [file normalize [info script]]] lib zk_bd.tcl]

# The card's HBM2 (zk_hbm.tcl): 8 GB in two 4-high stacks of 4 GB; each stack has 16 AXI3 ports of 256 bits and 16
# pseudo-channels of 256 MB, in switch groups of 4 ports and 4 pseudo-channels (PG276).  Channel c of the core takes
# port 4c and its group's 1 GiB (c * 1 GiB ..), so a core has at most 8 channels of at most 1 GiB.  The reference
# and APB clocks are 100 MHz (the core clock wizard's second output, from the board's 100 MHz sysclk); the AXI ports
# run at 450 MHz, the rate of one pseudo-channel (256 bits x 450 MHz = 14.4 GB/s).  The stacks' catastrophic-
# temperature outputs drive hbm_cattrip.  The HBM has no package pins of ours: no memory XDC.
set zk_c1100_memory [dict create type HBM stacks 2 stack_gb 4 stack_ports 16 group_ports 4 pc_mb 256 \
    axi_mhz 450 refclk_mhz 100 apb_mhz 100 cattrip hbm_cattrip]

# core_mhz: the core clock a build gets by default, and the clock every projection of the benchmark report is
# made at (zkspinal/bench reads it here).
set zk_board_c1100 [dict create name c1100 core_mhz 250 part xcu55n-fsvh2892-2L-e \
    xdma [dict create lanes X8 speed 8.0_GT/s bytes 32 device_id 9038] \
    sysclk_hz 100000000 \
    tie_outputs {hbm_cattrip 0} \
    memory $zk_c1100_memory \
    flash FlashCtrl_c1100 \
    xdc [file join $zk::root vivado constraints c1100.xdc] \
    default_cores {PoseidonAxis_pc2 PoseidonAxis_c1100 PoseidonAxis_* KeccakSpongeAxis_r24 KeccakSpongeAxis_*}]

if {![info exists ::zk_bd_library_only]} {
    set opts [zk::options $::argv [dict create core "" core-mhz [dict get $zk_board_c1100 core_mhz] fifo-depth 4096 out build/vivado/c1100 ip build/ip] \
        {bd_c1100.tcl [--core TOP] [--core-mhz MHZ] [--fifo-depth N] [--out DIR] [--ip DIR]}]
    if {[dict get $opts core] eq ""} { dict set opts core [zk::bd::default_core [dict get $zk_board_c1100 default_cores]] }
    set zk_top [zk::bd::build $zk_board_c1100 $opts]
}
