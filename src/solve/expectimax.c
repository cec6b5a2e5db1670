/*
** expectimax.c -- expectimax / max^n and Star1 alpha-beta on expected
** values (see expectimax.h).
**
** Expectimax walks the tree with the explicit-stack walker (walk.h);
** Star1 cuts off and recurses in C, one frame per ply.  Both limit lines
** to EXP_MAX_PLY plies (games with chance are short; the deterministic
** solvers handle long lines).  A position repeating
** along a line is an error that names value iteration (valueiter.c),
** which solves cyclic games with chance.
*/
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "solve/expectimax.h"
#include "search/search.h"
#include "util/diag.h"
#include "util/status.h"
#include "util/stop.h"

/* ---- the memo table ---------------------------------------------- */

static int fail(ExpSolver *s, int status, const char *fmt, ...);

/* Open addressing on the position's hash; each entry holds the hash, the
** value and the packed position (so a hit is never a collision).  When
** it is 3/4 full it doubles, up to the solver's table_max_mib; a table
** that cannot grow any more stops the solve with a message naming
** --tt-size and --memory (a search that could not store positions would
** search them again on every line: on games like Sim, without end). */
typedef struct Memo {
  unsigned char *slots;
  size_t nslots, used, entry;   /* entry: bytes per slot */
  size_t key_bytes;
  unsigned char *key;           /* scratch: the packed current position */
} Memo;

static void memo_free(Memo *m) {
  if (m == NULL) return;
  free(m->slots);
  free(m->key);
  free(m);
}

static Memo *memo_new(Game *g, size_t mib) {
  Memo *m = calloc(1, sizeof *m);
  if (m == NULL) return NULL;
  m->key_bytes = g->key_bytes ? g->key_bytes : g->state_bytes;
  m->entry = (8 + sizeof(ExpValue) + m->key_bytes + 7) & ~(size_t)7;
  size_t want = (mib << 20) / m->entry, n = 1024;
  while (n * 2 <= want) n *= 2;
  m->nslots = n;
  m->slots = calloc(n, m->entry);
  m->key = malloc(m->key_bytes);
  if (m->slots == NULL || m->key == NULL) { memo_free(m); return NULL; }
  return m;
}

static void memo_key(Memo *m, Game *g) {
  if (g->vt->pack) g->vt->pack(g, game_state(g), m->key);
  else memcpy(m->key, game_state(g), m->key_bytes);
}

/* The slot holding the current position (packed in m->key), or the empty
** slot where it would go; NULL when the probe runs out. */
static unsigned char *memo_slot(Memo *m, uint64_t h) {
  h |= 1;   /* 0 marks an empty slot */
  for (size_t i = 0, k = (size_t)(h >> 7) & (m->nslots - 1); i < 64; i++, k = (k + 1) & (m->nslots - 1)) {
    unsigned char *e = m->slots + k * m->entry;
    uint64_t eh;
    memcpy(&eh, e, 8);
    if (eh == 0) return e;
    if (eh == h && memcmp(e + 8 + sizeof(ExpValue), m->key, m->key_bytes) == 0) return e;
  }
  return NULL;
}

static int memo_get(ExpSolver *s, uint64_t h, ExpValue *v) {
  Memo *m = s->memo;
  if (m == NULL) return 0;
  memo_key(m, s->g);
  unsigned char *e = memo_slot(m, h);
  uint64_t eh;
  if (e == NULL) return 0;
  memcpy(&eh, e, 8);
  if (eh == 0) return 0;
  memcpy(v, e + 8, sizeof *v);
  s->memo_hits++;
  return 1;
}

