# tests/t_positions.sh -- a position from outside the rules (--fen, the end
# of --position, the start) is checked before any solver sees it (issue
# 39): the form of a FEN with bounded numbers, the declared ranges, `at
# most N pieces` and the game's `valid` block (docs/language.md 4.14b);
# a refusal names the reason and exits 2.  Sourced by tests/run.sh.

pos_tmp=$(mktemp -d "${TMPDIR:-/tmp}/gsolve-positions.XXXXXX")
pos_chess=games/chess-endgame.game

# pos_refused DESC REASON ARGS...: gsolve ARGS exits 2 with nothing on
# stdout, and its last line of stderr ends with REASON.
pos_refused() {
  pos_desc=$1 pos_reason=$2
  shift 2
  $GSOLVE "$@" >"$pos_tmp/out" 2>"$pos_tmp/err"
  pos_st=$?
  check "$pos_desc: exit 2" 2 $pos_st
  check "$pos_desc: nothing on stdout" 0 "$(wc -c <"$pos_tmp/out" | tr -d ' ')"
  check "$pos_desc: the reason" "$pos_reason" "$(tail -n 1 "$pos_tmp/err")"
}

# A run of empty cells whose length overflowed: strtol's value, added to
# the column, wrote past the state (SIGSEGV).  Numbers are now read digit
# by digit while they still fit the rank.
pos_refused "--fen with a run of 20 nines" \
  'gsolve: error: --fen "8/8/8/5k2/8/8/1Q6/K99999999999999999999 w": rank 1 has more than 8 cells' \
  $pos_chess --fen "8/8/8/5k2/8/8/1Q6/K99999999999999999999 w"
pos_refused "--fen with a run of 2^32 + 1" \
  'gsolve: error: --fen "4294967297/8/8/5k2/8/8/1Q6/K7 w": rank 8 has more than 8 cells' \
  $pos_chess --fen "4294967297/8/8/5k2/8/8/1Q6/K7 w"
pos_refused "--fen with a run of 16 on an 8-cell rank" \
  'gsolve: error: --fen "16/8/8/5k2/8/8/1Q6/K7 w": rank 8 has more than 8 cells' \
  $pos_chess --fen "16/8/8/5k2/8/8/1Q6/K7 w"
pos_refused "--fen with a control byte" \
  "gsolve: error: --fen \"8/8/8/5k2/8/8/1Q6/K$(printf '\001')6 w\": byte 0x01 in rank 1 is not a piece (the pieces are KQRBNPkqrbnp)" \
  $pos_chess --fen "8/8/8/5k2/8/8/1Q6/K$(printf '\001')6 w"
# A run of two digits still reads where the rank is wide enough.
check "--fen: a run of 10 on a 10-cell rank" "perft 1: 3" \
  "$($GSOLVE tests/files/fen_wide.game --fen "10/10/10/10/10/k9/10/K9 w" --perft 1 | grep '^perft')"

# Positions of no chess game: what games/chess-endgame.game's valid block
# says of them (they were accepted, and answered wrongly or with a
# runtime error: exit 4 "cell -1 is off the board in function 'attacked'").
pos_reason() { printf 'gsolve: error: --fen "%s": not a position of this game: %s' "$1" "$2"; }
pos_fen() {   # DESC FEN REASON [ARGS]
  pos_d=$1 pos_f=$2 pos_r=$3
  shift 3
  pos_refused "$pos_d" "$(pos_reason "$pos_f" "$pos_r")" $pos_chess --fen "$pos_f" "$@"
}
pos_fen "KQK with a pawn (was a draw by flip and rotate, which need no pawns)" \
  "8/8/8/8/8/k7/6P1/7K w" "a man the material does not have (see -D material=...)"
pos_fen "KQK with a rook (was a runtime error in 'attacked')" \
  "8/8/8/8/8/k7/6R1/7K w" "a man the material does not have (see -D material=...)"
