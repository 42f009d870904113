#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Sourced by scripts that build a kernel from unstable's linux-source
# (scripts/vm/build-debug-kernel.sh, scripts/run-kunit.sh). The extraction
# scripts/check-newest.sh --source-only makes in PPU_CACHE/newest is shared
# and read-only: check-newest.sh configures its own out-of-tree build from
# it, and every other user edits a few files of the tree (a Kconfig
# `source` line, a Makefile `obj-` line). Those users work in a hard-linked
# copy, and edit it only by replacing files, never by writing into one,
# which would write into the shared extraction through the link.
#
#   newest_source_copy <series|newest> <dest-parent>
#	fetch and extract (once) unstable's linux-source-<series> (newest:
#	the one unstable's linux-source depends on), hard-link it to
#	<dest-parent>/<version> unless that is there, and set NEWEST_DIR (that
#	copy), NEWEST_PKG (linux-source-x.y), NEWEST_VER (package version),
#	NEWEST_SERIES (x.y). Messages go to stderr. Returns 1 on failure.
#   tree_append_line <file> <line>
#	append <line> to <file> unless it has it, by writing a new file and
#	renaming it over the old one.

# shellcheck disable=SC2034 # NEWEST_* are for the caller
_NEWEST_HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

newest_source_copy() {
	local series=$1 parent=$2 pkg='' src
	[ "$series" = newest ] || pkg=linux-source-$series
	src=$(PPU_NEWEST_PKG=$pkg "$_NEWEST_HERE/check-newest.sh" --source-only) || {
		echo "newest-source: no linux-source-$series from unstable (scripts/check-newest.sh --source-only)" >&2
		return 1
	}
	[ -f "$src/Makefile" ] || { echo "newest-source: $src is not a kernel source tree" >&2; return 1; }
	NEWEST_PKG=$(echo "${src##*/}" | sed -E 's/^(linux-source-[0-9]+\.[0-9]+)-.*/\1/')
	NEWEST_VER=${src##*/"$NEWEST_PKG"-}
	NEWEST_SERIES=${NEWEST_PKG#linux-source-}
	NEWEST_DIR=$parent/$NEWEST_VER
	[ -f "$NEWEST_DIR/.extracted" ] && return 0
	mkdir -p "$parent"
	(
		flock 7
		[ -f "$NEWEST_DIR/.extracted" ] && exit 0
		echo "newest-source: linking $src to $NEWEST_DIR" >&2
		rm -rf "$NEWEST_DIR" "$NEWEST_DIR.tmp"
		cp -al "$src" "$NEWEST_DIR.tmp" || exit 1
		mv "$NEWEST_DIR.tmp" "$NEWEST_DIR"
		touch "$NEWEST_DIR/.extracted"
	) 7>"$parent/.link.lock"
}

tree_append_line() {
	local f=$1 line=$2
	grep -qxF "$line" "$f" && return 0
	{ cat "$f"; printf '\n%s\n' "$line"; } > "$f.tmp" || return 1
	mv "$f.tmp" "$f"
}