/* Doubles the table, moving every entry: 0, or -1 when out of memory
** (the table is left as it was). */
static int memo_grow(Memo *m) {
  size_t n = m->nslots * 2;
  unsigned char *slots = calloc(n, m->entry);
  if (slots == NULL) return -1;
  for (size_t i = 0; i < m->nslots; i++) {
    unsigned char *e = m->slots + i * m->entry;
    uint64_t h;
    memcpy(&h, e, 8);
    if (h == 0) continue;
    /* Load at most 3/8 after doubling: a free slot is near. */
    size_t k = (size_t)(h >> 7) & (n - 1);
    while (memcmp(slots + k * m->entry, "\0\0\0\0\0\0\0\0", 8) != 0) k = (k + 1) & (n - 1);
    memcpy(slots + k * m->entry, e, m->entry);
  }
  free(m->slots);
  m->slots = slots;
  m->nslots = n;
  return 0;
}

/* Stores the current position's value; EXIT_OK, or the status of the
** error that stopped the solve (a full table that cannot grow). */
static int memo_put(ExpSolver *s, uint64_t h, const ExpValue *v) {
  Memo *m = s->memo;
  if (m == NULL) return EXIT_OK;
  if (m->used * 4 >= m->nslots * 3) {
    size_t mib = (m->nslots * m->entry) >> 20;
    if (2 * mib > s->table_max_mib || memo_grow(m) != 0)
      return fail(s, EXIT_LIMIT, "the expectimax table is full (%zu MiB, %zu positions) and "
                  "cannot grow (%s): a search that cannot store positions searches them again on "
                  "every line, on some games without end; raise --tt-size (its first size) or --memory (how far it may "
                  "grow), or use --solver value-iteration", mib, m->used,
                  2 * mib > s->table_max_mib ? "it may grow to --memory" : "out of memory");
    s->memo_grew++;
  }
  memo_key(m, s->g);
  unsigned char *e = memo_slot(m, h);
  if (e == NULL) return EXIT_OK;   /* 64 probes taken: rare, a lost entry */
  h |= 1;
  memcpy(e, &h, 8);
  memcpy(e + 8, v, sizeof *v);
  memcpy(e + 8 + sizeof(ExpValue), m->key, m->key_bytes);
  m->used++;
  s->memo_stored++;
  return EXIT_OK;
}

/* ---- shared scaffolding ------------------------------------------ */

void exp_init(ExpSolver *s, Game *g, int base_ply, FILE *err) {
  memset(s, 0, sizeof *s);
  s->g = g;
  s->err = err;
  s->base_ply = base_ply;
  s->table_mib = 64;
  walk_init(&s->walk, g);
}

static void free_result(ExpResult *r) {
  free(r->moves);
  free(r->values);
  free(r->prob);
  free(r->exact);
  free(r->best);
  memset(r, 0, sizeof *r);
}

void exp_free(ExpSolver *s) {
  free_result(&s->result);
  walk_free(&s->walk);
  free(s->frames);
  s->frames = NULL;
  s->nframes = 0;
  memo_free(s->memo);
  free(s->path);
  free(s->prob);
  free(s->weights);
  s->memo = NULL;
  s->path = NULL;
  s->prob = NULL;
  s->weights = NULL;
  s->prob_cap = 0;
}

static int fail(ExpSolver *s, int status, const char *fmt, ...) {
  va_list ap;
  if (s->status != EXIT_OK) return s->status;   /* the first error counts */
  va_start(ap, fmt);
  s->status = diag_vfail(s->err, status, fmt, ap);
  va_end(ap);
  return status;
}

double exp_score(const Game *g, const ExpValue *v, int mover) {
  if (g->nplayers == 2) return v->pay[mover] - v->pay[1 - mover];
  return v->pay[mover];
}

static int feq(double a, double b) {
  return fabs(a - b) <= EXP_EPS * (1 + fabs(a) + fabs(b));
}

