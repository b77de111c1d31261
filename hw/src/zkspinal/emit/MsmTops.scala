package zkspinal.emit

import zkspinal.msm._
import spinal.core._

/** The MSM tops that zkspinal.emit.Emit writes, with their manifest entries. */
object MsmTops {
  private def curveInfo(c: CurveConfig): Map[String, Any] = Map(
    "curve" -> c.name, "field" -> c.field.name, "p" -> ("0x" + c.field.p.toString(16)), "n" -> c.field.width)

  /** model = true: the multiplier-model twin (simulation only; checks the testbench and the data-flow graph fast) */
  def adder(model: Boolean): Top = {
    val c = CurveConfig.bls12_377_g1
    Top(s"TwistedEdwardsAdder_${c.name}" + (if (model) "_model" else ""), "TwistedEdwardsAdder",
      () => new TwistedEdwardsAdder(c.field, mulModel = model), { x =>
      val a = x.asInstanceOf[TwistedEdwardsAdder]
      curveInfo(c) ++ Map("latency" -> a.latency, "mul_latency" -> a.mulLatency, "add_latency" -> a.addLatency,
        "dsp_tiles" -> a.dspTiles, "multipliers" -> a.multipliers, "mul_model" -> model)
    })
  }

  /** the XYZZ adder of a short Weierstrass curve (model = true: the multiplier-model twin) */
  def xyzzAdder(c: CurveConfig, model: Boolean): Top =
    Top(s"XyzzAdder_${c.name}" + (if (model) "_model" else ""), "XyzzAdder",
      () => new XyzzAdder(c.field, mulModel = model), { x =>
      val a = x.asInstanceOf[XyzzAdder]
      curveInfo(c) ++ Map("latency" -> a.latency, "mul_latency" -> a.mulLatency, "dsp_tiles" -> a.dspTiles,
        "multipliers" -> a.multipliers, "mul_model" -> model)
    })

  def axis(cfg: MsmConfig): Top =
    Top(s"MsmAxis_${cfg.name}", "MsmAxis", () => new MsmAxis(cfg), onDemand = MsmConfig.onDemand.contains(cfg),
      info = { x =>
      val m = x.asInstanceOf[MsmAxis]
      val core = m.core
      val n = cfg.curve.field.width
      curveInfo(cfg.curve) ++ Map("config" -> cfg.name, "windows" -> cfg.windows, "layout" -> cfg.layoutString,
        "bound" -> ("0x" + cfg.bound.toString(16)), "buckets" -> (0 until cfg.numWindows).map(cfg.buckets),
        "total_buckets" -> cfg.totalBuckets, "partials" -> cfg.partialRecords,
        "partial_slots" -> cfg.partialSlots, "retry_depth" -> cfg.retryDepth, "latency" -> core.latency,
        "hazard_stages" -> core.lanes.head.hazardStages, "retry_delay" -> core.lanes.head.retryDelay,
        "adders" -> cfg.adders, "lane_windows" -> (0 until cfg.adders).map(cfg.laneWindows),
        "shared_windows" -> cfg.shared,
        "lane_queue_depth" -> cfg.laneQueueDepth, "scalar_fifo_depth" -> cfg.scalarFifoDepth,
        "point_fifo_depth" -> cfg.pointFifoDepth, "dsp_tiles" -> core.lanes.map(_.adder.dspTiles).sum, "mul_model" -> cfg.mulModel,
        "shreg_min_size" -> cfg.shregMinSize, "read_stage" -> core.lanes.head.readStage) ++
        cfg.split.map(sp => "split" -> Map("products" -> sp.products.map(_.toSeq.sorted), "windows" ->
          sp.windows.map(_.toSeq.sorted))) ++
        cfg.pointStore.map(sc => "point_store" -> Map("channels" -> sc.channels, "address_bits" -> sc.addressBits,
          "port_address_bits" -> sc.portAddressBits, "window_bits" -> sc.sharedSpace.fold(0)(_.strideBits),
          "read_buffer" -> sc.readBuffer, "capacity" -> sc.capacity(n), "points_per_page" -> PointStoreConfig.pointsPerPage(n),
          "page_bytes" -> PointStoreConfig.pageBytes, "point_bytes" -> MsmRecord.point.bytes(n))) ++
        Map("records" -> Map("point_bytes" -> MsmRecord.point.bytes(n), "bucket_bytes" -> MsmRecord.bucketRecord.bytes(n),
          "scalar_beat_bytes" -> MsmRecord.scalars.bytes))
    })

  def all: Seq[Top] = Seq(adder(false), adder(true)) ++
    CurveConfig.all.filter(_.form != CurveForm.TwistedEdwards).flatMap(c => Seq(xyzzAdder(c, false), xyzzAdder(c, true))) ++
    MsmConfig.all.map(axis)
}
