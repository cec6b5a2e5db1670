# tests/t_files.sh -- files that gsolve reads and writes, attacked (issue
# 25): endless inputs, planted symlinks, a game given as --db, a damaged
# header, raw bytes echoed, forged databases with a correct checksum, and
# the opening book likewise.  docs/cli.md, "Database and book files".
# Sourced by tests/run.sh.

fl_tmp=$(mktemp -d "${TMPDIR:-/tmp}/gsolve-files.XXXXXX")
fl_forge="python3 tests/files/forge_db.py"

# fl_run ARGS...: runs gsolve (at most 60 s); $fl_st, stderr in $fl_tmp/err.
fl_run() {
  timeout 60 $GSOLVE "$@" >"$fl_tmp/out" 2>"$fl_tmp/err"
  fl_st=$?
}

# Endless inputs: refused after limit + 1 bytes (it grew past 3 GB, and
# --db /dev/zero to 24 GB).
fl_run /dev/zero
check "game /dev/zero: exit" 5 $fl_st
check "game /dev/zero: message" "gsolve: error: '/dev/zero' is too large (limit 16 MiB)" "$(cat "$fl_tmp/err")"
fl_run games/tictactoe.game --db /dev/zero
check "--db /dev/zero: exit" 2 $fl_st
check "--db /dev/zero: message" "gsolve: error: '/dev/zero' is not a gsolve database" "$(cat "$fl_tmp/err")"
fl_run games/connect4.game -D width=4 -D height=4 --book /dev/zero
check "--book /dev/zero: exit" 2 $fl_st
# A database header then zeros without end: the header gives the size.
(printf 'GSOLVEDB\003\000\000\000'; cat /dev/zero) | timeout 60 $GSOLVE games/tictactoe.game \
  --db /dev/stdin >"$fl_tmp/out" 2>"$fl_tmp/err"
check "--db header then endless zeros: refused" \
  "gsolve: error: '/dev/stdin' is corrupt (truncated or checksum mismatch)" "$(cat "$fl_tmp/err")"
(printf 'GSC4BOOK\001\000\000\000'; cat /dev/zero) | timeout 60 $GSOLVE games/connect4.game \
  -D width=4 -D height=4 --book /dev/stdin >"$fl_tmp/out" 2>"$fl_tmp/err"
check "--book header then endless zeros: refused" \
  "gsolve: error: '/dev/stdin' is corrupt (truncated, altered or checksum mismatch)" "$(cat "$fl_tmp/err")"
# SIGTERM while a read blocks (a pipe that sends a header, then nothing).
mkfifo "$fl_tmp/fifo"
(printf 'GSOLVEDB\003\000\000\000'; sleep 20) >"$fl_tmp/fifo" &
fl_writer=$!
$GSOLVE games/tictactoe.game --db "$fl_tmp/fifo" >"$fl_tmp/out" 2>"$fl_tmp/err" &
fl_pid=$!
sleep 1
kill -TERM $fl_pid
wait $fl_pid
check "SIGTERM while reading --db: exit" 130 $?
check "SIGTERM while reading --db: message" yes \
  "$(grep -q -E "^gsolve: error: reading '.*fifo': interrupted after 12 bytes read" "$fl_tmp/err" && echo yes || cat "$fl_tmp/err")"
kill $fl_writer 2>/dev/null
wait $fl_writer 2>/dev/null

