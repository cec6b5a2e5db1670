/*
** alphabeta_int.h -- what the two files of the alphabeta solver share:
** its working state and the node search (alphabeta.c), used by the
** root's search (alphabeta_root.c).  Not for other solvers.
*/
#ifndef GSOLVE_ALPHABETA_INT_H
#define GSOLVE_ALPHABETA_INT_H

#include "solve/alphabeta.h"

#define HISTORY_BITS     12                  /* 2^12 slots per player */
#define HISTORY_MAX_BITS 40                  /* of one credit */
#define HISTORY_LIMIT    ((int64_t)1 << 60)  /* halve the credits beyond */
#define ORDER_FAR        ((int64_t)1 << 60)  /* beyond any eval or history */

/* One move in the order a node searches them. */
typedef struct OrderItem {
  int64_t score;          /* larger first */
  int index;              /* generation index */
} OrderItem;

/* The state of a solve.  It lives on the heap, hung off the Search
** (s->work), so that its arrays are freed even if the engine longjmps out
** of a solve, and are reused by the next one. */
typedef struct Ab {
  Search *s;
  Game *g;
  Tt *tt;
  AbOptions *o;
  int horizon;            /* depth-limited: ply of the horizon; 0: exact */
  int deepen;             /* exact by bounded deepening: the horizon's
                          ** leaves are worth the game's bounds */
  int pessimist;          /* deepening: the player whose lower bound the
                          ** leaves take (the other's upper bound) */
  uint64_t leaves;        /* depth-limited: leaves cut at the horizon */
  unsigned char *bcache;  /* the game's bounds of recent positions:
                          ** BOUND_SLOTS slots of hash, lo, hi, key */
  size_t bslot;           /* bytes of a slot; 0: no cache yet */
  int score_only;         /* values carry no end ply (AbOptions) */
  int bounds;             /* score_only, exact, and the game has bounds */
  int eval_all;           /* order every node by eval (see alphabeta_run) */
  int ghi;                /* a repetition rule: entries carry what their
                          ** subtree met of the line (ghi.h) */
  size_t key_bytes;       /* size of a position's key (pack or state) */
  unsigned char *keys;    /* the key of each node on the line, by ply */
  size_t keys_cap;        /* bytes allocated for keys */
  OrderItem *items;       /* search order, parallel to the move stack */
  size_t nitems;
  int64_t *history;       /* [player][slot]: cutoff credit of each move */
  OrderItem *order;       /* the root's moves in search order ... */
  Value *lo, *hi;         /* ... and the bounds of their values */
  size_t nroot;           /* root moves these have room for */
  /* Symmetric lines (alphabeta_sym.c). */
  int nsym;               /* elements of the game's group; 0: not used */
  uint64_t *stab;         /* by ply: the elements (bits) that fix every
                          ** position of the line so far; 0: none but
                          ** the identity, or not used */
  size_t stab_cap;
  int *rep;               /* parallel to the move stack: the move whose
                          ** position is an image of this one's, or its own
                          ** index; ... */
  int *rootrep;           /* ... and at the root */
  unsigned char *sym_states;  /* the children's states, for comparing */
  size_t sym_states_cap;
  unsigned char *sym_img; /* one image */
  size_t sym_img_bytes;
  int *sym_head;          /* the representatives by their states' hashes: */
  int *sym_next;          /* a chain per bucket (ab_sym_mark) */
  size_t sym_buckets, sym_next_cap;
} Ab;

/* Alpha-beta value of the current position, at ply `top` (>= 1), for its
** mover, within (alpha, beta).  On an error it sets s->status, takes back
** the moves it made, and returns 0. */
Value ab_search(Ab *a, int top, Value alpha, Value beta);

/* Sorts by score, larger first; ties in generation order. */
void ab_sort_items(OrderItem *items, int n);

/* Symmetric lines (alphabeta_sym.c).  ab_sym_setup: whether the game's
** group is used (a->nsym), 0 or -1 when out of memory.  ab_sym_fixers:
** the elements of `mask` that fix the current position, 0 when only the
** identity is left.  ab_sym_root_mask: whether the root's line may be
** taken as symmetric (no earlier positions the rule looks at).
** ab_sym_mark: rep[i] for each of the n moves of the current position,
** under the elements of `mask`; the number of moves whose position is an
** image of an earlier one's, or -1 when out of memory. */
int ab_sym_setup(Ab *a);
uint64_t ab_sym_fixers(Ab *a, uint64_t mask);
int ab_sym_root_mask(Ab *a);
int ab_sym_mark(Ab *a, uint64_t mask, const Move *moves, int n, int *rep);

/* The first order of the root moves (alphabeta_root.c). */
void ab_order_root(Ab *a, OrderItem *order);

/* One search of the root at the current horizon (or exact): fills the
** result's values, exact flags and best moves (alphabeta_root.c). */
void ab_search_root(Ab *a, OrderItem *order, Value *lo, Value *hi);

#endif
