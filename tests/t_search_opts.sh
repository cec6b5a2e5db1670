# tests/t_search_opts.sh -- depth-limited search (--depth N, the game's
# eval at the horizon) and the solver statistics (--stats), as docs/cli.md
# shows them.  Sourced by tests/run.sh (check, field, gs from tests/lib.sh).

# ---- --depth ---------------------------------------------------------
out=$(gs games/connect4.game --depth 8)
check "connect4 --depth 8: not proven" "- -13 - 4" \
  "$(field value "$out") $(field score "$out") $(field plies "$out") $(field best "$out")"
check "connect4 --depth 8: depth line" "8" "$(field depth "$out")"
check "connect4 --depth 8: nodes (all depths)" "16850" "$(field nodes "$out")"
# A depth that meets no position at its horizon has solved the position:
# --depth 10000 stops there with the exact value (it searched every depth
# to 10000: Nim 22.6 M nodes, 4.5 s; QA, session 8).
out=$(gs games/nim.game --depth 10000 --stats 2>&1)
check "nim --depth 10000: the exact value, as a full solve" \
  "$(field value "$(gs games/nim.game --solver alphabeta)") $(field plies "$(gs games/nim.game --solver alphabeta)")" \
  "$(field value "$out") $(field plies "$out")"
check "nim --depth 10000: stops after 16 depths (its 16 plies)" "depths 16" "$(printf '%s\n' "$out" | grep -o 'depths [0-9]*')"
out=$(gs games/tictactoe.game --depth 10000 --stats 2>&1)
check "tictactoe --depth 10000: a draw in 9, the same nodes as --depth 9" \
  "draw 9 $(field nodes "$(gs games/tictactoe.game --depth 9)")" \
  "$(field value "$out") $(field plies "$out") $(field nodes "$out")"
# A forced win within the horizon is proven; the rest are eval values.
out=$(gs games/tictactoe.game --position "a1 b1 a2 b2" --depth 2 --all-moves --json)
check "tictactoe --depth 2: proven win, a3" '"value":"win","score":1,"plies":1,"best":["a3"]' \
  "$(printf '%s\n' "$out" | sed 's/.*\("value":.*"best":\[[^]]*\]\).*/\1/')"
check "tictactoe --depth 2: moves, b3 not proven" \
  '[{"move":"c1","value":"loss","score":-1,"plies":2,"probability":null},{"move":"c2","value":"loss","score":-1,"plies":2,"probability":null},{"move":"a3","value":"win","score":1,"plies":1,"probability":null},{"move":"b3","value":null,"score":0,"plies":null,"probability":null},{"move":"c3","value":"loss","score":-1,"plies":2,"probability":null}]' \
  "$(printf '%s\n' "$out" | sed 's/.*"moves"://; s/}$//')"
check "tictactoe --depth 2: JSON depth" '"depth":2' "$(printf '%s\n' "$out" | grep -o '"depth":[0-9]*')"
# The eval of matchsticks (a multiple of k+1 is lost for the mover) makes
# depth 1 find the winning move, on the native engine and on the VM.
for e in native vm; do
  out=$(gs games/matchsticks.game --depth 1 --engine $e --all-moves)
  check "matchsticks --depth 1 ($e): take 1 by eval" "- 1 take 1" \
    "$(field value "$out") $(field score "$out") $(field best "$out")"
  check "matchsticks --depth 1 ($e): the other moves" "2" \
    "$(printf '%s\n' "$out" | grep -c '^take [23]  -         -1      -$')"
done
# Deep enough, depth-limited search proves the exact value.
out=$(gs games/nim.game -D heaps=1,2 --depth 10)
check "nim 1,2 --depth 10: proven" "win 1 3 take 2 1" \
  "$(field value "$out") $(field score "$out") $(field plies "$out") $(field best "$out")"
