#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Boot the guest kernel in QEMU (TCG) with a busybox initramfs that loads
# the PPU modules and runs a payload script, then check the serial log.
# PPU_VM_KERNEL=prod (default): Debian's kernel image of PPU_KSERIES (6.1
# or 6.12); debug: the lockdep + KASAN + kmemleak kernel of
# build-debug-kernel.sh (6.1, or 7.2 with PPU_DEBUG_KSERIES=7.2; several
# times slower; built on first use, 8-15 min on 2 cores for 6.1).
#
#   scripts/vm/run-vm.sh <payload-script> [logfile]
#
# Exit status: the payload's exit status if the VM itself was fine;
#   0   payload exit 0, no kernel splat, end marker present
#   1   payload failed (nonzero exit)
#   2   kernel splat in the log (BUG/WARNING/Oops/Call Trace/lockdep/...)
#   3   end marker missing (guest panicked, hung, or QEMU timed out)
#   4   our modules failed to load
#   5   our modules failed to unload after the payload
#   6   kmemleak reported a leak in our modules (kmemleak-check.py), or
#       did not run on the debug kernel
# Environment (besides what mkinitramfs.sh reads):
#   PPU_VM_KERNEL   prod (default) or debug
#   PPU_DEBUG_KSERIES  the debug kernel's source: 6.1 (default), 7.2 or
#                   newest (build-debug-kernel.sh)
#   PPU_VM_TIMEOUT  seconds before QEMU is killed (default 900, debug 2700)
#   PPU_VM_MEM      guest memory in MB (default 1024)
#   PPU_VM_SMP      guest CPUs (default 2)
#   PPU_VM_APPEND   extra kernel command line
#   PPU_VM_QUIET=1  do not echo the serial log to stdout while running
#   PPU_GUEST_ENV="PPU_UNLOAD=0"  keep our modules loaded at the end
set -uo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

[ $# -ge 1 ] && [ $# -le 2 ] || { echo "usage: $0 <payload-script> [logfile]" >&2; exit 2; }
PAYLOAD=$1
LOG=${2:-${TMPDIR:-/tmp}/ppu-vm-$(date +%Y%m%d-%H%M%S)-$$.log}
export PPU_VM_KERNEL=${PPU_VM_KERNEL:-prod}
case $PPU_VM_KERNEL in
prod) TIMEOUT=${PPU_VM_TIMEOUT:-900} ;;
debug) TIMEOUT=${PPU_VM_TIMEOUT:-2700} ;;
*) echo "run-vm: PPU_VM_KERNEL=$PPU_VM_KERNEL: prod or debug" >&2; exit 2 ;;
esac

WORK=$(mktemp -d "${TMPDIR:-/tmp}/ppu-vm.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

KDIR=$("$HERE/fetch-kernel.sh") || { echo "run-vm: fetch-kernel failed" >&2; exit 3; }
"$HERE/mkinitramfs.sh" "$PAYLOAD" "$WORK/initrd.gz" || { echo "run-vm: mkinitramfs failed" >&2; exit 3; }

mkdir -p "$(dirname "$LOG")"
echo "run-vm: booting the $PPU_VM_KERNEL kernel (timeout ${TIMEOUT}s), serial log $LOG" >&2
start=$(date +%s)
QEMU=(qemu-system-x86_64 -accel tcg -m "${PPU_VM_MEM:-1024}" -smp "${PPU_VM_SMP:-2}"
      -nographic -no-reboot -nic none -vga none -monitor none -serial stdio
      -kernel "$KDIR/vmlinuz" -initrd "$WORK/initrd.gz"
      -append "console=ttyS0 panic=-1 quiet ${PPU_VM_APPEND:-}")
# -nographic would put the monitor on stdio too; -serial stdio + -monitor none
# keeps stdio for the guest's console only. </dev/null: never read our tty.
if [ "${PPU_VM_QUIET:-0}" = 1 ]; then
	timeout -k 10 "$TIMEOUT" "${QEMU[@]}" </dev/null >"$LOG" 2>&1
	qrc=$?
else
	timeout -k 10 "$TIMEOUT" "${QEMU[@]}" </dev/null 2>&1 | tee "$LOG"
	qrc=${PIPESTATUS[0]}
fi
# the serial console uses CRLF
sed -i 's/\r$//' "$LOG"
echo "run-vm: qemu exit $qrc after $(( $(date +%s) - start ))s" >&2

rc=0
splat='\bBUG:|\bWARNING:|Oops|Call Trace|lockdep|INFO: possible|INFO: task .* blocked|rcu: INFO|Kernel panic|general protection fault|kernel BUG|UBSAN:|KASAN:|list_add corruption|list_del corruption|enqueued on deprecated workqueue|Tearing down scheduler while jobs are pending'
# kernel lines only (printk timestamps; the dmesg dump at the end repeats
# every kernel line whole), so test output such as "DEBUG:" cannot match
if grep -aE '^\[ *[0-9]+\.[0-9]+\] ' "$LOG" | grep -aE "$splat" >"$WORK/splats"; then
	echo "run-vm: FAIL: kernel splat in the serial log:" >&2
	sed 's/^/run-vm:   /' "$WORK/splats" | sort -u | head -n 20 >&2
	rc=2
fi
if [ $qrc = 124 ] || [ $qrc = 137 ]; then
	echo "run-vm: FAIL: QEMU timed out after ${TIMEOUT}s" >&2
fi
if ! grep -qx 'PPU-VM: END' "$LOG"; then
	echo "run-vm: FAIL: end marker missing (guest panic, hang or timeout)" >&2
	[ $rc = 0 ] && rc=3
fi
if grep -qx 'PPU-VM: MODULES FAILED' "$LOG"; then
	echo "run-vm: FAIL: modules failed to load:" >&2
	grep 'PPU-VM: INSMOD .* FAILED' "$LOG" | sed 's/^/run-vm:   /' >&2
	[ $rc = 0 ] && rc=4
fi
if grep -qx 'PPU-VM: RMMOD FAILED' "$LOG"; then
	echo "run-vm: FAIL: our modules did not unload" >&2
	[ $rc = 0 ] && rc=5
fi
# kmemleak (debug kernel; guest-init.sh scans before and after unloading)
if grep -q '^PPU-VM: KMEMLEAK-BEGIN ' "$LOG"; then
	if ! python3 "$HERE/kmemleak-check.py" "$LOG" > "$WORK/kmemleak" 2>&1; then
		echo "run-vm: FAIL: kmemleak reports a leak in our modules:" >&2
		[ $rc = 0 ] && rc=6
	fi
	sed 's/^/run-vm: /' "$WORK/kmemleak" >&2
elif [ "$PPU_VM_KERNEL" = debug ] && [ "${PPU_KMEMLEAK:-1}" = 1 ] &&
	grep -qx 'PPU-VM: END' "$LOG"; then
	echo "run-vm: FAIL: kmemleak did not run on the debug kernel" >&2
	grep 'PPU-VM: KMEMLEAK' "$LOG" | sed 's/^/run-vm:   /' >&2
	[ $rc = 0 ] && rc=6
fi
prc=$(sed -n 's/^PPU-VM: PAYLOAD-EXIT rc=\([0-9]*\)$/\1/p' "$LOG" | tail -n1)
if [ -n "$prc" ] && [ "$prc" != 0 ]; then
	echo "run-vm: FAIL: payload exit status $prc" >&2
	[ $rc = 0 ] && rc=1
fi
[ $rc = 0 ] && echo "run-vm: OK (payload exit 0, no kernel splat)" >&2
exit $rc
