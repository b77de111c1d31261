# Does a core fit its board?  The yosys figures recorded for the core (vivado/fit/records.tsv, written by
# ./run.sh bench when it synthesizes a whole top) plus the platform's share against the part and its SLRs
# (vivado/fit/budgets.tsv: the same files the benchmarks and tests/test_fit.py read).  A core that does not fit is
# refused before any IP is packaged; a core without a record is built with a warning (nothing to check it against).
namespace eval zk::fit {
    variable dir [file normalize [file join [file dirname [info script]] .. fit]]
    variable resources {lut ff dsp bram36 uram}
    variable names {lut "LUT6 sites + SRL" ff FF dsp DSP48E2 bram36 BRAM36 uram URAM288}
}

# Data lines of a tab-separated file, comments and blank lines dropped.
proc zk::fit::rows {file} {
    set fh [open $file]
    set text [read $fh]
    close $fh
    set out {}
    foreach line [split $text "\n"] {
        if {[string trim $line] eq "" || [string index $line 0] eq "#"} { continue }
        lappend out [split $line "\t"]
    }
    return $out
}

# {scope {resource n ...} ...} of a board: "part", SLRn, and platform@part / platform@SLRn (summed)
proc zk::fit::budget {board} {
    variable dir
    variable resources
    set out {}
    foreach row [rows [file join $dir budgets.tsv]] {
        lassign $row b scope
        if {$b ne $board} { continue }
        set nums [lrange $row 2 6]
        if {$scope eq "platform"} { set scope platform@part }
        foreach r $resources n $nums {
            set key $scope.$r
            dict set out $key [expr {([dict exists $out $key] ? [dict get $out $key] : 0) + $n}]
        }
    }
    if {$out eq {}} { error "zk: no budget for board $board in [file join $dir budgets.tsv]" }
    return $out
}

# The problems of core on board ({} when it fits or has no record), and whether a record was found.
proc zk::fit::problems {board core} {
    variable dir
    variable resources
    variable names
    set budget [budget $board]
    set found 0
    set out {}
    # ZK_FIT_RECORDS: another records file (the tests' oversized fixture); the repository's otherwise
    set file [expr {[info exists ::env(ZK_FIT_RECORDS)] ? $::env(ZK_FIT_RECORDS) : [file join $dir records.tsv]}]
    if {![file exists $file]} { return [list 0 {}] }
    foreach row [rows $file] {
        lassign $row top _ _ scope
        if {$top ne $core} { continue }
        set found 1
        foreach r $resources n [lrange $row 4 8] {
            if {![dict exists $budget $scope.$r]} { lappend out "$scope is not a region of the $board part"; break }
            set cap [dict get $budget $scope.$r]
            if {$scope eq "part"} {
                set plat 0
                dict for {k v} $budget { if {[string match platform@*.$r $k]} { incr plat $v } }
            } else {
                set plat [expr {[dict exists $budget platform@$scope.$r] ? [dict get $budget platform@$scope.$r] : 0}]
            }
            if {$n + $plat > $cap} {
                lappend out "$scope: [dict get $names $r] $n + platform $plat > $cap"
            }
        }
    }
    return [list $found $out]
}

# Refuses (error) a core whose recorded figures do not fit the board.
proc zk::fit::check {board core} {
    lassign [problems $board $core] found bad
    if {!$found} {
        puts "zk: no recorded yosys figures for $core (vivado/fit/records.tsv): its fit on $board is not checked"
        return
    }
    if {[llength $bad]} {
        error "zk: $core does not fit the $board part (its recorded yosys figures with the platform's share of\
            vivado/fit/budgets.tsv):\n  [join $bad "\n  "]"
    }
    puts "zk: $core fits the $board part (recorded yosys figures with the platform's share)"
}
