/*
** retro_stats.h -- what a retrograde table holds, for --stats and the JSON
** report: positions by value and by distance for each player to move (a
** histogram), and the longest win with an example position.
*/
#ifndef GSOLVE_RETRO_STATS_H
#define GSOLVE_RETRO_STATS_H

#include <stdint.h>
#include "retro/retro.h"

typedef struct RetroStats {
  int raw;                  /* counts are of positions before symmetry (the
                            ** enumeration's); 0: of stored positions (a
                            ** table read from --db) */
  int nmovers;              /* players counted: 1 or 2 */
  uint64_t count[2][4];     /* [mover][RETRO_WIN, LOSS, DRAW] positions */
  uint32_t maxdist;         /* the longest win or loss, in plies */
  uint64_t *hist[2][2];     /* [mover][0 win, 1 loss][plies 0..maxdist] */
  int64_t longest[2];       /* the longest win of each mover, -1: none */
  void *example[2];         /* a state (state_bytes) of that win, or NULL */
} RetroStats;

/* Counts a labelled table; EXIT_OK, or EXIT_LIMIT out of memory.  In
** gsolve-mpi the ranks' shares are counted and summed (a collective
** call: every rank makes it). */
int retro_stats_compute(Retro *r, RetroStats *st);
/* The same over this process's own table only (gsolve-mpi: its share,
** with r->stored set to the positions it owns). */
int retro_stats_local(Retro *r, RetroStats *st);
void retro_stats_free(RetroStats *st);

#endif
