# tests/t_bench_more.sh -- four games of the Regular Boardgames (RBG)
# benchmark suite against RBG's own counts: games/amazons.game,
# morris.game, pentago.game and yavalath.game play the rules of
# amazons.rbg, theMillGame.rbg, pentago.rbg and yavalath.rbg of
# github.com/marekesz/rbgGames, commit 3ae4fb75c2cc94085f742587815d345405da9d7a.
#
# Every count below is RBG's: rbg2cpp's test/perft.cpp (sequences of
# player moves; the keeper's steps are not plies), built and run outside
# the project.  From the start position, the file as it is; from the
# other positions, the same .rbg with only its board changed to the
# position reached by the moves given here (and, for Morris, its rules
# entered at that phase: the second phase, or the last round of
# placements with its counter set), so that these lines of play are
# checked against RBG's reading of the rules, not against gsolve's.
# Shallow depths here, deeper ones under GSOLVE_FULL (make test-full).
#
# GSOLVE_BENCH=1 prints the perft times (CPU, VM and compiled tier)
# beside RBG's at the depths compared in docs/performance.md: figures,
# not tests.

bm_count() { printf '%s\n' "$1" | sed -n 's/^perft [0-9]*: //p'; }

# bm_perft DESC EXPECTED ARGS...: the perft count of gsolve ARGS.
bm_perft() {
  bm_desc=$1 bm_want=$2
  shift 2
  check "$bm_desc" "$bm_want" "$(bm_count "$(gs "$@" 2>&1)")"
}

# bm_line GAME "DEFS" "MOVES" "COUNTS" [ENGINE]: perft 1, 2, ... from the
# position after MOVES equals the listed counts.
bm_line() {
  bm_game=$1 bm_defs=$2 bm_moves=$3 bm_d=0
  bm_engine=${5:-vm}
  for bm_want in $4; do
    bm_d=$((bm_d + 1))
    # shellcheck disable=SC2086
    bm_perft "$(basename "$bm_game" .game) $bm_defs after $(printf '%s' "$bm_moves" | cut -c1-24)...: perft $bm_d" \
      "$bm_want" "$bm_game" $bm_defs --position "$bm_moves" --perft $bm_d --engine "$bm_engine"
  done
}

am=games/amazons.game
mo=games/morris.game
pe=games/pentago.game
ya=games/yavalath.game

# --- The start positions: every depth RBG runs in under 10 s ------------
# (amazons.rbg 2 plies, theMillGame.rbg 6, pentago.rbg 3, yavalath.rbg 5)
bm_d=0
for bm_want in 2176; do
  bm_d=$((bm_d + 1)); bm_perft "amazons: perft $bm_d (RBG)" $bm_want $am --perft $bm_d
done
bm_d=0
for bm_want in 24 552 12144 255024; do
  bm_d=$((bm_d + 1)); bm_perft "morris: perft $bm_d (RBG)" $bm_want $mo --perft $bm_d
done
bm_d=0
for bm_want in 288 80640; do
  bm_d=$((bm_d + 1)); bm_perft "pentago: perft $bm_d (RBG)" $bm_want $pe --perft $bm_d
done
bm_d=0
for bm_want in 61 3660 215940; do
  bm_d=$((bm_d + 1)); bm_perft "yavalath: perft $bm_d (RBG)" $bm_want $ya --perft $bm_d
done

# --- Amazons in the middle of a game: an arrow shot back at the cell the
# amazon left (c6-c10/c6), arrows that block lines ------------------------
am_line="g1-f1/e2, a7-d7/g4, f1-f6/f9, d7-b7/e4, j4-e9/b9, d10-d5/d6, f6-d8/g8, j7-h5/i4, a4-c6/b6, d5-g5/h4, d8-f6/e5, g5-d2/j8, c6-c10/c6, h5-h10/f8, e9-e6/d5, g10-h9/g10, d1-a1/e1, h9-j7/c7, f6-f2/f3, b7-c8/d9"
bm_line $am "" "$am_line" "487 267627"

