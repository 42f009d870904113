#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make htmldocs: build Documentation/ (plain reST, Documentation/conf.py)
# with Debian's sphinx-build into build/htmldocs. Warnings are errors.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=${PPU_HTMLDOCS_DIR:-$ROOT/build/htmldocs}
SPHINX=${SPHINXBUILD:-/usr/bin/sphinx-build}
[ -x "$SPHINX" ] || SPHINX=$(command -v sphinx-build) ||
	{ echo "htmldocs: sphinx-build not found (apt-get install python3-sphinx)" >&2; exit 1; }
mkdir -p "$OUT"
"$SPHINX" -W --keep-going -b html -d "$OUT/.doctrees" -q "$ROOT/Documentation" "$OUT"
echo "htmldocs: $OUT/index.html"
