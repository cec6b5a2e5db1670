# tests/t_published.sh -- published values of the bundled games, each with
# its source.  Sourced by tests/run.sh (check, field, gs from tests/lib.sh).
# Heavy checks run only with GSOLVE_FULL set.

# The "NAME: value" line of a run, without the extra processes of field().
pub_get() {   # pub_get NAME OUTPUT
  printf '%s\n' "$2" | sed -n "s/^$1: //p"
}

# gsolve, with its notes (e.g. the fallback from a native engine to the
# VM) and errors in the output, where the fields are looked for.
pub_gs() {
  gs "$@" 2>&1
}

# ---------------------------------------------------------------------
# Nim (games/nim.game)
# ---------------------------------------------------------------------

# C. L. Bouton, "Nim, a game with a complete mathematical theory", Annals
# of Mathematics 3 (1901): the player to move loses exactly when the heap
# sizes XOR to 0.  1^3^5^7 = 0, so 1,3,5,7 is a loss; the loser prolongs
# the game by taking one match at a time, and the winner answers with one
# match, so all 16 matches go one by one: 16 plies (the source material).
# Every check on Nim runs with both engines: the VM running the rules
# and the native C engine (--engine auto picks it for nim.game).
# (The native engine's own solver, the default there, answers by the
# nim-sum rule without distances: alphabeta searches for the 16 plies.)
for pub_engine in auto vm; do
  out=$(pub_gs games/nim.game --engine $pub_engine --solver alphabeta)
  check "nim 1,3,5,7 ($pub_engine): value" loss "$(pub_get value "$out")"
  check "nim 1,3,5,7 ($pub_engine): score" -1 "$(pub_get score "$out")"
  check "nim 1,3,5,7 ($pub_engine): plies" 16 "$(pub_get plies "$out")"
done
out=$(pub_gs games/nim.game)
check "nim 1,3,5,7 (the nim-sum rule, by default): value" "loss -1 native-nim" \
  "$(pub_get value "$out") $(pub_get score "$out") $(pub_get solver "$out")"
# (Minimax needs minutes on 1,3,5,7: t_crosscheck.sh compares the
# solvers on smaller heaps.)

# All 384 sub-positions 0..1, 0..3, 0..5, 0..7 of 1,3,5,7 as starts.
# Normal play (Bouton): loss iff a^b^c^d == 0.
# Misere play (Berlekamp, Conway, Guy, "Winning Ways", ch. 13; the rule
# goes back to Bouton 1901): the player to move loses iff either
# every heap is <= 1 and the number of heaps of size 1 is odd, or some
# heap is > 1 and the XOR is 0.  With every heap empty, the player to move
# cannot move: he has lost (normal) or won (misere), in 0 plies.
# The native engine (auto) does all 384, the VM about an eighth of them
# (t_native.sh compares the engines on every heap set).
for pub_engine in auto vm; do
  pub_a=0
  while [ $pub_a -le 1 ]; do
    pub_b=0
    while [ $pub_b -le 3 ]; do
      pub_c=0
      while [ $pub_c -le 5 ]; do
        pub_d=0
        while [ $pub_d -le 7 ]; do
          # The VM: those whose heap sizes add up to a multiple of 8 (all of
          # them with GSOLVE_FULL).
          if [ $pub_engine = vm ] && [ -z "$GSOLVE_FULL" ] \
             && [ $(( (pub_a + pub_b + pub_c + pub_d) % 8 )) -ne 0 ]; then
            pub_d=$((pub_d + 1))
            continue
          fi
          pub_x=$((pub_a ^ pub_b ^ pub_c ^ pub_d))
          if [ $pub_x -eq 0 ]; then pub_want=loss; else pub_want=win; fi
          out=$(pub_gs games/nim.game --engine $pub_engine -D heaps=$pub_a,$pub_b,$pub_c,$pub_d)
          check "nim $pub_a,$pub_b,$pub_c,$pub_d ($pub_engine): value (xor $pub_x)" $pub_want "$(pub_get value "$out")"
          pub_big=0
          for pub_h in $pub_a $pub_b $pub_c $pub_d; do [ $pub_h -gt 1 ] && pub_big=1; done
          pub_ones=$(( (pub_a == 1) + (pub_b == 1) + (pub_c == 1) + (pub_d == 1) ))
          if [ $pub_big -eq 0 ]; then
            if [ $((pub_ones % 2)) -eq 1 ]; then pub_want=loss; else pub_want=win; fi
          else
            if [ $pub_x -eq 0 ]; then pub_want=loss; else pub_want=win; fi
          fi
          out=$(pub_gs games/nim.game --engine $pub_engine -D heaps=$pub_a,$pub_b,$pub_c,$pub_d -D misere=true)
          check "misere nim $pub_a,$pub_b,$pub_c,$pub_d ($pub_engine): value" $pub_want "$(pub_get value "$out")"
          pub_d=$((pub_d + 1))
        done
        pub_c=$((pub_c + 1))
      done
      pub_b=$((pub_b + 1))
    done
    pub_a=$((pub_a + 1))
  done
