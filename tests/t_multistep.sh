# tests/t_multistep.sh -- moves of several steps (`continue move`,
# `priority`; docs/language.md 4.9 "Moves of several steps"): draughts
# and paper soccer against RBG (the Regular Boardgames suite, rbgGames
# commit 3ae4fb75c2cc94085f742587815d345405da9d7a, rbg2cpp's perft, run
# outside the project) and Aart Bik's published English draughts perft;
# positions with kings, long chains, capture orders and the stagnation
# rule, each counted by RBG on the same board (tests/files/draughts_rbg.txt);
# the notation read back, `play`, the compiled tier, the VM's own checks.
# GSOLVE_FULL=1 adds the deeper counts and every RBG position.

ms_tmp=$(mktemp -d "${TMPDIR:-/tmp}/gsolve-multistep.XXXXXX")
ms_cache=$(cd "$BUILD" && pwd)/tests/multistep-cache
mkdir -p "$ms_cache"

# ms_perft ARGS...: the count of `gsolve ARGS` (its "perft N: COUNT" line).
ms_perft() {
  gs "$@" 2>&1 | sed -n 's/^perft [0-9]*: //p'
}

# ms_series DESC "COUNTS" ARGS...: perft 1, 2, ... equal the counts.
ms_series() {
  ms_desc=$1 ms_want=$2
  shift 2
  ms_got="" ms_d=1
  for ms_c in $ms_want; do
    ms_got="$ms_got${ms_got:+ }$(ms_perft "$@" --perft $ms_d)"
    ms_d=$((ms_d + 1))
  done
  check "$ms_desc" "$ms_want" "$ms_got"
}

# English draughts: Bik's counts, which RBG's englishDraughts.rbg gives too.
ms_series "English draughts perft 1-7 (Bik, RBG)" "7 49 302 1469 7361 36768 179740" \
  games/draughts.game --engine vm
# International draughts: RBG's internationalDraughts.rbg (Bik's 6,483,961
# at depth 8 merges captures that differ only in their order; RBG does not).
ms_series "international draughts perft 1-5 (RBG)" "9 81 658 4265 27117" \
  games/draughts.game -D variant=international --engine vm
# Paper soccer: RBG's paperSoccer.rbg (a move is the whole path).
ms_series "paper soccer perft 1-5 (RBG)" "8 56 512 5312 69514" games/papersoccer.game --engine vm

# Positions counted by RBG: the game with a `pieces` line, for --fen.
{ cat games/draughts.game; printf 'pieces sq "bBwWt";\n'; } >"$ms_tmp/draughts.game"
# ms_rbg VARIANT FEN SIDE DEPTH COUNT [MOVES]: a line of draughts_rbg.txt.
ms_rbg() {
  if [ -n "$6" ]; then
    ms_n=$(ms_perft "$ms_tmp/draughts.game" -D variant=$1 --fen "$2 $3" --position "$6" --perft "$4" --engine vm)
  else
    ms_n=$(ms_perft "$ms_tmp/draughts.game" -D variant=$1 --fen "$2 $3" --perft "$4" --engine vm)
  fi
  check "$1 $2 $3${6:+ after $6} perft $4 (RBG)" "$5" "$ms_n"
}
ms_lines=$(grep -v '^#' tests/files/draughts_rbg.txt | grep -v '^$')
if [ -n "$GSOLVE_FULL" ]; then
  ms_pick=$ms_lines
else
  ms_pick=$(printf '%s\n' "$ms_lines" | grep ' quick')
fi
while IFS= read -r ms_line; do
  [ -n "$ms_line" ] || continue
  # shellcheck disable=SC2086  (the fields, split)
  ms_rbg ${ms_line% quick}
done <<EOF
$ms_pick
EOF

# A move of several steps is one move: listed, read back and played whole.
ms_fen="7B/8/3b4/8/5b2/8/1b1b1b2/W7 w"     # five jumps in a row (kept in the table)
ms_out=$(gs "$ms_tmp/draughts.game" --fen "$ms_fen" --all-moves --depth 1 --engine vm)
check "a chain of five jumps is one move" "a1xc3xe1xg3xe5xc7" "$(field best "$ms_out")"
ms_out=$(gs "$ms_tmp/draughts.game" --fen "$ms_fen" --position "a1xc3xe1xg3xe5xc7" --perft 1 --engine vm)
check "the chain read back: Black's king alone moves (h8-g7)" "1" "$(field 'perft 1' "$ms_out")"
ms_out=$(gs "$ms_tmp/draughts.game" --fen "$ms_fen" --position "a1xc3 xe1" --perft 0 2>&1)
check "a chain's first jump alone is no move" \
  "gsolve: error: illegal move 'a1xc3' at ply 1 (legal: a1xc3xe1xg3xe5xc7)" "$ms_out"
