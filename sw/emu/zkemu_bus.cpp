// XDMA channel and AXI4-Lite behaviour of the emulator (what the DMA engine and the BAR do on a card).
#include "zkemu_bus.h"
#include "zkemu_proto.h"
#include "zk_contract.h"

#include <algorithm>
#include <cerrno>

static const Port *opt(const Model &m, const std::string &n) { return m.find(n); }

StreamPort::StreamPort(const Model &m, const std::string &p)
    : valid(&m.need(p + "_tvalid")), ready(&m.need(p + "_tready")), data(&m.need(p + "_tdata")),
      keep(opt(m, p + "_tkeep")), last(opt(m, p + "_tlast")), user(opt(m, p + "_tuser")), width_bytes((size_t)(data->width + 7) / 8) {}

// ---- H2C: the packet of the oldest write, width_bytes a beat, TKEEP 2^k-1 and TLAST on the last beat
void H2CChannel::drive(bool enabled) {
    cur = 0;
    if (enabled && !q.empty()) {
        Op &o = q.front();
        cur = std::min(port.width_bytes, o.data.size() - o.pos);
        port.data->set(o.data.data() + o.pos, cur);
        if (port.keep) port.keep->set(cur >= 64 ? ~0ull : (1ull << cur) - 1);
        if (port.last) port.last->set(o.pos + cur == o.data.size() ? 1 : 0);
    }
    if (port.user && !port.user->output) port.user->set(0);
    port.valid->set(cur ? 1 : 0);
}

bool H2CChannel::fired() const { return cur && port.ready->get(); }

void H2CChannel::advance(const Reply &reply) {
    Op &o = q.front();
    o.pos += cur;
    beats++;
    if (o.pos == o.data.size()) {
        reply(o, 0, o.data.size());
        q.pop_front();
    }
}

// ---- C2H: TREADY only while a read is posted (the engine has descriptors); a read ends at TLAST or full
void C2HChannel::drive(bool enabled) { port.ready->set(enabled && !q.empty() && carry.empty() ? 1 : 0); }

bool C2HChannel::fired() {
    if (!(port.ready->get() && port.valid->get())) return false;
    size_t w = std::min(port.width_bytes, sizeof beat);
    port.data->get(beat, w);
    kept = w;
    if (port.keep) { // contiguous TKEEP (the cores emit 2^k-1)
        uint64_t k = port.keep->get();
        kept = 0;
        while (kept < w && kept < 64 && ((k >> kept) & 1)) kept++;
    }
    beat_last = port.last ? port.last->get() != 0 : false;
    return true;
}

void C2HChannel::serve_carry(const Reply &reply) {
    while (!carry.empty() && !q.empty()) {
        Op &o = q.front();
        size_t n = std::min<size_t>(carry.size(), o.len - o.data.size());
        o.data.insert(o.data.end(), carry.begin(), carry.begin() + (long)n);
        carry.erase(carry.begin(), carry.begin() + (long)n);
        bool last = carry.empty() && carry_last;
        if (last || o.data.size() == o.len) {
            if (carry.empty()) carry_last = false;
            reply(o, 0, o.data.size());
            q.pop_front();
        }
    }
}

void C2HChannel::advance(const Reply &reply) {
    bool last = beat_last;
    Op &o = q.front();
    size_t room = o.len - o.data.size(), n = std::min(room, kept);
    o.data.insert(o.data.end(), beat, beat + n);
    if (n < kept) {
        carry.assign(beat + n, beat + kept);
        carry_last = last;
        last = false;
    }
    if (last || o.data.size() == o.len) {
        reply(o, 0, o.data.size());
        q.pop_front();
    }
}

// ---- AXI4-Lite: one access at a time
AxiLite::AxiLite(const Model &m, const std::string &p, uint64_t timeout)
    : awvalid(&m.need(p + "_awvalid")), awready(&m.need(p + "_awready")), awaddr(&m.need(p + "_awaddr")),
      wvalid(&m.need(p + "_wvalid")), wready(&m.need(p + "_wready")), wdata(&m.need(p + "_wdata")),
      wstrb(opt(m, p + "_wstrb")), bvalid(&m.need(p + "_bvalid")), bready(&m.need(p + "_bready")),
      arvalid(&m.need(p + "_arvalid")), arready(&m.need(p + "_arready")), araddr(&m.need(p + "_araddr")),
      rvalid(&m.need(p + "_rvalid")), rready(&m.need(p + "_rready")), rdata(&m.need(p + "_rdata")),
      timeout_cycles(timeout) {}

