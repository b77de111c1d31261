# Card memory in the package's HBM2 (the Varium C1100): one HBM IP (xilinx.com:ip:hbm:1.0, PG276) and one of its
# AXI3 ports per memory channel of the core.  Sourced by zk_bd.tcl, which dispatches on the board memory's `type`.
#
#   channel c   core m_axi_mem<c> -> SmartConnect mem<c>_cc (core clock -> the HBM AXI clock; AXI4 512-bit bursts
#               -> AXI3 256-bit: the SmartConnect converts protocol, width and clock) -> hbm/SAXI_<4c>
#   window      the stack's AXI switch is built of 4-port groups: ports 4g..4g+3 and pseudo-channels 4g..4g+3 (256 MB
#               each) share a group, and a port reaching another group's pseudo-channel crosses the switch's lateral
#               links (PG276, "Lateral AXI Switch Access Throughput Loss").  Channel c uses one port per group,
#               SAXI_<4c>, and its window is that group's pseudo-channels: HBM addresses c * 1 GiB .. c * 1 GiB + 1 GiB
#               (HBM_MEM<4c> .. HBM_MEM<4c+3>, global addressing: the switch is enabled).  Hence at most 8 channels
#               (32 ports / 4) of at most 1 GiB each.  A SmartConnect forwards an address unchanged (PG247), so
#               channel c's addresses carry the base c * 1 GiB themselves: the point store's shared space
#               (PointStoreConfig.sharedSpace, the manifest's window_bits 30: 33-bit ports for 8 channels); a core
#               whose channels each address a memory of their own from 0 (the DDR4 layout) is refused.
#   clocks      HBM_REF_CLK_<s> and APB_<s>_PCLK: the core clock wizard's 100 MHz output (an MMCM/BUFG fed by the
#               board's 100 MHz sysclk pin, as PG276 "Clocking" asks of the reference); AXI_<xx>_ACLK: a second wizard
#               hbm_clk, cascaded from that output, at the board's axi_mhz (450: 256 bits at 450 MHz is the 14.4 GB/s
#               of one pseudo-channel), held in reset until the core wizard locks
#   resets      rst_hbm_apb (APB clock) and rst_hbm (AXI clock): PCIe PERST# and their wizard's locked, never the
#               host's RESET pulse (PG276: AXI_xx_ARESET_N only before traffic starts); the SmartConnects on
#               rst_core's interconnect reset, as on the DDR4 path
#   cattrip     DRAM_<s>_STAT_CATTRIP of every stack, ORed onto the board output `cattrip` (hbm_cattrip), which the
#               card's controller watches (tied low by zk_bd.tcl in a design without HBM)
#   apb_complete_<s>  left unconnected: the core cannot see it.  A job started before the stacks are initialized
#               stalls or fails on the port (to be checked on the first build) and the core's watchdog or its memory
#               error reports it, as with DDR4 calibration
# HBM parameters set here (names as in PG276 and the public block designs of xcu55n/U55C/U280 shells):
# USER_HBM_DENSITY, USER_HBM_STACK, USER_SWITCH_ENABLE_<s>, USER_SAXI_<xx>, USER_MC_ENABLE_<mc>,
# USER_PHY_ENABLE_<mc>, USER_MC_ENABLE_APB_01, USER_APB_EN, USER_CLK_SEL_LIST<s>, USER_AXI_CLK_FREQ,
# USER_HBM_REF_CLK_<s>, USER_APB_PCLK_<s>.  Everything else is the IP's default (its derived clock periods, the
# controllers' reordering and ECC settings); no parity pins are driven (AXI_xx_WDATA_PARITY stays at its default).

# Channels of the board (one per switch group) and the bytes of one channel's window (its group's pseudo-channels).
proc zk::bd::hbm_channels {m} {
    expr {[dict get $m stacks] * [dict get $m stack_ports] / [dict get $m group_ports]}
}
proc zk::bd::hbm_window {m} {
    expr {[dict get $m group_ports] * [dict get $m pc_mb] << 20}
}
# The bits of n channel indices (1 channel: 0 bits, 2: 1, 8: 3).
proc zk::bd::log2 {n} {
    set k 0
    while {(1 << $k) < $n} { incr k }
    return $k
}
# The stacks n channels use: channel c's port 4c is in stack 4c / 16.
proc zk::bd::hbm_stacks {m n} {
    set per [expr {[dict get $m stack_ports] / [dict get $m group_ports]}]
    expr {($n + $per - 1) / $per}
}