/* 1 if (sa, pa) is strictly better than (sb, pb) for `mover`: the larger
** score, then the distance rule of value.h (win sooner, lose later; a
** draw short for the first player, long for the second of two). */
static int better(int nplayers, int mover, double sa, double pa, double sb, double pb) {
  if (!feq(sa, sb)) return sa > sb;
  if (feq(pa, pb)) return 0;
  if (sa > EXP_EPS) return pa < pb;
  if (sa < -EXP_EPS) return pa > pb;
  return nplayers == 2 && mover == 1 ? pa > pb : pa < pb;
}

int exp_better(const Game *g, int mover, const ExpValue *a, const ExpValue *b) {
  return better(g->nplayers, mover, exp_score(g, a, mover), a->plies,
                exp_score(g, b, mover), b->plies);
}

/* The outcome of a terminal position as a value. */
static void outcome_value(Game *g, const Outcome *o, ExpValue *v) {
  memset(v, 0, sizeof *v);
  for (int i = 0; i < g->nplayers; i++) v->pay[i] = o->payoff[i];
}

/* The payoffs of the move just applied (read before searching on: the
** engine keeps only the last move's). */
static void read_rewards(Game *g, int32_t *rw) {
  if (!g->has_rewards || !game_rewards(g, rw)) memset(rw, 0, GAME_MAX_PLAYERS * sizeof *rw);
}

static void add_rewards(Game *g, const int32_t *rw, ExpValue *v) {
  for (int i = 0; i < g->nplayers; i++) v->pay[i] += rw[i];
}

/* Pushes the position on the line; fails on a repetition or depth, or
** after Ctrl-C or --time-limit (stop.h). */
static int path_push(ExpSolver *s, int ply, uint64_t h) {
  if (stop_requested) {
    char msg[160];
    int st = stop_message(msg, sizeof msg, s->nodes, "nodes");
    return fail(s, st, "%s", msg);
  }
  if (ply >= EXP_MAX_PLY || s->base_ply + ply >= GAME_MAX_PLY)
    return fail(s, EXIT_LIMIT, "a line of play is longer than %d plies, the limit "
                "of the expectimax and chance solvers (EXP_MAX_PLY)", EXP_MAX_PLY);
  if (s->path == NULL && (s->path = malloc(EXP_MAX_PLY * sizeof *s->path)) == NULL)
    return fail(s, EXIT_LIMIT, "out of memory");
  for (int i = 0; i < s->path_len; i++)
    if (s->path[i] == h)
      return fail(s, EXIT_LIMIT, "position repeats along a line of play; this game has "
                  "cycles, which expectimax and Star1 cannot solve (value iteration can: "
                  "--solver value-iteration)");
  s->path[s->path_len++] = h;
  return EXIT_OK;
}

/* At a chance node, the probabilities of the n moves just generated on
** top of the move stack, beside them in s->prob (same indices).  The
** arrays hang off the solver, so a rule failing in the middle (a longjmp)
** leaks nothing.  Returns 1 at a chance node, 0 elsewhere, -1 out of
** memory. */
static int chance_probs(ExpSolver *s, int n) {
  MoveStack *ms = &s->walk.ms;
  size_t base = ms->top - (size_t)n;
  double total = 0;
  if (n == 0 || game_to_move(s->g) != GAME_CHANCE) return 0;
  if (s->prob_cap < ms->cap) {
    double *p = realloc(s->prob, ms->cap * sizeof *p);
    if (p == NULL) return fail(s, EXIT_LIMIT, "out of memory"), -1;
    s->prob = p;
    s->prob_cap = ms->cap;
  }
  if (s->weights == NULL && (s->weights = malloc(GAME_MAX_MOVES * sizeof *s->weights)) == NULL)
    return fail(s, EXIT_LIMIT, "out of memory"), -1;
  game_weights(s->g, ms->moves + base, n, s->weights);
  for (int i = 0; i < n; i++) total += s->weights[i];
  for (int i = 0; i < n; i++) s->prob[base + (size_t)i] = s->weights[i] / total;
  return 1;
}

