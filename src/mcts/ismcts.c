/*
** ismcts.c -- information-set Monte Carlo tree search (see ismcts.h).
**
** The tree is a hash table of nodes keyed by the position's hash (the
** searcher's information set: in the games it takes, what every player
** sees), each with its moves as edges (visits, summed value for the
** node's mover).  One iteration walks down from the root by UCB1, drawing
** chance's moves by their weights (a fresh determinization each time),
** adds the first node not in the tree, plays at most `rollout` random
** plies, values the end for every player and backs the values up the path.
** All of it is undone on the engine; the memory is the search's own,
** freed also when a rule fails at run time (the trap below).
*/
#include <math.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include "mcts/ismcts.h"
#include "mcts/playout.h"
#include "util/diag.h"
#include "util/status.h"
#include "util/stop.h"

typedef struct Edge {
  Move move;
  uint32_t visits;
  int32_t gain;             /* what it pays the mover at once, less the others */
  double sum;               /* the values for the node's mover, summed */
} Edge;

typedef struct Node {
  uint64_t key;
  uint64_t visits;
  uint32_t first;           /* its edges: edges[first .. first + nmoves) */
  int nmoves;
} Node;

typedef struct Step {
  uint32_t node;
  uint32_t edge;            /* index into edges */
  int mover;
} Step;

typedef struct Tree {
  Node *nodes;
  size_t nnodes, node_cap;
  uint32_t *slots;          /* open addressing: node index + 1, 0 empty */
  size_t nslots;            /* a power of two, at least twice nnodes */
  Edge *edges;
  size_t nedges, edge_cap;
  Step *path;
  size_t path_cap;
  Move moves[GAME_MAX_MOVES];
} Tree;

static void tree_free(Tree *t) {
  free(t->nodes);
  free(t->slots);
  free(t->edges);
  free(t->path);
  free(t);
}

/* The node of `key`, or NULL. */
static Node *tree_find(Tree *t, uint64_t key) {
  size_t mask = t->nslots - 1;
  for (size_t i = (size_t)(key * 0x9e3779b97f4a7c15u >> 20) & mask; t->slots[i]; i = (i + 1) & mask)
    if (t->nodes[t->slots[i] - 1].key == key) return &t->nodes[t->slots[i] - 1];
  return NULL;
}

static void slot_put(Tree *t, uint64_t key, uint32_t index) {
  size_t mask = t->nslots - 1, i = (size_t)(key * 0x9e3779b97f4a7c15u >> 20) & mask;
  while (t->slots[i]) i = (i + 1) & mask;
  t->slots[i] = index + 1;
}

/* Grows an array to hold `need` items; 0 when out of memory. */
static int grow(void **p, size_t *cap, size_t need, size_t size) {
  if (need <= *cap) return 1;
  size_t n = *cap ? *cap * 2 : 256;
  while (n < need) n *= 2;
  void *q = realloc(*p, n * size);
  if (q == NULL) return 0;
  *p = q;
  *cap = n;
  return 1;
}

/* What m pays the mover at once, less what it pays the others (0 in a
** game without `pay`). */
static int32_t gain_of(Game *g, const Move *m, int mover) {
  int32_t rw[GAME_MAX_PLAYERS], x = 0;
  if (!g->has_rewards) return 0;
  game_apply(g, m);
  if (game_rewards(g, rw))
    for (int i = 0; i < g->nplayers; i++) x += i == mover ? rw[i] : -rw[i];
  game_undo(g);
  return x;
}

/* The greedy move among m[0..n): the largest gain_of, ties at random. */
static int greedy_move(Game *g, const Move *m, int n, uint64_t *rng) {
  int mover = game_to_move(g), choice = 0, nbest = 0;
  int32_t best = INT32_MIN;
  if (!g->has_rewards) return (int)(random_next(rng) % (uint64_t)n);
  for (int i = 0; i < n; i++) {
    int32_t x = gain_of(g, &m[i], mover);
    if (x > best) { best = x; nbest = 0; }
    if (x == best && random_next(rng) % (uint64_t)++nbest == 0) choice = i;
  }
  return choice;
}

/* A new node for `key` with the moves m[0..n) of g's current position;
** NULL when out of memory. */
static Node *tree_add(Tree *t, Game *g, uint64_t key, const Move *m, int n) {
  if (!grow((void **)&t->nodes, &t->node_cap, t->nnodes + 1, sizeof *t->nodes)
      || !grow((void **)&t->edges, &t->edge_cap, t->nedges + (size_t)n, sizeof *t->edges))
    return NULL;
  if (2 * (t->nnodes + 1) > t->nslots) {
    size_t ns = t->nslots ? t->nslots * 2 : 1024;
    uint32_t *s = calloc(ns, sizeof *s);
    if (s == NULL) return NULL;
    free(t->slots);
    t->slots = s;
    t->nslots = ns;
    for (size_t i = 0; i < t->nnodes; i++) slot_put(t, t->nodes[i].key, (uint32_t)i);
  }
  Node *nd = &t->nodes[t->nnodes];
  nd->key = key;
  nd->visits = 0;
  nd->first = (uint32_t)t->nedges;
  nd->nmoves = n;
  for (int i = 0; i < n; i++) {
    Edge *e = &t->edges[t->nedges + (size_t)i];
    e->move = m[i];
    e->visits = 0;
    e->gain = gain_of(g, &m[i], game_to_move(g));
    e->sum = 0;
  }
  t->nedges += (size_t)n;
  slot_put(t, key, (uint32_t)t->nnodes);
  t->nnodes++;
  return nd;
}

