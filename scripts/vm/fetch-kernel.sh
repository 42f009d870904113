#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Make sure the host has what the VM harness needs and that the cache holds
# the guest kernel, and print the directory that holds it (vmlinuz,
# modules/*.ko, modules.load):
#
#   scripts/vm/fetch-kernel.sh [extra-module-name ...]
#
# PPU_VM_KERNEL selects the kernel:
#   prod (default)  Debian's kernel image of PPU_KSERIES (6.1, or the 6.12
#                   LTS) plus the in-kernel modules our drivers need
#                   (below); make demo and make bench use it
#   debug           the lockdep + KASAN + kmemleak guest kernel built from
#                   linux-source-6.1 by build-debug-kernel.sh (built once,
#                   cached by config); DRM and the helpers are built in, its
#                   modules.load lists what /init loads, its other modules
#                   (vgem, kmemleak_test) are there for PPU_EXTRA_KMODS or
#                   the payload to load. PPU_DEBUG_KSERIES=7.2 (or newest)
#                   builds it from unstable's linux-source-7.2 instead
#                   (build-debug-kernel.sh); PPU_KSERIES stays 6.1
#
# Cache layout (PPU_CACHE, default /var/cache/ppu):
#   deb/linux-image-<abi>-unsigned_*.deb       the downloaded package
#   kernel/<abi>/vmlinuz                       kernel image
#   kernel/<abi>/modules/<name>.ko             uncompressed modules
#   kernel/<abi>/modules.load                  load order (dependencies first)
#   kernel/<abi>/ondemand/<name>.ko            modules in the guest but not
#                                              loaded at boot (vgem)
#
# Modules fetched: drm, gpu-sched, drm_shmem_helper, plus a few helper
# libraries (reed_solomon, libcrc32c, bch, drm_buddy), the names given on
# the command line and PPU_EXTRA_KMODS, and their dependencies recursively
# (modinfo depends). On-demand modules, PPU_ONDEMAND_KMODS (default vgem):
# copied to the guest's /kmod/kernel/ but never loaded by /init (vgem
# loaded at boot would take /dev/dri/card0); a test insmods them. Their
# own dependencies must be among the modules loaded at boot.
# Idempotent; a cached run takes well under a second.
set -euo pipefail

# the image of the kernel series (PPU_KSERIES, scripts/kernel-env.sh), of
# the ABI KABI: for 6.1 the one the installed linux-headers-amd64 depends on
# shellcheck source=scripts/kernel-env.sh
. "$(dirname "${BASH_SOURCE[0]}")/../kernel-env.sh" >&2
PKG=linux-image-${KABI}-unsigned
CACHE=${PPU_CACHE:-/var/cache/ppu}
KDIR=$CACHE/kernel/$KABI
BASE_MODS="drm gpu-sched drm_shmem_helper reed_solomon crc32c_generic libcrc32c bch drm_buddy"
WANT="$BASE_MODS ${PPU_EXTRA_KMODS:-} $*"
ONDEMAND=${PPU_ONDEMAND_KMODS-vgem}

log() { echo "fetch-kernel: $*" >&2; }
norm() { echo "${1//-/_}"; }
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

# hard dependencies plus "softdep pre:" ones (crc32c -> crc32c_generic)
deps_of() { # file.ko
	local d
	for d in $(modinfo -F depends "$1" | tr , ' '); do norm "$d"; done
	for d in $(modinfo -F softdep "$1" | sed -n 's/.*pre:\([^:]*\)\(post:.*\)\{0,1\}$/\1/p'); do
		d=$(norm "$d")
		if [ -n "${MODPATH[$d]:-}" ] || [ -s "$KDIR/modules/$d.ko" ]; then
			echo "$d"
		else
			echo "${d}_generic"
		fi
	done
}

