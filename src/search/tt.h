/*
** tt.h -- the transposition table of the alphabeta solver.
**
** A fixed block of memory cut into two-entry buckets; game_hash picks
** the bucket, and an entry is found by its position's KEY, the bytes
** that determine the position one-to-one (the engine's packed key, or
** its raw state when it does not pack).  Comparing whole keys, not
** hashes, makes a hit exact: two positions cannot share an entry, so a
** hash collision costs a miss, never a wrong value.  An entry:
**
**   offset  bytes  field   meaning
**        0      8  lower   lower bound of the value, relative to the node
**        8      8  upper   upper bound (equal to lower: the value is exact)
**       16      2  move    generation index of the best move, TT_NO_MOVE
**       18      2  draft   TT_DRAFT_EXACT, or the plies left to a horizon
**       20      1  work    bit length of the subtree's node count; 0: empty
**       21      3  -       padding
**       24      K  key     the position's key, K = key_bytes rounded up to 8
**
** so 32 bytes for keys of up to 8 bytes (40 for Connect Four 5x4, whose
** packed key is 12 bytes).  The layout is set by tt_prepare, once the
** key size is known; the memory block does not change size.
**
** Bounds come from searches of different windows; an entry keeps the
** tightest of each (a value is a property of the position and the draft
** alone, so bounds of one draft never contradict each other).
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
#define TT_MIN_MIB     1        /* tt_new shrinks a table no further */
#define TT_RESERVE_MIB 16       /* what a shrunk table leaves free beside it */
#define TT_NO_MOVE     0xffff   /* an entry without a best move */
#define TT_DRAFT_EXACT 0xffff   /* searched to the end of the game */
#define TT_NO_BOUND    ((int64_t)1 << 62)  /* |bound| beyond every value */

/* One entry, as probe returns it and store takes it. */
typedef struct TtEntry {
  int64_t lower;          /* -TT_NO_BOUND: no lower bound */
  int64_t upper;          /* +TT_NO_BOUND: no upper bound */
  uint16_t move;          /* generation index of the best move, TT_NO_MOVE */
  uint16_t draft;         /* TT_DRAFT_EXACT or plies left to a horizon */
  uint8_t work;           /* bit length of the subtree's node count */
} TtEntry;

/* Counters for --stats. */
typedef struct TtStats {
  uint64_t probes;        /* lookups */
  uint64_t hits;          /* lookups that found the position */
  uint64_t cutoffs;       /* hits whose bounds settled the node (the
                          ** solver counts these: tt_stats is writable) */
  uint64_t stores;        /* entries written */
  uint64_t replaced;      /* stores that evicted another position */
} TtStats;

typedef struct Tt Tt;

/* A table of about `mib` MiB (at least one bucket), or of half, a
** quarter ... of that, down to TT_MIN_MIB, when so much memory cannot be
** had (--tt-size is an upper bound); NULL if not even that.  tt_bytes:
** the size it got. */
Tt *tt_new(size_t mib);
size_t tt_bytes(const Tt *t);
void tt_free(Tt *t);

/* Lays the table out for keys of `key_bytes` bytes.  A table keeps its
** entries while the key size stays the same (so one table can serve
** several solves of one game) and is cleared when it changes.  0, or -1
** if out of memory. */
int tt_prepare(Tt *t, size_t key_bytes);

/* The same, with `payload_bytes` more per entry that the solver stores
** and reads back (tt_store_payload, tt_probe_payload); bounds stored with
** different payloads are not merged. */
int tt_prepare_payload(Tt *t, size_t key_bytes, size_t payload_bytes);
int tt_probe_payload(Tt *t, uint64_t hash, const void *key, TtEntry *out, void *payload);
void tt_store_payload(Tt *t, uint64_t hash, const void *key, int64_t lower,
                      int64_t upper, int move, int draft, uint64_t nodes,
                      const void *payload);

/* Empties every entry (and keeps the layout and the counters). */
void tt_clear(Tt *t);

/* 1 and the entry if the position (`hash`, `key` of the prepared size)
** is stored; else 0. */
int tt_probe(Tt *t, uint64_t hash, const void *key, TtEntry *out);

/* Stores what a search of the position found: bounds (TT_NO_BOUND where
** none), the best move (TT_NO_MOVE: keep the stored one), the draft and
** the size of the subtree searched.  With the same draft the bounds are
** merged with those already stored; another draft replaces them. */
void tt_store(Tt *t, uint64_t hash, const void *key, int64_t lower,
              int64_t upper, int move, int draft, uint64_t nodes);

/* The counters, and the entries in use (a scan of the table). */
TtStats *tt_stats(Tt *t);
size_t tt_used(const Tt *t, size_t *capacity);

#endif
