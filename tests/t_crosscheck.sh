# tests/t_crosscheck.sh -- minimax (the reference: every line, no pruning,
# no table) against alphabeta (pruning, transposition table, null-window
# tests of the root moves), retrograde analysis (every position
# reachable from there, backward induction) and expectimax (payoff
# vectors in doubles, memoised) on the start of every bundled game that
# minimax can do quickly, and on about 200 pseudo-random reachable
# positions.  They must agree exactly: value, score, plies, the list of
# best moves, and the --all-moves table (text) and "moves" list (JSON).
# Where the game has a native engine (the default for it), alphabeta on
# the VM (--engine vm) must give the same --all-moves JSON as well, and
# so must the default solver where it is not alphabeta (a native solver).
# Sourced by tests/run.sh (check, gs from tests/lib.sh).

# The JSON of a run without what differs between solvers (and engines)
# by design.
xc_norm() {
  printf '%s\n' "$1" | sed 's/"nodes":[^,]*,"seconds":[^,]*,"solver":"[^"]*","engine":"[^"]*",//'
}
# The JSON without the distances and the best moves (which the
# distances decide among moves of the same value).
xc_values() {
  xc_norm "$1" | sed 's/"plies":[^,]*,//g; s/"best":\[[^]]*\],//'
}
# value, score, plies and best of a JSON run.
xc_root() {
  printf '%s\n' "$1" | sed 's/.*\("value":.*"best":\[[^]]*\]\).*/\1/'
}
# The text output without the nodes, seconds and solver lines.
xc_text() {
  printf '%s\n' "$1" | sed '/^nodes: /d; /^seconds: /d; /^solver: /d'
}

# xc_compare DESC POSITION TEXT ARGS...: the solvers on one position
# (TEXT=1: compare the text output too).
xc_compare() {
  xc_desc=$1 xc_p=$2 xc_t=$3
  shift 3
  xc_mm=$(gs "$@" --position "$xc_p" --solver minimax --all-moves --json 2>&1)
  xc_ab=$(gs "$@" --position "$xc_p" --solver alphabeta --all-moves --json 2>&1)
  check "$xc_desc: --all-moves --json" "$(xc_norm "$xc_mm")" "$(xc_norm "$xc_ab")"
  # Retrograde analysis (all positions reachable from here) agrees too;
  # its positions and stored counts are its own.
  xc_rt=$(gs "$@" --position "$xc_p" --solver retro --all-moves --json 2>&1)
  check "$xc_desc: --all-moves --json, retro" "$(xc_norm "$xc_mm")" \
    "$(xc_norm "$xc_rt" | sed 's/"positions":[0-9]*,"stored":[0-9]*/"positions":null,"stored":null/')"
  # A game with a native engine (used by default): the VM must agree too.
  case $xc_mm in
    *'"engine":"native'*)
      xc_ab=$(gs "$@" --position "$xc_p" --solver alphabeta --engine vm --all-moves --json 2>&1)
      check "$xc_desc: --all-moves --json --engine vm" "$(xc_norm "$xc_mm")" "$(xc_norm "$xc_ab")" ;;
  esac
  # --solve alone (null-window tests of the root moves), every other
  # position without the transposition table.
  xc_ref=$(xc_root "$xc_mm")
  if [ $((xc_ncmp % 2)) -eq 0 ]; then
    xc_ab=$(gs "$@" --position "$xc_p" --solver alphabeta --json 2>&1)
    check "$xc_desc: --solve" "$xc_ref" "$(xc_root "$xc_ab")"
  else
    xc_ab=$(gs "$@" --position "$xc_p" --solver alphabeta --tt-size 0 --json 2>&1)
    check "$xc_desc: --solve --tt-size 0" "$xc_ref" "$(xc_root "$xc_ab")"
  fi
  xc_ncmp=$((xc_ncmp + 1))
  # Expectimax (max^n on payoff vectors, no pruning) gives the same root
  # value, plies and best moves; its payoffs are its own.
  xc_em=$(gs "$@" --position "$xc_p" --solver expectimax --json 2>&1)
  check "$xc_desc: --solver expectimax" "$xc_ref" "$(xc_root "$xc_em")"
  # The default solver, when it is not alphabeta (a native solver); found
  # out on the first position of each game (xc_default is reset to "").
  if [ "$xc_default" != alphabeta ]; then
    xc_ab=$(gs "$@" --position "$xc_p" --all-moves --json 2>&1)
    case $xc_ab in
      *'"solver":"alphabeta"'*) xc_default=alphabeta ;;
      *',"plies":null,"best":'*)
         # A solver that gives no distances (Nim's nim-sum rule): the same
         # value and score for the root and every move.
         xc_default=other
         check "$xc_desc: --all-moves --json, default solver (values)" \
           "$(xc_values "$xc_mm")" "$(xc_values "$xc_ab")" ;;
      *) xc_default=other
         check "$xc_desc: --all-moves --json, default solver" "$(xc_norm "$xc_mm")" "$(xc_norm "$xc_ab")"
         xc_ab=$(gs "$@" --position "$xc_p" --json 2>&1)
         check "$xc_desc: --solve, default solver" "$xc_ref" "$(xc_root "$xc_ab")" ;;
    esac
  fi
  if [ "$xc_t" = 1 ]; then
    xc_mm=$(gs "$@" --position "$xc_p" --solver minimax --all-moves 2>&1)
    xc_ab=$(gs "$@" --position "$xc_p" --solver alphabeta --all-moves 2>&1)
    check "$xc_desc: --all-moves text" "$(xc_text "$xc_mm")" "$(xc_text "$xc_ab")"
  fi
}

# ---------------------------------------------------------------------
# The start positions
# ---------------------------------------------------------------------

