#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make test: style checks, the install checks (scripts/install-test.sh),
# KUnit on UML, igt in a QEMU guest: a smoke stage
# on Debian's production kernel (what users load), then every igt binary,
# the reload flows and the ppu-smi checks on the debug guest kernel
# (lockdep, KASAN, UBSAN, debug objects, kmemleak; built once into
# PPU_CACHE by scripts/vm/build-debug-kernel.sh), then the ioctl fuzzer on
# it; then the 6.12 LTS (sparse build, KUnit, igt on Debian's 6.12 image:
# PPU_TEST_612=full|smoke|off) and a W=1 build against the newest kernel
# source (scripts/check-newest.sh; PPU_TEST_NEWEST=0 skips it).
# PPU_KSERIES=6.12 (make test KVER=6.12) runs the 6.12 stages alone.
# Ends with one line "N passed, N failed" and exits non-zero on any
# failure.
# Logs: build/test-logs/<stage>.log, VM serial logs <stage>-serial.log.
ROOT=$(cd "$(dirname "$0")/.." && pwd)
LOG=${PPU_TEST_LOG:-$ROOT/build/test-logs}
mkdir -p "$LOG"
start=$(date +%s)
passed=0
failed=0

count() {	# $1: name, $2: log file, $3: exit code of the suite
	local line p f
	line=$(grep -E "^$1: [0-9]+ passed, [0-9]+ failed" "$2" | tail -1)
	p=$(echo "$line" | sed -E 's/.* ([0-9]+) passed.*/\1/')
	f=$(echo "$line" | sed -E 's/.* ([0-9]+) failed.*/\1/')
	[ -z "$line" ] && p=0 && f=0
	# A suite that failed without counting a failure counts as one.
	if [ "$3" -ne 0 ] && [ "$f" -eq 0 ]; then
		f=1
		echo "$1: suite failed (exit $3); see $2"
	fi
	passed=$((passed + p))
	failed=$((failed + f))
}

# run_stage <log name> <result prefix> <title> <command...>: run a suite,
# log it to $LOG/<log name>.log and add the "<prefix>: N passed, N failed"
# line it ends with to the totals
run_stage() {
	local name=$1 prefix=$2 title=$3 t0 rc
	shift 3
	echo "== $title =="
	t0=$(date +%s)
	"$@" 2>&1 | tee "$LOG/$name.log"
	rc=${PIPESTATUS[0]}
	count "$prefix" "$LOG/$name.log" "$rc"
	echo "== $title: $(( $(date +%s) - t0 )) s"
}

# run_check <log name> <title> <command...>: a check that passes or fails
run_check() {
	local name=$1 title=$2 t0 rc
	shift 2
	echo "== $title =="
	t0=$(date +%s)
	"$@" 2>&1 | tee "$LOG/$name.log"
	rc=${PIPESTATUS[0]}
	if [ "$rc" -eq 0 ]; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
	echo "== $title: $(( $(date +%s) - t0 )) s"
}

# the 6.12 LTS: sparse/W=1 build, KUnit on its UML, igt in the VM on
# Debian's 6.12 image; $1 full (every igt binary, the reload and ppu-smi
# steps) or smoke (ppu_basic, ppu_hang_basic)
series_612() {
	local filter=
	[ "$1" = smoke ] && filter='^(ppu_basic|ppu_hang_basic)$'
	run_check check-6.12 "check (6.12: checkpatch --strict, sparse)" \
		env PPU_KSERIES=6.12 "$ROOT/scripts/check.sh"
	run_stage kunit-6.12 kunit "kunit (6.12 UML, lockdep, KASAN)" \
		env PPU_KSERIES=6.12 "$ROOT/scripts/run-kunit.sh"
	run_stage igt-6.12 igt "igt $1 (6.12 kernel)" \
		env PPU_KSERIES=6.12 PPU_VM_KERNEL=prod PPU_IGT_FILTER="$filter" \
		PPU_IGT_EXCLUDE= PPU_IGT_LOG="$LOG/igt-6.12-serial.log" "$ROOT/scripts/run-igt.sh"
}

