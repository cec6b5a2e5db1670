/*
** alphabeta.h -- negamax alpha-beta with a transposition table.
*/
#ifndef GSOLVE_ALPHABETA_H
#define GSOLVE_ALPHABETA_H

#include "search.h"
#include "tt.h"

/* Solves the engine's current position like minimax_solve, with the same
** value and the same set of optimal moves, but pruning.  `tt` may be NULL
** (no table).  Without all_moves only the optimal moves' values are
** exact; with it, every root move gets a full-window search.  Returns
** EXIT_OK or the status of the error it reported. */
int alphabeta_solve(Search *s, Tt *tt, int all_moves);

#endif
