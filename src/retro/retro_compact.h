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

/* With layers on disk, the most slots of the set a layer is gathered in:
** as many words as the set of the layer being expanded takes, at least
** COMPACT_GATHER_MIN (32 KiB), at most COMPACT_GATHER_SLOTS (8 MiB);
** beyond, its keys go to disk in sorted runs, merged at the layer's end,
** each read COMPACT_RUN_KEYS keys at a time. */
#define COMPACT_GATHER_MIN ((size_t)1 << 12)
#define COMPACT_GATHER_SLOTS ((size_t)1 << 20)
#define COMPACT_RUN_KEYS 8192

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
  /* Layers on disk (RetroCompact.spill): where the set's words are in the
  ** spill file, and the layer's record in the database being written
  ** (1 + its offset; 0: not there); a record read back, its bytes. */
  uint64_t spill_pos, file_pos, file_len;
  unsigned char *rec;
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
  /* Layers on disk (--spill DIR, or a table that does not fit in memory):
  ** the forward pass's sets go to a temporary file (spill_fd) once their
  ** positions are expanded, and come back one at a time for the labels;
  ** each layer labelled goes to the database (out: the --db FILE, else a
  ** temporary file) and leaves memory once its parents are labelled, the
  ** root's two layers staying; afterwards, a layer asked for is read back
  ** from the database (read_fd), two at most held at once (loaded). */
  int spill;
  int spill_fd;             /* its descriptor + 1; 0: none */
  uint64_t spill_end;
  struct CompactOut *out;
  int read_fd;              /* descriptor + 1; 0: none */
  char *written;            /* the --db FILE written during the solve */
  int loaded[2];            /* layers read back, + 1 (0: none), the older first */
  uint64_t *run_at, *run_n; /* the layer being gathered: its sorted runs on disk */
  int nruns, runs_cap;
  uint64_t runs_total;      /* runs written in all (--stats) */
  uint64_t runs_from, runs_end;  /* where they are in the spill file */
  /* The memory estimates, bytes: the labels' before they are allocated
  ** (all layers in memory, or two at a time on disk), and what was
  ** chosen; the limit compared with (--memory, or what was free). */
  size_t need_memory, need_disk, estimate, limit;
  uint32_t endless;         /* the distance field of a draw without end (the
                            ** form with cycles, retro_compact_cycles.c), 0 none */
  uint32_t passes;          /* that form's passes, and its positions expanded */
  uint64_t expansions;
  int handed_at;            /* the layer where the layered form found a position
                            ** recurring and handed over to it; 0: chosen at once */
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
int retro_compact_scratch(Retro *r);

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

/* A layer's keys, values and blocks freed (the pointers NULL). */
void compact_layer_free(CompactLayer *L);
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

/* The same written as the layers finish (layers on disk): open writes the
** header (r's counts, smin and nlayers known: after the forward pass) to
** path, or with path NULL to a temporary file in dir that nobody else
** sees; layer writes layer k (its set and values in memory; -1 failed,
** reported); close writes the checksum, commits path, and keeps the file
** open for reading back (read_fd).  abort drops it. */
/* The bytes of its two buffers (a value block, and it compressed). */
#define COMPACT_WRITER_BYTES(sbits) ((size_t)2 * 8 * (65536 * (size_t)(1 + (sbits) + 16) / 64 + 2))
int compact_db_open(Retro *r, const char *path, const char *dir, const char *game,
                    const char *params, uint64_t rules_hash, FILE *err);
int compact_db_layer(Retro *r, int k);
int compact_db_close(Retro *r, const char *path, FILE *err);
void compact_db_abort(RetroCompact *c);

/* Reads layer L's record back from the database written (its set and
** value blocks; 0, or -1 reported), and drops it again (its counts stay). */
int compact_db_load(Retro *r, CompactLayer *L);
void compact_db_unload(CompactLayer *L);

