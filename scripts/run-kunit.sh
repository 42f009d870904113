#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Run the project's KUnit suites (kunit/) on UML, in Debian's source tree of
# the kernel series PPU_KSERIES names (6.1 by default, 6.12, or 7.2 from
# unstable; see scripts/kernel-env.sh).
#
#   scripts/run-kunit.sh [--no-debug] [-- <extra kunit.py run arguments>]
#
# - extracts the source tarball (/usr/src/linux-source-6.1.tar.xz, or the
#   one of linux-source-6.12 kept in $PPU_CACHE/k612) to
#   $PPU_CACHE/linux-source-<series> once (reused afterwards); 7.2:
#   scripts/check-newest.sh --source-only fetches and extracts unstable's
#   linux-source-7.2, which is hard-linked to
#   $PPU_CACHE/kunit-src/<version> (scripts/newest-source.sh) and only
#   edited there by replacing files;
# - hooks this checkout into that tree: drivers/gpu/drm/ppu_kunit is a symlink
#   to the checkout (re-pointed on every run), plus one `source` line in
#   drivers/gpu/drm/Kconfig and one `obj-` line in drivers/gpu/drm/Makefile;
# - runs kunit.py with ccache (cache kept in $PPU_CACHE/ccache). By default
#   with lockdep (PROVE_LOCKING), KASAN and DEBUG_OBJECTS in
#   $PPU_CACHE/kunit-build; --no-debug (or PPU_KUNIT_DEBUG=0) builds without
#   them in $PPU_CACHE/kunit-build-nodebug (6.12: kunit-build-6.12 and
#   kunit-build-nodebug-6.12; 7.2: kunit-build-7.2 ...).
# - on kernels whose drm_sched has upstream's KUnit mock scheduler
#   (drivers/gpu/drm/scheduler/tests/, 6.15 and later: 7.2 here), builds
#   it in (CONFIG_DRM_SCHED_KUNIT_TEST=y) for drm_sched_serial_upstream,
#   which runs the library on rings of that mock. Upstream's own drm_sched
#   suites (module drm_sched_tests) are left out unless
#   PPU_KUNIT_UPSTREAM_SUITES=1: their overhead benchmarks time out on a
#   loaded 2-core machine under KASAN.
#
# Prints kunit.py's per-test results, then any kernel report found in the
# KTAP log (BUG:, WARNING:, lockdep, KASAN, ODEBUG ...) with the test it
# happened in, and ends with "kunit: N passed, N failed". A test case that
# passed but produced a kernel report counts as failed; so does a report
# outside any test case, and a failing kunit.py run (build error, crash)
# with no failed case counts as one failure. Exit status 0 only if all passed.
#
# Environment: PPU_CACHE (default /var/cache/ppu), PPU_KUNIT_DEBUG (1),
# PPU_KUNIT_UPSTREAM_SUITES (0, see above),
# PPU_KUNIT_JOBS (2), PPU_KUNIT_TIMEOUT (600 s), PPU_KUNIT_BUILD_DIR (see above),
# PPU_KUNIT_EXPLORE (10000: scenarios of the explorer's time-travel pass,
# which a run without arguments on 6.1 adds; 0: none).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)
CACHE=${PPU_CACHE:-/var/cache/ppu}
DEBUG=${PPU_KUNIT_DEBUG:-1}
JOBS=${PPU_KUNIT_JOBS:-2}
TIMEOUT=${PPU_KUNIT_TIMEOUT:-600}
HOOK_NAME=ppu_kunit
KCONFIG_LINE="source \"drivers/gpu/drm/$HOOK_NAME/kunit/Kconfig\""
MAKEFILE_LINE="obj-\$(CONFIG_PPU_KUNIT_TEST) += $HOOK_NAME/kunit/"

