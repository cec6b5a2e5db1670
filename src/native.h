/*
** native.h -- native engines (see native.c).  Each implements game.h for
** one game family exactly as its .game file defines it: same moves in the
** same order and notation, same outcomes, so every solver gives the same
** answers with either engine (tests/unit/test_native.c checks this).
*/
#ifndef GSOLVE_NATIVE_H
#define GSOLVE_NATIVE_H

#include <stdio.h>
#include "gsolve.h"

Game *native_nim_new(const Program *p, char *why, size_t n);
Game *native_c4_new(const Program *p, char *why, size_t n);

/* The native Connect Four position for the strong solver; 0 when g is
** another engine. */
#include "c4solve.h"
int native_c4_query(Game *g, C4Query *q);

#endif
