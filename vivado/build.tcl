# Batch build from the emitted Verilog to a bitstream: IP packaging and block design (bd_<board>.tcl), synthesis,
# implementation, utilization / timing / clock-interaction / CDC reports, bitstream, optionally a flash image.
#
#   vivado -mode batch -source vivado/build.tcl -tclargs --board c1100|vu9p [--core TOP] [--core-mhz MHZ]
#          [--fifo-depth N] [--jobs 2] [--out build/vivado/BOARD] [--ip build/ip] [--flash-mb SIZE]
#
# Writes OUT/zk_BOARD.bit and .bin (the update image zk-flash writes), OUT/reports/*.rpt, and, when --flash-mb gives
# the configuration flash size in MB (not assumed: read it from the card's documentation), the flash layout of
# sw/README.md: OUT/zk_BOARD_golden.bit (NEXT_CONFIG_ADDR = half the flash: at power-up it reboots into the update
# slot, and with CONFIGFALLBACK (constraints/*.xdc) a bad update image falls back to it) and OUT/zk_BOARD.mcs with
# the golden image at 0 and the update image at half the flash.  Exits 2 when timing is not met (the bitstream is
# still written, for inspection).
set zk_here [file dirname [file normalize [info script]]]
set ::zk_bd_library_only 1
source [file join $zk_here lib zk_rtl.tcl]

set opts [zk::options $::argv [dict create board "" core "" core-mhz "" fifo-depth 4096 jobs 2 out "" ip build/ip flash-mb ""] \
    {build.tcl --board c1100|vu9p [--core TOP] [--core-mhz MHZ] [--fifo-depth N] [--jobs N] [--out DIR] [--ip DIR] [--flash-mb SIZE]}]
set board [dict get $opts board]
if {$board ni {c1100 vu9p}} { error "build.tcl: --board c1100 or vu9p (got '$board')" }
source [file join $zk_here bd_$board.tcl]
set spec [set zk_board_$board]
if {[dict get $opts out] eq ""} { dict set opts out build/vivado/$board }
if {[dict get $opts core-mhz] eq ""} { dict set opts core-mhz [dict get $spec core_mhz] }
if {[dict get $opts core] eq ""} { dict set opts core [zk::bd::default_core [dict get $spec default_cores]] }
source [file join $zk_here lib zk_fit.tcl]
zk::fit::check $board [dict get $opts core]
set flash_mb [dict get $opts flash-mb]
if {$flash_mb ne "" && (![string is integer -strict $flash_mb] || $flash_mb < 1)} { error "build.tcl: --flash-mb $flash_mb" }
set jobs [dict get $opts jobs]
if {![string is integer -strict $jobs] || $jobs < 1} { error "build.tcl: --jobs $jobs" }
set out [file normalize [dict get $opts out]]
set reports [file join $out reports]
file mkdir $reports

set top [zk::bd::build $spec $opts]
generate_target all [get_files zk_$board.bd]
# register chains shorter than the core's shreg_min_size stay in flip-flops (its manifest entry; yosys' figures in
# vivado/fit/records.tsv were taken with the same setting): the core's out-of-context run and the top's
create_ip_run [get_files zk_$board.bd]
set shreg [zk::manifest_number [dict get $opts core] shreg_min_size 3]
foreach run [get_runs -quiet {synth_1 zk_*_core_0_synth_1}] {
    set_property STEPS.SYNTH_DESIGN.ARGS.SHREG_MIN_SIZE $shreg $run
}

launch_runs synth_1 -jobs $jobs
wait_on_run synth_1
if {[get_property PROGRESS [get_runs synth_1]] ne "100%"} { error "build.tcl: synthesis failed (see $out)" }
launch_runs impl_1 -to_step route_design -jobs $jobs
wait_on_run impl_1
if {[get_property PROGRESS [get_runs impl_1]] ne "100%"} { error "build.tcl: implementation failed (see $out)" }
open_run impl_1

report_utilization -file [file join $reports utilization.rpt]
report_utilization -hierarchical -hierarchical_depth 3 -file [file join $reports utilization_hier.rpt]
report_timing_summary -max_paths 20 -warn_on_violation -file [file join $reports timing_summary.rpt]
report_clock_interaction -file [file join $reports clock_interaction.rpt]
report_cdc -file [file join $reports cdc.rpt]
# the update image: no IPROG of its own (loaded by the golden image or by zk-flash reload, it must not reboot)
set bit [file join $out zk_$board.bit]
set_property BITSTREAM.CONFIG.NEXT_CONFIG_REBOOT DISABLE [current_design]
write_bitstream -force -bin_file $bit
if {$flash_mb ne ""} {
    set half [format 0x%08X [expr {$flash_mb << 19}]]
    set golden [file join $out zk_${board}_golden.bit]
    set_property BITSTREAM.CONFIG.NEXT_CONFIG_ADDR $half [current_design]
    set_property BITSTREAM.CONFIG.NEXT_CONFIG_REBOOT ENABLE [current_design]
    write_bitstream -force $golden
    write_cfgmem -force -format mcs -size $flash_mb -interface SPIx4 -loadbit "up 0x0 $golden up $half $bit" \
        [file join $out zk_$board.mcs]
}
set wns [get_property STATS.WNS [get_runs impl_1]]
set whs [get_property STATS.WHS [get_runs impl_1]]
puts "build.tcl: $bit (core [dict get $opts core] at [dict get $opts core-mhz] MHz): WNS $wns ns, WHS $whs ns; reports in $reports"
if {$wns < 0 || $whs < 0} {
    puts "build.tcl: timing NOT met: lower --core-mhz or see $reports/timing_summary.rpt"
    exit 2
}
