#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# VM payload: run every igt binary in /igt (all its subtests), each under a
# timeout, and print its output between markers for scripts/run-igt.sh:
#   PPU-IGT: BEGIN <binary>
#   ...igt output ("Subtest <name>: SUCCESS|FAIL|SKIP (...)")...
#   PPU-IGT: END <binary> rc=<exit code>
# Output goes to a file first and is printed after the binary exits, so
# kernel messages cannot split igt's lines. Then /extra/ecc-reload.sh if
# present (its own PPU-ECC-RELOAD: markers), then /extra/ppu-smi-test.sh
# (PPU-SMI-TEST:). Exit status: 0 if every binary exited 0 or 77 (skip)
# and both scripts passed.
export IGT_FORCE_DRIVER=${IGT_FORCE_DRIVER:-ppu}
# per binary and per reload script: the debug kernel is 3-6x slower
if [ "${PPU_VM_KERNEL:-prod}" = debug ]; then
	T=${PPU_IGT_TIMEOUT:-1800}
else
	T=${PPU_IGT_TIMEOUT:-600}
fi

if [ "${PPU_MODULES_OK:-1}" != 1 ]; then
	echo "PPU-IGT: modules failed to load; running anyway"
fi
rc_all=0
for t in /igt/*; do
	[ -x "$t" ] || continue
	b=${t##*/}
	echo "PPU-IGT: BEGIN $b"
	timeout "$T" "$t" ${PPU_IGT_ARGS:-} > "/tmp/$b.out" 2>&1
	rc=$?
	cat "/tmp/$b.out"
	echo "PPU-IGT: END $b rc=$rc"
	case $rc in
	0|77) ;;
	*) rc_all=1 ;;
	esac
done
# steps that reload the modules, after every igt binary (run-igt.sh adds it
# to the initramfs when ppu_ecc runs)
if [ -f /extra/ecc-reload.sh ]; then
	timeout "$T" sh /extra/ecc-reload.sh || rc_all=1
fi
# ppu-smi against sysfs (its own PPU-SMI-TEST: markers)
if [ -f /extra/ppu-smi-test.sh ]; then
	timeout "$T" sh /extra/ppu-smi-test.sh || rc_all=1
fi
exit $rc_all
