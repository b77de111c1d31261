# Card memory on DDR4 DIMMs (the VU9P card): one DDR4 controller (xilinx.com:ip:ddr4:2.2, AXI4 slave) per memory
# channel of the core, its pins from the board's pin table.  Sourced by zk_bd.tcl, which dispatches on the board
# memory's `type` (zk::bd::memory_plan, zk::bd::memory_build); the data path is in zk_bd.tcl's header.

# DDR4 (board memory `type DDR4`): channel c of the core goes to DIMM c, so the core may have at most as many
# channels as the board has DIMMs, each as wide as the controller's AXI port and addressing at most one DIMM.
proc zk::bd::ddr4_plan {board core_top ifs masters} {
    set m [dict get $board memory]
    set n [llength $masters]
    if {$n > [llength [dict get $m slrs]]} {
        error "zk: $core_top has $n memory channels; board [dict get $board name] has [llength [dict get $m slrs]] DIMMs"
    }
    if {[set wbits [zk::manifest_number $core_top window_bits 0]]} {
        error "zk: $core_top: its memory channels are windows of 2^$wbits bytes in one address space (an HBM layout,\
            PointStoreConfig.sharedSpace); a DDR4 channel is a memory of its own from address 0"
    }
    foreach p $masters {
        if {[dict get $ifs axi $p data] != [dict get $m axi_data_bits]} {
            error "zk: $core_top $p: [dict get $ifs axi $p data]-bit data, the DDR4 controller's AXI port has [dict get $m axi_data_bits]"
        }
        if {[dict get $ifs axi $p addr] > [dict get $m axi_addr_bits]} {
            error "zk: $core_top $p: [dict get $ifs axi $p addr]-bit addresses, one DIMM has [dict get $m axi_addr_bits]"
        }
    }
}

# Board ports, controllers, clock crossings and SLR crossings of the DDR4 channels (zk_bd.tcl's header), and their pins
# (OUT/<name>_ddr4.xdc, added to the project's constraints).
proc zk::bd::ddr4_build {board core_top ifs masters out name} {
    set m [dict get $board memory]
    set shell [dict get $m shell_slr]
    # the controllers' asynchronous reset: held while the host holds PCIe PERST#
    zk::bd::cell xilinx.com:ip:util_vector_logic:2.0 mem_rst [list CONFIG.C_OPERATION not CONFIG.C_SIZE 1]
    connect_bd_net [get_bd_ports pcie_perstn] [zk::bd::pin mem_rst/Op1]
    set c 0
    foreach p $masters {
        set ddr ddr4_$c
        create_bd_intf_port -mode Master -vlnv xilinx.com:interface:ddr4_rtl:1.0 ddr4_c$c
        set rc [create_bd_intf_port -mode Slave -vlnv xilinx.com:interface:diff_clock_rtl:1.0 ddr4_c${c}_refclk]
        set_property CONFIG.FREQ_HZ [dict get $m refclk_hz] $rc
        zk::bd::cell xilinx.com:ip:ddr4:2.2 $ddr [list \
            CONFIG.C0.DDR4_MemoryType [dict get $m memory_type] \
            CONFIG.C0.DDR4_MemoryPart [dict get $m part] \
            CONFIG.C0.DDR4_DataWidth [dict get $m data_bits] \
            CONFIG.C0.DDR4_DataMask NONE \
            CONFIG.C0.DDR4_Ecc true \
            CONFIG.C0.DDR4_EN_PARITY true \
            CONFIG.C0.DDR4_TimePeriod [dict get $m tck_ps] \
            CONFIG.C0.DDR4_InputClockPeriod [dict get $m refclk_ps] \
            CONFIG.C0.DDR4_CasLatency [dict get $m cl] \
            CONFIG.C0.DDR4_CasWriteLatency [dict get $m cwl] \
            CONFIG.C0.CS_WIDTH [dict get $m ranks] CONFIG.C0.CKE_WIDTH [dict get $m ranks] \
            CONFIG.C0.ODT_WIDTH [dict get $m ranks] \
            CONFIG.C0.DDR4_AxiSelection true \
            CONFIG.C0.DDR4_AxiDataWidth [dict get $m axi_data_bits] \
            CONFIG.C0.DDR4_AxiAddressWidth [dict get $m axi_addr_bits] \
            CONFIG.C0.DDR4_AxiIDWidth [expr {max(1, [dict get $ifs axi $p id])}] \
            CONFIG.C0.DDR4_Mem_Add_Map ROW_COLUMN_BANK_INTLV]
        connect_bd_intf_net [zk::bd::ipin $ddr/C0_DDR4] [get_bd_intf_ports ddr4_c$c]
        connect_bd_intf_net [get_bd_intf_ports ddr4_c${c}_refclk] [zk::bd::ipin $ddr/C0_SYS_CLK]
        zk::bd::net mem_rst/Res $ddr/sys_rst
        zk::bd::cell xilinx.com:ip:proc_sys_reset:5.0 rst_ddr$c [list CONFIG.C_EXT_RESET_HIGH 1]
        zk::bd::net $ddr/c0_ddr4_ui_clk rst_ddr$c/slowest_sync_clk
        zk::bd::net $ddr/c0_ddr4_ui_clk_sync_rst rst_ddr$c/ext_reset_in
        zk::bd::net const_1/dout rst_ddr$c/dcm_locked
        zk::bd::net rst_ddr$c/peripheral_aresetn $ddr/c0_ddr4_aresetn
        # core clock -> ui_clk.  Not on the host's RESET pulse: the point store finishes or drains what it has in
        # flight after a soft reset, and a reset interconnect would lose it.
        zk::bd::cell xilinx.com:ip:smartconnect:1.0 mem${c}_cc [list CONFIG.NUM_SI 1 CONFIG.NUM_MI 1 CONFIG.NUM_CLKS 2]
        zk::bd::net core_clk/clk_out1 mem${c}_cc/aclk
        zk::bd::net $ddr/c0_ddr4_ui_clk mem${c}_cc/aclk1
        zk::bd::net rst_core/interconnect_aresetn mem${c}_cc/aresetn
        zk::bd::inet core/$p mem${c}_cc/S00_AXI
        set prev mem${c}_cc/M00_AXI
        set hops [expr {abs([string range [lindex [dict get $m slrs] $c] 3 end] - [string range $shell 3 end])}]
        if {$hops} {
            # Multi SLR Crossing on every channel: flop-to-flop, fanout 1 across each boundary (the floorplan puts
            # its slr_master side in the shell's SLR and its slr_slave side in the controller's)
            zk::bd::cell xilinx.com:ip:axi_register_slice:2.1 mem${c}_slr [list CONFIG.NUM_SLR_CROSSINGS $hops \
                CONFIG.REG_AW 15 CONFIG.REG_AR 15 CONFIG.REG_W 15 CONFIG.REG_R 15 CONFIG.REG_B 15]
            zk::bd::net $ddr/c0_ddr4_ui_clk mem${c}_slr/aclk
            zk::bd::net rst_ddr$c/interconnect_aresetn mem${c}_slr/aresetn
            zk::bd::inet $prev mem${c}_slr/S_AXI
            set prev mem${c}_slr/M_AXI
        }
        zk::bd::inet $prev $ddr/C0_DDR4_S_AXI
        assign_bd_address -offset 0x0 -range [expr {1 << [dict get $ifs axi $p addr]}] \
            -target_address_space [get_bd_addr_spaces core/$p] [get_bd_addr_segs $ddr/C0_DDR4_MEMORY_MAP/C0_DDR4_ADDRESS_BLOCK]
        incr c
    }
    set xdc [file join $out ${name}_ddr4.xdc]
    zk::bd::memory_xdc $m [llength $masters] $xdc
    add_files -fileset constrs_1 -norecurse $xdc
}

