# Pascal Pons' Connect Four test sets (../shared/data/connect4/pons, from
# his solver tutorial: lines "moves score", 1-based columns, the exact score
# in his convention) solved with the expected score.  make test: the three
# fast sets in full with the native engine, a sample of the end-game set on
# the VM; make test-full: all six (the long ones sampled).  Christophe
# Steininger's 9x5 sets below.
PONS=../shared/data/connect4/pons
if [ -d "$PONS" ]; then
  set_check() {
    name=$1; shift
    out=$(gs games/connect4.game "$@" 2>&1)
    check "connect4 test set $name: no mismatch" "0" "$(field mismatches "$out")"
  }
  set_check "L3_R1 (end-game easy, native)" --test-set "$PONS/Test_L3_R1"
  set_check "L2_R1 (middle easy, native)" --test-set "$PONS/Test_L2_R1"
  set_check "L1_R1 (beginning easy, native)" --test-set "$PONS/Test_L1_R1"
  set_check "L3_R1 (end-game easy, VM, first 100)" --engine vm --test-set "$PONS/Test_L3_R1" --limit 100 --tt-size 8
  set_check "L3_R1 weak (native)" --weak --test-set "$PONS/Test_L3_R1"
  if [ -n "$GSOLVE_FULL" ]; then
    set_check "L2_R2 (middle medium, native)" --test-set "$PONS/Test_L2_R2"
    set_check "L1_R2 (beginning medium, native)" --test-set "$PONS/Test_L1_R2"
    set_check "L1_R3 (beginning hard, native, first 30)" --test-set "$PONS/Test_L1_R3" --limit 30
    # The empty board: a first-player win on the 41st stone, Pons' score 1
    # (Allis 1988, Tromp; Pons' tutorial).  Minutes.
    printf -- '- 1\n' > "$BUILD/c4_empty76.txt"
    set_check "the empty 7x6 board: score 1" --threads 2 --tt-size 2048 --test-set "$BUILD/c4_empty76.txt"
  fi
else
  echo "note: $PONS not found; Connect Four test sets skipped"
fi
STEIN=../shared/data/connect4/steininger/9x5
if [ -d "$STEIN" ]; then
  # Christophe Steininger's 9x5 sets (0-based columns).  make test: the two
  # fast ones in full; make test-full: all six, the slow ones sampled by
  # cost (opening_L2 about 0.7 s a line, opening_L3 about 15 s).
  specs="endgame_L1:1000 midgame_L1:1000"
  [ -n "$GSOLVE_FULL" ] && specs="$specs midgame_L2:1000 opening_L1:1000 opening_L2:100 opening_L3:10"
  for spec in $specs; do
    f=$STEIN/${spec%%:*}.txt n=${spec#*:}
    out=$(gs games/connect4.game -D width=9 -D height=5 --zero-based --test-set "$f" --limit "$n" 2>&1)
    check "connect4 9x5 ${spec%%:*} (first $n): no mismatch" "$n 0" "$(field positions "$out") $(field mismatches "$out")"
  done
fi
