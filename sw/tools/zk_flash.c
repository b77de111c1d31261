/* zk-flash: the card's configuration flash over PCIe (FlashCtrl on the user BAR), and reconfiguration.
 *
 *   zk-flash -d PREFIX info
 *   zk-flash -d PREFIX read FILE [--offset OFF] [--length N]
 *   zk-flash -d PREFIX write FILE.bin [--force] [--part NAME] [--golden]
 *   zk-flash -d PREFIX reload [--wbstar ADDR] [--sysfs ROOT] [--pci BDF] [--settle-ms MS] [--dry-run]
 *
 * Layout: golden image at 0 (factory / JTAG, never written by `write` unless --golden), update image at half the
 * flash.  `write` erases and programs the update slot only, so an interrupted or failed write leaves the golden
 * image intact; the golden image's MultiBoot header (or `reload`) starts the update image, and a corrupt update
 * image falls back to the golden one (BITSTREAM.CONFIG.CONFIGFALLBACK).
 */
#include "tool_common.h"
#include "zk_flash_spi.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

enum { EXIT_DEV = 1, EXIT_USAGE = 2, EXIT_VERIFY = 3, EXIT_INTR = 130 };

static void usage(FILE *f)
{
    fprintf(f, "usage: zk-flash [options] info | read FILE | write FILE.bin | reload\n"
               "options:\n" TOOL_DEV_HELP
               "  -b, --base OFF       the flash window on the user BAR (default 0x20000)\n"
               "  -s, --sclk-half N    SCLK half period in aclk cycles minus 1 (default 2: 41.7 MHz at 250 MHz)\n"
               "read:   -o, --offset OFF  -n, --length N   (default: the update slot, its whole size)\n"
               "write:  -f, --force      accept a file that is not a bitstream for this card's part\n"
               "        -p, --part NAME  the card's part (xcu55n, xcvu9p) instead of the golden image's IDCODE\n"
               "        -g, --golden     write the golden slot at 0 (the card may not boot if this fails)\n"
               "reload: -w, --wbstar ADDR  image to start (default: the update slot)\n"
               "        -S, --sysfs ROOT   sysfs root (default /sys)    -P, --pci BDF  (default: from the device)\n"
               "        -W, --settle-ms MS wait after remove before rescan (default 3000)    -D, --dry-run\n"
               "exit: 0 ok, 1 device error, 2 usage or bad file, 3 verify failed, 130 interrupted\n");
}

static fl g_fl;
static zk_dev g_dev;

static _Noreturn void die_fl(void)
{
    fprintf(stderr, "%s\n", g_fl.err[0] ? g_fl.err : zk_error(&g_dev));
    zk_close(&g_dev);
    exit(EXIT_DEV);
}

static void progress(const char *what, size_t done, size_t total, double t0, int last)
{
    static double shown;
    double t = now_s();
    if (!last && t - shown < 0.5)
        return;
    shown = t;
    double rate = done / 1024.0 / (t - t0 > 1e-6 ? t - t0 : 1e-6);
    fprintf(stderr, "\r%s %zu/%zu bytes (%3.0f%%) %.1f KiB/s", what, done, total, total ? 100.0 * done / total : 100.0,
            rate);
    if (last)
        fprintf(stderr, "\n");
}

static uint8_t *read_file(const char *path, size_t *n)
{
    FILE *fp = fopen(path, "rb");
    if (!fp) {
        fprintf(stderr, "%s: open: %s\n", path, strerror(errno));
        exit(EXIT_USAGE);
    }
    fseek(fp, 0, SEEK_END);
    long len = ftell(fp);
    fseek(fp, 0, SEEK_SET);
    uint8_t *b = malloc(len > 0 ? (size_t)len : 1);
    if (!b || fread(b, 1, (size_t)len, fp) != (size_t)len) {
        fprintf(stderr, "%s: read: %s\n", path, strerror(errno ? errno : EIO));
        fclose(fp);
        free(b);
        exit(EXIT_USAGE);
    }
    fclose(fp);
    *n = (size_t)len;
    return b;
}

/* the IDCODE of the image at addr, or 0 when none is there */
static uint32_t image_idcode(uint32_t addr)
{
    uint8_t head[1024];
    uint32_t id;
    size_t at;
    char why[160];
    if (fl_read(&g_fl, addr, head, sizeof head))
        die_fl();
    return bit_idcode(head, sizeof head, &id, &at, why, sizeof why) ? 0 : id;
}

