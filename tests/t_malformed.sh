# tests/t_malformed.sh -- hand-written malformed inputs (tests/malformed):
# truncated files, binary junk, huge numbers, deep nesting, unterminated
# strings and comments, wrong encodings (UTF-16, invalid UTF-8), huge
# arrays, states, names, rules and moves.  Sourced by tests/run.sh.
#
# tests/malformed/NAME.game is the input; tests/malformed/NAME.expected
# holds "exit N" on its first line, then the EXACT standard error of
#     gsolve tests/malformed/NAME.game
# run from the top of the repository (a 20-second timeout per input).  To
# add a case: write NAME.game, run gsolve on it, read the message, and
# save "exit N" and the message as NAME.expected.  The fuzz replay runs
# these files through the harnesses too (t_fuzz_replay.sh).

mal_tmp=$(mktemp -d "${TMPDIR:-/tmp}/gsolve-malformed.XXXXXX")
for mal_game in tests/malformed/*.game; do
  mal_name=${mal_game%.game}
  mal_base=${mal_name##*/}
  if [ ! -f "$mal_name.expected" ]; then
    check "malformed $mal_base: $mal_name.expected exists" yes no
    continue
  fi
  timeout 20 $GSOLVE "$mal_game" >"$mal_tmp/out" 2>"$mal_tmp/err"
  mal_status=$?
  check "malformed $mal_base: exit status" "$(head -n 1 "$mal_name.expected")" "exit $mal_status"
  if tail -n +2 "$mal_name.expected" | cmp -s - "$mal_tmp/err"; then
    check "malformed $mal_base: stderr" same same
  else
    check "malformed $mal_base: stderr (diff below)" same different
    tail -n +2 "$mal_name.expected" | diff - "$mal_tmp/err" | head -n 10
  fi
done

# Damaged databases (--db): truncated at every few bytes, bits flipped,
# or junk; each is refused (exit 2) with a message, never trusted.
gs games/tictactoe.game -D m=3 -D n=2 --solver retro --db "$mal_tmp/t.db" >/dev/null 2>&1
mal_size=$(wc -c <"$mal_tmp/t.db" | tr -d ' ')
mal_bad=""
for mal_n in 0 4 8 12 16 24 32 48 64 100 200 $((mal_size / 2)) $((mal_size - 1)); do
  head -c "$mal_n" "$mal_tmp/t.db" >"$mal_tmp/cut.db"
  gs games/tictactoe.game -D m=3 -D n=2 --db "$mal_tmp/cut.db" >"$mal_tmp/out" 2>"$mal_tmp/err"
  mal_status=$?
  if [ $mal_status -ne 2 ] || ! grep -q -E "^gsolve: error: '.*cut.db' (is not a gsolve database|has database format|is corrupt)" "$mal_tmp/err"; then
    mal_bad="$mal_bad $mal_n:$mal_status"
  fi
done
check "truncated databases refused (exit 2, a message)" "" "$mal_bad"
awk 'BEGIN { srand(6); for (i = 0; i < 4096; i++) printf "%c", int(rand() * 255) + 1 }' >"$mal_tmp/junk.db"
gs games/tictactoe.game -D m=3 -D n=2 --db "$mal_tmp/junk.db" >/dev/null 2>"$mal_tmp/err"
check "junk database: exit" 2 $?
check "junk database: message" "gsolve: error: '$mal_tmp/junk.db' is not a gsolve database" "$(cat "$mal_tmp/err")"
# A flipped byte in the middle: the checksum catches it.
dd if="$mal_tmp/t.db" of="$mal_tmp/flip.db" bs=1 count=$((mal_size / 2)) 2>/dev/null
printf '\377' >>"$mal_tmp/flip.db"
dd if="$mal_tmp/t.db" bs=1 skip=$((mal_size / 2 + 1)) 2>/dev/null >>"$mal_tmp/flip.db"
gs games/tictactoe.game -D m=3 -D n=2 --db "$mal_tmp/flip.db" >/dev/null 2>"$mal_tmp/err"
check "database with a changed byte: exit" 2 $?
check "database with a changed byte: message" \
  "gsolve: error: '$mal_tmp/flip.db' is corrupt (truncated or checksum mismatch)" "$(cat "$mal_tmp/err")"
rm -rf "$mal_tmp"
