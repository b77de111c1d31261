// msm_harness: drives a Verilated MsmAxis top from C++ for long runs and benchmarks (cocotb runs too few cycles
// per second for 2^14-point jobs on Hardcaml's layout).  Same protocol as tests/tb/msm_axis_tb.py: COUNT, start,
// the scalar and point streams (optionally with random pauses on all three streams), the bucket read-out, counters.
//
//   msm_harness SCALARS.bin POINTS.bin COUNT OUT_BUCKETS.bin OUT.json [PAUSE_PERCENT [SEED [SAMPLE_CYCLES [TRACE.fst]]]]
//
// SCALARS.bin / POINTS.bin are the stream payloads of reference_model/msm_formats.py (64-byte beats; tlast on the
// last beat); OUT.json gets the AXI4-Lite counters.  SAMPLE_CYCLES > 0: while the job runs, the harness also reads
// BUSY (low word), STALLS, CONSUMED, PHASE and each adder's BUSY (low word) over AXI4-Lite every SAMPLE_CYCLES cycles, on the register port only
// (the streams keep their own schedule), and writes the series into OUT.json ("samples": cycle of each sample
// counted from the start write, then one list per register).  Exit status 1 on a hang (no progress for 10^7
// cycles) or when the engine reports an error.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "verilated.h"
#include "zk_contract.h" // the register offsets (MsmAxisRegs)
#include TOP_HEADER
#ifdef ZK_TRACE
#include "verilated_fst_c.h"
#endif

static TOP_CLASS *dut;
static uint64_t cycle = 0;
#ifdef ZK_TRACE
static VerilatedFstC *trace = nullptr;
#endif

static std::vector<uint8_t> slurp(const char *path) {
  FILE *f = std::fopen(path, "rb");
  if (!f) { std::perror(path); std::exit(2); }
  std::vector<uint8_t> v;
  uint8_t buf[1 << 16];
  size_t got;
  while ((got = std::fread(buf, 1, sizeof buf, f)) > 0) v.insert(v.end(), buf, buf + got);
  std::fclose(f);
  return v;
}

// rising edge: inputs were set while the clock was low
static void tick() {
  dut->aclk = 1;
  dut->eval();
#ifdef ZK_TRACE
  if (trace) trace->dump(2 * cycle + 1);
#endif
  dut->aclk = 0;
  dut->eval();
#ifdef ZK_TRACE
  if (trace) trace->dump(2 * cycle + 2);
#endif
  cycle++;
}

static void set_beat(VlWide<16> &port, const uint8_t *src) {
  for (int w = 0; w < 16; w++) {
    uint32_t v;
    std::memcpy(&v, src + 4 * w, 4);
    port[w] = v;
  }
}

static void get_beat(const VlWide<16> &port, uint8_t *dst) {
  for (int w = 0; w < 16; w++) {
    uint32_t v = port[w];
    std::memcpy(dst + 4 * w, &v, 4);
  }
}

static void axil_write(uint32_t addr, uint32_t data) {
  dut->s_axil_awaddr = addr; dut->s_axil_awvalid = 1; dut->s_axil_awprot = 0;
  dut->s_axil_wdata = data; dut->s_axil_wstrb = 0xF; dut->s_axil_wvalid = 1;
  dut->s_axil_bready = 1;
  bool aw = false, w = false, b = false;
  for (int i = 0; i < 1000 && !b; i++) {
    dut->eval();
    bool awf = dut->s_axil_awvalid && dut->s_axil_awready, wf = dut->s_axil_wvalid && dut->s_axil_wready;
    bool bf = dut->s_axil_bvalid;
    tick();
    if (awf) { aw = true; dut->s_axil_awvalid = 0; }
    if (wf) { w = true; dut->s_axil_wvalid = 0; }
    if (bf && aw && w) b = true;
  }
  dut->s_axil_bready = 0;
  if (!b) { std::fprintf(stderr, "AXI4-Lite write %#x hung\n", addr); std::exit(1); }
}

static uint32_t axil_read(uint32_t addr) {
  dut->s_axil_araddr = addr; dut->s_axil_arvalid = 1; dut->s_axil_arprot = 0; dut->s_axil_rready = 1;
  for (int i = 0; i < 1000; i++) {
    dut->eval();
    bool arf = dut->s_axil_arvalid && dut->s_axil_arready;
    bool rf = dut->s_axil_rvalid;
    uint32_t data = dut->s_axil_rdata;
    tick();
    if (arf) dut->s_axil_arvalid = 0;
    if (rf && !dut->s_axil_arvalid) { dut->s_axil_rready = 0; return data; }
  }
  std::fprintf(stderr, "AXI4-Lite read %#x hung\n", addr);
  std::exit(1);
}

static uint64_t rd64(uint32_t a) { uint64_t lo = axil_read(a); return lo | (uint64_t)axil_read(a + 4) << 32; }

