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
# Alpha-beta refuses a game with cycles, with a message and exit 5 (auto
# picks retro for it: t_valueiter.sh).
gs games/token.game --solver alphabeta >/dev/null 2>&1
check "alphabeta on a cyclic game: exit 5" 5 "$?"

if [ -n "$GSOLVE_FULL" ]; then
  check "retro = alphabeta, connect4 5x4 (draw in 20)" \
    "$(moves_of games/connect4.game -D width=5 -D height=4 --solver alphabeta)" \
    "$(moves_of games/connect4.game -D width=5 -D height=4 --solver retro)"
fi

# Databases: build, reload, answer by lookup (same answers as the solvers),
# statistics, refusal of a database built for other rules, corruption.
tmpdb=${TMPDIR:-/tmp}/gsolve-test-$$.db
gs games/tictactoe.game --solver retro --db "$tmpdb" >/dev/null
for pos in "" "b2" "b2 a1" "a1 b2 c3" "a1 a2 b1 b2"; do
  check "db lookup = alphabeta: tictactoe '$pos'" "$(moves_of games/tictactoe.game --position "$pos" --solver alphabeta)" \
    "$(moves_of games/tictactoe.game --position "$pos" --db "$tmpdb")"
done
out=$(gs games/tictactoe.game --db "$tmpdb" --dump-db)
check "db dump: stored" 765 "$(field stored "$out")"
check "db dump: wins + losses + draws = stored" 765 \
  "$(( $(field wins "$out") + $(field losses "$out") + $(field draws "$out" | cut -d' ' -f1) ))"
gs games/tictactoe.game -D k=2 --db "$tmpdb" >/dev/null 2>&1
check "db for other parameters is refused (exit 2)" 2 "$?"
gs games/connect4.game --db "$tmpdb" >/dev/null 2>&1
check "db for another game is refused (exit 2)" 2 "$?"
head -c 200 "$tmpdb" > "$tmpdb.cut"
err=$(gs games/tictactoe.game --db "$tmpdb.cut" 2>&1 >/dev/null)
check "truncated db is refused" "gsolve: error: '$tmpdb.cut' is corrupt (truncated or checksum mismatch)" "$err"
gs games/connect4.game -D width=4 -D height=4 --solver retro --db "$tmpdb" >/dev/null
for pos in "" "1" "2 2" "1 2 3 4"; do
  check "db lookup = alphabeta: connect4 4x4 '$pos'" \
    "$(moves_of games/connect4.game -D width=4 -D height=4 --position "$pos" --solver alphabeta)" \
    "$(moves_of games/connect4.game -D width=4 -D height=4 --position "$pos" --db "$tmpdb")"
done
# Limits stop cleanly with their own message and exit 5.
err=$(gs games/connect4.game -D width=4 -D height=4 --solver retro --max-positions 1000 2>&1 >/dev/null)
check "retro --max-positions: exit 5 with a message" "gsolve: error: more than 1000 positions (--max-positions)" "$err"
if [ -n "$GSOLVE_FULL" ]; then
  # Connect Four 5x4 (a draw, Tromp's table) by retrograde, saved and queried.
  gs games/connect4.game -D width=5 -D height=4 --solver retro --db "$tmpdb" --quiet >/dev/null
  for pos in "" "3" "3 3 3" "1 5 2 4"; do
    check "db lookup = alphabeta: connect4 5x4 '$pos'" \
      "$(moves_of games/connect4.game -D width=5 -D height=4 --position "$pos" --solver alphabeta)" \
      "$(moves_of games/connect4.game -D width=5 -D height=4 --position "$pos" --db "$tmpdb")"
  done
fi
# A database records the engine whose key format it uses: one built by
# the VM is refused by the native engine with a message that says so
# (it said "built for other rules: X; this is X": QA, session 8), and
# read by the engine that built it.
c43="games/connect4.game -D width=4 -D height=3"
gs $c43 --solver retro --db "$tmpdb" --engine vm >/dev/null
check "db of another engine: refused, and why" \
  "gsolve: error: '$tmpdb' was built with the vm engine, which stores positions differently; this run uses native-connect4: read it with --engine vm, or build it again" \
  "$(gs $c43 --db "$tmpdb" 2>&1 >/dev/null)"
check "db of another engine: read by its own" "draw" "$(field value "$(gs $c43 --db "$tmpdb" --engine vm)")"
rm -f "$tmpdb" "$tmpdb.cut"

# A declared symmetry that is not a symmetry of the rules is caught (exit 3)
# instead of giving wrong values: a quarter turn of Domineering swaps the
# players' dominoes.
gs tests/data/domineering_badsym.game --solver retro >/dev/null 2>&1
check "wrong symmetry declaration is detected by retro (exit 3)" 3 "$?"

# With and without symmetry: the same values and distances for every move,
# and the number stored differs by the reduction.
for args in "games/tictactoe.game" "games/nim.game" "games/connect4.game -D width=4 -D height=4 --engine vm" \
            "games/tictactoe.game -D m=4 -D n=3"; do
  # shellcheck disable=SC2086
  check "retro with and without symmetry agree: $args" "$(moves_of $args --solver retro)" \
    "$(moves_of $args --solver retro --no-symmetry)"
done
out=$(gs games/tictactoe.game --solver retro --no-symmetry)
check "tictactoe retro without symmetry stores every position" "5478 5478" "$(field positions "$out") $(field stored "$out")"
# Nim through the VM: its heaps are a permutable array, whose orbits the
# VM cannot count (0), so every position is expanded; `positions` once
# summed those zeros (0), and the canonical keys' scratch was missing
# (a crash).  The reachable positions, as --count counts them.
out=$(gs games/nim.game --engine vm -D heaps=1,2,3 --solver retro)
check "nim (VM, permutable heaps) retro: positions as --count, stored classes" "40 23 loss" \
  "$(field positions "$out") $(field stored "$out") $(field value "$out")"
check "nim (VM) --count agrees" 40 "$(field positions "$(gs games/nim.game --engine vm -D heaps=1,2,3 --count)")"
