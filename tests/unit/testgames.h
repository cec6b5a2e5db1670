/*
** testgames.h -- small engines written directly in C against game.h, so
** the solvers, perft, count and --position can be tested without the
** compiler and the VM.
**
**   Nim     heaps of stones; take any number from one heap; whoever
**           cannot move loses.  Terminal only through no_moves.
**   Coins   a row of coins; take one from either end; a coin worth 0
**           gives another turn; at the end the payoffs are the sums, so
**           margins and draws of every size occur.
**   Graph   an explicit game graph: each node names its mover, its
**           children (with optional notations) and, if terminal, its
**           payoffs, and an eval.  Trees, DAGs with transpositions,
**           cycles, one- and two-player games, built by hand or at random.
*/
#ifndef TESTGAMES_H
#define TESTGAMES_H

#include <stdint.h>
#include "game/game.h"

#define NIM_MAX_HEAPS 8
#define COINS_MAX 16
#define GRAPH_MAX_KIDS 8

Game *nim_new(int nheaps, const int *heaps);
Game *coins_new(int n, const int *values);

typedef struct GraphNode {
  int mover;                         /* player to move */
  int ended;                         /* game_ended holds here */
  int32_t payoff[2];                 /* outcome if ended or without moves */
  int nkids;
  int kid[GRAPH_MAX_KIDS];           /* child node indices */
  const char *label[GRAPH_MAX_KIDS]; /* notation of each move; NULL: "mJ" */
  int32_t eval;                      /* the heuristic for the mover */
} GraphNode;

/* A game on `n` nodes (copied), starting at node `start`.  nplayers is 1
** or 2. */
Game *graph_new(const GraphNode *nodes, int n, int start, int nplayers);

/* A random layered DAG: `layers` layers of `width` nodes, edges to the
** next layer or the one after, some nodes terminal early.  Flags:
** GRAPH_CYCLIC adds edges back to earlier layers, GRAPH_BUSHY gives every
** inner node 2 to 4 moves and fewer early ends. */
enum { GRAPH_CYCLIC = 1, GRAPH_BUSHY = 2 };
Game *graph_random(uint64_t seed, int width, int layers, int nplayers,
                   int flags);
/* The graph engine's nodes, and its current node (to set a new root). */
const GraphNode *graph_nodes(Game *g, int *n);
void graph_set_node(Game *g, int node);
int graph_node(Game *g);

void testgame_free(Game *g);

/* Every engine's hash is ANDed with `mask` (all ones by default): a small
** mask makes most positions collide, which tables must survive. */
void testgame_set_hash_mask(uint64_t mask);

#endif