# Writing: a symlink planted at the old temporary name is not followed,
# and no temporary file is left.
echo precious >"$fl_tmp/victim"
ln -s "$fl_tmp/victim" "$fl_tmp/t.db.tmp"
fl_run games/tictactoe.game --solver retro --db "$fl_tmp/t.db"
check "planted FILE.tmp symlink: solve ok" 0 $fl_st
check "planted FILE.tmp symlink: target untouched" precious "$(cat "$fl_tmp/victim")"
check "no temporary file left" "t.db t.db.tmp victim" "$(cd "$fl_tmp" && ls -d t.db* victim | tr '\n' ' ' | sed 's/ $//')"
fl_run games/tictactoe.game --db "$fl_tmp/t.db"
check "the database written reads back" 0 $fl_st
check "database mode 0644 (umask 022)" "-rw-r--r--" "$(umask 022; ls -l "$fl_tmp/t.db" | cut -c1-10)"
# A database is replaced by a database.
fl_run games/tictactoe.game --solver retro --db "$fl_tmp/t.db"
check "a database replaces a database" 0 $fl_st
# --db on the game's own source: refused, the game kept.
cp games/tictactoe.game "$fl_tmp/x.game"
fl_run "$fl_tmp/x.game" --solver retro --db "$fl_tmp/x.game"
check "--db x.game: exit" 2 $fl_st
check "--db x.game: message" \
  "gsolve: error: '$fl_tmp/x.game' is a file this run reads; not replaced (choose another name)" \
  "$(cat "$fl_tmp/err")"
# Another game's file: not the rules read, refused by its kind.
fl_run games/tictactoe.game --solver retro --db "$fl_tmp/x.game"
check "--db another game's file: message" \
  "gsolve: error: '$fl_tmp/x.game' exists and is not a gsolve database; not replaced (remove it or choose another name)" \
  "$(cat "$fl_tmp/err")"
check "--db x.game: the game is intact" same "$(cmp -s games/tictactoe.game "$fl_tmp/x.game" && echo same)"
fl_run games/connect4.game -D width=4 -D height=4 --make-book "$fl_tmp/x.game" --book-depth 1
check "--make-book x.game: exit" 2 $fl_st
check "--make-book x.game: the game is intact" same "$(cmp -s games/tictactoe.game "$fl_tmp/x.game" && echo same)"
fl_run games/connect4.game -D width=4 -D height=4 --make-book "$fl_tmp/t.db" --book-depth 1
check "--make-book over a database: refused" 2 $fl_st
fl_run games/tictactoe.game --solver retro --db "$fl_tmp"
check "--db a folder: refused" "gsolve: error: '$fl_tmp' exists and is not a regular file; not replaced" "$(cat "$fl_tmp/err")"
# A book is written the same way and reads back.
fl_run games/connect4.game -D width=4 -D height=4 --make-book "$fl_tmp/b.book" --book-depth 2
check "--make-book: exit" 0 $fl_st
fl_run games/connect4.game -D width=4 -D height=4 --book "$fl_tmp/b.book"
check "the book written reads back" 0 $fl_st
check "no temporary book left" "b.book" "$(cd "$fl_tmp" && ls -d b.book*)"

# A second Ctrl-C exits at once with a message (it killed silently, and
# left FILE.tmp behind when it came during the write).  SIGINT then
# SIGTERM: two signals of one kind sent at once may arrive as one.
$GSOLVE games/connect4.game -D width=6 -D height=5 --engine vm --time-limit 60 \
  >"$fl_tmp/out" 2>"$fl_tmp/err" &
fl_pid=$!
sleep 1
kill -INT $fl_pid
kill -TERM $fl_pid
wait $fl_pid
check "second Ctrl-C: exit" 130 $?
check "second Ctrl-C: message" yes \
  "$(grep -q '^gsolve: error: interrupted again; stopped at once, no result$' "$fl_tmp/err" && echo yes || cat "$fl_tmp/err")"

# Damaged header: corrupt, not "built for other rules" (checksum first).
fl_db=$fl_tmp/t.db
$fl_forge flip "$fl_db" "$fl_tmp/h.db" 50
fl_run games/tictactoe.game --db "$fl_tmp/h.db"
check "damaged name: exit" 2 $fl_st
check "damaged name: corrupt" "gsolve: error: '$fl_tmp/h.db' is corrupt (truncated or checksum mismatch)" "$(cat "$fl_tmp/err")"
$fl_forge flip "$fl_db" "$fl_tmp/h.db" 25
fl_run games/tictactoe.game --db "$fl_tmp/h.db"
check "damaged rules hash: corrupt" "gsolve: error: '$fl_tmp/h.db' is corrupt (truncated or checksum mismatch)" "$(cat "$fl_tmp/err")"
# Raw bytes of a (valid) file are escaped: ESC [ 2 J would clear the screen.
$fl_forge name "$fl_db" "$fl_tmp/e.db" 1b5b324a4e696d5c
fl_run games/tictactoe.game --db "$fl_tmp/e.db"
check "escaped name: exit" 2 $fl_st
check "escaped name: message" \
  "gsolve: error: '$fl_tmp/e.db' was built for other rules: \\x1b[2JNim\\x5c (m=3 n=3 k=3); this is Tic-tac-toe (m=3 n=3 k=3)" \
  "$(cat "$fl_tmp/err")"

