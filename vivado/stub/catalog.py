"""What the checker knows of the Xilinx IP cells the block designs use: pins, interfaces, the clock each belongs to,
the inputs that must be driven, and which cells may join two clock domains (and how).  Facts from the IPs' product
guides as used in vivado/lib/zk_bd.tcl; configuration-dependent parts are computed from the cell's CONFIG values."""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Pin:
    dir: str                      # in | out
    kind: str = "data"            # clk | rst | data
    clock: str | None = None      # the clock pin this pin belongs to (None: asynchronous / constant / a clock)
    required: bool = False        # an input that must be driven
    source: bool = False          # a clock output that starts a clock domain


@dataclass
class Intf:
    mode: str                     # master | slave
    kind: str                     # axis | aximm | diff_clock | pcie | ddr4
    clock: str | None = None      # clock pin; "*": any of the cell's clock pins (a crossing interconnect)
    bytes: int | None = None      # AXI4-Stream TDATA bytes
    required: bool = False


@dataclass
class IpModel:
    pins: dict[str, Pin] = field(default_factory=dict)
    intfs: dict[str, Intf] = field(default_factory=dict)


def _i(props: dict, key: str, default: int) -> int:
    v = props.get(f"CONFIG.{key}", default)
    if isinstance(v, str) and v.endswith("_bit"):
        v = v[:-4]
    return int(str(v), 0)


def _b(props: dict, key: str, default: bool) -> bool:
    v = str(props.get(f"CONFIG.{key}", default)).lower()
    return v in ("1", "true")


def xdma(props: dict) -> IpModel:
    m = IpModel()
    clk = "axi_aclk"
    m.pins = {"sys_clk": Pin("in", "clk", required=True), "sys_clk_gt": Pin("in", "clk", required=True),
              "sys_rst_n": Pin("in", "rst", required=True), "axi_aclk": Pin("out", "clk", source=True),
              "axi_aresetn": Pin("out", "rst", clock=clk), "user_lnk_up": Pin("out", clock=clk),
              "usr_irq_req": Pin("in", clock=clk, required=True), "usr_irq_ack": Pin("out", clock=clk),
              "msi_enable": Pin("out", clock=clk), "msi_vector_width": Pin("out", clock=clk)}
    m.intfs["pcie_mgt"] = Intf("master", "pcie", required=True)
    width = _i(props, "axi_data_width", 64) // 8
    if props.get("CONFIG.xdma_axi_intf_mm") == "AXI_Stream":
        for k in range(_i(props, "xdma_rnum_chnl", 1)):
            m.intfs[f"M_AXIS_H2C_{k}"] = Intf("master", "axis", clk, width)
        for k in range(_i(props, "xdma_wnum_chnl", 1)):
            m.intfs[f"S_AXIS_C2H_{k}"] = Intf("slave", "axis", clk, width)
    else:
        m.intfs["M_AXI"] = Intf("master", "aximm", clk)
    if _b(props, "axilite_master_en", False):
        m.intfs["M_AXI_LITE"] = Intf("master", "aximm", clk)
    return m


def util_ds_buf(props: dict) -> IpModel:
    if props.get("CONFIG.C_BUF_TYPE") != "IBUFDSGTE":
        raise ValueError("util_ds_buf: only C_BUF_TYPE IBUFDSGTE is modelled")
    return IpModel({"IBUF_OUT": Pin("out", "clk", source=True), "IBUF_DS_ODIV2": Pin("out", "clk", source=True)},
                   {"CLK_IN_D": Intf("slave", "diff_clock", required=True)})


def clk_wiz(props: dict) -> IpModel:
    m = IpModel({"clk_out1": Pin("out", "clk", source=True), "locked": Pin("out")},
                {"CLK_IN1_D": Intf("slave", "diff_clock", required=True)})
    for n in range(2, 8):
        if _b(props, f"CLKOUT{n}_USED", False):
            m.pins[f"clk_out{n}"] = Pin("out", "clk", source=True)
    if _b(props, "USE_RESET", True):
        m.pins["reset"] = Pin("in", "rst", required=True)
    return m


def proc_sys_reset(props: dict) -> IpModel:
    c = "slowest_sync_clk"
    # ext_reset_in, aux_reset_in and dcm_locked are asynchronous inputs the block synchronizes to its clock
    return IpModel({c: Pin("in", "clk", required=True), "ext_reset_in": Pin("in", "rst", required=True),
                    "aux_reset_in": Pin("in", "rst"), "mb_debug_sys_rst": Pin("in", "rst"),
                    "dcm_locked": Pin("in", required=True), "peripheral_aresetn": Pin("out", "rst", c),
                    "interconnect_aresetn": Pin("out", "rst", c), "peripheral_reset": Pin("out", "rst", c),
                    "bus_struct_reset": Pin("out", "rst", c), "mb_reset": Pin("out", "rst", c)})


