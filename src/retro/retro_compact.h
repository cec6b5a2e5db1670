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
#include "util/file.h"

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
  /* A table read from a file (compact_db.c): vals is NULL, the values are
  ** in blocks of RetroCompact.block ranks, each raw or zstd-compressed in
  ** the file's bytes, one block at a time decompressed into cache. */
  const unsigned char **block_at;
  uint32_t *block_size;
  uint8_t *block_kind;      /* 0 raw, 1 zstd */
  uint64_t *cache;
  int64_t cached;           /* the block in cache, -1 none */
} CompactLayer;

/* The set a layer is gathered in: open addressing on key + 1 (0: empty),
** the key of all ones aside. */
typedef struct CompactGather {
  uint64_t *slot;
  size_t cap, n;
  int has_max;
} CompactGather;

typedef struct RetroCompact {
  CompactGather next;       /* the layer being gathered (kept here: a rule
                            ** failing at run time leaves by longjmp) */
  CompactLayer *layer;
  int nlayers, layer_cap;
  int64_t smin;             /* the lowest score; scores take sbits bits */
  int sbits;
  uint64_t largest;         /* positions (stored) of the largest layer */
  size_t peak;              /* the most bytes held at once (tables) */
  double forward_seconds, backward_seconds;
  /* Read from a file: its bytes, and the ranks of a value block. */
  unsigned char *file;
  uint64_t block;
  uint32_t endless;         /* the distance field of a draw without end (the
                            ** form with cycles, retro_compact_cycles.c), 0 none */
  uint32_t passes;          /* that form's passes, and its positions expanded */
  uint64_t expansions;
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

/* --stats' line on the compact form: its layers, bits a key and a value. */
void retro_compact_note(const Retro *r, FILE *f);

/* A layer's squeeze tables from its vary mask (after a file gave it). */
void retro_compact_tables(CompactLayer *L);

/* Decompresses value block b of a layer read from a file into its
** cache (compact_db.c): 0, or -1 when it does not decode to its size
** (reported, r->status set). */
int compact_db_block(Retro *r, CompactLayer *L, uint64_t b);

/* The bits of a layer's value fields. */
int retro_compact_width(const RetroCompact *c, const CompactLayer *L);

/* Checks a table read from a file against the rules: every position's
** value again from its children's (the labelling pass, comparing), or
** the engine's current position's alone (check_here, before an answer).
** EXIT_OK, or EXIT_USAGE "'FILE' is corrupt: ..." reported. */
int retro_compact_verify(Retro *r);
int retro_compact_check_here(Retro *r);

/* The compact form's database file (compact_db.c): written by --db FILE
** after a --compact solve; db_read hands a file that begins with its
** magic to compact_db_read, open (fi, its first bytes read), which reads
** the rest and closes it. */
#define COMPACT_DB_MAGIC "GSCOMPCT"
int compact_db_write(const Retro *r, const char *path, const char *game, const char *params,
                     uint64_t rules_hash, FILE *err);
int compact_db_read(Retro *r, FileIn *fi, const char *path, const char *game, const char *params,
                    uint64_t rules_hash, FILE *err);

/* The form's pieces that the form with cycles (retro_compact_cycles.c)
** builds on: the engine's position's key; setting the engine to a key;
** the current position's children (keys in c->child, movers in
** c->cmover; -1 when it has ended, the outcome in *o); an end's margin
** for mover m; the gathering set; the gathered keys into a new layer;
** a key's rank in a layer; a layer's stored key back to the key. */
uint64_t retro_compact_key(Retro *r);
void retro_compact_set_key(Retro *r, RetroCompact *c, uint64_t key);
int retro_compact_expand(Retro *r, RetroCompact *c, Outcome *o);
int64_t retro_compact_margin(const Game *g, int m, const Outcome *o);
int retro_compact_gather_grow(CompactGather *s);
void retro_compact_gather_put(CompactGather *s, uint64_t key);
int retro_compact_gather_layer(RetroCompact *c, CompactGather *s);
int64_t retro_compact_rank(const CompactLayer *L, uint64_t key);
uint64_t retro_compact_unsqueeze(const CompactLayer *L, uint64_t v);

#endif
