#!/bin/sh
# tests/run.sh -- the fast test suite (make test): unit tests of the
# solvers, published values, cross-checks between solvers, and the
# diagnostics of bad .game files.  GSOLVE names the binary under test;
# GSOLVE_FULL=1 adds the heavy tests (make test-full).  Arguments, if any,
# name the scripts to run (default: every tests/t_*.sh).
#
# Each script runs in a shell of its own (nothing it sets reaches the
# next), with the helpers of tests/lib.sh; it reports its counts and the
# names of its failed checks through a file under $BUILD/tests.
cd "$(dirname "$0")/.." || exit 1
GSOLVE=${GSOLVE:-./gsolve}
BUILD=${BUILD:-build}
export GSOLVE BUILD
mkdir -p "$BUILD/tests"
# `--engine auto` takes the compiled tier for long jobs when the game's
# object is cached: the tests run on an empty cache of their own, so that
# what the user built never changes an `engine:` line.  Scripts that
# build objects (--engine compiled) set a cache of their own.
GSOLVE_CACHE=$(cd "$BUILD/tests" && pwd)/empty-cache
rm -rf "$GSOLVE_CACHE"
mkdir -m 700 -p "$GSOLVE_CACHE"   # the compiled tier uses only a folder of the user's alone
export GSOLVE_CACHE
# Nor does `auto` build the tier for a long job here (t_autotier.sh
# does): the many small solves must never pay a C compile.
GSOLVE_AUTO_BUILD=0
export GSOLVE_AUTO_BUILD

total_pass=0
total_fail=0
failed=""
[ $# -gt 0 ] || set -- tests/t_*.sh
for t in "$@"; do
  name=$(basename "$t" .sh)
  result="$BUILD/tests/$name.result"
  rm -f "$result"
  echo "== $t"
  sh -c 'run_script=$1 run_result=$2; . tests/lib.sh; . "./$run_script"; printf "%s %s%s\n" "$pass" "$fail" "$failed_names" > "$run_result"' \
    sh "$t" "$result"
  if [ -f "$result" ]; then
    read -r p f < "$result"
    total_pass=$((total_pass + p))
    total_fail=$((total_fail + f))
    [ "$f" -eq 0 ] || failed="$failed$(tail -n +2 "$result" | sed 's/^/\n/')"
  else
    total_fail=$((total_fail + 1))
    failed="$failed
  $t ended before reporting its checks"
  fi
done

if [ "$total_fail" -ne 0 ]; then
  printf '\nfailed:%s\n' "$failed"
fi
echo "$total_pass passed, $total_fail failed"
[ "$total_fail" -eq 0 ]
