/*
** retro_compact.h -- retrograde analysis in the compact form (--compact):
** a table of a few bytes a position for games whose every move leads
** one layer on (each position is reached at one depth alone: placement
** games such as Connect Four, where the stones on the board grow by one
** a move).  Each layer's positions are a sorted set of packed keys in
** Elias-Fano form (efset.h); a position's rank in its layer indexes a
** bit-packed array of its mover, score and distance.  See
** docs/performance.md ("Compact retrograde tables").
*/
#ifndef GSOLVE_RETRO_COMPACT_H
#define GSOLVE_RETRO_COMPACT_H

#include <stdint.h>
#include "retro/efset.h"
#include "retro/retro.h"

/* Layers (depths) a compact table holds at most. */
#define COMPACT_MAX_LAYERS 4096

typedef struct CompactLayer {
  EfSet keys;               /* the squeezed keys, sorted */
  uint64_t vary;            /* the key bits that differ within the layer */
  uint64_t fixed;           /* the others' values */
  uint8_t squeeze[8][256];  /* per key byte: its varying bits, packed */
  uint8_t width[8];         /* and their number */
  uint8_t shift[8];         /* where they go in the squeezed key */
  uint8_t deposit[8][256];  /* squeeze's inverse, per key byte */
  uint64_t *vals;           /* per rank: mover (1 bit), score - smin, dist */
  int dbits;                /* bits of the distance: enough for the layers below */
} CompactLayer;

typedef struct RetroCompact {
  CompactLayer *layer;
  int nlayers, layer_cap;
  int64_t smin;             /* the lowest score; scores take sbits bits */
  int sbits;
  uint64_t largest;         /* positions (stored) of the largest layer */
  size_t peak;              /* the most bytes held at once (tables) */
  double forward_seconds, backward_seconds;
  /* Scratch of one position's expansion. */
  Move *moves;
  unsigned char *ckeys;     /* GAME_MAX_MOVES keys */
  uint8_t *cmover;
  uint64_t *child;
  void *state;
} RetroCompact;

/* Whether r's game can take the compact form: NULL, or why not. */
const char *retro_compact_refusal(const Retro *r);

/* retro_solve's work in the compact form: r->stored, positions, edges
** and the table r->cpt; then the answer into s->result. */
int retro_compact_solve(Retro *r, Search *s);

/* The engine's current position's score (for its mover), distance, and
** whether the table holds it. */
int retro_compact_find(Retro *r, int32_t *score, uint32_t *dist);

/* Bytes held now. */
size_t retro_compact_bytes(const Retro *r);

/* Calls fn for each stored position: its unpacked state (the table's
** scratch), mover, score and distance; stops at fn's nonzero return,
** which it returns. */
int retro_compact_each(Retro *r, int (*fn)(void *arg, const void *state, int mover,
                                          int32_t score, uint32_t dist), void *arg);

void retro_compact_free(RetroCompact *c);

#endif
