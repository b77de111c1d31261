// A card memory channel on an AXI4 master of the top (zkemu_mem.h).
#include "zkemu_mem.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>

static const uint64_t SLVERR = 2, PAGE = 4096;
static const uint64_t FAILED = 1ull << 63;  // a burst with a beat past fail_after: its response is SLVERR

AxiMemory::AxiMemory(const Model &m, const std::string &p, const Timing &t, uint64_t seed)
    : awvalid(&m.need(p + "_awvalid")), awready(&m.need(p + "_awready")), awaddr(&m.need(p + "_awaddr")),
      awlen(&m.need(p + "_awlen")), awid(m.find(p + "_awid")), wvalid(&m.need(p + "_wvalid")),
      wready(&m.need(p + "_wready")), wdata(&m.need(p + "_wdata")), wstrb(m.find(p + "_wstrb")),
      wlast(&m.need(p + "_wlast")), bvalid(&m.need(p + "_bvalid")), bready(&m.need(p + "_bready")),
      bresp(&m.need(p + "_bresp")), bid(m.find(p + "_bid")), arvalid(&m.need(p + "_arvalid")),
      arready(&m.need(p + "_arready")), araddr(&m.need(p + "_araddr")), arlen(&m.need(p + "_arlen")),
      arid(m.find(p + "_arid")), rvalid(&m.need(p + "_rvalid")), rready(&m.need(p + "_rready")),
      rdata(&m.need(p + "_rdata")), rresp(&m.need(p + "_rresp")), rlast(&m.need(p + "_rlast")),
      rid(m.find(p + "_rid")), beat_bytes((size_t)(rdata->width + 7) / 8), timing(t), rng(seed) {
    if (beat_bytes > PAGE || PAGE % beat_bytes) throw std::runtime_error(p + ": data width does not divide a page");
    w_data.resize(beat_bytes);
    w_strb.resize((beat_bytes + 7) / 8);
}

std::vector<AxiMemory> AxiMemory::all(const Model &m, const std::string &prefix, const Timing &t, uint64_t seed) {
    std::vector<AxiMemory> out;
    for (int c = 0; m.find(prefix + std::to_string(c) + "_arvalid"); c++)
        out.emplace_back(m, prefix + std::to_string(c), t, seed * 1000003 + (uint64_t)c);
    return out;
}

void AxiMemory::read(uint64_t addr, uint8_t *dst, size_t n) {
    while (n) {
        size_t k = std::min<size_t>(n, PAGE - addr % PAGE);
        auto it = pages.find(addr / PAGE);
        if (it == pages.end()) std::memset(dst, 0, k);
        else std::memcpy(dst, it->second.data() + addr % PAGE, k);
        addr += k; dst += k; n -= k;
    }
}

void AxiMemory::write(uint64_t addr, const uint8_t *src, size_t n) {
    while (n) {
        size_t k = std::min<size_t>(n, PAGE - addr % PAGE);
        auto &page = pages[addr / PAGE];
        if (page.empty()) page.assign(PAGE, 0);
        std::memcpy(page.data() + addr % PAGE, src, k);
        addr += k; src += k; n -= k;
    }
}

void AxiMemory::drive(uint64_t cycle) {
    arready->set(reads.size() < timing.outstanding);
    awready->set(writes.size() < timing.outstanding);
    w_on = !writes.empty() && !slip();
    wready->set(w_on);
    r_on = !reads.empty() && reads.front().due <= cycle && !slip();
    rvalid->set(r_on);
    if (r_on) {
        const Burst &b = reads.front();
        std::vector<uint8_t> beat(beat_bytes);
        read(b.addr + read_beat * beat_bytes, beat.data(), beat_bytes);
        rdata->set(beat.data(), beat_bytes);
        rresp->set(failing() ? SLVERR : 0);
        rlast->set(read_beat + 1 == b.beats);
        if (rid) rid->set(b.id);
    }
    b_on = !responses.empty() && responses.front().due <= cycle;
    bvalid->set(b_on);
    if (b_on) {
        bresp->set(responses.front().id & FAILED ? SLVERR : 0);
        if (bid) bid->set(responses.front().id & ~FAILED);
    }
}

void AxiMemory::sample() {
    fire_ar = arvalid->get() && arready->get();
    if (fire_ar) { ar_addr = araddr->get(); ar_len = arlen->get(); ar_id = arid ? arid->get() : 0; }
    fire_aw = awvalid->get() && awready->get();
    if (fire_aw) { aw_addr = awaddr->get(); aw_len = awlen->get(); aw_id = awid ? awid->get() : 0; }
    fire_w = w_on && wvalid->get();
    if (fire_w) {
        wdata->get(w_data.data(), beat_bytes);
        if (wstrb) wstrb->get(w_strb.data(), w_strb.size());
        else std::fill(w_strb.begin(), w_strb.end(), 0xff);
    }
    fire_r = r_on && rready->get();
    fire_b = b_on && bready->get();
}

void AxiMemory::advance(uint64_t cycle) {
    if (fire_r) {
        beats_read++;
        if (++read_beat == reads.front().beats) { reads.pop_front(); read_beat = 0; }
    }
    if (fire_w) {
        Burst &b = writes.front();
        uint64_t at = b.addr + write_beat * beat_bytes;
        for (size_t i = 0; i < beat_bytes; i++)
            if (w_strb[i / 8] >> (i % 8) & 1) write(at + i, &w_data[i], 1);
        if (failing()) b.id |= FAILED;
        beats_written++;
        if (++write_beat == b.beats) {  // the response when the last beat is in (wlast is the top's business)
            responses.push_back(Burst{b.addr, b.beats, b.id, cycle + 2});
            writes.pop_front();
            write_beat = 0;
        }
    }
    if (fire_b) responses.pop_front();
    if (fire_ar) reads.push_back(Burst{ar_addr, (unsigned)ar_len + 1, ar_id, cycle + timing.latency});
    if (fire_aw) writes.push_back(Burst{aw_addr, (unsigned)aw_len + 1, aw_id, cycle});
}
