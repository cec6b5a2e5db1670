# The compiled tier (--engine compiled, src/engines/compiled, src/vm/aot*.c)
# against the interpreter (--engine vm) on every bundled game: the same
# perft counts, the same --solve values and best moves, the same random
# playouts with a fixed seed, the same runtime errors (message and exit
# status); then the cache (reused, concurrent-safe, unwritable) and the
# missing compiler.  The shared objects go to a cache of this build's own.
aot_cache=$(cd "$BUILD" && pwd)/tests/aot-cache
export GSOLVE_CACHE="$aot_cache"
unset GSOLVE_CC

# The output without what differs between engines and runs: times, rates
# and the engine's name.
aot_strip() {
  grep -v -E '^(seconds|engine|playouts/s|nodes/s|positions/s):' "$1"
}

aot_tmp=$(mktemp -d "${TMPDIR:-/tmp}/gsolve-compiled.XXXXXX")

# aot_same DESC ARGS...: both engines give the same output and status.
aot_same() {
  aot_desc=$1
  shift
  gs "$@" --engine vm >"$aot_tmp/vm.out" 2>"$aot_tmp/vm.err"
  aot_vm_status=$?
  gs "$@" --engine compiled >"$aot_tmp/c.out" 2>"$aot_tmp/c.err"
  aot_c_status=$?
  check "$aot_desc: status" "$aot_vm_status" "$aot_c_status"
  check "$aot_desc: output" "$(aot_strip "$aot_tmp/vm.out")" "$(aot_strip "$aot_tmp/c.out")"
  [ "$aot_c_status" -ne 0 ] ||
    check "$aot_desc: ran compiled" "compiled" "$(field engine "$(cat "$aot_tmp/c.out")")"
  check "$aot_desc: stderr" "$(cat "$aot_tmp/vm.err")" "$(cat "$aot_tmp/c.err")"
}

# aot_game FILE [SOLVE] [-D ...]: perft 3 (4 where cheap), 30 playouts with
# seed 7, and --solve unless SOLVE is "nosolve".
aot_game() {
  aot_file=$1
  aot_solve=$2
  shift 2
  aot_same "$aot_file $* perft 3" "$aot_file" "$@" --perft 3
  aot_same "$aot_file $* playouts" "$aot_file" "$@" --playouts 30 --seed 7
  [ "$aot_solve" = nosolve ] || aot_same "$aot_file $* solve" "$aot_file" "$@" --solve
}

aot_game games/chess-endgame.game nosolve
aot_game games/chess.game nosolve
aot_game games/chess.game nosolve -D kingcapture=true
aot_game games/connect4.game solve -D width=4 -D height=4
aot_game games/connect4.game nosolve
aot_game games/dice.game solve
aot_game games/go.game solve -D width=2 -D height=2
aot_game games/go.game nosolve -D width=3 -D height=3
aot_game games/halali.game nosolve
aot_game games/hexapawn.game solve
aot_game games/hexapawn.game solve -D width=4 -D height=4
aot_game games/kuhn.game solve
aot_game games/leduc.game nosolve
aot_game games/matchsticks.game solve
aot_game games/needham-schroeder.game solve
aot_game games/nim.game solve
aot_game games/pig.game solve -D goal=10
aot_game games/pot.game solve
aot_game games/tictactoe.game solve
aot_game games/token.game solve
aot_game games/token.game solve -D repeat=forbidden
aot_game docs/examples/chomp.game solve
aot_game docs/examples/domineering.game solve
aot_game docs/examples/dots-2x2.game solve
aot_game docs/examples/dots-3x2.game nosolve
aot_game docs/examples/dots-3x3.game nosolve
aot_game docs/examples/kayles-step1.game solve
aot_game docs/examples/kayles-step2.game solve
aot_game docs/examples/kayles.game solve
aot_game docs/examples/morris3.game solve
aot_game docs/examples/othello.game solve
aot_game docs/examples/sim.game nosolve
# Deeper counts where the rules do most work (board scans, flood fill).
aot_same "connect4 perft 6" games/connect4.game --perft 6
aot_same "go 3x3 perft 4" games/go.game -D width=3 -D height=3 --perft 4
aot_same "othello perft 5" docs/examples/othello.game --perft 5

