# The native Connect Four solver's options: every technique turned off
# in turn (--without) and several threads (--threads) give the same exact
# scores as the full solver on Pons' sets; --solve's optimal moves agree
# with --all-moves and with the VM's alpha-beta; opening books made by
# --make-book change no value, and bad books are refused.
PONS=tests/data/connect4/pons
C4=games/connect4.game

if have_data "$PONS"; then
  # Each switch takes effect: the nodes differ from the full solver's.
  # (The full solver is a compilation of its own with every technique on,
  # negamax_plain: a switch it ignored would change no value, only this.)
  full=$(field "mean nodes" "$(gs $C4 --test-set "$PONS/Test_L2_R1" --limit 60 2>&1)")
  for t in anticipation threats centre table lower-bounds symmetry narrowing etc claimeven best-move forced bare-tail odd-threat double-threat windows close-threats; do
    out=$(gs $C4 --without $t --test-set "$PONS/Test_L2_R1" --limit 60 2>&1)
    check "c4 --without $t: L2_R1 first 60 exact" "60 0" "$(field positions "$out") $(field mismatches "$out")"
    # (etc, symmetry and windows, which orders the first 14 plies only,
    # change nothing on these: checked below)
    case $t in etc|symmetry|windows) continue;; esac
    check "c4 --without $t: takes effect (nodes differ from $full)" "yes" \
      "$(awk -v a="$(field "mean nodes" "$out")" -v f="$full" 'BEGIN { print (a != f ? "yes" : a) }')"
  done
  # lanes changes the speed only (the children's threats computed together
  # in AVX2 lanes, where the processor has them): the same nodes, with
  # every other technique (negamax_plain) and without one (negamax_fixed).
  for w in "" "close-threats,"; do
    a=$(gs $C4 ${w:+--without ${w%,}} --test-set "$PONS/Test_L2_R2" --limit 150 2>&1)
    b=$(gs $C4 --without ${w}lanes --test-set "$PONS/Test_L2_R2" --limit 150 2>&1)
    check "c4 --without ${w}lanes: L2_R2 first 150 exact, the same nodes as with lanes ($(field "mean nodes" "$a"))" \
      "0 $(field "mean nodes" "$a")" "$(field mismatches "$b") $(field "mean nodes" "$b")"
  done
  a=$(field "mean nodes" "$(gs $C4 --test-set "$PONS/Test_L1_R1" 2>&1)")
  for t in etc windows; do
    out=$(gs $C4 --without $t --test-set "$PONS/Test_L1_R1" 2>&1)
    check "c4 --without $t: L1_R1 (1000) exact, takes effect (nodes differ from $a)" "0 yes" \
      "$(field mismatches "$out") $(awk -v b="$(field "mean nodes" "$out")" -v f="$a" 'BEGIN { print (b != f ? "yes" : b) }')"
  done
  # symmetry shares entries in the first third of the game (14 stones on
  # 7x6, 6 on 5x4): the sets' positions hardly reach back there, the 5x4
  # board's search does.
  a=$(gs $C4 -D width=5 -D height=4 --solve 2>&1)
  b=$(gs $C4 -D width=5 -D height=4 --solve --without symmetry 2>&1)
  check "c4 --without symmetry: 5x4 a draw, takes effect (nodes $(field nodes "$b") differ from $(field nodes "$a"))" \
    "0 0 yes" "$(field score "$a") $(field score "$b") $(awk -v x="$(field nodes "$a")" -v y="$(field nodes "$b")" 'BEGIN { print (x != y ? "yes" : x) }')"
  out=$(gs $C4 --without threats,lower-bounds,symmetry --test-set "$PONS/Test_L1_R1" --limit 20 2>&1)
  check "c4 --without three at once: L1_R1 first 20 exact" "20 0" "$(field positions "$out") $(field mismatches "$out")"
  # A table of 32 MiB or more (the default 64 too) keeps the positions near
  # the end in a small second one; a smaller one holds them all.
  out=$(gs $C4 --tt-size 16 --test-set "$PONS/Test_L1_R1" --limit 100 2>&1)
  check "c4 --tt-size 16 (one table): L1_R1 first 100 exact" "100 0" "$(field positions "$out") $(field mismatches "$out")"
  out=$(gs $C4 --tt-size 256 --test-set "$PONS/Test_L1_R1" --limit 100 2>&1)
  check "c4 --tt-size 256 (two tables): L1_R1 first 100 exact" "100 0" "$(field positions "$out") $(field mismatches "$out")"
  out=$(gs $C4 --tt-size 256 --threads 2 --test-set "$PONS/Test_L2_R2" --limit 20 2>&1)
  check "c4 --tt-size 256 --threads 2: L2_R2 first 20 exact" "20 0" "$(field positions "$out") $(field mismatches "$out")"
  for n in 2 3; do
    out=$(gs $C4 --threads $n --test-set "$PONS/Test_L1_R1" --limit 100 2>&1)
    check "c4 --threads $n: L1_R1 first 100 exact" "100 0" "$(field positions "$out") $(field mismatches "$out")"
    out=$(gs $C4 --threads $n --weak --test-set "$PONS/Test_L2_R1" --limit 100 2>&1)
    check "c4 --threads $n --weak: L2_R1 first 100" "100 0" "$(field positions "$out") $(field mismatches "$out")"
  done
