# tests/t_symcheck.sh -- the declared symmetries tested where solvers use
# them (issue 39; src/game/symcheck.c): --check-symmetry N on random lines
# of every bundled game that declares a board symmetry, a wrong
# declaration caught (a quarter turn in Domineering swaps the players'
# directions), and a position from outside refused when the symmetries do
# not hold on it, instead of solved with them.  Sourced by tests/run.sh.
sc_tmp=$(mktemp -d)

# Every bundled game with board symmetries: they hold on 150 positions.
for sc_g in tictactoe amazons breakthrough chess-endgame gomoku knightthrough morris pentago \
            reversi yavalath; do
  check "$sc_g: its declared symmetries hold on 150 positions of random lines" \
    "symmetry: holds on 150 positions" \
    "$(gs games/$sc_g.game --check-symmetry 150 2>&1 | grep -o '^symmetry: holds on 150 positions')"
done
check "connect4 on the VM: the mirror holds" "symmetry: holds on 300 positions" \
  "$(gs games/connect4.game --engine vm --check-symmetry 300 2>&1 | grep -o '^symmetry: holds on 300 positions')"
for sc_g in domineering dots-3x3 othello sim morris3; do
  check "docs/examples/$sc_g: its symmetries hold" "0" \
    "$(gs docs/examples/$sc_g.game --check-symmetry 150 >/dev/null 2>&1; echo $?)"
done

# A wrong declaration: Domineering with a quarter turn (Vertical's moves
# become Horizontal's).  The walk stops at the first position where it
# fails, names the element and the line, and exits 3 (the game is wrong).
sed 's/^symmetry .*//' docs/examples/domineering.game > "$sc_tmp/dom.game"
echo 'symmetry rotate;' >> "$sc_tmp/dom.game"
sc_out=$(gs "$sc_tmp/dom.game" --check-symmetry 200 --seed 7 2>&1; echo "exit $?")
check "domineering with rotate: the check fails" \
  "symmetry: fails after" "$(printf '%s\n' "$sc_out" | head -n 1 | cut -c1-21)"
check "domineering with rotate: it says what differs" "1" \
  "$(printf '%s\n' "$sc_out" | head -n 1 | grep -c 'legal moves, its image under symmetry element 1 has\|its moves lead to positions that are not the images')"
check "domineering with rotate: exit 3 (the game file is wrong)" "exit 3" "$(printf '%s\n' "$sc_out" | tail -n 1)"
# The line it prints replays to the failing position: the same failure there.
sc_line=$(printf '%s\n' "$sc_out" | sed -n 's/^line: //p')
check "domineering with rotate: the printed line leads to a position the solve refuses" "2" \
  "$(gs "$sc_tmp/dom.game" --position "$sc_line" >/dev/null 2>&1; echo $?)"
check "a position handed with --position: refused with the reason, not solved" \
  "gsolve: error: --position: the game's symmetries do not hold on this position: it has 8 legal moves, its image under symmetry element 1 has 10 (its values would be wrong; --no-symmetry solves it without them)" \
  "$(gs "$sc_tmp/dom.game" --position b3 2>&1)"
# Modes that use no symmetry do not pay for the test: perft counts there.
check "--perft at that position: counted, not refused (perft uses no symmetry)" "0" \
  "$(gs "$sc_tmp/dom.game" --position b3 --perft 1 >/dev/null 2>&1; echo $?)"
# Without the symmetries the same position is solved, as alphabeta on the
# unchanged game (which declares mirror and flip, both valid) says.
check "--no-symmetry: the position is solved, the value of the valid game" \
  "$(field value "$(gs docs/examples/domineering.game --position b3 --no-symmetry)")" \
  "$(field value "$(gs "$sc_tmp/dom.game" --position b3 --no-symmetry)")"

# Refusals: nothing to test.
check "a native engine: says to use the VM" \
  "gsolve: error: --check-symmetry: the native-connect4 engine does not offer its symmetries (--engine vm tests the ones the game declares)" \
  "$(gs games/connect4.game --check-symmetry 5 2>&1)"
check "a repetition rule: refused with the reason" "2" \
  "$(gs games/go.game -D width=3 -D height=3 --check-symmetry 5 >/dev/null 2>&1; echo $?)"
check "--check-symmetry 0: a usage error" "2" "$(gs games/tictactoe.game --check-symmetry 0 >/dev/null 2>&1; echo $?)"
rm -rf "$sc_tmp"