done

# The empty position in full: terminal, 0 plies, no best move.
out=$(pub_gs games/nim.game -D heaps=0,0,0,0)
check "nim 0,0,0,0: loss in 0 plies" "loss -1 0 -" \
  "$(pub_get value "$out") $(pub_get score "$out") $(pub_get plies "$out") $(pub_get best "$out")"
out=$(pub_gs games/nim.game -D heaps=0,0,0,0 -D misere=true)
check "misere nim 0,0,0,0: win in 0 plies" "win 1 0 -" \
  "$(pub_get value "$out") $(pub_get score "$out") $(pub_get plies "$out") $(pub_get best "$out")"

# Misere by hand: from a heap of 1 the mover must take the last match
# and loses (1 ply); from a heap of 2 he takes 1, the opponent must take
# the last one: a win in 2 plies; 1,1,1 is lost in 3 plies.
out=$(pub_gs games/nim.game -D heaps=1 -D misere=true --solver alphabeta)
check "misere nim 1: loss in 1 ply" "loss 1" "$(pub_get value "$out") $(pub_get plies "$out")"
out=$(pub_gs games/nim.game -D heaps=2 -D misere=true --solver alphabeta)
check "misere nim 2: win in 2 plies, by taking 1" "win 2 take 1 1" \
  "$(pub_get value "$out") $(pub_get plies "$out") $(pub_get best "$out")"
out=$(pub_gs games/nim.game -D heaps=1,1,1 -D misere=true --solver alphabeta)
check "misere nim 1,1,1: loss in 3 plies" "loss 3" "$(pub_get value "$out") $(pub_get plies "$out")"

# ---------------------------------------------------------------------
# Matchsticks (games/matchsticks.game): the subtraction game S = {1..k}
# ---------------------------------------------------------------------

# Winning Ways ch. 4 (subtraction games), and the source material: the
# mover loses exactly when n is a multiple of k + 1.  Under optimal play
# the loser takes 1 each turn and the winner answers k + 1 - 1 = k, so a
# lost position lasts 2n/(k+1) plies, a won one 1 + 2*floor(n/(k+1)).
for pub_k in 3 1 2 5; do
  if [ $pub_k -eq 3 ]; then pub_top=40; else pub_top=20; fi
  pub_n=0
  while [ $pub_n -le $pub_top ]; do
    if [ $((pub_n % (pub_k + 1))) -eq 0 ]; then
      pub_want="loss $((2 * pub_n / (pub_k + 1)))"
    else
      pub_want="win $((1 + 2 * (pub_n / (pub_k + 1))))"
    fi
    out=$(pub_gs games/matchsticks.game -D n=$pub_n -D k=$pub_k)
    check "matchsticks n=$pub_n k=$pub_k: value, plies" "$pub_want" \
      "$(pub_get value "$out") $(pub_get plies "$out")"
    pub_n=$((pub_n + 1))
  done
