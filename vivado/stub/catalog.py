"""What the checker knows of the Xilinx IP cells the block designs use: pins, interfaces, the clock each belongs to,
the inputs that must be driven, and which cells may join two clock domains (and how).  Facts from the IPs' product
guides as used in vivado/lib/zk_bd.tcl; configuration-dependent parts are computed from the cell's CONFIG values."""
from __future__ import annotations

import re
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
    """A clocking wizard fed by a differential clock-capable pin (its own input buffer: interface CLK_IN1_D), or with
    PRIM_SOURCE No_buffer by a clock already on a global buffer (pin clk_in1: another wizard's output, cascaded).
    `locked` is asynchronous: the dcm_locked of reset synchronizers, or the active-low reset of a cascaded wizard
    (so it is modelled as a reset output); the reset input is named by RESET_PORT (reset / resetn)."""
    m = IpModel({"clk_out1": Pin("out", "clk", source=True), "locked": Pin("out", "rst")})
    source = props.get("CONFIG.PRIM_SOURCE", "Single_ended_clock_capable_pin")
    if source == "No_buffer":
        m.pins["clk_in1"] = Pin("in", "clk", required=True)
    elif source == "Differential_clock_capable_pin":
        m.intfs["CLK_IN1_D"] = Intf("slave", "diff_clock", required=True)
    else:
        raise ValueError(f"clk_wiz: PRIM_SOURCE {source} is not modelled")
    for n in range(2, 8):
        if _b(props, f"CLKOUT{n}_USED", False):
            m.pins[f"clk_out{n}"] = Pin("out", "clk", source=True)
    if _b(props, "USE_RESET", True):
        low = props.get("CONFIG.RESET_TYPE", "ACTIVE_HIGH") == "ACTIVE_LOW"
        m.pins[props.get("CONFIG.RESET_PORT", "resetn" if low else "reset")] = Pin("in", "rst", required=True)
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
    """A 1-bit NOT: the inverter of PCIe PERST# into the DDR4 controllers' active-high sys_rst (a reset,
    asynchronous).  A 1-bit OR or AND of two asynchronous flags (the HBM stacks' catastrophic-temperature outputs)."""
    op = props.get("CONFIG.C_OPERATION")
    if _i(props, "C_SIZE", 8) != 1 or op not in ("not", "or", "and"):
        raise ValueError(f"util_vector_logic: only a 1-bit NOT, OR or AND is modelled (C_OPERATION {op})")
    if op == "not":
        return IpModel({"Op1": Pin("in", "rst", required=True), "Res": Pin("out", "rst")})
    return IpModel({"Op1": Pin("in", required=True), "Op2": Pin("in", required=True), "Res": Pin("out")})


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


# The parameters of the HBM IP the scripts may set (PG276 and public block designs of xcu55n / U55C / U280 shells),
# each with what its index counts (a stack, an AXI port, a memory controller): any other is refused, so that a
# parameter the checker does not understand cannot pass unseen.
HBM_PARAMS = {r"USER_HBM_DENSITY": None, r"USER_HBM_STACK": None, r"USER_APB_EN": None, r"USER_AXI_CLK_FREQ": None,
              r"USER_MC_ENABLE_APB_01": None, r"USER_SWITCH_ENABLE_(\d\d)": "stack", r"USER_CLK_SEL_LIST(\d)": "stack",
              r"USER_HBM_REF_CLK_(\d)": "stack", r"USER_APB_PCLK_(\d)": "stack", r"USER_SAXI_(\d\d)": "port",
              r"USER_MC_ENABLE_(\d\d)": "controller", r"USER_PHY_ENABLE_(\d\d)": "controller"}
HBM_STACK_GB, HBM_STACK_PORTS = 4, 16   # a 4-high stack (the xcu55n's): 4 GB, 16 AXI3 ports SAXI_xx of 256 bits


def hbm_check_params(props: dict, stacks: int):
    per = {"stack": 1, "port": HBM_STACK_PORTS, "controller": HBM_STACK_PORTS // 2}
    for k in props:
        name = k.removeprefix("CONFIG.")
        hit = next(((m, what) for pat, what in HBM_PARAMS.items() if (m := re.fullmatch(pat, name))), None)
        if not k.startswith("CONFIG.") or hit is None:
            raise ValueError(f"hbm: {k} is not a parameter the checker knows ({', '.join(HBM_PARAMS)})")
        m, what = hit
        if what and int(m[1]) >= per[what] * stacks:
            raise ValueError(f"hbm: {k}: the IP has {stacks} stack(s), {per[what] * stacks} of that {what}")


def hbm(props: dict) -> IpModel:
    """The AXI HBM controller (PG276) on 4-high stacks: per stack s a reference clock HBM_REF_CLK_s and an APB clock
    APB_s_PCLK with its reset APB_s_PRESET_N (its initialization is done: apb_complete_s), the catastrophic-temperature
    flag DRAM_s_STAT_CATTRIP and temperature DRAM_s_STAT_TEMP; per enabled port xx (USER_SAXI_xx, on by default) the
    AXI3 slave SAXI_xx on AXI_xx_ACLK with its reset AXI_xx_ARESET_N.  Address segments SAXI_xx/HBM_MEMyy: pseudo-
    channel yy seen from port xx (checked by memory.py, not here)."""
    stacks = _i(props, "USER_HBM_STACK", 2)
    hbm_check_params(props, stacks)
    if stacks not in (1, 2) or props.get("CONFIG.USER_HBM_DENSITY", "8GB") != f"{HBM_STACK_GB * stacks}GB":
        raise ValueError(f"hbm: {props.get('CONFIG.USER_HBM_DENSITY')} on {stacks} stack(s): only 4-high stacks of "
                         f"{HBM_STACK_GB} GB (ports SAXI_xx) are modelled")
    m = IpModel()
    for s in range(stacks):
        apb = f"APB_{s}_PCLK"
        m.pins |= {f"HBM_REF_CLK_{s}": Pin("in", "clk", required=True), apb: Pin("in", "clk", required=True),
                   f"APB_{s}_PRESET_N": Pin("in", "rst", apb, required=True),
                   f"apb_complete_{s}": Pin("out", clock=apb),
                   f"DRAM_{s}_STAT_CATTRIP": Pin("out"), f"DRAM_{s}_STAT_TEMP": Pin("out")}
    for xx in range(HBM_STACK_PORTS * stacks):
        if _b(props, f"USER_SAXI_{xx:02d}", True):
            clk = f"AXI_{xx:02d}_ACLK"
            m.pins |= {clk: Pin("in", "clk", required=True),
                       f"AXI_{xx:02d}_ARESET_N": Pin("in", "rst", clk, required=True)}
            m.intfs[f"SAXI_{xx:02d}"] = Intf("slave", "aximm", clk, required=True)
    return m


MODELS = {"xdma": xdma, "util_ds_buf": util_ds_buf, "clk_wiz": clk_wiz, "proc_sys_reset": proc_sys_reset,
          "axis_data_fifo": axis_data_fifo, "axis_dwidth_converter": axis_dwidth_converter,
          "smartconnect": smartconnect, "xlconstant": xlconstant, "util_vector_logic": util_vector_logic,
          "ddr4": ddr4, "axi_register_slice": axi_register_slice, "hbm": hbm}


def model(vlnv: str, props: dict) -> IpModel:
    vendor, lib, name, _ = vlnv.split(":")
    if vendor != "xilinx.com" or name not in MODELS:
        raise KeyError(vlnv)
    return MODELS[name](props)
