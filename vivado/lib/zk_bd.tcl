# The block design shared by the board scripts (bd_c1100.tcl, bd_vu9p.tcl): XDMA in AXI4-Stream mode, one zkspinal
# core on the core clock, and the system block, wired generically from the core's ports (vivado/lib/zk_rtl.tcl).
#
#   clock domains   xdma:  XDMA axi_aclk (250 MHz)         core: clock wizard clk_out1 (--core-mhz)
#   crossings       axis_data_fifo with IS_ACLK_ASYNC=1 (TLAST, TKEEP) per stream; the SmartConnect (two clocks)
#                   on the AXI4-Lite path; proc_sys_reset synchronizers for the resets.  Nothing else crosses.
#   H2C channel k   k-th AXI4-Stream slave of the core:  XDMA M_AXIS_H2C_k -> async FIFO -> [width converter]
#                   -> [InbandLast, for kinds that need TLAST per frame] -> core
#   C2H channel k   k-th AXI4-Stream master of the core: core -> [width converter] -> async FIFO -> XDMA S_AXIS_C2H_k
#   user BAR        XDMA M_AXI_LITE -> SmartConnect -> core AXI4-Lite slave at 0x00000 (64 KiB)
#                                                 -> SystemBlock at 0x10000 (4 KiB)
#                                                 -> FlashCtrl_<board> at 0x20000 (64 KiB; XDMA clock domain)
#   flash           FlashCtrl (configuration flash through STARTUPE3, IPROG through ICAPE3): aclk/aresetn are the
#                   XDMA's axi_aclk/axi_aresetn (the host's RESET pulse does not reach it: a core reset must not cut
#                   a flash write), icap_clk the clock wizard's clk_out2 (see zk::bd::icap_mhz)
#   resets          rst_core (core clock): XDMA axi_aresetn and the clock wizard's locked -> system block;
#                   system block core_aresetn (host RESET register, 16 cycles) -> core, adapters, C2H FIFOs;
#                   rst_xdma (XDMA clock): axi_aresetn and, through its aux input, core_aresetn -> H2C FIFOs
#   status words    the core's status_* outputs in port order, then each adapter's -> SystemBlock status_i
#   identity        the core's constant ident_kind/config/version outputs -> the SystemBlock inputs of the same names
#                   (its KIND, CONFIG, VERSION words: how the host tells which core a card carries)
#   card memory     the core's AXI4 masters m_axi_mem<c> (the MSM point store), by the board dict's memory `type`:
#                   DDR4 (zk_ddr4.tcl, the VU9P): one controller per channel, core -> SmartConnect mem<c>_cc (core
#                   clock -> the controller's ui_clk) -> [axi_register_slice mem<c>_slr, Multi SLR Crossing, when the
#                   controller's I/O banks are in another SLR than the shell] -> ddr4_<c> (xilinx.com:ip:ddr4:2.2) ->
#                   DIMM c.  Controller resets: sys_rst = NOT pcie_perstn (mem_rst); c0_ddr4_aresetn from rst_ddr<c>
#                   on the ui_clk.  The pins come from the board's pin table (vivado/constraints/<board>_ddr4_pins.tsv)
#                   through zk::bd::memory_xdc, which writes them into OUT/<name>_ddr4.xdc.
#                   HBM (zk_hbm.tcl, the C1100): core -> SmartConnect mem<c>_cc (core clock -> the HBM AXI clock,
#                   512 -> 256 bits) -> hbm/SAXI_<4c>, its window the pseudo-channels 4c..4c+3 at c * 1 GiB; the
#                   HBM's clocks from the core wizard's 100 MHz output and a cascaded wizard hbm_clk, its stacks'
#                   CATTRIP flags ORed onto hbm_cattrip (tied low, tie_outputs, in a design without HBM).
#                   A DDR4 controller takes no request before calibration (a job started early stalls and the core's
#                   watchdog reports it); the HBM's behaviour before its initialization is to be checked (zk_hbm.tcl).
source [file join [file dirname [file normalize [info script]]] zk_rtl.tcl]
source [file join [file dirname [file normalize [info script]]] zk_contract.tcl]
set ::zk_library_only 1
source [file join [file dirname [file normalize [info script]]] .. package_ip.tcl]

