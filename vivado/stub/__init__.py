"""vivado_stub: what the Vivado command stub (run.tcl) recorded, checked against the emitted Verilog, the IP models
and the board facts (installed as the package vivado_stub; `python -m vivado_stub.check RECORD.jsonl`)."""
