/*
** retro_compact_cycles.c -- the compact form for games whose positions
** recur (see retro_compact_cycles.h, docs/performance.md "Compact tables
** for games with cycles").
**
** Step 1. Every position reachable from the root, breadth first: the
** canonical keys seen in a gathering set, those not yet expanded in a
** ring; then the set sorted in place into one Elias-Fano set (the
** table's single layer) and freed.
** Step 2. Wins and losses by passes, as retro.c decides them (its queue
** goes by distance; here one pass a distance).  Pass 0 labels the ends.
** Pass d expands every position still undecided and reads its
** children's fields by rank: won at d when a child is decided good for
** it (lost for the opponent, or won for the same mover) before pass d,
** lost at d when every child is decided bad before pass d, the farthest
** at d - 1.  What pass d decides carries distance d, so a child decided
** in the same pass is not used: the order within a pass does not
** matter.  A pass that decides nothing ends the step; the undecided are
** draws.  A position whose children are all decided, none good and some
** drawn, is a draw already and is not expanded again.
** Step 3. The draws' lengths by passes, as retro.c's propagate_draws:
** player 0 takes the shortest drawn line that ends, player 1 the longest
** and only when every drawing move ends; the others never end.
** Scored games (an end's margin beyond +-1): a position is decided once
** all its children are (retro.c's propagate_scores); positions left
** undecided (a cycle) refuse the game, as in the hash form.
**
** The fields, per rank: the mover (1 bit), the score code (score - smin,
** sbits bits; the code of all ones marks a position not yet decided) and
** the distance (dbits bits; all ones: a draw of no known end).  dbits
** grows when a pass needs more, and shrinks to the longest distance at
** the end; then the all-ones distance is the table's `endless`.
*/
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "retro/retro_compact_cycles.h"
#include "search/progress.h"
#include "util/clock.h"
#include "util/diag.h"
#include "util/status.h"
#include "util/stop.h"

/* The state of one solve in this form. */
typedef struct Cycles {
  Retro *r;
  RetroCompact *c;
  CompactLayer *L;          /* the single layer */
  int w;                    /* bits a field: 1 + sbits + dbits */
  uint64_t und;             /* the score code of a position not yet decided */
  uint64_t zero;            /* the score code of 0 (a draw) */
  uint32_t pending;         /* the distance of a draw whose end is not known */
  int scored;               /* some end's margin is beyond +-1 */
  int alternating;          /* every move hands the turn to the other player */
  int end_wins;             /* some end is won for its mover */
  uint64_t *last, *fresh;   /* Bloom filters: the keys decided in the last
                            ** pass, and in this one */
  uint64_t bmask;           /* a filter's bits - 1 */
  int bshift;               /* 64 - log2(bits) */
  size_t bwords;            /* words a filter */
  uint64_t *watch;          /* per rank: a watched child's rank + 1, rb bits */
  int rb;
} Cycles;

static inline uint64_t field_get(const Cycles *y, uint64_t i) {
  return bits_get(y->L->vals, i * (uint64_t)y->w, y->w);
}

/* Overwrites field i (w < 64). */
static inline void field_put(Cycles *y, uint64_t i, uint64_t f) {
  uint64_t off = i * (uint64_t)y->w, *a = y->L->vals, m = (UINT64_C(1) << y->w) - 1;
  uint64_t k = off >> 6;
  int sh = (int)(off & 63);
  a[k] &= ~(m << sh);
  if (sh + y->w > 64) a[k + 1] &= ~(m >> (64 - sh));
  bits_or(a, off, y->w, f);
}

static inline uint64_t make(const Cycles *y, int mover, uint64_t code, uint64_t dist) {
  return (uint64_t)(mover & 1) | code << 1 | dist << (1 + y->c->sbits);
}

static inline uint64_t code_of(const Cycles *y, uint64_t f) {
  return (f >> 1) & ((UINT64_C(1) << y->c->sbits) - 1);
}

static inline uint32_t dist_of(const Cycles *y, uint64_t f) {
  return (uint32_t)(f >> (1 + y->c->sbits));
}

static int stopped(Retro *r, uint64_t n) {
  char msg[160];
  int st = stop_message(msg, sizeof msg, n, "positions");
  return retro_fail(r, st, "%s", msg);
}

static int out_of_memory(Retro *r) {
  return retro_fail(r, EXIT_LIMIT, "out of memory in the compact retrograde analysis (%zu MiB "
                    "held); raise --memory or free memory", retro_compact_bytes(r) >> 20);
}

static int too_big(Retro *r, size_t need) {
  return retro_fail(r, EXIT_LIMIT, "the compact table needs about %zu MiB (%llu positions so far), "
                    "over the memory limit of %zu MiB; raise --memory", need >> 20,
                    (unsigned long long)r->positions, r->memory_limit >> 20);
}

