/*
** c4solve.c -- the strong Connect Four solver on bitboards (k = 4, any
** width x height with width * (height + 1) <= 64): Pascal Pons' score for
** the player to move, from which the exact distance to the end follows.
**
** The techniques, each from the public Connect Four solver tutorials (the
** code is ours): negamax on the score "sooner wins score more", the window
** clamped to what is still reachable; never play a move that lets the
** opponent win at once, and answer a single threat at once (two threats
** lose); moves ordered by the number of threats they create, centre
** first; a transposition table of upper bounds; at the root, null-window
** probes that bisect the score range.
**
** Bit layout: as in native_c4.c (a column of height + 1 bits, the top one
** a sentinel).  `cur` holds the stones of the player to move and `mask`
** every stone; cur + mask is a unique key of the position.
*/
#define _DEFAULT_SOURCE 1     /* madvise's MADV_HUGEPAGE */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "c4solve.h"
#include "stop.h"

/* A big table on huge pages where the kernel allows: random probes into
** 64 MiB of 4 KiB pages spend more time in page walks than in search. */
static void *table_alloc(size_t bytes) {
  size_t huge = (size_t)2 << 20;
  size_t size = (bytes + huge - 1) / huge * huge;
  void *p = NULL;
  if (posix_memalign(&p, huge, size) != 0) return NULL;
#ifdef MADV_HUGEPAGE
  madvise(p, size, MADV_HUGEPAGE);
#endif
  memset(p, 0, size);
  return p;
}

/* A table entry: the full key and the upper bound + offset (0: empty),
** together so that a probe costs one cache miss.
**
**   +----------------------+-------+---------+
**   | key (64 bits)        | bound | padding |   16 bytes
**   +----------------------+-------+---------+
*/
struct TtEntry {
  uint64_t key;
  int8_t val;
};

struct C4Solver {
  int w, h;
  uint64_t bottom, board;    /* bit 0 of every column; every playable cell */
  struct TtEntry *tt;       /* transposition table */
  size_t tt_size;            /* entries, a power of two */
  uint64_t nodes;
  int order[64];             /* columns, centre first */
  uint32_t *touched;         /* entries written since the last reset */
  size_t ntouched, captouched;
  int overflow;              /* touched list full: reset clears everything */
  int mirror_until;          /* positions with at most this many stones share
                                their mirror image's table entry */
};
typedef struct C4Solver Solver;

static int popcount(uint64_t x) { return __builtin_popcountll(x); }

static uint64_t column_mask(const Solver *s, int col) {
  return ((UINT64_C(1) << s->h) - 1) << (col * (s->h + 1));
}

/* Cells where `pos` would complete four (whether empty or not). */
static uint64_t winning_cells(const Solver *s, uint64_t pos, uint64_t mask) {
  int h1 = s->h + 1;
  /* vertical: three below */
  uint64_t r = (pos << 1) & (pos << 2) & (pos << 3);
  const int shifts[3] = { h1, s->h, s->h + 2 };    /* horizontal and diagonals */
  for (int i = 0; i < 3; i++) {
    int d = shifts[i];
    uint64_t p = (pos << d) & (pos << 2 * d);
    r |= p & (pos << 3 * d);
    r |= p & (pos >> d);
    p = (pos >> d) & (pos >> 2 * d);
    r |= p & (pos << d);
    r |= p & (pos >> 3 * d);
  }
  return r & (s->board ^ mask);
}

static uint64_t possible(const Solver *s, uint64_t mask) {
  return (mask + s->bottom) & s->board;
}

/* Moves (one bit each) that do not hand the opponent an immediate win. */
static uint64_t non_losing(const Solver *s, uint64_t cur, uint64_t mask) {
  uint64_t poss = possible(s, mask);
  uint64_t threats = winning_cells(s, cur ^ mask, mask);
  uint64_t forced = poss & threats;
  if (forced) {
    if (forced & (forced - 1)) return 0;      /* two threats: lost */
    poss = forced;
  }
  return poss & ~(threats >> 1);              /* never play below a threat */
}

