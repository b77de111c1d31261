# Reads an emitted zkspinal top (build/rtl/<top>.v, build/rtl/manifest.json) and infers its interfaces by the port
# convention of hw/src/zkspinal/axi/AxiPorts.scala.  Plain Tcl 8.6: used under Vivado and under tclsh (tests).
#
#   clock aclk, synchronous active-low reset aresetn
#   AXI4-Stream <prefix>_t{data,keep,last,user,valid,ready}   slave when <prefix>_tvalid is an input
#   AXI4-Lite   <prefix>_{aw,w,b,ar,r}{valid,ready,...}         slave when <prefix>_awvalid is an input
#   AXI4        the same with <prefix>_awlen (bursts): a memory master (m_axi_mem<c>: the MSM point store's channels)
#   status_*    outputs (status words for the system block); status_<i> inputs (the system block's own)
#   ident_kind, ident_config, ident_version   32-bit outputs: a core's identity (constants, CoreIdentity in
#               hw/src/zkspinal/contract/CoreIdentity.scala); the same names as inputs: the system block's
#   core_aresetn output (the system block's reset pulse)
#   icap_clk input: a second clock with no bus on it (FlashCtrl's ICAPE3 clock; the core crosses to it inside,
#   through BufferCC, see hw/src/zkspinal/system/FlashCtrl.scala)
# Any other port is an error: a core must not drop into a board design with a pin nobody knows how to connect.

namespace eval zk {
    variable root [file normalize [file join [file dirname [info script]] .. ..]]
    variable rtl_dir [file join $root build rtl]
    # another emit directory (tests run copies of these scripts against the repository's build/rtl)
    if {[info exists ::env(ZK_RTL)]} { set rtl_dir [file normalize $::env(ZK_RTL)] }
    # a core's identity outputs / the system block's identity inputs (CoreIdentity.fields, in the KIND, CONFIG,
    # VERSION order of the system block's words)
    variable ident_ports {ident_kind ident_config ident_version}
    # AXI4 (memory-mapped, with bursts): every signal a core drives or takes; the ids are optional
    variable axi4_signals {awid awaddr awlen awsize awburst awvalid awready wdata wstrb wlast wvalid wready bid bresp
        bvalid bready arid araddr arlen arsize arburst arvalid arready rid rdata rresp rlast rvalid rready}
    variable axi4_optional {awid bid arid rid}
}

proc zk::rtl_file {top} {
    variable rtl_dir
    set f [file join $rtl_dir $top.v]
    if {![file exists $f]} { error "zk: $f is missing: emit it first (./mill --no-daemon hw.runMain zkspinal.emit.Emit)" }
    return $f
}

proc zk::rtl_exists {top} {
    variable rtl_dir
    return [file exists [file join $rtl_dir $top.v]]
}

# Emitted tops whose name matches a glob pattern, sorted.
proc zk::rtl_tops {pattern} {
    variable rtl_dir
    set out {}
    foreach f [lsort [glob -nocomplain -directory $rtl_dir $pattern.v]] { lappend out [file rootname [file tail $f]] }
    return $out
}

# Ports of module $top: a list of {name dir width}.
proc zk::ports {top} {
    set fh [open [zk::rtl_file $top]]
    set text [read $fh]
    close $fh
    # the header of module $top only (an emitted file holds its submodules too)
    if {![regexp -indices "module\\s+$top\\s*\\(" $text at]} { error "zk: module $top not found in [zk::rtl_file $top]" }
    set start [lindex $at 1]
    set body [string range $text $start [string first ");" $text $start]]
    set out {}
    foreach line [split $body "\n"] {
        if {[regexp {^\s*(input|output)\s+(?:wire|reg)?\s*(?:\[(\d+):(\d+)\])?\s*(\w+)} $line -> dir hi lo name]} {
            set w [expr {$hi eq "" ? 1 : $hi - $lo + 1}]
            lappend out [list $name [expr {$dir eq "input" ? "in" : "out"}] $w]
        }
    }
    if {![llength $out]} { error "zk: no ports parsed for $top" }
    return $out
}

