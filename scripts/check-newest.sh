#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make check-newest: compile drm_sched_serial.ko, ppu_sim.ko and ppu.ko
# (W=1) against the newest kernel source Debian has, unstable's
# linux-source-<x.y>. Only that source package is fetched from unstable,
# with an apt configuration of its own under PPU_CACHE/newest (package
# lists and the .deb; the host's apt sources and packages are untouched).
# The tree is configured once with Debian's 6.12 configuration
# (olddefconfig: new options at their defaults) and prepared for external
# modules (modules_prepare), per source version.
#
# Sparse (C=2) runs too: the host's when the kernel's checker-valid.sh
# accepts it, else unstable's, built from its Debian source package
# (Debian 12's 0.6.4 does not know __typeof_unqual__, which 7.x needs).
# Modpost cannot resolve symbols without a full kernel build: its
# "undefined" warnings are not findings; any compiler or sparse warning or
# error is.
#
# Environment: PPU_CACHE, PPU_NEWEST_SUITE (sid), PPU_NEWEST_PKG (the
# linux-source-x.y package; default: what linux-source depends on there).
# Ends with "check-newest: N passed, N failed".
#
#   scripts/check-newest.sh --source-only
# only fetches and extracts the source (as above) and prints its directory,
# for scripts/vm/build-debug-kernel.sh (PPU_DEBUG_KSERIES); its messages go
# to stderr.
set -uo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
CACHE=${PPU_CACHE:-/var/cache/ppu}
DIR=$CACHE/newest
SUITE=${PPU_NEWEST_SUITE:-sid}
JOBS=${PPU_NEWEST_JOBS:-2}
SOURCE_ONLY=0
if [ "${1:-}" = --source-only ]; then
	SOURCE_ONLY=1
	# stdout is for the directory alone
	exec 3>&1 1>&2
fi

say() { echo "check-newest: $*"; }
fail() { say "error: $*"; echo "check-newest: 0 passed, 1 failed"; exit 1; }

mkdir -p "$DIR/apt/lists/partial" "$DIR/apt/archives/partial" "$DIR/apt/etc"
exec 9>"$DIR/.lock"
flock 9

# --- the source package, alone ---------------------------------------------
{
	echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian $SUITE main"
	echo "deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian $SUITE main"
} > "$DIR/apt/etc/sources.list"
APT=(-o Dir::Etc::SourceList="$DIR/apt/etc/sources.list" -o Dir::Etc::SourceParts=/dev/null
     -o Dir::State::Lists="$DIR/apt/lists" -o Dir::Cache="$DIR/apt"
     -o Dir::State::Status=/dev/null -o APT::Sandbox::User=root)
# package lists at most a day old
if [ -z "$(find "$DIR/apt/lists" -name '*_Packages*' -mtime -1 2>/dev/null)" ] ||
   [ -z "$(find "$DIR/apt/lists" -name '*_Sources*' -mtime -1 2>/dev/null)" ]; then
	say "updating $SUITE package lists (in $DIR/apt)"
	apt-get "${APT[@]}" update -qq || fail "apt-get update of $SUITE failed"
fi
PKG=${PPU_NEWEST_PKG:-$(apt-cache "${APT[@]}" depends linux-source 2>/dev/null |
			awk '/Depends: linux-source-[0-9]/ { print $2; exit }')}
