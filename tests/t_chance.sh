# tests/t_chance.sh -- chance moves, per-move payoffs and more than two
# players: the expectimax / max^n solver, Star1 alpha-beta and retrograde
# analysis with payoff vectors, on values derived by hand (in the game
# files' headers) and against each other on every position of small games.
# Sourced by tests/run.sh (check, field, gs from tests/lib.sh).

# score, payoffs, plies and best of a JSON run (what all three give).
ch_root() {
  printf '%s\n' "$1" | sed 's/.*"score":\([^,]*\),.*"plies":\([^,]*\),"best":\(\[[^]]*\]\).*/\1 \2 \3/'
}
ch_payoffs() {
  printf '%s\n' "$1" | sed 's/.*"payoffs":\(\[[^]]*\]\).*/\1/'
}

# ---- The dice duel: worth -5/108 to First (games/dice.game) -----------
for s in expectimax alphabeta retro; do
  out=$(gs games/dice.game --solver $s)
  check "dice duel, $s: score -5/108" "-0.0462962963" "$(field score "$out")"
  check "dice duel, $s: value (not certain)" "-" "$(field value "$out")"
  check "dice duel, $s: plies (not certain)" "-" "$(field plies "$out")"
  check "dice duel, $s: to move" "chance" "$(field 'to move' "$out")"
done
out=$(gs games/dice.game --solver expectimax --json)
check "dice duel: payoffs P(First wins), P(Second wins)" "[0.365740740740741,0.412037037037037]" "$(ch_payoffs "$out")"
# First keeps 4, 5, 6 and rerolls 1, 2, 3: rerolling is worth -8/27.
out=$(gs games/dice.game --all-moves)
check "dice duel: rolling 1..3 is worth -8/27 (reroll)" "3" "$(printf '%s\n' "$out" | grep -c '^rolls [123]  -  *-0.2962962963  *-  *0.1666666667$')"
check "dice duel: rolling 4 is worth -9/36" "rolls 4  -             -0.25      -  0.1666666667" "$(printf '%s\n' "$out" | grep '^rolls 4')"
check "dice duel: rolling 6 is worth 25/36" "rolls 6  -      0.6944444444      -  0.1666666667" "$(printf '%s\n' "$out" | grep '^rolls 6')"
for r in 1 2 3; do
  check "dice duel: First rerolls a $r" "reroll" "$(field best "$(gs games/dice.game --position "rolls $r")")"
done
for r in 4 5 6; do
  check "dice duel: First keeps a $r" "keep" "$(field best "$(gs games/dice.game --position "rolls $r")")"
done
# Second, on First's 3, rerolls a 3 (a draw is worth less than (7-2*3)/6).
check "dice duel: Second rerolls a tie on 3" "reroll" "$(field best "$(gs games/dice.game --position "rolls 3, keep, rolls 3")")"
check "dice duel: Second keeps a tie on 4" "keep" "$(field best "$(gs games/dice.game --position "rolls 4, keep, rolls 4")")"
# A coin each (sides=2, one roll): First wins 1/4, loses 1/4: worth 0.
check "dice duel, a coin each: worth 0" "0" "$(field score "$(gs games/dice.game -D sides=2 -D rolls=1)")"
# Weights: a loaded die is the same die with weights.
check "dice duel: positions" "134" "$(field positions "$(gs games/dice.game --count)")"

