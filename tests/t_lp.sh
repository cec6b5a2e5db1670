# tests/t_lp.sh -- exact equilibria by linear programming (--solver lp,
# GLPK) and best responses to strategy files (--best-response FILE):
# Kuhn poker's -1/18, Leduc hold'em's -0.085606424078 (OpenSpiel's
# sequence-form LP test), Liar's Dice with one die of 3, 4 and 5 faces
# cross-checked by CFR, the uniform strategy's exploitability in Kuhn
# against the hand calculation of docs/equilibria.md, the games'
# parameters, and the errors.  Sourced by tests/run.sh.

lp_tmp=$(mktemp -d)
# within A LO HI: "yes" when LO <= A <= HI.
within() { awk -v a="$1" -v lo="$2" -v hi="$3" 'BEGIN { print (a != "" && lo - 1e-12 <= a && a <= hi + 1e-12) ? "yes" : "no (" a " not in " lo ".." hi ")" }'; }
jfield() { printf '%s' "$2" | sed -n "s/.*\"$1\":\([^,}]*\).*/\1/p"; }

# ---- Kuhn poker: -1/18 (Kuhn 1950) --------------------------------------
out=$(gs games/kuhn.game --solver lp --strategy "$lp_tmp/kuhn.strat")
check "kuhn lp: value -1/18 exactly" "-1/18 (-0.0555556)" "$(field value "$out")"
check "kuhn lp: exploitability 0" 0 "$(field exploitability "$out")"
check "kuhn lp: the solver is lp" lp "$(field solver "$out")"
check "kuhn lp: both players' 12 information sets in the strategy file" 12 \
  "$(grep -vc '^#' "$lp_tmp/kuhn.strat")"