# Interfaces of $top: a dict with keys
#   clock, reset                 port names
#   axis    {name {mode slave|master width BYTES signals {tdata ...}} ...}   in port order
#   axil    {name {mode slave|master addr BITS}}
#   axi     {name {mode slave|master addr BITS data BITS id BITS signals {awid ...}}}   AXI4 with bursts
#   status  {status_x ...}  (outputs)     status_in {status_0 ...} (inputs)     outputs_reset {core_aresetn}?
#   ident   {ident_kind ident_config ident_version} (outputs, in that order) or {}     ident_in: the same, inputs
#   aux_clocks {icap_clk}?  clock inputs besides aclk that no interface belongs to (the crossing is inside the core)
proc zk::interfaces {top} {
    set ports [zk::ports $top]
    set dirs [dict create]
    set widths [dict create]
    foreach p $ports { lassign $p n d w; dict set dirs $n $d; dict set widths $n $w }
    set axis [dict create]
    set axil [dict create]
    set axi [dict create]
    set status {}
    set status_in {}
    set reset_out {}
    set aux_clocks {}
    set ident {}
    set ident_in {}
    set used [dict create]
    foreach p $ports {
        lassign $p n d w
        if {[regexp {^(.*)_tvalid$} $n -> pre] && [dict exists $dirs ${pre}_tready] && [dict exists $dirs ${pre}_tdata]} {
            set sig {}
            foreach s {tdata tkeep tlast tuser tvalid tready} {
                if {[dict exists $dirs ${pre}_$s]} { lappend sig $s; dict set used ${pre}_$s 1 }
            }
            set mode [expr {$d eq "in" ? "slave" : "master"}]
            set bits [dict get $widths ${pre}_tdata]
            if {$bits % 8} { error "zk: $top $pre: TDATA of $bits bits is not whole bytes" }
            dict set axis $pre [dict create mode $mode width [expr {$bits / 8}] signals $sig]
        } elseif {[regexp {^(.*)_awvalid$} $n -> pre] && [dict exists $dirs ${pre}_awlen]} {
            set sig {}
            foreach s $zk::axi4_signals {
                if {![dict exists $dirs ${pre}_$s]} {
                    if {$s in $zk::axi4_optional} { continue }
                    error "zk: $top $pre: AXI4 port ${pre}_$s is missing"
                }
                lappend sig $s
                dict set used ${pre}_$s 1
            }
            set id [expr {[dict exists $widths ${pre}_awid] ? [dict get $widths ${pre}_awid] : 0}]
            dict set axi $pre [dict create mode [expr {$d eq "in" ? "slave" : "master"}] addr [dict get $widths ${pre}_awaddr] \
                data [dict get $widths ${pre}_wdata] id $id signals $sig]
        } elseif {[regexp {^(.*)_awvalid$} $n -> pre]} {
            foreach s {awvalid awready awaddr awprot wvalid wready wdata wstrb bvalid bready bresp arvalid arready araddr arprot rvalid rready rdata rresp} {
                if {![dict exists $dirs ${pre}_$s]} {
                    if {$s in {awprot arprot wstrb}} { continue }
                    error "zk: $top $pre: AXI4-Lite port ${pre}_$s is missing"
                }
                dict set used ${pre}_$s 1
            }
            dict set axil $pre [dict create mode [expr {$d eq "in" ? "slave" : "master"}] addr [dict get $widths ${pre}_awaddr] \
                data [dict get $widths ${pre}_wdata]]
        }
    }
    foreach p $ports {
        lassign $p n d w
        if {[dict exists $used $n]} { continue }
        if {$n eq "aclk" && $d eq "in"} { continue }
        if {$n eq "aresetn" && $d eq "in"} { continue }
        if {[string match status_* $n] && $d eq "out"} { lappend status $n; continue }
        if {[regexp {^status_\d+$} $n] && $d eq "in"} { lappend status_in $n; continue }
        if {$n eq "core_aresetn" && $d eq "out"} { lappend reset_out $n; continue }
        if {$n in $zk::ident_ports && $w == 32} {
            if {$d eq "out"} { lappend ident $n } else { lappend ident_in $n }
            continue
        }
        if {$n eq "icap_clk" && $d eq "in" && $w == 1} { lappend aux_clocks $n; continue }
        error "zk: $top: port $n ($d, $w bits) follows no convention (aclk, aresetn, AXI4-Stream, AXI4-Lite, AXI4, status_*)"
    }
    foreach need {aclk aresetn} {
        if {![dict exists $dirs $need]} { error "zk: $top has no $need port" }
    }
    # all three identity words or none, each in one direction; listed in the KIND, CONFIG, VERSION order
    foreach v {ident ident_in} {
        set l [set $v]
        if {[llength $l] && [lsort $l] ne [lsort $zk::ident_ports]} {
            error "zk: $top: identity ports [join $l ,]: all of [join $zk::ident_ports ,] or none"
        }
        if {[llength $l]} { set $v $zk::ident_ports }
    }
    return [dict create clock aclk reset aresetn axis $axis axil $axil axi $axi status $status status_in $status_in \
        reset_out $reset_out aux_clocks $aux_clocks ident $ident ident_in $ident_in widths $widths]
}