done
# The default (21 sticks, take 1..3): 21 = 5*4 + 1, the winner takes 1.
out=$(pub_gs games/matchsticks.game)
check "matchsticks 21: win by taking 1" "win take 1" "$(pub_get value "$out") $(pub_get best "$out")"

# ---------------------------------------------------------------------
# Tic-tac-toe (games/tictactoe.game)
# ---------------------------------------------------------------------

# A draw with perfect play, the board full after 9 plies (folklore; e.g.
# Schaefer, "Tic-Tac-Toe" (2002); Wikipedia, "Tic-tac-toe"): every first
# move keeps the draw.
out=$(pub_gs games/tictactoe.game)
check "tictactoe: value" draw "$(pub_get value "$out")"
check "tictactoe: plies" 9 "$(pub_get plies "$out")"
check "tictactoe: every first move draws" "a1, b1, c1, a2, b2, c2, a3, b3, c3" "$(pub_get best "$out")"

# 5,478 legal positions reachable from the empty board, 958 of them
# final (Schaefer, "Tic-Tac-Toe" (2002); Wikipedia "Game complexity"),
# 765 up to the 8 symmetries of the board (the sum of OEIS A008907,
# positions after n plays up to rotation and reflection: 1 + 3 + 12 + 38
# + 108 + 174 + 204 + 153 + 57 + 15).
out=$(pub_gs games/tictactoe.game --count)
check "tictactoe --count: positions" 5478 "$(pub_get positions "$out")"
check "tictactoe --count: terminal" 958 "$(pub_get terminal "$out")"
check "tictactoe --count: canonical (8 symmetries)" 765 "$(pub_get canonical "$out")"

# Perft, the number of move sequences of N plies: 9, 72, 504, 3024,
# 15120, 54720, 148176, 200448, 127872 (9!/(9-N)! until the first wins at
# ply 5; Schaefer 2002, games by length).
pub_perft=""
for pub_n in 1 2 3 4 5 6 7 8 9; do
  out=$(pub_gs games/tictactoe.game --perft $pub_n)
  pub_perft="$pub_perft $(pub_get "perft $pub_n" "$out")"
done
check "tictactoe perft 1..9" " 9 72 504 3024 15120 54720 148176 200448 127872" "$pub_perft"

# 255,168 complete games (OEIS A061526, complete games of n X n
# tic-tac-toe: 1, 24, 255168, ...; Schaefer 2002; Wikipedia "Tic-tac-toe"):
# 1440 end at ply 5, 5328 at 6, 47952 at 7, 72576 at 8 and 127872 at 9.
# The games that end at ply N are the N-ply sequences that cannot go on:
# perft(N) - perft(N+1)/(9-N), since a game still on at ply N has 9-N moves.
set -- $pub_perft
pub_p5=$5 pub_p6=$6 pub_p7=$7 pub_p8=$8 pub_p9=$9
pub_e5=$((pub_p5 - pub_p6 / 4))
pub_e6=$((pub_p6 - pub_p7 / 3))
pub_e7=$((pub_p7 - pub_p8 / 2))
pub_e8=$((pub_p8 - pub_p9 / 1))
check "tictactoe: games ending at plies 5..9" "1440 5328 47952 72576 127872" \
  "$pub_e5 $pub_e6 $pub_e7 $pub_e8 $pub_p9"
check "tictactoe: complete games from perft" 255168 \
  "$((pub_e5 + pub_e6 + pub_e7 + pub_e8 + pub_p9))"
# gsolve's own figure: 'games' counts the sequences that ended before the
# depth, so past the longest game (depth 10) it is every complete game.
out=$(pub_gs games/tictactoe.game --perft 10)
check "tictactoe perft 10: games (complete games)" "0 255168" \
  "$(pub_get "perft 10" "$out") $(pub_get games "$out")"