/* Generates the moves of the current position on the move stack, and
** their probabilities at a chance node (*chance set).  Returns the number
** of moves or -1. */
static int gen_moves(ExpSolver *s, int *chance) {
  int n = movestack_generate(&s->walk.ms, s->g);
  *chance = 0;
  if (n < 0) { fail(s, EXIT_LIMIT, "out of memory"); return -1; }
  if ((*chance = chance_probs(s, n)) < 0) return -1;
  return n;
}

/* ---- expectimax / max^n ------------------------------------------ */

/* One node of the walk: its value so far and what folding its children
** in needs. */
typedef struct ExpFrame {
  ExpValue v;             /* the mean of its children so far, or the best */
  double best_s;          /* at a player's node: the best child's score */
  uint64_t hash;
  int32_t rw[GAME_MAX_PLAYERS];  /* the pay of the move that led here */
  int mover;              /* the player to move, or GAME_CHANCE */
} ExpFrame;

/* The frame for walk ply d, growing the array; NULL when out of memory. */
static ExpFrame *exp_frame(ExpSolver *s, int d) {
  if ((size_t)d >= s->nframes) {
    size_t n = s->nframes ? 2 * s->nframes : 64;
    ExpFrame *f = realloc(s->frames, n * sizeof *f);
    if (f == NULL) return NULL;
    s->frames = f;
    s->nframes = n;
  }
  return &s->frames[d];
}

/* Folds the child just left (frame d + 1, the move i of node d) into
** node d: its pay added and one ply more, then weighted by its
** probability, or kept if it is the best for the mover so far. */
static void em_fold(ExpSolver *s, int d, int i) {
  Game *g = s->g;
  ExpFrame *f = &s->frames[d];
  ExpValue c = s->frames[d + 1].v;
  add_rewards(g, s->frames[d + 1].rw, &c);
  c.plies += 1;
  if (f->mover == GAME_CHANCE) {
    double pr = s->prob[walk_frame(&s->walk, d)->mbase + (size_t)i];
    for (int k = 0; k < g->nplayers; k++) f->v.pay[k] += pr * c.pay[k];
    f->v.plies += pr * c.plies;
  } else {
    double sc = exp_score(g, &c, f->mover);
    if (i == 0 || better(g->nplayers, f->mover, sc, c.plies, f->best_s, f->v.plies)) {
      f->v = c;
      f->best_s = sc;
    }
  }
}

/* The value of the current position, at ply 1 of the solve (its move's
** pay is the caller's).  A node is terminal, known from the memo, without
** moves, or expanded; its value goes into the memo when it is left.  On
** an error (status set) the walk's moves are taken back. */
static void em_search(ExpSolver *s, ExpValue *out) {
  Game *g = s->g;
  Walk *w = &s->walk;
  ExpFrame *f;
  Outcome o;
  int n;

  memset(out, 0, sizeof *out);
  if (s->status != EXIT_OK) return;
  for (int e = walk_begin(w); e != WALK_DONE; e = walk_step(w)) {
    int d = w->ply;
    if (e == WALK_BACK) {
      em_fold(s, d, walk_frame(w, d)->i);
      continue;
    }
    if (e == WALK_LEAVE) {
      s->path_len--;
      if (memo_put(s, s->frames[d].hash, &s->frames[d].v) != EXIT_OK) break;
      continue;
    }
    s->nodes++;
    if ((f = exp_frame(s, d)) == NULL) {
      fail(s, EXIT_LIMIT, "out of memory");
      break;
    }
    memset(&f->v, 0, sizeof f->v);
    if (d > 0) read_rewards(g, f->rw);
    if (game_ended(g, &o)) {
      outcome_value(g, &o, &f->v);
      continue;
    }
    f->hash = game_hash(g);
    if (memo_get(s, f->hash, &f->v)) continue;
    if (path_push(s, 1 + d, f->hash) != EXIT_OK) break;
    if ((n = walk_expand(w)) < 0) {
      fail(s, EXIT_LIMIT, "out of memory");
      break;
    }
    if (chance_probs(s, n) < 0) break;
    f->mover = game_to_move(g);
    if (n == 0) {
      game_no_moves(g, &o);
      outcome_value(g, &o, &f->v);
      s->path_len--;
      if (memo_put(s, f->hash, &f->v) != EXIT_OK) break;
    }
  }
  if (s->status != EXIT_OK) {
    walk_unwind(w);
    return;
  }
  *out = s->frames[0].v;
}

