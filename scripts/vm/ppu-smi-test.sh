#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# VM payload step (run by igt-payload.sh when it is in the initramfs as
# /extra/ppu-smi-test.sh, with /extra/ppu-smi and /extra/ppu-demo): checks
# ppu-smi's output against sysfs ras/ in each memory-health state.
#
#   healthy        erased flash, fresh load: exit 0, every number of
#                  --prometheus equal to sysfs, table and -q print; health
#                  healthy with no reason (ppu-smi health exit 0, table,
#                  -q, JSON "health_reasons": [], ppu_health 0 and every
#                  ppu_health_reason 0)
#   cecc-retired   weak cell + 3 reads: the page retired, retired pages and
#                  mem_total equal sysfs, still exit 0
#   scripting      -L: one line per PPU card of sysfs, PPU 0 with its
#                  serial and bus id; --version: "ppu-smi" and the
#                  version the driver reports; --query-gpu with all 27
#                  fields: the header, 27 fields a line, a line per
#                  device, each value equal to sysfs (or ppu-smi health
#                  and -q); noheader, nounits, both with -i 0; exit 2 for
#                  an unknown field or --format, --query-gpu without
#                  --format, -L with -q, a bad -l, -l with health; -l 1
#                  under timeout: SIGINT and SIGTERM exit 0 after two
#                  queries or more (CSV header once, a new timestamp each
#                  time), with -f the file whole, no temporary file left;
#                  --help-query-gpu lists those 27 fields, each accepted
#                  alone by --query-gpu; -lms 200 (and --loop-ms) under
#                  timeout: five queries or more in 2 s, exit 0; exit 2
#                  for -lms 0 and -lms with -L
#   events-lost    one read over 150 weak cells (600, 2400 if the driver
#                  kept up) overflows the device's
#                  event FIFO: ras/events_lost > 0, and -q "Events Lost",
#                  --prometheus ppu_ecc_events_lost_total and --json
#                  "events_lost" equal to it; still exit 0, ppu-smi
#                  health warning (exit 1, reason events_lost)
#   pending        a UECC in a VRAM buffer ppu-demo holds: exit 0, health
#                  warning (exit 1) with reasons retirement_pending and
#                  uecc_since_load while retirement_pending is 1, without
#                  retirement_pending once it is freed; the UECC's log
#                  line and its uevent (PIDS=) name the holder's PID
#   rma            ppu_sim with spare_rows=0, a UECC, reload: exit 0,
#                  health failure (exit 7, reason rma_required in health,
#                  -q, JSON, ppu_health_reason); --prometheus -f FILE
#                  writes FILE (ppu_rma_required 1), exit 0, no temporary
#                  file left; promtool check metrics on it in the guest
#                  when there is a promtool
#   damaged-store  a CECC page recorded, then a power cut 100 bytes into
#                  the first erase of a flash_reset (header gone, records
#                  left), reload: ras/ecc_store damaged, health failure
#                  (exit 0, ppu-smi health 7 with reason store_damaged,
#                  -q "ECC Store" history unavailable, Prometheus
#                  ppu_ecc_store_ok{state="damaged"} 0, JSON); ERASE to
#                  flash_reset and a reload: ok, exit 0
#                  (every state: flash wear and store state of -q and
#                  --prometheus equal to sysfs)
#   wedged         debugfs reset_ladder domain, ppu_sim fail_resets=1 and
#                  ppu-demo's hangs: recovery/state wedged; exit 0, health
#                  failure (exit 7, reason wedged), ppu_recovery_state
#                  {state="wedged"} 1, ppu_recovery_wedges_total and
#                  ppu_recovery_yields_total (and -q's Wedges and Yields)
#                  equal to recovery/wedges and recovery/yields;
#                  --prometheus -f FILE exits 0 and
#                  writes FILE; a reload unwedges
#   prometheus     every sample line matches the exposition format, every
#                  metric has HELP and TYPE (output of every state); on the
#                  host, promtool check metrics accepts the last document of
#                  each step (printed between "PPU-SMI-PROM: BEGIN <step>"
#                  and "PPU-SMI-PROM: END" after the json step)
#   errors         every exit code of ppu-smi(1) the VM can reach: -i 9
#                  and "-i 9 health": 6; bad -d, bad -i, an unknown
#                  argument, -f "": 2; -f in a missing directory: 6 and
#                  the old FILE kept; -f on a full tmpfs: 255, the old
#                  FILE kept, no temporary file left; ppu.ko unloaded: 9; as user nobody:
#                  4; nobody on a 0666 render node: exit 0, resets N/A
#                  (SKIP if su cannot switch users)
#   recovery-user  ppu-demo's hangs (as root), then ppu-smi as user nobody
#                  on a 0666 render node, no debugfs readable: the recovery
#                  status of --prometheus and -q equals sysfs recovery/
#                  (recoveries > 0, every ring's timeouts, verdicts and
#                  probes), and
#                  recovery/ shows no pid or command (SKIP if su cannot
#                  switch users)
#   processes      two clients, ppu-demo hold (64 KiB of VRAM) and
#                  ppu-demo worker (compute jobs): ppu-smi --processes
#                  lists each once with its PID, name, client id and
#                  memory as its /proc/<pid>/fdinfo says, the worker's
#                  compute time above 0, not ppu-smi itself; --processes
#                  --json too; as user nobody, not root's processes
#                  (SKIP of that part if su cannot switch users); once
#                  they exit, neither
#   exporter-unit  ppu-smi-exporter.service and .timer (ExecStart in
#                  /extra) under Debian's systemd, PID 1 of its own PID and
#                  mount namespace: systemctl start runs ppu-smi in the
#                  unit's sandbox, exit 0, result success, the textfile
#                  has PPU 0's ppu_health, mode 644, no temporary file; the
#                  timer rewrites it twice (90 s at most); without the
#                  textfile directory the condition skips the unit and
#                  nothing is created (SKIP without systemd or cgroup2)
#   json           host-side: every JSON document printed between
#                  "PPU-SMI-JSON: BEGIN <state>" and "PPU-SMI-JSON: END"
#                  parses (python3 in scripts/run-igt.sh)
#   restore        default modules, flash erased
#
# Prints for scripts/run-igt.sh:
#   PPU-SMI-TEST: BEGIN
#   PPU-SMI-TEST: <step>: PASS|FAIL|SKIP
#   PPU-SMI-TEST: END rc=N
# `ppu-smi-test.sh --list` prints the step names (on the host too).
STEPS="healthy cecc-retired scripting events-lost pending rma damaged-store wedged prometheus errors recovery-user processes exporter-unit json restore"
if [ "${1:-}" = --list ]; then
	for s in $STEPS; do echo "$s"; done
	exit 0
fi

# shellcheck disable=SC1091
[ -f /etc/vm.env ] && . /etc/vm.env
KMOD=${PPU_KMOD_DIR:-/kmod/ppu}
SMI=/extra/ppu-smi
DEMO=/extra/ppu-demo
DBG=/sys/kernel/debug/dri/0
RAS=/sys/class/drm/card0/device/ras
# the identity labels of every series: gpu and pci_bus_id (dcgm-exporter's
# names), the board serial
SERIAL=$(cat /sys/class/drm/card0/device/serial_number 2> /dev/null)
BUSID=$(basename "$(readlink -f /sys/class/drm/card0/device)")
D="gpu=\"0\",serial=\"$SERIAL\",pci_bus_id=\"$BUSID\""
HBM=$(( $(cat /sys/module/ppu_sim/parameters/hbm_mb 2>/dev/null || echo 256) * 1048576 ))
BANK=$(( HBM / $(cat /sys/module/ppu_sim/parameters/hbm_banks 2>/dev/null || echo 16) ))
PROM_ALL=/tmp/ppu-smi-prom.all
: > "$PROM_ALL"
rc_all=0
step_ok=1

log() { echo "ppu-smi-test: $*"; }
fail() { log "FAIL: $*"; step_ok=0; }
check() { # description, then a test command
	d=$1; shift
	if "$@"; then log "ok: $d"; else fail "$d"; fi
}
begin() { step=$1; step_ok=1; log "--- $step"; }
end() {
	if [ "${1:-}" = skip ]; then
		echo "PPU-SMI-TEST: $step: SKIP"
	elif [ $step_ok = 1 ]; then
		echo "PPU-SMI-TEST: $step: PASS"
	else
		echo "PPU-SMI-TEST: $step: FAIL"
		rc_all=1
	fi
}

