/*
** alphabeta.c -- fail-soft negamax alpha-beta with a transposition table,
** move ordering, null-window probes at the root, and depth-limited
** search with the game's eval.
**
** The pieces, each measured on the bundled games (docs/cli.md, make
** bench) and kept because it cut nodes and time:
**   - a table of lower and upper bounds per position (tt.h), which also
**     narrows the window of the nodes it does not settle;
**   - at each node one pass over the children: terminal ones are folded
**     in without being entered, each other child's table entry may cut
**     the node at once (enhanced transposition cutoff), and the rest are
**     ordered: the table's move, then a history of cutoff moves;
**   - at the root (alphabeta_root.c), MTD(f): null-window probes from a
**     guess of a draw, each moving the guess to the bound the probe
**     returned; then a null window per move that may tie the root value,
**     so the set of optimal moves is exact.
**   - with scores only and the game's bounds, deepening: each probe is
**     proved by searches to a growing horizon whose leaves are worth the
**     bounds (probe_move), so that very long lines (Go under superko)
**     are not followed to their end first.
**
** Contract of ab_search(window alpha, beta), value v of the position:
**   result <= alpha   v <= result  (an upper bound)
**   result >= beta    v >= result  (a lower bound)
**   otherwise         v == result  (exact)
** Fail-soft results are always values of real leaves (or bounds the
** table proved), so they are valid keys (value.h) that the table can
** re-base from ply to ply.  Because keys carry the end ply and the order
** is zero-sum, the value found is exactly minimax's, plies included.
**
** An exact search goes to the end of the game, so its table entries
** never go stale: a bound is a property of the position alone, once its
** end ply is made relative to the node.  A search to a horizon stores the
** plies left to it (the draft) with each entry, and uses only entries of
** the same draft.
*/
#include <stdlib.h>
#include <string.h>
#include "solve/alphabeta_int.h"
#include "util/status.h"
#include "util/stop.h"

/* Depth-limited values: proven wins and losses are moved this far out,
** beyond every heuristic value and draw (|key| < 2^55, value.h). */
#define PROVEN        ((int64_t)1 << 56)
#define PROVEN_HALF   ((int64_t)1 << 55)

/* ---- values --------------------------------------------------------- */

Value alphabeta_proven(Value exact) {
  if (exact > VALUE_BIG / 2) return exact + PROVEN;
  if (exact < -VALUE_BIG / 2) return exact - PROVEN;
  return exact;
}

Value alphabeta_horizon(int32_t h, int depth, int mover) {
  return value_make(h, (int64_t)depth + 1, mover);
}

void alphabeta_decode(Value v, int depth, int64_t *score, int64_t *plies,
                      int *proven) {
  if (v > PROVEN_HALF) v -= PROVEN;
  else if (v < -PROVEN_HALF) v += PROVEN;
  value_decode(v, score, plies);
  *proven = depth == 0 || *plies <= depth;
}

/* value_shift for both exact and depth-limited values.  Score-only
** values have no end ply to move. */
static Value shift(const Ab *a, Value v, int mover, int64_t delta) {
  if (a->score_only) return v;
  if (v > PROVEN_HALF) return value_shift(v - PROVEN, mover, delta) + PROVEN;
  if (v < -PROVEN_HALF) return value_shift(v + PROVEN, mover, delta) - PROVEN;
  return value_shift(v, mover, delta);
}

/* Whether this is a --depth N search (a horizon, and no deepening). */
static int fixed_depth(const Ab *a) { return a->horizon && !a->deepen; }

/* The value of a terminal position at `ply` for `mover`. */
static Value terminal_value(const Ab *a, const Outcome *o, int mover,
                            int ply) {
  Value v = value_from_outcome(o, a->g->nplayers, mover, a->score_only ? 0 : ply);
  return fixed_depth(a) ? alphabeta_proven(v) : v;
}

/* The table keeps entries of each draft apart.  Deepening's two kinds of
** leaves give two kinds of bounds: the optimist's drafts lie above the
** pessimist's. */
#define DRAFT_OPTIMIST (2 * AB_MAX_DEPTH)

