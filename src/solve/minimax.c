/*
** minimax.c -- the reference solver: every node, every move, no pruning.
**
** It is slow on purpose: being simple, it is what the other solvers are
** checked against.  It walks the tree with the explicit-stack walker
** (walk.h) rather than C recursion, so lines of any legal depth fit.
*/
#include <stdlib.h>
#include "util/status.h"
#include "solve/minimax.h"
#include "search/walk.h"

static void free_walk(void *work) {
  if (work == NULL) return;
  walk_free(work);
  free(work);
}

/* The walker, kept in s->work (freed by search_free, even after a
** longjmp out of a solve); NULL, with the status set, if out of memory. */
static Walk *mm_walk(Search *s) {
  Walk *w;
  if (s->free_work == free_walk) return s->work;
  if (s->free_work != NULL) s->free_work(s->work);
  s->work = NULL;
  s->free_work = NULL;
  if ((w = malloc(sizeof *w)) == NULL) {
    search_fail(s, EXIT_LIMIT, "out of memory");
    return NULL;
  }
  walk_init(w, s->g);
  s->work = w;
  s->free_work = free_walk;
  return w;
}

/* Negamax value of the current position, which is at ply 1 of the
** search, for its mover.  The search frame at each ply (search.h) holds
** the node's mover, hash and best value so far, and mirrors the walk's
** nmoves and i for the progress display.  On an error it sets s->status,
** takes back the moves it made, and returns 0. */
static Value mm_search(Search *s, Walk *w) {
  Game *g = s->g;
  size_t path0 = s->path.len;
  SearchFrame *f;
  Outcome o;
  Value r = 0;
  int ply, n;

  for (int e = walk_begin(w); e != WALK_DONE; e = walk_step(w)) {
    ply = 1 + w->ply;
    switch (e) {
    case WALK_NODE:
      /* Step 1. A new node: terminal, or open its moves. */
      s->nodes++;
      search_tick(s, ply);
      if ((f = search_frame(s, ply)) == NULL) goto fail;
      if (ply > 1) s->frames[ply - 1].i = walk_frame(w, w->ply - 1)->i;
      f->mover = game_to_move(g);
      if (game_ended(g, &o)) {
        r = value_from_outcome(&o, g->nplayers, f->mover, ply);
        break;
      }
      f->hash = game_hash(g);
      if (search_path_push(s, f->hash) != 0) goto fail;
      if ((n = walk_expand(w)) < 0) {
        search_fail(s, EXIT_LIMIT, "out of memory");
        goto fail;
      }
      if (n == 0) {
        game_no_moves(g, &o);
        r = value_from_outcome(&o, g->nplayers, f->mover, ply);
        search_path_pop(s);
        break;
      }
      if (!search_depth_ok(s, ply)) goto fail;
      f->nmoves = n;
      f->best = -VALUE_INF;
      break;
    case WALK_BACK:
      /* Step 2. Back from the child at ply + 1, of value r for its
      ** mover: fold it into the node. */
      f = &s->frames[ply];
      if (s->frames[ply + 1].mover != f->mover) r = -r;
      if (r > f->best) f->best = r;
      break;
    case WALK_LEAVE:
      /* Step 3. Every move searched: the node's value is its best. */
      search_path_pop(s);
      r = s->frames[ply].best;
      break;
    }
  }
  return r;

fail:
  walk_unwind(w);
  while (s->path.len > path0) search_path_pop(s);
  return 0;
}

int minimax_solve(Search *s) {
  SolveResult *r = &s->result;
  Game *g = s->g;
  Walk *w;
  if (search_root_begin(s) != EXIT_OK || r->terminal) return s->status;
  if ((w = mm_walk(s)) == NULL) {
    search_root_finish(s);
    return s->status;
  }
  for (int i = 0; i < r->nmoves; i++) {
    int flip;
    Value v;
    s->root_move = i;
    game_apply(g, &r->moves[i]);
    flip = game_to_move(g) != r->mover;
    v = mm_search(s, w);
    game_undo(g);
    if (s->status != EXIT_OK) break;
    r->values[i] = flip ? -v : v;
    r->exact[i] = 1;
  }
  search_root_finish(s);
  return s->status;
}