ms_pos="b6-c5 e3-f4 c5-d4 c3xe5 f6xd4 f4-g5 h6xf4 g3xe5 d6xf4 a3-b4 f4-g3 f2xh4 g7-f6 e1-f2 c7-d6 h2-g3 f8-g7 g1-h2 g7-h6 f2-e3 d4xf2 b2-c3 f6-g5 h4xf6 e7xg5 a1-b2 h8-g7 g3-h4 f2-e1 h4xf6xh8 a7-b6 c3-d4"
ms_out=$(gs games/draughts.game --position "$ms_pos" --depth 1 --all-moves --engine vm)
check "a king's three chains of two jumps (packed)" "e1xc3xa1 e1xc3xa5 e1xc3xe5" \
  "$(printf '%s\n' "$ms_out" | sed -n '/^move /,$p' | sed 1d | cut -d' ' -f1 | sort | tr '\n' ' ' | sed 's/ $//')"
check "the position after them" "Black" "$(field 'to move' "$ms_out")"
# play: the chain typed as one move.
ms_out=$(printf 'e1xc3xe5\nquit\n' | gs play games/draughts.game --position "$ms_pos" --first computer \
           --level 1 --ascii --seed 1 2>&1)
check "play: the chain typed as one move is played" "yes" \
  "$(printf '%s\n' "$ms_out" | grep -q '^  5  \. \. \. \. B \. \. \.' && echo yes)"
check "play: the men it took are gone" "yes" \
  "$(printf '%s\n' "$ms_out" | grep -q '^  4  \. w \. \. \. \. \. \.' && echo yes)"
# Paper soccer: a path with bounces, written as keypad digits.  After 8
# (north from the centre) and 1 (southwest, beside it), 6 goes back to the
# centre, which the first line touches: it bounces, and goes on in any
# direction whose line is free (not 8 nor 4, drawn).
ms_out=$(gs games/papersoccer.game --position "8 2" --perft 0 2>&1)
check "paper soccer: back along a drawn line is no move" \
  "gsolve: error: illegal move '2' at ply 2 (legal: 8, 9, 6, 3, 1, 4, 7)" "$ms_out"
ms_out=$(gs games/papersoccer.game --position "8, 1, 6" --perft 0 2>&1)
check "paper soccer: a step onto a touched point must go on" \
  "gsolve: error: illegal move '6' at ply 3 (legal: 8, 69, 66, 63, 62, 61, 67, 3, 2, 1, 4, 7)" "$ms_out"
ms_out=$(gs games/papersoccer.game --position "8, 1, 69" --perft 0 2>&1)
check "paper soccer: a bounce and the step after it are one move" "8, 1, 69" "$(field position "$ms_out")"

# The compiled tier gives the same counts and moves.
ms_same() {
  ms_desc=$1
  shift
  ms_vm=$(gs "$@" --engine vm 2>&1 | grep -v -E '^(seconds|engine|playouts/s):')
  ms_c=$(GSOLVE_CACHE=$ms_cache gs "$@" --engine compiled 2>&1 | grep -v -E '^(seconds|engine|playouts/s):')
  check "compiled = vm: $ms_desc" "$ms_vm" "$ms_c"
}
ms_same "English draughts perft 6" games/draughts.game --perft 6
ms_same "English draughts playouts" games/draughts.game --playouts 20 --seed 3
ms_same "five jumps" "$ms_tmp/draughts.game" --fen "$ms_fen" --all-moves --depth 2
ms_same "paper soccer perft 4" games/papersoccer.game --perft 4

# The VM's own checks (tests/unit/test_vm.c) along random lines: the hash
# after every apply and undo, undo restores the state, generation is
# deterministic, notations are distinct.
unit "VM consistency: draughts" "$BUILD/test_vm" games/draughts.game
unit "VM consistency: international draughts" "$BUILD/test_vm" games/draughts.game -D variant=international
GSOLVE_CACHE=$ms_cache GSOLVE_TEST_ENGINE=compiled unit "compiled consistency: draughts" "$BUILD/test_vm" \
  games/draughts.game

