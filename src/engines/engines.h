/*
** native.h -- native engines (see native.c).  Each implements game.h for
** one game family exactly as its .game file defines it: same moves in the
** same order and notation, same outcomes, so every solver gives the same
** answers with either engine (tests/unit/test_native.c checks this).
*/
#ifndef GSOLVE_NATIVE_H
#define GSOLVE_NATIVE_H

#include <stdio.h>
#include "compiler/compiler.h"
#include "game/game.h"

/* A fresh native engine for the game; NULL with the reason in why when
** the engine does not exist or does not support these parameters. */
Game *native_new(const Program *p, char *why, size_t n);

Game *native_nim_new(const Program *p, char *why, size_t n);
Game *native_c4_new(const Program *p, char *why, size_t n);
Game *native_sticks_new(const Program *p, char *why, size_t n);

/* An engine's undo history could not grow: reports "out of memory" and
** leaves like a runtime error (game.h: through g->trap with status
** EXIT_LIMIT, or exit). */
void native_out_of_memory(Game *g) __attribute__((noreturn));

/* Matchsticks by its period: 1 (with the value, the exact plies and the
** winning move) when g is the native matchsticks engine, else 0. */
int native_sticks_analyze(Game *g, int *win, int *plies, Move *winning, int *nwinning);

/* The native Connect Four position for the strong solver; 0 when g is
** another engine. */
#include "engines/connect4/c4solve.h"
int native_c4_query(Game *g, C4Query *q);

/* Nim by the nim-sum rule: 1 (with *win and the winning moves) when g is
** the native Nim engine, else 0. */
int native_nim_analyze(Game *g, int *win, Move *winning, int *nwinning);

#endif
