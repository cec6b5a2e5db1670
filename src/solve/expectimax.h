/*
** expectimax.h -- solvers for games with chance, per-move payoffs or more
** than two players, on expected values (doubles).
**
** expectimax_solve: max^n at the players' nodes (each player maximises
** his own expected payoff; two players maximise their margin, as in
** minimax), the weighted mean at chance nodes, no pruning.
**
** star1_solve: alpha-beta for one or two players with chance nodes and
** per-move payoffs: Ballard's Star1 pruning at chance nodes when the
** game bounds its margins (Game.margin_bound), plain alpha-beta at the
** players' nodes.  It gives the same values as expectimax_solve.
**
** Values are doubles, not exact rationals: probabilities are weights
** over a total weight, and the expected values of small games (1/6,
** 5/108, ...) are printed to ten significant digits.  Two values closer
** than EXP_EPS (relative) are taken as equal, so ties between moves are
** found despite rounding.  Both solvers memoise exact values by position
** (payoffs and plies to go do not depend on the path).
*/
#ifndef GSOLVE_EXPECTIMAX_H
#define GSOLVE_EXPECTIMAX_H

#include <stdint.h>
#include <stdio.h>
#include "game/game.h"
#include "search/walk.h"

#define EXP_MAX_PLY 2000     /* depth of a line, at most (Star1 recurses) */
#define EXP_EPS     1e-9     /* relative tolerance of equal values */
#define EXP_ENDLESS 1e300    /* plies of play that need not end (value
                             ** iteration's drawn cycles): no distance */

/* What a position is worth: each player's expected payoff from here on
** (per-move payoffs still to come plus the outcome), and the expected
** number of plies to the end. */
typedef struct ExpValue {
  double pay[GAME_MAX_PLAYERS];
  double plies;
} ExpValue;

typedef struct ExpResult {
  int terminal;           /* the root is terminal: value only */
  int mover;              /* player to move at the root, or GAME_CHANCE */
  int deterministic;      /* no chance node was met: values are certain */
  int vector;             /* pay[] holds every player's payoff; else (star1)
                          ** pay[0] is the first player's margin */
  ExpValue value;
  int nmoves;
  Move *moves;
  ExpValue *values;       /* each move's value (its pay included) */
  double *prob;           /* at a chance root: each move's probability */
  unsigned char *exact;   /* values[i] is exact (else a bound: star1) */
  unsigned char *best;    /* move i is optimal (none at a chance root) */
  int nbest;
} ExpResult;

typedef struct ExpSolver {
  Game *g;
  FILE *err;              /* error messages; NULL: silent */
  int status;             /* EXIT_OK or the EXIT_* that stopped the solve */
  int all_moves;          /* star1: every root move's exact value */
  size_t table_mib;       /* memo table size (0: none) */
  size_t table_max_mib;   /* it doubles when 3/4 full up to this (0: table_mib) */
  uint64_t nodes;
  uint64_t memo_hits, memo_stored;
  uint64_t memo_grew;     /* times the memo table doubled */
  ExpResult result;
  /* Working state, freed by exp_free. */
  Walk walk;              /* expectimax's walk (walk.h); Star1 and the
                          ** root use only its move stack */
  struct ExpFrame *frames;  /* expectimax: one per ply of the walk */
  size_t nframes;
  void *memo;
  uint64_t *path;         /* hashes of the line of play, for cycles */
  double *prob;           /* beside the move stack: chance moves' odds */
  size_t prob_cap;
  uint32_t *weights;      /* scratch: one node's chance weights */
  int path_len;
  int base_ply;           /* moves played before the root */
} ExpSolver;

void exp_init(ExpSolver *s, Game *g, int base_ply, FILE *err);
void exp_free(ExpSolver *s);

int expectimax_solve(ExpSolver *s);
int star1_solve(ExpSolver *s);

/* For solvers that fill the root's moves themselves (retro): sets up
** s->result (a terminal root, or its moves and probabilities), and then
** derives the root's value and best moves from values[] (exact[] set). */
int exp_root_begin(ExpSolver *s);
void exp_root_finish(ExpSolver *s);

/* 1 if a is strictly better than b for `mover`: a larger score, then the
** distance rule (win sooner, lose later, draws as value.h). */
int exp_better(const Game *g, int mover, const ExpValue *a, const ExpValue *b);

/* The score of v for `mover` (0-based): the margin over the other player
** in a two-player game, else his own payoff. */
double exp_score(const Game *g, const ExpValue *v, int mover);

#endif
