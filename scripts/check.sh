#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make check: checkpatch --strict over the kernel sources of the project (igt
# tests and tools are userspace and follow igt style), no kernel version
# test outside the compat headers ($COMPAT below: drm_sched_serial_sched.h
# is the library's one file of drm_sched internals, versions included), and
# a sparse (C=1) W=1 build of the modules against the headers of
# PPU_KSERIES (scripts/kernel-env.sh), and the docs' claims against the code
# (scripts/check-docs.py).
# Exits non-zero on any finding.
set -e
ROOT=$(cd "$(dirname "$0")/.." && pwd)
CACHE=${PPU_CACHE:-/var/cache/ppu}
# shellcheck source=scripts/kernel-env.sh
. "$ROOT/scripts/kernel-env.sh"
SRC=$CACHE/linux-source-6.1
# the only files that may test kernel versions
COMPAT="include/drm/drm_sched_serial_compat.h drm_sched_serial/drm_sched_serial_sched.h ppu_drv/ppu_compat.h ppu_drv/sim/ppu_sim_compat.h"

if [ ! -x "$SRC/scripts/checkpatch.pl" ]; then
	mkdir -p "$CACHE"
	tar -C "$CACHE" -xf /usr/src/linux-source-6.1.tar.xz
fi

cd "$ROOT"
fail=0
files=$(git ls-files -co --exclude-standard '*.c' '*.h' | grep -vE '^(igt-tests|tools)/' || true)
others=$(for f in $files; do [[ " $COMPAT " == *" $f "* ]] || echo "$f"; done)
out=$(mktemp)
# shellcheck disable=SC2086
if ! "$SRC/scripts/checkpatch.pl" --strict --no-tree --quiet \
	--ignore FILE_PATH_CHANGES,SPDX_LICENSE_TAG -f $others >"$out" 2>&1; then
	fail=1
fi
# the compat headers compare LINUX_VERSION_CODE: that is what they are for
# shellcheck disable=SC2086
if ! "$SRC/scripts/checkpatch.pl" --strict --no-tree --quiet \
	--ignore FILE_PATH_CHANGES,SPDX_LICENSE_TAG,LINUX_VERSION_CODE,CONSTANT_COMPARISON \
	-f $COMPAT >>"$out" 2>&1; then
	fail=1
fi
grep -v '^total: 0 errors, 0 warnings, 0 checks' "$out" || true
rm -f "$out"
echo "check: checkpatch --strict on $(echo "$files" | wc -w) files: $([ $fail = 0 ] && echo clean || echo FINDINGS)"

# kernel versions are tested in the compat headers only, everything else
# uses the feature names they define (kernel code, KUnit, Kbuild files)
vfiles=$(git ls-files -co --exclude-standard '*.c' '*.h' '*Kbuild' 'Makefile' |
	 grep -vE '^(igt-tests|tools)/' || true)
# shellcheck disable=SC2086
stray=$(for f in $vfiles; do [[ " $COMPAT " == *" $f "* ]] || echo "$f"; done |
	xargs grep -nE 'LINUX_VERSION_CODE|KERNEL_VERSION\(|LINUX_VERSION_(MAJOR|PATCHLEVEL|SUBLEVEL)|VERSION_GE|VERSION_LT' || true)
if [ -n "$stray" ]; then
	echo "$stray"
	echo "check: kernel version tests outside $COMPAT: FINDINGS"
	fail=1
else
	echo "check: kernel version tests only in the compat headers"
fi

# The documentation says what the code does: the version string, the exit
# codes of ppu-smi, and no claim issue 33 found false (scripts/check-docs.py).
if python3 "$ROOT/scripts/check-docs.py"; then
	echo "check: docs: version, exit codes, no removed claim: clean"
else
	echo "check: docs: FINDINGS"
	fail=1
fi

# The documentation builds without a warning and every member of the uAPI
# header has its kernel-doc (make htmldocs, a few seconds; into a scratch
# folder, so that build/htmldocs stays as make htmldocs left it).
docs=$(mktemp -d)
if PPU_HTMLDOCS_DIR=$docs "$ROOT/scripts/htmldocs.sh" >/dev/null; then
	echo "check: htmldocs (sphinx -W, kernel-doc -Werror of the uAPI): clean"
else
	echo "check: htmldocs: FINDINGS"
	fail=1
fi
rm -rf "$docs"

# Build a copy so that the objects of the work tree stay untouched.
log=$(mktemp)
tree=$(mktemp -d)
git ls-files -co --exclude-standard -z | xargs -0 cp --parents -t "$tree"
if ! make -C "$KDIR" M="$tree" C=1 W=1 modules >"$log" 2>&1; then
	cat "$log"
	fail=1
fi
rm -rf "$tree"
if grep -E "warning:|error:" "$log"; then
	fail=1
	echo "check: sparse/W=1: FINDINGS"
else
	echo "check: sparse (C=1) and W=1 against $KDIR: clean"
fi
rm -f "$log"
exit $fail
