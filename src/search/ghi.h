/*
** ghi.h -- transposition-table entries that stay exact under a
** repetition rule (the graph-history-interaction problem).
**
** Under `repetition forbidden|draw` a position's value depends on the
** earlier positions of the line, but only on those its subtree could
** reach again.  So with each node the search keeps T, the positions its
** subtree tested against the line (as a 256-bit Bloom filter: no false
** negatives), and D, the earlier positions (above the node) that a test
** matched.  D is exactly (line above the node) & T.  A stored value is
** reused under another line L' when D is still on L' and every position
** of L' that may be in T is in D: then L' & T = D, the same tests give the
** same answers, and the subtree's value is the same.
*/
#ifndef GSOLVE_GHI_H
#define GSOLVE_GHI_H

#include <stdint.h>
#include "game/game.h"

/* Sizes measured on 2x3 Go (situational superko, scores only): a 256-bit
** filter and 6 positions gave 23,343 nodes; 2048 bits and 6, 29,340;
** 2048 bits and 16 positions, 8,220 (1x6: 10,587 -> 4,932).  Big subtrees
** test and meet many positions: a small filter fills up and its false
** positives, or a D that overflows, leave their entries unusable. */
#ifndef GHI_DMAX
#define GHI_DMAX 16     /* matched earlier positions kept; more: not stored */
#endif
#ifndef GHI_BLOOM_BITS
#define GHI_BLOOM_BITS 2048
#endif
#define GHI_BLOOM_WORDS (GHI_BLOOM_BITS / 64)
_Static_assert(GHI_BLOOM_BITS >= 64 && (GHI_BLOOM_BITS & (GHI_BLOOM_BITS - 1)) == 0,
               "GHI_BLOOM_BITS: a power of two, at least 64 (ghi.c masks the hashes)");

typedef struct Ghi {
  uint64_t bloom[GHI_BLOOM_WORDS];      /* T */
  uint64_t d[GHI_DMAX];   /* D: the positions' hashes ... */
  int32_t di[GHI_DMAX];   /* ... and their indices on the current line */
  int nd;
  int overflow;           /* D or the trace did not fit: do not store */
} Ghi;

/* As a table entry holds it (indices are not kept: lines differ). */
typedef struct GhiStored {
  uint64_t bloom[GHI_BLOOM_WORDS];
  uint64_t d[GHI_DMAX];
  uint32_t nd;
  uint32_t pad;
} GhiStored;

void ghi_clear(Ghi *x);
/* Adds what the game's repetition tests compared since the last call,
** for a node at index `node` on the line. */
void ghi_add_trace(Ghi *x, Game *g, int node);
/* Adds a child's T and D to its parent's, the parent at index `node`. */
void ghi_fold(Ghi *parent, const Ghi *child, int node);
void ghi_store(const Ghi *x, GhiStored *out);
/* 1 if the stored entry holds for the current line (the node at index
** `node`), and then *x gets its T and D; else 0. */
int ghi_valid(const GhiStored *s, Game *g, int node, Ghi *x);
/* The current position's index on the line. */
int ghi_index(Game *g);

#endif
