# tests/t_chess_full.sh -- chess (games/chess.game): perft against
# Stockfish's `go perft` and the published counts (the start position,
# Kiwipete, the chessprogramming wiki's positions 3-6, positions from
# random games: tests/data/chess/random.txt) and against RBG's perft of
# chess.rbg and chess_kingCapture.rbg (github marekesz/rbgGames, commit
# 3ae4fb75c2cc, rbg2cpp's test/perft.cpp); the fifty-move rule; --fen's six
# fields; SAN; play.  The interpreter here; the compiled tier one depth
# deeper; deeper still with GSOLVE_FULL=1 (make test-full).

cf_game=games/chess.game
cf_tmp=$(mktemp -d "${TMPDIR:-/tmp}/gsolve-chessfull.XXXXXX")
# The compiled tier's objects: the cache tests/t_compiled.sh fills too.
cf_cache=$(cd "$BUILD" && pwd)/tests/aot-cache

# cf_perft DESC EXPECTED ARGS...: perft DEPTH, the count alone.
cf_perft() {
  cf_desc=$1
  cf_want=$2
  shift 2
  cf_depth=$(printf '%s\n' "$@" | sed -n '/^--perft$/{n;p;}')
  check "$cf_desc" "$cf_want" "$(field "perft $cf_depth" "$(gs "$cf_game" "$@")")"
}

# cf_depths DESC "COUNTS" ARGS...: perft 1, 2, ... for each count.
cf_depths() {
  cf_d=0
  cf_what=$1
  cf_counts=$2
  shift 2
  for cf_n in $cf_counts; do
    cf_d=$((cf_d + 1))
    cf_perft "$cf_what perft $cf_d" "$cf_n" "$@" --perft $cf_d
  done
}

cf_start="rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
cf_kiwi="r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
cf_pos3="8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"
cf_pos4="r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1"
cf_pos5="rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8"
cf_pos6="r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10"

# --- The start position: Stockfish's and RBG's chess.rbg counts (the
# same), and RBG's chess_kingCapture.rbg with -D kingcapture=true.
cf_depths "start" "20 400 8902 197281" --engine vm
cf_depths "start --fen" "20 400 8902" --fen "$cf_start" --engine vm
cf_depths "kingcapture: start (RBG chess_kingCapture)" "20 400 8902 197742" -D kingcapture=true --engine vm

# --- The chessprogramming wiki's perft positions (its counts, which
# Stockfish 15.1's go perft gives too).
cf_depths "Kiwipete" "48 2039 97862" --fen "$cf_kiwi" --engine vm
cf_depths "position 3" "14 191 2812 43238" --fen "$cf_pos3" --engine vm
cf_depths "position 4" "6 264 9467" --fen "$cf_pos4" --engine vm
cf_depths "position 5" "44 1486 62379" --fen "$cf_pos5" --engine vm
cf_depths "position 6" "46 2079 89890" --fen "$cf_pos6" --engine vm

# --- Positions from random games, against Stockfish's perft 3.
if have_data tests/data/chess; then
  cf_n=0
  grep -v '^#' tests/data/chess/random.txt | while IFS='|' read -r cf_fen cf_count cf_src; do
    cf_got=$(field "perft 3" "$(gs "$cf_game" --fen "$cf_fen" --perft 3 --engine vm)")
    [ "$cf_got" = "$cf_count" ] || echo "$cf_src: $cf_fen: perft 3 is $cf_got, Stockfish's $cf_count"
  done >"$cf_tmp/random"
  check "random games: perft 3 equals Stockfish's on each position" "" "$(cat "$cf_tmp/random")"
  check "random games: 16 positions, 4 with an en-passant capture" "16 4" \
    "$(grep -vc '^#' tests/data/chess/random.txt) $(grep -c 'en passant' tests/data/chess/random.txt)"
fi

