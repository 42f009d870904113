#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The install stage of make test: what a user installing on a real
# machine runs, checked on a copy of the tree in a temporary folder (the
# host's /lib/modules, /usr/local and /var/lib/dkms are never touched):
#
#   abi/*      scripts/kernel-env.sh derives the 6.1 ABI (KABI, KDIR) from
#              the Depends of the installed linux-headers-amd64: a faked
#              dpkg-query makes the metapackage point at another ABI, and
#              the build, the headers and the VM image (fetch-kernel.sh,
#              with a faked apt) follow it; PPU_KABI= and KDIR= override it
#   libppu/*   make -C tools install into a DESTDIR: libppu.so.1 exports
#              exactly libppu.h's functions; a program built through
#              pkg-config (PKG_CONFIG_SYSROOT_DIR) runs against it
#   man/pages  ppu-smi(1), libppu(3) and ppu(7) render without a groff
#              warning, cover every ppu-smi option and libppu function, and
#              ppu-smi(1) has EXIT STATUS, FILES and EXAMPLES
#   systemd/units  ppu-smi-exporter.service and .timer installed into the
#              prefix's lib/systemd/system, ExecStart the installed
#              ppu-smi, nothing enabled, systemd-analyze verify clean
#   make-install/*  make install into a DESTDIR: the modules of the
#              headers' release (or KERNELRELEASE=) under updates/, depmod's
#              index, the tools and nothing else (no test or developer
#              tool), and it asks install-deps.sh for the build packages
#              only (no test toolchain on a production machine)
#   dkms/*     dkms add, build (-k: the host runs another kernel) and
#              install under temporary dkms, source and install trees: the
#              three modules of the right vermagic, signed
#
# Each step prints "install/<step>: PASS" or "install/<step>: FAIL"; the
# script ends with "install: N passed, N failed" and exits non-zero on any
# failure. PPU_INSTALL_KEEP=1 keeps the temporary folder.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
T=$(mktemp -d "${TMPDIR:-/tmp}/ppu-install.XXXXXX") && [ -d "$T" ] || exit 1
passed=0
failed=0

cleanup() {
	if [ "${PPU_INSTALL_KEEP:-0}" = 1 ]; then
		echo "install: kept $T"
	else
		rm -rf "$T"
	fi
}
trap cleanup EXIT

# result <step> <status>: count one step
result() {
	if [ "$2" -eq 0 ]; then
		echo "install/$1: PASS"
		passed=$((passed + 1))
	else
		echo "install/$1: FAIL"
		failed=$((failed + 1))
	fi
}

# expect <what> <expected> <actual>: 0 when equal, else says so
expect() {
	[ "$2" = "$3" ] && return 0
	echo "  $1: expected '$2', got '$3'"
	return 1
}

# the ABI of the real installed headers, and one that cannot be installed
# shellcheck source=scripts/kernel-env.sh
KABI_REAL=$(. "$ROOT/scripts/kernel-env.sh" && echo "$KABI") || {
	echo "install: scripts/kernel-env.sh failed"
	echo "install: 0 passed, 1 failed"
	exit 1
}
KABI_FAKE=6.1.0-999-amd64
echo "install: the installed headers' ABI is $KABI_REAL"

# the tree as committed plus work in progress, without build products
mkdir -p "$T/src"
(cd "$ROOT" && git ls-files -z -co --exclude-standard |
	cpio -pdm0 --quiet "$T/src") || { echo "install: cannot copy the tree"; exit 1; }

# ------------------------------------------------------------------ abi
# dpkg-query that reports PPU_FAKE_DEPENDS as linux-headers-amd64's
# Depends ("-" as a metapackage that is not installed) and answers every
# other query from dpkg; apt-cache and apt-get that know no package and
# log what they were asked
mkdir -p "$T/fake"
cat > "$T/fake/dpkg-query" <<'EOF'
#!/bin/sh
case "$*" in
*'${Depends}'*linux-headers-amd64*)
	if [ "$PPU_FAKE_DEPENDS" = - ]; then
		echo "dpkg-query: no packages found matching linux-headers-amd64" >&2
		exit 1
	fi
	printf '%s' "$PPU_FAKE_DEPENDS"
	exit 0
	;;
