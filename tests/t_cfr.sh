# tests/t_cfr.sh -- counterfactual regret minimisation (--solver cfr):
# Kuhn and Leduc poker against their published values and the uniform
# strategy's exactly derived NashConv, perfect-information games against
# the exact solvers, strategy files, play and playouts from a strategy,
# the options and their errors.  Sourced by tests/run.sh.

# near A B TOL: "yes" when |A - B| <= TOL.
near() { awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; print (a != "" && d <= t) ? "yes" : "no (" a " vs " b ")" }'; }
# below A B: "yes" when A < B.
below() { awk -v a="$1" -v b="$2" 'BEGIN { print (a != "" && a + 0 < b + 0) ? "yes" : "no (" a " >= " b ")" }'; }

cfr_tmp=$(mktemp -d)

# ---- Kuhn poker: 12 information sets, value -1/18 -------------------------
out=$(gs games/kuhn.game --exploitability 5e-5 --stats 2>"$cfr_tmp/err")
check "kuhn: auto chooses cfr" "yes" \
  "$(grep -q '^stats: solver cfr+ (hidden information (views)' "$cfr_tmp/err" && echo yes)"
check "kuhn: 12 information sets" 12 "$(field infosets "$out")"
check "kuhn: 58 histories (1 + 3 + 6 deals, 9 betting nodes each)" 58 "$(field histories "$out")"
check "kuhn: value -1/18 for P1 to 1e-4" yes "$(near "$(field score "$out")" -0.0555555556 1e-4)"
check "kuhn: exploitability below 1e-4" yes "$(below "$(field exploitability "$out")" 1e-4)"
check "kuhn: payoffs zero-sum" "yes" "$(printf '%s\n' "$out" | awk -F'[ ,]+' '/^payoffs:/ { s = $3 + $5; print (s < 1e-9 && s > -1e-9) ? "yes" : "no " s }')"
check "kuhn: the solver is cfr+" "cfr+" "$(field solver "$out")"
# The score is known only to the exploitability: printed to the digits
# that supports, with the bound on its distance to the game's value (it
# was printed to ten digits); JSON keeps the number and adds the bound
# and the interval the value lies in, which holds -1/18.
check "kuhn: score with its bound" yes \
  "$(field score "$out" | grep -qE '^-0\.0555[0-9]* ± 0\.0000[0-9]+$' && echo yes || field score "$out")"
out=$(gs games/kuhn.game --solver cfr --json)
check "kuhn JSON: score_bound and score_interval" yes \
  "$(printf '%s' "$out" | grep -qE '"score":-0\.05[0-9]+,.*"score_bound":0\.00[0-9]+,"score_interval":\[-0\.05[0-9]+,-0\.05[0-9]+\]' && echo yes || echo "$out")"
check "kuhn JSON: the interval holds the value -1/18" yes \
  "$(printf '%s' "$out" | sed -n 's/.*"score_interval":\[\([^,]*\),\([^]]*\)\].*/\1 \2/p' | awk '{ v = -1 / 18; print ($1 <= v && v <= $2) ? "yes" : "no " $0 }')"
check "pot (3 players): no bound (no game value)" '"score_bound":null,"score_interval":null' \
  "$(gs games/pot.game --solver cfr --quiet --json | grep -o '"score_bound":null,"score_interval":null')"
# The uniform strategy (0 iterations): NashConv 11/12 exactly.
out=$(gs games/kuhn.game --iterations 0 --json)
check "kuhn: uniform NashConv 11/12" yes "$(near "$(printf '%s' "$out" | sed -n 's/.*"nash_conv":\([^,]*\).*/\1/p')" 0.9166666667 1e-9)"
check "kuhn: uniform exploitability 11/24" yes "$(near "$(printf '%s' "$out" | sed -n 's/.*"exploitability":\([^,]*\).*/\1/p')" 0.4583333333 1e-9)"
check "kuhn: JSON iterations 0, infosets, histories" '"iterations":0,"infosets":12,"histories":58' \
  "$(printf '%s' "$out" | grep -o '"iterations":0,"infosets":12,"histories":58')"
