# The fuzz harnesses replayed without libFuzzer, each file in a child
# process with a timeout (fuzz_timeout seconds): fuzz_parse, fuzz_compile and
# fuzz_pipeline over the bundled games, the error tests, the malformed
# inputs and the saved corpus; fuzz_gtp over its sessions and the games;
# fuzz_db, fuzz_book, fuzz_position and fuzz_efg over their corpora (fuzz/corpus_db,
# fuzz/corpus_book, fuzz/corpus_position, fuzz/corpus_efg).  Past crashes stay regression tests.
#
# The timeout: a rule that loops runs to the VM's step budget (10^7
# steps, 0.6 s here); under make asan, with VM_CHECK_STACK checking every
# instruction, that takes about 16 s on an idle machine, and five corpus
# inputs timed out at 20 s on a loaded one.  60 s still ends a hang.
fuzz_timeout=60
if [ -x "$BUILD/replay" ]; then
  files=$(ls games/*.game tests/errors/*.game tests/malformed/*.game fuzz/corpus/* 2>/dev/null | grep -v '\.keep$')
  nfiles=$(printf '%s\n' $files | wc -l | tr -d ' ')
  # shellcheck disable=SC2086
  out=$("$BUILD/replay" -t "$fuzz_timeout" -h parse -h compile -h pipeline $files 2>&1)
  check "fuzz replay over $nfiles inputs, 3 harnesses" "replayed $nfiles input(s)" "$(printf '%s\n' "$out" | tail -n 1)"
  printf '%s\n' "$out" | grep '^replay: ' | head -n 20
  # fuzz_gtp compiles two games an input: its own sessions and the games
  # (the .game corpus is no GTP and would only cost minutes under ASan).
  files=$(ls fuzz/corpus/gtp-* games/*.game tests/malformed/*.game 2>/dev/null)
  nfiles=$(printf '%s\n' $files | wc -l | tr -d ' ')
  # shellcheck disable=SC2086
  out=$("$BUILD/replay" -t "$fuzz_timeout" -h gtp $files 2>&1)
  check "fuzz replay over $nfiles inputs, the GTP harness" "replayed $nfiles input(s)" "$(printf '%s\n' "$out" | tail -n 1)"
  printf '%s\n' "$out" | grep '^replay: ' | head -n 20
  files=$(ls fuzz/corpus_db/* fuzz/corpus_book/* 2>/dev/null)
  nfiles=$(printf '%s\n' $files | wc -l | tr -d ' ')
  # shellcheck disable=SC2086
  out=$("$BUILD/replay" -t "$fuzz_timeout" -h db -h book $files 2>&1)
  check "fuzz replay over $nfiles database and book inputs, 2 harnesses" "replayed $nfiles input(s)" "$(printf '%s\n' "$out" | tail -n 1)"
  printf '%s\n' "$out" | grep '^replay: ' | head -n 20
  # fuzz_position: --fen and --position on six games (fuzz/corpus_position).
  files=$(ls fuzz/corpus_position/* 2>/dev/null)
  nfiles=$(printf '%s\n' $files | wc -l | tr -d ' ')
  # shellcheck disable=SC2086
  out=$("$BUILD/replay" -t "$fuzz_timeout" -h position $files 2>&1)
  check "fuzz replay over $nfiles --fen and --position inputs, the position harness" "replayed $nfiles input(s)" "$(printf '%s\n' "$out" | tail -n 1)"
  printf '%s\n' "$out" | grep '^replay: ' | head -n 20
  # fuzz_efg: the Gambit .efg reader over its corpus (fuzz/corpus_efg) and
  # the malformed inputs.
  files=$(ls fuzz/corpus_efg/* tests/malformed/* 2>/dev/null)
  nfiles=$(printf '%s\n' $files | wc -l | tr -d ' ')
  # shellcheck disable=SC2086
  out=$("$BUILD/replay" -t "$fuzz_timeout" -h efg $files 2>&1)
  check "fuzz replay over $nfiles .efg inputs, the efg harness" "replayed $nfiles input(s)" "$(printf '%s\n' "$out" | tail -n 1)"
  printf '%s\n' "$out" | grep '^replay: ' | head -n 20
else
  check "replay driver $BUILD/replay exists" yes no
fi

# `make fuzz` builds the sources with clang and -Werror: each must compile
# there too (an attribute only GCC knows, vm_interp's `optimize`, once
# broke it; tests/BUGS.md, session 16).  Syntax only: a few seconds.
if command -v clang >/dev/null 2>&1; then
  bad=""
  for f in $(ls src/*/*.c src/*/*/*.c | grep -v '_mpi'); do
    clang -fsyntax-only -Werror -Wall -Wextra -Wno-unused-parameter -std=c11 -D_POSIX_C_SOURCE=200809L \
      -Isrc -I"$BUILD" "$f" 2>/dev/null || bad="$bad $f"
  done
  check "every source compiles with clang -Werror (make fuzz)" "" "$bad"
fi