# Forged records with a recomputed checksum.  Record 1 is the start (a
# draw in 9 plies, score 0).
$fl_forge record "$fl_db" "$fl_tmp/f.db" 0 1 9 -1
fl_run games/tictactoe.game --db "$fl_tmp/f.db"
check "win with a negative score: refused" \
  "gsolve: error: '$fl_tmp/f.db' is corrupt: record 1 has a value that disagrees with its score" "$(cat "$fl_tmp/err")"
$fl_forge record "$fl_db" "$fl_tmp/f.db" 0 2 -1 -1
fl_run games/tictactoe.game --db "$fl_tmp/f.db"
check "loss without end: refused" \
  "gsolve: error: '$fl_tmp/f.db' is corrupt: record 1 has a win or loss without end" "$(cat "$fl_tmp/err")"
$fl_forge record "$fl_db" "$fl_tmp/f.db" 0 1 100000 1
fl_run games/tictactoe.game --db "$fl_tmp/f.db"
check "distance beyond the positions: refused" \
  "gsolve: error: '$fl_tmp/f.db' is corrupt: record 1 has a distance beyond the number of positions" "$(cat "$fl_tmp/err")"
# Consistent records that the rules contradict: the start made a win.
$fl_forge record "$fl_db" "$fl_tmp/f.db" 0 1 9 1
fl_run games/tictactoe.game --db "$fl_tmp/f.db"
check "forged win at the start: exit" 2 $fl_st
check "forged win at the start: refused" \
  "gsolve: error: '$fl_tmp/f.db' is corrupt: a position's record disagrees with the rules (a win without its winning move)" \
  "$(cat "$fl_tmp/err")"
# Deeper records, each forged alone: the verifier (all of a small
# database) finds every one.
fl_caught=0
for fl_rec in 1 2 5 10 50 100 300 600 764; do
  $fl_forge record "$fl_db" "$fl_tmp/f.db" $fl_rec 3 -1 0
  fl_run games/tictactoe.game --db "$fl_tmp/f.db"
  grep -q "disagrees with the rules" "$fl_tmp/err" && fl_caught=$((fl_caught + 1))
done
check "forged endless draws deeper in: all 9 caught" 9 $fl_caught
# One record more, its key a board no move reaches and its cells outside
# their range (3 where 0..2 is declared): named as such by the readers
# that check every record, not "the player to move" (a rule's view of it).
$fl_forge addkey "$fl_db" "$fl_tmp/k.db" ffffffff 3 0 0
fl_run games/tictactoe.game --dump-db --db "$fl_tmp/k.db"
check "a key outside the slots' ranges: --dump-db refuses it" \
  "2 gsolve: error: '$fl_tmp/k.db' is corrupt: a key that is not a position of the game (square[0] is 3, outside its range 0..2)" \
  "$fl_st $(cat "$fl_tmp/err")"
fl_run games/tictactoe.game --db "$fl_tmp/k.db" --stats
check "a key outside the slots' ranges: --stats refuses it" 2 $fl_st
# A database with cycles and endless draws, and one from a deeper
# position, verify as genuine.
fl_run games/token.game --solver retro --db "$fl_tmp/token.db"
fl_run games/token.game --db "$fl_tmp/token.db"
check "token (cycles) database verifies" 0 $fl_st
fl_run games/tictactoe.game --position "b2 a1" --db "$fl_tmp/t.db"
check "a database asked about a later position verifies" 0 $fl_st

