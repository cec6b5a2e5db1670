# Native engines against the VM on the same rules (tests/unit/test_native.c):
# legal moves (notation and order), player to move, end test, outcome,
# eval and perft along random lines; then perft and solved values through
# the command line with --engine vm and --engine native.

native_check() {
  unit "native = vm: $*" "$BUILD/test_native" "$@"
}
for size in "4 4" "5 4" "5 5" "6 5" "6 6" "7 6" "8 6" "9 5"; do
  set -- $size
  native_check games/connect4.game 4 300 -D width="$1" -D height="$2"
done
native_check games/connect4.game 3 100 -D width=1 -D height=8
native_check games/connect4.game 3 100 -D width=3 -D height=3

# Every Nim heap set of up to 4 heaps of at most 7 (as a multiset), normal
# and misere: same moves, outcomes and perft 3.
nim_sets=0; nim_bad=0
for a in 1 2 3 4 5 6 7; do
  for b in "" 0 1 2 3 4 5 6 7; do
    [ -n "$b" ] && [ "$b" -gt "$a" ] && continue
    for c in "" 0 1 2 3 4 5 6 7; do
      [ -z "$b" ] && [ -n "$c" ] && continue
      [ -n "$c" ] && [ "$c" -gt "$b" ] && continue
      for d in "" 0 1 2 3 4 5 6 7; do
        [ -z "$c" ] && [ -n "$d" ] && continue
        [ -n "$d" ] && [ "$d" -gt "$c" ] && continue
        heaps=$a${b:+,$b}${c:+,$c}${d:+,$d}
        for mis in false true; do
          nim_sets=$((nim_sets + 1))
          "$BUILD/test_native" games/nim.game 3 8 -D heaps="$heaps" -D misere=$mis >/dev/null 2>&1 || {
            nim_bad=$((nim_bad + 1)); echo "native nim differs: heaps=$heaps misere=$mis"; }
        done
      done
    done
  done
done
check "native nim = vm on all $nim_sets heap sets (up to 4 heaps of 7, both rules)" 0 "$nim_bad"

# Perft to depth 8 from the start, both engines (OEIS A212693 for 7x6:
# 5,673,234), and solved values.
for size in "4 4" "5 4" "7 6"; do
  set -- $size
  v=$(gs games/connect4.game -D width="$1" -D height="$2" --engine vm --perft 8 | sed -n 's/^perft 8: //p')
  n=$(gs games/connect4.game -D width="$1" -D height="$2" --engine native --perft 8 | sed -n 's/^perft 8: //p')
  check "connect4 ${1}x$2 perft 8: native = vm" "$v" "$n"
done
check "connect4 7x6 perft 8 (OEIS A212693)" 5673234 "$(gs games/connect4.game --engine native --perft 8 | sed -n 's/^perft 8: //p')"
solved() { gs "$@" --all-moves --json | sed 's/"nodes":[^,]*,"seconds":[^,]*,//; s/"solver":"[^"]*",//; s/"engine":"[^"]*"//'; }
for args in "-D width=4 -D height=4" "-D width=5 -D height=4" "-D width=5 -D height=4 --position 3" \
            "--position 2252576253462244111563365343671351441" "--position 7422341735647741166133573473242566"; do
  # shellcheck disable=SC2086
  check "connect4 $args: native = vm, every move" "$(solved games/connect4.game $args --engine vm)" \
    "$(solved games/connect4.game $args --engine native)"
done
for args in "" "-D heaps=2,3,3" "-D heaps=1,2,3 -D misere=true" "--position take\ 4\ 2"; do
  # shellcheck disable=SC2086
  # The engines compared under one solver (the native solver's own
  # answers are checked against the VM in t_registry.sh).
  check "nim $args: native = vm, every move" "$(eval solved games/nim.game $args --engine vm)" \
    "$(eval solved games/nim.game $args --engine native --solver alphabeta)"
