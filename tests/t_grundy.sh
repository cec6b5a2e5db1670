# tests/t_grundy.sh -- --grundy (docs/cgt.md): Grundy values of impartial
# games against published values (Bouton's XOR for Nim, k + 1 for
# matchsticks, OEIS A002186 for Kayles), the win or loss they mean
# cross-checked with alphabeta, and the refusals of games that are not
# impartial.  Sourced by tests/run.sh.
# The compiled tier builds into a cache of this script's own: the shared
# empty cache of tests/run.sh must stay empty, or `--engine auto` in the
# scripts after this one would take the compiled tier (t_golden's engine).
GSOLVE_CACHE=$(cd "$BUILD" && pwd)/tests/grundy-cache
mkdir -p "$GSOLVE_CACHE" && chmod 700 "$GSOLVE_CACHE"
export GSOLVE_CACHE

gr_val() { field grundy "$(gs "$@" --grundy 2>&1)"; }
gr_data() { grep -v '^#' "$1" | tr -s ' \n' ' '; }

# --- Nim: G = XOR of the heaps (Bouton 1901) --------------------------
for gr_h in "1,3,5,7 0" "3,5,6 0" "1,2,4 7" "2,3 1" "5,9,12 0" "4,4,1 1" "7 7"; do
  set -- $gr_h
  check "nim $1: G = the XOR of the heaps, $2 (VM)" "$2" "$(gr_val games/nim.game --engine vm -D heaps=$1)"
  check "nim $1: the same with the native engine's moves" "$2" \
    "$(gr_val games/nim.game --engine native -D heaps=$1)"
  gr_w=$([ "$2" = 0 ] && echo loss || echo win)
  check "nim $1: alphabeta says $gr_w" "$gr_w" "$(field value "$(gs games/nim.game --engine vm -D heaps=$1)")"
done
check "nim 3,5,6 JSON: grundy 0, a loss, no winning move" '"grundy":0,"misere":false,"value":"loss","best":[]' \
  "$(gs games/nim.game --engine vm -D heaps=3,5,6 --grundy --json | grep -o '"grundy":0,"misere":false,"value":"[a-z]*","best":\[[^]]*\]')"
check "nim 1,2,4: the one winning move takes 1 from heap 3 (4 -> 3: XOR 0)" "take 3 1" \
  "$(field best "$(gs games/nim.game --engine vm -D heaps=1,2,4 --grundy)")"

# --- Matchsticks: G(n) = n mod (k + 1) -------------------------------
for gr_nk in "21 3" "22 3" "20 3" "17 4" "30 6"; do
  set -- $gr_nk
  check "matchsticks n=$1 k=$2: G = n mod (k+1)" "$(($1 % ($2 + 1)))" \
    "$(gr_val games/matchsticks.game --engine vm -D n=$1 -D k=$2)"
  gr_w=$([ $(($1 % ($2 + 1))) = 0 ] && echo loss || echo win)
  check "matchsticks n=$1 k=$2: alphabeta says $gr_w" "$gr_w" \
    "$(field value "$(gs games/matchsticks.game --engine vm -D n=$1 -D k=$2)")"
done

# --- Kayles rows of 1..13 pins: OEIS A002186 ---------------------------
if have_data tests/data/cgt; then
  gr_seq=""
  for gr_n in 1 2 3 4 5 6 7 8 9 10 11 12 13; do
    gr_seq="$gr_seq$(gr_val docs/examples/kayles.game -D n=$gr_n) "
  done
  check "kayles G(1..13) = OEIS A002186" "$(gr_data tests/data/cgt/A002186.txt | cut -d' ' -f2-14) " "$gr_seq"
fi
check "kayles 7 after d1: G(3) xor G(3) = 0, a loss, alphabeta agrees" "0 loss" \
  "$(gr_val docs/examples/kayles.game --position d1) $(field value "$(gs docs/examples/kayles.game --position d1)")"
check "kayles 7 after a1: G(6) = 3, alphabeta says win" "3 win" \
  "$(gr_val docs/examples/kayles.game --position a1) $(field value "$(gs docs/examples/kayles.game --position a1)")"
check "kayles 10 (compiled tier): G(10) = 2" "2" \
  "$(gr_val docs/examples/kayles.game -D n=10 --engine compiled)"