// Periodic register samples during a job, read over AXI4-Lite without stopping the streams: step() drives the
// read-address channel before the evaluation of a cycle, done() takes the handshakes seen before the clock edge.
struct Sampler {
  // BUSY (lo), STALLS, CONSUMED, PHASE, then BUSY (lo) of each adder (set by addAdders)
  std::vector<uint32_t> regs = {ZK_MSM_BUSY, ZK_MSM_STALLS, ZK_MSM_CONSUMED, ZK_MSM_PHASE};
  std::vector<std::string> names = {"busy", "stalls", "consumed", "phase"};
  uint64_t every = 0, next = 0, start = 0;
  int idx = -1;  // register being read, -1 idle
  bool arf = false, rf = false;
  uint32_t data = 0;
  std::vector<uint32_t> vals;
  std::vector<uint64_t> cycles;
  std::vector<std::vector<uint32_t>> series;
  void addAdders(uint32_t adders) {
    for (uint32_t a = 0; a < adders; a++) {
      regs.push_back(ZK_MSM_ADDER_BUSY + 8 * a);
      names.push_back("adder_busy_" + std::to_string(a));
    }
    vals.assign(regs.size(), 0);
    series.assign(regs.size(), {});
  }
  bool idle() const { return idx < 0; }
  void step(bool allowNew) {  // before eval
    if (idx < 0 && every && allowNew && cycle >= next) {
      idx = 0;
      dut->s_axil_araddr = regs[0]; dut->s_axil_arvalid = 1; dut->s_axil_arprot = 0; dut->s_axil_rready = 1;
    }
  }
  void sense() {  // after eval, before the clock edge
    arf = idx >= 0 && dut->s_axil_arvalid && dut->s_axil_arready;
    rf = idx >= 0 && dut->s_axil_rready && dut->s_axil_rvalid;
    data = dut->s_axil_rdata;
  }
  void done() {  // after the clock edge
    if (arf) dut->s_axil_arvalid = 0;
    if (!rf) return;
    if (idx == 0) cycles.push_back(cycle - start);
    vals[idx++] = data;
    if (idx < (int)regs.size()) {
      dut->s_axil_araddr = regs[idx]; dut->s_axil_arvalid = 1;
    } else {
      for (size_t k = 0; k < regs.size(); k++) series[k].push_back(vals[k]);
      idx = -1; dut->s_axil_rready = 0;
      next += every;
    }
  }
  void drain() {  // finish a read in flight (the streams must be idle)
    for (int i = 0; i < 1000 && idx >= 0; i++) { dut->eval(); sense(); tick(); done(); }
    if (idx >= 0) { std::fprintf(stderr, "AXI4-Lite sample read hung\n"); std::exit(1); }
    if (!cycles.empty() && series[0].size() < cycles.size()) cycles.pop_back();
  }
  void json(FILE *f) const {
    std::fprintf(f, ", \"samples\": {\"every\": %llu, \"cycle\": [", (unsigned long long)every);
    for (size_t i = 0; i < series[0].size(); i++) std::fprintf(f, "%s%llu", i ? ", " : "", (unsigned long long)cycles[i]);
    std::fprintf(f, "]");
    for (size_t k = 0; k < regs.size(); k++) {
      std::fprintf(f, ", \"%s\": [", names[k].c_str());
      for (size_t i = 0; i < series[k].size(); i++) std::fprintf(f, "%s%u", i ? ", " : "", series[k][i]);
      std::fprintf(f, "]");
    }
    std::fprintf(f, "}");
  }
};

