/* Wire protocol between libzkemu.so (the interposer in the tool's process) and the emulator (zkemu_harness):
 * one Unix stream socket per open device file, little-endian fixed-size frames.  Each request gets exactly one
 * reply; a CANCEL ends the request in flight early (its reply then has status ECANCELED and the bytes done). */
#ifndef ZKEMU_PROTO_H
#define ZKEMU_PROTO_H
#include <stdint.h>

enum zkemu_op {
    ZKEMU_WRITE = 1,     /* h2c: len bytes follow; one AXI4-Stream packet, TLAST on the last beat */
    ZKEMU_READ = 2,      /* c2h: up to len bytes; the reply ends at TLAST or when len bytes arrived */
    ZKEMU_CANCEL = 3,    /* abort the request in flight (the driver's abort on a signal or timeout) */
    ZKEMU_REG_READ = 4,  /* user: arg = byte offset; reply len = value */
    ZKEMU_REG_WRITE = 5, /* user: arg = byte offset, len = value */
};

struct zkemu_req {
    uint32_t op;
    uint32_t arg;
    uint64_t len;
};

struct zkemu_rep {
    int32_t status;      /* 0 or an errno value */
    uint32_t pad;
    uint64_t len;        /* bytes moved (then READ data follows), or the register value */
};
#endif
