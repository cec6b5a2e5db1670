# Retrograde analysis in the compact form (--compact, src/retro/retro_compact.c):
# the same answers as the hash form, the published Connect Four position
# counts, a table of a few bytes a position, random positions answered from
# the table equal to the native Connect Four solver's values, its database
# files, and the refusals (games it cannot take, --memory, --max-positions,
# gsolve-mpi).

# The Elias-Fano sets the layers are kept in (tests/unit/test_efset.c).
unit "efset: ranks, misses, order, sets read back, parts refused" "$BUILD/test_efset"

# json_of ARGS: the root's and every move's value, without the timing.
json_of() { gs "$@" --all-moves --json 2>&1 | sed 's/"seconds":[^,]*,//; s/"engine":[^,]*,//'; }
# stats_of ARGS: --stats' counts and histograms (not the example positions,
# which each form picks in its own order, nor the memory and time).
stats_of() { gs "$@" --stats 2>&1 >/dev/null | grep -E "won|lost|positions [0-9]|longest" | sed 's/, e\.g\..*//'; }

for args in "games/tictactoe.game" "games/tictactoe.game -D m=4 -D n=3" "games/hexapawn.game" \
            "games/connect4.game -D width=4 -D height=4 --engine vm" \
            "games/connect4.game -D width=4 -D height=4 --engine vm --position 2" \
            "games/connect4.game -D width=4 -D height=3 --engine vm --no-symmetry"; do
  # shellcheck disable=SC2086
  check "compact = hash form, every move: $args" "$(json_of $args --solver retro)" "$(json_of $args --solver retro --compact)"
  # shellcheck disable=SC2086
  check "compact = hash form, --stats counts: $args" "$(stats_of $args --solver retro)" "$(stats_of $args --solver retro --compact)"
done

# Connect Four 4x4: 161,029 positions (John Tromp's table of Connect Four
# position counts; the native engine's hash-form count agrees), a draw.
out=$(gs games/connect4.game -D width=4 -D height=4 --engine vm --solver retro --compact)
check "c4 4x4 compact: positions (Tromp)" 161029 "$(field positions "$out")"
check "c4 4x4 compact: native engine's count" "$(field positions "$(gs games/connect4.game -D width=4 -D height=4 --solver retro)")" "$(field positions "$out")"
check "c4 4x4 compact: a draw" draw "$(field value "$out")"
# The table: well under 4 bytes a position (keys and values; 2.3 measured).
bytes=$(gs games/connect4.game -D width=4 -D height=4 --engine vm --solver retro --compact --stats 2>&1 >/dev/null | sed -n 's/.*; \([0-9.]*\) MiB in all/\1/p')
check "c4 4x4 compact: table under 4 bytes a position" yes "$(awk -v m="$bytes" 'BEGIN { print (m * 1048576 / 161029 <= 4) ? "yes" : "no" }')"

# Random positions answered from the table = the native solver's values.
if [ -x "$BUILD/compact_query" ]; then
  set=${TMPDIR:-/tmp}/gsolve_compact_$$.txt
  "$BUILD/compact_query" games/connect4.game 300 11 -D width=4 -D height=4 >"$set" 2>/dev/null
  check "c4 4x4 compact: 300 positions queried" 300 "$(wc -l <"$set" | tr -d ' ')"
  out=$(gs games/connect4.game -D width=4 -D height=4 --engine native --test-set "$set" 2>&1)
  check "c4 4x4 compact: 300 table values = native solver's" 0 "$(field mismatches "$out")"
  rm -f "$set"
else
  check "compact_query binary exists (make test builds it)" yes no
fi

# Refusals: an engine that cannot set positions from
# keys, a memory limit (refused with the figure).
# (A game with cycles takes the form with cycles: tests/t_compact_cycles.sh.)
out=$(gs games/chess-endgame.game -D size=5 -D material=KQK --solver retro --compact --stats 2>&1)
check "compact on a game with cycles: the form with cycles" yes \
  "$(printf '%s' "$out" | grep -q "^stats: compact form with cycles" && echo yes)"
