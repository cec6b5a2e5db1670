/*
** cfrsolve.h -- the CFR solver as the registry runs it (`--solver cfr`):
** expand the game at the current position (gametree.h), iterate CFR+ or
** vanilla CFR (cfr.h) until --iterations N are done or the average
** strategy's exploitability is at most --exploitability E (measured
** every so often: after iteration 1, then 10, 20, ... with at most 1/8
** more iterations between two measures), with a progress line, Ctrl-C
** and --time-limit; then the average strategy's values.
*/
#ifndef GSOLVE_CFRSOLVE_H
#define GSOLVE_CFRSOLVE_H

#include <stdint.h>
#include <stdio.h>
#include "cfr/cfr.h"
#include "cfr/gametree.h"
#include "search/progress.h"

#define CFR_DEFAULT_TARGET 1e-3       /* exploitability, when neither is given */
#define CFR_MAX_ITERATIONS 1000000000ULL

typedef struct CfrSolver {
  Game *g;
  FILE *err;
  /* Settings. */
  int plus;                     /* CFR+ (the default); else vanilla */
  int matrix;                   /* no iterations: backward induction with
                                ** matrix games (matrix.h, --solver matrix) */
  uint64_t max_iterations;      /* stop after these (CFR_MAX_ITERATIONS) */
  double target;                /* stop at this exploitability; 0: none */
  size_t memory_limit;          /* for the tree, bytes; 0: none */
  Progress *progress;           /* a progress line, or NULL */
  /* Results. */
  GameTree tree;
  Cfr cfr;
  double *avg;                  /* the average strategy, per action */
  uint64_t iterations;
  double exploitability;        /* NashConv / players */
  double nash_conv;
  double gain[GAME_MAX_PLAYERS];   /* each player's part of nash_conv */
  /* The best strategy measured (the lowest exploitability), reported
  ** when --time-limit stops the iterations before their target. */
  double *best;
  double best_exploitability, best_nash_conv, best_gain[GAME_MAX_PLAYERS];
  uint64_t best_at;             /* its iteration */
  int time_stopped;             /* 1: --time-limit stopped the iterations;
                                ** the best strategy measured is the result */
  uint64_t ran;                 /* iterations run (iterations: the result's) */
  double util[GAME_MAX_PLAYERS];   /* the average strategy's utilities */
  double pay[GAME_MAX_PLAYERS];    /* ... and payoffs */
  double score;                 /* the first player's utility (gametree.h) */
  uint64_t measures;            /* exploitability measured this often */
  uint64_t measured_at;         /* the iteration of the last measure */
  struct LpResult *lp;          /* the lp solver's (lp.h): it fills this
                                ** struct as CFR would, and that; else NULL */
  double expand_seconds, iterate_seconds, measure_seconds;
  double iterate_cpu;           /* CPU seconds of the iterations and measures */
} CfrSolver;

void cfrsolve_init(CfrSolver *s, Game *g, FILE *err);
void cfrsolve_free(CfrSolver *s);

/* Expands and solves; EXIT_OK or a status reported on s->err. */
int cfrsolve_run(CfrSolver *s);
/* The iterations alone, on the tree s->tree expanded already. */
int cfrsolve_iterate(CfrSolver *s);

/* The name the report gives: "cfr+", "cfr" or "lp". */
const char *cfrsolve_name(const CfrSolver *s);

/* How far the score is known (cfrsolve.c): a bound on the distance
** between the score and the game's value, with the interval the value
** lies in ([score - gain of the second player, score + gain of the
** first]); 0 when the game has no value (more than two players). */
int cfrsolve_score_bound(const CfrSolver *s, double *bound, double *lo, double *hi);

#endif
