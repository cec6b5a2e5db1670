/*
** movestack.h -- one growing array holding the legal moves of every
** position on the current line of play, innermost last.
**
** The searches keep no per-ply move buffers: a line may be GAME_MAX_PLY
** deep and a position may have GAME_MAX_MOVES moves, so each node
** generates on top of the stack and gives the room back when it is done.
** Nodes refer to their moves by index, since growing moves the array.
*/
#ifndef GSOLVE_MOVESTACK_H
#define GSOLVE_MOVESTACK_H

#include <stdlib.h>
#include "game/game.h"

typedef struct MoveStack {
  Move *moves;
  size_t top;             /* moves in use */
  size_t cap;             /* moves allocated */
} MoveStack;

/* Room for a position's moves at ms->top: 0, or -1 when out of memory.
** The first block holds one position's moves and a few lines' more; it
** doubles from there. */
static inline int movestack_reserve(MoveStack *ms) {
  if (ms->cap - ms->top < GAME_MAX_MOVES) {
    size_t cap = ms->cap ? ms->cap * 2 : GAME_MAX_MOVES + 8192;
    Move *m;
    while (cap - ms->top < GAME_MAX_MOVES) cap *= 2;
    m = realloc(ms->moves, cap * sizeof *m);
    if (m == NULL) return -1;
    ms->moves = m;
    ms->cap = cap;
  }
  return 0;
}

/* Generates the current position's moves at ms->top and advances top past
** them.  Returns their number, or -1 when out of memory. */
static inline int movestack_generate(MoveStack *ms, Game *g) {
  int n;
  if (movestack_reserve(ms) < 0) return -1;
  n = game_generate(g, ms->moves + ms->top);
  ms->top += (size_t)n;
  return n;
}

static inline void movestack_free(MoveStack *ms) {
  free(ms->moves);
  ms->moves = NULL;
  ms->top = ms->cap = 0;
}

#endif