# ---- Every position of a bigger duel: the three solvers agree ---------
# (-D sides=4 rolls=3: all First's decisions, after each roll.)
for p in "" "rolls 1" "rolls 2" "rolls 3" "rolls 4" "rolls 2, reroll" "rolls 1, reroll, rolls 3" \
         "rolls 4, keep" "rolls 3, keep, rolls 2" "rolls 2, keep, rolls 2, reroll, rolls 1" \
         "rolls 1, reroll, rolls 1, reroll, rolls 4, keep, rolls 3"; do
  em=$(gs games/dice.game -D sides=4 -D rolls=3 --position "$p" --solver expectimax --all-moves --json)
  ab=$(gs games/dice.game -D sides=4 -D rolls=3 --position "$p" --solver alphabeta --all-moves --json)
  ab0=$(gs games/dice.game -D sides=4 -D rolls=3 --position "$p" --solver alphabeta --tt-size 0 --json)
  rt=$(gs games/dice.game -D sides=4 -D rolls=3 --position "$p" --solver retro --all-moves --json)
  check "dice 4x3 '$p': alphabeta = expectimax" "$(ch_root "$em")" "$(ch_root "$ab")"
  check "dice 4x3 '$p': alphabeta, no table = expectimax" "$(ch_root "$em")" "$(ch_root "$ab0")"
  check "dice 4x3 '$p': retro = expectimax" "$(ch_root "$em")" "$(ch_root "$rt")"
  check "dice 4x3 '$p': retro payoffs = expectimax" "$(ch_payoffs "$em")" "$(ch_payoffs "$rt")"
  check "dice 4x3 '$p': --all-moves, alphabeta = expectimax" \
    "$(printf '%s\n' "$em" | sed 's/.*"moves"://')" "$(printf '%s\n' "$ab" | sed 's/.*"moves"://')"
done

# ---- The pot: three players, per-move payoffs (games/pot.game) --------
out=$(gs games/pot.game -D coins=1,2,4 --solver expectimax --json)
check "pot 1,2,4: payoffs by hand" "[3,4,0]" "$(ch_payoffs "$out")"
check "pot 1,2,4: Ann takes two" "3 2 [\"take 2\"]" "$(ch_root "$out")"
check "pot 1,2,4: value (three players)" "null" "$(printf '%s\n' "$out" | sed 's/.*"value":\([^,]*\),.*/\1/')"
for c in "3,1,4,1,5,9,2,6" "5,5,5,5,5,5" "1,9,1,9,1,9,1" "2,7,1,8,2,8,1,8,2,8"; do
  em=$(gs games/pot.game -D coins=$c --solver expectimax --all-moves --json)
  rt=$(gs games/pot.game -D coins=$c --solver retro --all-moves --json)
  check "pot $c: retro = expectimax" "$(ch_root "$em") $(ch_payoffs "$em")" "$(ch_root "$rt") $(ch_payoffs "$rt")"
  check "pot $c: --all-moves, retro = expectimax" \
    "$(printf '%s\n' "$em" | sed 's/.*"moves"://')" "$(printf '%s\n' "$rt" | sed 's/.*"moves"://')"
done
out=$(gs games/pot.game --solver expectimax)
check "pot: payoffs" "Ann 15, Bob 10, Cat 6" "$(field payoffs "$out")"

# ---- What the other solvers say ------------------------------------
out=$(gs games/pot.game --solver alphabeta 2>&1); st=$?
check "pot: alphabeta refuses three players (exit 2)" "2" "$st"
check "pot: alphabeta says what to use" "gsolve: error: the alphabeta solver needs one or two players (this game has 3): use --solver retro, expectimax or value-iteration" "$out"
check "pot: auto takes max^n" "$(gs games/pot.game --solver expectimax --json | sed 's/"seconds":[0-9.]*//')" \
  "$(gs games/pot.game --json | sed 's/"seconds":[0-9.]*//')"
out=$(gs games/dice.game --solver minimax 2>&1); st=$?
check "dice: minimax refuses chance (exit 2)" "2" "$st"
check "dice: minimax says what to use" "gsolve: error: the minimax solver does not handle chance moves: use --solver alphabeta, retro, expectimax or value-iteration" "$out"
out=$(gs games/dice.game --depth 3 2>&1); st=$?
check "dice: --depth refuses chance (exit 2)" "2 gsolve: error: --depth takes deterministic games without per-move payoffs" "$st $out"
out=$(gs games/dice.game --solver retro --db /tmp/gsolve-dice.db 2>&1); st=$?
check "dice: no database with payoff vectors (exit 2)" "2" "$st"

