#!/bin/sh
# tests/bench.sh -- make bench: VM perft throughput, solver node counts,
# alpha-beta throughput and table hit rates.
# Figures, not tests: nothing here fails on time.  Node counts are
# deterministic, so a commit can quote them as a signature.
cd "$(dirname "$0")/.." || exit 1
GSOLVE=${GSOLVE:-./gsolve}

field() { printf '%s\n' "$2" | sed -n "s|^$1: ||p" | head -n 1; }   # "|": a name may hold "/"

# rate NODES SECONDS -> nodes per second
rate() { awk -v n="$1" -v s="$2" 'BEGIN { if (s > 0) printf "%.0f", n / s; else print "-" }'; }

echo "== Perft throughput: the VM, and the native engines where the game has one"
printf '%-34s %12s %12s %8s %12s\n' "position" "perft" "nodes" "seconds" "nodes/s"
perft() {
  desc=$1; shift
  out=$($GSOLVE "$@")
  n=$(field nodes "$out"); s=$(field seconds "$out")
  printf '%-34s %12s %12s %8s %12s\n' "$desc" "$(printf '%s\n' "$out" | sed -n 's/^perft [0-9]*: //p')" "$n" "$s" "$(rate "$n" "$s")"
}
perft "connect4 7x6 depth 8 (vm)" games/connect4.game --engine vm --perft 8
perft "connect4 7x6 depth 8 (native)" games/connect4.game --engine native --perft 8
perft "tictactoe whole tree (perft 10, vm)" games/tictactoe.game --engine vm --perft 10
perft "hexapawn 4x4 depth 8 (vm)" games/hexapawn.game -D width=4 -D height=4 --engine vm --perft 8
perft "nim 1,3,5,7 depth 6 (vm)" games/nim.game --engine vm --perft 6
perft "nim 1,3,5,7 depth 6 (native)" games/nim.game --engine native --perft 6

echo
echo "== The compiled tier (--engine compiled) against the VM and the native engine"
echo "   ratio = speed of the first / speed of the second (nodes/s), same run: CPU time, best of 5"
echo "   rounds, the two engines alternating in each"
# The shared objects are built (and cached) before anything is timed.
for g in "games/connect4.game" "games/tictactoe.game" "games/hexapawn.game -D width=4 -D height=4" \
         "games/go.game -D width=3 -D height=3"; do
  $GSOLVE $g --engine compiled --perft 1 >/dev/null || exit 1
done
# cpu ARGS: the CPU seconds (user + system) of one run, from `times` (its
# second line: the children's) in the subshell that runs it, whose
# children start at zero.  CPU time, not wall time: on a shared machine
# another program's load then only adds noise (caches, clock), not its
# time slices.
run_times() { $GSOLVE "$@" >/dev/null && times; }
cpu() {
  run_times "$@" | awk 'NR == 2 { split($1, u, /[ms]/); split($2, s, /[ms]/)
    printf "%.3f", u[1] * 60 + u[2] + s[1] * 60 + s[2] }'
}
# least A B: the smaller time; an empty one (a failed run) never wins.
least() { awk -v a="$1" -v b="$2" 'BEGIN { print (b != "" && (a == "" || b + 0 < a + 0)) ? b : a }'; }
# ratio DESC "ARGS" ENGINE_A ENGINE_B: A's speed over B's on the same
# perft.  The engines alternate, so that a change of load in the middle
# falls on both.
ratio() {
  desc=$1; args=$2; a=""; b=""
  for run in 1 2 3 4 5; do
    a=$(least "$a" "$(cpu $args --engine "$3")")
    b=$(least "$b" "$(cpu $args --engine "$4")")
  done
  printf '%-30s %-9s %7ss %-9s %7ss  ratio %s\n' "$desc" "$3" "$a" "$4" "$b" \
    "$(awk -v a="$a" -v b="$b" 'BEGIN { if (a > 0) printf "%.3fx", b / a; else print "-" }')"
  printf '    %s %s --engine %s   (and --engine %s)\n' "$GSOLVE" "$args" "$3" "$4"
}
ratio "connect4 7x6 perft 9" "games/connect4.game --perft 9" vm native
ratio "connect4 7x6 perft 9" "games/connect4.game --perft 9" compiled native
ratio "connect4 7x6 perft 9" "games/connect4.game --perft 9" compiled vm
ratio "tictactoe perft 9" "games/tictactoe.game --perft 9" compiled vm
ratio "hexapawn 4x4 perft 10" "games/hexapawn.game -D width=4 -D height=4 --perft 10" compiled vm
ratio "go 3x3 perft 7" "games/go.game -D width=3 -D height=3 --perft 7" compiled vm

