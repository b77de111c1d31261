# A stub of the Vivado Tcl commands the zkspinal scripts use, for running them under plain tclsh (no Vivado here).
# It performs nothing; it records what a script asked for (project and part, files, IP packaging with bus
# interfaces and port maps, block-design cells, ports, nets, properties, addresses, runs and reports) and writes
# the record as JSON for vivado/stub/check.py.  It checks what Vivado itself would refuse at once: an unknown
# option, a cell or port created twice, a query or connection naming a cell or port that does not exist, a
# zkspinal IP that was never packaged into the IP repository.
#
# Test hooks (environment):  ZK_STUB_DROP=k  skips the k-th (0-based) connect_bd_net/connect_bd_intf_net call;
#                            ZK_STUB_SET="cell:PROP=value;..."  overrides a cell property after the script ran.

namespace eval ipx {}
namespace eval stub {
    variable rec [dict create part "" project "" files {} xdc {} components {} cells {} ports {} intf_ports {} \
        nets {} intf_nets {} addresses {} runs {} reports {} bitstreams {} cfgmem {} ip_repo_paths {} \
        bd_design "" wrapper "" commands {} dropped {} props {} bitstream_props {}]
    variable connects 0
    variable generated {}
    variable cur_core ""
    variable pkg_root ""
}

proc stub::log {args} {
    variable rec
    dict lappend rec commands $args
}

# "-flag value" options of a command into a dict (flags in $bool take no value); the rest are positional.
proc stub::parse {cmd argl valued bool} {
    set opts [dict create]
    set pos {}
    for {set i 0} {$i < [llength $argl]} {incr i} {
        set a [lindex $argl $i]
        if {[string index $a 0] eq "-" && ![string is double -strict $a]} {
            set k [string range $a 1 end]
            if {$k in $bool} { dict set opts $k 1; continue }
            if {$k ni $valued} { error "$cmd: unknown option $a (stub knows: $valued $bool)" }
            incr i
            dict set opts $k [lindex $argl $i]
        } else {
            lappend pos $a
        }
    }
    return [list $opts $pos]
}

proc stub::norm {path} {
    set path [string trim $path]
    if {[string index $path 0] ne "/"} { set path "/$path" }
    return $path
}

# ---------------------------------------------------------------- project, files
proc create_project {args} {
    lassign [stub::parse create_project $args {part} {force in_memory}] o pos
    dict set stub::rec project [lindex $pos 0]
    dict set stub::rec files {}
    dict set stub::rec xdc {}
    if {[dict exists $o part]} { dict set stub::rec part [dict get $o part] }
    return [lindex $pos 0]
}
proc close_project {args} { stub::log close_project {*}$args }
proc current_project {args} { return [dict get $stub::rec project] }
proc current_fileset {args} { return sources_1 }
# the open (synthesized or implemented) design: its properties are the bitstream settings
proc current_design {args} { return design }
proc get_filesets {args} { return $args }
proc update_compile_order {args} {}
proc set_part {part} { dict set stub::rec part $part }
proc add_files {args} {
    lassign [stub::parse add_files $args {fileset of_objects} {norecurse quiet}] o pos
    foreach f [concat {*}$pos] {
        if {![file exists $f] && [file normalize $f] ni $stub::generated} { error "add_files: $f does not exist" }
        dict lappend stub::rec files [file normalize $f]
    }
}
proc import_files {args} { stub::log import_files {*}$args }
proc read_xdc {f} {
    if {![file exists $f]} { error "read_xdc: $f does not exist" }
    dict lappend stub::rec xdc [file normalize $f]
}
proc read_verilog {args} { add_files {*}$args }
proc get_files {args} { return [lindex $args end] }
proc update_ip_catalog {args} { stub::log update_ip_catalog }
proc get_ips {args} { return {} }
proc upgrade_ip {args} {}
proc report_ip_status {args} {}

# ---------------------------------------------------------------- properties
proc set_property {args} {
    lassign [stub::parse set_property $args {dict} {quiet}] o pos
    if {[dict exists $o dict]} {
        set kv [dict get $o dict]
        set objs [lindex $pos 0]
    } else {
        lassign $pos k v objs
        set kv [list $k $v]
    }
    if {[llength $kv] % 2} { error "set_property: odd property list $kv" }
    if {![llength $objs]} { error "set_property: no object (an empty query result?) for $kv" }
    foreach obj $objs {
        foreach {k v} $kv { stub::setprop $obj $k $v }
    }
}

proc stub::setprop {obj k v} {
    variable rec
    variable cur_core
    if {[string match ipx:* $obj]} { stub::ipx_setprop $obj $k $v; return }
    if {$obj eq [dict get $rec project] || $obj eq "sources_1"} {
        if {$k eq "ip_repo_paths"} { dict set rec ip_repo_paths [lmap p $v {file normalize $p}] }
        dict set rec props project $k $v
        return
    }
    if {[dict exists $rec cells $obj]} { dict set rec cells $obj props $k $v; return }
    if {[dict exists $rec ports $obj]} { dict set rec ports $obj props $k $v; return }
    if {[dict exists $rec intf_ports $obj]} { dict set rec intf_ports $obj props $k $v; return }
    if {[string match run:* $obj]} { dict set rec props $obj $k $v; return }
    if {$obj eq "design"} { dict set rec props design $k $v; return }
    error "set_property: no such object '$obj'"
}

