#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build drm_sched_serial.ko, ppu_sim.ko and ppu.ko against the debug guest
# kernel (build-debug-kernel.sh) and copy them, in load order, to <outdir>:
#
#   scripts/vm/build-debug-modules.sh <kernel dir> <outdir>
#
# The build runs in a copy of the sources (build/debug-modules/src of this
# checkout: Kbuild, include/, drm_sched_serial/, ppu_drv/, build outputs
# excluded), so the production build in the tree (make modules, against
# Debian's headers) is never clobbered. The copy is refreshed with rsync
# (modification times kept: an unchanged tree rebuilds nothing) and built
# from its top-level Kbuild in one pass, so ppu.ko resolves
# drm_sched_serial's exports without KBUILD_EXTRA_SYMBOLS. A new debug
# kernel (another key) starts the copy afresh. One build at a time per
# checkout (flock on build/.debug-modules.lock). Built with debug info
# (KCFLAGS=-g; the debug kernel itself has none) so that a trace decodes
# to lines:  scripts/faddr2line build/debug-modules/src/ppu_drv/ppu.ko
# <func+0xoff/0xlen>; the copies in <outdir> are stripped of it.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
JOBS=${PPU_DEBUG_KERNEL_JOBS:-2}

[ $# -eq 2 ] || { echo "usage: $0 <kernel dir> <outdir>" >&2; exit 2; }
KDIR=$1
OUTDIR=$2
[ -f "$KDIR/build/Module.symvers" ] || { echo "build-debug-modules: $KDIR is not a built debug kernel" >&2; exit 1; }

WORK=$ROOT/build/debug-modules
COPY=$WORK/src
mkdir -p "$WORK" "$OUTDIR"
exec 7>"$ROOT/build/.debug-modules.lock"
flock 7

key=$(head -n1 "$KDIR/.done" 2>/dev/null)
if [ "$(cat "$WORK/kernel" 2>/dev/null)" != "$KDIR $key" ]; then
	rm -rf "$COPY"
	echo "$KDIR $key" > "$WORK/kernel"
fi
mkdir -p "$COPY"
EXCL=(--exclude='*.o' --exclude='*.ko' --exclude='*.mod' --exclude='*.mod.c'
      --exclude='.*.cmd' --exclude='*.a' --exclude='modules.order'
      --exclude='Module.symvers' --exclude='.*.d' --exclude='*.o.d'
      --exclude='.tmp_versions/')
rsync -a "$ROOT/Kbuild" "$COPY/Kbuild"
for d in include drm_sched_serial ppu_drv; do
	rsync -a --delete "${EXCL[@]}" "$ROOT/$d/" "$COPY/$d/"
done

LOG=$WORK/build.log
if ! make -C "$KDIR/build" M="$COPY" W=1 KCFLAGS=-g -j"$JOBS" modules > "$LOG" 2>&1; then
	cat "$LOG" >&2
	echo "build-debug-modules: build against $KDIR failed" >&2
	exit 1
fi
grep -E 'warning:|error:' "$LOG" >&2 || true
for ko in drm_sched_serial/drm_sched_serial.ko ppu_drv/sim/ppu_sim.ko ppu_drv/ppu.ko; do
	objcopy --strip-debug "$COPY/$ko" "$OUTDIR/${ko##*/}"
done
echo "build-debug-modules: drm_sched_serial.ko ppu_sim.ko ppu.ko built against ${KDIR##*/}" >&2