# --- The fifty-move rule as RBG's chess.rbg has it: the game ends once
# the halfmove clock reaches 100.  With the clock at 99, only a capture
# or a pawn move (e2e3, e2e4 and Rxa2: Stockfish's divide gives 19 + 19
# + 5 replies) keeps it going; perft 3 is Stockfish's perft 2 after those
# three moves (215 + 215 + 80).
cf_fifty="4k3/8/8/8/8/8/r3P3/R3K3 w Q - 99 60"
cf_out=$(gs $cf_game --fen "$cf_fifty" --perft 2 --engine vm)
check "fifty moves: clock 99, perft 2 (only captures and pawn moves go on)" "43 7" \
  "$(field "perft 2" "$cf_out") $(field games "$cf_out")"
cf_perft "fifty moves: clock 99, perft 3" 510 --fen "$cf_fifty" --perft 3 --engine vm
cf_out=$(gs $cf_game --fen "4k3/8/8/8/8/8/r3P3/R3K3 w Q - 100 60" --depth 1)
check "fifty moves: clock 100 is the end, a draw" "draw 0" "$(field value "$cf_out") $(field plies "$cf_out")"

# --- Ends: mate, stalemate, the king taken with kingcapture.
cf_out=$(gs $cf_game --fen "2rkr3/2p1p3/8/8/8/8/8/R3K3 w Q - 0 1" --position e1c1 --depth 1)
check "O-O-O mates: Black has lost" "loss 0" "$(field value "$cf_out") $(field plies "$cf_out")"
cf_out=$(gs $cf_game --fen "k7/8/1Q6/8/8/8/8/7K b - - 0 1" --depth 1)
check "stalemate: a draw" "draw 0" "$(field value "$cf_out") $(field plies "$cf_out")"
cf_out=$(gs $cf_game -D kingcapture=true --fen "4k3/8/8/8/8/8/8/4RK2 w - - 0 1" --position e1e8 --depth 1)
check "kingcapture: the king taken, Black has lost" "loss 0" "$(field value "$cf_out") $(field plies "$cf_out")"
cf_out=$(gs $cf_game -D kingcapture=true --fen "4k3/8/8/8/8/8/r3P3/R3K3 w Q - 100 60" --depth 1)
check "kingcapture: clock 100 is the end too, a draw" "draw 0" "$(field value "$cf_out") $(field plies "$cf_out")"
# Castling out of, across and into check: not in chess, allowed with
# kingcapture.  The rook on f8 attacks f1: Stockfish's 23 moves have
# O-O-O and not O-O; kingcapture adds O-O and the king's Kf1 and Kf2.
cf_perft "castling across an attacked cell: not allowed" 23 --fen "4kr2/8/8/8/8/8/8/R3K2R w KQ - 0 1" --perft 1
cf_perft "kingcapture: castling across an attacked cell: allowed" 26 -D kingcapture=true \
  --fen "4kr2/8/8/8/8/8/8/R3K2R w KQ - 0 1" --perft 1

# --- --fen: the six fields.  Fields left out read as "- - 0 1" (no
# castling: Stockfish's 24 against 26 with KQkq).
cf_perft "--fen without castling rights (fields left out)" 24 --fen "r3k2r/8/8/8/8/8/8/R3K2R w" --perft 1
cf_perft "--fen with castling rights" 26 --fen "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1" --perft 1
cf_perft "--fen: an en-passant cell (c6: bxc6 and dxc6, Stockfish's 9)" 9 --fen "4k3/8/8/1PpP4/8/8/8/4K3 w - c6 0 3" --perft 1
cf_perft "--fen: no en-passant cell (Stockfish's 7)" 7 --fen "4k3/8/8/1PpP4/8/8/8/4K3 w - - 0 3" --perft 1
cf_fen_err() {
  cf_err=$(gs $cf_game --fen "$1" 2>&1 >/dev/null)
  cf_st=$?
  check "--fen \"$1\": exit 2" 2 $cf_st
  check "--fen \"$1\": message" "gsolve: error: --fen \"$1\": $2" "$cf_err"
}
cf_fen_err "4k3/8/8/8/8/8/8/4K3 w KX - 0 1" "'X' in the castling rights is not one of KQkq (or -)"
cf_fen_err "4k3/8/8/8/8/8/8/4K3 w KK - 0 1" "the castling right 'K' is given twice"
cf_fen_err "4k3/8/8/8/8/8/8/4K3 w - e9 0 1" "the en-passant field must be - or a cell of the board"
cf_fen_err "4k3/8/8/8/8/8/8/4K3 w - - 101 1" "the halfmove clock 101 is out of range 0..100"
cf_fen_err "4k3/8/8/8/8/8/8/4K3 w - - 99999999999999999999999 1" \
  "the halfmove clock 99999999999999999999999 is out of range 0..100"