# The pins of the first `n` DDR4 channels, from the board's pin table (channel, signal, pins in index order), into
# an XDC.  The I/O standard follows from the signal; clock, clock enable, chip select and on-die termination have
# one pin per rank.
proc zk::bd::memory_xdc {m n file} {
    set std {adr SSTL12_DCI ba SSTL12_DCI bg SSTL12_DCI cke SSTL12_DCI cs_n SSTL12_DCI odt SSTL12_DCI
             act_n SSTL12_DCI par SSTL12_DCI ck_t DIFF_SSTL12_DCI ck_c DIFF_SSTL12_DCI dq POD12_DCI
             dqs_t DIFF_POD12_DCI dqs_c DIFF_POD12_DCI reset_n LVCMOS12 refclk_p LVDS refclk_n LVDS}
    set per_rank {ck_t ck_c cke cs_n odt}
    set scalar {act_n par reset_n}
    set f [open [dict get $m pins]]
    set rows [split [read $f] "\n"]
    close $f
    set lines [list "# DDR4 pins of [dict get $m pins] for $n channel(s), written by zk::bd::memory_xdc"]
    set seen {}
    foreach row $rows {
        if {[string match "#*" $row] || [string trim $row] eq ""} { continue }
        lassign [split $row "\t"] ch sig pins
        if {![regexp {^c(\d+)$} $ch -> c] || $c >= $n} { continue }
        if {![dict exists $std $sig]} { continue }
        dict set seen $ch $sig 1
        if {$sig in $per_rank} { set pins [lrange $pins 0 [expr {[dict get $m ranks] - 1}]] }
        if {[string match refclk_* $sig]} {
            set ports [list ddr4_${ch}_refclk_clk_[string index $sig end]]
        } elseif {$sig in $scalar} {
            set ports [list ddr4_${ch}_$sig]
        } else {
            set ports {}
            for {set i 0} {$i < [llength $pins]} {incr i} { lappend ports "ddr4_${ch}_$sig\[$i\]" }
        }
        foreach port $ports pin $pins {
            lappend lines "set_property -dict {PACKAGE_PIN $pin IOSTANDARD [dict get $std $sig]} \[get_ports {$port}\]"
        }
    }
    for {set c 0} {$c < $n} {incr c} {
        foreach sig [dict keys $std] {
            if {![dict exists $seen c$c $sig]} { error "zk: [dict get $m pins] has no $sig pins for channel c$c" }
        }
    }
    file mkdir [file dirname $file]
    set f [open $file w]
    puts $f [join $lines "\n"]
    close $f
    return $file
}
