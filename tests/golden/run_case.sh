# tests/golden/run_case.sh -- run_case ARGS: prints "$ gsolve ARGS --json",
# the JSON on stdout with "seconds" masked, and "exit: N".
run_case() {
  printf '$ gsolve %s --json\n' "$1"
  out=$(eval "\"\$GSOLVE\" $1 --json --quiet" 2>/dev/null; echo "exit: $?")
  printf '%s\n' "$out" | sed 's/"seconds":[0-9.e+-]*/"seconds":_/g'
}