proc get_property {k obj} {
    variable stub::rec
    foreach t {cells ports intf_ports} {
        if {[dict exists $stub::rec $t $obj props $k]} { return [dict get $stub::rec $t $obj props $k] }
    }
    if {[string match run:* $obj]} {
        if {$k eq "PROGRESS"} { return "100%" }
        if {[string match STATS.* $k]} { return 0 }
    }
    if {$k eq "NAME"} { return [lindex [split $obj /] end] }
    return ""
}

# ---------------------------------------------------------------- block design
proc create_bd_design {name} { dict set stub::rec bd_design $name; return $name }
proc current_bd_design {args} { return [dict get $stub::rec bd_design] }
proc save_bd_design {args} { stub::log save_bd_design }
proc validate_bd_design {args} { stub::log validate_bd_design }
proc regenerate_bd_layout {args} {}
proc make_wrapper {args} {
    lassign [stub::parse make_wrapper $args {files} {top import}] o pos
    dict set stub::rec wrapper [dict get $o files]
    # where Vivado generates it; the stub creates no file, add_files accepts this path as generated
    set f [file normalize [file join [pwd] [dict get $stub::rec bd_design].gen sources_1 bd [dict get $stub::rec bd_design] hdl [dict get $stub::rec bd_design]_wrapper.v]]
    lappend stub::generated $f
    return $f
}
proc generate_target {args} { stub::log generate_target {*}$args }

proc stub::find_ip {vlnv} {
    lassign [split $vlnv :] vendor lib name ver
    if {$vendor eq "xilinx.com"} { return "" }
    foreach repo [dict get $stub::rec ip_repo_paths] {
        set f [file join $repo $name stub_component.tcl]
        if {[file exists $f]} {
            source $f
            if {[dict get $component version] ne $ver} { error "create_bd_cell: $vlnv: the repository has version [dict get $component version]" }
            return $component
        }
    }
    error "create_bd_cell: IP $vlnv is not in the IP repositories ([dict get $stub::rec ip_repo_paths]): package it first"
}

proc create_bd_cell {args} {
    lassign [stub::parse create_bd_cell $args {type vlnv reference} {}] o pos
    set path [stub::norm [lindex $pos 0]]
    if {[dict exists $stub::rec cells $path]} { error "create_bd_cell: $path exists" }
    if {[dict get $o type] ne "ip"} { error "create_bd_cell: only -type ip is used here" }
    stub::find_ip [dict get $o vlnv]
    dict set stub::rec cells $path [dict create vlnv [dict get $o vlnv] props {}]
    return $path
}
proc create_bd_port {args} {
    lassign [stub::parse create_bd_port $args {dir type from to freq_hz} {}] o pos
    set path [stub::norm [lindex $pos 0]]
    if {[dict exists $stub::rec ports $path]} { error "create_bd_port: $path exists" }
    set w 1
    if {[dict exists $o from]} { set w [expr {abs([dict get $o from] - [dict get $o to]) + 1}] }
    dict set stub::rec ports $path [dict create dir [dict get $o dir] type [expr {[dict exists $o type] ? [dict get $o type] : "data"}] width $w props {}]
    return $path
}
proc create_bd_intf_port {args} {
    lassign [stub::parse create_bd_intf_port $args {mode vlnv} {}] o pos
    set path [stub::norm [lindex $pos 0]]
    if {[dict exists $stub::rec intf_ports $path]} { error "create_bd_intf_port: $path exists" }
    dict set stub::rec intf_ports $path [dict create mode [dict get $o mode] vlnv [dict get $o vlnv] props {}]
    return $path
}

proc stub::cell_of {path} { return "/[lindex [split [string trimleft $path /] /] 0]" }
proc stub::query {kind argl} {
    lassign [stub::parse $kind $argl {of_objects filter} {quiet hierarchical}] o pos
    set out {}
    foreach p [concat {*}$pos] {
        set p [stub::norm $p]
        switch $kind {
            get_bd_cells { if {[dict exists $stub::rec cells $p]} { lappend out $p } }
            get_bd_ports { if {[dict exists $stub::rec ports $p]} { lappend out $p } }
            get_bd_intf_ports { if {[dict exists $stub::rec intf_ports $p]} { lappend out $p } }
            default { if {[dict exists $stub::rec cells [stub::cell_of $p]]} { lappend out $p } }
        }
    }
    return $out
}
proc get_bd_cells {args} { stub::query get_bd_cells $args }
proc get_bd_ports {args} { stub::query get_bd_ports $args }
proc get_bd_intf_ports {args} { stub::query get_bd_intf_ports $args }
proc get_bd_pins {args} { stub::query get_bd_pins $args }
proc get_bd_intf_pins {args} { stub::query get_bd_intf_pins $args }
proc get_bd_addr_spaces {args} { stub::query get_bd_addr_spaces $args }
proc get_bd_addr_segs {args} { stub::query get_bd_addr_segs $args }