out=$(gs games/connect4.game -D width=4 -D height=4 --engine native --solver retro --compact 2>&1)
check "compact refuses --engine native, names the flag" yes "$(printf '%s' "$out" | grep -q -- "--engine vm" && echo yes)"

# The compact database file: written by --db, read back by --solver db
# (the same answers as the hash form's file), --dump-db the same counts,
# several times smaller; a damaged file is refused.
db=${TMPDIR:-/tmp}/gsolve_compact_$$.db
hdb=${TMPDIR:-/tmp}/gsolve_compact_hash_$$.db
c44="games/connect4.game -D width=4 -D height=4 --engine vm"
# shellcheck disable=SC2086
gs $c44 --solver retro --compact --db "$db" >/dev/null
# shellcheck disable=SC2086
gs $c44 --solver retro --db "$hdb" >/dev/null
for pos in "2 1" "1 1 2 2" "3 2 3 2 4"; do
  # shellcheck disable=SC2086
  check "compact file = hash file, after $pos" "$(json_of $c44 --solver db --db "$hdb" --position "$pos")" \
    "$(json_of $c44 --solver db --db "$db" --position "$pos")"
done
# shellcheck disable=SC2086
check "compact file: --dump-db = the hash file's" "$(gs $c44 --dump-db --db "$hdb")" "$(gs $c44 --dump-db --db "$db")"
check "compact file: under a third of the hash file" yes \
  "$(awk -v a="$(wc -c <"$db")" -v b="$(wc -c <"$hdb")" 'BEGIN { print (3 * a < b) ? "yes" : "no" }')"
# Format 1 (the layers from the root down, before session 23's format 2)
# is still read: the same answers as the hash form's file.
gs games/tictactoe.game --solver retro --db "$hdb.t" >/dev/null
for pos in "" "b2" "a1 b2 c3"; do
  check "compact file of format 1 = hash form's file, at '$pos'" \
    "$(json_of games/tictactoe.game --solver db --db "$hdb.t" --position "$pos")" \
    "$(json_of games/tictactoe.game --solver db --db tests/data/compact/tictactoe_v1.gcdb --position "$pos")"
done
check "compact file of format 1: --dump-db = the hash form's file" \
  "$(gs games/tictactoe.game --dump-db --db "$hdb.t")" \
  "$(gs games/tictactoe.game --dump-db --db tests/data/compact/tictactoe_v1.gcdb)"
rm -f "$hdb.t"
# Read from a stream (a pipe: no second look at its first bytes).
# shellcheck disable=SC2086
check "compact file read from a pipe" "$(json_of $c44 --solver db --db "$hdb" --position "2 1")" \
  "$(cat "$db" | json_of $c44 --solver db --db /dev/stdin --position "2 1")"
# A byte changed: the checksum refuses it.
printf 'U' | dd of="$db" bs=1 seek=3000 conv=notrunc 2>/dev/null
# shellcheck disable=SC2086
out=$(gs $c44 --solver db --db "$db" 2>&1)
check "compact file damaged: exit 2" 2 $?
check "compact file damaged: message" "gsolve: error: '$db' is corrupt" "$out"
rm -f "$db" "$hdb"
out=$(gs games/connect4.game -D width=5 -D height=4 --engine vm --solver retro --compact --memory 1 2>&1)
check "compact over --memory: exit 5" 5 $?
# Refused as early as it is sure: once two adjacent layers' sets and a
# bit of value for each of their positions exceed it (layer 13 of 21),
# the layers before already on disk.
check "compact over --memory: the figure and the flag" yes "$(printf '%s' "$out" | grep -q "needs about [0-9.]* MiB at least, to label its two largest adjacent layers so far at layer 13 (577686 positions so far, the other layers on disk), over the memory limit of 1 MiB; raise --memory" && echo yes)"

