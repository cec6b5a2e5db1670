# tests/t_compact_cycles.sh -- the compact form for games with cycles
# (--compact on a game whose positions recur or are reached at several
# depths: src/retro/retro_compact_cycles.c): the same answers as the hash
# form (src/retro/retro.c, an independent labelling: a move graph and
# counters, where this form has passes over a sorted key set) -- the
# value, the distance, every root move's value, every count of --stats'
# histograms -- on the small games with cycles first, then chess endgames
# on 5x5 boards, queries by --fen, and the published KQK figures.  The
# 8x8 KBNK and KQKR tables with GSOLVE_FULL=1 (make test-full; minutes
# each): the hash form's histograms, and the published longest wins.

# cc_run FORM ARGS: the root's and every move's value (JSON, without the
# timing), then --stats' counts and histograms by mover (not the example
# positions, which each form picks in its own order), from one run; with
# $cc_db set, the database written too ($cc_db.db, the compact $cc_db.gcdb).
cc_run() {
  cc_flag=$1
  shift
  cc_file=""
  [ -n "$cc_db" ] && cc_file=$cc_db.db && [ -n "$cc_flag" ] && cc_file=$cc_db.gcdb
  gs "$@" --solver retro $cc_flag ${cc_file:+--db "$cc_file"} --all-moves --json --stats 2>"$cc_tmp" |
    sed 's/"seconds":[^,]*,//; s/"engine":[^,]*,//; s/"example":"[^"]*"//g'
  grep -E "won|lost|longest" "$cc_tmp" | sed 's/, e\.g\..*//'
}
# cc_same DESC ARGS: both forms' answers and counts equal.
cc_same() {
  cc_desc=$1
  shift
  check "cycles = hash form, every move and --stats' histograms: $cc_desc" "$(cc_run "" "$@")" \
    "$(cc_run --compact "$@")"
}
cc_tmp=${TMPDIR:-/tmp}/gsolve_cycles_$$.err
cc_db=""
cd_tmp=$(mktemp -d "${TMPDIR:-/tmp}/gsolve-cycdb.XXXXXX")

# --- Small games whose positions recur.  Token: the graph of the game's
# header (0-1-2-0 a cycle): from 0 a draw that never ends; from 5 a draw
# too, from 6 a loss in 2 (the values derived by hand there).
cc_same "token from 0" games/token.game
cc_same "token from 5" games/token.game -D from=5
cc_same "token from 6" games/token.game -D from=6
out=$(gs games/token.game -D from=6 --solver retro --compact)
check "token from 6: a loss in 2 (by hand)" "loss 2" "$(field value "$out") $(field plies "$out")"
out=$(gs games/token.game --solver retro --compact --stats 2>&1)
check "token from 0: a draw without end" "draw -" "$(field value "$out") $(field plies "$out")"
check "token: the form with cycles was taken" yes \
  "$(printf '%s\n' "$out" | grep -q '^stats: compact form with cycles: ' && echo yes)"
# Positions that recur only from ply 10 on, past the probe's 32,768
# positions: the layered form meets the recurrence at its layer 10 and
# hands over (it refused the game before, "drop --compact").
cc_db=$cd_tmp/late
cc_same "late cycles (handed over by the layered form)" tests/data/compact/late-cycles.game --engine vm
cc_db=""
check "late cycles: the layered form handed over at layer 10" yes \
  "$(grep -q "^stats: compact form with cycles: taken after the layered form's layer 10 met" "$cc_tmp" && echo yes)"
# Three men's morris (moves once the men are placed: positions recur),
# chomp (a position reached at several depths: no cycle, but no layers).
cc_same "three men's morris" docs/examples/morris3.game
cc_same "chomp" docs/examples/chomp.game
cc_same "kayles" docs/examples/kayles.game
cc_same "octal" games/octal.game
# Othello 4x4 (a pass keeps the stones: positions at several depths) is
# scored by the discs: decided once all children are, as the hash form's
# backward induction of scores does.
cc_same "othello 4x4 (scored)" docs/examples/othello.game
out=$(gs docs/examples/othello.game --solver retro --compact --stats 2>&1)
check "othello 4x4 compact: the form with cycles, a loss by 8 discs (as the hash form)" "yes loss -8" \
  "$(printf '%s\n' "$out" | grep -q '^stats: compact form with cycles' && echo yes) $(field value "$out") $(field score "$out")"
