// zkemu: an XDMA card emulated on a Verilated card top (hw/src/zkspinal/system/CardTop.scala: the core, the system
// block, the adapters and the flash controller wired as vivado/lib/zk_bd.tcl wires them).  Serves
// <dir>/<prefix>_{h2c_K,c2h_K,user} (zkemu_transport.h; libzkemu.so connects a tool's open() to them) and clocks the
// card while any device file is open.  Every register a tool reads is the RTL's: this file only plays the parts of
// the card that are not ours (the XDMA engine, the SmartConnect, DDR4, the flash chip, ICAPE3) and injects faults.
//
//   zkemu --dir DIR [--prefix xdma0] [--h2c K=PORT]... [--c2h K=PORT]... [--throttle PCT] [--seed N]
//         [--freeze-after-beats N] [--freeze-after-cycles N] [--freeze-after-writes N] [--dma-error-after-beats N]
//         [--axil-timeout CYCLES] [--grace-cycles N] [--fst FILE]
//         [--flash-size N] [--flash-jedec ID] [--flash-image FILE] [--flash-stuck ADDR:MASK]...
//         [--flash-busy PP,SSE,SE,WRSR] [--flash-status SR] [--reload-ms MS]
//         [--mem-latency N] [--mem-stall PCT] [--mem-fail-after BEATS]
//
// Card ports (CardTop): aclk, aresetn (power-on), core_clk, core_aresetn (out); H2C channel K drives h2c_K and C2H
// channel K takes c2h_K (--h2c/--c2h map channels onto other ports: given, they replace the default map); the user
// BAR routes by the contract's UserBar map to core_axil, system_axil and flash_axil (zkemu_bus.h UserBar); spi_* and
// icap_* go to the flash and ICAPE3 models (zkflash_model.h); m_axi_mem0, m_axi_mem1, ... to the DDR4 models.
//
// Clock and resets: the clock runs while a request is in flight and for --grace-cycles (default 65536) after the last
// one.  aresetn is low for the first cycles and after a reconfiguration; the system block then holds core_aresetn low
// for its reset pulse, as it does after a host RESET.  When core_aresetn falls the transfers in flight end ECANCELED
// (the pulse resets the stream FIFOs between the XDMA and the core) and the fault injections are disarmed.
//
// Faults: --freeze-after-beats stops the core's clock after N H2C beats (--freeze-after-cycles: N clock cycles;
// --freeze-after-writes: N writes to the core's registers): the core hangs (no ready, no output, its registers time
// out after --axil-timeout cycles and read all ones, as a BAR read of a hung slave does) while the system block keeps
// answering, until its RESET pulse.  --dma-error-after-beats N: after N H2C beats the DMA engine fails: the transfers
// in flight and every later one on its streams end with EIO (the XDMA driver's answer to a descriptor or AXI error)
// until a core reset; the registers keep answering.  Each injection happens once.
// --throttle PCT: H2C TVALID and C2H TREADY drop on PCT% of the cycles at random (--seed), as a busy engine's do.
//
// Card memory: one zkemu_mem.h model per m_axi_mem<c>: first read beat --mem-latency cycles after its address (default
// 40), each beat held back with probability --mem-stall percent (default 10), every response SLVERR after
// --mem-fail-after beats.  It keeps its contents and its bursts in flight across a core reset, as the DDR4 controllers
// of the board design do (they are not on that reset).
//
// Flash: the JEDEC flash model of zkflash_model.c on spi_* (W# = DQ2 when driven), its contents loaded from and saved
// to --flash-image (at exit and before a reload); icap_* drive the ICAPE3 model: an IPROG makes the card vanish as a
// reconfiguring FPGA does (device files removed, connections dropped) for --reload-ms, then come back powered on.
#include "verilated.h"
#include "zkemu_bus.h"
#include "zkemu_mem.h"
#include "zkemu_proto.h"
#include "zkemu_transport.h"
#include "zkflash_model.h"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <random>
#include <unistd.h>

static volatile sig_atomic_t g_quit;
static void on_quit(int) { g_quit = 1; }

static const int POWER_ON_CYCLES = 4; // aresetn low after power-on and after a reconfiguration

