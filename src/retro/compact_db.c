/*
** compact_db.c -- the compact form's database file (--compact --db FILE,
** read back by --solver db --db FILE and --dump-db).
**
** File layout (integers little-endian):
**
**   8      magic "GSCOMPCT"
**   4      format version (2; 1 is read too)
**   4      key bytes K
**   4      1 if keys are canonical forms (symmetry), else 0
**   4      number of players
**   8      hash of the compiled rules (gs_rules_hash)
**   8      reachable positions
**   8      stored positions
**   4+n    game name, parameters, engine (length, bytes; as db.h's)
**   8      the lowest score (signed); 4 its bits; 4 layers; 4 values a block
**   per layer, in the order the labelling finished them (the deepest
**   first: a run whose layers leave memory writes each as it finishes):
**     4 its number (format 2; format 1 has the layers in order, unnumbered)
**     8 vary, 8 fixed (the key bits that differ in the layer; the others)
**     8 keys n, 4 low bits, 4 distance bits, 8 upper bits
**     the Elias-Fano set's low and upper words (efset.h), raw: a lookup
**     needs them all, and they are random bits that no compressor shrinks
**     the values in blocks of B ranks: 4 blocks, then per block 4 kind
**     (0 raw, 1 zstd), 4 size, the bytes (the block's words of fields)
**   8      FNV-1a 64 checksum of every byte before it
**
** Format 3, a table of the form with cycles (retro_compact_cycles.c):
** format 2's layout with one layer, numbered 0, which holds every stored
** position; a position's children are in the same layer, and the
** distance field of all ones (dbits of them, at least 1) is a draw of no
** known end.  Its reader checks the records it answers with against
** their children's by the hash form's rule (retro_compact_cycles.h);
** --stats and --dump-db, checking every record, decode its values whole.
**
** A reader keeps the file's bytes and the sets, and decompresses a value
** block only when a position in it is asked for: the values are never
** decompressed whole (--stats and --dump-db read them all, one block at
** a time).
*/
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "retro/retro_compact.h"
#include "retro/retro_compact_cycles.h"
#include "util/diag.h"
#include "util/file.h"
#include "util/fnv.h"
#include "util/status.h"
#if defined(GSOLVE_ZSTD)
#include <zstd.h>
#endif

#define CDB_VERSION 2
#define CDB_VERSION_CYCLES 3      /* one layer, the children in it (above) */
#define CDB_CYCLES_DIST_BITS 16   /* a format 3 table's distance bits at most (the writer's buffer) */
#define CDB_BLOCK 65536           /* ranks a value block holds (a multiple of 64) */
#define CDB_MAX_TEXT 4096
#define CDB_ZSTD_LEVEL 3
#define CDB_SEED FNV_OFFSET


/* ------------------------------------------------------------------ */
/* Writing                                                            */
/* ------------------------------------------------------------------ */

/* A database being written: to FILE through the safe writer (util/file.h),
** or to a temporary file that nobody else sees (layers on disk without
** --db: created exclusively in the folder of the spill, then unlinked at
** once, so that nothing stays behind whatever ends the run). */
struct CompactOut {
  FileOut file;
  FILE *f;                  /* where the bytes go */
  int temp;                 /* f is the temporary file */
  uint64_t sum;             /* FNV-1a of every byte so far */
  uint64_t at;              /* bytes so far */
  int read_fd;              /* the same file open for reading, -1 none */
  unsigned char *buf, *zbuf;
  size_t bound;
#if defined(GSOLVE_ZSTD)
  ZSTD_CCtx *zctx;          /* one for every block */
#endif
};

typedef struct CompactOut Out;

static void put(Out *o, const void *p, size_t n) {
  fwrite(p, 1, n, o->f);
  o->sum = fnv1a(o->sum, p, n);
  o->at += n;
}

static void put_u32(Out *o, uint32_t v) {
  unsigned char b[4];
  for (int i = 0; i < 4; i++) b[i] = (unsigned char)(v >> (8 * i));
  put(o, b, 4);
}

static void put_u64(Out *o, uint64_t v) {
  put_u32(o, (uint32_t)v);
  put_u32(o, (uint32_t)(v >> 32));
}

static void put_str(Out *o, const char *s) {
  size_t n = s ? strlen(s) : 0;
  put_u32(o, (uint32_t)n);
  if (n) put(o, s, n);
}

