# tests/t_opcodes.sh -- the instruction set has one source,
# src/compiler/opcodes.def: docs/language.md's table must be the one
# tests/gen_opcode_table.py prints from it, and the --dump-bytecode
# listing and the compiler's stack accounting follow it.  (make asan runs
# the whole suite with VM_CHECK_STACK, which checks each instruction's
# stack effect as it runs.)  Sourced by tests/run.sh.

if command -v python3 >/dev/null 2>&1; then
  op_out=$(python3 tests/gen_opcode_table.py --check docs/language.md 2>&1)
  op_st=$?
  check "docs/language.md's instruction table is the one opcodes.def gives" 0 "$op_st"
  [ "$op_st" -eq 0 ] || printf '%s\n' "$op_out" | head -n 30
  # Every instruction of the .def is in the table, none twice.
  op_def=$(sed -n 's/^OPCODE(\([A-Z0-9]*\),.*/\1/p' src/compiler/opcodes.def | sort)
  op_doc=$(sed -n 's/^| `\([A-Z0-9]*\)` |.*/\1/p' docs/language.md | sort)
  check "the table lists each instruction of opcodes.def once" "$op_def" "$op_doc"
  check "opcodes.def lists the newer instructions (PAY, ILLEGAL, NEXTCHANCE)" 3 \
    "$(printf '%s\n' "$op_def" | grep -c -x -E 'PAY|ILLEGAL|NEXTCHANCE')"
else
  check "python3 is installed (for tests/gen_opcode_table.py)" yes no
fi

# The listing puts the operands' values into the synopsis and names what
# they refer to.
op_nim=$(gs games/nim.game --dump-bytecode)
check "listing: STOREL 2 reads local[2] := pop" yes \
  "$(printf '%s\n' "$op_nim" | grep -q -E '^ +[0-9]+ +[|0-9]+  STOREL +2 +; local\[2\] := pop$' && echo yes)"
check "listing: SETL 1 1 (CONST; STOREL fused) reads local[1] := 1" yes \
  "$(printf '%s\n' "$op_nim" | grep -q -E '^ +[0-9]+ +[|0-9]+  SETL +1 1 +; local\[1\] := 1$' && echo yes)"
check "listing: a state array access names the array" yes \
  "$(printf '%s\n' "$op_nim" | grep -q -E 'LOADSI +1 4 +; i := pop; push state\[1\+i\]  \(0 <= i < 4\)  -- heap$' && echo yes)"
check "listing: EMIT names the move rule" yes \
  "$(printf '%s\n' "$op_nim" | grep -q -E 'EMIT +0 2 +; add the move: rule 0 with arguments local\[0\.\.2\)  -- move take$' && echo yes)"
check "listing: a body's header gives its operand stack" yes \
  "$(printf '%s\n' "$op_nim" | grep -q -E "^generator 'generate'  \(code 0\.\.[0-9]+, [0-9]+ locals, 0 args, stack [0-9]+\)$" && echo yes)"
check "listing: a call names the function" yes \
  "$(gs games/go.game --dump-bytecode | grep -q -E 'CALL +[0-9]+ [0-9]+ +; call function [0-9]+ with the top [0-9]+ values as arguments  -- [a-z_]+\(\)$' && echo yes)"

# Regression: COUNTS takes one value and leaves one; counted as a pop, the
# end block got a frame of 3 for the 5 values it holds.
op_counts=$(gs tests/data/counts_nested.game --dump-bytecode | sed -n "s/^end 'end'  (code [0-9.]*, 0 locals, 0 args, stack \([0-9]*\))$/\1/p")
check "the end block holding 5 count() values needs a stack of 5 (+2 spare)" 7 "$op_counts"
check "nested count() values run (checked under make asan)" "perft 3: 24" \
  "$(gs tests/data/counts_nested.game --perft 3 | grep '^perft')"

