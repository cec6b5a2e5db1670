/*
** keyset.c -- a set of fixed-size keys with dense indices (keyset.h).
*/
#include <stdlib.h>
#include <string.h>
#include "search/keyset.h"

#define KEYSET_FIRST 1024         /* slots, and keys, of a new set */

static uint64_t hash_bytes(const unsigned char *p, size_t n) {
  uint64_t h = 0x243f6a8885a308d3ULL ^ n;
  for (size_t i = 0; i < n; i++) {
    h ^= p[i];
    h *= 0x100000001b3ULL;
  }
  h ^= h >> 29;
  h *= 0xbf58476d1ce4e5b9ULL;
  return h ^ (h >> 32);
}

/* A key of 0 bytes still takes one in the array, so that its size is
** never 0. */
static size_t stride(const KeySet *k) { return k->key_bytes ? k->key_bytes : 1; }

/* Doubles the slots (kept at most half full) and re-inserts. */
static int grow_slots(KeySet *k) {
  size_t cap = k->cap ? k->cap * 2 : KEYSET_FIRST;
  uint64_t *h;
  uint32_t *s;
  if (cap > SIZE_MAX / sizeof *h) return -1;
  h = malloc(cap * sizeof *h);
  s = calloc(cap, sizeof *s);
  if (h == NULL || s == NULL) {
    free(h);
    free(s);
    return -1;
  }
  for (size_t i = 0; i < k->cap; i++) {
    if (!k->slot[i]) continue;
    size_t j = k->hash[i] & (cap - 1);
    while (s[j]) j = (j + 1) & (cap - 1);
    s[j] = k->slot[i];
    h[j] = k->hash[i];
  }
  free(k->hash);
  free(k->slot);
  k->hash = h;
  k->slot = s;
  k->cap = cap;
  return 0;
}

static int grow_keys(KeySet *k) {
  size_t cap = k->keys_cap ? k->keys_cap * 2 : KEYSET_FIRST;
  unsigned char *keys;
  if (cap > SIZE_MAX / stride(k)) return -1;
  if ((keys = realloc(k->keys, cap * stride(k))) == NULL) return -1;
  k->keys = keys;
  k->keys_cap = cap;
  return 0;
}

int keyset_add_hashed(KeySet *k, uint64_t h, const void *key, uint32_t *index) {
  size_t j;
  if ((k->n + 1) * 2 > k->cap && grow_slots(k) < 0) return -1;
  for (j = h & (k->cap - 1); k->slot[j]; j = (j + 1) & (k->cap - 1)) {
    uint32_t i = k->slot[j] - 1;
    if (k->hash[j] == h && memcmp(keyset_key(k, i), key, k->key_bytes) == 0) {
      *index = i;
      return 0;
    }
  }
  if (k->n == KEYSET_MAX || (k->n == k->keys_cap && grow_keys(k) < 0)) return -1;
  memcpy(k->keys + k->n * k->key_bytes, key, k->key_bytes);
  k->slot[j] = (uint32_t)++k->n;
  k->hash[j] = h;
  *index = (uint32_t)(k->n - 1);
  return 1;
}

int keyset_add(KeySet *k, const void *key, uint32_t *index) {
  return keyset_add_hashed(k, hash_bytes(key, k->key_bytes), key, index);
}

int keyset_find(const KeySet *k, const void *key, uint32_t *index) {
  if (!k->cap) return 0;
  uint64_t h = hash_bytes(key, k->key_bytes);
  for (size_t j = h & (k->cap - 1); k->slot[j]; j = (j + 1) & (k->cap - 1)) {
    uint32_t i = k->slot[j] - 1;
    if (k->hash[j] == h && memcmp(keyset_key(k, i), key, k->key_bytes) == 0) {
      *index = i;
      return 1;
    }
  }
  return 0;
}

size_t keyset_bytes(const KeySet *k) {
  return k->cap * (sizeof *k->hash + sizeof *k->slot) + k->keys_cap * k->key_bytes;
}

size_t keyset_next_growth(const KeySet *k) {
  if ((k->n + 1) * 2 > k->cap)
    return (k->cap ? k->cap : KEYSET_FIRST / 2) * (sizeof *k->hash + sizeof *k->slot);
  if (k->n == k->keys_cap) return (k->keys_cap ? k->keys_cap : KEYSET_FIRST) * stride(k);
  return 0;
}

void keyset_free(KeySet *k) {
  free(k->hash);
  free(k->slot);
  free(k->keys);
  memset(k, 0, sizeof *k);
}
