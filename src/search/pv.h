/*
** pv.h -- the principal variation (--pv): the line of play that the
** solver's best moves follow from the position, shown as boards.
*/
#ifndef GSOLVE_PV_H
#define GSOLVE_PV_H

#include <stdio.h>
#include "game/game.h"
#include "search/search.h"

typedef struct Pv {
  int n, cap;
  Move *moves;            /* the line, from the position solved */
  char **names;           /* their notation */
  int repeats_from;       /* -1, or j: the line's last position is the one
                             after its first j moves (0: the root), and
                             optimal play would go round for ever */
  uint64_t *hashes;       /* pv_seen: the line's positions, by hash ... */
  unsigned char *states;  /* ... and state bytes */
  size_t seen_cap;
} Pv;

/* Appends move m (its notation in the current position) to the line;
** -1 when out of memory. */
int pv_push(Pv *pv, Game *g, const Move *m);

/* Records the current position as the line's pv->n-th; the index of an
** earlier equal one (not recorded then), or -1, or -2 out of memory. */
int pv_seen(Pv *pv, Game *g);

/* Solves the engine's current position, `ply` moves past the root, into
** the empty Search s (search_init done), with `depth` plies left (0: an
** exact solve).  Returns EXIT_OK or the status of the error reported. */
typedef int (*PvSolveFn)(void *ctx, Search *s, int ply, int depth);

/* Follows the first optimal move from the root (whose solve is `root`),
** solving each next position with `solve`, to the end of the game, or to
** the first position that repeats one of the line (a drawn cycle:
** repeats_from), or, with a depth (--depth N), for N plies.  The engine
** is back at the root afterwards.  Returns EXIT_OK or an error's status. */
int pv_find(Pv *pv, Game *g, const SolveResult *root, int depth, int base_ply,
            PvSolveFn solve, void *ctx);

/* Prints the line, then the root and the board after each move. */
void pv_print(const Pv *pv, Game *g, FILE *out);

void pv_free(Pv *pv);

#endif