# OEIS A061526 for n = 1 and 2 (k = n in a row): 1 and 24 complete games.
out=$(pub_gs games/tictactoe.game -D m=1 -D n=1 -D k=1 --perft 2)
check "tictactoe 1x1: 1 complete game" 1 "$(pub_get games "$out")"
out=$(pub_gs games/tictactoe.game -D m=2 -D n=2 -D k=2 --perft 5)
check "tictactoe 2x2 k=2: 24 complete games" 24 "$(pub_get games "$out")"
out=$(pub_gs games/tictactoe.game --perft 9)
check "tictactoe perft 9: games ended before ply 9 + perft 9 = 255168" 255168 \
  "$(( $(pub_get games "$out") + $(pub_get "perft 9" "$out") ))"
# The game tree has 549,946 nodes (the root and every position entered
# along every line: 1 + 9 + 72 + 504 + 3024 + 15120 + 54720 + 148176 +
# 200448 + 127872); minimax, which visits every line, enters each once,
# and so does perft 9.
check "tictactoe: perft 9 nodes = game tree size" 549946 "$(pub_get nodes "$out")"
out=$(pub_gs games/tictactoe.game --solver minimax)
check "tictactoe minimax: nodes = game tree size" 549946 "$(pub_get nodes "$out")"
check "tictactoe minimax: draw in 9" "draw 9" "$(pub_get value "$out") $(pub_get plies "$out")"

# ---------------------------------------------------------------------
# Hexapawn (games/hexapawn.game)
# ---------------------------------------------------------------------

# Martin Gardner, "Mathematical Games", Scientific American, March 1962:
# on 3x3 the second player (Black) wins.  The source material: the full
# game tree of 3x3 has 252 nodes, which minimax (no pruning) visits.
out=$(pub_gs games/hexapawn.game --solver minimax)
check "hexapawn 3x3: White to move loses" "White loss -1" \
  "$(pub_get 'to move' "$out") $(pub_get value "$out") $(pub_get score "$out")"
check "hexapawn 3x3 minimax: 252 nodes" 252 "$(pub_get nodes "$out")"
out=$(pub_gs games/hexapawn.game)
check "hexapawn 3x3 alphabeta: loss" loss "$(pub_get value "$out")"
# These figures were checked with an independent enumerator (a short
# Python program written from the rules in Gardner's article, not from
# gsolve's code): 3x3 has 135 distinct positions (board, side to move,
# winner), 65 terminal; perft by ply 3, 10, 28, 56, 70, 64, 20, 0, whose
# sum with the root is the 252-node tree.  4x3 (width 4): first player
# wins, 1128 positions, 642 terminal, a 6003-node tree; 3x4 (height 4):
# first player loses, 987 positions, 383 terminal, a 10783-node tree.
out=$(pub_gs games/hexapawn.game --count)
check "hexapawn 3x3 --count" "135 65" "$(pub_get positions "$out") $(pub_get terminal "$out")"
pub_perft=""
for pub_n in 1 2 3 4 5 6 7 8; do
  out=$(pub_gs games/hexapawn.game --perft $pub_n)
  pub_perft="$pub_perft $(pub_get "perft $pub_n" "$out")"
done
check "hexapawn 3x3 perft 1..8" " 3 10 28 56 70 64 20 0" "$pub_perft"
check "hexapawn 3x3 perft 8 nodes = tree" 252 "$(pub_get nodes "$out")"
out=$(pub_gs games/hexapawn.game -D width=4 --solver minimax)
check "hexapawn 4x3 minimax: win, 6003 nodes" "win 6003" "$(pub_get value "$out") $(pub_get nodes "$out")"
out=$(pub_gs games/hexapawn.game -D width=4 --count)
check "hexapawn 4x3 --count" "1128 642" "$(pub_get positions "$out") $(pub_get terminal "$out")"
out=$(pub_gs games/hexapawn.game -D height=4 --solver minimax)
check "hexapawn 3x4 minimax: loss, 10783 nodes" "loss 10783" "$(pub_get value "$out") $(pub_get nodes "$out")"
out=$(pub_gs games/hexapawn.game -D height=4 --count)
check "hexapawn 3x4 --count" "987 383" "$(pub_get positions "$out") $(pub_get terminal "$out")"