/* ---- the root ------------------------------------------------------ */

/* Sets up the result: a terminal root, or its moves (and probabilities). */
int exp_root_begin(ExpSolver *s) {
  Game *g = s->g;
  ExpResult *r = &s->result;
  Outcome o;
  int chance;
  free_result(r);
  s->status = EXIT_OK;
  /* The memo keys on the position and the earlier positions (exact under
  ** a repetition rule). */
  if (g->vt->history_key != NULL) g->vt->history_key(g, 1);
  r->deterministic = !g->has_chance;
  r->vector = 1;
  if (s->table_mib > 0 && s->memo == NULL && (s->memo = memo_new(g, s->table_mib)) == NULL)
    return fail(s, EXIT_LIMIT, "out of memory for the memo table (--tt-size)");
  s->nodes++;
  r->mover = game_to_move(g);
  int n = search_root_moves(g, &s->walk.ms, &o);
  if (n < 0) return fail(s, EXIT_LIMIT, "out of memory");
  if (n == 0) {
    r->terminal = 1;
    outcome_value(g, &o, &r->value);
    return EXIT_OK;
  }
  if ((chance = chance_probs(s, n)) < 0) return s->status;
  r->nmoves = n;
  if (chance) {
    if ((r->prob = malloc((size_t)n * sizeof *r->prob)) == NULL) return fail(s, EXIT_LIMIT, "out of memory");
    memcpy(r->prob, s->prob, (size_t)n * sizeof *r->prob);
  }
  if (search_root_arrays(n, s->walk.ms.moves, &r->moves, &r->exact, &r->best) != 0
      || (r->values = calloc((size_t)n, sizeof *r->values)) == NULL)
    return fail(s, EXIT_LIMIT, "out of memory");
  s->walk.ms.top = 0;
  return path_push(s, 0, game_hash(g));
}

/* The root's value from its moves' (all exact where they matter), and the
** optimal ones. */
void exp_root_finish(ExpSolver *s) {
  Game *g = s->g;
  ExpResult *r = &s->result;
  s->path_len = 0;
  if (s->status != EXIT_OK || r->terminal) return;
  memset(&r->value, 0, sizeof r->value);
  if (r->prob != NULL) {
    for (int i = 0; i < r->nmoves; i++) {
      for (int k = 0; k < g->nplayers; k++) r->value.pay[k] += r->prob[i] * r->values[i].pay[k];
      r->value.plies += r->prob[i] * r->values[i].plies;
    }
    return;
  }
  int b = -1;
  double bs = 0;
  for (int i = 0; i < r->nmoves; i++) {
    if (!r->exact[i]) continue;
    double sc = exp_score(g, &r->values[i], r->mover);
    if (b < 0 || better(g->nplayers, r->mover, sc, r->values[i].plies, bs, r->values[b].plies)) {
      b = i;
      bs = sc;
    }
  }
  r->value = r->values[b];
  for (int i = 0; i < r->nmoves; i++) {
    double sc = exp_score(g, &r->values[i], r->mover);
    r->best[i] = r->exact[i] && !better(g->nplayers, r->mover, bs, r->values[b].plies,
                                        sc, r->values[i].plies);
    r->nbest += r->best[i];
  }
}

