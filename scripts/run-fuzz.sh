#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build the modules and tools/ppu-fuzz, boot the VM once running the fuzzer
# for a time budget (scripts/vm/fuzz-payload.sh), and report in the style
# of scripts/run-igt.sh:
#   fuzz: ppu-fuzz seed=<S>: PASS|FAIL   the tool passed: no kernel splat
#                                         seen, no hang, no crash, and the
#                                         device ran a job on every ring
#                                         at the end
#   fuzz: kernel-log: PASS|FAIL          no splat in the serial log
#   fuzz: vm: PASS|FAIL                  the guest ended, our modules
#                                         unloaded (debug kernel: and
#                                         kmemleak found no leak in them)
#   fuzz: N passed, N failed
# A failure also prints "fuzz: reproduce: make fuzz SEED=..." and the
# exit status is nonzero.
#
# Environment:
#   PPU_FUZZ_SECONDS  fuzzing budget in seconds (default 60)
#   PPU_FUZZ_SEED     seed (default: a random one, printed)
#   PPU_FUZZ_THREADS  worker threads (default 4)
#   PPU_FUZZ_ARGS     more ppu-fuzz options (see ppu-fuzz --help), e.g.
#                     "--disable ctx-destroy,vram-export --keep-going"
#   PPU_FUZZ_VGEM=0   do not load vgem in the guest even if it is there
#   PPU_FUZZ_DEVICES  simulated cards (ppu_sim.ko devices=N, default 2):
#                     ppu-fuzz opens the nodes of every one, and checks
#                     that each still runs a job on every ring at the end
#   PPU_VM_KERNEL     prod (default): Debian's 6.1 kernel; debug: the
#                     lockdep + KASAN + kmemleak guest kernel (run-vm.sh)
#   PPU_FUZZ_LOG      serial log (default: PPU_IGT_LOG if set, else
#                     build/fuzz/serial.log)
#   PPU_PARAMS        ppu.ko parameters (default: short job timeouts, no
#                     per-process bans)
#   PPU_SKIP_BUILD=1  use the modules and the tool as built
#   plus what scripts/vm/run-vm.sh and mkinitramfs.sh read; PPU_VM_TIMEOUT
#   defaults to the budget plus 420 s (debug kernel: plus 1500 s)
set -uo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
LOG=${PPU_FUZZ_LOG:-${PPU_IGT_LOG:-$ROOT/build/fuzz/serial.log}}
SECS=${PPU_FUZZ_SECONDS:-60}
THREADS=${PPU_FUZZ_THREADS:-4}
DEVS=${PPU_FUZZ_DEVICES:-2}
SEED=${PPU_FUZZ_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
# No per-process bans: the fuzzer is one process that hangs the device on
# purpose, run after run; banned, it would fuzz little else than -ECANCELED
# (its per-file bans stay: it rotates its files)
export PPU_PARAMS=${PPU_PARAMS:-gfx_timeout_ms=1000 compute_timeout_ms=1000 sdma_timeout_ms=500 max_guilty_per_process=0 max_suspects_per_process=0 user_hold_ms=0}
export PPU_VM_KERNEL=${PPU_VM_KERNEL:-prod}
# The guest gives up on ppu-fuzz after the budget + 300 s (its own
# watchdog, 120 s, and final check, at most 122 s, come first); then boot,
# unload, and on the debug kernel the kmemleak scans. A guest whose CPUs
# are all stuck in the kernel ends only by this timeout.
GUEST_T=$((SECS + 300))
if [ "$PPU_VM_KERNEL" = debug ]; then
	export PPU_VM_TIMEOUT=${PPU_VM_TIMEOUT:-$((SECS + 1500))}
else
	export PPU_VM_TIMEOUT=${PPU_VM_TIMEOUT:-$((SECS + 420))}
fi

case $SECS$THREADS$DEVS in
*[!0-9]*) echo "fuzz: PPU_FUZZ_SECONDS, PPU_FUZZ_THREADS and PPU_FUZZ_DEVICES must be numbers"; exit 1 ;;
esac
export PPU_SIM_PARAMS="${PPU_SIM_PARAMS:-} devices=$DEVS"

if [ "${PPU_SKIP_BUILD:-0}" != 1 ]; then
	# (for the debug kernel, mkinitramfs.sh builds the modules against it)
	if [ "$PPU_VM_KERNEL" = prod ]; then
		make -C "$ROOT" modules -j2 || { echo "fuzz: module build failed"; exit 1; }
	fi
	make -C "$ROOT/tools" ppu-fuzz || { echo "fuzz: ppu-fuzz build failed"; exit 1; }
