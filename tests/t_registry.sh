# The solver registry (src/driver/solvers.c) and the engines' own solvers
# (GameVtable.solve): which solver answers by default and why, what a
# refused combination says, and the engines' answers against the VM's.

# Issue 18: a native engine with its own solver answers the plain command.
reg_out=$(gs games/nim.game -D heaps=100,200,300,400 --solve --time-limit 20 --json)
check "nim 100,200,300,400: the nim-sum rule answers" \
  '"value":"win","score":1,"plies":null,"best":["take 4 16"]' \
  "$(printf '%s\n' "$reg_out" | sed 's/.*"to_move":"First",//; s/,"nodes".*//')"
check "nim 100,200,300,400: solver native-nim" "native-nim" \
  "$(printf '%s\n' "$reg_out" | sed 's/.*"solver":"\([^"]*\)".*/\1/')"
reg_out=$(gs games/matchsticks.game -D n=100000 -D k=7 --solve --time-limit 20)
check "matchsticks n=100000 k=7: by the period" "loss 25000 native-matchsticks" \
  "$(field value "$reg_out") $(field plies "$reg_out") $(field solver "$reg_out")"
reg_out=$(gs games/matchsticks.game -D n=99999 -D k=7 --solve --time-limit 20)
check "matchsticks n=99999 k=7: the winning take" "win 24999 take 7" \
  "$(field value "$reg_out") $(field plies "$reg_out") $(field best "$reg_out")"

# The engines' solvers agree with alphabeta on the VM, move by move.
for heaps in 1,3,5,7 2,2 3,4,5 1,1,1 4,1,6; do
  for mis in false true; do
    a=$(gs games/nim.game -D heaps=$heaps -D misere=$mis --all-moves --json | sed 's/.*"moves"://; s/"plies":[0-9a-z]*,//g')
    b=$(gs games/nim.game -D heaps=$heaps -D misere=$mis --all-moves --json --engine vm --solver alphabeta \
        | sed 's/.*"moves"://; s/"plies":[0-9a-z]*,//g')
    check "nim $heaps misere=$mis: native solver = alphabeta on the VM (values)" "$b" "$a"
  done
done
for n in 0 1 7 8 9 20 33; do
  a=$(gs games/matchsticks.game -D n=$n -D k=3 --all-moves --json | sed 's/.*"value"//; s/,"nodes".*//')
  b=$(gs games/matchsticks.game -D n=$n -D k=3 --all-moves --json --engine vm | sed 's/.*"value"//; s/,"nodes".*//')
  check "matchsticks n=$n k=3: native solver = alphabeta on the VM (value, plies, best)" "$b" "$a"
done

# Auto reads the game: three players take max^n; --stats says why.
reg_err=$(gs games/pot.game --solve --stats 2>&1 >/dev/null)
check "pot: auto chooses expectimax, and --stats says why" \
  "stats: solver expectimax (3 players: max^n)" "$(printf '%s\n' "$reg_err" | tail -n 1)"
check "tictactoe: auto chooses alphabeta" \
  "stats: solver alphabeta (two players: alpha-beta with a transposition table)" \
  "$(gs games/tictactoe.game --stats 2>&1 >/dev/null | tail -n 1)"
check "--solver named: --stats says so" "stats: solver minimax (named by --solver)" \
  "$(gs games/tictactoe.game --solver minimax --stats 2>&1 >/dev/null | tail -n 1)"

# A refused combination names the solvers that would take the game.
check "minimax on three players: names retro, expectimax and value-iteration" \
  "gsolve: error: the minimax solver needs one or two players (this game has 3): use --solver retro, expectimax or value-iteration" \
  "$(gs games/pot.game --solver minimax 2>&1)"
check "minimax on chance: names alphabeta, retro, expectimax and value-iteration" \
  "gsolve: error: the minimax solver does not handle chance moves: use --solver alphabeta, retro, expectimax or value-iteration" \
  "$(gs games/dice.game --solver minimax 2>&1)"
check "native without a native engine" \
  "gsolve: error: --solver native needs a native engine with a solver of its own (Connect Four, Nim, matchsticks: --engine native)" \
  "$(gs games/tictactoe.game --solver native 2>&1)"
check "db without --db" "gsolve: error: --solver db needs --db FILE" \
  "$(gs games/tictactoe.game --solver db 2>&1)"
check "unknown solver" \
  "gsolve: error: unknown solver 'fast' (auto, alphabeta, minimax, retro, expectimax (maxn), value-iteration, native, db, cfr, matrix, lp or ismcts)" \
  "$(gs games/tictactoe.game --solver fast 2>&1)"
check "--solver auto is the default" "$(gs games/tictactoe.game --json | sed 's/"seconds":[0-9.]*//')" \
  "$(gs games/tictactoe.game --solver auto --json | sed 's/"seconds":[0-9.]*//')"

# A test set reads one exact value a line: the rows that give one take it
# (TAKES_TEST_SET); an expected-value solver was run and its empty exact
# result read as 0 (a mismatch reported where the set was right).
reg_tmp=$(mktemp -d)
printf -- '- -1\n' > "$reg_tmp/hexapawn.txt"   # Hexapawn: Black (second) wins (Gardner 1962)
check "test set: hexapawn's start is lost for White (alphabeta)" "0" \
  "$(field mismatches "$(gs games/hexapawn.game --test-set "$reg_tmp/hexapawn.txt")")"
reg_out=$(gs games/hexapawn.game --test-set "$reg_tmp/hexapawn.txt" --solver expectimax 2>&1)
check "test set: an expected-value solver is refused, the rows that take it named" \
  "gsolve: error: --test-set takes the alphabeta, minimax or native solver (exit 2)" "$reg_out (exit $?)"
rm -rf "$reg_tmp"
