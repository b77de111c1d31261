/* libzkxdma: host access to zkspinal cores behind the Xilinx XDMA driver (AXI4-Stream mode).
 *
 * Device files of card N (prefix "/dev/xdmaN", or any prefix given with -d):
 *   <prefix>_h2c_K   host to card stream K (one write() = one AXI4-Stream packet, TLAST on its last beat)
 *   <prefix>_c2h_K   card to host stream K (a read() returns at TLAST or when the buffer is full)
 *   <prefix>_user    the user BAR: AXI4-Lite registers, mmap()ed (4-byte pread/pwrite when mmap is refused)
 * The same calls run unchanged against the XDMA emulator (sw/emu, see sw/README.md).
 *
 * Every function that can fail returns -1 (or NULL) and leaves a message "<device path>: <what>: <strerror>"
 * in zk_error(dev).
 */
#ifndef ZKXDMA_H
#define ZKXDMA_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "zk_contract.h" /* register offsets and codes, generated from the hardware's declarations */

#define ZK_MAX_CHANNELS 4
#define ZK_ALIGN 4096u                 /* DMA buffers: page aligned, so that no descriptor straddles a page */
#define ZK_MAX_XFER 0x7ffff000ul       /* the driver's largest single transfer */
#define ZK_USER_MAP_BYTES ((size_t)ZK_USER_BAR_MAP_BYTES) /* user BAR window mapped: core, system block, flash */
#define ZK_DEFAULT_TIMEOUT_MS 10000u   /* as the driver's default transfer timeout */

/* System block of the board design, at its user BAR offsets: what every zkspinal board wrapper provides next to
 * the core's own AXI4-Lite window at offset 0 (SystemBlockRegs in hw/src/zkspinal/system/SystemBlock.scala). */
#define ZK_SYS_BASE ZK_USER_BAR_SYSTEM
#define ZK_SYS_ID (ZK_SYS_BASE + ZK_SYSTEM_ID)         /* read: ZK_SYS_MAGIC */
#define ZK_SYS_RESET (ZK_SYS_BASE + ZK_SYSTEM_RESET)   /* write 1: pulse the cores' reset, streams flushed */
#define ZK_SYS_INFO (ZK_SYS_BASE + ZK_SYSTEM_INFO)     /* read: [7:0] status words, [15:8] reset cycles, [23:16] revision */
#define ZK_SYS_BAD (ZK_SYS_BASE + ZK_SYSTEM_BAD)       /* read: accesses to unmapped offsets / writes to read-only ones */
#define ZK_SYS_STATUS (ZK_SYS_BASE + ZK_SYSTEM_STATUS) /* read-only: the core's status outputs, one 32-bit word each */
/* the core's identity (revision >= 1; CoreIdentity in hw/src/zkspinal/contract/CoreIdentity.scala): */
#define ZK_SYS_KIND (ZK_SYS_BASE + ZK_SYSTEM_KIND)       /* read: zk_core_kind code (0: the core has no identity) */
#define ZK_SYS_CONFIG (ZK_SYS_BASE + ZK_SYSTEM_CONFIG)   /* read: CRC-32 (zlib's) of the configuration name */
#define ZK_SYS_VERSION (ZK_SYS_BASE + ZK_SYSTEM_VERSION) /* read: [15:0] the core's interface revision for its kind */
#define ZK_SYS_MAGIC ZK_SYSTEM_MAGIC                     /* "zkSY" */
#define ZK_SYS_REVISION(info) ((unsigned)zk_system_info_revision(info))     /* 0: a block without the identity words */
/* VERSION[31:16], above the interface revision: what the core's kind says of its configuration (an MSM core: its
 * curve, a ZK_MSM_CURVE_* code; 0 for the other kinds, and on MSM cards from before the curve was named there, which
 * are BLS12-377's) */
#define ZK_SYS_VERSION_DETAIL(version) ((uint32_t)zk_system_version_detail(version))

typedef struct zk_dev {
    char prefix[256];
    int h2c[ZK_MAX_CHANNELS];
    int c2h[ZK_MAX_CHANNELS];
    int user;
    volatile uint32_t *regs;   /* mmap of the user BAR, or NULL: 4-byte pread/pwrite */
    size_t regs_bytes;
    unsigned timeout_ms;       /* a transfer that makes no progress for this long is aborted */
    size_t max_xfer;           /* longest single write (ZK_MAX_XFER); longer packets go out as several writes */
    char err[1024];
} zk_dev;

