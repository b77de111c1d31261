# Writing the record of the Vivado stub (vivado_stub.tcl sources this file).

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
        dict for {a props} [dict get $comp as] {
            stub::fact $fh address_space component $c name $a
            dict for {pk pv} $props { stub::fact $fh address_space_prop component $c space $a k $pk v $pv }
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
    foreach b [dict get $rec bitstream_props] {
        stub::fact $fh bitstream file [lindex $b 0] props* [concat {*}[lindex $b 1]]
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
