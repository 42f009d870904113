#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build (once) the debug guest kernel of the VM harness: Debian's
# linux-source-6.1 with `make tinyconfig` + scripts/vm/debug-kernel.config
# (lockdep, KASAN, UBSAN, debug objects, kmemleak, ... and DRM with the
# helpers our modules use built in), and print the directory that holds it,
# in the layout fetch-kernel.sh gives Debian's kernel.
# PPU_DEBUG_KSERIES selects the source:
#   6.1 (default)  Debian 12's linux-source-6.1 (installed as a package)
#   7.2, ...       unstable's linux-source-<x.y>, fetched and extracted into
#                  PPU_CACHE/newest by scripts/check-newest.sh --source-only
#   newest         unstable's newest linux-source (check-newest.sh's)
# A series other than 6.1 gets scripts/vm/debug-kernel-<x.y>.config on top
# of debug-kernel.config (its lines replace the base's lines of the same
# options: renamed and removed options); without one for its series, the
# newest such fragment there is. The unstable source is never written to:
# the build uses a hard-linked copy of it.
#
#   scripts/vm/build-debug-kernel.sh [--config-only]
#
#   <dir>/vmlinuz         bzImage
#   <dir>/modules/*.ko    the kernel's own modules (vgem, kmemleak_test),
#                         for PPU_EXTRA_KMODS or a payload to load
#   <dir>/modules.load    the ones /init loads at boot (BOOT_MODULES below),
#                         dependencies first: none today, everything the VM
#                         needs is built in
#   <dir>/build/          the O= build tree (Module.symvers, headers): what
#                         build-debug-modules.sh builds our modules against
#   <dir>/config          the final .config
#
# <dir> is $PPU_CACHE/debug-kernel/<source version>-<key>, the key a hash of
# the config fragments, scripts/vm/debug-kernel.Kconfig and RECIPE below:
# a changed fragment or a new linux-source package builds a new kernel,
# anything else reuses the cached one (well under a second). The previous
# build of the same series is kept (PPU_DEBUG_KERNEL_KEEP, default 2),
# older ones are removed.
# An interrupted build resumes where it stopped. Compiles go through ccache
# ($PPU_CACHE/debug-kernel/ccache), so a changed fragment recompiles only
# what the change really touches.
#
# --config-only: configure and check the .config, do not compile.
# Environment: PPU_CACHE (default /var/cache/ppu), PPU_DEBUG_KERNEL_JOBS (2).
# Build log: <dir>/build.log. Measured on 2 cores: see Documentation/testing.rst.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
CACHE=${PPU_CACHE:-/var/cache/ppu}
BASE=$CACHE/debug-kernel
BASEFRAG=$HERE/debug-kernel.config
KCONF=$HERE/debug-kernel.Kconfig
KSER=${PPU_DEBUG_KSERIES:-6.1}
JOBS=${PPU_DEBUG_KERNEL_JOBS:-2}
KEEP=${PPU_DEBUG_KERNEL_KEEP:-2}
# bump when the way the kernel is built changes (not for the fragment: it
# is hashed itself)
RECIPE=2
# modules /init loads at boot (vgem must not: built in or loaded first it
# would take /dev/dri/card0)
BOOT_MODULES=""

CONFIG_ONLY=0
[ "${1:-}" = --config-only ] && CONFIG_ONLY=1

log() { echo "build-debug-kernel: $*" >&2; }
die() { log "error: $*"; exit 1; }

