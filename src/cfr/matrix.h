/*
** matrix.h -- backward induction with a matrix game at each simultaneous
** round (`--solver matrix`), for two-player zero-sum games whose only
** hidden information is the choices of a round not yet closed
** (`simultaneous move`, docs/language.md section 4.20).
**
** On the expanded tree (gametree.h) such a game has information sets of
** two shapes only: one position (its player knows where he is), or all
** the children of one position of the other player (the second chooser
** of a round, who does not know the first's choice).  A position whose
** children form such a set is a matrix game: the rows are its player's
** moves into the set, the columns the other's moves, each entry the
** value of the position both lead to, solved exactly by linear
** programming (GLPK's simplex); the other positions take the best child
** (or the chance average).  A game of another shape is refused.
*/
#ifndef GSOLVE_MATRIX_H
#define GSOLVE_MATRIX_H

#include <stdio.h>
#include "cfr/gametree.h"

/* Solves t: writes an equilibrium strategy into strategy (one
** probability per action, as cfr.h's) and the first player's value, in
** the tree's utilities, into *value.  EXIT_OK, or a status reported on
** err: a game of another shape, or more than two players
** (EXIT_BAD_GAME); out of memory, a linear program that failed
** (EXIT_LIMIT). */
int matrix_solve(const GameTree *t, double *strategy, double *value, FILE *err);

/* The value of the zero-sum matrix game a (rows x cols, row-major, the
** row player's payoffs) into *value, with optimal mixed strategies into
** x (rows) and y (cols).  0, or -1 when GLPK fails. */
int matrix_game(const double *a, int rows, int cols, double *value, double *x, double *y);

#endif