echo
echo "== Solvers: node counts (deterministic) and time"
printf '%-34s %-10s %-6s %6s %12s %8s %12s\n' "game" "solver" "value" "plies" "nodes" "seconds" "nodes/s"
solve() {
  desc=$1; solver=$2; shift 2
  out=$($GSOLVE "$@" --solver "$solver")
  n=$(field nodes "$out"); s=$(field seconds "$out")
  printf '%-34s %-10s %-6s %6s %12s %8s %12s\n' "$desc" "$solver" "$(field value "$out")" \
    "$(field plies "$out")" "$n" "$s" "$(rate "$n" "$s")"
}
for solver in minimax alphabeta; do
  solve "tictactoe 3x3" $solver games/tictactoe.game
  solve "hexapawn 3x3" $solver games/hexapawn.game
  solve "hexapawn 4x4" $solver games/hexapawn.game -D width=4 -D height=4
  solve "nim 1,3,5 (vm)" $solver games/nim.game -D heaps=1,3,5 --engine vm
  solve "matchsticks n=21 k=3 (vm)" $solver games/matchsticks.game --engine vm
done
solve "nim 1,3,5,7 (vm)" alphabeta games/nim.game --engine vm
solve "nim 1,3,5,7 (native)" alphabeta games/nim.game --engine native
solve "connect4 4x4 (vm)" alphabeta games/connect4.game -D width=4 -D height=4 --engine vm
solve "connect4 5x4 (vm)" alphabeta games/connect4.game -D width=5 -D height=4 --engine vm
solve "connect4 5x4 (native engine)" alphabeta games/connect4.game -D width=5 -D height=4 --engine native
solve "connect4 5x4 (native solver)" native games/connect4.game -D width=5 -D height=4
solve "connect4 6x5 (native solver)" native games/connect4.game -D width=6 -D height=5
solve "tictactoe 3x3 (vm)" retro games/tictactoe.game --engine vm --quiet
solve "connect4 4x4 (vm)" retro games/connect4.game -D width=4 -D height=4 --engine vm --quiet
solve "tictactoe 4x4 k=3" alphabeta games/tictactoe.game -D m=4 -D n=4 -D k=3

echo
echo "== Protocols: Needham-Schroeder (games/needham-schroeder.game, docs/protocols.md)"
printf '%-34s %-10s %-6s %6s %12s %8s %12s\n' "game" "solver" "value" "plies" "nodes" "seconds" "nodes/s"
NS=games/needham-schroeder.game
for solver in alphabeta retro; do
  solve "NS attack (Lowe), 1 run, 3 msgs" $solver $NS
  solve "NS attack, 2 runs, 6 msgs" $solver $NS -D sessions=2 -D messages=6
  solve "NS only A,B, 2 runs, 6 msgs" $solver $NS -D partner_i=0 -D sessions=2 -D messages=6
  solve "NS fixed, 2 runs, 6 msgs" $solver $NS -D fixed=1 -D sessions=2 -D messages=6
done

echo
echo "== Go through the VM: perft and random playouts (games/go.game)"
perft "go 5x5 depth 4 (vm)" games/go.game -D width=5 -D height=5 --engine vm --perft 4
out=$($GSOLVE games/go.game -D width=9 -D height=9 -D limit=400 --playouts 50 --seed 1 --engine vm)
printf '%-34s %12s games %8s moves/game %8s s %8s playouts/s\n' "go 9x9 random playouts (vm)" \
  "$(field playouts "$out")" "$(field moves "$out" | sed 's/.*(\([0-9.]*\) a game)/\1/')" \
  "$(field seconds "$out")" "$(field playouts/s "$out")"
printf '%-34s %-10s %-6s %6s %12s %8s %12s\n' "game" "solver" "value" "plies" "nodes" "seconds" "nodes/s"
for size in "1 1" "2 1" "3 1" "4 1" "5 1" "6 1" "2 2" "3 2" "3 3"; do
  set -- $size
  solve "go ${1}x$2 (situational superko)" alphabeta games/go.game -D width=$1 -D height=$2