namespace eval zk::bd {
    # kinds whose H2C streams carry several frames per DMA write, framed by the in-band flag (InbandLast)
    variable inband_kinds {PoseidonAxis}
    # the user BAR map: zk_contract.tcl (generated from UserBar and SystemBlockRegs)
    variable core_window [expr {$zk::contract::user_bar_system - $zk::contract::user_bar_core}]
    variable sys_offset $zk::contract::user_bar_system
    variable sys_range $zk::contract::system_window_bytes
    variable flash_offset $zk::contract::user_bar_flash
    variable flash_range [expr {$zk::contract::user_bar_map_bytes - $zk::contract::user_bar_flash}]
    # ICAPE3 runs at up to 200 MHz (DS923).  The XDMA's axi_aclk is 250 MHz and the design has no 125 MHz clock, so
    # the clock wizard (already fed by the board clock, running before the PCIe link is up) gets a second output at
    # 100 MHz for it.  FlashCtrl crosses between aclk and icap_clk inside (BufferCC of a toggle, quasi-static WBSTAR).
    variable icap_mhz 100
    # the user BAR (XDMA axilite_master_size in MB) covers the core window, the system block and the flash window;
    # sw/ maps ZK_USER_MAP_BYTES = 0x30000 of it
    variable bar_mb 1
}
# card memory by technology (zk::bd::memory_plan, memory_build below)
source [file join [file dirname [file normalize [info script]]] zk_ddr4.tcl]
source [file join [file dirname [file normalize [info script]]] zk_hbm.tcl]

proc zk::bd::cell {vlnv name {props {}}} {
    set c [create_bd_cell -type ip -vlnv $vlnv $name]
    if {[llength $props]} { set_property -dict $props $c }
    return $c
}
proc zk::bd::pin {p} {
    set r [get_bd_pins $p]
    if {$r eq ""} { error "zk: no pin $p" }
    return $r
}
proc zk::bd::ipin {p} {
    set r [get_bd_intf_pins $p]
    if {$r eq ""} { error "zk: no interface pin $p" }
    return $r
}
proc zk::bd::net {from args} {
    connect_bd_net [zk::bd::pin $from] {*}[lmap p $args {zk::bd::pin $p}]
}
proc zk::bd::inet {a b} {
    connect_bd_intf_net [zk::bd::ipin $a] [zk::bd::ipin $b]
}

# The smallest emitted SystemBlock with at least n status inputs.
proc zk::bd::system_block_for {n} {
    set best ""
    foreach t [zk::rtl_tops SystemBlock_s*] {
        regexp {_s(\d+)$} $t -> k
        if {$k >= $n && ($best eq "" || $k < $bk)} { set best $t; set bk $k }
    }
    if {$best eq ""} { error "zk: no emitted SystemBlock has $n status inputs (add a SystemBlockConfig)" }
    return $best
}

