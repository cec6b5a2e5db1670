/*
** perft.h -- count the move sequences of an exact length.
*/
#ifndef GSOLVE_PERFT_H
#define GSOLVE_PERFT_H

#include <stdint.h>
#include <stdio.h>
#include "game/game.h"
#include "search/walk.h"

/* All memory hangs off the Perft, so it can be freed after a runtime
** error longjmps out of perft_run. */
typedef struct Perft {
  Game *g;
  FILE *err;              /* error messages; NULL: silent */
  int base_ply;           /* moves applied to the engine before the root */
  int status;             /* EXIT_OK or the EXIT_* of the error reported */
  uint64_t count;         /* the answer */
  uint64_t nodes;         /* positions entered, the root included */
  uint64_t games;         /* sequences that reached the end before `depth`:
                             with depth past the longest game, the number
                             of complete games */
  /* A game with views: the distinct information states (player, key) of
  ** the players to move at the positions expanded (plies 0..depth-1, not
  ** over, with moves), chance's positions aside. */
  uint64_t infosets;
  uint64_t *iset;         /* open addressing: 3 words a slot, 0 0 0 free */
  size_t iset_cap;        /* slots, a power of two */
  Walk walk;              /* the sequence being followed */
} Perft;

void perft_init(Perft *p, Game *g, int base_ply, FILE *err);
void perft_free(Perft *p);

/* Counts the legal move sequences of exactly `depth` moves from the
** current position (chess convention: perft 0 is 1; a line that ends
** early, by the end conditions or for want of moves, counts nothing).
** Returns EXIT_OK or the status of the error it reported. */
int perft_run(Perft *p, int depth);

#endif
