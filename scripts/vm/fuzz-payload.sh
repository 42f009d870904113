#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# VM payload of scripts/run-fuzz.sh: run /extra/ppu-fuzz with the options
# of /extra/ppu-fuzz.args (one per line) under a timeout, live on the
# console, between markers:
#   PPU-FUZZ: BEGIN <options>
#   ...ppu-fuzz output, kernel messages in between...
#   PPU-FUZZ: END rc=<exit status of ppu-fuzz>
# Exit status: that of ppu-fuzz (0 passed).
#
# vgem: unless PPU_FUZZ_VGEM=0, the first of /kmod/kernel/vgem.ko (the
# harness's on-demand module), /kmod/ondemand/vgem.ko and /extra/vgem.ko is
# loaded (after ppu, which keeps card0) so that PRIME also crosses devices;
# it is unloaded at the end.
# PPU_FUZZ_TIMEOUT (seconds): give up on a fuzzer whose own watchdog did
# not end it (rc=124). Then, as after a watchdog report (exit 3) or when
# ppu-fuzz cannot exit, the blocked tasks are dumped (sysrq w).
T=${PPU_FUZZ_TIMEOUT:-600}

if [ "${PPU_MODULES_OK:-1}" != 1 ]; then
	echo "PPU-FUZZ: modules failed to load; running anyway"
fi
vgem=
if [ "${PPU_FUZZ_VGEM:-1}" != 0 ]; then
	for ko in /kmod/kernel/vgem.ko /kmod/ondemand/vgem.ko /extra/vgem.ko; do
		[ -f "$ko" ] || continue
		grep -q '^vgem ' /proc/modules && break
		if insmod "$ko"; then
			vgem=1
			echo "PPU-FUZZ: vgem loaded from $ko"
		fi
		break
	done
fi

args=$(tr '\n' ' ' < /extra/ppu-fuzz.args 2>/dev/null)
echo "PPU-FUZZ: BEGIN $args"
# The exit status comes through a file: after a kernel oops, threads stuck
# in the kernel keep the process from ending, and waiting for it would
# hang the VM until QEMU's timeout.
st=/tmp/ppu-fuzz.status
rm -f "$st"
# word splitting of args is intended: one option or value per line
# shellcheck disable=SC2086
/extra/ppu-fuzz --status-file "$st" $args &
pid=$!
waited=0
while [ ! -s "$st" ] && kill -0 "$pid" 2>/dev/null && [ $waited -lt "$T" ]; do
	sleep 1
	waited=$((waited + 1))
done
# the process ends right after writing the file, unless it is stuck
n=0
while kill -0 "$pid" 2>/dev/null && [ $n -lt 10 ]; do
	sleep 1
	n=$((n + 1))
done
if kill -0 "$pid" 2>/dev/null; then
	kill -9 "$pid" 2>/dev/null
	sleep 1
fi
if kill -0 "$pid" 2>/dev/null; then
	# still there: stuck in the kernel, wait would never return
	rc=$(cat "$st" 2>/dev/null)
	echo "PPU-FUZZ: ppu-fuzz (pid $pid) cannot exit: stuck in the kernel"
	stuck=1
else
	wait "$pid"
	rc=$?
	stuck=0
fi
[ -s "$st" ] && rc=$(cat "$st")
[ $waited -ge "$T" ] && [ ! -s "$st" ] && rc=124
if [ "$rc" = 3 ] || [ "$rc" = 124 ] || [ $stuck = 1 ]; then
	echo "PPU-FUZZ: blocked tasks:"
	echo w > /proc/sysrq-trigger
	sleep 1
fi
echo "PPU-FUZZ: END rc=${rc:-124}"
[ -n "$vgem" ] && [ $stuck = 0 ] && rmmod vgem
exit "${rc:-124}"