EXTRA=()
while [ $# -gt 0 ]; do
	case "$1" in
	--no-debug) DEBUG=0 ;;
	--debug) DEBUG=1 ;;
	--) shift; EXTRA=("$@"); break ;;
	-h|--help) sed -n '3,45p' "$0"; exit 0 ;;
	*) echo "run-kunit: unknown argument '$1' (see --help)" >&2; exit 2 ;;
	esac
	shift
done

say() { echo "run-kunit: $*"; }
die() { echo "run-kunit: error: $*" >&2; echo "kunit: 0 passed, 1 failed"; exit 1; }

# --- Debian packages ---------------------------------------------------------
install_missing() {
	local p missing=""
	for p in "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
			missing="$missing $p"
	done
	[ -z "$missing" ] && return 0
	say "installing$missing"
	local sudo=""
	[ "$(id -u)" -ne 0 ] && sudo=sudo
	export DEBIAN_FRONTEND=noninteractive
	$sudo apt-get update -qq
	# shellcheck disable=SC2086
	$sudo apt-get install -y -qq --no-install-recommends $missing >/dev/null
}
install_missing linux-source-6.1 make gcc libc6-dev flex bison libelf-dev bc \
	python3 xz-utils ccache
# shellcheck source=scripts/kernel-env.sh
. "$ROOT/scripts/kernel-env.sh"
# shellcheck source=scripts/newest-source.sh
. "$ROOT/scripts/newest-source.sh"
SRC=$CACHE/$KSRC_NAME
TARBALL=$KSRC_TARBALL
SUFFIX=
[ "$KSERIES" = 6.1 ] || SUFFIX=-$KSERIES

mkdir -p "$CACHE"
if [ -n "$KSRC_NEWEST" ]; then
	newest_source_copy "$KSRC_NEWEST" "$CACHE/kunit-src" ||
		die "no linux-source-$KSRC_NEWEST from unstable"
	SRC=$NEWEST_DIR
fi

# One kernel build at a time on this machine (and no extraction race).
exec 9>"$CACHE/kunit.lock"
if ! flock -n 9; then
	say "another run-kunit holds $CACHE/kunit.lock; waiting"
	flock 9
fi

# --- kernel tree -----------------------------------------------------------
if [ ! -f "$SRC/Makefile" ] || [ ! -f "$SRC/tools/testing/kunit/kunit.py" ]; then
	[ -f "$TARBALL" ] || die "$TARBALL missing (package $KSRC_NAME)"
	say "extracting $TARBALL to $SRC (once)"
	tmp=$(mktemp -d "$CACHE/.extract.XXXXXX")
	tar -xJf "$TARBALL" -C "$tmp"
	rm -rf "$SRC"
	mv "$tmp/$KSRC_NAME" "$SRC"
	rmdir "$tmp"
fi
# kunit.py builds out of tree (O=); the source tree must stay unconfigured.
[ -e "$SRC/.config" ] && die "$SRC/.config exists: the source tree must be clean (make mrproper there)"

# --- hook this checkout into the tree --------------------------------------
ln -sfn "$ROOT" "$SRC/drivers/gpu/drm/$HOOK_NAME"
# (by replacing the files: the tree may be a hard-linked copy)
tree_append_line "$SRC/drivers/gpu/drm/Kconfig" "$KCONFIG_LINE"
tree_append_line "$SRC/drivers/gpu/drm/Makefile" "$MAKEFILE_LINE"

# --- build and run ------------------------------------------------------------
ARGS=(run --kunitconfig="$ROOT/kunit" --jobs="$JOBS" --timeout="$TIMEOUT")
# UML's time-travel mode (off unless the kernel command line asks for it)
# on 6.1: the explorer's second pass below runs in it, its timers skipping
# idle time. The 6.12 run does without that pass.
EXPLORE=${PPU_KUNIT_EXPLORE:-10000}
if [ "$KSERIES" = 6.1 ]; then
	ARGS+=(--kconfig_add CONFIG_UML_TIME_TRAVEL_SUPPORT=y)
else
	EXPLORE=0
