#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build the modules and the igt tests, boot the VM once running every
# subtest of every igt binary (and, with ppu_ecc, the module-reload steps of
# scripts/vm/ecc-reload.sh after them, as ecc-reload/<step>, and the ppu-smi
# checks of scripts/vm/ppu-smi-test.sh, as ppu-smi/<step>), and report:
#   igt: <binary>/<subtest>: PASS|FAIL|SKIP
#   igt: N passed, N failed
# Exit status nonzero on any failed subtest, a subtest that never reported,
# a kernel splat in the serial log, a missing end marker, or (debug kernel)
# a kmemleak report naming our modules.
#
# Environment:
#   PPU_KSERIES      6.1 (default) or 6.12: the kernel series (scripts/
#                    kernel-env.sh); the debug kernel exists for 6.1 only
#   PPU_VM_KERNEL    prod (default): Debian's kernel image; debug: the lockdep
#                    + KASAN + kmemleak guest kernel (scripts/vm/
#                    build-debug-kernel.sh, built on first use), our modules
#                    built against it in build/debug-modules; 3-6x slower
#   PPU_DEBUG_KSERIES  the debug kernel's source: 6.1 (default), or 7.2
#                    (newest: the newest) from Debian unstable
#   PPU_IGT_TIMEOUT  seconds per igt binary in the guest (600, debug 1800)
#   PPU_PARAMS       ppu.ko parameters (default: short job timeouts)
#   PPU_IGT_LADDER   ring or domain: ppu.ko's reset_ladder for the run
#                    (default: the module's own, ring); subtests about the
#                    domain rung take it themselves (igt ppu_ladder_set())
#   PPU_SKIP_BUILD=1 use the modules and tests as built
#   PPU_IGT_LOG      serial log file (default build/igt/serial.log under ROOT)
#   PPU_IGT_FILTER   only binaries whose name matches this regex; the
#                    ppu-smi steps run with ppu_ecc or when "ppu-smi"
#                    matches it (PPU_IGT_FILTER='^ppu-smi$': only them)
#   PPU_IGT_EXCLUDE  skip binaries whose name matches this regex
#   PPU_SMI_TEST=0   never run the ppu-smi steps
#   PPU_IGT_DEVICES  simulated cards: ppu_sim.ko gets devices=N and the
#                    guest PPU_IGT_DEVICES=N (ppu_multi fails with fewer
#                    cards); default 2 when ppu_multi is the only binary,
#                    else ppu_sim.ko's own default, one
#   plus what scripts/vm/run-vm.sh and mkinitramfs.sh read
set -uo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
LOG=${PPU_IGT_LOG:-$ROOT/igt-tests/build/serial.log}
# each igt binary plays many clients in one process: no per-process bans
# (ppu_hang_basic/process-ban turns them on for its child) and no
# isolation of processes (ppu_hints/isolation turns it on for its children)
export PPU_PARAMS=${PPU_PARAMS:-gfx_timeout_ms=1000 compute_timeout_ms=1000 sdma_timeout_ms=500 max_guilty_per_process=0 max_suspects_per_process=0 user_hold_ms=0 isolate_ms=0}
# every other subtest holds on either ladder: make test runs one stage on each
case "${PPU_IGT_LADDER:-}" in
'') ;;
ring | domain) PPU_PARAMS="$PPU_PARAMS reset_ladder=$PPU_IGT_LADDER" ;;
*) echo "igt: PPU_IGT_LADDER=$PPU_IGT_LADDER: use ring or domain"; exit 1 ;;
esac

if [ "${PPU_SKIP_BUILD:-0}" != 1 ]; then
	make -C "$ROOT" modules -j2 || { echo "igt: module build failed"; exit 1; }
	make -C "$ROOT/igt-tests" -j2 || { echo "igt: test build failed"; exit 1; }
	make -C "$ROOT/tools" ppu-smi ppu-demo || { echo "igt: tools build failed"; exit 1; }