void AxiLite::drive(bool enabled) {
    bool busy = enabled && !q.empty();
    bool wr = busy && q.front().kind == ZKEMU_REG_WRITE;
    if (busy) {
        awaddr->set(q.front().off);
        araddr->set(q.front().off);
        wdata->set(q.front().len);
        if (wstrb) wstrb->set(0xF);
    }
    awvalid->set(wr && !aw);
    wvalid->set(wr && !w);
    bready->set(wr);
    arvalid->set(busy && !wr && !ar);
    rready->set(busy && !wr);
}

void AxiLite::sample() {
    fire_aw = awvalid->get() && awready->get();
    fire_w = wvalid->get() && wready->get();
    fire_b = bready->get() && bvalid->get();
    fire_ar = arvalid->get() && arready->get();
    fire_r = rready->get() && rvalid->get();
    if (fire_r) rvalue = (uint32_t)rdata->get();
}

void AxiLite::advance(const Reply &reply) {
    if (q.empty()) return;
    Op &o = q.front();
    aw |= fire_aw;
    w |= fire_w;
    ar |= fire_ar;
    bool done = false;
    uint64_t value = 0;
    if (o.kind == ZKEMU_REG_WRITE && fire_b) done = true;
    if (o.kind == ZKEMU_REG_READ && fire_r) { done = true; value = rvalue; }
    if (!done && ++waited > timeout_cycles) { // a slave that never answers: the host sees all ones
        done = true;
        value = 0xffffffffu;
    }
    if (done) {
        reply(o, 0, value);
        q.pop_front();
        aw = w = ar = false;
        waited = 0;
    }
}

// ---- the user BAR: windows from the contract, in the order of BAR_CORE, BAR_SYSTEM, BAR_FLASH
UserBar::UserBar(const Model &m, uint64_t timeout) {
    struct { const char *port; uint32_t base, bytes, miss; } map[] = {
        {"core_axil", ZK_USER_BAR_CORE, ZK_USER_BAR_SYSTEM - ZK_USER_BAR_CORE, 0xffffffffu},
        {"system_axil", ZK_USER_BAR_SYSTEM, ZK_SYSTEM_WINDOW_BYTES, 0},
        {"flash_axil", ZK_USER_BAR_FLASH, ZK_USER_BAR_MAP_BYTES - ZK_USER_BAR_FLASH, 0},
    };
    for (auto &w : map)
        windows.push_back({w.port, w.base, w.bytes, w.miss,
                           m.find(std::string(w.port) + "_awvalid") ? std::make_unique<AxiLite>(m, w.port, timeout)
                                                                    : nullptr});
}

void UserBar::request(Op &&o, const Reply &reply) {
    for (auto &w : windows)
        if (o.off >= w.base && o.off - w.base < w.bytes) {
            if (!w.lite) break;
            o.off -= w.base;
            w.lite->q.push_back(std::move(o));
            return;
        }
    uint64_t v = 0;
    if (o.kind == ZKEMU_REG_READ)
        for (auto &w : windows)
            if (o.off >= w.base && o.off - w.base < w.bytes) v = w.miss;
    reply(o, 0, v);
}

void UserBar::drive(const bool *up) {
    for (size_t i = 0; i < windows.size(); i++)
        if (windows[i].lite) windows[i].lite->drive(up[i]);
}

void UserBar::sample(const bool *up) {
    for (size_t i = 0; i < windows.size(); i++)
        if (windows[i].lite && up[i]) windows[i].lite->sample();
}

void UserBar::advance(const bool *up, const Reply &reply) {
    for (size_t i = 0; i < windows.size(); i++) {
        AxiLite *l = windows[i].lite.get();
        if (!l || !up[i]) continue;
        l->advance(reply);
        if (i == BAR_CORE && l->fire_b) core_writes++;
    }
}

bool UserBar::idle() const {
    for (auto &w : windows)
        if (w.lite && !w.lite->q.empty()) return false;
    return true;
}

static void drop_from(std::deque<Op> &q, Conn *c, const Reply *reply) {
    for (auto it = q.begin(); it != q.end();) {
        if (it->conn != c) { ++it; continue; }
        if (reply) (*reply)(*it, ECANCELED, 0);
        it = q.erase(it);
    }
}

void UserBar::cancel(Conn *c, const Reply &reply) {
    for (auto &w : windows)
        if (w.lite) drop_from(w.lite->q, c, &reply);
}

void UserBar::drop(Conn *c) {
    for (auto &w : windows)
        if (w.lite) drop_from(w.lite->q, c, nullptr);
}

void UserBar::clear() {
    for (auto &w : windows)
        if (w.lite) w.lite->q.clear();
}