static int draft_of(const Ab *a, int ply) {
  if (!a->horizon) return TT_DRAFT_EXACT;
  return a->horizon - ply
         + (a->deepen && a->pessimist != a->s->result.mover ? DRAFT_OPTIMIST : 0);
}

/* --depth N: an entry whose subtree met no position at the horizon has
** this added to its draft (the same value, one more fact). */
#define DRAFT_LEAFLESS (4 * AB_MAX_DEPTH)

/* Whether a table entry of `draft` holds at `ply`: the same draft, or
** with deepening an exact one. */
static int draft_fits(const Ab *a, int draft, int ply) {
  return draft == draft_of(a, ply) || (a->deepen && draft == TT_DRAFT_EXACT)
         || (fixed_depth(a) && draft == draft_of(a, ply) + DRAFT_LEAFLESS);
}

/* Whether an entry used at a node may stand for positions at the horizon
** (so the node's subtree counts as having met one). */
static int may_hide_leaves(const Ab *a, int draft) {
  return draft != TT_DRAFT_EXACT && !(fixed_depth(a) && draft >= DRAFT_LEAFLESS);
}

/* ---- the game's bounds ---------------------------------------------- */

/* Bounds depend on the position alone and cost a program run (Go's runs
** Benson's algorithm), while deepening meets the same positions at every
** depth: a direct-mapped cache, keyed by the full position key. */
#define BOUND_SLOTS (1u << 16)

static void game_bounds(Ab *a, uint64_t hash, const unsigned char *key,
                        int32_t *lo, int32_t *hi) {
  size_t head = sizeof(uint64_t) + 2 * sizeof(int32_t);
  unsigned char *slot = NULL;
  if (a->bslot != head + a->key_bytes) {
    free(a->bcache);
    a->bslot = head + a->key_bytes;
    a->bcache = calloc(BOUND_SLOTS, a->bslot);   /* may fail: no cache */
  }
  if (a->bcache != NULL) {
    uint64_t h;
    slot = a->bcache + (size_t)(hash & (BOUND_SLOTS - 1)) * a->bslot;
    memcpy(&h, slot, sizeof h);
    if (h == hash && memcmp(slot + head, key, a->key_bytes) == 0) {
      memcpy(lo, slot + sizeof h, sizeof *lo);
      memcpy(hi, slot + sizeof h + sizeof *lo, sizeof *hi);
      return;
    }
  }
  if (!a->g->bounds(a->g, lo, hi)) {
    *lo = -VALUE_SCORE_MAX;
    *hi = VALUE_SCORE_MAX;
  }
  if (slot != NULL) {
    memcpy(slot, &hash, sizeof hash);
    memcpy(slot + sizeof hash, lo, sizeof *lo);
    memcpy(slot + sizeof hash + sizeof *lo, hi, sizeof *hi);
    memcpy(slot + head, key, a->key_bytes);
  }
}

/* ---- memory --------------------------------------------------------- */

static int fail_memory(Ab *a) {
  return search_fail(a->s, EXIT_LIMIT, "out of memory");
}

/* The key of the current position, written at `ply` of the key array;
** NULL (status set) if out of memory. */
static const unsigned char *node_key(Ab *a, int ply) {
  unsigned char *k;
  const void *state;
  if (((size_t)ply + 1) * a->key_bytes > a->keys_cap) {
    size_t n = 64;
    while (n <= (size_t)ply) n *= 2;
    if ((k = realloc(a->keys, n * a->key_bytes)) == NULL) {
      fail_memory(a);
      return NULL;
    }
    a->keys = k;
    a->keys_cap = n * a->key_bytes;
  }
  k = a->keys + (size_t)ply * a->key_bytes;
  state = game_state(a->g);
  if (a->g->vt->pack != NULL) {
    a->g->vt->pack(a->g, state, k);
  } else {
    memset(k, 0, a->key_bytes);     /* a state of 0 bytes has a 1-byte key */
    memcpy(k, state, a->g->state_bytes);
  }
  return k;
}

/* Room in the order array for every move on the stack; 0 or -1. */
static int grow_items(Ab *a) {
  OrderItem *it;
  int *rp;
  if (a->nitems >= a->s->ms.cap) return 0;
  it = realloc(a->items, a->s->ms.cap * sizeof *it);
  if (it == NULL) return fail_memory(a), -1;
  a->items = it;
  rp = realloc(a->rep, a->s->ms.cap * sizeof *rp);
  if (rp == NULL) return fail_memory(a), -1;
  a->rep = rp;
  a->nitems = a->s->ms.cap;
  return 0;
}

