/*
** walk.c -- the walk's memory (see walk.h; the walk itself is inline).
*/
#include <stdlib.h>
#include <string.h>
#include "search/walk.h"

void walk_init(Walk *w, Game *g) {
  memset(w, 0, sizeof *w);
  w->g = g;
}

void walk_free(Walk *w) {
  movestack_free(&w->ms);
  free(w->frames);
  w->frames = NULL;
  w->cap = 0;
  w->ply = w->open = 0;
}

int walk_grow(Walk *w) {
  size_t cap = w->cap ? 2 * w->cap : 64;
  WalkFrame *f = realloc(w->frames, cap * sizeof *f);
  if (f == NULL) return -1;
  w->frames = f;
  w->cap = cap;
  return 0;
}

double walk_share(const Walk *w) {
  double share = 0, weight = 1;
  for (int d = 0; d < w->open; d++) {
    const WalkFrame *f = &w->frames[d];
    if (f->nmoves <= 0) break;
    share += weight * (double)(f->i > 0 ? f->i : 0) / (double)f->nmoves;
    weight /= (double)f->nmoves;
  }
  return share;
}
