# tests/t_sees.sh -- the built-in sees(A, a, b, v [, g]) (a queen's line
# of sight over cells holding v) and the generator's ray loop for a cell
# argument whose first test is sees(): the same moves as testing every
# cell, in ray order, the same errors, on both tiers.  Sourced by
# tests/run.sh.

se_tmp=$(mktemp -d "${TMPDIR:-/tmp}/gsolve-sees.XXXXXX")
se_cache=$(cd "$BUILD" && pwd)/tests/aot-cache

# --- The value: a1 on 4x4 with a man on b2 and another on c1 ---------------
cat > "$se_tmp/value.game" <<'EOF'
game "Sees";
players A;
board rect(4, 4);
state sq[board]: 0..2;
start { sq[at(1, 1)] = 1; sq[at(2, 0)] = 2; }
move pass() when false { }
nomoves {
  var n = 0;
  var m = 0;
  for c in cells { if sees(sq, at(0, 0), c, 0) { n += 1; } }
  for c in cells { if sees(sq, at(0, 0), c, 0, at(1, 1)) { m += 1; } }
  score n * 100 + m + (sees(sq, at(0, 0), at(0, 0), 0) ? 1000 : 0);
}
EOF
# a2 a3 a4, b1 c1 (c1 holds a man: seen, d1 not), b2 (c3 behind it not):
# 6; with b2 counting as empty, c3 and d4 too: 8; a1 does not see itself.
for se_e in vm compiled; do
  check "sees(): the cells a1 sees over empty cells, then with b2 empty ($se_e)" "608" \
    "$(field score "$(GSOLVE_CACHE=$se_cache gs "$se_tmp/value.game" --engine $se_e)")"
done

# --- The ray loop: the same moves as a loop over every cell ---------------
# games/amazons.game tests sees() first for `to` and `arrow`; with
# `sq[to] == empty` first (a FINDS loop) and for the arrow a test before
# sees(), the generator tries every cell: the same counts.
sed -e 's/&& sees(sq, from, to, empty) && sq\[to\] == empty/\&\& sq[to] == empty \&\& sees(sq, from, to, empty)/' \
    -e 's/&& sees(sq, to, arrow, empty, from) && (sq\[arrow\] == empty || arrow == from)/\&\& (sq[arrow] == empty || arrow == from) \&\& sees(sq, to, arrow, empty, from)/' \
    games/amazons.game > "$se_tmp/cells.game"
check "amazons, tests reordered: sees() tested cell by cell (two SEES)" "2" \
  "$(gs "$se_tmp/cells.game" --dump-bytecode | sed -n '/^generator/,/^legality/p' | grep -c ' SEES ')"
check "amazons: two ray loops (STEP in the generator), no SEES instruction" "0 2" \
  "$(gs games/amazons.game --dump-bytecode | sed -n '/^generator/,/^legality/p' | grep -c ' SEES ') $(gs games/amazons.game --dump-bytecode | sed -n '/^generator/,/^legality/p' | grep -c ' STEP ')"
se_line="g1-f1/e2, a7-d7/g4, f1-f6/f9, d7-b7/e4, j4-e9/b9, d10-d5/d6, f6-d8/g8, j7-h5/i4, a4-c6/b6, d5-g5/h4, d8-f6/e5, g5-d2/j8, c6-c10/c6, h5-h10/f8"
for se_s in "6 2" "10 2"; do
  set -- $se_s
  check "amazons -D size=$1: the ray loops' perft $2 is the cell loops'" \
    "$(field "perft $2" "$(gs "$se_tmp/cells.game" -D size=$1 --perft $2)")" \
    "$(field "perft $2" "$(gs games/amazons.game -D size=$1 --perft $2)")"
done
check "amazons after 14 moves: the ray loops' perft 2 is the cell loops'" \
  "$(field "perft 2" "$(gs "$se_tmp/cells.game" --position "$se_line" --perft 2)")" \
  "$(field "perft 2" "$(gs games/amazons.game --position "$se_line" --perft 2)")"
check "amazons -D size=4: the same value and plies from both generators" \
  "$(gs "$se_tmp/cells.game" -D size=4 | grep -E '^(value|plies)')" \
  "$(gs games/amazons.game -D size=4 | grep -E '^(value|plies)')"
# The order: ray by ray, north first, then clockwise, outwards.
check "amazons: the first moves in ray order (d1 first, north, then its arrows north)" \
  "d1-d2/d3, d1-d2/d4, d1-d2/d5, d1-d2/d6" \
  "$(gs games/amazons.game --position "zz" 2>&1 | sed 's/.*legal: //' | cut -d, -f1-4)"
for se_e in vm compiled; do
  check "amazons after 14 moves, perft 2 ($se_e)" \
    "$(field "perft 2" "$(gs "$se_tmp/cells.game" --position "$se_line" --perft 2 --engine vm)")" \
    "$(field "perft 2" "$(GSOLVE_CACHE=$se_cache gs games/amazons.game --position "$se_line" --perft 2 --engine $se_e)")"
done

# --- Errors: the call's, whether the loop walks rays or tests cells -------
for se_case in "22:" "37:x != origin && "; do
  se_col=${se_case%%:*}
  se_first=${se_case#*:}
  cat > "$se_tmp/err.game" <<EOF
game "Sees errors";
players A;
board rect(3, 3);
state sq[board]: 0..2;
state origin: cell;
move m(x: cell) when ${se_first}sees(sq, origin, x, 0) { sq[x] = 1; }
EOF
  for se_e in vm compiled; do
    GSOLVE_CACHE=$se_cache gs "$se_tmp/err.game" --perft 1 --engine $se_e >/dev/null 2>"$se_tmp/err.out"
    check "sees() from nowhere (${se_first:-first test}, $se_e): status 4" 4 $?
    check "sees() from nowhere (${se_first:-first test}, $se_e): the message" \
      "err.game:6:$se_col: runtime error: cell -1 is off the board in the when condition of move 'm'" \
      "$(head -n 1 "$se_tmp/err.out" | sed 's|.*/err.game|err.game|')"
  done
done
cat > "$se_tmp/types.game" <<'EOF'
game "Sees types";
players A;
board rect(3, 3);
state sq[board]: 0..2;
state full: bool;
move m(x: cell) when sees(sq, at(0, 0), x, true) && !sees(sq, x, at(1, 1), full) { sq[x] = 1; }
move n(x: cell) when sees(full, at(0, 0), x, 0) { sq[x] = 1; }
EOF
check "sees(): a value of another type, in a ray loop and in a test" \
  "types.game:6:44: error: sees() compares values of another type
types.game:6:76: error: sees() compares values of another type
types.game:7:27: error: expected a state array over the board" \
  "$(gs "$se_tmp/types.game" 2>&1 | grep error: | sed 's|.*/types.game|types.game|')"
cat > "$se_tmp/graph.game" <<'EOF'
game "Sees on a graph";
players A;
board graph(3, [0, 1, 1, 2]);
state sq[board]: 0..2;
move m(x: cell) when sees(sq, 0, x, 0) { sq[x] = 1; }
EOF
check "sees() on a graph board" "graph.game:5:22: error: sees() needs a rect board" \
  "$(gs "$se_tmp/graph.game" 2>&1 | grep error: | sed 's|.*/graph.game|graph.game|')"

rm -rf "$se_tmp"
