/*
** cycle.c -- the cycle probe (cycle.h): an iterative DFS over positions
** keyed by their state bytes, each position's "on the current line" flag
** beside its index in a KeySet (keyset.h).  A move to a position on the
** line is a back edge: a cycle.  A move to a position seen before but
** off the line is a transposition, not a cycle, and is not walked again.
*/
#include <stdlib.h>
#include <string.h>
#include "game/movestack.h"
#include "retro/cycle.h"
#include "search/keyset.h"
#include "util/stop.h"

typedef struct ProbeFrame {
  size_t mbase;          /* its moves on the move stack */
  int n, i;              /* moves, the next to follow */
  uint32_t idx;          /* its position's index */
} ProbeFrame;

/* What the walk allocates, on the heap: a rule failing at run time
** longjmps out of the walk (cycle_probe's trap), and it is freed then. */
typedef struct Probe {
  Game *g;
  uint64_t budget;       /* positions the walk may visit */
  KeySet set;
  MoveStack ms;
  ProbeFrame *stack;
  unsigned char *on_line;
} Probe;

static int walk(void *arg) {
  Probe *p = arg;
  Game *g = p->g;
  uint64_t budget = p->budget;
  size_t depth = 0, stack_cap = 0, line_cap = 0;
  int verdict = CYCLE_NONE;
  uint32_t idx;
  Outcome o;
  p->set.key_bytes = g->state_bytes;
  if (keyset_add(&p->set, game_state(g), &idx) < 0) { verdict = CYCLE_UNKNOWN; goto done; }
  for (;;) {
    /* Step 1. A new position (idx): a leaf, or a frame with its moves. */
    int n = 0;
    if (!game_ended(g, &o) && (n = movestack_generate(&p->ms, g)) < 0) {
      verdict = CYCLE_UNKNOWN;
      if (depth > 0) game_undo(g);
      break;
    }
    if (n > 0) {
      if (depth == stack_cap || idx >= line_cap) {
        size_t sc = stack_cap ? 2 * stack_cap : 256, lc = line_cap ? 2 * line_cap : 4096;
        while (lc <= idx) lc *= 2;
        ProbeFrame *s = realloc(p->stack, sc * sizeof *s);
        if (s) p->stack = s, stack_cap = sc;
        unsigned char *l = realloc(p->on_line, lc);
        if (l) { memset(l + line_cap, 0, lc - line_cap); p->on_line = l; line_cap = lc; }
        if (!s || !l) {
          verdict = CYCLE_UNKNOWN;
          if (depth > 0) game_undo(g);
          break;
        }
      }
      p->stack[depth++] = (ProbeFrame){ p->ms.top - (size_t)n, n, 0, idx };
      p->on_line[idx] = 1;
    } else if (depth == 0) {
      break;                       /* the root itself is a leaf */
    } else {
      game_undo(g);
    }
    /* Step 2. The next move of the innermost frame, or back up. */
    for (;;) {
      ProbeFrame *f = &p->stack[depth - 1];
      if (f->i == f->n) {
        p->on_line[f->idx] = 0;
        p->ms.top = f->mbase;
        if (--depth == 0) goto done;
        game_undo(g);
        continue;
      }
      game_apply(g, &p->ms.moves[f->mbase + (size_t)f->i++]);
      int fresh = keyset_add(&p->set, game_state(g), &idx);
      if (fresh < 0 || stop_requested || p->set.n > budget) { verdict = CYCLE_UNKNOWN; break; }
      if (fresh) break;            /* walk into it (Step 1) */
      if (idx < line_cap && p->on_line[idx]) { verdict = CYCLE_FOUND; break; }
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
  return verdict;
}

int cycle_probe(Game *g, uint64_t budget, uint64_t *positions) {
  Probe *p = calloc(1, sizeof *p);
  int verdict = CYCLE_UNKNOWN, failed;
  if (p == NULL) return CYCLE_UNKNOWN;
  p->g = g;
  p->budget = budget;
  failed = game_call_trapped(g, walk, p, &verdict);
  *positions = p->set.n;
  keyset_free(&p->set);
  free(p->stack);
  free(p->on_line);
  movestack_free(&p->ms);
  free(p);
  if (failed) game_reraise(g);   /* a rule failed: on to the caller's trap */
  return verdict;
}