done
check "count: native nim = vm" "$(gs games/nim.game --count --engine vm | grep -E '^(positions|terminal|canonical)')" \
  "$(gs games/nim.game --count --engine native | grep -E '^(positions|terminal|canonical)')"
check "count: native connect4 4x4 = vm" \
  "$(gs games/connect4.game -D width=4 -D height=4 --count --engine vm | grep -E '^(positions|terminal|canonical)')" \
  "$(gs games/connect4.game -D width=4 -D height=4 --count --engine native | grep -E '^(positions|terminal|canonical)')"
# The engine in use is reported, and a fallback says why.
check "engine auto picks native" native-connect4 "$(gs games/connect4.game -D width=4 -D height=4 --perft 1 --json | sed 's/.*"engine":"\([^"]*\)".*/\1/')"
err=$(gs games/connect4.game -D k=3 -D width=4 -D height=4 --perft 1 2>&1 >/dev/null)
check "fallback note" "gsolve: note: the native engine 'connect4' is declared only for other parameters; using the VM" "$err"
gs games/tictactoe.game --engine native --perft 1 >/dev/null 2>&1
check "--engine native without one: exit 2" 2 "$?"

# Matchsticks: the native engine solves by the period; every move's value
# and distance equal alpha-beta's on the VM.
sticks_bad=0
for k in 1 2 3 5; do
  for n in 0 1 2 3 4 5 6 7 8 9 10 11 12 13 17 25 40; do
    a=$(solved games/matchsticks.game -D n=$n -D k=$k)
    b=$(solved games/matchsticks.game -D n=$n -D k=$k --engine vm)
    [ "$a" = "$b" ] || { sticks_bad=$((sticks_bad + 1)); echo "matchsticks n=$n k=$k: native $a vm $b"; }
  done
done
check "matchsticks by the period = alpha-beta on the VM (68 cases)" 0 "$sticks_bad"
check "matchsticks n=100000 k=7: a loss in 25000 plies, instantly" "loss 25000" \
  "$(gs games/matchsticks.game -D n=100000 -D k=7 | sed -n 's/^value: //p; s/^plies: //p' | tr '\n' ' ' | sed 's/ $//')"

# Nim by the nim-sum rule (--solver native): same value as alpha-beta, and
# the winning moves are exactly alpha-beta's winning moves.
nim_bad=0
for heaps in 1,3,5,7 2,3 3,4,5 1,1,2 2,2 1,2,4,7 5,6; do
  for mis in false true; do
    a=$(gs games/nim.game -D heaps=$heaps -D misere=$mis --solver native --all-moves --json | sed 's/.*"value":"\([a-z]*\)".*/\1/')
    b=$(gs games/nim.game -D heaps=$heaps -D misere=$mis --engine vm --all-moves --json | sed 's/.*"value":"\([a-z]*\)".*/\1/')
    wa=$(gs games/nim.game -D heaps=$heaps -D misere=$mis --solver native --all-moves --json | grep -o '"move":"[^"]*","value":"win"' | tr '\n' ' ')
    wb=$(gs games/nim.game -D heaps=$heaps -D misere=$mis --engine vm --all-moves --json | grep -o '"move":"[^"]*","value":"win"' | tr '\n' ' ')
    [ "$a" = "$b" ] && [ "$wa" = "$wb" ] || { nim_bad=$((nim_bad + 1)); echo "nim $heaps misere=$mis: native $a [$wa] vm $b [$wb]"; }
  done
done
check "nim-sum rule = alpha-beta: values and winning moves (14 cases)" 0 "$nim_bad"
check "nim-sum rule on 20 heaps of 200 and one of 7: winning move" "take 21 7" \
  "$(gs games/nim.game -D heaps=200,200,200,200,200,200,200,200,200,200,200,200,200,200,200,200,200,200,200,200,7 --solver native | sed -n 's/^best: //p')"
