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
        bd_design "" wrapper "" commands {} dropped {} props {}]
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

# ---------------------------------------------------------------- IP packaging (ipx::)
# objects: ipx:core:<name>  ipx:bus:<core>:<bus>  ipx:map:<core>:<bus>:<logical>  ipx:param:<core>:<bus>:<param>
#          ipx:mm:<core>:<mm>  ipx:block:<core>:<mm>:<block>
proc ipx::package_project {args} {
    lassign [stub::parse ipx::package_project $args {root_dir vendor library taxonomy module set_current} {import_files force generated_files}] o pos
    foreach need {root_dir vendor library} {
        if {![dict exists $o $need]} { error "ipx::package_project: -$need is required here" }
    }
    set top [dict get $stub::rec props project top]
    set files [dict get $stub::rec files]
    dict set stub::rec components $top [dict create vendor [dict get $o vendor] library [dict get $o library] name $top \
        version 1.0 root_dir [file normalize [dict get $o root_dir]] files $files bus {} mm {} props {} saved 0]
    set stub::cur_core $top
    return ipx:core:$top
}
proc ipx::current_core {args} { return ipx:core:$stub::cur_core }
proc stub::core_of {obj} { return [lindex [split $obj :] 2] }
proc ipx::get_bus_interfaces {args} {
    lassign [stub::parse ipx::get_bus_interfaces $args {of_objects} {quiet}] o pos
    set core [stub::core_of [dict get $o of_objects]]
    set names [dict keys [dict get $stub::rec components $core bus]]
    if {[llength $pos]} { set names [lsearch -all -inline -exact $names [lindex $pos 0]] }
    return [lmap n $names {string cat ipx:bus:$core:$n}]
}
proc ipx::remove_bus_interface {name core} {
    dict unset stub::rec components [stub::core_of $core] bus $name
}
proc ipx::add_bus_interface {name core} {
    set c [stub::core_of $core]
    if {[dict exists $stub::rec components $c bus $name]} { error "ipx::add_bus_interface: $name exists in $c" }
    dict set stub::rec components $c bus $name [dict create props {} maps {} params {}]
    return ipx:bus:$c:$name
}
proc ipx::add_port_map {logical bus} {
    lassign [split $bus :] - - c b
    dict set stub::rec components $c bus $b maps $logical ""
    return ipx:map:$c:$b:$logical
}
proc ipx::add_bus_parameter {name bus} {
    lassign [split $bus :] - - c b
    dict set stub::rec components $c bus $b params $name ""
    return ipx:param:$c:$b:$name
}
proc ipx::add_memory_map {name core} {
    set c [stub::core_of $core]
    dict set stub::rec components $c mm $name [dict create blocks {}]
    return ipx:mm:$c:$name
}
proc ipx::add_address_block {name mm} {
    lassign [split $mm :] - - c m
    dict set stub::rec components $c mm $m blocks $name [dict create]
    return ipx:block:$c:$m:$name
}
proc ipx::get_memory_maps {args} {
    lassign [stub::parse ipx::get_memory_maps $args {of_objects} {}] o pos
    return ipx:mm:[stub::core_of [dict get $o of_objects]]:[lindex $pos 0]
}
proc stub::ipx_setprop {obj k v} {
    variable rec
    set parts [split $obj :]
    switch [lindex $parts 1] {
        core { dict set rec components [lindex $parts 2] props $k $v
               if {$k in {VERSION version}} { dict set rec components [lindex $parts 2] version $v } }
        bus { dict set rec components [lindex $parts 2] bus [lindex $parts 3] props $k $v }
        map {
            if {$k ne "physical_name"} { error "set_property: port map property $k is not used here" }
            dict set rec components [lindex $parts 2] bus [lindex $parts 3] maps [lindex $parts 4] $v
        }
        param {
            if {$k ne "value"} { error "set_property: bus parameter property $k is not used here" }
            dict set rec components [lindex $parts 2] bus [lindex $parts 3] params [lindex $parts 4] $v
        }
        mm { dict set rec components [lindex $parts 2] mm [lindex $parts 3] props $k $v }
        block { dict set rec components [lindex $parts 2] mm [lindex $parts 3] blocks [lindex $parts 4] $k $v }
        default { error "set_property: unknown ipx object $obj" }
    }
}
proc ipx::create_xgui_files {core} {}
proc ipx::update_checksums {core} {}
proc ipx::check_integrity {core} {}
proc ipx::save_core {core} {
    set c [stub::core_of $core]
    dict set stub::rec components $c saved 1
    # the stub's component description, where Vivado writes component.xml: create_bd_cell looks for it
    set dir [dict get $stub::rec components $c root_dir]
    file mkdir $dir
    set fh [open [file join $dir stub_component.tcl] w]
    puts $fh [list set component [dict get $stub::rec components $c]]
    close $fh
}
proc ipx::unload_core {args} {}

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
proc get_runs {args} { return [lmap r $args {string cat run: $r}] }
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
    lassign [stub::parse write_bitstream $args {} {force}] o pos
    dict lappend stub::rec bitstreams [file normalize [lindex $pos 0]]
}
proc write_cfgmem {args} {
    lassign [stub::parse write_cfgmem $args {format size interface loadbit} {force}] o pos
    dict lappend stub::rec cfgmem [dict create opts $o file [file normalize [lindex $pos 0]]]
}
proc write_checkpoint {args} { stub::log write_checkpoint {*}$args }