static void usage() {
    fprintf(stderr, "usage: zkemu --dir DIR [--prefix xdma0] [--h2c K=PORT]... [--c2h K=PORT]... [--throttle PCT]\n"
                    "  [--seed N] [--freeze-after-beats N] [--freeze-after-cycles N] [--freeze-after-writes N]\n"
                    "  [--dma-error-after-beats N] [--axil-timeout CYCLES] [--grace-cycles N] [--fst FILE]\n"
                    "  [--flash-size N] [--flash-jedec ID] [--flash-image FILE] [--flash-stuck ADDR:MASK]...\n"
                    "  [--flash-busy PP,SSE,SE,WRSR] [--flash-status SR] [--reload-ms MS]\n"
                    "  [--mem-latency N] [--mem-stall PCT] [--mem-fail-after BEATS]\n");
    exit(2);
}

struct Options {
    std::string dir, prefix = "xdma0", fst, flash_image;
    std::map<int, std::string> h2c, c2h;
    uint64_t freeze_beats = 0, freeze_cycles = 0, freeze_writes = 0, dma_error_beats = 0;
    uint64_t axil_timeout = 4096, grace = 1u << 16, seed = 1;
    int throttle = 0;
    AxiMemory::Timing mem;
    uint64_t flash_size = 1u << 20, flash_jedec = 0x20BA14, flash_status = 0, reload_ms = 300;
    std::vector<std::pair<uint32_t, uint8_t>> stuck;
    uint32_t busy[4] = {2000, 20000, 80000, 1000};
};

static Options parse(int argc, char **argv) {
    Options o;
    for (int i = 1; i < argc; i++) {
        std::string a = argv[i];
        if (i + 1 >= argc) usage();
        std::string v = argv[++i];
        auto num = [&]() { return strtoull(v.c_str(), nullptr, 0); };
        auto chan = [&](std::map<int, std::string> &m) {
            size_t eq = v.find('=');
            if (eq == std::string::npos) usage();
            m[atoi(v.substr(0, eq).c_str())] = v.substr(eq + 1);
        };
        if (a == "--dir") o.dir = v;
        else if (a == "--prefix") o.prefix = v;
        else if (a == "--h2c") chan(o.h2c);
        else if (a == "--c2h") chan(o.c2h);
        else if (a == "--fst") o.fst = v;
        else if (a == "--freeze-after-beats") o.freeze_beats = num();
        else if (a == "--freeze-after-cycles") o.freeze_cycles = num();
        else if (a == "--freeze-after-writes") o.freeze_writes = num();
        else if (a == "--dma-error-after-beats") o.dma_error_beats = num();
        else if (a == "--throttle") o.throttle = atoi(v.c_str());
        else if (a == "--seed") o.seed = num();
        else if (a == "--grace-cycles") o.grace = num();
        else if (a == "--axil-timeout") o.axil_timeout = num();
        else if (a == "--flash-size") o.flash_size = num();
        else if (a == "--flash-jedec") o.flash_jedec = num();
        else if (a == "--flash-status") o.flash_status = num();
        else if (a == "--flash-image") o.flash_image = v;
        else if (a == "--reload-ms") o.reload_ms = num();
        else if (a == "--mem-latency") o.mem.latency = (unsigned)num();
        else if (a == "--mem-stall") o.mem.stall_percent = (unsigned)num();
        else if (a == "--mem-fail-after") o.mem.fail_after = num();
        else if (a == "--flash-stuck") {
            size_t c = v.find(':');
            if (c == std::string::npos) usage();
            o.stuck.push_back({(uint32_t)strtoull(v.substr(0, c).c_str(), nullptr, 0),
                               (uint8_t)strtoul(v.substr(c + 1).c_str(), nullptr, 0)});
        } else if (a == "--flash-busy") {
            if (sscanf(v.c_str(), "%u,%u,%u,%u", &o.busy[0], &o.busy[1], &o.busy[2], &o.busy[3]) != 4) usage();
        } else usage();
    }
    if (o.dir.empty()) usage();
    if (o.mem.stall_percent > 90) {
        fprintf(stderr, "zkemu: --mem-stall %u: at most 90\n", o.mem.stall_percent);
        exit(2);
    }
    return o;
}