# The hash form: its labelling's reverse graph is counted before it is
# allocated (4x4: 8 MiB of positions, 1 MiB more for the labels).
out=$(gs games/connect4.game -D width=4 -D height=4 --engine vm --solver retro --memory 10 2>&1)
check "hash form: labels over --memory refused before allocation: exit 5" 5 $?
check "hash form: labels over --memory: the figure and the flags" yes \
  "$(printf '%s' "$out" | grep -q "the labelling needs about 1 MiB more (the reverse graph of 152347 moves) on top of the 8 MiB the 80541 stored positions hold: over the memory limit of 10 MiB; raise --memory (or, try --compact: a few bytes a position; or spread the table over processes with gsolve-mpi)" && echo yes)"

# Layers on disk (--spill DIR; automatic when the table does not fit):
# the same answers, --pv, counts and database bytes as all in memory, the
# layers read back two at a time; no file left in DIR.
sp=${TMPDIR:-/tmp}/gsolve_spill_$$
mkdir -p "$sp"
for args in "games/tictactoe.game" "$c44"; do
  # shellcheck disable=SC2086
  check "layers on disk = in memory, every move and --pv: $args" "$(json_of $args --solver retro --compact --pv)" \
    "$(json_of $args --solver retro --compact --pv --spill "$sp")"
  # shellcheck disable=SC2086
  check "layers on disk = in memory, --stats counts: $args" "$(stats_of $args --solver retro --compact)" \
    "$(stats_of $args --solver retro --compact --spill "$sp")"
done
# shellcheck disable=SC2086
gs $c44 --solver retro --compact --db "$sp/mem.db" >/dev/null
# shellcheck disable=SC2086
gs $c44 --solver retro --compact --spill "$sp" --db "$sp/disk.db" >/dev/null
check "layers on disk: the database written as they finish = the one written at the end" yes \
  "$(cmp -s "$sp/mem.db" "$sp/disk.db" && echo yes)"
check "layers on disk: no temporary file left" "disk.db mem.db" "$(ls "$sp" | tr '\n' ' ' | sed 's/ $//')"
rm -f "$sp/disk.db" "$sp/mem.db"
# shellcheck disable=SC2086
out=$(gs $c44 --solver retro --compact --spill "$sp" --stats 2>&1 >/dev/null)
check "layers on disk: --stats' estimate line" yes \
  "$(printf '%s\n' "$out" | grep -q "^stats: compact form's memory: the labels estimated at [0-9.]* MiB before they were allocated (layers on disk" && echo yes)"
# The gathering set no larger than the layer being expanded: the keys go
# to disk in sorted runs, merged into the layer (the same database above).
check "layers on disk: the gathered keys in sorted runs" yes \
  "$(printf '%s\n' "$out" | grep -q "; [0-9]* sorted runs of gathered keys on disk$" && echo yes)"
# --compact without --engine: the rules' engine, not the native one
# (which cannot pack keys; it was refused, session 24).
out=$(gs games/connect4.game -D width=4 -D height=3 --solver retro --compact --stats 2>&1)
check "--compact, engine not named: the VM instead of the native engine, said" \
  "0 gsolve: note: the native engine does not pack positions into keys (--compact); using the VM|vm|draw" \
  "$? $(printf '%s\n' "$out" | head -n 1)|$(field engine "$out")|$(field value "$out")"
# --max-positions with the keys in sorted runs: they were not counted, so
# 80,000 let all 80,541 stored positions through (session 24).
# shellcheck disable=SC2086
out=$(gs $c44 --solver retro --compact --spill "$sp" --max-positions 80000 2>&1 >/dev/null)
check "layers on disk: --max-positions 80000 of 80541 stored refused" \
  "5 gsolve: error: more than 80000 positions (--max-positions)" "$? $out"
# shellcheck disable=SC2086
out=$(gs $c44 --solver retro --compact --spill "$sp/none" 2>&1)
check "--spill into a missing folder: exit 6" 6 $?
check "--spill into a missing folder: message" yes \
  "$(printf '%s' "$out" | grep -q "cannot create a temporary file in '$sp/none' for the compact table's layers on disk" && echo yes)"
