# tests/t_simultaneous.sh -- simultaneous moves (docs/language.md 4.20):
# rock-paper-scissors, a textbook matrix game and Goofspiel against their
# published values, by CFR (the value within its bound) and by the matrix
# solver (backward induction with a linear program per round) and by lp;
# what the views hide; the lowering's counts, and its errors.  Sourced by
# tests/run.sh.
# The compiled tier builds into a cache of this script's own: the shared
# empty cache of tests/run.sh must stay empty, or `--engine auto` in the
# scripts after this one would take the compiled tier (t_golden's engine).
GSOLVE_CACHE=$(cd "$BUILD" && pwd)/tests/simultaneous-cache
mkdir -p "$GSOLVE_CACHE" && chmod 700 "$GSOLVE_CACHE"
export GSOLVE_CACHE

# near A B TOL: "yes" when |A - B| <= TOL.
near() { awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; print (a != "" && d <= t) ? "yes" : "no (" a " vs " b ")" }'; }
# within V JSON: "yes" when V lies in the JSON report's score_interval
# (CFR's: the value is there, whatever the exploitability).
within() {
  printf '%s\n' "$2" | sed -n 's/.*"score_interval":\[\([^],]*\),\([^]]*\)\].*/\1 \2/p' |
    awk -v v="$1" '{ print ($1 - 1e-12 <= v && v <= $2 + 1e-12) ? "yes" : "no (" v " not in [" $1 ", " $2 "])" }'
}
sim_tmp=$(mktemp -d)

# ---- rock-paper-scissors: value 0, each hand 1/3 ---------------------------
out=$(gs games/rps.game --exploitability 1e-6)
check "rps: cfr's strategy 1/3 each" "rock 0.333333, paper 0.333333, scissors 0.333333" \
  "$(field strategy "$out")"
check "rps: cfr's value 0" "0 ± 0" "$(field score "$out")"
out=$(gs games/rps.game --solver matrix)
check "rps: matrix: value 0, each hand 1/3, exploitability 0" \
  "0 ± 0|rock 0.333333, paper 0.333333, scissors 0.333333|0|matrix" \
  "$(field score "$out")|$(field strategy "$out")|$(field exploitability "$out")|$(field solver "$out")"
check "rps: 9 lines of two moves" 9 "$(field 'perft 2' "$(gs games/rps.game --perft 2)")"
# After the round the choices are reset: 1 start, 3 after A's choice,
# 3 ends (a draw, A wins, B wins).
check "rps: 7 positions (the choices forgotten after the round)" 7 \
  "$(field positions "$(gs games/rps.game --count)")"

# ---- the views: B does not see A's hand until the effect -------------------
b_rock=$(gs games/rps.game --position rock --info-state | sed -n 's/^info-state B: //p')
b_paper=$(gs games/rps.game --position paper --info-state | sed -n 's/^info-state B: //p')
check "rps: B's information state is the same after rock and after paper" "$b_rock" "$b_paper"
check "rps: B sees that A has chosen" "yes" \
  "$(printf '%s' "$b_rock" | grep -q '| A simultaneous.round=1$' && echo yes)"
check "rps: A recalls his own hand (his move), the cells are hidden from all" "yes" \
  "$(gs games/rps.game --position rock --info-state | grep -q '^info-state A: .*show.h=\[?,?\] | A rock simultaneous.round=1' && echo yes)"
check "rps: after the round both see the outcome" "over=true winner=B" \
  "$(gs games/rps.game --position 'rock, paper' --info-state | sed -n 's/^info-state A: \(over=true winner=B\).*/\1/p')"
check "rps: the perfect-information solvers refuse it" "2" \
  "$(gs games/rps.game --solver alphabeta >/dev/null 2>&1; echo $?)"

# ---- the Mendelsohn game (Ferguson, Game Theory, Part II): value 0, ----------
# ---- optimal (1/4, 1/2, 1/4) for both ------------------------------------
out=$(gs games/matrix.game --solver matrix)
check "mendelsohn: matrix: value 0, (1/4, 1/2, 1/4)" "0 ± 0|1 0.250000, 2 0.500000, 3 0.250000" \
  "$(field score "$out")|$(field strategy "$out")"
out=$(gs games/matrix.game --exploitability 1e-4 --json)
check "mendelsohn: cfr's interval holds the value 0" yes "$(within 0 "$out")"

# ---- Odd-or-even (Ferguson, Part II, 1.1): value 1/12, Row 7/12 on 1 -------
oe="-D rows=2 -D cols=2 -D payoff=-2,3,3,-4"
out=$(gs games/matrix.game $oe --solver matrix)
check "odd-or-even: matrix: value 1/12" yes "$(near "$(field score "$out" | cut -d' ' -f1)" 0.0833333333333 1e-9)"
check "odd-or-even: matrix: Row calls 1 with 7/12" "1 0.583333, 2 0.416667" "$(field strategy "$out")"
out=$(gs games/matrix.game $oe --exploitability 1e-4 --json)
check "odd-or-even: cfr's interval holds 1/12" yes "$(within 0.0833333333333 "$out")"
# Column's optimal mix is 7/12 too (the matrix is symmetric): his strategy
# file line, written by the matrix solver.
gs games/matrix.game $oe --solver matrix --strategy "$sim_tmp/oe.txt" >/dev/null
check "odd-or-even: matrix's strategy file: Column 7/12 on 1" "1 0.583333333 2 0.416666667" \
  "$(grep '^Column' "$sim_tmp/oe.txt" | cut -f3- | tr '\t' ' ')"