cf_fen_err "4k3/8/8/8/8/8/8/4K3 w - - 0 x" "the fullmove number must be a number"
cf_fen_err "4k3/8/8/8/8/8/8/4K3 w - - 0 0" "the fullmove number 0 is out of range 1..1000000"
cf_fen_err "4k3/8/8/8/8/8/8/4K3 w - - 0 1 more" "unexpected 'more' after the fullmove number"

# --- SAN in --pv: castling, en passant, promotion, disambiguation,
# check and mate.
check "SAN: O-O-O, mate" "san: 1. O-O-O#" \
  "$(gs $cf_game --fen "2rkr3/2p1p3/8/8/8/8/8/R3K3 w Q - 0 1" --pv --depth 1 | grep '^san:')"
check "SAN: en passant (the only move out of check)" "san: 1... exd3" \
  "$(gs $cf_game --fen "8/1B6/R7/4k3/4p3/1N6/3P4/5R1K w - - 0 1" --position d2d4 --pv --depth 1 | grep '^san:')"
check "SAN: a promotion that mates" "san: 1. c8=Q#" \
  "$(gs $cf_game --fen "k7/2P5/1K6/8/8/8/8/8 w - - 0 1" --pv --depth 1 | grep '^san:')"
# (With --depth 1 the material eval picks the move: the best capture.)
check "SAN: a capture that promotes, with check" "san: 1. bxa8=Q+" \
  "$(gs $cf_game --fen "r3k3/1P6/8/8/8/8/8/4K3 w - - 0 1" --pv --depth 1 | grep '^san:')"
check "SAN: two knights take on d2, the file tells them apart" "san: 1. Nbxd2" \
  "$(gs $cf_game --fen "7k/8/8/8/8/8/3p4/1N3N1K w - - 0 1" --pv --depth 1 | grep '^san:')"
check "SAN: two knights on one file, the rank tells them apart" "san: 1. N1xd2" \
  "$(gs $cf_game --fen "7k/8/8/8/8/1N6/3p4/1N5K w - - 0 1" --pv --depth 1 | grep '^san:')"

# --- play: the board in letters, the moves in SAN, a game to its end.
cf_out=$(gs play $cf_game --self-play --level 1 --seed 5 2>&1)
check "play: the start position drawn with the pieces' letters" "  1  R N B Q K B N R" \
  "$(printf '%s\n' "$cf_out" | grep -m1 '^  1 ')"
check "play: moves said in SAN with the typed form (a capture)" yes \
  "$(printf '%s\n' "$cf_out" | grep -q -E '^(White|Black) plays [KQRBN]?[a-h]?x[a-h][1-8] \([a-h][1-8][a-h][1-8], ' && echo yes)"
check "play: the game ends (mate, stalemate or the fifty-move rule)" yes \
  "$(printf '%s\n' "$cf_out" | tail -n 1 | grep -q -E '^game over: (White wins|Black wins|a draw) \([0-9]+ moves\)$' && echo yes)"