pos_fen "KQK with a bishop" "8/8/8/8/8/k7/6B1/7K w" "a man the material does not have (see -D material=...)"
pos_fen "KQK with a knight" "8/8/8/8/8/k7/6N1/7K w" "a man the material does not have (see -D material=...)"
pos_fen "KQK with a black queen" "8/8/8/8/8/k7/6q1/7K w" "a man the material does not have (see -D material=...)"
pos_fen "KRK with a queen" "8/8/8/8/8/k7/6Q1/7K w" "a man the material does not have (see -D material=...)" -D material=KRK
pos_fen "KBNK with two knights" "8/8/8/8/8/k7/5NN1/7K w" "a man the material does not have (see -D material=...)" -D material=KBNK
pos_fen "KQKR with two black rooks" "8/8/8/8/8/k7/5rr1/7K w" "a man the material does not have (see -D material=...)" -D material=KQKR
pos_fen "no king" "8/8/8/8/8/8/8/8 w" "each side needs exactly one king"
pos_fen "one king" "8/8/8/8/8/8/8/7K w" "each side needs exactly one king"
pos_fen "three kings" "K7/8/8/8/8/8/8/5k1K w" "each side needs exactly one king"
pos_fen "sixteen kings" "KKKKKKKK/8/8/8/8/8/8/kkkkkkkk w" "16 pieces in 'sq', more than its 'at most 3 pieces' allows"
pos_fen "kings side by side" "8/8/8/8/8/8/8/6kK w" "the kings stand side by side"
pos_fen "kings side by side, diagonally" "8/8/8/8/8/8/6k1/7K b" "the kings stand side by side"
pos_fen "a pawn on the last rank" "1P6/8/8/8/8/k7/8/7K w" "a pawn on the first or last rank" -D material=KPK
pos_fen "a pawn on the first rank" "8/8/8/8/8/k7/8/1P5K w" "a pawn on the first or last rank" -D material=KPK
pos_fen "the side not to move in check" "8/8/8/8/8/k7/1Q6/K7 w" "the side not to move is in check"
pos_fen "the side not to move in check by a knight" "8/8/8/8/8/k7/2N5/KB6 w" "the side not to move is in check" -D material=KBNK
# More pieces than `at most 3 pieces`: the declaration's message, in
# every mode (--count said "a line of play without repetitions is longer
# than 100000 plies", others "cell -1 is off the board").
pos_fen "KQQK under at most 3 pieces" "8/8/8/8/k7/8/8/KQQ5 w" "4 pieces in 'sq', more than its 'at most 3 pieces' allows"
pos_fen "KQQK under at most 3 pieces, --count" "8/8/8/8/k7/8/8/KQQ5 w" "4 pieces in 'sq', more than its 'at most 3 pieces' allows" --count
pos_fen "KQQK under at most 3 pieces, --perft" "8/8/8/8/k7/8/8/KQQ5 w" "4 pieces in 'sq', more than its 'at most 3 pieces' allows" --perft 2
pos_fen "KQQK under at most 3 pieces, retro" "8/8/8/8/k7/8/8/KQQ5 w" "4 pieces in 'sq', more than its 'at most 3 pieces' allows" --solver retro
# The compiled tier runs the same valid block.
if command -v cc >/dev/null 2>&1; then
  GSOLVE_CACHE="$pos_tmp/cache" pos_fen "KQK with a pawn, --engine compiled" "8/8/8/8/8/k7/6P1/7K w" \
    "a man the material does not have (see -D material=...)" --engine compiled
fi
# Positions of the game are still read and solved: a legal KQK position
# (Qd5 mates at once: the king's a4 and b4 are White's king's) and one
# with a promoted queen.
pos_out=$($GSOLVE $pos_chess -D size=5 --fen "k4/5/1K3/5/3Q1 w" --solver retro 2>&1)
check "a legal 5x5 KQK position: solved" "win 1" "$(field value "$pos_out") $(field plies "$pos_out")"
check "KPK with a promoted queen: accepted" "perft 1: 24" \
  "$($GSOLVE $pos_chess -D material=KPK --fen "8/8/8/5k2/8/8/1Q6/K7 w" --perft 1 | grep '^perft')"

