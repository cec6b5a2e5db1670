# tests/t_vi_hand.sh -- value iteration on Pig against a program written
# by hand (tests/bench/pig_hand.c: Neller and Presser's formulation, its
# own code; `make bench` times the two, tests/bench_fast.sh): the first
# player's win probability at the start and at positions along the game,
# equal to 1e-9, for a few goals and dice; the dense graph (vi_dense.c)
# and retro's hashed enumeration (GSOLVE_VI_HASHED=1) give the same.
vh_bin=$BUILD/tests/pig_hand
${CC:-cc} -O2 -o "$vh_bin" tests/bench/pig_hand.c -lm 2>/dev/null
check "the hand-written Pig solver builds" yes "$([ -x "$vh_bin" ] && echo yes || echo no)"

# vh_rolls N SIDES: moves that roll a turn total of N without a 1.
vh_rolls() {
  vh_n=$1
  while [ "$vh_n" -gt 0 ]; do
    vh_d=$vh_n
    [ "$vh_d" -gt "$2" ] && vh_d=$2
    [ $((vh_n - vh_d)) -eq 1 ] && vh_d=$((vh_d - 1))
    printf ', roll, rolls %s' "$vh_d"
    vh_n=$((vh_n - vh_d))
  done
}
# vh_line A B K SIDES: First banks A, Second banks B, First rolls to K.
vh_line() {
  vh_l=""
  if [ "$1" -gt 0 ]; then vh_l="$(vh_rolls "$1" "$4"), hold"; else vh_l=", roll, rolls 1"; fi
  if [ "$2" -gt 0 ]; then vh_l="$vh_l$(vh_rolls "$2" "$4"), hold"; else vh_l="$vh_l, roll, rolls 1"; fi
  vh_l="$vh_l$(vh_rolls "$3" "$4")"
  printf '%s' "${vh_l#, }"
}
# vh_p GOAL SIDES POSITION: First's win probability from gsolve (10
# places).
vh_p() {
  gs games/pig.game -D goal=$1 -D sides=$2 ${3:+--position "$3"} --solver value-iteration |
    sed -n 's/^payoffs: First \([0-9.]*\),.*/\1/p'
}
# vh_close A B: "same" when |A - B| < 1e-9.
vh_close() { awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; print (d < 1e-9 && d > -1e-9) ? "same" : a " vs " b }'; }

for vh_case in "10 6" "20 6" "25 4" "30 6" "30 3"; do
  set -- $vh_case
  vh_goal=$1 vh_sides=$2
  vh_table=$("$vh_bin" -a "$vh_goal" "$vh_sides")
  vh_hand() { printf '%s\n' "$vh_table" | awk -v i="$1" -v j="$2" -v k="$3" '$1 == "P" && $2 == i && $3 == j && $4 == k { print $5 }'; }
  check "Pig to $vh_goal, $vh_sides sides: the start" same "$(vh_close "$(vh_p "$vh_goal" "$vh_sides")" "$(vh_hand 0 0 0)")"
  for vh_pos in "5 3 4" "0 7 2" "9 9 0" "12 4 6"; do
    set -- $vh_pos
    [ $(($1 + $3)) -lt "$vh_goal" ] && [ "$2" -lt "$vh_goal" ] || continue
    check "Pig to $vh_goal, $vh_sides sides: First at $1, Second at $2, turn $3" same \
      "$(vh_close "$(vh_p "$vh_goal" "$vh_sides" "$(vh_line "$1" "$2" "$3" "$vh_sides")")" "$(vh_hand "$1" "$2" "$3")")"
  done
done
# Second to move after First holds 6: Second's P(0, 6, 0) is 1 - First's.
vh_table=$("$vh_bin" -a 20 6)
vh_second=$(printf '%s\n' "$vh_table" | awk '$1 == "P" && $2 == 0 && $3 == 6 && $4 == 0 { printf "%.12f", 1 - $5 }')
check "Pig to 20: Second to move after First banks 6" same \
  "$(vh_close "$(vh_p 20 6 "roll, rolls 6, hold")" "$vh_second")"
check "dense graph and hashed enumeration agree (Pig to 30)" same \
  "$(vh_close "$(vh_p 30 6)" "$(GSOLVE_VI_HASHED=1 vh_p 30 6)")"
# A loaded die (a 1 twice as likely): chance positions of unequal
# weights keep their probabilities on the dense graph.
vh_loaded=$BUILD/tests/pig_loaded.game
sed 's/chance move die(d: 1..sides) as "rolls {d}" {/chance move die(d: 1..sides) as "rolls {d}" weight d == 1 ? 2 : 1 {/' \
  games/pig.game > "$vh_loaded"
vh_lp() {
  gs "$vh_loaded" -D goal=25 --solver value-iteration | sed -n 's/^payoffs: First \([0-9.]*\),.*/\1/p'
}
check "loaded die: the game has weights" 1 "$(grep -c 'weight d == 1' "$vh_loaded")"
check "loaded die: dense graph and hashed enumeration agree" same \
  "$(vh_close "$(vh_lp)" "$(GSOLVE_VI_HASHED=1 vh_lp)")"
check "loaded die: not the fair die's value" 1 \
  "$(awk -v a="$(vh_lp)" -v b="$(vh_p 25 6)" 'BEGIN { print (a - b > 1e-3 || b - a > 1e-3) ? 1 : 0 }')"
# A rule that fails during the walk: the runtime error (exit 4), and
# nothing leaked (the walk's state is freed with the solver: make asan).
vh_bad=$BUILD/tests/pig_bad.game
sed 's/  bank\[who\] += turn;/  if turn == 7 { bank[who + 2] = 0; }\n  bank[who] += turn;/' games/pig.game > "$vh_bad"
vh_err=$(gs "$vh_bad" -D goal=20 --solver value-iteration 2>&1 >/dev/null)
check "a rule failing in the walk: exit 4" 4 "$(gs "$vh_bad" -D goal=20 --solver value-iteration >/dev/null 2>&1; echo $?)"
check "a rule failing in the walk: the error" 1 "$(printf '%s\n' "$vh_err" | grep -c 'runtime error: index 2 out of range 0..1 in move .hold.')"
if [ -n "$GSOLVE_FULL" ]; then
  # Goal 100: Neller and Presser's 0.5306 and the hand C's value.
  vh_100=$(vh_p 100 6)
  check "Pig to 100: 0.5306 (Neller and Presser)" 0.5306 "$(printf '%.4f' "$vh_100")"
  check "Pig to 100: the hand C's value" same \
    "$(vh_close "$vh_100" "$("$vh_bin" 100 | sed -n 's/^p_win: //p')")"
fi