/* pread of exactly n bytes: 0, or -1. */
int compact_pread(int fd, void *p, size_t n, uint64_t off);

/* ---- Memory checks and layers on disk (compact_spill.c) ---- */

/* Whether a layer's set is in memory (not on disk). */
static inline int compact_keys_resident(const CompactLayer *L) {
  return L->keys.n == 0 || L->keys.high != NULL;
}

/* Whether `more` bytes can be taken on top of `held`: within --memory
** and what the machine has free now; *limit, *free_now: those bounds. */
int compact_fits(const Retro *r, size_t held, size_t more, size_t *limit, size_t *free_now);
/* The refusal (EXIT_LIMIT, reported): need bytes `what` at layer k, over
** the bound that failed, and the flag that helps. */
int compact_refuse(Retro *r, size_t need, size_t limit, size_t free_now, const char *what, int k);
/* The folder of the temporary files: --spill DIR, the --db FILE's, else
** $TMPDIR or /tmp (buf: room for the second). */
const char *compact_spill_folder(const Retro *r, char *buf, size_t size);
/* The spill file, made once (unlinked at once); pwrite of exactly n
** bytes.  0, or the status reported / -1. */
int compact_spill_open(Retro *r, RetroCompact *c);
int compact_write_at(int fd, const void *p, size_t n, uint64_t off);
/* A layer's set to the spill file and out of memory (0 or the status
** reported), and back (0; -1 out of memory; 1 failed, reported). */
int compact_spill_keys(Retro *r, RetroCompact *c, CompactLayer *L);
int compact_keys_back(Retro *r, RetroCompact *c, CompactLayer *L);
/* After the solve: layer k in memory, read back from the database when
** it left (two held at most; 0, or -1 reported); done: dropped again. */
int compact_layer_ready(Retro *r, RetroCompact *c, int k);
void compact_layer_done(RetroCompact *c, int k);
/* One pass over the sorted runs' keys in order, each once: fn(arg, key,
** i) for the i-th.  0; -1 out of memory; 1 failed to read (reported). */
int compact_merge_runs(Retro *r, RetroCompact *c, void (*fn)(void *arg, uint64_t key, uint64_t i),
                       void *arg);
/* After each forward layer: the labels' lower bound (layers to disk, or
** the refusal); after the forward pass: their exact need, the choice of
** all in memory or on disk, the database opened for the latter.  0, or
** the status reported. */
int compact_labels_so_far(Retro *r, RetroCompact *c);
int compact_plan_labels(Retro *r, RetroCompact *c);
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

/* The same pieces for gsolve-mpi's compact form (retro_mpi_compact.c):
** a key squeezed into layer L's form; the room for the gathering set to
** double at layer k (0: it may; 1: its keys went to disk as a run; else
** failed, reported: -1, or the status); the sorted runs merged into a new
** layer (0; -1 out of memory; or the status reported); whether two
** layers hold a key in common. */
uint64_t retro_compact_squeeze(const CompactLayer *L, uint64_t key);
/* The field of position `rank` of layer L (from its values, or its value
** block read from the file): mover, score and distance (RETRO_ENDLESS
** for the table's `endless`).  0, or -1 when the block does not decode
** (reported). */
int retro_compact_value(Retro *r, CompactLayer *L, uint64_t rank, int *mover, int32_t *score,
                        uint32_t *dist);
/* A file's key set as the engine's position may hold values its slots
** cannot (a 'filled' of 7 where 0..6 is declared): 1 and "'FILE' is
** corrupt: a key that is not a position of the game (WHY)" reported, not
** a rule's runtime error once a move is played on it (fuzz_db); else 0. */
int retro_compact_bad_key(Retro *r);
int retro_compact_room(Retro *r, RetroCompact *c, int k);
int retro_compact_merge(Retro *r, RetroCompact *c, CompactGather *s);
int retro_compact_meet(const CompactLayer *a, const CompactLayer *b);

#endif
