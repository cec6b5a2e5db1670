# Symmetry groups given by generators (docs/language.md, section 4.14):
# `symmetry cells PERM;` and `symmetry nodes PERM;` on rect, graph and
# edges boards.  The canonical counts are checked two ways (the declared
# symmetries against the same group as generators; gsolve against an
# orbit count by Burnside's lemma in tests/sym_orbits.py), and every solver
# that reduces by symmetry (count, retro, value iteration, the database)
# gives the same values with and without it (--no-symmetry).  The examples
# are docs/examples/sim.game and dots-*.game; their published values are
# in their headers.  GSOLVE_FULL adds Sim (2.2 million positions) and the
# larger Dots and Boxes boards.

sg_tmp=$(mktemp -d "${TMPDIR:-/tmp}/gsolve-sym.XXXXXX")

# moves_of ARGS: value and plies of every legal move, as JSON.
sg_moves() { gs "$@" --all-moves --json | sed 's/.*"moves"://'; }
sg_root() { out=$(gs "$@"); echo "$(field value "$out") $(field score "$out") $(field plies "$out")"; }

# Tic-tac-toe: the 8 symmetries of the square as generators (a mirror as
# an image list, a quarter turn as cycles) give the group of `symmetry
# mirror; flip; rotate;`: 765 positions of 5,478 up to symmetry.
sed -e 's/^symmetry mirror;/symmetry cells [2, 1, 0, 5, 4, 3, 8, 7, 6];/' -e '/^symmetry flip;/d' \
    -e 's/^symmetry rotate;.*/symmetry cells (0, 2, 8, 6)(1, 5, 7, 3);/' games/tictactoe.game > "$sg_tmp/ttt.game"
check "tictactoe generators: the two lines replaced" 2 "$(grep -c '^symmetry cells' "$sg_tmp/ttt.game")"
out=$(gs "$sg_tmp/ttt.game" --count)
check "tictactoe generators: canonical 765" 765 "$(field canonical "$out")"
check "tictactoe generators: canonical = mirror, flip, rotate" \
  "$(field canonical "$(gs games/tictactoe.game --count)")" "$(field canonical "$out")"
check "tictactoe generators: a group of 8" "; symmetry group: 8 board element(s), 0 permutable array(s)" \
  "$(gs "$sg_tmp/ttt.game" --dump-bytecode | grep '^; symmetry')"
out=$(gs "$sg_tmp/ttt.game" --solver retro)
check "tictactoe generators retro: stored 765, a draw in 9" "765 draw 9" \
  "$(field stored "$out") $(field value "$out") $(field plies "$out")"
for pos in "" "b2" "a1 b2"; do
  check "tictactoe generators: retro = retro --no-symmetry after '$pos'" \
    "$(sg_moves "$sg_tmp/ttt.game" --position "$pos" --solver retro --no-symmetry)" \
    "$(sg_moves "$sg_tmp/ttt.game" --position "$pos" --solver retro)"
done
# A mirror alone is a group of 2.
sed -e '/^symmetry flip;/d' -e '/^symmetry rotate;/d' \
    -e 's/^symmetry mirror;/symmetry cells (0, 2)(3, 5)(6, 8);/' games/tictactoe.game > "$sg_tmp/ttt2.game"
check "tictactoe, one mirror as cycles: a group of 2" "; symmetry group: 2 board element(s), 0 permutable array(s)" \
  "$(gs "$sg_tmp/ttt2.game" --dump-bytecode | grep '^; symmetry')"
sed -e '/^symmetry flip;/d' -e '/^symmetry rotate;/d' games/tictactoe.game > "$sg_tmp/ttt3.game"
check "tictactoe, one mirror: canonical = symmetry mirror" \
  "$(field canonical "$(gs "$sg_tmp/ttt3.game" --count)")" "$(field canonical "$(gs "$sg_tmp/ttt2.game" --count)")"

# Dots and Boxes 2 x 2 boxes (edges board, node permutations acting on
# the lines): published, the first player wins; gsolve: by 2 (3-1).
d22=docs/examples/dots-2x2.game
check "dots 2x2: a group of 8" "; symmetry group: 8 board element(s), 0 permutable array(s)" \
  "$(gs $d22 --dump-bytecode | grep '^; symmetry')"
out=$(gs $d22 --solver retro)
check "dots 2x2 retro: a first-player win by 2" "win 2" "$(field value "$out") $(field score "$out")"
check "dots 2x2 retro: 5349 positions, 756 stored" "5349 756" "$(field positions "$out") $(field stored "$out")"
check "dots 2x2: retro = retro --no-symmetry, every move" \
  "$(sg_moves $d22 --solver retro --no-symmetry)" "$(sg_moves $d22 --solver retro)"
check "dots 2x2: retro = alphabeta" "$(sg_root $d22 --solver alphabeta)" "$(sg_root $d22 --solver retro)"
check "dots 2x2: retro = retro --no-symmetry after 0-1 4-7" \
  "$(sg_moves $d22 --position "0-1 4-7" --solver retro --no-symmetry)" "$(sg_moves $d22 --position "0-1 4-7" --solver retro)"
check "dots 2x2: positions and canonical = Burnside's count" "$(python3 tests/sym_orbits.py dots 2 2)" \
  "$(out=$(gs $d22 --count); echo "$(field positions "$out") $(field canonical "$out")")"
