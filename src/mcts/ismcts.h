/*
** ismcts.h -- information-set Monte Carlo tree search (Cowling, Powley
** and Whitehouse, 2012): the computer's play in games too large to solve,
** with chance and what the players cannot see.
**
** Each iteration is one determinization: the chance moves it meets
** (Halali's face-down tiles, drawn when turned) are drawn afresh by their
** weights, so the tree's statistics average over what the searcher
** cannot know.  Its nodes are the searcher's information sets, which in a
** game without `hidden` state are the positions the players see (keyed
** by the position's hash).  The search reads the game only through the
** game interface (moves, apply and undo, end, weights, payoffs); games
** whose state hides parts from a player (views) are refused: sampling a
** state consistent with one player's view needs a model of the hidden
** part that the rules do not give (docs/halali.md).
**
** Selection by UCB1 over the moves of the node (each player maximises
** his own value; untried moves first, those that pay the mover most at
** once before the others), expansion of one node per iteration, then at
** most `rollout` greedy plies (default 0: the leaf is valued as it is),
** and a value for every player: 1, 1/2 or 0 for a won, drawn or lost end
** by the total payoffs, and before the end 1/2 + tanh(lead / scale) / 2
** of his lead in payoffs.  The move played is the root's most visited
** (ties: the better mean).
*/
#ifndef GSOLVE_ISMCTS_H
#define GSOLVE_ISMCTS_H

#include <stdint.h>
#include <stdio.h>
#include "game/game.h"

#define ISMCTS_MAX_LEVEL 12

typedef struct IsmctsOptions {
  uint64_t iterations;      /* the budget: iterations from the root */
  uint64_t seed;            /* the generator's seed: same seed, same search */
  int rollout;              /* greedy plies after the tree, at most */
  double explore;           /* UCB1's exploration constant */
  double scale;             /* a lead in payoffs worth tanh(1) */
  /* What each player was paid before the root (NULL: nothing), so that
  ** the ends are judged by the whole game's payoffs. */
  const int64_t *base;
} IsmctsOptions;

/* The root's moves and what the search learnt of them. */
typedef struct IsmctsResult {
  int mover;                /* the searcher: the player to move at the root */
  int nmoves;
  Move *moves;              /* in generation order */
  uint64_t *visits;
  double *value;            /* mean value for the mover, 0..1 */
  double (*gain)[GAME_MAX_PLAYERS];  /* mean payoffs from the root on */
  int best;                 /* the move to play (index), -1 if none */
  uint64_t iterations, nodes;  /* iterations run, tree nodes made */
} IsmctsResult;

/* The defaults and the budget of --level N (1..ISMCTS_MAX_LEVEL):
** 25 * 2^N iterations (level 4: 400). */
void ismcts_defaults(IsmctsOptions *o);
uint64_t ismcts_level_iterations(int level);

/* Searches the current position (a player to move, not ended) for its
** mover; the engine is back at the position after.  EXIT_OK, EXIT_USAGE
** for a game with views or a chance node at the root, EXIT_LIMIT out of
** memory (reported on err).  A rule's runtime error goes on to the
** caller's trap after the search's memory is freed. */
int ismcts_search(Game *g, const IsmctsOptions *o, IsmctsResult *r, FILE *err);
void ismcts_result_free(IsmctsResult *r);

#endif
