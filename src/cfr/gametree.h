/*
** gametree.h -- a game expanded once into an explicit tree with a table
** of information sets, for counterfactual regret minimisation (cfr.c),
** which then iterates over flat arrays without the engine.
**
** The tree is stored in preorder: node 0 is the root, a node's first
** child is the next node, and next[n] is the node after n's subtree, so
** the children of n are n + 1, next[n + 1], next[next[n + 1]], ... up to
** next[n].  Each node is a player's decision (kind = the player), a
** chance node (GT_CHANCE) or an end (GT_TERMINAL); data[n] is then the
** information set, the offset of its children's probabilities in prob[],
** or the offset of its nplayers utilities in util[] and payoffs in pay[].
**
** An information set is one per (player, information state): the key
** GameVtable.infostate gives, or, for a game of perfect information (no
** views), the position itself (its hash and its state bytes; the hash
** includes the earlier positions under a repetition rule), so that CFR
** runs on perfect-information games too.  Its moves are the legal moves
** of its positions, which must agree; each action of each set has a
** global index (GtInfoset.action + k) into the per-action arrays.
**
** Utilities are zero-sum, the payoffs as CFR plays them: with two
** players, the payoffs themselves when they add up to 0 at every end (a
** zero-sum game: Kuhn, Leduc), else each player's margin (his payoff
** minus the other's, as every gsolve solver values two-player games);
** with more players, the payoffs (CFR then seeks no equilibrium
** guarantee).  pay[] keeps the payoffs for the report.
*/
#ifndef GSOLVE_GAMETREE_H
#define GSOLVE_GAMETREE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "game/game.h"
#include "search/progress.h"

#define GT_CHANCE   (-1)        /* kind[] of a chance node */
#define GT_TERMINAL (-2)        /* kind[] of an end */
#define GT_MAX_PLY  10000       /* depth of a line, at most */
#define GT_NONE     UINT32_MAX  /* no action */

typedef struct GtInfoset {
  uint64_t key[2];              /* the information state's key */
  int player;
  int nactions;
  uint32_t action;              /* its first action's global index */
  uint32_t text;                /* its printable text, in GameTree.text */
  int depth;                    /* its player's decisions before it */
  uint32_t parent;              /* its player's previous action (global
                                ** index); GT_NONE at its first decision */
} GtInfoset;

typedef struct GameTree {
  int nplayers;
  int positional;               /* no views: information sets are positions */
  int zero_sum;                 /* util[] is pay[] (payoffs add up to 0) */
  int margins;                  /* util[] is the two players' margins */
  uint32_t nnodes, nterminal, nchance;
  int8_t *kind;                 /* per node: the player, GT_CHANCE, GT_TERMINAL */
  uint32_t *next;               /* per node: the node after its subtree */
  uint32_t *data;               /* per node: infoset, prob or util offset */
  double *prob;                 /* chance nodes' children's probabilities */
  uint32_t *weight;             /* ... as the game's integer weights (prob =
                                ** weight / the siblings' sum), for exact values */
  double *util;                 /* per end: nplayers zero-sum utilities */
  double *pay;                  /* per end: nplayers payoffs */
  uint32_t nprob;
  GtInfoset *infosets;
  uint32_t ninfosets;
  uint32_t nactions;            /* actions over all information sets */
  Move *moves;                  /* per action: the move */
  uint32_t *move_name;          /* per action: its notation, in text */
  char *text;                   /* NUL-terminated strings */
  size_t text_len;
  int max_depth[GAME_MAX_PLAYERS];   /* the largest GtInfoset.depth */
  /* Expansion only. */
  uint32_t *slots;              /* hash table: infoset + 1, 0 empty */
  size_t nslots;
  size_t caps[8];               /* allocated sizes of the growing arrays */
  size_t memory;                /* bytes allocated */
  size_t memory_limit;          /* 0: none */
} GameTree;

/* Expands the game at g's current position (which it leaves there) into
** t, within memory_limit bytes (0: no limit), with a progress line when
** progress is not NULL.  EXIT_OK, or a status
** reported on err: out of memory or over the limit, a line too long, a
** position repeating along a line (CFR needs a finite tree): EXIT_LIMIT;
** moves that differ between the positions of one information set, or
** information states without perfect recall: EXIT_BAD_GAME; a stop
** (Ctrl-C, --time-limit). */
int gametree_build(GameTree *t, Game *g, size_t memory_limit, Progress *progress, FILE *err);
void gametree_free(GameTree *t);

/* An information set's text, and an action's move notation. */
static inline const char *gametree_infoset_text(const GameTree *t, uint32_t i) {
  return t->text + t->infosets[i].text;
}
static inline const char *gametree_move_name(const GameTree *t, uint32_t a) {
  return t->text + t->move_name[a];
}

/* The information set holding (player, key), or -1. */
int64_t gametree_find(const GameTree *t, int player, const uint64_t key[2]);

/* The information state of `player` at g's current position, as the
** tree keys it: GameVtable.infostate, or the position for perfect
** information.  With text (size > 0) its printable form. */
void gametree_key(Game *g, int player, uint64_t key[2], char *text, size_t size);

#endif
