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
check "concurrent builds: one object and its record, no temporary files" "2" "$(ls -A "$aot_tmp/cc" | wc -l | tr -d ' ')"

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

# The cache attacked (issue 39).  An object is loaded only when its
# record (NAME.sum: the SHA-256 of the C text and of the object, written
# by the gsolve that built it) says so: the k=2 Tic-tac-toe object under
# the k=3 name made --solve answer "win in 3" and --perft 9 0.
aot_c=$aot_tmp/attack
mkdir -m 700 "$aot_c"
aot_cache_run() { GSOLVE_CACHE="$aot_c" gs "$@" >"$aot_tmp/out" 2>"$aot_tmp/err"; }
aot_cache_run games/tictactoe.game -D k=2 --engine compiled --perft 1
aot_k2=$(ls "$aot_c"/*.so)
aot_cache_run games/tictactoe.game --engine compiled --perft 1
aot_k3=$(ls "$aot_c"/*.so | grep -v "$aot_k2")
check "cache: each object has its record" "2 2" "$(ls "$aot_c"/*.so | wc -l | tr -d ' ') $(ls "$aot_c"/*.sum | wc -l | tr -d ' ')"
check "cache: the record holds the object's SHA-256" yes \
  "$(sha256sum "$aot_k3" | cut -c1-64 | grep -qx "$(sed -n 's/^object //p' "${aot_k3%.so}.sum")" && echo yes)"
check "cache: objects and folder are the user's alone" "drwx------ -rw-------" \
  "$(ls -ld "$aot_c" | cut -c1-10) $(ls -l "$aot_k3" | cut -c1-10)"
cp "$aot_k2" "$aot_k3"
cp "${aot_k2%.so}.sum" "${aot_k3%.so}.sum"
aot_cache_run games/tictactoe.game --perft 9
check "k=2 object and record under the k=3 name: auto runs the VM" "perft 9: 127872|engine: vm" \
  "$(grep -E '^(perft 9|engine):' "$aot_tmp/out" | tr '\n' '|' | sed 's/|$//')"
check "k=2 object under the k=3 name: the warning" \
  "gsolve: warning: '$aot_k3' is not an object this gsolve built from these rules (its record '${aot_k3%.so}.sum' is missing or disagrees); not loaded" \
  "$(cat "$aot_tmp/err")"
aot_cache_run games/tictactoe.game --solve --engine compiled
check "k=2 object under the k=3 name: --engine compiled builds it again" "draw 9 compiled" \
  "$(field value "$(cat "$aot_tmp/out")") $(field plies "$(cat "$aot_tmp/out")") $(field engine "$(cat "$aot_tmp/out")")"
cp "$aot_k2" "$aot_k3"          # the object alone replaced: its bytes disagree
aot_cache_run games/tictactoe.game --perft 9 --engine compiled
check "k=2 object alone under the k=3 name: rebuilt, the right count" "perft 9: 127872|engine: compiled" \
  "$(grep -E '^(perft 9|engine):' "$aot_tmp/out" | tr '\n' '|' | sed 's/|$//')"
# A planted object without a record: its constructor never runs.
if command -v "${GSOLVE_CC:-cc}" >/dev/null 2>&1; then
  printf '#include <stdio.h>\n__attribute__((constructor)) static void pwn(void) { FILE *f = fopen("%s", "w"); if (f) fclose(f); }\n' \
    "$aot_tmp/pwned" >"$aot_tmp/plant.c"
  ${GSOLVE_CC:-cc} -shared -fPIC -o "$aot_tmp/plant.so" "$aot_tmp/plant.c"
  for aot_so in "$aot_c"/*.so; do cp "$aot_tmp/plant.so" "$aot_so"; done
  aot_cache_run games/tictactoe.game --perft 2
  check "planted object: never opened (its constructor did not run)" "no|perft 2: 72" \
    "$([ -e "$aot_tmp/pwned" ] && echo yes || echo no)|$(grep '^perft' "$aot_tmp/out")"
  aot_cache_run games/tictactoe.game --perft 2 --engine compiled
  check "planted object: --engine compiled builds its own" "no|perft 2: 72" \
    "$([ -e "$aot_tmp/pwned" ] && echo yes || echo no)|$(grep '^perft' "$aot_tmp/out")"
fi
# A folder others may write, or another user's: refused with one warning,
# a private temporary folder serves the run (auto: the VM).
chmod 777 "$aot_c"
aot_cache_run games/tictactoe.game --perft 2 --engine compiled
check "cache writable by others: built in a private folder" "perft 2: 72|engine: compiled" \
  "$(grep -E '^(perft 2|engine):' "$aot_tmp/out" | tr '\n' '|' | sed 's/|$//')"
check "cache writable by others: one warning" \
  "gsolve: warning: the compiled tier's cache '$aot_c' is not used: others may write to it (it must be a folder of yours that no one else may write: chmod 700 it, or set GSOLVE_CACHE); using a private temporary folder" \
  "$(cat "$aot_tmp/err")"
aot_cache_run games/tictactoe.game --perft 2
check "cache writable by others: auto runs the VM" "engine: vm" "$(grep '^engine' "$aot_tmp/out")"
chmod 700 "$aot_c"
if [ "$(id -u)" = 0 ] && chown nobody "$aot_c" 2>/dev/null; then
  aot_cache_run games/tictactoe.game --perft 2 --engine compiled
  check "cache of another user: refused" yes \
    "$(grep -q "is not used: it belongs to another user" "$aot_tmp/err" && echo yes)"
  chown 0 "$aot_c"
fi
# umask 000: still the user's alone.
rm -rf "$aot_c"
(umask 000 && aot_cache_run games/nim.game --perft 2 --engine compiled)
check "umask 000: folder 0700, object 0600" "drwx------ -rw-------" \
  "$(ls -ld "$aot_c" | cut -c1-10) $(ls -l "$aot_c"/*.so | cut -c1-10)"

# Builds that fail leave nothing: a compiler that fails (the C text
# NAME.PID.c stayed), one that writes junk (it went under the final
# .so name), a full disk while the C text is written; a compiler that
# hangs is stopped after GSOLVE_CC_TIMEOUT seconds (it was waited for
# forever) and the VM answers; SIGTERM during a build kills the compiler
# (it kept running) and the build folder goes.
mkdir -p "$aot_tmp/bin"
printf '#!/bin/sh\nexit 1\n' >"$aot_tmp/bin/failcc"
printf '#!/bin/sh\nwhile [ $# -gt 0 ]; do [ "$1" = -o ] && echo junk >"$2"; shift; done\n' >"$aot_tmp/bin/junkcc"
printf '#!/bin/sh\necho $$ >"%s"\nexec sleep 60\n' "$aot_tmp/hang.pid" >"$aot_tmp/bin/hangcc"
chmod +x "$aot_tmp/bin/"*
rm -rf "$aot_c"
GSOLVE_CC="$aot_tmp/bin/failcc" aot_cache_run games/nim.game --perft 2 --engine compiled
check "failing compiler: exit and message" "2|gsolve: error: --engine compiled: the C compiler '$aot_tmp/bin/failcc' failed (status 1)" \
  "$?|$(cat "$aot_tmp/err")"
check "failing compiler: nothing left" "" "$(ls -A "$aot_c")"
GSOLVE_CC="$aot_tmp/bin/junkcc" aot_cache_run games/nim.game --perft 2 --engine compiled
check "junk-writing compiler: refused" 6 $?
check "junk-writing compiler: nothing left" "" "$(ls -A "$aot_c")"
(ulimit -f 1 && trap '' XFSZ && aot_cache_run games/nim.game --perft 2 --engine compiled; echo $? >"$aot_tmp/st")
check "full disk writing the C text: exit" 6 "$(cat "$aot_tmp/st")"
check "full disk writing the C text: nothing left" "" "$(ls -A "$aot_c")"
GSOLVE_CC_TIMEOUT=1 GSOLVE_CC="$aot_tmp/bin/hangcc" aot_cache_run games/nim.game --perft 2 --engine compiled
check "hanging compiler: stopped, the VM answers" "0|perft 2: 206|engine: vm" \
  "$?|$(grep -E '^(perft 2|engine):' "$aot_tmp/out" | tr '\n' '|' | sed 's/|$//')"
check "hanging compiler: the warning" \
  "gsolve: warning: --engine compiled: the C compiler '$aot_tmp/bin/hangcc' did not finish in 1 s (stopped; GSOLVE_CC_TIMEOUT sets the bound); using the VM" \
  "$(cat "$aot_tmp/err")"
check "hanging compiler: killed" gone "$(kill -0 "$(cat "$aot_tmp/hang.pid")" 2>/dev/null && echo running || echo gone)"
rm -f "$aot_tmp/hang.pid"
GSOLVE_CACHE="$aot_c" GSOLVE_CC="$aot_tmp/bin/hangcc" $GSOLVE games/nim.game --perft 2 --engine compiled \
  >"$aot_tmp/out" 2>"$aot_tmp/err" &
aot_pid=$!
aot_n=0
while [ ! -s "$aot_tmp/hang.pid" ] && [ $aot_n -lt 100 ]; do sleep 0.1; aot_n=$((aot_n + 1)); done
kill -TERM $aot_pid
wait $aot_pid
check "SIGTERM during a build: exit" 130 $?
sleep 0.2
check "SIGTERM during a build: the compiler killed" gone \
  "$(kill -0 "$(cat "$aot_tmp/hang.pid")" 2>/dev/null && echo running || echo gone)"
check "SIGTERM during a build: nothing left" "" "$(ls -A "$aot_c")"

# UBSan: the generator made a pointer from its first, NULL, buffer (NULL
# + 0) on every --engine auto run; clang's UBSan (GCC's does not check
# it) around src/vm/aot_gen.c, on a game.
# (The rest of the program from the plain build's library: a sanitized
# build's needs GCC's runtime, not clang's.)
aot_lib=$BUILD/libgsolve.a
case $BUILD in *asan*|*tsan*) aot_lib=build/libgsolve.a ;; esac
if command -v clang >/dev/null 2>&1 && [ -f "$aot_lib" ]; then
  clang -O1 -g -fsanitize=undefined -fno-sanitize-recover=all -Isrc -Ibuild -std=c11 \
    -D_POSIX_C_SOURCE=200809L -o "$aot_tmp/aot_text" tests/unit/aot_text.c src/vm/aot_gen.c \
    "$aot_lib" -lm -pthread -ldl 2>"$aot_tmp/err"
  "$aot_tmp/aot_text" games/tictactoe.game >/dev/null 2>"$aot_tmp/err"
  check "aot_gen.c under clang's UBSan: no report" "0|" "$?|$(grep 'runtime error' "$aot_tmp/err")"
else
  echo "  (clang or $aot_lib is missing: aot_gen.c's UBSan check skipped)"
fi

rm -rf "$aot_tmp"
