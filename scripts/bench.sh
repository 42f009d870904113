#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make bench: boot the VM once and run tools/ppu-bench: the recovery-time
# ratio of the amd-gfx RFC scenario and its cost with the guilty job on
# the first ring, verdict errors on a bystander beside a hang that does
# not reproduce, innocent jobs lost under serial and classic recovery,
# NOP throughput with recovery on vs off, what clearing new device-memory
# buffers costs an allocation and the clear engine's speed against an
# engine COPY, recovery time against the number of shared rings with the
# serial and the group strategy (modules reloaded in the guest for each
# ring count), the same with wrong hardware hints, a hostile client
# against a victim (ppu.ko reloaded with its default per-file limits),
# verdict errors of adversarial sets (flaky bystanders, a stalled victim, a
# long progressing head, budget starvation, WAIT pairs) with right, wrong
# and no hardware hints, a hang storm on one card against jobs on another
# (ppu_sim.ko reloaded with devices=2), and jobs run twice across all of
# them. Prints "bench: <name> <value> <unit>" lines; the figures are
# described in Documentation/bench.rst. PPU_BENCH_LOG: serial log path (default
# build/bench-serial.log). PPU_BENCH_ONLY: run only these groups of figures
# (space-separated: rfc ladder gang lost verdicts liveness nop vram scale hostile
# forkstorm multi; default all; double, the sums of the counts the
# scenarios appended, runs after a full run and after a selection that left
# counts).
set -eo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=$ROOT/build
LOG=${PPU_BENCH_LOG:-$OUT/bench-serial.log}
mkdir -p "$OUT"
start=$(date +%s)

make -s -C "$ROOT" modules >/dev/null
make -s -C "$ROOT/tools" >/dev/null

# Short job timeouts keep the hang scenarios quick; default policy otherwise,
# but for the per-file and per-process bans: ppu-bench is one process that
# hangs the device on purpose, run after run (each run on fresh contexts),
# far more often than max_guilty_per_file allows a real client; no
# isolation either: its clients are one process, which isolation would run
# one job at a time after a hang that does not reproduce. The domain reset
# first, the RFC's sequence these figures are about; "ppu-bench ladder"
# switches to the ring reset for its own runs.
PARAMS="gfx_timeout_ms=1000 compute_timeout_ms=1000 sdma_timeout_ms=500 max_guilty_per_file=0 max_suspects_per_file=0 max_guilty_per_process=0 max_suspects_per_process=0 user_hold_ms=0 isolate_ms=0 reset_ladder=domain"
# Scaling runs: up to 15 innocent heads of 150 ms each are probed in one
# recovery, then the hanging head in its own window (its ring's 1000 ms
# timeout: no head is blamed without a replay), about 3.3 s, too close to
# the default replay_budget_ms=5000 for a slow emulator, so the budget and
# the reset cap are raised; probe_timeout_ms, now only the first window of
# a group replay, stays well above an innocent head's runtime.
SCALE_PARAMS="probe_timeout_ms=300 replay_budget_ms=60000 max_resets=64"
RINGS="2 4 8 16"
# At 2 and 16 rings the scaling scenario also runs with the group strategy
# (group_scaling_16_over_2) and with ppu_sim wrong_hints_pct=100, each
# strategy (wrong_hints); 4 and 8 rings only serial (linearity).
SCALE_VARIANTS_2_16="serial group serial-wrong group-wrong"
# hostile_client needs the bans: ppu.ko with its default limits (the
# attacker is a process of its own).
HOSTILE_PARAMS="gfx_timeout_ms=1000 compute_timeout_ms=1000 sdma_timeout_ms=500 user_hold_ms=0"
HOSTILE_SECONDS=60
# fork_storm runs on ppu.ko's defaults (its timeouts and limits): the
# production setting the storm was measured on (issue 31, 1b).
STORM_SECONDS=30
# multi: two cards, a hang storm on the first against jobs on the second;
# ppu.ko with the bench's PARAMS (the storm hangs on fresh contexts, no
# bans). Last, so that no other figure runs on two cards.
MULTI_SIM_PARAMS="devices=2"
ONLY=${PPU_BENCH_ONLY:-}

