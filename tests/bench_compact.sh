#!/bin/sh
# tests/bench_compact.sh -- make bench: retrograde analysis in the hash
# form, in the compact form (--compact) and with its layers on disk
# (--compact --spill: the table MiB is what is left in memory) side by side: seconds, peak
# resident memory (/usr/bin/time, when there), the table's bytes and the
# resident bytes per position.  Figures, not tests.  BENCH_COMPACT lists
# the Connect Four boards (default 4x4 and 5x4, seconds each; add 6x4 or
# 5x5, minutes each and 2.6 GB in the hash form for 5x5).
cd "$(dirname "$0")/.." || exit 1
GSOLVE=${GSOLVE:-./gsolve}
boards=${BENCH_COMPACT:-"4x4 5x4"}
timer=""
[ -x /usr/bin/time ] && timer="/usr/bin/time -f %M"

echo "== Retrograde tables, hash form and compact form (Connect Four through the VM)"
printf '%-6s %-8s %11s %9s %11s %10s %9s\n' board form positions seconds "peak MiB" "table MiB" "B/pos"
for b in $boards; do
  w=${b%x*} h=${b#*x}
  for form in hash compact disk; do
    flag=""
    [ "$form" = compact ] && flag=--compact
    # The compact form with its layers on disk (--spill): the peak.
    [ "$form" = disk ] && flag="--compact --spill ${TMPDIR:-/tmp}"
    # shellcheck disable=SC2086
    err=$($timer $GSOLVE games/connect4.game -D width="$w" -D height="$h" --engine vm --solver retro $flag --stats 2>&1 >/dev/null)
    pos=$(printf '%s\n' "$err" | sed -n 's/^stats: positions \([0-9]*\),.*/\1/p')
    table=$(printf '%s\n' "$err" | sed -n 's/^stats: \(.*; \)\{0,1\}\([0-9.]*\) MiB in all/\2/p')
    secs=$(printf '%s\n' "$err" | sed -n 's/^stats: enumeration \([0-9.]*\) s .*labelling \([0-9.]*\) s .*/\1 \2/p' | awk '{ printf "%.2f", $1 + $2 }')
    kb=$(printf '%s\n' "$err" | tail -n 1 | grep -E '^[0-9]+$')
    peak=$(awk -v k="${kb:-0}" 'BEGIN { printf "%.1f", k / 1024 }')
    per=$(awk -v k="${kb:-0}" -v n="${pos:-1}" 'BEGIN { printf "%.2f", k * 1024 / n }')
    printf '%-6s %-8s %11s %9s %11s %10s %9s\n' "$b" "$form" "$pos" "$secs" "$peak" "$table" "$per"
  done
done
echo "(peak: the whole process, program included; B/pos: peak bytes per position)"
echo "Chess endgames (cycles): tests/bench_compact_cycles.sh."
