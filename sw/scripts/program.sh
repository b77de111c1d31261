#!/usr/bin/env bash
# Programs a zkspinal bitstream into a card behind PCIe and brings the XDMA driver up on it.
#
#   program.sh [options] BITSTREAM.bit            JTAG through the Vivado hardware manager (volatile)
#   program.sh [options] --flash IMAGE.mcs        the configuration flash (takes effect at the next power cycle
#                                                  or after --boot-from-flash; needs --flash-part)
# Steps: (1) unbind and remove the card's PCIe function(s) so the host does not see the link drop,
# (2) program, (3) rescan the PCIe bus, (4) load the xdma driver (modprobe, or insmod --driver PATH) with
# poll_mode if asked, (5) wait for /dev/xdmaN_user and read the system block's ID with zk-status when available.
# --dry-run prints every step (the commands, and the hardware-manager Tcl) without running any.
set -euo pipefail
# where the kernel's files are (tests point these at a scratch tree)
SYSFS=${ZK_SYSFS:-/sys}
DEVDIR=${ZK_DEVDIR:-/dev}
MODULES=${ZK_PROC_MODULES:-/proc/modules}

usage() {
    cat <<'USAGE'
usage: program.sh [--dry-run] [--board c1100|vu9p] [--bdf DDDD:BB:DD.F] [--vendor 10ee] [--hw-server HOST:PORT]
                  [--vivado PATH] [--flash IMAGE.mcs --flash-part PART] [--driver xdma.ko] [--poll-mode]
                  [--card N] [--timeout S] [BITSTREAM.bit]
  --board       the card (selects the FPGA in the JTAG chain): c1100 (xcu55n), vu9p (xcvu9p); default c1100
  --bdf         the card's PCIe address; default: the first function of vendor --vendor found by lspci
  --hw-server   a remote hw_server (default: a local one, started by Vivado)
  --flash       write IMAGE.mcs to the configuration flash instead of programming the FPGA over JTAG
  --flash-part  the flash device as Vivado names it (see the card's documentation; not guessed here)
  --driver      insmod this xdma.ko instead of modprobe xdma
  --poll-mode   load the driver with poll_mode=1 (seed 002: faster when CPU is free; interrupts win under load)
  --card N      the xdma instance to wait for (/dev/xdmaN_user), default 0
  --dry-run     print the steps, change nothing
USAGE
}

DRY=0 BOARD=c1100 BDF="" VENDOR=10ee HW_SERVER="" VIVADO=vivado FLASH="" FLASH_PART="" DRIVER="" POLL=0 CARD=0
TIMEOUT=20 BIT=""
while [ $# -gt 0 ]; do
    case "$1" in
        --dry-run) DRY=1 ;;
        --board) BOARD=${2:?--board needs a value}; shift ;;
        --bdf) BDF=${2:?--bdf needs a value}; shift ;;
        --vendor) VENDOR=${2:?--vendor needs a value}; shift ;;
        --hw-server) HW_SERVER=${2:?--hw-server needs a value}; shift ;;
        --vivado) VIVADO=${2:?--vivado needs a value}; shift ;;
        --flash) FLASH=${2:?--flash needs a value}; shift ;;
        --flash-part) FLASH_PART=${2:?--flash-part needs a value}; shift ;;
        --driver) DRIVER=${2:?--driver needs a value}; shift ;;
        --poll-mode) POLL=1 ;;
        --card) CARD=${2:?--card needs a value}; shift ;;
        --timeout) TIMEOUT=${2:?--timeout needs a value}; shift ;;
        -h|--help) usage; exit 0 ;;
        -*) echo "program.sh: unknown option $1" >&2; usage >&2; exit 2 ;;
        *) [ -z "$BIT" ] || { echo "program.sh: one bitstream only" >&2; exit 2; }; BIT=$1 ;;
    esac
    shift
done

case "$BOARD" in
    c1100) DEVICE=xcu55n ;;
    vu9p) DEVICE=xcvu9p ;;
    *) echo "program.sh: --board c1100 or vu9p (got $BOARD)" >&2; exit 2 ;;
esac
if [ -n "$FLASH" ]; then
    [ -z "$BIT" ] || { echo "program.sh: give a bitstream or --flash, not both" >&2; exit 2; }
    [ -n "$FLASH_PART" ] || { echo "program.sh: --flash needs --flash-part (the card's flash device)" >&2; exit 2; }
    IMAGE=$FLASH
else
    [ -n "$BIT" ] || { echo "program.sh: no bitstream given" >&2; usage >&2; exit 2; }
    IMAGE=$BIT
fi
case "$CARD" in ''|*[!0-9]*) echo "program.sh: --card N" >&2; exit 2 ;; esac
case "$TIMEOUT" in ''|*[!0-9]*) echo "program.sh: --timeout S" >&2; exit 2 ;; esac
if [ "$DRY" = 0 ] && [ ! -r "$IMAGE" ]; then
    echo "program.sh: $IMAGE: cannot read" >&2
    exit 1
fi

step() { echo "== $*"; }
# run: print the command; execute it unless --dry-run
run() {
    printf '+'
    printf ' %q' "$@"
    printf '\n'
    [ "$DRY" = 1 ] || "$@"
}
# write VALUE to a sysfs FILE (as root)
sysfs_write() {
    echo "+ echo $1 > $2"
    [ "$DRY" = 1 ] || echo "$1" > "$2"
}

