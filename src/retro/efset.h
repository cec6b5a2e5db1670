/*
** efset.h -- a sorted set of 64-bit keys in Elias-Fano form: about
** 2 + log2(U / n) bits a key for n keys below U, with the rank of a key
** (its index in sorted order) in constant time, and the keys in order by
** an iterator.  Built once from a sorted array; read-only after.
**
** The compact retrograde tables (retro_compact.c) keep each layer's
** positions in one: the rank of a position's key is its index in the
** layer's bit-packed array of values.
*/
#ifndef GSOLVE_EFSET_H
#define GSOLVE_EFSET_H

#include <stddef.h>
#include <stdint.h>

/* One sample of the upper bits' zeros every EF_SAMPLE zeros (select0). */
#define EF_SAMPLE 128

typedef struct EfSet {
  uint64_t n;               /* keys */
  int lbits;                /* low bits kept per key */
  uint64_t *low;            /* n fields of lbits bits */
  uint64_t *high;           /* unary upper parts: key i's bit at (key >> lbits) + i */
  size_t high_bits;
  uint64_t *zero_at;        /* position of zero number j * EF_SAMPLE */
  size_t nzero_at;
} EfSet;

/* Builds the set from keys[0..n), sorted and distinct.  0, or -1 when out
** of memory (nothing left allocated then). */
int efset_build(EfSet *s, const uint64_t *keys, uint64_t n);
void efset_free(EfSet *s);

/* The same key by key (keys read from disk, never all in memory): begin
** with their number and the largest (-1 out of memory, nothing left
** allocated), put key number i (0, 1, ... in increasing order), end (-1
** out of memory, the set freed). */
int efset_begin(EfSet *s, uint64_t n, uint64_t max);
void efset_put(EfSet *s, uint64_t i, uint64_t key);
int efset_end(EfSet *s);

/* A set from its parts as efset_build made them (read from a file): low
** (bits_words(n, lbits) words) and high ((high_bits + 63) / 64 + 1 words)
** are the set's then, freed with it.  0; -1 out of memory; -2 when they
** cannot be a set's (not n ones in the upper bits, bits past the end). */
int efset_adopt(EfSet *s, uint64_t n, int lbits, size_t high_bits, uint64_t *low, uint64_t *high);

/* The index of key in sorted order, or -1 when it is not in the set. */
int64_t efset_rank(const EfSet *s, uint64_t key);

/* Bytes the set holds. */
size_t efset_bytes(const EfSet *s);

/* The keys in increasing order: efset_iter_init, then efset_next while it
** returns 1. */
typedef struct EfIter {
  const EfSet *s;
  uint64_t index;           /* of the next key */
  size_t pos;               /* in the upper bits, where to look next */
} EfIter;

void efset_iter_init(EfIter *it, const EfSet *s);
int efset_next(EfIter *it, uint64_t *key);

/* Fields of w bits (0..64) in an array of words: the value arrays. */
static inline uint64_t bits_get(const uint64_t *a, uint64_t off, int w) {
  if (w == 0) return 0;
  uint64_t i = off >> 6;
  int sh = (int)(off & 63);
  uint64_t v = a[i] >> sh;
  if (sh + w > 64) v |= a[i + 1] << (64 - sh);
  return w == 64 ? v : v & ((UINT64_C(1) << w) - 1);
}

/* Ors v (w bits) in at off: the field must be 0 before. */
static inline void bits_or(uint64_t *a, uint64_t off, int w, uint64_t v) {
  if (w == 0) return;
  uint64_t i = off >> 6;
  int sh = (int)(off & 63);
  a[i] |= v << sh;
  if (sh + w > 64) a[i + 1] |= v >> (64 - sh);
}

/* The bits a field needs to hold v (0 for 0). */
static inline int bits_for(uint64_t v) {
  return v ? 64 - __builtin_clzll(v) : 0;
}

/* Words for n fields of w bits, with the one word the reads above may
** look at past the end. */
static inline size_t bits_words(uint64_t n, int w) {
  return (size_t)((n * (uint64_t)w + 63) / 64) + 1;
}

#endif