# Nim through the VM: heaps reached at several depths.  (The VM cannot
# count the orbits of a permuted array, so this form stores every state,
# as the layered compact form does: the counts by value agree.)
check "cycles = hash form, every move and --stats' histograms: nim 1,2,3 (VM)" \
  "$(cc_run "" games/nim.game --engine vm -D heaps=1,2,3 | sed 's/"stored":[0-9]*,//')" \
  "$(cc_run --compact games/nim.game --engine vm -D heaps=1,2,3 | sed 's/"stored":[0-9]*,//')"

# --- Chess endgames on 5x5 boards: draws by capture with their lengths
# (the shortest for White, the longest for Black), Black's wins in KQKR.
for cc_m in KQK KRK KBNK KQKR; do
  cc_db=""
  case $cc_m in KRK|KQKR) cc_db=$cd_tmp/$cc_m ;; esac   # the files for the tests below
  cc_same "chess 5x5 $cc_m" games/chess-endgame.game -D size=5 -D material=$cc_m
done
cc_db=""
cc_same "chess 5x5 KQK --no-symmetry" games/chess-endgame.game -D size=5 --no-symmetry
# Positions by --fen: a mate in 1, a draw at once (Black takes the queen),
# the example of the longest KQK win, a KRK position with Black to move.
for cc_case in "KQK|k4/5/1K3/5/3Q1 w" "KQK|5/5/5/1kQ2/4K b" "KQK|3QK/5/2k2/5/5 w" \
               "KRK|5/5/2k2/5/R3K b"; do
  cc_m=${cc_case%%|*}
  cc_same "chess 5x5 $cc_m --fen '${cc_case#*|}'" games/chess-endgame.game -D size=5 -D material=$cc_m \
    --fen "${cc_case#*|}"
done
# --position after moves from the start.
cc_same "chess 5x5 KRK --position a1a4 c5d5" games/chess-endgame.game -D size=5 -D material=KRK --position "a1a4 c5d5"

# --- The database file of this form (--compact --db FILE: format 3 of
# src/retro/compact_db.c, one layer whose children are in it), read back
# by --solver db: the same answers (every move, --pv), --stats' counts and
# --dump-db as the hash form's file of the same game (db.c: records by
# key, an independent writer and reader); forged records with their
# checksum recomputed refused (issue 39: every record answered with is
# checked against its children's records and the rules), a truncated
# file refused.
# (KRK's, KQKR's and late cycles' files were written by the runs above.)
# The forger: a format 3 file's records decoded (zstd blocks through the
# zstd program), record RANK made wrong but plausible (a draw without end
# given a length of 1, a draw with a length made endless, a win made a
# loss or a loss a win at its distance), every block written raw (kind 0,
# which the reader takes), the checksum recomputed.  `show` lists the
# records: rank, mover, score, distance (E: a draw without end).
cat >"$cd_tmp/forge.py" <<'PY'
import struct, subprocess, sys

def fnv(b):
    h = 0xcbf29ce484222325
    for c in b:
        h = ((h ^ c) * 0x100000001b3) & 0xffffffffffffffff
    return h