done
solve "go 2x2 (positional superko)" alphabeta games/go.game -D width=2 -D height=2 -D ko=positional
solve "go 3x3 (positional superko)" alphabeta games/go.game -D ko=positional
# Searches to the end instead of deepening's proofs to a growing horizon
# (3x3 does not finish that way).
solve "go 2x2 --no-deepening" alphabeta games/go.game -D width=2 -D height=2 --no-deepening
solve "go 3x2 --no-deepening" alphabeta games/go.game -D width=3 -D height=2 --no-deepening
# Scores and distances (--with-plies) instead of scores only: the price
# of the distance under superko.
solve "go 2x2 --with-plies" alphabeta games/go.game -D width=2 -D height=2 --with-plies
solve "go 1x6 --with-plies" alphabeta games/go.game -D width=6 -D height=1 --with-plies

echo
echo "== Chance, per-move payoffs, three players (expected values; score instead of plies)"
printf '%-34s %-10s %-14s %12s %8s %12s\n' "game" "solver" "score" "nodes" "seconds" "nodes/s"
esolve() {
  desc=$1; solver=$2; shift 2
  out=$($GSOLVE "$@" --solver "$solver")
  n=$(field nodes "$out"); s=$(field seconds "$out")
  printf '%-34s %-10s %-14s %12s %8s %12s\n' "$desc" "$solver" "$(field score "$out")" "$n" "$s" "$(rate "$n" "$s")"
}
for solver in expectimax alphabeta retro; do
  esolve "dice 12 sides, 3 rolls" $solver games/dice.game -D sides=12 -D rolls=3
done
# Star1 against plain expectimax without the memo table: what pruning saves.
esolve "dice 12x3, no table" expectimax games/dice.game -D sides=12 -D rolls=3 --tt-size 0
esolve "dice 12x3, no table (Star1)" alphabeta games/dice.game -D sides=12 -D rolls=3 --tt-size 0
for solver in expectimax retro; do
  esolve "pot, 3 players, 24 coins" $solver games/pot.game -D coins=3,1,4,1,5,9,2,6,5,3,5,8,9,7,9,3,2,3,8,4,6,2,6,4
done

echo
echo "== Value iteration: Pig (cycles), goal 100 (Neller and Presser: First wins 0.5305927)"
printf '%-16s %-11s %10s %10s %7s %9s %9s %9s %9s
' "game" "win (First)" "positions" "moves" "sweeps" "updates" "enum s" "sweep s" "seconds"
# win = (1 + score) / 2; sweeps: the most a component of the move graph
# needed (--epsilon 1e-12); updates: Bellman updates in all.
vistats() {
  desc=$1; shift
  err=$($GSOLVE "$@" --solver value-iteration --stats 2>&1 >/dev/null)
  out=$($GSOLVE "$@" --solver value-iteration)
  win=$(awk -v s="$(field score "$out")" 'BEGIN { printf "%.7f", (1 + s) / 2 }')
  moves=$(printf '%s\n' "$err" | sed -n 's/.*moves \([0-9]*\)$/\1/p')
  sweeps=$(printf '%s\n' "$err" | sed -n 's/^stats: sweeps \([0-9]*\).*/\1/p')
  updates=$(printf '%s\n' "$err" | sed -n 's/.*; \([0-9]*\) updates.*/\1/p')
  enum=$(printf '%s\n' "$err" | sed -n 's/.*enumeration \([0-9.]*\) s.*/\1/p')
  sweep=$(printf '%s\n' "$err" | sed -n 's/.*labelling \([0-9.]*\) s.*/\1/p')
  printf '%-16s %-11s %10s %10s %7s %9s %9s %9s %9s\n' "$desc" "$win" "$(field positions "$out")" \
    "$moves" "$sweeps" "$updates" "$enum" "$sweep" "$(field seconds "$out")"
}
vistats "pig goal 10" games/pig.game -D goal=10
vistats "pig goal 100" games/pig.game

