# Board pins of the AMD Varium C1100 (xcu55n-fsvh2892-2L-e) for the zk_c1100 block design (vivado/bd_c1100.tcl).
# Source of every location below: the public XDC for the Alveo U55C/U55N/Varium C1100 board in the verilog-pcie
# project, example/Alveo/fpga/fpga_au55.xdc (repository alexforencich/verilog-pcie).  Pins are not invented here:
# the PCIe lane pins are listed there too, but their placement follows from the XDMA IP's GT location settings,
# which that source does not give for the XDMA IP (see vivado/README.md, "Not verified without Vivado").

# configuration (as in the source: 1.8 V configuration bank, quad SPI flash)
set_property CFGBVS GND                                [current_design]
set_property CONFIG_VOLTAGE 1.8                        [current_design]
set_property CONFIG_MODE SPIx4                         [current_design]
set_property BITSTREAM.CONFIG.SPI_BUSWIDTH 4           [current_design]
set_property BITSTREAM.CONFIG.SPI_32BIT_ADDR YES       [current_design]
# the flash layout of zk-flash (sw/README.md): the FPGA falls back to the golden image when the update image fails
# to configure (its NEXT_CONFIG_ADDR, at half the flash, is set by vivado/build.tcl on the golden bitstream only)
set_property BITSTREAM.CONFIG.CONFIGFALLBACK ENABLE    [current_design]
set_property BITSTREAM.GENERAL.COMPRESS TRUE           [current_design]
set_property BITSTREAM.CONFIG.UNUSEDPIN PULLUP         [current_design]

# PCIe reference clock, 100 MHz from the edge connector: MGTREFCLK0 of quad 225 (the source's "x16 or x8
# bifurcated lanes 8-16" clock, the one its x16 PCIe design uses)
set_property PACKAGE_PIN AR15 [get_ports pcie_refclk_clk_p]
set_property PACKAGE_PIN AR14 [get_ports pcie_refclk_clk_n]
create_clock -period 10.000 -name pcie_refclk [get_ports pcie_refclk_clk_p]

# PCIe PERST#
set_property -dict {PACKAGE_PIN BF41 IOSTANDARD LVCMOS18 PULLUP true} [get_ports pcie_perstn]
set_false_path -from [get_ports pcie_perstn]

# system clock: 100 MHz LVDS (clk_100mhz_0 in the source, from the SI5394), input of the core clock wizard
set_property -dict {PACKAGE_PIN BK10 IOSTANDARD LVDS} [get_ports sysclk_clk_p]
set_property -dict {PACKAGE_PIN BL10 IOSTANDARD LVDS} [get_ports sysclk_clk_n]

# HBM catastrophic-temperature output: in a design with the HBM (a core with memory channels, vivado/lib/zk_hbm.tcl)
# the OR of the stacks' DRAM_<s>_STAT_CATTRIP flags; in any other driven low (const_0), as the source's designs do,
# so the card's controller does not see a floating pin
set_property -dict {PACKAGE_PIN BE45 IOSTANDARD LVCMOS18} [get_ports hbm_cattrip]
set_false_path -to [get_ports hbm_cattrip]

# PCIe lanes 0..7 (source, for reference; placed by the XDMA IP):
#   rx_p AL2 AM4 AN6 AN2 AP4 AR2 AT4 AU2    tx_p AL11 AM9 AN11 AP9 AR11 AR7 AT9 AU11   (quads 227, 226)

# FlashCtrl's ICAPE3 clock (the clock wizard's clk_out2, 100 MHz) meets the flash controller's aclk (XDMA axi_aclk)
# only in the core's own synchronizers (BufferCC, ASYNC_REG registers): the two clocks are asynchronous
set_clock_groups -asynchronous -group [get_clocks -of_objects [get_pins -hier -filter {NAME =~ */flash/icap_clk}]] \
    -group [get_clocks -of_objects [get_pins -hier -filter {NAME =~ */flash/aclk}]]
