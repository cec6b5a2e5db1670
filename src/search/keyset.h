/*
** keyset.h -- a set of fixed-size keys (states, canonical forms) with
** dense indices 0, 1, 2, ... in the order they were added: open
** addressing on a 64-bit hash, each slot pointing into an array of the
** keys, which alone decide equality.  Retrograde analysis, its
** databases, the cycle probe and --count keep their positions in one.
*/
#ifndef GSOLVE_KEYSET_H
#define GSOLVE_KEYSET_H

#include <stddef.h>
#include <stdint.h>

#define KEYSET_MAX (UINT32_MAX - 1)   /* keys a set holds at most */

typedef struct KeySet {
  uint64_t *slot;           /* per slot: the hash's high 32 bits, then 1 +
                            ** index in the low 32; 0 when empty (one read
                            ** per probe) */
  size_t cap;               /* slots, a power of two, at most half full */
  size_t n;                 /* keys stored */
  unsigned char *keys;      /* n keys of key_bytes, by index */
  uint64_t *hash;           /* n hashes, by index (to grow the slots) */
  size_t key_bytes, keys_cap;
} KeySet;

/* Finds key or adds it; *index gets its index.  1 if added, 0 if found,
** -1 when out of memory or the set holds KEYSET_MAX keys.  keyset_add
** hashes the key's bytes; keyset_add_hashed takes a hash of the caller's
** (an engine's Zobrist hash), the same for equal keys. */
int keyset_add(KeySet *k, const void *key, uint32_t *index);
int keyset_add_hashed(KeySet *k, uint64_t hash, const void *key, uint32_t *index);

/* The key of index i. */
static inline const unsigned char *keyset_key(const KeySet *k, size_t i) {
  return k->keys + i * k->key_bytes;
}

/* The hash keyset_add gives key. */
uint64_t keyset_hash(const KeySet *k, const void *key);

/* Asks the processor to fetch what adding a key of hash h will read:
** its first slot (level 0), or the key that slot points to (level 1,
** once the slot is in the cache).  Many keys' misses then overlap. */
static inline void keyset_prefetch(const KeySet *k, uint64_t h, int level) {
#if defined(__GNUC__)
  if (!k->cap) return;
  const uint64_t *s = &k->slot[h & (k->cap - 1)];
  if (level == 0) __builtin_prefetch(s);
  else if (*s && *s >> 32 == h >> 32) __builtin_prefetch(keyset_key(k, (uint32_t)*s - 1));
#else
  (void)k; (void)h; (void)level;
#endif
}

/* 1 and *index if key is in the set (added by keyset_add), else 0. */
int keyset_find(const KeySet *k, const void *key, uint32_t *index);

/* Bytes the set holds now, and the bytes the next add may allocate (0
** when it fits). */
size_t keyset_bytes(const KeySet *k);
size_t keyset_next_growth(const KeySet *k);

void keyset_free(KeySet *k);

#endif