# Vanilla CFR: slower, the same answer.
out=$(gs games/kuhn.game --cfr-variant vanilla --exploitability 1e-3 --json)
check "kuhn vanilla: solver cfr" '"solver":"cfr"' "$(printf '%s' "$out" | grep -o '"solver":"cfr"')"
check "kuhn vanilla: exploitability below 1e-3" yes "$(below "$(printf '%s' "$out" | sed -n 's/.*"exploitability":\([^,]*\).*/\1/p')" 1e-3)"
check "kuhn vanilla: value -1/18 to 1e-2" yes "$(near "$(printf '%s' "$out" | sed -n 's/.*"score":\([^,]*\).*/\1/p')" -0.0555555556 1e-2)"
# --iterations N stops there; with --exploitability, whichever first.
check "kuhn: --iterations 37" 37 "$(field iterations "$(gs games/kuhn.game --iterations 37)")"
check "kuhn: --iterations 100000 with --exploitability 1e-2 stops early" yes \
  "$(below "$(field iterations "$(gs games/kuhn.game --iterations 100000 --exploitability 1e-2)")" 1000)"
# The strategy at a decision: P1 with the jack after the deal.
out=$(gs games/kuhn.game --position "deal J, deal Q" --iterations 2000)
check "kuhn: the strategy at P1's decision has check and bet" yes \
  "$(field strategy "$out" | grep -qE '^check 0\.[0-9]+, bet 0\.[0-9]+$' && echo yes)"

# ---- Leduc hold'em: 936 information sets, value -0.0856 -------------------
out=$(gs games/leduc.game --exploitability 1e-3)
check "leduc: 936 information sets" 936 "$(field infosets "$out")"
check "leduc: value -0.0856 to 1e-3" yes "$(near "$(field score "$out")" -0.0856 1e-3)"
check "leduc: exploitability below 1e-3" yes "$(below "$(field exploitability "$out")" 1e-3)"
out=$(gs games/leduc.game --iterations 0 --json)
check "leduc: uniform NashConv 4.747222" yes "$(near "$(printf '%s' "$out" | sed -n 's/.*"nash_conv":\([^,]*\).*/\1/p')" 4.747222 1e-6)"

# ---- perfect information: CFR approaches the solved value -----------------
ab=$(field score "$(gs games/tictactoe.game --quiet)")
out=$(gs games/tictactoe.game --solver cfr --exploitability 1e-4 --quiet --strategy "$cfr_tmp/ttt.strat")
check "tictactoe: cfr's score near alphabeta's (0)" yes "$(near "$(field score "$out")" "$ab" 1e-3)"
check "tictactoe: exploitability below 1e-4" yes "$(below "$(field exploitability "$out")" 1e-4)"
check "tictactoe: one information set per position with X or O to move" 4520 "$(field infosets "$out")"
for dims in "3 3" "3 4" "4 3"; do
  set -- $dims
  ab=$(field score "$(gs games/hexapawn.game -D width=$1 -D height=$2 --quiet)")
  out=$(gs games/hexapawn.game -D width=$1 -D height=$2 --solver cfr --exploitability 1e-3 --quiet)
  check "hexapawn ${1}x$2: cfr's score near alphabeta's ($ab)" yes "$(near "$(field score "$out")" "$ab" 1e-2)"
done
# More players: CFR runs, the payoffs are max^n's here (one equilibrium).
out=$(gs games/pot.game --solver cfr --exploitability 1e-4 --quiet)
check "pot (3 players): payoffs near max^n's 15, 10, 6" "yes yes yes" \
  "$(printf '%s\n' "$out" | awk -F'[ ,]+' '/^payoffs:/ { printf "%s %s %s", ($3 - 15)^2 < 1e-4 ? "yes" : "no", ($5 - 10)^2 < 1e-4 ? "yes" : "no", ($7 - 6)^2 < 1e-4 ? "yes" : "no" }')"