# --- refusals: exit 2, saying what breaks impartiality ----------------
gr_refuse() {   # gr_refuse DESC EXPECTED-PART FILE ARGS...
  gr_d=$1; gr_e=$2; shift 2
  gr_o=$(gs "$@" --grundy 2>&1); gr_st=$?
  check "$gr_d: exit 2" 2 "$gr_st"
  case "$gr_o" in *"$gr_e"*) gr_ok=yes ;; *) gr_ok="$gr_o" ;; esac
  check "$gr_d: says '$gr_e'" yes "$gr_ok"
}
gr_refuse "tic-tac-toe" "a move's effect depends on the player to move" games/tictactoe.game
gr_refuse "hexapawn" "the legal moves depend on the player to move" games/hexapawn.game
gr_refuse "misère nim, whole-game walk (native engine's moves)" "not a loss for the player to move (misère play" \
  games/nim.game --engine native -D misere=true
gr_refuse "pig" "it has chance moves" games/pig.game
gr_refuse "the pot" "it does not have two players" games/pot.game
gr_refuse "token (cycles)" "needs a game that ends" games/token.game

# --- components (language.md 4.14c): Nim as a sum of heaps ------------
gr_o=$(gs games/nim.game --engine vm -D heaps=100,200,300,400 --grundy)
check "nim 100,200,300,400 by components (VM): G = 16, best take 4 16, the 401 heap sizes 0..400 valued" \
  "16 take 4 16 401" "$(field grundy "$gr_o") $(field best "$gr_o") $(field positions "$gr_o")"
gr_o=$(gs games/nim.game --engine native -D heaps=100,200,300,400)
check "nim 100,200,300,400: the native engine's solver agrees (win, take 4 16)" "win take 4 16" \
  "$(field value "$gr_o") $(field best "$gr_o")"
check "nim 1,2,4 by components: 7, take 3 1" "7 take 3 1" \
  "$(gs games/nim.game --engine vm -D heaps=1,2,4 --grundy | sed -n 's/^\(grundy\|best\): //p' | tr '\n' ' ' | sed 's/ $//')"
check "nim 1,2,4 by components, compiled tier: 7" "7" \
  "$(gr_val games/nim.game --engine compiled -D heaps=1,2,4)"

# --- misère Nim by Bouton's rule, against alphabeta ---------------------
gr_bad=""
for gr_h in 1 2 1,1 1,1,1 2,2 3,1 1,2,3 1,3,5,7 2,2,1 4,4,1,1 5,1,1 6,3,1 2,3,3 1,1,1,1,2; do
  gr_m=$(gs games/nim.game --engine vm -D misere=true -D heaps=$gr_h --grundy)
  gr_a=$(gs games/nim.game --engine vm -D misere=true -D heaps=$gr_h)
  gr_mv=$(field value "$gr_m"); gr_av=$(field value "$gr_a")
  [ "$gr_mv" = "$gr_av" ] || gr_bad="$gr_bad $gr_h:$gr_mv/$gr_av"
  # a win: Bouton's winning moves are among alphabeta's best ones
  if [ "$gr_mv" = win ]; then
    gr_ab=", $(field best "$gr_a"),"
    for gr_b in $(field best "$gr_m" | sed 's/, /,/g; s/ /_/g; s/,/ /g'); do
      case "$gr_ab" in *", $(echo "$gr_b" | tr _ ' '),"*) ;; *) gr_bad="$gr_bad $gr_h:$gr_b" ;; esac
    done
  fi
done
check "misère nim: Bouton's rule's win/loss and winning moves agree with alphabeta on 14 positions" "" "$gr_bad"
check "misère nim 1,3,5,7 JSON: no grundy, misere true, a loss" '"grundy":null,"misere":true,"value":"loss"' \
  "$(gs games/nim.game --engine vm -D misere=true --grundy --json | grep -o '"grundy":null,"misere":true,"value":"[a-z]*"')"
check "misère nim 100,200,300,400 (VM): a win, take 4 16 (some heap >= 2: as in normal play)" "win take 4 16" \
  "$(gs games/nim.game --engine vm -D misere=true -D heaps=100,200,300,400 --grundy | sed -n 's/^\(value\|best\): //p' | tr '\n' ' ' | sed 's/ $//')"
gr_refuse "misère play of heaps that are not Nim heaps" "is not a Nim heap" \
  tests/data/cgt/subtraction-misere.game

