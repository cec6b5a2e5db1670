/*
** tt.c -- the transposition table (layout and replacement in tt.h).
*/
#include <stdlib.h>
#include <string.h>
#include "search/tt.h"

#define ENTRY_HEAD 24     /* bytes before the key */

struct Tt {
  unsigned char *mem;     /* nbuckets * 2 entries of `stride` bytes */
  size_t bytes;           /* size of mem */
  size_t key_bytes;       /* key size of the layout; 0: not laid out */
  size_t payload_bytes;   /* after the key: what the solver keeps (ghi.h) */
  size_t stride;          /* bytes per entry */
  size_t nbuckets;
  TtStats stats;
};

/* The fixed part of an entry, as stored (tt.h draws it). */
typedef struct Head {
  int64_t lower, upper;
  uint16_t move, draft;
  uint8_t work;
  uint8_t pad[3];
} Head;

Tt *tt_new(size_t mib) {
  Tt *t;
  if (mib > SIZE_MAX / ((size_t)1 << 20)) return NULL;
  if ((t = calloc(1, sizeof *t)) == NULL) return NULL;
  t->bytes = mib << 20;
  /* calloc: work 0 marks every slot empty; the pages stay untouched
  ** until used.  When the memory (or an address-space limit) refuses
  ** the size, the table halves until it fits: a smaller table only
  ** slows the search down, and a bare "out of memory" would not say
  ** which table to shrink. */
  int shrunk = 0;
  while (t->bytes > 0 && (t->mem = calloc(1, t->bytes)) == NULL) {
    if (t->bytes <= ((size_t)TT_MIN_MIB << 20)) {
      free(t);
      return NULL;
    }
    t->bytes /= 2;
    shrunk = 1;
  }
  /* A table that had to shrink leaves room for the search beside it (its
  ** move stack holds GAME_MAX_MOVES moves a ply): halved again while
  ** TT_RESERVE_MIB more cannot be had. */
  while (shrunk && t->bytes > ((size_t)TT_MIN_MIB << 20)) {
    void *reserve = malloc((size_t)TT_RESERVE_MIB << 20);
    free(reserve);
    if (reserve) break;
    free(t->mem);
    t->bytes /= 2;
    if ((t->mem = calloc(1, t->bytes)) == NULL) { free(t); return NULL; }
  }
  return t;
}

void tt_free(Tt *t) {
  if (t == NULL) return;
  free(t->mem);
  free(t);
}

size_t tt_bytes(const Tt *t) { return t->bytes; }

int tt_prepare(Tt *t, size_t key_bytes) { return tt_prepare_payload(t, key_bytes, 0); }

int tt_prepare_payload(Tt *t, size_t key_bytes, size_t payload_bytes) {
  size_t stride, bucket;
  if (key_bytes == 0) key_bytes = 1;
  if (t->key_bytes == key_bytes && t->payload_bytes == payload_bytes) return 0;
  if (key_bytes > (SIZE_MAX - ENTRY_HEAD) / 4 || payload_bytes > 4096) return -1;
  t->payload_bytes = payload_bytes;
  stride = ENTRY_HEAD + (key_bytes + 7) / 8 * 8 + (payload_bytes + 7) / 8 * 8;
  bucket = 2 * stride;
  if (t->bytes < bucket) {          /* at least one bucket */
    unsigned char *m = realloc(t->mem, bucket);
    if (m == NULL) return -1;
    t->mem = m;
    t->bytes = bucket;
    t->key_bytes = 1;               /* not zero yet: clear below */
  }
  if (t->key_bytes != 0) tt_clear(t);   /* a fresh table is zero already */
  t->key_bytes = key_bytes;
  t->stride = stride;
  t->nbuckets = t->bytes / bucket;
  return 0;
}

void tt_clear(Tt *t) {
  if (t->mem != NULL) memset(t->mem, 0, t->bytes);
}

static unsigned char *slot(const Tt *t, uint64_t hash, int i) {
  /* A modulo, not a mask: the table uses all the memory it was given. */
  return t->mem + ((size_t)(hash % t->nbuckets) * 2 + (size_t)i) * t->stride;
}

static int holds(const Tt *t, const unsigned char *e, const void *key) {
  return e[offsetof(Head, work)] != 0
      && memcmp(e + ENTRY_HEAD, key, t->key_bytes) == 0;
}

