/*
** count.h -- count the distinct positions reachable from a position.
*/
#ifndef GSOLVE_COUNT_H
#define GSOLVE_COUNT_H

#include <stdint.h>
#include <stdio.h>
#include "game/game.h"
#include "search/keyset.h"
#include "search/walk.h"

/* All memory hangs off the Count, so it can be freed after a runtime
** error longjmps out of count_run. */
typedef struct Count {
  Game *g;
  FILE *err;              /* error messages; NULL: silent */
  int base_ply;           /* moves applied to the engine before the root */
  int status;             /* EXIT_OK or the EXIT_* of the error reported */
  uint64_t positions;     /* distinct positions, the root included */
  uint64_t terminal;      /* of which terminal: ended, or no legal move */
  uint64_t nodes;         /* positions entered, repeats included */
  uint64_t canonical;     /* positions up to symmetry; 0: no symmetry */
  uint64_t boards;        /* distinct boards; 0: the game has none */
  Walk walk;              /* the current line of play */
  KeySet set;             /* the positions seen, by their full state */
  struct Progress *progress;  /* the progress display, or NULL */
  size_t memory_limit;    /* bytes the set may take (--memory); 0: none */
} Count;

void count_init(Count *c, Game *g, int base_ply, FILE *err);
void count_free(Count *c);

/* Explores every position reachable from the current one, depth first.
** Returns EXIT_OK or the status of the error it reported (out of memory,
** over memory_limit, a line longer than GAME_MAX_PLY); the engine is then
** back at the root. */
int count_run(Count *c);

#endif