/* Positions are counted by their classes' orbits, as the layered form
** does: an engine that cannot count them has every position stored. */
static void choose_canonical(Retro *r) {
  Game *g = r->g;
  if (r->canonical && !(g->vt->orbit && g->vt->orbit(g, game_state(g)) != 0)) r->canonical = NULL;
}

/* ------------------------------------------------------------------ */
/* The probe                                                          */
/* ------------------------------------------------------------------ */

/* Layers as the layered form makes them (each the set of the children of
** the last), each child looked up in the layers so far: found, the
** position recurs. */
static int probe(Retro *r, RetroCompact *c) {
  CompactGather *next = &c->next;
  uint64_t expanded = 0;
  if (retro_compact_gather_grow(next) < 0) return -1;
  retro_compact_gather_put(next, retro_compact_key(r));
  if (retro_compact_gather_layer(c, next) < 0) return -1;
  for (int k = 0; c->nlayers < COMPACT_MAX_LAYERS; k++) {
    EfIter it;
    uint64_t sq;
    if (retro_compact_gather_grow(next) < 0) return -1;
    efset_iter_init(&it, &c->layer[k].keys);
    while (efset_next(&it, &sq)) {
      Outcome o;
      retro_compact_set_key(r, c, retro_compact_unsqueeze(&c->layer[k], sq));
      int n = retro_compact_expand(r, c, &o);
      for (int i = 0; i < n; i++) {
        for (int j = 0; j <= k; j++)
          if (retro_compact_rank(&c->layer[j], c->child[i]) >= 0) return 1;
        if ((next->n + 1) * 4 > next->cap * 3 && retro_compact_gather_grow(next) < 0) return -1;
        retro_compact_gather_put(next, c->child[i]);
      }
      if (++expanded >= CYCLES_PROBE) return 0;
    }
    if (next->n == 0) return 0;
    if (retro_compact_gather_layer(c, next) < 0) return -1;
  }
  return 0;
}

int retro_compact_cycles_wanted(Retro *r) {
  Game *g = r->g;
  if (retro_compact_refusal(r)) return 0;
  void (*canonical)(Game *, const void *, void *) = r->canonical;
  choose_canonical(r);
  /* Kept in r (freed by retro_free): a rule failing at run time leaves
  ** by longjmp. */
  free(r->root_state);
  int rc = -1;
  if ((r->root_state = malloc(g->state_bytes)) && retro_compact_scratch(r) == 0) {
    memcpy(r->root_state, game_state(g), g->state_bytes);
    rc = probe(r, r->cpt);
    g->vt->set_state(g, r->root_state);
  }
  retro_compact_free(r->cpt);
  r->cpt = NULL;
  r->canonical = canonical;
  return rc < 0 ? out_of_memory(r), -1 : rc;
}

/* ------------------------------------------------------------------ */
/* Step 1: the positions                                              */
/* ------------------------------------------------------------------ */

/* The keys waiting to be expanded: a ring of cap (a power of two) keys,
** kept in the table's first layer's `cache` (freed with the table: a rule
** failing at run time leaves by longjmp).  It holds the frontier alone
** (the positions found and not yet expanded), the keys seen are in
** c->next.  0, or -1 out of memory. */
typedef struct Ring {
  uint64_t *key;
  size_t cap, head, n;
} Ring;

static int ring_push(RetroCompact *c, Ring *q, uint64_t key) {
  if (q->n == q->cap) {
    uint64_t *t = malloc(2 * q->cap * sizeof *t);
    if (!t) return -1;
    for (size_t i = 0; i < q->n; i++) t[i] = q->key[(q->head + i) & (q->cap - 1)];
    free(q->key);
    q->key = c->layer[0].cache = t;
    q->head = 0;
    q->cap *= 2;
  }
  q->key[(q->head + q->n++) & (q->cap - 1)] = key;
  return 0;
}