# Every reader of records checks them as a direct query does (issue 39).
# Hexapawn 5x3 has 8,698 positions, more than the 4096 a load checks:
# --dump-db reported forged counts (6 of these 12 forgeries got through),
# --stats likewise; each record now is checked before they are counted.
fl_h53="games/hexapawn.game -D width=5 -D height=3"
fl_run $fl_h53 --solver retro --db "$fl_tmp/h53.db"
fl_run $fl_h53 --db "$fl_tmp/h53.db" --dump-db
check "hexapawn 5x3 database: --dump-db of the genuine one" "0 8698" "$fl_st $(field stored "$(cat "$fl_tmp/out")")"
fl_caught=0
fl_tried=0
for fl_rec in 0 1739 3478 5217 6956 8695; do
  for fl_kind in longer swap; do
    $fl_forge mutate "$fl_tmp/h53.db" "$fl_tmp/f.db" $fl_rec $fl_kind
    fl_run $fl_h53 --db "$fl_tmp/f.db" --dump-db
    fl_tried=$((fl_tried + 1))
    [ $fl_st = 2 ] && grep -q "^gsolve: error: '$fl_tmp/f.db' is corrupt: a position's record disagrees with the rules" \
      "$fl_tmp/err" && fl_caught=$((fl_caught + 1))
  done
done
check "--dump-db: every forged record refused (12 forgeries)" "12 of 12" "$fl_caught of $fl_tried"
$fl_forge mutate "$fl_tmp/h53.db" "$fl_tmp/f.db" 1739 longer
fl_run $fl_h53 --db "$fl_tmp/f.db" --stats
check "--stats over a forged database: refused" 2 $fl_st
# --pv from a forged database: the records of each step's position are
# checked as the root's were.  KQK's start is a win in 15 plies, and its
# 46,599 records are more than a load checks: record 28910, the position
# after e1d2 e8d7 d2e3 (Black lost in 12 plies), made a loss in 14, drew
# --pv into a 17-move line under "plies: 15"; record 12456 (a loss in 6)
# made a win likewise.  (The records are in key order: should the keys'
# form change, the guard below fails and tells to find them again, with
# a record's value and distance from forge_db.py show.)
fl_run games/chess-endgame.game --solver retro --db "$fl_tmp/kqk.db"
check "KQK database: records 28910 and 12456 are a loss in 12 and one in 6 (else find the line's records again)" \
  "2 12 -1|2 6 -1" \
  "$($fl_forge show "$fl_tmp/kqk.db" - 28910)|$($fl_forge show "$fl_tmp/kqk.db" - 12456)"
for fl_f in "28910 longer" "12456 swap"; do
  $fl_forge mutate "$fl_tmp/kqk.db" "$fl_tmp/f.db" $fl_f
  fl_run games/chess-endgame.game --db "$fl_tmp/f.db" --pv
  check "--pv through forged record $fl_f: refused" "2|no pv" \
    "$fl_st|$(grep -q '^pv:' "$fl_tmp/out" && grep '^pv:' "$fl_tmp/out" || echo no pv)"
  check "--pv through forged record $fl_f: the message" yes \
    "$(grep -q "^gsolve: error: '$fl_tmp/f.db' is corrupt: a position's record disagrees with the rules" "$fl_tmp/err" && echo yes || cat "$fl_tmp/err")"
done
fl_run games/chess-endgame.game --db "$fl_tmp/kqk.db" --pv
check "--pv from the genuine KQK database: 15 moves" "0 15" \
  "$fl_st $(sed -n 's/^pv: //p' "$fl_tmp/out" | tr ',' '\n' | wc -l | tr -d ' ')"

