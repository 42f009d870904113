#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make demo: boot the VM, run tools/ppu-demo and narrate what happens.
#
# The narration streams as the guest prints it (the serial console through
# run-vm.sh, kernel lines left out). Every failure ends with a line
# "make demo: FAILED: <why>": the build that failed, the step of the
# guest that failed, or run-vm.sh's own reason (a kernel splat, no end
# marker, modules that did not load), and the serial log to read.
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=$ROOT/build
LOG=$OUT/demo-serial.log
mkdir -p "$OUT"
start=$(date +%s)

failed() {
	echo "make demo: FAILED after $(( $(date +%s) - start ))s: $*"
	exit 1
}

echo "make demo: building the modules and the tools..."
if ! out=$(make -s -C "$ROOT" modules 2>&1); then
	echo "$out" | tail -n 20
	failed "the module build failed (make modules, above)"
fi
if ! out=$(make -s -C "$ROOT/tools" 2>&1); then
	echo "$out" | tail -n 20
	failed "the tools build failed (make -C tools, above)"
fi

payload=$(mktemp)
vmerr=$(mktemp)
trap 'rm -f "$payload" "$vmerr"' EXIT
cat >"$payload" <<'PAYLOAD'
#!/bin/sh
echo "PPU-DEMO: BEGIN"
rc=0
/extra/ppu-demo
r=$?
[ $r = 0 ] || { echo "PPU-DEMO: FAILED ppu-demo (sections 1-7) exited with $r"; rc=1; }
echo
echo "== What the kernel logged"
dmesg | grep -E "ppu|drm" | grep -vE "Initialized|loading out-of-tree|verification|ECC store|flash holds|ECC load flow: 0" | sed 's/^/    /'
sh /extra/demo-ecc.sh
r=$?
[ $r = 0 ] || { echo "PPU-DEMO: FAILED demo-ecc.sh (sections 8-12) exited with $r"; rc=1; }
echo "PPU-DEMO: END rc=$rc"
exit $rc
PAYLOAD

echo "make demo: booting the PPU VM (QEMU, software emulation)..."
# user_hold_ms=0: the demo plays every client as root, one user; held
# after its third hang, its later worker processes would wait seconds.
# run-vm.sh tees the serial console: the narration is printed as it
# comes, between the payload's markers, without kernel lines and CRs.
PPU_IGT_BINS=" " \
	PPU_EXTRA_FILES="$ROOT/tools/ppu-demo $ROOT/tools/ppu-smi $ROOT/scripts/demo-ecc.sh" \
	PPU_PARAMS="gfx_timeout_ms=1000 compute_timeout_ms=1000 sdma_timeout_ms=1000 user_hold_ms=0" \
	"$ROOT/scripts/vm/run-vm.sh" "$payload" "$LOG" 2>"$vmerr" |
	awk '{ sub(/\r$/, "") }
	     /^PPU-DEMO: BEGIN/ { on = 1; next }
	     /^PPU-DEMO: END/ { on = 0; next }
	     /^PPU-DEMO: FAILED / { print "make demo: step failed: " substr($0, 18); fflush(); next }
	     on && !/^\[ *[0-9.]*\] / { print; fflush() }'
rc=${PIPESTATUS[0]}
if [ "$rc" -ne 0 ]; then
	# why, in order: what the guest said failed, then run-vm.sh's reasons
	grep -h '^PPU-DEMO: FAILED ' "$LOG" 2>/dev/null | sed 's/^PPU-DEMO: FAILED /make demo:   /'
	grep -h 'FAIL\|failed' "$vmerr" | sed 's/^/make demo:   /'
	case $rc in
	1) why="a step of the demo failed in the guest (above)" ;;
	2) why="a kernel splat (BUG, WARNING, lockdep, ...) in the serial log" ;;
	3) why="the guest did not finish (panic, hang or the QEMU timeout)" ;;
	4) why="the modules failed to load in the guest" ;;
	5) why="the modules did not unload at the end" ;;
	*) why="run-vm.sh failed with $rc: $(tail -n 1 "$vmerr")" ;;
	esac
	failed "$why; serial log: $LOG"
fi
echo "make demo: done in $(( $(date +%s) - start ))s (serial log: $LOG)"
