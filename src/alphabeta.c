/*
** alphabeta.c -- fail-soft negamax alpha-beta with a transposition table.
**
** Contract of ab_search(window alpha, beta), value v of the position:
**   result <= alpha   v <= result  (an upper bound)
**   result >= beta    v >= result  (a lower bound)
**   otherwise         v == result  (exact)
** Fail-soft results are always values of real leaves, so they are valid
** keys (value.h) that the table can re-base from ply to ply.  Because
** keys carry the end ply and the order is zero-sum, the value found is
** exactly minimax's, plies included.
**
** The search is exact (to the end of the game), so table entries never
** go stale: a stored value is a property of the position alone, once
** its end ply is made relative to the node.
*/
#include "alphabeta.h"
#include "gsolve.h"

/* The generation index of the move searched i-th: the table's move was
** swapped to the front, so 0 and `swapped` trade places. */
static int gen_index(const SearchFrame *f, int i) {
  if (f->swapped == 0) return i;
  return i == 0 ? f->swapped : i == f->swapped ? 0 : i;
}

/* Stores a finished node in the table. */
static void store(Search *s, Tt *tt, const SearchFrame *f, int ply) {
  int bound = f->best <= f->alpha0 ? TT_UPPER
            : f->best >= f->beta ? TT_LOWER : TT_EXACT;
  tt_store(tt, f->hash, value_shift(f->best, f->mover, -ply), bound,
           f->best_i, s->nodes - f->nodes0);
}

/* Alpha-beta value of the current position, at ply `top` (>= 1), for its
** mover, within (alpha, beta).  On an error it sets s->status, takes back
** the moves it made, and returns 0. */
static Value ab_search(Search *s, Tt *tt, int top, Value alpha, Value beta) {
  Game *g = s->g;
  size_t path0 = s->path_len, ms0 = s->ms.top;
  int ply = top;
  SearchFrame *f;
  Outcome o;
  TtEntry e;
  Value r;
  int n, ttmove;

enter:
  /* Step 1. A new node with window (alpha, beta): a terminal position? */
  s->nodes++;
  if ((f = search_frame(s, ply)) == NULL) goto fail;
  f->mover = game_to_move(g);
  if (game_ended(g, &o)) {
    r = value_from_outcome(&o, g->nplayers, f->mover, ply);
    goto leave;
  }
  f->hash = game_hash(g);
  if (search_path_push(s, f->hash) != 0) goto fail;

  /* Step 2. The table may already settle it, or at least name a move. */
  ttmove = 0;
  if (tt != NULL && tt_probe(tt, f->hash, &e)) {
    Value v = value_shift(e.value, f->mover, ply);
    if (e.bound == TT_EXACT || (e.bound == TT_LOWER && v >= beta)
        || (e.bound == TT_UPPER && v <= alpha)) {
      r = v;
      search_path_pop(s);
      goto leave;
    }
    ttmove = e.move;
  }

  /* Step 3. Generate; the table's move goes first. */
  f->mbase = s->ms.top;
  if ((n = movestack_generate(&s->ms, g)) < 0) {
    search_fail(s, EXIT_LIMIT, "out of memory");
    goto fail;
  }
  if (n == 0) {
    game_no_moves(g, &o);
    r = value_from_outcome(&o, g->nplayers, f->mover, ply);
    search_path_pop(s);
    goto leave;
  }
  if (!search_depth_ok(s, ply)) goto fail;
  f->swapped = 0;
  if (ttmove > 0 && ttmove < n) {
    Move *m = &s->ms.moves[f->mbase];
    Move t = m[0];
    m[0] = m[ttmove];
    m[ttmove] = t;
    f->swapped = ttmove;
  }
  f->nmoves = n;
  f->i = 0;
  f->alpha = f->alpha0 = alpha;
  f->beta = beta;
  f->best = -VALUE_INF;
  f->best_i = 0;
  f->nodes0 = s->nodes - 1;

next:
  /* Step 4. Descend into child f->i.  If the same player moves again the
  ** window and the value pass through unchanged, else both are negated. */
  game_apply(g, &s->ms.moves[f->mbase + (size_t)f->i]);
  f->flip = game_to_move(g) != f->mover;
  alpha = f->flip ? -f->beta : f->alpha;
  beta = f->flip ? -f->alpha : f->beta;
  ply++;
  goto enter;

leave:
  /* Step 5. Node at `ply` has value r: fold it into its parent, which
  ** stops at a cutoff or after its last child. */
  if (ply == top) return r;
  ply--;
  game_undo(g);
  f = &s->frames[ply];
  if (f->flip) r = -r;
  if (r > f->best) {
    f->best = r;
    f->best_i = gen_index(f, f->i);
  }
  if (r > f->alpha) f->alpha = r;
  if (f->best < f->beta && ++f->i < f->nmoves) goto next;
  if (tt != NULL) store(s, tt, f, ply);
  s->ms.top = f->mbase;
  search_path_pop(s);
  r = f->best;
  goto leave;

fail:
  search_unwind(s, ply, top, path0, ms0);
  return 0;
}

/* Root move i's value for the root mover, searched within (alpha, beta)
** of the root mover's view. */
static Value search_move(Search *s, Tt *tt, int i, Value alpha, Value beta) {
  SolveResult *r = &s->result;
  Game *g = s->g;
  int flip;
  Value v;
  game_apply(g, &r->moves[i]);
  flip = game_to_move(g) != r->mover;
  v = flip ? -ab_search(s, tt, 1, -beta, -alpha)
           : ab_search(s, tt, 1, alpha, beta);
  game_undo(g);
  return v;
}

int alphabeta_solve(Search *s, Tt *tt, int all_moves) {
  SolveResult *r = &s->result;
  Value alpha = -VALUE_INF;
  int i;

  if (search_root_begin(s) != EXIT_OK || r->terminal) return s->status;

  /* Step 1. The root value.  A result above the window's floor is exact;
  ** one at or below it is an upper bound.  With all_moves the floor stays
  ** at -infinity, so every move gets its exact value. */
  for (i = 0; i < r->nmoves; i++) {
    Value lo = all_moves ? -VALUE_INF : alpha;
    Value v = search_move(s, tt, i, lo, VALUE_INF);
    if (s->status != EXIT_OK) goto done;
    r->values[i] = v;
    r->exact[i] = v > lo;
    if (v > alpha) alpha = v;
  }

  /* Step 2. A move whose upper bound reaches the root value may tie it:
  ** a null window (alpha-1, alpha) says whether it does. */
  for (i = 0; i < r->nmoves; i++) {
    Value v;
    if (r->exact[i] || r->values[i] < alpha) continue;
    v = search_move(s, tt, i, alpha - 1, alpha);
    if (s->status != EXIT_OK) goto done;
    if (v >= alpha) {
      r->values[i] = alpha;
      r->exact[i] = 1;
    } else {
      r->values[i] = v;
    }
  }

done:
  search_root_finish(s);
  return s->status;
}