/* Symmetric lines: room in a->stab for `ply`; 0 or -1. */
static int stab_room(Ab *a, int ply) {
  if ((size_t)ply < a->stab_cap) return 0;
  size_t n = 64;
  while (n <= (size_t)ply) n *= 2;
  uint64_t *st = realloc(a->stab, n * sizeof *st);
  if (st == NULL) return -1;
  a->stab = st;
  a->stab_cap = n;
  return 0;
}

/* Symmetric lines: the root's entry of a->stab; 0 or -1. */
static int line_symmetry_root(Ab *a) {
  if (stab_room(a, 0) != 0) return -1;
  a->stab[0] = ab_sym_root_mask(a) ? ab_sym_fixers(a, ~(uint64_t)0 >> (64 - a->nsym)) : 0;
  return 0;
}

/* Symmetric lines: the elements that fix the line down to the node at
** `ply` (alphabeta_sym.c), from its parent's; 0 or -1. */
static int line_symmetry(Ab *a, int ply) {
  if (stab_room(a, ply) != 0) return fail_memory(a), -1;
  a->stab[ply] = a->stab[ply - 1] ? ab_sym_fixers(a, a->stab[ply - 1]) : 0;
  return 0;
}

/* ---- move ordering -------------------------------------------------- */

static unsigned history_slot(const Move *m) {
  uint32_t h = (uint32_t)m->rule * 0x9e3779b1u;
  for (int k = 0; k < GAME_MAX_ARGS; k++)
    h = (h ^ (uint16_t)m->arg[k]) * 0x85ebca6bu;
  return h >> (32 - HISTORY_BITS);
}

static int64_t *history_of(Ab *a, int mover, const Move *m) {
  return &a->history[((size_t)(mover & 1) << HISTORY_BITS) + history_slot(m)];
}

/* Credits move m of `mover` with a cutoff whose subtree took `nodes`
** nodes: 2^(bit length of nodes), so that a big refutation outweighs
** many small ones.  Credits are halved before they can overflow. */
static void history_credit(Ab *a, int mover, const Move *m, uint64_t nodes) {
  int64_t *h = history_of(a, mover, m);
  int w = 0;
  while (w < HISTORY_MAX_BITS && (nodes >> w) != 0) w++;
  *h += (int64_t)1 << w;
  if (*h > HISTORY_LIMIT)
    for (size_t i = 0; i < (size_t)2 << HISTORY_BITS; i++) a->history[i] /= 2;
}

/* Eval orders the moves of nodes near the root, but not those whose
** children are at the horizon (they are about to be evaluated anyway);
** history orders the others. */
static int eval_orders(const Ab *a, int ply) {
  return (a->eval_all || (a->o->order == AB_ORDER_EVAL && ply < a->o->eval_plies))
      && (!a->horizon || ply + 1 < a->horizon);
}

/* Deepening's order (Ab.eval_all): by eval, and among equal evals (the
** area margin ties often) by the history of cutoffs. */
#define EVAL_CLAMP  ((int64_t)1 << 19)   /* below ORDER_FAR once shifted */
#define EVAL_SHIFT  40
static int64_t eval_then_history(int64_t eval, int64_t history) {
  int64_t cap = ((int64_t)1 << EVAL_SHIFT) - 1;
  if (eval > EVAL_CLAMP) eval = EVAL_CLAMP;
  if (eval < -EVAL_CLAMP) eval = -EVAL_CLAMP;
  return eval * ((int64_t)1 << EVAL_SHIFT) + (history < cap ? history : cap);
}

/* Larger scores first; ties in generation order. */
static int item_cmp(const void *x, const void *y) {
  const OrderItem *p = x, *q = y;
  if (p->score != q->score) return p->score > q->score ? -1 : 1;
  return p->index - q->index;
}