# The VM's own consistency checks (tests/unit/test_vm.c: incremental hash
# against the hash from scratch after every apply and undo, undo restores
# the state, canonical forms) on the compiled tier.
for aot_g in games/connect4.game games/go.game docs/examples/othello.game docs/examples/morris3.game \
             games/token.game; do
  GSOLVE_TEST_ENGINE=compiled unit "compiled consistency: $aot_g" "$BUILD/test_vm" "$aot_g"
done

# Runtime errors: the message tests/errors expects, and the status 4.
for aot_rt in tests/errors/rt_*.game; do
  aot_base=${aot_rt%.game}
  gs "$aot_rt" --engine compiled >/dev/null 2>"$aot_tmp/err"
  check "$(basename "$aot_base") compiled: status" 4 $?
  check "$(basename "$aot_base") compiled: message" "$(cat "$aot_base.expected")" "$(cat "$aot_tmp/err")"
done
# The step budget inside a function called from a move (depth > 0).
aot_same "rt_recursion perft" tests/errors/rt_recursion.game --perft 2

# A database is the same file from either engine (the same keys).
gs games/tictactoe.game --engine compiled --solver retro --db "$aot_tmp/t.db" --quiet >/dev/null 2>&1
aot_same "database built compiled, read" games/tictactoe.game --db "$aot_tmp/t.db" --position "b2 a1"

# The cache: an object built once is reused (no compiler needed then);
# an unwritable cache falls back on a temporary directory that it removes.
PATH=/nonexistent gs games/tictactoe.game --engine compiled --perft 2 >"$aot_tmp/out" 2>&1
check "cached object: no compiler needed" "perft 2: 72" "$(grep '^perft' "$aot_tmp/out")"
aot_before=$(ls "${TMPDIR:-/tmp}" | grep -c '^gsolve-[A-Za-z0-9]\{6\}$')
GSOLVE_CACHE=/dev/null/cache gs games/tictactoe.game --engine compiled --perft 2 >"$aot_tmp/out" 2>&1
check "unwritable cache: perft" "perft 2: 72" "$(grep '^perft' "$aot_tmp/out")"
check "unwritable cache: temporary directory removed" "$aot_before" \
  "$(ls "${TMPDIR:-/tmp}" | grep -c '^gsolve-[A-Za-z0-9]\{6\}$')"
# Concurrent first builds into one empty cache all succeed.
mkdir -p "$aot_tmp/cc"
for aot_i in 1 2 3; do
  GSOLVE_CACHE="$aot_tmp/cc" gs games/nim.game --engine compiled --perft 3 >"$aot_tmp/par$aot_i" 2>&1 &
done
wait
for aot_i in 1 2 3; do
  check "concurrent build $aot_i" "perft 3: 2116" "$(grep '^perft' "$aot_tmp/par$aot_i")"
done
check "concurrent builds: one object, no temporary files" "1" "$(ls "$aot_tmp/cc" | wc -l | tr -d ' ')"

# No compiler: --engine compiled is a usage error (2) that says so; auto
# and vm never need one.
GSOLVE_CACHE="$aot_tmp/empty" PATH=/nonexistent gs games/nim.game --engine compiled --perft 2 \
  >"$aot_tmp/out" 2>"$aot_tmp/err"
check "no compiler: status" 2 $?
check "no compiler: message" \
  "gsolve: error: --engine compiled: no C compiler ('cc': No such file or directory; set GSOLVE_CC)" \
  "$(cat "$aot_tmp/err")"
check "no compiler: nothing left in the cache" "" "$(ls "$aot_tmp/empty")"
GSOLVE_CACHE="$aot_tmp/empty" GSOLVE_CC=/nonexistent/cc gs games/nim.game --engine compiled --perft 2 \
  >"$aot_tmp/out" 2>"$aot_tmp/err"
check "GSOLVE_CC missing: message" \
  "gsolve: error: --engine compiled: no C compiler ('/nonexistent/cc': No such file or directory; set GSOLVE_CC)" \
  "$(cat "$aot_tmp/err")"
