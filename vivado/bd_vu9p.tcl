# Block design for a VU9P card of the VCU1525 class (xcvu9p-fsgd2104-2L-e) with the MSM engine: XDMA Gen3 x16,
# 512-bit AXI4-Stream at 250 MHz, two H2C channels (scalars, points) into FIFOs of --fifo-depth entries (seed 002:
# 4K entries keep a host writing the two streams in chunks from deadlocking or starving the core), one C2H channel
# for the buckets, the user BAR as on the C1100.  See vivado/lib/zk_bd.tcl and README.md (AWS F1).
#
#   vivado -mode batch -source vivado/bd_vu9p.tcl -tclargs [--core TOP] [--core-mhz 278] [--fifo-depth 4096]
#                                                         [--out build/vivado/vu9p] [--ip build/ip]
# Default core: MsmAxis (the VU9P configuration first) when emitted, else PairFixture (the same two-FIFO shape).
source [file join [file dirname [file normalize [info script]]] lib zk_bd.tcl]

# core_mhz: the core clock a build gets by default, and the clock every projection of the benchmark report is
# made at (zkspinal/bench reads it here).
set zk_board_vu9p [dict create name vu9p core_mhz 278 part xcvu9p-fsgd2104-2L-e \
    xdma [dict create lanes X16 speed 8.0_GT/s bytes 64 device_id 903F] \
    sysclk_hz 300000000 \
    flash FlashCtrl_vu9p \
    xdc [file join $zk::root vivado constraints vu9p.xdc] \
    default_cores {MsmAxis_vu9p MsmAxis_* PairFixture_*}]

if {![info exists ::zk_bd_library_only]} {
    set opts [zk::options $::argv [dict create core "" core-mhz [dict get $zk_board_vu9p core_mhz] fifo-depth 4096 out build/vivado/vu9p ip build/ip] \
        {bd_vu9p.tcl [--core TOP] [--core-mhz MHZ] [--fifo-depth N] [--out DIR] [--ip DIR]}]
    if {[dict get $opts core] eq ""} { dict set opts core [zk::bd::default_core [dict get $zk_board_vu9p default_cores]] }
    set zk_top [zk::bd::build $zk_board_vu9p $opts]
}
