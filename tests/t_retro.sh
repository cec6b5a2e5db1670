# Retrograde analysis (--solver retro) against alpha-beta, and on a game
# with cycles whose values were derived by hand (games/token.game header).

# moves_of ARGS: the "moves" list of --all-moves --json (value, plies of
# every legal move), which must be identical whichever solver made it.
moves_of() { gs "$@" --all-moves --json | sed 's/.*"moves"://'; }
root_of() { gs "$@" --json | sed 's/.*"value":\([^,]*\),"score":\([^,]*\),"plies":\([^,]*\),"best":\([^]]*\]\).*/\1 \2 \3 \4/'; }

for args in "games/tictactoe.game" "games/tictactoe.game -D m=4 -D n=3" \
            "games/nim.game" "games/nim.game -D heaps=2,2,3" "games/nim.game -D misere=true" \
            "games/matchsticks.game" "games/matchsticks.game -D n=30 -D k=4" \
            "games/hexapawn.game" "games/hexapawn.game -D width=4 -D height=4" \
            "games/connect4.game -D width=4 -D height=4"; do
  # shellcheck disable=SC2086
  check "retro = alphabeta, every move: $args" "$(moves_of $args --solver alphabeta)" "$(moves_of $args --solver retro)"
  # shellcheck disable=SC2086
  check "retro = alphabeta, root: $args" "$(root_of $args --solver alphabeta)" "$(root_of $args --solver retro)"
done

# Positions after a few moves, too.
for pos in "b2" "b2 a1" "a1 b2 c3"; do
  check "retro = alphabeta after $pos" "$(moves_of games/tictactoe.game --position "$pos" --solver alphabeta)" \
    "$(moves_of games/tictactoe.game --position "$pos" --solver retro)"
done
check "retro = alphabeta, connect4 4x4 after 2 1" \
  "$(moves_of games/connect4.game -D width=4 -D height=4 --position "2 1" --solver alphabeta)" \
  "$(moves_of games/connect4.game -D width=4 -D height=4 --position "2 1" --solver retro)"

# Tic-tac-toe: 5,478 positions, 765 up to the 8 symmetries of the board
# (the source material; e.g. Schaefer's tic-tac-toe analysis); a draw in 9.
out=$(gs games/tictactoe.game --solver retro)
check "tictactoe retro: positions" 5478 "$(field positions "$out")"
check "tictactoe retro: stored up to symmetry" 765 "$(field stored "$out")"
check "tictactoe retro: draw in 9" "draw 9" "$(field value "$out") $(field plies "$out")"

# Nim 1,3,5,7: heaps are interchangeable (symmetry permute), 752 reachable
# positions (as --count finds), the mover loses in 16.
out=$(gs games/nim.game --solver retro)
check "nim retro: loss in 16" "loss 16" "$(field value "$out") $(field plies "$out")"
check "nim retro: positions = --count" "$(field positions "$(gs games/nim.game --count)")" "$(field positions "$out")"

# Token on a graph with a cycle: values derived by hand in the game's header.
for case in "0:\"draw\" 0 null [\"to 1\"]" "1:\"draw\" 0 null [\"to 2\"]" "2:\"draw\" 0 null [\"to 0\"]" \
            "3:\"win\" 1 1 [\"to 4\"]" "4:\"loss\" -1 0 []" "5:\"draw\" 0 null [\"to 0\"]" \
            "6:\"loss\" -1 2 [\"to 3\"]"; do
  from=${case%%:*}
  check "token from $from (cycle) by retro" "${case#*:}" "$(root_of games/token.game -D from="$from" --solver retro)"
done
# Alpha-beta refuses a game with cycles, with a message and exit 5.
gs games/token.game >/dev/null 2>&1
check "alphabeta on a cyclic game: exit 5" 5 "$?"

if [ -n "$GSOLVE_FULL" ]; then
  check "retro = alphabeta, connect4 5x4 (draw in 20)" \
    "$(moves_of games/connect4.game -D width=5 -D height=4 --solver alphabeta)" \
    "$(moves_of games/connect4.game -D width=5 -D height=4 --solver retro)"
fi
