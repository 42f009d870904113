#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# VM payload step (run by igt-payload.sh after the igt binaries when it is
# in the initramfs as /extra/ecc-reload.sh): the parts of the ECC flow that
# need a module reload, which an igt test cannot do to itself.
#
#   reload-repair-flow     6 UECC recorded, `rmmod ppu; insmod ppu.ko`:
#                          5 repaired (flag in flash), 1 retired, nothing
#                          pending, the kernel log says so
#   uecc-after-repair-retires
#                          an address repaired by reload-repair-flow gets a
#                          UECC again: flash_dump flags it repair_failed, the
#                          reload retires its page and repairs nothing (seed
#                          000: a repaired address that fails again is not
#                          repaired again, nor tested back into service)
#   ecc-off-keeps-retired  a page retired by CECC, reload with ecc=0: the
#                          retired pages stay listed and out of mem_total,
#                          new CECC hits retire nothing (shell checks plus
#                          ppu_ecc --run-subtest ecc-off-keeps-old-retirements)
#   rma-no-spare-rows      ppu_sim reloaded with spare_rows=0 (a new device:
#                          its flash is blank), a UECC, reload ppu.ko: the
#                          repair fails, rma_status rma, reason
#                          repair_failure, the driver still loads
#   failed-repair-once     ppu_sim with 2 spare rows per bank, a UECC, then
#                          its whole bank fails (bankfail, spare rows too),
#                          3 reloads: the first repairs (1 spare spent), the
#                          test fails, repair_failed + retired in flash; the
#                          next reloads repair nothing, the page stays
#                          retired, the bank keeps its last spare, no RMA
#   powercut-compaction    4 pages retired by CECC; a compaction through
#                          debugfs `compact` measures its S steps (13:
#                          8 erased blocks, 4 records, the header); then
#                          the flash's power is cut (`powercut K`) at every
#                          step K of a compaction, and with 20 bytes of the
#                          last record or of the header landing, ppu.ko
#                          reloaded after each: same entries and flags in
#                          flash_dump,
#                          same retired pages, store ok, old generation; a
#                          cut at S+1 misses it: new generation
#   weak-cell-wear         a weak cell read $WEAR_READS times (10000) through
#                          debugfs `read`: retired at the 3rd read, not the
#                          2nd; ras/flash_writes grows by exactly 3 (first
#                          sighting, the count that crosses cecc_threshold,
#                          the retired flag) plus 1 per started
#                          flash_flush_s (600 s) of the loop, no erase; the
#                          unload writes the counts kept in RAM in 1 more:
#                          after the reload flash_dump has all the reads
#   sim-removed-under-open-file
#                          the device goes away (rmmod ppu_sim, ppu.ko
#                          stays) while a process holds a DRM file of it:
#                          the file's fdinfo reads without a fault (on
#                          6.1 it read ppu_sim's freed ring descriptors),
#                          the late close is clean, a new ppu_sim binds
#   restore                the default modules back, the flash erased
#
# Prints, for scripts/run-igt.sh:
#   PPU-ECC-RELOAD: BEGIN
#   PPU-ECC-RELOAD: <step>: PASS|FAIL
#   PPU-ECC-RELOAD: END rc=N
# `ecc-reload.sh --list` prints the step names (on the host too).
STEPS="reload-repair-flow uecc-after-repair-retires ecc-off-keeps-retired rma-no-spare-rows failed-repair-once powercut-compaction weak-cell-wear sim-removed-under-open-file restore uevents"
if [ "${1:-}" = --list ]; then
	for s in $STEPS; do echo "$s"; done
	exit 0
fi

# module parameters of the boot (PPU_PARAMS, PPU_SIM_PARAMS)
# shellcheck disable=SC1091
[ -f /etc/vm.env ] && . /etc/vm.env
KMOD=${PPU_KMOD_DIR:-/kmod/ppu}
DBG=/sys/kernel/debug/dri/0
RAS=/sys/class/drm/card0/device/ras
HBM=$(( $(cat /sys/module/ppu_sim/parameters/hbm_mb 2>/dev/null || echo 256) * 1048576 ))
NBANKS=$(cat /sys/module/ppu_sim/parameters/hbm_banks 2>/dev/null || echo 16)
BANK=$(( HBM / NBANKS ))
rc_all=0
step_ok=1

