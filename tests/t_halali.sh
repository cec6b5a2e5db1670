# Halali on 9x9 (games/halali.game, docs/halali.md): the rules counted by
# hand with --perft 1 in small positions, random playouts to the end, the
# information-set MCTS solver (an obvious capture; the same move for two
# lines of play that the mover sees as the same position; refused on a
# game with views), and a game in a terminal through tmux showing the
# board as the person sees it (face-down tiles as X) and the points.

hl_tmp=$(mktemp -d)
H=games/halali.game

# --- The rules, by hand --------------------------------------------------------
check "halali: 80 first moves (turn any face-down tile)" 80 "$(field "perft 1" "$(gs $H --perft 1)")"
# Each of the 80 turns is followed by chance showing one of the 12 kinds.
check "halali: 80 x 12 lines of two plies" 960 "$(field "perft 2" "$(gs $H --perft 2)")"
check "halali: the start is Blue's (the animals begin)" Blue "$(field "to move" "$(gs $H --perft 0)")"
# A fox on d5 (Blue), a pheasant on f5 turned by Brown, e5 empty between:
# 78 turns, d5-e5 and the capture d5-f5; the pheasant, just turned by the
# opponent, may not be moved by Blue.
out=$(gs $H --position "turn d5, Fox, turn f5, pheasant" --perft 1)
check "halali: a fox passes the empty centre and takes a pheasant; a bird the opponent turned is locked" \
  80 "$(field "perft 1" "$out")"
# Blue's own pheasant may move (to e5): 78 + 1.
check "halali: a bird turned by the mover moves" 79 \
  "$(field "perft 1" "$(gs $H --position "turn f5, pheasant, turn a1, oak" --perft 1)")"
# A hunter takes only in his rifle's direction: aiming east he takes the
# pheasant on f5 (77 turns, e5, f5), aiming west he only steps to e5.
check "halali: a hunter aiming east takes the pheasant east of him" 79 \
  "$(field "perft 1" "$(gs $H --position "turn d5, Ehunter, turn a1, oak, turn f5, pheasant" --perft 1)")"
check "halali: a hunter aiming west does not" 78 \
  "$(field "perft 1" "$(gs $H --position "turn d5, Whunter, turn a1, oak, turn f5, pheasant" --perft 1)")"
# The fox went d5-e5: it may not go straight back (77 turns, nothing else).
check "halali: no move straight back to the square of the previous turn" 77 \
  "$(field "perft 1" "$(gs $H --position "turn d5, Fox, turn a1, oak, d5 east 1, turn b1, oak" --perft 1)")"
out=$(gs $H --position "turn a1" --perft 1)
check "halali: chance shows one of the 12 kinds" 12 "$(field "perft 1" "$out")"

# The exits: after the last tile is up (a self-play game of 196 plies,
# tests/data/halali/final-phase.pos, Blue to move), Blue's pieces that can
# leave.  By hand from the board: the fox on a5 stands on the west exit;
# i5 and e9 are blocked by a conifer and a duck; the fox on e6 meets a
# hunter going north and a conifer going south; the beaver on g5 is not on
# an exit.  So one: a5 out.
out=$(gs $H --position "$(cat tests/data/halali/final-phase.pos)" --solver ismcts --iterations 1 --all-moves)
check "halali: the exits after the last tile (a5 out only)" "a5 out" \
  "$(printf '%s\n' "$out" | sed -n 's/^\([a-i][1-9] out\) .*/\1/p' | tr '\n' ' ' | sed 's/ $//')"
check "halali: the final phase has no face-down tile" "" \
  "$(printf '%s\n' "$out" | grep '^turn ')"

# --- Random playouts: every game ends, the points add up -----------------------
out=$(gs $H --playouts 20 --seed 1)
check "halali: 20 random playouts end" 20 "$(field playouts "$out")"
check "halali: the playouts report mean points per party" yes \
  "$(field payoffs "$out" | grep -qE '^Blue [0-9.]+, Brown [0-9.]+ \(mean\)$' && echo yes || echo no)"
check "halali: and the share of wins" yes \
  "$(field wins "$out" | grep -qE '^Blue [0-9]+ \([0-9.]+%\), Brown [0-9]+ \([0-9.]+%\)$' && echo yes || echo no)"
# Every tile is worth at most 278 points in all: no game scores more.
check "halali: no more points than the tiles are worth" yes \
  "$(field payoffs "$out" | awk '{ sub(/,/, "", $2); print ($2 + $4 <= 278) ? "yes" : "no" }')"

# --- Information-set MCTS ----------------------------------------------------
out=$(gs $H --position "turn d5, Fox, turn f5, pheasant" --solver ismcts --iterations 200 --seed 1)
check "ismcts: takes the pheasant (3 points) at once" "d5 east 2" "$(field best "$out")"
check "ismcts: the solver's name in the report" ismcts "$(field solver "$out")"
# The same position by two lines of play (the tiles turned in another
# order): what the mover sees is the same, so is the search, visit for
# visit, with the same seed.
a=$(gs $H --position "turn a1, oak, turn b1, conifer, turn d5, Fox, turn f5, pheasant" \
      --solver ismcts --all-moves --iterations 300 --seed 7 | grep -vE '^(position|seconds):')
