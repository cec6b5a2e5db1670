# tests/t_errors.sh -- the diagnostics: bad .game files, bad -D values,
# illegal --position moves, and rules that fail at run time.
# Sourced by tests/run.sh (check, gs from tests/lib.sh).
#
# tests/errors/NAME.game is a game file with a mistake in it, and
# tests/errors/NAME.expected the EXACT standard error that gsolve must
# print for it (file:line:col: error: ..., the source line, a caret, and
# "N errors" when there are several).  gsolve is run as
#     gsolve tests/errors/NAME.game
# (the default mode, --solve) from the top of the repository, so the file
# names in the messages read tests/errors/NAME.game.  Standard output must
# be empty, and the exit status is
#     3 (EXIT_BAD_GAME: errors in the game file) for every NAME, except
#     4 (EXIT_RUNTIME: a rule failed at run time) for the rt_NAME files,
#       whose rules compile but fail while the game is played.
# To add a case: write NAME.game, run gsolve on it, READ the message (is
# it right, clear, at the right place?), then save it as NAME.expected.

err_tmp=$(mktemp -d "${TMPDIR:-/tmp}/gsolve-errors.XXXXXX")

for err_game in tests/errors/*.game; do
  err_name=${err_game%.game}
  err_base=${err_name##*/}
  case $err_base in
    rt_*) err_want=4 ;;
    *) err_want=3 ;;
  esac
  if [ ! -f "$err_name.expected" ]; then
    check "$err_base: $err_name.expected exists" yes no
    continue
  fi
  gs "$err_game" >"$err_tmp/out" 2>"$err_tmp/err"
  err_status=$?
  check "$err_base: exit status" $err_want $err_status
  check "$err_base: nothing on stdout" 0 "$(wc -c <"$err_tmp/out" | tr -d ' ')"
  if cmp -s "$err_name.expected" "$err_tmp/err"; then
    check "$err_base: stderr" same same
  else
    check "$err_base: stderr (diff below)" same different
    diff "$err_name.expected" "$err_tmp/err" | head -n 20
  fi
done

# ---------------------------------------------------------------------
# -D: a bad override is a usage error (exit 2), one line per mistake.
# ---------------------------------------------------------------------

# err_usage DESC EXPECTED-STDERR ARGS...: exit 2, nothing on stdout.
err_usage() {
  err_desc=$1 err_exp=$2
  shift 2
  gs "$@" >"$err_tmp/out" 2>"$err_tmp/err"
  err_status=$?
  check "$err_desc: exit status" 2 $err_status
  check "$err_desc: nothing on stdout" 0 "$(wc -c <"$err_tmp/out" | tr -d ' ')"
  check "$err_desc: stderr" "$err_exp" "$(cat "$err_tmp/err")"
}

err_usage "-D unknown parameter" \
  "gsolve: error: -D size=3: the game has no parameter 'size' (parameters: width, height, k)" \
  games/connect4.game -D size=3
err_usage "-D unknown parameter, game without parameters" \
  "gsolve: error: -D n=3: the game has no parameter 'n'" \
  tests/errors/rt_index.game -D n=3
err_usage "-D not an integer" \
  "gsolve: error: -D width=abc: expected an integer" \
  games/connect4.game -D width=abc
err_usage "-D integer with junk" \
  "gsolve: error: -D width=0x10: expected an integer" \
  games/connect4.game -D width=0x10
err_usage "-D list with a word" \
  "gsolve: error: -D heaps=1,x: 'x' is not an integer" \
  games/nim.game -D heaps=1,x
# A list value too big for 32 bits: out of range, as a single value says
# (it said "not an integer": QA, session 8).
err_usage "-D list with a value past 32 bits" \
  "gsolve: error: -D heaps=99999999999,2: '99999999999' is out of range for a 32-bit integer" \
  games/nim.game -D heaps=99999999999,2
err_usage "-D empty list" \
  "gsolve: error: -D heaps=: expected a comma-separated list of integers" \
  games/nim.game -D heaps=
err_usage "-D list with an empty item" \
  "gsolve: error: -D heaps=1,,2: expected a comma-separated list of integers" \
  games/nim.game -D heaps=1,,2
err_usage "-D bad bool" \
  "gsolve: error: -D misere=maybe: expected 0, 1, true or false" \
  games/nim.game -D misere=maybe
err_usage "-D below the range" \
  "gsolve: error: -D width=0: 0 is out of range 1..26" \
  games/connect4.game -D width=0
