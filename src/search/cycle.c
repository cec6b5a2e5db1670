/*
** cycle.c -- the cycle probe (cycle.h): an iterative DFS over positions
** keyed by their state bytes, each position's "on the current line" flag
** beside its index in a KeySet (retro.h).  A move to a position on the
** line is a back edge: a cycle.  A move to a position seen before but
** off the line is a transposition, not a cycle, and is not walked again.
*/
#include <stdlib.h>
#include <string.h>
#include "game/movestack.h"
#include "search/cycle.h"
#include "search/retro.h"
#include "util/stop.h"

typedef struct ProbeFrame {
  size_t mbase;          /* its moves on the move stack */
  int n, i;              /* moves, the next to follow */
  uint32_t idx;          /* its position's index */
} ProbeFrame;

int cycle_probe(Game *g, uint64_t budget, uint64_t *positions) {
  KeySet set;
  MoveStack ms = { 0 };
  ProbeFrame *stack = NULL;
  unsigned char *on_line = NULL;
  size_t depth = 0, stack_cap = 0, line_cap = 0;
  int verdict = CYCLE_NONE;
  uint32_t idx;
  Outcome o;
  memset(&set, 0, sizeof set);
  set.key_bytes = g->state_bytes;
  if (retro_key_add(&set, game_state(g), &idx) < 0) { verdict = CYCLE_UNKNOWN; goto done; }
  for (;;) {
    /* Step 1. A new position (idx): a leaf, or a frame with its moves. */
    int n = 0;
    if (!game_ended(g, &o) && (n = movestack_generate(&ms, g)) < 0) {
      verdict = CYCLE_UNKNOWN;
      if (depth > 0) game_undo(g);
      break;
    }
    if (n > 0) {
      if (depth == stack_cap || idx >= line_cap) {
        size_t sc = stack_cap ? 2 * stack_cap : 256, lc = line_cap ? 2 * line_cap : 4096;
        while (lc <= idx) lc *= 2;
        ProbeFrame *s = realloc(stack, sc * sizeof *s);
        if (s) stack = s, stack_cap = sc;
        unsigned char *l = realloc(on_line, lc);
        if (l) { memset(l + line_cap, 0, lc - line_cap); on_line = l; line_cap = lc; }
        if (!s || !l) {
          verdict = CYCLE_UNKNOWN;
          if (depth > 0) game_undo(g);
          break;
        }
      }
      stack[depth++] = (ProbeFrame){ ms.top - (size_t)n, n, 0, idx };
      on_line[idx] = 1;
    } else if (depth == 0) {
      break;                       /* the root itself is a leaf */
    } else {
      game_undo(g);
    }
    /* Step 2. The next move of the innermost frame, or back up. */
    for (;;) {
      ProbeFrame *f = &stack[depth - 1];
      if (f->i == f->n) {
        on_line[f->idx] = 0;
        ms.top = f->mbase;
        if (--depth == 0) goto done;
        game_undo(g);
        continue;
      }
      game_apply(g, &ms.moves[f->mbase + (size_t)f->i++]);
      int fresh = retro_key_add(&set, game_state(g), &idx);
      if (fresh < 0 || stop_requested || set.n > budget) { verdict = CYCLE_UNKNOWN; break; }
      if (fresh) break;            /* walk into it (Step 1) */
      if (idx < line_cap && on_line[idx]) { verdict = CYCLE_FOUND; break; }
      game_undo(g);
    }
    if (verdict != CYCLE_NONE) {
      game_undo(g);
      break;
    }
  }
  /* Unwind what is still applied: one move per frame below the top. */
  for (; depth > 1; depth--) game_undo(g);
done:
  *positions = set.n;
  free(set.hash); free(set.slot); free(set.keys);
  free(stack);
  free(on_line);
  movestack_free(&ms);
  return verdict;
}
