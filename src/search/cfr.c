/*
** cfr.c -- CFR and CFR+ on an expanded tree (see cfr.h).
**
** The traversals recurse over the preorder arrays: games CFR can expand
** are shallow (GT_MAX_PLY bounds a line), and the recursion keeps the
** reach probabilities in registers.  A child is skipped where the others
** play it with probability zero: it adds nothing to any value, regret or
** sum.
*/
#include <stdlib.h>
#include <string.h>
#include "search/cfr.h"
#include "util/status.h"

int cfr_init(Cfr *c, const GameTree *t, int plus) {
  size_t na = t->nactions ? t->nactions : 1, nn = t->nnodes ? t->nnodes : 1;
  memset(c, 0, sizeof *c);
  c->t = t;
  c->plus = plus;
  c->regret = calloc(na, sizeof *c->regret);
  c->sigma = calloc(na, sizeof *c->sigma);
  c->sum = calloc(na, sizeof *c->sum);
  c->delta = calloc(na, sizeof *c->delta);
  c->cv = calloc(na, sizeof *c->cv);
  c->own = calloc(na, sizeof *c->own);
  c->reach = calloc(nn, sizeof *c->reach);
  c->br = calloc(t->ninfosets ? t->ninfosets : 1, sizeof *c->br);
  if (!c->regret || !c->sigma || !c->sum || !c->delta || !c->cv || !c->own || !c->reach || !c->br) {
    cfr_free(c);
    return EXIT_LIMIT;
  }
  return EXIT_OK;
}

void cfr_free(Cfr *c) {
  free(c->regret);
  free(c->sigma);
  free(c->sum);
  free(c->delta);
  free(c->cv);
  free(c->own);
  free(c->reach);
  free(c->br);
  memset(c, 0, sizeof *c);
}

/* Regret matching: the current strategy of player p's information sets
** (every player's when p < 0) in proportion to the positive regrets,
** uniform when none is positive. */
static void regret_match(Cfr *c, int p) {
  const GameTree *t = c->t;
  for (uint32_t k = 0; k < t->ninfosets; k++) {
    const GtInfoset *I = &t->infosets[k];
    if (p >= 0 && I->player != p) continue;
    const double *r = c->regret + I->action;
    double *s = c->sigma + I->action, total = 0;
    int n = I->nactions;
    for (int a = 0; a < n; a++) total += r[a] > 0 ? r[a] : 0;
    for (int a = 0; a < n; a++) s[a] = total > 0 ? (r[a] > 0 ? r[a] / total : 0) : 1.0 / n;
  }
}

/* Player i's counterfactual value of node n, reached with probability po
** by the others' moves and chance's; adds i's regrets (weighted by po)
** into c->target.  (i's own reach matters to the average strategy only:
** add_average.) */
static double traverse(Cfr *c, uint32_t n, int i, double po) {
  const GameTree *t = c->t;
  int kind = t->kind[n];
  uint32_t end = t->next[n], ch;
  double v = 0;
  if (kind == GT_TERMINAL) return t->util[(size_t)t->data[n] * (size_t)t->nplayers + (size_t)i];
  if (kind == GT_CHANCE) {
    const double *p = t->prob + t->data[n];
    for (ch = n + 1; ch < end; ch = t->next[ch], p++)
      v += *p * traverse(c, ch, i, po * *p);
    return v;
  }
  const GtInfoset *I = &t->infosets[t->data[n]];
  const double *s = c->sigma + I->action;
  int a = 0;
  if (kind != i) {
    for (ch = n + 1; ch < end; ch = t->next[ch], a++)
      if (s[a] > 0) v += s[a] * traverse(c, ch, i, po * s[a]);
    return v;
  }
  double *cv = c->cv + I->action;
  for (ch = n + 1; ch < end; ch = t->next[ch], a++) {
    cv[a] = traverse(c, ch, i, po);
    v += s[a] * cv[a];
  }
  double *r = c->target + I->action;
  for (a = 0; a < I->nactions; a++) r[a] += po * (cv[a] - v);
  return v;
}