static int cmd_info(void)
{
    uint32_t idc, st, half = g_fl.size / 2;
    if (zk_reg_read(&g_dev, g_fl.base + ZK_FLASH_IDCODE, &idc) || zk_reg_read(&g_dev, g_fl.base + ZK_FLASH_ICAP_STATUS, &st))
        die_fl();
    uint8_t sr, fsr;
    if (fl_status(&g_fl, &sr) || fl_flag_status(&g_fl, &fsr))
        die_fl();
    printf("jedec_id 0x%06x (%s)\nsize %u\nsector %u\npage %u\naddress_bytes %d\n", g_fl.jedec, fl_vendor(g_fl.jedec),
           g_fl.size, FL_SECTOR, FL_PAGE, g_fl.four_byte ? 4 : 3);
    printf("status 0x%02x\nflag_status 0x%02x\n", sr, fsr);
    printf("design_idcode 0x%08x (%s)\n", idc, bit_part_name(idc));
    uint32_t g = image_idcode(0), u = image_idcode(half);
    printf("golden_slot 0x%08x %s", 0u, g ? "bitstream" : "empty or not a bitstream");
    if (g)
        printf(" idcode 0x%08x (%s)", g, bit_part_name(g));
    printf("\nupdate_slot 0x%08x %s", half, u ? "bitstream" : "empty or not a bitstream");
    if (u)
        printf(" idcode 0x%08x (%s)", u, bit_part_name(u));
    printf("\nicap_status 0x%08x\n", st);
    return 0;
}

static int cmd_read(const char *path, uint32_t off, uint32_t len)
{
    if ((uint64_t)off + len > g_fl.size) {
        fprintf(stderr, "zk-flash: 0x%x + 0x%x is past the end of the flash (0x%x)\n", off, len, g_fl.size);
        return EXIT_USAGE;
    }
    uint8_t *b = malloc(len ? len : 1);
    if (!b)
        die("out of memory");
    double t0 = now_s();
    for (uint32_t done = 0; done < len;) {
        uint32_t n = len - done < 16 * FL_PAGE ? len - done : 16 * FL_PAGE;
        if (fl_read(&g_fl, off + done, b + done, n)) {
            free(b);
            die_fl();
        }
        done += n;
        progress("read", done, len, t0, done == len);
        if (zk_interrupted()) {
            fprintf(stderr, "\nzk-flash: interrupted: %s not written\n", path);
            free(b);
            return EXIT_INTR;
        }
    }
    FILE *fp = fopen(path, "wb");
    int bad = !fp || fwrite(b, 1, len, fp) != len;
    if (fp && fclose(fp))
        bad = 1;
    if (bad)
        fprintf(stderr, "%s: write: %s\n", path, strerror(errno));
    else
        printf("read %u bytes at 0x%08x crc32 %08x\n", len, off, crc32_update(0, b, len));
    free(b);
    return bad ? EXIT_DEV : 0;
}

static int interrupted_write(uint32_t slot, uint32_t upto, int golden)
{
    fprintf(stderr, "\nzk-flash: interrupted: the %s slot at 0x%08x is incomplete (written up to 0x%08x) and will not "
                    "configure; %s. Run the write again to complete it.\n",
            golden ? "golden" : "update", slot, upto,
            golden ? "THE GOLDEN IMAGE IS DAMAGED: the card needs JTAG if it is power-cycled now"
                   : "the golden image at 0x00000000 is untouched and the card still boots it");
    return EXIT_INTR;
}

