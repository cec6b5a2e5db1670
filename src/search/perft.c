/*
** perft.c -- move-sequence counting, the classic check of a move
** generator: its numbers are easy to compute by other means.
*/
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "search/perft.h"
#include "search/progress.h"
#include "util/diag.h"
#include "util/status.h"
#include "util/stop.h"

void perft_init(Perft *p, Game *g, int base_ply, FILE *err) {
  memset(p, 0, sizeof *p);
  p->g = g;
  p->base_ply = base_ply;
  p->err = err;
  walk_init(&p->walk, g);
}

void perft_free(Perft *p) {
  walk_free(&p->walk);
  free(p->iset);
  p->iset = NULL;
}

/* Adds the information state of the player to move; 0 out of memory. */
static int infoset_add(Perft *p) {
  Game *g = p->g;
  int who = game_to_move(g);
  uint64_t k[2];
  g->vt->infostate(g, who, k, NULL, 0);
  uint64_t tag = (uint64_t)who + 1;   /* never 0: marks a used slot */
  if (2 * (p->infosets + 1) > p->iset_cap) {
    size_t cap = p->iset_cap ? p->iset_cap * 2 : 1024;
    uint64_t *t = calloc(cap * 3, sizeof *t);
    if (!t) return 0;
    for (size_t i = 0; i < p->iset_cap; i++) {
      uint64_t *e = p->iset + 3 * i;
      if (!e[2]) continue;
      size_t j = (size_t)(e[0] ^ e[2]) & (cap - 1);
      while (t[3 * j + 2]) j = (j + 1) & (cap - 1);
      memcpy(t + 3 * j, e, 3 * sizeof *e);
    }
    free(p->iset);
    p->iset = t;
    p->iset_cap = cap;
  }
  size_t j = (size_t)(k[0] ^ tag) & (p->iset_cap - 1);
  for (;; j = (j + 1) & (p->iset_cap - 1)) {
    uint64_t *e = p->iset + 3 * j;
    if (!e[2]) { e[0] = k[0]; e[1] = k[1]; e[2] = tag; p->infosets++; return 1; }
    if (e[0] == k[0] && e[1] == k[1] && e[2] == tag) return 1;
  }
}

static int fail(Perft *p, int status, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  p->status = diag_vfail(p->err, status, fmt, ap);
  va_end(ap);
  walk_unwind(&p->walk);
  return p->status;
}

int perft_run(Perft *p, int depth) {
  Game *g = p->g;
  Walk *w = &p->walk;
  Outcome o;
  int n;

  p->status = EXIT_OK;
  p->count = p->nodes = p->games = p->infosets = 0;
  if (p->iset) memset(p->iset, 0, p->iset_cap * 3 * sizeof *p->iset);
  if (depth < 0 || depth > GAME_MAX_PLY - p->base_ply)
    return fail(p, EXIT_LIMIT, "perft depth %d is out of range: the "
                "engine allows %d more plies", depth,
                GAME_MAX_PLY - p->base_ply);
  /* Each node: the end of a sequence, of a game, or expanded. */
  for (int e = walk_begin(w); e != WALK_DONE; ) {
    if ((++p->nodes & PROGRESS_TICK) == 0 && p->progress)
      progress_note(p->progress, "perft", NULL, p->nodes, "nodes", walk_share(w));
    if (w->ply == depth) {
      p->count++;
    } else if (game_ended(g, &o)) {
      p->games++;
    } else if ((n = walk_expand(w)) < 0) {
      return fail(p, EXIT_LIMIT, "out of memory");
    } else if (n == 0) {
      p->games++;
    } else if (stop_requested) {
      char msg[160];
      return fail(p, stop_message(msg, sizeof msg, p->nodes, "nodes"), "%s", msg);
    } else {
      if (g->has_views && game_to_move(g) != GAME_CHANCE && !infoset_add(p))
        return fail(p, EXIT_LIMIT, "out of memory");
      e = walk_into(w);
      continue;
    }
    e = walk_next(w);
  }
  return EXIT_OK;
}
