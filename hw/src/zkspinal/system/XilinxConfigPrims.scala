package zkspinal.system

import spinal.core._

/** UltraScale(+) configuration primitives (Vivado's UNISIM library), instantiated as black boxes by the board
  * configurations of [[FlashCtrl]].  Port names as in the Libraries Guide (UG974). */

/** ICAPE3: the internal configuration access port.  32-bit data, bit-swapped within each byte (UG570 "Parallel
  * Bus Bit Order"); CSIB/RDWRB active low; CLK at most 200 MHz on UltraScale+ (DS923 F_ICAPCK). */
class ICAPE3 extends BlackBox {
  addGeneric("DEVICE_ID", B"32'h03628093") // only used by the unisim simulation model
  addGeneric("ICAP_AUTO_SWITCH", "DISABLE")
  addGeneric("SIM_CFG_FILE_NAME", "NONE")
  val CLK = in Bool ()
  val CSIB = in Bool ()
  val RDWRB = in Bool ()
  val I = in Bits (32 bits)
  val O = out Bits (32 bits)
  val AVAIL = out Bool ()
  val PRDONE = out Bool ()
  val PRERROR = out Bool ()
  mapClockDomain(clock = CLK)
  noIoPrefix()
}

/** STARTUPE3: after configuration, user logic drives the configuration flash's CCLK (USRCCLKO), FCS_B (FCSBO)
  * and D[3:0] (DO/DTS out, DI in) through it.  UG570: the first three USRCCLKO edges after configuration are
  * swallowed; the host sends a dummy byte with CS# high first (zk-flash does). */
class STARTUPE3 extends BlackBox {
  addGeneric("PROG_USR", "FALSE")
  addGeneric("SIM_CCLK_FREQ", 0.0)
  val GSR = in Bool ()
  val GTS = in Bool ()
  val KEYCLEARB = in Bool ()
  val PACK = in Bool ()
  val USRCCLKO = in Bool ()
  val USRCCLKTS = in Bool ()
  val USRDONEO = in Bool ()
  val USRDONETS = in Bool ()
  val DO = in Bits (4 bits)
  val DTS = in Bits (4 bits)
  val FCSBO = in Bool ()
  val FCSBTS = in Bool ()
  val DI = out Bits (4 bits)
  val CFGCLK = out Bool ()
  val CFGMCLK = out Bool ()
  val EOS = out Bool ()
  val PREQ = out Bool ()
  noIoPrefix()
}