err_usage "-D above the range" \
  "gsolve: error: -D width=27: 27 is out of range 1..26" \
  games/connect4.game -D width=27
err_usage "-D negative" \
  "gsolve: error: -D n=-1: -1 is out of range 0..100000" \
  games/matchsticks.game -D n=-1
# An integer too large for 32 bits is still an integer: out of range
# (BUGS.md: gsolve says "expected an integer").
err_usage "-D huge integer" \
  "gsolve: error: -D n=99999999999: 99999999999 is out of range 0..100000" \
  games/matchsticks.game -D n=99999999999
err_usage "-D without =" \
  "gsolve: error: -D needs NAME=VALUE, not 'width'" \
  games/connect4.game -D width
err_usage "-D without a name" \
  "gsolve: error: -D needs NAME=VALUE, not '=5'" \
  games/connect4.game -D =5
# Several mistakes: each reported, in the order of the declarations,
# then the unknown names.
err_usage "-D three mistakes" \
  "gsolve: error: -D width=0: 0 is out of range 1..26
gsolve: error: -D height=x: expected an integer
gsolve: error: -D foo=1: the game has no parameter 'foo' (parameters: width, height, k)" \
  games/connect4.game -D foo=1 -D height=x -D width=0

# ---------------------------------------------------------------------
# --position: an illegal move is a usage error (exit 2), and the message
# lists the legal moves (docs/cli.md).
# ---------------------------------------------------------------------

err_usage "--position: illegal first move" \
  "gsolve: error: illegal move 'take 1 3' at ply 1 (legal: take 1 1, take 2 1, take 2 2, take 2 3, take 3 1, take 3 2, take 3 3, take 3 4, take 3 5, take 4 1, take 4 2, take 4 3, take 4 4, take 4 5, take 4 6, take 4 7)" \
  games/nim.game --position "take 1 3, take 2 1"
err_usage "--position: illegal second move, words matched greedily" \
  "gsolve: error: illegal move 'take 2 9' at ply 2 (legal: take 2 1, take 2 2, take 2 3, take 3 1, take 3 2, take 3 3, take 3 4, take 3 5, take 4 1, take 4 2, take 4 3, take 4 4, take 4 5, take 4 6, take 4 7)" \
  games/nim.game --position "take 1 1 take 2 9"
err_usage "--position: occupied cell" \
  "gsolve: error: illegal move 'a1' at ply 2 (legal: b1, c1, a2, b2, c2, a3, b3, c3)" \
  games/tictactoe.game --position "a1, a1"
err_usage "--position: case matters" \
  "gsolve: error: illegal move 'A1' at ply 1 (legal: a1, b1, c1, a2, b2, c2, a3, b3, c3)" \
  games/tictactoe.game --position "A1"
err_usage "--position: move after the end" \
  "gsolve: error: illegal move 'c2' at ply 6 (the game is over)" \
  games/tictactoe.game --position "a1 a2 b1 b2 c1 c2"
err_usage "--position: full board" \
  "gsolve: error: illegal move '1' at ply 2 (the game is over)" \
  games/connect4.game -D width=1 -D height=1 --position "1 1"
err_usage "--position: no legal moves" \
  "gsolve: error: illegal move 'take' at ply 1 (no legal moves)" \
  games/matchsticks.game -D n=0 --position "take 1"
err_usage "--position: empty piece" \
  "gsolve: error: empty move at ply 2 in --position" \
  games/tictactoe.game --position "b2,,a1"
# Blanks are trimmed and collapsed: this is legal.
out=$(gs games/tictactoe.game --position "  b2   a1  " 2>&1)
check "--position: blanks collapsed" "b2, a1" "$(field position "$out")"

# ---------------------------------------------------------------------
# Files that cannot be read (exit 6).
# ---------------------------------------------------------------------

gs tests/errors/no-such-file.game >"$err_tmp/out" 2>"$err_tmp/err"
check "missing file: exit status" 6 $?
check "missing file: stderr" \
  "gsolve: error: cannot read 'tests/errors/no-such-file.game': No such file or directory" \
  "$(cat "$err_tmp/err")"
gs tests/errors >"$err_tmp/out" 2>"$err_tmp/err"
check "directory: exit status" 6 $?
check "directory: stderr" "gsolve: error: cannot read 'tests/errors': Is a directory" \
  "$(cat "$err_tmp/err")"

rm -rf "$err_tmp"
