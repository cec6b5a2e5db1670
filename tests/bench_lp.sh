#!/bin/sh
# tests/bench_lp.sh -- make bench: the lp solver (--solver lp, GLPK) on
# Leduc hold'em with 3, 4 and 5 ranks and Liar's Dice with 3 to 6 faces:
# how its time and memory grow with the game, against CFR+ to an
# exploitability of 1e-3 on the same tree.  Figures, not tests.
cd "$(dirname "$0")/.." || exit 1
GSOLVE=${GSOLVE:-./gsolve}

field() { printf '%s\n' "$2" | sed -n "s|^$1: ||p" | head -n 1; }
# peak RSS in MiB of a run (GNU time when installed, else -)
peak() {
  if [ -x /usr/bin/time ]; then
    /usr/bin/time -f '%M' "$@" 2>&1 >/dev/null | tail -n 1 | awk '{ printf "%.0f", $1 / 1024 }'
  else
    echo -
  fi
}
# cpu ARGS: the CPU seconds (user + system) of one run (the subshell's
# children's times, as in bench.sh).
cpu() { ( "$@" >/dev/null 2>&1; times ) | tail -n 1 | awk '{ split($1, u, "m"); split($2, s, "m"); printf "%.2f", u[1] * 60 + u[2] + s[1] * 60 + s[2] }'; }

echo "== Exact equilibria by linear programming (--solver lp): time and memory as the game grows"
printf '%-24s %8s %9s %10s %7s %8s %8s %8s %7s %9s %s\n' "game" "infosets" "sequences" "rows" \
  "iters" "simplex" "exact" "lp CPU" "MiB" "cfr 1e-3" "value"
lpbench() {
  desc=$1; shift
  err=$($GSOLVE "$@" --solver lp --stats 2>&1 >/dev/null)
  out=$($GSOLVE "$@" --solver lp)
  value=$(field value "$out" | sed 's/.*(\(.*\))/\1/')
  exact=$(field value "$out" | grep -q '/' && echo exact || echo float)
  printf '%-24s %8s %9s %10s %7s %8s %8s %8s %7s %9s %s %s\n' "$desc" "$(field infosets "$out")" \
    "$(printf '%s\n' "$err" | sed -n 's/^stats: sequence form: \([0-9]*\) + \([0-9]*\) sequences.*/\1+\2/p')" \
    "$(printf '%s\n' "$err" | sed -n "s/^stats: [^ ]*'s program: \([0-9]*\) rows.*/\1/p" | head -n 1)" \
    "$(printf '%s\n' "$err" | sed -n 's/.*nonzeros, \([0-9]*\) simplex iterations/\1/p' | head -n 1)" \
    "$(printf '%s\n' "$err" | sed -n 's/^stats: GLPK simplex \([0-9.]*\) s.*/\1/p')" \
    "$(printf '%s\n' "$err" | sed -n 's/.*exact simplex \([0-9.]*\) s.*/\1/p')" \
    "$(cpu $GSOLVE "$@" --solver lp)" "$(peak $GSOLVE "$@" --solver lp)" \
    "$(cpu $GSOLVE "$@" --solver cfr --exploitability 1e-3)" "$value" "$exact"
}
lpbench "kuhn" games/kuhn.game
for r in 3 4 5; do lpbench "leduc ranks=$r" games/leduc.game -D ranks=$r; done
for f in 3 4 5; do lpbench "liar's dice faces=$f" games/liarsdice.game -D faces=$f; done
echo "  (simplex, exact: wall seconds of GLPK's float and exact simplex; lp CPU: the whole run;"
echo "   cfr 1e-3: CPU seconds of CFR+ to exploitability 1e-3 on the same tree)"
