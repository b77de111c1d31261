// Verilator harness for PoseidonAxis_<config>: streams frames from a binary file through s_axis and writes every
// m_axis beat to a binary file, with optional random pauses on both ports (valid held until accepted).
//
//   poseidon_axis_sim --in FILE --out FILE [--pause-in P] [--pause-out P] [--seed S] [--idle-timeout CYCLES]
//
// Input records (34 bytes): TDATA (32 bytes, little-endian), TUSER (1 byte: bits 7..0), TLAST (1 byte).
// Output records (41 bytes): TDATA (32 bytes), TUSER (1 byte), the cycle of the handshake (8 bytes, little-endian).
// Ends when every frame of the input (TLAST count) has its output beat; prints a JSON line of statistics and the
// AXI4-Lite counters on stdout.  Exit 1 on usage or I/O errors, 3 when no output beat comes for --idle-timeout cycles.
#include <cerrno>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <getopt.h>
#include <memory>

#include "verilated.h"
#include "zk_contract.h" // the register offsets (PoseidonRegs)
#include TOP_HEADER

static TOP_CLASS *dut;
static uint64_t cycle = 0;

static void tick() {
    dut->aclk = 1;
    dut->eval();
    dut->aclk = 0;
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

static uint32_t axil_read(uint32_t addr) {
    dut->s_axil_araddr = addr;
    dut->s_axil_arvalid = 1;
    dut->s_axil_rready = 1;
    for (int i = 0; i < 100; i++) {
        dut->eval();
        bool ar = dut->s_axil_arready;
        tick();
        if (ar) break;
    }
    dut->s_axil_arvalid = 0;
    uint32_t v = 0;
    for (int i = 0; i < 100; i++) {
        dut->eval();
        if (dut->s_axil_rvalid) { v = dut->s_axil_rdata; tick(); break; }
        tick();
    }
    dut->s_axil_rready = 0;
    return v;
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
    dut = new TOP_CLASS(ctx.get());
    dut->aclk = 0;
    dut->aresetn = 0;
    dut->s_axis_tvalid = 0;
    dut->m_axis_tready = 0;
    dut->s_axil_arvalid = dut->s_axil_awvalid = dut->s_axil_wvalid = 0;
    dut->s_axil_rready = dut->s_axil_bready = 0;
    for (int i = 0; i < 5; i++) tick();
    dut->aresetn = 1;
    tick();
    uint64_t start = cycle;

    unsigned char rec[34];
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
            for (int w = 0; w < 8; w++) {
                uint32_t v;
                memcpy(&v, rec + 4 * w, 4);
                dut->s_axis_tdata[w] = v;
            }
            dut->s_axis_tuser = rec[32];
            dut->s_axis_tlast = rec[33] != 0;
        }
        dut->s_axis_tvalid = holding;
        dut->m_axis_tready = !(pause_out > 0 && rnd() < pause_out);
        dut->eval();
        bool s_fire = holding && dut->s_axis_tready;
        if (dut->m_axis_tvalid && dut->m_axis_tready) {
            unsigned char o[41];
            for (int w = 0; w < 8; w++) { uint32_t v = dut->m_axis_tdata[w]; memcpy(o + 4 * w, &v, 4); }
            o[32] = (unsigned char)dut->m_axis_tuser;
            uint64_t t = cycle - start;
            memcpy(o + 33, &t, 8);
            if (fwrite(o, 1, sizeof o, out) != sizeof o) { fprintf(stderr, "%s: %s\n", out_path, strerror(errno)); rc = 1; break; }
            outputs++;
            last_out = cycle;
        }
        tick();
        if (s_fire) {
            holding = false;
            have = false;
            beats++;
            if (rec[33]) frames++;
        }
        if (eof && !have && outputs == frames) break;
        if (cycle - last_out > idle_timeout) {
            fprintf(stderr, "no output beat for %" PRIu64 " cycles: %" PRIu64 " of %" PRIu64 " frames answered\n",
                    idle_timeout, outputs, frames);
            rc = 3;
            break;
        }
    }
    dut->s_axis_tvalid = 0;
    dut->m_axis_tready = 1;
    tick();
    uint32_t frames_in = axil_read(ZK_POSEIDON_FRAMES_IN), digests = axil_read(ZK_POSEIDON_DIGESTS_OUT);
    uint32_t flagged = axil_read(ZK_POSEIDON_FLAGGED_OUT), e_range = axil_read(ZK_POSEIDON_ERR_RANGE);
    uint32_t e_arity = axil_read(ZK_POSEIDON_ERR_ARITY), e_length = axil_read(ZK_POSEIDON_ERR_LENGTH);
    uint32_t in_flight = axil_read(ZK_POSEIDON_IN_FLIGHT);
    printf("{\"cycles\": %" PRIu64 ", \"frames\": %" PRIu64 ", \"beats\": %" PRIu64 ", \"outputs\": %" PRIu64
           ", \"frames_in\": %u, \"digests_out\": %u, \"flagged_out\": %u, \"err_range\": %u, \"err_arity\": %u"
           ", \"err_length\": %u, \"in_flight\": %u}\n",
           last_out - start, frames, beats, outputs, frames_in, digests, flagged, e_range, e_arity, e_length, in_flight);
    if (fclose(out) != 0) { fprintf(stderr, "%s: %s\n", out_path, strerror(errno)); rc = 1; }
    fclose(in);
    dut->final();
    delete dut;
    return rc;
}