# At most one channel per switch group, each addressing at most its group's pseudo-channels, with a data width the
# SmartConnect converts to the port's 256 bits (PG247: 32..1024).
proc zk::bd::hbm_plan {board core_top ifs masters} {
    set m [dict get $board memory]
    set n [llength $masters]
    set channels [zk::bd::hbm_channels $m]
    if {$n > $channels} {
        error "zk: $core_top has $n memory channels; board [dict get $board name] has $channels HBM channels (one AXI\
            port per [dict get $m group_ports]-port switch group: SAXI_00, SAXI_04, ...)"
    }
    set window [zk::bd::hbm_window $m]
    # a port forwards its addresses unchanged (the SmartConnect does not translate, PG247): channel c's must carry
    # its window's base c * window themselves, the point store's shared space (PointStoreConfig.sharedSpace, the
    # manifest's window_bits) with a window of exactly one switch group
    set wbits [zk::manifest_number $core_top window_bits 0]
    if {(1 << $wbits) != $window} {
        error "zk: $core_top: its memory channels address [expr {$wbits ? "windows of 2^$wbits bytes" : "memories of\
            their own from address 0 (one DDR4 controller each)"}]; on the HBM channel c's addresses must carry the\
            base c * [expr {$window >> 20}] MiB of its port's switch group (PointStoreConfig.sharedSpace with\
            strideBits [zk::bd::log2 $window])"
    }
    set own [zk::manifest_number $core_top address_bits 0]
    foreach p $masters {
        set bits [dict get $ifs axi $p addr]
        if {(1 << $own) > $window || $bits > $wbits + [zk::bd::log2 $n]} {
            error "zk: $core_top $p: $own-bit channel memory ([expr {(1 << $own) >> 20}] MiB) on $bits-bit addresses;\
                an HBM channel is [expr {$window >> 20}] MiB (the [dict get $m group_ports] pseudo-channels of its\
                port's switch group) in the [expr {[zk::bd::log2 $n] + $wbits}]-bit space of $n channels"
        }
        if {[dict get $ifs axi $p data] ni {32 64 128 256 512 1024}} {
            error "zk: $core_top $p: [dict get $ifs axi $p data]-bit data (the SmartConnect converts 32..1024 bits)"
        }
    }
}

proc zk::bd::hbm_build {board core_top ifs masters out name} {
    set m [dict get $board memory]
    set n [llength $masters]
    set stacks [zk::bd::hbm_stacks $m $n]
    zk::bd::hbm_clocks $m
    zk::bd::cell xilinx.com:ip:hbm:1.0 hbm [zk::bd::hbm_config $m $n $stacks]
    for {set s 0} {$s < $stacks} {incr s} {
        zk::bd::net core_clk/clk_out2 hbm/HBM_REF_CLK_$s hbm/APB_${s}_PCLK
        zk::bd::net rst_hbm_apb/peripheral_aresetn hbm/APB_${s}_PRESET_N
    }
    zk::bd::hbm_cattrip $m $stacks
    set c 0
    foreach p $masters {
        zk::bd::hbm_channel $m $core_top $ifs $p $c
        incr c
    }
}

# CONFIG of the HBM IP for n channels on the first `stacks` stacks: the density of those stacks, the switch of
# each enabled (global addressing: a port reaches its group's four pseudo-channels), port 4c enabled for channel c
# and every other port disabled, every memory controller and PHY of those stacks on (a channel's pseudo-channels
# belong to two of its stack's eight controllers), Vivado's own initialization (no user APB port), the global
# switch clocked by the first enabled port's clock in each stack, and the clock frequencies the design gives.
proc zk::bd::hbm_config {m n stacks} {
    set group [dict get $m group_ports]
    set per [dict get $m stack_ports]
    set cfg [list CONFIG.USER_HBM_DENSITY [expr {$stacks * [dict get $m stack_gb]}]GB CONFIG.USER_HBM_STACK $stacks \
        CONFIG.USER_APB_EN false CONFIG.USER_AXI_CLK_FREQ [dict get $m axi_mhz]]
    for {set s 0} {$s < $stacks} {incr s} {
        lappend cfg CONFIG.USER_SWITCH_ENABLE_[format %02d $s] TRUE \
            CONFIG.USER_CLK_SEL_LIST$s AXI_[format %02d [expr {$s * $per}]]_ACLK \
            CONFIG.USER_HBM_REF_CLK_$s [dict get $m refclk_mhz] CONFIG.USER_APB_PCLK_$s [dict get $m apb_mhz]
    }
    # the second stack's APB (its APB_1 clock and reset pins), as the public two-stack designs set it
    if {$stacks > 1} { lappend cfg CONFIG.USER_MC_ENABLE_APB_01 TRUE }
    for {set xx 0} {$xx < $stacks * $per} {incr xx} {
        set used [expr {$xx % $group == 0 && $xx / $group < $n}]
        lappend cfg CONFIG.USER_SAXI_[format %02d $xx] [expr {$used ? "true" : "false"}]
    }
    # two pseudo-channels per memory controller: 8 controllers per stack
    for {set mc 0} {$mc < $stacks * $per / 2} {incr mc} {
        lappend cfg CONFIG.USER_MC_ENABLE_[format %02d $mc] TRUE CONFIG.USER_PHY_ENABLE_[format %02d $mc] TRUE
    }
    return $cfg
}