static int enumerate(Cycles *y) {
  Retro *r = y->r;
  RetroCompact *c = y->c;
  Game *g = r->g;
  CompactGather *seen = &c->next;
  int by_orbit = r->canonical != NULL, ends = 0;
  int64_t lo = 0, hi = 0;
  uint64_t expanded = 0;
  Ring q = { NULL, 1024, 0, 0 };
  r->closure = by_orbit && g->vt->orbit(g, game_state(g)) != 1;
  if (!(c->layer = calloc(1, sizeof *c->layer))) return -1;
  c->layer_cap = c->nlayers = 1;
  q.key = c->layer[0].cache = malloc(q.cap * sizeof *q.key);
  if (!q.key || retro_compact_gather_grow(seen) < 0) return -1;
  uint64_t root = retro_compact_key(r);
  retro_compact_gather_put(seen, root);
  if (ring_push(c, &q, root) < 0) return -1;
  y->alternating = 1;
  while (q.n > 0) {
    Outcome o;
    uint64_t key = q.key[q.head];
    q.head = (q.head + 1) & (q.cap - 1);
    q.n--;
    retro_compact_set_key(r, c, key);
    r->positions += by_orbit ? g->vt->orbit(g, c->state) : 1;
    int mover = game_to_move(g);
    int k = retro_compact_expand(r, c, &o);
    if (k < 0) {
      int64_t m = retro_compact_margin(g, game_to_move(g), &o);
      if (!ends || m < lo) lo = m;
      if (!ends || m > hi) hi = m;
      if (m > 0) y->end_wins = 1;
      ends = 1;
    }
    for (int i = 0; i < k; i++) {
      if (c->cmover[i] == mover) y->alternating = 0;
      if ((seen->n + 1) * 4 > seen->cap * 3) {
        size_t need = (seen->cap * 3 + q.cap) * sizeof *q.key;
        if (r->memory_limit && need > r->memory_limit) return too_big(r, need), 1;
        if (need > c->peak) c->peak = need;
        if (retro_compact_gather_grow(seen) < 0) return -1;
      }
      size_t before = seen->n;
      retro_compact_gather_put(seen, c->child[i]);
      if (seen->n == before) continue;
      if (ring_push(c, &q, c->child[i]) < 0) return -1;
      if (r->max_positions < UINT32_MAX - 1 && seen->n > r->max_positions)
        return retro_fail(r, EXIT_LIMIT, "more than %llu positions (--max-positions)",
                          (unsigned long long)r->max_positions), 1;
    }
    if (k > 0) r->edges += (uint64_t)k;
    if ((++expanded & 0xfff) == 0) {
      if (stop_requested) return stopped(r, r->positions), 1;
      if (r->progress) {
        char how[64];
        snprintf(how, sizeof how, "%.0f MiB", (double)((seen->cap + q.cap) * sizeof *q.key) / (1 << 20));
        progress_note(r->progress, "compact retrograde analysis (cycles), enumerating", how,
                      r->positions, "positions", -1);
      }
    }
  }
  r->stored = seen->n;
  /* The set of keys seen becomes the layer (sorted in place). */
  free(q.key);
  c->layer[0].cache = NULL;
  c->nlayers = 0;
  if (retro_compact_gather_layer(c, seen) < 0) return -1;
  y->L = &c->layer[0];
  /* Every score is an end's margin or its negation; one code more marks
  ** the undecided. */
  int64_t smax = hi > -lo ? hi : -lo;
  y->scored = smax > 1;
  c->smin = -smax;
  c->sbits = bits_for((uint64_t)(2 * smax + 1));
  y->und = (UINT64_C(1) << c->sbits) - 1;
  y->zero = (uint64_t)smax;
  return 0;
}

/* ------------------------------------------------------------------ */
/* Step 2 and 3: the passes                                           */
/* ------------------------------------------------------------------ */

/* The fields again at dbits bits of distance (the pending distance
** carried over).  0, or -1 out of memory. */
static int repack(Cycles *y, int dbits) {
  CompactLayer *L = y->L;
  uint64_t n = L->keys.n, *old = L->vals;
  int ow = y->w;
  uint32_t opending = y->pending;
  uint64_t *vals = calloc(bits_words(n, 1 + y->c->sbits + dbits), sizeof *vals);
  if (!vals) return -1;
  int sb = 1 + y->c->sbits;
  y->w = sb + dbits;
  y->pending = (uint32_t)((UINT64_C(1) << dbits) - 1);
  L->vals = vals;
  L->dbits = dbits;
  for (uint64_t i = 0; old && i < n; i++) {
    uint64_t f = bits_get(old, i * (uint64_t)ow, ow), d = f >> sb;
    if (d == opending) d = y->pending;
    bits_or(vals, i * (uint64_t)y->w, y->w, (f & ((UINT64_C(1) << sb) - 1)) | d << sb);
  }
  free(old);
  return 0;
}

/* Room for distance d (below the pending code). */
static int room_for(Cycles *y, uint64_t d) {
  if (d < y->pending) return 0;
  return repack(y, bits_for(d + 1) + 2);
}

/* Sets the engine to the position of a stored key (sq, from the
** iterator) and expands it: the children's keys in c->child, their
** number; -1 at an end (the outcome in *o). */
static int expand_at(Cycles *y, uint64_t sq, Outcome *o) {
  RetroCompact *c = y->c;
  retro_compact_set_key(y->r, c, retro_compact_unsqueeze(y->L, sq));
  c->expansions++;
  return retro_compact_expand(y->r, c, o);
}

/* Child j's field; -1 (reported) when its key is not in the table. */
static int child_field(Cycles *y, int j, uint64_t *f, uint64_t *rank) {
  int64_t k = retro_compact_rank(y->L, y->c->child[j]);
  if (k < 0) {
    retro_fail(y->r, EXIT_RUNTIME, "a move leads out of the compact table (the rules are not a "
               "function of the position)");
    return -1;
  }
  *rank = (uint64_t)k;
  *f = field_get(y, *rank);
  return 0;
}

