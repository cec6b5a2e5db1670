/*
** test_c4table.c -- the Connect Four solver's table (src/engines/connect4/c4table.c) never
** answers for a key it was not given: random keys, many of them sharing
** their bucket, stored and read back across the table's doublings and a
** clear; the value read is the one stored or none.  The same for keys
** of 128 bits (c4t_*_wide).  c4t_touch maps as many bytes as it is let.
*/
#include <stdio.h>
#include <stdlib.h>
#include "engines/connect4/c4table.h"

static int passed, failed;
#define CHECK(c, ...) do { if (c) passed++; else { failed++; printf("FAIL: " __VA_ARGS__); putchar('\n'); } } while (0)

static uint64_t state = 0x243f6a8885a308d3ULL;
static uint64_t next_random(void) {       /* SplitMix64 */
  uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

/* The datum a key stores in these tests, a function of the key: a value
** byte 1..255 and a 5-bit move above it. */
static int value_of(uint64_t key) { return (int)(key % 255) + 1 + (int)((key >> 8) % 32 << 8); }

/* This process's resident memory in bytes (/proc/self/statm), -1 if
** unknown. */
static long resident_bytes(void) {
  long pages = -1, size;
  FILE *f = fopen("/proc/self/statm", "r");
  if (f) {
    if (fscanf(f, "%ld %ld", &size, &pages) != 2) pages = -1;
    fclose(f);
  }
  return pages < 0 ? -1 : pages * 4096;
}

/* The inverse of an odd number modulo 2^64 (Newton's iteration). */
static uint64_t inverse(uint64_t m) {
  uint64_t inv = m;
  for (int i = 0; i < 6; i++) inv *= 2 - m * inv;
  return inv;
}

/* The key whose scrambled form (as c4table.c scrambles: times M1, xor
** >> 29, times M2, xor >> 32) is h: each step undone in turn. */
static uint64_t unscramble(uint64_t h) {
  h ^= h >> 32;
  h *= inverse(0xbf58476d1ce4e5b9ULL);
  h ^= h >> 29;
  h ^= h >> 58;
  return h * inverse(0x9e3779b97f4a7c15ULL);
}

int main(void) {
  C4Table *t = c4t_new(16);    /* 16 MiB: starts on 512 KiB, doubles five times */
  CHECK(t != NULL, "c4t_new(16)");
  if (!t) return 1;
  enum { N = 200000 };
  uint64_t *keys = malloc(N * sizeof *keys);
  /* Keys that differ only in their high bits, or only in their low bits,
  ** and random ones: near misses for a table that stores part of the key. */
  for (int i = 0; i < N; i++) {
    uint64_t r = next_random();
    keys[i] = i % 3 == 0 ? r : i % 3 == 1 ? (r & 0xffff) << 48 | 12345 : (r & 0xffffff);
  }
  /* And keys that land in the same bucket with the same low bits: only
  ** the middle and top of their scrambled form tell them apart. */
  for (int i = 0; i < N / 4; i++)
    keys[i * 4 + 3] = unscramble((uint64_t)(i % 4) << 60 | (uint64_t)i << 36 | 0xabcdef);
  for (int i = 0; i < 16; i++)    /* the top bits alone (one bucket at every size) */
    keys[i * 4 + 3] = unscramble((uint64_t)i << 60 | 0x1789);
  for (int round = 0; round < 2; round++) {
    int wrong = 0, found = 0;
    for (int i = 0; i < N; i++) c4t_put(t, keys[i], value_of(keys[i]), (int)(i % 40));
    for (int i = 0; i < N; i++) {
      int v = c4t_get(t, keys[i]);
      if (v != 0 && v != value_of(keys[i])) wrong++;
      if (v != 0) found++;
    }
    CHECK(wrong == 0, "round %d: %d keys read another key's value", round, wrong);
    /* 7 x 262144 entries; a doubling leaves about half the older ones out of reach. */
    CHECK(found > 50000, "round %d: only %d keys found", round, found);
    /* Keys never stored are absent. */
    int ghosts = 0;
    for (int i = 0; i < N; i++) {
      uint64_t k = next_random() | 1;       /* odd: keys above were random too, */
      int v = c4t_get(t, k);                /* so check the value is k's own */
      if (v != 0 && v != value_of(k)) ghosts++;
    }
    CHECK(ghosts == 0, "round %d: %d unknown keys found", round, ghosts);
    c4t_clear(t);
    int left = 0;
    for (int i = 0; i < N; i++) left += c4t_get(t, keys[i]) != 0;
    CHECK(left == 0, "round %d: %d keys survive clear", round, left);
  }
  /* A few keys after the big rounds: kept, then forgotten at the clear
  ** (the buckets of the rounds above, of earlier generations, read as
  ** empty and are emptied as they fill). */
  for (int i = 0; i < 1000; i++) c4t_put(t, keys[4 * i], value_of(keys[4 * i]), 1);   /* random */
  int kept = 0;
  for (int i = 0; i < 1000; i++) kept += c4t_get(t, keys[4 * i]) == value_of(keys[4 * i]);
  CHECK(kept == 1000, "a small search: %d of 1000 keys kept", kept);
  c4t_clear(t);
  int left = 0;
  for (int i = 0; i < N; i++) left += c4t_get(t, keys[i]) != 0;
  CHECK(left == 0, "a small search: %d keys survive clear", left);
  /* The generations come round every 255 clears: a key stored before
  ** must not read as stored again then, nor at any clear on the way,
  ** while other keys fill the table at each. */
  for (int i = 0; i < 1000; i++) c4t_put(t, keys[4 * i], value_of(keys[4 * i]), 1);
  int resurrected = 0;
  for (int round = 0; round < 600; round++) {
    c4t_clear(t);
    for (int i = 0; i < 50; i++) {
      uint64_t k = next_random() | UINT64_C(1) << 63;   /* none of the 1000 (nearly surely) */
      c4t_put(t, k, value_of(k), 1);
    }
    for (int i = 0; i < 1000; i++) resurrected += c4t_get(t, keys[4 * i]) != 0;
  }
  CHECK(resurrected == 0, "600 clears: %d reads of keys stored before them", resurrected);
  /* A clear after which nothing is filled starts no generation (the
  ** table is empty already): no wipe comes round from them. */
  c4t_clear(t);
  uint8_t gen = t->gen;
  for (int round = 0; round < 600; round++) c4t_clear(t);
  CHECK(t->gen == gen, "600 clears with nothing filled: generation %d -> %d", gen, t->gen);
  c4t_put(t, keys[0], value_of(keys[0]), 1);
  c4t_clear(t);
  CHECK(c4t_get(t, keys[0]) == 0 && t->gen != gen, "a clear after a fill: forgotten, a new generation");
  c4t_free(t);
  free(keys);

  /* Keys of 128 bits (boards past 64 bits): pairs that share their low
  ** word, or their high word, or both words but for one bit, and random
  ** ones; every value read is its own key's. */
  t = c4t_new(4);
  CHECK(t != NULL, "c4t_new(4)");
  if (!t) return 1;
  uint64_t *lo = malloc(N * sizeof *lo), *hi = malloc(N * sizeof *hi);
  for (int i = 0; i < N; i++) {
    uint64_t r = next_random();
    switch (i % 4) {
    case 0: lo[i] = 0x1234; hi[i] = r; break;                 /* one low word */
    case 1: lo[i] = r; hi[i] = 0x3f; break;                   /* one high word */
    case 2: lo[i] = 0xfeed; hi[i] = (uint64_t)1 << (i % 64) | 0x40; break;  /* one bit apart */
    default: lo[i] = r; hi[i] = next_random() & 0x3f;         /* a 70-bit key */
    }
  }
  for (int round = 0; round < 2; round++) {
    int wrong = 0, found = 0, first = 0;
    for (int i = 0; i < N; i++) c4t_put_wide(t, lo[i], hi[i], value_of(lo[i] ^ hi[i] * 3), (int)(i % 40));
    for (int i = 0; i < N; i++) {
      int v = c4t_get_wide(t, lo[i], hi[i]);
      /* Keys repeat (case 2), with the same value: any other is wrong. */
      if (v != 0 && v != value_of(lo[i] ^ hi[i] * 3)) wrong++;
      if (v != 0) found++;
    }
    for (int i = 0; i < 3; i++) first += c4t_get_wide(t, lo[N - 1 - i], hi[N - 1 - i]) != 0;
    CHECK(wrong == 0, "wide round %d: %d keys read another key's value", round, wrong);
    CHECK(found > 20000 && first == 3, "wide round %d: only %d keys found (last 3: %d)", round,
          found, first);
    int ghosts = 0;
    for (int i = 0; i < N; i++) {
      uint64_t a = next_random() | 1, b = next_random() & 0xff;
      int v = c4t_get_wide(t, a, b);
      if (v != 0 && v != value_of(a ^ b * 3)) ghosts++;
    }
    CHECK(ghosts == 0, "wide round %d: %d unknown keys found", round, ghosts);
    c4t_clear(t);
    int left = 0;
    for (int i = 0; i < N; i++) left += c4t_get_wide(t, lo[i], hi[i]) != 0;
    CHECK(left == 0, "wide round %d: %d keys survive clear", round, left);
  }
  c4t_free(t);
  free(lo);
  free(hi);

  /* c4t_touch maps the table's pages now, as far as its budget: the
  ** resident memory grows by that much (--test-set's set-up), and by the
  ** whole table without a limit. */
  t = c4t_new(64);
  CHECK(t != NULL, "c4t_new(64)");
  if (!t) return 1;
  long before = resident_bytes();
  size_t got = c4t_touch(t, (size_t)4 << 20);
  long part = resident_bytes();
  CHECK(got == (size_t)4 << 20 && part - before >= (4L << 20) && part - before < (32L << 20),
        "c4t_touch, 4 MiB: %zu bytes, resident %ld -> %ld", got, before, part);
  got = c4t_touch(t, (size_t)-1);
  long all = resident_bytes();
  CHECK(got == (size_t)64 << 20 && all - before >= (60L << 20),
        "c4t_touch, no limit: %zu bytes, resident %ld -> %ld", got, before, all);
  CHECK(c4t_get(t, 12345) == 0, "a touched table is empty");
  c4t_free(t);
  printf("%d passed, %d failed\n", passed, failed);
  return failed != 0;
}
