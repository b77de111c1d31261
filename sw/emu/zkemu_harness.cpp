// zkemu: an XDMA card emulated on a Verilated top.  Creates <dir>/<prefix>_{h2c_K,c2h_K,user} as Unix sockets
// (libzkemu.so connects a tool's open() to them) and clocks the RTL while any device file is open.
//
//   zkemu --dir DIR [--prefix xdma0] [--clock aclk] [--resetn aresetn] [--h2c K=PORT]... [--c2h K=PORT]...
//         [--axil PORT] [--status SIG,SIG...] [--sys-status-count N] [--sys-revision R] [--freeze-after-beats N] [--freeze-after-cycles N]
//         [--freeze-after-writes N] [--dma-error-after-beats N] [--axil-timeout CYCLES] [--grace-cycles N] [--throttle PCT] [--seed N]
//         [--fst FILE] [--axil-base OFF] [--spi PREFIX --flash-size N --flash-jedec ID --flash-image FILE
//         --flash-stuck ADDR:MASK --flash-busy PP,SSE,SE,WRSR --flash-status SR] [--icap PREFIX --reload-ms MS]
//         [--mem PREFIX --mem-latency N --mem-stall PCT --mem-fail-after BEATS]
//
// The clock runs while a request is in flight and for --grace-cycles (default 65536) after the last one.
// --throttle PCT: H2C TVALID and C2H TREADY drop on PCT% of the cycles at random (--seed), as a busy engine's do.
//
// User BAR: offsets below 0x10000 go to the AXI4-Lite port; the system block (zkxdma.h: ZK_SYS_*) at 0x10000
// answers the ID, pulses the reset (RESET reads 1 during the pulse) and shows the --status outputs; INFO (0x10008)
// reads [7:0] the block's status count (--sys-status-count, default the number of --status outputs), [15:8] the reset
// cycles (16), [23:16] the block's revision (1); KIND, CONFIG, VERSION (0x10FF4, 0x10FF8, 0x10FFC) read the top's
// constant outputs ident_kind, ident_config, ident_version, which the board designs wire to the system block (0 for a
// top without them).  --sys-revision 0 plays a system block built before the identity words: INFO[23:16] reads 0 and
// the three offsets are unmapped.  BAD (0x1000C) counts reads of unmapped offsets of the 4 KiB window and writes to
// anything but RESET, which answer 0 / are ignored, and is not cleared by RESET (the block's own reset is the card's).  --freeze-after-beats stops the clock after N
// H2C beats (--freeze-after-cycles: N clock cycles; --freeze-after-writes: N AXI4-Lite writes) and the core hangs: no ready, no output, registers read all
// ones, until a system reset.  --dma-error-after-beats N: after N H2C beats the card's DMA engine fails: the transfers
// in flight and every later one on its streams end with EIO (the XDMA driver's answer to a descriptor or AXI error)
// until a system reset; the registers keep answering.  Each injection happens once (a reset disarms it).
//
// Card memory: --mem PREFIX serves the top's AXI4 masters PREFIX0, PREFIX1, ... (MsmAxis' point store, m_axi_mem<c>)
// with the memory model of zkemu_mem.h, one per channel: first read beat --mem-latency cycles after its address
// (default 40), each beat held back with probability --mem-stall percent (default 10), every response SLVERR after
// --mem-fail-after beats.  The memory keeps its contents and its bursts in flight across the host's RESET pulse, as
// the DDR4 controllers of the board design do (they are not on that reset).
//
// Flash tops (hw/src/zkspinal/system/FlashCtrl.scala): --axil-base puts the AXI4-Lite window at OFF on the user BAR
// (0x20000 as on the cards); --spi connects PREFIX_{sclk,ss_n,dq_o,dq_oe,dq_i} to the JEDEC flash model of
// zkflash_model.c (W# = DQ2 when driven), its contents loaded from and saved to --flash-image (at exit and before a
// reload); --icap records PREFIX_{csib,rdwrb,i} with the ICAPE3 model: an IPROG makes the card vanish as a
// reconfiguring FPGA does (device files removed, connections dropped) for --reload-ms, then come back reset.
#include "verilated.h"
#include "zk_contract.h"
#include "zkflash_model.h"
#include "zkemu_bus.h"
#include "zkemu_mem.h"
#include "zkemu_proto.h"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <random>
#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

