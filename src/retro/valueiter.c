/*
** valueiter.c -- value iteration over the enumerated move graph (see
** valueiter.h).
**
** Step 1 is retro's enumeration (retro_enumerate, with payoff vectors).
** Step 2 splits the move graph into strongly connected components
** (Tarjan), which come out children first.  Step 3 lays the graph out in
** that order for the sweeps: per position its moves' successors,
** probabilities and payoffs side by side, in generation order; retro's
** edge lists are freed.  Step 4 sweeps each component in turn until it
** converges: an acyclic game is solved in one update per position, and
** a cyclic one iterates only within its cycles (Pig: the positions of
** one pair of banked scores), whose exits are final, in memory close by.
*/
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "mcts/playout.h"
#include "search/progress.h"
#include "retro/valueiter.h"
#include "retro/vi_dense.h"
#include "util/clock.h"
#include "util/diag.h"
#include "util/status.h"
#include "util/stop.h"

void vi_init(ValueIter *v, Retro *r, FILE *err) {
  memset(v, 0, sizeof *v);
  v->r = r;
  v->err = err;
  v->epsilon = VI_EPSILON;
}

void vi_free(ValueIter *v) {
  vid_free(v);
  free(v->act);
  free(v->actstart);
  free(v->prog);
  free(v->progstart);
  free(v->start);
  free(v->to);
  free(v->prob);
  free(v->pay);
  free(v->order);
  free(v->comp);
  free(v->kind);
  free(v->val);
  free(v->plies);
  free(v->moving);
  Retro *r = v->r;
  FILE *err = v->err;
  vi_init(v, r, err);
}

static int fail(ValueIter *v, int status, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  diag_vfail(v->err, status, fmt, ap);
  va_end(ap);
  return v->status = status;
}

static int out_of_memory(ValueIter *v) {
  return fail(v, EXIT_LIMIT, "out of memory laying out the move graph of %llu positions and "
              "%llu moves for value iteration (raise --memory, or a smaller game)",
              (unsigned long long)v->r->stored, (unsigned long long)v->r->edges);
}

size_t vi_memory(const ValueIter *v) {
  const Retro *r = v->r;
  if (v->dense)
    return vid_memory(v) + (r->stored + 1) * (2 * sizeof(uint32_t) + sizeof(double) + 1);
  size_t n = r->stored, e = r->edges;
  size_t total = (n + 1) * (sizeof(uint32_t) * 2 + 1 + sizeof(double) * (size_t)(r->g->nplayers + 1))
                 + e * (sizeof(uint32_t) + sizeof(double));
  if (v->pay) total += e * (size_t)r->g->nplayers * sizeof(int32_t);
  return total;
}