# A move that must go on but cannot is no move; an outcome ends one.
cat >"$ms_tmp/dead.game" <<'EOF'
game "Dead ends";
players A, B;
state n: 0..9;
// go 1 ends the move; go 2 goes on, and go 1 follows (the move is go 2,
// go 1); go 3 goes on to nothing (no move); go 4 wins at once, and its
// `continue move` does not count.
move go(k: 1..4) when n < 9 && (n == 0 || (k == 1 && n != 3)) {
  n += k;
  if k >= 2 { continue move; }
  if k == 4 { win mover; }
}
EOF
ms_out=$(gs "$ms_tmp/dead.game" --all-moves --engine vm | sed -n '/^move /,$p' | sed 1d | sed 's/  .*//' |
         tr '\n' ',')
check "dead ends are no moves, an outcome ends the move" "go 1,go 2 go 1,go 4," "$ms_out"

# Moves too long to pack into a Move (steps of 30 bits, three a move):
# kept in the engine's table, read back whole.
ms_series "moves kept in the table" "8 64 512 0" tests/files/steps_table.game --engine vm
ms_out=$(gs tests/files/steps_table.game --position "2/0+1/1+2/2, 1/3+1/4+1/5" --perft 1 | sed -n 's/^position: //p')
check "moves kept in the table, read back" "2/0+1/1+2/2, 1/3+1/4+1/5" "$ms_out"
unit "VM consistency: moves kept in the table" "$BUILD/test_vm" tests/files/steps_table.game
ms_same "moves kept in the table" tests/files/steps_table.game --perft 3

# --dump-ast names the new statements (and every kind: the names were one
# off after `symmetry`, whose neighbour `pieces` had none).
ms_out=$(gs "$ms_tmp/dead.game" --dump-ast | grep -c -E '^ +(continue-move|paramdecl) ')
check "--dump-ast: continue-move and paramdecl" "2" "$ms_out"

# Priorities below 0: the highest is kept, whatever its sign.
cat >"$ms_tmp/negative.game" <<'EOF'
game "Negative";
players A, B;
state n: 0..3;
move go(k: 1..3) when n == 0 { n = k; priority -k; }
EOF
ms_out=$(gs "$ms_tmp/negative.game" --perft 1 --position "go 1" 2>&1 | sed -n 's/^position: //p')
check "the highest priority, below 0" "go 1" "$ms_out"
ms_out=$(gs "$ms_tmp/negative.game" --position "go 2" 2>&1)
check "a lower priority is no move" "gsolve: error: illegal move 'go 2' at ply 1 (legal: go 1)" "$ms_out"

# With a repetition rule: only whole moves are tested, never the position
# in the middle of one.  5 places, each move goes one place on (f, or j
# then b: two on, one back), and no place may come back: 2^4 lines of 4
# moves, then none.
cat >"$ms_tmp/ring.game" <<'EOF'
game "Ring";
players A, B;
state at: 0..4;
state mid: bool;
repetition forbidden of at;
move fwd() as "f", "f" when !mid { at = (at + 1) % 5; }
move jump() as "j", "j" when !mid { at = (at + 2) % 5; mid = true; continue move; }
move back() as "b", "b" when mid { at = (at + 4) % 5; mid = false; }
EOF
ms_series "a repetition rule tests whole moves" "2 4 8 16 0" "$ms_tmp/ring.game" --engine vm
unit "VM consistency: moves of several steps under a repetition rule" "$BUILD/test_vm" "$ms_tmp/ring.game"

if [ -n "$GSOLVE_FULL" ]; then
  ms_n=$(GSOLVE_CACHE=$ms_cache ms_perft games/draughts.game --engine compiled --perft 9)
  check "English draughts perft 9 (Bik, RBG), compiled" "3963680" "$ms_n"
  ms_n=$(GSOLVE_CACHE=$ms_cache ms_perft games/draughts.game -D variant=international --engine compiled --perft 8)
  check "international draughts perft 8 (RBG), compiled" "6483971" "$ms_n"
  ms_n=$(ms_perft games/draughts.game -D variant=international --engine vm --perft 6)
  check "international draughts perft 6 (RBG), vm" "167140" "$ms_n"
  ms_n=$(GSOLVE_CACHE=$ms_cache ms_perft games/papersoccer.game --engine compiled --perft 7)
  check "paper soccer perft 7 (RBG), compiled" "21131860" "$ms_n"
  ms_n=$(ms_perft games/papersoccer.game --engine vm --perft 6)
  check "paper soccer perft 6 (RBG), vm" "1082662" "$ms_n"
fi

rm -rf "$ms_tmp"