/* which files zk_open opens */
#define ZK_H2C(k) (1u << (k))
#define ZK_C2H(k) (1u << (8 + (k)))
#define ZK_USER (1u << 16)

/* "/dev/xdma<card>" unless ZKXDMA_DEVICE is set; buf of at least 256 bytes */
const char *zk_default_prefix(int card, char *buf, size_t len);
int zk_open(zk_dev *d, const char *prefix, unsigned what);
void zk_close(zk_dev *d);
const char *zk_error(const zk_dev *d);
/* path of a device file, for messages */
const char *zk_path(const zk_dev *d, const char *kind, int ch, char *buf, size_t len);

/* DMA buffers: 4 KiB aligned, size rounded up to whole pages, zeroed */
void *zk_alloc(size_t bytes);
void zk_free(void *p);

/* registers (byte offsets in the user BAR, 32-bit aligned) */
int zk_reg_read(zk_dev *d, uint32_t off, uint32_t *val);
int zk_reg_write(zk_dev *d, uint32_t off, uint32_t val);
/* pulses the system reset and checks the system block answers */
int zk_soft_reset(zk_dev *d);

/* single transfers, split at ZK_MAX_XFER; buffers must come from zk_alloc (checked) */
int zk_write(zk_dev *d, int ch, const void *buf, size_t len);
/* one packet (up to len bytes); returns its length */
ssize_t zk_read_packet(zk_dev *d, int ch, void *buf, size_t len);

/* A job: writes on one H2C channel (a list of packets) while a reader thread, started first, collects
 * packets from one C2H channel.  A watchdog aborts the job when nothing moved for timeout_ms or when
 * SIGINT/SIGTERM arrived (zk_install_signals). */
typedef struct zk_packet {
    const void *data;          /* inside a zk_alloc buffer, 4 KiB aligned */
    size_t len;
} zk_packet;

typedef struct zk_job {
    int h2c, c2h;
    const zk_packet *in;       /* packets to write, in order */
    size_t n_in;
    void *out;                 /* zk_alloc buffer receiving the output packets back to back */
    size_t out_len;            /* total bytes expected */
    const size_t *out_sizes;   /* expected length of each output packet (n_out of them), or NULL: read until out_len */
    size_t n_out;
    size_t *got_sizes;         /* optional: the length each output packet really had */
} zk_job;
int zk_run_job(zk_dev *d, const zk_job *job);

/* Two input streams that the core consumes in lockstep (scalars and points of an MSM; seed 002): written
 * in chunks of chunk_elems elements, chunk_elems below the FIFO depth, so that neither FIFO fills while
 * the core waits on the other.  ZK_PAIR_SEQUENTIAL alternates the chunks on one thread; ZK_PAIR_PARALLEL
 * writes each stream on its own thread with a barrier after every chunk.  ZK_PAIR_NAIVE writes all of
 * stream 0, then all of stream 1 (deadlocks once stream 0 exceeds its FIFO; kept to demonstrate it). */
typedef enum { ZK_PAIR_SEQUENTIAL, ZK_PAIR_PARALLEL, ZK_PAIR_NAIVE } zk_pair_mode;
typedef struct zk_stream {
    int h2c;
    const void *data;          /* zk_alloc buffer */
    size_t elem_bytes;
    size_t n_elems;
} zk_stream;
int zk_run_pair(zk_dev *d, const zk_stream s[2], size_t chunk_elems, zk_pair_mode mode,
                int c2h, void *out, size_t out_len);

/* SIGINT/SIGTERM set a flag that aborts the running job; zk_interrupted() reports it */
int zk_install_signals(void);
int zk_interrupted(void);

/* ---- several cards in one host (zkxdma_cards.c: discovery; zkxdma_spread.c: a batch spread over cards) */
#define ZK_MAX_CARDS 64

/* A card's core: the system block's KIND codes (CoreKind in hw/src/zkspinal/contract/CoreIdentity.scala), then
 * what zk_card_probe found instead of a core it can drive (from 0x100, no KIND code). */