void ab_sort_items(OrderItem *items, int n) {
  if (n <= 16) {          /* insertion sort: stable, and n is small */
    for (int i = 1; i < n; i++) {
      OrderItem t = items[i];
      int j = i;
      for (; j > 0 && items[j - 1].score < t.score; j--) items[j] = items[j - 1];
      items[j] = t;
    }
  } else {
    qsort(items, (size_t)n, sizeof *items, item_cmp);
  }
}

/* Step 4 of a node: one look at each child of the node at `ply` (frame
** f, window f->alpha..f->beta).  A terminal child is never entered: its
** exact value goes straight into f->best.  With `etc`, a child whose
** table entry already proves a value >= beta for the node ends it
** (enhanced transposition cutoff), and one whose entry says it cannot
** raise alpha goes last.  The others are put in search order: the
** table's move, then by eval or history.  Returns the number of children
** left to search, or -1 at a cutoff (f->best is then the result). */
static int scan_children(Ab *a, SearchFrame *f, int ply, int ttmove,
                         int etc) {
  Search *s = a->s;
  Game *g = a->g;
  const Move *moves = &s->ms.moves[f->mbase];
  OrderItem *items = &a->items[f->mbase];
  int use_eval = eval_orders(a, ply), k = 0;
  const int *rep = &a->rep[f->mbase];
  for (int i = 0; i < f->nmoves; i++) {
    Outcome o;
    TtEntry e;
    int64_t sc;
    int child;
    if (rep[i] != i) continue;    /* a symmetric sibling's image */
    game_apply(g, &moves[i]);
    child = game_to_move(g);
    if (game_ended(g, &o)) {
      Value v = terminal_value(a, &o, child, ply + 1);
      game_undo(g);
      if (child != f->mover) v = -v;
      if (v > f->best) {
        f->best = v;
        f->best_i = i;
      }
      if (v > f->alpha) f->alpha = v;
      if (v >= f->beta) return -1;
      continue;
    }
    if (i == ttmove) {
      sc = INT64_MAX;
    } else if (use_eval) {
      sc = game_eval(g);
      a->o->stats.evals++;
      if (child != f->mover) sc = -sc;
      if (a->eval_all) sc = eval_then_history(sc, *history_of(a, f->mover, &moves[i]));
    } else {
      sc = *history_of(a, f->mover, &moves[i]);
    }
    if (etc) {
      const unsigned char *key = node_key(a, ply + 1);
      if (key == NULL) {
        game_undo(g);
        return -2;
      }
      GhiStored gs;
      Ghi gv;
      if (tt_probe_payload(a->tt, game_hash(g), key, &e, a->ghi ? &gs : NULL)
          && draft_fits(a, e.draft, ply + 1)
          && (!a->ghi || ghi_valid(&gs, g, f->line + 1, &gv))) {
        /* The child's bounds, seen from this node. */
        Value lo = e.lower == -TT_NO_BOUND ? -VALUE_INF
                 : shift(a, e.lower, child, ply + 1);
        Value hi = e.upper == TT_NO_BOUND ? VALUE_INF
                 : shift(a, e.upper, child, ply + 1);
        if (child != f->mover) {
          Value t = lo;
          lo = -hi;
          hi = -t;
        }
        if (lo >= f->beta) {
          game_undo(g);
          f->best = lo;
          f->best_i = i;
          a->o->stats.etc_cutoffs++;
          if (may_hide_leaves(a, e.draft)) a->leaves++;   /* it may hide some */
          if (a->ghi) ghi_fold(&f->ghi, &gv, f->line);
          return -1;
        }
        if (hi <= f->alpha) sc = -ORDER_FAR;
      }
    }
    game_undo(g);
    items[k].index = i;
    items[k].score = sc;
    k++;
  }
  ab_sort_items(items, k);
  return k;
}

/* ---- the search ----------------------------------------------------- */