# In a terminal (tmux): the pieces in their player's colour by the case
# of their letters (White's bishops were once drawn in Black's colour,
# B being Black's initial).
if command -v tmux >/dev/null 2>&1; then
  tmux_sock="$cf_tmp/tmux.sock" tmux_session=chess   # tm, screen, wait_for: tests/lib.sh
  tm new-session -d -s chess -x 80 -y 40 "LANG=C.UTF-8 $GSOLVE play $cf_game --seed 1" \; \
    set-option -t chess remain-on-exit on
  wait_for "White to move>" 1
  cf_esc=$(printf '\033')
  check "play in tmux: White's bishop in White's colour (red), Black's in Black's (blue)" "yes yes" \
    "$(screen -e | grep -q "${cf_esc}\[31mB" && echo yes) $(screen -e | grep -q "${cf_esc}\[34mb" && echo yes)"
  tm send-keys -t chess "g1f3" Enter
  wait_for "White plays Nf3 (g1f3)"
  check "play in tmux: the person's move in SAN" "White plays Nf3 (g1f3)" "$(screen | grep -m1 -o 'White plays Nf3 (g1f3)')"
  tm kill-server 2>/dev/null
else
  check "tmux is installed for the terminal test of gsolve play" yes no
fi

# --- The compiled tier, one depth deeper (one object, built once).
cf_c() { GSOLVE_CACHE=$cf_cache gs "$@" --engine compiled; }
check "compiled: start perft 5 (Stockfish, RBG)" 4865609 "$(field "perft 5" "$(cf_c $cf_game --perft 5)")"
check "compiled: Kiwipete perft 4" 4085603 "$(field "perft 4" "$(cf_c $cf_game --fen "$cf_kiwi" --perft 4)")"
check "compiled: position 4 perft 4" 422333 "$(field "perft 4" "$(cf_c $cf_game --fen "$cf_pos4" --perft 4)")"
check "compiled: position 5 perft 4" 2103487 "$(field "perft 4" "$(cf_c $cf_game --fen "$cf_pos5" --perft 4)")"
check "compiled: position 6 perft 4" 3894594 "$(field "perft 4" "$(cf_c $cf_game --fen "$cf_pos6" --perft 4)")"

if [ -n "$GSOLVE_FULL" ]; then
  # RBG's chess.rbg to depth 6 (RBG: 21 s), chess_kingCapture.rbg to 6
  # (9 s); the interpreter at 5; the wiki's counts a depth deeper.
  check "full: start perft 6 (Stockfish, RBG)" 119060324 "$(field "perft 6" "$(cf_c $cf_game --perft 6)")"
  check "full: kingcapture perft 5 (RBG)" 4897256 "$(field "perft 5" "$(cf_c $cf_game -D kingcapture=true --perft 5)")"
  check "full: kingcapture perft 6 (RBG)" 120909363 "$(field "perft 6" "$(cf_c $cf_game -D kingcapture=true --perft 6)")"
  cf_perft "full: start perft 5, interpreter" 4865609 --perft 5 --engine vm
  cf_perft "full: kingcapture perft 5, interpreter" 4897256 -D kingcapture=true --perft 5 --engine vm
  cf_perft "full: Kiwipete perft 4, interpreter" 4085603 --fen "$cf_kiwi" --perft 4 --engine vm
  check "full: Kiwipete perft 5" 193690690 "$(field "perft 5" "$(cf_c $cf_game --fen "$cf_kiwi" --perft 5)")"
  check "full: position 3 perft 6" 11030083 "$(field "perft 6" "$(cf_c $cf_game --fen "$cf_pos3" --perft 6)")"
  check "full: position 4 perft 5" 15833292 "$(field "perft 5" "$(cf_c $cf_game --fen "$cf_pos4" --perft 5)")"
  check "full: position 5 perft 5" 89941194 "$(field "perft 5" "$(cf_c $cf_game --fen "$cf_pos5" --perft 5)")"
  check "full: position 6 perft 5" 164075551 "$(field "perft 5" "$(cf_c $cf_game --fen "$cf_pos6" --perft 5)")"
fi

rm -rf "$cf_tmp"