typedef enum { ZK_CORE_UNKNOWN = 0, ZK_CORE_POSEIDON = ZK_CORE_KIND_POSEIDON, ZK_CORE_MSM = ZK_CORE_KIND_MSM,
               ZK_CORE_KECCAK_SPONGE = ZK_CORE_KIND_KECCAK_SPONGE, ZK_CORE_KECCAK_SPEED = ZK_CORE_KIND_KECCAK_SPEED,
               ZK_CORE_PAIR = ZK_CORE_KIND_PAIR,
               ZK_CORE_ALL_ONES = 0x100,   /* the core's registers read all ones: a hung core */
               ZK_CORE_NO_SYSTEM_BLOCK,    /* no zkspinal system block at ZK_SYS_BASE */
               ZK_CORE_NO_IDENTITY,        /* a system block of revision 0: no KIND, CONFIG, VERSION words */
               ZK_CORE_UNREACHABLE } zk_core_kind;
typedef struct zk_card {
    int index;                 /* N of xdmaN */
    char prefix[256];          /* DIR/xdmaN */
    unsigned h2c_mask, c2h_mask; /* stream channels K whose device file exists (bit K) */
    zk_core_kind kind;         /* a core kind this library drives, or why not (ZK_CORE_UNKNOWN: see err) */
    uint32_t sys_info, sys_bad;  /* system block INFO, BAD (when it answered) */
    uint32_t ident[3];         /* system block KIND, CONFIG, VERSION (revision >= 1) */
    uint32_t core_info[3];     /* poseidon: INFO, INFO2; msm: INFO, ADDERS, PARTIALS */
    char err[512];             /* why the kind is none this library drives (device path, what, strerror) */
} zk_card;
const char *zk_core_name(zk_core_kind k);
/* the name (zk-msm --curve) of an MSM card's curve code (ZK_MSM_CURVE_CODES), NULL for a code not in the contract */
const char *zk_msm_curve_name(uint32_t code);
/* the cards of dir ("/dev" for the driver's files, or an emulator directory): every DIR/xdma<N>_user, sorted by N,
 * each probed (zk_card_probe); returns the count (at most max) or -1 with "<dir>: <what>: <strerror>" in err */
int zk_cards_find(const char *dir, zk_card *cards, int max, char *err, size_t errlen);
/* opens the card's user device, reads the system block (ID, INFO, BAD, KIND, CONFIG, VERSION) and, for Poseidon and
 * MSM, the core's INFO words, closes it again.  A KIND this library does not know, or a VERSION other than the one
 * it speaks for the kind, is ZK_CORE_UNKNOWN (err says which). */
void zk_card_probe(zk_card *c);
/* one line: "DIR/xdma0: poseidon arities 2,4,8,11, 1 engine(s), 2 multiplier(s); identity: kind 1, config
 * 0x..., version 1; system block: revision 1, 2 status words; ..." */
const char *zk_card_describe(const zk_card *c, char *buf, size_t len);

/* zk_spread: items [0, n_items) of a batch over n cards, one thread per card, so that every card has a job in
 * flight at once.  Each card takes jobs of consecutive items from a shared queue: its first job is a probe
 * (a quarter of an even share), later ones are its share of the work left in proportion to the rates measured
 * so far (items per second of job time), at most max_chunk items.  run(ctx, card, first, count, err, errlen)
 * does one job on card `card`; it returns 0, or -1 after writing why (naming the device) into err and leaving the card reusable
 * (reset).  A card whose job fails is dropped for the rest of the batch and its job goes back to the queue for
 * the remaining cards (a message on stderr names the card, the failure and the items moved).  SIGINT/SIGTERM
 * (zk_install_signals) stop every card: no retry.  Returns 0 when every item is done, -1 when interrupted
 * (zk_interrupted()) or no card is left; then err holds the reason. */
typedef int (*zk_spread_fn)(void *ctx, int card, size_t first, size_t count, char *err, size_t errlen);
typedef struct zk_spread_card {
    size_t items, jobs;        /* done on this card */
    double busy_s;             /* time in its jobs */
    int failed;                /* dropped after err */
    char err[1024];
} zk_spread_card;
typedef struct zk_spread_stats {
    double wall_s;             /* from the first job's start to the last job's end */
    double busy_any_s;         /* some card had a job in flight */
    double busy_all_s;         /* every card had a job in flight at once */
    size_t retried;            /* items moved off failed cards */
} zk_spread_stats;
int zk_spread(int n_cards, const char *const *names, size_t n_items, size_t max_chunk, const char *what,
              zk_spread_fn run, void *ctx, zk_spread_card *cards, zk_spread_stats *stats, char *err, size_t errlen);

#endif
