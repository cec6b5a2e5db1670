/*
** cfr.h -- counterfactual regret minimisation over an expanded game tree
** (gametree.h): vanilla CFR and CFR+, the average strategy, its expected
** payoffs, best responses and exploitability.  No engine is involved: the
** iterations walk the tree's flat arrays.
**
** Vanilla CFR (Zinkevich et al. 2007): every player's current strategy
** comes from regret matching on the regrets summed so far, all players
** update at once, and the average strategy weighs every iteration alike.
** CFR+ (Tammelin 2014): regrets are floored at zero after each
** iteration, the players update in turn (each against the other's
** newest strategy), and iteration t weighs t in the average.
**
** A strategy is an array of probabilities, one per action of the tree
** (GtInfoset.action + k).  Exploitability is NashConv divided by the
** number of players, as OpenSpiel defines it: NashConv is the sum over
** the players of what a best response against the others' strategies
** gains over the strategy itself, in the tree's utilities (gametree.h).
*/
#ifndef GSOLVE_CFR_H
#define GSOLVE_CFR_H

#include <stdint.h>
#include "cfr/gametree.h"

typedef struct Cfr {
  const GameTree *t;
  int plus;                     /* CFR+; else vanilla CFR */
  uint64_t iterations;          /* done so far */
  double *regret;               /* per action: cumulative regret */
  double *sigma;                /* per action: the current strategy */
  double *sum;                  /* per action: the average strategy's sums */
  double *delta;                /* per action: this iteration's regrets (CFR+) */
  double *cv;                   /* per action: scratch, its child's value */
  double *own;                  /* per action: its player's reach of it */
  double *reach;                /* per node: the others' and chance's reach */
  int32_t *br;                  /* per infoset: the best response's action */
  uint32_t *order;              /* the sets by player: player p's are */
  uint32_t first[GAME_MAX_PLAYERS + 1];   /* order[first[p]..first[p+1]) */
  /* For best responses (perfect recall; made by cfr_init): */
  uint32_t *hfirst;             /* per infoset: its nodes are ... */
  uint32_t *nodes;              /* ... nodes[hfirst[k]..hfirst[k+1]) */
  uint32_t *deep;               /* the sets by player, deepest first */
  double *val;                  /* per node: its value for the responder */
  double weight;                /* this iteration's weight in the average */
  double *target;               /* where the traversal adds regrets */
} Cfr;

/* Allocates the arrays for t; EXIT_OK or EXIT_LIMIT (out of memory). */
int cfr_init(Cfr *c, const GameTree *t, int plus);
void cfr_free(Cfr *c);

/* One iteration (each player's regrets and average strategy updated). */
void cfr_iterate(Cfr *c);

/* The average strategy into avg (one per action): uniform where an
** information set was never reached, and so everywhere after 0 iterations. */
void cfr_average(const Cfr *c, double *avg);

/* The expected utilities (util) and payoffs (pay) of every player, each
** nplayers long, when everyone plays strategy s. */
void cfr_expected(const GameTree *t, const double *s, double *util, double *pay);

/* The value (utility) of player i's best response against the others'
** playing s; its choices stay in c->br. */
double cfr_best_response(Cfr *c, const double *s, int i);

/* NashConv of s: the sum over players of best response minus s's value. */
double cfr_nash_conv(Cfr *c, const double *s);
/* The same, and each player's part of it in gain[i]: what a best
** response to the others' strategies gains over s itself (>= 0). */
double cfr_gains(Cfr *c, const double *s, double *gain);

#endif