# ---------------------------------------------------------------- host packages
ensure_packages() {
	local need=()
	local p
	for p in qemu-system-x86 busybox-static intel-gpu-tools libdrm-dev cpio \
		 kmod gcc make pkg-config xz-utils zstd; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep 'install ok installed' >/dev/null \
			|| need+=("$p")
	done
	[ ${#need[@]} -eq 0 ] && return 0
	log "installing: ${need[*]}"
	# fresh machine: no package lists yet
	if ! apt-cache policy qemu-system-x86 2>/dev/null | grep 'Candidate: [0-9]' >/dev/null; then
		apt-get update -qq
	fi
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
		"${need[@]}" >&2
}

# ---------------------------------------------------------------- the .deb
fetch_deb() {
	mkdir -p "$CACHE/deb"
	DEB=$(ls -1 "$CACHE"/deb/${PKG}_*_amd64.deb 2>/dev/null | sort -V | tail -n1 || true)
	if [ -n "$DEB" ] && dpkg-deb -I "$DEB" >/dev/null 2>&1; then
		return 0
	fi
	log "downloading $PKG"
	if ! apt-cache policy "$PKG" 2>/dev/null | grep 'Candidate: [0-9]' >/dev/null; then
		apt-get update -qq
		# KABI follows the installed headers (scripts/kernel-env.sh):
		# an image missing from the archive means they are stale
		if ! apt-cache policy "$PKG" 2>/dev/null | grep 'Candidate: [0-9]' >/dev/null; then
			log "$PKG is not in the archive: upgrade linux-headers-amd64 to Debian's current ABI, or set PPU_KABI"
			exit 1
		fi
	fi
	(cd "$CACHE/deb" && apt-get download -qq "$PKG")
	DEB=$(ls -1 "$CACHE"/deb/${PKG}_*_amd64.deb | sort -V | tail -n1)
}

# ---------------------------------------------------------------- extraction
# path of a module inside the .deb, by normalised module name
declare -A MODPATH
index_deb() {
	local listing=$KDIR/deb-listing.txt p b
	if [ ! -s "$listing" ] || [ "$listing" -ot "$DEB" ]; then
		dpkg-deb --fsys-tarfile "$DEB" | tar -t > "$listing.tmp"
		mv "$listing.tmp" "$listing"
	fi
	# the ABI as a fixed string: 6.12.117+deb12-amd64 holds a "+"
	while read -r p; do
		case $p in
		*.ko|*.ko.xz|*.ko.zst|*.ko.gz) ;;
		*) continue ;;
		esac
		b=${p##*/}; b=${b%%.ko*}
		MODPATH[$(norm "$b")]=$p
	done < <(grep -F "/lib/modules/$KABI/" "$listing" | grep -E "\.ko(\.xz|\.zst|\.gz)?$")
}

extract_members() { # members...
	local tmp
	tmp=$(mktemp -d "$KDIR/x.XXXXXX")
	dpkg-deb --fsys-tarfile "$DEB" | tar -x -C "$tmp" "$@"
	echo "$tmp"
}

decompress_to() { # src dst
	case $1 in
	*.ko.xz)  xz -dc "$1" > "$2.tmp" ;;
	*.ko.zst) zstd -qdc "$1" > "$2.tmp" ;;
	*.ko.gz)  gzip -dc "$1" > "$2.tmp" ;;
	*)        cp "$1" "$2.tmp" ;;
	esac
	mv "$2.tmp" "$2"
}

# the debug kernel: every wanted module must be built in or in modules/
debug_kernel() {
	local d m
	d=$("$HERE/build-debug-kernel.sh") || { log "the debug kernel did not build"; exit 1; }
	for m in ${PPU_EXTRA_KMODS:-} "$@"; do
		m=$(norm "$m")
		[ -s "$d/modules/$m.ko" ] && continue
		grep -q "/$m\.ko$" "$d/build/modules.builtin" 2>/dev/null && continue
		grep -q "/${m//_/-}\.ko$" "$d/build/modules.builtin" 2>/dev/null && continue
		log "module $m is neither built in nor a module of the debug kernel ($d)"
		exit 1
	done
	echo "$d"
}