/* A node is done: stores its bounds and credits the move that cut. */
static void finish_node(Ab *a, const SearchFrame *f, int ply) {
  Search *s = a->s;
  /* Deepening: a subtree that met no leaf at the horizon is exact, and
  ** its entry serves every depth; one that did must not replace an exact
  ** entry.  --depth N: such a subtree's entry is marked leafless (its
  ** draft + DRAFT_LEAFLESS), for the test that ends the deepening. */
  int leafless = a->leaves == f->leaves0, exact = a->deepen && leafless;
  if (a->tt != NULL && (exact || !f->exact_entry)) {
    Value rel = shift(a, f->best, f->mover, -ply);
    int64_t lower = f->best > f->alpha0 ? rel : -TT_NO_BOUND;
    int64_t upper = f->best < f->beta0 ? rel : TT_NO_BOUND;
    int move = f->best > f->alpha0 ? f->best_i : TT_NO_MOVE;
    GhiStored gs;
    if (a->ghi) ghi_store(&f->ghi, &gs);
    if (!a->ghi || !f->ghi.overflow)
      tt_store_payload(a->tt, f->hash, a->keys + (size_t)ply * a->key_bytes, lower,
                       upper, move, exact ? TT_DRAFT_EXACT
                       : draft_of(a, ply) + (fixed_depth(a) && leafless ? DRAFT_LEAFLESS : 0),
                       s->nodes - f->nodes0,
                       a->ghi ? &gs : NULL);
  }
  if (a->o->order != AB_ORDER_NONE && (!eval_orders(a, ply) || a->eval_all)
      && f->best >= f->beta0 && f->nmoves > 1)
    history_credit(a, f->mover, &s->ms.moves[f->mbase + (size_t)f->best_i],
                   s->nodes - f->nodes0);
}