# The manifest "kind" of a top (Emit writes one JSON object per line).
proc zk::kind {top} {
    variable rtl_dir
    set fh [open [file join $rtl_dir manifest.json]]
    set text [read $fh]
    close $fh
    foreach line [split $text "\n"] {
        if {[string match "*\"$top\": \{*" $line] && [regexp {"kind": *"([^"]+)"} $line -> k]} { return $k }
    }
    error "zk: $top is not in [file join $rtl_dir manifest.json]"
}

# A number of a top's manifest entry (`default` when the entry has none), e.g. shreg_min_size.
proc zk::manifest_number {top key default} {
    variable rtl_dir
    set fh [open [file join $rtl_dir manifest.json]]
    set text [read $fh]
    close $fh
    foreach line [split $text "\n"] {
        if {[string match "*\"$top\": \{*" $line]} {
            if {[regexp "\"$key\": *(\[0-9\]+)" $line -> v]} { return $v }
            return $default
        }
    }
    error "zk: $top is not in [file join $rtl_dir manifest.json]"
}

# IP version from the repository: vivado/VERSION holds MAJOR.MINOR (the form Vivado accepts); the core revision is
# the commit count, and `git describe` goes into the IP description.
proc zk::version {} {
    variable root
    set fh [open [file join $root vivado VERSION]]
    set v [string trim [read $fh]]
    close $fh
    if {![regexp {^\d+\.\d+$} $v]} { error "zk: vivado/VERSION must be MAJOR.MINOR, got '$v'" }
    set rev 0
    set describe "unknown"
    if {![catch {exec git -C $root rev-list --count HEAD} n]} { set rev $n }
    if {![catch {exec git -C $root describe --always --dirty --tags} d]} { set describe $d }
    return [dict create version $v revision $rev describe $describe]
}

# Command-line options "--name value" into a dict over defaults; unknown options are errors.
proc zk::options {argv defaults usage} {
    set opts $defaults
    set rest {}
    for {set i 0} {$i < [llength $argv]} {incr i} {
        set a [lindex $argv $i]
        if {[string match --* $a]} {
            set k [string range $a 2 end]
            if {![dict exists $defaults $k]} { error "unknown option $a\nusage: $usage" }
            incr i
            if {$i >= [llength $argv]} { error "option $a needs a value\nusage: $usage" }
            dict set opts $k [lindex $argv $i]
        } else {
            lappend rest $a
        }
    }
    dict set opts args $rest
    return $opts
}
