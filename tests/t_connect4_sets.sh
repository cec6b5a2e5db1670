# Pascal Pons' Connect Four test sets (tests/data/connect4/pons, from
# his solver tutorial: lines "moves score", 1-based columns, the exact score
# in his convention) solved with the expected score.  make test: the three
# fast sets in full with the native engine, a sample of the end-game set on
# the VM; make test-full: all six (the long ones sampled).  Christophe
# Steininger's 9x5 sets below.
PONS=tests/data/connect4/pons
if have_data "$PONS"; then
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
fi
# The line format: the score is the last word; moves glued or spaced
# ("1 2 1 2" once read as moves 1, score 2: QA, session 8); zero-based
# digits up to 9 (the column 10 of a 10-wide board; '9' was left as
# column 9).  The 10x4 position solved from --position for comparison.
if have_data "$PONS"; then
  head -n 20 "$PONS/Test_L3_R1" | sed 's/\([0-9]\)/\1 /g' > "$BUILD/c4_spaced.txt"
  out=$(gs games/connect4.game --test-set "$BUILD/c4_spaced.txt" 2>&1)
  check "connect4 test set with spaced moves: 20 read, no mismatch" "20 0" \
    "$(field positions "$out") $(field mismatches "$out")"
fi
c4_10x4="games/connect4.game -D width=10 -D height=4"
c4_want=$(field score "$(gs $c4_10x4 --position '10 10 9 9 1 2 3 4 5 6 7 8 8 7 6 5 4 3 2 1 1 2 9 10')")
printf '998801234567765432100189 %s\n' "$c4_want" > "$BUILD/c4_zero10.txt"
out=$(gs $c4_10x4 --zero-based --test-set "$BUILD/c4_zero10.txt" 2>&1)
check "connect4 --zero-based on 10 columns: '9' is column 10 (score $c4_want)" "1 0 8" \
  "$(field positions "$out") $(field mismatches "$out") $c4_want"
printf '4453 0 extra\n' > "$BUILD/c4_extra.txt"
check "connect4 test set: a line with a third word is refused" \
  "gsolve: error: $BUILD/c4_extra.txt:1: expected \"moves score\"" \
  "$(gs games/connect4.game --test-set "$BUILD/c4_extra.txt" 2>&1)"
# --json with a path holding a quote and a backslash: still valid JSON
# (the path was written raw: QA, session 8).
c4_odd="$BUILD/c4 \"odd\\name"
printf '4453 -1\n' > "$c4_odd.txt"
out=$(gs games/connect4.game -D width=5 -D height=4 --test-set "$c4_odd.txt" --json 2>&1)
check "connect4 --test-set --json: the path escaped" yes \
  "$(printf '%s' "$out" | P="$c4_odd.txt" python3 -c 'import json,os,sys; d=json.load(sys.stdin); print("yes" if d["test_set"] == os.environ["P"] and d["mismatches"] == 0 else d)' 2>&1)"
out=$(gs games/connect4.game -D width=4 -D height=4 --make-book "$c4_odd.book" --book-depth 1 --json 2>/dev/null)
check "connect4 --make-book --json: the path escaped" yes \
  "$(printf '%s' "$out" | P="$c4_odd.book" python3 -c 'import json,os,sys; d=json.load(sys.stdin); print("yes" if d["book"] == os.environ["P"] and d["stones"] == [0, 1] else d)' 2>&1)"
rm -f "$c4_odd.txt" "$c4_odd.book"
STEIN=tests/data/connect4/steininger/9x5
if have_data "$STEIN"; then
  # Christophe Steininger's 9x5 sets (0-based columns).  make test: the two
  # fast ones in full; make test-full: all six, the slow ones sampled by
  # cost (opening_L2 about 0.7 s a line).
  specs="endgame_L1:1000 midgame_L1:1000"
  [ -n "$GSOLVE_FULL" ] && specs="$specs midgame_L2:1000 opening_L1:1000 opening_L2:100"
  for spec in $specs; do
    f=$STEIN/${spec%%:*}.txt n=${spec#*:}
    out=$(gs games/connect4.game -D width=9 -D height=5 --zero-based --test-set "$f" --limit "$n" 2>&1)
    check "connect4 9x5 ${spec%%:*} (first $n): no mismatch" "$n 0" "$(field positions "$out") $(field mismatches "$out")"
  done
fi