static int by_key(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

/* Step 2: the strongly connected components (Tarjan's algorithm, with
** an explicit stack), from the root (stored position 0) over the forward
** graph: position p's moves are slots start[p] .. start[p + 1] - 1, slot
** i leading to to[out[i]] (retro's edges), or to[i] when out is NULL
** (the dense graph).  Tarjan completes a component only after
** every component it reaches, so v->order lists the positions component
** by component, the ones that lead nowhere back first; v->comp[c] is
** where component c begins in it. */
typedef struct TarjanNode {
  uint32_t index;           /* discovery number; TARJAN_UNSET, TARJAN_DONE */
  uint32_t low;             /* lowest discovery number reached */
  uint32_t next;            /* next move to follow; once finished, its finish number */
} TarjanNode;
#define TARJAN_UNSET UINT32_MAX
#define TARJAN_DONE (UINT32_MAX - 1)   /* in a component found: never lowers a low */

static int components(ValueIter *v, const uint32_t *start, const uint32_t *out,
                      const uint32_t *to) {
  const Retro *r = v->r;
  size_t n = r->stored, k = 0, ncomp = 0, top = 0, ttop = 0, nkeys = 0;
  uint32_t counter = 0, finished = 0;
  /* A position's three numbers side by side: one cache line a visit. */
  TarjanNode *t = malloc((n + 1) * sizeof *t);
  uint32_t *calls = malloc((n + 1) * sizeof *calls), *tstack = malloc((n + 1) * sizeof *tstack);
  uint64_t *keys = NULL;    /* one component's positions by finish number */
  v->order = malloc((n + 1) * sizeof *v->order);
  v->comp = malloc((n + 2) * sizeof *v->comp);
  if (!t || !calls || !tstack || !v->order || !v->comp) {
    free(t); free(calls); free(tstack);
    return out_of_memory(v);
  }
  for (size_t i = 0; i < n; i++) t[i].index = TARJAN_UNSET;
  t[0].index = t[0].low = counter++;
  t[0].next = start[0];
  calls[top++] = tstack[ttop++] = 0;
  while (top > 0) {
    uint32_t p = calls[top - 1];
    if (t[p].next < start[p + 1]) {
      uint32_t i = t[p].next++, c = to[out ? out[i] : i];
      if (t[c].index == TARJAN_UNSET) {
        t[c].index = t[c].low = counter++;
        t[c].next = start[c];
        calls[top++] = tstack[ttop++] = c;
      } else if (t[c].index < t[p].low) {
        t[p].low = t[c].index;
      }
      continue;
    }
    top--;
    t[p].next = finished++;
    if (top > 0 && t[p].low < t[calls[top - 1]].low) t[calls[top - 1]].low = t[p].low;
    if (t[p].low == t[p].index) {
      /* p roots a component: pop it, its positions in the order they
      ** finished (a postorder: what a position reaches comes first). */
      size_t m = 0;
      uint32_t c;
      v->comp[ncomp++] = (uint32_t)k;
      do {
        c = tstack[--ttop];
        if (m == nkeys) {
          size_t cap = nkeys ? 2 * nkeys : 256;
          uint64_t *q = realloc(keys, cap * sizeof *q);
          if (!q) {
            free(t); free(calls); free(tstack); free(keys);
            return out_of_memory(v);
          }
          keys = q;
          nkeys = cap;
        }
        keys[m++] = (uint64_t)t[c].next << 32 | c;
        t[c].index = TARJAN_DONE;
      } while (c != p);
      if (m > 1) qsort(keys, m, sizeof *keys, by_key);
      for (size_t i = 0; i < m; i++) v->order[k++] = (uint32_t)keys[i];
    }
  }
  v->comp[ncomp] = (uint32_t)k;
  v->ncomp = ncomp;
  free(t); free(calls); free(tstack); free(keys);
  return k == n ? EXIT_OK : fail(v, EXIT_LIMIT, "value iteration: %zu of %zu positions are "
                                 "not reachable from the root", n - k, n);
}

/* Step 3: the compact graph in sweep order: each position's moves'
** successors (renumbered), probabilities and payoffs side by side, in
** generation order; each position's kind and starting value (its
** outcome at an end, else 0).  Retro's edge lists are freed after. */
static int lay_out(ValueIter *v, const uint32_t *ostart, const uint32_t *out) {
  Retro *r = v->r;
  size_t n = r->stored, np = (size_t)r->g->nplayers, e_all = r->edges;
  uint32_t *rank = malloc((n + 1) * sizeof *rank);
  v->start = malloc((n + 1) * sizeof *v->start);
  v->to = malloc((e_all + 1) * sizeof *v->to);
  v->prob = malloc((e_all + 1) * sizeof *v->prob);
  v->kind = malloc(n + 1);
  v->val = calloc(n * np + 1, sizeof *v->val);
  v->plies = calloc(n + 1, sizeof *v->plies);
  v->moving = calloc(n + 1, 1);
  if (r->edge_pay) v->pay = malloc((e_all + 1) * np * sizeof *v->pay);
  if (!rank || !v->start || !v->to || !v->prob || !v->kind || !v->val || !v->plies || !v->moving
      || (r->edge_pay && !v->pay)) {
    free(rank);
    return out_of_memory(v);
  }
  for (size_t k = 0; k < n; k++) rank[v->order[k]] = (uint32_t)k;
  v->start[0] = 0;
  for (size_t k = 0; k < n; k++) {
    uint32_t p = v->order[k], j = v->start[k];
    double total = 0;
    int chance = r->mover[p] == (uint8_t)GAME_CHANCE;
    if (chance) for (uint32_t i = ostart[p]; i < ostart[p + 1]; i++) total += r->edge_weight[out[i]];
    for (uint32_t i = ostart[p]; i < ostart[p + 1]; i++, j++) {
      uint32_t e = out[i];
      v->to[j] = rank[r->edge_to[e]];
      v->prob[j] = chance ? r->edge_weight[e] / total : 1.0;
      if (v->pay) memcpy(v->pay + (size_t)j * np, r->edge_pay + (size_t)e * np, np * sizeof *v->pay);
    }
    v->start[k + 1] = j;
    v->kind[k] = r->terminal[p] ? VI_END : chance ? VI_CHANCE : (int8_t)r->mover[p];
    if (r->terminal[p]) memcpy(v->val + k * np, r->vec[p].pay, np * sizeof *v->val);
  }
  free(rank);
  /* The edge lists are not needed any more: give their memory back. */
  free(r->edge_from); free(r->edge_to); free(r->edge_weight); free(r->edge_pay);
  r->edge_from = r->edge_to = r->edge_weight = NULL;
  r->edge_pay = NULL;
  r->nedges_cap = 0;
  return EXIT_OK;
}

/* a is better than b for `mover`: the larger score exactly (a tolerance
** here could keep a choice flipping between two near-equal moves and a
** sweep from converging), then on an exact tie the plies rule of
** expectimax (exp_better). */
static int vi_better(const Game *g, int mover, const ExpValue *a, const ExpValue *b) {
  double sa = exp_score(g, a, mover), sb = exp_score(g, b, mover);
  if (sa != sb) return sa > sb;
  return exp_better(g, mover, a, b);
}

/* The score of payoffs x for `mover` (exp_score on the compact values). */
static double score_of(int np, int mover, const double *x) {
  return np == 2 ? x[mover] - x[1 - mover] : x[mover];
}

/* The payoffs of slot j's successor with the move's own pay added, into c. */
static void child_pay(const ValueIter *v, uint32_t j, int np, double *c) {
  const double *x = v->val + (size_t)v->to[j] * (size_t)np;
  for (int i = 0; i < np; i++) c[i] = x[i];
  if (v->pay) for (int i = 0; i < np; i++) c[i] += v->pay[(size_t)j * (size_t)np + (size_t)i];
}

/* The new value of sweep position k from its moves' current values, into
** pay (np) and *plies.  Chance: the weighted mean.  A player: the move of
** the largest score for him; on an exact tie, the plies rule. */
static void bellman(const ValueIter *v, size_t k, double *pay, double *plies) {
  const Game *g = v->r->g;
  const int np = g->nplayers, mover = v->kind[k];
  const uint32_t a = v->start[k], b = v->start[k + 1];
  double c[GAME_MAX_PLAYERS];
  if (mover == VI_CHANCE) {
    double p = 0;
    for (int i = 0; i < np; i++) pay[i] = 0;
    for (uint32_t j = a; j < b; j++) {
      double w = v->prob[j];
      child_pay(v, j, np, c);
      for (int i = 0; i < np; i++) pay[i] += w * c[i];
      p += w * v->plies[v->to[j]];
    }
    *plies = p + 1;
    return;
  }
  uint32_t best = a;
  double best_s = 0;
  for (uint32_t j = a; j < b; j++) {
    child_pay(v, j, np, c);
    double sc = score_of(np, mover, c);
    if (j == a || sc > best_s) {
      best = j;
      best_s = sc;
    } else if (sc == best_s && v->plies[v->to[j]] != v->plies[v->to[best]]) {
      /* An exact tie: the plies rule of expectimax (exp_better). */
      ExpValue x, y;
      memset(&x, 0, sizeof x);
      memset(&y, 0, sizeof y);
      child_pay(v, j, np, x.pay);
      child_pay(v, best, np, y.pay);
      x.plies = v->plies[v->to[j]];
      y.plies = v->plies[v->to[best]];
      if (exp_better(g, mover, &x, &y)) best = j;
    }
  }
  child_pay(v, best, np, pay);
  *plies = v->plies[v->to[best]] + 1;
}

/* 1.0 / n for the small n (filled by solve_dense): the same numbers. */
#define VI_RECIPROCALS 64
#define VI_PROG_COUNT 0xffffu    /* moves of a position in the sweep program, at most */
static double vi_reciprocal[VI_RECIPROCALS];

/* The probabilities of chance position k's moves, indexed by slot: NULL
** when they are all 1/n (the dense graph keeps none then; 1/n is what
** weight / total rounds to, the same number). */
static inline const double *chance_probs(const ValueIter *v, size_t k) {
  if (!v->dense) return v->prob;
  if (!v->nprob) return NULL;           /* (Pig: one die, nothing kept) */
  uint32_t at = v->dpstart[k];
  return at == UINT32_MAX ? NULL : v->prob + at - v->start[k];
}

/* Where position k's payoffs and plies are: on the dense graph side by
** side in val (VID_STRIDE doubles a position: two payoffs, the plies, so
** that a successor is one cache line), else val (two a position) and
** plies. */
#define VID_STRIDE 3
static inline double *plies_at(const ValueIter *v, size_t k) {
  return v->dense ? v->val + VID_STRIDE * k + 2 : v->plies + k;
}

/* The mean of chance position k's successors' payoffs and plies (plus
** one ply), into x0, x1, *p: bellman's chance arithmetic, in its order.
** vs, ps: the strides of val and pl. */
static inline void chance_mean(const ValueIter *v, size_t k, const double *val, size_t vs,
                               const double *pl, size_t ps, double *x0, double *x1, double *p) {
  const uint32_t *to = v->to;
  const double *pr = chance_probs(v, k);
  uint32_t j = v->start[k], e = v->start[k + 1];
  /* (1/n from a table: a division's latency in every update, else) */
  double u = pr ? 0 : e - j < VI_RECIPROCALS ? vi_reciprocal[e - j] : 1.0 / (double)(e - j);
  double a0 = 0, a1 = 0, ap = 0;
  for (; j < e; j++) {
    double w = pr ? pr[j] : u;
    size_t t = to[j];
    a0 += w * val[vs * t];
    a1 += w * val[vs * t + 1];
    ap += w * pl[ps * t];
  }
  *x0 = a0;
  *x1 = a1;
  *p = ap + 1;
}

/* The best move so far of a two-player sweep: its payoffs, plies and
** margin for the mover.  best2_offer takes a move's values when it is
** the first, or better by margin, or tied by margin and better by
** expectimax's plies rule (exp_better): both sweeps' one update. */
typedef struct Best2 { double v0, v1, plies, margin; } Best2;

static inline void best2_offer(Game *g, int mover, Best2 *b, int first, double c0, double c1,
                               double cp) {
  double sc = mover == 0 ? c0 - c1 : c1 - c0;
  if (first || sc > b->margin) {
    *b = (Best2){ c0, c1, cp, sc };
  } else if (sc == b->margin && cp != b->plies) {
    ExpValue x, y;
    memset(&x, 0, sizeof x);
    memset(&y, 0, sizeof y);
    x.pay[0] = c0; x.pay[1] = c1; x.plies = cp;
    y.pay[0] = b->v0; y.pay[1] = b->v1; y.plies = b->plies;
    if (exp_better(g, mover, &x, &y)) *b = (Best2){ c0, c1, cp, sc };
  }
}

/* One Gauss-Seidel sweep of sweep positions a .. b-1 of a two-player game
** without per-move payoffs: bellman's arithmetic, in the same order on
** the same numbers, written out for the two payoffs and the plies with
** nothing looked up twice; on the dense graph, a folded chance
** position's mean taken where its one move is looked at.  val, pl and
** their strides vs, ps: plies_at's layouts (constants where it is
** called, so that each layout gets its own code).  Returns the largest
** change of a payoff. */
#if defined(__GNUC__)
#define VI_INLINE static inline __attribute__((always_inline))
#else
#define VI_INLINE static inline
#endif
VI_INLINE double sweep_two_at(ValueIter *v, const uint32_t *list, size_t a, size_t b, double *val,
                    size_t vs, double *pl, size_t ps) {
  const uint32_t *start = v->start, *to = v->to;
  const int8_t *kind = v->kind;
  double res = 0;
  uint64_t updates = 0;
  for (size_t i = a; i < b; i++) {
    size_t k = list ? list[i] : i;
    int mover = kind[k];
    if (mover < VI_CHANCE) continue;     /* VI_END, VI_FOLDED */
    updates++;
    double x0, x1, p;
    if (mover == VI_CHANCE) {
      chance_mean(v, k, val, vs, pl, ps, &x0, &x1, &p);
    } else {
      uint32_t j = start[k], e = start[k + 1];
      Best2 b = { 0, 0, 0, 0 };
      for (; j < e; j++) {
        uint32_t t = to[j];
        double c0, c1, cp;
        if (t & VI_FOLD_BIT) {
          t &= ~VI_FOLD_BIT;
          chance_mean(v, t, val, vs, pl, ps, &c0, &c1, &cp);
        } else {
          c0 = val[vs * t];
          c1 = val[vs * t + 1];
          cp = pl[ps * t];
        }
        best2_offer(v->r->g, mover, &b, j == start[k], c0, c1, cp);
      }
      x0 = b.v0;
      x1 = b.v1;
      p = b.plies + 1;
    }
    double *x = val + vs * k, d0 = fabs(x0 - x[0]), d1 = fabs(x1 - x[1]);
    if (d0 > res) res = d0;
    if (d1 > res) res = d1;
    x[0] = x0;
    x[1] = x1;
    v->moving[k] = fabs(p - pl[ps * k]) >= 0.5;
    pl[ps * k] = p;
  }
  v->updates += updates;
  return res;
}

/* The mean of the n successors at w (equal weights) into x0, x1, *p. */
static inline void mean_of(const double *val, const uint32_t *w, uint32_t n, double *x0,
                           double *x1, double *p) {
  double u = n < VI_RECIPROCALS ? vi_reciprocal[n] : 1.0 / (double)n, a0 = 0, a1 = 0, ap = 0;
  for (uint32_t i = 0; i < n; i++) {
    const double *c = val + VID_STRIDE * (size_t)w[i];
    a0 += u * c[0];
    a1 += u * c[1];
    ap += u * c[2];
  }
  *x0 = a0;
  *x1 = a1;
  *p = ap + 1;
}

/* sweep_two_at on the dense graph from its sweep program (v->prog,
** made by make_program): the same arithmetic, read in one pass. */
static double sweep_program(ValueIter *v, size_t c) {
  const uint32_t *w = v->prog + v->progstart[c], *end = v->prog + v->progstart[c + 1];
  double *val = v->val, res = 0;
  uint64_t updates = 0;
  while (w < end) {
    size_t k = w[0];
    uint32_t n = w[1] & VI_PROG_COUNT;
    int mover = (int)(w[1] >> 16) - 1;
    double x0, x1, p;
    w += 2;
    updates++;
    if (mover < 0) {
      mean_of(val, w, n, &x0, &x1, &p);
      w += n;
    } else {
      Best2 b = { 0, 0, 0, 0 };
      for (uint32_t m = 0; m < n; m++) {
        double c0, c1, cp;
        if (*w & VI_FOLD_BIT) {
          uint32_t f = *w & VI_PROG_COUNT;
          mean_of(val, w + 1, f, &c0, &c1, &cp);
          w += 1 + f;
        } else {
          const double *cv = val + VID_STRIDE * (size_t)*w++;
          c0 = cv[0];
          c1 = cv[1];
          cp = cv[2];
        }
        best2_offer(v->r->g, mover, &b, m == 0, c0, c1, cp);
      }
      x0 = b.v0;
      x1 = b.v1;
      p = b.plies + 1;
    }
    double *x = val + VID_STRIDE * k, d0 = fabs(x0 - x[0]), d1 = fabs(x1 - x[1]);
    if (d0 > res) res = d0;
    if (d1 > res) res = d1;
    x[0] = x0;
    x[1] = x1;
    v->moving[k] = fabs(p - x[2]) >= 0.5;
    x[2] = p;
  }
  v->updates += updates;
  return res;
}

/* The dense graph's sweep program, when every chance position has equal
** weights and at most VI_PROG_COUNT moves: per position swept (not an
** end, not folded chance), component by component, its number, its
** mover and number of moves, then each move's successor, or for a folded
** chance position VI_FOLD_BIT | its number of moves and their successors.
** The sweeps then read the transitions in one pass, in order, without
** looking up start, kind or to.  0, or 1 when the program does not apply
** (sweep_two_at runs). */
static int make_program(ValueIter *v) {
  size_t n = v->r->stored, len = 0;
  if (v->nprob) return 1;
  for (size_t k = 0; k < n; k++) {
    if (v->kind[k] < VI_CHANCE) continue;
    uint32_t a = v->start[k], b = v->start[k + 1];
    if (b - a > VI_PROG_COUNT) return 1;
    len += 2 + (b - a);
    for (uint32_t j = a; j < b; j++) {
      uint32_t t = v->to[j];
      if (!(t & VI_FOLD_BIT)) continue;
      t &= ~VI_FOLD_BIT;
      if (v->start[t + 1] - v->start[t] > VI_PROG_COUNT) return 1;
      len += v->start[t + 1] - v->start[t];
    }
  }
  v->prog = malloc((len + 1) * sizeof *v->prog);
  v->progstart = malloc((v->ncomp + 1) * sizeof *v->progstart);
  if (!v->prog || !v->progstart) {
    free(v->prog);
    free(v->progstart);
    v->prog = NULL;
    v->progstart = NULL;
    return 1;                   /* (sweep_two_at, needing nothing more) */
  }
  uint32_t *w = v->prog;
  for (size_t c = 0; c < v->ncomp; c++) {
    v->progstart[c] = (size_t)(w - v->prog);
    for (size_t k = v->comp[c]; k < v->comp[c + 1]; k++) {
      int mover = v->kind[k];
      if (mover < VI_CHANCE) continue;
      uint32_t a = v->start[k], b = v->start[k + 1];
      *w++ = (uint32_t)k;
      *w++ = (uint32_t)(mover + 1) << 16 | (b - a);
      for (uint32_t j = a; j < b; j++) {
        uint32_t t = v->to[j];
        if (!(t & VI_FOLD_BIT)) {
          *w++ = t;
          continue;
        }
        t &= ~VI_FOLD_BIT;
        *w++ = VI_FOLD_BIT | (v->start[t + 1] - v->start[t]);
        for (uint32_t i = v->start[t]; i < v->start[t + 1]; i++) *w++ = v->to[i];
      }
    }
  }
  v->progstart[v->ncomp] = (size_t)(w - v->prog);
  return 0;
}

/* Component c (sweep positions a .. b-1) swept once: on the dense graph,
** by its program, else only the positions that are updated (v->act). */
static double sweep_two(ValueIter *v, size_t c, size_t a, size_t b) {
  if (v->prog) return sweep_program(v, c);
  if (v->dense)
    return sweep_two_at(v, v->act, v->actstart[c], v->actstart[c + 1], v->val, VID_STRIDE,
                        v->val + 2, VID_STRIDE);
  return sweep_two_at(v, NULL, a, b, v->val, 2, v->plies, 1);
}

/* The dense graph's positions that sweeps update (not ends, not folded
** chance), component by component: their loop then has no branch to
** skip the others, which come in no order a predictor learns. */
static int active_lists(ValueIter *v) {
  size_t n = v->r->stored, m = 0;
  v->act = malloc((n + 1) * sizeof *v->act);
  v->actstart = malloc((v->ncomp + 1) * sizeof *v->actstart);
  if (!v->act || !v->actstart) return out_of_memory(v);
  for (size_t c = 0; c < v->ncomp; c++) {
    v->actstart[c] = (uint32_t)m;
    for (size_t k = v->comp[c]; k < v->comp[c + 1]; k++)
      if (v->kind[k] >= VI_CHANCE) v->act[m++] = (uint32_t)k;
  }
  v->actstart[v->ncomp] = (uint32_t)m;
  return EXIT_OK;
}

/* After the sweeps: the folded chance positions' own values, from their
** successors' final ones (endless when one of them is). */
static void unfold(ValueIter *v) {
  double *val = v->val;
  for (size_t k = 0; k < v->r->stored; k++) {
    if (v->kind[k] != VI_FOLDED) continue;
    double x0, x1, p;
    chance_mean(v, k, val, VID_STRIDE, val + 2, VID_STRIDE, &x0, &x1, &p);
    for (uint32_t j = v->start[k]; j < v->start[k + 1]; j++)
      if (*plies_at(v, v->to[j]) >= EXP_ENDLESS) p = EXP_ENDLESS;
    val[VID_STRIDE * k] = x0;
    val[VID_STRIDE * k + 1] = x1;
    val[VID_STRIDE * k + 2] = p;
  }
}

/* Step 4: the components in order, each swept Gauss-Seidel until the
** largest change in a sweep is below epsilon: the positions it leads to
** outside it have their final values already.  A component of one
** position without a move to itself needs one update. */
static int sweep(ValueIter *v) {
  int np = v->r->g->nplayers;
  for (size_t c = 0; c < v->ncomp; c++) {
    size_t a = v->comp[c], b = v->comp[c + 1];
    int once = b - a == 1;
    for (uint32_t j = v->start[a]; once && j < v->start[a + 1]; j++)
      if (v->to[j] == a) once = 0;
    double residual = INFINITY;
    uint64_t sweeps = 0;
    while (residual >= v->epsilon) {
      double res = 0;
      if (stop_requested) {
        char msg[160];
        /* The most sweeps of a component, this one's included (as the
        ** report's `sweeps`): v->sweeps alone counts only the finished
        ** ones, and said 0 or 1 while a large component was swept. */
        int st = stop_message(msg, sizeof msg, sweeps > v->sweeps ? sweeps : v->sweeps, "sweeps");
        return fail(v, st, "%s (residual %.3g)", msg, residual);
      }
      if (sweeps >= VI_MAX_SWEEPS)
        return fail(v, EXIT_LIMIT, "value iteration did not converge in %d sweeps (the largest "
                    "change in the last one is %.3g, --epsilon %.3g): a cycle that pays "
                    "something on every round has no finite value; else raise --epsilon",
                    VI_MAX_SWEEPS, residual, v->epsilon);
      if (np == 2 && !v->pay) res = sweep_two(v, c, a, b);
      else for (size_t k = a; k < b; k++) {
        double pay[GAME_MAX_PLAYERS], plies, *x = v->val + k * (size_t)np;
        if (v->kind[k] == VI_END) continue;
        bellman(v, k, pay, &plies);
        for (int i = 0; i < np; i++) {
          double d = fabs(pay[i] - x[i]);
          if (d > res) res = d;
          x[i] = pay[i];
        }
        double dp = fabs(plies - v->plies[k]);
        v->moving[k] = dp >= 0.5;
        v->plies[k] = plies;
      }
      sweeps++;
      if (np != 2 || v->pay) v->updates += b - a;
      residual = once ? 0 : res;
    }
    /* Plies that still grow once the payoffs have converged belong to
    ** play that need not end (a drawn cycle): no distance. */
    for (size_t k = a; k < b && !once; k++)
      if (v->moving[k]) *plies_at(v, k) = EXP_ENDLESS;
    if (sweeps > v->sweeps) v->sweeps = sweeps;
    if (residual > v->residual) v->residual = residual;
    if (v->progress && (c & 0xfff) == 0) {
      char how[64];
      snprintf(how, sizeof how, "component %zu of %zu", c, v->ncomp);
      progress_note(v->progress, "value iteration, sweeping", how, v->updates, "updates",
                    v->ncomp ? (double)c / (double)v->ncomp : -1);
    }
  }
  return EXIT_OK;
}

/* The values back into retro's per-position array (by stored position),
** where the root's answer and the sampled line read them. */
static void store_values(ValueIter *v) {
  Retro *r = v->r;
  int np = r->g->nplayers;
  for (size_t k = 0; k < r->stored; k++) {
    ExpValue *x = &r->vec[v->order[k]];
    memset(x, 0, sizeof *x);
    for (int i = 0; i < np; i++) x->pay[i] = v->val[k * (size_t)np + (size_t)i];
    x->plies = v->plies[k];
  }
}

/* The value of stored position c (by number on the dense graph). */
static void value_at(const ValueIter *v, uint32_t c, ExpValue *x) {
  if (!v->dense) {
    *x = v->r->vec[c];
    return;
  }
  memset(x, 0, sizeof *x);
  x->pay[0] = v->val[VID_STRIDE * (size_t)c];
  x->pay[1] = v->val[VID_STRIDE * (size_t)c + 1];
  x->plies = v->val[VID_STRIDE * (size_t)c + 2];
}

static int lookup(ValueIter *v, uint32_t *c) {
  return v->dense ? vid_lookup(v, c) : retro_lookup(v->r, c);
}

int vi_answer(ValueIter *v, ExpSolver *s) {
  Retro *r = v->r;
  Game *g = r->g;
  if (!v->dense) return retro_vector_answer(r, s);
  /* retro_vector_answer's, from the dense graph (no per-move payoffs). */
  s->table_mib = 0;
  if (exp_root_begin(s) != EXIT_OK) return v->status = s->status;
  s->nodes = r->positions;
  ExpResult *res = &s->result;
  for (int i = 0; i < res->nmoves && !res->terminal; i++) {
    uint32_t c;
    game_apply(g, &res->moves[i]);
    int found = vid_lookup(v, &c);
    game_undo(g);
    if (!found) return fail(v, EXIT_LIMIT, "a root move leads out of the enumerated positions");
    value_at(v, c, &res->values[i]);
    res->values[i].plies += 1;
    res->exact[i] = 1;
  }
  exp_root_finish(s);
  return s->status;
}

/* vi_solve on the dense graph (vi_dense.h): found with its components,
** numbered in sweep order; the values stay in v->val (payoffs and plies
** side by side: plies_at) and the dense table gives a position's number. */
static int solve_dense(ValueIter *v, ExpSolver *s, double t0) {
  Retro *r = v->r;
  v->dense = 1;
  for (int i = 1; i < VI_RECIPROCALS; i++) vi_reciprocal[i] = 1.0 / (double)i;
  if (vid_enumerate(v, fail) != EXIT_OK) return v->status;
  progress_note(v->progress, "value iteration, sweeping", NULL, r->stored, "positions", -1);
  double t1 = clock_seconds();
  r->enumerate_seconds = t1 - t0;
  v->moving = calloc(r->stored + 1, 1);
  if (!v->moving) return out_of_memory(v);
  v->residual = 0;
  vid_fold(v);
  if (make_program(v) && active_lists(v) != EXIT_OK) return v->status;
  if (sweep(v) != EXIT_OK) return v->status;
  unfold(v);
  v->sweep_seconds = clock_seconds() - t1;
  r->label_seconds = v->sweep_seconds;
  return vi_answer(v, s);
}

int vi_solve(ValueIter *v, ExpSolver *s) {
  Retro *r = v->r;
  Game *g = r->g;
  if (g->has_history)
    return fail(v, EXIT_USAGE, "value iteration gives each position one value: this game has "
                "a repetition rule, under which a position's value depends on the line of play "
                "(use --solver expectimax or alphabeta)");
  r->vector = 1;
  r->label = "value iteration, enumerating";
  v->status = EXIT_OK;
  double t0 = clock_seconds();
  if (vid_applies(v)) return solve_dense(v, s, t0);
  if (retro_enumerate(r) != EXIT_OK) return v->status = r->status;
  progress_note(v->progress, "value iteration, sweeping", NULL, r->stored, "positions", -1);
  double t1 = clock_seconds();
  r->enumerate_seconds = t1 - t0;
  uint32_t *ostart, *out;
  if (retro_out_edges(r, &ostart, &out) < 0) return out_of_memory(v);
  v->residual = 0;
  int st = components(v, ostart, out, r->edge_to);
  if (st == EXIT_OK) st = lay_out(v, ostart, out);
  free(ostart);
  free(out);
  if (st != EXIT_OK || sweep(v) != EXIT_OK) return v->status;
  store_values(v);
  v->sweep_seconds = clock_seconds() - t1;
  r->label_seconds = v->sweep_seconds;
  if (retro_vector_answer(r, s) != EXIT_OK) return v->status = r->status;
  return EXIT_OK;
}

int vi_sample_line(ValueIter *v, Pv *pv, int base_ply, uint64_t seed) {
  Retro *r = v->r;
  Game *g = r->g;
  MoveStack *ms = &r->ms;
  uint64_t rng = seed;
  int st = EXIT_OK;
  Outcome o;
  pv->repeats_from = -1;
  ms->top = 0;
  /* Without chance a repeated position goes round for ever: the line
  ** stops there (with chance, play goes on: Pig's 1s). */
  if (!g->has_chance && pv_seen(pv, g) == -2) return fail(v, EXIT_LIMIT, "out of memory");
  while (!game_ended(g, &o) && base_ply + pv->n < GAME_MAX_PLY - 1) {
    int n = movestack_generate(ms, g), pick = 0;
    if (n < 0) { st = fail(v, EXIT_LIMIT, "out of memory"); break; }
    if (n == 0) break;
    if (game_to_move(g) == GAME_CHANCE) {
      pick = random_move(g, ms->moves, n, &rng);
    } else {
      ExpValue best;
      int mover = game_to_move(g);
      for (int i = 0; i < n; i++) {
        int32_t pay[GAME_MAX_PLAYERS];
        uint32_t c;
        game_apply(g, &ms->moves[i]);
        if (!g->has_rewards || !game_rewards(g, pay)) memset(pay, 0, sizeof pay);
        int found = lookup(v, &c);
        ExpValue cv;
        memset(&cv, 0, sizeof cv);
        if (found) value_at(v, c, &cv);
        game_undo(g);
        if (!found) { st = fail(v, EXIT_LIMIT, "a move leads out of the enumerated positions"); break; }
        for (int k = 0; k < g->nplayers; k++) cv.pay[k] += pay[k];
        cv.plies += 1;
        if (i == 0 || vi_better(g, mover, &cv, &best)) { best = cv; pick = i; }
      }
      if (st != EXIT_OK) break;
    }
    Move m = ms->moves[pick];
    ms->top = 0;
    if (pv_push(pv, g, &m) != 0) { st = fail(v, EXIT_LIMIT, "out of memory"); break; }
    game_apply(g, &m);
    if (g->has_chance) continue;
    int rep = pv_seen(pv, g);
    if (rep == -2) { st = fail(v, EXIT_LIMIT, "out of memory"); break; }
    if (rep >= 0) { pv->repeats_from = rep; break; }
  }
  for (int i = 0; i < pv->n; i++) game_undo(g);
  return st;
}