log() { echo "ecc-reload: $*"; }
fail() { log "FAIL: $*"; step_ok=0; }
check() { # description, then a test command
	d=$1; shift
	if "$@"; then log "ok: $d"; else fail "$d"; fi
}
# the kernel log from here on: a marker line in it (at KERN_INFO, off the
# console), not a line count (once the log buffer is full, its line count
# stays the same)
klog_mark() {
	klog_n=$(( ${klog_n:-0} + 1 ))
	klog_tag="ecc-reload: klog mark $klog_n $$"
	echo "<6>$klog_tag" > /dev/kmsg
}
begin() { step=$1; step_ok=1; log "--- $step"; klog_mark; }
# the kernel log since the step began (or since the last klog_mark)
klog() { dmesg | awk -v m="$klog_tag" 'f; index($0, m) { f = 1 }'; }
# a DRM file held open by a background process, as an application would
hold_open() { sleep 600 <> /dev/dri/card0 & HOLD=$!; sleep 0.3; }
release() { kill "$HOLD"; wait "$HOLD" 2> /dev/null; }
end() {
	if [ $step_ok = 1 ]; then
		echo "PPU-ECC-RELOAD: $step: PASS"
	else
		echo "PPU-ECC-RELOAD: $step: FAIL"
		log "kernel log of the step:"
		klog | sed 's/^/ecc-reload:   /'
		rc_all=1
	fi
}

hexaddr() { printf '0x%x' "$1"; }
# test address k of slot s in bank b (slots 12 and 13: unused by ppu_ecc.c)
taddr() { hexaddr $(( $3 * BANK + $1 * 1048576 + $2 * 65536 + 256 )); }
page() { hexaddr $(( $1 & ~65535 )); }
rd() { cat "$RAS/$1" 2>/dev/null; }
inject() { echo "$*" > "$DBG/ras_inject"; }
uecc() { inject "flip2 $1 3 17" && inject "read $1 8"; }
cecc() { # address hits
	inject "weak $1 5" || return 1
	i=0
	while [ $i -lt "$2" ]; do inject "read $1 8" || return 1; i=$((i + 1)); done
}
no_fault() { ! klog | grep -qE 'BUG:|Oops|general protection|KASAN'; }
not_repaired() { ! klog | grep -q "$1 repaired"; }
retired_line() { grep -i "^$(page "$1") " "$RAS/retired_pages"; }
is_retired() { retired_line "$1" > /dev/null; }
# flash_dump flags of an address
fflags() { awk -v a="$1" '$1 == a { print $NF }' "$DBG/flash_dump"; }
# a field of flash_dump's header line ("generation", "erases", ...)
fhdr() {
	head -n1 "$DBG/flash_dump" |
		awk -v k="$1" '{ for (i = 1; i < NF; i++) if ($i == k) print $(i + 1) }'
}
# flash_dump's entry lines: what the store knows, without its header
fentries() { tail -n +2 "$DBG/flash_dump"; }
retired_set() { cut -d' ' -f1-3 < "$RAS/retired_pages" | sort; }
wait_card() {
	i=0
	while [ ! -e "$RAS/mem_total" ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
	[ -e "$RAS/mem_total" ]
}
reload_ppu() { # extra ppu.ko params
	rmmod ppu || { fail "rmmod ppu"; return 1; }
	# shellcheck disable=SC2086 # word splitting intended
	insmod "$KMOD/ppu.ko" $PPU_PARAMS "$@" || { fail "insmod ppu.ko $*"; return 1; }
	wait_card || { fail "no $RAS after insmod"; return 1; }
}
reload_sim() { # extra ppu_sim.ko params
	rmmod ppu || { fail "rmmod ppu"; return 1; }
	rmmod ppu_sim || { fail "rmmod ppu_sim"; return 1; }
	# shellcheck disable=SC2086
	insmod "$KMOD/ppu_sim.ko" $PPU_SIM_PARAMS "$@" || { fail "insmod ppu_sim.ko $*"; return 1; }
	# shellcheck disable=SC2086
	insmod "$KMOD/ppu.ko" $PPU_PARAMS || { fail "insmod ppu.ko"; return 1; }
	wait_card || { fail "no $RAS after insmod"; return 1; }
}
show() {
	for f in ce_count_aggregate ue_count_aggregate mem_total retirement_pending \
		 remapped_rows_uncorrectable remapped_rows_failure row_remapper_histogram \
		 rma_status rma_reason ecc_mode; do
		log "  $f: $(rd $f)"
	done
	log "  retired_pages:"; sed 's/^/ecc-reload:     /' "$RAS/retired_pages"
	log "  flash_dump:"; sed 's/^/ecc-reload:     /' "$DBG/flash_dump"
}

echo "PPU-ECC-RELOAD: BEGIN"
if [ ! -d "$RAS" ] || [ ! -e "$DBG/ras_inject" ]; then
	log "no $RAS or $DBG/ras_inject"
	for s in $STEPS; do echo "PPU-ECC-RELOAD: $s: FAIL"; done
	echo "PPU-ECC-RELOAD: END rc=1"
	exit 1
fi

# ------------------------------------------------------------------------
begin reload-repair-flow
# a clean start: no history, nothing retired
echo ERASE > "$DBG/flash_reset" || fail "flash_reset"
reload_ppu
check "nothing retired after an erase and a reload" [ -z "$(cat "$RAS/retired_pages")" ]
check "mem_total is the whole HBM" [ "$(rd mem_total)" = "$HBM" ]
A=""
for b in 1 2 3 4 5 6; do A="$A $(taddr 12 0 $b)"; done
hold_open
for a in $A; do uecc "$a" || fail "UECC at $a"; done
# no buffer holds them: retired at once, no waiting for the last close
check "nothing pending while a file is open" [ "$(rd retirement_pending)" = 0 ]
check "6 pages retired at run time" [ "$(grep -c ' uecc reserved ' "$RAS/retired_pages")" = 6 ]
release
reload_ppu
show
klog | grep -E "ECC load flow|repaired|retired" | sed 's/^/ecc-reload:   dmesg: /'
check "kernel log: 5 repaired, 1 retired" \
	sh -c 'dmesg | grep "ECC load flow" | tail -n1 | grep -q "5 repaired, .*1 retired"'
repaired=0 retired=0
for a in $A; do
	f=$(fflags "$a")
	case $f in
	*repaired*)
		repaired=$((repaired + 1))
		is_retired "$a" && fail "$a repaired but its page is retired"
		;;
	*)
		retired=$((retired + 1))
		retired_line "$a" | grep -q " uecc reserved " || fail "$a not repaired and not retired"
		;;
	esac