int main(int argc, char **argv) {
  if (argc < 6) {
    std::fprintf(stderr, "usage: %s SCALARS.bin POINTS.bin COUNT OUT_BUCKETS.bin OUT.json [PAUSE%% [SEED [SAMPLE_CYCLES [TRACE]]]]\n", argv[0]);
    return 2;
  }
  Verilated::commandArgs(argc, argv);
  Verilated::randReset(0);
  std::vector<uint8_t> sc = slurp(argv[1]), pt = slurp(argv[2]);
  uint32_t count = (uint32_t)std::strtoul(argv[3], nullptr, 0);
  int pause = argc > 6 ? std::atoi(argv[6]) : 0;
  std::mt19937_64 rng(argc > 7 ? std::strtoull(argv[7], nullptr, 0) : 1);
  Sampler sampler;
  sampler.every = argc > 8 ? std::strtoull(argv[8], nullptr, 0) : 0;
  dut = new TOP_CLASS;
#ifdef ZK_TRACE
  if (argc > 9) {
    Verilated::traceEverOn(true);
    trace = new VerilatedFstC;
    dut->trace(trace, 99);
    trace->open(argv[9]);
  }
#endif
  if (sc.size() % 64 || pt.size() % 64) { std::fprintf(stderr, "stream files must be whole 64-byte beats\n"); return 2; }
  size_t sBeats = sc.size() / 64, pBeats = pt.size() / 64;
  dut->aclk = 0; dut->aresetn = 0;
  dut->s_axis_scalars_tvalid = 0; dut->s_axis_points_tvalid = 0; dut->m_axis_buckets_tready = 0;
  dut->s_axil_awvalid = 0; dut->s_axil_wvalid = 0; dut->s_axil_bready = 0; dut->s_axil_arvalid = 0; dut->s_axil_rready = 0;
  dut->eval();
  for (int i = 0; i < 4; i++) tick();
  dut->aresetn = 1;
  tick();
  const uint32_t adders = axil_read(ZK_MSM_ADDERS);
  sampler.addAdders(adders);
  axil_write(ZK_MSM_COUNT, count);
  axil_write(ZK_MSM_CONTROL, 1);
  uint64_t start = cycle;
  sampler.start = sampler.next = start;
  uint64_t nextErrorCheck = start + 0x10000;
  size_t si = 0, pi = 0;
  std::vector<uint8_t> out;
  uint8_t beat[64];
  bool last = false;
  uint64_t lastProgress = cycle;
  auto coin = [&]() { return pause > 0 && (int)(rng() % 100) < pause; };
  while (!last) {
    bool sv = si < sBeats && !coin(), pv = pi < pBeats && !coin(), orr = !coin();
    dut->s_axis_scalars_tvalid = sv;
    if (sv) { set_beat(dut->s_axis_scalars_tdata, &sc[64 * si]); dut->s_axis_scalars_tlast = si + 1 == sBeats; }
    dut->s_axis_points_tvalid = pv;
    if (pv) { set_beat(dut->s_axis_points_tdata, &pt[64 * pi]); dut->s_axis_points_tlast = pi + 1 == pBeats; }
    dut->m_axis_buckets_tready = orr;
    sampler.step(true);
    dut->eval();
    sampler.sense();
    bool sf = sv && dut->s_axis_scalars_tready, pf = pv && dut->s_axis_points_tready;
    bool of = orr && dut->m_axis_buckets_tvalid;
    if (of) { get_beat(dut->m_axis_buckets_tdata, beat); out.insert(out.end(), beat, beat + 64); last = dut->m_axis_buckets_tlast; }
    tick();
    sampler.done();
    if (sf) si++;
    if (pf) pi++;
    if (sf || pf || of) lastProgress = cycle;
    if (cycle - lastProgress > 10000000ull) {
      std::fprintf(stderr, "no progress for 10^7 cycles at cycle %llu (ERROR %#x)\n", (unsigned long long)cycle, axil_read(ZK_MSM_ERROR));
      return 1;
    }
    if (cycle >= nextErrorCheck && sampler.idle() && si == sBeats && pi == pBeats) {  // every input sent: an error ends the job
      nextErrorCheck = cycle + 0x10000;
      dut->m_axis_buckets_tready = 0;
      dut->s_axis_scalars_tvalid = 0; dut->s_axis_points_tvalid = 0;
      if (axil_read(ZK_MSM_CONTROL) & ZK_MSM_STATUS_ERROR) break;
    }
  }
  dut->s_axis_scalars_tvalid = 0; dut->s_axis_points_tvalid = 0; dut->m_axis_buckets_tready = 0;
  uint64_t wall = cycle - start;
  sampler.drain();
  uint32_t status = axil_read(ZK_MSM_CONTROL), error = axil_read(ZK_MSM_ERROR);
  FILE *f = std::fopen(argv[4], "wb");
  if (!f) { std::perror(argv[4]); return 2; }
  std::fwrite(out.data(), 1, out.size(), f);
  std::fclose(f);
  f = std::fopen(argv[5], "w");
  if (!f) { std::perror(argv[5]); return 2; }
  std::fprintf(f, "{\"status\": %u, \"error\": %u, \"cycles\": %llu, \"busy\": %llu, \"acc_cycles\": %llu, "
               "\"stalls\": %u, \"deferred\": %u, \"starved\": %u, \"consumed\": %u, \"harness_cycles\": %llu, "
               "\"info\": %u, \"spilled\": %u, \"partials\": %u, \"adder_busy\": [", status, error,
               (unsigned long long)rd64(ZK_MSM_CYCLES), (unsigned long long)rd64(ZK_MSM_BUSY), (unsigned long long)rd64(ZK_MSM_ACC_CYCLES),
               axil_read(ZK_MSM_STALLS), axil_read(ZK_MSM_DEFERRED), axil_read(ZK_MSM_STARVED), axil_read(ZK_MSM_CONSUMED), (unsigned long long)wall,
               axil_read(ZK_MSM_INFO), axil_read(ZK_MSM_SPILLED), axil_read(ZK_MSM_PARTIALS));
  for (uint32_t a = 0; a < adders; a++) std::fprintf(f, "%s%llu", a ? ", " : "", (unsigned long long)rd64(ZK_MSM_ADDER_BUSY + 8 * a));
  std::fprintf(f, "]");
  if (sampler.every) sampler.json(f);
  std::fprintf(f, "}\n");
  std::fclose(f);
#ifdef ZK_TRACE
  if (trace) trace->close();
#endif
  dut->final();
  delete dut;
  return error ? 1 : 0;
}
