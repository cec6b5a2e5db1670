# tests/t_lang.sh -- the language features of issue 24: ending the game
# from a move (`win`/`lose`/`draw`/`score` in an effect), `roller` (for
# whom chance rolls), the built-in pass (`nomoves pass`), rays and at()
# in constants.  Each feature is cross-checked against another way of
# writing the same game or against another solver.  Their misuses are in
# tests/errors/ (t_errors.sh).  Sourced by tests/run.sh.

lang_fields() {   # lang_fields OUTPUT NAME...: the values, space-separated
  lang_out=$1; shift
  for lang_n in "$@"; do printf '%s ' "$(field "$lang_n" "$lang_out")"; done
}

# --- 1. Ending the game from a move -----------------------------------
# Tic-tac-toe whose moves win or draw, against tictactoe.game (end block):
# every solver gives the same value and length, perft and count the same
# numbers.
ttt_ref=games/tictactoe.game
ttt=tests/files/lang_ttt_move.game
for lang_s in alphabeta minimax retro expectimax; do
  check "ttt ended by the move, $lang_s: value and plies as tictactoe.game" \
    "$(lang_fields "$(gs $ttt_ref --solver $lang_s)" value score plies)" \
    "$(lang_fields "$(gs $ttt --solver $lang_s)" value score plies)"
done
check "ttt ended by the move: perft 9 as tictactoe.game" \
  "$(lang_fields "$(gs $ttt_ref --perft 9)" 'perft 9' games nodes)" \
  "$(lang_fields "$(gs $ttt --perft 9)" 'perft 9' games nodes)"
check "ttt ended by the move: count as tictactoe.game" \
  "$(lang_fields "$(gs $ttt_ref --count)" positions terminal)" \
  "$(lang_fields "$(gs $ttt --count)" positions terminal)"
check "ttt ended by the move: a won line ends the game (no move after b1 a2 a1 b2 c1)" \
  "0" "$(field 'perft 1' "$(gs $ttt --position "b1 a2 a1 b2 c1" --perft 1)")"
check "ttt ended by the move: the winner is X" "loss -1 " \
  "$(lang_fields "$(gs $ttt --position "b1 a2 a1 b2 c1")" value score)"
lang_play=$(gs play $ttt --self-play --level perfect 2>&1 | tail -n 1)
check "ttt ended by the move: play ends the game in a draw" "game over: a draw (9 moves)" \
  "$(printf '%s\n' "$lang_play" | sed 's/ ([0-9.]* s)$//')"

# `score` in an effect: the Coins game ended by the last take, against
# the same game with an end block, under three solvers and with --all-moves.
for lang_s in alphabeta minimax retro; do
  check "coins ended by the move, $lang_s: as with the end block" \
    "$(lang_fields "$(gs tests/files/lang_coins_end.game --solver $lang_s)" value score plies best)" \
    "$(lang_fields "$(gs tests/files/lang_coins_move.game --solver $lang_s)" value score plies best)"
done
check "coins ended by the move: payoffs 16 and 15 (expectimax)" "First 16, Second 15" \
  "$(field payoffs "$(gs tests/files/lang_coins_move.game --solver expectimax)")"
check "coins ended by the move: coins 1,2, every move's value" \
  "$(gs tests/files/lang_coins_end.game -D coins=1,2 --all-moves | tail -n 3)" \
  "$(gs tests/files/lang_coins_move.game -D coins=1,2 --all-moves | tail -n 3)"
check "coins ended by the move: the outcome slots are counted in the state" "yes" \
  "$(gs tests/files/lang_coins_move.game --dump-bytecode --json | grep -q '"slots":7,' && echo yes)"

# --- 2. roller: for whom chance rolls --------------------------------
check "roller: C's roll (next chance, C) and B's (next chance): B wins" "A 0, B 1, C 0" \
  "$(field payoffs "$(gs tests/files/lang_roller.game --solver expectimax)")"
check "roller: after the first roll B moves (the chance move's own next)" "B" \
  "$(field 'to move' "$(gs tests/files/lang_roller.game --position "go rolls 1")")"
# Pig written with roller and a win in the chance move: the value of
# games/pig.game (Neller and Presser: 0.7094243 for goal 10).
lang_pig=$(gs tests/files/lang_pig_roller.game -D goal=10)
check "pig with roller, goal 10: Neller and Presser's 0.7094243" "First 0.7094243226, Second 0.2905756774" \
  "$(field payoffs "$lang_pig")"
