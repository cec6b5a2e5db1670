/*
** alphabeta_root.c -- the root of an alphabeta solve: the first order of
** the root moves, then its value by MTD(f) null-window probes or by a
** window per move, deepening proofs under the game's bounds, and a null
** window per move that may tie the root value, so that the set of
** optimal moves is exact.  The nodes below are ab_search's (alphabeta.c).
*/
#include <assert.h>
#include <string.h>
#include "solve/alphabeta_int.h"
#include "util/status.h"
#include "util/stop.h"

/* The first order of the root moves: terminal ones by their value, the
** others by eval (they are few: eval is worth its cost here). */
void ab_order_root(Ab *a, OrderItem *order) {
  SolveResult *r = &a->s->result;
  Game *g = a->g;
  for (int i = 0; i < r->nmoves; i++) {
    order[i].index = i;
    order[i].score = 0;
  }
  for (int i = 0; i < r->nmoves; i++) {
    Outcome o;
    int child;
    /* A stop leaves the rest unordered; the first search then fails. */
    if (a->o->order == AB_ORDER_NONE || stop_requested) break;
    game_apply(g, &r->moves[i]);
    child = game_to_move(g);
    if (game_ended(g, &o)) {
      Value v = value_from_outcome(&o, g->nplayers, child, 1);
      if (child != r->mover) v = -v;
      order[i].score = v > VALUE_BIG / 2 ? ORDER_FAR + v
                     : v < -VALUE_BIG / 2 ? -ORDER_FAR + v : 0;
    } else {
      order[i].score = game_eval(g);
      a->o->stats.evals++;
      if (child != r->mover) order[i].score = -order[i].score;
    }
    game_undo(g);
  }
  ab_sort_items(order, r->nmoves);
}

/* Root move i's value for the root mover, searched within (alpha, beta)
** of the root mover's view. */
static Value search_move(Ab *a, int i, Value alpha, Value beta) {
  SolveResult *r = &a->s->result;
  Game *g = a->g;
  int flip;
  Value v;
  a->o->stats.probes++;
  a->s->root_move = i;
  a->s->root_pass = a->o->stats.probes;
  game_apply(g, &r->moves[i]);
  if (a->ghi) {   /* the root's own tests: the root is not stored */
    Ghi drop;
    ghi_clear(&drop);
    ghi_add_trace(&drop, g, 0);
  }
  flip = game_to_move(g) != r->mover;
  v = flip ? -ab_search(a, 1, -beta, -alpha) : ab_search(a, 1, alpha, beta);
  game_undo(g);
  return v;
}

/* Whether root move i reaches x: its value is >= x if the result is,
** else below it (and the result an upper bound).  Deepening answers it
** with searches to a horizon 6, 12, 18, ... plies away, whose leaves are
** worth the bounds the game proves: at each depth a search with the
** root mover's lower bounds at the leaves (a result >= x proves it) and
** one with his upper bounds (a result < x proves the contrary); a
** search that met no leaf at the horizon is exact.  Thus a line that
** goes on for a thousand moves under a repetition rule is never followed
** blindly to its end: the first proof found is among the shallowest.
** Steps of 6 plies were measured best of 1, 2, 3, 4, 6, 8, 12 and
** doubling on Go 1x5, 1x6, 2x2, 2x3 and 3x3 (3x3: 150,746 nodes by steps
** of 1, 53,879 by 6). */
#define DEEPEN_STEP 6
static int64_t score_of(Value v);
static Value probe_move(Ab *a, int i, Value x) {
  SolveResult *r = &a->s->result;
  Value v = 0;
  int proven = 0;
  if (!a->deepen) return search_move(a, i, x - 1, x);
  /* For the progress line: the least score whose value reaches x. */
  a->s->root_goal = score_of(x) - 1;
  while (value_make(a->s->root_goal, 0, r->mover) < x) a->s->root_goal++;
  a->s->root_goal_set = 1;
  for (int d = DEEPEN_STEP; d <= AB_MAX_DEPTH && !proven; d += DEEPEN_STEP) {
    a->horizon = d;
    a->s->root_horizon = d;
    a->o->stats.iterations++;
    a->pessimist = r->mover;
    a->leaves = 0;
    v = search_move(a, i, x - 1, x);
    if (a->s->status != EXIT_OK) break;
    proven = v >= x || a->leaves == 0;
    if (proven) break;
    a->pessimist = 1 - r->mover;
    a->leaves = 0;
    v = search_move(a, i, x - 1, x);
    if (a->s->status != EXIT_OK) break;
    proven = v < x || a->leaves == 0;
  }
  a->horizon = 0;
  a->s->root_goal_set = 0;
  if (a->s->status == EXIT_OK && !proven)
    search_fail(a->s, EXIT_LIMIT, "no proof within %d plies", AB_MAX_DEPTH);
  return v;
}

