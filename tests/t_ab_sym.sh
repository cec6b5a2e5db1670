# Alphabeta's symmetric lines (src/solve/alphabeta_sym.c): at a node whose
# line a symmetry fixes, one move of each set of moves whose positions it
# maps onto each other.  tests/files/sym_pairs.game puts two stones on an
# empty NxN board in one move (N^2 (N^2 - 1) ordered moves) and ends: the
# moves searched are the orbits of unordered pairs of cells under the
# square's 8 symmetries, counted here by Burnside's lemma (the average
# over the group of the pairs each element leaves in place: both cells
# fixed, or the two cells of one of its 2-cycles).
# Regression: the moves were compared pairwise (quadratic in the moves:
# 14x14's 38,220 took 3.6 s of CPU, 18x18's 104,652 about 27 s; Connect6
# after its first stone, 129,240 moves, over a minute); now by a hash of
# each image (18x18: 0.4 s).

ab_orbits() {   # ab_orbits N: orbits of 2-sets of cells of the NxN square under D4
  awk -v n="$1" 'BEGIN {
    total = 0
    for (e = 0; e < 8; e++) {
      f1 = 0; c2 = 0
      for (y = 0; y < n; y++) for (x = 0; x < n; x++) {
        # the image (u, v) of (x, y) under element e
        a = x; b = y
        if (e >= 4) { t = a; a = b; b = t }                  # a diagonal mirror first
        r = e % 4
        for (k = 0; k < r; k++) { t = a; a = n - 1 - b; b = t }   # then r quarter turns
        if (a == x && b == y) f1++
        else {
          # a 2-cycle when the image of the image is the cell itself
          p = a; q = b
          if (e >= 4) { t = p; p = q; q = t }
          for (k = 0; k < r; k++) { t = p; p = n - 1 - q; q = t }
          if (p == x && q == y) c2++
        }
      }
      total += f1 * (f1 - 1) / 2 + c2 / 2
    }
    print total / 8
  }'
}

for ab_n in 4 7; do
  ab_moves=$((ab_n * ab_n * (ab_n * ab_n - 1)))
  out=$(gs tests/files/sym_pairs.game -D size=$ab_n --solve --stats 2>&1)
  check "sym_pairs ${ab_n}x$ab_n: a draw" draw "$(field value "$out")"
  check "sym_pairs ${ab_n}x$ab_n: skips = moves - orbits ($ab_moves - $(ab_orbits $ab_n))" \
    $((ab_moves - $(ab_orbits $ab_n))) \
    "$(printf '%s\n' "$out" | sed -n 's/^stats: symmetry skips \([0-9]*\).*/\1/p')"
  check "sym_pairs ${ab_n}x$ab_n: the same value with --no-symmetry" draw \
    "$(field value "$(gs tests/files/sym_pairs.game -D size=$ab_n --solve --no-symmetry)")"
done

# 18x18: 104,652 moves at the root, 6,678 searched, within 20 s (the
# sanitizers' builds and a loaded machine included; pairwise: 27 s of CPU).
out=$(timeout 20 $GSOLVE tests/files/sym_pairs.game --solve --stats -D size=18 2>&1)
check "sym_pairs 18x18 within 20 s: skips = 104652 - orbits" $((104652 - $(ab_orbits 18))) \
  "$(printf '%s\n' "$out" | sed -n 's/^stats: symmetry skips \([0-9]*\).*/\1/p')"