out=$(gs games/kuhn.game --solver lp --json)
check "kuhn lp JSON: value_exact" '"value_exact":"-1/18"' "$(printf '%s' "$out" | grep -o '"value_exact":"[^"]*"')"
check "kuhn lp JSON: exploitability_exact 0" '"exploitability_exact":"0"' \
  "$(printf '%s' "$out" | grep -o '"exploitability_exact":"[^"]*"')"
# The strategies written (9 digits) read back: the fractions recovered,
# an exact equilibrium again.
out=$(gs games/kuhn.game --best-response "$lp_tmp/kuhn.strat")
check "kuhn: lp's strategy file has exploitability 0 exactly" 0 "$(field exploitability "$out")"
check "kuhn: ... and its value -1/18" "-1/18 (-0.0555556)" "$(field score "$out")"
# The uniform strategy (CFR after 0 iterations): docs/equilibria.md works
# out by hand best responses 1/2 and 5/12, gains 3/8 and 13/24 against the
# uniform profile's 1/8, NashConv 11/12, exploitability 11/24.
gs games/kuhn.game --solver cfr --iterations 0 --strategy "$lp_tmp/uniform.strat" >/dev/null
out=$(gs games/kuhn.game --best-response "$lp_tmp/uniform.strat" --stats 2>"$lp_tmp/err")
check "kuhn uniform: value of the profile 1/8" "1/8 (0.125)" "$(field score "$out")"
check "kuhn uniform: best responses 1/2 and 5/12" "P1 1/2 (0.5), P2 5/12 (0.416667)" "$(field best_response "$out")"
check "kuhn uniform: gains 3/8 and 13/24" "P1 3/8 (0.375), P2 13/24 (0.541667)" "$(field gains "$out")"
check "kuhn uniform: NashConv 11/12" "11/12 (0.916667)" "$(field nash_conv "$out")"
check "kuhn uniform: exploitability 11/24" "11/24 (0.458333)" "$(field exploitability "$out")"
check "kuhn uniform: auto takes lp for --best-response" yes \
  "$(grep -q '^stats: solver lp (--best-response FILE' "$lp_tmp/err" && echo yes)"
# A file without lines: every set uniform, the same numbers.
printf '# gsolve strategy 1\n' >"$lp_tmp/empty.strat"
out=$(gs games/kuhn.game --best-response "$lp_tmp/empty.strat" --json)
check "kuhn empty file: 12 sets missing, exploitability 11/24" '"exploitability_exact":"11/24" 12' \
  "$(printf '%s' "$out" | grep -o '"exploitability_exact":"[^"]*"') $(jfield missing "$out")"
# Always bet and always call: P1 bets every card, P2 calls every bet.
awk -F'\t' 'BEGIN { OFS = "\t" } /^#/ { print; next } {
  line = $1 OFS $2; for (i = 3; i < NF; i += 2) line = line OFS $i OFS (($i == "bet" || $i == "call") ? 1 : 0); print line }' \
  "$lp_tmp/uniform.strat" >"$lp_tmp/aggressive.strat"
out=$(gs games/kuhn.game --best-response "$lp_tmp/aggressive.strat")
# Each best response folds the jack and gets (-1 + 0 + 2) / 3 = 1/3
# against a profile worth 0 (docs/equilibria.md).
check "kuhn always bet/call: profile 0, best responses 1/3 and 1/3" \
  "0 P1 1/3 (0.333333), P2 1/3 (0.333333)" "$(field score "$out") $(field best_response "$out")"

# CFR's own measure of its strategy and --best-response's of the file it
# wrote agree (to the file's nine digits, read as fractions within 5e-10).
cfr=$(gs games/leduc.game --solver cfr --exploitability 1e-2 --strategy "$lp_tmp/leduc.strat" --json)
out=$(gs games/leduc.game --best-response "$lp_tmp/leduc.strat" --json)
e=$(jfield exploitability "$cfr")
check "leduc: --best-response of CFR's file gives CFR's exploitability to 1e-8" yes \
  "$(within "$(jfield exploitability "$out")" "$(awk -v e="$e" 'BEGIN { print e - 1e-8 }')" \
     "$(awk -v e="$e" 'BEGIN { print e + 1e-8 }')")"
out=$(gs games/leduc.game --best-response "$lp_tmp/leduc.strat")
check "leduc: a long exact exploitability is given by its size in text" yes \
  "$(field exploitability "$out" | grep -qE '^0\.00[0-9]+ \(a fraction of [0-9]+/[0-9]+ digits: --json\)$' && echo yes)"

# ---- Leduc hold'em: -0.085606424078 ------------------------------------
# The exact value: the fraction both best responses give (the rational
# check of lp.c), which is OpenSpiel's published decimal to its 12 digits.
out=$(gs games/leduc.game --solver lp --json)
leduc_q=-1454920850547486749701863871533/16995463438839962469905132501930
check "leduc lp: value_exact" "\"value_exact\":\"$leduc_q\"" \
  "$(printf '%s' "$out" | grep -o '"value_exact":"[^"]*"')"
check "leduc lp: the fraction is -0.085606424078 to 1e-12" yes \
  "$(within "$(echo "$leduc_q" | awk -F/ '{ printf "%.15f", $1 / $2 }')" -0.085606424079 -0.085606424077)"
check "leduc lp: value -0.085606424078 to 1e-12" yes \
  "$(within "$(jfield value "$out")" -0.085606424079 -0.085606424077)"
check "leduc lp: exploitability 0 exactly" '"exploitability_exact":"0"' \
  "$(printf '%s' "$out" | grep -o '"exploitability_exact":"[^"]*"')"
cfr=$(gs games/leduc.game --exploitability 2e-3 --json)
check "leduc: lp's value within CFR's interval" yes \
  "$(within "$(jfield value "$out")" $(printf '%s' "$cfr" | sed -n 's/.*"score_interval":\[\([^,]*\),\([^]]*\)\].*/\1 \2/p'))"
# -D ranks=N: N ranks in two suits; 3 is the game itself.  Information
# sets of P1 and P2: 2N private cards x 6 first-round histories, plus 2N x
# (2N - 1) public cards x 5 first rounds that go on x 6 second-round ones.
for n in 2 3 4; do
  c=$((2 * n))
  check "leduc ranks=$n: $((c * 6 + c * (c - 1) * 30)) information sets" $((c * 6 + c * (c - 1) * 30)) \
    "$(field infosets "$(gs games/leduc.game -D ranks=$n --perft 14)")"
done

# ---- Liar's Dice, one die each: lp exact, CFR within its bound ----------
# Information sets: a bid history is a set of the 2F bids (they rise), the
# player to move given by its size's parity: 2^(2F - 1) histories a player,
# times his F dice, for two players F * 4^F (Lanctot's Bluff(1,1): 12,288
# a player with six faces).
check "liar's dice 6 faces: 6 * 4^6 = 24576 information sets" 24576 \
  "$(field infosets "$(gs games/liarsdice.game --perft 15)")"
for f in 3:1/9 4:1/16 5:1/125; do
  faces=${f%%:*} v=${f#*:}
  out=$(gs games/liarsdice.game -D faces=$faces --solver lp --json)
  check "liar's dice $faces faces: $faces * 4^$faces information sets" \
    $((faces * (1 << (2 * faces)))) "$(jfield infosets "$out")"
  check "liar's dice $faces faces: value $v exactly" "\"value_exact\":\"$v\"" \
    "$(printf '%s' "$out" | grep -o '"value_exact":"[^"]*"')"
  cfr=$(gs games/liarsdice.game -D faces=$faces --exploitability 1e-3 --json)
  check "liar's dice $faces faces: $v within CFR's interval" yes \
    "$(within "$(jfield value "$out")" $(printf '%s' "$cfr" | sed -n 's/.*"score_interval":\[\([^,]*\),\([^]]*\)\].*/\1 \2/p'))"
done
if [ -n "$GSOLVE_FULL" ]; then
  # Lanctot's Bluff(1,1) value -0.0271317829457364, in fractions.
  out=$(gs games/liarsdice.game --solver lp)
  check "liar's dice 6 faces: -7/258 (-0.0271317829457364)" "-7/258 (-0.0271318)" "$(field value "$out")"
fi

# ---- errors -------------------------------------------------------------
err=$(gs games/pot.game --solver lp 2>&1 >/dev/null)
check "lp refuses three players" yes "$(printf '%s' "$err" | grep -q 'lp solver needs one or two players' && echo yes)"
gs games/tictactoe.game --solver lp >/dev/null 2>"$lp_tmp/err"; st=$?
check "lp on a game whose lines meet: perfect recall, exit 2" "2 yes" \
  "$st $(grep -q 'needs perfect recall.*--solver alphabeta or retro' "$lp_tmp/err" && echo yes)"
err=$(gs games/kuhn.game --solver cfr --best-response "$lp_tmp/uniform.strat" 2>&1 >/dev/null)
check "--best-response with cfr refused" "gsolve: error: --best-response FILE is evaluated by the lp solver (--solver lp), not by cfr" "$err"
err=$(gs games/kuhn.game --best-response "$lp_tmp/uniform.strat" --strategy "$lp_tmp/x" 2>&1 >/dev/null)
check "--best-response with --strategy refused" yes "$(printf '%s' "$err" | grep -q 'one or the other' && echo yes)"
err=$(gs games/kuhn.game --solver lp --iterations 5 2>&1 >/dev/null)
check "lp refuses CFR's --iterations" yes "$(printf '%s' "$err" | grep -q 'option of the cfr solver' && echo yes)"
err=$(gs games/kuhn.game --best-response /nonexistent/x.strat 2>&1 >/dev/null); st=$?
check "--best-response of a missing file: an I/O error" yes "$(printf '%s' "$err" | grep -q 'x.strat' && echo yes)"

# --time-limit reaches into GLPK's simplex (through its output hook): Leduc
# with 5 ranks needs several seconds of simplex.
gs games/leduc.game -D ranks=5 --solver lp --time-limit 2 >/dev/null 2>"$lp_tmp/err"; st=$?
check "lp --time-limit 2 on Leduc 5 ranks: exit 5 with the message" "5 yes" \
  "$st $(grep -q 'time limit of 2 seconds reached' "$lp_tmp/err" && echo yes)"
gs games/leduc.game --solver lp --memory 3 >/dev/null 2>"$lp_tmp/err"; st=$?
check "lp over --memory 3: the program's estimate refused, exit 5" "5 yes" \
  "$st $(grep -q 'needs about .* MiB in GLPK besides the game tree.*over the memory limit (--memory MB)' "$lp_tmp/err" && echo yes)"

rm -rf "$lp_tmp"