# --- Morris: the second phase from boards without a mill (the men placed
# in the order given, White first), sliding and flying, mills and
# captures, the draw after -D quiet moves without a capture; then the
# last placements into the second phase -----------------------------------
bm_line $mo "-D men=4" "g7 d7 c5 d2 a7 f2 b2 e3" "5 33 239 1865 14954"
bm_line $mo "-D men=3" "a4 d6 a7 g4 e3 b4" "59 3192"
bm_line $mo "-D men=9" "e5 f4 g1 b6 d3 d1 c5 a4 b2 g4 b4 d6 d7 e3 a7 c3 d2 a1" "7 156 1140 13125"
bm_line $mo "-D men=5" "d1 g7 b4 a7 d7 c4 f6 a1 d2 g1" "9 57 573 3584 36620"
bm_line $mo "-D men=6 -D quiet=3" "d5 f2 b2 d1 d6 a4 e5 c4 c3 a7 a1 d2" "7 46 394 285 1470 12038 7846 40592"
bm_line $mo "-D men=3 -D quiet=2" "c5 b2 a7 a4 d2 a1" "57 3285 0 0"
bm_line $mo "" "f4 e4 a7 b6 d1 f2 e3 b4 c4 a1 d3 f6 a4 c5 d7 g1" "29 471 4834 39916"
bm_line $mo "-D men=3" "d1 f6 d6 g7" "20 380 21876"
bm_line $mo "-D men=4" "f2 b2 d5 g7 d6 g4" "20 391 6205 62578"

# --- Pentago in the middle of a game: placements that win at once (no
# turn), fives made by a turn, for one side or both -----------------------
pe_1="c2 nw cw, e1 sw cw, a4 se cw, c2 nw cw, f6 nw ccw, e5 se cw, f3 se ccw, c4 sw cw, c5 ne cw, e3 sw ccw, f6 sw ccw, a2 nw ccw, d1 sw cw, a5 nw cw"
pe_4="d3 sw cw, c4 se ccw, b2 nw cw, e5 se cw, e6 nw ccw, e1 ne ccw, c1 ne ccw, d1 sw ccw, a1 nw ccw, a4 ne cw, a5 nw cw, b3 se cw, c1 ne ccw, f2 sw cw, d5 nw ccw, b6 sw ccw, d4 nw cw, e3 ne cw, c2 nw cw, f1 se ccw, f2 sw ccw, c2 se ccw, a1 se ccw, a6 se cw, d4 sw ccw, e4 se cw, c4 sw cw, f4 nw ccw"
pe_5="e3 se cw, f4 ne ccw, e6 ne ccw, b1 ne cw, b6 ne cw, d5 ne cw, c2 ne ccw, a5 ne cw, c1 nw ccw, b2 sw cw, f1 nw cw, f3 ne ccw, e4 sw cw, e2 ne ccw, c4 sw ccw, e5 se ccw, f1 se cw, d6 se cw, f3 ne ccw, c1 se ccw, e3 ne ccw, a4 nw cw, b3 se ccw, f2 ne ccw, d4 sw ccw, a3 nw cw, e1 sw ccw, a4 sw ccw, e6 sw cw, a2 sw cw"
pe_6="f1 sw ccw, c6 sw cw, f3 nw ccw, c1 se cw, a1 sw cw, b2 nw ccw, d5 sw ccw, a5 ne cw, d4 sw cw, c6 se cw, b6 nw cw, e3 ne ccw, c3 sw ccw, b1 nw ccw, c3 nw ccw, f5 nw ccw, f2 se cw, e5 sw ccw, f6 sw ccw, a2 sw cw, e3 sw ccw, a5 sw cw, e4 ne cw, f6 sw ccw"
bm_line $pe "" "$pe_1" "176 29568"
bm_line $pe "" "$pe_4" "57 2576 99384"
bm_line $pe "" "$pe_5" "48 1602 40209"
bm_line $pe "" "$pe_6" "96 6684"
# The one winning placement there (57 = 7 x 8 + 1): the game ends with it.
check "pentago: the one move without a turn there is the winning placement f6" "f6" \
  "$(gs $pe --position "$pe_4, zz" 2>&1 | sed 's/.*legal: //; s/)$//' | tr ',' '\n' | sed 's/^ //' | grep -v ' ')"
check "pentago: f6 there ends the game, a win for White" "0 White" \
  "$(bm_count "$(gs $pe --position "$pe_4, f6" --perft 1)") $(gs $pe --position "$pe_4, f6" --playouts 1 | sed -n 's/^wins: \([A-Za-z]*\) 1 .*/\1/p')"