# board: dict with part, name, xdma {lanes speed bytes device_id}, sysclk_hz, xdc; opts: core, core-mhz,
# fifo-depth, out, ip.  Returns the wrapper's top name.
proc zk::bd::build {board opts} {
    set name zk_[dict get $board name]
    set part [dict get $board part]
    set core_top [dict get $opts core]
    set out [file normalize [dict get $opts out]]
    set ipdir [file normalize [dict get $opts ip]]
    set core_mhz [dict get $opts core-mhz]
    set depth [dict get $opts fifo-depth]
    if {![string is integer -strict $core_mhz] || $core_mhz < 10 || $core_mhz > 800} { error "zk: --core-mhz $core_mhz: 10..800" }
    if {![string is integer -strict $depth] || $depth < 16 || ($depth & ($depth - 1))} { error "zk: --fifo-depth $depth: a power of two >= 16" }
    set xbytes [dict get $board xdma bytes]

    # ---- plan from the core's ports
    set ifs [zk::interfaces $core_top]
    set kind [zk::kind $core_top]
    set h2c {}
    set c2h {}
    dict for {p a} [dict get $ifs axis] {
        if {[dict get $a mode] eq "slave"} { lappend h2c $p } else { lappend c2h $p }
    }
    if {[llength $h2c] > 4 || [llength $c2h] > 4} { error "zk: $core_top has [llength $h2c] input and [llength $c2h] output streams: XDMA has 4 channels each way" }
    set axil [dict keys [dict get $ifs axil]]
    if {[llength $axil] > 1} { error "zk: $core_top has [llength $axil] AXI4-Lite ports: the user BAR has one core window" }
    foreach p $axil {
        if {[dict get $ifs axil $p mode] ne "slave"} { error "zk: $core_top $p: an AXI4-Lite master cannot sit on the user BAR" }
        if {(1 << [dict get $ifs axil $p addr]) > $zk::bd::core_window} { error "zk: $core_top $p: address window larger than 64 KiB" }
    }
    if {[dict get $ifs ident] eq {}} {
        error "zk: $core_top has no identity outputs ([join $zk::ident_ports ,]): the host tells a card's core by them (IdentifiedCore, hw/src/zkspinal/contract/CoreIdentity.scala)"
    }
    # status words: {cell port} pairs, the core's first
    set status [lmap s [dict get $ifs status] {list core $s}]
    set adapters [dict create]
    if {$kind in $zk::bd::inband_kinds} {
        foreach p $h2c {
            set a InbandLast_b[dict get $ifs axis $p width]
            if {![zk::rtl_exists $a]} { error "zk: $core_top needs $a (emit it: InbandLastConfig with dataBytes [dict get $ifs axis $p width])" }
            dict set adapters $p $a
            foreach s [dict get [zk::interfaces $a] status] { lappend status [list h2c[lsearch $h2c $p]_frames $s] }
        }
    }
    set sys_top [zk::bd::system_block_for [llength $status]]
    if {[dict get [zk::interfaces $sys_top] ident_in] eq {}} { error "zk: $sys_top has no identity inputs: emit it again" }
    set flash_top [dict get $board flash]
    if {![zk::rtl_exists $flash_top]} { error "zk: $flash_top is missing: emit it (Emit --only 'FlashCtrl.*')" }
    set fifs [zk::interfaces $flash_top]
    if {[dict keys [dict get $fifs axil]] ne {s_axil} || [dict get $fifs aux_clocks] ne {icap_clk}} {
        error "zk: $flash_top: expected an AXI4-Lite slave s_axil and an icap_clk input"
    }
    if {(1 << [dict get $fifs axil s_axil addr]) > $zk::bd::flash_range} { error "zk: $flash_top: register window larger than 64 KiB" }
    set mem [zk::bd::memory_plan $board $core_top $ifs]

    # ---- project and IP
    set tops [lsort -unique [concat $core_top $sys_top $flash_top [dict values $adapters]]]
    foreach t $tops { zk::package_top $t $ipdir $part }
    create_project -force $name $out -part $part
    set_property ip_repo_paths [list $ipdir] [current_project]
    update_ip_catalog
    create_bd_design $name

    # ---- board ports: PCIe refclk, PERST#, lanes, system clock
    set refclk [create_bd_intf_port -mode Slave -vlnv xilinx.com:interface:diff_clock_rtl:1.0 pcie_refclk]
    set_property CONFIG.FREQ_HZ 100000000 $refclk
    set perst [create_bd_port -dir I -type rst pcie_perstn]
    set_property CONFIG.POLARITY ACTIVE_LOW $perst
    create_bd_intf_port -mode Master -vlnv xilinx.com:interface:pcie_7x_mgt_rtl:1.0 pci_express
    set sysclk [create_bd_intf_port -mode Slave -vlnv xilinx.com:interface:diff_clock_rtl:1.0 sysclk]
    set_property CONFIG.FREQ_HZ [dict get $board sysclk_hz] $sysclk

    # ---- XDMA
    zk::bd::cell xilinx.com:ip:util_ds_buf:2.2 refclk_buf [list CONFIG.C_BUF_TYPE IBUFDSGTE]
    set xd [dict get $board xdma]
    zk::bd::cell xilinx.com:ip:xdma:4.1 xdma_0 [list \
        CONFIG.mode_selection Advanced \
        CONFIG.pl_link_cap_max_link_width [dict get $xd lanes] \
        CONFIG.pl_link_cap_max_link_speed [dict get $xd speed] \
        CONFIG.axi_data_width [expr {$xbytes * 8}]_bit \
        CONFIG.axisten_freq 250 \
        CONFIG.pf0_device_id [dict get $xd device_id] \
        CONFIG.xdma_axi_intf_mm AXI_Stream \
        CONFIG.xdma_rnum_chnl [expr {max(1, [llength $h2c])}] \
        CONFIG.xdma_wnum_chnl [expr {max(1, [llength $c2h])}] \
        CONFIG.axilite_master_en true \
        CONFIG.axilite_master_size $zk::bd::bar_mb \
        CONFIG.axilite_master_scale Megabytes \
        CONFIG.xdma_num_usr_irq 1]
    connect_bd_intf_net [get_bd_intf_ports pcie_refclk] [zk::bd::ipin refclk_buf/CLK_IN_D]
    zk::bd::net refclk_buf/IBUF_OUT xdma_0/sys_clk_gt
    zk::bd::net refclk_buf/IBUF_DS_ODIV2 xdma_0/sys_clk
    connect_bd_net [get_bd_ports pcie_perstn] [zk::bd::pin xdma_0/sys_rst_n]
    connect_bd_intf_net [zk::bd::ipin xdma_0/pcie_mgt] [get_bd_intf_ports pci_express]
    zk::bd::cell xilinx.com:ip:xlconstant:1.1 const_0 [list CONFIG.CONST_VAL 0 CONFIG.CONST_WIDTH 1]
    zk::bd::cell xilinx.com:ip:xlconstant:1.1 const_1 [list CONFIG.CONST_VAL 1 CONFIG.CONST_WIDTH 1]
    zk::bd::net const_0/dout xdma_0/usr_irq_req
    # board outputs held at a constant level (C1100: hbm_cattrip low when the design has no HBM)
    foreach {port level} [zk::bd::tied_outputs $board $mem] {
        create_bd_port -dir O $port
        connect_bd_net [zk::bd::pin const_$level/dout] [get_bd_ports $port]
    }

    # ---- core clock and resets
    zk::bd::cell xilinx.com:ip:clk_wiz:6.0 core_clk [list \
        CONFIG.PRIM_SOURCE Differential_clock_capable_pin \
        CONFIG.PRIM_IN_FREQ [expr {[dict get $board sysclk_hz] / 1000000.0}] \
        CONFIG.CLKOUT1_REQUESTED_OUT_FREQ $core_mhz \
        CONFIG.CLKOUT2_USED true CONFIG.CLKOUT2_REQUESTED_OUT_FREQ $zk::bd::icap_mhz \
        CONFIG.USE_RESET false CONFIG.USE_LOCKED true]
    connect_bd_intf_net [get_bd_intf_ports sysclk] [zk::bd::ipin core_clk/CLK_IN1_D]
    zk::bd::cell xilinx.com:ip:proc_sys_reset:5.0 rst_core [list CONFIG.C_EXT_RESET_HIGH 0 CONFIG.C_AUX_RESET_HIGH 0]
    zk::bd::net core_clk/clk_out1 rst_core/slowest_sync_clk
    zk::bd::net core_clk/locked rst_core/dcm_locked
    zk::bd::net xdma_0/axi_aresetn rst_core/ext_reset_in
    if {[llength $h2c]} {
        # the H2C FIFOs' resets, on the XDMA clock: the link's reset and the host's RESET pulse (aux input)
        zk::bd::cell xilinx.com:ip:proc_sys_reset:5.0 rst_xdma [list CONFIG.C_EXT_RESET_HIGH 0 CONFIG.C_AUX_RESET_HIGH 0]
        zk::bd::net xdma_0/axi_aclk rst_xdma/slowest_sync_clk
        zk::bd::net xdma_0/axi_aresetn rst_xdma/ext_reset_in
        zk::bd::net const_1/dout rst_xdma/dcm_locked
    }

    # ---- system block, core, adapters
    zk::bd::cell [zk::vlnv $sys_top] sys
    zk::bd::net core_clk/clk_out1 sys/aclk
    zk::bd::net rst_core/peripheral_aresetn sys/aresetn
    if {[llength $h2c]} { zk::bd::net sys/core_aresetn rst_xdma/aux_reset_in }
    zk::bd::cell [zk::vlnv $core_top] core
    zk::bd::net core_clk/clk_out1 core/aclk
    zk::bd::net sys/core_aresetn core/aresetn

    # ---- user BAR: SmartConnect on both clocks
    zk::bd::cell xilinx.com:ip:smartconnect:1.0 axil_ic [list CONFIG.NUM_SI 1 CONFIG.NUM_MI [expr {2 + [llength $axil]}] CONFIG.NUM_CLKS 2]
    zk::bd::net xdma_0/axi_aclk axil_ic/aclk
    zk::bd::net core_clk/clk_out1 axil_ic/aclk1
    zk::bd::net xdma_0/axi_aresetn axil_ic/aresetn
    zk::bd::inet xdma_0/M_AXI_LITE axil_ic/S00_AXI
    zk::bd::inet axil_ic/M00_AXI sys/s_axil
    assign_bd_address -offset $zk::bd::sys_offset -range $zk::bd::sys_range \
        -target_address_space [get_bd_addr_spaces xdma_0/M_AXI_LITE] [get_bd_addr_segs sys/s_axil/regs]
    foreach p $axil {
        zk::bd::inet axil_ic/M01_AXI core/$p
        assign_bd_address -offset 0x0 -range $zk::bd::core_window \
            -target_address_space [get_bd_addr_spaces xdma_0/M_AXI_LITE] [get_bd_addr_segs core/$p/regs]
    }
    # the flash controller on the last master port, in the XDMA clock domain
    zk::bd::cell [zk::vlnv $flash_top] flash
    zk::bd::net xdma_0/axi_aclk flash/aclk
    zk::bd::net xdma_0/axi_aresetn flash/aresetn
    zk::bd::net core_clk/clk_out2 flash/icap_clk
    zk::bd::inet [format axil_ic/M%02d_AXI [expr {1 + [llength $axil]}]] flash/s_axil
    assign_bd_address -offset $zk::bd::flash_offset -range $zk::bd::flash_range \
        -target_address_space [get_bd_addr_spaces xdma_0/M_AXI_LITE] [get_bd_addr_segs flash/s_axil/regs]

    # ---- streams
    set k 0
    foreach p $h2c {
        set w [dict get $ifs axis $p width]
        zk::bd::cell xilinx.com:ip:axis_data_fifo:2.0 h2c${k}_fifo [list CONFIG.FIFO_DEPTH $depth \
            CONFIG.TDATA_NUM_BYTES $xbytes CONFIG.HAS_TLAST 1 CONFIG.HAS_TKEEP 1 CONFIG.IS_ACLK_ASYNC 1]
        zk::bd::inet xdma_0/M_AXIS_H2C_$k h2c${k}_fifo/S_AXIS
        zk::bd::net xdma_0/axi_aclk h2c${k}_fifo/s_axis_aclk
        zk::bd::net rst_xdma/peripheral_aresetn h2c${k}_fifo/s_axis_aresetn
        zk::bd::net core_clk/clk_out1 h2c${k}_fifo/m_axis_aclk
        set prev h2c${k}_fifo/M_AXIS
        if {$w != $xbytes} {
            zk::bd::converter h2c${k}_width $xbytes $w
            zk::bd::inet $prev h2c${k}_width/S_AXIS
            set prev h2c${k}_width/M_AXIS
        }
        if {[dict exists $adapters $p]} {
            zk::bd::cell [zk::vlnv [dict get $adapters $p]] h2c${k}_frames
            zk::bd::net core_clk/clk_out1 h2c${k}_frames/aclk
            zk::bd::net sys/core_aresetn h2c${k}_frames/aresetn
            zk::bd::inet $prev h2c${k}_frames/s_axis
            set prev h2c${k}_frames/m_axis
        }
        zk::bd::inet $prev core/$p
        incr k
    }
    set k 0
    foreach p $c2h {
        set w [dict get $ifs axis $p width]
        set prev core/$p
        if {$w != $xbytes} {
            zk::bd::converter c2h${k}_width $w $xbytes
            zk::bd::inet $prev c2h${k}_width/S_AXIS
            set prev c2h${k}_width/M_AXIS
        }
        zk::bd::cell xilinx.com:ip:axis_data_fifo:2.0 c2h${k}_fifo [list CONFIG.FIFO_DEPTH $depth \
            CONFIG.TDATA_NUM_BYTES $xbytes CONFIG.HAS_TLAST 1 CONFIG.HAS_TKEEP 1 CONFIG.IS_ACLK_ASYNC 1]
        zk::bd::inet $prev c2h${k}_fifo/S_AXIS
        zk::bd::net core_clk/clk_out1 c2h${k}_fifo/s_axis_aclk
        zk::bd::net sys/core_aresetn c2h${k}_fifo/s_axis_aresetn
        zk::bd::net xdma_0/axi_aclk c2h${k}_fifo/m_axis_aclk
        zk::bd::inet c2h${k}_fifo/M_AXIS xdma_0/S_AXIS_C2H_$k
        incr k
    }

    # ---- card memory: a DDR4 controller or an HBM port per AXI4 master of the core
    if {[llength $mem]} { zk::bd::memory_build $board $core_top $ifs $mem $out $name }

    # ---- status words: the core's, then the adapters'; unused inputs read 0
    set i 0
    foreach cs $status { zk::bd::net [join $cs /] sys/status_$i; incr i }
    set n [llength [dict get [zk::interfaces $sys_top] status_in]]
    if {$i < $n} {
        zk::bd::cell xilinx.com:ip:xlconstant:1.1 const_status [list CONFIG.CONST_VAL 0 CONFIG.CONST_WIDTH 32]
        for {} {$i < $n} {incr i} { zk::bd::net const_status/dout sys/status_$i }
    }
    # ---- the core's identity: KIND, CONFIG, VERSION of the system block
    foreach p $zk::ident_ports { zk::bd::net core/$p sys/$p }

    validate_bd_design
    save_bd_design
    set wrapper [make_wrapper -files [get_files $name.bd] -top]
    add_files -norecurse $wrapper
    set_property top ${name}_wrapper [current_fileset]
    add_files -fileset constrs_1 -norecurse [dict get $board xdc]
    update_compile_order -fileset sources_1
    puts "zk: block design $name: core $core_top ($kind), system block $sys_top, flash $flash_top, [llength $h2c] H2C / [llength $c2h] C2H channels, [llength $mem] [expr {[llength $mem] ? [dict get $board memory type] : "memory"}] channel(s), core clock $core_mhz MHz, FIFO depth $depth"
    return ${name}_wrapper
}