// the XDMA engine's side of the card: its channels, its fault state
struct Dma {
    std::map<int, std::unique_ptr<H2CChannel>> h2c;
    std::map<int, std::unique_ptr<C2HChannel>> c2h;
    uint64_t beats = 0; // H2C beats since the last core reset
    bool failed = false;
    bool idle() const {
        for (auto &kv : h2c) if (!kv.second->q.empty()) return false;
        for (auto &kv : c2h) if (!kv.second->q.empty()) return false;
        return true;
    }
    void flush(const Reply &reply, int st) { // the transfers in flight end with st
        for (auto &kv : h2c) { for (auto &o : kv.second->q) reply(o, st, o.pos); kv.second->q.clear(); }
        for (auto &kv : c2h) { for (auto &o : kv.second->q) reply(o, st, 0); kv.second->q.clear(); kv.second->carry.clear(); }
    }
    void forget(Conn *c) { // c closed: its transfers go unanswered
        auto drop = [&](std::deque<Op> &q) { for (auto o = q.begin(); o != q.end();) o = o->conn == c ? q.erase(o) : o + 1; };
        for (auto &kv : h2c) drop(kv.second->q);
        for (auto &kv : c2h) drop(kv.second->q);
    }
    void cancel(Conn *c, const Reply &reply) { // ZKEMU_CANCEL: the request of c ends with the bytes done
        auto drop = [&](std::deque<Op> &q, bool partial) {
            for (auto it = q.begin(); it != q.end(); ++it)
                if (it->conn == c) { reply(*it, ECANCELED, partial ? it->pos : 0); q.erase(it); return; }
        };
        for (auto &kv : h2c) drop(kv.second->q, true);
        for (auto &kv : c2h) drop(kv.second->q, false);
    }
};

// the card's pins the emulator's device models answer
struct Devices {
    zkflash *flash = nullptr;
    zkicap *icap = nullptr;
    std::vector<const Port *> spi, icap_pins;
    std::vector<AxiMemory> mems;
    std::string image;
    void save() {
        if (flash && !image.empty() && zkflash_save(flash, image.c_str()))
            fprintf(stderr, "zkemu: %s: %s\n", image.c_str(), strerror(errno));
    }
    ~Devices() { save(); zkflash_free(flash); zkicap_free(icap); }
};

static void open_devices(Devices &d, const Model &m, const Options &o) {
    for (const char *n : {"spi_sclk", "spi_ss_n", "spi_dq_o", "spi_dq_oe", "spi_dq_i"}) d.spi.push_back(&m.need(n));
    for (const char *n : {"icap_csib", "icap_rdwrb", "icap_i"}) d.icap_pins.push_back(&m.need(n));
    d.mems = AxiMemory::all(m, "m_axi_mem", o.mem, o.seed);
    d.flash = zkflash_new((uint32_t)o.flash_size, (uint32_t)o.flash_jedec);
    if (!d.flash) {
        fprintf(stderr, "zkemu: --flash-size %llu: a power of two from 64 KiB\n", (unsigned long long)o.flash_size);
        exit(2);
    }
    zkflash_set_busy(d.flash, o.busy[0], o.busy[1], o.busy[2], o.busy[3]);
    zkflash_set_status(d.flash, (uint8_t)o.flash_status);
    for (auto &st : o.stuck) zkflash_add_stuck(d.flash, st.first, st.second);
    d.image = o.flash_image;
    if (!d.image.empty() && zkflash_load(d.flash, d.image.c_str()) && errno != ENOENT) {
        fprintf(stderr, "zkemu: %s: %s\n", d.image.c_str(), strerror(errno));
        exit(1);
    }
    d.icap = zkicap_new();
}

// the flash answers on DQ1; DQ0/2/3 read back pulled up.  true: ICAPE3 saw an IPROG
static bool serve_pins(Devices &d) {
    uint64_t dq = d.spi[2]->get(), oe = d.spi[3]->get();
    int miso = zkflash_pins(d.flash, (int)d.spi[1]->get(), (int)d.spi[0]->get(), oe & 1 ? (int)(dq & 1) : 1,
                            oe & 4 ? (int)(dq >> 2 & 1) : 1);
    d.spi[4]->set((uint64_t)(0xD | miso << 1));
    return zkicap_pins(d.icap, (int)d.icap_pins[0]->get(), (int)d.icap_pins[1]->get(), (uint32_t)d.icap_pins[2]->get());
}

