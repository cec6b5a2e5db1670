#!/bin/sh
# tests/bench.sh -- make bench: VM perft throughput and solver node counts.
# Figures, not tests: nothing here fails on time.  Node counts are
# deterministic, so a commit can quote them as a signature.
cd "$(dirname "$0")/.." || exit 1
GSOLVE=${GSOLVE:-./gsolve}

field() { printf '%s\n' "$2" | sed -n "s/^$1: //p" | head -n 1; }

# rate NODES SECONDS -> nodes per second
rate() { awk -v n="$1" -v s="$2" 'BEGIN { if (s > 0) printf "%.0f", n / s; else print "-" }'; }

echo "== Perft throughput: the VM, and the native engines where the game has one"
printf '%-34s %12s %12s %8s %12s\n' "position" "perft" "nodes" "seconds" "nodes/s"
perft() {
  desc=$1; shift
  out=$($GSOLVE "$@")
  n=$(field nodes "$out"); s=$(field seconds "$out")
  printf '%-34s %12s %12s %8s %12s\n' "$desc" "$(printf '%s\n' "$out" | sed -n 's/^perft [0-9]*: //p')" "$n" "$s" "$(rate "$n" "$s")"
}
perft "connect4 7x6 depth 8 (vm)" games/connect4.game --engine vm --perft 8
perft "connect4 7x6 depth 8 (native)" games/connect4.game --engine native --perft 8
perft "tictactoe whole tree (perft 10, vm)" games/tictactoe.game --perft 10
perft "hexapawn 4x4 depth 8 (vm)" games/hexapawn.game -D width=4 -D height=4 --perft 8
perft "nim 1,3,5,7 depth 6 (vm)" games/nim.game --engine vm --perft 6
perft "nim 1,3,5,7 depth 6 (native)" games/nim.game --engine native --perft 6

echo
echo "== Solvers: node counts (deterministic) and time"
printf '%-34s %-10s %-6s %6s %12s %8s %12s\n' "game" "solver" "value" "plies" "nodes" "seconds" "nodes/s"
solve() {
  desc=$1; solver=$2; shift 2
  out=$($GSOLVE "$@" --solver "$solver")
  n=$(field nodes "$out"); s=$(field seconds "$out")
  printf '%-34s %-10s %-6s %6s %12s %8s %12s\n' "$desc" "$solver" "$(field value "$out")" \
    "$(field plies "$out")" "$n" "$s" "$(rate "$n" "$s")"
}
for solver in minimax alphabeta; do
  solve "tictactoe 3x3" $solver games/tictactoe.game
  solve "hexapawn 3x3" $solver games/hexapawn.game
  solve "hexapawn 4x4" $solver games/hexapawn.game -D width=4 -D height=4
  solve "nim 1,3,5 (vm)" $solver games/nim.game -D heaps=1,3,5 --engine vm
  solve "matchsticks n=21 k=3 (vm)" $solver games/matchsticks.game --engine vm
done
solve "nim 1,3,5,7 (vm)" alphabeta games/nim.game --engine vm
solve "nim 1,3,5,7 (native)" alphabeta games/nim.game --engine native
solve "connect4 4x4 (vm)" alphabeta games/connect4.game -D width=4 -D height=4 --engine vm
solve "connect4 5x4 (vm)" alphabeta games/connect4.game -D width=5 -D height=4 --engine vm
solve "connect4 5x4 (native engine)" alphabeta games/connect4.game -D width=5 -D height=4 --engine native
solve "connect4 5x4 (native solver)" native games/connect4.game -D width=5 -D height=4
solve "connect4 6x5 (native solver)" native games/connect4.game -D width=6 -D height=5
solve "tictactoe 3x3 (vm)" retro games/tictactoe.game --quiet
solve "connect4 4x4 (vm)" retro games/connect4.game -D width=4 -D height=4 --engine vm --quiet
solve "tictactoe 4x4 k=3" alphabeta games/tictactoe.game -D m=4 -D n=4 -D k=3
