# tests/t_compact_cycles.sh -- the compact form for games with cycles
# (--compact on a game whose positions recur or are reached at several
# depths: src/retro/retro_compact_cycles.c): the same answers as the hash
# form (src/retro/retro.c, an independent labelling: a move graph and
# counters, where this form has passes over a sorted key set) -- the
# value, the distance, every root move's value, every count of --stats'
# histograms -- on the small games with cycles first, then chess endgames
# on 5x5 boards, queries by --fen, and the published KQK figures.  The
# 8x8 KBNK and KQKR tables with GSOLVE_FULL=1 (make test-full; minutes
# each): the hash form's histograms, and the published longest wins.

# cc_run FORM ARGS: the root's and every move's value (JSON, without the
# timing), then --stats' counts and histograms by mover (not the example
# positions, which each form picks in its own order), from one run.
cc_run() {
  cc_flag=$1
  shift
  gs "$@" --solver retro $cc_flag --all-moves --json --stats 2>"$cc_tmp" |
    sed 's/"seconds":[^,]*,//; s/"engine":[^,]*,//; s/"example":"[^"]*"//g'
  grep -E "won|lost|longest" "$cc_tmp" | sed 's/, e\.g\..*//'
}
# cc_same DESC ARGS: both forms' answers and counts equal.
cc_same() {
  cc_desc=$1
  shift
  check "cycles = hash form, every move and --stats' histograms: $cc_desc" "$(cc_run "" "$@")" \
    "$(cc_run --compact "$@")"
}
cc_tmp=${TMPDIR:-/tmp}/gsolve_cycles_$$.err

# --- Small games whose positions recur.  Token: the graph of the game's
# header (0-1-2-0 a cycle): from 0 a draw that never ends; from 5 a draw
# too, from 6 a loss in 2 (the values derived by hand there).
cc_same "token from 0" games/token.game
cc_same "token from 5" games/token.game -D from=5
cc_same "token from 6" games/token.game -D from=6
out=$(gs games/token.game -D from=6 --solver retro --compact)
check "token from 6: a loss in 2 (by hand)" "loss 2" "$(field value "$out") $(field plies "$out")"
out=$(gs games/token.game --solver retro --compact --stats 2>&1)
check "token from 0: a draw without end" "draw -" "$(field value "$out") $(field plies "$out")"
check "token: the form with cycles was taken" yes \
  "$(printf '%s\n' "$out" | grep -q '^stats: compact form with cycles: ' && echo yes)"
# Positions that recur only from ply 10 on, past the probe's 32,768
# positions: the layered form meets the recurrence at its layer 10 and
# hands over (it refused the game before, "drop --compact").
cc_same "late cycles (handed over by the layered form)" tests/data/compact/late-cycles.game --engine vm
check "late cycles: the layered form handed over at layer 10" yes \
  "$(grep -q "^stats: compact form with cycles: taken after the layered form's layer 10 met" "$cc_tmp" && echo yes)"
out=$(gs tests/data/compact/late-cycles.game --engine vm --solver retro --compact --db "${TMPDIR:-/tmp}/gsolve_late_$$.db" 2>&1)
check "late cycles: --db refused before the passes, nothing written" "2 no" \
  "$? $([ -e "${TMPDIR:-/tmp}/gsolve_late_$$.db" ] && echo yes || echo no)"
# Three men's morris (moves once the men are placed: positions recur),
# chomp (a position reached at several depths: no cycle, but no layers).
cc_same "three men's morris" docs/examples/morris3.game
cc_same "chomp" docs/examples/chomp.game
cc_same "kayles" docs/examples/kayles.game
cc_same "octal" games/octal.game
# Othello 4x4 (a pass keeps the stones: positions at several depths) is
# scored by the discs: decided once all children are, as the hash form's
# backward induction of scores does.
cc_same "othello 4x4 (scored)" docs/examples/othello.game
out=$(gs docs/examples/othello.game --solver retro --compact --stats 2>&1)
check "othello 4x4 compact: the form with cycles, a loss by 8 discs (as the hash form)" "yes loss -8" \
  "$(printf '%s\n' "$out" | grep -q '^stats: compact form with cycles' && echo yes) $(field value "$out") $(field score "$out")"
# Nim through the VM: heaps reached at several depths.  (The VM cannot
# count the orbits of a permuted array, so this form stores every state,
# as the layered compact form does: the counts by value agree.)
check "cycles = hash form, every move and --stats' histograms: nim 1,2,3 (VM)" \
  "$(cc_run "" games/nim.game --engine vm -D heaps=1,2,3 | sed 's/"stored":[0-9]*,//')" \
  "$(cc_run --compact games/nim.game --engine vm -D heaps=1,2,3 | sed 's/"stored":[0-9]*,//')"

