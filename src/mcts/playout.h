/*
** playout.h -- random games from a position to their end (--playouts N):
** the throughput figure of Monte Carlo players, and a smoke test of the
** rules on boards too big to search.
*/
#ifndef GSOLVE_PLAYOUT_H
#define GSOLVE_PLAYOUT_H

#include <stdint.h>
#include <stdio.h>
#include "game/game.h"
#include "cfr/strategy.h"
#include "util/random.h"

typedef struct Playouts {
  uint64_t games;         /* playouts finished */
  uint64_t moves;         /* moves played in them */
  uint64_t wins[GAME_MAX_PLAYERS];   /* games each player ended ahead */
  uint64_t draws;         /* games no player ended ahead */
  int64_t payoff[GAME_MAX_PLAYERS];  /* each player's payoffs, summed over
                                     ** the games (outcome and `pay`s) */
} Playouts;


/* A move index among moves[0..n), n > 0: uniform, or by the weights at a
** chance node. */
int random_move(Game *g, const Move *moves, int n, uint64_t *rng);

/* Plays n games from the current position, each move drawn uniformly
** among the legal ones (chance's by its weights; the players' by
** `strategy` when it is not NULL: --play-strategy FILE) with a SplitMix64
** generator seeded by `seed`; the position is restored after each.
** Returns EXIT_OK, or EXIT_LIMIT when a game runs past GAME_MAX_PLY, or
** stop_message()'s status when stopped (stop.h) between two games (both
** reported on err).  `progress`, if not NULL, is the progress display. */
struct Progress;
int playouts_run(Game *g, uint64_t n, uint64_t seed, Strategy *strategy, Playouts *out,
                 FILE *err, struct Progress *progress);

/* A move index among moves[0..n) drawn from the probabilities prob[]. */
int random_pick(const double *prob, int n, uint64_t *rng);


#endif