/* Alpha-beta value of the current position (alphabeta_int.h). */
Value ab_search(Ab *a, int top, Value alpha, Value beta) {
  Search *s = a->s;
  Game *g = a->g;
  Tt *tt = a->tt;
  size_t path0 = s->path.len, ms0 = s->ms.top;
  int ply = top;
  SearchFrame *f;
  Outcome o;
  TtEntry e;
  Value r;
  int n, ttmove;
  int32_t blo = 0, bhi = 0;   /* the game's bounds (a->bounds) */
  const unsigned char *key;   /* the node's key, once made */

enter:
  /* Step 1. A new node with window (alpha, beta): a terminal position?
  ** At the horizon, a position with moves is worth its eval. */
  s->nodes++;
  key = NULL;
  search_tick(s, ply);
  if ((f = search_frame(s, ply)) == NULL) goto fail;
  f->mover = game_to_move(g);
  f->leaves0 = a->leaves;
  f->exact_entry = 0;
  if (a->ghi) {
    ghi_clear(&f->ghi);
    f->line = ghi_index(g);
  }
  if (a->nsym && line_symmetry(a, ply) != 0) goto fail;
  if (game_ended(g, &o)) {
    if (a->ghi) ghi_add_trace(&f->ghi, g, f->line);
    r = terminal_value(a, &o, f->mover, ply);
    goto leave;
  }
  if (a->ghi) ghi_add_trace(&f->ghi, g, f->line);
  /* Step 1b. Scores only: where the game's proven bounds meet, the
  ** score is known without search ("early win detection").  They
  ** depend on the position alone, so the line's history plays no part.
  ** (Bounds that only settle the window were measured too: their loose
  ** fail-soft values cost more nodes than they save, 2x3 Go 23 k -> 222 k.
  ** Deepening uses them at its horizon, and there they pay.) */
  if (a->bounds) {
    key = node_key(a, ply);
    if (key == NULL) goto fail;
    f->hash = game_hash(g);
    game_bounds(a, f->hash, key, &blo, &bhi);
    if (blo == bhi) {
      a->o->stats.bound_cutoffs++;
      r = value_make(blo, 0, f->mover);
      goto leave;
    }
  }
  if (a->horizon && ply >= a->horizon) {
    size_t m0 = s->ms.top;
    /* Leaves at the horizon are never interior nodes, where the stop is
    ** checked: a depth-1 search of a big board (genmove on 19x19 Go,
    ** hundreds of evals) would run to its end past a deadline.  One
    ** load of the flag against an eval. */
    if (stop_requested && !search_depth_ok(s, ply)) goto fail;
    if ((n = movestack_generate(&s->ms, g)) < 0) {
      fail_memory(a);
      goto fail;
    }
    if (a->ghi) ghi_add_trace(&f->ghi, g, f->line);
    s->ms.top = m0;
    if (n == 0) {
      game_no_moves(g, &o);
      r = terminal_value(a, &o, f->mover, ply);
    } else if (a->deepen) {
      /* The pessimist's lower bound, or the other's upper bound. */
      a->leaves++;
      r = value_make(f->mover == a->pessimist ? blo : bhi, 0, f->mover);
    } else {
      a->leaves++;
      r = alphabeta_horizon(game_eval(g), a->horizon, f->mover);
      a->o->stats.evals++;
    }
    goto leave;
  }
  if (!a->bounds) f->hash = game_hash(g);   /* else Step 1b made it */
  if (search_path_push(s, f->hash) != 0) goto fail;

  /* Step 2. The table may settle it, narrow the window, or name a move. */
  ttmove = TT_NO_MOVE;
  if (tt != NULL) {
    if (key == NULL) key = node_key(a, ply);   /* Step 1b may have made it */
    if (key == NULL) goto fail;
    GhiStored gs;
    Ghi gv;
    if (tt_probe_payload(tt, f->hash, key, &e, a->ghi ? &gs : NULL)) {
      ttmove = e.move;
      /* Under a repetition rule the bounds hold only for lines that meet
      ** the subtree as the stored one did; then the node inherits that. */
      f->exact_entry = a->deepen && e.draft == TT_DRAFT_EXACT;
      if (draft_fits(a, e.draft, ply) && (!a->ghi || ghi_valid(&gs, g, f->line, &gv))) {
        if (a->ghi) ghi_fold(&f->ghi, &gv, f->line + 1);
        Value lo = e.lower == -TT_NO_BOUND ? -VALUE_INF
                 : shift(a, e.lower, f->mover, ply);
        Value hi = e.upper == TT_NO_BOUND ? VALUE_INF
                 : shift(a, e.upper, f->mover, ply);
        if (lo >= beta || hi <= alpha || lo == hi) {
          r = lo >= beta ? lo : hi;
          tt_stats(tt)->cutoffs++;
          if (may_hide_leaves(a, e.draft)) a->leaves++;
          search_path_pop(s);
          goto leave;
        }
        /* A window narrowed by a depth's bound is that depth's too. */
        if ((lo > alpha || hi < beta) && may_hide_leaves(a, e.draft)) a->leaves++;
        if (lo > alpha) alpha = lo;
        if (hi < beta) beta = hi;
      }
    }
  }

  /* Step 3. Generate. */
  f->mbase = s->ms.top;
  if ((n = movestack_generate(&s->ms, g)) < 0) {
    fail_memory(a);
    goto fail;
  }
  if (a->ghi) ghi_add_trace(&f->ghi, g, f->line);
  if (n == 0) {
    game_no_moves(g, &o);
    r = terminal_value(a, &o, f->mover, ply);
    s->ms.top = f->mbase;
    search_path_pop(s);
    goto leave;
  }
  if (!search_depth_ok(s, ply) || grow_items(a) != 0) goto fail;
  {
    /* Symmetric lines: one move of each set of images.  A node that left
    ** some out is not stored under a repetition rule (alphabeta_sym.c). */
    int dups = ab_sym_mark(a, a->nsym ? a->stab[ply] : 0, &s->ms.moves[f->mbase], n,
                           &a->rep[f->mbase]);
    if (dups < 0) {
      fail_memory(a);
      goto fail;
    }
    if (dups > 0 && a->ghi) f->ghi.overflow = 1;
  }
  f->nmoves = n;
  f->alpha = f->alpha0 = alpha;
  f->beta = f->beta0 = beta;
  f->best = -VALUE_INF;
  f->best_i = 0;
  f->nodes0 = s->nodes - 1;

  /* Step 4. Look at the children: terminal ones settle at once, the
  ** others are ordered. */
  if (a->o->order == AB_ORDER_NONE || n == 1) {
    /* Generation order, symmetric images left out, the table's move
    ** swapped to the front. */
    OrderItem *it = &a->items[f->mbase];
    const int *rp = &a->rep[f->mbase];
    int k = 0;
    for (int i = 0; i < n; i++) {
      if (rp[i] != i) continue;
      it[k].index = i;
      it[k].score = 0;
      if (i == ttmove && k > 0) {
        it[k].index = it[0].index;
        it[0].index = i;
      }
      k++;
    }
    f->nmoves = n = k;
  } else {
    int etc = tt != NULL && a->o->etc
              && (!a->horizon || ply + 1 < a->horizon);
    n = scan_children(a, f, ply, ttmove < n ? ttmove : -1, etc);
    if (a->ghi) ghi_add_trace(&f->ghi, g, f->line);   /* the children's end tests */
    if (n == -2) goto fail;
    if (n <= 0) {         /* a cutoff, or every child was terminal */
      finish_node(a, f, ply);
      s->ms.top = f->mbase;
      search_path_pop(s);
      r = f->best;
      goto leave;
    }
    f->nmoves = n;
  }
  f->i = 0;

next:
  /* Step 5. Descend into the f->i-th child.  If the same player moves
  ** again the window and the value pass through unchanged, else both
  ** are negated. */
  game_apply(g, &s->ms.moves[f->mbase + (size_t)a->items[f->mbase + (size_t)f->i].index]);
  f->flip = game_to_move(g) != f->mover;
  alpha = f->flip ? -f->beta : f->alpha;
  beta = f->flip ? -f->alpha : f->beta;
  ply++;
  goto enter;

leave:
  /* Step 6. Node at `ply` has value r: fold it into its parent, which
  ** stops at a cutoff or after its last child. */
  if (ply == top) return r;
  ply--;
  game_undo(g);
  f = &s->frames[ply];
  if (a->ghi) ghi_fold(&f->ghi, &s->frames[ply + 1].ghi, f->line);
  if (f->flip) r = -r;
  if (r > f->best) {
    f->best = r;
    f->best_i = a->items[f->mbase + (size_t)f->i].index;
  }
  if (r > f->alpha) f->alpha = r;
  if (f->best < f->beta && ++f->i < f->nmoves) goto next;
  finish_node(a, f, ply);
  s->ms.top = f->mbase;
  search_path_pop(s);
  r = f->best;
  goto leave;

fail:
  search_unwind(s, ply, top, path0, ms0);
  return 0;
}