proc stub::endpoint_ok {e} {
    if {$e eq ""} { return 0 }
    if {[dict exists $stub::rec ports $e] || [dict exists $stub::rec intf_ports $e]} { return 1 }
    return [expr {[llength [split [string trimleft $e /] /]] == 2 && [dict exists $stub::rec cells [stub::cell_of $e]]}]
}
proc stub::connect {kind argl netopt} {
    lassign [stub::parse $kind $argl [list $netopt] {}] o pos
    set ends [concat {*}$pos]
    if {[llength $ends] < 2} { error "$kind: needs two or more objects, got '$ends' (an empty query result?)" }
    foreach e $ends { if {![stub::endpoint_ok $e]} { error "$kind: no such pin or port '$e'" } }
    set k $stub::connects
    incr stub::connects
    if {[info exists ::env(ZK_STUB_DROP)] && $::env(ZK_STUB_DROP) == $k} {
        dict lappend stub::rec dropped [list $kind $ends]
        return
    }
    set name [expr {[dict exists $o $netopt] ? [dict get $o $netopt] : ""}]
    if {$kind eq "connect_bd_intf_net"} {
        foreach n [dict get $stub::rec intf_nets] {
            foreach e $ends {
                if {$e in [dict get $n ends]} { error "connect_bd_intf_net: $e is already connected" }
            }
        }
        dict lappend stub::rec intf_nets [dict create name $name ends $ends]
        return
    }
    # as in Vivado, connecting to a pin that is already on a net adds the other pins to that net
    set merged [dict create name $name ends $ends]
    set keep {}
    foreach n [dict get $stub::rec nets] {
        set shared 0
        foreach e $ends { if {$e in [dict get $n ends]} { set shared 1 } }
        if {$shared} {
            dict set merged ends [lsort -unique [concat [dict get $n ends] [dict get $merged ends]]]
            if {[dict get $n name] ne ""} { dict set merged name [dict get $n name] }
        } else {
            lappend keep $n
        }
    }
    lappend keep $merged
    dict set stub::rec nets $keep
}
proc connect_bd_net {args} { stub::connect connect_bd_net $args net }
proc connect_bd_intf_net {args} { stub::connect connect_bd_intf_net $args intf_net }
proc assign_bd_address {args} {
    lassign [stub::parse assign_bd_address $args {offset range target_address_space} {}] o pos
    foreach need {offset range target_address_space} {
        if {![dict exists $o $need]} { error "assign_bd_address: -$need is required here" }
    }
    dict lappend stub::rec addresses [dict create offset [dict get $o offset] range [dict get $o range] \
        space [dict get $o target_address_space] seg [concat {*}$pos]]
}

# ---------------------------------------------------------------- runs, reports, bitstream
# every name or pattern asked for names a run (synth_1, impl_1 and the out-of-context runs create_ip_run makes)
proc get_runs {args} { return [lmap r [concat {*}[lsearch -all -inline -not $args -quiet]] {string cat run: $r}] }
proc create_ip_run {args} { stub::log create_ip_run {*}$args }
proc create_run {args} { stub::log create_run {*}$args }
proc reset_run {args} { stub::log reset_run {*}$args }
proc launch_runs {args} {
    lassign [stub::parse launch_runs $args {jobs to_step} {}] o pos
    dict lappend stub::rec runs [dict create runs $pos opts $o]
}
proc wait_on_run {args} { stub::log wait_on_run {*}$args }
proc open_run {args} { stub::log open_run {*}$args }
proc stub::report {kind argl} {
    lassign [stub::parse $kind $argl {file max_paths hierarchical_depth} {hierarchical warn_on_violation}] o pos
    dict lappend stub::rec reports [dict create kind $kind file [expr {[dict exists $o file] ? [file normalize [dict get $o file]] : ""}]]
}
proc report_utilization {args} { stub::report report_utilization $args }
proc report_timing_summary {args} { stub::report report_timing_summary $args }
proc report_clock_interaction {args} { stub::report report_clock_interaction $args }
proc report_cdc {args} { stub::report report_cdc $args }
proc write_bitstream {args} {
    lassign [stub::parse write_bitstream $args {} {force bin_file}] o pos
    dict lappend stub::rec bitstreams [file normalize [lindex $pos 0]]
    # the design's bitstream properties at the time this bitstream is written
    set p [expr {[dict exists $stub::rec props design] ? [dict get $stub::rec props design] : {}}]
    dict lappend stub::rec bitstream_props [list [file normalize [lindex $pos 0]] $p]
}
proc write_cfgmem {args} {
    lassign [stub::parse write_cfgmem $args {format size interface loadbit} {force}] o pos
    dict lappend stub::rec cfgmem [dict create opts $o file [file normalize [lindex $pos 0]]]
}
proc write_checkpoint {args} { stub::log write_checkpoint {*}$args }

# ---------------------------------------------------------------- IP packaging, the record
source [file join [file dirname [file normalize [info script]]] stub_ipx.tcl]
source [file join [file dirname [file normalize [info script]]] stub_record.tcl]