def axis_data_fifo(props: dict) -> IpModel:
    async_ = _b(props, "IS_ACLK_ASYNC", False)
    w = _i(props, "TDATA_NUM_BYTES", 1)
    m = IpModel({"s_axis_aclk": Pin("in", "clk", required=True),
                 "s_axis_aresetn": Pin("in", "rst", "s_axis_aclk", required=True)},
                {"S_AXIS": Intf("slave", "axis", "s_axis_aclk", w, True),
                 "M_AXIS": Intf("master", "axis", "m_axis_aclk" if async_ else "s_axis_aclk", w, True)})
    if async_:
        m.pins["m_axis_aclk"] = Pin("in", "clk", required=True)
    return m


def axis_dwidth_converter(props: dict) -> IpModel:
    return IpModel({"aclk": Pin("in", "clk", required=True), "aresetn": Pin("in", "rst", "aclk", required=True)},
                   {"S_AXIS": Intf("slave", "axis", "aclk", _i(props, "S_TDATA_NUM_BYTES", 1), True),
                    "M_AXIS": Intf("master", "axis", "aclk", _i(props, "M_TDATA_NUM_BYTES", 1), True)})


def smartconnect(props: dict) -> IpModel:
    nclk = _i(props, "NUM_CLKS", 1)
    clocks = ["aclk"] + [f"aclk{i}" for i in range(1, nclk)]
    m = IpModel({c: Pin("in", "clk", required=True) for c in clocks})
    m.pins["aresetn"] = Pin("in", "rst", "aclk", required=True)
    # with several clocks, each interface runs on the clock of what it connects to: "*" (the crossing is inside)
    clk = "*" if nclk > 1 else "aclk"
    for i in range(_i(props, "NUM_SI", 1)):
        m.intfs[f"S{i:02d}_AXI"] = Intf("slave", "aximm", clk, required=True)
    for i in range(_i(props, "NUM_MI", 1)):
        m.intfs[f"M{i:02d}_AXI"] = Intf("master", "aximm", clk, required=True)
    return m


def xlconstant(props: dict) -> IpModel:
    return IpModel({"dout": Pin("out")})


def util_vector_logic(props: dict) -> IpModel:
    # used as the inverter of PCIe PERST# into the DDR4 controllers' active-high sys_rst: a reset, asynchronous
    if props.get("CONFIG.C_OPERATION") != "not" or _i(props, "C_SIZE", 8) != 1:
        raise ValueError("util_vector_logic: only a 1-bit NOT is modelled")
    return IpModel({"Op1": Pin("in", "rst", required=True), "Res": Pin("out", "rst")})


def ddr4(props: dict) -> IpModel:
    """The DDR4 SDRAM controller (PG150) with its AXI4 slave: the user interface and its reset run on
    c0_ddr4_ui_clk (a quarter of the memory clock, from the controller's own MMCM on C0_SYS_CLK); sys_rst is an
    asynchronous active-high reset."""
    ui = "c0_ddr4_ui_clk"
    m = IpModel({"sys_rst": Pin("in", "rst", required=True), ui: Pin("out", "clk", source=True),
                 "c0_ddr4_ui_clk_sync_rst": Pin("out", "rst", ui), "c0_init_calib_complete": Pin("out", clock=ui),
                 "dbg_clk": Pin("out", "clk", source=True), "dbg_bus": Pin("out", clock="dbg_clk")},
                {"C0_SYS_CLK": Intf("slave", "diff_clock", required=True),
                 "C0_DDR4": Intf("master", "ddr4", required=True)})
    if _b(props, "C0.DDR4_AxiSelection", False):
        m.pins["c0_ddr4_aresetn"] = Pin("in", "rst", ui, required=True)
        m.intfs["C0_DDR4_S_AXI"] = Intf("slave", "aximm", ui, required=True)
    return m


def axi_register_slice(props: dict) -> IpModel:
    return IpModel({"aclk": Pin("in", "clk", required=True), "aresetn": Pin("in", "rst", "aclk", required=True)},
                   {"S_AXI": Intf("slave", "aximm", "aclk", required=True),
                    "M_AXI": Intf("master", "aximm", "aclk", required=True)})


MODELS = {"xdma": xdma, "util_ds_buf": util_ds_buf, "clk_wiz": clk_wiz, "proc_sys_reset": proc_sys_reset,
          "axis_data_fifo": axis_data_fifo, "axis_dwidth_converter": axis_dwidth_converter,
          "smartconnect": smartconnect, "xlconstant": xlconstant, "util_vector_logic": util_vector_logic,
          "ddr4": ddr4, "axi_register_slice": axi_register_slice}


def model(vlnv: str, props: dict) -> IpModel:
    vendor, lib, name, _ = vlnv.split(":")
    if vendor != "xilinx.com" or name not in MODELS:
        raise KeyError(vlnv)
    return MODELS[name](props)