static int can_win_now(const Solver *s, uint64_t cur, uint64_t mask) {
  return (winning_cells(s, cur, mask) & possible(s, mask)) != 0;
}

/* Transposition table: upper bounds, stored as value - min + 1 (never 0). */
static void tt_put(Solver *s, uint64_t key, int v) {
  size_t i = (size_t)(key * 0x9e3779b97f4a7c15ULL >> 20) & (s->tt_size - 1);
  if (s->tt[i].val == 0) {
    /* Remember the entry so a reset clears only what was written. */
    if (s->ntouched < s->captouched) s->touched[s->ntouched++] = (uint32_t)i;
    else s->overflow = 1;
  }
  s->tt[i].key = key;
  s->tt[i].val = (int8_t)v;
}

static int tt_get(const Solver *s, uint64_t key) {
  size_t i = (size_t)(key * 0x9e3779b97f4a7c15ULL >> 20) & (s->tt_size - 1);
  return s->tt[i].key == key ? s->tt[i].val : 0;
}

/* The table key: cur + mask is unique; early in the game the position
** and its mirror image share one entry (they have the same score). */
static uint64_t table_key(const Solver *s, uint64_t cur, uint64_t mask, int moves) {
  uint64_t key = cur + mask;
  if (moves > s->mirror_until) return key;
  uint64_t mc = 0, mm = 0, col = ((UINT64_C(1) << (s->h + 1)) - 1);
  for (int c = 0; c < s->w; c++) {
    int from = c * (s->h + 1), to = (s->w - 1 - c) * (s->h + 1);
    mc |= ((cur >> from) & col) << to;
    mm |= ((mask >> from) & col) << to;
  }
  uint64_t mirrored = mc + mm;
  return mirrored < key ? mirrored : key;
}

/* Negamax for the player to move, who cannot win at once.  Fail-soft
** contract as in the tutorials: the result r satisfies r <= alpha => the
** true score <= r; r >= beta => the true score >= r; else exact. */
static int negamax(Solver *s, uint64_t cur, uint64_t mask, int moves, int alpha, int beta) {
  int cells = s->w * s->h;
  s->nodes++;
  if (stop_requested) return 0;     /* unwinding: c4_solve fails */
  uint64_t next = non_losing(s, cur, mask);
  if (next == 0) return -(cells - moves) / 2;          /* the opponent wins next */
  if (moves >= cells - 2) return 0;                     /* a draw: board full after two */
  int lo = -(cells - 2 - moves) / 2;                    /* the opponent cannot win next */
  if (alpha < lo) { alpha = lo; if (alpha >= beta) return alpha; }
  int hi = (cells - 1 - moves) / 2;                     /* we cannot win next */
  uint64_t key = table_key(s, cur, mask, moves);
  int stored = tt_get(s, key);
  if (stored) hi = stored + (-(cells / 2) + 3) - 1;
  if (beta > hi) { beta = hi; if (alpha >= beta) return beta; }

  /* Order: more threats created first, then centre first (stable). */
  uint64_t mv[64];
  int score[64], n = 0;
  for (int i = 0; i < s->w; i++) {
    uint64_t m = next & column_mask(s, s->order[i]);
    if (!m) continue;
    int t = popcount(winning_cells(s, cur | m, mask));
    int j = n++;
    while (j > 0 && score[j - 1] < t) { mv[j] = mv[j - 1]; score[j] = score[j - 1]; j--; }
    mv[j] = m;
    score[j] = t;
  }
  for (int i = 0; i < n; i++) {
    /* Playing m: the opponent becomes the player to move. */
    uint64_t nmask = mask | mv[i];
    int v = -negamax(s, cur ^ mask, nmask, moves + 1, -beta, -alpha);
    if (v >= beta) return v;
    if (v > alpha) alpha = v;
  }
  tt_put(s, key, alpha - (-(cells / 2) + 3) + 1);
  return alpha;
}