void alphabeta_options(AbOptions *o) {
  memset(o, 0, sizeof *o);
  o->order = AB_ORDER_HISTORY;
  o->root = AB_ROOT_AUTO;
  o->eval_plies = AB_MAX_DEPTH;
  o->etc = 1;
  o->deepen = 1;
  o->symmetry = 1;
}

static void free_ab(void *p) {
  Ab *a = p;
  free(a->keys);
  free(a->items);
  free(a->history);
  free(a->order);
  free(a->lo);
  free(a->hi);
  free(a->bcache);
  free(a->stab);
  free(a->rep);
  free(a->rootrep);
  free(a->sym_states);
  free(a->sym_img);
  free(a->sym_head);
  free(a->sym_next);
  free(a);
}

/* The Search's Ab, made on first use; its arrays grown for n root moves,
** the history cleared.  NULL (status set) if out of memory. */
static Ab *get_ab(Search *s, int n) {
  Ab *a = s->work;
  if (s->free_work != free_ab) {
    if (s->free_work != NULL) s->free_work(s->work);
    s->work = NULL;
    s->free_work = NULL;
    if ((a = calloc(1, sizeof *a)) == NULL) goto fail;
    s->work = a;
    s->free_work = free_ab;
  }
  if (a->history == NULL
      && (a->history = malloc(((size_t)2 << HISTORY_BITS)
                              * sizeof *a->history)) == NULL)
    goto fail;
  memset(a->history, 0, ((size_t)2 << HISTORY_BITS) * sizeof *a->history);
  if ((size_t)n > a->nroot) {
    OrderItem *order = realloc(a->order, (size_t)n * sizeof *order);
    Value *lo, *hi;
    if (order == NULL) goto fail;
    a->order = order;
    if ((lo = realloc(a->lo, (size_t)n * sizeof *lo)) == NULL) goto fail;
    a->lo = lo;
    if ((hi = realloc(a->hi, (size_t)n * sizeof *hi)) == NULL) goto fail;
    a->hi = hi;
    int *rr = realloc(a->rootrep, (size_t)n * sizeof *rr);
    if (rr == NULL) goto fail;
    a->rootrep = rr;
    a->nroot = (size_t)n;
  }
  return a;

fail:
  search_fail(s, EXIT_LIMIT, "out of memory");
  return NULL;
}

