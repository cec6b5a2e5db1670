/*
** simultaneous.h -- lowering `simultaneous move` declarations into moves
** made in turn with views (simultaneous.c).
*/
#ifndef GSOLVE_SIMULTANEOUS_H
#define GSOLVE_SIMULTANEOUS_H

#include "lang/ast.h"

#define GAME_MAX_PLAYERS_SIMUL 8  /* players after `by`, at most (the game's) */

/* Rewrites ps->root in place: each simultaneous move (NODE_MOVE, op 2,
** its players in e) becomes an ordinary move with the state and views
** that make its choices hidden until the last; the game's other moves
** wait for an open round to close.  1, or 0 with errors reported on
** ps->diag (or ps->oom set). */
int simul_lower(ParseState *ps);

#endif
