/*
** retro_stats.c -- counting a labelled retrograde table (retro_stats.h).
**
** Counts are of positions before symmetry: each stored position counts
** as many as its orbit under the declared symmetries (the engine's
** orbit), or, without that, each enumerated state is read back from its
** key and looked up by its canonical form.  Failing both, stored
** positions are counted.
*/
#include "retro/retro_stats.h"

#include <stdlib.h>
#include <string.h>
#include "util/status.h"
#include "retro/retro_compact.h"

void retro_stats_free(RetroStats *st) {
  for (int m = 0; m < 2; m++) {
    free(st->hist[m][0]);
    free(st->hist[m][1]);
    free(st->example[m]);
  }
  memset(st, 0, sizeof *st);
}

/* The stored position (class) of a raw state. */
static int class_of(Retro *r, const void *state, uint32_t *cls) {
  Game *g = r->g;
  if (!r->canonical) {
    g->vt->pack(g, state, r->key);
    /* Without symmetry the states are the stored positions. */
    return keyset_find(&r->states, r->key, cls);
  }
  r->canonical(g, state, r->canon);
  g->vt->pack(g, r->canon, r->key);
  return keyset_find(&r->classes, r->key, cls);
}

/* Adds n positions of stored position c. */
static void count_one(const Retro *r, RetroStats *st, uint32_t c, uint64_t n) {
  int m = r->mover[c] & 1, v = r->value[c];
  st->count[m][v] += n;
  if ((v == RETRO_WIN || v == RETRO_LOSS) && r->dist[c] <= st->maxdist)
    st->hist[m][v == RETRO_LOSS][r->dist[c]] += n;
}

int retro_stats_compute(Retro *r, RetroStats *st) {
  if (retro_distributed && retro_distributed->stats) return retro_distributed->stats(r, st);
  return retro_stats_local(r, st);
}

/* The compact form's counts: two walks over the table, the longest
** distance first (the histograms' size), then the counts. */
typedef struct CompactCount {
  Retro *r;
  RetroStats *st;
  int orbits, pass;
} CompactCount;

static int compact_one(void *arg, const void *state, int mover, int32_t score, uint32_t dist) {
  CompactCount *cc = arg;
  RetroStats *st = cc->st;
  Game *g = cc->r->g;
  int m = mover & 1, v = score > 0 ? RETRO_WIN : score < 0 ? RETRO_LOSS : RETRO_DRAW;
  if (cc->pass == 0) {
    if (v != RETRO_DRAW && dist > st->maxdist) st->maxdist = dist;
    if (v == RETRO_WIN && (int64_t)dist > st->longest[m]) {
      st->longest[m] = dist;
      if (!st->example[m] && !(st->example[m] = malloc(g->state_bytes))) return -1;
      memcpy(st->example[m], state, g->state_bytes);
    }
    return 0;
  }
  uint64_t n = cc->orbits ? g->vt->orbit(g, state) : 1;
  st->count[m][v] += n;
  if (v != RETRO_DRAW) st->hist[m][v == RETRO_LOSS][dist] += n;
  return 0;
}

static int compact_stats(Retro *r, RetroStats *st) {
  Game *g = r->g;
  CompactCount cc = { r, st, 0, 0 };
  cc.orbits = r->canonical && g->vt->orbit && g->vt->orbit(g, game_state(g)) != 0;
  st->raw = cc.orbits || !r->canonical;
  if (retro_compact_each(r, compact_one, &cc) < 0) return EXIT_LIMIT;
  for (int m = 0; m < 2; m++)
    for (int k = 0; k < 2; k++)
      if (!(st->hist[m][k] = calloc((size_t)st->maxdist + 1, sizeof(uint64_t)))) return EXIT_LIMIT;
  cc.pass = 1;
  return retro_compact_each(r, compact_one, &cc) < 0 ? EXIT_LIMIT : EXIT_OK;
}

int retro_stats_local(Retro *r, RetroStats *st) {
  Game *g = r->g;
  memset(st, 0, sizeof *st);
  if (r->cpt) {
    st->nmovers = g->nplayers == 1 ? 1 : 2;
    st->longest[0] = st->longest[1] = -1;
    int rc = compact_stats(r, st);
    if (rc != EXIT_OK) retro_stats_free(st);
    return rc;
  }
  st->nmovers = g->nplayers == 1 ? 1 : 2;
  st->longest[0] = st->longest[1] = -1;
  uint32_t longest_cls[2] = { 0, 0 };
  for (size_t c = 0; c < r->stored; c++) {
    if (r->value[c] != RETRO_WIN && r->value[c] != RETRO_LOSS) continue;
    if (r->dist[c] > st->maxdist) st->maxdist = r->dist[c];
    int m = r->mover[c] & 1;
    if (r->value[c] == RETRO_WIN && (int64_t)r->dist[c] > st->longest[m]) {
      st->longest[m] = r->dist[c];
      longest_cls[m] = (uint32_t)c;
    }
  }
  for (int m = 0; m < 2; m++)
    for (int k = 0; k < 2; k++)
      if (!(st->hist[m][k] = calloc((size_t)st->maxdist + 1, sizeof(uint64_t)))) goto oom;
  if (retro_scratch(r) < 0) goto oom;
  /* The engine's orbits (0 from an engine that cannot count them, e.g.
  ** the VM for a game with `permute` arrays) or the states themselves. */
  int orbits = r->canonical && g->vt->orbit && g->vt->pack && g->vt->unpack &&
               g->vt->orbit(g, game_state(g)) != 0;
  st->raw = orbits || (g->vt->pack && g->vt->unpack && r->states.n == r->positions && r->positions > 0);
  if (orbits) {
    /* Each stored position stands for its orbit. */
    void *state = malloc(g->state_bytes);
    if (!state) goto oom;
    for (size_t c = 0; c < r->stored; c++) {
      g->vt->unpack(g, r->classes.keys + c * r->classes.key_bytes, state);
      count_one(r, st, (uint32_t)c, g->vt->orbit(g, state));
    }
    free(state);
  } else if (st->raw) {
    void *state = malloc(g->state_bytes);
    if (!state) goto oom;
    for (size_t i = 0; i < r->states.n; i++) {
      uint32_t c;
      g->vt->unpack(g, r->states.keys + i * r->states.key_bytes, state);
      if (class_of(r, state, &c) && c < r->stored) count_one(r, st, c, 1);   /* not gsolve-mpi's extras */
    }
    free(state);
  } else {
    for (size_t c = 0; c < r->stored; c++) count_one(r, st, (uint32_t)c, 1);
  }
  if (g->vt->unpack && g->vt->pack) {
    const KeySet *k = r->canonical ? &r->classes : &r->states;
    for (int m = 0; m < 2; m++) {
      if (st->longest[m] < 0) continue;
      if (!(st->example[m] = malloc(g->state_bytes))) goto oom;
      g->vt->unpack(g, k->keys + (size_t)longest_cls[m] * k->key_bytes, st->example[m]);
    }
  }
  return EXIT_OK;
oom:
  retro_stats_free(st);
  return EXIT_LIMIT;
}