payload=$(mktemp)
cat >"$payload" <<PAYLOAD
#!/bin/sh
echo "PPU-BENCH: BEGIN"
B=/extra/ppu-bench
# every scenario appends its ADD counts here; "ppu-bench double" sums them
export PPU_BENCH_COUNTS=/tmp/ppu-bench-counts
rm -f \$PPU_BENCH_COUNTS
rc=0
want() { [ -z "$ONLY" ] || case " $ONLY " in *" \$1 "*) ;; *) false ;; esac; }
want rfc && { \$B rfc || rc=1; }
want ladder && { \$B ladder || rc=1; }
want gang && { \$B gang || rc=1; }
want lost && { \$B lost || rc=1; }
want verdicts && { \$B verdicts || rc=1; }
want liveness && { \$B liveness || rc=1; }
want nop && { \$B nop || rc=1; }
want vram && { \$B vram || rc=1; }
if want scale; then
echo "# scaling: ppu_sim.ko and ppu.ko reloaded per ring count (nr_gfx=1 nr_compute=N-1), ppu.ko with $PARAMS $SCALE_PARAMS:"
echo "#   replay_budget_ms and max_resets raised so that the budget never cuts a recovery short and all N-1 innocent heads are probed"
echo "#   (15 probes of 150 ms heads and the hanging head's 1000 ms window take ~3.3 s, close to the default 5000 ms budget on TCG); probe_timeout_ms 300 (a group replay's first window) stays above a head's runtime"
pts=
for n in $RINGS; do
	rmmod ppu ppu_sim || { echo "# rmmod failed"; rc=1; break; }
	insmod /kmod/ppu/ppu_sim.ko nr_gfx=1 nr_compute=\$((n - 1)) &&
	insmod /kmod/ppu/ppu.ko $PARAMS $SCALE_PARAMS ||
		{ echo "# insmod failed for \$n rings"; rc=1; break; }
	case \$n in
	2|16) variants="$SCALE_VARIANTS_2_16" ;;
	*) variants=serial ;;
	esac
	out=\$(\$B scale \$n \$variants) || rc=1
	echo "\$out"
	t=\$(echo "\$out" | sed -n "s/^bench: recovery_ms_total_\$n \([0-9.]*\) ms\$/\1/p")
	g=\$(echo "\$out" | sed -n "s/^bench: group_recovery_ms_total_\$n \([0-9.]*\) ms\$/\1/p")
	[ -n "\$t" ] && pts="\$pts \$n:\$t"
	eval "serial_\$n=\$t group_\$n=\$g"
done
\$B linearity \$pts || rc=1
if [ -n "\$serial_2" ] && [ -n "\$serial_16" ] && [ -n "\$group_2" ] && [ -n "\$group_16" ]; then
	\$B scaling \$serial_2 \$serial_16 \$group_2 \$group_16 || rc=1
else
	echo "# scaling: a total of 2 or 16 rings is missing"; rc=1
fi
fi
if want hostile; then
echo "# hostile_client: ppu_sim.ko reloaded with its defaults, ppu.ko with $HOSTILE_PARAMS and its default per-file limits, for $HOSTILE_SECONDS s:"
if rmmod ppu ppu_sim && insmod /kmod/ppu/ppu_sim.ko &&
   insmod /kmod/ppu/ppu.ko $HOSTILE_PARAMS; then
	\$B hostile $HOSTILE_SECONDS || rc=1
else
	echo "# hostile_client: reloading the modules failed"; rc=1
fi
fi
if want forkstorm; then
echo "# fork_storm: ppu_sim.ko and ppu.ko reloaded with their defaults, for $STORM_SECONDS s:"
if rmmod ppu ppu_sim && insmod /kmod/ppu/ppu_sim.ko &&
   insmod /kmod/ppu/ppu.ko; then
	\$B forkstorm $STORM_SECONDS || rc=1
else
	echo "# fork_storm: reloading the modules failed"; rc=1
