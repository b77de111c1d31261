# Board pins of the VCU1525 (xcvu9p-fsgd2104-2L-e) for the zk_vu9p block design (vivado/bd_vu9p.tcl).
# Source of every location below: the public XDC for the Xilinx VCU1525 board in the Corundum project,
# fpga/mqnic/VCU1525/fpga_100g/fpga.xdc (repository corundum/corundum).  Other VU9P cards (BCU1525, other
# VCU1525-class boards) may differ: check their own documentation before building for them.

set_property CFGBVS GND                                [current_design]
set_property CONFIG_VOLTAGE 1.8                        [current_design]
# configuration from the card's quad SPI flash (zk-flash writes it; sw/README.md)
set_property BITSTREAM.CONFIG.SPI_BUSWIDTH 4           [current_design]
set_property CONFIG_MODE SPIx4                         [current_design]
set_property BITSTREAM.CONFIG.SPI_32BIT_ADDR YES       [current_design]
# the flash layout of zk-flash (sw/README.md): the FPGA falls back to the golden image when the update image fails
# to configure (its NEXT_CONFIG_ADDR, at half the flash, is set by vivado/build.tcl on the golden bitstream only)
set_property BITSTREAM.CONFIG.CONFIGFALLBACK ENABLE    [current_design]
set_property BITSTREAM.GENERAL.COMPRESS TRUE           [current_design]
set_property BITSTREAM.CONFIG.UNUSEDPIN PULLUP         [current_design]

# PCIe reference clock, 100 MHz: MGTREFCLK0 of quad 226
set_property PACKAGE_PIN AM11 [get_ports pcie_refclk_clk_p]
set_property PACKAGE_PIN AM10 [get_ports pcie_refclk_clk_n]
create_clock -period 10.000 -name pcie_refclk [get_ports pcie_refclk_clk_p]

# PCIe PERST#
set_property -dict {PACKAGE_PIN BD21 IOSTANDARD LVCMOS12 PULLUP true} [get_ports pcie_perstn]
set_false_path -from [get_ports pcie_perstn]

# system clock: the SI570 user clock, 156.25 MHz LVDS (clk_user in the source), input of the core clock wizard.  The
# four 300 MHz clocks are the DIMMs' references (their pins with the DDR4 pins: vu9p_ddr4_pins.tsv, written into the
# build's <name>_ddr4.xdc by zk::bd::memory_xdc when the core has memory channels)
set_property -dict {PACKAGE_PIN AU19 IOSTANDARD LVDS} [get_ports sysclk_clk_p]
set_property -dict {PACKAGE_PIN AV19 IOSTANDARD LVDS} [get_ports sysclk_clk_n]

# PCIe lanes 0..15 are in quads 227..224 (source: rx_p AF2 AG4 AH2 AJ4 | AK2 AL4 AM2 AN4 | AP2 AR4 AT2 AU4 |
# AV2 AW4 BA2 BC2); placed by the XDMA IP.

# FlashCtrl's ICAPE3 clock (the clock wizard's clk_out2, 100 MHz) meets the flash controller's aclk (XDMA axi_aclk)
# only in the core's own synchronizers (BufferCC, ASYNC_REG registers): the two clocks are asynchronous
set_clock_groups -asynchronous -group [get_clocks -of_objects [get_pins -hier -filter {NAME =~ */flash/icap_clk}]] \
    -group [get_clocks -of_objects [get_pins -hier -filter {NAME =~ */flash/aclk}]]

