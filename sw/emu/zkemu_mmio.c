/* libzkemu.so, part 2: mmap() of the emulated user device.
 *
 * The mapping is an inaccessible region.  Each 32-bit load or store of a tool faults; the SIGSEGV handler performs
 * the AXI4-Lite access (a read fills the word first), sets the x86-64 trap flag, and the SIGTRAP after that one
 * instruction forwards the stored value (for a store) and re-protects the page.  So a tool's plain volatile loads
 * and stores reach the RTL one by one, in program order.  Under valgrind (which cannot single-step) or with
 * ZKEMU_MMAP=0, mmap fails with ENODEV and the tools use 4-byte pread/pwrite instead.  Accesses from one thread
 * at a time (the page is open while an instruction is single-stepped).
 */
#define _GNU_SOURCE
#include "zkemu_preload.h"
#include "zkemu_proto.h"

#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>
#if defined(__has_include)
#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#endif
#endif
#ifndef RUNNING_ON_VALGRIND
#define RUNNING_ON_VALGRIND 0
#endif

#define MAX_REGIONS 8
struct region { uintptr_t base; size_t len; off_t off; int fd; };
static struct region g_regions[MAX_REGIONS];
static struct sigaction g_old_segv, g_old_trap;
static __thread struct { int active, write, fd; uintptr_t addr, page; uint32_t off; } t_step;

static struct region *region_of(uintptr_t a)
{
    for (int i = 0; i < MAX_REGIONS; i++)
        if (g_regions[i].len && a >= g_regions[i].base && a < g_regions[i].base + g_regions[i].len)
            return &g_regions[i];
    return NULL;
}

static void chain(struct sigaction *old, int sig, siginfo_t *si, void *uc)
{
    if (old->sa_flags & SA_SIGINFO && old->sa_sigaction) {
        old->sa_sigaction(sig, si, uc);
    } else if (old->sa_handler != SIG_DFL && old->sa_handler != SIG_IGN) {
        old->sa_handler(sig);
    } else {
        signal(sig, SIG_DFL); /* the fault repeats and ends the process as it would have */
    }
}

static void on_segv(int sig, siginfo_t *si, void *ucv)
{
    ucontext_t *uc = ucv;
    struct region *r = region_of((uintptr_t)si->si_addr);
    if (!r || t_step.active) {
        chain(&g_old_segv, sig, si, ucv);
        return;
    }
    uintptr_t a = (uintptr_t)si->si_addr & ~(uintptr_t)3, page = a & ~(uintptr_t)4095;
    int is_write = (uc->uc_mcontext.gregs[REG_ERR] & 2) != 0;
    uint32_t off = (uint32_t)(r->off + (off_t)(a - r->base));
    mprotect((void *)page, 4096, PROT_READ | PROT_WRITE);
    if (!is_write) {
        uint32_t v;
        if (zkemu_reg(r->fd, ZKEMU_REG_READ, off, &v))
            v = 0xffffffffu; /* what a read of a dead BAR returns */
        *(volatile uint32_t *)a = v;
        mprotect((void *)page, 4096, PROT_READ);
    }
    t_step.active = 1;
    t_step.write = is_write;
    t_step.fd = r->fd;
    t_step.addr = a;
    t_step.page = page;
    t_step.off = off;
    uc->uc_mcontext.gregs[REG_EFL] |= 0x100; /* trap after this one instruction */
}

static void on_trap(int sig, siginfo_t *si, void *ucv)
{
    ucontext_t *uc = ucv;
    if (!t_step.active) {
        chain(&g_old_trap, sig, si, ucv);
        return;
    }
    uc->uc_mcontext.gregs[REG_EFL] &= ~0x100;
    if (t_step.write) {
        uint32_t v = *(volatile uint32_t *)t_step.addr;
        zkemu_reg(t_step.fd, ZKEMU_REG_WRITE, t_step.off, &v);
    }
    mprotect((void *)t_step.page, 4096, PROT_NONE);
    t_step.active = 0;
}

static int install_handlers(void)
{
    static int done;
    if (done)
        return 0;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_flags = SA_SIGINFO | SA_RESTART;
    sigemptyset(&sa.sa_mask);
    sa.sa_sigaction = on_segv;
    if (sigaction(SIGSEGV, &sa, &g_old_segv))
        return -1;
    sa.sa_sigaction = on_trap;
    if (sigaction(SIGTRAP, &sa, &g_old_trap))
        return -1;
    done = 1;
    return 0;
}

static void *sys_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
    return (void *)syscall(SYS_mmap, addr, len, prot, flags, fd, off);
}

void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
    if (zkemu_kind(fd) == NONE)
        return sys_mmap(addr, len, prot, flags, fd, off);
    const char *env = getenv("ZKEMU_MMAP");
    if (zkemu_kind(fd) != USER || RUNNING_ON_VALGRIND || (env && !strcmp(env, "0"))) {
        errno = ENODEV;
        return MAP_FAILED;
    }
    struct region *slot = NULL;
    for (int i = 0; i < MAX_REGIONS && !slot; i++)
        if (!g_regions[i].len)
            slot = &g_regions[i];
    if (!slot || install_handlers()) {
        errno = ENOMEM;
        return MAP_FAILED;
    }
    void *m = sys_mmap(NULL, len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED)
        return m;
    *slot = (struct region){(uintptr_t)m, len, off, fd};
    return m;
}
void *mmap64(void *addr, size_t len, int prot, int flags, int fd, off_t off) __attribute__((alias("mmap")));

int munmap(void *addr, size_t len)
{
    struct region *r = region_of((uintptr_t)addr);
    if (r && r->base == (uintptr_t)addr)
        r->len = 0;
    return (int)syscall(SYS_munmap, addr, len);
}