# --position: the position the moves reach is checked the same way (a
# stone past `at most 3 pieces`: its runtime error came only from a
# table's keys, and --count never reported it).
pos_refused "--position past at most 3 pieces" \
  "gsolve: error: --position \"a1 b1 c1 d1\": not a position of this game: 4 pieces in 'sq', more than its 'at most 3 pieces' allows" \
  tests/files/lang_at_most.game -D stones=4 -D men=3 --position "a1 b1 c1 d1" --count
check "--position within at most 3 pieces: counted" "positions: 1" \
  "$($GSOLVE tests/files/lang_at_most.game --position "a1 b1 c1" --count | grep '^positions')"

# The valid block of docs/language.md 4.14b, and what it may not do.
cat >"$pos_tmp/v.game" <<'GAME'
game "Valid";
players A, B;
param bad: 0..3 = 0;
board rect(3, 1);
state sq[board]: 0..2, at most 2 pieces;
state n: 0..9;
pieces sq "XO";
function first(v: int): cell { return find(sq, v, 0); }
valid {
  if bad == 1 && sq[0] == 0 { invalid "the first cell is empty"; }
  if bad == 2 && col(first(2)) >= 0 { invalid "unreachable"; }
  if bad == 3 { n = 1; }
  if count(sq, 2) > count(sq, 1) { invalid "more O than X"; }
}
move put(c: cell) as "{c}" when sq[c] == 0 && n < 9 { sq[c] = mover == A ? 1 : 2; n += 1; }
GAME
pos_refused "a valid block refusing the start" \
  "gsolve: error: the start position: not a position of this game: the first cell is empty" \
  "$pos_tmp/v.game" -D bad=1
pos_refused "a runtime error in the valid block" \
  'gsolve: error: --fen "X2 b": not a position of this game (its valid block fails on it: above)' \
  "$pos_tmp/v.game" -D bad=2 --fen "X2 b"
check "a runtime error in the valid block: its message first" \
  "$pos_tmp/v.game:11:18: runtime error: cell -1 is off the board in the valid block" \
  "$(head -n 1 "$pos_tmp/err")"
pos_refused "the valid block writing the state" \
  'gsolve: error: the start position: not a position of this game (its valid block fails on it: above)' \
  "$pos_tmp/v.game" -D bad=3
check "the valid block writing the state: why" \
  "$pos_tmp/v.game:12:19: runtime error: the state can only change in a move's effect in the valid block" \
  "$(head -n 1 "$pos_tmp/err")"
pos_refused "a reason from the block" 'gsolve: error: --fen "OO1 w": not a position of this game: more O than X' \
  "$pos_tmp/v.game" --fen "OO1 w"
pos_refused "a reason after --position" \
  'gsolve: error: --position "a1": not a position of this game: more O than X' \
  "$pos_tmp/v.game" --fen "3 b" --position "a1"
pos_refused "a declared limit after --position" \
  "gsolve: error: --position \"b1 c1\": not a position of this game: 3 pieces in 'sq', more than its 'at most 2 pieces' allows" \
  "$pos_tmp/v.game" --fen "X2 w" --position "b1 c1"
check "a position the block accepts" "perft 1: 1" "$($GSOLVE "$pos_tmp/v.game" --fen "XO1 w" --perft 1 | grep '^perft')"

# `valid` stays a name where no declaration starts: a function, a call.
cat >"$pos_tmp/fn.game" <<'GAME'
game "A function named valid";
players A, B;
state n: 0..3;
function valid(k: int): bool { return k < 3; }
valid { if !valid(n) && n != 3 { invalid "no"; } }
move m() when valid(n) { n += 1; }
GAME
check "a function named valid beside the valid block" "perft 3: 1" \
  "$($GSOLVE "$pos_tmp/fn.game" --perft 3 2>&1 | grep '^perft')"

rm -rf "$pos_tmp"