# The database stores canonical forms; a lookup answers as the solve did.
gs $d22 --solver retro --db "$sg_tmp/d22.db" >/dev/null
check "dots 2x2: --db lookup = retro, after 0-1" \
  "$(sg_moves $d22 --position "0-1" --solver retro)" "$(sg_moves $d22 --position "0-1" --db "$sg_tmp/d22.db")"

# Dots and Boxes 3 x 2: a group of 4 (no quarter turn on a rectangle).
d32=docs/examples/dots-3x2.game
check "dots 3x2: a group of 4" "; symmetry group: 4 board element(s), 0 permutable array(s)" \
  "$(gs $d32 --dump-bytecode | grep '^; symmetry')"
out=$(gs $d32 --solver retro)
check "dots 3x2 retro: a second-player win by 2, 49767 stored" "loss -2 49767" \
  "$(field value "$out") $(field score "$out") $(field stored "$out")"
check "dots 3x2: retro = alphabeta" "$(sg_root $d32 --solver alphabeta)" "$(sg_root $d32 --solver retro)"

# Value iteration (chance, positions that recur) under a mirror of a ring.
# The token starts on node 3, which the mirror does not fix: 33 positions
# are reachable, and the table's classes stand for 34, the mirror image of
# the start (token on 5, nobody has moved) being the one not reachable.
ring=tests/files/ring_walk.game
out=$(gs $ring)
check "ring walk: value iteration, 34 positions (closure), 21 stored" "value-iteration 34 21" \
  "$(field solver "$out") $(field positions "$out") $(field stored "$out")"
check "ring walk: 33 positions reachable (--no-symmetry)" "33" "$(field positions "$(gs $ring --no-symmetry)")"
check "ring walk: --stats says the count is the closure" "1" \
  "$(gs $ring --stats 2>&1 >/dev/null | grep -c '^stats: note: positions counts every image')"
# Expected values to 10 digits (the sweeps stop within --epsilon, so the
# last digits of the two runs differ).
sg_table() { gs "$@" --all-moves | sed -n '/^move /,$p'; }
for pos in "" "2 drift 1" "4 drift 0 5"; do
  check "ring walk: value iteration = --no-symmetry after '$pos'" \
    "$(sg_table $ring --position "$pos" --no-symmetry)" "$(sg_table $ring --position "$pos")"
done
check "ring walk after 2 drift 1: stepping to 0 wins, to 2 is worth -1/3" "0 1 2 -0.3333333333" \
  "$(sg_table $ring --position "2 drift 1" | awk 'NR > 1 { print $1, $3 }' | paste -sd ' ' -)"


# Sim: K6, all 720 relabellings of the nodes; published, the second
# player wins.  Heavy (2.2 million positions): GSOLVE_FULL.
sim=docs/examples/sim.game
check "sim: a group of 720" "; symmetry group: 720 board element(s), 0 permutable array(s)" \
  "$(gs $sim --dump-bytecode | grep '^; symmetry')"
check "sim: retro after 9 moves = --no-symmetry" \
  "$(sg_moves $sim --position "0-1 2-3 4-5 0-2 1-3 0-4 2-5 1-5 3-4" --solver retro --no-symmetry)" \
  "$(sg_moves $sim --position "0-1 2-3 4-5 0-2 1-3 0-4 2-5 1-5 3-4" --solver retro)"
check "sim after 9 moves: retro = alphabeta" \
  "$(sg_root $sim --position "0-1 2-3 4-5 0-2 1-3 0-4 2-5 1-5 3-4" --solver alphabeta)" \
  "$(sg_root $sim --position "0-1 2-3 4-5 0-2 1-3 0-4 2-5 1-5 3-4" --solver retro)"
if [ -n "$GSOLVE_FULL" ]; then
  out=$(gs $sim --solver retro)
  check "sim retro: a second-player win, 2230702 positions, 3729 stored" "loss 2230702 3729" \
    "$(field value "$out") $(field positions "$out") $(field stored "$out")"
  check "sim: positions and canonical = Burnside's count" "$(python3 tests/sym_orbits.py sim)" \
    "$(out=$(gs $sim --count); echo "$(field positions "$out") $(field canonical "$out")")"
  check "dots 3x2: positions and canonical = Burnside's count" "$(python3 tests/sym_orbits.py dots 3 2)" \
    "$(out=$(gs $d32 --count); echo "$(field positions "$out") $(field canonical "$out")")"
  check "dots 3x2: retro = retro --no-symmetry, every move" \
    "$(sg_moves $d32 --solver retro --no-symmetry)" "$(sg_moves $d32 --solver retro)"
  # Dots and Boxes 3 x 3: published (D. Wilson), the second player wins by 3.
  out=$(gs docs/examples/dots-3x3.game --tt-size 256)
  check "dots 3x3 alphabeta: a second-player win by 3" "loss -3" "$(field value "$out") $(field score "$out")"
fi

rm -rf "$sg_tmp"

# Permutable arrays alone (no board group): the VM's canonical form, the
# native Nim engine's, the same classes.
check "nim: canonical by the VM = by the native engine" \
  "$(field canonical "$(gs games/nim.game --count)")" "$(field canonical "$(gs games/nim.game --engine vm --count)")"