# Stopped (--time-limit) with its layers on disk and --db: no database,
# no temporary file left.
out=$(gs games/connect4.game -D width=5 -D height=4 --engine vm --solver retro --compact --spill "$sp" --db "$sp/stopped.db" --time-limit 1 2>&1)
check "layers on disk, stopped: exit 5" 5 $?
check "layers on disk, stopped: nothing left in the folder" "" "$(ls "$sp")"

# make test-full: Connect Four 5x4 (3,945,711 positions, 21 layers, the
# gathered keys in over a hundred sorted runs): on disk = in memory.
if [ -n "$GSOLVE_FULL" ]; then
  c54="games/connect4.game -D width=5 -D height=4 --engine vm"
  # shellcheck disable=SC2086
  out=$(gs $c54 --solver retro --compact --stats --db "$sp/mem54.db" 2>&1 | grep -E "^(value|positions):|won|lost|longest")
  # shellcheck disable=SC2086
  check "c4 5x4 layers on disk = in memory: value, counts, histograms" "$out" \
    "$(gs $c54 --solver retro --compact --stats --spill "$sp" --db "$sp/disk54.db" 2>&1 | grep -E "^(value|positions):|won|lost|longest")"
  check "c4 5x4 layers on disk: the same database" yes "$(cmp -s "$sp/mem54.db" "$sp/disk54.db" && echo yes)"
  # Under --memory 4 (the table all in memory: 8 MiB) the layers go to
  # disk by themselves, and the answer and counts are the same.
  # shellcheck disable=SC2086
  out4=$(gs $c54 --solver retro --compact --stats --memory 4 2>&1)
  check "c4 5x4 --memory 4: layers on disk by themselves, the same counts" "$out" \
    "$(printf '%s\n' "$out4" | grep -E "^(value|positions):|won|lost|longest")"
  check "c4 5x4 --memory 4: the estimate says so" yes \
    "$(printf '%s\n' "$out4" | grep -q "the labels estimated at 2.8 MiB before they were allocated (layers on disk; 8.0 MiB all in memory" && echo yes)"
fi
rm -rf "$sp"

out=$(gs games/connect4.game -D width=4 -D height=4 --engine vm --solver retro --compact --max-positions 1000 2>&1)
check "compact over --max-positions: exit 5" 5 $?
check "compact over --max-positions: message" "gsolve: error: more than 1000 positions (--max-positions)" "$out"

# --compact and --spill are the retro solver's: refused elsewhere (they did
# nothing, silently), and --spill without --compact.
out=$(gs games/tictactoe.game --solver alphabeta --compact 2>&1)
check "--compact with alphabeta: refused" "2 gsolve: error: --compact is an option of the retro solver; the alphabeta solver does not use it" "$? $out"
out=$(gs games/tictactoe.game --solver retro --spill "${TMPDIR:-/tmp}" 2>&1)
check "--spill without --compact: refused" "2 gsolve: error: --spill DIR keeps the compact form's layers on disk: it goes with --compact" "$? $out"
# The hash form over --memory names --compact where the engine can take it.
out=$(gs games/connect4.game -D width=4 -D height=4 --engine vm --solver retro --memory 1 2>&1)
check "hash form over --memory: suggests --compact" yes "$(printf '%s' "$out" | grep -q "raise --memory (or, try --compact" && echo yes)"

# make test-full: Connect Four 5x5 (69,763,700 positions, a draw) and 6x4
# (94,910,577, a loss for the first player: score -1, the second player's
# win with the last stone), published counts (Tromp), at most 4 bytes a
# position resident (the process's peak, program included), 1,000 random
# positions each equal to the native solver's value.  The longest
# distances were cross-checked against the hash form (--solver retro
# without --compact: 3.6 GB resident for 5x5).
if [ -n "$GSOLVE_FULL" ] && [ -x "$BUILD/compact_query" ]; then
  # width height positions longest-distance longest-win-Yellow longest-win-Red score
  for size in "5 5 69763700 23 23 21 0" "6 4 94910577 24 19 23 -1"; do
    # shellcheck disable=SC2086
    set -- $size
    set=${TMPDIR:-/tmp}/gsolve_compact_$$.txt
    fig=$(nice "$BUILD/compact_query" games/connect4.game 1000 7 -D width=$1 -D height=$2 2>&1 >"$set")
    check "c4 ${1}x$2 compact: positions (Tromp)" "$3" "$(printf '%s\n' "$fig" | sed -n 's/^positions //p')"
    check "c4 ${1}x$2 compact: the value (the native solver's)" "$7" "$(printf '%s\n' "$fig" | sed -n 's/^score //p')"
    check "c4 ${1}x$2 compact: longest distance, longest wins (hash form's)" "$4 $5 $6" \
      "$(printf '%s\n' "$fig" | sed -n 's/^longest //p; s/^longest_win_0 //p; s/^longest_win_1 //p' | tr '\n' ' ' | sed 's/ $//')"
    rss=$(printf '%s\n' "$fig" | sed -n 's/^peak_rss_bytes //p')
    check "c4 ${1}x$2 compact: at most 4 bytes a position resident" yes \
      "$(awk -v r="$rss" -v n="$3" 'BEGIN { print (r <= 4 * n) ? "yes" : "no" }')"
    out=$(gs games/connect4.game -D width=$1 -D height=$2 --engine native --test-set "$set" 2>&1)
    check "c4 ${1}x$2 compact: 1000 table values = native solver's" "1000 0" "$(field positions "$out") $(field mismatches "$out")"
    rm -f "$set"
  done
fi

# gsolve-mpi distributes the compact form (tests/t_mpi.sh checks it
# against gsolve's, and says when Open MPI is missing): solved once, over
# the ranks.
if [ "$BUILD" != build-asan ] && [ -x ./gsolve-mpi ] && command -v mpirun >/dev/null 2>&1; then
  out=$(OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_mpi_yield_when_idle=1 \
        OMPI_MCA_btl_vader_single_copy_mechanism=none \
        mpirun --oversubscribe -np 2 ./gsolve-mpi games/tictactoe.game --solver retro --compact 2>/dev/null)
  check "gsolve-mpi solves --compact: tic-tac-toe's value and stored positions" "draw 765" \
    "$(field value "$out") $(field stored "$out")"
fi
# --stats of a compact run: its memory in all, never the hash form's "bytes
# per stored position plus 16 per move" (it keeps no moves).
out=$(gs games/connect4.game -D width=4 -D height=4 --engine vm --solver retro --compact --stats 2>&1 >/dev/null)
check "compact --stats: no per-move bytes, the compact form's own line" "0 1" \
  "$(printf '%s\n' "$out" | grep -c 'plus 16 per move') $(printf '%s\n' "$out" | grep -c '^stats: compact form: 17 layers')"

# Forged compact files found by fuzz_db (issue 39): a key out of its slot's
# range is corrupt (it stopped --dump-db with a rule's runtime error, exit
# 4), and a score width of 2^32 - 16 is corrupt (a negative value width:
# an allocation of 2^61 bytes).  Both carry a right checksum.
out=$(gs fuzz/db_games/tictactoe32.game --engine vm --dump-db --db fuzz/corpus_db/crash-compact-badkey-9be85f0c 2>&1)
check "forged compact file, a key out of range: corrupt, exit 2" \
  "2 gsolve: error: 'fuzz/corpus_db/crash-compact-badkey-9be85f0c' is corrupt: a key that is not a position of the game (filled is 7, outside its range 0..6)" \
  "$? $out"
out=$(gs fuzz/db_games/tictactoe32.game --engine vm --dump-db --db fuzz/corpus_db/crash-compact-sbits-08233a10 2>&1)
check "forged compact file, a negative score width: corrupt, exit 2" \
  "2 gsolve: error: 'fuzz/corpus_db/crash-compact-sbits-08233a10' is corrupt" "$? $out"
