# Analysis output: the game tree as Graphviz DOT (--tree-dot, --tree-prune,
# --depth), drawn by dot; the principal variation (--pv); the progress line
# of long searches (--progress).

an_tmp=$(mktemp -d)
dot_nodes() { grep -cE '^  n[0-9]+ \[label=' "$1"; }
dot_edges() { grep -cE '^  n[0-9]+ -> n[0-9]+ ' "$1"; }

# --- --tree-dot ------------------------------------------------------------------
# Hexapawn 3x3: the source material counts 252 nodes in the full game tree.
out=$(gs games/hexapawn.game --tree-dot "$an_tmp/h.dot")
check "tree-dot: hexapawn 3x3 full tree, 252 nodes (source material)" "252 251 0" \
  "$(field nodes "$out") $(field edges "$out") $(field "cut off" "$out")"
check "tree-dot: the file has the nodes and edges reported" "252 251" \
  "$(dot_nodes "$an_tmp/h.dot") $(dot_edges "$an_tmp/h.dot")"
# --json: one object (it printed the text report: QA, session 8).
check "tree-dot --json: the counts as JSON" '"nodes":252,"edges":251,"cut_off":0,"pruned":0' \
  "$(gs games/hexapawn.game --tree-dot "$an_tmp/h2.dot" --json | grep -o '"nodes":[0-9]*,"edges":[0-9]*,"cut_off":[0-9]*,"pruned":[0-9]*')"
plies=$(field plies "$(gs games/hexapawn.game)")
check "tree-dot: the root's value is the solver's (Black wins in $plies)" "1" \
  "$(grep -m1 '^  n0 \[' "$an_tmp/h.dot" | grep -c "Black wins in $plies\\\\l")"
check "tree-dot: optimal moves drawn bold" "yes" \
  "$(grep -q '^  n0 -> n[0-9]* \[label="b1-b2", penwidth=2.5\]' "$an_tmp/h.dot" && echo yes || echo no)"
check "tree-dot: the full tree has positions White wins" "yes" \
  "$(grep -q 'White wins' "$an_tmp/h.dot" && echo yes || echo no)"

# --tree-prune: moves doing worse than their node's result are left out.
# Black wins from the start, so White's moves all stay (all lose) and only
# Black's winning moves are kept: no position left in which White wins.
out=$(gs games/hexapawn.game --tree-dot "$an_tmp/hp.dot" --tree-prune)
check "tree-prune: hexapawn 3x3, nodes and moves left out" "102 101 20" \
  "$(field nodes "$out") $(field edges "$out") $(field pruned "$out")"
check "tree-prune: no position won by White is left" "0" "$(grep -c 'White wins' "$an_tmp/hp.dot")"
check "tree-prune: every node left is won by Black" "102" "$(grep -c 'Black wins' "$an_tmp/hp.dot")"

# --depth N: N plies, the positions at the limit cut off (dashed, unsettled).
out=$(gs games/tictactoe.game --tree-dot "$an_tmp/t.dot" --depth 2)
check "tree-dot --depth 2: 1 + perft 1 + perft 2 nodes, perft 2 cut off" \
  "$((1 + $(field "perft 1" "$(gs games/tictactoe.game --perft 1)") + $(field "perft 2" "$(gs games/tictactoe.game --perft 2)"))) 72" \
  "$(field nodes "$out") $(field "cut off" "$out")"
check "tree-dot --depth 2: cut-offs marked" "72" "$(grep -c 'cut off (depth limit)\\l", fillcolor=white, style="filled,dashed"' "$an_tmp/t.dot")"
# Near the end of a game, values where the tree settles them.
gs games/tictactoe.game --position "a1 b1 a2 b2" --tree-dot "$an_tmp/e.dot" --depth 2 >/dev/null
check "tree-dot: not settled when lines go past the depth" "1" \
  "$(grep '^  n0 \[' "$an_tmp/e.dot" | grep -c 'not settled within the depth')"
gs games/tictactoe.game --position "a1 b1 a2 b2" --tree-dot "$an_tmp/e.dot" --depth 5 >/dev/null
check "tree-dot: settled when every line ends within the depth" "1" \
  "$(grep '^  n0 \[' "$an_tmp/e.dot" | grep -c 'X wins in 1')"
# A game with cycles: a repeated position ends its line.
out=$(gs games/token.game --tree-dot "$an_tmp/c.dot")
check "tree-dot: token (a cycle) ends lines at a repetition" "yes" \
  "$(grep -q 'repeats a position above' "$an_tmp/c.dot" && echo yes || echo no)"
# Too big a tree is refused with advice.
gs games/tictactoe.game --tree-dot "$an_tmp/big.dot" >/dev/null 2>"$an_tmp/err"
check "tree-dot: a tree over the limit (exit 5)" "5 gsolve: error: the tree has more than 100000 nodes; draw less of it with --depth N" \
  "$? $(cat "$an_tmp/err")"
gs games/tictactoe.game --tree-prune >/dev/null 2>&1
check "tree-prune needs --tree-dot (exit 2)" 2 $?
# Rendered by Graphviz: an .svg name runs dot.
if command -v dot >/dev/null 2>&1; then
  gs games/hexapawn.game --tree-dot "$an_tmp/h.svg" --tree-prune >/dev/null 2>&1
  check "tree-dot: drawn to SVG by dot" "0 yes" \
    "$? $(grep -q '<svg' "$an_tmp/h.svg" && grep -q 'b1&#45;b2' "$an_tmp/h.svg" && echo yes || echo no)"
  dot -Tsvg "$an_tmp/h.dot" -o "$an_tmp/h2.svg" 2>"$an_tmp/err"
  check "tree-dot: dot reads the DOT file without complaint" "0 " "$? $(cat "$an_tmp/err")"
