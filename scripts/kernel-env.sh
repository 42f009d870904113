#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Sourced by the build and test scripts: the kernel series they work on,
#   PPU_KSERIES=6.1   Debian 12's kernel (default): headers, source and image
#                     from bookworm, installed as packages
#   PPU_KSERIES=7.2   unstable's linux-source-7.2, for KUnit on UML only
#                     (scripts/run-kunit.sh)
#   PPU_KSERIES=6.12  the 6.12 LTS that Debian 12 carries (bookworm-security
#                     and -backports): headers, kbuild, source and image
#                     downloaded as .debs and unpacked into PPU_CACHE/k612,
#                     never installed on the host
# and sets:
#   KSERIES  the series
#   KDIR     the headers to build modules against (unless set)
#   KABI     the ABI of the image the VM boots (unless PPU_KABI is set);
#            for 6.1 the one Debian's linux-headers-amd64 installed
#            (kenv_abi_61), and KDIR its headers
#   KSRC_TARBALL, KSRC_NAME  the kernel source (KUnit on UML), its top folder
#   KSRC_NEWEST  for a series from unstable (7.2): the series, whose source
#                scripts/newest-source.sh links (no tarball, no KDIR: the
#                modules build against it in make check-newest); else empty
# For 6.12 the newest 6.12 ABI the package lists offer is fetched on first
# use and kept (PPU_CACHE/k612/abi), so a cached run stays on one kernel;
# PPU_K612_ABI=<abi> picks another.

KSERIES=${PPU_KSERIES:-6.1}
KSRC_NEWEST=
_KENV_CACHE=${PPU_CACHE:-/var/cache/ppu}

# kenv_fetch_612: download and unpack the 6.12 headers, kbuild and source
kenv_fetch_612() {
	local dir=$_KENV_CACHE/k612 abi deb
	mkdir -p "$dir/deb" "$dir/root"
	(
		flock 8
		abi=${PPU_K612_ABI:-$(cat "$dir/abi" 2>/dev/null || true)}
		if [ -z "$abi" ]; then
			if ! apt-cache policy linux-source-6.12 2>/dev/null | grep -q 'Candidate: [0-9]'; then
				apt-get update -qq
			fi
			abi=$(apt-cache search --names-only '^linux-headers-6\.12\.[0-9]+\+deb12-amd64$' |
			      awk '{ sub(/^linux-headers-/, "", $1); print $1 }' | sort -V | tail -n1)
			[ -n "$abi" ] || { echo "kernel-env: no linux-headers-6.12.*+deb12-amd64 in the package lists" >&2; exit 1; }
		fi
		kdir=$dir/root/usr/src/linux-headers-$abi
		if [ ! -f "$kdir/.ppu-ready" ]; then
			local pkgs ver
			ver=${abi%%+*}
			pkgs="linux-headers-$abi linux-headers-$ver+deb12-common linux-kbuild-$ver+deb12"
			echo "kernel-env: fetching $pkgs" >&2
			if ! apt-cache policy "linux-headers-$abi" 2>/dev/null | grep -q 'Candidate: [0-9]'; then
				apt-get update -qq
			fi
			# shellcheck disable=SC2086
			(cd "$dir/deb" && apt-get download -qq -o APT::Sandbox::User=root $pkgs >&2) || exit 1
			for p in $pkgs; do
				deb=$(ls -1 "$dir"/deb/"${p}"_*.deb | sort -V | tail -n1)
				dpkg-deb -x "$deb" "$dir/root" || exit 1
			done
			# the headers' Makefile includes the common part by its
			# absolute /usr/src path: point it into the cache
			sed -i "s#^include /usr/src/#include $dir/root/usr/src/#" "$kdir/Makefile"
			touch "$kdir/.ppu-ready"
		fi
		if [ ! -s "$dir/linux-source-6.12.tar.xz" ]; then
			echo "kernel-env: fetching linux-source-6.12" >&2
			(cd "$dir/deb" && apt-get download -qq -o APT::Sandbox::User=root linux-source-6.12 >&2) || exit 1
			deb=$(ls -1 "$dir"/deb/linux-source-6.12_*.deb | sort -V | tail -n1)
			dpkg-deb --fsys-tarfile "$deb" |
				tar -xO ./usr/src/linux-source-6.12.tar.xz > "$dir/linux-source-6.12.tar.xz.tmp" || exit 1
			mv "$dir/linux-source-6.12.tar.xz.tmp" "$dir/linux-source-6.12.tar.xz"
		fi
		echo "$abi" > "$dir/abi"
	) 8>"$dir/.lock" || return 1
}

# kenv_abi_61: the 6.1 ABI (6.1.0-N-amd64) of the headers Debian's
# linux-headers-amd64 metapackage depends on, so that a fresh machine after
# Debian's next ABI bump builds against, and boots, the ABI it installed.
# When the metapackage points elsewhere (6.12 from bookworm-backports) or
# is missing, the newest linux-headers-6.1.0-N-amd64 installed.
kenv_abi_61() {
	local abi
	abi=$(dpkg-query -W -f='${Depends}' linux-headers-amd64 2>/dev/null |
	      tr ',|' '\n' |
	      sed -n 's/^ *linux-headers-\(6\.1\.0-[0-9]\{1,\}-amd64\)\( .*\)\{0,1\}$/\1/p' |
	      head -n1)
	if [ -z "$abi" ]; then
		abi=$(dpkg-query -W -f='${Status} ${Package}\n' 'linux-headers-6.1.0-*-amd64' 2>/dev/null |
		      sed -n 's/^install ok installed linux-headers-//p' | sort -V | tail -n1)
	fi
	[ -n "$abi" ] || return 1
	echo "$abi"
}

case $KSERIES in
6.1)
	# PPU_KABI=<abi> (and KDIR=) override the derivation
	KABI=${PPU_KABI:-}
	if [ -z "$KABI" ]; then
		KABI=$(kenv_abi_61) || {
			echo "kernel-env: no linux-headers-6.1.0-N-amd64 installed (scripts/install-deps.sh installs linux-headers-amd64; or set PPU_KABI)" >&2
			exit 1
		}
	fi
	KDIR=${KDIR:-/usr/src/linux-headers-$KABI}
	KSRC_TARBALL=/usr/src/linux-source-6.1.tar.xz
	KSRC_NAME=linux-source-6.1
	;;
6.12)
	kenv_fetch_612 || { echo "kernel-env: cannot fetch the 6.12 kernel" >&2; exit 1; }
	KABI=${PPU_KABI:-$(cat "$_KENV_CACHE/k612/abi")}
	KDIR=${KDIR:-$_KENV_CACHE/k612/root/usr/src/linux-headers-$KABI}
	KSRC_TARBALL=$_KENV_CACHE/k612/linux-source-6.12.tar.xz
	KSRC_NAME=linux-source-6.12
	;;
7.2)
	KABI=${PPU_KABI:-}
	KDIR=${KDIR:-}
	KSRC_TARBALL=
	KSRC_NAME=linux-source-7.2
	KSRC_NEWEST=7.2
	;;
*)
	echo "kernel-env: PPU_KSERIES=$KSERIES: 6.1, 6.12 or 7.2 (KUnit)" >&2
	exit 2
	;;
esac
export KDIR PPU_KSERIES=$KSERIES
