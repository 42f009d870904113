#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build the busybox initramfs of the PPU test VM.
#
#   scripts/vm/mkinitramfs.sh <payload-script> <output initrd.gz>
#
# Contents:
#   /init                   scripts/vm/guest-init.sh
#   /payload.sh             the payload (run by /init after loading modules)
#   /bin, /sbin, /usr/bin   busybox-static + applet symlinks
#   /kmod/kernel/*.ko       the guest kernel's modules (fetch-kernel.sh),
#                           load order in /kmod/kernel.load; the ones not in
#                           it (vgem) are there for a test to insmod
#   /kmod/ppu/*.ko          our modules, load order in /kmod/ppu.load
#   /igt/*                  igt test binaries (+ their shared libraries)
#   /extra/*                PPU_EXTRA_FILES (executables get their libraries)
#   /etc/vm.env             PPU_PARAMS, PPU_SIM_PARAMS, PPU_SERIAL_PARAMS,
#                           PPU_LOAD_MODULES, PPU_GUEST_ENV, PPU_VM_KERNEL,
#                           PPU_KMEMLEAK
# The root of the tree is mode 0755 (not mktemp's 0700), so that processes
# that drop root still reach /dev/dri, /bin and /igt.
#
# Environment:
#   PPU_VM_KERNEL    prod (default): Debian's kernel; debug: the debug guest
#                    kernel (see fetch-kernel.sh)
#   PPU_KOS          our modules in load order (default: drm_sched_serial.ko,
#                    ppu_sim.ko, ppu.ko of the tree, missing ones skipped
#                    with a warning; with PPU_VM_KERNEL=debug, the same
#                    modules built against the debug kernel by
#                    build-debug-modules.sh)
#   PPU_EXTRA_KMODS  more modules of the guest kernel to load at boot
#   PPU_KMEMLEAK     1 (default on the debug kernel): /init scans for leaks
#                    at the end, before and after unloading our modules
#   PPU_IGT_BINS     igt binaries (default: igt-tests/build/ppu_* executables;
#                    "none": no igt binary)
#   PPU_EXTRA_FILES  more files for /extra
#   PPU_PARAMS, PPU_SIM_PARAMS, PPU_SERIAL_PARAMS   module parameters
#   PPU_LOAD_MODULES 1 (default) to insmod our modules in /init, 0 not to
#   PPU_GUEST_ENV    "K=V K2=V2" exported in the guest before the payload
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)

