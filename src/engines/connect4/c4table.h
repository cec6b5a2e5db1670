/*
** c4table.h -- the Connect Four solver's transposition table (c4table.c):
** exact keys stored compactly, buckets of one cache line, shared safely
** between the solver's threads.
*/
#ifndef GSOLVE_C4TABLE_H
#define GSOLVE_C4TABLE_H

#include <stddef.h>
#include <stdint.h>

typedef struct C4Table C4Table;

/* A table of about `mib` MiB (at least 512 KiB), or a smaller one when
** the memory refuses that much (c4t_capacity says); NULL when out of
** memory. */
C4Table *c4t_new(size_t mib);
void c4t_free(C4Table *t);

/* The datum stored with `key`, or 0 if it is not in the table: 13 bits,
** a value byte (1..255) and above it a 5-bit move.  Keys are any 64-bit
** values; two different keys never share an entry.  (Inline, below.) */

/* Stores datum `val` (a value byte 1..255, plus a move << 8) with `key`.  `work` (the log2 of the nodes
** spent to learn it) decides which entry of a full bucket gives way. */
void c4t_put(C4Table *t, uint64_t key, int val, int work);

/* Starts loading the bucket of `key` into the cache: the search asks for
** its children's buckets before it visits them.  (c4t_prefetch, inline,
** below.) */

/* The same for keys of 128 bits, (lo, hi): boards past 64 bits.  A table
** takes keys of one width only (a wide entry fills two words).  (The
** reads c4t_get_wide and c4t_prefetch_wide inline, below.) */
void c4t_put_wide(C4Table *t, uint64_t lo, uint64_t hi, int val, int work);

/* Forgets everything: the next generation begins (a wipe of the
** buckets used, once every 255 clears). */
void c4t_clear(C4Table *t);
/* Writes every page of the table's memory once, up to `budget` bytes,
** so that the kernel maps it now rather than page by page as searches
** first reach it; the bytes written. */
size_t c4t_touch(C4Table *t, size_t budget);

/* How many entries the table holds, for --stats. */
size_t c4t_capacity(const C4Table *t);

/* The table's bytes when it had to halve to fit the memory, else 0. */
size_t c4t_shrunk_bytes(const C4Table *t);

/* ---- the table's layout and its reads, inline: the search probes it
** at most nodes and prefetches every child's bucket, and a call per
** probe cost 2% of the instructions (see c4table.c for the layout). */

#define SLOTS 7
#define MIN_BITS 13          /* 8192 buckets (512 KiB): the smallest table; the
                                low bits of h the entries do not store */
#define LOW_MASK ((UINT64_C(1) << MIN_BITS) - 1)

/* A bijection of the 64-bit words (odd multipliers and right xor-shifts
** are each invertible) that spreads every key bit over the low bits. */
static inline uint64_t c4t_scramble(uint64_t key) {
  uint64_t h = key * UINT64_C(0x9e3779b97f4a7c15);
  h ^= h >> 29;
  h *= UINT64_C(0xbf58476d1ce4e5b9);
  return h ^ h >> 32;
}

typedef struct C4Bucket {
  uint64_t e[SLOTS];
  uint8_t work[SLOTS];
  uint8_t gen;              /* the table's generation when it was filled */
} C4Bucket;

/* The fields every probe reads (b, bits, gen) lie on a cache line of
** their own, apart from the count the threads write as they fill
** buckets (nfilled): sharing a line, each write moved it between the
** cores and stalled the other thread's next probe. */
struct C4Table {
  _Alignas(64) C4Bucket *b;   /* in `map`, on a huge-page boundary */
  void *map;
  size_t mapped;            /* bytes of `map` */
  size_t nbuckets;          /* a power of two, >= 2^MIN_BITS */
  int maxbits;              /* log2(nbuckets) */
  int shrunk;               /* halved to fit the memory */
  int bits;                 /* log2 of the buckets in use now */
  uint8_t gen;              /* 1..255: a bucket of another is empty */
  int used_bits;            /* log2 of the buckets used since the last wipe */
  _Alignas(64) size_t nfilled;   /* buckets filled since the last clear */
};

static inline uint64_t c4t_load(const uint64_t *p) { return __atomic_load_n(p, __ATOMIC_RELAXED); }

/* Where `key` lives with `bits` buckets in use: its bucket (the low bits
** of the scrambled key) and the entry it has there but for the value
** byte (the scrambled key without its low MIN_BITS bits). */
static inline size_t c4t_locate(int bits, uint64_t key, uint64_t *tag) {
  uint64_t h = c4t_scramble(key);
  *tag = h & ~LOW_MASK;
  return (size_t)(h & (((uint64_t)1 << bits) - 1));
}

/* The entries of a bucket: SLOTS single words for keys of 64 bits, or
** WIDE_SLOTS pairs of words (e[2i], e[2i+1]) for keys of 128 bits.  Each
** operation is written once for both, `wide` a constant in each caller,
** so the 64-bit table compiles as if the other did not exist. */
#define WIDE_SLOTS 3

/* Entry i of a bucket holds the scrambled key `tag` (and `hi`, wide);
** its datum, or -1 if another key's, 0 if empty. */
static inline int c4t_entry_datum(const C4Bucket *b, int i, int wide, uint64_t tag, uint64_t hi) {
  uint64_t e = c4t_load(&b->e[wide ? 2 * i : i]);
  if (e == 0) return 0;
  if ((e & ~LOW_MASK) != tag) return -1;
  /* Wide: the second word holds the key's high word xor the first, so
  ** that a pair torn by a concurrent write does not pass for an entry. */
  if (wide && (c4t_load(&b->e[2 * i + 1]) ^ e) != hi) return -1;
  return (int)(e & LOW_MASK);
}

static inline int c4t_get_(const C4Table *t, uint64_t key, uint64_t hi, int wide) {
  uint64_t tag;
  const C4Bucket *b = &t->b[c4t_locate(__atomic_load_n(&t->bits, __ATOMIC_RELAXED), key, &tag)];
  if (__atomic_load_n(&b->gen, __ATOMIC_RELAXED) != t->gen) return 0;   /* filled before a clear */
  for (int i = 0; i < (wide ? WIDE_SLOTS : SLOTS); i++) {
    int d = c4t_entry_datum(b, i, wide, tag, hi);
    if (d >= 0) return d;               /* found, or empty: the rest is empty too */
  }
  return 0;
}

static inline int c4t_get(const C4Table *t, uint64_t key) { return c4t_get_(t, key, 0, 0); }

static inline void c4t_prefetch(const C4Table *t, uint64_t key) {
  uint64_t tag;
  __builtin_prefetch(&t->b[c4t_locate(__atomic_load_n(&t->bits, __ATOMIC_RELAXED), key, &tag)]);
}

/* A key of 128 bits (lo, hi): the bucket and the first word come from
** lo mixed with hi, a bijection of lo for each hi; the second word keeps
** hi whole.  (lo, hi) is thus stored exactly, as a 64-bit key is. */
static inline uint64_t wide_low(uint64_t lo, uint64_t hi) { return lo ^ hi * UINT64_C(0xd1b54a32d192ed03); }

static inline int c4t_get_wide(const C4Table *t, uint64_t lo, uint64_t hi) {
  return c4t_get_(t, wide_low(lo, hi), hi, 1);
}

static inline void c4t_prefetch_wide(const C4Table *t, uint64_t lo, uint64_t hi) {
  c4t_prefetch(t, wide_low(lo, hi));
}

#endif
