# Deferred effects (src/compiler/defer.c, DEFER in the VM and the
# compiled tier): the end of a move's effect that only sets what the end
# block reads, and cannot fail, runs only when the position is next
# looked at.  The results must be those of the same rules played at once:
# games/connect4.game (deferred) against tests/files/defer_c4_eager.game
# (the same rules, nothing deferred) and the native engine; a tail that
# may fail is never deferred, so its runtime error comes at the same move.
aot_cache=$(cd "$BUILD" && pwd)/tests/aot-cache
export GSOLVE_CACHE="$aot_cache"
unset GSOLVE_CC
c4=games/connect4.game
eager=tests/files/defer_c4_eager.game
lines=tests/files/defer_c4_lines.game

# What the compiler deferred: Connect Four's line test (no steps: its
# loop over 4 directions is unrolled), nothing in the two variants.
check "connect4: the line test is deferred" "DEFER 0" \
  "$(gs $c4 --dump-bytecode | sed -n 's/.* \(DEFER *[0-9]*\) .*/\1/p' | tr -s ' ')"
check "eager variant: nothing deferred" 0 "$(gs $eager --dump-bytecode | grep -c ' DEFER ')"
check "lines variant: nothing deferred" 0 "$(gs $lines --dump-bytecode | grep -c ' DEFER ')"

# res OUTPUT: the lines that must agree (not the times, engine, game name).
res() { printf '%s\n' "$1" | grep -E '^(perft|games|nodes|value|score|plies|best|positions|to move|move|[a-z0-9]+ +[-+0-9])' ; }

# Perft: every leaf's deferred test is dropped, every inner node's run
# (the end block asks for `winner`); the games ended must not change.
for d in 5 7; do
  want=$(res "$(gs $c4 --perft $d --engine native)")
  for e in vm compiled; do
    check "connect4 perft $d ($e) = native" "$want" "$(res "$(gs $c4 --perft $d --engine $e)")"
  done
  check "connect4 perft $d = eager variant (vm)" "$want" "$(res "$(gs $eager --perft $d --engine vm)")"
done
check "connect4 perft 7 leaves (published)" 823536 "$(field 'perft 7' "$(gs $c4 --perft 7 --engine vm)")"

# Values and best moves (alphabeta with its table: ended, hash, pack).
for args in "-D width=4 -D height=4" "-D width=5 -D height=4 --position 3,3" "-D width=4 -D height=4 --all-moves" \
            "-D width=4 -D height=4 --position 2,2,3,3 --all-moves" "--position 1,2,1,2,1,2,1"; do
  want=$(res "$(gs $eager $args --solve --engine vm)")
  for e in vm compiled; do
    # shellcheck disable=SC2086
    check "connect4 $args solve ($e) = eager" "$want" "$(res "$(gs $c4 $args --solve --engine $e)")"
  done
done
# Positions counted (the state of each, so every deferred test runs).
want=$(field positions "$(gs $eager -D width=4 -D height=3 --count --engine vm)")
check "connect4 4x3 count: positions" "$want" "$(field positions "$(gs $c4 -D width=4 -D height=3 --count --engine vm)")"
check "connect4 4x3 count: compiled" "$want" "$(field positions "$(gs $c4 -D width=4 -D height=3 --count --engine compiled)")"

# A tail that may fail stays where it is: two lines at once are out of
# range at a leaf of perft 5, and perft 5 reports it on both tiers.
for e in vm compiled; do
  gs $lines --perft 5 --engine $e >/dev/null 2>"$BUILD/tests/defer.err"
  check "lines variant perft 5 ($e): runtime error status" 4 "$?"
  check "lines variant perft 5 ($e): message" \
    "tests/files/defer_c4_lines.game:27:40: runtime error: value 2 out of range 0..1 for 'lines' in move 'drop'" \
    "$(head -n 1 "$BUILD/tests/defer.err")"
done
check "lines variant perft 4: no error" 112 "$(field 'perft 4' "$(gs $lines --perft 4 --engine vm)")"

# Tic-tac-toe: the line test after `square[c] = mover`, whose index check
# proves the cell argument in range, is deferred too; the whole tree
# (255,168 games) and the value (a draw) are the published ones.
check "tictactoe: the line test is deferred" 1 "$(gs games/tictactoe.game --dump-bytecode | grep -c ' DEFER ')"
for e in vm compiled; do
  out=$(gs games/tictactoe.game --perft 9 --engine $e)
  check "tictactoe perft 9 ($e): games" 255168 "$(( $(field 'perft 9' "$out") + $(field games "$out") ))"
  check "tictactoe solve ($e)" draw "$(field value "$(gs games/tictactoe.game --solve --engine $e)")"
done