proc zk::bd::converter {name sbytes mbytes} {
    if {$sbytes % $mbytes && $mbytes % $sbytes} { error "zk: $name: $sbytes -> $mbytes bytes is not an integer ratio" }
    zk::bd::cell xilinx.com:ip:axis_dwidth_converter:1.1 $name [list CONFIG.S_TDATA_NUM_BYTES $sbytes \
        CONFIG.M_TDATA_NUM_BYTES $mbytes CONFIG.HAS_TLAST 1 CONFIG.HAS_TKEEP 1]
    zk::bd::net core_clk/clk_out1 $name/aclk
    zk::bd::net sys/core_aresetn $name/aresetn
}

# The first emitted top matching one of the glob patterns (board defaults: the intended core when it exists).
proc zk::bd::default_core {patterns} {
    foreach pat $patterns {
        set t [zk::rtl_tops $pat]
        if {[llength $t]} { return [lindex $t 0] }
    }
    error "zk: none of $patterns is emitted in $zk::rtl_dir"
}

# The core's AXI4 masters, in channel order (m_axi_mem0, m_axi_mem1, ...), checked against the board's card memory
# by its technology (the board dict's memory `type`: DDR4 in zk_ddr4.tcl, HBM in zk_hbm.tcl).
proc zk::bd::memory_plan {board core_top ifs} {
    set masters [dict keys [dict get $ifs axi]]
    if {![llength $masters]} { return {} }
    if {![dict exists $board memory]} {
        error "zk: $core_top has AXI4 memory ports ([join $masters ,]) and board [dict get $board name] has no card memory (DDR4 or HBM channels)"
    }
    set n [llength $masters]
    set channels {}
    for {set c 0} {$c < $n} {incr c} {
        set p m_axi_mem$c
        if {![dict exists $ifs axi $p] || [dict get $ifs axi $p mode] ne "master"} {
            error "zk: $core_top: memory channels must be AXI4 masters m_axi_mem0..m_axi_mem[expr {$n - 1}] (have [join $masters ,])"
        }
        lappend channels $p
    }
    zk::bd::[zk::bd::memory_kind $board]_plan $board $core_top $ifs $channels
    return $channels
}

# ddr4 or hbm: the procs of the board's memory technology
proc zk::bd::memory_kind {board} {
    set type [dict get $board memory type]
    if {$type ni {DDR4 HBM}} { error "zk: board [dict get $board name]: memory type $type (DDR4 or HBM)" }
    return [string tolower $type]
}

# Controllers, clocks, resets, crossings and address windows of the memory channels (and, for DDR4, their pins).
proc zk::bd::memory_build {board core_top ifs masters out name} {
    zk::bd::[zk::bd::memory_kind $board]_build $board $core_top $ifs $masters $out $name
}

# The board's constant outputs (tie_outputs: port level ...), less those the card memory drives (the HBM's
# catastrophic-temperature output: tied low only in a design without HBM).
proc zk::bd::tied_outputs {board mem} {
    set ties [expr {[dict exists $board tie_outputs] ? [dict get $board tie_outputs] : {}}]
    if {[llength $mem] && [dict exists $board memory cattrip]} { set ties [dict remove $ties [dict get $board memory cattrip]] }
    return $ties
}