fi
fi
if want multi; then
echo "# multi: ppu_sim.ko reloaded with $MULTI_SIM_PARAMS, ppu.ko with $PARAMS:"
if rmmod ppu ppu_sim && insmod /kmod/ppu/ppu_sim.ko $MULTI_SIM_PARAMS &&
   insmod /kmod/ppu/ppu.ko $PARAMS; then
	\$B multi || rc=1
else
	echo "# multi: reloading the modules failed"; rc=1
fi
fi
# a selection without a recovery scenario (say vram) leaves no counts
if [ -z "$ONLY" ] || [ -e \$PPU_BENCH_COUNTS ]; then
	\$B double || rc=1
fi
echo "PPU-BENCH: END rc=\$rc"
exit \$rc
PAYLOAD

echo "make bench: booting the PPU VM (QEMU, software emulation), one boot for every figure..."
rc=0
# 458 s for everything on an idle machine before the two-card figures,
# which add about 2 minutes; more next to a CI run: run-vm.sh's 900 s
# default is too close.
PPU_VM_QUIET=1 PPU_VM_TIMEOUT=${PPU_VM_TIMEOUT:-1200} PPU_IGT_BINS=" " \
	PPU_EXTRA_FILES="$ROOT/tools/ppu-bench" PPU_PARAMS="$PARAMS" \
	"$ROOT/scripts/vm/run-vm.sh" "$payload" "$LOG" >/dev/null 2>"$OUT/bench-vm.err" || rc=$?
rm -f "$payload"

sed -n '/^PPU-BENCH: BEGIN/,/^PPU-BENCH: END/p' "$LOG" |
	grep -v '^PPU-BENCH:' | grep -av '^\[ *[0-9.]*\] ' | tee "$OUT/bench.txt" || true

