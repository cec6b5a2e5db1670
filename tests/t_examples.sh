# tests/t_examples.sh -- the games of docs/examples/ against their
# published values (docs/examples/README.md gives each source), each
# cross-checked by a second solver.  Kayles (the tutorial's game) is
# checked by t_tutorial.sh, Pig by t_valueiter.sh and t_lang.sh.  The
# heavy cases run under GSOLVE_FULL (make test-full).  Sourced by
# tests/run.sh.

ex_fields() {   # ex_fields OUTPUT NAME...: the values, space-separated
  ex_out=$1; shift
  for ex_n in "$@"; do printf '%s ' "$(field "$ex_n" "$ex_out")"; done
}

# --- Othello 4x4 (nomoves pass): White, the second player, wins 11-3 ---
oth=docs/examples/othello.game
oth_ab=$(gs $oth)
check "othello 4x4: Black, to move, loses by 8 discs (alphabeta)" "loss -8 " \
  "$(ex_fields "$oth_ab" value score)"
check "othello 4x4: the same by retrograde analysis, 12 plies with the two passes" "-8 12 " \
  "$(ex_fields "$(gs $oth --solver retro)" score plies)"
check "othello 4x4: the final count is 3 discs to 11 (expectimax payoffs)" "Black 3, White 11" \
  "$(field payoffs "$(gs $oth --solver expectimax)")"
check "othello 4x4: the best line ends with both players passing" "2" \
  "$(gs $oth --pv | grep -cE '^[0-9]+\. (Black|White) pass:$')"

# --- Chomp: the first player wins every bar but 1x1 -----------------
chomp=docs/examples/chomp.game
check "chomp 1x1: the first player must bite the poison" "loss a1 " \
  "$(ex_fields "$(gs $chomp -D width=1 -D height=1)" value best)"
for ex_wh in "2 1" "1 5" "2 2" "3 2" "4 3" "5 4" "6 5" "7 6" "8 8"; do
  set -- $ex_wh
  check "chomp ${1}x$2: the first player wins" "win" \
    "$(field value "$(gs $chomp -D width=$1 -D height=$2)")"
done
for ex_wh in "4 3" "5 4" "6 3"; do
  set -- $ex_wh
  check "chomp ${1}x$2: retrograde analysis agrees with alphabeta" \
    "$(ex_fields "$(gs $chomp -D width=$1 -D height=$2)" value plies best)" \
    "$(ex_fields "$(gs $chomp -D width=$1 -D height=$2 --solver retro)" value plies best)"
done
# Known winning moves: on a square bar, b2 (leaving two equal arms); on a
# bar of height 2, the top-right square.
for ex_n in 3 4 5 6; do
  check "chomp ${ex_n}x$ex_n: the only winning move is b2" "b2" \
    "$(field best "$(gs $chomp -D width=$ex_n -D height=$ex_n)")"
done
check "chomp 5x2: the winning move is the top-right square" "e2" \
  "$(field best "$(gs $chomp -D width=5 -D height=2)")"

# --- Domineering: Vertical moves first -------------------------------
dom=docs/examples/domineering.game
check "domineering 2x2: the first player wins (Lachmann, Moore, Rapaport)" "win" \
  "$(field value "$(gs $dom -D width=2 -D height=2)")"
check "domineering, one row of 6: Vertical has no move and loses" "loss" \
  "$(field value "$(gs $dom -D width=6 -D height=1)")"
check "domineering, one column of 6: only Vertical moves, and wins" "win" \
  "$(field value "$(gs $dom -D width=1 -D height=6)")"
for ex_wh in "3 3 win" "4 4 win" "5 4 win" "4 5 loss" "5 5 loss"; do
  set -- $ex_wh
  check "domineering ${1}x$2 (width x height): Vertical, first, has a $3" "$3" \
    "$(field value "$(gs $dom -D width=$1 -D height=$2)")"
done
for ex_wh in "4 4" "5 4"; do
  set -- $ex_wh
  check "domineering ${1}x$2: retrograde analysis agrees with alphabeta" \
    "$(ex_fields "$(gs $dom -D width=$1 -D height=$2)" value plies)" \
    "$(ex_fields "$(gs $dom -D width=$1 -D height=$2 --solver retro)" value plies)"
done

# --- Three Men's Morris (Dudeney, puzzle 109) --------------------------
morris=docs/examples/morris3.game
ex_m=$(gs $morris --all-moves)
check "three men's morris: the first player wins (Dudeney)" "win" "$(field value "$ex_m")"
check "three men's morris: only by the centre (Dudeney)" "b2" "$(field best "$ex_m")"
check "three men's morris: --solver auto takes retro (positions repeat)" "retro" "$(field solver "$ex_m")"
check "three men's morris: value iteration agrees (the mover's margin 1)" "1" \
  "$(field score "$(gs $morris --solver value-iteration)")"
check "three men's morris, centre barred: a draw (Dudeney)" "draw" \
  "$(field value "$(gs $morris -D barred=true)")"
# With a repetition rule (a repeated position is a draw), alpha-beta
# solves positions of the moving phase; the values agree with retro's.
for ex_pos in "b2 a2 c1 a3 a1 b1" "b1 b2 a2 c3 c2 a1"; do
  check "three men's morris after '$ex_pos': repetition drawn (alphabeta) as endless (retro)" \
    "$(ex_fields "$(gs $morris --position "$ex_pos")" value plies)" \
    "$(ex_fields "$(gs $morris -D repeat=drawn --position "$ex_pos")" value plies)"
done
# Alpha-beta under a repetition rule says why it is slow, and names retro.
check "three men's morris, repetition drawn: --stats explains alpha-beta's slowness" "1" \
  "$(gs $morris -D repeat=drawn --position "b2 a2 c1 a3 a1 b1" --stats 2>&1 |
     grep -c 'note: alpha-beta under a repetition rule.*--solver retro')"

if [ -n "$GSOLVE_FULL" ]; then
  check "three men's morris after 'a1 b2 c3 a3 c1 b1': repetition drawn (alphabeta) as endless (retro)" \
    "draw" "$(field value "$(gs $morris -D repeat=drawn --position "a1 b2 c3 a3 c1 b1")")"
  check "three men's morris after 'a1 b2 c3 a3 c1 b1': retro" \
    "draw" "$(field value "$(gs $morris --position "a1 b2 c3 a3 c1 b1")")"
  check "chomp 10x9: the first player wins" "win" \
    "$(field value "$(gs $chomp -D width=10 -D height=9)")"
fi
