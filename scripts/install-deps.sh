#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Install the Debian packages the build, the tests and the demo need.
#
#   install-deps.sh build   what make (the modules) and make install (the
#                           modules, ppu-smi, libppu, the man pages) need:
#                           a production machine gets no test toolchain
#   install-deps.sh [all]   that and what the tests, the demo, make check
#                           and the benchmarks need (QEMU, busybox, igt,
#                           sparse, the kernel source, dkms, ...)
#
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

BUILD="build-essential linux-headers-amd64 kmod libdrm-dev pkg-config
python3-docutils dwarves"
TEST="linux-source-6.1 qemu-system-x86 busybox-static
intel-gpu-tools sparse flex bison libelf-dev bc cpio
libssl-dev python3 python3-sphinx xz-utils
dkms groff-base man-db libnl-genl-3-dev rsync ccache"
case ${1:-all} in
build) PKGS=$BUILD ;;
all) PKGS="$BUILD $TEST" ;;
*) echo "usage: $0 [build|all]" >&2; exit 2 ;;
esac

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
