/*
** ghi.c -- history-aware table entries (see ghi.h).
*/
#include <string.h>
#include "search/ghi.h"

#define BLOOM_MASK (GHI_BLOOM_BITS - 1)

static void bloom_add(uint64_t *b, uint64_t h) {
  unsigned k[3] = { (unsigned)(h & BLOOM_MASK), (unsigned)((h >> 21) & BLOOM_MASK), (unsigned)((h >> 42) & BLOOM_MASK) };
  for (int i = 0; i < 3; i++) b[k[i] >> 6] |= (uint64_t)1 << (k[i] & 63);
}

static int bloom_has(const uint64_t *b, uint64_t h) {
  unsigned k[3] = { (unsigned)(h & BLOOM_MASK), (unsigned)((h >> 21) & BLOOM_MASK), (unsigned)((h >> 42) & BLOOM_MASK) };
  for (int i = 0; i < 3; i++)
    if (!(b[k[i] >> 6] & ((uint64_t)1 << (k[i] & 63)))) return 0;
  return 1;
}

void ghi_clear(Ghi *x) { memset(x, 0, sizeof *x); }

static void add_d(Ghi *x, uint64_t h, int index) {
  for (int i = 0; i < x->nd; i++)
    if (x->d[i] == h) return;
  if (x->nd == GHI_DMAX) { x->overflow = 1; return; }
  x->d[x->nd] = h;
  x->di[x->nd++] = index;
}

void ghi_add_trace(Ghi *x, Game *g, int node) {
  HistoryTrace t;
  if (g->vt->history_trace == NULL) return;
  if (g->vt->history_trace(g, &t) != 0) x->overflow = 1;
  for (int i = 0; i < t.ntested; i++) bloom_add(x->bloom, t.tested[i]);
  for (int i = 0; i < t.nhits; i++)
    if (t.hit_index[i] < node) add_d(x, t.hits[i], t.hit_index[i]);
}

void ghi_fold(Ghi *parent, const Ghi *child, int node) {
  for (int i = 0; i < GHI_BLOOM_WORDS; i++) parent->bloom[i] |= child->bloom[i];
  for (int i = 0; i < child->nd; i++)
    if (child->di[i] < node) add_d(parent, child->d[i], child->di[i]);
  parent->overflow |= child->overflow;
}

void ghi_store(const Ghi *x, GhiStored *out) {
  memset(out, 0, sizeof *out);
  memcpy(out->bloom, x->bloom, sizeof out->bloom);
  memcpy(out->d, x->d, sizeof out->d);
  out->nd = (uint32_t)x->nd;
}

int ghi_index(Game *g) {
  const uint64_t *line;
  return g->vt->history_line ? g->vt->history_line(g, &line) : 0;
}

int ghi_valid(const GhiStored *s, Game *g, int node, Ghi *x) {
  const uint64_t *line;
  int n = g->vt->history_line(g, &line);
  if (node < n) n = node;
  ghi_clear(x);
  memcpy(x->bloom, s->bloom, sizeof x->bloom);
  /* D must still be on the line above the node ... */
  for (uint32_t k = 0; k < s->nd; k++) {
    int j = 0;
    while (j < n && line[j] != s->d[k]) j++;
    if (j == n) return 0;
    x->d[x->nd] = s->d[k];
    x->di[x->nd++] = j;
  }
  /* ... and be all of it that the subtree may meet. */
  for (int j = 0; j < n; j++) {
    if (!bloom_has(s->bloom, line[j])) continue;
    int in = 0;
    for (uint32_t k = 0; k < s->nd && !in; k++) in = s->d[k] == line[j];
    if (!in) return 0;
  }
  return 1;
}