esac
exec /usr/bin/dpkg-query "$@"
EOF
printf '#!/bin/sh\necho "apt-cache $*" >> "%s/apt.log"\n' "$T" > "$T/fake/apt-cache"
printf '#!/bin/sh\necho "apt-get $*" >> "%s/apt.log"\n[ "$1" != download ]\n' "$T" > "$T/fake/apt-get"
chmod +x "$T/fake/"*

# fake_env <depends> <command...>: run with the faked package query
fake_env() {
	local dep=$1
	shift
	env PATH="$T/fake:$PATH" PPU_FAKE_DEPENDS="$dep" "$@"
}

# kenv <depends> [VAR=value...]: "KABI KDIR" as kernel-env.sh sets them
kenv() {
	local dep=$1
	shift
	fake_env "$dep" env -u PPU_KABI -u KDIR -u PPU_KSERIES "$@" \
		bash -c '. "$1/scripts/kernel-env.sh" && echo "$KABI $KDIR"' _ "$ROOT"
}

dep_fake="linux-headers-$KABI_FAKE (= 6.1.999-1)"
H=/usr/src/linux-headers

out=$(kenv "$dep_fake")
expect "KABI KDIR" "$KABI_FAKE $H-$KABI_FAKE" "$out"
result abi/follows-metapackage $?

out=$(kenv "$dep_fake" PPU_KABI="$KABI_REAL")
expect "KABI KDIR" "$KABI_REAL $H-$KABI_REAL" "$out"
result abi/override-kabi $?

out=$(kenv "$dep_fake" KDIR=/opt/headers)
expect "KABI KDIR" "$KABI_FAKE /opt/headers" "$out"
result abi/override-kdir $?

# linux-headers-amd64 from bookworm-backports (6.12), or not installed:
# the newest 6.1 headers package installed
newest=$(dpkg-query -W -f='${Status} ${Package}\n' 'linux-headers-6.1.0-*-amd64' 2>/dev/null |
	 sed -n 's/^install ok installed linux-headers-//p' | sort -V | tail -n1)
out=$(kenv "linux-headers-6.12.95+deb12-amd64 (= 6.12.95-1~bpo12+1)")
r=0
expect "KABI KDIR (6.12 metapackage)" "$newest $H-$newest" "$out" || r=1
out=$(kenv -)
expect "KABI KDIR (no metapackage)" "$newest $H-$newest" "$out" || r=1
result abi/fallback-installed $r

# the VM image: fetch-kernel.sh asks the archive for the derived ABI's
# image, and says so when it is gone
out=$(fake_env "$dep_fake" env -u PPU_KABI -u KDIR -u PPU_KSERIES PPU_CACHE="$T/cache" \
	PPU_VM_KERNEL=prod "$ROOT/scripts/vm/fetch-kernel.sh" 2>&1)
rc=$?
r=0
[ $rc -ne 0 ] || { echo "  fetch-kernel.sh succeeded without the image"; r=1; }
grep -q "^apt-get download .*linux-image-$KABI_FAKE-unsigned" "$T/apt.log" 2>/dev/null &&
	{ echo "  fetch-kernel.sh downloaded a package the archive lacks"; r=1; }
grep -qx "apt-cache policy linux-image-$KABI_FAKE-unsigned" "$T/apt.log" 2>/dev/null ||
	{ echo "  fetch-kernel.sh did not look for linux-image-$KABI_FAKE-unsigned"; r=1; }
echo "$out" | grep -q "linux-image-$KABI_FAKE-unsigned is not in the archive" ||
	{ echo "  no clear message: $out"; r=1; }
result abi/image-follows $r

# the build: against the derived ABI's headers (missing here, so it
# fails naming them), and with PPU_KABI= against the real ones
out=$(fake_env "$dep_fake" env -u PPU_KABI -u KDIR -u PPU_KSERIES \
	make -C "$T/src" modules 2>&1)
rc=$?
r=0
[ $rc -ne 0 ] || { echo "  the build succeeded against missing headers"; r=1; }
echo "$out" | grep -q "$H-$KABI_FAKE" ||
	{ echo "  the build did not use $H-$KABI_FAKE:"; echo "$out" | tail -n 5; r=1; }
result abi/build-follows $r