# ---------------------------------------------------------------------
# Connect Four (games/connect4.game)
# ---------------------------------------------------------------------

# John Tromp's table of solved board sizes (tromp.github.io/c4/c4.html):
# 4x4 and 5x4 (width x height) are draws.
out=$(pub_gs games/connect4.game -D width=4 -D height=4)
check "connect4 4x4: draw" "draw 0" "$(pub_get value "$out") $(pub_get score "$out")"
out=$(pub_gs games/connect4.game -D width=5 -D height=4)
check "connect4 5x4: draw" "draw 0" "$(pub_get value "$out") $(pub_get score "$out")"

# Perft of the standard 7x6 board: 7^n for n <= 6 (no column is full and
# no four can be made before ply 7); at ply 7, the 7 lines that filled a
# column have 6 moves left: 7^7 - 7 = 823536.  Ply 8 (5673234) and ply 9
# (39394572) were checked with an independent memoized perft in Python,
# written from the rules, not from gsolve.  (OEIS A212693, often quoted,
# counts distinct positions per ply -- 1, 7, 49, 238, ... -- not move
# sequences.)
# Both engines: the VM and the native bitboard engine (the default on 7x6).
for pub_engine in auto vm; do
  pub_perft=""
  for pub_n in 1 2 3 4 5 6 7; do
    out=$(pub_gs games/connect4.game --engine $pub_engine --perft $pub_n)
    pub_perft="$pub_perft $(pub_get "perft $pub_n" "$out")"
  done
  check "connect4 7x6 perft 1..7 ($pub_engine)" " 7 49 343 2401 16807 117649 823536" "$pub_perft"
done
out=$(pub_gs games/connect4.game --perft 8)
check "connect4 7x6 perft 8 (auto)" 5673234 "$(pub_get "perft 8" "$out")"
if [ -n "$GSOLVE_FULL" ]; then
  # About 4 s with the VM (20 s under ASan); 2 s native.
  out=$(pub_gs games/connect4.game --engine vm --perft 8)
  check "connect4 7x6 perft 8 (vm)" 5673234 "$(pub_get "perft 8" "$out")"
  out=$(pub_gs games/connect4.game --perft 9)
  check "connect4 7x6 perft 9 (auto)" 39394572 "$(pub_get "perft 9" "$out")"
fi

# Small boards, by hand: one column, so stones alternate up it: with k=1
# the first stone wins at once; with k=2 no line is ever made (a draw once
# the 5 cells are full).
out=$(pub_gs games/connect4.game -D width=1 -D height=5 -D k=1)
check "connect4 1x5 k=1: win in 1" "win 1" "$(pub_get value "$out") $(pub_get plies "$out")"
out=$(pub_gs games/connect4.game -D width=1 -D height=5 -D k=2)
check "connect4 1x5 k=2: draw in 5" "draw 5" "$(pub_get value "$out") $(pub_get plies "$out")"
# 2x2 with k=2: Yellow a1; Red answers on a2 or b1, and Yellow takes the
# other one, making a pair: Yellow wins at ply 3.
out=$(pub_gs games/connect4.game -D width=2 -D height=2 -D k=2)
check "connect4 2x2 k=2: win in 3" "win 3" "$(pub_get value "$out") $(pub_get plies "$out")"
# 4x4 with k=3, cross-checked by both solvers (the minimax tree is small).
out=$(pub_gs games/connect4.game -D width=4 -D height=4 -D k=3)
pub_ab="$(pub_get value "$out") $(pub_get plies "$out") $(pub_get best "$out")"
out=$(pub_gs games/connect4.game -D width=4 -D height=4 -D k=3 --solver minimax)
check "connect4 4x4 k=3: minimax = alphabeta" "$pub_ab" \
  "$(pub_get value "$out") $(pub_get plies "$out") $(pub_get best "$out")"
check "connect4 4x4 k=3: first player wins" win "$(pub_get value "$out")"
