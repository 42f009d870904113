#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make demo: boot the VM, run tools/ppu-demo and narrate what happened.
set -eo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=$ROOT/build
mkdir -p "$OUT"

make -s -C "$ROOT" modules >/dev/null
make -s -C "$ROOT/tools" >/dev/null

payload=$(mktemp)
cat >"$payload" <<'PAYLOAD'
#!/bin/sh
echo "PPU-DEMO: BEGIN"
/extra/ppu-demo
rc=$?
echo
echo "== What the kernel logged"
dmesg | grep -E "ppu|drm" | grep -vE "Initialized|loading out-of-tree|verification|ECC store|flash holds|ECC load flow: 0" | sed 's/^/    /'
sh /extra/demo-ecc.sh || rc=1
echo "PPU-DEMO: END rc=$rc"
exit $rc
PAYLOAD

echo "make demo: booting the PPU VM (QEMU, software emulation)..."
rc=0
# user_hold_ms=0: the demo plays every client as root, one user; held
# after its third hang, its later worker processes would wait seconds
PPU_VM_QUIET=1 PPU_IGT_BINS=" " \
	PPU_EXTRA_FILES="$ROOT/tools/ppu-demo $ROOT/tools/ppu-smi $ROOT/scripts/demo-ecc.sh" \
	PPU_PARAMS="gfx_timeout_ms=1000 compute_timeout_ms=1000 sdma_timeout_ms=1000 user_hold_ms=0" \
	"$ROOT/scripts/vm/run-vm.sh" "$payload" "$OUT/demo-serial.log" >/dev/null 2>&1 || rc=$?
rm -f "$payload"
sed -n '/PPU-DEMO: BEGIN/,/PPU-DEMO: END/p' "$OUT/demo-serial.log" |
	grep -v '^PPU-DEMO:' | grep -v '^\[ *[0-9.]*\] ' | tr -d '\r'
if [ "$rc" -ne 0 ]; then
	echo "make demo: the VM run failed (rc=$rc); serial log: $OUT/demo-serial.log"
	exit 1
fi
echo "make demo: done (serial log: $OUT/demo-serial.log)"
