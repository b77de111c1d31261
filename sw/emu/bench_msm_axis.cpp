// msm_harness: drives a Verilated MsmAxis top from C++ for long runs and benchmarks (cocotb runs too few cycles
// per second for 2^14-point jobs on Hardcaml's layout).  Same protocol as zkspinal/tb/msm_axis_tb.py: COUNT, start,
// the scalar and point streams (optionally with random pauses on all three streams), the bucket read-out, counters.
// It reaches the top through the emulator's port mapping (zkemu_model.h: ports by name, from the glue that
// zkemu.card.port_glue(top) generates into build/emu/<name>_glue.cpp) and its bus helpers (zkemu_bus.h: StreamPort
// for the three streams, the AxiLite master for every register access, the Sampler's included).
//
//   msm_harness [--resident] [--mem-latency N] [--mem-stall PERCENT]
//               SCALARS.bin POINTS.bin COUNT OUT_BUCKETS.bin OUT.json [PAUSE_PERCENT [SEED [SAMPLE_CYCLES [TRACE.fst]]]]
//
// --resident (a top with a point store): the points are first loaded into the store (COUNT, CONTROL = 4, the point
// stream; "load_cycles" in OUT.json), then the job runs with SOURCE = 1 and only the scalar stream.  The store's
// channels m_axi_mem<c> are card memory models (zkemu_mem.h): first beat --mem-latency cycles (default 40) after a
// read address, each beat held back with probability --mem-stall percent (default 10).
//
// SCALARS.bin / POINTS.bin are the stream payloads of reference_model/msm_formats.py (MsmRecord's beats; tlast on the
// last beat); OUT.json gets the AXI4-Lite counters and the record sizes ("point_bytes", "bucket_bytes", "records":
// the bucket records read out).  The record sizes are the top's curve's (MsmRecord at its field width n: BLS12-377
// three-beat point and bucket records, BN254 two and three, BLS12-381 three and four): zkemu.card.build_harness
// passes n and the manifest's "records" of the top as ZK_TOP_* macros, checked against the contract here.  A point
// file that is not whole records, or a read-out that is not whole bucket records, is an error (exit 2 / 1).  SAMPLE_CYCLES > 0: while the job runs, the harness also reads
// BUSY (low word), STALLS, CONSUMED, PHASE and each adder's BUSY (low word) over AXI4-Lite every SAMPLE_CYCLES cycles, on the register port only
// (the streams keep their own schedule), and writes the series into OUT.json ("samples": cycle of each sample
// counted from the start write, then one list per register).  TRACE.fst: an FST trace when the glue was built with
// waves (Model::trace).  Exit status 1 on a hang (no progress for 10^7 cycles) or when the engine reports an error,
// 2 on usage or I/O errors or a top without the expected ports.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "verilated.h"
#include "zk_contract.h" // the register offsets (MsmAxisRegs), the beats (MsmRecord)
#include "zkemu_bus.h"
#include "zkemu_mem.h"
#include "zkemu_proto.h"

// bytes of a beat of the three streams (MsmRecord: scalar beats, point and bucket records share it)
static constexpr size_t BEAT = ZK_MSM_RECORD_POINT_BEAT_BYTES;
static_assert(BEAT == ZK_MSM_RECORD_SCALARS_BYTES && BEAT == ZK_MSM_RECORD_BUCKET_BEAT_BYTES, "one beat width");

// the top's records (build_harness: the manifest's field width n and "records" of the top)
#if !defined(ZK_TOP_N) || !defined(ZK_TOP_POINT_BYTES) || !defined(ZK_TOP_BUCKET_BYTES) || !defined(ZK_TOP_SCALAR_BEAT_BYTES)
#error "build through zkemu.card.build_harness: the top's n and record sizes (manifest \"n\", \"records\") as ZK_TOP_*"
#endif
static constexpr size_t POINT_BYTES = ZK_MSM_RECORD_POINT_BYTES(ZK_TOP_N);
static constexpr size_t BUCKET_BYTES = ZK_MSM_RECORD_BUCKET_BYTES(ZK_TOP_N);
static_assert(ZK_TOP_N <= ZK_MSM_RECORD_POINT_MAX_N && ZK_TOP_N <= ZK_MSM_RECORD_BUCKET_MAX_N, "the records serve n");
static_assert(POINT_BYTES == ZK_TOP_POINT_BYTES && BUCKET_BYTES == ZK_TOP_BUCKET_BYTES &&
              ZK_TOP_SCALAR_BEAT_BYTES == ZK_MSM_RECORD_SCALARS_BYTES, "the manifest's records are the contract's at n");
static_assert(POINT_BYTES % BEAT == 0 && BUCKET_BYTES % BEAT == 0, "whole beats");