done
log "flash_dump: $repaired repaired, $retired not"
check "5 repaired in flash_dump" [ $repaired = 5 ]
check "1 retired" [ $retired = 1 ]
check "1 page listed" [ "$(wc -l < "$RAS/retired_pages")" = 1 ]
check "mem_total one page short" [ "$(rd mem_total)" = $((HBM - 65536)) ]
check "nothing pending" [ "$(rd retirement_pending)" = 0 ]
check "remapped_rows_uncorrectable 5" [ "$(rd remapped_rows_uncorrectable)" = 5 ]
check "rma_status none" [ "$(rd rma_status)" = none ]
end

# ------------------------------------------------------------------------
begin uecc-after-repair-retires
R=""
for a in $A; do
	case $(fflags "$a") in *repaired*) R=$a; break ;; esac
done
if [ -z "$R" ]; then
	fail "no address repaired by reload-repair-flow"
else
	unc=$(rd remapped_rows_uncorrectable)
	hold_open
	uecc "$R" || fail "UECC at $R"
	release
	f=$(fflags "$R")
	check "flash_dump: $R flagged repair_failed ($f)" sh -c "echo '$f' | grep -q repair_failed"
	reload_ppu
	show
	check "$R retired after the reload" is_retired "$R"
	# the 6th address of reload-repair-flow may be repaired now, not $R
	check "at most one new repair" [ "$(rd remapped_rows_uncorrectable)" -le $((unc + 1)) ]
	check "kernel log: $R not repaired again" not_repaired "$R"
fi
end

# ------------------------------------------------------------------------
begin ecc-off-keeps-retired
C=$(taddr 12 1 7)
cecc "$C" 3 || fail "CECC at $C"
check "CECC page retired" sh -c "grep -q '^$(page "$C") cecc reserved ' $RAS/retired_pages"
before=$(cut -d' ' -f1-3 < "$RAS/retired_pages" | sort)
total=$(rd mem_total)
reload_ppu ecc=0
show
klog | grep -E "ECC" | sed 's/^/ecc-reload:   dmesg: /'
check "ecc_mode off" [ "$(rd ecc_mode)" = off ]
check "retired pages still listed" \
	[ "$(cut -d' ' -f1-3 < "$RAS/retired_pages" | sort)" = "$before" ]