echo
echo "== Alpha-beta: throughput and transposition table (--stats)"
printf '%-26s %-16s %10s %10s %7s %7s %9s %9s\n' "game" "engine" "nodes" "nodes/s" "hits" "cuts" "childcut" "seconds"
# Nodes are the positions entered; each also looks at its children once
# (so nodes/s undercounts the work).  Table lookups: one per node entered,
# one per child looked at before the search; "hits" found the position,
# "cuts" settled a node by its bounds; "childcut" counts the nodes that a
# child's entry ended (enhanced transposition cutoffs).
abstats() {
  desc=$1; shift
  err=$($GSOLVE "$@" --solver alphabeta --stats 2>&1 >/dev/null)
  out=$($GSOLVE "$@" --solver alphabeta)
  printf '%-26s %-16s %10s %10s %7s %7s %9s %9s\n' "$desc" "$(field engine "$out")" \
    "$(printf '%s\n' "$err" | sed -n 's/^stats: nodes \([0-9]*\).*/\1/p')" \
    "$(printf '%s\n' "$err" | sed -n 's/^stats: nodes [0-9]* (\([0-9]*\) nodes.*/\1/p')" \
    "$(printf '%s\n' "$err" | sed -n 's/.*hits [0-9]* (\([0-9.]*%\)).*/\1/p')" \
    "$(printf '%s\n' "$err" | sed -n 's/.*cutoffs [0-9]* (\([0-9.]*%\)).*/\1/p')" \
    "$(printf '%s\n' "$err" | sed -n 's/.*child cutoffs \([0-9]*\).*/\1/p')" \
    "$(field seconds "$out")"
}
abstats "connect4 5x4" games/connect4.game -D width=5 -D height=4 --engine vm
abstats "connect4 5x4" games/connect4.game -D width=5 -D height=4 --engine native
abstats "connect4 4x4" games/connect4.game -D width=4 -D height=4 --engine vm
abstats "tictactoe 4x4 k=3" games/tictactoe.game -D m=4 -D n=4 -D k=3
abstats "tictactoe 3x3" games/tictactoe.game
abstats "hexapawn 4x4" games/hexapawn.game -D width=4 -D height=4
abstats "hexapawn 5x4" games/hexapawn.game -D width=5 -D height=4
abstats "nim 1,3,5,7" games/nim.game
abstats "nim 1,3,5,7" games/nim.game --engine vm
abstats "matchsticks n=60" games/matchsticks.game -D n=60 --engine vm
abstats "connect4 7x6 --depth 8" games/connect4.game --depth 8
abstats "connect4 7x6 --depth 10" games/connect4.game --depth 10
abstats "hexapawn 5x5 --depth 8" games/hexapawn.game -D width=5 -D height=5 --depth 8

echo
echo "== CFR (--solver cfr): the tree expanded once, then iterations without the VM"
# it/s: iterations per second of wall time over a fixed run (one measure
# at the end); to 1e-3: the iterations (and their measures of
# exploitability) until the average strategy's exploitability is below
# 1e-3, in wall time and in CPU time (a busy machine inflates the first).
# The expansion through the VM is apart.  Reference: a hand-written C
# CFR+ on an explicit Leduc tree reaches 1e-3 in about 0.05 s.
printf '%-22s %-7s %8s %9s %8s %9s %7s %6s %8s %8s\n' "game" "cfr" "infosets" "histories" \
  "expand s" "it/s" "iters" "expl" "to s" "to CPU s"
cfrbench() {
  desc=$1; variant=$2; target=$3; shift 3
  err=$($GSOLVE "$@" --cfr-variant "$variant" --iterations 2000 --stats --quiet 2>&1 >/dev/null)
  rate=$(printf '%s\n' "$err" | sed -n 's/^stats: cfr+*: [0-9]* iterations in [0-9.]* s (\([0-9]*\) iterations.*/\1/p')
  err=$($GSOLVE "$@" --cfr-variant "$variant" --exploitability "$target" --stats --quiet 2>&1 >/dev/null)
  out=$($GSOLVE "$@" --cfr-variant "$variant" --iterations 0 --quiet)
  printf '%-22s %-7s %8s %9s %8s %9s %7s %6s %8s %8s\n' "$desc" "$variant" "$(field infosets "$out")" \
    "$(field histories "$out")" \
    "$(printf '%s\n' "$err" | sed -n 's/.*expanded in \([0-9.]*\) s.*/\1/p')" "$rate" \
    "$(printf '%s\n' "$err" | sed -n 's/^stats: cfr+*: \([0-9]*\) iterations.*/\1/p')" "$target" \
    "$(printf '%s\n' "$err" | sed -n 's/^stats: cfr+*: [0-9]* iterations in \([0-9.]*\) s.*/\1/p')" \
    "$(printf '%s\n' "$err" | sed -n 's/.*CPU \([0-9.]*\) s).*/\1/p')"
}
cfrbench "leduc" plus 1e-3 games/leduc.game
cfrbench "leduc" vanilla 1e-2 games/leduc.game
cfrbench "kuhn" plus 1e-5 games/kuhn.game
cfrbench "hexapawn 3x4" plus 1e-3 games/hexapawn.game -D width=3 -D height=4 --solver cfr

