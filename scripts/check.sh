#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make check: checkpatch --strict over the kernel sources of the project (igt
# tests and tools are userspace and follow igt style) and
# a sparse (C=1) build of the modules. Exits non-zero on any finding.
set -e
ROOT=$(cd "$(dirname "$0")/.." && pwd)
CACHE=${PPU_CACHE:-/var/cache/ppu}
KDIR=${KDIR:-/usr/src/linux-headers-6.1.0-57-amd64}
SRC=$CACHE/linux-source-6.1

if [ ! -x "$SRC/scripts/checkpatch.pl" ]; then
	mkdir -p "$CACHE"
	tar -C "$CACHE" -xf /usr/src/linux-source-6.1.tar.xz
fi

cd "$ROOT"
fail=0
files=$(git ls-files -co --exclude-standard '*.c' '*.h' | grep -vE '^(igt-tests|tools)/' || true)
out=$(mktemp)
# shellcheck disable=SC2086
if ! "$SRC/scripts/checkpatch.pl" --strict --no-tree --quiet \
	--ignore FILE_PATH_CHANGES,SPDX_LICENSE_TAG -f $files >"$out" 2>&1; then
	fail=1
fi
grep -v '^total: 0 errors, 0 warnings, 0 checks' "$out" || true
rm -f "$out"
echo "check: checkpatch --strict on $(echo "$files" | wc -w) files: $([ $fail = 0 ] && echo clean || echo FINDINGS)"

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
	echo "check: sparse (C=1) and W=1: clean"
fi
rm -f "$log"
exit $fail