static void read_entry(const unsigned char *e, TtEntry *out) {
  Head h;
  memcpy(&h, e, sizeof h);
  out->lower = h.lower;
  out->upper = h.upper;
  out->move = h.move;
  out->draft = h.draft;
  out->work = h.work;
}

/* Where an entry's payload starts. */
static size_t payload_at(const Tt *t) { return ENTRY_HEAD + (t->key_bytes + 7) / 8 * 8; }

int tt_probe(Tt *t, uint64_t hash, const void *key, TtEntry *out) {
  return tt_probe_payload(t, hash, key, out, NULL);
}

int tt_probe_payload(Tt *t, uint64_t hash, const void *key, TtEntry *out, void *payload) {
  t->stats.probes++;
  for (int i = 0; i < 2; i++) {
    const unsigned char *e = slot(t, hash, i);
    if (holds(t, e, key)) {
      t->stats.hits++;
      read_entry(e, out);
      if (payload != NULL) memcpy(payload, e + payload_at(t), t->payload_bytes);
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
  return w ? w : 1;
}

static void write_entry(const Tt *t, unsigned char *e, const Head *h,
                        const void *key, const void *payload) {
  memcpy(e, h, sizeof *h);
  memcpy(e + ENTRY_HEAD, key, t->key_bytes);
  if (t->payload_bytes) {
    if (payload) memcpy(e + payload_at(t), payload, t->payload_bytes);
    else memset(e + payload_at(t), 0, t->payload_bytes);
  }
}

void tt_store(Tt *t, uint64_t hash, const void *key, int64_t lower,
              int64_t upper, int move, int draft, uint64_t nodes) {
  tt_store_payload(t, hash, key, lower, upper, move, draft, nodes, NULL);
}

void tt_store_payload(Tt *t, uint64_t hash, const void *key, int64_t lower,
                      int64_t upper, int move, int draft, uint64_t nodes,
                      const void *payload) {
  unsigned char *e0 = slot(t, hash, 0), *e1 = slot(t, hash, 1);
  unsigned char *old = holds(t, e0, key) ? e0 : holds(t, e1, key) ? e1 : NULL;
  Head h, o;
  memset(&h, 0, sizeof h);
  h.lower = lower;
  h.upper = upper;
  h.move = (uint16_t)move;
  h.draft = (uint16_t)draft;
  h.work = work_of(nodes);
  t->stats.stores++;

  /* Step 1. The position is stored already: merge, and take it out. */
  if (old != NULL) {
    memcpy(&o, old, sizeof o);
    if (h.move == TT_NO_MOVE) h.move = o.move;
    /* Bounds found under other conditions (payloads) are not merged. */
    int same = !t->payload_bytes || payload == NULL
               || memcmp(old + payload_at(t), payload, t->payload_bytes) == 0;
    if (o.draft == h.draft && same) {
      if (o.lower > h.lower) h.lower = o.lower;
      if (o.upper < h.upper) h.upper = o.upper;
      if (o.work > h.work) h.work = o.work;
    }
    if (old == e0) {                /* update slot 0 in place */
      write_entry(t, e0, &h, key, payload);
      return;
    }
    old[offsetof(Head, work)] = 0;
  }

  /* Step 2. Slot 0 holds the costliest subtree; slot 1 the latest. */
  if (e0[offsetof(Head, work)] == 0) {
    write_entry(t, e0, &h, key, payload);
  } else if (h.work >= e0[offsetof(Head, work)]) {
    if (e1[offsetof(Head, work)] != 0) t->stats.replaced++;
    memcpy(e1, e0, t->stride);
    write_entry(t, e0, &h, key, payload);
  } else {
    if (e1[offsetof(Head, work)] != 0) t->stats.replaced++;
    write_entry(t, e1, &h, key, payload);
  }
}

TtStats *tt_stats(Tt *t) { return &t->stats; }

size_t tt_used(const Tt *t, size_t *capacity) {
  size_t used = 0, n = t->nbuckets * 2;
  for (size_t i = 0; i < n; i++)
    used += t->mem[i * t->stride + offsetof(Head, work)] != 0;
  if (capacity != NULL) *capacity = n;
  return used;
}