static int ended_late(Cycles *y) {
  return retro_fail(y->r, EXIT_RUNTIME, "a position of the compact table has ended only now (the "
                    "rules are not a function of the position)"), 1;
}

/* The keys decided in the last pass, as a Bloom filter (two bits a key,
** no false negatives): a position can be decided in pass d only when a
** child was decided in pass d - 1, so a position none of whose children
** is in the filter is passed over without a lookup. */
static inline uint64_t mix(uint64_t k) {
  k ^= k >> 33;
  k *= UINT64_C(0xff51afd7ed558ccd);
  k ^= k >> 33;
  k *= UINT64_C(0xc4ceb9fe1a85ec53);
  return k ^ (k >> 33);
}

static inline void bloom_add(Cycles *y, uint64_t *b, uint64_t key) {
  uint64_t h = mix(key), i = h & y->bmask, j = (h * UINT64_C(0x9e3779b97f4a7c15)) >> y->bshift;
  b[i >> 6] |= UINT64_C(1) << (i & 63);
  b[j >> 6] |= UINT64_C(1) << (j & 63);
}

static inline int bloom_has(const Cycles *y, const uint64_t *b, uint64_t key) {
  uint64_t h = mix(key), i = h & y->bmask, j = (h * UINT64_C(0x9e3779b97f4a7c15)) >> y->bshift;
  return (b[i >> 6] >> (i & 63) & 1) && (b[j >> 6] >> (j & 63) & 1);
}

/* Whether some child of the position just expanded is in filter b. */
static int any_in(const Cycles *y, const uint64_t *b, int n) {
  for (int j = 0; j < n; j++)
    if (bloom_has(y, b, y->c->child[j])) return 1;
  return 0;
}

/* The next pass's filter empty, and the two swapped. */
static void bloom_turn(Cycles *y) {
  uint64_t *t = y->last;
  y->last = y->fresh;
  y->fresh = t;
  memset(y->fresh, 0, y->bwords * sizeof *y->fresh);
}

/* The watched child of a position (its rank + 1; 0 none): see label_wins. */
static inline uint64_t watch_get(const Cycles *y, uint64_t i) {
  return bits_get(y->watch, i * (uint64_t)y->rb, y->rb);
}

static inline void watch_put(Cycles *y, uint64_t i, uint64_t v) {
  uint64_t off = i * (uint64_t)y->rb, *a = y->watch, m = (UINT64_C(1) << y->rb) - 1;
  uint64_t k = off >> 6;
  int sh = (int)(off & 63);
  a[k] &= ~(m << sh);
  if (sh + y->rb > 64) a[k + 1] &= ~(m >> (64 - sh));
  bits_or(a, off, y->rb, v);
}

/* Progress and Ctrl-C every 4096 positions: 0, or 1 stopped (reported). */
static int tick(Cycles *y, uint64_t *done, const char *what, uint32_t pass) {
  Retro *r = y->r;
  if ((++*done & 0xfff) != 0) return 0;
  if (stop_requested) return stopped(r, *done), 1;
  if (r->progress) {
    char how[64];
    snprintf(how, sizeof how, "pass %u", pass);
    progress_note(r->progress, what, how, *done, "positions expanded", -1);
  }
  return 0;
}

/* Pass 0: the ends' fields, the others undecided; the ends won or lost
** into the filter. */
static int label_ends(Cycles *y) {
  Retro *r = y->r;
  Game *g = r->g;
  EfIter it;
  uint64_t sq, i = 0, done = 0;
  efset_iter_init(&it, &y->L->keys);
  for (; efset_next(&it, &sq); i++) {
    Outcome o;
    int n = expand_at(y, sq, &o);
    int mover = game_to_move(g);
    if (n >= 0) {
      field_put(y, i, make(y, mover, y->und, 0));
    } else {
      int64_t m = retro_compact_margin(g, mover, &o);
      if (m != 0) bloom_add(y, y->fresh, retro_compact_unsqueeze(y->L, sq));
      field_put(y, i, make(y, mover, (uint64_t)(m - y->c->smin), 0));
      if (m != 0 || y->scored) r->labelled++;
    }
    if (tick(y, &done, "compact retrograde analysis (cycles), the ends", 0)) return 1;
  }
  return 0;
}