static int cmd_write(const char *path, int force, const char *part, int golden)
{
    size_t n;
    uint8_t *img = read_file(path, &n);
    uint32_t half = g_fl.size / 2, slot = golden ? 0 : half;
    int rc = 0;
    uint32_t file_id = 0, want = 0;
    size_t sync_at;
    char why[200];
    const char *want_from = "";
    if (bit_idcode(img, n, &file_id, &sync_at, why, sizeof why)) {
        fprintf(stderr, "zk-flash: %s is not a bitstream: %s%s\n", path, why, force ? " (--force: writing anyway)" : "");
        if (!force) {
            free(img);
            return EXIT_USAGE;
        }
    } else {
        if (part) {
            if (bit_part_idcode(part, &want)) {
                fprintf(stderr, "zk-flash: unknown part %s (xcu55n, xcvu9p)\n", part);
                free(img);
                return EXIT_USAGE;
            }
            want_from = "--part";
        } else if ((want = image_idcode(0))) {
            want_from = "the golden image";
        } else if (!zk_reg_read(&g_dev, g_fl.base + ZK_FLASH_IDCODE, &want)) {
            want_from = "the design's IDCODE register";
        } else
            die_fl();
        if ((want ^ file_id) & 0x0fffffffu) {
            fprintf(stderr, "zk-flash: %s is a bitstream for IDCODE 0x%08x (%s), this card is 0x%08x (%s, from %s)%s\n",
                    path, file_id, bit_part_name(file_id), want, bit_part_name(want), want_from,
                    force ? " (--force: writing anyway)" : "");
            if (!force) {
                free(img);
                return EXIT_USAGE;
            }
        }
    }
    if (!n || n > half) {
        fprintf(stderr, "zk-flash: %s: %zu bytes do not fit the %s slot (%u bytes)\n", path, n, golden ? "golden" : "update",
                half);
        free(img);
        return EXIT_USAGE;
    }
    uint32_t crc = crc32_update(0, img, n);
    printf("image %s: %zu bytes crc32 %08x, idcode 0x%08x, to the %s slot at 0x%08x\n", path, n, crc, file_id,
           golden ? "golden" : "update", slot);
    fflush(stdout);
    /* erase: whole 64 KiB sectors, the tail in 4 KiB subsectors; only what the image covers */
    uint32_t end = slot + (uint32_t)n, full = slot + ((uint32_t)n & ~(FL_SECTOR - 1));
    uint32_t tail_end = (end + FL_SUBSECTOR - 1) & ~(FL_SUBSECTOR - 1);
    size_t erase_total = (size_t)(tail_end - slot), erased = 0;
    double t0 = now_s();
    for (uint32_t a = slot; a < tail_end;) {
        uint32_t unit = a < full ? FL_SECTOR : FL_SUBSECTOR;
        if (fl_erase(&g_fl, a, unit))
            die_fl();
        a += unit, erased += unit;
        progress("erase", erased, erase_total, t0, a >= tail_end);
        if (zk_interrupted()) {
            free(img);
            return interrupted_write(slot, slot, golden);
        }
    }
    double te = now_s() - t0;
    t0 = now_s();
    size_t skipped = 0;
    for (size_t off = 0; off < n; off += FL_PAGE) {
        size_t k = n - off < FL_PAGE ? n - off : FL_PAGE;
        int blank = 1;
        for (size_t i = 0; i < k && blank; i++)
            blank = img[off + i] == 0xff;
        if (blank)
            skipped++; /* erased already */
        else if (fl_program(&g_fl, slot + (uint32_t)off, img + off, k))
            die_fl();
        progress("program", off + k, n, t0, off + k == n);
        if (zk_interrupted()) {
            free(img);
            return interrupted_write(slot, slot + (uint32_t)(off + k), golden);
        }
    }
    double tp = now_s() - t0;
    /* verify: read back, compare, and the checksum of what was read */
    t0 = now_s();
    uint8_t *back = malloc(n);
    if (!back)
        die("out of memory");
    for (size_t off = 0; off < n;) {
        size_t k = n - off < 16 * FL_PAGE ? n - off : 16 * FL_PAGE;
        if (fl_read(&g_fl, slot + (uint32_t)off, back + off, k))
            die_fl();
        off += k;
        progress("verify", off, n, t0, off == n);
        if (zk_interrupted()) {
            free(img);
            free(back);
            fprintf(stderr, "\nzk-flash: interrupted during the verification: the image is written but not verified; "
                            "run `zk-flash read` and compare, or write again\n");
            return EXIT_INTR;
        }
    }
    double tv = now_s() - t0;
    uint32_t crc_back = crc32_update(0, back, n);
    size_t bad = 0, first = 0;
    for (size_t i = 0; i < n; i++)
        if (back[i] != img[i] && !bad++)
            first = i;
    printf("erase %zu bytes %.2f s, program %zu bytes (%zu blank pages skipped) %.2f s %.1f KiB/s, verify %.2f s %.1f KiB/s\n",
           erase_total, te, n, skipped, tp, n / 1024.0 / (tp > 1e-9 ? tp : 1e-9), tv, n / 1024.0 / (tv > 1e-9 ? tv : 1e-9));
    if (bad || crc_back != crc) {
        fprintf(stderr, "zk-flash: verify FAILED: %zu bytes differ, first at 0x%08zx (wrote 0x%02x, read 0x%02x); crc32 "
                        "file %08x flash %08x.  The %s slot is not valid; %s\n",
                bad, slot + first, img[first], back[first], crc, crc_back, golden ? "golden" : "update",
                golden ? "do not power-cycle the card" : "the golden image is untouched");
        rc = EXIT_VERIFY;
    } else
        printf("verified: crc32 %08x\n", crc_back);
    free(img);
    free(back);
    return rc;
}