out=$(fake_env "$dep_fake" env -u KDIR -u PPU_KSERIES PPU_KABI="$KABI_REAL" \
	make -C "$T/src" modules 2>&1)
rc=$?
r=0
[ $rc -eq 0 ] || { echo "  the build failed:"; echo "$out" | tail -n 20; r=1; }
for m in drm_sched_serial/drm_sched_serial ppu_drv/ppu ppu_drv/sim/ppu_sim; do
	v=$(modinfo -F vermagic "$T/src/$m.ko" 2>/dev/null)
	expect "$m.ko vermagic" "$KABI_REAL" "${v%% *}" || r=1
done
result abi/build-override $r

# ------------------------------------------------------------------ libppu
# make -C tools install into a DESTDIR: libppu.so with its soname and
# links, exporting exactly the functions of libppu.h, and ppu-smi
TR=$T/tools-root
L=$TR/usr/local/lib
out=$(make -C "$T/src/tools" install DESTDIR="$TR" 2>&1)
rc=$?
r=0
[ $rc -eq 0 ] || { echo "  make -C tools install failed:"; echo "$out" | tail -n 20; r=1; }
[ -f "$L/libppu.so.1.4.0" ] || { echo "  no libppu.so.1.4.0"; r=1; }
expect "libppu.so.1 link" libppu.so.1.4.0 "$(readlink "$L/libppu.so.1")" || r=1
expect "libppu.so link" libppu.so.1 "$(readlink "$L/libppu.so")" || r=1
so=$(readelf -d "$L/libppu.so.1.4.0" 2>/dev/null | sed -n 's/.*Library soname: \[\(.*\)\]/\1/p')
expect soname libppu.so.1 "$so" || r=1
api=$(sed -n 's/.*\b\(ppu_[a-z_]*\)(.*/\1/p' "$TR/usr/local/include/libppu.h" | sort -u | tr '\n' ' ')
exported=$(nm -D --defined-only "$L/libppu.so.1.4.0" 2>/dev/null |
	   awk '$2 == "T" || $2 == "D" || $2 == "B" { sub(/@.*/, "", $3); print $3 }' |
	   sort -u | tr '\n' ' ')
expect "exported symbols" "$api" "$exported" || r=1
[ -x "$TR/usr/local/bin/ppu-smi" ] || { echo "  no bin/ppu-smi"; r=1; }
result libppu/shared $r

# a program built against the installed library through pkg-config only,
# run against it: the host has no PPU
cat > "$T/use-libppu.c" <<'PROG'
#include <stdio.h>
#include <string.h>
#include <libppu.h>

int main(void)
{
	const char *ok = ppu_error_string(PPU_SUCCESS);
	const char *nodev = ppu_error_string(PPU_ERROR_NO_DEVICE);
	ppu_device_t *dev = NULL;
	unsigned int n = 99;
	ppu_return_t ret;

	if (!ok || !nodev || !strcmp(ok, nodev)) {
		printf("ppu_error_string: '%s' '%s'\n", ok, nodev);
		return 1;
	}
	if (ppu_device_get_count(NULL) != PPU_ERROR_INVALID_ARGUMENT) {
		printf("ppu_device_get_count(NULL) accepted\n");
		return 1;
	}
	ret = ppu_device_get_count(&n);
	if (ret != PPU_SUCCESS || n != 0) {
		printf("ppu_device_get_count: %s, %u devices\n", ppu_error_string(ret), n);
		return 1;
	}
	ret = ppu_device_open(0, &dev);
	if (ret != PPU_ERROR_NO_DEVICE || dev) {
		printf("ppu_device_open(0): %s\n", ppu_error_string(ret));
		return 1;
	}
	printf("  libppu: %u devices; open: %s\n", n, nodev);
	return 0;
}
PROG
r=0
pc=$(PKG_CONFIG_PATH=$L/pkgconfig PKG_CONFIG_SYSROOT_DIR=$TR pkg-config --cflags --libs libppu 2>&1) ||
	{ echo "  pkg-config: $pc"; r=1; }
expect "pkg-config --modversion" 1.4.0 \
	"$(PKG_CONFIG_PATH=$L/pkgconfig pkg-config --modversion libppu 2>&1)" || r=1
