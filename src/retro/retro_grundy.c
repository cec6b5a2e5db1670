/*
** retro_grundy.c -- the Grundy values of retrograde analysis (--grundy
** --solver retro, docs/cgt.md): every stored position labelled with the
** mex of its children's values once retro.c has enumerated the move
** graph, and the root's answer from them (also from a database of format
** 4, db.c).  The impartiality checks ran during the enumeration
** (grundy_check_here, solve/grundy.c).
*/
#include <stdlib.h>
#include <string.h>
#include "retro/retro.h"
#include "solve/grundy.h"
#include "util/status.h"

static int oom(Retro *r) {
  return retro_fail(r, EXIT_LIMIT, "out of memory labelling %llu positions with Grundy values",
                    (unsigned long long)r->stored);
}

/* --grundy: each position's Grundy value, children before parents (the
** counters again: a position is valued when its last child is), the mex
** of its children's values; an end is worth 0.  What is never valued lies
** on a cycle or leads into one: no Grundy value (the walk's refusal). */
int retro_label_grundy(Retro *r) {
  size_t n = r->stored, head = 0, tail = 0;
  uint32_t *start, *out;
  if (retro_out_edges(r, &start, &out) < 0) return oom(r);
  uint32_t *left = malloc((n + 1) * sizeof *left);
  unsigned char *mark = malloc(GAME_MAX_MOVES + 1);
  free(r->gvalue);
  r->gvalue = malloc((n + 1) * sizeof *r->gvalue);
  if (!left || !mark || !r->gvalue) {
    free(start); free(out); free(left); free(mark);
    return oom(r);
  }
  for (size_t c = 0; c < n; c++) {
    left[c] = start[c + 1] - start[c];
    r->gvalue[c] = 0;
    if (left[c] == 0) r->queue[tail++] = (uint32_t)c;
  }
  while (head < tail) {
    uint32_t x = r->queue[head++];
    for (uint32_t k = r->parent_start[x]; k < r->parent_start[x + 1]; k++) {
      uint32_t p = r->parents[k];
      if (--left[p] != 0) continue;
      uint32_t deg = start[p + 1] - start[p], v = 0;
      memset(mark, 0, (size_t)deg + 1);
      for (uint32_t j = start[p]; j < start[p + 1]; j++)
        if (r->gvalue[r->edge_to[out[j]]] <= deg) mark[r->gvalue[r->edge_to[out[j]]]] = 1;
      while (mark[v]) v++;
      r->gvalue[p] = v;
      r->queue[tail++] = p;
    }
  }
  free(start); free(out); free(left); free(mark);
  if (tail < n)
    return retro_fail(r, EXIT_USAGE, GRUNDY_CYCLE " (%llu of the %llu positions stored lie on a "
                      "cycle or lead into one)", (unsigned long long)(n - tail), (unsigned long long)n);
  return EXIT_OK;
}

/* The Grundy values of the root and of the positions its moves reach
** (s->result's moves, after retro_answer) into r->grundy. */
int retro_grundy_answer(Retro *r, Search *s) {
  Grundy *gr = r->grundy;
  const SolveResult *res = &s->result;
  uint32_t c;
  int n = res->terminal ? 0 : res->nmoves;
  if (!r->gvalue)
    return retro_fail(r, EXIT_USAGE, "'%s' keeps no Grundy values: build it with --solver "
                      "retro --grundy --db FILE (docs/cgt.md)", r->db_path ? r->db_path : "the table");
  if (!retro_lookup(r, &c)) return retro_fail(r, EXIT_LIMIT, "the root is not in the table (a fault)");
  gr->by_retro = 1;
  gr->value = r->gvalue[c];
  gr->positions = r->positions;
  gr->nodes = r->positions;
  gr->nmoves = n;
  free(gr->moves);
  free(gr->move_value);
  gr->moves = malloc((size_t)(n ? n : 1) * sizeof *gr->moves);
  gr->move_value = malloc((size_t)(n ? n : 1) * sizeof *gr->move_value);
  if (!gr->moves || !gr->move_value) return oom(r);
  for (int i = 0; i < n; i++) {
    gr->moves[i] = res->moves[i];
    game_apply(r->g, &res->moves[i]);
    int found = retro_lookup(r, &c);
    game_undo(r->g);
    if (!found) return retro_fail(r, EXIT_LIMIT, "a root move leads out of the table (a fault)");
    gr->move_value[i] = r->gvalue[c];
  }
  return EXIT_OK;
}