/* The smallest key with score s (value.h: a score's keys lie within
** BIG/2 of s*BIG). */
static Value score_floor(int64_t s) {
  return s * VALUE_BIG - VALUE_BIG / 2 + 1;
}

static int64_t score_of(Value v) {
  int64_t s, p;
  value_decode(v, &s, &p);
  return s;
}

/* MTD(f): the next null-window test x, lo < x <= hi, for a value known
** to lie in [lo, hi]: just above the lower bound if the last probe
** raised it (`raised`), else at the upper bound it lowered.  The first
** guess is a draw, where most games' values are or start. */
static Value next_test(const Ab *a, Value lo, Value hi, int raised) {
  if (lo == -VALUE_INF && hi == VALUE_INF)
    return a->horizon ? 0 : score_floor(0);
  if (hi == VALUE_INF || (raised && lo != -VALUE_INF)) return lo + 1;
  return hi;
}

/* Folds the result v of a probe at x into the bounds [*lo, *hi] of a
** move.  Each probe narrows them strictly (v >= x > *lo, or v < x <=
** *hi), so the probing loops end. */
static void narrow(Value *lo, Value *hi, Value v, Value x) {
  if (v >= x) {
    if (v > *lo) *lo = v;
  } else if (v < *hi) {
    *hi = v;
  }
  assert(*lo <= *hi);
}

/* Whether v (exact search) is a score beyond a plain win or loss. */
static int has_margin(const Ab *a, Value v) {
  int64_t sc = score_of(v);
  return !a->horizon && (sc > 1 || sc < -1);
}

/* Plain root: a window per move whose floor rises with the best value so
** far (-infinity for all_moves); a result above the floor is exact, one
** at or below it an upper bound.  Bounds already known are kept: a move
** exact already is skipped, and one that cannot beat the floor too
** (ab_search_root checks the ties). */
static void root_window(Ab *a, const OrderItem *order, Value *lo, Value *hi) {
  SolveResult *r = &a->s->result;
  Value alpha = -VALUE_INF;
  for (int i = 0; i < r->nmoves; i++)
    if (lo[i] > alpha) alpha = lo[i];
  for (int k = 0; k < r->nmoves; k++) {
    int i = order[k].index;
    Value floor = a->o->all_moves ? -VALUE_INF : alpha, v;
    if (a->rootrep[i] != i || lo[i] == hi[i] || hi[i] <= floor) continue;
    v = search_move(a, i, floor, VALUE_INF);
    if (a->s->status != EXIT_OK) return;
    if (v > floor) lo[i] = hi[i] = v;
    else if (v < hi[i]) hi[i] = v;
    if (lo[i] > alpha) alpha = lo[i];
  }
}