/* The exact score by null-window bisection (or the sign only, weak). */
static int solve_position(Solver *s, uint64_t cur, uint64_t mask, int moves, int weak) {
  int cells = s->w * s->h;
  if (can_win_now(s, cur, mask)) return (cells + 1 - moves) / 2;
  int lo = -(cells - moves) / 2, hi = (cells + 1 - moves) / 2;
  if (weak) { lo = -1; hi = 1; }
  while (lo < hi) {
    int med = lo + (hi - lo) / 2;
    if (med <= 0 && lo / 2 < med) med = lo / 2;
    else if (med >= 0 && hi / 2 > med) med = hi / 2;
    int r = negamax(s, cur, mask, moves, med, med + 1);
    if (r <= med) hi = r;
    else lo = r;
  }
  return lo;
}

/* Plies to the end under best play, from Pons' score at `moves` stones:
** the winning stone's rank has the winner's parity, so it is unique. */
int c4_plies_from_score(int cells, int moves, int score) {
  if (score == 0) return cells - moves;
  int a = score > 0 ? score : -score;
  int before = cells + 1 - 2 * a;    /* stones before the winning move: this or one less */
  int parity = score > 0 ? moves & 1 : (moves + 1) & 1;
  if ((before & 1) != parity) before--;
  return before - moves + 1;
}

C4Solver *c4_new(int width, int height, size_t tt_mib) {
  if (width < 1 || height < 1 || width * (height + 1) > 64) return NULL;
  Solver *s = calloc(1, sizeof *s);
  if (!s) return NULL;
  s->w = width;
  s->h = height;
  for (int col = 0; col < s->w; col++) {
    s->bottom |= UINT64_C(1) << (col * (s->h + 1));
    s->board |= column_mask(s, col);
  }
  for (int i = 0; i < s->w; i++)     /* centre first: w/2, w/2-1, w/2+1, ... */
    s->order[i] = s->w / 2 + (1 - 2 * (i % 2)) * (i + 1) / 2;
  s->mirror_until = (width * height) / 3;
  size_t bytes = tt_mib ? tt_mib << 20 : (size_t)1 << 20;
  s->tt_size = 1;
  while (s->tt_size * 2 * sizeof *s->tt <= bytes) s->tt_size *= 2;
  s->tt = table_alloc(s->tt_size * sizeof *s->tt);
  s->captouched = s->tt_size / 8 + 1024;
  s->touched = malloc(s->captouched * sizeof *s->touched);
  if (!s->tt || !s->touched) { c4_free(s); return NULL; }
  return s;
}

void c4_free(C4Solver *s) {
  if (!s) return;
  free(s->tt);
  free(s->touched);
  free(s);
}

void c4_reset(C4Solver *s) {
  if (s->overflow) {
    memset(s->tt, 0, s->tt_size * sizeof *s->tt);
  } else {
    for (size_t i = 0; i < s->ntouched; i++) s->tt[s->touched[i]].val = 0;
  }
  s->ntouched = 0;
  s->overflow = 0;
}

int c4_solve(C4Solver *sv, const C4Query *q, C4Answer *ans) {
  Solver *s = sv;
  if (q->width != s->w || q->height != s->h) return -1;
  s->nodes = 0;
  int cells = s->w * s->h, moves = q->moves;
  uint64_t cur = q->cur, mask = q->mask;
  ans->score = solve_position(s, cur, mask, moves, q->weak);
  ans->plies = c4_plies_from_score(cells, moves, ans->score);
  ans->nmoves = 0;
  if (q->all_moves) {
    /* Every legal move, column order: a move that wins at once scores
    ** (cells + 1 - moves) / 2; else minus the child's score. */
    for (int col = 0; col < s->w; col++) {
      uint64_t m = possible(s, mask) & column_mask(s, col);
      if (!m) continue;
      int v;
      if (winning_cells(s, cur, mask) & m) v = (cells + 1 - moves) / 2;
      else if (moves + 1 == cells) v = 0;
      else v = -solve_position(s, cur ^ mask, mask | m, moves + 1, q->weak);
      ans->col[ans->nmoves] = col;
      ans->move_score[ans->nmoves] = v;
      ans->nmoves++;
    }
  }
  ans->nodes = s->nodes;
  return stop_requested ? -2 : 0;
}