fi
[ -x "$ROOT/tools/ppu-fuzz" ] || { echo "fuzz: $ROOT/tools/ppu-fuzz not built"; exit 1; }

WORK=$(mktemp -d "${TMPDIR:-/tmp}/ppu-fuzz.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
# the guest reads its options one per line (values without spaces)
{
	printf '%s\n' --seed "$SEED" --seconds "$SECS" --threads "$THREADS"
	# word splitting of PPU_FUZZ_ARGS is intended
	# shellcheck disable=SC2086
	[ -n "${PPU_FUZZ_ARGS:-}" ] && printf '%s\n' ${PPU_FUZZ_ARGS}
} > "$WORK/ppu-fuzz.args"

repro="make fuzz SEED=$SEED SECONDS=$SECS THREADS=$THREADS"
[ -n "${PPU_FUZZ_ARGS:-}" ] && repro="PPU_FUZZ_ARGS='$PPU_FUZZ_ARGS' $repro"
[ "$PPU_VM_KERNEL" != prod ] && repro="PPU_VM_KERNEL=$PPU_VM_KERNEL $repro"
[ "$DEVS" != 2 ] && repro="PPU_FUZZ_DEVICES=$DEVS $repro"
echo "fuzz: seed $SEED, $SECS s, $THREADS threads, $DEVS cards (reproduce: $repro)"

mkdir -p "$(dirname "$LOG")"
start=$(date +%s)
PPU_EXTRA_FILES="${PPU_EXTRA_FILES:-} $ROOT/tools/ppu-fuzz $WORK/ppu-fuzz.args" \
PPU_IGT_BINS=none \
PPU_GUEST_ENV="${PPU_GUEST_ENV:-} PPU_FUZZ_TIMEOUT=$GUEST_T PPU_FUZZ_VGEM=${PPU_FUZZ_VGEM:-1}" \
	"$HERE/vm/run-vm.sh" "$HERE/vm/fuzz-payload.sh" "$LOG"
vmrc=$?
took=$(( $(date +%s) - start ))

pass=0 fail=0
result() { # name PASS|FAIL [why]
	if [ "$2" = PASS ]; then
		pass=$((pass + 1))
		echo "fuzz: $1: PASS"
	else
		fail=$((fail + 1))
		echo "fuzz: $1: FAIL${3:+ ($3)}"
	fi
}

# the tool: its exit status and its own verdict line
rc=$(sed -n 's/^PPU-FUZZ: END rc=\([0-9]*\)$/\1/p' "$LOG" | tail -n1)
verdict=$(grep -a '^ppu-fuzz: \(PASSED\|FAILED\) seed=' "$LOG" | tail -n1)
case ${rc:-none} in
0) result "ppu-fuzz seed=$SEED" PASS ;;
none) result "ppu-fuzz seed=$SEED" FAIL "no result: the guest died or hung${verdict:+; $verdict}" ;;
3) result "ppu-fuzz seed=$SEED" FAIL "watchdog: an ioctl or job hung" ;;
4) result "ppu-fuzz seed=$SEED" FAIL "the tool crashed" ;;
124) result "ppu-fuzz seed=$SEED" FAIL "no end after $GUEST_T s" ;;
*) result "ppu-fuzz seed=$SEED" FAIL "exit $rc${verdict:+: ${verdict#ppu-fuzz: }}" ;;
esac

# run-vm.sh reports a splat first (status 2), before any other problem
if [ $vmrc = 2 ]; then
	first=$(grep -aE '^\[ *[0-9]+\.[0-9]+\] ' "$LOG" |
		grep -aEm1 '\bBUG:|\bWARNING:|Oops|Call Trace|lockdep|INFO: |Kernel panic|general protection|UBSAN:|KASAN:|corruption|kmemleak' |
		sed 's/^\[ *[0-9.]*\] //')
	result kernel-log FAIL "${first:-see $LOG}"
else
	result kernel-log PASS
fi

if ! grep -qx 'PPU-VM: END' "$LOG"; then
	result vm FAIL "no end marker: guest panic, hang or QEMU timeout"
elif grep -qx 'PPU-VM: MODULES FAILED' "$LOG"; then
	result vm FAIL "modules failed to load"
elif grep -qx 'PPU-VM: RMMOD FAILED' "$LOG"; then
	result vm FAIL "our modules did not unload after the fuzzing"
elif [ $vmrc = 6 ]; then
	result vm FAIL "kmemleak: a leak in our modules, or no scan"
else
	result vm PASS
fi

[ $fail -gt 0 ] && echo "fuzz: reproduce: $repro (serial log $LOG)"
echo "fuzz: VM run took ${took}s"
echo "fuzz: $pass passed, $fail failed"
[ $fail = 0 ] && exit 0
exit 1