/* Null-window probes on the root value: probe x asks each move in turn
** whether it reaches x, and stops at the first that does.  Returns 1 if
** a probe shows scores beyond a plain win or loss: probes would creep
** towards such a value, wide windows do better (root_window). */
static int root_probes(Ab *a, const OrderItem *order, Value *lo, Value *hi) {
  SolveResult *r = &a->s->result;
  Search *s = a->s;
  int raised = 0, k0 = 0;
  while (a->rootrep[order[k0].index] != order[k0].index) k0++;   /* the first move searched */
  int first = order[k0].index;
  for (;;) {
    Value vlo = -VALUE_INF, vhi = -VALUE_INF, x;
    for (int i = 0; i < r->nmoves; i++) {
      if (a->rootrep[i] != i) continue;   /* a symmetric image: not searched */
      if (lo[i] > vlo) vlo = lo[i];
      if (hi[i] > vhi) vhi = hi[i];
    }
    assert(vlo <= vhi);
    if (vlo == vhi) return 0;
    x = next_test(a, vlo, vhi, raised);
    raised = 0;
    /* The move that reached the last bound goes first. */
    for (int k = -1; k < r->nmoves; k++) {
      int i = k < 0 ? first : order[k].index;
      Value v;
      if ((k >= 0 && i == first) || hi[i] < x || a->rootrep[i] != i) continue;
      v = probe_move(a, i, x);
      if (s->status != EXIT_OK) return 0;
      narrow(&lo[i], &hi[i], v, x);
      if (!a->deepen && has_margin(a, v)) return 1;
      if (v >= x) {
        first = i;
        raised = 1;
        break;
      }
    }
  }
}

/* Null-window probes on one move until its value is known (or, once a
** probe shows margins, a wide window). */
static void settle_move(Ab *a, int i, Value *lo, Value *hi) {
  int raised = 0;
  while (lo[i] < hi[i]) {
    Value x = next_test(a, lo[i], hi[i], raised);
    Value v = probe_move(a, i, x);
    if (a->s->status != EXIT_OK) return;
    raised = v >= x;
    narrow(&lo[i], &hi[i], v, x);
    if (!a->deepen && lo[i] < hi[i] && has_margin(a, v)) {
      v = search_move(a, i, -VALUE_INF, VALUE_INF);
      if (a->s->status != EXIT_OK) return;
      lo[i] = hi[i] = v;
    }
  }
}

/* One search of the root (alphabeta_int.h). */
void ab_search_root(Ab *a, OrderItem *order, Value *lo, Value *hi) {
  SolveResult *r = &a->s->result;
  Search *s = a->s;
  Value v = -VALUE_INF;
  int i, n = r->nmoves;

  for (i = 0; i < n; i++) {
    lo[i] = -VALUE_INF;
    hi[i] = VALUE_INF;
  }
  /* Step 1. The root value, or with all_moves every move's value.  When
  ** the probes give way to windows, the history they taught (which
  ** moves refute a null window) is dropped: measured, it misleads the
  ** wide searches. */
  if (a->o->root == AB_ROOT_WINDOW
      || (a->o->root == AB_ROOT_AUTO && a->horizon)) {
    root_window(a, order, lo, hi);
  } else if (a->o->all_moves) {
    for (int k = 0; k < n && s->status == EXIT_OK; k++)
      if (a->rootrep[order[k].index] == order[k].index)
        settle_move(a, order[k].index, lo, hi);
  } else if (root_probes(a, order, lo, hi)) {
    memset(a->history, 0, ((size_t)2 << HISTORY_BITS) * sizeof *a->history);
    root_window(a, order, lo, hi);
  }
  if (s->status != EXIT_OK) return;
  for (i = 0; i < n; i++)
    if (lo[i] > v) v = lo[i];

  /* Step 2. A move whose upper bound reaches the root value may tie it:
  ** a null window just below it says whether it does. */
  for (i = 0; i < n; i++) {
    Value t;
    if (lo[i] == v || hi[i] < v || a->rootrep[i] != i) continue;
    t = probe_move(a, i, v);
    if (s->status != EXIT_OK) return;
    if (t >= v) lo[i] = v;
    hi[i] = t >= v ? v : t;
  }
  /* A symmetric image has its representative's value (alphabeta_sym.c). */
  for (i = 0; i < n; i++) {
    lo[i] = lo[a->rootrep[i]];
    hi[i] = hi[a->rootrep[i]];
  }
  for (i = 0; i < n; i++) {
    r->exact[i] = lo[i] == hi[i];
    r->values[i] = r->exact[i] ? lo[i] : hi[i];
  }
}