# Every bundled game lists only known instructions.
op_bad=""
for g in games/*.game; do
  gs "$g" --dump-bytecode >/dev/null 2>&1 || op_bad="$op_bad $g:exit"
  gs "$g" --dump-bytecode 2>/dev/null | grep -q '???' && op_bad="$op_bad $g:unknown-opcode"
done
check "every bundled game's listing decodes" "" "$op_bad"

# Superinstructions of the peephole (emit.c): SETL, INCL, TEEL; a fused
# INCL fails with the message and source position of the addition, on
# both tiers.
op_ovf=tests/files/incl_overflow.game
check "INCL: local += k fused" 2 "$(gs $op_ovf --dump-bytecode | grep -c ' INCL ')"
for e in vm compiled; do
  check "INCL overflow ($e): where the addition is" \
    "tests/files/incl_overflow.game:10:5: runtime error: integer overflow in move 'go'" \
    "$(GSOLVE_CACHE="$(cd "$BUILD" && pwd)/tests/aot-cache" gs $op_ovf --perft 1 --engine $e 2>&1 >/dev/null | head -n 1)"
done
check "TEEL: Connect Four's cell kept and stored" 1 "$(gs games/connect4.game --dump-bytecode | grep -c ' TEEL ')"

# Superinstructions LOADSXYL, LOADSXYK (a board cell at (x, local) or
# (x, constant): Connect Four's scan and its generator) and INCS (`s += k`
# on a state variable): listed, and failing with the messages and source
# positions of the instructions they replace, on both tiers.
op_c4=$(gs games/connect4.game --dump-bytecode)
check "LOADSXYLK: the scan's cell at (col - 1, y)" yes \
  "$(printf '%s\n' "$op_c4" | grep -q -E 'LOADSXYLK 1 1 0 -1 +; push state\[1 \+ the cell at \(local\[0\] \+ -1, local\[1\]\)\]  \(checked\)  -- square$' && echo yes)"
# (Connect Four 10x6: ten columns are too many to unroll the generator.)
check "LOADSXYK: the generator's top row" yes \
  "$(gs games/connect4.game -D width=10 --dump-bytecode | grep -q -E 'LOADSXYK 1 60 5 +; x := pop; push state\[1 \+ the cell at \(x, 5\)\]  \(checked\)  -- square$' && echo yes)"
check "INCS: filled += 1" yes \
  "$(printf '%s\n' "$op_c4" | grep -q -E 'INCS +44 1 +; state\[44\] \+= 1  .*-- filled$' && echo yes)"
op_incs=tests/files/incs_range.game
check "INCS: both additions fused" 2 "$(gs $op_incs --dump-bytecode | grep -c ' INCS ')"
for e in vm compiled; do
  op_env="GSOLVE_CACHE=$(cd "$BUILD" && pwd)/tests/aot-cache"
  check "INCS range ($e): the store's message and place" \
    "tests/files/incs_range.game:13:5: runtime error: value 3 out of range 0..2 for 'n' in move 'go'" \
    "$(env "$op_env" $GSOLVE $op_incs --perft 3 --engine $e 2>&1 >/dev/null | head -n 1)"
  check "INCS overflow ($e): where the addition is" \
    "tests/files/incs_range.game:12:7: runtime error: integer overflow in move 'go'" \
    "$(env "$op_env" $GSOLVE $op_incs -D first=2147483647 --perft 1 --engine $e 2>&1 >/dev/null | head -n 1)"
  check "LOADSXYL row ($e): a full column's scan" \
    "tests/files/scan_full.game:12:9: runtime error: row 2 out of range 0..1 in move 'drop'" \
    "$(env "$op_env" $GSOLVE tests/files/scan_full.game --perft 3 --engine $e 2>&1 >/dev/null | head -n 1)"
done
check "INCS: the counts" "perft 2: 1" "$(gs $op_incs --perft 2 | grep '^perft')"

# STORESIS (`a[i] = mover`) and ATL (`at(x, y)`, y a local): listed in
# Connect Four's drop, and their errors as before the fusion, on both tiers.
check "STORESIS: square[c] = mover" yes \
  "$(printf '%s\n' "$op_c4" | grep -q -E 'STORESIS 1 42 0 +; i := pop; state\[1\+i\] := state\[0\]  \(0 <= i < 42\)  -- square$' && echo yes)"
check "ATLK: at(col - 1, y)" yes \
  "$(printf '%s\n' "$op_c4" | grep -q -E 'ATLK +0 -1 1 +; push the cell at \(local\[0\] \+ -1, local\[1\]\)  \(checked\)$' && echo yes)"
check "ATL: at(0, y)" yes \
  "$(gs tests/files/fused_errors.game --dump-bytecode | grep -q -E 'ATL +1 +; x := pop; push the cell at \(x, local\[1\]\)  \(checked\)$' && echo yes)"
op_fe=tests/files/fused_errors.game
for e in vm compiled; do
  op_env="GSOLVE_CACHE=$(cd "$BUILD" && pwd)/tests/aot-cache"
  check "STORESIS index ($e)" "tests/files/fused_errors.game:17:5: runtime error: index 3 out of range 0..2 in move 'put'" \
    "$(env "$op_env" $GSOLVE $op_fe -D which=1 --perft 2 --engine $e 2>&1 >/dev/null | head -n 1)"
  check "ATL row ($e)" "tests/files/fused_errors.game:20:13: runtime error: row 2 out of range 0..1 in move 'put'" \
    "$(env "$op_env" $GSOLVE $op_fe -D which=2 --perft 2 --engine $e 2>&1 >/dev/null | head -n 1)"
  check "ATLK overflow ($e): where the addition is" \
    "tests/files/fused_errors.game:25:34: runtime error: integer overflow in move 'put'" \
    "$(env "$op_env" $GSOLVE $op_fe -D which=3 --perft 2 --engine $e 2>&1 >/dev/null | head -n 1)"
  check "LOADSXYLK overflow ($e): where the addition is" \
    "tests/files/fused_errors.game:26:26: runtime error: integer overflow in move 'put'" \
    "$(env "$op_env" $GSOLVE $op_fe -D which=4 --perft 2 --engine $e 2>&1 >/dev/null | head -n 1)"
  check "LOADSXYLK column ($e)" "tests/files/fused_errors.game:27:23: runtime error: column 2 out of range 0..1 in move 'put'" \
    "$(env "$op_env" $GSOLVE $op_fe -D which=5 --perft 2 --engine $e 2>&1 >/dev/null | head -n 1)"
done
check "ATLK, LOADSXYLK: fused in the error game" 3 \
  "$(gs $op_fe --dump-bytecode | grep -c -E ' (ATLK|LOADSXYLK) ')"

# The interpreter's superinstructions (src/vm/vm_fuse.c): each pair is in
# the error game's code, and each fails where its part did unfused: the
# same message and position as the compiled tier, which runs the pairs
# as two instructions.
op_vf=tests/files/vm_fused_errors.game
op_vf_code=$(gs $op_vf --dump-bytecode | awk '/^move/ { p = 1 } p { print $3 }' | tr '\n' ' ')
for pair in "LOADSXYLK JEQK" "INCL LOOP" "LOADL LINEK" "ATLK TEEL" "STORESIS INCS"; do
  check "vm_fused_errors holds the pair $pair" yes \
    "$(case " $op_vf_code " in *" $pair "*) echo yes ;; esac)"
done
op_vf_want() {
  case $1 in
    1) echo "20:11: runtime error: column 2 out of range 0..1" ;;
    2) echo "22:14: runtime error: integer overflow" ;;
    3) echo "25:21: runtime error: integer overflow" ;;
    4) echo "27:5: runtime error: step budget exhausted (limit is 10000000 steps)" ;;
    5) echo "31:8: runtime error: cell 100 is off the board" ;;
    6) echo "33:16: runtime error: integer overflow" ;;
    7) echo "38:5: runtime error: index 4 out of range 0..3" ;;
    8) echo "39:7: runtime error: value 4 out of range 0..3 for 'n'" ;;
  esac
}
for e in vm compiled; do
  op_env="GSOLVE_CACHE=$(cd "$BUILD" && pwd)/tests/aot-cache"
  for w in 1 2 3 4 5 6 7 8; do
    check "superinstruction error $w ($e)" "$op_vf:$(op_vf_want $w) in move 'put'" \
      "$(env "$op_env" $GSOLVE $op_vf -D which=$w --perft 2 --engine $e 2>&1 >/dev/null | head -n 1)"
  done
done

# Unrolled loops (compile_stmt.c, compile.c): Connect Four's generator is
# a test and an EMITK per column (no loop), its win test a LINEK per
# direction.  tests/files/unroll.game, whose loops unroll, and
# unroll_plain.game, the same rules written so that none does (and whose
# nested list loops once read each other's constants: tests/BUGS.md), give
# the same counts and values on both tiers.
check "EMITK: one per Connect Four column" 7 "$(printf '%s\n' "$op_c4" | grep -c ' EMITK ')"
check "JSNEK: the top cell of each column" 7 \
  "$(printf '%s\n' "$op_c4" | grep -c -E 'JSNEK +[0-9]+ 0 (3[6-9]|4[0-2]) +; if state\[[0-9]+\] != 0: pc := [0-9]+  -- square\[')"
check "LINEK: one per direction" 4 "$(printf '%s\n' "$op_c4" | grep -c ' LINEK ')"
check "generator: no loop left" 0 \
  "$(printf '%s\n' "$op_c4" | sed -n "/^generator/,/^legality/p" | grep -c -E ' FORK | LOOP ')"
check "unroll_plain: nothing unrolled" 0 \
  "$(gs tests/files/unroll_plain.game --dump-bytecode | grep -c -E ' EMITK | LINEK ')"
check "JSEQK: Connect Four's end test" yes \
  "$(printf '%s\n' "$op_c4" | grep -q -E 'JSEQK +[0-9]+ 0 43 +; if state\[43\] == 0: pc := [0-9]+  -- winner$' && echo yes)"
for e in vm compiled; do
  op_env="GSOLVE_CACHE=$(cd "$BUILD" && pwd)/tests/aot-cache"
  for args in "--perft 8" "--count" "--solve" "--position 2,3,3 --solve --score-only"; do
    want=$(env "$op_env" $GSOLVE tests/files/unroll_plain.game $args --engine vm 2>&1 | grep -v -E '^(seconds|engine):')
    check "unroll = plain ($e, $args)" "$want" \
      "$(env "$op_env" $GSOLVE tests/files/unroll.game $args --engine $e 2>&1 | grep -v -E '^(seconds|engine):')"
  done
done
deep=$(gs tests/files/unroll_deep.game --dump-bytecode | sed -n 's/.* state slots, \([0-9]*\) code words.*/\1/p')
check "unrolling capped: four nested loops of 8 stay small" yes "$([ "${deep:-99999}" -lt 4000 ] && echo yes)"
check "unrolling capped: the sum (margin 2t)" "score: $((2 * 2 * 36 * 36 * 64))" \
  "$(gs tests/files/unroll_deep.game --solve | grep '^score')"
for e in vm compiled; do
  op_env="GSOLVE_CACHE=$(cd "$BUILD" && pwd)/tests/aot-cache"
  check "STORESI range ($e): one range for the array" \
    "tests/files/store_range.game:9:31: runtime error: value 2 out of range 0..1 for 'a[0]' in move 'm'" \
    "$(env "$op_env" $GSOLVE tests/files/store_range.game --perft 1 --engine $e 2>&1 >/dev/null | head -n 1)"
  check "STORESI range ($e): in range, no error" "perft 1: 3" \
    "$(env "$op_env" $GSOLVE tests/files/store_range.game -D v=1 --perft 1 --engine $e 2>/dev/null | grep '^perft')"
done
