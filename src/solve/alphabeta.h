/*
** alphabeta.h -- negamax alpha-beta with a transposition table: exact
** solving (the same answer as minimax) and depth-limited search with the
** game's heuristic eval.
*/
#ifndef GSOLVE_ALPHABETA_H
#define GSOLVE_ALPHABETA_H

#include "search/search.h"
#include "search/tt.h"

#define AB_MAX_DEPTH 10000      /* --depth N: 1 <= N <= AB_MAX_DEPTH */

/* Move ordering.  AB_ORDER_NONE: the table's move, then generation order.
** The others look at every child first: a terminal child is not searched
** (its exact value is folded in at once), and with the table each child's
** entry may cut the node (see AbOptions.etc); then the table's move, and
** the rest by a history of the moves that caused cutoffs, or by the
** game's eval of the child (at plies below eval_plies). */
typedef enum AbOrder { AB_ORDER_NONE, AB_ORDER_EVAL, AB_ORDER_HISTORY } AbOrder;

/* How the root value is found:
**   AB_ROOT_PROBES  MTD(f): null-window probes from a first guess (a
**                   draw), each moving the guess to the bound the probe
**                   returned; when a probe shows scores beyond a plain
**                   win or loss, it finishes with windows;
**   AB_ROOT_WINDOW  a wide window per root move, its floor raised to
**                   the best value so far;
**   AB_ROOT_AUTO    probes when exact, windows with a depth.
** Either way, a null window at the root value then tells each move that
** may tie it whether it does. */
typedef enum AbRoot { AB_ROOT_AUTO, AB_ROOT_PROBES, AB_ROOT_WINDOW } AbRoot;

/* What a solve did, for --stats. */
typedef struct AbStats {
  uint64_t evals;         /* eval calls, for ordering and at the horizon */
  uint64_t probes;        /* searches of a root move (windows and probes) */
  uint64_t etc_cutoffs;   /* nodes cut by a child's table entry */
  uint64_t iterations;    /* depths searched (--depth: 1 to N) */
  uint64_t bound_cutoffs; /* nodes the game's bound settled */
  uint64_t symmetry_skips;/* moves not searched: a symmetry of the line
                          ** maps their position onto a sibling's */
} AbStats;

typedef struct AbOptions {
  int all_moves;          /* an exact value for every root move */
  int depth;              /* 0: to the end of the game; N: --depth N */
  AbOrder order;
  AbRoot root;
  int eval_plies;         /* AB_ORDER_EVAL: eval orders the nodes at plies
                          ** below this, history the deeper ones */
  int etc;                /* look the children up in the table before
                          ** searching them (enhanced transposition
                          ** cutoffs) */
  int score_only;         /* values are scores alone: the distance to the
                          ** end is not part of them, so every line to
                          ** the same score is as good (far fewer nodes
                          ** where games are long, as in Go); an exact
                          ** search then also uses the game's bounds
                          ** (GameVtable.bounds) */
  int deepen;             /* with the game's bounds: prove each root
                          ** probe by searches to a growing horizon
                          ** whose leaves are worth the bounds */
  int symmetry;           /* where a declared symmetry fixes the whole
                          ** line, search one move of each set whose
                          ** positions it maps onto each other
                          ** (alphabeta_sym.c) */
  AbStats stats;          /* out */
} AbOptions;

/* The default options: exact, the best ordering and root method measured
** on the bundled games (docs/cli.md). */
void alphabeta_options(AbOptions *o);

/* Solves the engine's current position.  Exact (depth 0): like
** minimax_solve, with the same value and set of optimal moves (and with
** all_moves the same value for every move).  With a depth N: each root
** move's value at depth N (see alphabeta_decode), the best ones marked.
** `tt` may be NULL (no table).  Returns EXIT_OK or the status of the
** error it reported. */
int alphabeta_run(Search *s, Tt *tt, AbOptions *o);

/* alphabeta_run, exact, with the default options. */
int alphabeta_solve(Search *s, Tt *tt, int all_moves);

/* Values of a depth-limited search.  A terminal position keeps its exact
** value (value.h), wins and losses moved beyond every heuristic value; a
** position at the horizon that is not terminal is worth its eval `h` for
** its mover, encoded as a game ending at ply depth + 1 with score h (so
** a proven draw and a heuristic 0 differ, and the order stays zero-sum). */
Value alphabeta_proven(Value exact);
Value alphabeta_horizon(int32_t h, int depth, int mover);

/* Decodes a value of a search of depth `depth` (0: exact): the score and
** plies, and whether the value is proven (always, when exact) or the
** eval of a position at the horizon (then *plies is depth + 1). */
void alphabeta_decode(Value v, int depth, int64_t *score, int64_t *plies,
                      int *proven);

#endif