# --- Chess endgames on 5x5 boards: draws by capture with their lengths
# (the shortest for White, the longest for Black), Black's wins in KQKR.
for cc_m in KQK KRK KBNK KQKR; do
  cc_same "chess 5x5 $cc_m" games/chess-endgame.game -D size=5 -D material=$cc_m
done
cc_same "chess 5x5 KQK --no-symmetry" games/chess-endgame.game -D size=5 --no-symmetry
# Positions by --fen: a mate in 1, a draw at once (Black takes the queen),
# the example of the longest KQK win, a KRK position with Black to move.
for cc_case in "KQK|k4/5/1K3/5/3Q1 w" "KQK|5/5/5/1kQ2/4K b" "KQK|3QK/5/2k2/5/5 w" \
               "KRK|5/5/2k2/5/R3K b"; do
  cc_m=${cc_case%%|*}
  cc_same "chess 5x5 $cc_m --fen '${cc_case#*|}'" games/chess-endgame.game -D size=5 -D material=$cc_m \
    --fen "${cc_case#*|}"
done
# --position after moves from the start.
cc_same "chess 5x5 KRK --position a1a4 c5d5" games/chess-endgame.game -D size=5 -D material=KRK --position "a1a4 c5d5"

# --- Refusals.  A database file: none yet for this form.
out=$(gs games/token.game --solver retro --compact --db "${TMPDIR:-/tmp}/gsolve_cycles_$$.db" 2>&1)
check "cycles: --db refused, exit 2" 2 $?
check "cycles: --db refused, why" \
  "gsolve: error: --db: the compact form of a game with cycles has no file format yet (drop --compact to write the hash form's)" \
  "$out"
rm -f "${TMPDIR:-/tmp}/gsolve_cycles_$$.db"
# A memory limit too small for the table: refused with the figure.
out=$(gs games/chess-endgame.game -D size=6 -D material=KBNK --solver retro --compact --memory 2 2>&1)
check "cycles: --memory too small, exit 5" 5 $?
check "cycles: --memory too small, the figure" yes \
  "$(printf '%s' "$out" | grep -q "the compact table needs about .* MiB.*raise --memory" && echo yes)"

# --- KQK on 8x8 (a few seconds): the published longest win, 19 plies
# (mate in 10), and the usual counting of its 223,944 Black-to-move
# positions, 23,048 of them drawn.
out=$(gs games/chess-endgame.game --solver retro --compact --stats 2>&1)
check "KQK compact: longest win, White to move, 19 plies (mate in 10)" 19 \
  "$(printf '%s\n' "$out" | sed -n 's/^stats: longest win, White to move: \([0-9]*\) plies.*/\1/p')"
check "KQK compact: 23,048 of the Black-to-move positions are drawn" "200896 lost, 23048 drawn" \
  "$(printf '%s\n' "$out" | sed -n 's/^stats: Black to move: 0 won, \([0-9]* lost, [0-9]* drawn\).*/\1/p')"

# --- The 8x8 KBNK and KQKR tables (minutes each through the VM; make
# test-full): the hash form's every count, and KBNK's longest win, 65
# plies (mate in 33), KQKR's 35 moves.
# The rules through the compiled tier, its objects in a cache of this
# script's own.
if [ -n "$GSOLVE_FULL" ]; then
  GSOLVE_CACHE=$(cd "$BUILD/tests" && pwd)/cycles-cache
  mkdir -m 700 -p "$GSOLVE_CACHE"
  export GSOLVE_CACHE
  for cc_m in KBNK KQKR; do
    cc_hash=$(cc_run "" games/chess-endgame.game -D material=$cc_m --engine compiled)
    cc_comp=$(cc_run --compact games/chess-endgame.game -D material=$cc_m --engine compiled)
    check "$cc_m 8x8: the compact form's root, moves and histograms = the hash form's" "$cc_hash" "$cc_comp"
    cc_long=$(printf '%s\n' "$cc_comp" | sed -n 's/^stats: longest win, White to move: \([0-9]*\) plies.*/\1/p')
    case $cc_m in
      KBNK) check "KBNK 8x8 compact: longest win 65 plies (mate in 33)" 65 "$cc_long" ;;
      KQKR) check "KQKR 8x8 compact: longest win 69 plies (mate in 35)" 69 "$cc_long" ;;
    esac
  done
fi
rm -f "$cc_tmp"