# Connect Four books are checked likewise (issue 39): a book holds every
# position of 0..N stones from the empty board, up to mirror images, and a
# score below the last level is the one its moves' scores give.  A forged
# score of the empty board (record 0: key 0) was believed: "value: loss,
# score: -64424509440" for the 4x4 draw.  The 4x4 book of depth 2 has 11
# positions: 1 + 2 (the first stone, up to the mirror) are below its last
# level and checkable; the last level's 8 are the searches the book saves.
fl_run games/connect4.game -D width=4 -D height=4 --make-book "$fl_tmp/b2.book" --book-depth 2
check "4x4 book of depth 2: 11 positions" 11 "$(field positions "$(cat "$fl_tmp/out")")"
fl_caught=0
for fl_rec in 0 1 2 3 4 5 6 7 8 9 10; do
  $fl_forge bookscore "$fl_tmp/b2.book" "$fl_tmp/f.book" $fl_rec 5
  fl_run games/connect4.game -D width=4 -D height=4 --book "$fl_tmp/f.book"
  [ $fl_st = 2 ] && grep -q "is corrupt: a position's score disagrees with its moves' scores" "$fl_tmp/err" &&
    fl_caught=$((fl_caught + 1))
done
check "book: every forged score below the last level refused (3 of 11)" 3 $fl_caught
$fl_forge bookscore "$fl_tmp/b2.book" "$fl_tmp/f.book" 0 5
fl_run games/connect4.game -D width=4 -D height=4 --book "$fl_tmp/f.book"
check "book: the empty board's score forged: refused" \
  "2|gsolve: error: '$fl_tmp/f.book' is corrupt: a position's score disagrees with its moves' scores" \
  "$fl_st|$(cat "$fl_tmp/err")"
$fl_forge bookdrop "$fl_tmp/b2.book" "$fl_tmp/f.book" 5
fl_run games/connect4.game -D width=4 -D height=4 --book "$fl_tmp/f.book"
check "book: a position left out: refused" \
  "2|gsolve: error: '$fl_tmp/f.book' is corrupt: a position is missing" "$fl_st|$(cat "$fl_tmp/err")"
fl_run games/connect4.game -D width=4 -D height=4 --book "$fl_tmp/b2.book"
check "book: the genuine one answers" "0 draw" "$fl_st $(field value "$(cat "$fl_tmp/out")")"

# A header's counts bounded by what the file holds: 2^63 positions were
# accepted and reported.  Tic-tac-toe's 765 classes stand for exactly
# 5,478 positions (their orbits).
$fl_forge header "$fl_db" "$fl_tmp/f.db" positions 9223372036854775808
fl_run games/tictactoe.game --db "$fl_tmp/f.db" --dump-db
check "header claiming 2^63 positions: refused" \
  "2|gsolve: error: '$fl_tmp/f.db' is corrupt: its header claims 9223372036854775808 positions, more than its 765 stored ones stand for" \
  "$fl_st|$(cat "$fl_tmp/err")"
$fl_forge header "$fl_db" "$fl_tmp/f.db" positions 5479
fl_run games/tictactoe.game --db "$fl_tmp/f.db"
check "header claiming one position more than the orbits: refused" 2 $fl_st
$fl_forge header "$fl_db" "$fl_tmp/f.db" positions 5478
fl_run games/tictactoe.game --db "$fl_tmp/f.db"
check "header with the orbits' count: read" "0 5478" "$fl_st $(field positions "$(cat "$fl_tmp/out")")"
# Nim through the VM: heaps that may be permuted, whose orbits the VM
# does not count: at most 2^24 positions a class.
fl_run games/nim.game --engine vm --solver retro --db "$fl_tmp/nim.db"
$fl_forge header "$fl_tmp/nim.db" "$fl_tmp/f.db" positions 9223372036854775808
fl_run games/nim.game --engine vm --db "$fl_tmp/f.db"
check "header claiming 2^63 positions (orbits not counted): refused" 2 $fl_st
$fl_forge header "$fl_db" "$fl_tmp/f.db" stored 9223372036854775808
fl_run games/tictactoe.game --db "$fl_tmp/f.db"
check "header claiming 2^63 stored records: refused" \
  "2|gsolve: error: '$fl_tmp/f.db' is corrupt (truncated or checksum mismatch)" "$fl_st|$(cat "$fl_tmp/err")"

rm -rf "$fl_tmp"
