# Packages emitted zkspinal tops (build/rtl/<top>.v) as Vivado IP, one directory per top under --out, with the
# interfaces inferred from the port names (vivado/lib/zk_rtl.tcl) and declared explicitly: AXI4-Stream, AXI4-Lite
# and AXI4 bus interfaces, the clock (ASSOCIATED_BUSIF of every bus, ASSOCIATED_RESET), the active-low reset, a
# memory map per AXI4-Lite slave and an address space per AXI4 master.  VLNV zkspinal.org:zk:<top>:<vivado/VERSION>; core revision = commit count.
#
#   vivado -mode batch -source vivado/package_ip.tcl -tclargs [--out build/ip] [--part PART] [TOP ...]
#
# Without TOP: every emitted board-level top (stream/register cores, system blocks, adapters).
source [file join [file dirname [file normalize [info script]]] lib zk_rtl.tcl]

namespace eval zk {
    variable vendor zkspinal.org
    variable library zk
    # the tops a board design can instantiate (field cores and bare permutations are not board-level)
    variable board_kinds {PoseidonAxis MsmAxis KeccakSpongeAxis KeccakSpeed PairFixture SystemBlock InbandLast}
    # the flash controllers of the boards (STARTUPE3 + ICAPE3); FlashCtrl_small, with SPI and ICAP ports, is the
    # simulation top and not board-level
    variable board_flash_tops {FlashCtrl_c1100 FlashCtrl_vu9p}
}

proc zk::vlnv {top} {
    variable vendor
    variable library
    return "$vendor:$library:$top:[dict get [zk::version] version]"
}

proc zk::board_tops {} {
    variable board_kinds
    variable board_flash_tops
    set out {}
    foreach k $board_kinds {
        # *_model tops carry the simulation model of the multiplier: not synthesisable
        foreach t [zk::rtl_tops ${k}_*] { if {![string match *_model $t]} { lappend out $t } }
    }
    foreach t $board_flash_tops { lappend out {*}[zk::rtl_tops $t] }
    return $out
}

proc zk::bus {core name abstraction bus mode} {
    set bi [ipx::add_bus_interface $name $core]
    set_property abstraction_type_vlnv $abstraction $bi
    set_property bus_type_vlnv $bus $bi
    set_property interface_mode $mode $bi
    return $bi
}

proc zk::map {bi logical physical} {
    set_property physical_name $physical [ipx::add_port_map $logical $bi]
}

proc zk::param {bi name value} {
    set_property value $value [ipx::add_bus_parameter $name $bi]
}