# ---- Per-move payoffs with two players: alphabeta (on expected values)
# against expectimax, and the pay-less equivalent (coins, in `score`).
ch_tmp=$(mktemp "${TMPDIR:-/tmp}/gsolve-pay.XXXXXX")
cat >"$ch_tmp" <<'GAME'
game "Coins paid per move";
players First, Second;
param coins = [3, 1, 4, 1, 5, 9, 2, 6];
state taken: 0..len(coins);
move take(k: 1..2) when taken + k <= len(coins) {
  for i in taken..taken + k - 1 { pay mover, coins[i]; }
  taken += k;
}
end { if taken == len(coins) { draw; } }
GAME
for c in "3,1,4,1,5,9,2,6" "1,2" "9,1,1,9,1" "4,4,4,4,4"; do
  em=$(gs "$ch_tmp" -D coins=$c --solver expectimax --all-moves --json)
  ab=$(gs "$ch_tmp" -D coins=$c --solver alphabeta --all-moves --json)
  check "paid coins $c: alphabeta = expectimax" "$(ch_root "$em")" "$(ch_root "$ab")"
  check "paid coins $c: --all-moves alphabeta = expectimax" \
    "$(printf '%s\n' "$em" | sed 's/.*"moves"://')" "$(printf '%s\n' "$ab" | sed 's/.*"moves"://')"
done
out=$(gs "$ch_tmp" -D coins=1,2 --all-moves)
check "paid coins 1,2: take 2 wins by 3" "win 3 1 take 2" "$(field value "$out") $(field score "$out") $(field plies "$out") $(field best "$out")"
rm -f "$ch_tmp"

# ---- --all-moves from the start: the same list under every solver ----
for g in "games/dice.game" "games/dice.game -D sides=5 -D rolls=3" "games/pot.game"; do
  ch_ref=$(gs $g --solver expectimax --all-moves --json | sed 's/.*"moves"://')
  for s in alphabeta retro; do
    case "$g:$s" in *pot*:alphabeta) continue ;; esac
    check "$g: --all-moves, $s = expectimax" "$ch_ref" "$(gs $g --solver $s --all-moves --json | sed 's/.*"moves"://')"
  done
done

# ---- What the other modes say ----------------------------------------
out=$(gs games/dice.game --tree-dot /tmp/gsolve-dice.dot 2>&1); st=$?
check "dice: --tree-dot refuses chance (exit 2)" "2 gsolve: error: --tree-dot draws games without chance moves" "$st $out"
out=$(gs games/dice.game --pv 2>&1); st=$?
check "dice: --pv refuses chance (exit 2)" "2 gsolve: error: --pv takes games without chance, per-move payoffs or more than two players, or --solver value-iteration (a line sampled with --seed)" "$st $out"
# play: chance draws its moves by weight, with the game's seed.
out=$(gs play games/dice.game --self-play --seed 3 --ascii --show-evals)
check "play dice: chance rolls" "2" "$(printf '%s\n' "$out" | grep -c '^chance: rolls [1-6]$')"
check "play dice: First keeps a 4 (-0.25 against -8/27)" "  keep          -0.2500  best" "$(printf '%s\n' "$out" | grep -m1 '^  keep ')"
check "play dice: the game ends" "game over: a draw (4 moves)" "$(printf '%s\n' "$out" | tail -n 1)"
out=$(gs play games/pot.game -D coins=1,2,4 --self-play --seed 1 --ascii)
check "play pot: payoffs are what the moves paid" "game over: Bob wins; final score Ann 3, Bob 4, Cat 0 (2 moves)" "$(printf '%s\n' "$out" | tail -n 1)"

# ---- Stopping: --time-limit ends a long expected-value solve ------------
out=$(gs games/dice.game -D sides=20 -D rolls=5 --solver expectimax --tt-size 0 --time-limit 1 2>&1); st=$?
check "expectimax --time-limit: exit 5" "5" "$st"
check "expectimax --time-limit: the message" "1" "$(printf '%s\n' "$out" | grep -c '^gsolve: error: time limit of 1 second reached after [0-9]* nodes and [0-9.]* seconds; no result$')"

# A symmetric game is worth 0: rounding noise is not shown, nor signed
# (dice 20 sides, 1 roll printed 2.8e-17 and -5.6e-17: QA, session 8).
for ch_solver in alphabeta expectimax retro; do
  check "dice sides=20 rolls=1, $ch_solver: score 0" "0" \
    "$(field score "$(gs games/dice.game -D sides=20 -D rolls=1 --solver $ch_solver)")"
done