hexaddr() { printf '0x%x' "$1"; }
# slot 14 of a bank: unused by ppu_ecc.c and ecc-reload.sh
taddr() { hexaddr $(( $3 * BANK + $1 * 1048576 + $2 * 65536 + 256 )); }
rd() { cat "$RAS/$1" 2>/dev/null; }
inject() { echo "$*" > "$DBG/ras_inject"; }
uecc() { inject "flip2 $1 3 17" && inject "read $1 8"; }
wait_card() {
	i=0
	while [ ! -e "$RAS/mem_total" ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
	[ -e "$RAS/mem_total" ]
}
# shellcheck disable=SC2120 # extra ppu.ko params, none used yet
reload_ppu() {
	rmmod ppu || { fail "rmmod ppu"; return 1; }
	# shellcheck disable=SC2086
	insmod "$KMOD/ppu.ko" $PPU_PARAMS "$@" || { fail "insmod ppu.ko $*"; return 1; }
	wait_card || fail "no $RAS after insmod"
}
reload_sim() {
	rmmod ppu || { fail "rmmod ppu"; return 1; }
	rmmod ppu_sim || { fail "rmmod ppu_sim"; return 1; }
	# shellcheck disable=SC2086
	insmod "$KMOD/ppu_sim.ko" $PPU_SIM_PARAMS "$@" || { fail "insmod ppu_sim.ko $*"; return 1; }
	# shellcheck disable=SC2086
	insmod "$KMOD/ppu.ko" $PPU_PARAMS || { fail "insmod ppu.ko"; return 1; }
	wait_card || fail "no $RAS after insmod"
}

# run ppu-smi, keep stdout in /tmp/smi.out, return its exit code in $smi_rc
smi() {
	"$SMI" "$@" > /tmp/smi.out 2> /tmp/smi.err
	smi_rc=$?
	[ -s /tmp/smi.err ] && sed 's/^/ppu-smi-test:   stderr: /' /tmp/smi.err
	return 0
}
# the value of a Prometheus sample: pv <metric{labels}>
pv() { awk -v k="$1" '$1 == k { print $2 }' /tmp/prom.out; }
prom() {
	"$SMI" --prometheus > /tmp/prom.out 2> /tmp/smi.err
	prom_rc=$?
	cat /tmp/prom.out >> "$PROM_ALL"
	# the last document of each step, for promtool on the host
	cp /tmp/prom.out "/tmp/prom.state.$step"
}
json() { # state name
	"$SMI" --json > /tmp/json.out 2>&1
	echo "PPU-SMI-JSON: BEGIN $1"
	cat /tmp/json.out
	echo "PPU-SMI-JSON: END"
}
eq() { # description, ppu-smi value, sysfs value
	if [ -n "$2" ] && [ "$2" = "$3" ]; then
		log "ok: $1 = $2"
	else
		fail "$1: ppu-smi '$2' sysfs '$3'"
	fi
}
pages_of() { # cause state: count of sysfs retired_pages lines
	awk -v c="$1" -v s="$2" '$2 == c && $3 == s' "$RAS/retired_pages" | wc -l
}
# every number of --prometheus against sysfs
compare_all() {
	prom
	check "--prometheus exits 0 whatever the health ($prom_rc)" [ "$prom_rc" = 0 ]
	# the ECC store: its state and the flash's wear
	store=$(rd ecc_store)
	eq "ecc_store state label" \
		"$(sed -n 's/^ppu_ecc_store_ok{.*state="\([^"]*\)".*/\1/p' /tmp/prom.out)" "$store"
	eq "ecc_store ok" "$(pv "ppu_ecc_store_ok{$D,state=\"$store\"}")" \
		"$([ "$store" = ok ] && echo 1 || echo 0)"
	eq flash_erases "$(pv "ppu_flash_erases_total{$D}")" "$(rd flash_erases)"
	eq flash_writes "$(pv "ppu_flash_writes_total{$D}")" "$(rd flash_writes)"
	smi -q -d ECC
	qstore() { awk -F': ' -v k="$1" '/^    ECC Store/ { s = 1; next }
		s && $1 ~ "^        " k " " { print $2; exit }' /tmp/smi.out; }
	eq "-q ECC Store State" "$(qstore State)" "$store"
	eq "-q ECC Store Flash Erases" "$(qstore "Flash Erases")" "$(rd flash_erases)"
	eq "-q ECC Store Flash Writes" "$(qstore "Flash Writes")" "$(rd flash_writes)"
	eq "-q ECC Errors Events Lost" \
		"$(awk -F': ' '/^        Events Lost / { print $2; exit }' /tmp/smi.out)" \
		"$(rd events_lost)"
	for t in ce:correctable ue:uncorrectable parity:parity; do
		f=${t%%:*}; n=${t#*:}
		for s in volatile aggregate; do
			eq "$n $s" "$(pv "ppu_ecc_errors_${s}_total{$D,type=\"$n\"}")" \
				"$(rd "${f}_count_$s")"
		done
	done
	eq mem_total "$(pv "ppu_memory_total_bytes{$D}")" "$(rd mem_total)"
	eq mem_available "$(pv "ppu_memory_available_bytes{$D}")" "$(rd mem_available)"
	eq retirement_pending "$(pv "ppu_retirement_pending{$D}")" "$(rd retirement_pending)"
	eq reset_recommended "$(pv "ppu_reset_recommended{$D}")" "$(rd reset_recommended)"
	eq events_lost "$(pv "ppu_ecc_events_lost_total{$D}")" "$(rd events_lost)"
	eq remapped_rows_correctable "$(pv "ppu_remapped_rows{$D,type=\"correctable\"}")" \
		"$(rd remapped_rows_correctable)"
	eq remapped_rows_uncorrectable "$(pv "ppu_remapped_rows{$D,type=\"uncorrectable\"}")" \
		"$(rd remapped_rows_uncorrectable)"
	eq remapped_rows_pending "$(pv "ppu_remapped_rows{$D,type=\"pending\"}")" \
		"$(rd remapped_rows_pending)"
	eq remapped_rows_failure "$(pv "ppu_remap_failure{$D}")" "$(rd remapped_rows_failure)"
	for l in max high partial low none; do
		eq "histogram $l" "$(pv "ppu_bank_remap_availability{$D,level=\"$l\"}")" \
			"$(awk -v l=$l '{ for (i = 1; i < NF; i++) if ($i == l) print $(i + 1) }' \
				"$RAS/row_remapper_histogram")"
	done
	case $(rd rma_status) in
	none) st=0 ;; warning) st=1 ;; rma) st=2 ;; *) st=unknown ;;
	esac
	eq rma_status "$(pv "ppu_rma_status{$D}")" "$st"
	eq rma_required "$(pv "ppu_rma_required{$D}")" "$([ "$st" = 2 ] && echo 1 || echo 0)"
	for r in repair_failure retired_pages uecc; do
		eq "rma_reason $r" "$(pv "ppu_rma_reason{$D,reason=\"$r\"}")" \
			"$(grep -qw $r "$RAS/rma_reason" && echo 1 || echo 0)"
	done
	eq ecc_mode "$(pv "ppu_ecc_enabled{$D}")" "$([ "$(rd ecc_mode)" = on ] && echo 1 || echo 0)"
	for c in cecc uecc; do
		for s in reserved pending failed; do
			eq "retired pages $c $s" \
				"$(pv "ppu_retired_pages{$D,cause=\"$c\",state=\"$s\"}")" \
				"$(pages_of $c $s)"
		done
	done
	# rings: one ppu_ring_timeouts_total per ring line
	eq "recovery readable as root" "$(pv "ppu_recovery_readable{$D}")" 1
	rings=$(awk '/^ring +kind/ { t = 1; next } t && NF >= 7 { print $1 }' "$DBG/ring_recovery")
	for r in $rings; do
		eq "ring $r timeouts" "$(pv "ppu_ring_timeouts_total{$D,ring=\"$r\"}")" \
			"$(awk -v r="$r" '/^ring +kind/ { t = 1; next } t && $1 == r { print $3 }' "$DBG/ring_recovery")"
	done
	# -q shows the retired pages of sysfs
	smi -q -d PAGE_RETIREMENT
	eq "-q retired page lines" "$(grep -c '^        0x' /tmp/smi.out)" \
		"$(grep -c . "$RAS/retired_pages")"
	eq "-q total retired" "$(awk -F': ' '/^        Total/ { print $2 }' /tmp/smi.out)" \
		"$(grep -c . "$RAS/retired_pages")"
}
expect_rc() { # description, expected exit code, ppu-smi args...
	d=$1; want=$2; shift 2
	smi "$@"
	check "$d: ppu-smi $* exits $want (got $smi_rc)" [ "$smi_rc" = "$want" ]
}
# the health verdict and its reasons everywhere ppu-smi shows them:
# expect_health <level> <exit code of ppu-smi health> <reason>...
expect_health() {
	lvl=$1; hrc=$2; shift 2
	# the sorted reasons, "none" for none
	hwant=$(echo "$@" | tr ' ' '\n' | sed '/^$/d' | sort | tr '\n' ' ')
	hwant=${hwant:-none}
	expect_rc "health $lvl" "$hrc" health
	sed 's/^/ppu-smi-test:   /' /tmp/smi.out
	check "health: PPU 0: $lvl" grep -q "^PPU 0: $lvl" /tmp/smi.out
	smi -q -d RMA
	eq "-q Health" "$(awk -F': ' '/^    Health  / { print $2 }' /tmp/smi.out)" "$lvl"
	got=$(awk -F': ' '/^    Health Reasons/ { print $2 }' /tmp/smi.out | tr -d ',' |
	      tr ' ' '\n' | sed '/^$/d; /^none$/d' | sort | tr '\n' ' ')
	eq "-q Health Reasons" "${got:-none}" "$hwant"
	"$SMI" --json > /tmp/hjson.out 2> /dev/null
	got=$(sed -n 's/^ *"health_reasons": \[\(.*\)\],$/\1/p' /tmp/hjson.out |
	      tr -d '",' | tr ' ' '\n' | sed '/^$/d' | sort | tr '\n' ' ')
	check "JSON has health_reasons" grep -q '^      "health_reasons": \[' /tmp/hjson.out
	eq "JSON health_reasons" "${got:-none}" "$hwant"
	check "JSON health $lvl" grep -q "^      \"health\": \"$lvl\"," /tmp/hjson.out
	prom
	case $lvl in healthy) n=0 ;; warning) n=1 ;; *) n=2 ;; esac
	eq "ppu_health" "$(pv "ppu_health{$D}")" "$n"
	got=$(awk '/^ppu_health_reason\{/ && $2 == 1' /tmp/prom.out |
	      sed 's/.*reason="\([^"]*\)".*/\1/' | sort | tr '\n' ' ')
	eq "ppu_health_reason 1s" "${got:-none}" "$hwant"
	check "ppu_health_reason for each of the 11 reasons" \
		[ "$(grep -c '^ppu_health_reason{' /tmp/prom.out)" = 11 ]
}
# --prometheus -f FILE: written whatever the health, exit 0, nothing left
# in FILE's directory but FILE; promtool on it when the guest has one
expect_prom_file() {
	rm -rf /tmp/textfile
	mkdir -p /tmp/textfile
	echo stale > /tmp/textfile/ppu.prom
	smi --prometheus -f /tmp/textfile/ppu.prom
	check "--prometheus -f exits 0 (got $smi_rc)" [ "$smi_rc" = 0 ]
	check "--prometheus -f: nothing on stdout" [ ! -s /tmp/smi.out ]
	check "--prometheus -f: FILE replaced" grep -q '^ppu_health{' /tmp/textfile/ppu.prom
	# shellcheck disable=SC2012 # names of our own making
	check "--prometheus -f: no temporary file left ($(ls -A /tmp/textfile | tr '\n' ' '))" \
		[ "$(ls -A /tmp/textfile)" = ppu.prom ]
	check "--prometheus -f: $1" grep -q "^$1\$" /tmp/textfile/ppu.prom
	# for promtool on the host as well
	cp /tmp/textfile/ppu.prom "/tmp/prom.state.$step-file"
	if command -v promtool > /dev/null 2>&1; then
		check "promtool check metrics on FILE" \
			sh -c "promtool check metrics < /tmp/textfile/ppu.prom"
	else
		log "no promtool in the guest: FILE checked by promtool on the host"
	fi
}