GSOLVE_CACHE="$aot_tmp/empty" PATH=/nonexistent gs games/tictactoe.game --perft 2 >"$aot_tmp/out" 2>&1
check "no compiler: auto runs" "perft 2: 72" "$(grep '^perft' "$aot_tmp/out")"
# --engine auto: the compiled tier for a long job (perft, count, solve,
# playouts, test sets) when the game's object is cached, never built by
# auto itself; the VM for the rest and with an empty cache; the native
# engine first where the game has one.
mkdir -p "$aot_tmp/auto"
aot_engine() { grep '^engine' "$aot_tmp/out"; }
GSOLVE_CACHE="$aot_tmp/auto" gs games/tictactoe.game --perft 3 >"$aot_tmp/out" 2>&1
check "auto, nothing cached: the VM" "engine: vm" "$(aot_engine)"
check "auto builds nothing" "" "$(ls "$aot_tmp/auto")"
GSOLVE_CACHE="$aot_tmp/auto" gs games/tictactoe.game --perft 3 --engine compiled >/dev/null 2>&1
for aot_mode in "--perft 3" "--count" "--solve" "--playouts 5 --seed 1"; do
  GSOLVE_CACHE="$aot_tmp/auto" gs games/tictactoe.game $aot_mode >"$aot_tmp/out" 2>&1
  check "auto, cached, $aot_mode: the compiled tier" "engine: compiled" "$(aot_engine)"
done
GSOLVE_CACHE="$aot_tmp/auto" gs games/tictactoe.game --perft 3 --engine vm >"$aot_tmp/out" 2>&1
check "--engine vm, cached: the VM" "engine: vm" "$(aot_engine)"
GSOLVE_CACHE="$aot_tmp/auto" PATH=/nonexistent gs games/tictactoe.game --perft 3 >"$aot_tmp/out" 2>&1
check "auto, cached, no compiler: the cached object" "engine: compiled" "$(aot_engine)"
check "auto, cached: the VM's count" "perft 3: 504" "$(grep '^perft' "$aot_tmp/out")"
# A native engine's parameters refused: the cached tier, and the note says so.
GSOLVE_CACHE="$aot_tmp/auto" gs games/connect4.game -D width=19 -D height=7 --perft 2 --engine compiled >/dev/null 2>&1
GSOLVE_CACHE="$aot_tmp/auto" gs games/connect4.game -D width=19 -D height=7 --perft 2 >"$aot_tmp/out" 2>"$aot_tmp/err"
check "auto, native refused, cached: the compiled tier" "engine: compiled" "$(aot_engine)"
check "auto, native refused, cached: the note" \
  "gsolve: note: native connect4 needs width * (height + 1) <= 128 (19x7: 152 bits); using the compiled tier (cached)" \
  "$(cat "$aot_tmp/err")"
GSOLVE_CACHE="$aot_tmp/auto" gs games/connect4.game --perft 2 >"$aot_tmp/out" 2>&1
check "auto, a native engine: native" "engine: native-connect4" "$(aot_engine)"
# Rules the tier cannot take (Go 19x19: a function of 2184 locals) are
# simply not cached: auto runs them on the VM, without a message.
GSOLVE_CACHE="$aot_tmp/auto" gs games/go.game -D width=19 -D height=19 --perft 1 >"$aot_tmp/out" 2>"$aot_tmp/err"
check "auto, rules beyond the tier: the VM" "perft 1: 362|engine: vm|" \
  "$(grep -E '^(perft 1|engine):' "$aot_tmp/out" | tr '\n' '|')$(cat "$aot_tmp/err")"
check "unknown engine" "gsolve: error: unknown engine 'jit' (auto, vm, native or compiled)" \
  "$(gs games/nim.game --engine jit 2>&1 >/dev/null)"

# Connect Four's deferred line test (DEFER) and superinstructions (SETL,
# INCL, TEEL) on both tiers; a full column's scan leaves the board and
# fails in the compiled tier as in the interpreter.
aot_same "connect4 perft 6" games/connect4.game --perft 6
aot_same "full column: the scan's runtime error" tests/files/scan_full.game --perft 3
check "full column: the error" "tests/files/scan_full.game:12:9: runtime error: row 2 out of range 0..1 in move 'drop'" \
  "$(gs tests/files/scan_full.game --perft 3 --engine compiled 2>&1 >/dev/null | head -n 1)"

rm -rf "$aot_tmp"
