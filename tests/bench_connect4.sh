#!/bin/sh
# tests/bench_connect4.sh -- part of make bench: Pascal Pons' Connect Four
# test sets solved by the native engine and solver and, on samples, by the
# VM with alpha-beta: positions, mean time, mean nodes, nodes/s, and the
# time ratio VM / native on the same sample.  Figures, not tests.
# BENCH_LIMIT=N caps the lines per set (default: 1000 for the fast sets,
# fewer for the slow ones, as noted in the table).
cd "$(dirname "$0")/.." || exit 1
GSOLVE=${GSOLVE:-./gsolve}
PONS=../shared/data/connect4/pons
[ -d "$PONS" ] || { echo "no $PONS: Connect Four benchmark skipped"; exit 0; }
field() { printf '%s\n' "$2" | sed -n "s|^$1: ||p" | head -n 1; }

echo "== Connect Four test sets (Pons): native engine and solver vs VM alpha-beta"
printf '%-12s %6s %12s %12s %12s | %6s %12s %12s %8s\n' set lines "native us" "mean nodes" "nodes/s" \
  "vm n" "vm us" "vm nodes/s" "vm/nat"
for spec in L3_R1:1000:100 L2_R1:1000:5 L2_R2:1000:0 L1_R1:1000:0 L1_R2:100:0 L1_R3:3:0; do
  set=${spec%%:*}; rest=${spec#*:}; n=${BENCH_LIMIT:-${rest%%:*}}; vmn=${rest#*:}
  out=$($GSOLVE games/connect4.game --test-set "$PONS/Test_$set" --limit "$n" 2>&1)
  us=$(field "mean time" "$out" | sed 's/ us//')
  if [ "$vmn" -gt 0 ]; then
    sample=$($GSOLVE games/connect4.game --test-set "$PONS/Test_$set" --limit "$vmn" 2>&1)
    vm=$($GSOLVE games/connect4.game --engine vm --tt-size 16 --test-set "$PONS/Test_$set" --limit "$vmn" 2>&1)
    vus=$(field "mean time" "$vm" | sed 's/ us//')
    ratio=$(awk -v a="$vus" -v b="$(field "mean time" "$sample" | sed 's/ us//')" 'BEGIN { if (b > 0) printf "%.1f", a / b; else print "-" }')
    printf '%-12s %6s %12s %12s %12s | %6s %12s %12s %8s\n' "$set" "$(field positions "$out")" "$us" \
      "$(field 'mean nodes' "$out")" "$(field 'nodes/s' "$out")" "$vmn" "$vus" "$(field 'nodes/s' "$vm")" "$ratio"
  else
    printf '%-12s %6s %12s %12s %12s | %6s\n' "$set" "$(field positions "$out")" "$us" \
      "$(field 'mean nodes' "$out")" "$(field 'nodes/s' "$out")" "-"
  fi
done
echo "(Pons' solver on a machine like this one, per the issue: L3_R1 11 us, L2_R1 60 us,"
echo " L2_R2 5.8 ms, L1_R1 0.4 ms, L1_R2 148 ms, L1_R3 8.6 s.)"