xc_ncmp=0
xc_start() {
  xc_default=""
  xc_compare "start of $*" "" 1 "$@"
}
xc_start games/nim.game -D heaps=1,2,3
xc_start games/nim.game -D heaps=1,3,5
xc_start games/nim.game -D heaps=2,3,4
xc_start games/nim.game -D heaps=2,2
xc_start games/nim.game -D heaps=1,2,3 -D misere=true
xc_start games/nim.game -D heaps=1,3,5 -D misere=true
xc_start games/nim.game -D heaps=1,1,1 -D misere=true
xc_start games/nim.game -D heaps=0,0,0
xc_start games/matchsticks.game
xc_start games/matchsticks.game -D n=15 -D k=5
xc_start games/matchsticks.game -D n=12 -D k=1
xc_start games/tictactoe.game
xc_start games/tictactoe.game -D m=3 -D n=3 -D k=2
xc_start games/tictactoe.game -D m=2 -D n=3 -D k=3
xc_start games/hexapawn.game
xc_start games/hexapawn.game -D width=4
xc_start games/hexapawn.game -D height=4
xc_start games/hexapawn.game -D width=2 -D height=5
xc_start games/connect4.game -D width=3 -D height=3 -D k=3
xc_start games/connect4.game -D width=3 -D height=4 -D k=3
xc_start games/connect4.game -D width=4 -D height=3 -D k=3
xc_start games/connect4.game -D width=4 -D height=3
if [ -n "$GSOLVE_FULL" ]; then
  # Seconds each (minimax visits millions of nodes).
  xc_start games/connect4.game -D width=4 -D height=4 -D k=3
  xc_start games/matchsticks.game -D n=30 -D k=2
  xc_start games/hexapawn.game -D width=4 -D height=4
fi

# ---------------------------------------------------------------------
# Random reachable positions
# ---------------------------------------------------------------------

# A linear congruential generator (the C standard's example constants),
# fixed seed: the same positions every run.
xc_seed=20261122
xc_rand() {   # xc_rand N: sets xc_r to a pseudo-random 0..N-1
  xc_seed=$(( (xc_seed * 1103515245 + 12345) % 2147483648 ))
  xc_r=$(( (xc_seed / 65536) % $1 ))
}

# xc_legal POS ARGS...: the legal moves after POS, one per line, from
# the message of an illegal move ("... (legal: a, b, c)"); empty when the
# game is over or no move is legal.
xc_legal() {
  if [ -n "$1" ]; then xc_try="$1, @@"; else xc_try="@@"; fi
  shift
  xc_err=$(gs "$@" --position "$xc_try" 2>&1 >/dev/null)
  case $xc_err in
    *"(legal: "*)
      xc_err=${xc_err#*(legal: }
      printf '%s\n' "${xc_err%)}" | sed 's/, /\n/g' ;;
  esac
}

# xc_walk COUNT FROM TO AVOID ARGS...: COUNT random walks from the start,
# each of TO random moves (fewer if the game ends); the solvers are
# compared at every position of ply FROM to TO along the way (and where a
# walk ends early).  AVOID=1: a move that ends the game is played only
# when every move does (so that long walks on big boards stop at live
# positions, whose trees are small).
xc_walk() {
  xc_count=$1 xc_from=$2 xc_to=$3 xc_avoid=$4
  shift 4
  xc_default=""
  xc_i=0
  while [ $xc_i -lt $xc_count ]; do
    xc_pos=""
    xc_moves=$(xc_legal "" "$@")
    xc_k=0
    while [ $xc_k -lt $xc_to ] && [ -n "$xc_moves" ]; do
      xc_cand=$xc_moves
      while :; do
        xc_n=$(printf '%s\n' "$xc_cand" | wc -l)
        xc_rand "$xc_n"
        xc_m=$(printf '%s\n' "$xc_cand" | sed -n "$((xc_r + 1))p")
        if [ -n "$xc_pos" ]; then xc_next="$xc_pos, $xc_m"; else xc_next=$xc_m; fi
        xc_nextmoves=$(xc_legal "$xc_next" "$@")
        # Keep it, unless it ends the game early and there are others.
        if [ -n "$xc_nextmoves" ] || [ "$xc_avoid" != 1 ] || [ "$xc_n" -le 1 ]; then
          break
        fi
        xc_cand=$(printf '%s\n' "$xc_cand" | sed "$((xc_r + 1))d")
      done
      xc_pos=$xc_next
      xc_moves=$xc_nextmoves
      xc_k=$((xc_k + 1))
      if [ $xc_k -ge "$xc_from" ] || [ -z "$xc_moves" ]; then
        # Every fifth position: the text table too.
        xc_compare "$* after '$xc_pos'" "$xc_pos" $((xc_ncmp % 5 == 0)) "$@"
      fi
    done
    xc_i=$((xc_i + 1))
  done
}

# About 200 positions.  The plies keep minimax fast: it visits every line.
xc_walk 5 1 8 0 games/tictactoe.game
xc_walk 3 8 11 1 games/tictactoe.game -D m=4 -D n=4 -D k=3
xc_walk 4 1 7 0 games/nim.game -D heaps=2,3,4
xc_walk 4 3 6 1 games/nim.game -D heaps=1,3,5,7 -D misere=true
xc_walk 3 4 8 1 games/nim.game -D heaps=1,3,5,7
xc_walk 2 1 8 0 games/matchsticks.game
xc_walk 3 1 6 0 games/hexapawn.game -D width=4
xc_walk 4 3 6 1 games/hexapawn.game -D width=4 -D height=4
xc_walk 3 6 10 1 games/connect4.game -D width=4 -D height=4
xc_walk 4 10 13 1 games/connect4.game -D width=5 -D height=4
xc_walk 3 33 36 1 games/connect4.game