/* A positional tree's sums: at each of i's nodes below n, reached with
** probability pi by i's own moves, the current strategy weighted by pi.
** (Not in the traversal: it skips what the others do not play, and a
** set must gain its strategy whenever its player would reach it, or the
** average keeps only the iterations where the others went there.) */
static void add_average_below(Cfr *c, uint32_t n, int i, double pi) {
  const GameTree *t = c->t;
  int kind = t->kind[n], a = 0;
  uint32_t ch, end = t->next[n];
  if (kind == GT_TERMINAL) return;
  if (kind != i) {
    for (ch = n + 1; ch < end; ch = t->next[ch]) add_average_below(c, ch, i, pi);
    return;
  }
  const GtInfoset *I = &t->infosets[t->data[n]];
  const double *s = c->sigma + I->action;
  double *sum = c->sum + I->action, w = c->weight * pi;
  for (ch = n + 1; ch < end; ch = t->next[ch], a++) {
    sum[a] += w * s[a];
    if (s[a] > 0) add_average_below(c, ch, i, pi * s[a]);
  }
}

/* Adds player i's current strategy to the average's sums, each set's
** weighted by i's own reach of it: the product of i's probabilities of
** its own earlier actions (perfect recall: one sequence of them leads to
** each set; a set's parent set comes earlier in the table).  Positional
** trees (no perfect recall) sum over the set's nodes instead. */
static void add_average(Cfr *c, int i) {
  const GameTree *t = c->t;
  if (t->positional) {
    add_average_below(c, 0, i, 1);
    return;
  }
  for (uint32_t k = 0; k < t->ninfosets; k++) {
    const GtInfoset *I = &t->infosets[k];
    if (I->player != i) continue;
    double reach = I->parent == GT_NONE ? 1 : c->own[I->parent], w = c->weight * reach;
    const double *s = c->sigma + I->action;
    double *own = c->own + I->action, *sum = c->sum + I->action;
    for (int a = 0; a < I->nactions; a++) {
      own[a] = reach * s[a];
      sum[a] += w * s[a];
    }
  }
}

void cfr_iterate(Cfr *c) {
  const GameTree *t = c->t;
  c->iterations++;
  if (!c->plus) {
    /* Vanilla: everyone's strategy first, then each player's update. */
    regret_match(c, -1);
    c->weight = 1;
    c->target = c->regret;
    for (int i = 0; i < t->nplayers; i++) {
      traverse(c, 0, i, 1);
      add_average(c, i);
    }
    return;
  }
  c->weight = (double)c->iterations;
  c->target = c->delta;
  for (int i = 0; i < t->nplayers; i++) {
    /* Each player against the others' newest strategies. */
    regret_match(c, -1);
    for (uint32_t k = 0; k < t->ninfosets; k++)
      if (t->infosets[k].player == i)
        memset(c->delta + t->infosets[k].action, 0, (size_t)t->infosets[k].nactions * sizeof *c->delta);
    traverse(c, 0, i, 1);
    add_average(c, i);
    /* Regrets are floored once the whole iteration's are in. */
    for (uint32_t k = 0; k < t->ninfosets; k++) {
      const GtInfoset *I = &t->infosets[k];
      if (I->player != i) continue;
      for (int a = 0; a < I->nactions; a++) {
        double r = c->regret[I->action + (uint32_t)a] + c->delta[I->action + (uint32_t)a];
        c->regret[I->action + (uint32_t)a] = r > 0 ? r : 0;
      }
    }
  }
}

void cfr_average(const Cfr *c, double *avg) {
  const GameTree *t = c->t;
  for (uint32_t k = 0; k < t->ninfosets; k++) {
    const GtInfoset *I = &t->infosets[k];
    const double *sum = c->sum + I->action;
    double total = 0;
    for (int a = 0; a < I->nactions; a++) total += sum[a];
    for (int a = 0; a < I->nactions; a++)
      avg[I->action + (uint32_t)a] = total > 0 ? sum[a] / total : 1.0 / I->nactions;
  }
}

/* ---- evaluating a strategy ------------------------------------------ */

/* Node n's expected utilities and payoffs under s, into u and p. */
static void expect(const GameTree *t, const double *s, uint32_t n, double *u, double *p) {
  int np = t->nplayers, kind = t->kind[n];
  if (kind == GT_TERMINAL) {
    size_t at = (size_t)t->data[n] * (size_t)np;
    memcpy(u, t->util + at, (size_t)np * sizeof *u);
    memcpy(p, t->pay + at, (size_t)np * sizeof *p);
    return;
  }
  const double *w = kind == GT_CHANCE ? t->prob + t->data[n]
                  : s + t->infosets[t->data[n]].action;
  double cu[GAME_MAX_PLAYERS], cp[GAME_MAX_PLAYERS];
  memset(u, 0, (size_t)np * sizeof *u);
  memset(p, 0, (size_t)np * sizeof *p);
  for (uint32_t ch = n + 1; ch < t->next[n]; ch = t->next[ch], w++) {
    if (*w <= 0) continue;
    expect(t, s, ch, cu, cp);
    for (int i = 0; i < np; i++) {
      u[i] += *w * cu[i];
      p[i] += *w * cp[i];
    }
  }
}