check "pig with roller, goal 10: as games/pig.game" \
  "$(field score "$(gs games/pig.game -D goal=10)")" "$(field score "$lang_pig")"
check "pig with roller, goal 10: solved by value iteration" "value-iteration" "$(field solver "$lang_pig")"
check "pig with roller: the best first move is to roll" "roll" "$(field best "$lang_pig")"

# --- 3. the built-in pass --------------------------------------------
claims=tests/files/lang_claims.game
for lang_s in alphabeta minimax retro expectimax; do
  check "claims (nomoves pass), $lang_s: A wins by 1 in 7 plies" "win 1 7 " \
    "$(lang_fields "$(gs $claims --solver $lang_s)" value score plies)"
done
check "claims (nomoves pass), value-iteration: A's margin is 1" "1" \
  "$(field score "$(gs $claims --solver value-iteration)")"
check "claims: --count finds the 8 positions, the last terminal" "8 1 " \
  "$(lang_fields "$(gs $claims --count)" positions terminal)"
check "claims: the stuck player's only move is pass" "pass" \
  "$(field best "$(gs $claims --position "0 4 1 3 2")")"
check "claims: after two passes the game is over" "0" \
  "$(field 'perft 1' "$(gs $claims --position "0 4 1 3 2 pass pass" --perft 1)")"
check "claims: perft 7 and 8 count the two passes as moves" "1 0" \
  "$(field 'perft 7' "$(gs $claims --perft 7)") $(field 'perft 8' "$(gs $claims --perft 8)")"
check "claims, 4 squares: both pass, 2 each: a draw" "draw 0 " \
  "$(lang_fields "$(gs $claims -D n=4)" value score)"
check "claims: play passes and ends" "game over: A wins; final score A 3, B 2 (7 moves)" \
  "$(gs play $claims --self-play --level perfect 2>&1 | tail -n 1 | sed 's/ ([0-9.]* s)$//')"
check "claims: play prints the passes" "2" \
  "$(gs play $claims --self-play --level perfect 2>&1 | grep -c 'plays pass')"

# --- 4. rays, at() in constants -------------------------------------
check "rays: a queen on a1 sees 6 cells past b2; at(3, 3) is the constant 15" "615" \
  "$(field score "$(gs tests/files/lang_rays.game)")"
check "step(c, d, n) and clockwise(d, k): all seven cases right" "1111111" \
  "$(field score "$(gs tests/files/lang_dirs.game)")"
# Othello's flips are rays: perft against the published counts of 4x4
# Othello is not at hand, so the rays are checked against step() loops:
# the same game written without ray() gives the same perft.
check "othello 4x4: ray() and step() loops give the same perft 8" \
  "$(field 'perft 8' "$(gs docs/examples/othello.game --perft 8)")" \
  "$(field 'perft 8' "$(sed 's/for x in ray(c, d) {/var x = c; while step(x, d) != nowhere { x = step(x, d);/' docs/examples/othello.game >"${TMPDIR:-/tmp}/lang_oth.game"; gs "${TMPDIR:-/tmp}/lang_oth.game" --perft 8)")"
check "claims: a human types pass in play" "1" \
  "$(printf 'pass\nquit\n' | gs play $claims --position "0 4 1 3 2" --first computer --level perfect --seed 1 2>&1 |
     grep -c '^game over: A wins (the computer); final score A 3, B 2 (7 moves)')"

# Bounded loops: an integer argument's first tests `n <= E`, `lo < n`, ...
# narrow its loop (compile.c's bounded_loop); the same rules written
# through id(), which is no bound, generate the same moves.
bd=tests/files/lang_bounds.game
bdp=tests/files/lang_bounds_plain.game
check "bounded loops: FORL loops in the generator" "3" "$(gs $bd --dump-bytecode | grep -c ' FORL ')"
check "bounded loops: perft 7 as the unbounded rules" "$(gs $bdp --perft 7 | grep -E '^(perft|games)')" \
  "$(gs $bd --perft 7 | grep -E '^(perft|games)')"
for pos in "" "3 4" "3 4, skip -2" "3 4, 1 6" "2 5"; do
  bd_want=$(gs $bdp --position "$pos" --solver retro --all-moves | sed -n '/^move /,$p')
  check "bounded loops: moves after '$pos' (the unbounded rules have some)" yes \
    "$([ "$(printf '%s\n' "$bd_want" | wc -l)" -gt 1 ] && echo yes)"
  check "bounded loops: the moves after '$pos' as the unbounded rules" "$bd_want" \
    "$(gs $bd --position "$pos" --solver retro --all-moves | sed -n '/^move /,$p')"