# ---------------------------------------------------------------- the record (JSON lines of flat facts)
proc stub::js {s} {
    return "\"[string map [list \\ \\\\ \" \\\" \n \\n \t \\t \r \\r] $s]\""
}
# one fact: type and key/value pairs; a key ending in "*" holds a list of strings
proc stub::fact {fh type args} {
    set parts [list "\"t\":[stub::js $type]"]
    foreach {k v} $args {
        if {[string index $k end] eq "*"} {
            lappend parts "[stub::js [string range $k 0 end-1]]:\[[join [lmap x $v {stub::js $x}] ,]\]"
        } else {
            lappend parts "[stub::js $k]:[stub::js $v]"
        }
    }
    puts $fh "\{[join $parts ,]\}"
}
proc stub::write {file error} {
    variable rec
    if {[info exists ::env(ZK_STUB_SET)]} {
        foreach item [split $::env(ZK_STUB_SET) ";"] {
            if {[regexp {^([^:]+):([^=]+)=(.*)$} $item -> cell k v]} {
                set cell [stub::norm $cell]
                if {[dict exists $rec cells $cell]} { dict set rec cells $cell props $k $v }
            }
        }
    }
    set fh [open $file w]
    stub::fact $fh result error $error connects $stub::connects part [dict get $rec part] project [dict get $rec project] \
        bd_design [dict get $rec bd_design] wrapper [dict get $rec wrapper] files* [dict get $rec files] \
        xdc* [dict get $rec xdc] ip_repo_paths* [dict get $rec ip_repo_paths] bitstreams* [dict get $rec bitstreams]
    dict for {k v} [dict get $rec props] {
        dict for {pk pv} $v { stub::fact $fh prop obj $k k $pk v $pv }
    }
    dict for {c comp} [dict get $rec components] {
        stub::fact $fh component name $c vendor [dict get $comp vendor] library [dict get $comp library] \
            version [dict get $comp version] root_dir [dict get $comp root_dir] saved [dict get $comp saved] files* [dict get $comp files]
        dict for {pk pv} [dict get $comp props] { stub::fact $fh component_prop component $c k $pk v $pv }
        dict for {b bus} [dict get $comp bus] {
            stub::fact $fh bus component $c name $b
            dict for {pk pv} [dict get $bus props] { stub::fact $fh bus_prop component $c bus $b k $pk v $pv }
            dict for {pk pv} [dict get $bus maps] { stub::fact $fh port_map component $c bus $b logical $pk physical $pv }
            dict for {pk pv} [dict get $bus params] { stub::fact $fh bus_param component $c bus $b k $pk v $pv }
        }
        dict for {m mm} [dict get $comp mm] {
            foreach key [dict keys $mm] {
                if {$key eq "props"} { dict for {pk pv} [dict get $mm props] { stub::fact $fh mm_prop component $c mm $m k $pk v $pv } }
            }
            dict for {bl props} [dict get $mm blocks] {
                stub::fact $fh block component $c mm $m name $bl
                dict for {pk pv} $props { stub::fact $fh block_prop component $c mm $m block $bl k $pk v $pv }
            }
        }
    }
    dict for {path cell} [dict get $rec cells] {
        stub::fact $fh cell path $path vlnv [dict get $cell vlnv]
        dict for {pk pv} [dict get $cell props] { stub::fact $fh cell_prop path $path k $pk v $pv }
    }
    dict for {path port} [dict get $rec ports] {
        stub::fact $fh port path $path dir [dict get $port dir] type [dict get $port type] width [dict get $port width]
        dict for {pk pv} [dict get $port props] { stub::fact $fh port_prop path $path k $pk v $pv }
    }
    dict for {path port} [dict get $rec intf_ports] {
        stub::fact $fh intf_port path $path mode [dict get $port mode] vlnv [dict get $port vlnv]
        dict for {pk pv} [dict get $port props] { stub::fact $fh port_prop path $path k $pk v $pv }
    }
    foreach n [dict get $rec nets] { stub::fact $fh net name [dict get $n name] ends* [dict get $n ends] }
    foreach n [dict get $rec intf_nets] { stub::fact $fh intf_net name [dict get $n name] ends* [dict get $n ends] }
    foreach d [dict get $rec dropped] { stub::fact $fh dropped kind [lindex $d 0] ends* [lindex $d 1] }
    foreach a [dict get $rec addresses] {
        stub::fact $fh address offset [dict get $a offset] range [dict get $a range] space [dict get $a space] seg* [dict get $a seg]
    }
    foreach r [dict get $rec runs] {
        set o [dict get $r opts]
        stub::fact $fh run runs* [dict get $r runs] jobs [expr {[dict exists $o jobs] ? [dict get $o jobs] : ""}] \
            to_step [expr {[dict exists $o to_step] ? [dict get $o to_step] : ""}]
    }
    foreach r [dict get $rec reports] { stub::fact $fh report kind [dict get $r kind] file [dict get $r file] }
    foreach r [dict get $rec cfgmem] {
        set o [dict get $r opts]
        stub::fact $fh cfgmem file [dict get $r file] format [dict get $o format] size [dict get $o size] \
            interface [dict get $o interface] loadbit [dict get $o loadbit]
    }
    foreach c [dict get $rec commands] { stub::fact $fh command argv* $c }
    close $fh
}
