/*
** c4solve.c -- the strong Connect Four solver's public face (c4solve.h):
** the board's size picks the compilation of the search (c4search.h) on
** 64-bit words, or on 128-bit words for boards past 64 bits; the names of
** the techniques; plies from a score.
*/
#include <stdlib.h>
#include <string.h>
#include "engines/connect4/c4impl.h"

struct C4Solver {
  const C4Impl *impl;
  void *s;
};

static const struct { const char *name; unsigned bit; } techniques[] = {
  { "anticipation", C4_NO_ANTICIPATION }, { "threats", C4_NO_THREATS },
  { "centre", C4_NO_CENTRE }, { "table", C4_NO_TABLE }, { "lower-bounds", C4_NO_LOWER },
  { "symmetry", C4_NO_SYMMETRY }, { "narrowing", C4_NO_NARROWING }, { "etc", C4_NO_ETC },
  { "claimeven", C4_NO_CLAIMEVEN }, { "best-move", C4_NO_BESTMOVE }, { "forced", C4_NO_FORCED },
  { "bare-tail", C4_NO_BARETAIL }, { "odd-threat", C4_NO_ODDTHREAT },
  { "double-threat", C4_NO_DOUBLETHREAT }, { "windows", C4_NO_WINDOWS },
  { "close-threats", C4_NO_CLOSETHREATS }, { "lanes", C4_NO_LANES },
};
const char *const c4_technique_names = C4_TECHNIQUE_NAMES;

unsigned c4_technique(const char *name) {
  for (size_t i = 0; i < sizeof techniques / sizeof techniques[0]; i++)
    if (strcmp(name, techniques[i].name) == 0) return techniques[i].bit;
  return 0;
}

int c4_supported(int width, int height) {
  if (width < 1 || height < 1 || width > C4_MAX_BITS || width * (height + 1) > C4_MAX_BITS)
    return 0;
  /* A table byte holds both bounds of every score (c4search.h encode_*):
  ** 1 + span + max - vmin = 2 * cells + 6 must stay below 256, which only
  ** the narrowest tall boards (width <= 3) past 64 bits exceed. */
  int cells = width * height, vmin = -(cells / 2) - 1, span = cells + 4;
  return 1 + span + (cells + 1) / 2 - vmin <= 255;
}

C4Solver *c4_new(int width, int height, const C4Config *cfg) {
  if (!c4_supported(width, height)) return NULL;
  C4Solver *c = calloc(1, sizeof *c);
  if (!c) return NULL;
  c->impl = width * (height + 1) <= 64 ? &c4_impl64 : &c4_impl128;
  if ((c->s = c->impl->make(width, height, cfg)) == NULL) { free(c); return NULL; }
  return c;
}

size_t c4_table_shrunk_bytes(const C4Solver *s) { return s->impl->shrunk_bytes(s->s); }

void c4_free(C4Solver *s) {
  if (!s) return;
  s->impl->free(s->s);
  free(s);
}

void c4_reset(C4Solver *s) { s->impl->reset(s->s); }

void c4_touch(C4Solver *s, size_t budget) { s->impl->touch(s->s, budget); }

int c4_solve(C4Solver *s, const C4Query *q, C4Answer *a) { return s->impl->solve(s->s, q, a); }

int c4_make_book(C4Solver *s, int to, C4Book *book, uint64_t *nodes,
                 void (*progress)(int stones, size_t done, size_t positions, uint64_t nodes,
                                  void *arg), void *arg) {
  *nodes = 0;
  if (!s->impl->make_book) return -3;
  return s->impl->make_book(s->s, to, book, nodes, progress, arg);
}

int c4_check_book(C4Solver *s, const C4Book *book, const char **why) {
  if (!s->impl->check_book) { *why = "a board past 64 bits has no books"; return 1; }
  return s->impl->check_book(s->s, book, why);
}

/* Plies to the end under best play, from Pons' score at `moves` stones:
** the winning stone's rank has the winner's parity, so it is unique. */
int c4_plies_from_score(int cells, int moves, int score) {
  if (score == 0) return cells - moves;
  int a = score > 0 ? score : -score;
  int before = cells + 1 - 2 * a;    /* stones before the winning move: this or one less */
  int parity = score > 0 ? moves & 1 : (moves + 1) & 1;
  if ((before & 1) != parity) before--;
  return before - moves + 1;
}
