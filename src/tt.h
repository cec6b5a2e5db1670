/*
** tt.h -- the transposition table of the alphabeta solver.
**
** A fixed array of two-entry buckets indexed by game_hash.  An entry:
**
**   field   bits  meaning
**   hash     64   the full game_hash, checked on probe
**   value    64   the search value (value.h), end ply relative to the node
**   move     16   generation index of the best move found
**   bound     8   TT_LOWER, TT_UPPER or TT_EXACT; 0 marks an empty slot
**   work      8   bit length of the subtree's node count
**
** Replacement: slot 0 keeps the entry whose subtree cost the most work
** (the costliest to recompute), slot 1 always takes what slot 0 refuses,
** and an entry pushed out of slot 0 moves down to slot 1.
*/
#ifndef GSOLVE_TT_H
#define GSOLVE_TT_H

#include <stddef.h>
#include <stdint.h>

#define TT_DEFAULT_MIB 64

enum { TT_LOWER = 1, TT_UPPER = 2, TT_EXACT = 3 };

typedef struct TtEntry {
  uint64_t hash;          /* full game_hash */
  int64_t value;          /* search value relative to the node */
  uint16_t move;          /* generation index of the best move */
  uint8_t bound;          /* TT_LOWER, TT_UPPER, TT_EXACT; 0: empty */
  uint8_t work;           /* bit length of the subtree's node count */
} TtEntry;

typedef struct Tt Tt;

/* A table of about `mib` MiB (at least one bucket); NULL if out of memory. */
Tt *tt_new(size_t mib);
void tt_free(Tt *t);

/* 1 and the entry if the position `hash` is stored; else 0. */
int tt_probe(const Tt *t, uint64_t hash, TtEntry *out);

/* Stores what a search of position `hash` found; `nodes` is the size of
** the subtree it searched. */
void tt_store(Tt *t, uint64_t hash, int64_t value, int bound, int move,
              uint64_t nodes);

#endif
