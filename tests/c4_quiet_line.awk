# tests/c4_quiet_line.awk (t_c4wide.sh): a quiet Connect Four line of up
# to n moves (1-based columns) on a w x h board: random columns, each
# that would leave a playable cell completing four for either side
# skipped; stops early when every column is so.  Then the last
# `back` moves are dropped, leaving a position with a search to do.
# awk -v w=W -v h=H -v n=N -v seed=S -v back=B -f tests/c4_quiet_line.awk
function cell(x, y) { return (x < 0 || x >= w || y < 0 || y >= h) ? 0 : b[x, y] + 0 }
function wins(x, y, p,   d, dx, dy, c, i) {
  for (d = 1; d <= 4; d++) {
    dx = DX[d]; dy = DY[d]; c = 1
    for (i = 1; i < 4 && cell(x + i * dx, y + i * dy) == p; i++) c++
    for (i = 1; i < 4 && cell(x - i * dx, y - i * dy) == p; i++) c++
    if (c >= 4) return 1
  }
  return 0
}
function quiet(   x) {
  for (x = 0; x < w; x++)
    if (ht[x] < h && (wins(x, ht[x], 1) || wins(x, ht[x], 2))) return 0
  return 1
}
BEGIN {
  split("1 0 1 1", DX, " "); split("0 1 1 -1", DY, " ")
  for (c = 0; c < w; c++) ht[c] = 0
  r = seed * 7919 + 13
  for (k = 0; k < n; k++) {
    p = k % 2 + 1
    r = (r * 1103515245 + 12345) % 2147483648; start = int(r / 65536) % w
    for (t = 0; t < w; t++) {
      c = (start + t) % w
      if (ht[c] >= h) continue
      b[c, ht[c]] = p; ht[c]++
      if (quiet()) break
      ht[c]--; b[c, ht[c]] = 0
    }
    if (t == w) break
    line[k] = c + 1
  }
  for (i = 0; i < k - back; i++) printf "%d ", line[i]
  print ""
}