fi
# Before 7.x kunit.py's arch_uml.config turns on PCI over virtio (UML
# needs PCI for HAS_IOMEM, hence for the DRM Kconfig menu); without a
# device ID its init WARNs at boot, which counts as a failure below. No
# such device exists: the ID only silences the warning. 7.x's
# arch_uml.config takes PCI from KUNIT_UML_PCI, without virtio and without
# that option.
if grep -qx 'CONFIG_UML_PCI_OVER_VIRTIO=y' "$SRC/tools/testing/kunit/configs/arch_uml.config"; then
	ARGS+=(--kconfig_add CONFIG_UML_PCI_OVER_VIRTIO_DEVICE_ID=1234)
fi
# upstream's drm_sched KUnit mock, where the kernel has it
if [ -f "$SRC/drivers/gpu/drm/scheduler/tests/sched_tests.h" ]; then
	ARGS+=(--kconfig_add CONFIG_DRM_SCHED_KUNIT_TEST=y)
	[ "${PPU_KUNIT_UPSTREAM_SUITES:-0}" = 1 ] ||
		ARGS+=(--filter 'module!=drm_sched_tests')
fi
if [ "$DEBUG" = 1 ]; then
	BUILD_DIR=${PPU_KUNIT_BUILD_DIR:-$CACHE/kunit-build$SUFFIX}
	for opt in DEBUG_KERNEL PROVE_LOCKING KASAN DEBUG_OBJECTS \
		   DEBUG_OBJECTS_FREE DEBUG_OBJECTS_TIMERS DEBUG_OBJECTS_WORK; do
		ARGS+=(--kconfig_add "CONFIG_$opt=y")
	done
else
	BUILD_DIR=${PPU_KUNIT_BUILD_DIR:-$CACHE/kunit-build-nodebug$SUFFIX}
fi
ARGS+=(--build_dir="$BUILD_DIR")

export CCACHE_DIR=$CACHE/ccache
export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-5G}
ARGS+=(--make_options "CC=ccache gcc")

# Objects of another checkout are not ours: make compares modification
# times only, and a file of this checkout can be older than an object
# built from another one (two clones, a worktree): rebuild ours (ccache
# keeps that cheap).
mkdir -p "$BUILD_DIR"
if [ "$(cat "$BUILD_DIR/.ppu-checkout" 2>/dev/null)" != "$ROOT" ]; then
	rm -rf "$BUILD_DIR/drivers/gpu/drm/$HOOK_NAME"
	echo "$ROOT" > "$BUILD_DIR/.ppu-checkout"
fi

say "checkout $ROOT -> $SRC/drivers/gpu/drm/$HOOK_NAME"
say "kernel $KSERIES ($SRC), build dir $BUILD_DIR (debug options: $([ "$DEBUG" = 1 ] && echo on || echo off))"
LOG=$BUILD_DIR/test.log
rm -f "$LOG"

start=$(date +%s)
set +e
(cd "$SRC" && python3 tools/testing/kunit/kunit.py "${ARGS[@]}" "${EXTRA[@]}")
krc=$?
set -e
say "kunit.py exit status $krc after $(( $(date +%s) - start )) s"

[ -f "$LOG" ] || die "no test log: the kernel did not build or did not run (see above)"