b=$(gs $H --position "turn b1, conifer, turn a1, oak, turn d5, Fox, turn f5, pheasant" \
      --solver ismcts --all-moves --iterations 300 --seed 7 | grep -vE '^(position|seconds):')
check "ismcts: two lines to one view, the same search with the same seed" "$a" "$b"
c=$(gs $H --position "turn a1, oak, turn b1, conifer, turn d5, Fox, turn f5, pheasant" \
      --solver ismcts --all-moves --iterations 300 --seed 8 | grep -vE '^(position|seconds):')
[ "$a" != "$c" ] || check "ismcts: another seed, another search" different same
gs games/kuhn.game --solver ismcts >/dev/null 2>"$hl_tmp/err"
check "ismcts: refuses a game with views (exit 2)" "2 gsolve: error: the ismcts solver does not handle hidden information (views): use --solver cfr or lp" \
  "$? $(cat "$hl_tmp/err")"
check "ismcts: never chosen by auto" alphabeta "$(field solver "$(gs games/dice.game)")"
gs games/dice.game --solver ismcts >/dev/null 2>"$hl_tmp/err"
check "ismcts: no move to choose where chance is to move (exit 2)" \
  "2 gsolve: error: chance is to move: there is no move to choose" "$? $(cat "$hl_tmp/err")"
# Cross-checked with alpha-beta on tic-tac-toe: the one winning move, and
# after a1 b2 c3 (O to move) one of the four drawing edges, not a corner.
for pos in "a1 a2 b1 b2|500" "a1 b2 c3|3000"; do
  best=$(field best "$(gs games/tictactoe.game --position "${pos%|*}" --solver ismcts --iterations "${pos#*|}")")
  exact=$(field best "$(gs games/tictactoe.game --position "${pos%|*}")")
  check "ismcts: tic-tac-toe after ${pos%|*}, a move alpha-beta finds best ($exact)" yes \
    "$(printf '%s\n' "$exact" | tr -d ' ' | tr ',' '\n' | grep -qx "$best" && echo yes || echo "no: $best")"
done

# --- Play in a terminal, through tmux --------------------------------------------
if ! command -v tmux >/dev/null 2>&1; then
  check "tmux is installed for the terminal test of playing Halali" yes no
else
  tmux_sock="$hl_tmp/tmux.sock" tmux_session=hl   # tm, screen, wait_for: tests/lib.sh
  tm new-session -d -s hl -x 100 -y 200 \
    "LANG=C.UTF-8 $GSOLVE play $H --seed 4 --level 1 --ascii 2>$hl_tmp/tmux.err; echo \$? >$hl_tmp/tmux.rc" \; \
    set-option -t hl remain-on-exit on
  wait_for "Blue to move>" 1
  tm send-keys -t hl "turn e4" Enter
  wait_for "Brown plays" 1
  wait_for "Blue to move>" 2
  tm send-keys -t hl "hint" Enter
  wait_for "hint: "
  tm send-keys -t hl "quit" Enter
  n=0
  while [ ! -s "$hl_tmp/tmux.rc" ] && [ $n -lt 100 ]; do sleep 0.1; n=$((n + 1)); done
  scr=$(screen)
  check "play halali in tmux: exit status 0, nothing on stderr" "0" "$(cat "$hl_tmp/tmux.rc" "$hl_tmp/tmux.err" 2>&1)"
  check "play halali in tmux: the computer's search is named" yes \
    "$(printf '%s\n' "$scr" | grep -q 'level 1 (information-set MCTS, 50 iterations a move)' && echo yes || echo no)"
  check "play halali in tmux: the start, every tile face down but e5" "  5  X X X X . X X X X" \
    "$(printf '%s\n' "$scr" | grep -m1 '^  5 ')"
  check "play halali in tmux: the points are shown" "points: Blue 0, Brown 0" \
    "$(printf '%s\n' "$scr" | grep -m1 '^points:')"
  check "play halali in tmux: chance shows the tile turned" yes \
    "$(printf '%s\n' "$scr" | grep -qE '^chance: (Bear|Fox|beaver|[NESW]hunter|Lumberjack|pheasant|duck|oak|conifer)$' && echo yes || echo no)"
  # After Blue's turn of e4 the drawing shows a face-up tile on e4.
  check "play halali in tmux: the turned tile is face up on the board" yes \
    "$(printf '%s\n' "$scr" | grep '^  4 ' | tail -n 1 | awk '{ print ($6 != "X") ? "yes" : "no" }')"
  check "play halali in tmux: a hint" yes "$(printf '%s\n' "$scr" | grep -qE '^hint: .+ \(ismcts: chance to win [0-9.]+\)$' && echo yes || echo no)"
  tm kill-server 2>/dev/null
fi
rm -rf "$hl_tmp"
