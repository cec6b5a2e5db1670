# The fuzz harnesses replayed without libFuzzer, each file in a child
# process with a 20-second timeout: fuzz_parse, fuzz_compile and
# fuzz_pipeline over the bundled games, the error tests, the malformed
# inputs and the saved corpus; fuzz_gtp over its sessions and the games;
# fuzz_db and fuzz_book over their corpora (fuzz/corpus_db,
# fuzz/corpus_book).  Past crashes stay regression tests.
if [ -x "$BUILD/replay" ]; then
  files=$(ls games/*.game tests/errors/*.game tests/malformed/*.game fuzz/corpus/* 2>/dev/null | grep -v '\.keep$')
  nfiles=$(printf '%s\n' $files | wc -l | tr -d ' ')
  # shellcheck disable=SC2086
  out=$("$BUILD/replay" -t 20 -h parse -h compile -h pipeline $files 2>&1)
  check "fuzz replay over $nfiles inputs, 3 harnesses" "replayed $nfiles input(s)" "$(printf '%s\n' "$out" | tail -n 1)"
  printf '%s\n' "$out" | grep '^replay: ' | head -n 20
  # fuzz_gtp compiles two games an input: its own sessions and the games
  # (the .game corpus is no GTP and would only cost minutes under ASan).
  files=$(ls fuzz/corpus/gtp-* games/*.game tests/malformed/*.game 2>/dev/null)
  nfiles=$(printf '%s\n' $files | wc -l | tr -d ' ')
  # shellcheck disable=SC2086
  out=$("$BUILD/replay" -t 20 -h gtp $files 2>&1)
  check "fuzz replay over $nfiles inputs, the GTP harness" "replayed $nfiles input(s)" "$(printf '%s\n' "$out" | tail -n 1)"
  printf '%s\n' "$out" | grep '^replay: ' | head -n 20
  files=$(ls fuzz/corpus_db/* fuzz/corpus_book/* 2>/dev/null)
  nfiles=$(printf '%s\n' $files | wc -l | tr -d ' ')
  # shellcheck disable=SC2086
  out=$("$BUILD/replay" -t 20 -h db -h book $files 2>&1)
  check "fuzz replay over $nfiles database and book inputs, 2 harnesses" "replayed $nfiles input(s)" "$(printf '%s\n' "$out" | tail -n 1)"
  printf '%s\n' "$out" | grep '^replay: ' | head -n 20
else
  check "replay driver $BUILD/replay exists" yes no
fi
