/*
** minimax.h -- the reference solver: plain negamax, no pruning, no table.
*/
#ifndef GSOLVE_MINIMAX_H
#define GSOLVE_MINIMAX_H

#include "search/search.h"

/* Solves the engine's current position: fills s->result with the root
** value and the exact value of every root move.  Returns EXIT_OK, or the
** status of the error it reported (too many players, a cycle, a line
** longer than GAME_MAX_PLY, out of memory); the engine is then back at
** the root.  Runtime errors in the engine longjmp past it. */
int minimax_solve(Search *s);

#endif