main() {
	ensure_packages
	case ${PPU_VM_KERNEL:-prod} in
	prod) ;;
	debug)
		[ "$KSERIES" = 6.1 ] ||
			{ log "no debug guest kernel for PPU_KSERIES=$KSERIES (PPU_DEBUG_KSERIES=6.1, 7.2 or newest selects its source)"; exit 2; }
		debug_kernel "$@"; return ;;
	*) log "PPU_VM_KERNEL=${PPU_VM_KERNEL}: prod or debug"; exit 2 ;;
	esac
	mkdir -p "$KDIR/modules"
	fetch_deb

	# fast path: everything wanted is there already
	local m missing=0
	[ -s "$KDIR/vmlinuz" ] || missing=1
	for m in $WANT; do
		[ -s "$KDIR/modules/$(norm "$m").ko" ] || missing=1
	done
	for m in $ONDEMAND; do
		[ -s "$KDIR/ondemand/$(norm "$m").ko" ] || missing=1
	done
	if [ $missing = 0 ] && [ -s "$KDIR/modules.load" ] && [ "$KDIR/modules.load" -nt "$DEB" ]; then
		# also make sure the deps of everything cached are cached
		local ok=1 d
		for m in "$KDIR"/modules/*.ko; do
			for d in $(deps_of "$m"); do
				[ -s "$KDIR/modules/$d.ko" ] || ok=0
			done
		done
		while read -r m; do
			[ -s "$KDIR/modules/$m.ko" ] || ok=0
		done < "$KDIR/modules.load"
		if [ $ok = 1 ]; then
			for m in $WANT; do
				grep -qx "$(norm "$m")" "$KDIR/modules.load" || ok=0
			done
		fi
		[ $ok = 1 ] && { echo "$KDIR"; return 0; }
	fi

	index_deb

	if [ ! -s "$KDIR/vmlinuz" ]; then
		log "extracting vmlinuz"
		local t
		t=$(extract_members "./boot/vmlinuz-$KABI")
		mv "$t/boot/vmlinuz-$KABI" "$KDIR/vmlinuz"
		rm -rf "$t"
	fi

	# resolve dependencies level by level, one extraction pass per level
	local level=() next=() members=() n p t d
	declare -A seen
	for m in $WANT; do level+=("$(norm "$m")"); done
	while [ ${#level[@]} -gt 0 ]; do
		members=(); next=()
		for n in "${level[@]}"; do
			[ -n "${seen[$n]:-}" ] && continue
			seen[$n]=1
			[ -s "$KDIR/modules/$n.ko" ] && continue
			p=${MODPATH[$n]:-}
			if [ -z "$p" ]; then
				log "module $n not in $PKG (built in?) - skipped"
				continue
			fi
			members+=("$p")
		done
		if [ ${#members[@]} -gt 0 ]; then
			log "extracting ${members[*]##*/}"
			t=$(extract_members "${members[@]}")
			for p in "${members[@]}"; do
				n=${p##*/}; n=$(norm "${n%%.ko*}")
				decompress_to "$t/$p" "$KDIR/modules/$n.ko"
			done
			rm -rf "$t"
		fi
		for n in "${level[@]}"; do
			[ -s "$KDIR/modules/$n.ko" ] || continue
			for d in $(deps_of "$KDIR/modules/$n.ko"); do
				[ -n "${seen[$d]:-}" ] || next+=("$d")
			done
		done
		level=("${next[@]}")
	done

	# load order: topological sort over every cached module
	local order=()
	declare -A placed
	visit() {
		local x=$1 y
		[ -n "${placed[$x]:-}" ] && return
		placed[$x]=1
		for y in $(deps_of "$KDIR/modules/$x.ko"); do
			[ -s "$KDIR/modules/$y.ko" ] && visit "$y"
		done
		order+=("$x")
	}
	for m in "$KDIR"/modules/*.ko; do
		n=${m##*/}; visit "${n%.ko}"
	done
	# on-demand modules, kept out of modules/ (so out of the load order)
	mkdir -p "$KDIR/ondemand"
	for m in $ONDEMAND; do
		n=$(norm "$m")
		[ -s "$KDIR/ondemand/$n.ko" ] && continue
		p=${MODPATH[$n]:-}
		[ -n "$p" ] || { log "on-demand module $n not in $PKG - skipped"; continue; }
		log "extracting ${p##*/} (on demand)"
		t=$(extract_members "$p")
		decompress_to "$t/$p" "$KDIR/ondemand/$n.ko"
		rm -rf "$t"
		for d in $(deps_of "$KDIR/ondemand/$n.ko"); do
			[[ " ${order[*]} " == *" $d "* ]] ||
				log "warning: on-demand $n needs $d, not loaded at boot (add it to PPU_EXTRA_KMODS)"
		done
	done
	printf '%s\n' "${order[@]}" > "$KDIR/modules.load.tmp"
	mv "$KDIR/modules.load.tmp" "$KDIR/modules.load"
	log "cached in $KDIR: $(tr '\n' ' ' < "$KDIR/modules.load")"
	echo "$KDIR"
}

main "$@"
