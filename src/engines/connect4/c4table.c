/*
** c4table.c -- the Connect Four solver's transposition table.
**
** Compact exact keys: the key is first scrambled by a bijection h of the
** 64-bit words (odd multipliers and right xor-shifts).  The low `bits`
** bits of h choose one of 2^bits buckets (bits >= MIN_BITS = 13); the
** entry stores h without its low 13 bits.  Bucket and stored bits give h
** back, and h gives the key, so two keys never share an entry, yet an
** entry takes 8 bytes instead of 16.
**
**   entry:  | h without its low 13 bits (51) | move (5) | value (8) |
**
** The caller's datum is 13 bits: a value byte (1..255) and a 5-bit move
** (0: none), which the table stores and returns without looking at.
**
** A table that grows with the search: each search starts on START_BITS
** worth of buckets (512 KiB, a core's L2 cache on this machine) and doubles the
** buckets in use whenever half of them are filled, up to the size asked
** for.  Small searches (most test positions) thus stay in the cache; big
** ones end up on the whole table.  Since the stored bits do not depend on
** the size, a doubling never makes an entry answer for another key: the
** entries whose h has the new bucket bit clear stay where they are found,
** the others are out of reach, and the first to go.
**
** A bucket is one 64-byte cache line: seven entries (0 is empty) and
** seven "work" bytes.  A new key takes the first empty entry, else an
** entry a doubling left out of reach, else the one that cost the least
** work to learn: deep positions make way for the roots of big subtrees.
**
**   +--------+--------+-----+--------+----+----+-----+----+-----+
**   | e[0]   | e[1]   | ... | e[6]   | w0 | w1 | ... | w6 | pad |
**   +--------+--------+-----+--------+----+----+-----+----+-----+
**     8 bytes each                     1 byte each
**
** Keys of 128 bits (boards past 64 bits, c4t_*_wide) take two words an
** entry, three entries a bucket: the first word as above, of the low
** word mixed with the high one; the second word the high word xor the
** first.  Exact too: the high word is kept whole.
**
** Threads share the table: every entry is read and written as one 64-bit
** word (relaxed atomics), so a reader sees a whole entry or none; a lost
** race only loses an entry.  A wide entry read half before and half
** after another thread's write fails its xor check unless the two
** writes' words collide in 64 bits.
**
** A clear (before each position of a test set) costs nothing: each
** bucket keeps the generation it was filled in, and one of another
** generation reads as empty and is emptied when next filled.  Only when
** the 8-bit generation comes round again (every 255 clears) are the
** buckets used since the last such wipe set to zero.  A thread that
** reads a bucket another is emptying may still see an entry of an
** earlier generation: its key is exact, so its bound still holds.
** (The figures behind this file's choices: docs/performance.md, "The
** Connect Four engine's constants".)
*/
#define _DEFAULT_SOURCE 1     /* madvise's MADV_HUGEPAGE */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "engines/connect4/c4table.h"

/* A search starts on 512 KiB of buckets, which the L2 cache holds: a
** short search then misses it less, for the few nodes lost at the
** doublings. */
#define START_BITS 13

/* A big table on huge pages where the kernel allows: random probes into
** many MiB of 4 KiB pages spend more time in page walks than in search.
** The memory comes straight from mmap, zero already, and the kernel
** clears each page only when it is first touched: the table grows from
** START_BITS as it fills, so a search that needs little of a big table
** never pays for clearing all of it (memset on 1 GiB took 2.2 s of
** system time before each search here). */
static C4Bucket *table_alloc(C4Table *t, size_t bytes) {
  size_t huge = (size_t)2 << 20;
  size_t size = (bytes + huge - 1) / huge * huge + huge;    /* room to align */
  void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) return NULL;
  t->map = p;
  t->mapped = size;
  char *b = (char *)(((uintptr_t)p + huge - 1) & ~(uintptr_t)(huge - 1));
#ifdef MADV_HUGEPAGE
  madvise(b, size - (size_t)(b - (char *)p), MADV_HUGEPAGE);
#endif
  return (C4Bucket *)b;
}

C4Table *c4t_new(size_t mib) {
  C4Table *t = aligned_alloc(_Alignof(C4Table), sizeof *t);   /* sizeof: a multiple of 64 */
  if (!t) return NULL;
  memset(t, 0, sizeof *t);
  size_t bytes = mib << 20;
  t->maxbits = MIN_BITS;
  while (t->maxbits < 40 && ((size_t)2 << t->maxbits) * sizeof(C4Bucket) <= bytes) t->maxbits++;
  /* When the memory (or an address-space limit, ulimit -v) refuses the
  ** size, the table halves until it fits: a smaller table only slows the
  ** search down, where a bare "out of memory" would not say which of the
  ** program's tables to shrink (the VM solvers' table does the same). */
  while ((t->b = table_alloc(t, ((size_t)1 << t->maxbits) * sizeof(C4Bucket))) == NULL
         && t->maxbits > MIN_BITS) {
    t->maxbits--;
    t->shrunk = 1;
  }
  t->nbuckets = (size_t)1 << t->maxbits;
  t->bits = t->maxbits < START_BITS ? t->maxbits : START_BITS;
  t->gen = 1;               /* the mapped memory is zero: generation 0 */
  if (!t->b) { c4t_free(t); return NULL; }
  return t;
}