/* Passes d = 1, 2, ... of wins and losses (see the top); a position is
** looked at only when a child is in the last pass's filter.  With parity
** (every move hands the turn over and no end is won) wins fall at odd
** distances and losses at even ones: an odd pass looks up only the
** children in the filter (the only ones that can be lost at d - 1); an
** even pass looks at a position only when its watched child (one not
** decided at its last look) has been decided since, and then at all its
** children, watching the first one still open. */
static int label_wins(Cycles *y) {
  Retro *r = y->r;
  RetroCompact *c = y->c;
  int parity = y->alternating && !y->end_wins;
  uint64_t done = 0;
  for (uint32_t d = 1;; d++) {
    uint64_t decided = 0, sq, i = 0;
    EfIter it;
    if (room_for(y, d) < 0) return -1;
    bloom_turn(y);
    c->passes++;
    int loss_pass = parity && d % 2 == 0, win_pass = parity && d % 2 == 1;
    efset_iter_init(&it, &y->L->keys);
    for (; efset_next(&it, &sq); i++) {
      uint64_t f = field_get(y, i), cf, rank;
      if (code_of(y, f) != y->und) continue;
      int mover = (int)(f & 1);
      if (loss_pass && (rank = watch_get(y, i)) != 0) {
        cf = field_get(y, rank - 1);
        if (code_of(y, cf) == y->und || dist_of(y, cf) >= d) continue;
      }
      Outcome o;
      int n = expand_at(y, sq, &o);
      if (n < 0) return ended_late(y);
      if (tick(y, &done, "compact retrograde analysis (cycles), wins and losses", d)) return 1;
      if (!loss_pass && !any_in(y, y->last, n)) continue;
      int open = 0, undecided = 0, good = 0, draws = 0, j;
      uint64_t watch = 0;
      uint32_t farthest = 0, win = 0;
      for (j = 0; j < n; j++) {
        if (win_pass && !bloom_has(y, y->last, c->child[j])) continue;
        if (child_field(y, j, &cf, &rank) < 0) return 1;
        uint64_t code = code_of(y, cf);
        uint32_t cd = dist_of(y, cf);
        if (code == y->und) {
          open = undecided = 1;
          if (!watch) watch = rank + 1;
        } else if (code == y->zero) {
          open = draws = 1;
        } else {
          int64_t score = c->smin + (int64_t)code;
          int64_t sc = (int)(cf & 1) == mover ? score : -score;
          if (sc > 0) {
            good = 1;
            if (cd < d) { win = cd + 1; break; }
          }
          if (sc > 0 || cd >= d) {
            open = 1;
            if (!watch) watch = rank + 1;
          } else if (cd > farthest) {
            farthest = cd;
          }
        }
      }
      if (win) {
        field_put(y, i, make(y, mover, y->zero + 1, win));
      } else if (!open && !win_pass) {
        field_put(y, i, make(y, mover, y->zero - 1, farthest + 1));
      } else {
        if (loss_pass) watch_put(y, i, watch);
        /* Every child decided, none good, some drawn: a draw already. */
        if (!win_pass && j == n && !undecided && !good && draws)
          field_put(y, i, make(y, mover, y->zero, y->pending));
        continue;
      }
      bloom_add(y, y->fresh, retro_compact_unsqueeze(y->L, sq));
      decided++;
      r->labelled++;
    }
    if (decided == 0) return 0;
  }
}

/* The draws' lengths: every undecided position a draw of no known end,
** then passes e = 1, 2, ... (see the top), a position looked at only when
** a child is in the last pass's filter (the draws that got a length). */
static int label_draws(Cycles *y) {
  RetroCompact *c = y->c;
  uint64_t n = y->L->keys.n, done = 0;
  for (uint64_t i = 0; i < n; i++) {
    uint64_t f = field_get(y, i);
    if (code_of(y, f) == y->und) field_put(y, i, make(y, (int)(f & 1), y->zero, y->pending));
  }
  /* Pass 0: the ends drawn (distance 0) into the filter. */
  EfIter it0;
  uint64_t sq0, i0 = 0;
  bloom_turn(y);
  efset_iter_init(&it0, &y->L->keys);
  for (; efset_next(&it0, &sq0); i0++)
    if (field_get(y, i0) >> 1 == y->zero) bloom_add(y, y->fresh, retro_compact_unsqueeze(y->L, sq0));
  for (uint32_t e = 1;; e++) {
    uint64_t decided = 0, sq, i = 0;
    EfIter it;
    if (room_for(y, e) < 0) return -1;
    bloom_turn(y);
    c->passes++;
    efset_iter_init(&it, &y->L->keys);
    for (; efset_next(&it, &sq); i++) {
      uint64_t f = field_get(y, i), cf, rank;
      if (code_of(y, f) != y->zero || dist_of(y, f) != y->pending) continue;
      int mover = (int)(f & 1);
      Outcome o;
      int k = expand_at(y, sq, &o);
      if (k < 0) return ended_late(y);
      if (tick(y, &done, "compact retrograde analysis (cycles), draws", e)) return 1;
      if (!any_in(y, y->last, k)) continue;
      uint32_t got = 0, farthest = 0;
      int all = 1, ndraws = 0;
      for (int j = 0; j < k; j++) {
        if (child_field(y, j, &cf, &rank) < 0) return 1;
        if (code_of(y, cf) != y->zero) continue;
        uint32_t cd = dist_of(y, cf);
        ndraws++;
        if (cd >= e) { all = 0; if (mover == 1) break; continue; }
        if (mover == 0) { got = cd + 1; break; }
        if (cd > farthest) farthest = cd;
      }
      if (mover == 1 && all && ndraws) got = farthest + 1;
      if (got) {
        field_put(y, i, make(y, mover, y->zero, got));
        bloom_add(y, y->fresh, retro_compact_unsqueeze(y->L, sq));
        decided++;
      }
    }
    if (decided == 0) return 0;
  }
}

