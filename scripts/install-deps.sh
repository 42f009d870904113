#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Install the Debian packages the build, the tests and the demo need.
# Runs on every make invocation: a no-op once everything is there.
# build-essential: cc and libc6-dev for the tools; make itself must be
# installed before the first make (README.md).
# dwarves: pahole, which Debian's 6.12 headers need for module BTF.
# linux-headers-amd64: the metapackage; scripts/kernel-env.sh builds against
# (and boots) the 6.1 ABI it depends on. dkms: the install stage's dkms
# build (scripts/install-test.sh); python3-docutils: rst2man for the man
# pages (tools/man), groff-base and man-db to check them. libnl-genl-3-dev:
# the igt test ppu_drm_ras talks to the drm-ras generic netlink family
# (its .so files reach the VM through mkinitramfs.sh's ldd).
set -e

PKGS="build-essential linux-headers-amd64 linux-source-6.1 qemu-system-x86 busybox-static
intel-gpu-tools libdrm-dev sparse flex bison libelf-dev bc cpio kmod
libssl-dev pkg-config python3 python3-sphinx xz-utils dwarves
dkms python3-docutils groff-base man-db libnl-genl-3-dev rsync ccache"

missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
		missing="$missing $p"
done
[ -z "$missing" ] && exit 0

echo "install-deps: installing$missing"
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO=sudo
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
