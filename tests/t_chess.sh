# tests/t_chess.sh -- chess endgames (games/chess-endgame.game): the rules
# against a second formulation of them, --fen, the tables' statistics, a
# database written and read back, and the tables checked against an
# independent forward search (tests/chess_check.py).  Of the 8x8 tables,
# KQK and KRK run here; KPK and KBNK with GSOLVE_FULL=1 (make test-full).

ch_game=games/chess-endgame.game
ch_one=tests/data/chess/one-rule.game
ch_tmp=$(mktemp -d "${TMPDIR:-/tmp}/gsolve-chess.XXXXXX")

# --- The rules: the game's one rule per kind of piece against the one-rule
# formulation (every piece through one generic reach test, attacks by
# walking the rays from the king), by perft from the same positions.
for ch_case in "KQK|4k3/8/8/8/8/8/8/3QK3 w" "KRK|4k3/8/8/8/8/8/8/R3K3 w" \
               "KPK|8/4P3/8/8/2k5/8/8/4K3 w" "KPK|8/8/8/8/k7/8/1P6/4K3 w" \
               "KBNK|8/8/3k4/8/8/8/8/1NB1K3 w" "KBBK|4k3/8/8/8/8/8/8/2B1KB2 b" \
               "KQKR|r3k3/8/8/8/8/8/8/3QK3 w"; do
  ch_mat=${ch_case%%|*}
  ch_fen=${ch_case#*|}
  ch_a=$(field "perft 3" "$(gs $ch_one -D material=$ch_mat --fen "$ch_fen" --perft 3)")
  ch_b=$(field "perft 3" "$(gs $ch_game -D material=$ch_mat --fen "$ch_fen" --perft 3)")
  check "perft 3, $ch_mat from $ch_fen: the two formulations agree (and count)" \
    "$ch_a yes" "$ch_b $([ -n "$ch_b" ] && [ "$ch_b" -gt 0 ] && echo yes)"
done
# Counted by hand: Ka1 Qb2 against Kf5, 22 queen moves and 2 king moves.
check "perft 1: Ka1 Qb2 Kf5" 24 "$(field "perft 1" "$(gs $ch_game --fen "8/8/8/5k2/8/8/1Q6/K7 w - - 0 1" --perft 1)")"
# Promotion: the pawn on e7 goes to e8 as any of four pieces, and the
# king on g1 has 5 squares.
check "perft 1: promotions" 9 "$(field "perft 1" "$(gs $ch_game -D material=KPK --fen "8/4P3/2k5/8/8/8/8/6K1 w" --perft 1)")"
check "promotion moves are written with the piece" "c4c5q c4c5r c4c5b c4c5n" \
  "$(gs $ch_game -D size=5 -D material=KPK --fen "5/2P2/k4/5/4K w" --all-moves | awk '$1 ~ /^c4c5/ {print $1}' | tr '\n' ' ' | sed 's/ $//')"

# --- End positions: mate, stalemate, the last piece that can mate lost.
# (Solving a position builds its table: these use 5x5 boards, or look at
# the position after the move.)
ch_out=$(gs $ch_game -D size=5 --fen "k4/5/1K3/5/3Q1 w")
check "mate in 1: value" win "$(field value "$ch_out")"
check "mate in 1: plies" 1 "$(field plies "$ch_out")"
check "mate in 1: the move" d1d5 "$(field best "$ch_out")"
ch_out=$(gs $ch_game --fen "k7/8/1Q6/8/8/8/8/7K b")
check "stalemate: a draw at once" "draw 0" "$(field value "$ch_out") $(field plies "$ch_out")"
ch_out=$(gs $ch_game --fen "8/8/8/8/8/8/1kQ5/7K b" --position b2c2)
check "the king takes the queen: a draw at once" "draw 0" "$(field value "$ch_out") $(field plies "$ch_out")"
ch_out=$(gs $ch_game -D material=KBNK --fen "B7/8/8/8/8/8/1kN5/7K b" --position b2c2)
check "KBNK: taking the knight leaves KBK, a draw at once" "draw 0" \
  "$(field value "$ch_out") $(field plies "$ch_out")"

# --- --pv in standard algebraic notation (derived from the board before
# and after each move, with the piece letters of the pieces declaration).
check "--pv: the mating line in SAN" "san: 1. Ke4 Kc2 2. Ke3 Kb1 3. Kd2 Ka1 4. Kc3 Kb1 5. Qd2 Ka1 6. Qb2#" \
  "$(gs $ch_game -D size=5 --fen "3QK/5/2k2/5/5 w" --pv | grep '^san:')"
check "--pv: a promotion in SAN, with check (+)" "san: 1. c5=Q+ Kb3 2. Kd1 Ka4 3. Kc1 Kb3 4. Qd4 Ka3 5. Kc2 Ka2 6. Qb2#" \
  "$(gs $ch_game -D size=5 -D material=KPK --fen "5/2P2/k4/5/4K w" --pv | grep '^san:')"
check "--pv: Black to move first, and a capture" "san: 1... Kxc2" \
  "$(gs $ch_game -D size=5 --fen "5/5/5/1kQ2/4K b" --pv | grep '^san:')"

# --- The symmetries the game declares: 8 without pawns, the mirror with.
check "KQK: the board's 8 symmetries" "; symmetry group: 8 board element(s), 0 permutable array(s)" \
  "$(gs $ch_game --dump-bytecode | grep '^; symmetry')"
check "KPK: the left-right mirror only" "; symmetry group: 2 board element(s), 0 permutable array(s)" \
  "$(gs $ch_game -D material=KPK --dump-bytecode | grep '^; symmetry')"

# --- -D material: a name from the declared list.
check "-D material=KXK: the names allowed" \
  "gsolve: error: -D material=KXK: expected one of KQK, KRK, KPK, KBNK, KBBK, KQKR" \
  "$(gs $ch_game -D material=KXK 2>&1)"

# --- --fen: what is wrong, as a usage error (exit 2).
ch_fen_err() {
  ch_err=$(gs $ch_game --fen "$1" 2>&1 >/dev/null)
  ch_st=$?
  check "--fen \"$1\": exit 2" 2 $ch_st
  check "--fen \"$1\": message" "gsolve: error: --fen \"$1\": $2" "$ch_err"
}
ch_fen_err "8/8/8/5k2/8/8/1Q6/K6 w" "rank 1 does not have 8 cells"
ch_fen_err "8/8/8/5k2/8/8/1Q6/K8 w" "rank 1 has more than 8 cells"
ch_fen_err "8/8/8/5x2/8/8/1Q6/K7 w" "'x' in rank 5 is not a piece (the pieces are KQRBNPkqrbnp)"
ch_fen_err "8/8/5k2/8/8/1Q6/K7 w" "7 ranks where the board has 8"
ch_fen_err "8/8/8/8/5k2/8/8/1Q6/K7 w" "more than 8 ranks"
ch_fen_err "8/8/8/5k2/8/8/1Q6/K7 x" "the player to move must be w or b"
# The side not to move in check (its king could be taken): the game's
# valid block refuses it, a usage error (it was exit 4, a runtime error;
# then the rules' runtime error and "its rules fail on it").
ch_err=$(gs $ch_game --fen "k7/8/8/8/8/8/8/Q6K w" 2>&1 >/dev/null); ch_st=$?
check "--fen with the side not to move in check: exit 2" 2 $ch_st
check "--fen with the side not to move in check: the message" \
  "gsolve: error: --fen \"k7/8/8/8/8/8/8/Q6K w\": not a position of this game: the side not to move is in check" \
  "$ch_err"
check "--fen on a game without pieces: exit 2 and why" \
  "gsolve: error: --fen needs a game that declares its pieces (pieces NAME \"LETTERS\";)" \
  "$(gs games/tictactoe.game --fen "3/3/3 w" 2>&1)"
ch_out=$(gs $ch_game --fen "k7/8/1K6/8/8/8/8/6Q1 w" --perft 1 --json)
check "--fen in the JSON report" '"fen":"k7/8/1K6/8/8/8/8/6Q1 w"' \
  "$(printf '%s' "$ch_out" | grep -o '"fen":"[^"]*"')"
check "--fen in the text report" "k7/8/1K6/8/8/8/8/6Q1 w" \
  "$(field position "$(gs $ch_game --fen "k7/8/1K6/8/8/8/8/6Q1 w" --perft 1)")"

# --- Small tables (5x5 boards): statistics, a database, a second method.
ch5="$ch_game -D size=5"
gs $ch5 --solver retro --stats --db "$ch_tmp/kqk5.db" >"$ch_tmp/out" 2>"$ch_tmp/err"
check "KQK 5x5: positions before symmetry" 15920 "$(field positions "$(cat "$ch_tmp/out")")"
check "KQK 5x5: the counts add up to the positions" 15920 \
  "$(sed -n 's/^stats: .* to move: \([0-9]*\) won, \([0-9]*\) lost, \([0-9]*\) drawn.*/\1 \2 \3/p' "$ch_tmp/err" | awk '{s += $1 + $2 + $3} END {print s}')"
ch_long=$(sed -n 's/^stats: longest win, White to move: \([0-9]*\) plies, e.g. \(.*\)/\1|\2/p' "$ch_tmp/err")
check "KQK 5x5: the longest win, White to move" 11 "${ch_long%%|*}"
ch_out=$(gs $ch5 --db "$ch_tmp/kqk5.db" --fen "${ch_long#*|}")
check "KQK 5x5: the example of the longest win is one, read from the database" "win 11" \
  "$(field value "$ch_out") $(field plies "$ch_out")"
gs $ch5 --db "$ch_tmp/kqk5.db" --stats >/dev/null 2>"$ch_tmp/err2"
check "KQK 5x5: the same statistics from the database" \
  "$(grep 'to move' "$ch_tmp/err")" "$(grep 'to move' "$ch_tmp/err2")"
ch_json=$(gs $ch5 --db "$ch_tmp/kqk5.db" --stats --json 2>/dev/null)
check "KQK 5x5: the JSON table" '"counted":"positions","by_mover":[{"to_move":"White","win":4976,"loss":0,"draw":456,"win_plies":[0,464,0,804,0,1372,0,2000,0,328,0,8,0],"loss_plies":[0,0,0,0,0,0,0,0,0,0,0,0,0],"longest_win":11,"example":"3QK/5/2k2/5/5 w"' \
  "$(printf '%s' "$ch_json" | sed 's/.*"table":{\(.*\)},{"to_move":"Black".*/\1/')"
gs $ch5 -D material=KRK --solver retro --db "$ch_tmp/krk5.db" >/dev/null
check "KQK 5x5: the table agrees with a forward search (random positions)" "agree 25" \
  "$(python3 tests/chess_check.py "$GSOLVE" "$ch_tmp/kqk5.db" 5 KQK 25 13 1)"
check "KRK 5x5: the table agrees with a forward search (random positions)" "agree 25" \
  "$(python3 tests/chess_check.py "$GSOLVE" "$ch_tmp/krk5.db" 5 KRK 25 21 2)"

# --- The keys: the game bounds the board's pieces (`at most men pieces`),
# so positions are keyed by their pieces; the same rules without the bound
# key every square.  Both give the same tables.
sed 's/, at most men pieces//' $ch_game >"$ch_tmp/dense.game"
check "the copy keyed by every square has no bound" 0 "$(grep -c 'pieces;' "$ch_tmp/dense.game")"
for ch_case in "KPK 6" "KQKR 5"; do
  set -- $ch_case
  gs $ch_game -D material=$1 -D size=$2 --solver retro --stats >"$ch_tmp/list.out" 2>"$ch_tmp/list.err"
  gs "$ch_tmp/dense.game" -D material=$1 -D size=$2 --solver retro --stats >"$ch_tmp/dense.out" 2>"$ch_tmp/dense.err"
  check "$1 ${2}x$2: the table keyed by pieces has positions" yes \
    "$([ "$(field stored "$(cat "$ch_tmp/list.out")")" -gt 0 ] 2>/dev/null && echo yes)"
  check "$1 ${2}x$2: values and histograms keyed by pieces and by every square" \
    "$(grep -E '^(value|plies|positions|stored)' "$ch_tmp/dense.out"; grep 'to move' "$ch_tmp/dense.err")" \
    "$(grep -E '^(value|plies|positions|stored)' "$ch_tmp/list.out"; grep 'to move' "$ch_tmp/list.err")"
done

# --- KQK and KRK on 8x8 (a few seconds each) and their published figures.
gs $ch_game --solver retro --stats --db "$ch_tmp/kqk.db" >"$ch_tmp/out" 2>"$ch_tmp/err"
check "KQK: longest win, White to move, 19 plies (mate in 10)" 19 \
  "$(sed -n 's/^stats: longest win, White to move: \([0-9]*\) plies.*/\1/p' "$ch_tmp/err")"
# The usual counting: every legal position of the three pieces with Black
# to move, not folded by symmetry (223,944 of them); the draws are the
# stalemates and the positions where Black takes the queen.
check "KQK: 23,048 of the Black-to-move positions are drawn" "200896 lost, 23048 drawn" \
  "$(sed -n 's/^stats: Black to move: 0 won, \([0-9]* lost, [0-9]* drawn\).*/\1/p' "$ch_tmp/err")"
ch_out=$(gs $ch_game --db "$ch_tmp/kqk.db" --fen "8/8/8/5k2/8/8/1Q6/K7 w")
check "KQK: Ka1 Qb2 against Kf5 is mate in 10 (19 plies)" "win 19" \
  "$(field value "$ch_out") $(field plies "$ch_out")"
gs $ch_game -D material=KRK --solver retro --stats >/dev/null 2>"$ch_tmp/err"
check "KRK: longest win, White to move, 31 plies (mate in 16)" 31 \
  "$(sed -n 's/^stats: longest win, White to move: \([0-9]*\) plies.*/\1/p' "$ch_tmp/err")"

# --- The large 8x8 tables (minutes each: make test-full).
if [ -n "$GSOLVE_FULL" ]; then
  # KPK: a pawn keeps its file (Black has nothing to take), so the table of
  # a start position holds one file and its mirror image (and what the
  # promotions reach); the four tables together are the whole of KPK, and
  # its longest win, 55 plies (mate in 28), is on the b- and g-files.
  ch_kpk=""
  for ch_file in "P7" "1P6" "2P5" "3P4"; do
    gs $ch_game -D material=KPK --fen "4k3/8/8/8/8/8/$ch_file/4K3 w" --solver retro --stats \
      >/dev/null 2>"$ch_tmp/err"
    ch_kpk="$ch_kpk $(sed -n 's/^stats: longest win, White to move: \([0-9]*\) plies.*/\1/p' "$ch_tmp/err")"
  done
  check "KPK: longest wins, White to move, pawn on the a/h, b/g, c/f, d/e files" " 35 55 51 49" "$ch_kpk"
  gs $ch_game -D material=KBNK --solver retro --stats >/dev/null 2>"$ch_tmp/err"
  check "KBNK: longest win, White to move, 65 plies (mate in 33)" 65 \
    "$(sed -n 's/^stats: longest win, White to move: \([0-9]*\) plies.*/\1/p' "$ch_tmp/err")"
fi

rm -rf "$ch_tmp"
