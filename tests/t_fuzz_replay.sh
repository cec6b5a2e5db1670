# The fuzz harnesses (fuzz_parse, fuzz_compile, fuzz_pipeline, fuzz_gtp) replayed
# without libFuzzer over the bundled games, the error tests, the malformed
# inputs and the saved corpus (past crashes stay regression tests): each
# file through each harness in a child process with a 20-second timeout.
if [ -x "$BUILD/replay" ]; then
  files=$(ls games/*.game tests/errors/*.game tests/malformed/*.game fuzz/corpus/* 2>/dev/null | grep -v '\.keep$')
  nfiles=$(printf '%s\n' $files | wc -l | tr -d ' ')
  # shellcheck disable=SC2086
  out=$("$BUILD/replay" -t 20 $files 2>&1)
  check "fuzz replay over $nfiles inputs, 4 harnesses" "replayed $nfiles input(s)" "$(printf '%s\n' "$out" | tail -n 1)"
  printf '%s\n' "$out" | grep '^replay: ' | head -n 20
else
  check "replay driver $BUILD/replay exists" yes no
fi
