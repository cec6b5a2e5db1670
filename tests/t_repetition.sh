# tests/t_repetition.sh -- repetition rules (`repetition forbidden|draw`):
# values derived by hand on games/token.game, the rule's effect on perft
# and --count, and the soundness of the tables under it: on random graphs,
# minimax (no table: the reference) against alphabeta and expectimax
# (tables keyed by the position AND the set of earlier positions).  With
# tables keyed by the position alone this comparison finds dozens of
# wrong values (checked when the test was written).
# Sourced by tests/run.sh (check, field, gs from tests/lib.sh).

rp_root() {
  printf '%s\n' "$1" | sed 's/.*\("value":.*"best":\[[^]]*\]\).*/\1/'
}
rp_norm() {
  printf '%s\n' "$1" | sed 's/"nodes":[^,]*,"seconds":[^,]*,"solver":"[^"]*",//'
}

# ---- By hand (games/token.game header) ------------------------------
for s in minimax alphabeta expectimax; do
  out=$(gs games/token.game -D repeat=forbidden --solver $s)
  check "token, repetition forbidden, $s: First wins in 7 by 'to 1'" "win 1 7 to 1" \
    "$(field value "$out") $(field score "$out") $(field plies "$out") $(field best "$out")"
  out=$(gs games/token.game -D repeat=drawn --solver $s)
  check "token, repetition draw, $s: a draw in 6" "draw 0 6 to 1" \
    "$(field value "$out") $(field score "$out") $(field plies "$out") $(field best "$out")"
done
# After 0-1-2-0-1, Second at 2 may not go back to 0 (that recreates the
# start with First to move): 'to 3' is forced, and loses.
out=$(gs games/token.game -D repeat=forbidden --position "to 1, to 2, to 0, to 1, to 2" --all-moves)
check "token forbidden: back to the start is illegal" "loss 2 to 3" "$(field value "$out") $(field plies "$out") $(field best "$out")"
check "token forbidden: one legal move" "to 3  loss      -1      2" "$(printf '%s\n' "$out" | sed -n '/^move /{n;p;}')"
out=$(gs games/token.game -D repeat=forbidden --position "to 1, to 2, to 0, to 1, to 2, to 0" 2>&1); st=$?
check "token forbidden: --position refuses the repetition" "2" "$st"
# Without a rule the game has cycles: minimax stops, retro finds draws.
out=$(gs games/token.game --solver minimax 2>&1); st=$?
check "token without a rule: minimax stops at the cycle (exit 5)" "5" "$st"
# perft: the repetition removes one of the two 6-ply lines, or ends it.
check "token perft 6, no rule" "2" "$(field 'perft 6' "$(gs games/token.game --perft 6)")"
check "token perft 6, forbidden" "1" "$(field 'perft 6' "$(gs games/token.game -D repeat=forbidden --perft 6)")"
out=$(gs games/token.game -D repeat=drawn --perft 7)
check "token perft 7, draw: the repeated line ends at 6" "1 2" "$(field 'perft 7' "$out") $(field games "$out")"
# --count counts positions, the rule off (Go's boards ignoring ko).
for r in allowed forbidden drawn; do
  check "token --count, repeat=$r" "10" "$(field positions "$(gs games/token.game -D repeat=$r --count)")"
done
out=$(gs games/token.game -D repeat=forbidden --solver retro 2>&1); st=$?
check "token forbidden: retro refuses (exit 2)" "2 gsolve: error: retrograde analysis needs rules that depend on the position alone; this game has a repetition rule (use --solver alphabeta)" "$st $out"

# ---- Tables under a repetition rule: random graphs -------------------
rp_cases=0
for seed in $(seq 1 40); do
  rp_nodes=$(( (seed % 5) + 4 ))
  rp_edges=$(awk -v s=$seed -v n=$rp_nodes 'BEGIN { srand(s); m = int(n * 1.8); out = "";
    for (i = 0; i < m; i++) { a = int(rand() * n); b = int(rand() * n); if (a == b) continue;
      out = out (out == "" ? "" : ",") a "," b } print out }')
  for rp_rep in forbidden drawn; do
    for rp_from in 0 1; do
      set -- games/token.game -D nodes=$rp_nodes -D edges=$rp_edges -D from=$rp_from -D repeat=$rp_rep
      rp_mm=$(gs "$@" --solver minimax --all-moves --json 2>&1)
      rp_ab=$(gs "$@" --solver alphabeta --all-moves --json 2>&1)
      rp_ab1=$(gs "$@" --solver alphabeta --json 2>&1)
      rp_em=$(gs "$@" --solver expectimax --json 2>&1)
      rp_d="token graph $rp_edges from $rp_from, $rp_rep"
      check "$rp_d: alphabeta --all-moves = minimax" "$(rp_norm "$rp_mm")" "$(rp_norm "$rp_ab")"
      check "$rp_d: alphabeta --solve = minimax" "$(rp_root "$rp_mm")" "$(rp_root "$rp_ab1")"
      check "$rp_d: expectimax = minimax" "$(rp_root "$rp_mm")" "$(rp_root "$rp_em")"
      rp_cases=$((rp_cases + 1))
    done
  done
done
check "repetition cross-check: cases" 160 "$rp_cases"