# The full run (no arguments: make test) adds the scenario explorer's
# second pass: PPU_KUNIT_EXPLORE scenarios (10000) in UML's time-travel
# mode, where a timer's wait takes no wall-clock time, on the same build.
if [ ${#EXTRA[@]} -eq 0 ] && [ "$EXPLORE" -gt 0 ]; then
	mv "$LOG" "$BUILD_DIR/test-main.log"
	start=$(date +%s)
	set +e
	(cd "$SRC" && python3 tools/testing/kunit/kunit.py "${ARGS[@]}" \
		drm_sched_serial_explorer --kernel_args time-travel \
		--kernel_args "drm_sched_serial_kunit_test.explore_scenarios=$EXPLORE")
	xrc=$?
	set -e
	say "explorer (time-travel, $EXPLORE scenarios): kunit.py exit status $xrc after $(( $(date +%s) - start )) s"
	[ -f "$LOG" ] || die "no test log of the explorer's time-travel pass"
	[ $xrc -eq 0 ] || krc=$xrc
	cat "$BUILD_DIR/test-main.log" "$LOG" > "$BUILD_DIR/test-all.log"
	LOG=$BUILD_DIR/test-all.log
fi

# --- verdict from the raw KTAP log -------------------------------------------
python3 - "$LOG" "$krc" <<'PYEOF'
import re
import sys

log_path, krc = sys.argv[1], int(sys.argv[2])
ts = re.compile(r'^\[\s*\d+\.\d+\]\s?')
subtest = re.compile(r'^(\s*)# Subtest: (.*)$')
result = re.compile(r'^(\s*)(ok|not ok) \d+ (?:- )?(.*?)(?:\s+#\s*(SKIP|TODO)\b.*)?$')
report = re.compile(
    r'BUG:|WARNING:|Oops|Kernel panic|ODEBUG:|UBSAN:|KASAN:|'
    r'DEBUG_LOCKS_WARN_ON|INFO: (possible|trying|lockdep|task)|'
    r'circular locking dependency|inconsistent lock state|'
    r'possible recursive locking|lockdep: |'
    r'turning off the locking correctness validator|'
    r'Unable to handle kernel|general protection fault|stack-protector')

passed = failed = skipped = 0
has_children = {}        # indent of a result line -> it closes a subtest
names = []               # stack of (indent, name) of open subtests
pending = []             # kernel reports not yet attributed to a test
bad = []                 # (test, why)

with open(log_path, errors='replace') as f:
    for raw in f:
        line = ts.sub('', raw.rstrip('\n'))
        m = subtest.match(line)
        if m and len(m.group(1)) <= 4 and pending:
            # Reports before a suite starts: boot, or a previous suite.
            failed += 1
            bad.append(('kernel log outside tests', pending[0]))
            pending = []
        if m:
            ind = len(m.group(1))
            names = [n for n in names if n[0] < ind] + [(ind, m.group(2))]
            has_children[ind - 4] = True
            continue
        m = result.match(line)
        if m:
            ind, st, name, directive = len(m.group(1)), m.group(2), m.group(3), m.group(4)
            parents = [n for i, n in names if i <= ind]
            full = '.'.join(parents + [name]) if parents else name
            if has_children.pop(ind, False):
                # A suite or a parameterised case: reports here came from
                # init/exit code, outside any leaf case.
                names = [n for n in names if n[0] != ind + 4]
                if pending:
                    failed += 1
                    bad.append((full + ' (suite/init/exit)', pending[0]))
                    pending = []
                continue
            if pending:
                failed += 1
                bad.append((full, pending[0]))
                pending = []
            elif directive == 'SKIP':
                skipped += 1
            elif st == 'ok':
                passed += 1
            else:
                failed += 1
                bad.append((full, 'test failed'))
            continue
        if report.search(line):
            pending.append(line.strip())
        # the scenario explorer's summary and its findings
        m = re.search(r'explorer: .*', line)
        if m:
            print('run-kunit: ' + m.group(0))

if pending:
    failed += 1
    bad.append(('kernel log outside tests', pending[0]))
if krc != 0 and failed == 0:
    failed = 1
    bad.append(('kunit.py', 'exit status %d (crash, timeout or missing results)' % krc))
if passed == 0 and failed == 0:
    failed = 1
    bad.append(('kunit.py', 'no test result in the log'))

for name, why in bad:
    print('run-kunit: FAILED %s: %s' % (name, why))
if skipped:
    print('run-kunit: %d skipped' % skipped)
print('kunit: %d passed, %d failed' % (passed, failed))
sys.exit(1 if failed else 0)
PYEOF
