// Verilator harness for PoseidonAxis_<config>: streams frames from a binary file through s_axis and writes every
// m_axis beat to a binary file, with optional random pauses on both ports (valid held until accepted).  It reaches the
// top through the emulator's port mapping (zkemu_model.h: ports by name, from the glue that
// zkemu.card.port_glue(top) generates into build/emu/<name>_glue.cpp) and its bus helpers (zkemu_bus.h: StreamPort for
// s_axis and m_axis, AxiLite for the counters).
//
//   poseidon_axis_sim --in FILE --out FILE [--pause-in P] [--pause-out P] [--seed S] [--idle-timeout CYCLES]
//
// Input records (D + 2 bytes): TDATA (D = PoseidonFrame's beat bytes, little-endian), TUSER (1 byte: bits 7..0),
// TLAST (1 byte).  Output records (D + 9 bytes): TDATA, TUSER (1 byte), the cycle of the handshake (8 bytes, LE).
// Ends when every frame of the input (TLAST count) has its output beat; prints a JSON line of statistics and the
// AXI4-Lite counters on stdout.  Exit 1 on usage or I/O errors (or a top without the expected ports), 3 when no output
// beat comes for --idle-timeout cycles.
#include <cerrno>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <getopt.h>
#include <memory>
#include <stdexcept>

#include "verilated.h"
#include "zk_contract.h" // the register offsets (PoseidonRegs), the beat (PoseidonFrame)
#include "zkemu_bus.h"
#include "zkemu_proto.h"

static constexpr size_t D = ZK_POSEIDON_FRAME_BEAT_BYTES; // TDATA bytes

static Model *dut;
static const Port *clk;
static uint64_t cycle = 0;

static void tick() {
    clk->set(1);
    dut->eval();
    clk->set(0);
    dut->eval();
    cycle++;
}

// xorshift64*: the pause pattern depends only on --seed
static uint64_t rng_state = 1;
static double rnd() {
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return (double)((rng_state * 2685821657736338717ULL) >> 11) / 9007199254740992.0;
}

// One AXI4-Lite read through the emulator's master (built without a timeout of its own, ~0 cycles: the bound is here);
// a read not answered within 200 cycles (100 for the address phase and 100 for the data phase, as before) reads 0.
static uint32_t axil_read(AxiLite &axil, uint32_t addr) {
    bool done = false;
    uint32_t v = 0;
    Reply reply = [&](Op &, int, uint64_t value) { done = true; v = (uint32_t)value; };
    axil.q.push_back(Op{nullptr, ZKEMU_REG_READ, addr, 0, {}, 0});
    for (int i = 0; i < 200 && !done; i++) {
        axil.drive(true);
        dut->eval();
        axil.sample();
        tick();
        axil.advance(reply);
    }
    if (!done) { // abandoned: the master idle again
        axil.q.clear();
        axil.aw = axil.w = axil.ar = false;
        axil.waited = 0;
    }
    axil.drive(true); // idle: valids and readies low
    return done ? v : 0;
}

