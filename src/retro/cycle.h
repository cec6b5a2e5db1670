/*
** cycle.h -- does a game's move graph have a cycle?  The cheap probe the
** solver registry runs for --solver auto: a depth-first walk from the
** position, bounded in positions, that stops at the first move back to a
** position on the current line (a back edge: the position can recur).
*/
#ifndef GSOLVE_CYCLE_H
#define GSOLVE_CYCLE_H

#include <stdint.h>
#include "game/game.h"

/* The probe's budget for auto: a depth-first walk meets a cycle on its
** first lines in the games that have them (Pig after 3 positions, Token
** after 6), and 20000 positions cost an acyclic game solved by the VM
** some 20 to 50 ms. */
#define CYCLE_PROBE_POSITIONS 20000

enum {
  CYCLE_NONE = 0,        /* every reachable position seen, none recurs */
  CYCLE_FOUND = 1,       /* a position recurs along a line of play */
  CYCLE_UNKNOWN = 2,     /* the budget ran out first (or out of memory) */
};

/* Walks from the engine's current position (restored afterwards), at
** most `budget` distinct positions.  *positions gets how many it saw:
** with CYCLE_NONE, the number of reachable positions. */
int cycle_probe(Game *g, uint64_t budget, uint64_t *positions);

#endif
