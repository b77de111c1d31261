// The emulator's side of the card: XDMA stream channels and the user BAR, driven cycle by cycle on a Model.
#ifndef ZKEMU_BUS_H
#define ZKEMU_BUS_H
#include "zkemu_model.h"

#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <vector>

struct Conn; // a client connection (zkemu_harness.cpp)

// an operation in flight, answered through `reply` exactly once
struct Op {
    Conn *conn;
    uint32_t kind;             // zkemu_op
    uint32_t off;              // register offset
    uint64_t len;              // bytes (WRITE, READ) or register value (REG_WRITE)
    std::vector<uint8_t> data; // WRITE: the packet; READ: bytes gathered
    size_t pos = 0;            // WRITE: bytes accepted by the RTL
};

using Reply = std::function<void(Op &, int status, uint64_t len)>;

// AXI4-Stream port <prefix>_t{valid,ready,data,keep,last,user}; XDMA carries no TUSER: H2C drives it 0, C2H drops it
struct StreamPort {
    const Port *valid, *ready, *data, *keep, *last, *user;
    size_t width_bytes;
    StreamPort(const Model &m, const std::string &prefix);
};

struct H2CChannel {
    StreamPort port;
    std::deque<Op> q;
    uint64_t beats = 0;
    size_t cur = 0; // bytes in the beat being offered
    explicit H2CChannel(const StreamPort &p) : port(p) {}
    void drive(bool enabled);
    bool fired() const;
    void advance(const Reply &reply);
};

struct C2HChannel {
    StreamPort port;
    std::deque<Op> q;
    std::vector<uint8_t> carry; // bytes of a beat beyond the last read's buffer
    bool carry_last = false;
    uint8_t beat[512];          // the beat taken at this clock edge (sampled before it)
    size_t kept = 0;
    bool beat_last = false;
    explicit C2HChannel(const StreamPort &p) : port(p) {}
    void drive(bool enabled);
    bool fired();               // samples the beat when it is taken
    void advance(const Reply &reply);
    void serve_carry(const Reply &reply); // a read answered from carried bytes alone
};

// AXI4-Lite master on <prefix>_{aw,w,b,ar,r}*
struct AxiLite {
    const Port *awvalid, *awready, *awaddr, *wvalid, *wready, *wdata, *wstrb, *bvalid, *bready;
    const Port *arvalid, *arready, *araddr, *rvalid, *rready, *rdata;
    std::deque<Op> q;
    bool aw = false, w = false, ar = false;
    uint64_t waited = 0, timeout_cycles;
    bool fire_aw = false, fire_w = false, fire_b = false, fire_ar = false, fire_r = false;
    uint32_t rvalue = 0;
    AxiLite(const Model &m, const std::string &prefix, uint64_t timeout);
    void drive(bool enabled);
    void sample();
    void advance(const Reply &reply);
};

// The user BAR as the board design's SmartConnect decodes it (UserBar in zk_contract.h): each window is one AXI4-Lite
// slave port of the card top (CardTop.scala), answered one access at a time and rebased to the window; a window the
// card has no slave for answers here, reads with all ones in the core's window (no core registers) and 0 elsewhere.
struct UserBar {
    struct Window {
        const char *port;
        uint32_t base, bytes, miss;
        std::unique_ptr<AxiLite> lite;
    };
    std::vector<Window> windows; // core, system, flash
    uint64_t core_writes = 0;    // writes the core's window completed
    UserBar(const Model &m, uint64_t timeout);
    void request(Op &&o, const Reply &reply); // queued on its window, or answered at once
    // up[i]: window i's slave is out of reset (the core's follows the system block's core_aresetn)
    void drive(const bool *up);
    void sample(const bool *up);
    void advance(const bool *up, const Reply &reply);
    bool idle() const;
    void cancel(Conn *c, const Reply &reply); // c's access ends ECANCELED
    void drop(Conn *c);                       // c's accesses go unanswered (it closed)
    void clear();                             // every access dropped (the card left the bus)
};
enum { BAR_CORE, BAR_SYSTEM, BAR_FLASH };
#endif