ensure_packages() {
	local need=() p
	local src=linux-source-6.1
	[ "$KSER" = 6.1 ] || src=
	for p in $src gcc make flex bison libelf-dev libssl-dev bc \
		 xz-utils kmod rsync ccache; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
			need+=("$p")
	done
	[ ${#need[@]} -eq 0 ] && return 0
	log "installing: ${need[*]}"
	local sudo=""
	[ "$(id -u)" -ne 0 ] && sudo=sudo
	if ! apt-cache policy gcc 2>/dev/null | grep -q 'Candidate: [0-9]'; then
		$sudo apt-get update -qq
	fi
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends \
		"${need[@]}" >&2
}

# shellcheck source=scripts/newest-source.sh
. "$HERE/../newest-source.sh"

ensure_packages
if [ "$KSER" = 6.1 ]; then
	PKG=linux-source-6.1
	VER=$(dpkg-query -W -f='${Version}' $PKG)
	TARBALL=/usr/src/$PKG.tar.xz
	SFRAG=
else
	# a hard-linked copy of <cache>/newest/linux-source-<x.y>-<version>
	# in $BASE/src/<version> (scripts/newest-source.sh)
	newest_source_copy "$KSER" "$BASE/src" || die "no source tree"
	PKG=$NEWEST_PKG
	VER=$NEWEST_VER
	SERIES=$NEWEST_SERIES
	SFRAG=$HERE/debug-kernel-$SERIES.config
	if [ ! -f "$SFRAG" ]; then
		SFRAG=$(ls -1 "$HERE"/debug-kernel-*.config 2>/dev/null | sort -V | tail -n1)
		[ -n "$SFRAG" ] || die "no scripts/vm/debug-kernel-<x.y>.config for $PKG"
		log "no ${HERE##*/}/debug-kernel-$SERIES.config: trying ${SFRAG##*/}"
	fi
fi
KEY=$({ echo "recipe $RECIPE"; echo "$PKG $VER"; cat "$BASEFRAG" ${SFRAG:+"$SFRAG"} "$KCONF"; } |
	sha256sum | cut -c1-12)
KDIR=$BASE/$VER-$KEY
OUT=$KDIR/build

done_ok() { [ -f "$KDIR/.done" ] && [ -s "$KDIR/vmlinuz" ] && [ -f "$KDIR/modules.load" ]; }

if [ $CONFIG_ONLY = 0 ] && done_ok; then
	echo "$KDIR"
	exit 0
fi

mkdir -p "$BASE"
exec 8>"$BASE/.lock"
if ! flock -n 8; then
	log "another build holds $BASE/.lock; waiting"
	flock 8
fi
if [ $CONFIG_ONLY = 0 ] && done_ok; then
	echo "$KDIR"
	exit 0
fi

# ------------------------------------------------------------ the source
SRC=$BASE/src/$VER
# (unstable's: already linked by newest_source_copy; the edits below
# replace files, never write into them)
if [ ! -f "$SRC/.extracted" ]; then
	[ -f "$TARBALL" ] || die "$TARBALL missing (package linux-source-6.1)"
	log "extracting $TARBALL to $SRC"
	rm -rf "$SRC" "$SRC.tmp"
	mkdir -p "$SRC.tmp"
	tar -xJf "$TARBALL" -C "$SRC.tmp"
	mv "$SRC.tmp/linux-source-6.1" "$SRC"
	rmdir "$SRC.tmp"
	touch "$SRC/.extracted"
fi
# our selector of hidden helpers (see the file)
if ! cmp -s "$KCONF" "$SRC/drivers/gpu/drm/Kconfig.ppu-debug"; then
	rm -f "$SRC/drivers/gpu/drm/Kconfig.ppu-debug"
	cp "$KCONF" "$SRC/drivers/gpu/drm/Kconfig.ppu-debug"
fi
tree_append_line "$SRC/drivers/gpu/drm/Kconfig" 'source "drivers/gpu/drm/Kconfig.ppu-debug"'

# the fragment: debug-kernel.config, its lines of options the series
# fragment names replaced by that fragment's
FRAG=$BASEFRAG
if [ -n "$SFRAG" ]; then
	FRAG=$KDIR/fragment.config
	mkdir -p "$KDIR"
	opts=$(sed -nE 's/^(# )?(CONFIG_[A-Za-z0-9_]+)[= ].*/\2/p' "$SFRAG" | sort -u)
	{
		sed -nE 's/^(# )?(CONFIG_[A-Za-z0-9_]+)[= ].*/\2 &/p' "$BASEFRAG" |
			awk -v o="$opts" 'BEGIN { n = split(o, a, "\n"); for (i = 1; i <= n; i++) s[a[i]] = 1 }
				!($1 in s) { sub(/^[^ ]+ /, ""); print }'
		grep -E '^(# )?CONFIG_' "$SFRAG"
	} > "$FRAG.tmp"
	mv "$FRAG.tmp" "$FRAG"
fi
FNAME=${BASEFRAG#"$HERE"/}${SFRAG:+ + ${SFRAG#"$HERE"/}}

# ------------------------------------------------------------ configure
mkdir -p "$OUT"
export CCACHE_DIR=$BASE/ccache
export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-2G}
MK=(make -C "$SRC" O="$OUT" ARCH=x86_64 -j"$JOBS" CC="ccache gcc")
BLOG=$KDIR/build.log
: > "$BLOG"
log "configuring $OUT (tinyconfig + $FNAME)"
{
	"${MK[@]}" tinyconfig
	"$SRC/scripts/kconfig/merge_config.sh" -m -O "$OUT" "$OUT/.config" "$FRAG"
	"${MK[@]}" olddefconfig
} >> "$BLOG" 2>&1 || { tail -n 30 "$BLOG" >&2; die "configuration failed (log $BLOG)"; }

# every line of the fragment must have taken
bad=0
while IFS= read -r l; do
	case $l in
	CONFIG_*=*)
		grep -qxF "$l" "$OUT/.config" && continue
		log "config: wanted $l, got: $(grep -E "^(# )?${l%%=*}[= ]" "$OUT/.config" || echo 'absent (unmet dependency?)')"
		bad=1
		;;
	"# CONFIG_"*" is not set")
		o=${l#\# }; o=${o%% *}
		grep -q "^$o=" "$OUT/.config" || continue
		log "config: wanted $o off, got: $(grep "^$o=" "$OUT/.config")"
		bad=1
		;;
	esac
done < "$FRAG"
[ $bad = 0 ] || die "the .config does not have what $FNAME asks for (see above)"
log "config checked: every option of $FNAME is in the .config"
if [ $CONFIG_ONLY = 1 ]; then
	echo "$KDIR"
	exit 0
fi

# ------------------------------------------------------------ build
log "building the debug kernel with -j$JOBS (about 15 min on 2 cores from nothing; log $BLOG)"
start=$(date +%s)
"${MK[@]}" bzImage modules >> "$BLOG" 2>&1 ||
	{ tail -n 40 "$BLOG" >&2; die "kernel build failed (log $BLOG)"; }
secs=$(( $(date +%s) - start ))
log "built in ${secs}s"

norm() { local n=${1##*/}; n=${n%.ko}; echo "${n//-/_}"; }
rm -rf "$KDIR/modules" "$KDIR/modules.load"
mkdir -p "$KDIR/modules"
cp "$OUT/arch/x86/boot/bzImage" "$KDIR/vmlinuz.tmp"
mv "$KDIR/vmlinuz.tmp" "$KDIR/vmlinuz"
cp "$OUT/.config" "$KDIR/config"
while IFS= read -r ko; do
	cp "$OUT/$ko" "$KDIR/modules/$(norm "$ko").ko"
done < <(sed 's/\.o$/.ko/' "$OUT/modules.order")

# boot load order: BOOT_MODULES, dependencies first
declare -A placed
order=()
visit() {
	local x=$1 y
	[ -n "${placed[$x]:-}" ] && return
	placed[$x]=1
	for y in $(modinfo -F depends "$KDIR/modules/$x.ko" | tr , ' '); do
		y=${y//-/_}
		[ -s "$KDIR/modules/$y.ko" ] || die "module $x depends on $y, not built"
		visit "$y"
	done
	order+=("$x")
}
for m in $BOOT_MODULES; do
	n=$(norm "$m")
	[ -s "$KDIR/modules/$n.ko" ] || die "boot module $n not built"
	visit "$n"
done
printf '%s\n' "${order[@]}" | sed '/^$/d' > "$KDIR/modules.load"
{
	echo "key $KEY"
	echo "$PKG $VER"
	echo "built $(date -u +%Y-%m-%dT%H:%M:%SZ) in ${secs}s with -j$JOBS"
} > "$KDIR/.done"
log "cached in $KDIR ($(du -sh "$KDIR/vmlinuz" | cut -f1) bzImage; modules: $(ls "$KDIR/modules" | tr '\n' ' '))"

# keep the newest $KEEP builds of this series
ls -1td "$BASE/$(echo "$VER" | cut -d. -f1-2)".*-*/ 2>/dev/null | tail -n +$((KEEP + 1)) | while read -r old; do
	old=${old%/}
	[ "$old" = "$KDIR" ] && continue
	log "removing the old build $old"
	rm -rf "$old"
done
echo "$KDIR"
