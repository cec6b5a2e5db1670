/*
** minimax.c -- the reference solver: every node, every move, no pruning.
**
** It is slow on purpose: being simple, it is what the other solvers are
** checked against.  It walks the tree with an explicit stack of frames
** (search.h) rather than C recursion, so lines of any legal depth fit.
*/
#include "util/status.h"
#include "search/minimax.h"

/* Negamax value of the current position, which is at ply `top` (>= 1) of
** the search, for its mover.  On an error it sets s->status, takes back
** the moves it made, and returns 0. */
static Value mm_search(Search *s, int top) {
  Game *g = s->g;
  size_t path0 = s->path_len, ms0 = s->ms.top;
  int ply = top;
  SearchFrame *f;
  Outcome o;
  Value r;
  int n;

enter:
  /* Step 1. A new node: terminal, or generate its moves. */
  s->nodes++;
  search_tick(s, ply);
  if ((f = search_frame(s, ply)) == NULL) goto fail;
  f->mover = game_to_move(g);
  if (game_ended(g, &o)) {
    r = value_from_outcome(&o, g->nplayers, f->mover, ply);
    goto leave;
  }
  f->hash = game_hash(g);
  if (search_path_push(s, f->hash) != 0) goto fail;
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
  f->nmoves = n;
  f->i = 0;
  f->best = -VALUE_INF;

next:
  /* Step 2. Descend into child f->i. */
  game_apply(g, &s->ms.moves[f->mbase + (size_t)f->i]);
  f->flip = game_to_move(g) != f->mover;
  ply++;
  goto enter;

leave:
  /* Step 3. Node at `ply` has value r: fold it into its parent. */
  if (ply == top) return r;
  ply--;
  game_undo(g);
  f = &s->frames[ply];
  if (f->flip) r = -r;
  if (r > f->best) f->best = r;
  if (++f->i < f->nmoves) goto next;
  s->ms.top = f->mbase;
  search_path_pop(s);
  r = f->best;
  goto leave;

fail:
  search_unwind(s, ply, top, path0, ms0);
  return 0;
}

int minimax_solve(Search *s) {
  SolveResult *r = &s->result;
  Game *g = s->g;
  if (search_root_begin(s) != EXIT_OK || r->terminal) return s->status;
  for (int i = 0; i < r->nmoves; i++) {
    int flip;
    Value v;
    s->root_move = i;
    game_apply(g, &r->moves[i]);
    flip = game_to_move(g) != r->mover;
    v = mm_search(s, 1);
    game_undo(g);
    if (s->status != EXIT_OK) break;
    r->values[i] = flip ? -v : v;
    r->exact[i] = 1;
  }
  search_root_finish(s);
  return s->status;
}
