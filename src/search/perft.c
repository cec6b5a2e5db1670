/*
** perft.c -- move-sequence counting, the classic check of a move
** generator: its numbers are easy to compute by other means.
*/
#include <stdarg.h>
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
  p->count = p->nodes = p->games = 0;
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
      e = walk_into(w);
      continue;
    }
    e = walk_next(w);
  }
  return EXIT_OK;
}