fi
check "c4 --without: unknown technique" \
  "gsolve: error: --without: unknown technique 'magic' (anticipation, threats, centre, table, lower-bounds, symmetry, narrowing, etc, claimeven, best-move, forced, bare-tail, odd-threat, double-threat, windows, close-threats, lanes)" \
  "$(gs $C4 --without table,magic 2>&1)"
check "c4 --threads 0 refused" "2" "$(gs $C4 --threads 0 >/dev/null 2>&1; echo $?)"
# A stop reaches every thread within a few hundred nodes (each polls its
# flags every 256): the empty 7x6 board stopped after a second, no value.
for n in 1 2; do
  out=$(gs $C4 --threads $n --time-limit 1 2>&1; echo "exit $?")
  check "c4 --threads $n --time-limit 1 on the empty board: stopped, exit 5" "yes" \
    "$(printf '%s' "$out" | grep -q 'time limit of 1 second reached' && printf '%s' "$out" | grep -q 'exit 5' && echo yes)"
done

# A test set line "-" is the empty board (5x4: a draw, checked by the VM).
printf -- '- 0\n' > "$BUILD/c4_empty54.txt"
out=$(gs $C4 -D width=5 -D height=4 --test-set "$BUILD/c4_empty54.txt" 2>&1)
check "c4 test set '-' line: 5x4 empty board" "1 0" "$(field positions "$out") $(field mismatches "$out")"
check "c4 5x4 empty board by the VM: draw" "draw" \
  "$(field value "$(gs $C4 -D width=5 -D height=4 --engine vm --quiet)")"

# --solve: the optimal moves exact, the rest bounded; they must be the
# best moves of --all-moves, of the threaded solver and of the VM.
for pos in "" "3" "3 3" "3 3 2" "2 3 3 4" "1 2 3 4 5" "3 3 3 3 2 4" "5 5 1 2 2 3 4"; do
  base="gs $C4 -D width=5 -D height=4"
  s=$($base --position "$pos" 2>&1)
  a=$($base --position "$pos" --all-moves 2>&1)
  t=$($base --position "$pos" --threads 2 2>&1)
  v=$($base --position "$pos" --engine vm --quiet 2>&1)
  check "c4 5x4 '$pos': --solve and --all-moves agree" "$(field score "$a") $(field best "$a")" \
    "$(field score "$s") $(field best "$s")"
  check "c4 5x4 '$pos': 2 threads agree" "$(field score "$s") $(field best "$s")" "$(field score "$t") $(field best "$t")"
  check "c4 5x4 '$pos': the VM agrees" "$(field score "$v") $(field best "$v")" "$(field score "$s") $(field best "$s")"
done
# The root walks from 0 on positions of at most 3 stones (c4root.h,
# WALK_ALL_UNTIL): its scores against one full-window search, on 6x4
# (a loss for the first player: the walks go up and down from 0).
for pos in "" "1" "3" "3 4" "1 6" "3 4 3" "2 5 1" "6 6 5"; do
  a=$(gs $C4 -D width=6 -D height=4 --position "$pos" 2>&1)
  b=$(gs $C4 -D width=6 -D height=4 --position "$pos" --without narrowing 2>&1)
  check "c4 6x4 '$pos': the walk from 0 and a full-window search agree" "$(field score "$b")" "$(field score "$a")"
