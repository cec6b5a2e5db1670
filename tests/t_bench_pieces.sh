# tests/t_bench_pieces.sh -- Breakthrough, Knightthrough and Fox and Hounds
# (games/breakthrough.game, knightthrough.game, foxandhounds.game) against
# the Regular Boardgames suite: perft equal to RBG's and solved values
# cross-checked between solvers.
#
# The counts are RBG's: rbg2cpp's test/perft.cpp (sequences of player
# moves; the keeper's steps are not plies) on the suite's files at
# github.com/marekesz/rbgGames commit 3ae4fb75c2cc94085f742587815d345405da9d7a
# (breakthrough.rbg, breakthrough_5x5 ... _12x12.rbg, knightthrough.rbg,
# foxAndHounds.rbg, foxAndHounds-10x10.rbg, -12x12.rbg), built and run
# outside the project with rbg2cpp's own release flags.  make test checks
# the shallow depths; GSOLVE_FULL=1 (make test-full) every depth RBG runs
# in under about 10 s, through the compiled tier, and prints the times.
# The compiled tier builds into a cache of this script's own: the shared
# empty cache of tests/run.sh must stay empty, or `--engine auto` in the
# scripts after this one would take the compiled tier (t_golden's engine).
GSOLVE_CACHE=$(cd "$BUILD" && pwd)/tests/bench-pieces-cache
mkdir -p "$GSOLVE_CACHE" && chmod 700 "$GSOLVE_CACHE"
export GSOLVE_CACHE
BT=games/breakthrough.game
KT=games/knightthrough.game
FH=games/foxandhounds.game

# pieces_perft DESC WANT ARGS...: perft's count against RBG's.
pieces_perft() {
  pp_desc=$1 pp_want=$2
  shift 2
  check "$pp_desc" "$pp_want" "$(gs "$@" | sed -n 's/^perft [0-9]*: //p')"
}

# --- perft, the shallow depths ----------------------------------------------
for d in "1 22" "2 484" "3 11132" "4 256036"; do
  set -- $d
  pieces_perft "breakthrough.rbg (8x8): perft $1" "$2" $BT --perft $1
done
pieces_perft "breakthrough_5x5.rbg: perft 5" 289828 $BT -D width=5 -D height=5 --perft 5
pieces_perft "breakthrough_6x6.rbg: perft 4" 71478 $BT -D width=6 -D height=6 --perft 4
pieces_perft "breakthrough_7x7.rbg: perft 4" 144251 $BT -D width=7 -D height=7 --perft 4
pieces_perft "breakthrough_9x9.rbg: perft 3" 16250 $BT -D width=9 -D height=9 --perft 3
pieces_perft "breakthrough_10x10.rbg: perft 3" 22736 $BT -D width=10 -D height=10 --perft 3
pieces_perft "breakthrough_12x12.rbg: perft 3" 40460 $BT -D width=12 -D height=12 --perft 3
for d in "1 40" "2 1600" "3 63520" "4 2521306"; do
  set -- $d
  pieces_perft "knightthrough.rbg: perft $1" "$2" $KT --perft $1
done
# The fox's first square (4), its first step (7 in all), then the hounds.
for d in "1 4" "2 7" "3 49" "4 182" "5 1118" "6 3096" "7 18792" "8 70174" "9 424568"; do
  set -- $d
  pieces_perft "foxAndHounds.rbg: perft $1" "$2" $FH --perft $1
done
pieces_perft "foxAndHounds-10x10.rbg: perft 7" 55008 $FH -D size=10 --perft 7
pieces_perft "foxAndHounds-12x12.rbg: perft 6" 13320 $FH -D size=12 --perft 6

# The compiled tier: RBG's counts too, and 30 random games played out
# alike on both tiers (the same seed).
pieces_perft "breakthrough.rbg (8x8), compiled: perft 3" 11132 $BT --perft 3 --engine compiled
pieces_perft "knightthrough.rbg, compiled: perft 3" 63520 $KT --perft 3 --engine compiled
pieces_perft "foxAndHounds.rbg, compiled: perft 9" 424568 $FH --perft 9 --engine compiled
for g in $BT $KT $FH; do
  check "$g: 30 playouts alike on the VM and the compiled tier" \
    "$(gs $g --playouts 30 --seed 7 --engine vm | grep -vE '^(seconds|engine|playouts/s):')" \
    "$(gs $g --playouts 30 --seed 7 --engine compiled | grep -vE '^(seconds|engine|playouts/s):')"
done