# what failed, repeated at the end where a CI log's tail shows it: the
# failing results of every stage, then igt's assertion messages and any
# kernel report from the VM serial logs (at most 20 lines of each log)
summary() {
	local f
	echo "== failures =="
	for f in "$LOG"/*.log; do
		case $f in *-serial.log) continue ;; esac
		grep -E ': FAIL|FAILED|suite failed|exited with failure|splat|did not finish|error:' "$f" |
			head -n 20 | sed "s#^#${f##*/}: #"
	done
	for f in "$LOG"/*-serial.log; do
		[ -f "$f" ] || continue
		grep -E 'CRITICAL:|Subtest .*: (FAIL|CRASH|TIMEOUT)|BUG:|WARNING:|Oops|KASAN|circular locking|kmemleak: [0-9]+ new' "$f" |
			head -n 20 | sed "s#^#${f##*/}: #"
	done
}

finish() {
	[ "$failed" -eq 0 ] || summary
	echo "make test: $(( $(date +%s) - start )) s"
	echo "$passed passed, $failed failed"
	[ "$failed" -eq 0 ]
	exit
}

# make test KVER=6.12: the 6.12 stages only, igt in full
if [ "${PPU_KSERIES:-6.1}" = 6.12 ]; then
	series_612 full
	finish
fi

run_check check "check (checkpatch --strict, sparse)" "$ROOT/scripts/check.sh"

# installing on a real machine, on a copy of the tree: the kernel ABI of
# the installed headers metapackage, make install, DKMS, libppu through
# pkg-config, the man pages
run_stage install install "install (kernel ABI, make install, dkms, libppu, man pages)" "$ROOT/scripts/install-test.sh"

run_stage kunit kunit "kunit" "$ROOT/scripts/run-kunit.sh"

# Debian's kernel, the one users load: a smoke stage, jobs and hangs
run_stage igt-prod igt "igt smoke (production kernel)" \
	env PPU_VM_KERNEL=prod PPU_IGT_FILTER='^(ppu_basic|ppu_hang_basic)$' \
	PPU_SMI_TEST=0 PPU_IGT_LOG="$LOG/igt-prod-serial.log" "$ROOT/scripts/run-igt.sh"

# every igt binary (ppu_hang too: its scenarios wait for states, not for
# wall-clock windows), the ecc-reload flows and the ppu-smi checks on the
# debug kernel: any splat, or a kmemleak report naming our modules, fails it
run_stage igt-debug igt "igt (debug kernel: lockdep, KASAN, UBSAN, kmemleak)" \
	env PPU_VM_KERNEL=debug PPU_IGT_FILTER= PPU_IGT_EXCLUDE= \
	PPU_IGT_LOG="$LOG/igt-debug-serial.log" "$ROOT/scripts/run-igt.sh"

# the ioctl fuzzer on the debug kernel, a fixed budget and seed (make fuzz
# SECONDS=N SEED=S runs others)
run_stage fuzz fuzz "fuzz (debug kernel)" \
	env PPU_VM_KERNEL=debug PPU_FUZZ_SECONDS=60 PPU_FUZZ_SEED=${PPU_FUZZ_SEED:-20261201} \
	PPU_IGT_LOG="$LOG/fuzz-serial.log" "$ROOT/scripts/run-fuzz.sh"

# the same sources on the 6.12 LTS (PPU_TEST_612=full, the default, smoke
# or off), then compiled against the newest kernel source (PPU_TEST_NEWEST=0
# skips it)
case ${PPU_TEST_612:-full} in
full|smoke) series_612 "${PPU_TEST_612:-full}" ;;
off) echo "== 6.12 stages skipped (PPU_TEST_612=off) ==" ;;
*) echo "PPU_TEST_612=${PPU_TEST_612}: full, smoke or off"; failed=$((failed + 1)) ;;
esac
if [ "${PPU_TEST_NEWEST:-1}" != 0 ]; then
	run_check check-newest "check-newest (newest kernel source, W=1)" \
		"$ROOT/scripts/check-newest.sh"
fi

finish