# ---- strategy files --------------------------------------------------------
gs games/kuhn.game --exploitability 1e-4 --strategy "$cfr_tmp/kuhn.strat" >/dev/null
check "strategy: the first line" "# gsolve strategy 1" "$(head -n 1 "$cfr_tmp/kuhn.strat")"
check "strategy: one line per information set" 12 "$(grep -vc '^#' "$cfr_tmp/kuhn.strat")"
check "strategy: every line is player, state, then moves and probabilities summing to 1" 12 \
  "$(grep -v '^#' "$cfr_tmp/kuhn.strat" | awk -F'\t' '($1 == "P1" || $1 == "P2") && NF == 6 && ($4 + $6 - 1)^2 < 1e-12 { n++ } END { print n + 0 }')"
check "strategy: P1 with J checks or bets" yes \
  "$(grep -q '^P1	card=\[J,?\][^	]*	check	[0-9.e-]*	bet	[0-9.e-]*$' "$cfr_tmp/kuhn.strat" && echo yes)"
# Writing over an earlier strategy file is allowed (its first line, 20
# bytes, was read into a 16-byte buffer: ASan, session 10); over a file of
# another kind it is refused.
gs games/kuhn.game --iterations 50 --strategy "$cfr_tmp/kuhn.strat" >/dev/null 2>&1
check "strategy: written over an earlier strategy file" "0 12" \
  "$? $(grep -vc '^#' "$cfr_tmp/kuhn.strat")"
cp games/kuhn.game "$cfr_tmp/k.game"
gs games/kuhn.game --iterations 50 --strategy "$cfr_tmp/k.game" >/dev/null 2>&1
check "strategy: a .game file is not overwritten (exit 2, file intact)" "2 same" \
  "$? $(cmp -s games/kuhn.game "$cfr_tmp/k.game" && echo same)"
# The strategy CFR found for tic-tac-toe (above) draws every game against
# itself.
out=$(gs games/tictactoe.game --playouts 2000 --seed 3 --play-strategy "$cfr_tmp/ttt.strat")
check "playouts from tic-tac-toe's strategy: all draws" 2000 "$(field draws "$out")"
out=$(gs games/tictactoe.game --playouts 2000 --seed 3)
check "playouts without it: not all draws" yes "$(below "$(field draws "$out")" 1000)"
# Playouts from Kuhn's strategy (chance's moves by their weights).
check "playouts from Kuhn's strategy" 1000 \
  "$(field playouts "$(gs games/kuhn.game --playouts 1000 --seed 1 --play-strategy "$cfr_tmp/kuhn.strat")")"
printf '# gsolve strategy 1\nP1\tx\tcheck\n' >"$cfr_tmp/bad.strat"
out=$(gs games/kuhn.game --playouts 1 --play-strategy "$cfr_tmp/bad.strat" 2>&1); st=$?
check "a malformed strategy line: exit 2" 2 "$st"
check "a malformed strategy line: FILE:LINE" yes "$(printf '%s' "$out" | grep -q "bad.strat:2: a line needs" && echo yes)"
printf '# gsolve strategy 1\nP9\tx\tcheck\t1\n' >"$cfr_tmp/bad.strat"
check "a strategy line for no player" yes \
  "$(gs games/kuhn.game --playouts 1 --play-strategy "$cfr_tmp/bad.strat" 2>&1 | grep -q "bad.strat:2: 'P9' is no player of Kuhn poker" && echo yes)"