[ -n "$PKG" ] || fail "no linux-source-x.y in $SUITE"
VER=$(apt-cache "${APT[@]}" policy "$PKG" | awk '/Candidate:/ { print $2 }')
[ -n "$VER" ] && [ "$VER" != "(none)" ] || fail "$PKG has no candidate in $SUITE"
SERIES=${PKG#linux-source-}
SRC=$DIR/$PKG-$VER
OUT=$DIR/build-$VER
if [ ! -f "$SRC/Makefile" ]; then
	deb=$(ls -1 "$DIR"/"${PKG}"_"${VER}"_all.deb 2>/dev/null | head -n1)
	if [ -z "$deb" ]; then
		say "fetching $PKG $VER from $SUITE"
		(cd "$DIR" && apt-get "${APT[@]}" download -qq "$PKG") || fail "download of $PKG failed"
		deb=$(ls -1 "$DIR"/"${PKG}"_*_all.deb | sort -V | tail -n1)
	fi
	say "extracting $deb"
	tmp=$(mktemp -d "$DIR/.x.XXXXXX")
	dpkg-deb --fsys-tarfile "$deb" | tar -xO "./usr/src/$PKG.tar.xz" | tar -xJ -C "$tmp" ||
		fail "extraction of $deb failed"
	rm -rf "$SRC"
	mv "$tmp/$PKG" "$SRC"
	rmdir "$tmp"
	rm -f "$DIR"/"${PKG}"_*_all.deb
fi
if [ $SOURCE_ONLY = 1 ]; then
	echo "$SRC" >&3
	exit 0
fi

# --- configured and prepared once ------------------------------------------
# (again when a tree prepared before DRM_RAS was enabled here)
if [ ! -f "$OUT/.ppu-prepared" ] || ! grep -q '^CONFIG_DRM_RAS=y' "$OUT/.config"; then
	# Debian's configuration of the newest kernel Debian 12 carries
	cfg=$(PPU_KSERIES=6.12 bash -c ". '$ROOT/scripts/kernel-env.sh' && echo \$KDIR/.config") ||
		fail "no 6.12 configuration to start from"
	mkdir -p "$OUT"
	cp "$cfg" "$OUT/.config"
	# no BTF: it needs a vmlinux, which a prepared tree does not have
	# DRM_RAS (off by default, so in Debian's configurations): ppu.ko's
	# drm_ras nodes compile only with it
	"$SRC/scripts/config" --file "$OUT/.config" --disable DEBUG_INFO_BTF \
		--disable DEBUG_INFO_BTF_MODULES --enable DRM_RAS
	say "configuring $SERIES ($VER) with $cfg, then modules_prepare (once, a few minutes)"
	if ! make -C "$SRC" O="$OUT" olddefconfig > "$OUT/prepare.log" 2>&1 ||
	   ! make -C "$SRC" O="$OUT" -j"$JOBS" modules_prepare >> "$OUT/prepare.log" 2>&1; then
		tail -n 30 "$OUT/prepare.log"
		fail "preparing $SRC failed (log $OUT/prepare.log)"
	fi
	touch "$OUT/.ppu-prepared"
fi

# --- our modules, from a copy ----------------------------------------------
tree=$(mktemp -d)
trap 'rm -rf "$tree"' EXIT
(cd "$ROOT" && git ls-files -co --exclude-standard -z -- Kbuild include drm_sched_serial ppu_drv |
	xargs -0 cp --parents -t "$tree")
# --- sparse -------------------------------------------------------------------
# The host's sparse if the kernel accepts it; else unstable's sparse, built
# here from its Debian source package (a few seconds), as its binary
# package needs a newer C library than Debian 12's.
CHECK=sparse
if [ "$("$SRC/scripts/checker-valid.sh" sparse -m64 2>/dev/null)" != 1 ]; then
	SVER=$(apt-cache "${APT[@]}" showsrc sparse 2>/dev/null | awk '/^Version:/ { print $2 }' | sort -V | tail -n1)
	[ -n "$SVER" ] || fail "no sparse source package in $SUITE"
	SDIR=$DIR/sparse-$SVER
	if [ ! -x "$SDIR/sparse" ]; then
		say "host sparse $(sparse --version 2>/dev/null) is too old for $SERIES: building $SUITE's sparse $SVER"
		stmp=$(mktemp -d "$DIR/.sparse.XXXXXX")
		(cd "$stmp" && apt-get "${APT[@]}" source --download-only -qq "sparse=$SVER" >/dev/null &&
		 dpkg-source --no-check -x ./*.dsc src >/dev/null &&
		 make -C src -j"$JOBS" CC=gcc sparse >build.log 2>&1) ||
			{ tail -n 20 "$stmp/build.log" 2>/dev/null; rm -rf "$stmp"; fail "building sparse $SVER failed"; }
		rm -rf "$SDIR"
		mv "$stmp/src" "$SDIR"
		rm -rf "$stmp"
	fi
	CHECK=$SDIR/sparse
	[ "$("$SRC/scripts/checker-valid.sh" "$CHECK" -m64 2>/dev/null)" = 1 ] ||
		fail "the kernel refuses $SUITE's sparse $SVER too"
fi

log=$tree/build.log
make -C "$OUT" M="$tree" W=1 C=2 CHECK="$CHECK" KBUILD_MODPOST_WARN=1 -j"$JOBS" modules > "$log" 2>&1
rc=$?
# compiler and sparse findings name a source line; make's own errors fail
findings=$(grep -E '\.[ch]:[0-9]+(:[0-9]+)?: (warning|error)' "$log" || true)
if [ $rc -ne 0 ] || [ -n "$findings" ]; then
	grep -vE '^WARNING: modpost: .* undefined!$' "$log" | grep -vE '^\s*(CC|LD|MODPOST)' | tail -n 40
	say "build against $SERIES ($VER): FINDINGS"
	echo "check-newest: 0 passed, 1 failed"
	exit 1
fi
for ko in drm_sched_serial/drm_sched_serial.ko ppu_drv/sim/ppu_sim.ko ppu_drv/ppu.ko; do
	[ -s "$tree/$ko" ] || fail "$ko not built"
done
say "drm_sched_serial.ko, ppu_sim.ko, ppu.ko against $SERIES ($VER): W=1 and sparse ($CHECK) clean"
echo "check-newest: 1 passed, 0 failed"
