/*
** perft.c -- move-sequence counting, the classic check of a move
** generator: its numbers are easy to compute by other means.
*/
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "util/status.h"
#include "search/perft.h"
#include "util/stop.h"

void perft_init(Perft *p, Game *g, int base_ply, FILE *err) {
  memset(p, 0, sizeof *p);
  p->g = g;
  p->base_ply = base_ply;
  p->err = err;
}

void perft_free(Perft *p) {
  movestack_free(&p->ms);
  free(p->frames);
  p->frames = NULL;
}

static int fail(Perft *p, int status, const char *fmt, ...) {
  if (p->err != NULL) {
    va_list ap;
    va_start(ap, fmt);
    fputs("gsolve: error: ", p->err);
    vfprintf(p->err, fmt, ap);
    fputc('\n', p->err);
    va_end(ap);
  }
  return p->status = status;
}

int perft_run(Perft *p, int depth) {
  Game *g = p->g;
  PerftFrame *f;
  Outcome o;
  int ply = 0, n;

  p->status = EXIT_OK;
  p->count = p->nodes = p->games = 0;
  if (depth < 0 || depth > GAME_MAX_PLY - p->base_ply)
    return fail(p, EXIT_LIMIT, "perft depth %d is out of range: the "
                "engine allows %d more plies", depth,
                GAME_MAX_PLY - p->base_ply);
  free(p->frames);
  /* The depth is known, so the frames are allocated once. */
  if ((p->frames = malloc(((size_t)depth + 1) * sizeof *p->frames)) == NULL)
    return fail(p, EXIT_LIMIT, "out of memory");
  p->ms.top = 0;

enter:
  /* Step 1. Count the sequence, or stop at an end, or expand. */
  p->nodes++;
  if (ply == depth) {
    p->count++;
    goto leave;
  }
  if (game_ended(g, &o)) { p->games++; goto leave; }
  f = &p->frames[ply];
  f->mbase = p->ms.top;
  if ((n = movestack_generate(&p->ms, g)) < 0) {
    for (; ply > 0; ply--) game_undo(g);
    return fail(p, EXIT_LIMIT, "out of memory");
  }
  if (n == 0) { p->games++; goto leave; }
  if (stop_requested) {
    char msg[160];
    int st = stop_message(msg, sizeof msg, p->nodes, "nodes");
    for (; ply > 0; ply--) game_undo(g);
    return fail(p, st, "%s", msg);
  }
  f->nmoves = n;
  f->i = 0;

next:
  /* Step 2. Follow move f->i. */
  game_apply(g, &p->ms.moves[f->mbase + (size_t)f->i]);
  ply++;
  goto enter;

leave:
  /* Step 3. Back to the parent, and on to its next move. */
  if (ply == 0) return EXIT_OK;
  ply--;
  game_undo(g);
  f = &p->frames[ply];
  if (++f->i < f->nmoves) goto next;
  p->ms.top = f->mbase;
  goto leave;
}