int expectimax_solve(ExpSolver *s) {
  ExpResult *r = &s->result;
  if (exp_root_begin(s) != EXIT_OK || r->terminal) return s->status;
  for (int i = 0; i < r->nmoves && s->status == EXIT_OK; i++) {
    Game *g = s->g;
    int32_t rw[GAME_MAX_PLAYERS];
    game_apply(g, &r->moves[i]);
    read_rewards(g, rw);
    em_search(s, &r->values[i]);
    add_rewards(g, rw, &r->values[i]);
    r->values[i].plies += 1;
    game_undo(g);
    r->exact[i] = 1;
  }
  exp_root_finish(s);
  return s->status;
}

/* ---- Star1 alpha-beta ---------------------------------------------- */

/* Values from the first player's point of view: m is his margin (his
** payoff in a one-player game), p the expected plies.  A search in the
** window [lo, hi] (inclusive) returns the exact value when it lies in
** the window, else a bound beyond it (kind). */
enum { EXACT, LOWER, UPPER };
typedef struct Bound { double m, p; int kind; } Bound;

static Bound ab_search(ExpSolver *s, int ply, double lo, double hi);

static double widen(double x, int up) {
  if (isinf(x)) return x;
  double e = EXP_EPS * (1 + fabs(x));
  return up ? x + e : x - e;
}

/* The value of move mi for the first player, its pay added. */
static Bound ab_child(ExpSolver *s, int ply, size_t mi, double lo, double hi) {
  Game *g = s->g;
  int32_t rw[GAME_MAX_PLAYERS];
  double r = 0;
  game_apply(g, &s->walk.ms.moves[mi]);
  if (g->has_rewards && game_rewards(g, rw))
    r = g->nplayers == 2 ? (double)rw[0] - rw[1] : rw[0];
  Bound b = ab_search(s, ply + 1, lo - r, hi - r);
  game_undo(g);
  b.m += r;
  b.p += 1;
  return b;
}

static Bound terminal_bound(Game *g, const Outcome *o) {
  Bound b = { g->nplayers == 2 ? (double)o->payoff[0] - o->payoff[1] : o->payoff[0], 0, EXACT };
  return b;
}