# shellcheck disable=SC2086
if [ $r -eq 0 ] && ! cc -Wall -Werror -o "$T/use-libppu" "$T/use-libppu.c" $pc; then
	echo "  cc $pc failed"
	r=1
fi
if [ $r -eq 0 ]; then
	lib=$(LD_LIBRARY_PATH=$L ldd "$T/use-libppu" | awk '$1 == "libppu.so.1" { print $3 }')
	expect "libppu.so.1 resolved to" "$L/libppu.so.1" "$lib" || r=1
	LD_LIBRARY_PATH=$L "$T/use-libppu" || { echo "  use-libppu failed"; r=1; }
fi
result libppu/pkg-config $r

# the man pages make -C tools install put there: rendered by groff and by
# man(1) on an 80-column terminal without a warning, every option of
# ppu-smi -h in ppu-smi(1), every function of libppu.h in libppu(3)
MD=$TR/usr/local/share/man
r=0
for pg in man1/ppu-smi.1 man3/libppu.3 man7/ppu.7; do
	[ -f "$MD/$pg" ] || { echo "  no $pg"; r=1; continue; }
	err=$(groff -t -man -Tutf8 -ww "$MD/$pg" 2>&1 >/dev/null)
	[ -z "$err" ] || { echo "  groff -ww $pg:"; echo "$err" | head -n 10; r=1; }
	err=$(MANWIDTH=80 man --warnings -l "$MD/$pg" 2>&1 >/dev/null)
	[ -z "$err" ] || { echo "  man --warnings -l $pg:"; echo "$err" | head -n 10; r=1; }
done
page=$(MANWIDTH=80 man -l "$MD/man1/ppu-smi.1" 2>/dev/null)
echo "$page" | grep -q "ppu-smi - memory health" || { echo "  ppu-smi(1) has no NAME line"; r=1; }
for o in $("$TR/usr/local/bin/ppu-smi" -h 2>&1 | grep -o -- '--[a-z]*' | sort -u); do
	echo "$page" | grep -q -- "$o" || { echo "  ppu-smi(1) lacks $o"; r=1; }
done
for sec in "EXIT STATUS" FILES EXAMPLES; do
	echo "$page" | grep -q "^$sec\$" || { echo "  ppu-smi(1) has no $sec section"; r=1; }
done
page=$(MANWIDTH=80 man -l "$MD/man7/ppu.7" 2>/dev/null)
echo "$page" | grep -qi "^7\. at 3 a\.m\.$" || { echo "  ppu(7) has no admin guide"; r=1; }
page=$(MANWIDTH=80 man -l "$MD/man3/libppu.3" 2>/dev/null)
for f in $api; do
	echo "$page" | grep -q "$f(" || { echo "  libppu(3) lacks $f"; r=1; }
done
result man/pages $r

# the node_exporter units make -C tools install put into the prefix's
# systemd unit directory (/usr/local/lib/systemd/system; with PREFIX=/usr
# /usr/lib/systemd/system): the service runs the installed ppu-smi into
# Debian's textfile directory, nothing enabled (no link in a .wants), and
# systemd-analyze verify accepts both (on a copy whose ExecStart is the
# DESTDIR's ppu-smi, MANPATH the DESTDIR's pages) when it is installed
U=$TR/usr/local/lib/systemd/system
r=0
for u in ppu-smi-exporter.service ppu-smi-exporter.timer; do
	[ -f "$U/$u" ] || { echo "  no lib/systemd/system/$u"; r=1; }
done
expect "service ExecStart" \
	"ExecStart=/usr/local/bin/ppu-smi --prometheus -f /var/lib/prometheus/node-exporter/ppu.prom" \
	"$(grep '^ExecStart=' "$U/ppu-smi-exporter.service" 2>/dev/null)" || r=1
expect "service type" Type=oneshot "$(grep '^Type=' "$U/ppu-smi-exporter.service" 2>/dev/null)" || r=1
grep -q '^OnUnitActiveSec=15s$' "$U/ppu-smi-exporter.timer" 2>/dev/null ||
	{ echo "  the timer does not run every 15 s"; r=1; }