check "retired pages still out of mem_total" [ "$(rd mem_total)" = "$total" ]
D=$(taddr 12 1 8)
cecc "$D" 4 || fail "CECC at $D with ecc off"
check "new CECC hits retire nothing" sh -c "! grep -q '^$(page "$D") ' $RAS/retired_pages"
check "mem_total unchanged" [ "$(rd mem_total)" = "$total" ]
if [ -x /igt/ppu_ecc ]; then
	/igt/ppu_ecc --run-subtest ecc-off-keeps-old-retirements > /tmp/ecc-off.out 2>&1
	r=$?
	sed 's/^/ecc-reload:   igt: /' /tmp/ecc-off.out
	check "ppu_ecc ecc-off-keeps-old-retirements passes (rc $r)" [ $r = 0 ]
	grep -q "Subtest ecc-off-keeps-old-retirements: SUCCESS" /tmp/ecc-off.out ||
		fail "the subtest did not succeed"
fi
reload_ppu
check "ecc_mode on again" [ "$(rd ecc_mode)" = on ]
end

# ------------------------------------------------------------------------
begin rma-no-spare-rows
reload_sim spare_rows=0
show
check "a new device has a blank flash" \
	sh -c "head -n1 $DBG/flash_dump | grep -q '^flash: records 0 '"
check "histogram: every bank without spare rows" \
	sh -c "grep -qx 'max 0 high 0 partial 0 low 0 none [1-9][0-9]*' $RAS/row_remapper_histogram"
check "rma_status none before any error" [ "$(rd rma_status)" = none ]
E=$(taddr 13 0 3)
uecc "$E" || fail "UECC at $E"
reload_ppu
show
klog | grep -E "ECC|RMA|repair" | sed 's/^/ecc-reload:   dmesg: /'
check "rma_status rma" [ "$(rd rma_status)" = rma ]
check "rma_reason has repair_failure" sh -c "grep -qw repair_failure $RAS/rma_reason"
check "remapped_rows_failure 1" [ "$(rd remapped_rows_failure)" = 1 ]
check "the page of the failed repair retired" \
	sh -c "grep -q '^$(page "$E") uecc reserved ' $RAS/retired_pages"
check "the driver still loads: the device opens" sh -c 'exec 9<> /dev/dri/card0'
check "kernel log reports the RMA" sh -c 'dmesg | tail -n 30 | grep -q RMA'
end

# ------------------------------------------------------------------------
# A repaired row that still fails its test: the spare row is spent once,
# never again (2 spare rows: a second repair would leave none, a third
# would find none and call for an RMA).
begin failed-repair-once
reload_sim spare_rows=2
echo ERASE > "$DBG/flash_reset" || fail "flash_reset"
reload_ppu
F=$(taddr 12 2 9)
uecc "$F" || fail "UECC at $F"
check "UECC page retired at run time" is_retired "$F"
inject "bankfail $F 0" || fail "bankfail $F 0"
for load in 1 2 3; do
	klog_mark
	reload_ppu
	flow=$(klog | grep "ECC load flow" | tail -n1)
	log "load $load: $flow"
	log "load $load: $(klog | grep -F "$F retired" | tail -n1)"
	log "load $load: histogram $(rd row_remapper_histogram), flags $(fflags "$F")"
	if [ $load = 1 ]; then
		check "load 1: one repair, retired" \
			sh -c "echo '$flow' | grep -q '1 repairs, 0 repaired, 0 tested clean, 1 retired'"
		check "load 1: retired for its failed test" \
			sh -c "dmesg | grep -F '$F retired' | tail -n1 | grep -q 'read/write test failed'"
	else
		check "load $load: no repair, retired" \
			sh -c "echo '$flow' | grep -q '0 repairs, 0 repaired, 0 tested clean, 1 retired'"
		check "load $load: retired as a failed repair" \
			sh -c "dmesg | grep -F '$F retired' | tail -n1 | grep -q 'repair failed its test before'"
	fi
	check "load $load: flash flags retired,repair_failed" \
		[ "$(fflags "$F")" = "retired,repair_failed" ]
	check "load $load: page retired" is_retired "$F"
	check "load $load: one spare spent in one bank, one left" \
		[ "$(rd row_remapper_histogram)" = "max $((NBANKS - 1)) high 0 partial 0 low 1 none 0" ]
	check "load $load: no RMA" [ "$(rd rma_status)" = none ]
	check "load $load: no repair failure" [ "$(rd remapped_rows_failure)" = 0 ]
done
show
reload_sim
end

# ------------------------------------------------------------------------
# A power cut in the middle of a compaction (the flash drops every write
# and erase from the cut on, until the driver is reloaded) loses nothing.
begin powercut-compaction
reload_sim
for k in 1 2 3 4; do
	cecc "$(taddr 13 "$k" 10)" 3 || fail "CECC at $(taddr 13 "$k" 10)"
