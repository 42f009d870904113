#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make test: style checks, KUnit on UML, igt in a QEMU guest. Ends with one
# line "N passed, N failed" and exits non-zero on any failure.
ROOT=$(cd "$(dirname "$0")/.." && pwd)
LOG=${PPU_TEST_LOG:-$ROOT/build/test-logs}
mkdir -p "$LOG"
start=$(date +%s)
passed=0
failed=0

count() {	# $1: name, $2: log file, $3: exit code of the suite
	local line p f
	line=$(grep -E "^$1: [0-9]+ passed, [0-9]+ failed" "$2" | tail -1)
	p=$(echo "$line" | sed -E 's/.* ([0-9]+) passed.*/\1/')
	f=$(echo "$line" | sed -E 's/.* ([0-9]+) failed.*/\1/')
	[ -z "$line" ] && p=0 && f=0
	# A suite that failed without counting a failure counts as one.
	if [ "$3" -ne 0 ] && [ "$f" -eq 0 ]; then
		f=1
		echo "$1: suite failed (exit $3); see $2"
	fi
	passed=$((passed + p))
	failed=$((failed + f))
}

echo "== check (checkpatch --strict, sparse) =="
"$ROOT/scripts/check.sh" 2>&1 | tee "$LOG/check.log"
rc=${PIPESTATUS[0]}
if [ "$rc" -eq 0 ]; then passed=$((passed + 1)); else failed=$((failed + 1)); fi

echo "== kunit =="
"$ROOT/scripts/run-kunit.sh" 2>&1 | tee "$LOG/kunit.log"
count kunit "$LOG/kunit.log" "${PIPESTATUS[0]}"

echo "== igt =="
"$ROOT/scripts/run-igt.sh" 2>&1 | tee "$LOG/igt.log"
count igt "$LOG/igt.log" "${PIPESTATUS[0]}"

echo "make test: $(( $(date +%s) - start )) s"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