wants=$(find "$TR" -name '*.wants' 2>/dev/null)
[ -z "$wants" ] || { echo "  make install enabled a unit: $wants"; r=1; }
out=$(make -C "$T/src/tools" install DESTDIR="$T/usr-root" PREFIX=/usr 2>&1) ||
	{ echo "  make -C tools install PREFIX=/usr failed:"; echo "$out" | tail -n 5; r=1; }
expect "PREFIX=/usr: service ExecStart" \
	"ExecStart=/usr/bin/ppu-smi --prometheus -f /var/lib/prometheus/node-exporter/ppu.prom" \
	"$(grep '^ExecStart=' "$T/usr-root/usr/lib/systemd/system/ppu-smi-exporter.service" 2>/dev/null)" || r=1
if command -v systemd-analyze > /dev/null && [ $r -eq 0 ]; then
	mkdir -p "$T/units"
	sed "s|^ExecStart=/usr/local/bin/|ExecStart=$TR/usr/local/bin/|" \
		"$U/ppu-smi-exporter.service" > "$T/units/ppu-smi-exporter.service"
	cp "$U/ppu-smi-exporter.timer" "$T/units/"
	out=$(MANPATH=$TR/usr/local/share/man systemd-analyze verify \
		"$T/units/ppu-smi-exporter.service" "$T/units/ppu-smi-exporter.timer" 2>&1) ||
		{ echo "  systemd-analyze verify:"; echo "$out" | head -n 10; r=1; }
	[ -z "$out" ] || { echo "  systemd-analyze verify:"; echo "$out" | head -n 10; r=1; }
elif [ $r -eq 0 ]; then
	echo "  (no systemd-analyze: units not verified)"
fi
result systemd/units $r

# ------------------------------------------------------------------ make install
# into a DESTDIR: the modules under lib/modules/<release>/updates with
# depmod's index (modprobe resolves ppu.ko's dependency on
# drm_sched_serial.ko), and the tools (make -C tools install, above)
R=$T/root
out=$(make -C "$T/src" install DESTDIR="$R" 2>&1)
rc=$?
r=0
[ $rc -eq 0 ] || { echo "  make install failed:"; echo "$out" | tail -n 20; r=1; }
M=$R/lib/modules/$KABI_REAL
for m in drm_sched_serial ppu ppu_sim; do
	[ -f "$M/updates/$m.ko" ] || { echo "  no $M/updates/$m.ko"; r=1; continue; }
	v=$(modinfo -F vermagic "$M/updates/$m.ko")
	expect "$m.ko vermagic" "$KABI_REAL" "${v%% *}" || r=1
done
grep -qx "updates/ppu.ko: updates/drm_sched_serial.ko" "$M/modules.dep" 2>/dev/null ||
	{ echo "  modules.dep has no updates/ppu.ko: updates/drm_sched_serial.ko"; r=1; }
out=$(modprobe -d "$R" -S "$KABI_REAL" --show-depends ppu 2>&1 |
      awk '{ printf "%s %s;", $1, $2 }')
expect "modprobe --show-depends ppu" \
	"insmod $M/updates/drm_sched_serial.ko;insmod $M/updates/ppu.ko;" "$out" || r=1
for f in bin/ppu-smi lib/libppu.so.1 lib/pkgconfig/libppu.pc include/libppu.h; do
	[ -e "$R/usr/local/$f" ] || { echo "  make install installed no usr/local/$f"; r=1; }
done
# what it installs under the prefix, and nothing else: no ppu-demo,
# ppu-bench, ppu-fuzz or igt test
got=$(cd "$R/usr/local" && find . ! -type d | sort | tr '\n' ' ')
want="./bin/ppu-smi ./include/libppu.h ./lib/libppu.a ./lib/libppu.so ./lib/libppu.so.1 ./lib/libppu.so.1.4.0 ./lib/pkgconfig/libppu.pc ./lib/systemd/system/ppu-smi-exporter.service ./lib/systemd/system/ppu-smi-exporter.timer ./share/man/man1/ppu-smi.1 ./share/man/man3/libppu.3 ./share/man/man7/ppu.7 "
expect "files under the prefix" "$want" "$got" || r=1
# the packages make install asks for: the build set only
deps=$(make -n -C "$T/src" install 2>/dev/null | grep -o 'install-deps.sh.*' | sort -u | tr '\n' ' ')
expect "make install's packages" "install-deps.sh build " "$deps" || r=1
result make-install/destdir $r