# ---- Goofspiel: value 0 (Rhoads and Bartholdi 2012; symmetric) -------------
# 4 prizes: 4! orders of the prizes times 4! x 4! orders of the bids.
check "goofspiel 4: 13824 lines (4! x 4! x 4!)" 13824 \
  "$(field 'perft 12' "$(gs games/goofspiel.game --perft 12)")"
check "goofspiel 4: the compiled tier counts the same lines" 13824 \
  "$(field 'perft 12' "$(gs games/goofspiel.game --perft 12 --engine compiled 2>/dev/null)")"
out=$(gs games/goofspiel.game --solver matrix --json)
check "goofspiel 4: matrix: value 0" yes \
  "$(near "$(printf '%s\n' "$out" | sed -n 's/.*"score":\([^,]*\),.*/\1/p')" 0 1e-9)"
check "goofspiel 4: matrix: exploitability 0" yes \
  "$(near "$(printf '%s\n' "$out" | sed -n 's/.*"exploitability":\([^,]*\),.*/\1/p')" 0 1e-9)"
out=$(gs games/goofspiel.game --exploitability 0.02 --json)
check "goofspiel 4: cfr's interval holds the value 0" yes "$(within 0 "$out")"

# ---- the same games by the sequence-form LP (--solver lp): exact values ------
out=$(gs games/rps.game --solver lp)
check "rps: lp: value 0 exactly, each hand 1/3" "0|rock 0.333333, paper 0.333333, scissors 0.333333" \
  "$(field value "$out")|$(field strategy "$out")"
out=$(gs games/matrix.game --solver lp)
check "mendelsohn: lp: value 0 exactly, (1/4, 1/2, 1/4)" "0|1 0.250000, 2 0.500000, 3 0.250000" \
  "$(field value "$out")|$(field strategy "$out")"
out=$(gs games/matrix.game $oe --solver lp)
check "odd-or-even: lp: value 1/12 exactly, Row 7/12 on 1" "1/12 (0.0833333)|1 0.583333, 2 0.416667" \
  "$(field value "$out")|$(field strategy "$out")"
check "goofspiel 3: lp: value 0 exactly" "0" "$(field value "$(gs games/goofspiel.game -D cards=3 --solver lp)")"
# Goofspiel 4's program: about 7 s of CPU (the full suite).
if [ -n "$GSOLVE_FULL" ]; then
  check "goofspiel 4: lp: value 0 exactly, exploitability 0" "0 0" \
    "$(out=$(gs games/goofspiel.game --solver lp); echo "$(field value "$out") $(field exploitability "$out")")"
fi
out=$(gs games/goofspiel.game -D cards=3 --solver matrix)
check "goofspiel 3: matrix: value 0" yes "$(near "$(field score "$out" | cut -d' ' -f1)" 0 1e-9)"

# ---- the matrix solver refuses other hidden information --------------------
err=$(gs games/kuhn.game --solver matrix 2>&1 >/dev/null)
check "kuhn: the matrix solver refuses poker (exit 3)" "3" \
  "$(gs games/kuhn.game --solver matrix >/dev/null 2>&1; echo $?)"
check "kuhn: ... and says to use cfr" yes \
  "$(printf '%s' "$err" | grep -q 'only simultaneous moves.*use --solver cfr' && echo yes)"

# ---- errors ------------------------------------------------------------------
cat > "$sim_tmp/bad.game" <<'GAME'
game "Bad";
players A, B;
state x: 0..3;
simultaneous move m(c: 1..3) by A, none { x = c[A]; }
GAME
check "error: a 'by' name that is not a player" \
  "bad.game:4:36: error: 'none' is not a player: a simultaneous move is made by players named in 'players'" \
  "$(gs "$sim_tmp/bad.game" 2>&1 | head -n 1 | sed "s|^$sim_tmp/||")"
# `simultaneous` is a keyword only where a declaration starts (as `valid`):
# a name elsewhere.
cat > "$sim_tmp/name.game" <<'GAME'
game "Names";
players A, B;
state simultaneous: 0..1;
function by(): int { var simultaneous = 1; return simultaneous; }
move m() when simultaneous == 0 { simultaneous = by(); }
GAME
check "the word 'simultaneous' as a name outside a declaration's start" "1 0" \
  "$(field 'perft 1' "$(gs "$sim_tmp/name.game" --perft 1)") $(gs "$sim_tmp/name.game" --perft 1 >/dev/null 2>&1; echo $?)"
rm -rf "$sim_tmp"
