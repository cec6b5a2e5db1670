#!/bin/sh
# tests/golden/update.sh -- rewrites tests/golden/expected.txt from the
# binary in GSOLVE (default ./gsolve).  Review the diff before committing.
cd "$(dirname "$0")/../.." || exit 1
GSOLVE=${GSOLVE:-./gsolve}
. tests/golden/run_case.sh
grep -v '^#' tests/golden/cases.txt | grep -v '^$' | while IFS= read -r args; do
  run_case "$args"
done > tests/golden/expected.txt