# KERNELRELEASE= names another release (the modules are not rebuilt)
out=$(make -C "$T/src" install-modules DESTDIR="$T/root2" KERNELRELEASE="$KABI_FAKE" 2>&1)
rc=$?
r=0
[ $rc -eq 0 ] || { echo "  make install-modules KERNELRELEASE= failed:"; echo "$out" | tail -n 20; r=1; }
for m in drm_sched_serial ppu ppu_sim; do
	[ -f "$T/root2/lib/modules/$KABI_FAKE/updates/$m.ko" ] ||
		{ echo "  no $m.ko under lib/modules/$KABI_FAKE/updates"; r=1; }
done
[ -s "$T/root2/lib/modules/$KABI_FAKE/modules.dep" ] || { echo "  no modules.dep"; r=1; }
result make-install/kernelrelease $r

# ------------------------------------------------------------------ dkms
# dkms add, build and install of a clean copy of the tree against the
# real 6.1 headers (-k: the host runs another kernel), with temporary
# source, dkms and install trees; dkms signs with a key it makes in the
# temporary folder (mok_signing_key from the environment, unless
# /etc/dkms/framework.conf names one)
ver=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"$/\1/p' "$ROOT/dkms.conf")
mkdir -p "$T/pkg" "$T/dkms-src" "$T/dkms" "$T/dkms-inst/$KABI_REAL"
(cd "$ROOT" && git ls-files -z -co --exclude-standard | cpio -pdm0 --quiet "$T/pkg")
dk() {
	env mok_signing_key="$T/mok.key" mok_certificate="$T/mok.pub" \
		dkms "$@" --sourcetree "$T/dkms-src" --dkmstree "$T/dkms"
}
r=0
# the package version is the driver's (DRIVER_MAJOR.DRIVER_MINOR)
drv=$(awk '$1 == "#define" && $2 == "DRIVER_MAJOR" { ma = $3 }
	   $1 == "#define" && $2 == "DRIVER_MINOR" { mi = $3 }
	   END { print ma "." mi }' "$ROOT/ppu_drv/ppu_drv.h")
expect "dkms.conf PACKAGE_VERSION" "$drv" "$ver" || r=1
# README's "dkms add <tree>": copies it to <sourcetree>/ppu-<version>
out=$(dk add "$T/pkg" 2>&1) || { echo "  dkms add failed:"; echo "$out"; r=1; }
[ -f "$T/dkms-src/ppu-$ver/dkms.conf" ] || { echo "  dkms add did not copy the tree"; r=1; }
if [ $r -eq 0 ]; then
	out=$(dk build -m ppu -v "$ver" -k "$KABI_REAL" 2>&1) ||
		{ echo "  dkms build failed:"; echo "$out" | tail -n 20;
		  tail -n 20 "$T/dkms/ppu/$ver/build/make.log" 2>/dev/null; r=1; }
fi
D=$T/dkms/ppu/$ver/$KABI_REAL/x86_64/module
for m in drm_sched_serial ppu ppu_sim; do
	[ -f "$D/$m.ko" ] || { echo "  dkms built no $m.ko"; r=1; continue; }
	v=$(modinfo -F vermagic "$D/$m.ko")
	expect "dkms $m.ko vermagic" "$KABI_REAL" "${v%% *}" || r=1
	[ -n "$(modinfo -F sig_id "$D/$m.ko")" ] || { echo "  dkms did not sign $m.ko"; r=1; }
done
result dkms/build $r

r=0
if [ -d "$T/dkms/ppu/$ver/$KABI_REAL" ]; then
	out=$(dk install -m ppu -v "$ver" -k "$KABI_REAL" --installtree "$T/dkms-inst" \
		--no-depmod 2>&1) ||
		{ echo "  dkms install failed:"; echo "$out" | tail -n 20; r=1; }
fi
for m in drm_sched_serial ppu ppu_sim; do
	[ -f "$T/dkms-inst/$KABI_REAL/updates/dkms/$m.ko" ] ||
		{ echo "  dkms installed no updates/dkms/$m.ko"; r=1; }
done
result dkms/install $r

echo "install: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
