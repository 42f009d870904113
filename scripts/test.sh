#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make test: the test matrix (Documentation/testing.rst, "The matrix").
#   6.1, Debian 12's kernel, what users load: style checks (checkpatch
#     --strict, sparse, W=1, htmldocs), the install checks
#     (scripts/install-test.sh), KUnit on its UML, every igt binary, the
#     reload flows and the ppu-smi checks on Debian's production image
#     (ppu.ko's default reset_ladder, ring);
#   6.12 LTS: the sparse/W=1 build and an igt smoke stage on Debian's image
#     (PPU_TEST_612=full adds KUnit and every igt binary; off skips it);
#   7.2, the newest source, what a drm-misc series targets: the W=1 build
#     (scripts/check-newest.sh), KUnit on its UML, every igt binary and the
#     reload flows with reset_ladder=domain (the subtests that need one
#     ladder take it) on the debug guest kernel
#     (lockdep, KASAN, UBSAN, debug objects, kmemleak; built once into
#     PPU_CACHE by scripts/vm/build-debug-kernel.sh, in the background at
#     nice 19 from the first stage on when it is not cached; ppu_chaos
#     runs every other seed of its fixed set there), then the ioctl
#     fuzzer on it
#     (PPU_TEST_NEWEST=0 skips the 7.2 stages; PPU_TEST_DEBUG_SMI=1 adds
#     the ppu-smi checks, which the 6.1 stage runs, to its debug stage:
#     about 10 min more; PPU_TEST_DEBUG_MULTI=1 adds ppu_multi with two
#     cards on it, its removal searches, which the 6.1 stage runs: about
#     2.5 min more);
#   PPU_TEST_61_DEBUG=1 adds every igt binary and the fuzzer on a 6.1 debug
#     guest kernel (about 35 min more from an empty cache).
# PPU_KSERIES=6.12 (make test KVER=6.12) runs the 6.12 stages alone, in full.
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

# the 6.12 LTS: sparse/W=1 build and igt in the VM on Debian's 6.12
# image; $1 full (KUnit on its UML too, every igt binary, the reload and
# ppu-smi steps) or smoke (ppu_basic, ppu_hang_basic)
series_612() {
	local filter='^(ppu_basic|ppu_hang_basic)$' smi=0
	[ "$1" = full ] && filter= && smi=1
	run_check check-6.12 "check (6.12: checkpatch --strict, sparse)" \
		env PPU_KSERIES=6.12 "$ROOT/scripts/check.sh"
	[ "$1" = full ] &&
		run_stage kunit-6.12 kunit "kunit (6.12 UML, lockdep, KASAN)" \
			env PPU_KSERIES=6.12 "$ROOT/scripts/run-kunit.sh"
	run_stage igt-6.12 igt "igt $1 (6.12 kernel)" \
		env PPU_KSERIES=6.12 PPU_VM_KERNEL=prod PPU_IGT_FILTER="$filter" \
		PPU_IGT_EXCLUDE= PPU_SMI_TEST=$smi \
		PPU_IGT_LOG="$LOG/igt-6.12-serial.log" "$ROOT/scripts/run-igt.sh"
}

# every igt binary (ppu_hang too: its scenarios wait for states, not for
# wall-clock windows; ppu_chaos runs every other seed of its fixed set,
# the whole set runs on 6.1's production kernel), the ecc-reload flows
# (the ppu-smi checks only with PPU_TEST_DEBUG_SMI=1: they test the
# tool's output more than the kernel, and take 10 min there), ppu_multi
# with two cards only with PPU_TEST_DEBUG_MULTI=1 (it runs on 6.1's
# production kernel in every make test), then the ioctl fuzzer (a fixed
# budget and seed; make fuzz SECONDS=N SEED=S runs others) on the debug
# guest kernel of series $1 (6.1 or 7.2): any splat, or a kmemleak report
# naming our modules, fails them
series_debug() {
	local ser=$1 sfx=
	[ "$ser" = 6.1 ] || sfx=-$ser
	run_stage "igt-debug$sfx" igt "igt (debug $ser kernel: lockdep, KASAN, UBSAN, kmemleak; reset_ladder=domain)" \
		env PPU_VM_KERNEL=debug PPU_DEBUG_KSERIES="$ser" PPU_IGT_FILTER= \
		PPU_IGT_EXCLUDE= PPU_IGT_LADDER=domain \
		PPU_SMI_TEST="${PPU_TEST_DEBUG_SMI:-0}" \
		PPU_GUEST_ENV="${PPU_GUEST_ENV:-} PPU_CHAOS_FIXED_EVERY=2" \
		PPU_IGT_LOG="$LOG/igt-debug$sfx-serial.log" "$ROOT/scripts/run-igt.sh"
	# two cards: ppu_multi alone (every other binary runs on one card,
	# where it skips), its removal searches under lockdep, KASAN, kmemleak
	[ "${PPU_TEST_DEBUG_MULTI:-0}" = 1 ] &&
	run_stage "igt-multi-debug$sfx" igt "igt ppu_multi, two cards (debug $ser kernel; reset_ladder=domain)" \
		env PPU_VM_KERNEL=debug PPU_DEBUG_KSERIES="$ser" PPU_IGT_FILTER='^ppu_multi$' \
		PPU_IGT_EXCLUDE= PPU_IGT_LADDER=domain PPU_IGT_DEVICES=2 \
		PPU_IGT_LOG="$LOG/igt-multi-debug$sfx-serial.log" "$ROOT/scripts/run-igt.sh"
	run_stage "fuzz$sfx" fuzz "fuzz (debug $ser kernel)" \
		env PPU_VM_KERNEL=debug PPU_DEBUG_KSERIES="$ser" PPU_FUZZ_SECONDS=60 \
		PPU_FUZZ_SEED="${PPU_FUZZ_SEED:-20261201}" \
		PPU_IGT_LOG="$LOG/fuzz$sfx-serial.log" "$ROOT/scripts/run-fuzz.sh"
}