# The HBM's clocks and resets (see the header).  The reference and APB clock is the core wizard's clk_out2, so the
# board's refclk_mhz and apb_mhz must be its frequency (zk::bd::icap_mhz, the flash controller's ICAPE3 clock).
proc zk::bd::hbm_clocks {m} {
    foreach k {refclk_mhz apb_mhz} {
        if {[dict get $m $k] != $zk::bd::icap_mhz} {
            error "zk: HBM $k [dict get $m $k]: the design's 100 MHz clock (core_clk/clk_out2) is $zk::bd::icap_mhz MHz"
        }
    }
    zk::bd::cell xilinx.com:ip:clk_wiz:6.0 hbm_clk [list CONFIG.PRIM_SOURCE No_buffer \
        CONFIG.PRIM_IN_FREQ $zk::bd::icap_mhz CONFIG.CLKOUT1_REQUESTED_OUT_FREQ [dict get $m axi_mhz] \
        CONFIG.USE_LOCKED true CONFIG.USE_RESET true CONFIG.RESET_TYPE ACTIVE_LOW CONFIG.RESET_PORT resetn]
    zk::bd::net core_clk/clk_out2 hbm_clk/clk_in1
    # a cascaded MMCM starts again once its input is stable
    zk::bd::net core_clk/locked hbm_clk/resetn
    foreach {rst clk locked} {rst_hbm_apb core_clk/clk_out2 core_clk/locked rst_hbm hbm_clk/clk_out1 hbm_clk/locked} {
        zk::bd::cell xilinx.com:ip:proc_sys_reset:5.0 $rst [list CONFIG.C_EXT_RESET_HIGH 0]
        zk::bd::net $clk $rst/slowest_sync_clk
        zk::bd::net $locked $rst/dcm_locked
        connect_bd_net [get_bd_ports pcie_perstn] [zk::bd::pin $rst/ext_reset_in]
    }
}

# The board's catastrophic-temperature output: any stack's DRAM_<s>_STAT_CATTRIP.
proc zk::bd::hbm_cattrip {m stacks} {
    set port [create_bd_port -dir O [dict get $m cattrip]]
    if {$stacks == 1} {
        connect_bd_net [zk::bd::pin hbm/DRAM_0_STAT_CATTRIP] $port
        return
    }
    zk::bd::cell xilinx.com:ip:util_vector_logic:2.0 hbm_cattrip_or [list CONFIG.C_OPERATION or CONFIG.C_SIZE 1]
    zk::bd::net hbm/DRAM_0_STAT_CATTRIP hbm_cattrip_or/Op1
    zk::bd::net hbm/DRAM_1_STAT_CATTRIP hbm_cattrip_or/Op2
    connect_bd_net [zk::bd::pin hbm_cattrip_or/Res] $port
}

# Channel c: its clock crossing to port 4c and its window, pseudo-channel by pseudo-channel (HBM_MEM<4c+k> at
# c * 1 GiB + k * 256 MiB, as many as 2^addr bytes need, at least one).
proc zk::bd::hbm_channel {m core_top ifs p c} {
    set group [dict get $m group_ports]
    set port [format %02d [expr {$c * $group}]]
    set cc mem${c}_cc
    # core clock -> HBM AXI clock.  Not on the host's RESET pulse: the point store finishes or drains what it has
    # in flight after a soft reset, and a reset interconnect would lose it.
    zk::bd::cell xilinx.com:ip:smartconnect:1.0 $cc [list CONFIG.NUM_SI 1 CONFIG.NUM_MI 1 CONFIG.NUM_CLKS 2]
    zk::bd::net core_clk/clk_out1 $cc/aclk
    zk::bd::net hbm_clk/clk_out1 $cc/aclk1 hbm/AXI_${port}_ACLK
    zk::bd::net rst_core/interconnect_aresetn $cc/aresetn
    zk::bd::net rst_hbm/peripheral_aresetn hbm/AXI_${port}_ARESET_N
    zk::bd::inet core/$p $cc/S00_AXI
    zk::bd::inet $cc/M00_AXI hbm/SAXI_$port
    set pc [expr {[dict get $m pc_mb] << 20}]
    set pcs [expr {max(1, (1 << [zk::manifest_number $core_top address_bits 0]) / $pc)}]
    for {set k 0} {$k < $pcs} {incr k} {
        assign_bd_address -offset [format 0x%09X [expr {$c * [zk::bd::hbm_window $m] + $k * $pc}]] -range $pc \
            -target_address_space [get_bd_addr_spaces core/$p] \
            [get_bd_addr_segs hbm/SAXI_$port/HBM_MEM[format %02d [expr {$c * $group + $k}]]]
    }
}
