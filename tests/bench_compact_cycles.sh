#!/bin/sh
# tests/bench_compact_cycles.sh -- make bench: chess endgame tables (games
# with cycles) in the hash form and in the compact form (--compact, the
# form with cycles: src/retro/retro_compact_cycles.c) side by side: CPU
# seconds and peak resident memory (/usr/bin/time, when there), the
# table's MiB, and whether the two give the same histograms (every count
# of --stats by mover, value and distance).  The rules through the
# compiled tier.  Figures, not tests.  BENCH_CYCLES lists the materials
# (default KBNK and KQKR on 8x8: minutes each in the compact form).
cd "$(dirname "$0")/.." || exit 1
GSOLVE=${GSOLVE:-./gsolve}
materials=${BENCH_CYCLES:-"KBNK KQKR"}
timer=""
[ -x /usr/bin/time ] && timer="/usr/bin/time -f %U/%M"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gsolve-bcycles.XXXXXX")

echo "== Chess endgame tables, hash form and compact form with cycles (compiled rules)"
printf '%-6s %-8s %11s %9s %9s %9s %10s %8s %6s %s\n' material form positions stored "CPU s" "peak MiB" "table MiB" B/pos longest "same"
for m in $materials; do
  # The compiled tier's C is built before the timed runs (then cached).
  $GSOLVE games/chess-endgame.game -D material="$m" --perft 1 --engine compiled >/dev/null 2>&1
  for form in hash compact; do
    flag=""
    [ "$form" = compact ] && flag=--compact
    # shellcheck disable=SC2086
    $timer $GSOLVE games/chess-endgame.game -D material="$m" --engine compiled --solver retro $flag --stats \
      >/dev/null 2>"$tmp/$form"
    err=$(cat "$tmp/$form")
    pos=$(printf '%s\n' "$err" | sed -n 's/^stats: positions \([0-9]*\),.*/\1/p')
    stored=$(printf '%s\n' "$err" | sed -n 's/^stats: positions [0-9]*, stored \([0-9]*\).*/\1/p')
    table=$(printf '%s\n' "$err" | sed -n 's/^stats: .*; \([0-9.]*\) MiB in all/\1/p; s/^stats: \([0-9.]*\) MiB in all/\1/p')
    longest=$(printf '%s\n' "$err" | sed -n 's/^stats: longest win, White to move: \([0-9]*\) plies.*/\1/p')
    last=$(printf '%s\n' "$err" | tail -n 1 | grep -E '^[0-9.]+/[0-9]+$')
    cpu=${last%/*} kb=${last#*/}
    peak=$(awk -v k="${kb:-0}" 'BEGIN { printf "%.1f", k / 1024 }')
    per=$(awk -v k="${kb:-0}" -v n="${pos:-1}" 'BEGIN { printf "%.2f", k * 1024 / n }')
    same=""
    if [ "$form" = compact ]; then
      same=no
      [ "$(grep -E 'won|lost' "$tmp/hash")" = "$(grep -E 'won|lost' "$tmp/compact")" ] && same=yes
      passes=$(printf '%s\n' "$err" | sed -n 's/^stats: compact form with cycles: \(.*\)/\1/p')
    fi
    printf '%-6s %-8s %11s %9s %9s %9s %10s %8s %6s %s\n' "$m" "$form" "$pos" "$stored" "${cpu:-?}" "$peak" \
      "$table" "$per" "$longest" "$same"
  done
  echo "  ($m compact: $passes)"
done
rm -rf "$tmp"
echo "(command: $GSOLVE games/chess-endgame.game -D material=M --engine compiled --solver retro [--compact] --stats;"
echo " peak: the whole process; B/pos: peak bytes per position before symmetry; same: equal histograms)"
