// A memory channel of the card (one DDR4 controller's AXI4 slave port) for the emulator and the harnesses: the top's
// AXI4 master <prefix>_{aw,w,b,ar,r}* on a sparse memory.  INCR bursts of full-width beats; a read burst's first
// beat comes `latency` cycles after its address, then at most one beat a cycle; each cycle a beat (read or write)
// is held back with probability `stall_percent` (refresh, bank and bus turnarounds: the bandwidth a controller
// leaves of its peak).  At most `outstanding` bursts of each kind are accepted.  Fault injection: every response
// after `fail_after` beats (reads and writes counted together) is SLVERR.
#ifndef ZKEMU_MEM_H
#define ZKEMU_MEM_H
#include "zkemu_model.h"

#include <cstdint>
#include <deque>
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

struct AxiMemory {
    struct Timing {
        unsigned latency = 40;
        unsigned stall_percent = 10;
        unsigned outstanding = 8;
        uint64_t fail_after = ~0ull;
    };
    AxiMemory(const Model &m, const std::string &prefix, const Timing &t, uint64_t seed);
    // the channels <prefix>0, <prefix>1, ... the top has
    static std::vector<AxiMemory> all(const Model &m, const std::string &prefix, const Timing &t, uint64_t seed);

    void drive(uint64_t cycle);  // outputs to the top, before the evaluation that precedes the clock edge
    void sample();               // handshakes of this edge, after that evaluation
    void advance(uint64_t cycle);  // the edge's effects, after the clock edge
    void read(uint64_t addr, uint8_t *dst, size_t n);
    void write(uint64_t addr, const uint8_t *src, size_t n);
    uint64_t beats_read = 0, beats_written = 0;

  private:
    struct Burst { uint64_t addr; unsigned beats; uint64_t id; uint64_t due; };
    const Port *awvalid, *awready, *awaddr, *awlen, *awid, *wvalid, *wready, *wdata, *wstrb, *wlast, *bvalid, *bready,
        *bresp, *bid, *arvalid, *arready, *araddr, *arlen, *arid, *rvalid, *rready, *rdata, *rresp, *rlast, *rid;
    size_t beat_bytes;
    Timing timing;
    std::mt19937_64 rng;
    std::unordered_map<uint64_t, std::vector<uint8_t>> pages;  // 4 KiB pages, zero until written
    std::deque<Burst> reads, writes;  // accepted addresses; writes wait for their data
    std::deque<Burst> responses;      // write responses (due cycle), OKAY or SLVERR in `id`'s top bit
    unsigned read_beat = 0, write_beat = 0;
    bool r_on = false, w_on = false, b_on = false;
    bool fire_ar = false, fire_aw = false, fire_w = false, fire_r = false, fire_b = false;
    uint64_t ar_addr = 0, ar_len = 0, ar_id = 0, aw_addr = 0, aw_len = 0, aw_id = 0;
    std::vector<uint8_t> w_data, w_strb;
    bool failing() const { return beats_read + beats_written >= timing.fail_after; }
    bool slip() { return timing.stall_percent && rng() % 100 < timing.stall_percent; }
};
#endif