/* Scored games: a position decided once all its children are, the best
** of their values in the order every solver uses. */
static int label_scores(Cycles *y) {
  Retro *r = y->r;
  RetroCompact *c = y->c;
  uint64_t left = 0, done = 0;
  for (uint32_t pass = 1;; pass++) {
    uint64_t decided = 0, sq, i = 0;
    EfIter it;
    c->passes++;
    left = 0;
    efset_iter_init(&it, &y->L->keys);
    for (; efset_next(&it, &sq); i++) {
      uint64_t f = field_get(y, i), cf, rank;
      if (code_of(y, f) != y->und) continue;
      int mover = (int)(f & 1);
      Outcome o;
      int n = expand_at(y, sq, &o);
      if (n < 0) return ended_late(y);
      Value best = -VALUE_INF;
      int j;
      for (j = 0; j < n; j++) {
        if (child_field(y, j, &cf, &rank) < 0) return 1;
        uint64_t code = code_of(y, cf);
        if (code == y->und) break;
        int64_t score = c->smin + (int64_t)code;
        Value v = value_make((int)(cf & 1) == mover ? score : -score, (int64_t)dist_of(y, cf) + 1, mover);
        if (v > best) best = v;
      }
      if (tick(y, &done, "compact retrograde analysis (cycles), scores", pass)) return 1;
      if (j < n) {
        left++;
        continue;
      }
      int64_t s, d;
      value_decode(best, &s, &d);
      if (room_for(y, (uint64_t)d) < 0) return -1;
      field_put(y, i, make(y, mover, (uint64_t)(s - c->smin), (uint64_t)d));
      decided++;
      r->labelled++;
    }
    if (left == 0) return 0;
    if (decided == 0)
      return retro_fail(r, EXIT_USAGE, "this game scores beyond win, loss and draw and has cycles: "
                        "retrograde analysis of scored games needs an acyclic game"), 1;
  }
}

/* The fields at the fewest bits of distance that hold the longest one and
** the pending code above it, which becomes the table's `endless`. */
static int shrink(Cycles *y) {
  uint64_t n = y->L->keys.n;
  uint32_t longest = 0;
  for (uint64_t i = 0; i < n; i++) {
    uint32_t d = dist_of(y, field_get(y, i));
    if (d != y->pending && d > longest) longest = d;
  }
  int dbits = bits_for((uint64_t)longest + 1);
  if (dbits != y->L->dbits && repack(y, dbits) < 0) return -1;
  y->c->endless = y->pending;
  return 0;
}

/* The passes' scratch -- the two filters and the watched children --
** in the layer's `cache` (freed with the table: a rule failing at run
** time leaves by longjmp), freed at the end.  0, or -1 out of memory. */
static int label(Cycles *y) {
  Retro *r = y->r;
  uint64_t n = y->L->keys.n;
  int lg = 16;
  while (lg < 40 && (UINT64_C(1) << lg) < 4 * n) lg++;
  y->bmask = (UINT64_C(1) << lg) - 1;
  y->bshift = 64 - lg;
  y->bwords = (size_t)1 << (lg - 6);
  y->rb = bits_for(n);
  size_t scratch_words = 2 * y->bwords + bits_words(n, y->rb);
  /* The fields' memory is known now: refused before it is taken. */
  size_t need = retro_compact_bytes(r) + (bits_words(n, 1 + y->c->sbits + 7) + scratch_words) * 8;
  if (r->memory_limit && need > r->memory_limit) return too_big(r, need), 1;
  if (need > y->c->peak) y->c->peak = need;
  if (!(y->L->cache = calloc(scratch_words, sizeof *y->L->cache)) || repack(y, 7) < 0) return -1;
  y->last = y->L->cache;
  y->fresh = y->last + y->bwords;
  y->watch = y->fresh + y->bwords;
  int rc = label_ends(y);
  if (rc == 0) rc = y->scored ? label_scores(y) : label_wins(y);
  if (rc == 0 && !y->scored) rc = label_draws(y);
  if (rc == 0) rc = shrink(y);
  free(y->L->cache);
  y->L->cache = NULL;
  return rc;
}