// SystemBlock (hw/src/zkspinal/system/SystemBlock.scala) in its 4 KiB window (12 address bits, as in the block designs)
// (offsets and codes: zk_contract.h, generated from SystemBlockRegs and UserBar)
enum { SYS_BASE = ZK_USER_BAR_SYSTEM, SYS_ID = SYS_BASE + ZK_SYSTEM_ID, SYS_RESET = SYS_BASE + ZK_SYSTEM_RESET,
       SYS_INFO = SYS_BASE + ZK_SYSTEM_INFO, SYS_BAD = SYS_BASE + ZK_SYSTEM_BAD, SYS_STATUS = SYS_BASE + ZK_SYSTEM_STATUS,
       SYS_WINDOW = ZK_SYSTEM_WINDOW_BYTES, SYS_RESET_CYCLES = ZK_SYSTEM_RESET_CYCLES_DEFAULT, SYS_IDENT = SYS_BASE + ZK_SYSTEM_KIND,
       SYS_REVISION = ZK_SYSTEM_REVISION };
static const uint32_t SYS_MAGIC = ZK_SYSTEM_MAGIC;
// CoreIdentity.fields (hw/src/zkspinal/contract/CoreIdentity.scala), in the order of the words at SYS_IDENT
static const char *const IDENT_PORTS[3] = {"ident_kind", "ident_config", "ident_version"};
enum Kind { H2C, C2H, USER };

struct Conn {
    int fd;
    Kind kind;
    int ch;
    std::vector<uint8_t> in; // bytes of a frame not complete yet
    bool dead = false;
};

struct Listener { int fd; Kind kind; int ch; std::string path; };

static volatile sig_atomic_t g_quit;
static void on_quit(int) { g_quit = 1; }

static void send_all(Conn &c, const void *p, size_t n) {
    const uint8_t *b = static_cast<const uint8_t *>(p);
    while (n && !c.dead) {
        ssize_t r = ::send(c.fd, b, n, MSG_NOSIGNAL);
        if (r < 0 && (errno == EINTR || errno == EAGAIN)) {
            pollfd q{c.fd, POLLOUT, 0};
            poll(&q, 1, 100);
            continue;
        }
        if (r <= 0) { c.dead = true; return; }
        b += r;
        n -= (size_t)r;
    }
}

static void usage() {
    fprintf(stderr, "usage: zkemu --dir DIR [--prefix xdma0] [--clock aclk] [--resetn aresetn] [--h2c K=PORT]...\n"
                    "  [--c2h K=PORT]... [--axil PORT] [--status SIG,...] [--sys-status-count N] [--sys-revision R]\n"
                    "  [--freeze-after-beats N] [--freeze-after-cycles N]\n"
                    "  [--freeze-after-writes N] [--dma-error-after-beats N] [--grace-cycles N] [--throttle PCT] [--seed N]\n"
                    "  [--axil-timeout CYCLES] [--fst FILE] [--axil-base OFF] [--spi PREFIX] [--flash-size N]\n"
                    "  [--flash-jedec ID] [--flash-image FILE] [--flash-stuck ADDR:MASK]... [--flash-busy PP,SSE,SE,WRSR]\n"
                    "  [--flash-status SR] [--icap PREFIX] [--reload-ms MS]\n"
                    "  [--mem PREFIX] [--mem-latency N] [--mem-stall PCT] [--mem-fail-after BEATS]\n");
    exit(2);
}

