#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make htmldocs: build Documentation/ (reST, Documentation/conf.py) with
# Debian's sphinx-build into build/htmldocs. Warnings are errors.
#
# The uAPI reference is generated from the kernel-doc comments of the
# headers named in `.. kernel-doc::` directives, with the kernel's own
# scripts/kernel-doc and Sphinx extension (Documentation/sphinx/kerneldoc.py)
# from linux-source-6.1: the tree scripts/run-kunit.sh and scripts/check.sh
# extract into $PPU_CACHE/linux-source-6.1 when it is there, else those
# files alone, extracted once into $PPU_CACHE/kernel-doc-6.1 (PPU_KDOC_SRC
# names another kernel tree).
# Before Sphinx runs, `kernel-doc -none -Werror` checks each of those
# headers: an undocumented struct member, enum value or parameter fails
# the build.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=${PPU_HTMLDOCS_DIR:-$ROOT/build/htmldocs}
CACHE=${PPU_CACHE:-/var/cache/ppu}
KSRC=${PPU_KDOC_SRC:-$CACHE/linux-source-6.1}
TARBALL=/usr/src/linux-source-6.1.tar.xz

die() { echo "htmldocs: $*" >&2; exit 1; }

SPHINX=${SPHINXBUILD:-/usr/bin/sphinx-build}
[ -x "$SPHINX" ] || SPHINX=$(command -v sphinx-build) ||
	die "sphinx-build not found (apt-get install python3-sphinx)"

kdoc_ready() {
	[ -f "$1/scripts/kernel-doc" ] &&
		[ -f "$1/Documentation/sphinx/kerneldoc.py" ] &&
		[ -f "$1/Documentation/sphinx/kernellog.py" ]
}

# The kernel tree run-kunit.sh and check.sh extract, if it is there; else
# only the kernel-doc parts of it, extracted once into a folder of our own
# (atomically, under a lock of its own: nobody else's tree is touched).
if [ -n "${PPU_KDOC_SRC:-}" ]; then
	kdoc_ready "$KSRC" ||
		die "$KSRC has no scripts/kernel-doc or Documentation/sphinx/kerneldoc.py"
elif ! kdoc_ready "$KSRC"; then
	KSRC=$CACHE/kernel-doc-6.1
	if ! kdoc_ready "$KSRC"; then
		[ -f "$TARBALL" ] ||
			die "$TARBALL missing (package linux-source-6.1: scripts/install-deps.sh)"
		mkdir -p "$CACHE"
		exec 9>"$KSRC.lock"
		flock 9
		if ! kdoc_ready "$KSRC"; then
			echo "htmldocs: extracting kernel-doc from $TARBALL to $KSRC (once)"
			tmp=$(mktemp -d "$CACHE/.kdoc.XXXXXX")
			tar -xJf "$TARBALL" -C "$tmp" --wildcards \
				'linux-source-6.1/scripts/kernel-doc' \
				'linux-source-6.1/Documentation/sphinx/*' ||
				{ rm -rf "$tmp"; exit 1; }
			rm -rf "$KSRC"
			mv "$tmp/linux-source-6.1" "$KSRC"
			rmdir "$tmp"
		fi
		exec 9>&-
	fi
fi
KDOC=$KSRC/scripts/kernel-doc

# Every header a page pulls in with `.. kernel-doc::` must be complete.
cd "$ROOT"
headers=$(sed -n 's/^\.\. kernel-doc:: *\([^ ]*\).*/\1/p' Documentation/*.rst | sort -u)
for h in $headers; do
	[ -f "$h" ] || die "Documentation names $h, which does not exist"
	if ! msg=$(perl "$KDOC" -none -Werror "$h" 2>&1) || [ -n "$msg" ]; then
		printf '%s\n' "$msg" >&2
		die "kernel-doc: $h is not fully documented"
	fi
done

mkdir -p "$OUT"
PPU_KDOC_SRC=$KSRC "$SPHINX" -W --keep-going -b html -d "$OUT/.doctrees" -q \
	"$ROOT/Documentation" "$OUT"
echo "htmldocs: $OUT/index.html"
