/*
** keyset.c -- a set of fixed-size keys with dense indices (keyset.h).
*/
#define _DEFAULT_SOURCE            /* madvise's MADV_HUGEPAGE */
#include <stdlib.h>
#include <string.h>
#include "search/keyset.h"
#if defined(__linux__)
#include <sys/mman.h>
#endif

#define KEYSET_FIRST 1024         /* slots, and keys, of a new set */

/* Eight bytes at a time, then a strong finish (splitmix64's). */
static uint64_t hash_bytes(const unsigned char *p, size_t n) {
  uint64_t h = 0x243f6a8885a308d3ULL ^ n, w;
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    memcpy(&w, p + i, 8);
    h = (h ^ w) * 0x9e3779b97f4a7c15ULL;
    h ^= h >> 32;
  }
  if (i < n) {
    w = 0;
    memcpy(&w, p + i, n - i);
    h = (h ^ w) * 0x9e3779b97f4a7c15ULL;
  }
  h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9ULL;
  h = (h ^ (h >> 27)) * 0x94d049bb133111ebULL;
  return h ^ (h >> 31);
}

/* Whether two keys of n bytes are equal: words while they last (keys are
** short: a packed position), no call. */
static inline int same_key(const unsigned char *a, const unsigned char *b, size_t n) {
  uint64_t x, y;
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    memcpy(&x, a + i, 8);
    memcpy(&y, b + i, 8);
    if (x != y) return 0;
  }
  for (; i < n; i++)
    if (a[i] != b[i]) return 0;
  return 1;
}

/* Large tables on huge pages where the system gives them on request
** (Linux's madvise mode): the probes of a table of millions of keys are
** random, and with 4 KiB pages nearly each one also misses the TLB.
** Zeroed when `zero`; NULL when out of memory.  Free with free(). */
enum { HUGE_PAGE = 2 << 20 };

static void *table_alloc(size_t bytes, int zero) {
  void *p = NULL;
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  if (bytes >= 2 * (size_t)HUGE_PAGE) {
    size_t round = (bytes + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE;
    if (posix_memalign(&p, HUGE_PAGE, round) != 0) return NULL;
    madvise(p, round, MADV_HUGEPAGE);
    if (zero) memset(p, 0, bytes);
    return p;
  }
#endif
  p = zero ? calloc(1, bytes) : malloc(bytes);
  return p;
}

/* A key of 0 bytes still takes one in the array, so that its size is
** never 0. */
static size_t stride(const KeySet *k) { return k->key_bytes ? k->key_bytes : 1; }

static uint64_t entry(uint64_t h, size_t index) { return (h >> 32 << 32) | (uint64_t)(index + 1); }

/* Doubles the slots (kept at most half full) and re-inserts. */
static int grow_slots(KeySet *k) {
  size_t cap = k->cap ? k->cap * 2 : KEYSET_FIRST;
  if (cap > SIZE_MAX / sizeof *k->slot) return -1;
  uint64_t *s = table_alloc(cap * sizeof *s, 1);
  if (s == NULL) return -1;
  for (size_t i = 0; i < k->n; i++) {
    size_t j = k->hash[i] & (cap - 1);
    while (s[j]) j = (j + 1) & (cap - 1);
    s[j] = entry(k->hash[i], i);
  }
  free(k->slot);
  k->slot = s;
  k->cap = cap;
  return 0;
}

static int grow_keys(KeySet *k) {
  size_t cap = k->keys_cap ? k->keys_cap * 2 : KEYSET_FIRST;
  if (cap > SIZE_MAX / stride(k) || cap > SIZE_MAX / sizeof *k->hash) return -1;
  unsigned char *keys = table_alloc(cap * stride(k), 0);
  if (keys == NULL) return -1;
  if (k->n) memcpy(keys, k->keys, k->n * stride(k));
  free(k->keys);
  k->keys = keys;
  uint64_t *h = realloc(k->hash, cap * sizeof *h);
  if (h == NULL) return -1;
  k->hash = h;
  k->keys_cap = cap;
  return 0;
}

int keyset_add_hashed(KeySet *k, uint64_t h, const void *key, uint32_t *index) {
  size_t j;
  uint64_t tag = h >> 32;
  if ((k->n + 1) * 2 > k->cap && grow_slots(k) < 0) return -1;
  for (j = h & (k->cap - 1); k->slot[j]; j = (j + 1) & (k->cap - 1)) {
    uint64_t e = k->slot[j];
    if (e >> 32 != tag) continue;
    uint32_t i = (uint32_t)e - 1;
    if (same_key(keyset_key(k, i), key, k->key_bytes)) {
      *index = i;
      return 0;
    }
  }
  if (k->n == KEYSET_MAX || (k->n == k->keys_cap && grow_keys(k) < 0)) return -1;
  memcpy(k->keys + k->n * k->key_bytes, key, k->key_bytes);
  k->hash[k->n] = h;
  k->slot[j] = entry(h, k->n);
  *index = (uint32_t)k->n++;
  return 1;
}

uint64_t keyset_hash(const KeySet *k, const void *key) { return hash_bytes(key, k->key_bytes); }

int keyset_add(KeySet *k, const void *key, uint32_t *index) {
  return keyset_add_hashed(k, hash_bytes(key, k->key_bytes), key, index);
}

int keyset_find(const KeySet *k, const void *key, uint32_t *index) {
  if (!k->cap) return 0;
  uint64_t h = hash_bytes(key, k->key_bytes), tag = h >> 32;
  for (size_t j = h & (k->cap - 1); k->slot[j]; j = (j + 1) & (k->cap - 1)) {
    uint64_t e = k->slot[j];
    if (e >> 32 != tag) continue;
    uint32_t i = (uint32_t)e - 1;
    if (same_key(keyset_key(k, i), key, k->key_bytes)) {
      *index = i;
      return 1;
    }
  }
  return 0;
}

size_t keyset_bytes(const KeySet *k) {
  return k->cap * sizeof *k->slot + k->keys_cap * (k->key_bytes + sizeof *k->hash);
}

size_t keyset_next_growth(const KeySet *k) {
  if ((k->n + 1) * 2 > k->cap) return (k->cap ? k->cap : KEYSET_FIRST / 2) * sizeof *k->slot;
  if (k->n == k->keys_cap)
    return (k->keys_cap ? k->keys_cap : KEYSET_FIRST) * (stride(k) + sizeof *k->hash);
  return 0;
}

void keyset_free(KeySet *k) {
  free(k->hash);
  free(k->slot);
  free(k->keys);
  memset(k, 0, sizeof *k);
}
