/*
** test_efset.c -- the Elias-Fano sets of the compact retrograde tables
** (src/retro/efset.c): for sets of random keys (spread out, clustered in
** a few buckets, dense, the extremes 0 and 2^64 - 1, one key), every key's
** rank is its index, keys not in the set have none, the iterator gives
** the keys in order, and a set rebuilt from its parts (efset_adopt, as a
** file gives them) answers the same; parts that cannot be a set's are
** refused.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "retro/efset.h"

static int passed, failed;
#define CHECK(c, ...) do { if (c) passed++; else { failed++; printf("FAIL: " __VA_ARGS__); putchar('\n'); } } while (0)

static uint64_t rng = 0x9e3779b97f4a7c15ULL;
static uint64_t next_random(void) {       /* SplitMix64 */
  uint64_t z = (rng += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

static int cmp(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

/* Sorts and removes repeats; the new count. */
static size_t distinct(uint64_t *k, size_t n) {
  qsort(k, n, sizeof *k, cmp);
  size_t m = 0;
  for (size_t i = 0; i < n; i++)
    if (m == 0 || k[i] != k[m - 1]) k[m++] = k[i];
  return m;
}

/* Whether x is among k[0..n) (sorted). */
static int member(const uint64_t *k, size_t n, uint64_t x) {
  return bsearch(&x, k, n, sizeof *k, cmp) != NULL;
}

static void check_set(const char *what, const EfSet *s, const uint64_t *k, size_t n) {
  int bad_rank = 0, bad_miss = 0, bad_iter = 0;
  for (size_t i = 0; i < n; i++)
    if (efset_rank(s, k[i]) != (int64_t)i) bad_rank++;
  for (int t = 0; t < 20000; t++) {
    uint64_t x = t % 2 ? next_random() : k[next_random() % n] + 1 + next_random() % 3;
    if (!member(k, n, x) && efset_rank(s, x) != -1) bad_miss++;
  }
  EfIter it;
  uint64_t x;
  size_t i = 0;
  efset_iter_init(&it, s);
  while (efset_next(&it, &x)) {
    if (i >= n || x != k[i]) bad_iter++;
    i++;
  }
  CHECK(bad_rank == 0, "%s: %d keys with a wrong rank", what, bad_rank);
  CHECK(bad_miss == 0, "%s: %d keys not in the set found", what, bad_miss);
  CHECK(bad_iter == 0 && i == n, "%s: the iterator gave %zu keys, %d wrong", what, i, bad_iter);
}

static void one(const char *what, uint64_t *k, size_t n) {
  EfSet s, t;
  n = distinct(k, n);
  CHECK(efset_build(&s, k, n) == 0, "%s: built", what);
  check_set(what, &s, k, n);
  /* Bits a key: at most lbits + 3 (the upper bits: n + U / 2^lbits < 3n),
  ** and the zeros' samples (64 bits each 128 zeros: at most 1 a key). */
  CHECK(efset_bytes(&s) * 8 <= n * (uint64_t)(s.lbits + 4) + 1024, "%s: %zu bytes for %zu keys",
        what, efset_bytes(&s), n);
  /* The parts copied, as a file gives them back. */
  size_t lw = bits_words(n, s.lbits), hw = (s.high_bits + 63) / 64 + 1;
  uint64_t *low = malloc(lw * 8), *high = malloc(hw * 8);
  memcpy(low, s.low, lw * 8);
  memcpy(high, s.high, hw * 8);
  CHECK(efset_adopt(&t, n, s.lbits, s.high_bits, low, high) == 0, "%s: adopted", what);
  check_set(what, &t, k, n);
  efset_free(&t);
  /* A bit too many, or one past the end: refused. */
  low = malloc(lw * 8);
  high = malloc(hw * 8);
  memcpy(low, s.low, lw * 8);
  memcpy(high, s.high, hw * 8);
  high[hw - 1] |= UINT64_C(1) << 63;
  CHECK(efset_adopt(&t, n, s.lbits, s.high_bits, low, high) == -2, "%s: a bit past the end refused", what);
  efset_free(&t);
  efset_free(&s);
}

int main(void) {
  enum { N = 200000 };
  uint64_t *k = malloc(N * sizeof *k);
  for (size_t i = 0; i < N; i++) k[i] = next_random();
  one("spread over 64 bits", k, N);
  for (size_t i = 0; i < N; i++) k[i] = next_random() >> 20;
  one("spread over 44 bits", k, N);
  /* Clustered: a few high parts, many keys each (real layers). */
  for (size_t i = 0; i < N; i++) k[i] = (next_random() % 5) << 40 | (next_random() & 0xffffff);
  one("five clusters", k, N);
  for (size_t i = 0; i < N; i++) k[i] = i * 3;
  one("dense", k, N);
  k[0] = 0; k[1] = UINT64_MAX; k[2] = UINT64_MAX - 1; k[3] = 1;
  one("the extremes", k, 4);
  k[0] = 12345;
  one("one key", k, 1);
  EfSet e;
  CHECK(efset_build(&e, k, 0) == 0 && efset_rank(&e, 5) == -1, "the empty set");
  efset_free(&e);
  free(k);
  printf("%d passed, %d failed\n", passed, failed);
  return failed != 0;
}
