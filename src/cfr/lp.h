/*
** lp.h -- exact equilibria of two-player zero-sum games with chance and
** hidden information (`--solver lp`), and the best responses to any
** strategy file (`--best-response FILE`).
**
** The sequence form (Koller, Megiddo and von Stengel 1996): a player's
** strategy is a realization plan, one weight per sequence of his own
** actions (the empty sequence and one per action of the tree, gametree.h),
** with x(empty) = 1 and, at each of his information sets, the weights of
** its actions adding up to the weight of the sequence that leads there
** (perfect recall: one sequence does).  The payoff is bilinear,
** x^T A y, A summing chance's probability times the first player's
** utility over the ends each pair of sequences leads to.  The first
** player's equilibrium is the linear program
**
**   maximise q0  over x >= 0 and free q (one per constraint of y):
**   E x = e,  and for each sequence s of the second player  (F^T q)_s <= (A^T x)_s
**
** (the inner minimisation over y replaced by its dual), whose own dual
** is the second player's program: his strategy is its duals.  It is
** solved with GLPK's simplex, then, where the tree has at most
** LP_EXACT_MAX_ENTRIES ends, again with its exact (rational) simplex so
** that the basis is exactly optimal.
**
** Exactness is certified, not assumed: the behaviour strategies are read
** as the simplest fractions within LP_RATIONAL_TOLERANCE (or, when that
** fails, made from the exact basis: its vertex and duals solved in
** fractions, lp_exact.h), and each player's best response against the
** other's is computed in rational arithmetic (GMP).  When the best the second player can do against the
** first's strategy equals the best the first can do against the
** second's, both strategies are optimal and that number is the game's
** value, exactly.  Otherwise the value is the float the programs give,
** with its residual (the float strategies' NashConv).
*/
#ifndef GSOLVE_LP_H
#define GSOLVE_LP_H

#include <stdint.h>
#include "cfr/cfrsolve.h"

#define LP_EXACT_MAX_ENTRIES 2000000u     /* payoff entries, for exact values */
#define LP_AUTO_MAX_SEQUENCES 10000u      /* auto: lp up to this, else CFR */
#define LP_TEXT_MAX_CHARS 100             /* a longer fraction: text gives its size */
#define LP_RATIONAL_TOLERANCE 5e-10       /* a probability read as a fraction */
#define LP_MAX_DENOMINATOR 1000000000L    /* ... of at most this denominator */

typedef struct LpResult {
  int best_response;            /* 1: a strategy file evaluated, not solved */
  int exact;                    /* the *_exact strings hold exact values */
  int exact_tried;              /* the payoff matrix was small enough */
  /* Solving: the value for the first player. */
  double value;
  double gap;                   /* |the two programs' values' difference| */
  char *value_exact;            /* "-1/18", or NULL */
  /* Both modes: the strategies' value for the first player; each
  ** player's best-response value (in his own utility) and gain; NashConv
  ** (their sum) and exploitability (NashConv / players). */
  char *expected_exact;
  double br[2];
  char *br_exact[2], *gain_exact[2], *nash_conv_exact, *exploitability_exact;
  uint32_t missing;             /* best response: sets the file has no line for */
  /* Size and cost. */
  uint32_t seq[2];              /* sequences per player */
  uint32_t entries;             /* payoff entries (one per pair of sequences) */
  int rows[2], cols[2];         /* each program's size */
  size_t nonzeros[2];
  int simplex_iterations[2];
  int from_duals;               /* the second player's plan: the first program's duals */
  int vertex_tried;             /* the exact basis solved again in fractions */
  double build_seconds, lp_seconds, exact_lp_seconds, check_seconds, vertex_seconds;
} LpResult;

/* Expands s->g's game at its position into s->tree and solves it: the
** result as a CFR solve's (s->avg both players' strategies,
** s->exploitability and gains measured in floats, s->util, s->pay,
** s->score) plus the exact value in s->lp (allocated here).  EXIT_OK or
** a status reported on s->err (more than two players, no perfect recall,
** GLPK failing, out of memory). */
int lp_solve(CfrSolver *s);

/* Expands the game and evaluates the strategy file `path` against it:
** the strategies into s->avg (uniform where the file has no line), each
** player's best response and gain into s->lp (exact where small) and
** s->gain, s->nash_conv, s->exploitability. */
int lp_best_response(CfrSolver *s, const char *path);

/* --solver auto's choice for hidden information: lp_solve when each
** player has at most LP_AUTO_MAX_SEQUENCES sequences, else CFR+ on the
** same tree to CFR_DEFAULT_TARGET (s->lp then NULL); which and why in
** why. */
int lp_solve_auto(CfrSolver *s, char *why, size_t size);

/* An exact value's string ("-1/18") as a double, rounded toward zero. */
double lp_exact_double(const char *exact);

void lp_result_free(LpResult *r);

#endif