static Bound ab_search(ExpSolver *s, int ply, double lo, double hi) {
  Game *g = s->g;
  Outcome o;
  int chance;
  Bound best = { 0, 0, EXACT };
  s->nodes++;
  if (s->status != EXIT_OK) return best;
  if (game_ended(g, &o)) return terminal_bound(g, &o);
  uint64_t h = game_hash(g);
  ExpValue mv;
  if (memo_get(s, h, &mv)) {
    best.m = mv.pay[0];
    best.p = mv.plies;
    return best;
  }
  if (path_push(s, ply, h) != EXIT_OK) return best;
  size_t base = s->walk.ms.top;
  int n = gen_moves(s, &chance);
  int mover = game_to_move(g);
  if (n == 0) {
    game_no_moves(g, &o);
    best = terminal_bound(g, &o);
  } else if (n > 0 && chance) {
    /* Star1: the children's exact sum so far and the margin bounds bound
    ** the node; each child is searched in the window that could still
    ** move the node into [lo, hi]. */
    double L = g->margin_bound && !g->has_rewards ? -(double)g->margin_bound : -INFINITY;
    double U = -L;
    double sum = 0, plies = 0, rest = 1;
    for (int i = 0; i < n && s->status == EXIT_OK; i++) {
      double pr = s->prob[base + (size_t)i];
      double after = rest - pr;
      if (after < 1e-12) after = 0;
      double clo = after > 0 && isinf(U) ? -INFINITY : (lo - sum - after * U) / pr;
      double chi = after > 0 && isinf(L) ? INFINITY : (hi - sum - after * L) / pr;
      if (clo < L) clo = L;
      if (chi > U) chi = U;
      Bound c = ab_child(s, ply, base + (size_t)i, widen(clo, 0), widen(chi, 1));
      if (c.kind == UPPER || (c.kind == EXACT && c.m < widen(clo, 0))) {
        best.m = sum + pr * c.m + after * U;
        best.kind = UPPER;
        break;
      }
      if (c.kind == LOWER || (c.kind == EXACT && c.m > widen(chi, 1))) {
        best.m = sum + pr * c.m + after * L;
        best.kind = LOWER;
        break;
      }
      sum += pr * c.m;
      plies += pr * c.p;
      rest = after;
    }
    if (best.kind == EXACT) { best.m = sum; best.p = plies; }
  } else if (n > 0) {
    /* The first player maximises m, the second minimises it.  A child
    ** beyond the far end of the window cuts off; one beyond the near end
    ** (below the best so far) cannot be chosen. */
    int maxing = mover == 0, have = 0;
    double far = maxing ? -INFINITY : INFINITY;   /* bound if none is exact */
    for (int i = 0; i < n && s->status == EXIT_OK; i++) {
      double clo = lo, chi = hi;
      if (have && maxing && best.m > clo) clo = best.m;
      if (have && !maxing && best.m < chi) chi = best.m;
      Bound c = ab_child(s, ply, base + (size_t)i, widen(clo, 0), widen(chi, 1));
      if (c.kind == (maxing ? LOWER : UPPER)) { best = c; have = 0; far = NAN; break; }
      if (c.kind != EXACT) {
        if (maxing ? c.m > far : c.m < far) far = c.m;
        continue;
      }
      if (!have || better(2, maxing ? 0 : 1, maxing ? c.m : -c.m, c.p,
                          maxing ? best.m : -best.m, best.p)) {
        best = c;
        have = 1;
      }
    }
    if (!have && !isnan(far)) {
      best.m = far;
      best.p = 0;
      best.kind = maxing ? UPPER : LOWER;
    }
  }
  s->walk.ms.top = base;
  s->path_len--;
  if (s->status == EXIT_OK && best.kind == EXACT) {
    memset(&mv, 0, sizeof mv);
    mv.pay[0] = best.m;
    mv.plies = best.p;
    memo_put(s, h, &mv);
  }
  return best;
}

int star1_solve(ExpSolver *s) {
  Game *g = s->g;
  ExpResult *r = &s->result;
  if (g->nplayers > 2)
    return fail(s, EXIT_USAGE, "the alphabeta solver needs one or two players (this game "
                "has %d): use --solver expectimax (max^n)", g->nplayers);
  if (exp_root_begin(s) != EXIT_OK || r->terminal) return s->status;
  r->vector = g->nplayers == 1;
  /* Each root move in the window where it can still be optimal, ties
  ** included, so that all the best moves are found.  The root's moves
  ** live in the result, not on the move stack. */
  int maxing = r->mover == 0, have = 0;
  double bm = 0;
  for (int i = 0; i < r->nmoves && s->status == EXIT_OK; i++) {
    double lo = -INFINITY, hi = INFINITY, rw = 0;
    int32_t pay[GAME_MAX_PLAYERS];
    if (have && !s->all_moves && r->prob == NULL) {
      if (maxing) lo = widen(bm, 0);
      else hi = widen(bm, 1);
    }
    game_apply(g, &r->moves[i]);
    if (g->has_rewards && game_rewards(g, pay))
      rw = g->nplayers == 2 ? (double)pay[0] - pay[1] : pay[0];
    Bound b = ab_search(s, 1, lo - rw, hi - rw);
    game_undo(g);
    b.m += rw;
    b.p += 1;
    /* Back to payoffs: the first player's margin m as the pair (m, 0). */
    r->values[i].pay[0] = b.m;
    r->values[i].plies = b.p;
    r->exact[i] = b.kind == EXACT;
    if (r->exact[i] && (!have || (maxing ? b.m > bm : b.m < bm))) { bm = b.m; have = 1; }
  }
  exp_root_finish(s);
  return s->status;
}