# --- octal games (games/octal.game) ------------------------------------
if have_data tests/data/cgt; then
  gr_seq=""
  for gr_n in 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
    gr_seq="$gr_seq$(gr_val games/octal.game -D n=$gr_n) "
  done
  check "octal 0.77 G(0..20) = Kayles, OEIS A002186" "$(gr_data tests/data/cgt/A002186.txt | cut -d' ' -f1-21) " "$gr_seq"
  gr_seq=""
  for gr_n in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
    gr_seq="$gr_seq$(gr_val games/octal.game -D code=0,0,7 -D n=$gr_n) "
  done
  check "octal 0.07 G(1..20) = Dawson's Kayles, OEIS A002187(0..19)" \
    "$(gr_data tests/data/cgt/A002187.txt | cut -d' ' -f1-20) " "$gr_seq"
fi
for gr_n in 5 8 9 12; do
  gr_g=$(gr_val games/octal.game -D n=$gr_n)
  gr_w=$([ "$gr_g" = 0 ] && echo loss || echo win)
  check "octal 0.77 n=$gr_n: alphabeta agrees with G=$gr_g ($gr_w)" "$gr_w" \
    "$(field value "$(gs games/octal.game -D n=$gr_n)")"
  check "octal 0.77 n=$gr_n: the plain walk (docs/examples/kayles.game) agrees" "$gr_g" \
    "$(gr_val docs/examples/kayles.game -D n=$gr_n)"
done
check "octal 0.77 after a split into 3 and 4 (take 1 1 3): G(3) xor G(4) = 2" "2" \
  "$(gr_val games/octal.game -D n=8 --position 'take 1 1 3')"

# --- --grundy-sequence: G(0..200) against OEIS, with the period ---------
# gr_extend FILE P COUNT: the file's terms, extended to COUNT terms by the
# period P its FORMULA line states (the listed terms reach past the
# pre-period, so a(n) = a(n - P) beyond them).
gr_extend() {
  gr_data "$1" | tr ' ' '\n' | grep -v '^$' | awk -v p="$2" -v c="$3" \
    '{ a[n++] = $1 } END { for (i = n; i < c; i++) a[i] = a[i - p]; for (i = 0; i < c; i++) printf "%s ", a[i] }'
}
gr_seqf() { printf '%s ' "$(field grundy_sequence "$1")"; }
if have_data tests/data/cgt; then
  gr_o=$(gs games/octal.game -D code=0.77 -D n=200 --grundy-sequence 200)
  check "kayles (0.77) G(0..200) = OEIS A002186" "$(gr_extend tests/data/cgt/A002186.txt 12 201)" "$(gr_seqf "$gr_o")"
  check "kayles: period 12 from n = 71 (A002186's FORMULA), t = 2" "12 71 2" \
    "$(field period "$gr_o") $(field preperiod "$gr_o") $(field max_take "$gr_o")"
  gr_o=$(gs games/octal.game -D code=0.07 -D n=200 --grundy-sequence 200)
  check "dawson's kayles (0.07) G(0..200) = 0 then OEIS A002187(0..199)" \
    "0 $(gr_extend tests/data/cgt/A002187.txt 34 200)" "$(gr_seqf "$gr_o")"
  check "dawson's kayles: period 34 from n = 53 (A002187's last exception 51, shifted by one)" "34 53" \
    "$(field period "$gr_o") $(field preperiod "$gr_o")"
  gr_o=$(gs games/octal.game -D code=0,1,3,7 -D n=200 --grundy-sequence 200)
  check "dawson's chess (0.137) G(0..200) = OEIS A002187" "$(gr_extend tests/data/cgt/A002187.txt 34 201)" \
    "$(gr_seqf "$gr_o")"
  check "dawson's chess: period 34 from n = 52 (last exception 51), t = 3" "34 52 3" \
    "$(field period "$gr_o") $(field preperiod "$gr_o") $(field max_take "$gr_o")"
fi
check "--grundy-sequence JSON: grundy_sequence, period, preperiod" '"grundy_sequence":[0,1,2,3,1],"period":null,"preperiod":null' \
  "$(gs games/octal.game -D n=4 --grundy-sequence 4 --json | grep -o '"grundy_sequence":[^]]*],"period":[a-z0-9]*,"preperiod":[a-z0-9]*')"
check "--grundy-sequence 4 of nim: G(n) = n, no period proven" "0 1 2 3 4 |none proven" \
  "$(gr_seqf "$(gs games/nim.game --engine vm -D heaps=4 --grundy-sequence 4)")|$(field period "$(gs games/nim.game --engine vm -D heaps=4 --grundy-sequence 4)")"
gr_refuse "--grundy-sequence past the array's range" "give parameters whose array holds 30" \
  games/octal.game -D n=10 --grundy-sequence 30