void cfr_expected(const GameTree *t, const double *s, double *util, double *pay) {
  expect(t, s, 0, util, pay);
}

/* The others' and chance's reach of every node below n, into c->reach. */
static void others_reach(Cfr *c, const double *s, uint32_t n, int i, double po) {
  const GameTree *t = c->t;
  int kind = t->kind[n];
  c->reach[n] = po;
  if (kind == GT_TERMINAL) return;
  const double *w = kind == GT_CHANCE ? t->prob + t->data[n]
                  : s + t->infosets[t->data[n]].action;
  for (uint32_t ch = n + 1; ch < t->next[n]; ch = t->next[ch], w++)
    others_reach(c, s, ch, i, kind == i ? po : po * *w);
}

/* Player i's value of node n when i plays its best response at the
** information sets deeper than `level` (c->br) and the others play s.
** At i's sets of depth `level`, each action's value weighted by the
** others' reach is added to c->cv (the choice is made afterwards; the
** value returned from there up is not used); shallower ones are crossed
** on every action.  For a positional tree (perfect information) the
** best response is the best child at every node, whatever the level. */
static double br_value(Cfr *c, const double *s, uint32_t n, int i, int level) {
  const GameTree *t = c->t;
  int kind = t->kind[n];
  uint32_t ch, end = t->next[n];
  double v = 0;
  int a = 0;
  if (kind == GT_TERMINAL) return t->util[(size_t)t->data[n] * (size_t)t->nplayers + (size_t)i];
  if (kind != i) {
    const double *w = kind == GT_CHANCE ? t->prob + t->data[n]
                    : s + t->infosets[t->data[n]].action;
    for (ch = n + 1; ch < end; ch = t->next[ch], w++)
      if (*w > 0) v += *w * br_value(c, s, ch, i, level);
    return v;
  }
  const GtInfoset *I = &t->infosets[t->data[n]];
  if (t->positional) {
    double best = 0;
    for (ch = n + 1; ch < end; ch = t->next[ch], a++) {
      v = br_value(c, s, ch, i, level);
      if (a == 0 || v > best) best = v;
    }
    return best;
  }
  if (I->depth > level) {
    for (ch = n + 1; a < c->br[t->data[n]]; ch = t->next[ch]) a++;
    return br_value(c, s, ch, i, level);
  }
  for (ch = n + 1; ch < end; ch = t->next[ch], a++) {
    v = br_value(c, s, ch, i, level);
    if (I->depth == level) c->cv[I->action + (uint32_t)a] += c->reach[n] * v;
  }
  return 0;
}

double cfr_best_response(Cfr *c, const double *s, int i) {
  const GameTree *t = c->t;
  if (t->positional) return br_value(c, s, 0, i, -1);
  others_reach(c, s, 0, i, 1);
  /* Deepest sets first: their choices fix the values the shallower ones
  ** compare. */
  for (int level = t->max_depth[i]; level >= 0; level--) {
    for (uint32_t k = 0; k < t->ninfosets; k++) {
      const GtInfoset *I = &t->infosets[k];
      if (I->player == i && I->depth == level)
        memset(c->cv + I->action, 0, (size_t)I->nactions * sizeof *c->cv);
    }
    br_value(c, s, 0, i, level);
    for (uint32_t k = 0; k < t->ninfosets; k++) {
      const GtInfoset *I = &t->infosets[k];
      if (I->player != i || I->depth != level) continue;
      int best = 0;
      for (int a = 1; a < I->nactions; a++)
        if (c->cv[I->action + (uint32_t)a] > c->cv[I->action + (uint32_t)best]) best = a;
      c->br[k] = best;
    }
  }
  return br_value(c, s, 0, i, -1);
}

double cfr_nash_conv(Cfr *c, const double *s) {
  const GameTree *t = c->t;
  double u[GAME_MAX_PLAYERS], p[GAME_MAX_PLAYERS], conv = 0;
  cfr_expected(t, s, u, p);
  for (int i = 0; i < t->nplayers; i++) conv += cfr_best_response(c, s, i) - u[i];
  return conv;
}