# the targets
awk -v only="$ONLY" '
function check(name, op, want,   ok) {
	if (!(name in v)) { if (only == "") printf "make bench: %-40s missing\n", name; return }
	ok = op == "<=" ? v[name] <= want : op == ">=" ? v[name] >= want : v[name] == want
	printf "make bench: %-40s %-8s target %2s %-5s %s\n", name, v[name], op, want, ok ? "met" : "MISSED"
}
function info(name, what) {
	if (name in v)
		printf "make bench: %-40s %-8s (%s)\n", name, v[name], what
	else if (only == "")
		printf "make bench: %-40s missing\n", name
}
$1 == "bench:" { v[$2] = $3 + 0 }
$1 == "bench:" && $2 ~ /^scale_wrong_verdicts_/ { wv += $3; nwv++ }
END {
	check("rfc_recovery_ratio", "<=", 1.15)
	check("guilty_position_ratio", "<=", 1.10)
	# the reset ladder: one ring reset instead of the domain
	check("ring_reset_rfc_ratio", "<=", 0.5)
	check("blast_radius_ring", "==", 0)
	info("blast_radius_domain", "the same runs with the domain reset, no target")
	check("ladder_wrong_verdicts", "==", 0)
	# gang submit: a gang of 4 behind a hang, right and wrong hints
	check("gang_innocent_lost", "==", 0)
	check("gang_double_execution", "==", 0)
	check("innocent_lost_serial", "==", 0)
	check("nop_throughput_ratio", ">=", 0.98)
	# device memory cleared after its free, in the background: its cost
	check("vram_alloc_64k_clear_ratio", ">=", 0.50)
	check("vram_alloc_64m_clear_ratio", ">=", 0.50)
	info("vram_clear_backlog_bytes", "largest backlog right after a 64 MB close")
	check("vram_clear_64m_vs_copy", ">=", 1)
	if ("recovery_growth_linearity" in v)
		printf "make bench: %-40s %-8s (1.0 = linear growth; %s ms per added ring)\n",
			"recovery_growth_linearity", v["recovery_growth_linearity"], v["recovery_ms_per_added_ring"]
	check("group_scaling_16_over_2", "<=", 1.5)
	info("serial_scaling_16_over_2", "serial strategy, no target")
	# wrong hints: never a wrong verdict, never innocent work lost
	check("innocent_lost_wrong_hints", "==", 0)
	check("wrong_hints_rfc_wrong_verdicts", "==", 0)
	if (nwv) v["scale_wrong_verdicts_total"] = wv
	check("scale_wrong_verdicts_total", "==", 0)
	# the evidence rule: a bystander beside a hang that does not reproduce
	check("rfc_hang_once_verdict_errors", "==", 0)
	check("wrong_hints_rfc_hang_once_verdict_errors", "==", 0)
	info("wrong_hints_rfc_time_ratio", "time over right hints, no target")
	info("wrong_hints_rfc_guilty_first_time_ratio", "time over right hints, no target")
	info("wrong_hints_serial_time_ratio_16", "time over right hints, no target")
	info("wrong_hints_group_time_ratio_16", "time over right hints, no target")
	# what every hint wrong costs over right hints, in one recovery
	split("serial group", vst, " ")
	for (i = 1; i <= 2; i++) {
		check("wrong_hints_" vst[i] "_extra_windows_16", "<=", 1)
		check("wrong_hints_" vst[i] "_extra_resets_16", "<=", 2)
	}
	# adversarial sets against the evidence rule, right/wrong/no hints
	split("flaky_bystander stalled_victim long_head starvation wait_pairs", vs, " ")
	split("right wrong unknown", vh, " ")
	for (i = 1; i <= 5; i++)
		for (j = 1; j <= 3; j++)
			check(vs[i] "_" vh[j] "_verdict_errors", "==", 0)
	for (j = 1; j <= 3; j++)
		check("starvation_" vh[j] "_recoveries_to_convict", "<=", 2)
	# liveness (issue 31): a hang, plain or behind a met WAIT, beside a
	# job longer than replay_budget_ms, both rungs, right/wrong/no hints
	split("hang wait_hang", la, " ")
	split("ring domain", lr, " ")
	split("right wrong none", lh, " ")
	for (i = 1; i <= 2; i++)
		for (j = 1; j <= 2; j++)
			for (k = 1; k <= 3; k++) {
				n = "liveness_" la[i] "_" lr[j] "_" lh[k]
				check(n "_recoveries_to_end", "<=", 2)
				check(n "_long_job_ratio", "<=", 1.5)
			}
	check("liveness_wrong_outcomes", "==", 0)
	# a process that forks a fresh child per hang (issue 31, 1b)
	check("fork_storm_victim_throughput_ratio", ">=", 0.5)
	check("fork_storm_victim_jobs_lost", "==", 0)
	check("fork_storm_victim_ctx_struck", "==", 0)
	# a hang storm on card A against card B (issue 32)
	check("multi_device_blast_radius", "==", 0)
	check("multi_device_quiet_throughput_ratio", ">=", 0.95)
	check("multi_device_quiet_recoveries", "==", 0)
	check("multi_device_storm_recoveries", ">=", 1)
	check("hostile_victim_jobs_lost", "==", 0)
	check("hostile_victim_ctx_struck", "==", 0)
	# The attacker hangs with HANG_ONCE: under the evidence rule such a
	# hang strikes it only when it timed out alone; isolation (isolate_ms,
	# on for this figure) runs its jobs alone after the first one.
	if ("hostile_attacker_banned_after_hangs" in v) {
		b = v["hostile_attacker_banned_after_hangs"]; lim = v["hostile_attacker_ban_limit_hangs"]
		ok = b >= 1 && b <= lim
		printf "make bench: %-40s %-8s target 1..%-4s %s\n", "hostile_attacker_banned_after_hangs",
			(b < 0 ? "never" : b), lim, ok ? "met" : "MISSED"
	} else if (only == "")
		printf "make bench: %-40s missing\n", "hostile_attacker_banned_after_hangs"
	info("hostile_attacker_strikes", "strikes on the attacker, no target")
	info("hostile_attacker_unstruck_hangs", "attacker hangs that struck nobody")
	check("double_execution", "==", 0)
	check("completed_without_run", "==", 0)
}' "$OUT/bench.txt"

echo "make bench: took $(( $(date +%s) - start ))s (serial log: $LOG)"
if [ "$rc" -ne 0 ]; then
	echo "make bench: the VM run failed (rc=$rc):"
	sed 's/^/    /' "$OUT/bench-vm.err"
	exit 1
fi