gr_refuse "--grundy-sequence without components" "declares its components" docs/examples/kayles.game --grundy-sequence 5
check "-D code=.137: a list parameter read digit by digit" "code=0,1,3,7 n=5 slots=0" \
  "$(gs games/octal.game -D code=.137 -D n=5 --grundy | sed -n 's/^game: Octal game (\(.*\))$/\1/p')"
gs games/nim.game -D heaps=1.2.3 >/dev/null 2>&1
check "-D heaps=1.2.3: two points, still not a list (exit 2)" 2 "$?"
gr_o=$(gs games/octal.game -D code=0.77 -D n=300 -D slots=2 --grundy-sequence 300)
check "octal -D slots=2 (two heaps, enough to value one): the same G(0..200) and period" \
  "$(gr_extend tests/data/cgt/A002186.txt 12 201)|12 71" \
  "$(printf '%s ' "$(field grundy_sequence "$gr_o")" | cut -d' ' -f1-201) |$(field period "$gr_o") $(field preperiod "$gr_o")"
gs games/octal.game -D n=6 -D slots=1 --position "take 1 1 2" >/dev/null 2>&1
check "octal -D slots=1: a split with no room for the new heap is illegal, not lost tokens (exit 2)" 2 "$?"

# --- two different games in one sum: docs/examples/nim-kayles.game ------
nk=docs/examples/nim-kayles.game
gr_bad=""
for gr_hr in "5 7" "2 7" "0 9" "4 4" "6 10" "3 0" "1 13"; do
  set -- $gr_hr
  gr_k=$(gr_data tests/data/cgt/A002186.txt | cut -d' ' -f$(($2 + 1)))
  gr_o=$(gs $nk -D heap=$1 -D row=$2 --grundy)
  [ "$(field grundy "$gr_o")" = "$(($1 ^ gr_k))" ] || gr_bad="$gr_bad $1+$2:$(field grundy "$gr_o")"
  gr_w=$([ $(($1 ^ gr_k)) = 0 ] && echo loss || echo win)
  [ "$(field value "$(gs $nk -D heap=$1 -D row=$2)")" = "$gr_w" ] || gr_bad="$gr_bad $1+$2:alphabeta"
  # every winning move leaves a loss for the opponent, as alphabeta finds
  for gr_m in $(field best "$gr_o" | sed 's/, /,/g; s/ /_/g; s/,/ /g'); do
    gr_m=$(echo "$gr_m" | tr _ ' ')
    [ "$(field value "$(gs $nk -D heap=$1 -D row=$2 --position "$gr_m")")" = loss ] \
      || gr_bad="$gr_bad $1+$2:$gr_m"
  done
done
check "nim heap + kayles row: G = heap xor A002186(row); alphabeta agrees on the value and on each winning move" "" "$gr_bad"
gr_refuse "components whose moves' effects depend on the mover" "a move's effect depends on the player to move" \
  tests/data/cgt/partizan-heaps.game

# --- components: compile errors, with line, column and caret -------------
gr_o=$(gs tests/data/cgt/components-errors.game 2>&1); gr_st=$?
check "components errors: exit 3" 3 "$gr_st"
check "components of a scalar: named, at its line and column" yes \
  "$(printf '%s\n' "$gr_o" | grep -q "components-errors.game:7:12: error: components needs a one-dimensional state array declared before it; 's' is not one" && echo yes)"
check "components of a bool array: named" yes \
  "$(printf '%s\n' "$gr_o" | grep -q "components-errors.game:8:12: error: components needs an array of integers from 0 (an empty component): 'f' is not" && echo yes)"
check "components errors: three, with carets" "3 errors 3" \
  "$(printf '%s\n' "$gr_o" | tail -n 1) $(printf '%s\n' "$gr_o" | grep -c '^ *\^')"

