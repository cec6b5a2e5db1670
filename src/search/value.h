/*
** value.h -- the value of a position in a one- or two-player search,
** packed into one integer so that negamax is pure negation.
**
** A value is a score (the margin of the player to move: his payoff minus
** the other player's; a one-player game's score is the payoff itself)
** and the ply at which the game ends.  It is encoded as a key, ordered so
** that a larger key is better for the player it belongs to.  The key of
** player 0 is, with BIG = 2^24 and the END PLY counted from the search
** root (absolute, so a value does not change on its way up the tree):
**
**   score > 0   score*BIG - endply    a win: sooner is better
**   score < 0   score*BIG + endply    a loss: later is better
**   score = 0   -endply               a draw: player 0 prefers it short
**
** and player 1's key is the negation of player 0's, so for him a draw
** is better the longer it lasts.  This keeps the order zero-sum (what
** one player gains the other loses), which is what makes alpha-beta
** prune correctly and every solver agree on the same optimal moves.
**
** |score| is clamped below 2^30 and end plies stay below BIG/2, so every
** key fits in 55 bits and decodes back unambiguously.
*/
#ifndef GSOLVE_VALUE_H
#define GSOLVE_VALUE_H

#include <stdint.h>
#include "game/game.h"

typedef int64_t Value;

#define VALUE_BIG       ((int64_t)1 << 24)         /* weight of one score point */
#define VALUE_SCORE_MAX (((int64_t)1 << 30) - 1)   /* |score| is clamped to this */
#define VALUE_INF       ((int64_t)1 << 60)         /* beyond every key */

/* The key for `mover` (0 or 1) of a game ending at absolute ply `endply`
** with margin `score` for mover. */
Value value_make(int64_t score, int64_t endply, int mover);

/* The key, for the player to move, of a terminal position at `ply`. */
Value value_from_outcome(const Outcome *o, int nplayers, int mover,
                         int64_t ply);

/* Splits a key back into the score for its player and the end ply. */
void value_decode(Value v, int64_t *score, int64_t *endply);

/* Moves the end ply of `v` (a key for `mover`) by delta: the transposition
** table stores values relative to their node and re-bases them on probe. */
Value value_shift(Value v, int mover, int64_t delta);

/* "win", "loss" or "draw" by the sign of the score. */
const char *value_verdict(int64_t score);

#endif