# ---- floorplan (issue "MSM: two adders on one VU9P").  The PCIe x16 block on quads 224..227 sits in SLR1 (clock
# regions X4Y5:X5Y8 in the same Corundum project's fpga/mqnic/VCU1525/fpga_100g/placement.xdc), so the shell (XDMA,
# the stream FIFOs, the AXI4-Lite interconnect, the system block) and the engine's control (slicer, point port,
# read-out) stay in SLR1, and each adder of MsmAxis (MsmLane lanes_a: its scheduler, bucket memories, queues,
# partial buckets and TwistedEdwardsAdder) gets the SLR beside it, one boundary away, crossed only by the lane
# ports, which leave a register on one side and land in one on the other (MsmElaborationSpec checks it on the
# Verilog).  DSP budget: an adder's 7 Montgomery products take 7 x 417 = 2,919 DSP48E2, more than one SLR's 2,280
# (6,840 / 3), so two of them (T' = E*H and W' = F*G, the last products, whose results only wait for the write-back)
# sit in SLR1 with the shell: 5 x 417 = 2,085 per adder SLR, 4 x 417 = 1,668 in SLR1.  Their operands and results
# leave and enter registers on both sides (FlowCore inputs and outputs are registers).
# -quiet: a core without adders (PairFixture) leaves the adder pblocks empty; a one-adder MsmAxis has lanes_0 and
# gets pb_zk_adder0 (its products and bucket memories must fit SLR0).
# A split lane (MsmConfig.split: BLS12-381's one adder, ten products of 440 DSP48E2 and twenty bucket memories of 22
# URAM288, 4,400 and 440 against an SLR's 2,280 and 320) is the instance `hub`, which stays in the shell's SLR with
# the adder's additions and delay lines; its region r (the products hub/adder/far<r>_* and the bucket memories
# hub/far<r>_*) goes to adder pblock r.  Each net between the hub and a region leaves a register on one side and
# lands in one on the other (the generator adds them: MsmElaborationSpec checks it on the Verilog).
create_pblock pb_zk_shell
resize_pblock [get_pblocks pb_zk_shell] -add {SLR1}
add_cells_to_pblock [get_pblocks pb_zk_shell] [get_cells -quiet {zk_vu9p_i/xdma_0 zk_vu9p_i/h2c* zk_vu9p_i/c2h* zk_vu9p_i/axil_ic zk_vu9p_i/sys}]
add_cells_to_pblock [get_pblocks pb_zk_shell] [get_cells -quiet -hierarchical -filter {IS_PRIMITIVE && NAME =~ zk_vu9p_i/core/inst/* && NAME !~ zk_vu9p_i/core/inst/core/lanes_* && NAME !~ zk_vu9p_i/core/inst/core/hub/far* && NAME !~ zk_vu9p_i/core/inst/core/hub/adder/far*}]
add_cells_to_pblock [get_pblocks pb_zk_shell] [get_cells -quiet -hierarchical -filter {IS_PRIMITIVE && NAME =~ zk_vu9p_i/core/inst/core/lanes_*/adder/tOut/*}]
add_cells_to_pblock [get_pblocks pb_zk_shell] [get_cells -quiet -hierarchical -filter {IS_PRIMITIVE && NAME =~ zk_vu9p_i/core/inst/core/lanes_*/adder/wOut/*}]
create_pblock pb_zk_adder0
resize_pblock [get_pblocks pb_zk_adder0] -add {SLR0}
add_cells_to_pblock [get_pblocks pb_zk_adder0] [get_cells -quiet -hierarchical -filter {IS_PRIMITIVE && NAME =~ zk_vu9p_i/core/inst/core/lanes_0/* && NAME !~ zk_vu9p_i/core/inst/core/lanes_0/adder/tOut/* && NAME !~ zk_vu9p_i/core/inst/core/lanes_0/adder/wOut/*}]
add_cells_to_pblock [get_pblocks pb_zk_adder0] [get_cells -quiet -hierarchical -filter {IS_PRIMITIVE && NAME =~ zk_vu9p_i/core/inst/core/hub/far0_*}]
add_cells_to_pblock [get_pblocks pb_zk_adder0] [get_cells -quiet -hierarchical -filter {IS_PRIMITIVE && NAME =~ zk_vu9p_i/core/inst/core/hub/adder/far0_*}]
set_property IS_SOFT FALSE [get_pblocks pb_zk_adder0]
create_pblock pb_zk_adder1
resize_pblock [get_pblocks pb_zk_adder1] -add {SLR2}
add_cells_to_pblock [get_pblocks pb_zk_adder1] [get_cells -quiet -hierarchical -filter {IS_PRIMITIVE && NAME =~ zk_vu9p_i/core/inst/core/lanes_1/* && NAME !~ zk_vu9p_i/core/inst/core/lanes_1/adder/tOut/* && NAME !~ zk_vu9p_i/core/inst/core/lanes_1/adder/wOut/*}]
add_cells_to_pblock [get_pblocks pb_zk_adder1] [get_cells -quiet -hierarchical -filter {IS_PRIMITIVE && NAME =~ zk_vu9p_i/core/inst/core/hub/far1_*}]
add_cells_to_pblock [get_pblocks pb_zk_adder1] [get_cells -quiet -hierarchical -filter {IS_PRIMITIVE && NAME =~ zk_vu9p_i/core/inst/core/hub/adder/far1_*}]
set_property IS_SOFT FALSE [get_pblocks pb_zk_adder1]
# The point store's memory channels (zk_bd.tcl, "card memory"): the clock crossings mem<c>_cc sit with the core in
# the shell; DIMM c's controller is placed by its I/O banks (DIMM 0 in SLR0, 1 and 2 in SLR1, 3 in SLR2), and the
# Multi SLR Crossing register slice mem<c>_slr of a channel in another SLR has its slr_master side in the shell's
# pblock and its slr_slave side in the pblock of the controller's SLR.
add_cells_to_pblock [get_pblocks pb_zk_shell] [get_cells -quiet {zk_vu9p_i/mem0_cc zk_vu9p_i/mem1_cc zk_vu9p_i/mem2_cc zk_vu9p_i/mem3_cc}]
add_cells_to_pblock [get_pblocks pb_zk_shell] [get_cells -quiet -hierarchical -filter {IS_PRIMITIVE && NAME =~ zk_vu9p_i/mem*_slr/*slr_master*}]
add_cells_to_pblock [get_pblocks pb_zk_adder0] [get_cells -quiet -hierarchical -filter {IS_PRIMITIVE && NAME =~ zk_vu9p_i/mem0_slr/*slr_slave*}]
add_cells_to_pblock [get_pblocks pb_zk_adder1] [get_cells -quiet -hierarchical -filter {IS_PRIMITIVE && NAME =~ zk_vu9p_i/mem3_slr/*slr_slave*}]