# --- --solver retro --grundy: retrograde analysis keeps Grundy values -----
# Each position's value and its moves' values (JSON "grundy", "moves") as
# the walk gives them, at several positions of each game: retro labels
# every position (the positions reached by the moves too); its value and
# plies are alphabeta's.
gr_gm() { gs "$@" --grundy --json | grep -o '"grundy":[0-9]*,.*"moves":\[[^]]*\]' | sed 's/,"plies":[0-9]*//g'; }
gr_bad=""
gr_n=0
gr_cross() {   # gr_cross FILE ARGS... -- POSITION...
  gr_f=$1; shift
  gr_a=""
  while [ "$1" != -- ]; do gr_a="$gr_a $1"; shift; done
  shift
  for gr_p in "$@"; do
    gr_w=$(gr_gm $gr_f $gr_a --position "$gr_p")
    gr_r=$(gr_gm $gr_f $gr_a --position "$gr_p" --solver retro)
    [ -n "$gr_w" ] && [ "$gr_w" = "$gr_r" ] || gr_bad="$gr_bad [$gr_f$gr_a '$gr_p': $gr_w / $gr_r]"
    gr_o=$(gs $gr_f $gr_a --position "$gr_p" --solver retro --grundy)
    gr_b=$(gs $gr_f $gr_a --position "$gr_p" --solver alphabeta)
    [ "$(field value "$gr_o") $(field plies "$gr_o")" = "$(field value "$gr_b") $(field plies "$gr_b")" ] \
      || gr_bad="$gr_bad [$gr_f$gr_a '$gr_p': alphabeta $(field value "$gr_b") $(field plies "$gr_b")]"
    gr_n=$((gr_n + 1))
  done
}
gr_cross games/nim.game --engine vm -D heaps=1,2,3 -- "" "take 3 1" "take 2 1" "take 1 1" "take 3 2 take 2 1"
gr_cross games/nim.game --engine vm -D heaps=1,2,4 -- "" "take 3 1" "take 3 4"
gr_cross docs/examples/kayles.game -D n=7 -- "" a1 d1 b1-c1 "c1 f1"
gr_cross games/octal.game -D n=9 -- "" "take 1 1 3" "take 1 2 2"
gr_cross docs/examples/nim-kayles.game -D heap=3 -D row=5 -- "" "take 1 1" "knock 2 2 0"
check "retro's Grundy values equal the walk's (each position and its moves'), its value and plies alphabeta's ($gr_n positions)" \
  "" "$gr_bad"
gr_o=$(gs games/nim.game --engine vm -D heaps=1,2,4 --solver retro --grundy --json)
check "nim 1,2,4 --solver retro JSON: grundy 7, a win in 7 plies by take 3 1 (7 plies by it), solver retro" \
  '"grundy":7,"misere":false,"value":"win","plies":7,"best":["take 3 1"]|{"move":"take 3 1","grundy":0,"plies":7}|"solver":"retro"' \
  "$(printf '%s' "$gr_o" | grep -o '"grundy":7,[^[]*\[[^]]*\]')|$(printf '%s' "$gr_o" | grep -o '{"move":"take 3 1"[^}]*}')|$(printf '%s' "$gr_o" | grep -o '"solver":"retro"')"
check "nim 1,3,5,7 --solver retro: G 0, a loss in 16 plies (the source material)" "0 loss 16" \
  "$(gs games/nim.game --engine vm --solver retro --grundy | sed -n 's/^\(grundy\|value\|plies\): //p' | tr '\n' ' ' | sed 's/ $//')"
check "nim 1,3,5,7 --solver retro, the native engine's moves: G 0" "0" \
  "$(gr_val games/nim.game --engine native --solver retro)"
gr_refuse "retro: tic-tac-toe" "a move's effect depends on the player to move" games/tictactoe.game --solver retro
gr_refuse "retro: pig" "it has chance moves" games/pig.game --solver retro
gr_refuse "retro: misère nim" "not a loss for the player to move (misère play" games/nim.game -D misere=true --solver retro
gr_refuse "retro: token (cycles), the walk's refusal" \
  "needs a game that ends: a line of play from the root comes back to a position (6 of the 10 positions" \
  games/token.game --solver retro

# --- Grundy values in a database (format 4, db.h) ------------------------
gr_tmp=$(mktemp -d "${TMPDIR:-/tmp}/gsolve-grundy.XXXXXX")
gs games/nim.game --engine vm -D heaps=1,2,4 --solver retro --grundy --db "$gr_tmp/g.db" >/dev/null
gs games/nim.game --engine vm -D heaps=1,2,4 --solver retro --db "$gr_tmp/v.db" >/dev/null
check "retro --grundy --db writes format 4; without --grundy, format 3 as before" "4 3" \
  "$(od -A n -t u4 -j 8 -N 4 "$gr_tmp/g.db" | tr -d ' ') $(od -A n -t u4 -j 8 -N 4 "$gr_tmp/v.db" | tr -d ' ')"
