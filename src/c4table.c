/*
** c4table.c -- the Connect Four solver's transposition table.
**
** Compact exact keys: the key is first scrambled by a bijection of the
** 64-bit words (multiplication by an odd constant), h = key * M.  The top
** b bits of h choose one of 2^b buckets; the other 64 - b bits (at most 56,
** since b >= 8) are stored with the entry.  Bucket and stored bits give h
** back, and h gives the key, so two keys never share an entry, yet an
** entry takes 8 bytes instead of 16.
**
** A bucket is one 64-byte cache line: seven entries (stored bits << 8 |
** value byte; 0 is empty) and seven "work" bytes.  A new key takes the
** first empty entry, else the one that cost the least work to learn: deep
** positions make way for the roots of big subtrees.
**
**   +--------+--------+-----+--------+----+----+-----+----+-----+
**   | e[0]   | e[1]   | ... | e[6]   | w0 | w1 | ... | w6 | pad |
**   +--------+--------+-----+--------+----+----+-----+----+-----+
**     8 bytes each                     1 byte each
**
** Threads share the table: every entry is read and written as one 64-bit
** word (relaxed atomics), so a reader sees a whole entry or none; a lost
** race only loses an entry.  Entries fill in order and are never emptied
** one by one, so a bucket is empty exactly when its first entry is: the
** table remembers which buckets it filled and clear() wipes only those.
*/
#define _DEFAULT_SOURCE 1     /* madvise's MADV_HUGEPAGE */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "c4table.h"

#define SLOTS 7
#define SCRAMBLE UINT64_C(0x9e3779b97f4a7c15)   /* odd: a bijection */

typedef struct Bucket {
  uint64_t e[SLOTS];
  uint8_t work[SLOTS];
  uint8_t pad;
} Bucket;

struct C4Table {
  Bucket *b;
  size_t nbuckets;          /* a power of two, >= 256 */
  int bits;                 /* log2(nbuckets) */
  uint32_t *touched;        /* buckets filled since the last clear */
  size_t ntouched, captouched;
  int overflow;             /* touched list full: clear wipes everything */
};

/* A big table on huge pages where the kernel allows: random probes into
** many MiB of 4 KiB pages spend more time in page walks than in search. */
static void *table_alloc(size_t bytes) {
  size_t huge = (size_t)2 << 20;
  size_t size = (bytes + huge - 1) / huge * huge;
  void *p = NULL;
  if (posix_memalign(&p, huge, size) != 0) return NULL;
#ifdef MADV_HUGEPAGE
  madvise(p, size, MADV_HUGEPAGE);
#endif
  memset(p, 0, size);
  return p;
}

C4Table *c4t_new(size_t mib) {
  C4Table *t = calloc(1, sizeof *t);
  if (!t) return NULL;
  size_t bytes = mib ? mib << 20 : (size_t)16 << 10;
  t->bits = 8;
  while (t->bits < 32 && ((size_t)2 << t->bits) * sizeof(Bucket) <= bytes) t->bits++;
  t->nbuckets = (size_t)1 << t->bits;
  t->b = table_alloc(t->nbuckets * sizeof(Bucket));
  t->captouched = t->nbuckets / 8 + 1024;
  t->touched = malloc(t->captouched * sizeof *t->touched);
  if (!t->b || !t->touched) { c4t_free(t); return NULL; }
  return t;
}

void c4t_free(C4Table *t) {
  if (!t) return;
  free(t->b);
  free(t->touched);
  free(t);
}

size_t c4t_capacity(const C4Table *t) { return t->nbuckets * SLOTS; }

static uint64_t load(const uint64_t *p) { return __atomic_load_n(p, __ATOMIC_RELAXED); }

int c4t_get(const C4Table *t, uint64_t key) {
  uint64_t h = key * SCRAMBLE;
  const Bucket *b = &t->b[h >> (64 - t->bits)];
  uint64_t tag = h << t->bits >> t->bits;
  for (int i = 0; i < SLOTS; i++) {
    uint64_t e = load(&b->e[i]);
    if (e == 0) return 0;               /* the rest is empty too */
    if (e >> 8 == tag) return (int)(e & 255);
  }
  return 0;
}

void c4t_prefetch(const C4Table *t, uint64_t key) {
  __builtin_prefetch(&t->b[(key * SCRAMBLE) >> (64 - t->bits)]);
}

void c4t_put(C4Table *t, uint64_t key, int val, int work) {
  uint64_t h = key * SCRAMBLE;
  size_t bi = h >> (64 - t->bits);
  Bucket *b = &t->b[bi];
  uint64_t tag = h << t->bits >> t->bits;
  int victim = 0, least = 256;
  for (int i = 0; i < SLOTS; i++) {
    uint64_t e = load(&b->e[i]);
    if (e == 0) {
      if (i == 0) {
        /* First entry of an empty bucket: remember it for clear(). */
        size_t k = __atomic_fetch_add(&t->ntouched, 1, __ATOMIC_RELAXED);
        if (k < t->captouched) t->touched[k] = (uint32_t)bi;
        else __atomic_store_n(&t->overflow, 1, __ATOMIC_RELAXED);
      }
      victim = i;
      break;
    }
    if (e >> 8 == tag) { victim = i; break; }
    int w = __atomic_load_n(&b->work[i], __ATOMIC_RELAXED);
    if (w < least) { least = w; victim = i; }
  }
  __atomic_store_n(&b->e[victim], tag << 8 | (uint64_t)val, __ATOMIC_RELAXED);
  __atomic_store_n(&b->work[victim], (uint8_t)work, __ATOMIC_RELAXED);
}

void c4t_clear(C4Table *t) {
  if (t->overflow || t->ntouched > t->captouched) {
    memset(t->b, 0, t->nbuckets * sizeof(Bucket));
  } else {
    for (size_t i = 0; i < t->ntouched; i++) memset(&t->b[t->touched[i]], 0, sizeof(Bucket));
  }
  t->ntouched = 0;
  t->overflow = 0;
}
