/*
** c4solve.h -- the strong Connect Four solver (c4solve.c): Pons' score of
** a position, the exact plies to the end, and every move's score.
*/
#ifndef GSOLVE_C4SOLVE_H
#define GSOLVE_C4SOLVE_H

#include <stddef.h>
#include <stdint.h>

typedef struct C4Query {
  int width, height;
  uint64_t cur, mask;       /* stones of the player to move; all stones */
  int moves;                /* stones on the board */
  int weak;                 /* only win/draw/loss: the scores are -1, 0, 1 */
  int all_moves;            /* also score every legal move */
} C4Query;

typedef struct C4Answer {
  int score;                /* Pons' score for the player to move */
  int plies;                /* to the end under best play (not weak) */
  uint64_t nodes;
  int nmoves;               /* with all_moves: legal moves, column order */
  int col[64];              /* 0-based column */
  int move_score[64];       /* its score for the player to move */
} C4Answer;

/* A solver for one board size with a transposition table of tt_mib MiB
** (NULL: unsupported size or out of memory). */
typedef struct C4Solver C4Solver;
C4Solver *c4_new(int width, int height, size_t tt_mib);
void c4_free(C4Solver *s);
/* Clears the table (cheaply: only the entries written since). */
void c4_reset(C4Solver *s);

/* Solves a position that has not ended; 0, or -1 (another board size),
** or -2 when stopped (stop.h: Ctrl-C, --time-limit; the answer and the
** table are then worthless).  The table keeps what it learnt unless
** c4_reset is called. */
int c4_solve(C4Solver *s, const C4Query *q, C4Answer *a);

/* Plies to the end from Pons' score at `moves` stones on `cells` cells. */
int c4_plies_from_score(int cells, int moves, int score);

#endif