static Model *dut;
static const Port *clk;
static uint64_t cycle = 0;
static AxiLite *axil; // the emulator's AXI4-Lite master on s_axil: one access at a time, in queue order
static std::vector<AxiMemory> mems; // the point store's memory channels (none without a store)

// the memory channels around one evaluation and clock edge
static void mem_drive() { for (auto &m : mems) m.drive(cycle); }
static void mem_sample() { for (auto &m : mems) m.sample(); }
static void mem_advance() { for (auto &m : mems) m.advance(cycle); }

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

// rising edge: inputs were set while the clock was low (Model::dump: no-op without a trace)
static void tick() {
  clk->set(1);
  dut->eval();
  dut->dump(2 * cycle + 1);
  clk->set(0);
  dut->eval();
  dut->dump(2 * cycle + 2);
  cycle++;
}

// The answers of the register port: the Sampler's reads (tagged with it) go to it, the others to the blocking
// access below.
static void on_reply(Op &o, int status, uint64_t value);
static const Reply reply = on_reply;
static bool answered = false;
static uint32_t answer = 0;

// one clock cycle of the register port alone (the streams keep what they drive)
static void clock_axil() {
  axil->drive(true);
  mem_drive();
  dut->eval();
  axil->sample();
  mem_sample();
  tick();
  axil->advance(reply);
  mem_advance();
}

// a blocking access: the clock runs until it is answered, at most 1000 cycles (then the port hung: exit 1)
static uint32_t axil_access(uint32_t kind, uint32_t addr, uint32_t data) {
  answered = false;
  axil->q.push_back(Op{nullptr, kind, addr, data, {}, 0});
  for (int i = 0; i < 1000 && !answered; i++) clock_axil();
  if (!answered) {
    std::fprintf(stderr, kind == ZKEMU_REG_WRITE ? "AXI4-Lite write %#x hung\n" : "AXI4-Lite read %#x hung\n", addr);
    std::exit(1);
  }
  axil->drive(true); // idle again unless a Sampler read is queued
  return answer;
}

static void axil_write(uint32_t addr, uint32_t data) { axil_access(ZKEMU_REG_WRITE, addr, data); }
static uint32_t axil_read(uint32_t addr) { return axil_access(ZKEMU_REG_READ, addr, 0); }

static uint64_t rd64(uint32_t a) { uint64_t lo = axil_read(a); return lo | (uint64_t)axil_read(a + 4) << 32; }