/* Words as little-endian bytes, through buf (room for 4096 words). */
static void put_words(Out *o, const uint64_t *w, size_t n, unsigned char *buf) {
  while (n) {
    size_t k = n < 4096 ? n : 4096;
    for (size_t i = 0; i < k; i++)
      for (int j = 0; j < 8; j++) buf[8 * i + (size_t)j] = (unsigned char)(w[i] >> (8 * j));
    put(o, buf, 8 * k);
    w += k;
    n -= k;
  }
}

static const char *cdb_engine(const Game *g) {
  return strcmp(g->engine, "compiled") == 0 ? "vm" : g->engine;
}

static void out_free(Out *o) {
  if (o->read_fd >= 0) close(o->read_fd);
#if defined(GSOLVE_ZSTD)
  ZSTD_freeCCtx(o->zctx);
#endif
  free(o->buf);
  free(o->zbuf);
  free(o);
}

void compact_db_abort(RetroCompact *c) {
  Out *o = c->out;
  if (!o) return;
  if (o->temp) fclose(o->f);
  else file_abort(&o->file);
  out_free(o);
  c->out = NULL;
}

int compact_db_open(Retro *r, const char *path, const char *dir, const char *game,
                    const char *params, uint64_t rules_hash, FILE *err) {
  RetroCompact *c = r->cpt;
  Out *o = calloc(1, sizeof *o);
  if (!o) return diag_fail(err, EXIT_LIMIT, "out of memory writing the compact table");
  o->read_fd = -1;
  /* A value block's words: the widest layer's (the distance bits grow
  ** with the layers below, at most the deepest's count). */
  size_t most = (size_t)CDB_BLOCK * (size_t)(1 + c->sbits + 16) / 64 + 1;
  o->buf = malloc(8 * (most > 4096 ? most : 4096));
#if defined(GSOLVE_ZSTD)
  o->bound = ZSTD_compressBound(8 * most);
  o->zbuf = malloc(o->bound);
  o->zctx = ZSTD_createCCtx();
  if (!o->zbuf || !o->zctx) {
    free(o->buf);
    o->buf = NULL;
  }
#endif
  if (!o->buf) {
    out_free(o);
    return diag_fail(err, EXIT_LIMIT, "out of memory writing '%s'", path ? path : "the compact table");
  }
  if (path) {
    int st = file_create(&o->file, path, COMPACT_DB_MAGIC, 8, "gsolve compact database", err);
    if (st != EXIT_OK) {
      out_free(o);
      return st;
    }
    o->f = o->file.f;
    /* Read back through its temporary name, which no one can guess: the
    ** same file whatever happens to the names later. */
    if (c->spill) o->read_fd = open(o->file.tmp, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  } else {
    size_t n = strlen(dir) + 32;
    char *name = malloc(n);
    int fd = -1;
    if (name) {
      snprintf(name, n, "%s/gsolve-table-XXXXXX", dir);
      fd = mkstemp(name);
      if (fd >= 0) unlink(name);
    }
    int e = name ? errno : ENOMEM;
    free(name);
    if (fd >= 0 && !(o->f = fdopen(fd, "w+b"))) {
      e = errno;
      close(fd);
      fd = -1;
    }
    if (fd < 0) {
      out_free(o);
      if (e == ENOMEM) return diag_fail(err, EXIT_LIMIT, "out of memory writing the compact table");
      return diag_fail(err, EXIT_IO, "cannot create a temporary file in '%s' for the compact "
                       "table's finished layers: %s (give --spill DIR)", dir, strerror(e));
    }
    o->temp = 1;
    o->read_fd = dup(fd);
  }
  if (c->spill && o->read_fd < 0) {
    int st = diag_fail(err, EXIT_IO, "cannot read back '%s' as it is written", path ? path : dir);
    c->out = o;
    compact_db_abort(c);
    return st;
  }
  c->out = o;
  c->block = CDB_BLOCK;
  o->sum = CDB_SEED;
  put(o, COMPACT_DB_MAGIC, 8);
  put_u32(o, c->endless ? CDB_VERSION_CYCLES : CDB_VERSION);
  put_u32(o, (uint32_t)r->g->key_bytes);
  put_u32(o, r->canonical != NULL);
  put_u32(o, (uint32_t)r->g->nplayers);
  put_u64(o, rules_hash);
  put_u64(o, r->positions);
  put_u64(o, r->stored);
  put_str(o, game);
  put_str(o, params);
  put_str(o, cdb_engine(r->g));
  put_u64(o, (uint64_t)c->smin);
  put_u32(o, (uint32_t)c->sbits);
  put_u32(o, (uint32_t)c->nlayers);
  put_u32(o, CDB_BLOCK);
  return EXIT_OK;
}

int compact_db_layer(Retro *r, int k) {
  RetroCompact *c = r->cpt;
  Out *o = c->out;
  CompactLayer *L = &c->layer[k];
  const EfSet *e = &L->keys;
  unsigned char *buf = o->buf;
  int w = retro_compact_width(c, L);
  L->file_pos = o->at + 1;
  put_u32(o, (uint32_t)k);
  put_u64(o, L->vary);
  put_u64(o, L->fixed);
  put_u64(o, e->n);
  put_u32(o, (uint32_t)e->lbits);
  put_u32(o, (uint32_t)L->dbits);
  put_u64(o, e->high_bits);
  if (e->n) {
    put_words(o, e->low, bits_words(e->n, e->lbits), buf);
    put_words(o, e->high, (e->high_bits + 63) / 64 + 1, buf);
  }
  uint64_t nblocks = (e->n + CDB_BLOCK - 1) / CDB_BLOCK;
  put_u32(o, (uint32_t)nblocks);
  for (uint64_t b = 0; b < nblocks; b++) {
    uint64_t first = b * CDB_BLOCK, last = first + CDB_BLOCK < e->n ? first + CDB_BLOCK : e->n;
    size_t from = (size_t)(first * (uint64_t)w / 64);
    size_t words = (size_t)((last * (uint64_t)w + 63) / 64) - from;
    for (size_t i = 0; i < words; i++)
      for (int j = 0; j < 8; j++) buf[8 * i + (size_t)j] = (unsigned char)(L->vals[from + i] >> (8 * j));
    const unsigned char *data = buf;
    size_t size = 8 * words;
    uint32_t kind = 0;
#if defined(GSOLVE_ZSTD)
    size_t z = ZSTD_compressCCtx(o->zctx, o->zbuf, o->bound, buf, size, CDB_ZSTD_LEVEL);
    if (!ZSTD_isError(z) && z < size) {
      data = o->zbuf;
      size = z;
      kind = 1;
    }
#endif
    put_u32(o, kind);
    put_u32(o, (uint32_t)size);
    put(o, data, size);
  }
  L->file_len = o->at + 1 - L->file_pos;
  /* What is read back must be in the file, not in its buffer. */
  if (c->spill && fflush(o->f) != 0) {
    r->status = diag_fail(r->err, EXIT_IO, "cannot write the compact table's layers to disk");
    return -1;
  }
  return 0;
}

int compact_db_close(Retro *r, const char *path, FILE *err) {
  RetroCompact *c = r->cpt;
  Out *o = c->out;
  uint64_t sum = o->sum;
  put_u64(o, sum);
  if (o->temp) {
    if (fflush(o->f) != 0 || ferror(o->f)) {
      compact_db_abort(c);
      return diag_fail(err, EXIT_IO, "cannot write the compact table's layers to disk");
    }
    fclose(o->f);
  } else {
    int st = file_commit(&o->file, err);
    if (st != EXIT_OK) {
      out_free(o);
      c->out = NULL;
      return st;
    }
    free(c->written);
    if (!(c->written = strdup(path))) {
      out_free(o);
      c->out = NULL;
      return diag_fail(err, EXIT_LIMIT, "out of memory writing '%s'", path);
    }
  }
  c->read_fd = o->read_fd + 1;
  o->read_fd = -1;
  out_free(o);
  c->out = NULL;
  return EXIT_OK;
}

int compact_db_write(const Retro *r, const char *path, const char *game, const char *params,
                     uint64_t rules_hash, FILE *err) {
  RetroCompact *c = r->cpt;
  /* Written already, layer by layer as they finished (layers on disk). */
  if (c->written && strcmp(c->written, path) == 0) return EXIT_OK;
  for (int k = 0; k < c->nlayers; k++)
    if (!c->layer[k].vals)
      return diag_fail(err, EXIT_USAGE, "the compact table's layers left memory as they finished: "
                       "give --db FILE to the solve that makes it");
  if (c->endless && (c->nlayers != 1 || c->layer[0].dbits > CDB_CYCLES_DIST_BITS))
    return diag_fail(err, EXIT_LIMIT, "--db: the table's distances take %d bits, over the %d a "
                     "compact file of a game with cycles holds (drop --compact to write the hash "
                     "form's)", c->layer[0].dbits, CDB_CYCLES_DIST_BITS);
  int spill = c->spill;
  c->spill = 0;             /* no reading back */
  int st = compact_db_open((Retro *)r, path, NULL, game, params, rules_hash, err);
  c->spill = spill;
  if (st != EXIT_OK) return st;
  for (int k = c->nlayers - 1; k >= 0; k--) compact_db_layer((Retro *)r, k);
  return compact_db_close((Retro *)r, path, err);
}

/* ------------------------------------------------------------------ */
/* Reading                                                            */
/* ------------------------------------------------------------------ */

typedef struct In {
  const unsigned char *p, *end;
  int bad;
} In;

static const unsigned char *take(In *in, uint64_t n) {
  if (in->bad || n > (uint64_t)(in->end - in->p)) {
    in->bad = 1;
    return NULL;
  }
  const unsigned char *at = in->p;
  in->p += n;
  return at;
}

static uint32_t get_u32(In *in) {
  const unsigned char *b = take(in, 4);
  return b ? (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24 : 0;
}

static uint64_t get_u64(In *in) {
  uint64_t lo = get_u32(in);
  return lo | (uint64_t)get_u32(in) << 32;
}

static int same_text(In *in, const char *s, const char **at, uint32_t *len) {
  *len = get_u32(in);
  if (*len > CDB_MAX_TEXT) in->bad = 1;
  *at = (const char *)take(in, *len);
  size_t n = s ? strlen(s) : 0;
  return *at && n == *len && memcmp(*at, s ? s : "", n) == 0;
}

/* n words from the file into a new array (one more, zeroed, for the
** reads past the end); NULL when short or out of memory (*oom). */
static uint64_t *get_words(In *in, size_t n, int *oom) {
  const unsigned char *b = take(in, (uint64_t)n * 8);
  if (!b) return NULL;
  uint64_t *w = calloc(n + 1, sizeof *w);
  if (!w) {
    *oom = 1;
    return NULL;
  }
  for (size_t i = 0; i < n; i++)
    for (int j = 0; j < 8; j++) w[i] |= (uint64_t)b[8 * i + (size_t)j] << (8 * j);
  return w;
}

/* A layer record's head, after its number; `room`: the bytes the record
** has after it.  0, or -1 corrupt. */
static int get_head(In *in, RetroCompact *c, CompactLayer *L, uint64_t most, uint64_t room,
                    uint64_t *n, uint32_t *lbits, uint64_t *high_bits) {
  L->cached = -1;
  L->vary = get_u64(in);
  L->fixed = get_u64(in);
  *n = get_u64(in);
  *lbits = get_u32(in);
  uint32_t dbits = get_u32(in);   /* unsigned, as sbits (compact_db_read) */
  L->dbits = dbits <= 22 ? (int)dbits : 0;
  *high_bits = get_u64(in);
  if (in->bad || (L->fixed & L->vary) || *lbits > 63 || dbits > 22 || *n > most ||
      *n > room * 8 || (*n && (*high_bits <= *n || *high_bits - *n > room * 8)) ||
      1 + c->sbits + L->dbits > 64)
    return -1;
  retro_compact_tables(L);
  return 0;
}

/* A layer record's value blocks (after its set), pointing into the bytes
** `in` reads.  0; -1 corrupt; -2 out of memory. */
static int get_blocks(In *in, RetroCompact *c, CompactLayer *L, uint64_t n) {
  uint64_t nblocks = get_u32(in);
  if (in->bad || nblocks != (n + c->block - 1) / c->block) return -1;
  int w = retro_compact_width(c, L);
  L->block_at = malloc((nblocks + 1) * sizeof *L->block_at);
  L->block_size = malloc((nblocks + 1) * sizeof *L->block_size);
  L->block_kind = malloc(nblocks + 1);
  L->cache = malloc(((size_t)c->block * (size_t)w / 64 + 2) * sizeof *L->cache);
  if (!L->block_at || !L->block_size || !L->block_kind || !L->cache) return -2;
  for (uint64_t b = 0; b < nblocks; b++) {
    uint32_t kind = get_u32(in), size = get_u32(in);
    L->block_kind[b] = (uint8_t)kind;
    L->block_size[b] = size;
    L->block_at[b] = take(in, size);
    if (in->bad || kind > 1) return -1;
  }
  return 0;
}

/* One layer's record after its number: its set and its value blocks,
** which point into the bytes `in` reads (kept while the layer is).  At
** most `most` positions.  0; -1 corrupt; -2 out of memory. */
static int get_layer(In *in, RetroCompact *c, CompactLayer *L, uint64_t most) {
  int oom = 0;
  uint64_t n, high_bits;
  uint32_t lbits;
  if (get_head(in, c, L, most, (uint64_t)(in->end - in->p), &n, &lbits, &high_bits) < 0) return -1;
  if (n) {
    uint64_t *low = get_words(in, bits_words(n, (int)lbits), &oom);
    uint64_t *high = low ? get_words(in, (size_t)((high_bits + 63) / 64 + 1), &oom) : NULL;
    if (!high) {
      free(low);
      return oom ? -2 : -1;
    }
    int rc = efset_adopt(&L->keys, n, (int)lbits, (size_t)high_bits, low, high);
    if (rc == -1) return -2;
    if (rc < 0) return -1;
  }
  return get_blocks(in, c, L, n);
}

void compact_db_unload(CompactLayer *L) {
  uint64_t n = L->keys.n, hb = L->keys.high_bits;
  int lbits = L->keys.lbits;
  size_t nz = L->keys.nzero_at;
  compact_layer_free(L);
  L->keys.n = n;
  L->keys.lbits = lbits;
  L->keys.high_bits = hb;
  L->keys.nzero_at = nz;
  L->cached = -1;
}

int compact_pread(int fd, void *p, size_t n, uint64_t off) {
  unsigned char *b = p;
  while (n) {
    ssize_t got = pread(fd, b, n, (off_t)off);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return -1;
    b += got;
    n -= (size_t)got;
    off += (uint64_t)got;
  }
  return 0;
}

/* n words read at off in fd into a new array (one more, zeroed, for the
** reads past the end); NULL: *oom, or not read. */
static uint64_t *pread_words(int fd, size_t n, uint64_t off, int *oom) {
  uint64_t *w = malloc((n + 1) * sizeof *w);
  if (!w) {
    *oom = 1;
    return NULL;
  }
  if (compact_pread(fd, w, n * sizeof *w, off) < 0) {
    free(w);
    return NULL;
  }
  for (size_t i = 0; i < n; i++) {         /* little-endian bytes to words, in place */
    const unsigned char *b = (const unsigned char *)&w[i];
    uint64_t v = 0;
    for (int j = 0; j < 8; j++) v |= (uint64_t)b[j] << (8 * j);
    w[i] = v;
  }
  w[n] = 0;
  return w;
}

/* The record's set read straight into its arrays (never twice in
** memory), then its value blocks into L->rec. */
int compact_db_load(Retro *r, CompactLayer *L) {
  RetroCompact *c = r->cpt;
  int fd = c->read_fd - 1, oom = 0, rc = -1;
  uint64_t len = L->file_len, at = L->file_pos - 1;
  compact_db_unload(L);
  EfSet saved = L->keys;
  int dbits = L->dbits;
  unsigned char head[44];
  uint64_t n, high_bits;
  uint32_t lbits;
  In hin = { head + 4, head + sizeof head, 0 };
  if (len >= sizeof head && compact_pread(fd, head, sizeof head, at) == 0 &&
      get_head(&hin, c, L, saved.n, len - sizeof head, &n, &lbits, &high_bits) == 0 &&
      n == saved.n && L->dbits == dbits) {
    size_t nl = n ? bits_words(n, (int)lbits) : 0, nh = n ? (size_t)((high_bits + 63) / 64 + 1) : 0;
    uint64_t off = at + sizeof head, rest = len - sizeof head;
    if ((uint64_t)(nl + nh) * 8 <= rest) {
      rest -= (uint64_t)(nl + nh) * 8;
      rc = 0;
      if (n) {
        uint64_t *low = pread_words(fd, nl, off, &oom);
        uint64_t *high = low ? pread_words(fd, nh, off + nl * 8, &oom) : NULL;
        if (!high) {
          free(low);
          rc = oom ? -2 : -1;
        } else {
          rc = efset_adopt(&L->keys, n, (int)lbits, (size_t)high_bits, low, high);
          if (rc == -1) rc = -2;
        }
      }
      if (rc == 0 && !(L->rec = malloc(rest ? rest : 1))) rc = -2;
      if (rc == 0 && compact_pread(fd, L->rec, rest, off + (nl + nh) * 8) < 0) rc = -1;
      if (rc == 0) {
        In bin = { L->rec, L->rec + rest, 0 };
        rc = get_blocks(&bin, c, L, n);
        if (rc == 0 && bin.p != bin.end) rc = -1;
      }
    }
  }
  if (rc < 0) {
    compact_db_unload(L);
    L->keys = saved;
    L->dbits = dbits;
    return retro_fail(r, rc == -2 ? EXIT_LIMIT : EXIT_IO, "%s a layer of the compact table back "
                      "from disk", rc == -2 ? "out of memory reading" : "cannot read"), -1;
  }
  return 0;
}

int compact_db_block(Retro *r, CompactLayer *L, uint64_t b) {
  RetroCompact *c = r->cpt;
  int w = retro_compact_width(c, L);
  uint64_t first = b * c->block, last = first + c->block < L->keys.n ? first + c->block : L->keys.n;
  size_t words = (size_t)((last * (uint64_t)w + 63) / 64 - first * (uint64_t)w / 64);
  size_t size = 8 * words;
  unsigned char *raw = (unsigned char *)L->cache;   /* room for a block's words and one more */
  const unsigned char *src = L->block_at[b];
  int ok = 0;
  if (L->block_kind[b] == 0) {
    ok = L->block_size[b] == size;
    if (ok) memcpy(raw, src, size);
  }
#if defined(GSOLVE_ZSTD)
  else {
    size_t got = ZSTD_decompress(raw, size, src, L->block_size[b]);
    ok = !ZSTD_isError(got) && got == size;
  }
#endif
  if (!ok) {
    L->cached = -1;
    r->status = diag_fail(r->err, EXIT_USAGE, "'%s' is corrupt: a value block does not decode%s",
                          r->db_path ? r->db_path : "the table",
#if defined(GSOLVE_ZSTD)
                          ""
#else
                          L->block_kind[b] == 1 ? " (it is zstd-compressed: this gsolve was "
                          "built without libzstd)" : ""
#endif
                          );
    return -1;
  }
  /* Little-endian bytes to words, in place. */
  for (size_t i = 0; i < words; i++) {
    uint64_t v = 0;
    for (int j = 0; j < 8; j++) v |= (uint64_t)raw[8 * i + (size_t)j] << (8 * j);
    L->cache[i] = v;
  }
  L->cache[words] = 0;
  L->cached = (int64_t)b;
  return 0;
}

/* A layered file (format 2) that is a regular file is read by layer,
** when a lookup needs one (compact_layer_ready: two at a time), not
** whole: a query of Connect Four 7x4's 4.9 GB file held 9.3 GB and took
** 25 s when it was read whole.  Its checksum is checked first, the file
** streamed through it. */
#define CDB_HEAD_MAX (64 + 3 * (4 + CDB_MAX_TEXT) + 64)   /* the header's bytes at most */
#define CDB_STREAM (1 << 20)                            /* bytes a read of the checksum */

/* The checksum of the file's first len bytes, read at fd.  0; -1 not
** read; -2 out of memory. */
static int stream_checksum(int fd, uint64_t len, uint64_t *sum) {
  unsigned char *buf = malloc(CDB_STREAM);
  uint64_t h = CDB_SEED;
  int rc = buf ? 0 : -2;
  for (uint64_t at = 0; rc == 0 && at < len; at += CDB_STREAM) {
    size_t n = len - at < CDB_STREAM ? (size_t)(len - at) : CDB_STREAM;
    if (compact_pread(fd, buf, n, at) < 0) rc = -1;
    else h = fnv1a(h, buf, n);
  }
  free(buf);
  *sum = h;
  return rc;
}

/* The layer records from `at` to `end`, not loaded: each one's place and
** count, its head checked as get_layer checks it and its value blocks'
** sizes walked to find its end.  *total: the positions.  0; -1 corrupt
** or not read. */
static int scan_layers(RetroCompact *c, int fd, uint64_t at, uint64_t end, uint64_t stored,
                       uint64_t *total) {
  for (int i = 0; i < c->nlayers; i++) {
    unsigned char head[44], b[8];
    uint64_t start = at, n, high_bits;
    uint32_t lbits;
    if (end - at < sizeof head || compact_pread(fd, head, sizeof head, at) < 0) return -1;
    In hin = { head, head + sizeof head, 0 };
    uint32_t k = get_u32(&hin);
    if (k >= (uint32_t)c->nlayers || c->layer[k].file_pos) return -1;
    CompactLayer *L = &c->layer[k];
    at += sizeof head;
    if (get_head(&hin, c, L, stored - *total, end - at, &n, &lbits, &high_bits) < 0) return -1;
    uint64_t words = n ? bits_words(n, (int)lbits) + (high_bits + 63) / 64 + 1 : 0;
    if (words > (end - at) / 8) return -1;
    at += words * 8;
    if (end - at < 4 || compact_pread(fd, b, 4, at) < 0) return -1;
    In bin = { b, b + 4, 0 };
    uint64_t nblocks = get_u32(&bin);
    at += 4;
    if (nblocks != (n + c->block - 1) / c->block) return -1;
    for (uint64_t j = 0; j < nblocks; j++) {
      if (end - at < 8 || compact_pread(fd, b, 8, at) < 0) return -1;
      In kin = { b, b + 8, 0 };
      uint32_t kind = get_u32(&kin), size = get_u32(&kin);
      if (kind > 1 || size > end - at - 8) return -1;
      at += 8 + (uint64_t)size;
    }
    L->keys.n = n;
    L->keys.lbits = (int)lbits;
    L->keys.high_bits = (size_t)high_bits;
    L->file_pos = start + 1;
    L->file_len = at - start;
    *total += n;
  }
  return at == end ? 0 : -1;
}

int compact_db_read(Retro *r, FileIn *fi, const char *path, const char *game, const char *params,
                    uint64_t rules_hash, FILE *err) {
  Game *g = r->g;
  /* Format 2 in a regular file: the header alone now, the layers later. */
  struct stat sb;
  int fd = fi->f ? fileno(fi->f) : -1, st = file_fill(fi, 12, err);
  uint64_t flen = 0;
  int lazy = st == EXIT_OK && fd >= 0 && fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode) &&
             (flen = (uint64_t)sb.st_size) >= 16 && fi->len >= 12 &&
             get_u32(&(In){ fi->data + 8, fi->data + 12, 0 }) == CDB_VERSION;
  if (st == EXIT_OK) {
    size_t mem = file_memory_bytes();
    st = lazy ? file_fill(fi, CDB_HEAD_MAX, err) : file_fill_all(fi, mem ? mem : SIZE_MAX / 2, err);
  }
  if (st != EXIT_OK) {
    file_close(fi);
    return st;
  }
  RetroCompact *c = r->cpt = calloc(1, sizeof *c);
  int read_fd = lazy ? fcntl(fd, F_DUPFD_CLOEXEC, 0) : -1;
  if (!c || (lazy && read_fd < 0)) {
    file_close(fi);
    if (read_fd >= 0) close(read_fd);
    return c ? diag_fail(err, EXIT_IO, "cannot read '%s': %s", path, strerror(errno))
             : diag_fail(err, EXIT_LIMIT, "out of memory reading '%s'", path);
  }
  c->read_fd = read_fd + 1;
  c->file = fi->data;
  fi->data = NULL;
  size_t len = fi->len;
  file_close(fi);
  r->db_path = path;
  r->err = err;
  /* The bytes before the checksum (all of them here unless lazy). */
  if (!lazy) flen = len;
  uint64_t body = flen >= 8 ? flen - 8 : 0;
  In in = { c->file, c->file + (len < body ? len : body), 0 };
  const char *text;
  uint32_t tlen;
  char shown1[256], shown2[256];
  if (flen < 16 || len < 16 || memcmp(c->file, COMPACT_DB_MAGIC, 8) != 0)
    return diag_fail(err, EXIT_USAGE, "'%s' is not a gsolve compact database", path);
  if (lazy) {
    uint64_t sum;
    unsigned char tail[8];
    int rc = stream_checksum(read_fd, flen - 8, &sum);
    if (rc == -2) goto oom;
    if (rc < 0 || compact_pread(read_fd, tail, 8, flen - 8) < 0)
      return diag_fail(err, EXIT_IO, "cannot read '%s'", path);
    if (sum != get_u64(&(In){ tail, tail + 8, 0 })) goto corrupt;
  } else if (fnv1a(CDB_SEED, c->file, len - 8) != (get_u64(&(In){ c->file + len - 8, c->file + len, 0 }))) {
    goto corrupt;
  }
  take(&in, 8);
  uint32_t version = get_u32(&in);
  if (version != 1 && version != CDB_VERSION && version != CDB_VERSION_CYCLES)
    return diag_fail(err, EXIT_USAGE, "'%s' has compact database format %u; this gsolve reads "
                     "formats 1 to %d", path, version, CDB_VERSION_CYCLES);
  uint32_t key_bytes = get_u32(&in), symmetric = get_u32(&in), nplayers = get_u32(&in);
  uint64_t hash = get_u64(&in), positions = get_u64(&in), stored = get_u64(&in);
  int same = same_text(&in, game, &text, &tlen);
  file_escape(text ? text : "", text ? tlen : 0, shown1, sizeof shown1);
  same &= same_text(&in, params, &text, &tlen);
  file_escape(text ? text : "", text ? tlen : 0, shown2, sizeof shown2);
  int same_engine = same_text(&in, cdb_engine(g), &text, &tlen);
  if (in.bad) goto corrupt;
  if (!same || hash != rules_hash || nplayers != (uint32_t)g->nplayers ||
      (symmetric && r->canonical == NULL))
    return diag_fail(err, EXIT_USAGE, "'%s' was built for other rules: %s (%s)%s; this is %s (%s)",
                     path, shown1, shown2, same && hash != rules_hash ? " with different rules" : "",
                     game, params);
  if (!same_engine || !g->vt->pack || !g->vt->unpack || !g->vt->set_state ||
      key_bytes != g->key_bytes)
    return diag_fail(err, EXIT_USAGE, "'%s' was built with another engine, which stores "
                     "positions differently: read it with --engine vm", path);
  if (symmetric > 1 || positions < stored || (!symmetric && positions != stored)) goto corrupt;
  if (!symmetric) r->canonical = NULL;
  c->smin = (int64_t)get_u64(&in);
  /* Bounded as read, unsigned: a word of 2^32 - 16 made a negative width
  ** and a multi-exabyte allocation (fuzz_db). */
  uint32_t sbits = get_u32(&in);
  c->sbits = sbits <= 31 ? (int)sbits : 0;
  uint32_t nlayers = get_u32(&in);
  c->block = get_u32(&in);
  if (in.bad || sbits > 31 || -c->smin > ((int64_t)1 << 30) || c->smin > 0 ||
      nlayers == 0 || nlayers > COMPACT_MAX_LAYERS || c->block == 0 || c->block % 64 ||
      c->block > ((uint64_t)1 << 24))
    goto corrupt;
  if (version == CDB_VERSION_CYCLES && nlayers != 1) goto corrupt;
  if (!(c->layer = calloc(nlayers, sizeof *c->layer))) goto oom;
  c->layer_cap = (int)nlayers;
  c->nlayers = (int)nlayers;
  uint64_t total = 0;
  if (lazy) {
    if (scan_layers(c, read_fd, (uint64_t)(in.p - c->file), flen - 8, stored, &total) < 0) goto corrupt;
    in.p = in.end;
  }
  for (uint32_t i = 0; i < nlayers && !lazy; i++) {
    /* Format 1: the layers from the root down; 2: each numbered, in the
    ** order they were finished (the deepest first). */
    uint32_t k = version == 1 ? i : get_u32(&in);
    if (in.bad || k >= nlayers || c->layer[k].block_at) goto corrupt;
    CompactLayer *L = &c->layer[k];
    int rc = get_layer(&in, c, L, stored - total);
    if (rc == -2) goto oom;
    if (rc < 0) goto corrupt;
    total += L->keys.n;
  }
  if (total != stored || in.p != in.end) goto corrupt;
  if (version == CDB_VERSION_CYCLES) {
    /* The distance of all ones: a draw of no known end. */
    int dbits = c->layer[0].dbits;
    if (dbits < 1 || dbits > CDB_CYCLES_DIST_BITS) goto corrupt;
    c->endless = (uint32_t)((UINT64_C(1) << dbits) - 1);
  }
  r->positions = positions;
  r->stored = stored;
  r->closure = 0;
  r->verify_here = c->endless ? retro_compact_cycles_check_here : retro_compact_check_here;
  if (retro_scratch(r) < 0) goto oom;
  c->moves = malloc(GAME_MAX_MOVES * sizeof *c->moves);
  c->ckeys = malloc(GAME_MAX_MOVES * g->key_bytes + 8);
  c->cmover = malloc(GAME_MAX_MOVES);
  c->child = malloc(GAME_MAX_MOVES * sizeof *c->child);
  c->state = malloc(g->state_bytes);
  if (!c->moves || !c->ckeys || !c->cmover || !c->child || !c->state) goto oom;
  return EXIT_OK;
corrupt:
  return diag_fail(err, EXIT_USAGE, "'%s' is corrupt", path);
oom:
  return diag_fail(err, EXIT_LIMIT, "out of memory reading '%s'", path);
}