int main(int argc, char **argv) {
    Options opt = parse(argc, argv);
    auto ctx = std::make_unique<VerilatedContext>();
    std::unique_ptr<Model> m(zkemu_make_model(ctx.get()));
    Dma dma;
    std::unique_ptr<UserBar> bar;
    Devices dev;
    const Port *aclk, *aresetn, *core_clk, *core_aresetn;
    try {
        aclk = &m->need("aclk");
        aresetn = &m->need("aresetn");
        core_clk = &m->need("core_clk");
        core_aresetn = &m->need("core_aresetn");
        if (opt.h2c.empty() && opt.c2h.empty()) // the card's channels, in order
            for (int k = 0; k < 4; k++) {
                if (m->find("h2c_" + std::to_string(k) + "_tvalid")) opt.h2c[k] = "h2c_" + std::to_string(k);
                if (m->find("c2h_" + std::to_string(k) + "_tvalid")) opt.c2h[k] = "c2h_" + std::to_string(k);
            }
        for (auto &kv : opt.h2c) dma.h2c[kv.first] = std::make_unique<H2CChannel>(StreamPort(*m, kv.second));
        for (auto &kv : opt.c2h) dma.c2h[kv.first] = std::make_unique<C2HChannel>(StreamPort(*m, kv.second));
        bar = std::make_unique<UserBar>(*m, opt.axil_timeout);
        open_devices(dev, *m, opt);
    } catch (std::exception &e) {
        fprintf(stderr, "zkemu: %s (a card top: hw/src/zkspinal/system/CardTop.scala)\n", e.what());
        return 2;
    }
    if (!opt.fst.empty() && !m->trace(opt.fst.c_str())) fprintf(stderr, "zkemu: built without FST tracing (WAVES=1)\n");

    Transport io(opt.dir, opt.prefix);
    if (!io.open_dir()) {
        fprintf(stderr, "zkemu: %s: %s\n", opt.dir.c_str(), strerror(errno));
        return 1;
    }
    for (auto &kv : dma.h2c) io.listen(H2C, kv.first);
    for (auto &kv : dma.c2h) io.listen(C2H, kv.first);
    io.listen(USER, 0);
    signal(SIGINT, on_quit);
    signal(SIGTERM, on_quit);
    signal(SIGPIPE, SIG_IGN);

    Reply reply = [&](Op &o, int st, uint64_t len) { io.reply(o, st, len); };
    Transport::Handlers handlers{
        [&](Op &&o) {
            Kind k = o.conn->kind;
            bool stream = (o.kind == ZKEMU_WRITE && k == H2C) || (o.kind == ZKEMU_READ && k == C2H);
            if (stream && dma.failed) reply(o, EIO, 0); // the engine stays failed until a core reset
            else if (o.kind == ZKEMU_WRITE && k == H2C) {
                if (o.data.empty()) reply(o, 0, 0);
                else dma.h2c[o.conn->ch]->q.push_back(std::move(o));
            } else if (o.kind == ZKEMU_READ && k == C2H) {
                if (o.len == 0) reply(o, 0, 0);
                else dma.c2h[o.conn->ch]->q.push_back(std::move(o));
            } else if ((o.kind == ZKEMU_REG_READ || o.kind == ZKEMU_REG_WRITE) && k == USER) bar->request(std::move(o), reply);
            else reply(o, EINVAL, 0);
        },
        [&](Conn *c) { dma.cancel(c, reply); bar->cancel(c, reply); },
        [&](Conn *c) { dma.forget(c); bar->drop(c); },
    };

    uint64_t cycles = 0, time = 0, idle_cycles = 0;
    int power_on = POWER_ON_CYCLES;
    bool frozen = false, core_was_up = false, iprog = false;
    std::mt19937_64 rng(opt.seed);
    printf("zkemu: ready %s/%s\n", opt.dir.c_str(), opt.prefix.c_str());
    fflush(stdout);
    while (!g_quit) {
        // the clock runs while a request is in flight or a reset is on, and for `grace` cycles after (the core
        // finishes what it was given); then the emulator sleeps in poll() until the host asks again
        bool core_up = core_aresetn->get() != 0;
        if (!dma.idle() || !bar->idle() || power_on > 0 || !core_up) idle_cycles = 0;
        bool clocking = io.connected() && idle_cycles < opt.grace;
        if (!io.poll_once(clocking ? 0 : (io.connected() ? 20 : 200), handlers)) break;
        if (!clocking) continue;
        for (int n = 0; n < 256; n++, idle_cycles++) { // a batch of clock cycles between socket polls
            core_up = core_aresetn->get() != 0;
            bool system_up = power_on == 0;
            // out of reset: each user BAR window's slave (the core's follows core_aresetn); a hung core takes and
            // gives nothing (its clock is held; the handshakes it left high must not count), so its streams and
            // its window are not driven: its register accesses time out
            bool up[3] = {core_up && system_up, system_up, system_up};
            bool driven[3] = {up[BAR_CORE] && !frozen, up[BAR_SYSTEM], up[BAR_FLASH]};
            aresetn->set(system_up);
            // --throttle: the DMA engine offers and takes beats on a random share of the cycles only
            auto gap = [&]() { return opt.throttle && (int)(rng() % 100) < opt.throttle; };
            for (auto &kv : dma.h2c) kv.second->drive(driven[BAR_CORE] && !gap());
            for (auto &kv : dma.c2h) { kv.second->serve_carry(reply); kv.second->drive(driven[BAR_CORE] && !gap()); }
            bar->drive(driven);
            for (auto &mm : dev.mems) mm.drive(cycles);
            aclk->set(0);
            core_clk->set(0);
            m->eval();
            m->dump(time++);
            for (auto &mm : dev.mems) mm.sample();
            std::vector<int> fired_h, fired_c;
            for (auto &kv : dma.h2c) if (driven[BAR_CORE] && kv.second->fired()) fired_h.push_back(kv.first);
            for (auto &kv : dma.c2h) if (driven[BAR_CORE] && kv.second->fired()) fired_c.push_back(kv.first);
            bar->sample(up);
            aclk->set(1);
            core_clk->set(frozen ? 0 : 1); // a hung core: its clock held
            m->eval();
            m->dump(time++);
            for (auto &mm : dev.mems) mm.advance(cycles);
            cycles++;
            if (serve_pins(dev)) {
                printf("zkemu: IPROG through ICAPE3, WBSTAR 0x%08x (%u words)\n", zkicap_wbstar(dev.icap),
                       zkicap_words(dev.icap));
                fflush(stdout);
                iprog = true;
                break;
            }
            if (power_on > 0) power_on--;
            for (int k : fired_h) { dma.h2c[k]->advance(reply); dma.beats++; }
            for (int k : fired_c) dma.c2h[k]->advance(reply);
            bar->advance(up, reply);
            bool now_up = core_aresetn->get() != 0;
            if (core_was_up && !now_up) { // the system block's reset pulse: the FIFOs between XDMA and the core
                dma.flush(reply, ECANCELED);   // reset with the core; an injected fault happens once
                frozen = dma.failed = false;
                dma.beats = 0;
                opt.freeze_beats = opt.freeze_cycles = opt.freeze_writes = opt.dma_error_beats = 0;
            }
            core_was_up = now_up;
            if ((opt.freeze_beats && dma.beats >= opt.freeze_beats) || (opt.freeze_cycles && cycles >= opt.freeze_cycles) ||
                (opt.freeze_writes && bar->core_writes >= opt.freeze_writes))
                frozen = true;
            if (opt.dma_error_beats && !dma.failed && dma.beats >= opt.dma_error_beats) {
                dma.failed = true;
                dma.flush(reply, EIO);
                break;
            }
        }
        if (iprog) { // the FPGA reconfigures: the card leaves the bus, then comes back with a fresh design
            iprog = false;
            dev.save();
            for (auto &kv : dma.h2c) kv.second->q.clear();
            for (auto &kv : dma.c2h) { kv.second->q.clear(); kv.second->carry.clear(); }
            bar->clear();
            io.vanish();
            usleep((useconds_t)(opt.reload_ms * 1000));
            io.reappear();
            power_on = POWER_ON_CYCLES; // a new design: every block starts from its reset
            frozen = dma.failed = false;
            idle_cycles = 0;
            printf("zkemu: reconfigured\n");
            fflush(stdout);
        }
    }
    m->final();
    fprintf(stderr, "zkemu: %llu cycles\n", (unsigned long long)cycles);
    return 0;
}