# --- Yavalath in the middle of a game: fours that win, threes that lose --
ya_1="b9, i3, h2, h3, c5, c6, f4, g1, a7, e3, i2, c8, d9, d4, e1, e4"
ya_2="g7, e5, f8, d3, h2, a5, c8, g2, c3, g5, e1, c4, h5, b9, e2, a7, d5, a9, i1, f6, e6, d2, d8, f1, c6, c5, f5, d6, a8, d7"
ya_3="d4, a9, c7, e1, e5, g4, e4, f3, h3, f2, g1, g5, i1, b9, h5, c5, d3, c3, b5, f5, f7, e3, i3, i5, c9, d9, c6, e8, h2, d7, f1, i2, b6, f6, a8, b4, b8, i4, e9, a6, a7, g7, g2, h1"
ya_4="c5, h5, d7, f5, c7, e9, f2, h1, d5, e3, a9, c4, g3, i3, d9, a7, a6, c6, d4, g7, h6, f1, i4, d3, g5, f4, c8, b7, e8, e5, f3, e1, e2, f7, i5, b4, f8, a5, i1, h2, g1, g4, a8, d8, g6, i2, h4, b8, c3, d2"
bm_line $ya "" "$ya_1" "45 1804 65489"
bm_line $ya "" "$ya_2" "31 630 13021"
bm_line $ya "" "$ya_3" "17 80 285 896 1716 2880"
bm_line $ya "" "$ya_4" "11 0 0"

# --- The rules' own checks: a line of three loses, four wins -------------
check "yavalath: three in a row (e1 f1 g1) loses: Black, to move, has won" "win 0" \
  "$(field value "$(gs $ya --position "e1 a5 f1 a6 g1")") $(field plies "$(gs $ya --position "e1 a5 f1 a6 g1")")"
check "yavalath: four in a row wins (and ends the game)" "0" \
  "$(bm_count "$(gs $ya --position "e1 a5 f1 a6 h1 a8 g1" --perft 1)")"
check "morris: a mill takes a man in the same move (d1 a4 a1 b4 g1xb4 is 5 plies)" "Black" \
  "$(field 'to move' "$(gs $mo --position "d1 a4 a1 b4 g1xb4" --perft 0)")"

# --- The VM's consistency checks (tests/unit/test_vm.c: the incremental
# hash against one from scratch after every apply and undo, undo restores
# the state, canonical forms under the declared symmetries) ---------------
unit "test_vm: games/morris.game" "$BUILD/test_vm" $mo
unit "test_vm: games/yavalath.game (the hexagon's 12 symmetries)" "$BUILD/test_vm" $ya
unit "test_vm: games/amazons.game -D size=4" "$BUILD/test_vm" $am -D size=4

# --- Each game is playable, its board drawn --------------------------------
for bm_g in "$am 10" "$mo 7" "$pe 6" "$ya 9"; do
  set -- $bm_g
  check "$(basename "$1"): gsolve play draws the board (its top row, $2)" "1" \
    "$(printf 'quit\n' | gs play "$1" --ascii 2>&1 | grep -cE "^ *$2  ")"
done
check "morris: the empty points are drawn 'o', the other cells '.'" "  7  o . . o . . o" \
  "$(printf 'quit\n' | gs play $mo --ascii 2>&1 | grep -E '^  7  ')"
check "amazons: a self-played game at level 1 ends with a winner" "1" \
  "$(gs play $am -D size=6 --self-play --level 1 --seed 3 --ascii 2>&1 | grep -c '^game over: .* wins')"

