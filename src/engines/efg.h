/*
** efg.h -- a game read from a Gambit extensive-form file (.efg): an
** explicit tree behind the game interface (efg.c, docs/gambit.md).
*/
#ifndef GSOLVE_EFG_H
#define GSOLVE_EFG_H

#include <stddef.h>
#include <stdio.h>
#include "compiler/compiler.h"
#include "game/game.h"

#define EFG_MAX_BYTES   ((size_t)256 << 20)  /* an .efg read, at most */
#define EFG_MAX_NODES   (1u << 24)           /* nodes of its tree */
#define EFG_MAX_ACTIONS 32767                /* actions of one information set */
#define EFG_MAX_SCALE   1000000              /* the payoffs' common denominator */
#define EFG_MAX_PAYOFF  100000000            /* |payoff| once scaled */
#define EFG_MAX_LABEL   4096                 /* bytes of one label */

/* 1 when path names an .efg file (by its extension). */
int efg_is_file(const char *path);

/* The game of the .efg text (path names it in messages); NULL with the
** errors reported on err (`path:line:col: error: ...`) and *status set:
** EXIT_BAD_GAME for a malformed file, EXIT_LIMIT beyond the limits
** above or out of memory.  A note on err says when the payoffs were
** fractions, multiplied by their common denominator. */
Game *efg_new(const char *path, const char *text, size_t len, FILE *err, int *status);

/* The compiled stand-in the command line's reports want beside an .efg
** game: no parameters, no pieces (NULL and *status set on failure). */
Program *efg_program(const Game *g, FILE *err, int *status);

#endif