# the 7.2 debug guest kernel takes about 15 min to build from nothing:
# fetch the source and build it in the background at nice 19 while the
# stages before it run (their idle time: downloads, the guests' waits for
# timeouts); a cached kernel ends this at once. Its stage waits for it.
# In a session of its own, so that a make test that is interrupted or
# exits early stops the whole build (make and its compilers) with it: a
# build left running would race the next run's in the same directory.
# A new session is a new autogroup (sched(7)), where nice weighs only
# against the group's own tasks: the group's nice is set to 19 as well,
# or the build takes a full core from the stages (from an empty cache
# the 6.1 KUnit stage took 1262 s, 765 s with the group niced).
prebuild_debug_72() {
	echo "== the 7.2 debug kernel: built in the background if not cached (log $LOG/prebuild-debug-7.2.log) =="
	PPU_DEBUG_KSERIES=7.2 setsid sh -c \
		'echo 19 >/proc/self/autogroup 2>/dev/null; exec nice -n 19 "$0"' \
		"$ROOT/scripts/vm/build-debug-kernel.sh" \
		>"$LOG/prebuild-debug-7.2.log" 2>&1 </dev/null &
	prebuild=$!
	trap stop_prebuild EXIT
	trap 'exit 130' INT TERM HUP
}

stop_prebuild() {
	[ -n "$prebuild" ] && kill -0 "$prebuild" 2>/dev/null &&
		kill -TERM -- "-$prebuild" 2>/dev/null
	prebuild=
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

prebuild=
[ "${PPU_TEST_NEWEST:-1}" = 0 ] || prebuild_debug_72

# installing on a real machine, on a copy of the tree: the kernel ABI of
# the installed headers metapackage, make install, DKMS, libppu through
# pkg-config, the man pages
run_stage install install "install (kernel ABI, make install, dkms, libppu, man pages)" "$ROOT/scripts/install-test.sh"

run_stage kunit kunit "kunit" "$ROOT/scripts/run-kunit.sh"

# Debian's kernel, the one users load: every igt binary, the reload flows
# and the ppu-smi checks
run_stage igt-prod igt "igt (production 6.1 kernel)" \
	env PPU_VM_KERNEL=prod PPU_IGT_FILTER= PPU_IGT_EXCLUDE= \
	PPU_IGT_LOG="$LOG/igt-prod-serial.log" "$ROOT/scripts/run-igt.sh"

# two simulated cards: a storm on one costs the other nothing (every
# other binary runs on one card, where ppu_multi skips)
run_stage igt-multi igt "igt ppu_multi, two cards (production 6.1 kernel)" \
	env PPU_VM_KERNEL=prod PPU_IGT_FILTER='^ppu_multi$' PPU_IGT_EXCLUDE= \
	PPU_IGT_DEVICES=2 PPU_IGT_LOG="$LOG/igt-multi-serial.log" \
	"$ROOT/scripts/run-igt.sh"

[ "${PPU_TEST_61_DEBUG:-0}" = 1 ] && series_debug 6.1

# the same sources on the 6.12 LTS (PPU_TEST_612=smoke, the default, full
# or off)
case ${PPU_TEST_612:-smoke} in
full|smoke) series_612 "${PPU_TEST_612:-smoke}" ;;
off) echo "== 6.12 stages skipped (PPU_TEST_612=off) ==" ;;
*) echo "PPU_TEST_612=${PPU_TEST_612}: full, smoke or off"; failed=$((failed + 1)) ;;
esac

# the newest source (7.2): the W=1 build, KUnit on its UML (our suites
# and drm_sched_serial on upstream's drm_mock_sched), the debug guest
# (PPU_TEST_NEWEST=0 skips them)
if [ "${PPU_TEST_NEWEST:-1}" != 0 ]; then
	run_check check-newest "check-newest (newest kernel source, W=1)" \
		"$ROOT/scripts/check-newest.sh"
	run_stage kunit-7.2 kunit "kunit (7.2 UML, lockdep, KASAN; upstream's mock scheduler)" \
		env PPU_KSERIES=7.2 "$ROOT/scripts/run-kunit.sh"
	if [ -n "$prebuild" ]; then
		wait "$prebuild" || echo "== the background 7.2 debug kernel build failed (see $LOG/prebuild-debug-7.2.log); its stage builds it again =="
		prebuild=
	fi
	series_debug 7.2
fi

finish