gr_bad=""
for gr_p in "" "take 1 1" "take 3 1" "take 3 2 take 2 1"; do
  gr_w=$(gr_gm games/nim.game --engine vm -D heaps=1,2,4 --position "$gr_p")
  gr_d=$(gr_gm games/nim.game --engine vm -D heaps=1,2,4 --position "$gr_p" --solver db --db "$gr_tmp/g.db")
  [ -n "$gr_w" ] && [ "$gr_w" = "$gr_d" ] || gr_bad="$gr_bad ['$gr_p': $gr_w / $gr_d]"
done
check "--solver db --grundy: the file's Grundy values are the walk's (4 positions)" "" "$gr_bad"
gr_o=$(gs games/nim.game --engine vm -D heaps=1,2,4 --solver db --db "$gr_tmp/g.db" --grundy)
check "--solver db --grundy: value and plies from the file, solver db" "7 win 7 db" \
  "$(field grundy "$gr_o") $(field value "$gr_o") $(field plies "$gr_o") $(field solver "$gr_o")"
check "a format 4 file answers --solver db without --grundy too" "win 7" \
  "$(gs games/nim.game --engine vm -D heaps=1,2,4 --solver db --db "$gr_tmp/g.db" | sed -n 's/^\(value\|plies\): //p' | tr '\n' ' ' | sed 's/ $//')"
gr_refuse "--solver db --grundy on a format 3 file" "keeps no Grundy values: build it with --solver retro --grundy --db FILE" \
  games/nim.game --engine vm -D heaps=1,2,4 --solver db --db "$gr_tmp/v.db"
gr_refuse "--solver alphabeta --grundy" "answered by its own walk or by a solver that keeps Grundy values (retro or db)" \
  games/nim.game --solver alphabeta
# Forged Grundy values with a recomputed checksum: REC's value set to V.
gr_forge() {   # gr_forge IN OUT REC V
  python3 - "$@" <<'PY'
import struct, sys
src, out, rec, v = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
b = bytearray(open(src, 'rb').read())
at = 48
for _ in range(3):
    at += 4 + struct.unpack_from('<I', b, at)[0]
K = struct.unpack_from('<I', b, 12)[0]
r = at + rec * (K + 14) + K
struct.pack_into('<I', b, r + 10, v)
h = 0xcbf29ce484222325
for c in b[:-8]:
    h = ((h ^ c) * 0x100000001b3) & 0xffffffffffffffff
struct.pack_into('<Q', b, len(b) - 8, h)
open(out, 'wb').write(b)
PY
}
# a record of a win (its value > 0) given another value > 0: only the
# rules tell (the mex of its children's); given 0: the record itself.
gr_rec=$(python3 - "$gr_tmp/g.db" <<'PY'
import struct, sys
b = open(sys.argv[1], 'rb').read()
at = 48
for _ in range(3):
    at += 4 + struct.unpack_from('<I', b, at)[0]
K = struct.unpack_from('<I', b, 12)[0]
n = struct.unpack_from('<Q', b, 40)[0]
print(next(i for i in range(n) if struct.unpack_from('<I', b, at + i * (K + 14) + K + 10)[0] > 0))
PY
)
gr_forge "$gr_tmp/g.db" "$gr_tmp/f.db" "$gr_rec" 99
gr_refuse "a forged Grundy value (checksum recomputed)" "a Grundy value that is not the mex of its children's" \
  games/nim.game --engine vm -D heaps=1,2,4 --solver db --db "$gr_tmp/f.db"
gr_forge "$gr_tmp/g.db" "$gr_tmp/f.db" "$gr_rec" 0
gr_refuse "a win forged to Grundy value 0" "a Grundy value that disagrees with its value" \
  games/nim.game --engine vm -D heaps=1,2,4 --solver db --db "$gr_tmp/f.db"
rm -rf "$gr_tmp"
# --memory was documented for --grundy but refused as an option of
# another mode; --grundy-sequence has no retro form.
check "--grundy --memory 64: taken (the walk's table limit)" 0 "$(gr_val games/nim.game --engine vm --memory 64)"
gr_refuse "--grundy-sequence with --solver retro" "--grundy-sequence values components by the Grundy walk" \
  games/octal.game -D n=5 --grundy-sequence 5 --solver retro
# A position where the player to move has no move but the other has one,
# entered only that way (the check compared the moves only where there
# were some, and valued the game): refused by the walk and by retro.
gr_refuse "one-sided heap: no move for one player, one for the other" \
  "the legal moves depend on the player to move (at a position 1 plies" tests/data/cgt/one-sided.game
gr_refuse "one-sided heap, --solver retro" "the legal moves depend on the player to move" \
  tests/data/cgt/one-sided.game --solver retro