done
check "4 pages retired by CECC" [ "$(grep -c ' cecc reserved ' "$RAS/retired_pages")" = 4 ]
# the counts the wear policy kept in RAM reach the flash at unload
reload_ppu
ents=$(fentries)
pages=$(retired_set)
log "store before: $(head -n1 "$DBG/flash_dump")"
check "4 pages still retired after a reload" [ "$(echo "$pages" | grep -c cecc)" = 4 ]
check "4 addresses in flash" [ "$(echo "$ents" | grep -c ' flags retired$')" = 4 ]
steps() { echo $(( $(fhdr erases) + $(fhdr writes) )); }
s0=$(steps)
g0=$(fhdr generation)
inject compact || fail "compact"
S=$(( $(steps) - s0 ))
log "a compaction takes $S steps ($(klog | grep -o 'compacted to .*' | tail -n1))"
check "compaction: a new generation" [ "$(fhdr generation)" = $((g0 + 1)) ]
check "compaction: several steps" [ "$S" -gt 3 ]
reload_ppu
check "compacted store: same entries" [ "$(fentries)" = "$ents" ]
for cut in $(seq 1 "$S") "$((S - 1)) 20" "$S 20"; do
	g=$(fhdr generation)
	klog_mark
	inject "powercut $cut" || fail "powercut $cut"
	inject compact || fail "compact with a cut at $cut"
	reload_ppu
	log "cut at step $cut of $S: $(head -n1 "$DBG/flash_dump")"
	klog | grep -iE "flash|ECC" | sed 's/^/ecc-reload:   dmesg: /'
	check "cut at $cut: store ok" [ "$(cat "$RAS/ecc_store")" = ok ]
	check "cut at $cut: the old generation $g" [ "$(fhdr generation)" = "$g" ]
	check "cut at $cut: every entry and flag kept, none added" [ "$(fentries)" = "$ents" ]
	check "cut at $cut: the same pages retired" [ "$(retired_set)" = "$pages" ]
done
g=$(fhdr generation)
inject "powercut $((S + 1))" || fail "powercut $((S + 1))"
inject compact || fail "compact with a cut after it"
reload_ppu
check "cut after the compaction's last step: new generation" [ "$(fhdr generation)" = $((g + 1)) ]
check "... and the same entries" [ "$(fentries)" = "$ents" ]
check "... and the same pages retired" [ "$(retired_set)" = "$pages" ]
show
reload_sim
end

# ------------------------------------------------------------------------
# Flash wear: a weak cell read in a loop costs a bounded number of writes.
begin weak-cell-wear
N=${WEAR_READS:-10000}
W=$(taddr 13 6 11)
w0=$(rd flash_writes)
e0=$(rd flash_erases)
t0=$(date +%s)
inject "weak $W 5" || fail "weak $W 5"
i=1
while [ $i -le "$N" ]; do
	inject "read $W 8" || { fail "read $i of $W"; break; }
	case $i in
	2) check "read 2: page not retired yet" sh -c "! grep -q '^$(page "$W") ' $RAS/retired_pages" ;;
	3) check "read 3: page retired" sh -c "grep -q '^$(page "$W") cecc reserved ' $RAS/retired_pages" ;;
	esac
	i=$((i + 1))
done
t=$(( $(date +%s) - t0 ))
dw=$(( $(rd flash_writes) - w0 ))
de=$(( $(rd flash_erases) - e0 ))
bound=$(( 3 + (t + 599) / 600 ))
log "$N reads of a weak cell in $t s: $dw flash writes, $de erases (bound $bound writes, 0 erases); ce_count_volatile $(rd ce_count_volatile)"
log "flash_dump: $(grep "^$W " "$DBG/flash_dump")"
check "every read counted: CECC count $N" \
	[ "$(awk -v a="$W" '$1 == a { print $5 }' "$DBG/flash_dump")" = "$N" ]
check "at most $bound flash writes for $N reads ($dw)" [ "$dw" -le "$bound" ]
check "within 600 s exactly 3 ($dw)" sh -c "[ $t -ge 600 ] || [ $dw = 3 ]"
check "no erase ($de)" [ "$de" = 0 ]
reload_ppu
dw=$(( $(rd flash_writes) - w0 ))
log "after the reload: $dw writes in all; $(grep "^$W " "$DBG/flash_dump")"
check "unload flush: 1 more write ($dw)" [ "$dw" -le $((bound + 1)) ]
check "after the reload flash_dump has all $N reads" \
	[ "$(awk -v a="$W" '$1 == a { print $5 }' "$DBG/flash_dump")" = "$N" ]
