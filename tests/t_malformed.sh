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
rm -rf "$mal_tmp"