/* The size of a position's key now (packed, or the state; at least one
** byte), the key array dropped when it changed. */
static size_t set_key_bytes(Ab *a) {
  Game *g = a->g;
  size_t key_bytes = g->vt->pack != NULL ? g->key_bytes : g->state_bytes;
  if (key_bytes == 0) key_bytes = 1;
  if (a->key_bytes != key_bytes) {
    a->key_bytes = key_bytes;
    free(a->keys);
    a->keys = NULL;
    a->keys_cap = 0;
  }
  return key_bytes;
}

int alphabeta_run(Search *s, Tt *tt, AbOptions *o) {
  SolveResult *r = &s->result;
  Game *g = s->g;
  Ab *a;
  size_t key_bytes;
  int n, d;

  memset(&o->stats, 0, sizeof o->stats);
  if (search_root_begin(s) != EXIT_OK || r->terminal) return s->status;

  /* Step 1. Memory: the working arrays, the table's layout. */
  n = r->nmoves;
  if ((a = get_ab(s, n)) == NULL) goto done;
  a->s = s;
  a->g = g;
  a->tt = tt;
  a->o = o;
  a->score_only = o->score_only;
  a->bounds = o->score_only && !o->depth && g->bounds != NULL;
  a->deepen = a->bounds && o->deepen;
  /* Deepening with a game's eval: the eval estimates the very score the
  ** bounds enclose (Go: the area margin); every node is ordered by it,
  ** and among equal evals by the history of cutoffs (4x4 Go after b2 c3
  ** c2 b3: 9.40 M nodes by history alone, 6.44 M by eval alone, 4.46 M
  ** by both; the evals cost less than they save). */
  a->eval_all = a->deepen && g->has_eval && o->order == AB_ORDER_HISTORY;
  if (a->bcache != NULL) memset(a->bcache, 0, BOUND_SLOTS * a->bslot);
  /* A repetition rule: the keys leave the line out, and each entry says
  ** what its subtree met of it (ghi.h); without a table, nothing to do. */
  a->ghi = tt != NULL && g->has_history && g->vt->history_trace != NULL
           && g->vt->history_key != NULL && g->vt->history_line != NULL;
  if (g->vt->history_key != NULL) g->vt->history_key(g, !a->ghi);
  key_bytes = set_key_bytes(a);     /* after history_key, which may change it */
  if (tt != NULL && tt_prepare_payload(tt, key_bytes, a->ghi ? sizeof(GhiStored) : 0) != 0) {
    fail_memory(a);
    goto done;
  }
  /* Symmetric lines: the root's elements, and its moves' representatives
  ** (ab_search_root gives each image its representative's value). */
  if (ab_sym_setup(a) != 0 || (a->nsym && line_symmetry_root(a) != 0)
      || ab_sym_mark(a, a->nsym ? a->stab[0] : 0, r->moves, n, a->rootrep) < 0) {
    fail_memory(a);
    goto done;
  }

  /* Step 2. Exact: one search.  Depth N: iterative deepening, depth 1
  ** to N, each depth ordering the root moves for the next by their
  ** values (its table entries have another draft: they order the moves
  ** of the next depth, and do not give it values).  A depth whose search
  ** met no position at its horizon (nor a table entry that may stand for
  ** one) solved the position exactly: deeper ones would repeat it (Nim
  ** with --depth 10000: 22.6 M nodes -> 33,525). */
  ab_order_root(a, a->order);
  for (d = o->depth ? 1 : 0; d <= o->depth; d++) {
    a->horizon = d;
    a->leaves = 0;
    o->stats.iterations++;
    if (d > 1) {
      for (int k = 0; k < n; k++)
        a->order[k].score = r->values[a->order[k].index];
      ab_sort_items(a->order, n);
    }
    ab_search_root(a, a->order, a->lo, a->hi);
    if (s->status != EXIT_OK || (d > 0 && a->leaves == 0)) break;
  }

done:
  search_root_finish(s);
  return s->status;
}

int alphabeta_solve(Search *s, Tt *tt, int all_moves) {
  AbOptions o;
  alphabeta_options(&o);
  o.all_moves = all_moves;
  return alphabeta_run(s, tt, &o);
}
