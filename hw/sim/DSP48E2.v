// Simulation model of the DSP48E2 primitive (UltraScale DSP slice, UG579), for Icarus and Verilator.
//
// Only for simulation: synthesis tools map DSP48E2 instances to the hard block and must not see this file.
// It models the part of the slice zkspinal's generators instantiate (zkspinal.field.Dsp48e2):
//   A path   A or ACIN (A_INPUT), AREG 0..2, ACASCREG, INMODE[0] (A1/A2), INMODE[1] (A gated to 0)
//   B path   B or BCIN (B_INPUT), BREG 0..2, BCASCREG, INMODE[4] (B1/B2)
//   D path   DREG, pre-adder D +/- A (INMODE[2] D enable, INMODE[3] subtract), ADREG, AMULTSEL "A" or "AD"
//   M        27 x 18 two's complement product, MREG
//   C        CREG
//   OPMODE   X, Y: 0 or M (both M); Z: 0, PCIN, P, C, PCIN >>> 17, P >>> 17; W: 0, P, RND, C
//   ALUMODE  0000 (Z + W + X + Y + CIN) and 0011 (Z - (W + X + Y + CIN)); CIN = CARRYIN (CARRYINSEL 000)
//   P        PREG 0/1, PCOUT = P
// with clock enables and synchronous resets on every register it models.  Anything else (SIMD, pattern
// detection, X = P or A:B, other ALUMODEs, registered control ports) stops the simulation with an error instead of
// computing something the hardware would not: tests/test_field_dsp.py holds this model against the inferred form.
`timescale 1ns/1ps
module DSP48E2 #(
  parameter integer ACASCREG = 1, parameter integer ADREG = 1, parameter integer ALUMODEREG = 1,
  parameter AMULTSEL = "A", parameter integer AREG = 1, parameter AUTORESET_PATDET = "NO_RESET",
  parameter AUTORESET_PRIORITY = "RESET", parameter A_INPUT = "DIRECT", parameter integer BCASCREG = 1,
  parameter BMULTSEL = "B", parameter integer BREG = 1, parameter B_INPUT = "DIRECT",
  parameter integer CARRYINREG = 1, parameter integer CARRYINSELREG = 1, parameter integer CREG = 1,
  parameter integer DREG = 1, parameter integer INMODEREG = 1, parameter integer MREG = 1,
  parameter integer OPMODEREG = 1, parameter PREADDINSEL = "A", parameter integer PREG = 1,
  parameter [47:0] RND = 48'h0, parameter USE_MULT = "MULTIPLY", parameter USE_PATTERN_DETECT = "NO_PATDET",
  parameter USE_SIMD = "ONE48", parameter USE_WIDEXOR = "FALSE", parameter XORSIMD = "XOR24_48_96",
  parameter [47:0] MASK = 48'h3fffffffffff, parameter [47:0] PATTERN = 48'h0, parameter SEL_MASK = "MASK",
  parameter SEL_PATTERN = "PATTERN", parameter [3:0] IS_ALUMODE_INVERTED = 4'b0,
  parameter [0:0] IS_CARRYIN_INVERTED = 1'b0, parameter [0:0] IS_CLK_INVERTED = 1'b0,
  parameter [4:0] IS_INMODE_INVERTED = 5'b0, parameter [8:0] IS_OPMODE_INVERTED = 9'b0,
  parameter [0:0] IS_RSTALLCARRYIN_INVERTED = 1'b0, parameter [0:0] IS_RSTALUMODE_INVERTED = 1'b0,
  parameter [0:0] IS_RSTA_INVERTED = 1'b0, parameter [0:0] IS_RSTB_INVERTED = 1'b0,
  parameter [0:0] IS_RSTCTRL_INVERTED = 1'b0, parameter [0:0] IS_RSTC_INVERTED = 1'b0,
  parameter [0:0] IS_RSTD_INVERTED = 1'b0, parameter [0:0] IS_RSTINMODE_INVERTED = 1'b0,
  parameter [0:0] IS_RSTM_INVERTED = 1'b0, parameter [0:0] IS_RSTP_INVERTED = 1'b0
) (
  output [29:0] ACOUT, output [17:0] BCOUT, output CARRYCASCOUT, output [3:0] CARRYOUT, output MULTSIGNOUT,
  output OVERFLOW, output [47:0] P, output PATTERNBDETECT, output PATTERNDETECT, output [47:0] PCOUT,
  output UNDERFLOW, output [7:0] XOROUT,
  input [29:0] A, input [29:0] ACIN, input [3:0] ALUMODE, input [17:0] B, input [17:0] BCIN, input [47:0] C,
  input CARRYCASCIN, input CARRYIN, input [2:0] CARRYINSEL, input CEA1, input CEA2, input CEAD, input CEALUMODE,
  input CEB1, input CEB2, input CEC, input CECARRYIN, input CECTRL, input CED, input CEINMODE, input CEM,
  input CEP, input CLK, input [26:0] D, input [4:0] INMODE, input MULTSIGNIN, input [8:0] OPMODE,
  input [47:0] PCIN, input RSTA, input RSTALLCARRYIN, input RSTALUMODE, input RSTB, input RSTC, input RSTCTRL,
  input RSTD, input RSTINMODE, input RSTM, input RSTP
);
  // ---- the configurations this model covers --------------------------------------------------------------
  initial begin
    if (AREG > 2 || BREG > 2 || ACASCREG > AREG || BCASCREG > BREG || (AREG == 2 && ACASCREG == 0) ||
        (BREG == 2 && BCASCREG == 0) || (AREG < 2 && ACASCREG != AREG) || (BREG < 2 && BCASCREG != BREG)) begin
      $display("DSP48E2 model: unsupported AREG/ACASCREG/BREG/BCASCREG %0d/%0d/%0d/%0d", AREG, ACASCREG, BREG, BCASCREG);
      $finish(1);
    end
    if (USE_MULT != "MULTIPLY" || USE_SIMD != "ONE48" || USE_PATTERN_DETECT != "NO_PATDET" ||
        USE_WIDEXOR != "FALSE" || PREADDINSEL != "A" || BMULTSEL != "B" ||
        (AMULTSEL != "A" && AMULTSEL != "AD") || INMODEREG != 0 || OPMODEREG != 0 || ALUMODEREG != 0 ||
        CARRYINREG != 0 || CARRYINSELREG != 0 || CREG > 1 || DREG > 1 || ADREG > 1 || MREG > 1 || PREG > 1 ||
        IS_CLK_INVERTED != 0 || IS_ALUMODE_INVERTED != 0 || IS_OPMODE_INVERTED != 0 || IS_INMODE_INVERTED != 0 ||
        IS_CARRYIN_INVERTED != 0) begin
      $display("DSP48E2 model: configuration outside the modelled subset");
      $finish(1);
    end
  end

  // ---- A, B, D, C input registers ------------------------------------------------------------------------------
  wire [29:0] a_in = (A_INPUT == "CASCADE") ? ACIN : A;
  wire [17:0] b_in = (B_INPUT == "CASCADE") ? BCIN : B;
  reg [29:0] a1 = 0, a2 = 0;
  reg [17:0] b1 = 0, b2 = 0;
  reg [26:0] d_r = 0, ad_r = 0;
  reg [47:0] c_r = 0;
  always @(posedge CLK) begin
    if (RSTA) begin a1 <= 0; a2 <= 0; end
    else begin
      if (CEA1) a1 <= a_in;
      if (CEA2) a2 <= (AREG == 2) ? a1 : a_in;
    end
    if (RSTB) begin b1 <= 0; b2 <= 0; end
    else begin
      if (CEB1) b1 <= b_in;
      if (CEB2) b2 <= (BREG == 2) ? b1 : b_in;
    end
    if (RSTD) d_r <= 0; else if (CED) d_r <= D;
    if (RSTC) c_r <= 0; else if (CEC) c_r <= C;
  end
  // the register that feeds the multiplier path (INMODE[0] / INMODE[4] pick the first stage when AREG/BREG = 2)
  wire [29:0] a_q = (AREG == 0) ? a_in : (AREG == 1) ? a2 : (INMODE[0] ? a1 : a2);
  wire [17:0] b_q = (BREG == 0) ? b_in : (BREG == 1) ? b2 : (INMODE[4] ? b1 : b2);
  assign ACOUT = (ACASCREG == 0) ? a_in : (ACASCREG == AREG) ? a2 : a1;
  assign BCOUT = (BCASCREG == 0) ? b_in : (BCASCREG == BREG) ? b2 : b1;

  // ---- pre-adder and multiplier -----------------------------------------------------------------------------
  wire [26:0] a_g = INMODE[1] ? 27'd0 : a_q[26:0];
  wire [26:0] d_v = (DREG == 1) ? d_r : D;
  wire [26:0] d_g = INMODE[2] ? d_v : 27'd0;
  wire [26:0] ad = INMODE[3] ? d_g - a_g : d_g + a_g;
  always @(posedge CLK) if (RSTD) ad_r <= 0; else if (CEAD) ad_r <= ad;
  wire [26:0] mult_a = (AMULTSEL == "AD") ? ((ADREG == 1) ? ad_r : ad) : a_g;
  wire signed [44:0] m_full = $signed(mult_a) * $signed(b_q);
  reg [47:0] m_r = 0;
  always @(posedge CLK) if (RSTM) m_r <= 0; else if (CEM) m_r <= {{3{m_full[44]}}, m_full};
  wire [47:0] m = (MREG == 1) ? m_r : {{3{m_full[44]}}, m_full};

  // ---- the ALU: W + X + Y + Z ---------------------------------------------------------------------------------
  reg [47:0] p_r = 0;
  wire [47:0] c_v = (CREG == 1) ? c_r : C;
  wire [47:0] xy = (OPMODE[3:0] == 4'b0101) ? m : 48'd0;
  wire [47:0] w = (OPMODE[8:7] == 2'b01) ? P : (OPMODE[8:7] == 2'b10) ? RND : (OPMODE[8:7] == 2'b11) ? c_v : 48'd0;
  wire [47:0] z = (OPMODE[6:4] == 3'b001) ? PCIN :
                  (OPMODE[6:4] == 3'b010) ? P :
                  (OPMODE[6:4] == 3'b011) ? c_v :
                  (OPMODE[6:4] == 3'b101) ? {{17{PCIN[47]}}, PCIN[47:17]} :
                  (OPMODE[6:4] == 3'b110) ? {{17{P[47]}}, P[47:17]} : 48'd0;
  wire [47:0] sum_in = w + xy + {47'd0, CARRYIN};
  wire [47:0] alu = (ALUMODE == 4'b0011) ? z - sum_in : z + sum_in;
  always @(posedge CLK) begin
    if (RSTP) p_r <= 0; else if (CEP) p_r <= alu;
    // operating modes outside the model are reported once the control inputs are defined
    if (OPMODE[3:0] != 4'b0000 && OPMODE[3:0] != 4'b0101 && ^OPMODE !== 1'bx) begin
      $display("DSP48E2 model: OPMODE %b (X/Y other than 0 or M) is not modelled", OPMODE);
      $finish(1);
    end
    if (OPMODE[6:4] == 3'b100 || OPMODE[6:4] == 3'b111 || (ALUMODE != 4'b0000 && ALUMODE != 4'b0011 &&
        ^ALUMODE !== 1'bx) || (CARRYINSEL != 3'b000 && ^CARRYINSEL !== 1'bx)) begin
      $display("DSP48E2 model: OPMODE %b / ALUMODE %b / CARRYINSEL %b not modelled", OPMODE, ALUMODE, CARRYINSEL);
      $finish(1);
    end
  end
  assign P = (PREG == 1) ? p_r : alu;
  assign PCOUT = P;
  assign CARRYCASCOUT = 1'b0;
  assign CARRYOUT = 4'd0;
  assign MULTSIGNOUT = 1'b0;
  assign OVERFLOW = 1'b0;
  assign UNDERFLOW = 1'b0;
  assign PATTERNDETECT = 1'b0;
  assign PATTERNBDETECT = 1'b0;
  assign XOROUT = 8'd0;
endmodule
