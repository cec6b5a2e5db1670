# --engine auto builds the compiled tier itself for a long job
# (src/engines/compiled/autotier.c): one line while it builds, the object
# cached for the next run, a quick job kept on the VM, and a silent
# fall-back to the VM when no compiler works.  The suite sets
# GSOLVE_AUTO_BUILD=0 (tests/run.sh); this script turns it back on, on a
# cache of its own.
at_line="gsolve: building the compiled tier for this game with 'cc' (once: later runs take it from the cache)"
at_cache=$(cd "$BUILD" && pwd)/tests/autotier-cache
at_tmp=$(mktemp -d "${TMPDIR:-/tmp}/gsolve-autotier.XXXXXX")
at_gsolve=$(cd "$(dirname "$GSOLVE")" && pwd)/$(basename "$GSOLVE")
at_fresh() { rm -rf "$at_cache"; mkdir -m 700 "$at_cache"; }
# at_run ARGS...: gsolve with auto builds on, on the cache; stdout to
# $at_tmp/out, stderr to $at_tmp/err.
at_run() { GSOLVE_AUTO_BUILD= GSOLVE_CACHE=$at_cache gs "$@" >"$at_tmp/out" 2>"$at_tmp/err"; }
at_objects() { ls "$at_cache" | grep -c '\.so$'; }

# The suite itself never builds (tests/run.sh): a long job stays on the VM.
check "the suite keeps the VM" vm "$(field engine "$(gs games/pig.game -D goal=40 --count)")"

# A quick job (Tic-tac-toe: 5,478 positions) keeps the VM and builds nothing.
at_fresh
at_run games/tictactoe.game
check "quick solve: VM" vm "$(field engine "$(cat "$at_tmp/out")")"
check "quick solve: no line" "" "$(cat "$at_tmp/err")"
check "quick solve: nothing built" 0 "$(at_objects)"
at_run games/connect4.game -D width=4 -D height=4 -D k=5 --perft 8
check "quick perft: VM, no build" "vm 0" "$(field engine "$(cat "$at_tmp/out")") $(grep -c building "$at_tmp/err")"

# A few random games of a large game are quick too (their time is
# probed, not the game's size).
at_run games/pig.game -D goal=40 --playouts 10 --seed 1
check "few playouts: VM, no line" "vm|" "$(field engine "$(cat "$at_tmp/out")")|$(cat "$at_tmp/err")"

# A long job (Pig to 40 has 115,987 positions): built, one line, the
# same count as the VM's.
vm_count=$(field positions "$(gs games/pig.game -D goal=40 --count --engine vm)")
at_run games/pig.game -D goal=40 --count
check "long job: compiled" compiled "$(field engine "$(cat "$at_tmp/out")")"
check "long job: one line" "$at_line" "$(cat "$at_tmp/err")"
check "long job: the VM's count" "$vm_count" "$(field positions "$(cat "$at_tmp/out")")"
check "long job: cached" 1 "$(at_objects)"
at_run games/pig.game -D goal=40 --count
check "second run: compiled from the cache, no line" "compiled|" "$(field engine "$(cat "$at_tmp/out")")|$(cat "$at_tmp/err")"
# --quiet: no line.
at_fresh
at_run games/pig.game -D goal=40 --count --quiet
check "--quiet: built without a line" "compiled|" "$(field engine "$(cat "$at_tmp/out")")|$(cat "$at_tmp/err")"

# No compiler that works: the VM, silently (a compiler that fails: only
# the line said before it ran), the same count, status 0.
at_fresh
GSOLVE_CC=/bin/false at_run games/pig.game -D goal=40 --count
at_st=$?
check "failing compiler: VM, status 0" "vm 0" "$(field engine "$(cat "$at_tmp/out")") $at_st"
check "failing compiler: the count" "$vm_count" "$(field positions "$(cat "$at_tmp/out")")"
check "failing compiler: only the line" "gsolve: building the compiled tier for this game with '/bin/false' (once: later runs take it from the cache)" "$(cat "$at_tmp/err")"
check "failing compiler: nothing cached" 0 "$(at_objects)"
GSOLVE_CC=$at_tmp/no-such-cc at_run games/pig.game -D goal=40 --count
check "missing GSOLVE_CC: VM, silent" "vm|" "$(field engine "$(cat "$at_tmp/out")")|$(cat "$at_tmp/err")"
(unset GSOLVE_CC; PATH=$at_tmp GSOLVE_AUTO_BUILD= GSOLVE_CACHE=$at_cache "$at_gsolve" games/pig.game \
   -D goal=40 --count >"$at_tmp/out" 2>"$at_tmp/err")
check "no cc on PATH: VM, silent" "vm|" "$(field engine "$(cat "$at_tmp/out")")|$(cat "$at_tmp/err")"
# A long perft (its leaves estimated by a probe: 6,745,200) is built for.
at_run games/connect4.game -D width=4 -D height=4 -D k=5 --perft 12
check "long perft: compiled, the line" "compiled 1" "$(field engine "$(cat "$at_tmp/out")") $(grep -c "^$at_line\$" "$at_tmp/err")"
GSOLVE_AUTO_BUILD=0 GSOLVE_CACHE=$at_cache gs games/pig.game -D goal=40 --count >"$at_tmp/out" 2>"$at_tmp/err"
check "GSOLVE_AUTO_BUILD=0: VM, silent" "vm|" "$(field engine "$(cat "$at_tmp/out")")|$(cat "$at_tmp/err")"
# A rule that fails in the probe: reported once (by the job, on the VM),
# exit 4, nothing built.
sed 's/  bank\[who\] += turn;/  if bank[0] == 30 { bank[who + 2] = 0; }\n  bank[who] += turn;/' games/pig.game > "$at_tmp/bad.game"
at_fresh
at_run "$at_tmp/bad.game" -D goal=60 --count
at_st=$?
check "failing rule in the probe: exit 4, the error once, no build" "4 1 0" \
  "$at_st $(grep -c 'runtime error: index 2 out of range' "$at_tmp/err") $(grep -c building "$at_tmp/err")"
rm -rf "$at_tmp" "$at_cache"