proc zk::package_top {top out part} {
    set ifs [zk::interfaces $top]
    set ver [zk::version]
    set dir [file normalize [file join $out $top]]
    file delete -force $dir
    file mkdir $dir
    # the packaging project lives beside the IP directory, not inside what gets packaged
    create_project -force pkg_$top [file normalize [file join $out .pkg $top]] -part $part
    add_files -norecurse [zk::rtl_file $top]
    set_property top $top [current_fileset]
    update_compile_order -fileset sources_1
    ipx::package_project -root_dir $dir -vendor $zk::vendor -library $zk::library -taxonomy /zkspinal -import_files -set_current true
    set core [ipx::current_core]
    # what Vivado inferred on its own is dropped: the interfaces below follow the repository's convention exactly
    foreach bi [ipx::get_bus_interfaces -of_objects $core] { ipx::remove_bus_interface [get_property NAME $bi] $core }

    set busifs {}
    dict for {name a} [dict get $ifs axis] {
        set bi [zk::bus $core $name xilinx.com:interface:axis_rtl:1.0 xilinx.com:interface:axis:1.0 [dict get $a mode]]
        foreach s [dict get $a signals] { zk::map $bi [string toupper $s] ${name}_$s }
        zk::param $bi TDATA_NUM_BYTES [dict get $a width]
        zk::param $bi HAS_TLAST [expr {"tlast" in [dict get $a signals]}]
        zk::param $bi HAS_TKEEP [expr {"tkeep" in [dict get $a signals]}]
        lappend busifs $name
    }
    dict for {name a} [dict get $ifs axil] {
        set bi [zk::bus $core $name xilinx.com:interface:aximm_rtl:1.0 xilinx.com:interface:aximm:1.0 [dict get $a mode]]
        foreach s {awvalid awready awaddr awprot wvalid wready wdata wstrb bvalid bready bresp arvalid arready araddr arprot rvalid rready rdata rresp} {
            if {[dict exists [dict get $ifs widths] ${name}_$s]} { zk::map $bi [string toupper $s] ${name}_$s }
        }
        zk::param $bi PROTOCOL AXI4LITE
        if {[dict get $a mode] eq "slave"} {
            set mm [ipx::add_memory_map $name $core]
            set_property slave_memory_map_ref $name $bi
            set blk [ipx::add_address_block regs [ipx::get_memory_maps $name -of_objects $core]]
            set_property range [expr {1 << [dict get $a addr]}] $blk
            set_property width [dict get $a data] $blk
            set_property usage register $blk
        }
        lappend busifs $name
    }
    # AXI4 memory masters (the MSM point store's channels): each with its own address space of 2^addr bytes, where
    # the block design maps the channel's DDR4 controller
    dict for {name a} [dict get $ifs axi] {
        set bi [zk::bus $core $name xilinx.com:interface:aximm_rtl:1.0 xilinx.com:interface:aximm:1.0 [dict get $a mode]]
        foreach s [dict get $a signals] { zk::map $bi [string toupper $s] ${name}_$s }
        zk::param $bi PROTOCOL AXI4
        zk::param $bi DATA_WIDTH [dict get $a data]
        zk::param $bi ID_WIDTH [dict get $a id]
        if {[dict get $a mode] eq "master"} {
            set as [ipx::add_address_space $name $core]
            set_property range [expr {1 << [dict get $a addr]}] $as
            set_property width [dict get $a data] $as
            set_property master_address_space_ref $name $bi
        }
        lappend busifs $name
    }
    set rst [zk::bus $core aresetn xilinx.com:signal:reset_rtl:1.0 xilinx.com:signal:reset:1.0 slave]
    zk::map $rst RST aresetn
    zk::param $rst POLARITY ACTIVE_LOW
    foreach r [dict get $ifs reset_out] {
        set bi [zk::bus $core $r xilinx.com:signal:reset_rtl:1.0 xilinx.com:signal:reset:1.0 master]
        zk::map $bi RST $r
        zk::param $bi POLARITY ACTIVE_LOW
    }
    set clk [zk::bus $core aclk xilinx.com:signal:clock_rtl:1.0 xilinx.com:signal:clock:1.0 slave]
    zk::map $clk CLK aclk
    zk::param $clk ASSOCIATED_BUSIF [join $busifs :]
    zk::param $clk ASSOCIATED_RESET [join [concat aresetn [dict get $ifs reset_out]] :]
    # clocks without a bus (FlashCtrl's icap_clk): declared as clock inputs; the core crosses to them inside
    foreach c [dict get $ifs aux_clocks] {
        set bi [zk::bus $core $c xilinx.com:signal:clock_rtl:1.0 xilinx.com:signal:clock:1.0 slave]
        zk::map $bi CLK $c
    }

    set_property VERSION [dict get $ver version] $core
    set_property core_revision [dict get $ver revision] $core
    set_property display_name "zkspinal $top" $core
    set_property description "zkspinal $top ([zk::kind $top]), generated by SpinalHDL from [dict get $ver describe]" $core
    set_property supported_families {virtexuplus Production virtexuplusHBM Production} $core
    ipx::create_xgui_files $core
    ipx::update_checksums $core
    ipx::check_integrity $core
    ipx::save_core $core
    close_project
    return $dir
}

# ---- main (skipped when another script sources this file for its procs)
if {![info exists ::zk_library_only]} {
    set opts [zk::options $::argv {out build/ip part xcu55n-fsvh2892-2L-e} \
        {package_ip.tcl [--out DIR] [--part PART] [TOP ...]}]
    set tops [dict get $opts args]
    if {![llength $tops]} { set tops [zk::board_tops] }
    if {![llength $tops]} { error "package_ip: no emitted top in $zk::rtl_dir" }
    foreach top $tops {
        puts "package_ip: $top -> [zk::package_top $top [dict get $opts out] [dict get $opts part]]"
    }
}