echo "PPU-SMI-TEST: BEGIN"
if [ ! -x "$SMI" ] || [ ! -d "$RAS" ] || [ ! -e "$DBG/ras_inject" ]; then
	log "no $SMI, $RAS or $DBG/ras_inject"
	for s in $STEPS; do echo "PPU-SMI-TEST: $s: FAIL"; done
	echo "PPU-SMI-TEST: END rc=1"
	exit 1
fi

# ------------------------------------------------------------------------
begin healthy
echo ERASE > "$DBG/flash_reset" || fail "flash_reset"
reload_ppu
check "nothing retired" [ -z "$(cat "$RAS/retired_pages")" ]
expect_rc "healthy" 0
sed 's/^/ppu-smi-test:   /' /tmp/smi.out
check "table shows the memory total" grep -q "/ $(( $(rd mem_total) >> 20 )) MiB" /tmp/smi.out
check "table shows a ring" grep -q "gfx0" /tmp/smi.out
expect_rc "healthy -q" 0 -q
sed 's/^/ppu-smi-test:   /' /tmp/smi.out
check "-q: Health healthy" grep -q "^    Health  *: healthy" /tmp/smi.out
# the board serial: what the device reports, the same after the reload
check "serial_number is 16 hex digits ($SERIAL)" sh -c "echo '$SERIAL' | grep -qE '^[0-9a-f]{16}\$'"
check "serial_number is the device's (ppu_sim serial)" \
	[ "$((0x$SERIAL))" = "$(($(cat /sys/module/ppu_sim/parameters/serial)))" ]
check "serial_number the same after the reload" \
	[ "$(cat /sys/class/drm/card0/device/serial_number)" = "$SERIAL" ]
check "-q: Serial Number" grep -q "^    Serial Number  *: $SERIAL\$" /tmp/smi.out
expect_rc "healthy -q -d" 0 -q -d ECC,PAGE_RETIREMENT,ROW_REMAPPER,RECOVERY,RMA
check "-q -d ECC: no Memory Usage section" sh -c '! grep -q "Memory Usage" /tmp/smi.out'
check "-q -d RECOVERY: ring table" grep -q "^        gfx0 " /tmp/smi.out
compare_all
expect_health healthy 0
smi
check "table: Health healthy, reasons none" \
	grep -q "| Health: healthy  reasons: none " /tmp/smi.out
