#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Guest part of make demo: the PPU ECC flow (Documentation/admin-guide.rst),
# step by step.
R=/sys/class/drm/card0/device/ras
D=/sys/kernel/debug/dri/0
P="gfx_timeout_ms=1000 compute_timeout_ms=1000 sdma_timeout_ms=1000"
say() { echo "    $*"; }
state() {
	say "memory total $(cat $R/mem_total) B, available $(cat $R/mem_available) B;" \
	    "CE $(cat $R/ce_count_volatile)/$(cat $R/ce_count_aggregate), UE $(cat $R/ue_count_volatile)/$(cat $R/ue_count_aggregate) (volatile/aggregate);" \
	    "pending $(cat $R/retirement_pending); RMA $(cat $R/rma_status) ($(cat $R/rma_reason))"
}
pages() { sed 's/^/    | retired: /' $R/retired_pages; }
# a module (re)load the rest depends on: say which one failed, go on
must() {
	"$@" || { echo "PPU-DEMO: FAILED section $sec: $* (exit $?)"; rc_demo=1; }
}

echo
sec=8
echo "== 8. The PPU ECC flow, UECC: an uncorrectable error while jobs run"
state
/extra/ppu-demo hold 5 &
holder=$!
for w in train-0 train-1 train-2; do /extra/ppu-demo worker $w & done
sleep 2
say "a double-bit error appears at 0x4000000; the next read of it is uncorrectable"
echo "flip2 0x4000000 3 17" > $D/ras_inject
echo "read 0x4000000 64" > $D/ras_inject
sleep 1
say "every process got an error and exits (uecc_scope=device); no buffer held"
say "the page, so it left the allocator at once: memory shrank by 64 KB"
state
pages
say "an idle process still holds the device, and new work starts at once:"
/extra/ppu-demo newctx
wait $holder
wait
/extra/ppu-smi -q -d PAGE_RETIREMENT | sed "s/^/    > /"

echo
sec=8b
echo "== 8b. uecc_scope=owners: only the client whose buffer went bad loses its work"
echo owners > /sys/module/ppu/parameters/uecc_scope
/extra/ppu-demo hold 4 vram &
owner=$!
/extra/ppu-demo worker render-b 3 &
bystander=$!
sleep 1
a=$(tail -n 1 $D/vram_bos | cut -d' ' -f1)
bad=$(printf "0x%x" $((a + 256)))
say "client A holds a 64 KB buffer in device memory at $a; client B renders"
say "a double-bit error appears in A's buffer, at $bad, and is read"
echo "flip2 $bad 3 17" > $D/ras_inject
echo "read $bad 8" > $D/ras_inject
state
say "A's buffer still holds the page: retirement pending; B did not notice:"
wait $bystander
wait $owner
say "A exited, its buffer was freed and the page left the allocator with it:"
state
pages
echo device > /sys/module/ppu/parameters/uecc_scope

echo
sec=9
echo "== 9. The PPU ECC flow, CECC: a weak cell corrected three times"
echo "weak 0x5000000 9" > $D/ras_inject
for i in 1 2 3; do
	echo "read 0x5000000 8" > $D/ras_inject
	say "read $i: CE $(cat $R/ce_count_volatile), retired pages $(wc -l < $R/retired_pages)"
done
say "more than 2 corrected errors at one address: its page is retired, nobody noticed"
pages

echo
sec=10
echo "== 10. The PPU ECC flow, section 5: a driver reload repairs and retires from flash"
for a in 0x6000000 0x7000000 0x8000000 0x9000000 0xa000000 0xb000000; do
	echo "flip2 $a 1 2" > $D/ras_inject
	echo "read $a 8" > $D/ras_inject
done
say "six more UECC addresses recorded in the device's flash:"
sed 's/^/    | /' $D/flash_dump
say "rmmod ppu; insmod ppu.ko (the flash lives in the device, it survives)"
dmesg -c >/dev/null
must rmmod ppu
must insmod /kmod/ppu/ppu.ko $P
dmesg | grep -E "repaired and tested|retired:|ECC load flow" | tail -12 | sed 's/^\[ *[0-9.]*\] [^]]*\] /    | /'
state
pages
say "eight UECC addresses (one from section 8, one from 8b, these six), handled before any CECC:"
say "at most 5 repairs per load, so 5 repaired and tested clean, 3 retired;"
say "the CECC address is never repaired, and is retired for its 3 hits"

echo
sec=10b
echo "== 10b. A power cut while the flash compacts its records"
hdr() { head -n1 $D/flash_dump | awk -v k="$1" '{ for (i = 1; i < NF; i++) if ($i == k) print $(i + 1) }'; }
steps() { echo $(( $(hdr erases) + $(hdr writes) )); }
before=$(cut -d' ' -f1-3 < $R/retired_pages | sort)
entries=$(tail -n +2 $D/flash_dump)
say "$(wc -l < $R/retired_pages) pages retired, $(echo "$entries" | wc -l) addresses in flash (image $(hdr image), generation $(hdr generation))"
s0=$(steps)
echo compact > $D/ras_inject
n=$(( $(steps) - s0 ))
say "a compaction rewrites them into the other image: $n flash steps (erases,"
say "then the records, the header last); now image $(hdr image), generation $(hdr generation)"
cut=$(( n - 1 ))
say "the power fails at step $cut of the next compaction, before its header:"
echo "powercut $cut" > $D/ras_inject
echo compact > $D/ras_inject
say "(the driver does not know yet: it still says image $(hdr image), generation $(hdr generation))"
say "power back, rmmod ppu; insmod ppu.ko max_repairs=0 (this load repairs"
say "nothing: every page retired before the cut must still be retired after it):"
must rmmod ppu
must insmod /kmod/ppu/ppu.ko $P max_repairs=0
say "the flash kept the last committed image: image $(hdr image), generation $(hdr generation)"
after=$(cut -d' ' -f1-3 < $R/retired_pages | sort)
if [ "$after" = "$before" ] && [ "$(tail -n +2 $D/flash_dump)" = "$entries" ]; then
	say "every record and flag is there, every retired page is still retired:"
else
	say "MISMATCH: the reload lost or changed records:"
	echo "PPU-DEMO: FAILED section 10b: the reload after the power cut lost or changed records"
	rc_demo=1
fi
pages

echo
sec=11
echo "== 11. RMA: a bank without spare rows"
say "reload the device with no spare rows (this also wipes its flash)"
dmesg -c >/dev/null
must rmmod ppu
must rmmod ppu_sim
must insmod /kmod/ppu/ppu_sim.ko spare_rows=0
must insmod /kmod/ppu/ppu.ko $P
echo "flip2 0x1000000 1 2" > $D/ras_inject
echo "read 0x1000000 8" > $D/ras_inject
must rmmod ppu
must insmod /kmod/ppu/ppu.ko $P
dmesg | grep -E "RMA|retired:" | sed 's/^\[ *[0-9.]*\] [^]]*\] /    | /'
state
say "the repair failed (no spare row): the device needs an RMA, the driver"
say "still loads for diagnostics (refuse_on_rma=1 would refuse)"
echo
sec=12
echo "== 12. What the operator sees: ppu-smi"
/extra/ppu-smi | sed 's/^/    > /'
echo "    ppu-smi exit code: $(/extra/ppu-smi >/dev/null 2>&1; echo $?) (0: the query worked, whatever the health)"
/extra/ppu-smi health | sed 's/^/    > /'
echo "    ppu-smi health exit code: $(/extra/ppu-smi health >/dev/null 2>&1; echo $?) (0 healthy, 1 warning, 7 failure)"
exit ${rc_demo:-0}
