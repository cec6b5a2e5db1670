/*
** tt.c -- the transposition table (layout and replacement in tt.h).
*/
#include <stdlib.h>
#include "tt.h"

typedef struct TtBucket {
  TtEntry e[2];           /* [0] most work, [1] most recent */
} TtBucket;

struct Tt {
  TtBucket *buckets;
  size_t nbuckets;
};

Tt *tt_new(size_t mib) {
  Tt *t;
  size_t n;
  if (mib > SIZE_MAX / ((size_t)1 << 20)) return NULL;
  n = (mib << 20) / sizeof(TtBucket);
  if (n == 0) n = 1;
  if ((t = malloc(sizeof *t)) == NULL) return NULL;
  /* calloc: bound 0 marks every slot empty. */
  if ((t->buckets = calloc(n, sizeof *t->buckets)) == NULL) {
    free(t);
    return NULL;
  }
  t->nbuckets = n;
  return t;
}

void tt_free(Tt *t) {
  if (t == NULL) return;
  free(t->buckets);
  free(t);
}

/* A modulo, not a mask: the table uses all the memory it was given. */
static TtBucket *bucket_of(const Tt *t, uint64_t hash) {
  return &t->buckets[hash % t->nbuckets];
}

int tt_probe(const Tt *t, uint64_t hash, TtEntry *out) {
  const TtBucket *b = bucket_of(t, hash);
  for (int i = 0; i < 2; i++) {
    if (b->e[i].bound != 0 && b->e[i].hash == hash) {
      *out = b->e[i];
      return 1;
    }
  }
  return 0;
}

static uint8_t work_of(uint64_t nodes) {
  uint8_t w = 0;
  while (nodes != 0) {
    w++;
    nodes >>= 1;
  }
  return w;
}

void tt_store(Tt *t, uint64_t hash, int64_t value, int bound, int move,
              uint64_t nodes) {
  TtBucket *b = bucket_of(t, hash);
  TtEntry e;
  e.hash = hash;
  e.value = value;
  e.move = (uint16_t)move;
  e.bound = (uint8_t)bound;
  e.work = work_of(nodes);
  /* A position is stored at most once per bucket: update it in place. */
  if (b->e[0].bound != 0 && b->e[0].hash == hash) {
    b->e[0] = e;
    return;
  }
  if (b->e[1].bound != 0 && b->e[1].hash == hash)
    b->e[1].bound = 0;
  if (b->e[0].bound == 0) {
    b->e[0] = e;
  } else if (e.work >= b->e[0].work) {
    b->e[1] = b->e[0];
    b->e[0] = e;
  } else {
    b->e[1] = e;
  }
}