/* UCB1: an untried move first, the one that pays most at once (ties
** from a random place on, so that the order of generation does not
** decide), else the best mean plus the exploration term. */
static uint32_t select_edge(Tree *t, const Node *nd, double c, uint64_t *rng) {
  int n = nd->nmoves, start = (int)(random_next(rng) % (uint64_t)n), untried = -1;
  for (int k = 0; k < n; k++) {
    int i = (start + k) % n;
    const Edge *e = &t->edges[nd->first + (uint32_t)i];
    if (e->visits == 0 && (untried < 0 || e->gain > t->edges[nd->first + (uint32_t)untried].gain))
      untried = i;
  }
  if (untried >= 0) return nd->first + (uint32_t)untried;
  double lg = log((double)nd->visits), best = -1;
  uint32_t b = nd->first;
  for (int i = 0; i < n; i++) {
    const Edge *e = &t->edges[nd->first + (uint32_t)i];
    double u = e->sum / e->visits + c * sqrt(lg / e->visits);
    if (u > best) { best = u; b = nd->first + (uint32_t)i; }
  }
  return b;
}

/* Each player's value of an iteration: by the whole game's payoffs (what
** was paid before the root, on the way, and the outcome when it ended). */
static void values(const Game *g, const IsmctsOptions *o, const double *gain, int ended,
                   double *v) {
  double total[GAME_MAX_PLAYERS];
  for (int i = 0; i < g->nplayers; i++) total[i] = gain[i] + (o->base ? (double)o->base[i] : 0);
  for (int i = 0; i < g->nplayers; i++) {
    double lead = total[i];
    if (g->nplayers > 1) {
      double other = -HUGE_VAL;
      for (int j = 0; j < g->nplayers; j++)
        if (j != i && total[j] > other) other = total[j];
      lead -= other;
    }
    if (ended) v[i] = lead > 0 ? 1 : lead < 0 ? 0 : 0.5;
    else v[i] = 0.5 + 0.5 * tanh(lead / o->scale);
  }
}

/* Plays m and adds what it paid to gain. */
static void play(Game *g, const Move *m, double *gain) {
  int32_t rw[GAME_MAX_PLAYERS];
  game_apply(g, m);
  if (g->has_rewards && game_rewards(g, rw))
    for (int i = 0; i < g->nplayers; i++) gain[i] += rw[i];
}

/* One iteration from the root; the engine is back at the root after.
** 0, or -1 out of memory. */
static int iterate(Game *g, Tree *t, const IsmctsOptions *o, uint64_t *rng, IsmctsResult *r) {
  double gain[GAME_MAX_PLAYERS] = { 0 }, v[GAME_MAX_PLAYERS];
  int depth = 0, expanded = 0, ended = 0, oom = 0;
  size_t npath = 0;
  Outcome out;
  /* Step 1. Down the tree, chance drawn afresh, one node added. */
  for (;;) {
    if (game_ended(g, &out)) { ended = 1; break; }
    int mover = game_to_move(g);
    if (mover == GAME_CHANCE) {
      int n = game_generate(g, t->moves);
      play(g, &t->moves[random_move(g, t->moves, n, rng)], gain);
      depth++;
      continue;
    }
    uint64_t key = game_hash(g);
    Node *nd = tree_find(t, key);
    if (nd == NULL) {
      if (expanded) break;
      int n = game_generate(g, t->moves);
      if (n == 0) { game_no_moves(g, &out); ended = 1; break; }
      if ((nd = tree_add(t, g, key, t->moves, n)) == NULL) { oom = 1; break; }
      expanded = 1;
    }
    if (!grow((void **)&t->path, &t->path_cap, npath + 1, sizeof *t->path)) { oom = 1; break; }
    uint32_t e = select_edge(t, nd, o->explore, rng);
    t->path[npath].node = (uint32_t)(nd - t->nodes);
    t->path[npath].edge = e;
    t->path[npath].mover = mover;
    npath++;
    play(g, &t->edges[e].move, gain);
    depth++;
  }
  /* Step 2. A few greedy plies (chance's by its weights). */
  for (int k = 0; !ended && !oom && k <= o->rollout; k++) {
    if (game_ended(g, &out)) { ended = 1; break; }
    if (k == o->rollout) break;
    int n = game_generate(g, t->moves);
    if (n == 0) { game_no_moves(g, &out); ended = 1; break; }
    int i = game_to_move(g) == GAME_CHANCE ? random_move(g, t->moves, n, rng)
                                           : greedy_move(g, t->moves, n, rng);
    play(g, &t->moves[i], gain);
    depth++;
  }
  while (depth-- > 0) game_undo(g);
  if (oom) return -1;
  if (ended)
    for (int i = 0; i < g->nplayers; i++) gain[i] += out.payoff[i];
  /* Step 3. The values, backed up the path. */
  values(g, o, gain, ended, v);
  for (size_t k = 0; k < npath; k++) {
    Step *s = &t->path[k];
    t->nodes[s->node].visits++;
    t->edges[s->edge].visits++;
    t->edges[s->edge].sum += v[s->mover];
  }
  if (npath > 0) {
    int i = (int)(t->path[0].edge - t->nodes[0].first);
    for (int p = 0; p < g->nplayers; p++) r->gain[i][p] += gain[p];
  }
  return 0;
}