void c4t_free(C4Table *t) {
  if (!t) return;
  if (t->map) munmap(t->map, t->mapped);
  free(t);
}

size_t c4t_capacity(const C4Table *t) { return t->nbuckets * SLOTS; }

size_t c4t_shrunk_bytes(const C4Table *t) { return t->shrunk ? t->nbuckets * sizeof(C4Bucket) : 0; }

static inline void put(C4Table *t, uint64_t key, uint64_t hi, int wide, int val, int work) {
  uint64_t tag;
  int bits = __atomic_load_n(&t->bits, __ATOMIC_RELAXED);
  size_t bi = c4t_locate(bits, key, &tag);
  C4Bucket *b = &t->b[bi];
  int n = wide ? WIDE_SLOTS : SLOTS, victim = 0;
  if (__atomic_load_n(&b->gen, __ATOMIC_RELAXED) != t->gen) {
    /* Filled before the last clear: emptied now (its work bytes are read
    ** only once its entries are all written again). */
    for (int i = 0; i < SLOTS; i++) __atomic_store_n(&b->e[i], 0, __ATOMIC_RELAXED);
    __atomic_store_n(&b->gen, t->gen, __ATOMIC_RELAXED);
    /* Double the buckets in use once half of them are filled. */
    size_t k = __atomic_fetch_add(&t->nfilled, 1, __ATOMIC_RELAXED);
    if (bits < t->maxbits && k == (size_t)1 << (bits - 1))
      __atomic_compare_exchange_n(&t->bits, &bits, bits + 1, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
  }
  /* First the key's own entry or the first empty one (as get finds
  ** them), then, in a full bucket only, the entry to give way: two loops
  ** rather than one that weighs every entry on the way. */
  for (; victim < n; victim++) {
    uint64_t e = c4t_load(&b->e[wide ? 2 * victim : victim]);
    if (e == 0) break;
    if ((e & ~LOW_MASK) == tag && (!wide || (c4t_load(&b->e[2 * victim + 1]) ^ e) == hi)) break;
  }
  if (victim == n) {
    /* Entries that a doubling left out of reach (their scrambled key's
    ** bits from MIN_BITS up to `bits` are not the bucket's) go first,
    ** then the cheapest. */
    uint64_t reach = (((uint64_t)1 << bits) - 1) & ~LOW_MASK;
    int least = 512;
    victim = 0;
    for (int i = 0; i < n; i++) {
      uint64_t e = c4t_load(&b->e[wide ? 2 * i : i]);
      int w = (e ^ bi) & reach ? 0 : 256 + __atomic_load_n(&b->work[i], __ATOMIC_RELAXED);
      if (w < least) { least = w; victim = i; }
    }
  }
  uint64_t e = tag | (uint64_t)val;
  if (wide) __atomic_store_n(&b->e[2 * victim + 1], hi ^ e, __ATOMIC_RELAXED);
  __atomic_store_n(&b->e[wide ? 2 * victim : victim], e, __ATOMIC_RELAXED);
  __atomic_store_n(&b->work[victim], (uint8_t)work, __ATOMIC_RELAXED);
}

void c4t_put(C4Table *t, uint64_t key, int val, int work) { put(t, key, 0, 0, val, work); }

void c4t_put_wide(C4Table *t, uint64_t lo, uint64_t hi, int val, int work) {
  put(t, wide_low(lo, hi), hi, 1, val, work);
}

size_t c4t_touch(C4Table *t, size_t budget) {
  size_t bytes = t->nbuckets * sizeof(C4Bucket);
  if (bytes > budget) bytes = budget;
  /* A write (its value 0, what the page holds): a read would map the
  ** shared zero page and leave the work for later. */
  for (size_t i = 0; i < bytes; i += 4096) ((volatile char *)t->b)[i] = 0;
  return bytes;
}

void c4t_clear(C4Table *t) {
  /* Nothing filled since the last clear: every bucket is of an earlier
  ** generation, so the table reads as empty already.  A search of the
  ** last plies alone (the bare tail) fills nothing, and clearing anyway
  ** brought the generations round, and their wipe, every 255 such. */
  if (t->nfilled == 0) return;
  /* `bits` only grows during a search: the buckets below it are those
  ** this generation may have filled. */
  if (t->used_bits < t->bits) t->used_bits = t->bits;
  if (++t->gen == 0) {
    /* The generations come round: a bucket filled 255 clears ago would
    ** read as filled again. */
    memset(t->b, 0, ((size_t)1 << t->used_bits) * sizeof(C4Bucket));
    t->gen = 1;
    t->used_bits = 0;
  }
  t->nfilled = 0;
  t->bits = t->maxbits < START_BITS ? t->maxbits : START_BITS;
}