static int write_sysfs(const char *path, int dry)
{
    printf("%s: echo 1 > %s\n", dry ? "would run" : "run", path);
    fflush(stdout);
    if (dry)
        return 0;
    int fd = open(path, O_WRONLY);
    if (fd < 0 || write(fd, "1\n", 2) != 2) {
        fprintf(stderr, "%s: write: %s\n", path, strerror(errno));
        if (fd >= 0)
            close(fd);
        return -1;
    }
    close(fd);
    return 0;
}

static void sleep_ms(unsigned ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

static int cmd_reload(tool_dev *t, uint32_t wbstar, int wbstar_given, const char *sysfs, const char *bdf,
                      unsigned settle_ms, int dry)
{
    if (!wbstar_given)
        wbstar = g_fl.size / 2;
    char user[300], devlink[PATH_MAX], devpath[PATH_MAX], path[PATH_MAX + 32];
    snprintf(user, sizeof user, "%s_user", g_dev.prefix);
    const char *base = strrchr(user, '/') ? strrchr(user, '/') + 1 : user;
    if (bdf)
        snprintf(devpath, sizeof devpath, "%s/bus/pci/devices/%s", sysfs, bdf);
    else {
        snprintf(devlink, sizeof devlink, "%s/class/xdma/%s/device", sysfs, base);
        if (!realpath(devlink, devpath)) {
            fprintf(stderr, "%s: cannot find the card's PCI device: %s (give --pci BDF)\n", devlink, strerror(errno));
            return EXIT_DEV;
        }
    }
    printf("%s: WBSTAR 0x%08x, arm, IPROG through ICAPE3\n", dry ? "would write" : "write", wbstar);
    fflush(stdout);
    if (!dry) {
        if (zk_reg_write(&g_dev, g_fl.base + ZK_FLASH_WBSTAR, wbstar) || zk_reg_write(&g_dev, g_fl.base + ZK_FLASH_ARM, ZK_FLASH_ARM_KEY) ||
            zk_reg_write(&g_dev, g_fl.base + ZK_FLASH_FIRE, ZK_FLASH_FIRE_KEY))
            die_fl();
    }
    zk_close(&g_dev); /* the FPGA is reconfiguring: the BAR is gone */
    snprintf(path, sizeof path, "%s/remove", devpath);
    if (write_sysfs(path, dry))
        return EXIT_DEV;
    if (!dry) { /* the device files go with the driver's device */
        for (int i = 0; i < 100 && access(user, F_OK) == 0; i++)
            sleep_ms(20);
        sleep_ms(settle_ms);
    } else
        printf("would wait %u ms for the FPGA to configure\n", settle_ms);
    snprintf(path, sizeof path, "%s/bus/pci/rescan", sysfs);
    if (write_sysfs(path, dry))
        return EXIT_DEV;
    if (dry) {
        printf("would wait up to %u ms for %s\n", t->timeout_ms, user);
        return 0;
    }
    double t0 = now_s();
    for (;;) { /* the files are back and the system block answers */
        if (access(user, F_OK) == 0 && zk_open(&g_dev, t->prefix, ZK_USER) == 0) {
            uint32_t id = 0;
            int ok = zk_reg_read(&g_dev, ZK_SYS_ID, &id) == 0 && id == ZK_SYS_MAGIC;
            zk_close(&g_dev);
            if (ok) {
                printf("reloaded: %s is back after %.2f s\n", user, now_s() - t0);
                return 0;
            }
        }
        if (now_s() - t0 > t->timeout_ms / 1e3) {
            fprintf(stderr, "%s: the card did not come back within %u ms: %s\n", user, t->timeout_ms, strerror(ETIMEDOUT));
            return EXIT_DEV;
        }
        if (zk_interrupted())
            return EXIT_INTR;
        sleep_ms(50);
    }
}

int main(int argc, char **argv)
{
    tool_dev t;
    tool_dev_init(&t);
    uint32_t base = FL_BASE_DEFAULT, off = UINT32_MAX, len = UINT32_MAX, wbstar = 0;
    unsigned sclk_half = 2, settle_ms = 3000;
    int force = 0, golden = 0, dry = 0, wbstar_given = 0;
    const char *part = NULL, *sysfs = "/sys", *bdf = NULL;
    static const struct option lo[] = {
        TOOL_DEV_LONGOPTS, {"base", required_argument, NULL, 'b'}, {"sclk-half", required_argument, NULL, 's'},
        {"offset", required_argument, NULL, 'o'}, {"length", required_argument, NULL, 'n'},
        {"force", no_argument, NULL, 'f'}, {"part", required_argument, NULL, 'p'}, {"golden", no_argument, NULL, 'g'},
        {"wbstar", required_argument, NULL, 'w'}, {"sysfs", required_argument, NULL, 'S'},
        {"pci", required_argument, NULL, 'P'}, {"settle-ms", required_argument, NULL, 'W'},
        {"dry-run", no_argument, NULL, 'D'}, {"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}};
    int o;
    while ((o = getopt_long(argc, argv, TOOL_DEV_OPTS "b:s:o:n:fp:gw:S:P:W:Dh", lo, NULL)) != -1) {
        if (tool_dev_opt(&t, o, optarg))
            continue;
        switch (o) {
        case 'b': base = (uint32_t)parse_u64("base", optarg, ZK_USER_MAP_BYTES - 0x10000); break;
        case 's': sclk_half = (unsigned)parse_u64("sclk half period", optarg, 255); break;
        case 'o': off = (uint32_t)parse_u64("offset", optarg, UINT32_MAX - 1); break;
        case 'n': len = (uint32_t)parse_u64("length", optarg, UINT32_MAX - 1); break;
        case 'f': force = 1; break;
        case 'p': part = optarg; break;
        case 'g': golden = 1; break;
        case 'w': wbstar = (uint32_t)parse_u64("wbstar", optarg, UINT32_MAX), wbstar_given = 1; break;
        case 'S': sysfs = optarg; break;
        case 'P': bdf = optarg; break;
        case 'W': settle_ms = (unsigned)parse_u64("settle time", optarg, 600000); break;
        case 'D': dry = 1; break;
        case 'h': usage(stdout); return 0;
        default: usage(stderr); return EXIT_USAGE;
        }
    }
    if (optind >= argc) {
        usage(stderr);
        return EXIT_USAGE;
    }
    const char *cmd = argv[optind];
    int args = argc - optind - 1;
    int want_args = !strcmp(cmd, "read") || !strcmp(cmd, "write") ? 1 : 0;
    if ((strcmp(cmd, "info") && strcmp(cmd, "read") && strcmp(cmd, "write") && strcmp(cmd, "reload")) ||
        args != want_args) {
        usage(stderr);
        return EXIT_USAGE;
    }
    if (tool_open(&g_dev, &t, ZK_USER))
        return EXIT_DEV;
    zk_install_signals();
    if (fl_open(&g_fl, &g_dev, base, sclk_half, t.timeout_ms))
        die_fl();
    int rc;
    if (!strcmp(cmd, "info"))
        rc = cmd_info();
    else if (!strcmp(cmd, "read")) {
        if (off == UINT32_MAX)
            off = g_fl.size / 2;
        if (len == UINT32_MAX)
            len = g_fl.size - off > g_fl.size / 2 ? g_fl.size / 2 : g_fl.size - off;
        rc = cmd_read(argv[optind + 1], off, len);
    } else if (!strcmp(cmd, "write"))
        rc = cmd_write(argv[optind + 1], force, part, golden);
    else
        rc = cmd_reload(&t, wbstar, wbstar_given, sysfs, bdf, settle_ms, dry);
    zk_close(&g_dev); /* idempotent: reload closed it already */
    return rc;
}