done
# Cell arguments and `x == E` (no loop) narrow too: the target cell
# of a step (`to == step(from, d)`, nowhere off the board), `E == to`,
# `to > E`, and an int argument's `k == E`; the same rules through id().
cb=tests/files/lang_cell_bounds.game
cbp=tests/files/lang_cell_bounds_plain.game
# Only the rule whose first tests on `to` are `>` and `>=` keeps a FORL
# loop; a first `x == E` takes E's value with no loop at all.
check "cell bounds: FORL loops in the generator (none in the plain rules)" "1 0" \
  "$(gs $cb --dump-bytecode | grep -c ' FORL ') $(gs $cbp --dump-bytecode | grep -c ' FORL ')"
for e in vm compiled; do
  check "cell bounds: perft 6 as the unbounded rules ($e)" "$(gs $cbp --perft 6 | grep -E '^(perft|games)')" \
    "$(gs $cb --perft 6 --engine $e | grep -E '^(perft|games)')"
done
# The legal moves, listed by the error for a move '?' that none is, and
# perft 3, after lines that reach every rule (back: moved > 2; drop: 4).
for pos in "" "a1*b2 a3-a2" "a1-a2 a3-b3 a2-a3 d3-d2" "a1-a2 a3-b3 a2-a3 d3-d2 d1-c1" \
           "a1-a2 a3-b3 a2-a3 d3-d2 a3<a1"; do
  cb_want=$(gs $cbp --position "$pos ?" 2>&1)
  check "cell bounds: the moves after '$pos' as the unbounded rules" "$cb_want" "$(gs $cb --position "$pos ?" 2>&1)"
  cb_want=$(gs $cbp --position "$pos" --perft 3 | grep -E '^(perft|games)')
  check "cell bounds: perft 3 after '$pos' as the unbounded rules" "$cb_want" \
    "$(gs $cb --position "$pos" --perft 3 | grep -E '^(perft|games)')"
done
# A bound is evaluated only where the test would have been: after an
# empty range, never (no division by zero); first, at once.
bd_tmp=$(mktemp -d)
cat >"$bd_tmp/bounds_err.game" <<'GAME'
game "Bound errors";
players A;
state z: 0..1;
state done: bool;
move fine(n: 1..3) when n > 5 && n <= 10 / z { done = true; }
move fails(n: 1..3) when n <= 10 / z && n > 5 { done = true; }
GAME
out=$(gs "$bd_tmp/bounds_err.game" --perft 1 2>&1)
check "bounded loops: the first bound empties the range, the second is not evaluated; the first fails" \
  "$bd_tmp/bounds_err.game:6:31: runtime error: division by zero in the when condition of move 'fails'" \
  "$(printf '%s\n' "$out" | head -n 1)"
rm -rf "$bd_tmp"

# --- `at most N pieces` ------------------------------------------------
# A bound on a [board] array's pieces keys positions by their pieces
# (vm_pack.c's list keys): the same game without the bound gives the same
# values, counts and table, with longer keys; more pieces than the bound
# is a runtime error at the declaration when a position is keyed.
am=tests/files/lang_at_most.game
am_tmp=$(mktemp -d "${TMPDIR:-/tmp}/gsolve-atmost.XXXXXX")
sed 's/, at most men pieces//' $am >"$am_tmp/nobound.game"
check "at most N pieces: the unbounded copy lost its bound" 0 "$(grep -c 'pieces;' "$am_tmp/nobound.game")"
for am_s in retro alphabeta; do
  check "at most N pieces, $am_s: value, score and plies as without the bound" \
    "$(lang_fields "$(gs "$am_tmp/nobound.game" --solver $am_s)" value score plies)" \
    "$(lang_fields "$(gs $am --solver $am_s)" value score plies)"
done
check "at most N pieces: count as without the bound" \
  "$(lang_fields "$(gs "$am_tmp/nobound.game" --count)" positions terminal)" \
  "$(lang_fields "$(gs $am --count)" positions terminal)"