echo
echo "== Halali 9x9 (games/halali.game): random playouts through the VM, and the computer's play"
out=$($GSOLVE games/halali.game --playouts 200 --seed 1 --engine vm)
printf '%-34s %12s games %8s moves/game %8s s %8s playouts/s\n' "halali 9x9 random playouts (vm)" \
  "$(field playouts "$out")" "$(field moves "$out" | sed 's/.*(\([0-9.]*\) a game)/\1/')" \
  "$(field seconds "$out")" "$(rate "$(field playouts "$out")" "$(field seconds "$out")")"
echo "  random play: wins $(field wins "$out"); mean points $(field payoffs "$out")"
# The same through the compiled tier (its C built once, then cached): the
# issue's 10,000 playouts in seconds.
$GSOLVE games/halali.game --playouts 1 --engine compiled >/dev/null 2>&1
out=$($GSOLVE games/halali.game --playouts 10000 --seed 1 --engine compiled)
printf '%-34s %12s games %8s moves/game %8s s %8s playouts/s\n' "halali 9x9 random playouts (compiled)" \
  "$(field playouts "$out")" "$(field moves "$out" | sed 's/.*(\([0-9.]*\) a game)/\1/')" \
  "$(field seconds "$out")" "$(rate "$(field playouts "$out")" "$(field seconds "$out")")"
echo "  ($GSOLVE games/halali.game --playouts 10000 --seed 1 --engine compiled)"
# Information-set MCTS at level 1 (50 iterations a move: the level that
# keeps the 400 games within a few minutes on 2 cores) against a random
# player and a one-ply greedy one (the move that takes the most points),
# 200 games each, seats alternating; the two matches run side by side.
# The score counts a draw as half a win; the interval is Wilson's 95% score
# interval over the 200 games.
BUILD=${BUILD:-build}
"$BUILD/match" games/halali.game ismcts random 200 1 1 >"$BUILD/bench_halali_random.txt" &
hl_pid=$!
"$BUILD/match" games/halali.game ismcts greedy 200 1 2 >"$BUILD/bench_halali_greedy.txt"
wait $hl_pid
sed 's/^/  /' "$BUILD/bench_halali_random.txt" "$BUILD/bench_halali_greedy.txt"
# The reference: greedy against random, to show greedy is no straw man.
"$BUILD/match" games/halali.game greedy random 200 1 3 | sed 's/^/  /'
rm -f "$BUILD/bench_halali_random.txt" "$BUILD/bench_halali_greedy.txt"

echo
echo "== Grundy values (docs/cgt.md): Kayles G(0..N) by --grundy-sequence (octal.game, two heap slots)"
printf '%-44s %8s %10s %8s\n' "run" "period" "preperiod" "seconds"
for gb in "2000 vm" "10000 compiled"; do
  set -- $gb
  out=$($GSOLVE games/octal.game -D code=0.77 -D n=$1 -D slots=2 --grundy-sequence $1 --engine $2)
  printf '%-44s %8s %10s %8s\n' "kayles G(0..$1) ($2)" "$(field period "$out")" \
    "$(field preperiod "$out")" "$(field seconds "$out")"
done
out=$($GSOLVE games/nim.game --engine vm -D heaps=100,200,300,400 --grundy)
printf '%-44s %8s %10s %8s\n' "nim 100,200,300,400 by components (vm)" "G=$(field grundy "$out")" "-" \
  "$(field seconds "$out")"