[ $# -eq 2 ] || { echo "usage: $0 <payload-script> <initrd.gz>" >&2; exit 2; }
PAYLOAD=$1
OUT=$2
[ -f "$PAYLOAD" ] || { echo "mkinitramfs: no payload $PAYLOAD" >&2; exit 2; }

KDIR=$("$HERE/fetch-kernel.sh")

STAGE=$(mktemp -d "${TMPDIR:-/tmp}/ppu-initramfs.XXXXXX")
KOS=$(mktemp -d "${TMPDIR:-/tmp}/ppu-initramfs-kos.XXXXXX")
trap 'rm -rf "$STAGE" "$KOS"' EXIT
# the guest's / (mktemp -d makes it 0700)
chmod 755 "$STAGE"
VMK=${PPU_VM_KERNEL:-prod}

mkdir -p "$STAGE"/{bin,sbin,usr/bin,usr/sbin,proc,sys,dev,tmp,root,etc,kmod/kernel,kmod/ppu,igt,extra}
mkdir -p "$STAGE/usr/lib/x86_64-linux-gnu" "$STAGE/usr/lib64"
ln -s usr/lib "$STAGE/lib"
ln -s usr/lib64 "$STAGE/lib64"

# busybox: the binary plus one symlink per applet, never over busybox itself
BB=/bin/busybox
cp "$BB" "$STAGE/bin/busybox"
while read -r applet; do
	[ "${applet##*/}" = busybox ] && continue
	[ -e "$STAGE/$applet" ] || [ -L "$STAGE/$applet" ] && continue
	case $applet in
	bin/*) ln -s busybox "$STAGE/$applet" ;;
	sbin/*) ln -s ../bin/busybox "$STAGE/$applet" ;;
	usr/bin/* | usr/sbin/*) ln -s ../../bin/busybox "$STAGE/$applet" ;;
	*) ;;
	esac
done < <("$BB" --list-full)
mknod "$STAGE/dev/console" c 5 1 2>/dev/null || true
mknod "$STAGE/dev/null" c 1 3 2>/dev/null || true

# kernel modules
cp "$KDIR"/modules/*.ko "$STAGE/kmod/kernel/"
cp "$KDIR/modules.load" "$STAGE/kmod/kernel.load"
# on-demand modules of Debian's kernel: in the guest, not loaded at boot
if [ -d "$KDIR/ondemand" ]; then
	find "$KDIR/ondemand" -name '*.ko' -exec cp {} "$STAGE/kmod/kernel/" \;
fi
# the debug kernel's on-demand modules asked for (fetch-kernel.sh checked
# that each one is built in or there)
if [ "$VMK" = debug ]; then
	for m in ${PPU_EXTRA_KMODS:-}; do
		m=${m//-/_}
		[ -f "$STAGE/kmod/kernel/$m.ko" ] || continue
		grep -qx "$m" "$STAGE/kmod/kernel.load" || echo "$m" >> "$STAGE/kmod/kernel.load"
	done
fi

# our modules
if [ -n "${PPU_KOS:-}" ]; then
	read -r -a kos <<< "$PPU_KOS"
elif [ "$VMK" = debug ]; then
	"$HERE/build-debug-modules.sh" "$KDIR" "$KOS"
	kos=("$KOS/drm_sched_serial.ko" "$KOS/ppu_sim.ko" "$KOS/ppu.ko")
else
	kos=("$ROOT/drm_sched_serial/drm_sched_serial.ko" "$ROOT/ppu_drv/sim/ppu_sim.ko" "$ROOT/ppu_drv/ppu.ko")
fi
: > "$STAGE/kmod/ppu.load"
for ko in "${kos[@]}"; do
	if [ ! -f "$ko" ]; then
		echo "mkinitramfs: warning: $ko not built, not in the initramfs" >&2
		continue
	fi
	m=${ko##*/}; m=${m%.ko}
	# every kernel module it depends on must be in the initramfs
	for d in $(modinfo -F depends "$ko" | tr , ' '); do
		d=${d//-/_}
		if [ "$VMK" = debug ]; then
			# built in, or a module of the debug kernel loaded at boot
			[ -f "$STAGE/kmod/ppu/$d.ko" ] && continue
			[ -f "$STAGE/kmod/kernel/$d.ko" ] ||
				{ echo "mkinitramfs: $m needs $d, not in the debug kernel" >&2; exit 1; }
			grep -qx "$d" "$STAGE/kmod/kernel.load" || echo "$d" >> "$STAGE/kmod/kernel.load"
			continue
		fi
		[ -f "$STAGE/kmod/kernel/$d.ko" ] || [ -f "$STAGE/kmod/ppu/$d.ko" ] || {
			echo "mkinitramfs: fetching kernel module $d needed by $m" >&2
			KDIR=$("$HERE/fetch-kernel.sh" "$d")
			cp "$KDIR"/modules/*.ko "$STAGE/kmod/kernel/"
			cp "$KDIR/modules.load" "$STAGE/kmod/kernel.load"
		}
	done
	cp "$ko" "$STAGE/kmod/ppu/$m.ko"
	echo "$m" >> "$STAGE/kmod/ppu.load"
done

# executables and their shared libraries
declare -A LIBS_DONE
copy_libs() { # executable
	local lib
	# ldd prints "name => /path (addr)" and "/path (addr)" for the loader
	while read -r lib; do
		[ -n "$lib" ] || continue
		[ -n "${LIBS_DONE[$lib]:-}" ] && continue
		LIBS_DONE[$lib]=1
		local dst=${lib#/usr}
		dst=$STAGE/usr$dst
		mkdir -p "$(dirname "$dst")"
		cp -L "$lib" "$dst"
	done < <(ldd "$1" 2>/dev/null | awk '/=> \//{print $3} /^[ \t]*\//{print $1}')
}

if [ "${PPU_IGT_BINS:-}" = none ]; then
	bins=()
elif [ -n "${PPU_IGT_BINS:-}" ]; then
	read -r -a bins <<< "$PPU_IGT_BINS"
else
	bins=()
	for b in "$ROOT"/igt-tests/build/ppu_*; do
		[ -f "$b" ] && [ -x "$b" ] && bins+=("$b")
	done
fi
for b in "${bins[@]}"; do
	cp "$b" "$STAGE/igt/"
	copy_libs "$b"
done
if [ -n "${PPU_EXTRA_FILES:-}" ]; then
	read -r -a extra <<< "$PPU_EXTRA_FILES"
	for f in "${extra[@]}"; do
		cp -L "$f" "$STAGE/extra/"
		if [ -x "$f" ] && [ "$(head -c 4 "$f" | tail -c 3)" = ELF ]; then
			copy_libs "$f"
		fi
	done
fi

# init, payload, settings
cp "$HERE/guest-init.sh" "$STAGE/init"
chmod 755 "$STAGE/init"
cp "$PAYLOAD" "$STAGE/payload.sh"
chmod 755 "$STAGE/payload.sh"
{
	printf 'PPU_PARAMS=%q\n' "${PPU_PARAMS:-}"
	printf 'PPU_SIM_PARAMS=%q\n' "${PPU_SIM_PARAMS:-}"
	printf 'PPU_SERIAL_PARAMS=%q\n' "${PPU_SERIAL_PARAMS:-}"
	printf 'PPU_LOAD_MODULES=%q\n' "${PPU_LOAD_MODULES:-1}"
	printf 'PPU_GUEST_ENV=%q\n' "${PPU_GUEST_ENV:-}"
	printf 'PPU_VM_KERNEL=%q\n' "$VMK"
	printf 'PPU_KMEMLEAK=%q\n' "${PPU_KMEMLEAK:-$([ "$VMK" = debug ] && echo 1 || echo 0)}"
} > "$STAGE/etc/vm.env"

mkdir -p "$(dirname "$OUT")"
(cd "$STAGE" && find . -print0 | LC_ALL=C sort -z |
	cpio --null -o -H newc --quiet --owner=0:0) | gzip -1 > "$OUT.tmp"
mv "$OUT.tmp" "$OUT"
echo "mkinitramfs: $OUT ($(du -h "$OUT" | cut -f1)): kernel [$(tr '\n' ' ' < "$STAGE/kmod/kernel.load")] ppu [$(tr '\n' ' ' < "$STAGE/kmod/ppu.load")] igt [$(ls "$STAGE/igt" | tr '\n' ' ')]" >&2