am_a=$(gs $am --solver retro --db "$am_tmp/list.db" --stats 2>&1 | grep -E '^(value|positions|stored|stats: (White|Black|Red|Blue|Black to move|White to move))')
am_b=$(gs "$am_tmp/nobound.game" --solver retro --db "$am_tmp/dense.db" --stats 2>&1 | grep -E '^(value|positions|stored|stats: (White|Black|Red|Blue|Black to move|White to move))')
check "at most N pieces: the table's values and histograms as without the bound" "$am_b" "$am_a"
check "at most N pieces: the table has positions" yes "$(printf '%s\n' "$am_a" | grep -q '^stored: [1-9]' && echo yes)"
check "at most N pieces: the database's keys are shorter (3 stones: 3 x 8 bits, not 64 x 2)" yes \
  "$([ "$(wc -c <"$am_tmp/list.db")" -lt "$(wc -c <"$am_tmp/dense.db")" ] && echo yes)"
check "at most N pieces: a position read back from the database" \
  "$(lang_fields "$(gs $am --position "d4 e5" --solver retro)" value score plies)" \
  "$(lang_fields "$(gs $am --position "d4 e5" --db "$am_tmp/list.db")" value score plies)"
am_out=$(gs $am -D stones=4 -D men=3 --solver retro 2>&1)
check "at most N pieces: a fourth stone over a bound of 3 is a runtime error (exit 4)" 4 \
  "$(gs $am -D stones=4 -D men=3 --solver retro >/dev/null 2>&1; echo $?)"
check "at most N pieces: the error points at the declaration" \
  "tests/files/lang_at_most.game:12:7: runtime error: a position has more than 3 pieces on the board, the number the 'at most N pieces' of its [board] arrays allow" \
  "$(printf '%s\n' "$am_out" | head -n 1)"
rm -rf "$am_tmp"

# --- 5. The generator's patterns and the board walks of issue 38 ---------
# Riders (tests/files/lang_riders.game) uses arguments pinned by `x == E`,
# a slide's length bounded by span(), memos (home(): once per generation;
# far(from): once per man), leap() and inlined functions;
# lang_riders_plain.game is the same game without any of them (a loop over
# every cell for `to`, the empty cells counted along a ray, the knight's
# jump by col() and row(), the calls through other functions).
rd=tests/files/lang_riders.game
rdp=tests/files/lang_riders_plain.game
check "riders: perft 4 as the plain rules" "394621 394621" \
  "$(field 'perft 4' "$(gs $rd --perft 4)") $(field 'perft 4' "$(gs $rdp --perft 4)")" 
check "riders: perft 4, the plain rules' count" "394621" "$(field 'perft 4' "$(gs $rdp --perft 4)")"
rd_want=$(gs $rdp -D size=4 -D turns=4 --all-moves | sed -n '/^value/p;/^move /,$p')
check "riders 4x4: every first move's value as the plain rules" "$rd_want" \
  "$(gs $rd -D size=4 -D turns=4 --all-moves | sed -n '/^value/p;/^move /,$p')"
# (`to` is local 3 of slide and local 2 of jump; 24 is the last cell.)
check "riders: the generator loops over no board for to (pinned), the plain rules do" "0 2" \
  "$(gs $rd --dump-bytecode | awk '/^generator/,/^move /' | grep -c -E 'FORK +[23] 24 ') $(gs $rdp --dump-bytecode | awk '/^generator/,/^move /' | grep -c -E 'FORK +[23] 24 ')"
check "riders: other() is inlined (no call of it left in the generator)" "0" \
  "$(gs $rd --dump-bytecode | awk '/^generator/,/^move /' | grep -c -- '-- other()')"
check "riders: home() and far() are called under memos (a flag tested first)" "yes" \
  "$(gs $rd --dump-bytecode | awk '/^generator/,/^move /' | grep -B2 -- '-- far()' | grep -q 'JMPT' && echo yes)"

# FEN's later fields in the FEN reports write (--stats' example position):
# after White's first tick, Black to move wins in 3 (White started four
# ticks that end on White): no right left, no cell, the clock at 1 and the
# fullmove number, which the game does not keep, 1.
check "FEN written with its six fields (castling, en passant, clocks)" \
  "stats: longest win, Black to move: 3 plies, e.g. 1k/K1 b - - 1 1" \
  "$(gs tests/files/lang_fen_fields.game --solver retro --stats 2>&1 | grep '^stats: longest win')"
check "FEN's halfmove field read into the state: at 3, one tick is left" "1 0" \
  "$(field 'perft 1' "$(gs tests/files/lang_fen_fields.game --fen '1k/K1 w - - 3 1' --perft 1)") $(field 'perft 2' "$(gs tests/files/lang_fen_fields.game --fen '1k/K1 w - - 3 1' --perft 2)")"