int retro_compact_cycles_solve(Retro *r, Search *s) {
  Game *g = r->g;
  const char *why = retro_compact_refusal(r);
  if (why) return retro_fail(r, EXIT_USAGE, "--compact: %s (drop --compact)", why);
  choose_canonical(r);
  free(r->root_state);
  r->root_state = malloc(g->state_bytes);
  if (!r->root_state || retro_compact_scratch(r) < 0) return out_of_memory(r);
  memcpy(r->root_state, game_state(g), g->state_bytes);
  Cycles y;
  memset(&y, 0, sizeof y);
  y.r = r;
  y.c = r->cpt;
  double t0 = clock_seconds();
  int rc = enumerate(&y);
  double t1 = clock_seconds();
  if (rc == 0) {
    progress_note(r->progress, "compact retrograde analysis (cycles), labelling", NULL, 0,
                  "positions", 0);
    rc = label(&y);
  }
  g->vt->set_state(g, r->root_state);
  if (rc < 0) return out_of_memory(r);
  if (rc > 0) return r->status;
  size_t now = retro_compact_bytes(r);
  if (now > r->cpt->peak) r->cpt->peak = now;
  r->enumerate_seconds = r->cpt->forward_seconds = t1 - t0;
  r->label_seconds = r->cpt->backward_seconds = clock_seconds() - t1;
  s->nodes = r->positions;
  return retro_answer(r, s);
}

void retro_compact_cycles_note(const Retro *r, FILE *f) {
  const RetroCompact *c = r->cpt;
  if (!c || !c->passes) return;
  fprintf(f, "stats: compact form with cycles: %u passes, %llu positions expanded (%.1f a stored "
          "position, the enumeration's included)\n", c->passes,
          (unsigned long long)(c->expansions + r->stored),
          (double)(c->expansions + r->stored) / (double)(r->stored ? r->stored : 1));
  if (c->handed_at)
    fprintf(f, "stats: compact form with cycles: taken after the layered form's layer %d met an "
            "earlier one\n", c->handed_at);
  struct stat sb;
  if (c->written && stat(c->written, &sb) == 0)
    fprintf(f, "stats: compact form with cycles: wrote '%s', %lld bytes: %.2f bytes a position, "
            "%.2f a stored one\n", c->written, (long long)sb.st_size,
            (double)sb.st_size / (double)(r->positions ? r->positions : 1),
            (double)sb.st_size / (double)(r->stored ? r->stored : 1));
}

/* ------------------------------------------------------------------ */
/* A table read from a file (compact_db.c, format 3)                  */
/* ------------------------------------------------------------------ */

/* Record i of the single layer (retro_compact_value).  0, or -1 when
** its block does not decode (reported). */
static int record(Retro *r, uint64_t i, int *mover, int64_t *score, uint32_t *dist) {
  int32_t s;
  if (retro_compact_value(r, &r->cpt->layer[0], i, mover, &s, dist) < 0) return -1;
  *score = s;
  return 0;
}

static int corrupt(Retro *r, const char *why) {
  return retro_fail(r, EXIT_USAGE, "'%s' is corrupt: a position's record disagrees with the "
                    "rules (%s)", r->db_path ? r->db_path : "the table", why);
}

/* Why record rank (the engine's current position's) cannot be the one
** the passes wrote, or NULL: checked against the rules and its children's
** records (in the same layer) by the hash form's rule (db.c's
** verify_position): an end has its outcome at distance 0; a win a child
** lost for the opponent at d - 1 and none sooner; a loss only children
** won for the opponent, the farthest at d - 1; a draw no winning child and
** a drawn one, the shortest drawn line that ends for player 0 and the
** longest for player 1, a line without end (the distance of all ones)
** over both; a scored game the best child's score and distance (the
** order every solver uses).  *failed when a block does not decode
** (reported). */
static const char *check_record(Retro *r, uint64_t rank, int *failed) {
  RetroCompact *c = r->cpt;
  CompactLayer *L = &c->layer[0];
  Game *g = r->g;
  int mover = game_to_move(g), m, cm;
  int64_t s, cs, smax = -c->smin;
  uint32_t d, cd;
  *failed = 0;
  if (record(r, rank, &m, &s, &d) < 0) return *failed = 1, NULL;
  if (m != (mover & 1)) return "the player to move";
  if (s > smax) return "a score out of range";
  int scored = smax > 1;
  if (d >= RETRO_ENDLESS && (s != 0 || scored)) return "a win, loss or score without end";
  Outcome o;
  int n = retro_compact_expand(r, c, &o);
  if (n < 0) {
    int64_t margin = retro_compact_margin(g, mover, &o);
    return s == margin && d == 0 ? NULL : "the value of a finished game";
  }
  Value best = -VALUE_INF;
  uint32_t win_min = RETRO_ENDLESS, loss_max = 0, draw_min = RETRO_ENDLESS, draw_max = 0;
  int wins = 0, draws = 0, endless = 0;
  for (int j = 0; j < n; j++) {
    int64_t k = retro_compact_rank(L, c->child[j]);
    if (k < 0) return "a move to a position that is not stored";
    if (record(r, (uint64_t)k, &cm, &cs, &cd) < 0) return *failed = 1, NULL;
    if (cs > smax) return "a score out of range";
    int64_t sc = cm == (mover & 1) ? cs : -cs;
    if (cd >= RETRO_ENDLESS && (sc != 0 || scored)) return "a win, loss or score without end";
    if (scored) {
      Value v = value_make(sc, (int64_t)cd + 1, mover);
      if (v > best) best = v;
    } else if (sc > 0) {
      wins++;
      if (cd < win_min) win_min = cd;
    } else if (sc < 0) {
      if (cd > loss_max) loss_max = cd;
    } else {
      draws++;
      if (cd >= RETRO_ENDLESS) endless++;
      else {
        if (cd < draw_min) draw_min = cd;
        if (cd > draw_max) draw_max = cd;
      }
    }
  }
  if (scored) {
    int64_t bs, bd;
    value_decode(best, &bs, &bd);
    return bs == s && bd == (int64_t)d ? NULL : "the best move's score";
  }
  if (s > 0) return wins && win_min + 1 == d ? NULL : "a win without its winning move";
  if (s < 0) return !wins && !draws && loss_max + 1 == d ? NULL : "a loss with a better move";
  if (wins || !draws) return "a draw with a winning move or none drawn";
  if ((mover & 1) == 0)
    return d == (draw_min < RETRO_ENDLESS ? draw_min + 1 : RETRO_ENDLESS) ? NULL : "a draw's length";
  return d == (endless ? RETRO_ENDLESS : draw_max + 1) ? NULL : "a draw's length";
}