fi

bins=()
for b in "$ROOT"/igt-tests/build/ppu_*; do
	[ -f "$b" ] && [ -x "$b" ] || continue
	[ -n "${PPU_IGT_FILTER:-}" ] && ! [[ ${b##*/} =~ $PPU_IGT_FILTER ]] && continue
	[ -n "${PPU_IGT_EXCLUDE:-}" ] && [[ ${b##*/} =~ $PPU_IGT_EXCLUDE ]] && continue
	bins+=("$b")
done
# the ppu-smi checks: with ppu_ecc (the ECC flow) or when the filter asks
smi=0
if [ "${PPU_SMI_TEST:-1}" != 0 ]; then
	for b in "${bins[@]}"; do [ "${b##*/}" = ppu_ecc ] && smi=1; done
	[ -n "${PPU_IGT_FILTER:-}" ] && [[ ppu-smi =~ $PPU_IGT_FILTER ]] && smi=1
fi
[ ${#bins[@]} -gt 0 ] || [ $smi = 1 ] ||
	{ echo "igt: no test binaries in $ROOT/igt-tests/build"; exit 1; }

# what should run: every subtest each binary lists
declare -A expected
order=()
for b in "${bins[@]}"; do
	n=${b##*/}
	while read -r st; do
		[ -n "$st" ] || continue
		expected[$n/$st]=1
		order+=("$n/$st")
	done < <("$b" --list-subtests 2>/dev/null)
done

# the module-reload steps of the ECC flow run after the igt binaries when
# ppu_ecc is among them; each step is a result ecc-reload/<step>
extra=${PPU_EXTRA_FILES:-}
for b in "${bins[@]}"; do
	[ "${b##*/}" = ppu_ecc ] || continue
	extra="$extra $HERE/vm/ecc-reload.sh"
	while read -r st; do
		[ -n "$st" ] || continue
		expected[ecc-reload/$st]=1
		order+=("ecc-reload/$st")
	done < <(sh "$HERE/vm/ecc-reload.sh" --list)
done

if [ $smi = 1 ]; then
	for f in "$ROOT/tools/ppu-smi" "$ROOT/tools/ppu-demo"; do
		[ -x "$f" ] || { echo "igt: $f not built (make -C tools)"; exit 1; }
	done
	extra="$extra $ROOT/tools/ppu-smi $ROOT/tools/ppu-demo $HERE/vm/ppu-smi-test.sh"
	# ppu-smi/exporter-unit: the exporter units as make install ships
	# them, ppu-smi in /extra, under Debian's systemd (skipped without it)
	sd=$(command -v systemctl || true)
	if [ -x /lib/systemd/systemd ] && [ -n "$sd" ]; then
		units=$ROOT/igt-tests/build/units
		mkdir -p "$units"
		sed 's|@BINDIR@|/extra|g' "$ROOT/tools/systemd/ppu-smi-exporter.service.in" \
			> "$units/ppu-smi-exporter.service"
		extra="$extra /lib/systemd/systemd $sd $units/ppu-smi-exporter.service"
		extra="$extra $ROOT/tools/systemd/ppu-smi-exporter.timer"
	fi
	while read -r st; do
		[ -n "$st" ] || continue
		expected[ppu-smi/$st]=1
		order+=("ppu-smi/$st")
	done < <(sh "$HERE/vm/ppu-smi-test.sh" --list)
fi

# ppu_multi needs two cards; every other binary runs on ppu_sim.ko's one
if [ -z "${PPU_IGT_DEVICES:-}" ] && [ $smi = 0 ] && [ ${#bins[@]} = 1 ] &&
	[ "${bins[0]##*/}" = ppu_multi ]; then
	PPU_IGT_DEVICES=2
fi
if [ -n "${PPU_IGT_DEVICES:-}" ]; then
	export PPU_SIM_PARAMS="${PPU_SIM_PARAMS:-} devices=$PPU_IGT_DEVICES"
	export PPU_GUEST_ENV="${PPU_GUEST_ENV:-} PPU_IGT_DEVICES=$PPU_IGT_DEVICES"
	# ppu_multi/smi-every-card runs /extra/ppu-smi
	[ -x "$ROOT/tools/ppu-smi" ] && [[ " $extra " != *" $ROOT/tools/ppu-smi "* ]] &&
		extra="$extra $ROOT/tools/ppu-smi"
fi

mkdir -p "$(dirname "$LOG")"
igt_bins="${bins[*]}"
[ -n "$igt_bins" ] || igt_bins=none
# the guest's payload reads it (scripts/vm/igt-payload.sh)
if [ -n "${PPU_IGT_TIMEOUT:-}" ]; then
	export PPU_GUEST_ENV="${PPU_GUEST_ENV:-} PPU_IGT_TIMEOUT=$PPU_IGT_TIMEOUT"
fi
PPU_EXTRA_FILES="$extra" PPU_IGT_BINS="$igt_bins" "$HERE/vm/run-vm.sh" "$HERE/vm/igt-payload.sh" "$LOG"
vmrc=$?

# results: "Subtest <name>: <RESULT> (<time>)" between BEGIN/END markers
declare -A result
bin=
while IFS= read -r line; do
	case $line in
	"PPU-IGT: BEGIN "*) bin=${line#PPU-IGT: BEGIN } ;;
	"PPU-IGT: END "*) bin= ;;
	"Subtest "*:*)
		[ -n "$bin" ] || continue
		st=${line#Subtest }; st=${st%%:*}
		r=${line#*: }; r=${r%% *}
		result[$bin/$st]=$r
		;;
	"PPU-ECC-RELOAD: "*": PASS"|"PPU-ECC-RELOAD: "*": FAIL")
		st=${line#PPU-ECC-RELOAD: }; st=${st%%:*}
		r=${line##*: }
		[ "$r" = PASS ] && r=SUCCESS
		result[ecc-reload/$st]=$r
		;;
	"PPU-SMI-TEST: "*": PASS"|"PPU-SMI-TEST: "*": FAIL"|"PPU-SMI-TEST: "*": SKIP")
		st=${line#PPU-SMI-TEST: }; st=${st%%:*}
		r=${line##*: }
		[ "$r" = PASS ] && r=SUCCESS
		result[ppu-smi/$st]=$r
		;;
	esac
done < "$LOG"

# ppu-smi/json: the guest has no JSON parser; every document it printed
# between PPU-SMI-JSON markers must parse here (kernel lines skipped)
if [ $smi = 1 ] && [ "${result[ppu-smi/json]:-}" = SUCCESS ]; then
	jdir=$(mktemp -d "${TMPDIR:-/tmp}/ppu-smi-json.XXXXXX")
	awk -v d="$jdir" '/^PPU-SMI-JSON: BEGIN /{ f = d "/" $3 ".json"; next }
		/^PPU-SMI-JSON: END$/{ f = ""; next }
		/^\[ *[0-9]+\.[0-9]+\] /{ next } f { print > f }' "$LOG"
	njson=0
	for j in "$jdir"/*.json; do
		[ -f "$j" ] || continue
		njson=$((njson + 1))
		if ! python3 -m json.tool "$j" > /dev/null; then
			echo "igt: ppu-smi --json in state ${j##*/} is not valid JSON"
			result[ppu-smi/json]=FAIL
		fi
	done
	[ $njson -ge 4 ] || { echo "igt: ppu-smi: $njson JSON documents, expected 4"; result[ppu-smi/json]=FAIL; }
	rm -rf "$jdir"
fi

# ppu-smi/prometheus: promtool check metrics must accept the last
# --prometheus document of every step the guest printed between
# PPU-SMI-PROM markers (kernel lines skipped). promtool comes from Debian's
# prometheus package, unpacked into PPU_CACHE, not installed (the package
# is a monitoring server with its service and web assets, 96 MB); PATH's
# promtool if there is one.
promtool_path() {
	local dir=${PPU_CACHE:-/var/cache/ppu}/prometheus
	if command -v promtool; then
		return 0
	fi
	mkdir -p "$dir" || return 1
	(
		flock 9
		[ -x "$dir/usr/bin/promtool" ] && exit 0
		cd "$dir" && rm -f prometheus_*.deb &&
		apt-get download -qq prometheus > /dev/null 2>&1 &&
		dpkg-deb --fsys-tarfile prometheus_*.deb | tar -x ./usr/bin/promtool &&
		rm -f prometheus_*.deb
	) 9> "$dir/.lock" || return 1
	echo "$dir/usr/bin/promtool"
}
if [ $smi = 1 ] && [ "${result[ppu-smi/prometheus]:-}" = SUCCESS ]; then
	pdir=$(mktemp -d "${TMPDIR:-/tmp}/ppu-smi-prom.XXXXXX")
	awk -v d="$pdir" '/^PPU-SMI-PROM: BEGIN /{ f = d "/" $3 ".prom"; next }
		/^PPU-SMI-PROM: END$/{ f = ""; next }
		/^\[ *[0-9]+\.[0-9]+\] /{ next } f { print > f }' "$LOG"
	if ! promtool=$(promtool_path); then
		echo "igt: ppu-smi: no promtool (apt-get download prometheus failed)"
		result[ppu-smi/prometheus]=FAIL
	else
		nprom=0
		for p in "$pdir"/*.prom; do
			[ -f "$p" ] || continue
			nprom=$((nprom + 1))
			if ! out=$("$promtool" check metrics < "$p" 2>&1); then
				echo "igt: ppu-smi --prometheus of step $(basename "$p" .prom): promtool check metrics:"
				echo "$out" | sed 's/^/igt:   /'
				result[ppu-smi/prometheus]=FAIL
			fi
		done
		echo "igt: ppu-smi: promtool check metrics on $nprom documents"
		[ $nprom -ge 7 ] || { echo "igt: ppu-smi: $nprom Prometheus documents, expected 7 or more"; result[ppu-smi/prometheus]=FAIL; }
	fi
	rm -rf "$pdir"
fi

pass=0 fail=0 skip=0
for k in "${order[@]}"; do
	case ${result[$k]:-} in
	SUCCESS) s=PASS; pass=$((pass + 1)) ;;
	SKIP) s=SKIP; skip=$((skip + 1)) ;;
	"") s=FAIL; fail=$((fail + 1)); k="$k (no result)" ;;
	*) s=FAIL; fail=$((fail + 1)); [ "${result[$k]}" != FAIL ] && k="$k (${result[$k]})" ;;
	esac
	echo "igt: $k: $s"
done
# a subtest reported that --list-subtests did not show
for k in "${!result[@]}"; do
	[ -n "${expected[$k]:-}" ] || { echo "igt: $k: FAIL (unexpected subtest)"; fail=$((fail + 1)); }
done

if [ $vmrc != 0 ]; then
	case $vmrc in
	1) echo "igt: a test binary exited with failure ($LOG)" ;;
	2) echo "igt: kernel splat in the serial log ($LOG)" ;;
	3) echo "igt: VM did not finish (no end marker) ($LOG)" ;;
	4) echo "igt: modules failed to load ($LOG)" ;;
	5) echo "igt: our modules did not unload ($LOG)" ;;
	6) echo "igt: kmemleak: a leak in our modules, or no scan ($LOG)" ;;
	*) echo "igt: VM run failed with $vmrc ($LOG)" ;;
	esac
fi
[ $skip -gt 0 ] && echo "igt: $skip skipped"
echo "igt: $pass passed, $fail failed"
[ $fail = 0 ] && [ $vmrc = 0 ] && exit 0
exit 1