def parse(b):
    at = 48
    for _ in range(3):
        at += 4 + struct.unpack_from('<I', b, at)[0]
    smin, sbits, nlayers, block = struct.unpack_from('<qIII', b, at)
    at += 20 + 4 + 16          # the header's rest; the layer's number, vary, fixed
    n, lbits, dbits, hb = struct.unpack_from('<QIIQ', b, at)
    at += 24
    if n:
        at += 8 * ((n * lbits + 63) // 64 + 1) + 8 * ((hb + 63) // 64 + 1)
    nb = struct.unpack_from('<I', b, at)[0]
    t = dict(smin=smin, sbits=sbits, dbits=dbits, n=n, w=1 + sbits + dbits, block=block,
             nb=nb, blocks_at=at, vals=0)
    at += 4
    for k in range(nb):
        kind, size = struct.unpack_from('<II', b, at)
        data = bytes(b[at + 8:at + 8 + size])
        if kind == 1:
            data = subprocess.run(['zstd', '-d', '-c', '-q'], input=data,
                                  stdout=subprocess.PIPE, check=True).stdout
        t['vals'] |= int.from_bytes(data, 'little') << (64 * (k * block * t['w'] // 64))
        at += 8 + size
    return t

def fields(t):
    for i in range(t['n']):
        f = (t['vals'] >> (i * t['w'])) & ((1 << t['w']) - 1)
        yield f & 1, t['smin'] + ((f >> 1) & ((1 << t['sbits']) - 1)), f >> (1 + t['sbits'])

def write(b, t, vals, out):
    w, block, n = t['w'], t['block'], t['n']
    body = struct.pack('<I', t['nb'])
    for k in range(t['nb']):
        lo, hi = k * block * w // 64, (min(n, (k + 1) * block) * w + 63) // 64
        data = ((vals >> (64 * lo)) & ((1 << (64 * (hi - lo))) - 1)).to_bytes(8 * (hi - lo), 'little')
        body += struct.pack('<II', 0, len(data)) + data
    head = bytes(b[:t['blocks_at']]) + body
    open(out, 'wb').write(head + struct.pack('<Q', fnv(head)))

cmd, src = sys.argv[1], sys.argv[2]
b = bytearray(open(src, 'rb').read())
t = parse(b)
endless = (1 << t['dbits']) - 1
if cmd == 'show':
    for i, (m, s, d) in enumerate(fields(t)):
        print(i, m, s, 'E' if d == endless else d)
elif cmd == 'forge':
    recs = list(fields(t))
    for rank in (int(x) for x in sys.argv[4:]):
        m, s, d = recs[rank]
        if s == 0:
            d = 1 if d == endless else endless
        else:
            s = -s
        sh = rank * t['w']
        f = m | (s - t['smin']) << 1 | d << (1 + t['sbits'])
        write(b, t, (t['vals'] & ~(((1 << t['w']) - 1) << sh)) | f << sh, '%s.%d' % (sys.argv[3], rank))
elif cmd == 'raw':
    write(b, t, t['vals'], sys.argv[3])
PY
cd_forge="python3 $cd_tmp/forge.py"
# cd_json ARGS: the root's and every move's value and --pv (JSON, no timing).
cd_json() { gs "$@" --all-moves --pv --json 2>&1 | sed 's/"seconds":[^,]*,//; s/"engine":[^,]*,//'; }
# cd_counts ARGS: --stats' counts and histograms (not the examples).
cd_counts() { gs "$@" --stats 2>&1 >/dev/null | grep -E "won|lost|longest" | sed 's/, e\.g\..*//'; }
# cd_files NAME ARGS: the compact file and the hash form's of a game.
cd_files() {
  cd_name=$1
  shift
  gs "$@" --solver retro --compact --db "$cd_tmp/$cd_name.gcdb" >/dev/null
  gs "$@" --solver retro --db "$cd_tmp/$cd_name.db" >/dev/null
}
# cd_same NAME DESC ARGS: both files' answers at a position equal.
cd_same() {
  cd_name=$1 cd_desc=$2
  shift 2
  check "cycles file = hash file, every move and --pv: $cd_desc" \
    "$(cd_json "$@" --solver db --db "$cd_tmp/$cd_name.db")" "$(cd_json "$@" --solver db --db "$cd_tmp/$cd_name.gcdb")"
}
# cd_whole NAME DESC ARGS: --stats' counts and --dump-db from both files equal.
cd_whole() {
  cd_name=$1 cd_desc=$2
  shift 2
  check "cycles file = hash file, --stats' counts: $cd_desc" \
    "$(cd_counts "$@" --solver db --db "$cd_tmp/$cd_name.db")" "$(cd_counts "$@" --solver db --db "$cd_tmp/$cd_name.gcdb")"
  check "cycles file = hash file, --dump-db: $cd_desc" \
    "$(gs "$@" --dump-db --db "$cd_tmp/$cd_name.db" 2>&1)" "$(gs "$@" --dump-db --db "$cd_tmp/$cd_name.gcdb" 2>&1)"
}
# Token: draws without end (the cycle 0-1-2), a win in 1, a loss at once.
cd_files tok games/token.game
check "cycles file: format 3" 3 "$(od -An -tu4 -j8 -N4 "$cd_tmp/tok.gcdb" | tr -d ' ')"
for cd_p in "" "to 1 to 2 to 0" "to 1 to 2 to 3" "to 1 to 2 to 3 to 4"; do
  cd_same tok "token at '$cd_p'" games/token.game --position "$cd_p"
done
cd_whole tok "token" games/token.game
out=$(gs games/token.game --solver db --db "$cd_tmp/tok.gcdb")
check "cycles file: token from 0 a draw without end" "draw -" "$(field value "$out") $(field plies "$out")"
# Three men's morris (draws without end), chess on 5x5 boards (KRK: draws
# by capture with their lengths, the longest win; KQKR: Black's wins and
# draws), othello 4x4 (scored by the discs), nim through the VM.
cd_files morris docs/examples/morris3.game
for cd_p in "" "b2" "b2 a1 c2 a2"; do
  cd_same morris "three men's morris at '$cd_p'" docs/examples/morris3.game --position "$cd_p"
done
cd_whole morris "three men's morris" docs/examples/morris3.game
cd_krk="games/chess-endgame.game -D size=5 -D material=KRK"
for cd_f in "5/5/2k2/5/R3K b" "K4/5/2k2/3R1/5 w" "5/5/5/1kR2/4K b"; do
  # shellcheck disable=SC2086
  cd_same KRK "chess 5x5 KRK --fen '$cd_f'" $cd_krk --fen "$cd_f"
done
# shellcheck disable=SC2086
cd_whole KRK "chess 5x5 KRK" $cd_krk
# shellcheck disable=SC2086
out=$(gs $cd_krk --solver db --db "$cd_tmp/KRK.gcdb" --fen "K4/5/2k2/3R1/5 w")
check "cycles file: KRK 5x5's longest win (19 plies, as the hash form's --stats)" "win 19" \
  "$(field value "$out") $(field plies "$out")"
cd_kqkr="games/chess-endgame.game -D size=5 -D material=KQKR"
for cd_f in "" "k4/5/1K3/5/2Q1r w" "4k/5/2r2/5/QK3 b"; do
  # shellcheck disable=SC2086
  cd_same KQKR "chess 5x5 KQKR --fen '$cd_f'" $cd_kqkr ${cd_f:+--fen "$cd_f"}
done
cd_files oth docs/examples/othello.game
for cd_p in "" "b1 a1"; do
  cd_same oth "othello 4x4 (scored) at '$cd_p'" docs/examples/othello.game --position "$cd_p"
done
cd_whole oth "othello 4x4 (scored)" docs/examples/othello.game
# (Nim without symmetry: the VM cannot count the orbits of a permuted
# array, so this form stores every state, the hash form the classes.)
cd_files nim games/nim.game --engine vm -D heaps=1,2,3 --no-symmetry
cd_same nim "nim 1,2,3 (VM)" games/nim.game --engine vm -D heaps=1,2,3 --position "take 3 1"
cd_whole nim "nim 1,2,3 (VM)" games/nim.game --engine vm -D heaps=1,2,3
# The file's size, on --stats of the solve that writes it (KRK 5x5: 5,227
# bytes, 2.29 a stored position; the hash form's file 32,022).
# shellcheck disable=SC2086
out=$(gs $cd_krk --solver retro --compact --db "$cd_tmp/krk2.gcdb" --stats 2>&1 >/dev/null)
check "cycles file: its size on --stats = the file's" "$(wc -c <"$cd_tmp/krk2.gcdb" | tr -d ' ')" \
  "$(printf '%s\n' "$out" | sed -n "s/^stats: compact form with cycles: wrote '.*', \([0-9]*\) bytes: .*/\1/p")"
check "cycles file: under a fifth of the hash form's file (KRK 5x5)" yes \
  "$(awk -v a="$(wc -c <"$cd_tmp/KRK.gcdb")" -v b="$(wc -c <"$cd_tmp/KRK.db")" 'BEGIN { print (5 * a < b) ? "yes" : "no" }')"
# Forged records (the checksum recomputed).  Token: each of its 10
# records forged alone is refused by a query at one of its 10 positions
# and by --dump-db (every record checked first).  A query checks the
# records it answers with: the start's (a draw without end, as are the
# records of 0, 1 and 2), its move's (to 1), and that one's child's (the
# move's own check): exactly 3 of the 10 forged files are refused at the
# start, each a draw given a length.
$cd_forge forge "$cd_tmp/tok.gcdb" "$cd_tmp/f" 0 1 2 3 4 5 6 7 8 9
cd_caught=0 cd_dumped=0 cd_start=0 cd_why=""
for cd_r in 0 1 2 3 4 5 6 7 8 9; do
  cd_hit=0
  for cd_p in "" "to 1" "to 1 to 2" "to 1 to 2 to 0" "to 1 to 2 to 0 to 1" "to 1 to 2 to 0 to 1 to 2" \
              "to 1 to 2 to 3" "to 1 to 2 to 0 to 1 to 2 to 3" "to 1 to 2 to 3 to 4" \
              "to 1 to 2 to 0 to 1 to 2 to 3 to 4"; do
    out=$(gs games/token.game --db "$cd_tmp/f.$cd_r" --position "$cd_p" 2>&1)
    if [ $? = 2 ] && printf '%s' "$out" | grep -q "is corrupt: a position's record disagrees with the rules"; then
      cd_hit=1
      if [ -z "$cd_p" ]; then
        cd_start=$((cd_start + 1))
        cd_why="$cd_why${out##*(}"
      fi
      break
    fi
  done
  cd_caught=$((cd_caught + cd_hit))
  gs games/token.game --db "$cd_tmp/f.$cd_r" --dump-db >/dev/null 2>&1
  [ $? = 2 ] && cd_dumped=$((cd_dumped + 1))
done
check "cycles file: token's 10 records forged one at a time, each refused by a query" 10 $cd_caught
check "cycles file: token's 10 records forged one at a time, each refused by --dump-db" 10 $cd_dumped
check "cycles file: the start's query refuses the 3 forged records it reads, each a draw's length" \
  "3 a draw's length)a draw's length)a draw's length)" "$cd_start $cd_why"
$cd_forge forge "$cd_tmp/tok.gcdb" "$cd_tmp/f" 0
out=$(gs games/token.game --db "$cd_tmp/f.0" --dump-db 2>&1)
check "cycles file: a forged record refused, exit 2 and why" \
  "2 gsolve: error: '$cd_tmp/f.0' is corrupt: a position's record disagrees with the rules (a draw's length)" \
  "$? $out"
# A file rewritten with every block raw reads back the same (the forger's
# decoding checked); KRK's records forged at ranks through the table
# (zstd blocks), each refused by --stats (every record checked first).
# shellcheck disable=SC2086
if command -v zstd >/dev/null 2>&1; then
  $cd_forge raw "$cd_tmp/KRK.gcdb" "$cd_tmp/raw.gcdb"
  # shellcheck disable=SC2086
  check "cycles file: KRK's blocks rewritten raw, the same --dump-db" \
    "$(gs $cd_krk --dump-db --db "$cd_tmp/KRK.gcdb" 2>&1)" "$(gs $cd_krk --dump-db --db "$cd_tmp/raw.gcdb" 2>&1)"
  cd_dumped=0
  $cd_forge forge "$cd_tmp/KRK.gcdb" "$cd_tmp/k" 0 1 500 1139 2000 2279
  for cd_r in 0 1 500 1139 2000 2279; do
    # shellcheck disable=SC2086
    gs $cd_krk --solver db --db "$cd_tmp/k.$cd_r" --stats 2>&1 >/dev/null |
      grep -q "is corrupt: a position's record disagrees with the rules" && cd_dumped=$((cd_dumped + 1))
  done
  check "cycles file: KRK's records forged at 6 ranks, each refused by --stats" 6 $cd_dumped
fi
# Truncated: by the checksum; cut short with its checksum recomputed: by
# the layout.
head -c 200 "$cd_tmp/tok.gcdb" >"$cd_tmp/t.gcdb"
out=$(gs games/token.game --solver db --db "$cd_tmp/t.gcdb" 2>&1)
check "cycles file truncated: refused" "2 gsolve: error: '$cd_tmp/t.gcdb' is corrupt" "$? $out"
python3 -c "
import struct, sys
sys.path.insert(0, '$cd_tmp')
b = open('$cd_tmp/tok.gcdb', 'rb').read()[:-24]
h = 0xcbf29ce484222325
for c in b:
    h = ((h ^ c) * 0x100000001b3) & 0xffffffffffffffff
open('$cd_tmp/t.gcdb', 'wb').write(b + struct.pack('<Q', h))"
out=$(gs games/token.game --solver db --db "$cd_tmp/t.gcdb" 2>&1)
check "cycles file cut short, checksum recomputed: refused" "2 gsolve: error: '$cd_tmp/t.gcdb' is corrupt" "$? $out"
# Late cycles: the layered form hands over, and writes this form's file.
check "cycles file: late cycles (handed over by the layered form), format 3" 3 \
  "$(od -An -tu4 -j8 -N4 "$cd_tmp/late.gcdb" | tr -d ' ')"
cd_same late "late cycles" tests/data/compact/late-cycles.game --engine vm

# --- Refusals.  A memory limit too small for the table: refused with the figure.
out=$(gs games/chess-endgame.game -D size=6 -D material=KBNK --solver retro --compact --memory 2 2>&1)
check "cycles: --memory too small, exit 5" 5 $?
check "cycles: --memory too small, the figure" yes \
  "$(printf '%s' "$out" | grep -q "the compact table needs about .* MiB.*raise --memory" && echo yes)"

# --- KQK on 8x8 (a few seconds): the published longest win, 19 plies
# (mate in 10), and the usual counting of its 223,944 Black-to-move
# positions, 23,048 of them drawn.
out=$(gs games/chess-endgame.game --solver retro --compact --stats 2>&1)
check "KQK compact: longest win, White to move, 19 plies (mate in 10)" 19 \
  "$(printf '%s\n' "$out" | sed -n 's/^stats: longest win, White to move: \([0-9]*\) plies.*/\1/p')"
check "KQK compact: 23,048 of the Black-to-move positions are drawn" "200896 lost, 23048 drawn" \
  "$(printf '%s\n' "$out" | sed -n 's/^stats: Black to move: 0 won, \([0-9]* lost, [0-9]* drawn\).*/\1/p')"

# --- The 8x8 KBNK and KQKR tables (minutes each through the VM; make
# test-full): the hash form's every count, and KBNK's longest win, 65
# plies (mate in 33), KQKR's 35 moves.
# The rules through the compiled tier, its objects in a cache of this
# script's own.
if [ -n "$GSOLVE_FULL" ]; then
  GSOLVE_CACHE=$(cd "$BUILD/tests" && pwd)/cycles-cache
  mkdir -m 700 -p "$GSOLVE_CACHE"
  export GSOLVE_CACHE
  for cc_m in KBNK KQKR; do
    cc_db=""
    [ $cc_m = KBNK ] && cc_db=$cd_tmp/full$cc_m      # both files written, for the queries below
    cc_hash=$(cc_run "" games/chess-endgame.game -D material=$cc_m --engine compiled)
    cc_comp=$(cc_run --compact games/chess-endgame.game -D material=$cc_m --engine compiled)
    [ $cc_m = KBNK ] &&
      cd_ex=$(sed -n 's/^stats: longest win, White to move: [0-9]* plies, e\.g\. \(.*\)/\1/p' "$cc_tmp")
    check "$cc_m 8x8: the compact form's root, moves and histograms = the hash form's" "$cc_hash" "$cc_comp"
    cc_long=$(printf '%s\n' "$cc_comp" | sed -n 's/^stats: longest win, White to move: \([0-9]*\) plies.*/\1/p')
    case $cc_m in
      KBNK) check "KBNK 8x8 compact: longest win 65 plies (mate in 33)" 65 "$cc_long" ;;
      KQKR) check "KQKR 8x8 compact: longest win 69 plies (mate in 35)" 69 "$cc_long" ;;
    esac
  done
  cc_db=""
  # KBNK's compact file (format 3) read back: the same answers, every
  # move and --pv, as the hash form's file: the start (a win in 57), the
  # example of the longest win (65 plies), a draw (Black takes the knight).
  cd_kbnk="games/chess-endgame.game -D material=KBNK --engine compiled"
  for cd_f in "" "$cd_ex" "8/8/8/8/8/2k5/2N5/K1B5 b"; do
    # shellcheck disable=SC2086
    cd_same fullKBNK "KBNK 8x8 --fen '$cd_f'" $cd_kbnk ${cd_f:+--fen "$cd_f"}
  done
  # shellcheck disable=SC2086
  out=$(gs $cd_kbnk --solver db --db "$cd_tmp/fullKBNK.gcdb" ${cd_ex:+--fen "$cd_ex"})
  check "KBNK 8x8 file: the longest win's example, 65 plies" "win 65" "$(field value "$out") $(field plies "$out")"
  echo "KBNK 8x8 files: compact $(wc -c <"$cd_tmp/fullKBNK.gcdb") bytes, hash form $(wc -c <"$cd_tmp/fullKBNK.db") bytes"
fi
rm -rf "$cd_tmp"
rm -f "$cc_tmp"