// Periodic register samples during a job, read over AXI4-Lite without stopping the streams: step() queues the first
// read when a sample is due (before the evaluation of a cycle), got() takes each answer after the clock edge and
// queues the next register.
struct Sampler {
  // BUSY (lo), STALLS, CONSUMED, PHASE, then BUSY (lo) of each adder (set by addAdders)
  std::vector<uint32_t> regs = {ZK_MSM_BUSY, ZK_MSM_STALLS, ZK_MSM_CONSUMED, ZK_MSM_PHASE};
  std::vector<std::string> names = {"busy", "stalls", "consumed", "phase"};
  uint64_t every = 0, next = 0, start = 0;
  int idx = -1;  // register being read, -1 idle
  std::vector<uint32_t> vals;
  std::vector<uint64_t> cycles;
  std::vector<std::vector<uint32_t>> series;
  // the tag of the Sampler's operations on the register port (never dereferenced)
  Conn *tag() { return reinterpret_cast<Conn *>(this); }
  void read(uint32_t reg) { axil->q.push_back(Op{tag(), ZKEMU_REG_READ, reg, 0, {}, 0}); }
  void addAdders(uint32_t adders) {
    for (uint32_t a = 0; a < adders; a++) {
      regs.push_back(ZK_MSM_ADDER_BUSY + 8 * a);
      names.push_back("adder_busy_" + std::to_string(a));
    }
    vals.assign(regs.size(), 0);
    series.assign(regs.size(), {});
  }
  bool idle() const { return idx < 0; }
  void step(bool allowNew) {  // before the cycle's drive and eval
    if (idx < 0 && every && allowNew && cycle >= next) {
      idx = 0;
      read(regs[0]);
    }
  }
  void got(uint32_t data) {  // a read answered (after the clock edge)
    if (idx == 0) cycles.push_back(cycle - start);
    vals[idx++] = data;
    if (idx < (int)regs.size()) {
      read(regs[idx]);
    } else {
      for (size_t k = 0; k < regs.size(); k++) series[k].push_back(vals[k]);
      idx = -1;
      next += every;
    }
  }
  void drain() {  // finish a read in flight (the streams must be idle)
    for (int i = 0; i < 1000 && idx >= 0; i++) clock_axil();
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

static Sampler sampler;

static void on_reply(Op &o, int, uint64_t value) {
  if (o.conn == sampler.tag()) sampler.got((uint32_t)value);
  else { answered = true; answer = (uint32_t)value; }
}

int main(int argc, char **argv) {
  // options first, then the positional arguments
  bool resident = false;
  AxiMemory::Timing memTiming;
  int a = 1;
  for (; a < argc && std::strncmp(argv[a], "--", 2) == 0; a++) {
    std::string o = argv[a];
    if (o == "--resident") resident = true;
    else if (o == "--mem-latency" && a + 1 < argc) memTiming.latency = (unsigned)std::strtoul(argv[++a], nullptr, 0);
    else if (o == "--mem-stall" && a + 1 < argc) memTiming.stall_percent = (unsigned)std::strtoul(argv[++a], nullptr, 0);
    else { std::fprintf(stderr, "%s: unknown option %s\n", argv[0], o.c_str()); return 2; }
  }
  argv[a - 1] = argv[0];
  argc -= a - 1;
  argv += a - 1;
  if (argc < 6 || memTiming.stall_percent > 90) {
    std::fprintf(stderr, "usage: %s [--resident] [--mem-latency N] [--mem-stall PERCENT <= 90] SCALARS.bin POINTS.bin COUNT "
                 "OUT_BUCKETS.bin OUT.json [PAUSE%% [SEED [SAMPLE_CYCLES [TRACE]]]]\n", argv[0]);
    return 2;
  }
  auto ctx = std::make_unique<VerilatedContext>();
  ctx->commandArgs(argc, argv);
  ctx->randReset(0);
  std::vector<uint8_t> sc = slurp(argv[1]), pt = slurp(argv[2]);
  uint32_t count = (uint32_t)std::strtoul(argv[3], nullptr, 0);
  int pause = argc > 6 ? std::atoi(argv[6]) : 0;
  std::mt19937_64 rng(argc > 7 ? std::strtoull(argv[7], nullptr, 0) : 1);
  sampler.every = argc > 8 ? std::strtoull(argv[8], nullptr, 0) : 0;
  std::unique_ptr<Model> model(zkemu_make_model(ctx.get()));
  dut = model.get();
  const Port *rstn;
  std::unique_ptr<StreamPort> scalars, points, buckets;
  std::unique_ptr<AxiLite> lite;
  try {
    clk = &dut->need("aclk");
    rstn = &dut->need("aresetn");
    scalars = std::make_unique<StreamPort>(*dut, "s_axis_scalars");
    points = std::make_unique<StreamPort>(*dut, "s_axis_points");
    buckets = std::make_unique<StreamPort>(*dut, "m_axis_buckets");
    if (!scalars->last || !points->last || !buckets->last) throw std::runtime_error("a stream without tlast");
    lite = std::make_unique<AxiLite>(*dut, "s_axil", ~0ull); // no timeout of its own: the loops here bound the waits
    axil = lite.get();
    mems = AxiMemory::all(*dut, "m_axi_mem", memTiming, argc > 7 ? std::strtoull(argv[7], nullptr, 0) : 1);
    if (resident && mems.empty()) throw std::runtime_error("--resident: the top has no point store (m_axi_mem0)");
  } catch (std::exception &e) {
    std::fprintf(stderr, "%s: %s\n", argv[0], e.what());
    return 2;
  }
  if (argc > 9 && !dut->trace(argv[9])) std::fprintf(stderr, "%s: built without FST tracing (WAVES=1)\n", argv[0]);
  if (sc.size() % BEAT || pt.size() % POINT_BYTES) {
    std::fprintf(stderr, "stream files must be whole beats (scalars) and whole %zu-byte records (points, n = %u)\n",
                 POINT_BYTES, (unsigned)ZK_TOP_N);
    return 2;
  }
  size_t sBeats = sc.size() / BEAT, pBeats = pt.size() / BEAT;
  clk->set(0); rstn->set(0);
  scalars->valid->set(0); points->valid->set(0); buckets->ready->set(0);
  axil->drive(false); // valids and readies low
  dut->eval();
  for (int i = 0; i < 4; i++) tick();
  rstn->set(1);
  tick();
  const uint32_t adders = axil_read(ZK_MSM_ADDERS);
  sampler.addAdders(adders);
  auto coin = [&]() { return pause > 0 && (int)(rng() % 100) < pause; };
  uint64_t loadCycles = 0;
  if (resident) {  // the points into the store, then jobs without a point stream
    uint64_t t0 = cycle, lastProgress = cycle;
    axil_write(ZK_MSM_COUNT, count);
    axil_write(ZK_MSM_CONTROL, 4);
    for (size_t li = 0; li < pBeats;) {
      bool pv = !coin();
      points->valid->set(pv);
      if (pv) { points->data->set(&pt[BEAT * li], BEAT); points->last->set(li + 1 == pBeats); }
      axil->drive(true);
      mem_drive();
      dut->eval();
      axil->sample();
      mem_sample();
      bool pf = pv && points->ready->get();
      tick();
      axil->advance(reply);
      mem_advance();
      if (pf) { li++; lastProgress = cycle; }
      if (cycle - lastProgress > 1000000ull) { std::fprintf(stderr, "load: no point taken for 10^6 cycles\n"); return 1; }
    }
    points->valid->set(0);
    uint32_t st;
    while (!((st = axil_read(ZK_MSM_CONTROL)) & ZK_MSM_STATUS_IDLE))
      if (cycle - lastProgress > 1000000ull) { std::fprintf(stderr, "load: not idle after 10^6 cycles\n"); return 1; }
    loadCycles = cycle - t0;
    uint32_t stored = axil_read(ZK_MSM_STORED), err = axil_read(ZK_MSM_ERROR);
    if (err || stored != count) {
      std::fprintf(stderr, "load: ERROR %#x, STORED %u of %u\n", err, stored, count);
      return 1;
    }
    axil_write(ZK_MSM_SOURCE, 1);
    pBeats = 0;
  }
  axil_write(ZK_MSM_COUNT, count);
  axil_write(ZK_MSM_CONTROL, 1);
  uint64_t start = cycle;
  sampler.start = sampler.next = start;
  uint64_t nextErrorCheck = start + 0x10000;
  size_t si = 0, pi = 0;
  std::vector<uint8_t> out;
  uint8_t beat[BEAT];
  bool last = false;
  uint64_t lastProgress = cycle;
  while (!last) {
    bool sv = si < sBeats && !coin(), pv = pi < pBeats && !coin(), orr = !coin();
    scalars->valid->set(sv);
    if (sv) { scalars->data->set(&sc[BEAT * si], BEAT); scalars->last->set(si + 1 == sBeats); }
    points->valid->set(pv);
    if (pv) { points->data->set(&pt[BEAT * pi], BEAT); points->last->set(pi + 1 == pBeats); }
    buckets->ready->set(orr);
    sampler.step(true);
    axil->drive(true);
    mem_drive();
    dut->eval();
    axil->sample();
    mem_sample();
    bool sf = sv && scalars->ready->get(), pf = pv && points->ready->get();
    bool of = orr && buckets->valid->get();
    if (of) { buckets->data->get(beat, BEAT); out.insert(out.end(), beat, beat + BEAT); last = buckets->last->get() != 0; }
    tick();
    axil->advance(reply);
    mem_advance();
    if (sf) si++;
    if (pf) pi++;
    if (sf || pf || of) lastProgress = cycle;
    if (cycle - lastProgress > 10000000ull) {
      std::fprintf(stderr, "no progress for 10^7 cycles at cycle %llu (ERROR %#x)\n", (unsigned long long)cycle, axil_read(ZK_MSM_ERROR));
      return 1;
    }
    if (cycle >= nextErrorCheck && sampler.idle() && si == sBeats && pi == pBeats) {  // every input sent: an error ends the job
      nextErrorCheck = cycle + 0x10000;
      buckets->ready->set(0);
      scalars->valid->set(0); points->valid->set(0);
      if (axil_read(ZK_MSM_CONTROL) & ZK_MSM_STATUS_ERROR) break;
    }
  }
  scalars->valid->set(0); points->valid->set(0); buckets->ready->set(0);
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
  uint64_t memBeats = 0;
  for (auto &m : mems) memBeats += m.beats_read;
  std::fprintf(f, ", \"resident\": %s, \"load_cycles\": %llu, \"memory_channels\": %zu, \"memory_beats_read\": %llu",
               resident ? "true" : "false", (unsigned long long)loadCycles, mems.size(), (unsigned long long)memBeats);
  std::fprintf(f, ", \"n\": %u, \"point_bytes\": %zu, \"bucket_bytes\": %zu, \"records\": %zu", (unsigned)ZK_TOP_N,
               POINT_BYTES, BUCKET_BYTES, out.size() / BUCKET_BYTES);
  if (sampler.every) sampler.json(f);
  std::fprintf(f, "}\n");
  std::fclose(f);
  dut->final();
  model.reset(); // closes the trace
  if (!error && out.size() % BUCKET_BYTES) {
    std::fprintf(stderr, "the read-out of %zu bytes is not whole %zu-byte bucket records\n", out.size(), BUCKET_BYTES);
    return 1;
  }
  return error ? 1 : 0;
}