# --- Heavy: deeper counts, on the compiled tier -----------------------------
if [ -n "$GSOLVE_FULL" ]; then
  bm_cache=$(cd "$BUILD" && pwd)/tests/aot-cache
  bm_perft "amazons: perft 2 (RBG)" 4307152 $am --perft 2 --engine vm
  GSOLVE_CACHE=$bm_cache bm_line $am "" "$am_line" "487 267627 110424500" compiled
  GSOLVE_CACHE=$bm_cache bm_perft "morris: perft 5 (RBG)" 5140800 $mo --perft 5 --engine compiled
  GSOLVE_CACHE=$bm_cache bm_perft "morris: perft 6 (RBG)" 99274176 $mo --perft 6 --engine compiled
  GSOLVE_CACHE=$bm_cache bm_line $mo "-D men=4" "g7 d7 c5 d2 a7 f2 b2 e3" \
    "5 33 239 1865 14954 187847 1636176 40998002" compiled
  GSOLVE_CACHE=$bm_cache bm_line $mo "-D men=3" "a4 d6 a7 g4 e3 b4" "59 3192 185688 10382944" compiled
  GSOLVE_CACHE=$bm_cache bm_line $mo "-D men=9" "e5 f4 g1 b6 d3 d1 c5 a4 b2 g4 b4 d6 d7 e3 a7 c3 d2 a1" \
    "7 156 1140 13125 106771 1361891" compiled
  GSOLVE_CACHE=$bm_cache bm_line $mo "" "f4 e4 a7 b6 d1 f2 e3 b4 c4 a1 d3 f6 a4 c5 d7 g1" \
    "29 471 4834 39916 430843 4162148" compiled
  GSOLVE_CACHE=$bm_cache bm_line $mo "-D men=4" "f2 b2 d5 g7 d6 g4" "20 391 6205 62578 1600572 39508137" compiled
  GSOLVE_CACHE=$bm_cache bm_perft "pentago: perft 3 (RBG)" 21934080 $pe --perft 3 --engine compiled
  GSOLVE_CACHE=$bm_cache bm_line $pe "" "$pe_4" "57 2576 99384 3170298 79676144" compiled
  GSOLVE_CACHE=$bm_cache bm_line $pe "" "$pe_5" "48 1602 40209 621927 6220350 25721627" compiled
  GSOLVE_CACHE=$bm_cache bm_line $pe "" "$pe_6" "96 6684 439729 25415917" compiled
  GSOLVE_CACHE=$bm_cache bm_perft "yavalath: perft 4 (RBG)" 12524520 $ya --perft 4 --engine compiled
  GSOLVE_CACHE=$bm_cache bm_perft "yavalath: perft 5 (RBG)" 713897640 $ya --perft 5 --engine compiled
  GSOLVE_CACHE=$bm_cache bm_line $ya "" "$ya_1" "45 1804 65489 2447844" compiled
  GSOLVE_CACHE=$bm_cache bm_line $ya "" "$ya_2" "31 630 13021 232568 4221720" compiled
  unit "test_vm: games/pentago.game" "$BUILD/test_vm" $pe
  unit "test_vm: games/amazons.game -D size=5" "$BUILD/test_vm" $am -D size=5
  for bm_g in $am $mo $pe $ya; do
    GSOLVE_CACHE=$bm_cache GSOLVE_TEST_ENGINE=compiled unit "test_vm, compiled: $bm_g" \
      "$BUILD/test_vm" $bm_g $([ $bm_g = $am ] && echo -D size=4)
  done
fi

# --- Figures: perft CPU times beside RBG's (GSOLVE_BENCH=1) -----------------
if [ -n "$GSOLVE_BENCH" ]; then
  bm_cache=$(cd "$BUILD" && pwd)/tests/aot-cache
  bm_cpu() {   # the CPU seconds of one run (the children's times)
    (gs "$@" >/dev/null && times) | awk 'NR == 2 { split($1, u, /[ms]/); split($2, s, /[ms]/)
      printf "%.2f", u[1] * 60 + u[2] + s[1] * 60 + s[2] }'
  }
  # RBG's CPU seconds on this kind of machine (rbg2cpp's perft, its
  # Makefile's flags), measured 2026-12-06 beside these runs (docs/performance.md).
  echo "game      depth        count    vm s  compiled s   RBG s"
  for bm_g in "amazons 2 4307152 0.06" "morris 6 99274176 3.01" "pentago 3 21934080 3.11" \
              "yavalath 5 713897640 8.78"; do
    set -- $bm_g
    GSOLVE_CACHE=$bm_cache gs games/$1.game --perft 1 --engine compiled >/dev/null
    printf '%-9s %5s %12s %7s %11s %7s\n' "$1" "$2" "$3" "$(bm_cpu games/$1.game --perft "$2" --engine vm)" \
      "$(GSOLVE_CACHE=$bm_cache bm_cpu games/$1.game --perft "$2" --engine compiled)" "$4"
  done
fi