void ismcts_defaults(IsmctsOptions *o) {
  memset(o, 0, sizeof *o);
  o->iterations = ismcts_level_iterations(4);
  o->seed = 1;
  o->rollout = 0;
  o->explore = 0.7;
  o->scale = 10;
}

uint64_t ismcts_level_iterations(int level) {
  if (level < 1) level = 1;
  if (level > ISMCTS_MAX_LEVEL) level = ISMCTS_MAX_LEVEL;
  return (uint64_t)25 << level;
}

void ismcts_result_free(IsmctsResult *r) {
  free(r->moves);
  free(r->visits);
  free(r->value);
  free(r->gain);
  memset(r, 0, sizeof *r);
}

/* The search proper, under the caller's trap set by ismcts_search. */
static int search(Game *g, Tree *t, const IsmctsOptions *o, IsmctsResult *r, FILE *err) {
  uint64_t rng = o->seed;
  Outcome out;
  if (game_ended(g, &out)) return diag_fail(err, EXIT_USAGE, "%s", "the game is over: no move to choose");
  if (game_to_move(g) == GAME_CHANCE)
    return diag_fail(err, EXIT_USAGE, "%s", "chance is to move: there is no move to choose");
  int n = game_generate(g, t->moves);
  r->mover = game_to_move(g);
  r->best = -1;
  if (n == 0) return EXIT_OK;
  r->nmoves = n;
  r->moves = malloc((size_t)n * sizeof *r->moves);
  r->visits = calloc((size_t)n, sizeof *r->visits);
  r->value = calloc((size_t)n, sizeof *r->value);
  r->gain = calloc((size_t)n, sizeof *r->gain);
  if (!r->moves || !r->visits || !r->value || !r->gain || !tree_add(t, g, game_hash(g), t->moves, n))
    return diag_fail(err, EXIT_LIMIT, "%s", "out of memory for the search tree");
  memcpy(r->moves, t->moves, (size_t)n * sizeof *r->moves);
  for (uint64_t it = 0; it < o->iterations && !stop_requested; it++, r->iterations++)
    if (iterate(g, t, o, &rng, r) < 0)
      return diag_fail(err, EXIT_LIMIT, "out of memory for the search tree after %llu iterations",
                       (unsigned long long)it);
  /* The most visited move, ties to the better mean. */
  for (int i = 0; i < n; i++) {
    const Edge *e = &t->edges[t->nodes[0].first + (uint32_t)i];
    r->visits[i] = e->visits;
    r->value[i] = e->visits ? e->sum / e->visits : 0;
    for (int p = 0; p < g->nplayers && e->visits; p++) r->gain[i][p] /= e->visits;
    if (r->best < 0 || r->visits[i] > r->visits[r->best]
        || (r->visits[i] == r->visits[r->best] && r->value[i] > r->value[r->best]))
      r->best = i;
  }
  r->nodes = t->nnodes;
  return EXIT_OK;
}

int ismcts_search(Game *g, const IsmctsOptions *o, IsmctsResult *r, FILE *err) {
  jmp_buf trap, *outer = g->trap;
  Tree *t;
  int st;
  memset(r, 0, sizeof *r);
  r->best = -1;
  if (g->has_views)
    return diag_fail(err, EXIT_USAGE, "%s", "ismcts takes games whose hidden part is drawn by "
                     "chance when it is shown (no `hidden` state): use --solver cfr");
  if ((t = calloc(1, sizeof *t)) == NULL)
    return diag_fail(err, EXIT_LIMIT, "%s", "out of memory for the search tree");
  g->trap = &trap;
  st = setjmp(trap) == 0 ? search(g, t, o, r, err) : -1;
  g->trap = outer;
  tree_free(t);
  if (st < 0) {                   /* a rule failed: on to the caller's trap */
    ismcts_result_free(r);
    if (outer) longjmp(*outer, 1);
    exit(g->error_status);
  }
  if (st != EXIT_OK) ismcts_result_free(r);
  return st;
}
