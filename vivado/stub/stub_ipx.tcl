# IP packaging commands (ipx::) of the Vivado stub (vivado_stub.tcl sources this file).

# ---------------------------------------------------------------- IP packaging (ipx::)
# objects: ipx:core:<name>  ipx:bus:<core>:<bus>  ipx:map:<core>:<bus>:<logical>  ipx:param:<core>:<bus>:<param>
#          ipx:mm:<core>:<mm>  ipx:block:<core>:<mm>:<block>  ipx:as:<core>:<address space>
proc ipx::package_project {args} {
    lassign [stub::parse ipx::package_project $args {root_dir vendor library taxonomy module set_current} {import_files force generated_files}] o pos
    foreach need {root_dir vendor library} {
        if {![dict exists $o $need]} { error "ipx::package_project: -$need is required here" }
    }
    set top [dict get $stub::rec props project top]
    set files [dict get $stub::rec files]
    dict set stub::rec components $top [dict create vendor [dict get $o vendor] library [dict get $o library] name $top \
        version 1.0 root_dir [file normalize [dict get $o root_dir]] files $files bus {} mm {} as {} props {} saved 0]
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
proc ipx::add_address_space {name core} {
    set c [stub::core_of $core]
    dict set stub::rec components $c as $name [dict create]
    return ipx:as:$c:$name
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
        as { dict set rec components [lindex $parts 2] as [lindex $parts 3] $k $v }
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

