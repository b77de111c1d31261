# Runs a Vivado batch script under plain tclsh with the command stub:
#   tclsh vivado/stub/run.tcl RECORD.jsonl SCRIPT.tcl [ARGS...]     (ARGS as Vivado's -tclargs)
# The record (vivado/stub/vivado_stub.tcl) is written even when the script fails; the exit status is the script's.
set here [file dirname [file normalize [info script]]]
source [file join $here vivado_stub.tcl]
lassign $argv record script
set argv [lrange $argv 2 end]
set argc [llength $argv]
set ::argv0 $script
rename exit stub::real_exit
proc exit {{code 0}} {
    stub::write $::record [expr {$code ? "exit $code" : ""}]
    stub::real_exit $code
}
if {[catch {source $script} msg opts]} {
    stub::write $record "$msg\n[dict get $opts -errorinfo]"
    puts stderr "stub: $script failed: $msg"
    stub::real_exit 1
}
stub::write $record ""
stub::real_exit 0