int main(int argc, char **argv) {
    std::string dir, prefix = "xdma0", clock = "aclk", resetn = "aresetn", axil, fst;
    std::map<int, std::string> h2c_ports, c2h_ports;
    std::vector<std::string> status;
    uint64_t freeze_after = 0, freeze_cycles = 0, freeze_writes = 0, dma_error_after = 0, axil_timeout = 4096, grace_opt = 1u << 16;
    uint64_t seed = 1;
    int throttle = 0;
    long sys_status_count = -1, sys_revision = SYS_REVISION;
    std::string spi, icap, flash_image, mem_prefix;
    AxiMemory::Timing mem_timing;
    uint64_t flash_size = 1u << 20, flash_jedec = 0x20BA14, flash_status = 0, reload_ms = 300, axil_base = 0;
    std::vector<std::pair<uint32_t, uint8_t>> stuck;
    uint32_t busy[4] = {2000, 20000, 80000, 1000};
    for (int i = 1; i < argc; i++) {
        std::string a = argv[i];
        if (i + 1 >= argc) usage();
        std::string v = argv[++i];
        auto chan = [&](std::map<int, std::string> &m) {
            size_t eq = v.find('=');
            if (eq == std::string::npos) usage();
            m[atoi(v.substr(0, eq).c_str())] = v.substr(eq + 1);
        };
        if (a == "--dir") dir = v;
        else if (a == "--prefix") prefix = v;
        else if (a == "--clock") clock = v;
        else if (a == "--resetn") resetn = v;
        else if (a == "--h2c") chan(h2c_ports);
        else if (a == "--c2h") chan(c2h_ports);
        else if (a == "--axil") axil = v;
        else if (a == "--fst") fst = v;
        else if (a == "--freeze-after-beats") freeze_after = strtoull(v.c_str(), nullptr, 0);
        else if (a == "--freeze-after-cycles") freeze_cycles = strtoull(v.c_str(), nullptr, 0);
        else if (a == "--freeze-after-writes") freeze_writes = strtoull(v.c_str(), nullptr, 0);
        else if (a == "--dma-error-after-beats") dma_error_after = strtoull(v.c_str(), nullptr, 0);
        else if (a == "--sys-status-count") sys_status_count = strtol(v.c_str(), nullptr, 0);
        else if (a == "--sys-revision") sys_revision = strtol(v.c_str(), nullptr, 0);
        else if (a == "--throttle") throttle = atoi(v.c_str());
        else if (a == "--seed") seed = strtoull(v.c_str(), nullptr, 0);
        else if (a == "--grace-cycles") grace_opt = strtoull(v.c_str(), nullptr, 0);
        else if (a == "--axil-timeout") axil_timeout = strtoull(v.c_str(), nullptr, 0);
        else if (a == "--axil-base") axil_base = strtoull(v.c_str(), nullptr, 0);
        else if (a == "--spi") spi = v;
        else if (a == "--icap") icap = v;
        else if (a == "--flash-size") flash_size = strtoull(v.c_str(), nullptr, 0);
        else if (a == "--flash-jedec") flash_jedec = strtoull(v.c_str(), nullptr, 0);
        else if (a == "--flash-status") flash_status = strtoull(v.c_str(), nullptr, 0);
        else if (a == "--flash-image") flash_image = v;
        else if (a == "--reload-ms") reload_ms = strtoull(v.c_str(), nullptr, 0);
        else if (a == "--mem") mem_prefix = v;
        else if (a == "--mem-latency") mem_timing.latency = (unsigned)strtoul(v.c_str(), nullptr, 0);
        else if (a == "--mem-stall") mem_timing.stall_percent = (unsigned)strtoul(v.c_str(), nullptr, 0);
        else if (a == "--mem-fail-after") mem_timing.fail_after = strtoull(v.c_str(), nullptr, 0);
        else if (a == "--flash-stuck") {
            size_t c = v.find(':');
            if (c == std::string::npos) usage();
            stuck.push_back({(uint32_t)strtoull(v.substr(0, c).c_str(), nullptr, 0),
                             (uint8_t)strtoul(v.substr(c + 1).c_str(), nullptr, 0)});
        } else if (a == "--flash-busy") {
            if (sscanf(v.c_str(), "%u,%u,%u,%u", &busy[0], &busy[1], &busy[2], &busy[3]) != 4) usage();
        }
        else if (a == "--status") {
            for (size_t s = 0, e; s <= v.size(); s = e + 1) {
                e = v.find(',', s);
                if (e == std::string::npos) e = v.size();
                if (e > s) status.push_back(v.substr(s, e - s));
            }
        } else usage();
    }
    if (dir.empty()) usage();
    if (sys_status_count < 0) sys_status_count = (long)status.size();
    if (sys_status_count > 255 || (size_t)sys_status_count < status.size()) {
        fprintf(stderr, "zkemu: --sys-status-count %ld: at least the %zu --status outputs, at most 255\n", sys_status_count,
                status.size());
        return 2;
    }
    if (sys_revision != 0 && sys_revision != SYS_REVISION) {
        fprintf(stderr, "zkemu: --sys-revision %ld: 0 (no identity words) or %d\n", sys_revision, SYS_REVISION);
        return 2;
    }

    auto ctx = std::make_unique<VerilatedContext>();
    std::unique_ptr<Model> m(zkemu_make_model(ctx.get()));
    std::map<int, std::unique_ptr<H2CChannel>> h2c;
    std::map<int, std::unique_ptr<C2HChannel>> c2h;
    std::unique_ptr<AxiLite> lite;
    std::vector<const Port *> status_ports;
    const Port *clk, *rstn;
    std::vector<const Port *> spi_ports, icap_ports;
    std::vector<AxiMemory> mems;
    if (mem_timing.stall_percent > 90) {
        fprintf(stderr, "zkemu: --mem-stall %u: at most 90\n", mem_timing.stall_percent);
        return 2;
    }
    try {
        clk = &m->need(clock);
        rstn = &m->need(resetn);
        for (auto &kv : h2c_ports) h2c[kv.first] = std::make_unique<H2CChannel>(StreamPort(*m, kv.second));
        for (auto &kv : c2h_ports) c2h[kv.first] = std::make_unique<C2HChannel>(StreamPort(*m, kv.second));
        if (!axil.empty()) lite = std::make_unique<AxiLite>(*m, axil, axil_timeout);
        for (auto &s : status) status_ports.push_back(&m->need(s));
        if (!spi.empty())
            for (const char *n : {"_sclk", "_ss_n", "_dq_o", "_dq_oe", "_dq_i"}) spi_ports.push_back(&m->need(spi + n));
        if (!icap.empty())
            for (const char *n : {"_csib", "_rdwrb", "_i"}) icap_ports.push_back(&m->need(icap + n));
        if (!mem_prefix.empty()) mems = AxiMemory::all(*m, mem_prefix, mem_timing, seed);
    } catch (std::exception &e) {
        fprintf(stderr, "zkemu: %s\n", e.what());
        return 2;
    }
    // the identity: constants of the RTL, settled by a first evaluation (clock and reset low)
    uint32_t ident[3] = {0, 0, 0};
    {
        int found = 0;
        for (const char *n : IDENT_PORTS) found += m->find(n) != nullptr;
        if (found != 0 && found != 3) {
            fprintf(stderr, "zkemu: the top has %d of the identity outputs ident_kind, ident_config, ident_version\n", found);
            return 2;
        }
        m->eval();
        for (int i = 0; found && i < 3; i++) ident[i] = (uint32_t)m->find(IDENT_PORTS[i])->get();
    }
    zkflash *flash = nullptr;
    zkicap *icapm = nullptr;
    if (!spi.empty()) {
        flash = zkflash_new((uint32_t)flash_size, (uint32_t)flash_jedec);
        if (!flash) {
            fprintf(stderr, "zkemu: --flash-size %llu: a power of two from 64 KiB\n", (unsigned long long)flash_size);
            return 2;
        }
        zkflash_set_busy(flash, busy[0], busy[1], busy[2], busy[3]);
        zkflash_set_status(flash, (uint8_t)flash_status);
        for (auto &st : stuck) zkflash_add_stuck(flash, st.first, st.second);
        if (!flash_image.empty() && zkflash_load(flash, flash_image.c_str()) && errno != ENOENT) {
            fprintf(stderr, "zkemu: %s: %s\n", flash_image.c_str(), strerror(errno));
            return 1;
        }
    }
    if (!icap.empty()) icapm = zkicap_new();
    auto save_flash = [&]() {
        if (flash && !flash_image.empty() && zkflash_save(flash, flash_image.c_str()))
            fprintf(stderr, "zkemu: %s: %s\n", flash_image.c_str(), strerror(errno));
    };
    bool iprog = false;
    if (!fst.empty() && !m->trace(fst.c_str())) fprintf(stderr, "zkemu: built without FST tracing (WAVES=1)\n");

    // ---- device files
    if (mkdir(dir.c_str(), 0755) && errno != EEXIST) {
        fprintf(stderr, "zkemu: %s: %s\n", dir.c_str(), strerror(errno));
        return 1;
    }
    std::vector<Listener> listeners;
    auto listen_on = [&](Kind k, int ch) {
        std::string name = dir + "/" + prefix + (k == USER ? "_user" : (k == H2C ? "_h2c_" : "_c2h_") + std::to_string(ch));
        sockaddr_un a{};
        a.sun_family = AF_UNIX;
        if (name.size() >= sizeof a.sun_path) { fprintf(stderr, "zkemu: path too long: %s\n", name.c_str()); exit(2); }
        strcpy(a.sun_path, name.c_str());
        unlink(name.c_str());
        int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
        if (fd < 0 || bind(fd, (sockaddr *)&a, sizeof a) || listen(fd, 16)) {
            fprintf(stderr, "zkemu: %s: %s\n", name.c_str(), strerror(errno));
            exit(1);
        }
        listeners.push_back({fd, k, ch, name});
    };
    for (auto &kv : h2c) listen_on(H2C, kv.first);
    for (auto &kv : c2h) listen_on(C2H, kv.first);
    listen_on(USER, 0);
    signal(SIGINT, on_quit);
    signal(SIGTERM, on_quit);
    signal(SIGPIPE, SIG_IGN);

    std::vector<std::unique_ptr<Conn>> conns;
    uint64_t cycles = 0, time = 0, total_beats = 0, lite_writes = 0;
    uint32_t sys_bad = 0; // SystemBlock's BAD counter
    int reset_left = SYS_RESET_CYCLES;
    std::mt19937_64 rng(seed);
    uint64_t idle_cycles = 0, grace = grace_opt;
    auto lite_idle = [&]() { return !lite || lite->q.empty(); };
    bool frozen = false, dma_failed = false;

    Reply reply = [&](Op &o, int st, uint64_t len) {
        zkemu_rep r{st, 0, len};
        send_all(*o.conn, &r, sizeof r);
        if (o.kind == ZKEMU_READ && len) send_all(*o.conn, o.data.data(), len);
    };
    auto flush_all = [&](int st) { // a reset ends the transfers in flight
        for (auto &kv : h2c) { for (auto &o : kv.second->q) reply(o, st, o.pos); kv.second->q.clear(); }
        for (auto &kv : c2h) { for (auto &o : kv.second->q) reply(o, st, 0); kv.second->q.clear(); kv.second->carry.clear(); }
    };
    auto sys_access = [&](Op &o) -> bool { // true: answered here
        bool core = axil_base ? (o.off >= axil_base && o.off < axil_base + SYS_BASE) : o.off < SYS_BASE;
        if (core && lite && !frozen) return false;
        uint64_t v = 0;
        bool in_sys = !core && o.off >= SYS_BASE && o.off < SYS_BASE + SYS_WINDOW;
        uint32_t word = (o.off - SYS_BASE) / 4, first_status = (SYS_STATUS - SYS_BASE) / 4;
        if (core) v = frozen || !lite ? 0xffffffffu : 0;
        else if (o.kind == ZKEMU_REG_READ && in_sys) {
            if (o.off == SYS_ID) v = SYS_MAGIC;
            else if (o.off == SYS_RESET) v = reset_left > 0;
            else if (o.off == SYS_INFO)
                v = (uint32_t)sys_revision << ZK_SYSTEM_INFO_REVISION_LSB | SYS_RESET_CYCLES << ZK_SYSTEM_INFO_RESET_CYCLES_LSB |
                    (uint32_t)sys_status_count << ZK_SYSTEM_INFO_STATUS_COUNT_LSB;
            else if (o.off == SYS_BAD) v = sys_bad;
            else if (sys_revision >= 1 && o.off >= SYS_IDENT && o.off < SYS_IDENT + 12)
                v = ident[(o.off - SYS_IDENT) / 4];
            else if (word >= first_status && word - first_status < (uint32_t)sys_status_count)
                v = word - first_status < status_ports.size() ? status_ports[word - first_status]->get() & 0xffffffffu : 0;
            else sys_bad++;
        }
        if (o.kind == ZKEMU_REG_WRITE) {
            v = 0;
            if (in_sys && o.off != SYS_RESET) sys_bad++;
            if (o.off == SYS_RESET && (o.len & 1)) {
                reset_left = SYS_RESET_CYCLES;
                frozen = false;
                total_beats = 0;
                freeze_after = freeze_cycles = freeze_writes = dma_error_after = 0; // an injected fault happens once
                dma_failed = false;
                flush_all(ECANCELED);
            }
        }
        reply(o, 0, v);
        return true;
    };
    auto cancel = [&](Conn *c) {
        auto drop = [&](std::deque<Op> &q, bool partial) {
            for (auto it = q.begin(); it != q.end(); ++it)
                if (it->conn == c) {
                    reply(*it, ECANCELED, partial ? it->pos : 0);
                    q.erase(it);
                    return;
                }
        };
        for (auto &kv : h2c) drop(kv.second->q, true);
        for (auto &kv : c2h) drop(kv.second->q, false);
        if (lite) drop(lite->q, false);
    };
    auto frame = [&](Conn &c) { // parse complete frames from c.in
        while (c.in.size() >= sizeof(zkemu_req)) {
            zkemu_req q;
            memcpy(&q, c.in.data(), sizeof q);
            size_t need = sizeof q + (q.op == ZKEMU_WRITE ? q.len : 0);
            if (c.in.size() < need) return;
            Op o{&c, q.op, q.arg, q.len, {}, 0};
            if (q.op == ZKEMU_WRITE) o.data.assign(c.in.begin() + sizeof q, c.in.begin() + (long)need);
            c.in.erase(c.in.begin(), c.in.begin() + (long)need);
            if (q.op == ZKEMU_CANCEL) cancel(&c);
            else if (dma_failed && ((q.op == ZKEMU_WRITE && c.kind == H2C) || (q.op == ZKEMU_READ && c.kind == C2H)))
                reply(o, EIO, 0); // --dma-error-after-beats: the engine stays failed until a system reset
            else if (q.op == ZKEMU_WRITE && c.kind == H2C) {
                if (o.data.empty()) reply(o, 0, 0);
                else h2c[c.ch]->q.push_back(std::move(o));
            } else if (q.op == ZKEMU_READ && c.kind == C2H) {
                if (o.len == 0) reply(o, 0, 0);
                else c2h[c.ch]->q.push_back(std::move(o));
            } else if ((q.op == ZKEMU_REG_READ || q.op == ZKEMU_REG_WRITE) && c.kind == USER) {
                if (!sys_access(o)) lite->q.push_back(std::move(o));
            } else reply(o, EINVAL, 0);
        }
    };

    printf("zkemu: ready %s/%s\n", dir.c_str(), prefix.c_str());
    fflush(stdout);
    while (!g_quit) {
        std::vector<pollfd> pf;
        for (auto &l : listeners) pf.push_back({l.fd, POLLIN, 0});
        for (auto &c : conns) pf.push_back({c->fd, POLLIN, 0});
        // the clock runs while a request is in flight and for `grace` cycles after the last one (the core finishes
        // what it was given); then the emulator sleeps in poll() until the host asks again: a shared machine's
        // CPU is not burnt on an idle card
        bool pending = !lite_idle() || reset_left > 0;
        for (auto &kv : h2c) pending |= !kv.second->q.empty();
        for (auto &kv : c2h) pending |= !kv.second->q.empty();
        if (pending) idle_cycles = 0;
        bool clocking = !conns.empty() && !frozen && idle_cycles < grace;
        int wait = clocking ? 0 : (conns.empty() ? 200 : 20);
        if (poll(pf.data(), pf.size(), wait) < 0 && errno != EINTR) break;
        for (size_t i = 0; i < listeners.size(); i++)
            if (pf[i].revents & POLLIN) {
                int fd = accept4(listeners[i].fd, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
                if (fd >= 0) conns.push_back(std::unique_ptr<Conn>(new Conn{fd, listeners[i].kind, listeners[i].ch, {}}));
            }
        for (size_t i = 0; i < conns.size() && listeners.size() + i < pf.size(); i++) {
            Conn &c = *conns[i];
            if (!(pf[listeners.size() + i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
            uint8_t buf[65536];
            for (;;) {
                ssize_t r = recv(c.fd, buf, sizeof buf, 0);
                if (r > 0) { c.in.insert(c.in.end(), buf, buf + r); continue; }
                if (r == 0 || (errno != EAGAIN && errno != EINTR)) c.dead = true;
                break;
            }
            frame(c);
        }
        for (auto it = conns.begin(); it != conns.end();) { // closed: its requests go with it
            if ((*it)->dead) {
                Conn *c = it->get();
                auto drop = [&](std::deque<Op> &q) {
                    for (auto o = q.begin(); o != q.end();) o = o->conn == c ? q.erase(o) : o + 1;
                };
                for (auto &kv : h2c) drop(kv.second->q);
                for (auto &kv : c2h) drop(kv.second->q);
                if (lite) drop(lite->q);
                close(c->fd);
                it = conns.erase(it);
            } else ++it;
        }
        if (!clocking) continue;
        for (int n = 0; n < 256 && !frozen; n++, idle_cycles++) { // a batch of clock cycles between socket polls
            bool run = reset_left == 0;
            rstn->set(run ? 1 : 0);
            // --throttle: the DMA engine offers and takes beats on a random share of the cycles only
            auto gap = [&]() { return throttle && (int)(rng() % 100) < throttle; };
            for (auto &kv : h2c) kv.second->drive(run && !gap());
            for (auto &kv : c2h) { kv.second->serve_carry(reply); kv.second->drive(run && !gap()); }
            if (lite) lite->drive(run);
            for (auto &mm : mems) mm.drive(cycles);
            clk->set(0);
            m->eval();
            m->dump(time++);
            for (auto &mm : mems) mm.sample();
            std::vector<int> fired_h, fired_c;
            for (auto &kv : h2c) if (run && kv.second->fired()) fired_h.push_back(kv.first);
            for (auto &kv : c2h) if (run && kv.second->fired()) fired_c.push_back(kv.first);
            if (lite) lite->sample();
            clk->set(1);
            m->eval();
            m->dump(time++);
            for (auto &mm : mems) mm.advance(cycles);
            cycles++;
            if (flash) { // the flash answers on DQ1; DQ0/2/3 read back pulled up
                uint64_t dq = spi_ports[2]->get(), oe = spi_ports[3]->get();
                int miso = zkflash_pins(flash, (int)spi_ports[1]->get(), (int)spi_ports[0]->get(),
                                        oe & 1 ? (int)(dq & 1) : 1, oe & 4 ? (int)(dq >> 2 & 1) : 1);
                spi_ports[4]->set((uint64_t)(0xD | miso << 1));
            }
            if (icapm && zkicap_pins(icapm, (int)icap_ports[0]->get(), (int)icap_ports[1]->get(),
                                     (uint32_t)icap_ports[2]->get())) {
                printf("zkemu: IPROG through ICAPE3, WBSTAR 0x%08x (%u words)\n", zkicap_wbstar(icapm), zkicap_words(icapm));
                fflush(stdout);
                iprog = true;
                break;
            }
            if (!run) { reset_left--; continue; }
            for (int k : fired_h) { h2c[k]->advance(reply); total_beats++; }
            for (int k : fired_c) c2h[k]->advance(reply);
            if (lite) {
                lite->advance(reply);
                if (lite->fire_b && freeze_writes && ++lite_writes >= freeze_writes) frozen = true;
            }
            if (freeze_after && total_beats >= freeze_after) frozen = true;
            if (freeze_cycles && cycles >= freeze_cycles) frozen = true;
            if (dma_error_after && !dma_failed && total_beats >= dma_error_after) {
                dma_failed = true;
                flush_all(EIO);
                break;
            }
        }
        if (iprog) { // the FPGA reconfigures: the card leaves the bus, then comes back with a fresh design
            iprog = false;
            save_flash();
            for (auto &c : conns) close(c->fd);
            conns.clear();
            for (auto &kv : h2c) kv.second->q.clear();
            for (auto &kv : c2h) kv.second->q.clear();
            if (lite) lite->q.clear();
            for (auto &l : listeners) { close(l.fd); unlink(l.path.c_str()); }
            std::vector<Listener> old;
            old.swap(listeners);
            usleep((useconds_t)(reload_ms * 1000));
            for (auto &l : old) listen_on(l.kind, l.ch);
            reset_left = SYS_RESET_CYCLES;
            sys_bad = 0; // a new design: the system block starts from its reset
            idle_cycles = 0;
            printf("zkemu: reconfigured\n");
            fflush(stdout);
            continue;
        }
        if (frozen && lite) { // registers of a hung core read all ones
            for (auto &o : lite->q) reply(o, 0, o.kind == ZKEMU_REG_READ ? 0xffffffffu : 0);
            lite->q.clear();
        }
    }
    for (auto &l : listeners) { close(l.fd); unlink(l.path.c_str()); }
    for (auto &c : conns) close(c->fd);
    save_flash();
    zkflash_free(flash);
    zkicap_free(icapm);
    m->final();
    fprintf(stderr, "zkemu: %llu cycles\n", (unsigned long long)cycles);
    return 0;
}