int main(int argc, char **argv) {
    const char *in_path = nullptr, *out_path = nullptr;
    double pause_in = 0, pause_out = 0;
    uint64_t seed = 1, idle_timeout = 5000000;
    static struct option opts[] = {{"in", required_argument, 0, 'i'},        {"out", required_argument, 0, 'o'},
                                   {"pause-in", required_argument, 0, 'p'},  {"pause-out", required_argument, 0, 'q'},
                                   {"seed", required_argument, 0, 's'},      {"idle-timeout", required_argument, 0, 't'},
                                   {0, 0, 0, 0}};
    int c;
    while ((c = getopt_long(argc, argv, "", opts, nullptr)) != -1) {
        switch (c) {
        case 'i': in_path = optarg; break;
        case 'o': out_path = optarg; break;
        case 'p': pause_in = atof(optarg); break;
        case 'q': pause_out = atof(optarg); break;
        case 's': seed = strtoull(optarg, nullptr, 0); break;
        case 't': idle_timeout = strtoull(optarg, nullptr, 0); break;
        default: fprintf(stderr, "usage: %s --in FILE --out FILE [--pause-in P] [--pause-out P] [--seed S]\n", argv[0]); return 1;
        }
    }
    if (!in_path || !out_path) { fprintf(stderr, "--in and --out are required\n"); return 1; }
    FILE *in = fopen(in_path, "rb");
    if (!in) { fprintf(stderr, "%s: %s\n", in_path, strerror(errno)); return 1; }
    FILE *out = fopen(out_path, "wb");
    if (!out) { fprintf(stderr, "%s: %s\n", out_path, strerror(errno)); fclose(in); return 1; }
    static char inbuf[1 << 20], outbuf[1 << 20];
    setvbuf(in, inbuf, _IOFBF, sizeof inbuf);
    setvbuf(out, outbuf, _IOFBF, sizeof outbuf);
    rng_state = seed * 0x9E3779B97F4A7C15ULL + 1;

    auto ctx = std::make_unique<VerilatedContext>();
    std::unique_ptr<Model> model(zkemu_make_model(ctx.get()));
    dut = model.get();
    const Port *rstn;
    std::unique_ptr<StreamPort> s_axis, m_axis;
    std::unique_ptr<AxiLite> axil;
    try {
        clk = &dut->need("aclk");
        rstn = &dut->need("aresetn");
        s_axis = std::make_unique<StreamPort>(*dut, "s_axis");
        m_axis = std::make_unique<StreamPort>(*dut, "m_axis");
        if (!s_axis->user || !s_axis->last || !m_axis->user)
            throw std::runtime_error("the top lacks s_axis_tuser, s_axis_tlast or m_axis_tuser");
        axil = std::make_unique<AxiLite>(*dut, "s_axil", ~0ull);
    } catch (std::exception &e) {
        fprintf(stderr, "%s: %s\n", argv[0], e.what());
        fclose(in);
        fclose(out);
        return 1;
    }
    clk->set(0);
    rstn->set(0);
    s_axis->valid->set(0);
    m_axis->ready->set(0);
    axil->drive(false); // valids and readies low
    for (int i = 0; i < 5; i++) tick();
    rstn->set(1);
    tick();
    uint64_t start = cycle;

    unsigned char rec[D + 2];
    bool have = false, eof = false, holding = false;
    uint64_t frames = 0, beats = 0, outputs = 0, last_out = cycle;
    int rc = 0;
    while (true) {
        if (!have && !eof) {
            size_t got = fread(rec, 1, sizeof rec, in);
            if (got == sizeof rec) have = true;
            else if (got == 0 && feof(in)) eof = true;
            else { fprintf(stderr, "%s: truncated record\n", in_path); rc = 1; break; }
        }
        if (!holding && have && !(pause_in > 0 && rnd() < pause_in)) {
            holding = true;
            s_axis->data->set(rec, D);
            s_axis->user->set(rec[D]);
            s_axis->last->set(rec[D + 1] != 0);
        }
        s_axis->valid->set(holding);
        bool m_ready = !(pause_out > 0 && rnd() < pause_out);
        m_axis->ready->set(m_ready);
        dut->eval();
        bool s_fire = holding && s_axis->ready->get();
        if (m_axis->valid->get() && m_ready) {
            unsigned char o[D + 9];
            m_axis->data->get(o, D);
            o[D] = (unsigned char)m_axis->user->get();
            uint64_t t = cycle - start;
            memcpy(o + D + 1, &t, 8);
            if (fwrite(o, 1, sizeof o, out) != sizeof o) { fprintf(stderr, "%s: %s\n", out_path, strerror(errno)); rc = 1; break; }
            outputs++;
            last_out = cycle;
        }
        tick();
        if (s_fire) {
            holding = false;
            have = false;
            beats++;
            if (rec[D + 1]) frames++;
        }
        if (eof && !have && outputs == frames) break;
        if (cycle - last_out > idle_timeout) {
            fprintf(stderr, "no output beat for %" PRIu64 " cycles: %" PRIu64 " of %" PRIu64 " frames answered\n",
                    idle_timeout, outputs, frames);
            rc = 3;
            break;
        }
    }
    s_axis->valid->set(0);
    m_axis->ready->set(1);
    tick();
    uint32_t frames_in = axil_read(*axil, ZK_POSEIDON_FRAMES_IN), digests = axil_read(*axil, ZK_POSEIDON_DIGESTS_OUT);
    uint32_t flagged = axil_read(*axil, ZK_POSEIDON_FLAGGED_OUT), e_range = axil_read(*axil, ZK_POSEIDON_ERR_RANGE);
    uint32_t e_arity = axil_read(*axil, ZK_POSEIDON_ERR_ARITY), e_length = axil_read(*axil, ZK_POSEIDON_ERR_LENGTH);
    uint32_t in_flight = axil_read(*axil, ZK_POSEIDON_IN_FLIGHT);
    printf("{\"cycles\": %" PRIu64 ", \"frames\": %" PRIu64 ", \"beats\": %" PRIu64 ", \"outputs\": %" PRIu64
           ", \"frames_in\": %u, \"digests_out\": %u, \"flagged_out\": %u, \"err_range\": %u, \"err_arity\": %u"
           ", \"err_length\": %u, \"in_flight\": %u}\n",
           last_out - start, frames, beats, outputs, frames_in, digests, flagged, e_range, e_arity, e_length, in_flight);
    if (fclose(out) != 0) { fprintf(stderr, "%s: %s\n", out_path, strerror(errno)); rc = 1; }
    fclose(in);
    dut->final();
    return rc;
}
