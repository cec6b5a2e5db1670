#!/bin/sh
# tests/bench_games.sh -- make bench: the RBG suite's games (issue 38,
# docs/games.md).  For each game, perft at a depth that takes RBG's
# compiled reasoner a few seconds: gsolve's compiled tier and VM in CPU
# time (best of 3, the two alternating), beside RBG's median CPU time on
# the same perft, measured on a machine of this kind (RBG is not built
# here: docs/games.md says how it was measured); and the strength check:
# play's computer at a level against random play, 50 games, seats
# alternating (goal: at least 90% of the points).
# Figures, not tests: nothing here fails on time; a perft count that
# differs from RBG's, or a strength under 90%, is reported as FAIL.
cd "$(dirname "$0")/.." || exit 1
GSOLVE=${GSOLVE:-./gsolve}
BUILD=${BUILD:-build}

field() { printf '%s\n' "$2" | sed -n "s|^$1: ||p" | head -n 1; }
run_times() { $GSOLVE "$@" >/dev/null && times; }
cpu() {
  run_times "$@" | awk 'NR == 2 { split($1, u, /[ms]/); split($2, s, /[ms]/)
    printf "%.3f", u[1] * 60 + u[2] + s[1] * 60 + s[2] }'
}
least() { awk -v a="$1" -v b="$2" 'BEGIN { print (b != "" && (a == "" || b + 0 < a + 0)) ? b : a }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a > 0) printf "%.2fx", b / a; else print "-" }'; }

# The games: FILE-AND-PARAMETERS | DEPTH | RBG's count | RBG's median CPU
# seconds (rbg2cpp at the commits of docs/games.md, its own flags).
GAMES_TABLE=${GAMES_TABLE:-tests/data/rbg/bench.txt}

echo "== The RBG suite's games: perft, gsolve's compiled tier and VM against RBG's compiled reasoner"
echo "   (CPU seconds, best of 3 rounds, the engines alternating; RBG: median of 3 on a machine of"
echo "    this kind, $GAMES_TABLE; x RBG = RBG's time / gsolve's, above 1: gsolve faster)"
printf '%-34s %5s %14s %9s %9s %9s %9s %9s\n' game depth perft compiled vm RBG "cmp/RBG" "vm/RBG"
[ -f "$GAMES_TABLE" ] || { echo "error: no $GAMES_TABLE" >&2; exit 1; }
grep -v "^#" "$GAMES_TABLE" | while IFS="|" read -r args depth rbg_count rbg_s rbg_src; do
  [ -n "$args" ] || continue
  $GSOLVE $args --engine compiled --perft 1 >/dev/null 2>&1 || { echo "FAIL: $args does not build"; continue; }
  count=$($GSOLVE $args --engine compiled --perft $depth | sed -n 's/^perft [0-9]*: //p')
  c=""; v=""
  for run in 1 2 3; do
    c=$(least "$c" "$(cpu $args --engine compiled --perft $depth)")
    v=$(least "$v" "$(cpu $args --engine vm --perft $depth)")
  done
  [ "$count" = "$(echo $rbg_count)" ] || echo "FAIL: $args perft $depth: $count, RBG $rbg_count"
  printf '%-34s %5s %14s %9s %9s %9s %9s %9s\n' "$args" "$depth" "$count" "$c" "$v" "$(echo $rbg_s)" \
    "$(ratio "$c" "$rbg_s")" "$(ratio "$v" "$rbg_s")"
done

echo
echo "== Strength: play's computer (alpha-beta at a level, the game's eval) against random play"
echo "   ($BUILD/match FILE alphabeta random 50 LEVEL 1: 50 games, seats alternating, the VM)"
# Level 1 and a smaller board where a level-2 search of every move is
# minutes a game (amazons' 2,176 moves a position); connect6 on 9x9 with
# each stone a move (connect6_split.rbg's rules): at a search's horizon
# every position's moves are generated (to find a position without any),
# and a turn of two stones has 6,320 of them on 9x9 (129,240 on 19x19).
# Tic-tac-toe at level 9, perfect play: a level-2 search cannot see a
# fork coming, and draws 13 of 50.  Every game but gomoku, connect6,
# pentago and yavalath has an eval (docs/games.md, "Strength").  About
# 30 s of CPU in all (2026-12-06; 6 minutes on the shared machine at
# load 15).
for spec in "games/chess.game 2" "games/breakthrough.game 2" "games/knightthrough.game 2" \
            "games/foxandhounds.game 2" "games/reversi.game 2" "games/hex.game -D size=9 1" \
            "games/amazons.game -D size=6 1" "games/gomoku.game 1" \
            "games/connect6.game -D size=9 -D split=true 2" \
            "games/morris.game 2" "games/pentago.game 1" "games/yavalath.game 2" \
            "games/draughts.game 2" "games/draughts.game -D variant=international 2" \
            "games/papersoccer.game 1" "games/connect4.game 2" "games/tictactoe.game 9"; do
  set -- $spec
  file=$1; shift
  [ -f "$file" ] || continue
  level=$(eval echo \${$#})
  params=$(echo "$@" | sed 's/ *[0-9]*$//')
  out=$("$BUILD/match" "$file" alphabeta random 50 "$level" 1 $params 2>&1)
  score=$(printf '%s\n' "$out" | sed -n 's/.*score \([0-9.]*\)%.*/\1/p')
  verdict=$(awk -v s="$score" 'BEGIN { print (s != "" && s + 0 >= 90) ? "ok" : "FAIL" }')
  printf '%-32s %s  %s\n' "$file $params" "$verdict" "$out"
done