# ---- 1. find the card and remove it from the bus
if [ -z "$BDF" ]; then
    if command -v lspci >/dev/null 2>&1; then
        BDF=$(lspci -D -d "${VENDOR}:" 2>/dev/null | awk 'NR == 1 { print $1 }')
    fi
fi
step "1. remove the card's PCIe function from the bus"
if [ -n "$BDF" ]; then
    echo "   card at $BDF"
    if [ "$DRY" = 1 ] || [ -e "$SYSFS/bus/pci/devices/$BDF" ]; then
        sysfs_write 1 "$SYSFS/bus/pci/devices/$BDF/remove"
    fi
else
    echo "   no PCIe function of vendor $VENDOR found (first programming, or the card is not enumerated): skipped"
fi
if [ "$DRY" = 1 ] || grep -q '^xdma ' "$MODULES" 2>/dev/null; then
    run rmmod xdma
fi

# ---- 2. program over JTAG, or write the flash
TCL=$(mktemp "${TMPDIR:-/tmp}/zk-program.XXXXXX.tcl")
trap 'rm -f "$TCL"' EXIT
{
    echo "open_hw_manager"
    if [ -n "$HW_SERVER" ]; then echo "connect_hw_server -url $HW_SERVER"; else echo "connect_hw_server"; fi
    echo "open_hw_target"
    echo "set dev [lindex [get_hw_devices ${DEVICE}*] 0]"
    echo "if {\$dev eq \"\"} { error \"no $DEVICE device in the JTAG chain: [get_hw_devices]\" }"
    echo "current_hw_device \$dev"
    echo "refresh_hw_device -update_hw_probes false \$dev"
    if [ -n "$FLASH" ]; then
        echo "create_hw_cfgmem -hw_device \$dev [lindex [get_cfgmem_parts {$FLASH_PART}] 0]"
        echo "set mem [get_property PROGRAM.HW_CFGMEM \$dev]"
        echo "set_property PROGRAM.FILES [list {$FLASH}] \$mem"
        echo "set_property PROGRAM.ADDRESS_RANGE {use_file} \$mem"
        echo "set_property PROGRAM.ERASE 1 \$mem"
        echo "set_property PROGRAM.BLANK_CHECK 0 \$mem"
        echo "set_property PROGRAM.CFG_PROGRAM 1 \$mem"
        echo "set_property PROGRAM.VERIFY 1 \$mem"
        echo "create_hw_bitstream -hw_device \$dev [get_property PROGRAM.HW_CFGMEM_BITFILE \$dev]"
        echo "program_hw_devices \$dev"
        echo "program_hw_cfgmem -hw_cfgmem \$mem"
        echo "boot_hw_device \$dev"
    else
        echo "set_property PROGRAM.FILE {$BIT} \$dev"
        echo "program_hw_devices \$dev"
    fi
    echo "close_hw_target"
    echo "close_hw_manager"
} > "$TCL"
step "2. $( [ -n "$FLASH" ] && echo "write $FLASH to the configuration flash ($FLASH_PART) and boot from it" || echo "program $BIT over JTAG" )"
sed 's/^/   | /' "$TCL"
run "$VIVADO" -mode batch -nojournal -nolog -source "$TCL"

# ---- 3. rescan
step "3. rescan the PCIe bus"
sysfs_write 1 "$SYSFS/bus/pci/rescan"

# ---- 4. the driver
step "4. load the xdma driver$( [ "$POLL" = 1 ] && echo ' (poll_mode=1)' )"
PARAMS=()
[ "$POLL" = 1 ] && PARAMS+=(poll_mode=1)
if [ -n "$DRIVER" ]; then
    run insmod "$DRIVER" "${PARAMS[@]}"
else
    run modprobe xdma "${PARAMS[@]}"
fi

# ---- 5. check
step "5. wait for $DEVDIR/xdma${CARD}_user and read the system block ID (0x7a6b5359)"
if [ "$DRY" = 1 ]; then
    echo "+ wait up to ${TIMEOUT} s for $DEVDIR/xdma${CARD}_user"
    echo "+ zk-status -d $DEVDIR/xdma${CARD} -k none"
    exit 0
fi
for _ in $(seq "$TIMEOUT"); do
    [ -e "$DEVDIR/xdma${CARD}_user" ] && break
    sleep 1
done
if [ ! -e "$DEVDIR/xdma${CARD}_user" ]; then
    echo "program.sh: $DEVDIR/xdma${CARD}_user did not appear within ${TIMEOUT} s (see dmesg)" >&2
    exit 1
fi
HERE=$(cd "$(dirname "$0")" && pwd)
STATUS="${ZK_STATUS:-$HERE/../build/zk-status}"   # ZK_STATUS: another zk-status (tests: a stand-in)
if [ -x "$STATUS" ]; then
    run "$STATUS" -d "$DEVDIR/xdma${CARD}" -k none
else
    echo "   (build sw/ with make -C sw to check the card with zk-status)"
fi
echo "program.sh: card ready at $DEVDIR/xdma${CARD}"
