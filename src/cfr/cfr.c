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
#include "cfr/cfr.h"
#include "util/status.h"

/* Regret matching: the current strategy of player p's information sets
** in proportion to the positive regrets, uniform when none is positive. */
static void regret_match(Cfr *c, int p) {
  const GameTree *t = c->t;
  for (uint32_t j = c->first[p]; j < c->first[p + 1]; j++) {
    const GtInfoset *I = &t->infosets[c->order[j]];
    const double *r = c->regret + I->action;
    double *s = c->sigma + I->action, total = 0;
    int n = I->nactions;
    for (int a = 0; a < n; a++) total += r[a] > 0 ? r[a] : 0;
    for (int a = 0; a < n; a++) s[a] = total > 0 ? (r[a] > 0 ? r[a] / total : 0) : 1.0 / n;
  }
}

/* For best responses: the decision nodes grouped by information set
** (c->nodes), and each player's sets by depth, deepest first (c->deep).
** 0, or -1 out of memory. */
static int index_sets(Cfr *c) {
  const GameTree *t = c->t;
  uint32_t nd = 0, *fill;
  for (uint32_t n = 0; n < t->nnodes; n++) nd += t->kind[n] >= 0;
  c->hfirst = calloc((size_t)t->ninfosets + 1, sizeof *c->hfirst);
  c->nodes = malloc((nd ? nd : 1) * sizeof *c->nodes);
  c->deep = malloc((t->ninfosets ? t->ninfosets : 1) * sizeof *c->deep);
  c->val = calloc(t->nnodes ? t->nnodes : 1, sizeof *c->val);
  fill = calloc((size_t)t->ninfosets + 1, sizeof *fill);
  if (!c->hfirst || !c->nodes || !c->deep || !c->val || !fill) {
    free(fill);
    return -1;
  }
  for (uint32_t n = 0; n < t->nnodes; n++)
    if (t->kind[n] >= 0) c->hfirst[t->data[n] + 1]++;
  for (uint32_t k = 0; k < t->ninfosets; k++) c->hfirst[k + 1] += c->hfirst[k];
  memcpy(fill, c->hfirst, ((size_t)t->ninfosets + 1) * sizeof *fill);
  for (uint32_t n = 0; n < t->nnodes; n++)
    if (t->kind[n] >= 0) c->nodes[fill[t->data[n]]++] = n;
  uint32_t k = 0;
  for (int p = 0; p < t->nplayers; p++)
    for (int d = t->max_depth[p]; d >= 0; d--)
      for (uint32_t j = c->first[p]; j < c->first[p + 1]; j++)
        if (t->infosets[c->order[j]].depth == d) c->deep[k++] = c->order[j];
  free(fill);
  return 0;
}

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
  c->order = malloc((t->ninfosets ? t->ninfosets : 1) * sizeof *c->order);
  if (!c->regret || !c->sigma || !c->sum || !c->delta || !c->cv || !c->own || !c->reach || !c->br
      || !c->order) {
    cfr_free(c);
    return EXIT_LIMIT;
  }
  /* Each player's sets, in table order (a set's parent before it). */
  uint32_t count[GAME_MAX_PLAYERS + 1] = { 0 };
  for (uint32_t k = 0; k < t->ninfosets; k++) count[t->infosets[k].player + 1]++;
  for (int p = 0; p < t->nplayers; p++) c->first[p + 1] = c->first[p] + count[p + 1];
  memcpy(count, c->first, sizeof count);
  for (uint32_t k = 0; k < t->ninfosets; k++) c->order[count[t->infosets[k].player]++] = k;
  if (!t->positional && index_sets(c) != 0) {
    cfr_free(c);
    return EXIT_LIMIT;
  }
  /* The first strategies: uniform. */
  for (int p = 0; p < t->nplayers; p++) regret_match(c, p);
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
  free(c->order);
  free(c->hfirst);
  free(c->nodes);
  free(c->deep);
  free(c->val);
  memset(c, 0, sizeof *c);
}


/* Player i's counterfactual value of node n, reached with probability po
** by the others' moves and chance's; adds i's regrets (weighted by po)
** into c->target.  (i's own reach matters to the average strategy only:
** add_average.) */
/* The value of child ch for player i: an end's utility read here (most
** nodes are ends: a call saved), else traverse's. */
#define CHILD_VALUE(c, t, ch, i, po)                                          \
  ((t)->kind[ch] == GT_TERMINAL                                               \
   ? (t)->util[(size_t)(t)->data[ch] * (size_t)(t)->nplayers + (size_t)(i)]   \
   : traverse(c, ch, i, po))