check "the page still retired" is_retired "$W"
reload_sim
end

# ------------------------------------------------------------------------
begin sim-removed-under-open-file
hold_open
rmmod ppu_sim || fail "rmmod ppu_sim with a file open"
check "the card node is gone" [ ! -e /sys/class/drm/card0/device/ras/mem_total ]
r=1
if [ -d "/proc/$HOLD" ]; then
	cat "/proc/$HOLD/fdinfo/0" > /tmp/fdinfo-gone.txt 2>&1
	r=$?
	sed 's/^/ecc-reload:   fdinfo: /' /tmp/fdinfo-gone.txt
fi
check "fdinfo of the file reads (rc $r)" [ "$r" = 0 ]
check "fdinfo has its common part" grep -q '^pos:' /tmp/fdinfo-gone.txt
check "fdinfo names no other driver" \
	sh -c '! grep "^drm-driver:" /tmp/fdinfo-gone.txt | grep -qv ppu'
check "the holder lives" [ -d "/proc/$HOLD" ]
release
check "no fault in the kernel log" no_fault
sleep 0.5
# shellcheck disable=SC2086
insmod "$KMOD/ppu_sim.ko" $PPU_SIM_PARAMS || fail "insmod ppu_sim.ko"
check "a new device binds" wait_card
end

# ------------------------------------------------------------------------
begin restore
reload_sim
echo ERASE > "$DBG/flash_reset" || fail "flash_reset"
reload_ppu
check "rma_status none" [ "$(rd rma_status)" = none ]
check "nothing retired" [ -z "$(cat "$RAS/retired_pages")" ]
end

# ------------------------------------------------------------------------
# uevents on UECC, retirement and RMA, and one per recovery: listen on the
# kernel's netlink socket with busybox uevent.
begin uevents
cat > /tmp/uevent-log.sh <<'UEV'
#!/bin/sh
env | grep -E '^(ACTION|PPU_RAS_EVENT|ADDRESS|DRM_SCHED_SERIAL_RECOVERY|CAUSE)=' | sort | tr '\n' ' ' >> /tmp/uevents.log
echo >> /tmp/uevents.log
UEV
chmod +x /tmp/uevent-log.sh
: > /tmp/uevents.log
uevent /tmp/uevent-log.sh &
UEVPID=$!
sleep 0.5
reload_ppu rma_uecc=1
C=$(taddr 3 0 5)
cecc "$C" 3
E=$(taddr 4 0 6)
uecc "$E" || fail "UECC at $E"
# busybox uevent runs the helper once per event and waits for it (a few
# forks: ~0.2 s each on the debug kernel, which then lags seconds behind):
# wait for the events checked below, up to 60 s, not a fixed time
i=0
while [ $i -lt 120 ]; do
	grep -q "ADDRESS=$(page "$C") PPU_RAS_EVENT=retired" /tmp/uevents.log &&
		grep -q "ADDRESS=$E PPU_RAS_EVENT=uecc" /tmp/uevents.log &&
		grep -q "PPU_RAS_EVENT=rma" /tmp/uevents.log &&
		grep -q "CAUSE=uecc DRM_SCHED_SERIAL_RECOVERY=1" /tmp/uevents.log && break
	sleep 0.5
	i=$((i + 1))
done
log "uevents: waited $((i / 2)) s for the helper"
sleep 1
kill "$UEVPID"
sed 's/^/ecc-reload:   uevent: /' /tmp/uevents.log
check "uevent: CECC page retired" grep -q "ADDRESS=$(page "$C") PPU_RAS_EVENT=retired" /tmp/uevents.log
check "uevent: UECC" grep -q "ADDRESS=$E PPU_RAS_EVENT=uecc" /tmp/uevents.log
check "uevent: RMA" grep -q "PPU_RAS_EVENT=rma" /tmp/uevents.log
check "uevent: a recovery with cause uecc" \
	grep -q "CAUSE=uecc DRM_SCHED_SERIAL_RECOVERY=1" /tmp/uevents.log
reload_sim
echo ERASE > "$DBG/flash_reset" || fail "flash_reset"
reload_ppu
check "rma_status none again" [ "$(rd rma_status)" = none ]
end

echo "PPU-ECC-RELOAD: END rc=$rc_all"
exit $rc_all