printf 'not a strategy\n' >"$cfr_tmp/bad.strat"
# A file that is no strategy is refused on its first line: /dev/zero was
# read to the 1 GiB limit first.
cfr_t0=$(date +%s)
out=$(timeout -k 5 60 $GSOLVE games/kuhn.game --playouts 1 --play-strategy /dev/zero 2>&1); st=$?
check "--play-strategy /dev/zero: exit 2 at once" "2 yes" "$st $([ $(( $(date +%s) - cfr_t0 )) -le 3 ] && echo yes)"
check "--play-strategy /dev/zero: why" "gsolve: error: '/dev/zero' is not a gsolve strategy file (its first line is not '# gsolve strategy 1')" "$out"
check "not a strategy file" 2 "$(gs games/kuhn.game --playouts 1 --play-strategy "$cfr_tmp/bad.strat" >/dev/null 2>&1; echo $?)"
check "--strategy does not overwrite another kind of file" 2 \
  "$(gs games/kuhn.game --iterations 1 --strategy "$cfr_tmp/bad.strat" >/dev/null 2>&1; echo $?)"

# ---- play ------------------------------------------------------------------
out=$(gs play games/kuhn.game --self-play --seed 4 </dev/null)
check "play kuhn: the computer solves first, then plays to the end" "yes yes" \
  "$(printf '%s\n' "$out" | grep -q '^(the computer solves the game with CFR+ to exploitability 0.0001' && echo yes) $(printf '%s\n' "$out" | grep -q '^game over:' && echo yes)"
out=$(gs play games/kuhn.game --self-play --seed 4 --play-strategy "$cfr_tmp/kuhn.strat" </dev/null)
check "play kuhn from a strategy file" "yes yes" \
  "$(printf '%s\n' "$out" | grep -q 'the computer plays the strategy in' && echo yes) $(printf '%s\n' "$out" | grep -q '^game over:' && echo yes)"
out=$(printf 'quit\n' | gs play games/kuhn.game --seed 1 --level 2)
check "play kuhn: --level 2 is exploitability 0.01" yes \
  "$(printf '%s\n' "$out" | grep -q 'level 2 (a CFR+ strategy to exploitability 0.01)' && echo yes)"
check "play kuhn: --position refused (the computer would know the deal)" 2 \
  "$(printf 'quit\n' | gs play games/kuhn.game --position "deal J" >/dev/null 2>&1; echo $?)"

# ---- options and limits ----------------------------------------------------
out=$(gs games/nim.game -D heaps=1,2 --solver alphabeta --iterations 5 2>&1); st=$?
check "--iterations with alphabeta: exit 2" 2 "$st"
check "--iterations with alphabeta: the message" \
  "gsolve: error: --iterations is an option of the cfr solver (--solver cfr); the alphabeta solver does not use it" "$out"
check "--solver cfr --all-moves: exit 2" 2 "$(gs games/kuhn.game --all-moves >/dev/null 2>&1; echo $?)"
check "--exploitability 0: exit 2" 2 "$(gs games/kuhn.game --exploitability 0 >/dev/null 2>&1; echo $?)"
check "--cfr-variant other: the message" "gsolve: error: unknown CFR variant 'fast' (plus or vanilla)" \
  "$(gs games/kuhn.game --cfr-variant fast 2>&1)"
check "--play-strategy with --solve: exit 2" 2 "$(gs games/kuhn.game --play-strategy x >/dev/null 2>&1; echo $?)"
check "alphabeta on kuhn names cfr" \
  "gsolve: error: the alphabeta solver does not handle hidden information (views): use --solver cfr or lp" \
  "$(gs games/kuhn.game --solver alphabeta 2>&1)"
out=$(gs games/tictactoe.game --solver cfr --memory 1 2>&1); st=$?
check "a tree over --memory: exit 5" 5 "$st"
check "a tree over --memory: the message names it" yes \
  "$(printf '%s' "$out" | grep -q 'too big for the CFR solver within its memory limit (--memory MB)' && echo yes)"
