# The fuzz harness replayed over the bundled games, the error tests and the
# saved corpus (past crashes stay regression tests), without libFuzzer.
if [ -x "$BUILD/replay" ]; then
  files=$(ls games/*.game tests/errors/*.game fuzz/corpus/* 2>/dev/null | grep -v '\.keep$')
  # shellcheck disable=SC2086
  out=$(timeout 300 "$BUILD/replay" $files 2>&1)
  check "fuzz replay over $(printf '%s\n' $files | wc -l | tr -d ' ') inputs" "replayed $(printf '%s\n' $files | wc -l | tr -d ' ') input(s)" "$(printf '%s\n' "$out" | tail -n 1)"
else
  check "replay driver $BUILD/replay exists" yes no
fi