eq "ppu_device_info with serial and bus id" \
	"$(awk -v k="ppu_device_info{$D," 'index($1, k) == 1 { print $2 }' /tmp/prom.out)" 1
json healthy
end

# ------------------------------------------------------------------------
begin cecc-retired
C=$(taddr 14 0 2)
inject "weak $C 5" || fail "weak $C"
for i in 1 2 3; do inject "read $C 8" || fail "read $C"; done
check "a page retired (sysfs)" [ "$(grep -c . "$RAS/retired_pages")" = 1 ]
expect_rc "one CECC page" 0
compare_all
eq "mem_total one page short" "$(pv "ppu_memory_total_bytes{$D}")" $((HBM - 65536))
json cecc-retired
end

# ------------------------------------------------------------------------
# the scripting surface: -L, --version, --query-gpu with --format=csv,
# -l until SIGINT or SIGTERM (busybox timeout exits with ppu-smi's status)
begin scripting
# the devices libppu finds: the DRM cards of ppu.ko
ndev=0
for c in /sys/class/drm/card[0-9]*; do
	case ${c##*/} in *-*) continue ;; esac
	[ "$(basename "$(readlink -f "$c/device/driver/module")")" = ppu ] &&
		ndev=$((ndev + 1))
done
check "sysfs: PPU cards ($ndev)" [ "$ndev" -ge 1 ]
expect_rc "-L" 0 -L
sed 's/^/ppu-smi-test:   /' /tmp/smi.out
eq "-L: one line per device" "$(grep -c . /tmp/smi.out)" "$ndev"
check "-L: PPU 0, its serial and bus id" \
	grep -qx "PPU 0: PPU (serial: $SERIAL, bus id: $BUSID)" /tmp/smi.out
expect_rc "-L -i 0" 0 -L -i 0
eq "-L -i 0: one line" "$(grep -c . /tmp/smi.out)" 1
# the project's version: the one the loaded driver (of the same tree) reports
smi -q -d RMA
drv=$(awk -F': ' '/^Driver Version/ { print $2 }' /tmp/smi.out)
expect_rc "--version" 0 --version
eq "--version: the driver's version" "$(cat /tmp/smi.out)" "ppu-smi $drv"
check "--version: X.Y.0" grep -qxE 'ppu-smi [0-9]+\.[0-9]+\.0' /tmp/smi.out
F=timestamp,index,serial,pci.bus_id,driver_version,health,health.reasons,recovery.state,ecc.mode.current
F=$F,ecc.errors.corrected.volatile.total,ecc.errors.corrected.aggregate.total
F=$F,ecc.errors.uncorrected.volatile.total,ecc.errors.uncorrected.aggregate.total
F=$F,ecc.errors.parity.volatile.total,ecc.errors.parity.aggregate.total
F=$F,retired_pages.count,retired_pages.cecc.count,retired_pages.uecc.count,retired_pages.pending
F=$F,remapped_rows.correctable,remapped_rows.uncorrectable,remapped_rows.pending,remapped_rows.failure
F=$F,rma.status,memory.total,memory.used,memory.free
expect_rc "--query-gpu every field" 0 --query-gpu=$F --format=csv
sed 's/^/ppu-smi-test:   /' /tmp/smi.out
eq "--query-gpu: a header and a line per device" "$(grep -c . /tmp/smi.out)" $((ndev + 1))
eq "--query-gpu: the header" "$(head -n 1 /tmp/smi.out)" \
	"$(echo "$F" | sed 's/,/, /g; s/memory\.total/& [MiB]/; s/memory\.used/& [MiB]/; s/memory\.free/& [MiB]/')"
eq "--query-gpu: 27 fields on every line" \
	"$(awk -F', ' '{ print NF }' /tmp/smi.out | sort -u)" 27
# the value of a field of PPU 0, by its name in the header
qv() { awk -F', ' -v k="$1" 'NR == 1 { for (i = 1; i <= NF; i++) { h = $i
	sub(/ \[.*/, "", h); if (h == k) c = i } } NR == 2 { print $c }' /tmp/smi.out; }
yes_no() { [ "$1" = 1 ] && echo Yes || echo No; }
check "timestamp: UTC ISO 8601 ($(qv timestamp))" \
	sh -c "echo '$(qv timestamp)' | grep -qxE '[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z'"
eq "index" "$(qv index)" 0
eq "serial" "$(qv serial)" "$SERIAL"
eq "pci.bus_id" "$(qv pci.bus_id)" "$BUSID"
eq "driver_version" "$(qv driver_version)" "$drv"
eq "recovery.state" "$(qv recovery.state)" "$(cat /sys/class/drm/card0/device/recovery/state)"
eq "ecc.mode.current" "$(qv ecc.mode.current)" \
	"$([ "$(rd ecc_mode)" = on ] && echo Enabled || echo Disabled)"
for t in corrected:ce uncorrected:ue parity:parity; do
	for s in volatile aggregate; do
		eq "ecc.errors.${t%%:*}.$s.total" "$(qv "ecc.errors.${t%%:*}.$s.total")" \
			"$(rd "${t#*:}_count_$s")"
	done
done
eq "retired_pages.count" "$(qv retired_pages.count)" "$(grep -c . "$RAS/retired_pages")"
eq "retired_pages.cecc.count" "$(qv retired_pages.cecc.count)" \
	"$(awk '$2 == "cecc"' "$RAS/retired_pages" | wc -l)"
eq "retired_pages.uecc.count" "$(qv retired_pages.uecc.count)" \
	"$(awk '$2 == "uecc"' "$RAS/retired_pages" | wc -l)"
eq "retired_pages.pending" "$(qv retired_pages.pending)" "$(yes_no "$(rd retirement_pending)")"
for r in correctable uncorrectable pending; do
	eq "remapped_rows.$r" "$(qv remapped_rows.$r)" "$(rd remapped_rows_$r)"
done
eq "remapped_rows.failure" "$(qv remapped_rows.failure)" "$(yes_no "$(rd remapped_rows_failure)")"
eq "rma.status" "$(qv rma.status)" "$(rd rma_status)"
tot=$(rd mem_total); av=$(rd mem_available)
eq "memory.total" "$(qv memory.total)" "$((tot >> 20)) MiB"
eq "memory.used" "$(qv memory.used)" "$(((tot - av) >> 20)) MiB"
eq "memory.free" "$(qv memory.free)" "$((av >> 20)) MiB"
hq=$(qv health); hr=$(qv health.reasons)
smi health
eq "health: as ppu-smi health" "$hq" "$(sed -n 's/^PPU 0: \([a-z]*\).*/\1/p' /tmp/smi.out)"
smi -q -d RMA
eq "health.reasons: as -q" "$hr" \
	"$(awk -F': ' '/^    Health Reasons/ { print $2 }' /tmp/smi.out | sed 's/, / /g')"
expect_rc "--format=csv,noheader" 0 --query-gpu=index,memory.total --format=csv,noheader
eq "noheader: a line per device" "$(grep -c . /tmp/smi.out)" "$ndev"
eq "noheader: PPU 0" "$(head -n 1 /tmp/smi.out)" "0, $((tot >> 20)) MiB"
expect_rc "--format=csv,nounits" 0 --query-gpu=index,memory.total --format=csv,nounits
eq "nounits: the header keeps the unit" "$(head -n 1 /tmp/smi.out)" "index, memory.total [MiB]"
eq "nounits: PPU 0" "$(sed -n 2p /tmp/smi.out)" "0, $((tot >> 20))"
expect_rc "--format=csv,noheader,nounits -i 0" 0 -i 0 \
	--query-gpu=index,memory.free --format=csv,noheader,nounits
eq "noheader,nounits -i 0" "$(cat /tmp/smi.out)" "0, $((av >> 20))"
expect_rc "unknown field" 2 --query-gpu=index,bogus --format=csv
check "unknown field: named on stderr" grep -q "unknown --query-gpu field 'bogus'" /tmp/smi.err
check "unknown field: nothing on stdout" [ ! -s /tmp/smi.out ]
# --help-query-gpu: the fields above, in that order, each one accepted
expect_rc "--help-query-gpu" 0 --help-query-gpu
hf=$(sed -n '/^$/,$p' /tmp/smi.out | awk 'NF { printf "%s%s", s, $1; s = "," }')
eq "--help-query-gpu: the 27 fields of ppu-smi(1)" "$hf" "$F"
for f in $(echo "$hf" | tr , " "); do
	smi --query-gpu="$f" --format=csv,noheader
	[ "$smi_rc" = 0 ] || fail "--help-query-gpu: $f not accepted (exit $smi_rc)"
done
log "ok: --query-gpu accepts every field --help-query-gpu lists"
expect_rc "--query-gpu without --format" 2 --query-gpu=index
expect_rc "unknown --format" 2 --query-gpu=index --format=json
expect_rc "--format without --query-gpu" 2 --format=csv
expect_rc "-L with -q" 2 -L -q
expect_rc "--query-gpu with --json" 2 --query-gpu=index --format=csv --json
expect_rc "-l 0" 2 -l 0 -q
expect_rc "-l x" 2 -l x -q
expect_rc "-l with health" 2 -l 1 health
expect_rc "-lms 0" 2 -lms 0 -q
expect_rc "-lms with -L" 2 -lms 100 -L
# The loops are judged by what they print, never by how many reports a
# guest manages in so many seconds (a debug kernel under load manages
# fewer): loop_run waits until PATTERN has been printed N times (at most
# 60 s, a liveness bound), then sends SIG. The time it took is a lower
# bound check on the interval: N reports are N - 1 intervals apart.
now_ms() { # from /proc/uptime, to the hundredth of a second
	read -r up _ < /proc/uptime
	echo $((${up%.*} * 1000 + (1${up#*.} - 100) * 10))
}
loop_run() { # SIG PATTERN N ppu-smi args...: sets loop_rc, loop_n, loop_ms
	sig=$1; pat=$2; want=$3; shift 3
	t0=$(now_ms)
	"$SMI" "$@" > /tmp/loop.out 2> /tmp/smi.err &
	pid=$!
	loop_n=0
	while [ $(($(now_ms) - t0)) -lt 60000 ]; do
		loop_n=$(grep -c -- "$pat" /tmp/loop.out)
		[ "$loop_n" -ge "$want" ] && break
		sleep 0.05
	done
	loop_ms=$(($(now_ms) - t0))
	kill -s "$sig" $pid
	wait $pid
	loop_rc=$?
	sed 's/^/ppu-smi-test:   loop: /' /tmp/loop.out /tmp/smi.err | tail -n 20
}
# -l 1, ended by SIGINT: one header, a report a second at most, exit 0
loop_run INT ', 0$' 3 -l 1 --query-gpu=timestamp,index --format=csv
check "-l 1, SIGINT: exit 0 (got $loop_rc)" [ $loop_rc = 0 ]
check "-l 1: PPU 0 three times ($loop_n)" [ "$loop_n" -ge 3 ]
check "-l 1: the header once" [ "$(grep -c '^timestamp, index$' /tmp/loop.out)" = 1 ]
check "-l 1: three reports no sooner than 2 s ($loop_ms ms)" [ "$loop_ms" -ge 2000 ]
n=$(grep -c ', 0$' /tmp/loop.out)
check "-l 1: a new timestamp each time" \
	[ "$(grep ', 0$' /tmp/loop.out | sort -u | wc -l)" = "$n" ]
# SIGTERM ends it cleanly too
loop_run TERM '^==============PPU-SMI LOG' 2 -l 1 -q -d RMA
check "-l 1 -q, SIGTERM: exit 0 (got $loop_rc)" [ $loop_rc = 0 ]
check "-l 1 -q: two reports ($loop_n)" [ "$loop_n" -ge 2 ]
# -lms 200 (nvidia-smi's spelling) and --loop-ms: milliseconds, not
# seconds; five reports are four intervals of 200 ms at least
loop_run INT ', 0$' 5 -lms 200 --query-gpu=timestamp,index --format=csv,noheader
check "-lms 200, SIGINT: exit 0 (got $loop_rc)" [ $loop_rc = 0 ]
check "-lms 200: PPU 0 five times ($loop_n)" [ "$loop_n" -ge 5 ]
check "-lms 200: five reports no sooner than 800 ms ($loop_ms ms)" [ "$loop_ms" -ge 800 ]
check "-lms 200: no header" [ "$(grep -c '^timestamp' /tmp/loop.out)" = 0 ]
loop_run TERM '^0$' 2 --loop-ms 200 --query-gpu=index --format=csv,noheader
check "--loop-ms 200, SIGTERM: exit 0 (got $loop_rc)" [ $loop_rc = 0 ]
check "--loop-ms 200: PPU 0 twice ($loop_n)" [ "$loop_n" -ge 2 ]
# with -f: FILE replaced each time, whole, and no temporary file left.
# Run until FILE has been replaced once (a new inode), at most 60 s.
rm -rf /tmp/loopf
mkdir -p /tmp/loopf
"$SMI" -l 1 --query-gpu=index --format=csv -f /tmp/loopf/ppu.csv \
	> /tmp/loop.out 2> /tmp/smi.err &
pid=$!
t0=$(now_ms)
ino0=
ino=
while [ $(($(now_ms) - t0)) -lt 60000 ]; do
	ino=$(stat -c %i /tmp/loopf/ppu.csv 2> /dev/null)
	[ -z "$ino0" ] && ino0=$ino
	[ -n "$ino0" ] && [ "$ino" != "$ino0" ] && break
	sleep 0.05
done
kill -s TERM $pid
wait $pid
r=$?
check "-l 1 -f, SIGTERM: exit 0 (got $r)" [ $r = 0 ]
replaced=0
[ -n "$ino0" ] && [ "$ino" != "$ino0" ] && replaced=1
check "-l 1 -f: FILE replaced (inode $ino0, then $ino)" [ $replaced = 1 ]
check "-l 1 -f: nothing on stdout" [ ! -s /tmp/loop.out ]
eq "-l 1 -f: FILE has its header and a line per device" \
	"$(grep -c . /tmp/loopf/ppu.csv)" $((ndev + 1))
check "-l 1 -f: FILE starts with the header" grep -qx 'index' /tmp/loopf/ppu.csv
# shellcheck disable=SC2012 # names of our own making
check "-l 1 -f: no temporary file left ($(ls -A /tmp/loopf | tr '\n' ' '))" \
	[ "$(ls -A /tmp/loopf)" = ppu.csv ]
end

# ------------------------------------------------------------------------
begin events-lost
lost0=$(rd events_lost)
# How fast the driver keeps up depends on the guest (a debug kernel may
# drain 150 events as fast as they come): bursts of 150, 600 and 2400
# weak cells, each in a page of its own, until the FIFO overflows.
k=1
for n in 150 600 2400; do
	L=$(taddr 14 $k 3)
	i=0
	while [ $i -lt $n ]; do
		inject "weak $(hexaddr $((L + 8 * i))) 5" || fail "weak at $L + $((8 * i))"
		i=$((i + 1))
	done
	inject "read $L $((8 * n))" || fail "read $L"
	# the overflow event comes after the FIFO drained
	i=0
	while [ "$(rd events_lost)" = "$lost0" ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
	[ "$(rd events_lost)" = "$lost0" ] || break
	k=$((k + 1))
done
check "events lost (sysfs $(rd events_lost), before $lost0)" \
	[ "$(rd events_lost)" -gt "$lost0" ]
expect_rc "events lost" 0
compare_all
expect_health warning 1 events_lost
json events-lost
eq "--json events_lost" \
	"$(sed -n 's/^ *"events_lost": \([0-9]*\).*/\1/p' /tmp/json.out)" \
	"$(rd events_lost)"
end

# ------------------------------------------------------------------------
begin pending
"$DEMO" hold 60 vram &
HOLD=$!
i=0
while [ -z "$(cat "$DBG/vram_bos")" ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
U=$(hexaddr $(( $(tail -n 1 "$DBG/vram_bos" | cut -d' ' -f1) + 256 )))
# the uevents of the UECC (busybox uevent on the kernel's netlink socket)
cat > /tmp/uevent-log.sh <<'UEV'
#!/bin/sh
env | grep -E '^(PPU_RAS_EVENT|ADDRESS|PIDS)=' | sort | tr '\n' ' ' >> /tmp/uevents.log
echo >> /tmp/uevents.log
UEV
chmod +x /tmp/uevent-log.sh
: > /tmp/uevents.log
uevent /tmp/uevent-log.sh &
UEVPID=$!
sleep 0.5
dmesg -c > /dev/null
uecc "$U" || fail "UECC at $U"
sleep 0.5
kill "$UEVPID" 2> /dev/null; wait "$UEVPID" 2> /dev/null
sed 's/^/ppu-smi-test:   uevent: /' /tmp/uevents.log
dmesg | grep 'uncorrectable memory error' | sed 's/^/ppu-smi-test:   dmesg: /'
check "the UECC's log line names the holder (pid $HOLD)" \
	sh -c "dmesg | grep -q 'uncorrectable memory error at $U: .*held by pid $HOLD)'"
check "the UECC's uevent names the holder (PIDS=$HOLD)" \
	grep -q "ADDRESS=$U PIDS=$HOLD PPU_RAS_EVENT=uecc" /tmp/uevents.log
check "sysfs: retirement pending" [ "$(rd retirement_pending)" = 1 ]
expect_rc "pending" 0
compare_all
expect_health warning 1 events_lost retirement_pending uecc_since_load
smi -q -d PAGE_RETIREMENT
check "-q: Pending Page Retirement Yes" grep -q "Pending Page Retirement *: Yes" /tmp/smi.out
json pending
kill "$HOLD"; wait "$HOLD" 2> /dev/null
check "sysfs: retirement done once the buffer is freed" [ "$(rd retirement_pending)" = 0 ]
expect_rc "retirement done" 0
compare_all
expect_health warning 1 events_lost uecc_since_load
end

# ------------------------------------------------------------------------
begin rma
reload_sim spare_rows=0
E=$(taddr 14 2 4)
uecc "$E" || fail "UECC at $E"
reload_ppu
check "sysfs: rma_status rma" [ "$(rd rma_status)" = rma ]
expect_rc "RMA" 0
expect_rc "RMA -q" 0 -q -d RMA
check "-q: Status rma" grep -q "Status *: rma" /tmp/smi.out
check "-q: reason repair_failure" grep -q "Reasons *: .*repair_failure" /tmp/smi.out
compare_all
# the reload keeps the aggregate, not the volatile UECC; the RMA verdict
# may come with its warning-level companions: only the failure is certain
expect_rc "RMA: health failure" 7 health
check "health: failure (rma_required)" grep -q "^PPU 0: failure (.*rma_required" /tmp/smi.out
prom
eq "ppu_health failure" "$(pv "ppu_health{$D}")" 2
eq "ppu_health_reason rma_required" "$(pv "ppu_health_reason{$D,reason=\"rma_required\"}")" 1
"$SMI" --json > /tmp/hjson.out 2> /dev/null
check "JSON health_reasons has rma_required" \
	grep -q '^      "health_reasons": \[.*"rma_required"' /tmp/hjson.out
expect_prom_file "ppu_rma_required{$D} 1"
json rma
end

# ------------------------------------------------------------------------
# A damaged ECC store: the only "error" health. A power cut (debugfs
# powercut) 100 bytes into the first erased block of a flash_reset takes
# image A's header and leaves its records: neither blank nor a store.
begin damaged-store
reload_sim
C=$(taddr 14 1 3)
inject "weak $C 5" || fail "weak $C"
for i in 1 2 3; do inject "read $C 8" || fail "read $C"; done
expect_rc "store ok" 0
check "sysfs: ecc_store ok" [ "$(rd ecc_store)" = ok ]
check "sysfs: flash writes counted ($(rd flash_writes))" [ "$(rd flash_writes)" -ge 3 ]
compare_all
inject "powercut 1 100" || fail "powercut 1 100"
echo ERASE > "$DBG/flash_reset" || fail "flash_reset with the power cut"
reload_ppu
check "sysfs: ecc_store damaged" [ "$(rd ecc_store)" = damaged ]
expect_rc "damaged store" 0
sed 's/^/ppu-smi-test:   /' /tmp/smi.out
expect_health failure 7 store_damaged
smi -q
check "-q: ECC Store State damaged" grep -q "^        State  *: damaged" /tmp/smi.out
check "-q: ECC Store History unavailable" grep -q "^        History  *: unavailable" /tmp/smi.out
compare_all
eq "ppu_ecc_store_ok damaged" "$(pv "ppu_ecc_store_ok{$D,state=\"damaged\"}")" 0
json damaged-store
check "JSON: history_available false" \
	grep -q '"ecc_store": {"state": "damaged", "history_available": false' /tmp/json.out
# the admin's procedure (admin-guide.rst): format on request, reload
echo ERASE > "$DBG/flash_reset" || fail "flash_reset"
reload_ppu
check "after ERASE and a reload: ecc_store ok" [ "$(rd ecc_store)" = ok ]
expect_rc "healthy after the procedure" 0
expect_health healthy 0
end

# ------------------------------------------------------------------------
# A failed device reset wedges the device: every job ends with an error
# until the driver is reloaded. The recovery must take the domain rung
# (the one ppu_sim's fail_resets fails), hence debugfs reset_ladder.
begin wedged
REC=/sys/class/drm/card0/device/recovery
echo domain > "$DBG/reset_ladder" || fail "reset_ladder domain"
echo 1 > /sys/module/ppu_sim/parameters/fail_resets || fail "fail_resets"
timeout 120 "$DEMO" > /tmp/demo.out 2>&1
echo 0 > /sys/module/ppu_sim/parameters/fail_resets
check "sysfs: recovery/state wedged ($(cat "$REC/state"))" \
	[ "$(cat "$REC/state")" = wedged ]
check "sysfs: recovery/wedges counted ($(cat "$REC/wedges"))" \
	[ "$(cat "$REC/wedges")" -ge 1 ]
expect_rc "wedged" 0
expect_rc "wedged -q" 0 -q -d RECOVERY
check "-q: State wedged" grep -q "^        State  *: wedged" /tmp/smi.out
eq "-q: Wedges" "$(awk -F': ' '/^        Wedges / { print $2 }' /tmp/smi.out)" \
	"$(cat "$REC/wedges")"
eq "-q: Yields" "$(awk -F': ' '/^        Yields / { print $2 }' /tmp/smi.out)" \
	"$(cat "$REC/yields")"
expect_health failure 7 wedged
prom
eq "ppu_recovery_state wedged" "$(pv "ppu_recovery_state{$D,state=\"wedged\"}")" 1
eq "ppu_recovery_state idle" "$(pv "ppu_recovery_state{$D,state=\"idle\"}")" 0
eq "ppu_recovery_wedges_total" "$(pv "ppu_recovery_wedges_total{$D}")" "$(cat "$REC/wedges")"
eq "ppu_recovery_yields_total" "$(pv "ppu_recovery_yields_total{$D}")" "$(cat "$REC/yields")"
for c in timeout uecc parity; do
	eq "ppu_recovery_causes_total $c" \
		"$(pv "ppu_recovery_causes_total{$D,cause=\"$c\"}")" "$(cat "$REC/cause_$c")"
done
for m in bans fallbacks false_timeouts; do
	eq "ppu_recovery_${m}_total" "$(pv "ppu_recovery_${m}_total{$D}")" "$(cat "$REC/$m")"
done
expect_prom_file "ppu_recovery_state{$D,state=\"wedged\"} 1"
reload_ppu
check "after a reload: recovery/state idle" [ "$(cat "$REC/state")" = idle ]
expect_health healthy 0
end

# ------------------------------------------------------------------------
begin prometheus
# sample: name{label="v",...} value
SAMPLE='^[a-zA-Z_:][a-zA-Z0-9_:]*(\{[a-zA-Z_][a-zA-Z0-9_]*="([^"\\]|\\.)*"(,[a-zA-Z_][a-zA-Z0-9_]*="([^"\\]|\\.)*")*\})? [-+]?([0-9]+(\.[0-9]*)?([eE][-+]?[0-9]+)?|NaN|[-+]?Inf)( [0-9]+)?$'
check "some samples" [ "$(grep -vc '^#' "$PROM_ALL")" -gt 50 ]
bad=$(grep -v '^#' "$PROM_ALL" | grep -Ev "$SAMPLE" | head -n 5)
check "every sample line matches the exposition format" [ -z "$bad" ]
[ -n "$bad" ] && echo "$bad" | sed 's/^/ppu-smi-test:   bad: /'
bad=$(grep '^#' "$PROM_ALL" | grep -Ev '^# (HELP|TYPE) [a-zA-Z_:][a-zA-Z0-9_:]* .+$' | head -n 5)
check "every comment is HELP or TYPE" [ -z "$bad" ]
for m in $(grep -v '^#' "$PROM_ALL" | sed 's/[{ ].*//' | sort -u); do
	grep -q "^# HELP $m " "$PROM_ALL" || fail "$m has no HELP"
	grep -Eq "^# TYPE $m (counter|gauge)$" "$PROM_ALL" || fail "$m has no TYPE"
done
# one family per output: no metric name after another one's samples again
prom
dup=$(grep -v '^#' /tmp/prom.out | sed 's/[{ ].*//' | uniq | sort | uniq -d)
check "each family's samples are together" [ -z "$dup" ]
for m in ppu_ecc_errors_volatile_total ppu_ecc_errors_aggregate_total \
	 ppu_retired_pages ppu_retirement_pending ppu_rma_required \
	 ppu_memory_total_bytes ppu_ring_timeouts_total ppu_ring_verdicts_total \
	 ppu_ring_probes_total ppu_device_info ppu_health ppu_health_reason \
	 ppu_recovery_state ppu_recovery_wedges_total ppu_recovery_yields_total \
	 ppu_recovery_causes_total \
	 ppu_recovery_bans_total ppu_recovery_fallbacks_total \
	 ppu_recovery_false_timeouts_total; do
	check "metric $m present" grep -q "^$m{" /tmp/prom.out
done
end

# ------------------------------------------------------------------------
begin errors
expect_rc "no such device" 6 -i 9
check "a message on stderr" grep -q "no PPU device" /tmp/smi.err
expect_rc "no such device: health" 6 -i 9 health
expect_rc "bad section" 2 -q -d BOGUS
expect_rc "bad index" 2 -i x
expect_rc "unknown argument" 2 bogus
expect_rc "-f without a name" 2 -f "" --prometheus
echo old > /tmp/old.prom
expect_rc "-f in a missing directory" 6 --prometheus -f /nonexistent/ppu.prom
expect_rc "-f fine" 0 --prometheus -f /tmp/old.prom
check "-f: the file replaced" grep -q "^ppu_health{" /tmp/old.prom
# 255: writing FILE failed, on a full file system; the old FILE kept
mkdir -p /tmp/full
if mount -t tmpfs -o size=16k tmpfs /tmp/full; then
	echo old > /tmp/full/ppu.prom
	dd if=/dev/zero of=/tmp/full/fill bs=1k 2> /dev/null
	expect_rc "-f on a full file system" 255 --prometheus -f /tmp/full/ppu.prom
	check "-f on a full file system: the old FILE kept" grep -qx old /tmp/full/ppu.prom
	# shellcheck disable=SC2012 # names of our own making
	check "-f on a full file system: no temporary file left ($(ls -A /tmp/full | tr '\n' ' '))" \
		[ "$(ls -A /tmp/full | tr '\n' ' ')" = "fill ppu.prom " ]
	umount /tmp/full
else
	fail "mount a tmpfs for the full file system"
fi
expect_rc "success" 0
rmmod ppu || fail "rmmod ppu"
expect_rc "ppu.ko not loaded" 9
check "a message on stderr" grep -q "not loaded" /tmp/smi.err
expect_rc "ppu.ko not loaded: health" 9 health
# shellcheck disable=SC2086
insmod "$KMOD/ppu.ko" $PPU_PARAMS || fail "insmod ppu.ko"
wait_card || fail "no $RAS after insmod"
skip=
[ -f /etc/passwd ] || echo "root:x:0:0:root:/root:/bin/sh" > /etc/passwd
grep -q '^nobody:' /etc/passwd || echo "nobody:x:65534:65534:nobody:/:/bin/sh" >> /etc/passwd
[ -f /etc/group ] || echo "root:x:0:" > /etc/group
grep -q '^nogroup:' /etc/group || echo "nogroup:x:65534:" >> /etc/group
# the initramfs root comes from a mktemp -d directory (mode 700): let other
# users reach /bin and /extra
chmod 755 / 2> /dev/null
as_nobody() { su -s /bin/sh -c "$*" nobody; }
uid=$(as_nobody 'id -u' 2> /tmp/su.err)
sed 's/^/ppu-smi-test:   su: /' /tmp/su.err
if [ "$uid" = 65534 ]; then
	as_nobody "$SMI" > /tmp/smi.out 2> /tmp/smi.err
	r=$?
	sed 's/^/ppu-smi-test:   stderr: /' /tmp/smi.err
	check "as nobody: exit 4 (got $r)" [ $r = 4 ]
	check "as nobody: permission message" grep -q "permission" /tmp/smi.err
	# a user who may open the render node (udev's render group) sees
	# everything but the device-wide reset count, which is root's
	for n in /dev/dri/renderD*; do chmod 666 "$n"; done
	as_nobody "$SMI -q" > /tmp/smi.out 2> /tmp/smi.err
	r=$?
	for n in /dev/dri/renderD*; do chmod 600 "$n"; done
	sed 's/^/ppu-smi-test:   stderr: /' /tmp/smi.err
	check "render-node user: exit 0 (got $r)" [ $r = 0 ]
	check "render-node user: reset count N/A" grep -q "Device Resets.*N/A" /tmp/smi.out
else
	log "SKIP: su cannot run a command as nobody (id -u: '$uid'); no permission check"
	skip=skip
fi
if [ $step_ok = 1 ] && [ -n "$skip" ]; then end skip; else end; fi

# ------------------------------------------------------------------------
# the recovery status is ABI in sysfs recovery/: an operator who is not
# root sees it through ppu-smi, without debugfs
begin recovery-user
REC=/sys/class/drm/card0/device/recovery
"$DEMO" > /tmp/demo.out 2>&1 || fail "ppu-demo (rc $?)"
rec=$(cat "$REC/recoveries" 2>/dev/null)
check "recoveries after ppu-demo's hangs ($rec)" [ "${rec:-0}" -gt 0 ]
check "recovery/ shows no pid or command" sh -c "! grep -rqsE 'pid|comm' $REC"
skip=
if [ "$(as_nobody 'id -u' 2> /dev/null)" = 65534 ]; then
	check "nobody cannot read debugfs" sh -c "! su -s /bin/sh -c 'cat $DBG/ring_recovery' nobody > /dev/null 2>&1"
	for n in /dev/dri/renderD*; do chmod 666 "$n"; done
	as_nobody "$SMI --prometheus" > /tmp/prom.out 2> /tmp/smi.err
	as_nobody "$SMI -q -d RECOVERY" > /tmp/smi.out 2>> /tmp/smi.err
	for n in /dev/dri/renderD*; do chmod 600 "$n"; done
	sed 's/^/ppu-smi-test:   stderr: /' /tmp/smi.err
	cp /tmp/prom.out /tmp/prom.state.recovery-user
	eq "as nobody: recovery readable" "$(pv "ppu_recovery_readable{$D}")" 1
	eq "as nobody: recoveries" "$(pv "ppu_recoveries_total{$D}")" "$rec"
	nrings=0
	for d in "$REC"/*/; do
		r=$(basename "$d")
		nrings=$((nrings + 1))
		eq "as nobody: ring $r timeouts" \
			"$(pv "ppu_ring_timeouts_total{$D,ring=\"$r\"}")" "$(cat "$d/timeouts")"
		eq "as nobody: ring $r probes" \
			"$(pv "ppu_ring_probes_total{$D,ring=\"$r\"}")" "$(cat "$d/probes")"
		for v in guilty innocent; do
			eq "as nobody: ring $r $v" \
				"$(pv "ppu_ring_verdicts_total{$D,ring=\"$r\",verdict=\"$v\"}")" \
				"$(cat "$d/$v")"
		done
		check "-q: ring $r, last verdict $(cat "$d/last_verdict")" \
			grep -qE "^        $r +$(cat "$d/kind") .* $(cat "$d/last_verdict")\$" /tmp/smi.out
	done
	check "recovery/ has a directory per ring ($nrings)" [ $nrings -ge 3 ]
	check "-q as nobody: recoveries $rec" \
		grep -qE "^        Recoveries +: $rec\$" /tmp/smi.out
	check "-q as nobody: last cause $(cat "$REC/last_cause")" \
		grep -q "Last Recovery.*: $(cat "$REC/last_cause") at" /tmp/smi.out
else
	log "SKIP: su cannot run a command as nobody; no unprivileged check"
	skip=skip
fi
if [ $step_ok = 1 ] && [ -n "$skip" ]; then end skip; else end; fi

# ------------------------------------------------------------------------
# the process view: what fdinfo says of each client, per process
begin processes
"$DEMO" hold 30 vram > /dev/null 2>&1 &
PA=$!
"$DEMO" worker proc-b 20 > /tmp/worker.out 2>&1 &
PB=$!
i=0
while { [ -z "$(cat "$DBG/vram_bos")" ] || ! grep -q running /tmp/worker.out; } &&
	[ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
sleep 1
# the ppu fdinfo of a process: its first file whose drm-driver is ppu
fdinfo_of() {
	for f in /proc/"$1"/fdinfo/*; do
		grep -qE '^drm-driver:[[:space:]]+ppu$' "$f" 2> /dev/null && { echo "$f"; return; }
	done
}
# a key's value (and unit) in fdinfo file $1
fkey() { awk -v k="$2:" '$1 == k { print $2 ($3 == "" || $3 == "ns" ? "" : " " $3) }' "$1"; }
kib() { # "64 KiB" and the like into KiB
	case $1 in
	*" KiB") echo "${1% KiB}" ;;
	*" MiB") echo $(( ${1% MiB} * 1024 )) ;;
	*) echo $(( ${1:-0} / 1024 )) ;;
	esac
}
smi --processes
check "--processes exits 0 (got $smi_rc)" [ "$smi_rc" = 0 ]
sed 's/^/ppu-smi-test:   /' /tmp/smi.out
check "--processes header" grep -qE '^PPU +PID +NAME +CLIENT +GFX_MS +COMPUTE_MS +SDMA_MS +VRAM_KIB +SYSTEM_KIB +INNOCENT +SUSPECT +GUILTY +BANNED$' /tmp/smi.out
check "ppu-smi does not list itself" sh -c "! awk 'NR > 1 && \$3 == \"ppu-smi\"' /tmp/smi.out | grep -q ."
for P in $PA $PB; do
	F=$(fdinfo_of "$P")
	check "client $P has a ppu fdinfo ($F)" [ -n "$F" ]
	[ -n "$F" ] || continue
	row=$(awk -v p="$P" 'NR > 1 && $2 == p' /tmp/smi.out)
	eq "client $P: one line" "$(echo "$row" | grep -c .)" 1
	# shellcheck disable=SC2086 # the columns
	set -- $row
	eq "client $P: PPU" "$1" 0
	eq "client $P: NAME" "$3" ppu-demo
	eq "client $P: CLIENT = drm-client-id" "$4" "$(fkey "$F" drm-client-id)"
	eq "client $P: VRAM_KIB = drm-total-vram" "$8" "$(kib "$(fkey "$F" drm-total-vram)")"
	eq "client $P: SYSTEM_KIB = drm-total-system" "$9" "$(kib "$(fkey "$F" drm-total-system)")"
	eq "client $P: INNOCENT" "${10}" "$(fkey "$F" ppu-reset-innocent)"
	eq "client $P: SUSPECT" "${11}" "$(fkey "$F" ppu-reset-suspect)"
	eq "client $P: GUILTY" "${12}" "$(fkey "$F" ppu-reset-guilty)"
	eq "client $P: BANNED" "${13}" "$([ "$(fkey "$F" ppu-banned)" = 1 ] && echo yes || echo no)"
	[ "$P" = "$PA" ] || continue
	eq "hold: VRAM_KIB 64" "$8" 64
	gfx=$(fkey "$F" drm-engine-gfx)
	eq "hold: GFX_MS = drm-engine-gfx" "$5" \
		"$(printf '%d.%03d' $(( ${gfx:-0} / 1000000 )) $(( ${gfx:-0} / 1000 % 1000 )))"
done
rowb=$(awk -v p="$PB" 'NR > 1 && $2 == p' /tmp/smi.out)
# shellcheck disable=SC2086 # the columns
set -- $rowb
check "worker: COMPUTE_MS above 0 ($6)" [ "${6:-0.000}" != 0.000 ]
"$SMI" --processes --json > /tmp/json.out 2>&1
echo "PPU-SMI-JSON: BEGIN processes"
cat /tmp/json.out
echo "PPU-SMI-JSON: END"
for P in $PA $PB; do
	check "--processes --json: pid $P" grep -q "\"pid\": $P, \"name\": \"ppu-demo\"" /tmp/json.out
done
skip=
if [ "$(as_nobody 'id -u' 2> /dev/null)" = 65534 ]; then
	for n in /dev/dri/renderD*; do chmod 666 "$n"; done
	as_nobody "$SMI --processes" > /tmp/smi.out 2> /tmp/smi.err
	r=$?
	for n in /dev/dri/renderD*; do chmod 600 "$n"; done
	sed 's/^/ppu-smi-test:   nobody: /' /tmp/smi.out /tmp/smi.err
	check "as nobody: --processes exits 0 (got $r)" [ $r = 0 ]
	check "as nobody: root's clients not shown" \
		sh -c "! awk 'NR > 1 && (\$2 == $PA || \$2 == $PB)' /tmp/smi.out | grep -q ."
else
	log "SKIP: su cannot run a command as nobody; no unprivileged check"
	skip=skip
fi
kill "$PA" "$PB" 2> /dev/null
wait "$PA" "$PB" 2> /dev/null
smi --processes
check "after they exit: neither listed" \
	sh -c "! awk 'NR > 1 && (\$2 == $PA || \$2 == $PB)' /tmp/smi.out | grep -q ."
# --closed-processes: what the driver keeps of a closed file with a
# verdict (recovery/clients); neither of the two above had one
"$DEMO" hang > /tmp/hang.out 2>&1
sed 's/^/ppu-smi-test:   /' /tmp/hang.out
PH=$(sed -n 's/.*\[hang\] pid \([0-9]*\):.*/\1/p' /tmp/hang.out)
check "ppu-demo hang: its job failed (pid $PH)" grep -q "sdma0 job: error" /tmp/hang.out
REC=/sys/class/drm/card0/device/recovery/clients
i=0
while ! awk -v p="$PH" '$2 == p' "$REC" | grep -q . && [ $i -lt 50 ]; do
	sleep 0.1; i=$((i + 1))
done
sed 's/^/ppu-smi-test:   clients: /' "$REC"
smi --closed-processes
check "--closed-processes exits 0 (got $smi_rc)" [ "$smi_rc" = 0 ]
sed 's/^/ppu-smi-test:   /' /tmp/smi.out
check "--closed-processes header" grep -qE '^PPU +PID +NAME +CLIENT +GFX_MS +COMPUTE_MS +SDMA_MS +INNOCENT +SUSPECT +GUILTY +BANNED +UID +CLOSED$' /tmp/smi.out
row=$(awk -v p="$PH" 'NR > 1 && $2 == p' /tmp/smi.out)
rec=$(awk -v p="$PH" '$2 == p' "$REC")
eq "closed: one line for ppu-demo hang" "$(echo "$row" | grep -c .)" 1
eq "closed: one line in recovery/clients" "$(echo "$rec" | grep -c .)" 1
# shellcheck disable=SC2086 # the columns
set -- $rec
r_closed=$1 r_client=$4 r_guilty=$7 r_sdma=${11}
# shellcheck disable=SC2086 # the columns
set -- $row
eq "closed: NAME" "$3" ppu-demo
eq "closed: CLIENT" "$4" "$r_client"
eq "closed: SDMA_MS" "$7" "$(printf '%d.%03d' $((r_sdma / 1000000)) $((r_sdma / 1000 % 1000)))"
eq "closed: GUILTY" "${10}" 1
eq "closed: GUILTY = recovery/clients" "${10}" "$r_guilty"
eq "closed: BANNED" "${11}" no
eq "closed: UID" "${12}" 0
check "closed: CLOSED is a UTC time (${13})" sh -c "echo '${13}' | grep -qE '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:]{8}Z$'"
check "closed: no line for the clients without a verdict" \
	sh -c "! awk 'NR > 1 && (\$2 == $PA || \$2 == $PB)' /tmp/smi.out | grep -q ."
"$SMI" --closed-processes --json > /tmp/json-closed.out 2>&1
echo "PPU-SMI-JSON: BEGIN closed-processes"
cat /tmp/json-closed.out
echo "PPU-SMI-JSON: END"
check "--closed-processes --json: pid $PH, closed $r_closed" \
	grep -q "\"pid\": $PH, \"name\": \"ppu-demo\", \"client_id\": $r_client, \"uid\": 0, \"closed\": $r_closed," /tmp/json-closed.out
expect_rc "--processes with --closed-processes" 2 --processes --closed-processes
if [ -z "$skip" ]; then
	as_nobody "$SMI --closed-processes" > /tmp/smi.out 2> /tmp/smi.err
	r=$?
	sed 's/^/ppu-smi-test:   nobody: /' /tmp/smi.out /tmp/smi.err
	check "as nobody: --closed-processes exits 4 (got $r)" [ $r = 4 ]
fi
if [ $step_ok = 1 ] && [ -n "$skip" ]; then end skip; else end; fi

# ------------------------------------------------------------------------
# The exporter units as make install ships them (ExecStart in /extra), run
# by a real systemd: Debian's, PID 1 of a PID and mount namespace of its
# own (unshare), in container mode, with empty stand-ins for the targets
# the units' default dependencies name; systemctl reaches it through
# nsenter. Where the guest has no systemd staged, or no cgroup2, SKIP.
begin exporter-unit
SD=/extra/systemd
SC=/extra/systemctl
TXT=/var/lib/prometheus/node-exporter
UD=/etc/systemd/system
sd_pid=
# systemctl in systemd's mount and PID namespaces: systemd refuses a
# client whose PID it cannot see
sc() { nsenter -t "$sd_pid" -m -p "$SC" --no-ask-password "$@"; }
scv() { sc show -p "$1" --value "$2" 2> /dev/null; }
if [ ! -x $SD ] || [ ! -x $SC ] || [ ! -f /extra/ppu-smi-exporter.service ] ||
	! grep -qw cgroup2 /proc/filesystems; then
	log "no systemd staged in /extra, or no cgroup2: skipped"
	end skip
else
	mkdir -p $UD $TXT
	cp /extra/ppu-smi-exporter.service /extra/ppu-smi-exporter.timer $UD/
	for t in sysinit basic timers sockets paths slices local-fs swap shutdown; do
		printf '[Unit]\nDescription=%s (ppu-smi-test stand-in)\nDefaultDependencies=no\n' \
			"$t" > "$UD/$t.target"
	done
	printf '[Unit]\nDescription=ppu-smi-test\nRequires=basic.target\nAfter=basic.target\n' \
		> $UD/ppu-smi-test.target
	[ -s /etc/machine-id ] || echo 5ca1ab1e5ca1ab1e5ca1ab1e5ca1ab1e > /etc/machine-id
	[ -f /etc/os-release ] || printf 'ID=debian\nNAME="ppu test guest"\n' > /etc/os-release
	container=ppu-smi-test unshare -m -p -f --mount-proc \
		$SD --unit=ppu-smi-test.target --log-target=console --log-level=notice \
		> /tmp/systemd.log 2>&1 &
	us_pid=$!
	# systemd: unshare's child; up once its private socket is there
	i=0
	while [ $i -lt 300 ]; do
		[ -z "$sd_pid" ] && sd_pid=$(awk -v p=$us_pid '$4 == p { print $1 }' /proc/[0-9]*/stat 2> /dev/null | head -n 1)
		[ -n "$sd_pid" ] && nsenter -t "$sd_pid" -m test -S /run/systemd/private && break
		sleep 0.1
		i=$((i + 1))
	done
	if [ -z "$sd_pid" ] || ! nsenter -t "$sd_pid" -m test -S /run/systemd/private; then
		fail "systemd did not come up in 30 s"
		sed 's/^/ppu-smi-test:   systemd: /' /tmp/systemd.log | tail -n 20
	else
		log "systemd $($SC --version | head -n 1) is PID 1 of its namespace (pid $sd_pid here)"
		sc start ppu-smi-exporter.service
		r=$?
		check "systemctl start ppu-smi-exporter.service exits 0 (got $r)" [ $r = 0 ]
		check "the service's result is success ($(scv Result ppu-smi-exporter.service))" \
			[ "$(scv Result ppu-smi-exporter.service)" = success ]
		check "ppu-smi exited 0 under the unit's sandbox ($(scv ExecMainStatus ppu-smi-exporter.service))" \
			[ "$(scv ExecMainStatus ppu-smi-exporter.service)" = 0 ]
		check "$TXT/ppu.prom has PPU 0's ppu_health" grep -q "^ppu_health{$D} " $TXT/ppu.prom
		check "$TXT/ppu.prom is mode 644 for node_exporter ($(stat -c %a $TXT/ppu.prom))" \
			[ "$(stat -c %a $TXT/ppu.prom)" = 644 ]
		check "no temporary file left in $TXT ($(ls $TXT | tr '\n' ' '))" \
			[ "$(ls $TXT)" = ppu.prom ]
		# the timer rewrites the file (a rename: a new inode) every 15 s
		ino=$(stat -c %i $TXT/ppu.prom)
		sc start ppu-smi-exporter.timer
		check "systemctl start ppu-smi-exporter.timer: active ($(scv ActiveState ppu-smi-exporter.timer))" \
			[ "$(scv ActiveState ppu-smi-exporter.timer)" = active ]
		n=0
		i=0
		while [ $n -lt 2 ] && [ $i -lt 900 ]; do
			sleep 0.1
			i=$((i + 1))
			new=$(stat -c %i $TXT/ppu.prom 2> /dev/null)
			[ -n "$new" ] && [ "$new" != "$ino" ] && n=$((n + 1)) && ino=$new
		done
		check "the timer ran the service twice in $((i / 10)) s (90 s at most)" [ $n = 2 ]
		check "the service's result is still success" \
			[ "$(scv Result ppu-smi-exporter.service)" = success ]
		sc stop ppu-smi-exporter.timer
		# no textfile directory: the unit's condition skips it
		rm -rf $TXT
		sc start ppu-smi-exporter.service
		r=$?
		check "without $TXT: systemctl start exits 0 (got $r), condition not met ($(scv ConditionResult ppu-smi-exporter.service))" \
			[ $r = 0 ] && [ "$(scv ConditionResult ppu-smi-exporter.service)" = no ]
		check "without $TXT: nothing created" [ ! -e $TXT ]
	fi
	[ -n "$sd_pid" ] && kill -9 "$sd_pid" 2> /dev/null
	wait $us_pid 2> /dev/null
	rm -rf $UD /var/lib/prometheus
	end
fi

# ------------------------------------------------------------------------
# checked on the host from the PPU-SMI-JSON blocks; the guest only says
# that it printed them
begin json
check "JSON documents printed" [ -s /tmp/json.out ]
end
# the last Prometheus document of each step, for promtool check metrics on
# the host (scripts/run-igt.sh; its verdict is ppu-smi/prometheus's)
for f in /tmp/prom.state.*; do
	[ -f "$f" ] || continue
	echo "PPU-SMI-PROM: BEGIN ${f#/tmp/prom.state.}"
	cat "$f"
	echo "PPU-SMI-PROM: END"
done

# ------------------------------------------------------------------------
begin restore
reload_sim
echo ERASE > "$DBG/flash_reset" || fail "flash_reset"
reload_ppu
check "rma_status none" [ "$(rd rma_status)" = none ]
check "nothing retired" [ -z "$(cat "$RAS/retired_pages")" ]
expect_rc "healthy again" 0
end

echo "PPU-SMI-TEST: END rc=$rc_all"
exit $rc_all