# Views that do not determine the moves: P2 may play "a" only when P1's
# hidden card is A.  CFR cannot play such a game (exit 3, the state named).
cat >"$cfr_tmp/peek.game" <<'GAME'
game "Peek";
players P1, P2;
type Card = {no, A, B};
state card: Card;
hidden card seen by P1;
state passed: bool;
state done: bool;
start { next chance; }
chance move deal(c: Card) as "deal {c}" when c != no && card == no { card = c; }
move pass() as "pass" when !passed { passed = true; }
move a() as "a" when passed && card == A { done = true; }
move b() as "b" when passed { done = true; }
end { if done { draw; } }
GAME
out=$(gs "$cfr_tmp/peek.game" 2>&1); st=$?
check "views that do not determine the moves: exit 3 and the state" "3 yes" \
  "$st $(printf '%s' "$out" | grep -q "^gsolve: error: P2's information state 'card=? passed=true done=false | chance | P1 passed=true' has different legal moves in two positions" && echo yes)"
out=$(gs games/token.game --solver cfr 2>&1); st=$?
check "a game with cycles: exit 5 and why" "5 yes" \
  "$st $(printf '%s' "$out" | grep -q 'the CFR solver needs a finite game tree' && echo yes)"
# --time-limit before the target: the best strategy measured is reported
# with its exploitability, and a note says so (it was "no result", exit
# 5, however good the strategy was).  On a loaded machine under ASan the
# limit can land while the tree is still being expanded: then no result.
gs games/leduc.game --exploitability 1e-12 --time-limit 2 >"$cfr_tmp/out" 2>"$cfr_tmp/err"; st=$?
if grep -q 'histories expanded' "$cfr_tmp/err"; then
  check "--time-limit during the expansion: exit 5" 5 "$st"
else
  check "--time-limit before an unreachable --exploitability: exit 0, a result" "0 yes" \
    "$st $(grep -q '^strategy:' "$cfr_tmp/out" && echo yes)"
  check "--time-limit before the target: the note" yes \
    "$(grep -q -E '^gsolve: note: time limit of 2 seconds reached after [0-9]+ CFR iterations and [0-9.]+ seconds; the best strategy measured is reported \(iteration [0-9]+, exploitability [0-9.e+-]+; the target was 1e-12\)$' "$cfr_tmp/err" && echo yes || cat "$cfr_tmp/err")"
  check "--time-limit before the target: the exploitability reported is the note's" \
    "$(sed -n 's/.*exploitability \([0-9.e+-]*\);.*/\1/p' "$cfr_tmp/err")" \
    "$(awk '/^exploitability:/ { printf "%.3g", $2 }' "$cfr_tmp/out")"
  check "--time-limit before the target: the value within the score's bound" yes \
    "$(awk '/^score:/ { d = $2 + 0.0856; if (d < 0) d = -d; print (d <= $4 + 1e-4) ? "yes" : "no " $0 }' "$cfr_tmp/out")"
fi
gs games/leduc.game --iterations 1000000000 --time-limit 1 --json >"$cfr_tmp/out" 2>"$cfr_tmp/err"; st=$?
if ! grep -q 'histories expanded' "$cfr_tmp/err"; then
  check "--time-limit before --iterations: exit 0 and the JSON report" "0 yes" \
    "$st $(grep -q '"exploitability":' "$cfr_tmp/out" && echo yes)"
fi
$GSOLVE games/leduc.game --iterations 1000000000 --quiet >/dev/null 2>"$cfr_tmp/int" &
cfr_pid=$!
sleep 2
kill -INT "$cfr_pid"
wait "$cfr_pid"
check "Ctrl-C stops CFR: exit 130 and the message" "130 yes" \
  "$? $(grep -qE '^gsolve: error: interrupted after [0-9]+ (CFR iterations|histories expanded)' "$cfr_tmp/int" && echo yes)"
check "--progress: lines of iterations and exploitability" yes \
  "$(gs games/leduc.game --iterations 20000 --progress 2>&1 >/dev/null | grep -qE '^cfr\+: [0-9]+ iterations, [0-9]+/s, exploitability' && echo yes)"

rm -rf "$cfr_tmp"
