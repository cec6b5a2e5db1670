/*
** c4engine.h -- the native Connect Four engine's parts that do not
** depend on the board's word (engine.c), shared by its two compilations
** over 64-bit and 128-bit words (c4rules.h, in c4game64.c, c4game128.c).
*/
#ifndef GSOLVE_C4ENGINE_H
#define GSOLVE_C4ENGINE_H

#include "engines/engines.h"
#include "engines/connect4/c4solve.h"

/* The head of both compilations' engine. */
typedef struct C4Common {
  Game base;
  int w, h;
  int moves;                /* stones on the board */
  int winner;               /* 0 none, 1 Yellow, 2 Red: four was made */
  C4Solver *solver;         /* the strong solver, made at its first use */
  C4Book *book;             /* --book FILE, read then */
  /* The position as the solver takes it. */
  void (*position)(const struct C4Common *c, C4Bits *cur, C4Bits *mask);
} C4Common;

int c4_ended(Game *g, Outcome *o);
void c4_no_moves(Game *g, Outcome *o);
int c4_to_move(Game *g);
int c4_format(Game *g, const Move *m, char *buf, size_t n);
int c4_engine_solve(Game *g, const EngineSolveOptions *o, EngineAnswer *ans);
int c4_engine_prepare(Game *g, const EngineSolveOptions *o);
int c4_engine_make_book(Game *g, const EngineSolveOptions *o, int depth, const char *path,
                        EngineBookInfo *info);
/* Frees the solver and the book (not c itself). */
void c4_common_free(C4Common *c);

/* The vtable's entries common to both compilations. */
#define C4_VTABLE_COMMON \
  .ended = c4_ended, .no_moves = c4_no_moves, .to_move = c4_to_move, .format_move = c4_format, \
  .features = ENGINE_SOLVES | ENGINE_DISTANCES | ENGINE_WEAK | ENGINE_THREADS \
            | ENGINE_TECHNIQUES | ENGINE_BOOK | ENGINE_TABLE, \
  .solve = c4_engine_solve, .prepare = c4_engine_prepare, .make_book = c4_engine_make_book, \
  .techniques = C4_TECHNIQUE_NAMES

/* The engine on a board of w x h that c4_supported takes: 64-bit words
** up to 64 bits, else 128-bit words. */
Game *c4_game_new64(const Program *p, int w, int h);
Game *c4_game_new128(const Program *p, int w, int h);

#endif