# --- Solved values: alphabeta against retrograde analysis --------------------
# pieces_solved DESC WANT ARGS...: "value plies" of both solvers.
pieces_solved() {
  ps_desc=$1 ps_want=$2
  shift 2
  ps_ab=$(gs "$@")
  ps_re=$(gs "$@" --solver retro)
  check "$ps_desc: alphabeta" "$ps_want" "$(field value "$ps_ab") $(field plies "$ps_ab")"
  check "$ps_desc: retro" "$ps_want" "$(field value "$ps_re") $(field plies "$ps_re")"
}
# Breakthrough 3x4 (two rows each: no empty row): Black wins on the 12th ply.
pieces_solved "breakthrough 3x4" "loss 12" $BT -D width=3 -D height=4
# Knightthrough 3x4 with a row of knights a side: Black wins on the 4th.
pieces_solved "knightthrough 3x4, one row" "loss 4" $KT -D width=3 -D height=4 -D rows=1
# Fox and Hounds on 4x4 (two hounds): the hounds win on the 9th ply.
pieces_solved "fox and hounds 4x4" "loss 9" $FH -D size=4

# Breakthrough's bound (early win detection, used by --score-only): every
# first move's value as the search with distances, which does not use it.
for a in "-D width=4 -D height=4" "-D width=3 -D height=5" "-D width=5 -D height=4 -D rows=1"; do
  check "breakthrough $a: --score-only (the bound) gives each move's value as --all-moves" \
    "$(gs $BT $a --all-moves | sed -n '/^move /,$p' | awk '{print $1, $2}')" \
    "$(gs $BT $a --all-moves --score-only | sed -n '/^move /,$p' | awk '{print $1, $2}')"
done
check "breakthrough 4x4 --score-only: the bound settles positions" yes \
  "$(gs $BT -D width=4 -D height=4 --score-only --stats 2>&1 | grep -qE 'bound cutoffs [1-9]' && echo yes)"

# --- Speed and the deep counts (make test-full) ------------------------------
if [ -n "$GSOLVE_FULL" ]; then
  # Every depth RBG runs in under about 10 s, through the compiled tier.
  for d in "5 6182818" "6 149264638"; do
    set -- $d
    pieces_perft "breakthrough.rbg (8x8): perft $1" "$2" $BT --perft $1 --engine compiled
  done
  for d in "6 3538840" "7 43719470"; do
    set -- $d
    pieces_perft "breakthrough_5x5.rbg: perft $1" "$2" $BT -D width=5 -D height=5 --perft $1 --engine compiled
  done
  for d in "5 1248290" "6 21470998" "7 381006806"; do
    set -- $d
    pieces_perft "breakthrough_6x6.rbg: perft $1" "$2" $BT -D width=6 -D height=6 --perft $1 --engine compiled
  done
  for d in "5 3042166" "6 63936806"; do
    set -- $d
    pieces_perft "breakthrough_7x7.rbg: perft $1" "$2" $BT -D width=7 -D height=7 --perft $1 --engine compiled
  done
  pieces_perft "breakthrough_9x9.rbg: perft 6" 311203202 $BT -D width=9 -D height=9 --perft 6 --engine compiled
  pieces_perft "breakthrough_12x12.rbg: perft 5" 51141440 $BT -D width=12 -D height=12 --perft 5 --engine compiled
  pieces_perft "knightthrough.rbg: perft 5" 99598454 $KT --perft 5 --engine compiled
  for d in "10 1282588" "11 7752196" "12 27938726" "13 171668006" "14 517633033"; do
    set -- $d
    pieces_perft "foxAndHounds.rbg: perft $1" "$2" $FH --perft $1 --engine compiled
  done
  pieces_perft "foxAndHounds-10x10.rbg: perft 12" 155554185 $FH -D size=10 --perft 12 --engine compiled
  pieces_perft "foxAndHounds-12x12.rbg: perft 11" 146432680 $FH -D size=12 --perft 11 --engine compiled

  # Solved: both solvers, and the fox's four first squares lose alike.
  pieces_solved "breakthrough 4x4" "loss 14" $BT -D width=4 -D height=4
  pieces_solved "breakthrough 3x5" "loss 18" $BT -D width=3 -D height=5
  pieces_solved "knightthrough 4x4, one row" "win 5" $KT -D width=4 -D height=4 -D rows=1
  pieces_solved "knightthrough 3x5" "win 7" $KT -D width=3 -D height=5
  pieces_solved "fox and hounds 6x6" "win 26" $FH -D size=6
  pieces_solved "fox and hounds 8x8" "loss 45" $FH

  # The times beside RBG's (CPU seconds; RBG's, measured on the same kind
  # of machine, are in the comments): VM, then the compiled tier.
  pieces_time() {
    for e in vm compiled; do
      /usr/bin/time -f "%U %S" -o "${TMPDIR:-/tmp}/pieces_time.$$" $GSOLVE "$@" --engine $e >/dev/null 2>&1
      echo "  $* --engine $e: $(awk '{printf "%.2f", $1 + $2}' "${TMPDIR:-/tmp}/pieces_time.$$") s CPU"
    done
    rm -f "${TMPDIR:-/tmp}/pieces_time.$$"
  }
  if [ -x /usr/bin/time ]; then
    echo "t_bench_pieces: perft times (RBG: breakthrough 6 1.9-2.8 s, knightthrough 5 1.5-1.8 s, foxAndHounds 13 4.5 s)"
    pieces_time $BT --perft 6
    pieces_time $KT --perft 5
    pieces_time $FH --perft 13
  fi
fi
