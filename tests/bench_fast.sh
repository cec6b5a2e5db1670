#!/bin/sh
# tests/bench_fast.sh -- part of make bench (issue 43): value iteration on
# Pig against a program written by hand, and the compiled tier that
# `--engine auto` builds on a first run.  Figures, not tests: nothing here
# fails on time.  CPU time (user + system, the compiler's included), the
# best of ROUNDS runs (default 5) taken in turns, so that a change of
# load on a shared machine falls on both sides.
cd "$(dirname "$0")/.." || exit 1
GSOLVE=${GSOLVE:-./gsolve}
BUILD=${BUILD:-build}
ROUNDS=${ROUNDS:-5}
mkdir -p "$BUILD"

# cpu CMD...: the CPU seconds of one run, from `times` (its second line:
# the children's) in the subshell that runs it, whose children start at 0.
run_times() { "$@" >/dev/null 2>&1 && times; }
cpu() {
  run_times "$@" | awk 'NR == 2 { split($1, u, /[ms]/); split($2, s, /[ms]/)
    printf "%.3f", u[1] * 60 + u[2] + s[1] * 60 + s[2] }'
}
least() { awk -v a="$1" -v b="$2" 'BEGIN { print (b != "" && (a == "" || b + 0 < a + 0)) ? b : a }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2fx", a / b; else print "-" }'; }

echo "== Value iteration: Pig to 100 (1,921,987 positions), gsolve against C written by hand"
echo "   tests/bench/pig_hand.c: Neller and Presser's formulation, Gauss-Seidel over the"
echo "   whole state space to 1e-12 (cc -O2); ratio = gsolve's CPU time / the hand C's"
hand=$BUILD/pig_hand
${CC:-cc} -O2 -o "$hand" tests/bench/pig_hand.c -lm || exit 1
pig="games/pig.game --solver value-iteration"
$GSOLVE $pig -D goal=10 --engine compiled >/dev/null || exit 1   # the object, before the clock
th=""; tc=""; tv=""
for r in $(seq 1 "$ROUNDS"); do
  th=$(least "$th" "$(cpu "$hand" 100)")
  tc=$(least "$tc" "$(cpu $GSOLVE $pig --engine compiled)")
  tv=$(least "$tv" "$(cpu $GSOLVE $pig --engine vm)")
done
printf '%-44s %8ss\n' "hand C (pig_hand 100)" "$th"
printf '%-44s %8ss  ratio %s\n' "gsolve, compiled tier" "$tc" "$(ratio "$tc" "$th")"
printf '%-44s %8ss  ratio %s\n' "gsolve, VM" "$tv" "$(ratio "$tv" "$th")"
printf '    %s 100; %s %s --engine compiled (and vm)\n' "$hand" "$GSOLVE" "$pig"
printf '    P(win) for the first player: hand %s, gsolve %s\n' \
  "$("$hand" 100 | sed -n 's/^p_win: //p')" \
  "$($GSOLVE $pig | sed -n 's/^payoffs: First \([0-9.]*\),.*/\1/p')"
th2=""
for r in $(seq 1 "$ROUNDS"); do th2=$(least "$th2" "$(cpu "$hand" -p 100)"); done
printf '%-44s %8ss  (gsolve compiled / this: %s)\n' "hand C by pairs of scores (pig_hand -p 100)" \
  "$th2" "$(ratio "$tc" "$th2")"

echo
echo "== --engine auto on a first run: the compiled tier built for a long job"
echo "   Connect Four with k=5 (no native engine), perft 9: a first run on an empty"
echo "   cache (the build and its line included) against a run with the object cached"
c4="games/connect4.game -D k=5 --perft 9"
cache=$(mktemp -d "${TMPDIR:-/tmp}/gsolve-bench-fast.XXXXXX")
chmod 700 "$cache"
tf=""; tw=""
for r in $(seq 1 "$ROUNDS"); do
  rm -rf "$cache/c"; mkdir -m 700 "$cache/c"
  tf=$(least "$tf" "$(GSOLVE_CACHE=$cache/c cpu $GSOLVE $c4)")
  tw=$(least "$tw" "$(GSOLVE_CACHE=$cache/c cpu $GSOLVE $c4)")
done
rm -rf "$cache/c"; mkdir -m 700 "$cache/c"
line=$(GSOLVE_CACHE=$cache/c $GSOLVE $c4 2>&1 >/dev/null | grep -c 'building the compiled tier')
engine=$(GSOLVE_CACHE=$cache/c $GSOLVE $c4 2>/dev/null | sed -n 's/^engine: //p')
tv=""
for r in $(seq 1 "$ROUNDS"); do tv=$(least "$tv" "$(cpu $GSOLVE $c4 --engine vm)"); done
rm -rf "$cache"
printf '%-44s %8ss  (%s build line)\n' "first run, empty cache" "$tf" "$line"
printf '%-44s %8ss  first / cached %s\n' "cached run ($engine)" "$tw" "$(ratio "$tf" "$tw")"
printf '%-44s %8ss  VM / first run %s\n' "the VM (--engine vm)" "$tv" "$(ratio "$tv" "$tf")"
printf '    GSOLVE_CACHE=<empty> %s %s   (twice)\n' "$GSOLVE" "$c4"
printf '    %s games/connect4.game --perft 9 (k=4): engine %s, no build\n' "$GSOLVE" \
  "$($GSOLVE games/connect4.game --perft 9 2>/dev/null | sed -n 's/^engine: //p')"