static double traverse(Cfr *c, uint32_t n, int i, double po) {
  const GameTree *t = c->t;
  int kind = t->kind[n];
  uint32_t end = t->next[n], ch;
  double v = 0;
  if (kind == GT_TERMINAL) return t->util[(size_t)t->data[n] * (size_t)t->nplayers + (size_t)i];
  if (kind == GT_CHANCE) {
    const double *p = t->prob + t->data[n];
    for (ch = n + 1; ch < end; ch = t->next[ch], p++)
      v += *p * CHILD_VALUE(c, t, ch, i, po * *p);
    return v;
  }
  const GtInfoset *I = &t->infosets[t->data[n]];
  const double *s = c->sigma + I->action;
  int a = 0;
  if (kind != i) {
    for (ch = n + 1; ch < end; ch = t->next[ch], a++)
      if (s[a] > 0) v += s[a] * CHILD_VALUE(c, t, ch, i, po * s[a]);
    return v;
  }
  double *cv = c->cv + I->action;
  for (ch = n + 1; ch < end; ch = t->next[ch], a++) {
    cv[a] = CHILD_VALUE(c, t, ch, i, po);
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
  for (uint32_t j = c->first[i]; j < c->first[i + 1]; j++) {
    const GtInfoset *I = &t->infosets[c->order[j]];
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
    /* Vanilla: every player's update against the strategies all had at
    ** the start of the iteration; then everyone's new strategy. */
    c->weight = 1;
    c->target = c->regret;
    for (int i = 0; i < t->nplayers; i++) {
      traverse(c, 0, i, 1);
      add_average(c, i);
    }
    for (int i = 0; i < t->nplayers; i++) regret_match(c, i);
    return;
  }
  /* CFR+: each player in turn, against the others' newest strategies. */
  c->weight = (double)c->iterations;
  c->target = c->delta;
  for (int i = 0; i < t->nplayers; i++) {
    traverse(c, 0, i, 1);
    add_average(c, i);
    /* Regrets are floored once the whole iteration's are in (delta is
    ** left at zero for the next). */
    for (uint32_t j = c->first[i]; j < c->first[i + 1]; j++) {
      const GtInfoset *I = &t->infosets[c->order[j]];
      double *r = c->regret + I->action, *d = c->delta + I->action;
      for (int a = 0; a < I->nactions; a++) {
        r[a] = r[a] + d[a] > 0 ? r[a] + d[a] : 0;
        d[a] = 0;
      }
    }
    regret_match(c, i);
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

/* Perfect information (a positional tree): player i's best response's
** value of node n, the best child at each of i's nodes. */
static double br_positional(Cfr *c, const double *s, uint32_t n, int i) {
  const GameTree *t = c->t;
  int kind = t->kind[n], a = 0;
  uint32_t ch, end = t->next[n];
  double v = 0, best = 0;
  if (kind == GT_TERMINAL) return t->util[(size_t)t->data[n] * (size_t)t->nplayers + (size_t)i];
  if (kind != i) {
    const double *w = kind == GT_CHANCE ? t->prob + t->data[n]
                    : s + t->infosets[t->data[n]].action;
    for (ch = n + 1; ch < end; ch = t->next[ch], w++)
      if (*w > 0) v += *w * br_positional(c, s, ch, i);
    return v;
  }
  for (ch = n + 1; ch < end; ch = t->next[ch], a++) {
    v = br_positional(c, s, ch, i);
    if (a == 0 || v > best) best = v;
  }
  return best;
}

/* Player i's value of node n when the others play s and i its best
** response, whose value at i's own nodes below is in c->val already. */
static double br_below(Cfr *c, const double *s, uint32_t n, int i) {
  const GameTree *t = c->t;
  int kind = t->kind[n];
  double v = 0;
  if (kind == GT_TERMINAL) return t->util[(size_t)t->data[n] * (size_t)t->nplayers + (size_t)i];
  if (kind == i) return c->val[n];
  const double *w = kind == GT_CHANCE ? t->prob + t->data[n] : s + t->infosets[t->data[n]].action;
  for (uint32_t ch = n + 1; ch < t->next[n]; ch = t->next[ch], w++)
    if (*w > 0) v += *w * br_below(c, s, ch, i);
  return v;
}


/* Perfect recall: i's sets deepest first (the values their actions lead
** to then depend only on choices made already); in each, the action
** with the largest value summed over the set's nodes, each weighted by
** the others' and chance's reach; each node's value is then its chosen
** child's (c->val).  Every node is valued once. */
double cfr_best_response(Cfr *c, const double *s, int i) {
  const GameTree *t = c->t;
  if (t->positional) return br_positional(c, s, 0, i);
  others_reach(c, s, 0, i, 1);
  for (uint32_t j = c->first[i]; j < c->first[i + 1]; j++) {
    uint32_t k = c->deep[j];
    const GtInfoset *I = &t->infosets[k];
    double *q = c->cv + I->action;
    int best = 0;
    for (int a = 0; a < I->nactions; a++) q[a] = 0;
    for (uint32_t h = c->hfirst[k]; h < c->hfirst[k + 1]; h++) {
      uint32_t n = c->nodes[h], ch;
      if (c->reach[n] <= 0) continue;   /* (never read: see br_below) */
      int a = 0;
      for (ch = n + 1; ch < t->next[n]; ch = t->next[ch], a++) {
        c->val[ch] = br_below(c, s, ch, i);
        q[a] += c->reach[n] * c->val[ch];
      }
    }
    for (int a = 1; a < I->nactions; a++)
      if (q[a] > q[best]) best = a;
    c->br[k] = best;
    for (uint32_t h = c->hfirst[k]; h < c->hfirst[k + 1]; h++) {
      uint32_t n = c->nodes[h], ch = n + 1;
      if (c->reach[n] <= 0) continue;
      for (int a = 0; a < best; a++) ch = t->next[ch];
      c->val[n] = c->val[ch];
    }
  }
  return br_below(c, s, 0, i);
}

double cfr_gains(Cfr *c, const double *s, double *gain) {
  const GameTree *t = c->t;
  double u[GAME_MAX_PLAYERS], p[GAME_MAX_PLAYERS], conv = 0;
  cfr_expected(t, s, u, p);
  for (int i = 0; i < t->nplayers; i++) {
    gain[i] = cfr_best_response(c, s, i) - u[i];
    conv += gain[i];
  }
  return conv;
}

double cfr_nash_conv(Cfr *c, const double *s) {
  double gain[GAME_MAX_PLAYERS];
  return cfr_gains(c, s, gain);
}