done
check "c4 6x4: the empty board is lost, the position 1 won" "-1 1" \
  "$(field score "$(gs $C4 -D width=6 -D height=4 2>&1)") $(field score "$(gs $C4 -D width=6 -D height=4 --position 1 2>&1)")"

# Bounds for the other moves cost less than their exact scores.
s=$(field nodes "$(gs $C4 -D width=5 -D height=4 --position "3 3" 2>&1)")
a=$(field nodes "$(gs $C4 -D width=5 -D height=4 --position "3 3" --all-moves 2>&1)")
check "c4 --solve searches less than --all-moves ($s < $a nodes)" yes "$([ "$s" -lt "$a" ] && echo yes)"

# The static bounds (claimeven widened to paired odd columns, the
# opponent's threat on his follow-up cells) against the search without them, every move, on boards of odd and even heights: positions
# from a fixed pseudo-random sequence (each a legal position not ended).
claim_checked=0
for size in "4 5" "5 5" "6 5" "3 7" "6 4"; do
  w=${size% *}; h=${size#* }
  for i in 1 2 3 4 5 6 7 8 9 10 11 12; do
    pos=$(awk -v w="$w" -v seed="$i$w$h" 'BEGIN { x = seed * 7919 + 13; n = 4 + seed % 7;
      for (k = 0; k < n; k++) { x = (x * 1103515245 + 12345) % 2147483648; printf "%d ", 1 + int(x / 65536) % w } }')
    a=$(gs $C4 -D width="$w" -D height="$h" --position "$pos" --all-moves 2>&1)
    [ -n "$(field score "$a")" ] || continue
    b=$(gs $C4 -D width="$w" -D height="$h" --position "$pos" --all-moves --without claimeven,odd-threat,double-threat 2>&1)
    check "c4 ${w}x$h '$pos': claimeven, odd-threat and double-threat change no value" "$(printf '%s\n' "$b" | grep -v -e '^nodes' -e '^seconds')" \
      "$(printf '%s\n' "$a" | grep -v -e '^nodes' -e '^seconds')"
    claim_checked=$((claim_checked + 1))
  done
done
check "c4 claimeven cross-check: enough legal positions ($claim_checked)" yes "$([ "$claim_checked" -ge 40 ] && echo yes)"

# make test-full: the same cross-check wider, 40 seeds on nine sizes, up
# to half the board filled (where the odd-threat rule fires most).
if [ -n "$GSOLVE_FULL" ]; then
  wide=0; wide_bad=0
  for size in "4 5" "5 5" "6 5" "3 7" "6 4" "5 4" "4 6" "7 4" "5 6"; do
    w=${size% *}; h=${size#* }
    for i in $(seq 40); do
      pos=$(awk -v w="$w" -v h="$h" -v seed="$i$w$h" 'BEGIN { x = seed * 7919 + 13; n = 3 + seed % (w * h / 2);
        for (k = 0; k < n; k++) { x = (x * 1103515245 + 12345) % 2147483648; printf "%d ", 1 + int(x / 65536) % w } }')
      a=$(gs $C4 -D width="$w" -D height="$h" --position "$pos" --all-moves 2>&1 | grep -v -e '^nodes' -e '^seconds')
      printf '%s\n' "$a" | grep -q '^score' || continue
      b=$(gs $C4 -D width="$w" -D height="$h" --position "$pos" --all-moves --without claimeven,odd-threat,double-threat 2>&1 |
          grep -v -e '^nodes' -e '^seconds')
      wide=$((wide + 1))
      [ "$a" = "$b" ] || { wide_bad=$((wide_bad + 1)); echo "  differs: ${w}x$h '$pos'"; }
    done
  done
  check "c4 static bounds, wide cross-check: $wide positions, none differs" "0" "$wide_bad"
  check "c4 static bounds, wide cross-check: enough legal positions ($wide)" yes "$([ "$wide" -ge 250 ] && echo yes)"
fi

# double-threat: a move that leaves the mover two cells to win on at once
# (5x4, stones in columns 2 and 3 of the bottom row: column 4 threatens 1
# and 5) wins on his next stone; the solver answers at the root, as the VM
# does by search, and with far fewer nodes than without the rule.
out=$(gs $C4 -D width=5 -D height=4 --position "2 2 3 3" 2>&1)
vm=$(gs $C4 -D width=5 -D height=4 --position "2 2 3 3" --engine vm --quiet 2>&1)
check "c4 double-threat 5x4 '2 2 3 3': score and best move as the VM's" \
  "$(field score "$vm") $(field best "$vm")" "$(field score "$out") $(field best "$out")"
check "c4 double-threat 5x4 '2 2 3 3': score 7 (a win with the 7th stone)" "7" "$(field score "$out")"
# The other case: a move that leaves one cell to win on at once with
# another right above it (the opponent must fill the first, the second is
# then ours).  Positions found by a search over random games on 5x4 where
# this is the only way to win with the next stone but one.
printf '41114312 5\n11211222 5\n' > "$BUILD/c4_stacked.txt"
for pos in "4 1 1 1 4 3 1 2" "1 1 2 1 1 2 2 2"; do
  out=$(gs $C4 -D width=5 -D height=4 --position "$pos" 2>&1)
  vm=$(gs $C4 -D width=5 -D height=4 --position "$pos" --engine vm --quiet 2>&1)
  check "c4 double-threat (stacked) 5x4 '$pos': score and best move as the VM's" \
    "$(field score "$vm") $(field best "$vm")" "$(field score "$out") $(field best "$out")"
done
a=$(gs $C4 -D width=5 -D height=4 --test-set "$BUILD/c4_stacked.txt" 2>&1)
b=$(gs $C4 -D width=5 -D height=4 --without double-threat --test-set "$BUILD/c4_stacked.txt" 2>&1)
check "c4 double-threat (stacked): exact, answered with fewer nodes ($(field 'mean nodes' "$a") < $(field 'mean nodes' "$b"))" \
  "0 0 yes" "$(field mismatches "$a") $(field mismatches "$b") $(awk -v a="$(field 'mean nodes' "$a")" -v b="$(field 'mean nodes' "$b")" 'BEGIN { print (a < b) ? "yes" : "no" }')"
if have_data "$PONS"; then
  a=$(gs $C4 --test-set "$PONS/Test_L1_R1" --limit 100 2>&1)
  b=$(gs $C4 --without double-threat --test-set "$PONS/Test_L1_R1" --limit 100 2>&1)
  check "c4 double-threat: L1_R1 first 100 exact, fewer nodes ($(field 'mean nodes' "$a") < $(field 'mean nodes' "$b"))" \
    "0 yes" "$(field mismatches "$a") $(awk -v a="$(field 'mean nodes' "$a")" -v b="$(field 'mean nodes' "$b")" 'BEGIN { print (a < b) ? "yes" : "no" }')"
fi

# Opening books.
BOOK=$BUILD/c4_54.book
rm -f "$BOOK"
out=$(gs $C4 -D width=5 -D height=4 --make-book "$BOOK" --book-depth 6 --quiet 2>&1)
check "c4 --make-book 5x4 depth 6: stones" "0..6" "$(field stones "$out")"
check "c4 --make-book 5x4 depth 6: positions" "yes" "$([ "$(field positions "$out")" -gt 500 ] && echo yes)"
out=$(gs $C4 -D width=5 -D height=4 --book "$BOOK" --stats 2>&1)
check "c4 --book: empty board still a draw" "draw" "$(field value "$out")"
check "c4 --book: answered from the book" "yes" \
  "$(printf '%s' "$out" | grep -q 'book hits [1-9]' && echo yes)"
for pos in "3" "3 3" "2 3 3 4" "1 2 3 4 5" "3 3 3 3 2 4" "5 5 1 2 2 3 4" "1 1 1 1" "4 4 2 2 3"; do
  base="gs $C4 -D width=5 -D height=4 --position"
  a=$($base "$pos" --all-moves 2>&1 | sed -n '/^move/,$p')
  b=$($base "$pos" --all-moves --book "$BOOK" 2>&1 | sed -n '/^move/,$p')
  check "c4 5x4 '$pos': every move's value the same with the book" "$a" "$b"
done
check "c4 --book for another board size" \
  "gsolve: error: '$BOOK' is a book for 5x4, not 7x6" "$(gs $C4 --book "$BOOK" 2>&1)"
head -c 100 "$BOOK" > "$BUILD/c4_cut.book"
check "c4 truncated book refused" \
  "gsolve: error: '$BUILD/c4_cut.book' is corrupt (truncated, altered or checksum mismatch)" \
  "$(gs $C4 -D width=5 -D height=4 --book "$BUILD/c4_cut.book" 2>&1)"
cp "$BOOK" "$BUILD/c4_bad.book"
printf '\377' | dd of="$BUILD/c4_bad.book" bs=1 seek=60 conv=notrunc 2>/dev/null
check "c4 altered book refused" \
  "gsolve: error: '$BUILD/c4_bad.book' is corrupt (truncated, altered or checksum mismatch)" \
  "$(gs $C4 -D width=5 -D height=4 --book "$BUILD/c4_bad.book" 2>&1)"
check "c4 a game file is no book" "gsolve: error: '$C4' is not a gsolve Connect Four book" \
  "$(gs $C4 --book $C4 2>&1)"
check "c4 missing book: exit 6" "6" "$(gs $C4 --book "$BUILD/no-such.book" >/dev/null 2>&1; echo $?)"
check "c4 --book-depth without --make-book" "gsolve: error: --book-depth goes with --make-book FILE" \
  "$(gs $C4 --book-depth 3 2>&1)"
check "c4 --limit without --test-set (it ran a full solve)" "gsolve: error: --limit goes with --test-set FILE" \
  "$(gs $C4 --limit 5 2>&1)"
check "c4 --zero-based without --test-set" "gsolve: error: --zero-based goes with --test-set FILE" \
  "$(gs $C4 --zero-based 2>&1)"
check "c4 --book-depth 0 without --make-book" "gsolve: error: --book-depth goes with --make-book FILE" \
  "$(gs $C4 --book-depth 0 2>&1)"
# --book-depth 0: the empty board alone (it made a depth-4 book: QA, session 8).
out=$(gs $C4 -D width=5 -D height=4 --make-book "$BUILD/b0.book" --book-depth 0 --quiet 2>&1)
check "c4 --make-book --book-depth 0: the empty board alone" "0..0 1" \
  "$(field stones "$out") $(field positions "$out")"
# --time-limit stops a book while its levels are listed (it ran 7 s past
# a 1 s limit at depth 12), and the message counts the nodes searched
# (it said 0).  Under a loaded machine the stop lands up to a few tenths
# late, so the bound is 5 s: well below the 8 s of the bug.
out=$(gs $C4 --make-book "$BUILD/b12.book" --book-depth 12 --time-limit 1 --quiet 2>&1)
check "c4 --make-book --time-limit 1 while listing: stops at once" yes \
  "$(printf '%s' "$out" | grep -q -E '^gsolve: error: time limit of 1 second reached after [0-9]+ nodes and [1-4]\.[0-9][0-9] seconds; no result$' && echo yes || echo "$out")"
out=$(gs $C4 --make-book "$BUILD/b8.book" --book-depth 8 --time-limit 1 --quiet 2>&1)
check "c4 --make-book --time-limit 1 while solving: the nodes counted" yes \
  "$(printf '%s' "$out" | grep -q -E '^gsolve: error: time limit of 1 second reached after [1-9][0-9]* nodes and [1-4]\.[0-9][0-9] seconds; no result$' && echo yes || echo "$out")"
check "c4 --make-book stopped: no book written" "no" "$([ -e "$BUILD/b8.book" ] || [ -e "$BUILD/b12.book" ] && echo yes || echo no)"
check "c4 --make-book from a position" \
  "gsolve: error: --make-book starts from the empty board (no --position)" \
  "$(gs $C4 --make-book "$BUILD/x.book" --position 4 2>&1)"
check "c4 --make-book needs Connect Four" \
  "gsolve: error: --make-book needs the native Connect Four engine (connect4.game, k = 4)" \
  "$(gs games/nim.game --make-book "$BUILD/x.book" 2>&1)"

# The table's compact keys never mix two positions (tests/unit/test_c4table.c).
unit "c4 table: exact keys, doublings, clear" "$BUILD/test_c4table"