out=$(gs games/nim.game --depth 3 --solver minimax 2>&1); st=$?
check "--depth with minimax: usage error" "2 gsolve: error: --depth is a search of the alphabeta solver (with --solve or --all-moves) or the depth of --tree-dot" "$st $out"
out=$(gs games/nim.game --depth 0 2>&1); st=$?
check "--depth 0: usage error" "2 gsolve: error: --depth needs a number of plies from 1 to 10000, not '0'" "$st $out"
out=$(gs games/nim.game --solver minimax --no-deepening 2>&1); st=$?
check "--no-deepening with minimax: usage error" "2 gsolve: error: --no-deepening is a mode of the alphabeta solver" "$st $out"
# A game without a bound: --no-deepening changes nothing.
check "nim --no-deepening: the same search" "$(field nodes "$(gs games/nim.game --solver alphabeta)")" \
  "$(field nodes "$(gs games/nim.game --solver alphabeta --no-deepening)")"

# ---- --stats -----------------------------------------------------------
so_err=$(gs games/connect4.game -D width=5 -D height=4 --solver alphabeta --engine vm --stats --no-symmetry 2>&1 >/dev/null)
check "alphabeta --stats: nodes and rate" "stats: nodes 226290 (" "$(printf '%s\n' "$so_err" | sed -n '1s/\(stats: nodes [0-9]* (\).*/\1/p')"
check "alphabeta --stats: table line" \
  "stats: table probes 556629, hits 79525 (14.3%), cutoffs 24165 (4.3%), child cutoffs 20339, stores 184659, replaced 854" \
  "$(printf '%s\n' "$so_err" | sed -n 2p)"
check "alphabeta --stats: fill" "stats: table entries 181506 of 2097152 (8.7% full)" "$(printf '%s\n' "$so_err" | sed -n 3p)"
# The same with its mirror along symmetric lines (the empty board's
# moves, and lines that stay symmetric): fewer nodes, the same value, the
# moves left out counted after the table's lines.
so_o=$(gs games/connect4.game -D width=5 -D height=4 --solver alphabeta --engine vm --stats 2>&1)
check "alphabeta --stats: symmetric lines, the same value in fewer nodes" "yes $(field value "$(gs games/connect4.game -D width=5 -D height=4 --solver alphabeta --no-symmetry)") yes" \
  "$([ "$(field nodes "$so_o")" -lt 226290 ] && echo yes || echo no) $(field value "$so_o") $(printf '%s\n' "$so_o" | grep -q '^stats: symmetry skips [1-9]' && echo yes || echo no)"
so_err=$(gs games/tictactoe.game --tt-size 0 --stats 2>&1 >/dev/null)
check "alphabeta --stats --tt-size 0" "stats: no table (--tt-size 0)" "$(printf '%s\n' "$so_err" | sed -n 2p)"
so_err=$(gs games/tictactoe.game --solver retro --stats 2>&1 >/dev/null)
check "retro --stats: counts and symmetry" "stats: positions 5478, stored 765 (symmetry factor 7.16), moves 2270" \
  "$(printf '%s\n' "$so_err" | sed -n 1p)"
# "in all" counts the buffers of one position's moves (GAME_MAX_MOVES,
# 131,072 since connect6: 1.6 MiB of the 1.7).
check "retro --stats: memory per position" "stats: 39 bytes per stored position plus 16 per move; 1.7 MiB in all" \
  "$(printf '%s\n' "$so_err" | sed -n 2p)"
check "retro --stats: phases" "1" "$(printf '%s\n' "$so_err" | grep -c '^stats: enumeration [0-9.]* s ([0-9]* positions/s), labelling [0-9.]* s ([0-9]* positions/s)$')"
so_err=$(gs games/dice.game --solver expectimax --stats 2>&1 >/dev/null)
check "expectimax --stats: nodes and memo" "stats: nodes 211 memo hits 41, memo entries 97" \
  "$(printf '%s\n' "$so_err" | sed 's/ ([0-9]* nodes\/s),//' | head -n 1)"
# --stats goes to stderr only: stdout is the same report.
check "--stats leaves stdout alone" "$(gs games/nim.game -D heaps=1,2 | grep -v '^seconds')" \
  "$(gs games/nim.game -D heaps=1,2 --stats 2>/dev/null | grep -v '^seconds')"