else
  echo "Graphviz (dot) is not installed: the SVG test cannot run (apt-get install graphviz;"
  echo "make test installs it when run as root)"
  check "Graphviz's dot is installed for the tree drawing test" yes no
fi

# --- --pv ----------------------------------------------------------------------
# The line of first optimal moves is as long as the game under best play,
# and the same whichever solver found the optimal moves.
for args in "games/nim.game --solver alphabeta" "games/tictactoe.game" "games/hexapawn.game" "games/connect4.game -D width=4 -D height=4"; do
  # shellcheck disable=SC2086
  out=$(gs $args --pv)
  n=$(field pv "$out" | tr ',' '\n' | wc -l)
  check "pv: as long as the game ($args)" "$(field plies "$out")" "$n"
  check "pv: a board after each move ($args)" "$n" "$(printf '%s\n' "$out" | grep -cE '^[0-9]+\. ')"
done
pv_ab=$(field pv "$(gs games/tictactoe.game --pv)")
check "pv: minimax gives the same line" "$pv_ab" "$(field pv "$(gs games/tictactoe.game --pv --solver minimax)")"
check "pv: retro gives the same line" "$pv_ab" "$(field pv "$(gs games/tictactoe.game --pv --solver retro)")"
check "pv: the start board first" "start:" "$(gs games/nim.game -D heaps=1,2 --pv | grep -m1 '^start:')"
check "pv: Nim 1,2" "take 2 1, take 1 1, take 2 1" "$(field pv "$(gs games/nim.game -D heaps=1,2 --pv)")"
check "pv --json: the line as an array" '"pv":["take 2 1","take 1 1","take 2 1"]' \
  "$(gs games/nim.game -D heaps=1,2 --pv --json | grep -o '"pv":\[[^]]*\]')"
check "pv --depth 3: three moves" "3" "$(field pv "$(gs games/connect4.game --depth 3 --pv)" | tr ',' '\n' | wc -l)"
check "pv: a terminal position has none" "-" \
  "$(field pv "$(gs games/nim.game -D heaps=1 --position 'take 1 1' --pv)")"
# A draw by endless play (retro, "plies: -"): the line stops where it
# comes back to a position of its own (it ran to 100,000 moves: QA,
# session 8).  From 6 the token goes 6-3-4 and ends; from 5, to 0 and
# round the cycle 0-1-2 (to 3 would lose).
check "pv: an endless draw stops at its first repeat" \
  "to 1, to 2, to 0, to 1, to 2, to 0 (back to the start: round again for ever)" \
  "$(field pv "$(gs games/token.game --solver retro --pv)")"
check "pv: an endless draw, repeating a later position" \
  "to 0, to 1, to 2, to 0, to 1, to 2, to 0 (back to the position after move 1: round again for ever)" \
  "$(field pv "$(gs games/token.game -D from=5 --solver retro --pv)")"
check "pv --json: pv_repeats_from" '"pv_repeats_from":1' \
  "$(gs games/token.game -D from=5 --solver retro --pv --json | grep -o '"pv_repeats_from":[^,}]*')"
check "pv --json: pv_repeats_from null when the line ends" '"pv_repeats_from":null' \
  "$(gs games/nim.game -D heaps=1,2 --pv --json | grep -o '"pv_repeats_from":[^,}]*')"

# --- --progress --------------------------------------------------------------------
# Forced off a terminal: one line per report, from the first on (every
# 65536 positions at most four times a second).
gs games/tictactoe.game --solver minimax --progress >/dev/null 2>"$an_tmp/err"
check "progress (minimax): positions, rate, time, share done" "1" \
  "$(head -n 1 "$an_tmp/err" | grep -cE '^searching: [0-9.]+k positions, [0-9.]+[kMG]?/s, [0-9.]+ [mu]?s; move [0-9]+ of 9, [0-9]+% done')"
gs games/hexapawn.game -D width=5 -D height=4 --tt-size 0 --progress >/dev/null 2>"$an_tmp/err"
check "progress (alphabeta): the root move searched" "1" \
  "$(head -n 1 "$an_tmp/err" | grep -cE '^searching: [0-9.]+k positions, .* [mu]?s; search [0-9]+, of [a-e]1-[a-e]2: [0-9]+% done')"
# Deepening (Go): the probe's goal and the horizon of its search.
gs games/go.game -D width=4 -D height=4 --position "b2 c3 c2 b3 b4 c1 a3 d2" --tt-size 16 --progress \
  >/dev/null 2>"$an_tmp/err"
check "progress (deepening): the goal and the horizon" "1" \
  "$(grep '^searching' "$an_tmp/err" | head -n 1 | grep -cE '; search [0-9]+, of [a-d][1-4]: [0-9]+% done \(score >= -?[0-9]+\? horizon [0-9]+\)$')"
gs games/tictactoe.game --solver minimax >/dev/null 2>"$an_tmp/err"
check "progress: none when stderr is not a terminal" "" "$(cat "$an_tmp/err")"

rm -rf "$an_tmp"