int retro_compact_cycles_check_here(Retro *r) {
  RetroCompact *c = r->cpt;
  int64_t rank = retro_compact_rank(&c->layer[0], retro_compact_key(r));
  if (rank < 0) return EXIT_OK;       /* not stored: retro_answer says so */
  Game *g = r->g;
  void *here = malloc(g->state_bytes);
  if (!here) return retro_fail(r, EXIT_LIMIT, "out of memory");
  memcpy(here, game_state(g), g->state_bytes);
  int failed;
  const char *why = check_record(r, (uint64_t)rank, &failed);
  g->vt->set_state(g, here);
  free(here);
  if (failed) return r->status;
  return why ? corrupt(r, why) : EXIT_OK;
}

/* The values decoded whole into the layer's array, so that a child's
** record is not a block decompressed each time: 0; -1 out of memory
** (left in blocks, read one at a time); -2 a block failed (reported). */
static int decode_all(Retro *r) {
  RetroCompact *c = r->cpt;
  CompactLayer *L = &c->layer[0];
  int w = retro_compact_width(c, L);
  uint64_t n = L->keys.n;
  uint64_t *vals = calloc(bits_words(n, w), sizeof *vals);
  if (!vals) return -1;
  for (uint64_t b = 0; b * c->block < n; b++) {
    if (compact_db_block(r, L, b) < 0) {
      free(vals);
      return -2;
    }
    uint64_t first = b * c->block, last = first + c->block < n ? first + c->block : n;
    for (uint64_t i = first; i < last; i++)
      bits_or(vals, i * (uint64_t)w, w, bits_get(L->cache, (i - first) * (uint64_t)w, w));
  }
  L->vals = vals;
  return 0;
}

/* Progress and Ctrl-C every 4096 records checked: 0, or 1 stopped (reported). */
static int tick_check(Retro *r, uint64_t *done) {
  if ((++*done & 0xfff) != 0) return 0;
  if (stop_requested) return stopped(r, *done), 1;
  if (r->progress)
    progress_note(r->progress, "checking the compact table", NULL, *done, "positions",
                  (double)*done / (double)(r->stored ? r->stored : 1));
  return 0;
}

int retro_compact_cycles_verify(Retro *r) {
  RetroCompact *c = r->cpt;
  CompactLayer *L = &c->layer[0];
  Game *g = r->g;
  if (!L->vals && decode_all(r) == -2) return r->status;
  void *here = malloc(g->state_bytes);
  if (!here) return retro_fail(r, EXIT_LIMIT, "out of memory");
  memcpy(here, game_state(g), g->state_bytes);
  EfIter it;
  uint64_t sq, i = 0, done = 0;
  int st = EXIT_OK, failed = 0;
  efset_iter_init(&it, &L->keys);
  for (; st == EXIT_OK && efset_next(&it, &sq); i++) {
    retro_compact_set_key(r, c, retro_compact_unsqueeze(L, sq));
    if (retro_compact_bad_key(r)) {
      st = r->status;
      break;
    }
    const char *bad = check_record(r, i, &failed);
    if (failed) st = r->status;
    else if (bad) st = corrupt(r, bad);
    else if (tick_check(r, &done)) st = r->status;
  }
  g->vt->set_state(g, here);
  free(here);
  return st;
}
