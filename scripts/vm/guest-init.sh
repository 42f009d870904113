#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# /init of the PPU test VM (busybox). Mounts the pseudo file systems, loads
# the kernel modules and our drivers, runs /payload.sh and powers off.
#
# Markers on the console (the host greps for them):
#   PPU-VM: BOOTED
#   PPU-VM: INSMOD <module> OK|FAILED rc=N
#   PPU-VM: MODULES OK|FAILED
#   PPU-VM: PAYLOAD-START
#   PPU-VM: PAYLOAD-EXIT rc=N
#   PPU-VM: MODULE <line of /proc/modules>   (our modules, after loading
#           and before unloading: where their code was, for kmemleak-check)
#   PPU-VM: KMEMLEAK-BEGIN <phase> ... PPU-VM: KMEMLEAK-END <phase>
#           (PPU_KMEMLEAK=1: the leak report after two scans, phase
#           before-unload, then after-unload; kmemleak-check.py reads it)
#   PPU-VM: DMESG-BEGIN ... PPU-VM: DMESG-END
#   PPU-VM: END
export PATH=/bin:/sbin:/usr/bin:/usr/sbin
export LD_LIBRARY_PATH=/usr/lib/x86_64-linux-gnu:/usr/lib64:/usr/lib
export HOME=/root

mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2>/dev/null
[ -e /dev/console ] || mknod /dev/console c 5 1
[ -e /dev/null ] || mknod /dev/null c 1 3
mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
mount -t tmpfs tmpfs /tmp
mkdir -p /dev/pts /dev/shm
mount -t devpts devpts /dev/pts 2>/dev/null
mount -t tmpfs tmpfs /dev/shm 2>/dev/null

# talk on the serial console whatever happens
exec </dev/console >/dev/console 2>&1

echo "PPU-VM: BOOTED $(uname -r)"

# settings written by mkinitramfs.sh: PPU_PARAMS, PPU_SIM_PARAMS,
# PPU_SERIAL_PARAMS, PPU_LOAD_MODULES, PPU_GUEST_ENV, PPU_VM_KERNEL,
# PPU_KMEMLEAK
[ -f /etc/vm.env ] && . /etc/vm.env
export PPU_VM_KERNEL="${PPU_VM_KERNEL:-prod}"

# show warnings (and worse) live on the console; quiet hides them otherwise
echo 5 > /proc/sys/kernel/printk

our_modules() {
	grep -E '^(ppu|ppu_sim|drm_sched_serial) ' /proc/modules | sed 's/^/PPU-VM: MODULE /'
}

# kmemleak: an object is reported only when a scan finds it unreferenced
# and unchanged since the scan before (and at least 5 s old), so scan
# twice with a pause; print the report, then forget it (clear) so that the
# next phase shows only new ones
kmemleak_report() { # phase
	k=/sys/kernel/debug/kmemleak
	[ "${PPU_KMEMLEAK:-0}" = 1 ] || return 0
	if [ ! -w $k ]; then
		echo "PPU-VM: KMEMLEAK UNAVAILABLE"
		return 0
	fi
	t0=$(cut -d. -f1 /proc/uptime)
	echo scan > $k
	sleep 6
	echo scan > $k
	echo "PPU-VM: KMEMLEAK-BEGIN $1 ($(( $(cut -d. -f1 /proc/uptime) - t0 )) s)"
	cat $k
	echo "PPU-VM: KMEMLEAK-END $1"
	echo clear > $k
}

load() { # file params...
	f=$1; shift
	m=${f##*/}; m=${m%.ko}
	insmod "$f" "$@"
	rc=$?
	if [ $rc = 0 ]; then
		echo "PPU-VM: INSMOD $m OK"
		return 0
	fi
	echo "PPU-VM: INSMOD $m FAILED rc=$rc"
	return 1
}

mods_ok=1
while read -r m; do
	[ -n "$m" ] || continue
	load "/kmod/kernel/$m.ko" || mods_ok=0
done < /kmod/kernel.load

if [ "${PPU_LOAD_MODULES:-1}" = 1 ]; then
	# our modules, in the order mkinitramfs.sh wrote them
	while read -r m; do
		[ -n "$m" ] || continue
		case $m in
		ppu) params=$PPU_PARAMS ;;
		ppu_sim) params=$PPU_SIM_PARAMS ;;
		drm_sched_serial) params=$PPU_SERIAL_PARAMS ;;
		*) params= ;;
		esac
		# word splitting of params is intended
		# shellcheck disable=SC2086
		load "/kmod/ppu/$m.ko" $params || mods_ok=0
	done < /kmod/ppu.load
fi
our_modules
if [ $mods_ok = 1 ]; then
	echo "PPU-VM: MODULES OK"
else
	echo "PPU-VM: MODULES FAILED"
fi
export PPU_MODULES_OK=$mods_ok
ls /dev/dri 2>/dev/null | sed 's/^/PPU-VM: dev: /'

for kv in $PPU_GUEST_ENV; do
	# shellcheck disable=SC2163 # exports the K=V word itself
	export "$kv"
done

echo "PPU-VM: PAYLOAD-START"
cd /
sh /payload.sh
rc=$?
echo "PPU-VM: PAYLOAD-EXIT rc=$rc"

# Unload our modules: a leak or a stuck reference shows up here.
# kmemleak (debug kernel): once with the modules loaded (objects nothing
# points to any more), once after unloading them (objects only their
# code or data pointed to)
our_modules
kmemleak_report before-unload
if [ "${PPU_LOAD_MODULES:-1}" = 1 ] && [ "${PPU_UNLOAD:-1}" = 1 ]; then
	if rmmod ppu && rmmod ppu_sim && rmmod drm_sched_serial; then
		echo "PPU-VM: RMMOD OK"
	else
		echo "PPU-VM: RMMOD FAILED"
		lsmod
	fi
	kmemleak_report after-unload
fi

echo "PPU-VM: DMESG-BEGIN"
dmesg | sed -n "/Run \/init as init process/,\$p"
echo "PPU-VM: DMESG-END"
echo "PPU-VM: END"
sync
poweroff -f
# not reached; keep init alive so the kernel does not panic first
sleep 1000
