#!/bin/sh
# tests/run.sh -- the fast test suite (make test): unit tests of the
# solvers, published values, cross-checks between solvers, and the
# diagnostics of bad .game files.  GSOLVE names the binary under test;
# GSOLVE_FULL=1 adds the heavy tests (make test-full).
cd "$(dirname "$0")/.." || exit 1
GSOLVE=${GSOLVE:-./gsolve}
BUILD=${BUILD:-build}
export GSOLVE BUILD
. tests/lib.sh

# Unit tests (C): their own count of checks, folded into ours.
if [ -x "$BUILD/test_solvers" ]; then
  if "$BUILD/test_solvers" >"$BUILD/test_solvers.log" 2>&1; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1)); failed_names="$failed_names
  unit tests ($BUILD/test_solvers.log)"
    tail -n 20 "$BUILD/test_solvers.log"
  fi
else
  check "unit test binary $BUILD/test_solvers exists" yes no
fi

for t in tests/t_*.sh; do
  [ -f "$t" ] || continue
  echo "== $t"
  . "./$t"
done

if [ "$fail" -ne 0 ]; then
  printf '\nfailed:%s\n' "$failed_names"
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
