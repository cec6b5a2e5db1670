/*
** vm_effects.c -- the effects of a position's legal moves, kept from the
** legality test for when the moves are played.
**
** A game whose moves can be `illegal` (or that forbids repetition) has
** each generated move played and undone to filter it; a searcher then
** plays the legal ones again, running each effect twice (chess: the test
** of check, the dearest part, twice).  While filtering, the VM records
** each legal move's effect as the slots it wrote and their final values,
** with the `next` it chose; playing the move in the same position then
** writes those values through store_slot (same trail, same hash) instead
** of running the effect.
**
** One record per depth of the line of play (a depth-first searcher comes
** back to a position after its children and plays the next move there).
** A record is valid while its position is the current one: generate sets
** it, playing a move into depth d + 1 voids d + 1's, and set_state voids
** the current depth's; the hash must also match.  A move with `pay` is not recorded (its reward would be lost).
** Out of memory, nothing is recorded: this only saves time.
*/
#include <stdlib.h>
#include <string.h>
#include "vm/vm_int.h"

/* The record for depth d, grown as needed; NULL when out of memory. */
static EffectRecord *record_at(VM *vm, int d) {
  if (d >= vm->fx_cap) {
    int cap = vm->fx_cap ? vm->fx_cap : 16;
    while (cap <= d) cap *= 2;
    EffectRecord *fx = realloc(vm->fx, (size_t)cap * sizeof *fx);
    if (!fx) return NULL;
    memset(fx + vm->fx_cap, 0, (size_t)(cap - vm->fx_cap) * sizeof *fx);
    vm->fx = fx;
    vm->fx_cap = cap;
  }
  return &vm->fx[d];
}

EffectRecord *vm_effects_begin(VM *vm) {
  EffectRecord *r = record_at(vm, vm->h.nmarks);
  if (!r) return NULL;
  r->valid = 0;
  r->n = r->nwrites = 0;
  r->hint = 0;
  return r;
}

/* Room for one more move and `writes` more pairs; 0 out of memory. */
static int reserve(EffectRecord *r, int writes) {
  if (r->n + 1 >= r->cap) {
    int cap = r->cap ? r->cap * 2 : 32;
    Move *m = realloc(r->moves, (size_t)cap * sizeof *m);
    if (m) r->moves = m;
    int32_t *f = realloc(r->first, (size_t)(cap + 1) * 3 * sizeof *f);
    if (f) r->first = f;
    if (!m || !f) return 0;
    r->cap = cap;
  }
  if (r->nwrites + writes > r->capwrites) {
    int cap = r->capwrites ? r->capwrites : 64;
    while (cap < r->nwrites + writes) cap *= 2;
    int32_t *w = realloc(r->writes, (size_t)cap * 2 * sizeof *w);
    if (!w) return 0;
    r->writes = w;
    r->capwrites = cap;
  }
  return 1;
}

void vm_effects_record(VM *vm, EffectRecord *r, const Move *m, int trail_from) {
  int k = vm->h.ntrail - trail_from;
  if (!r || vm->rejected || vm->rewarded || !reserve(r, k)) return;
  /* (No writes: r->writes may still be NULL, and NULL + 0 is undefined.) */
  int32_t *w = k ? r->writes + 2 * (size_t)r->nwrites : NULL;
  for (int i = 0; i < k; i++) {
    int s = vm->h.trail[2 * (trail_from + i)];
    w[2 * i] = s;
    w[2 * i + 1] = vm->slots[s];
  }
  int32_t *f = r->first + 3 * (size_t)r->n;
  f[0] = r->nwrites;
  f[1] = vm->h.next_mover;
  f[2] = vm->chance_after;
  r->moves[r->n++] = *m;
  r->nwrites += k;
  r->first[3 * (size_t)r->n] = r->nwrites;
}

void vm_effects_drop_last(EffectRecord *r, const Move *m) {
  if (r && r->n > 0 && memcmp(&r->moves[r->n - 1], m, sizeof *m) == 0) {
    r->n--;
    r->nwrites = r->first[3 * (size_t)r->n];
  }
}

void vm_effects_seal(VM *vm, EffectRecord *r) {
  if (!r) return;
  r->valid = 1;
  r->hash = vm->h.hash;
}

void vm_effects_void(VM *vm, int depth) {
  if (depth < vm->fx_cap) vm->fx[depth].valid = 0;
}

int vm_effects_replay(VM *vm, int depth, const Move *m, int pc) {
  if (depth >= vm->fx_cap) return 0;
  EffectRecord *r = &vm->fx[depth];
  if (!r->valid || r->hash != vm->h.hash || r->n == 0) return 0;
  /* Searchers play the moves in order: look from the one after the last. */
  int i = r->hint < r->n ? r->hint : 0, tried = 0;
  while (memcmp(&r->moves[i], m, sizeof *m) != 0) {
    if (++tried == r->n) return 0;
    if (++i == r->n) i = 0;
  }
  r->hint = i + 1;
  const int32_t *f = r->first + 3 * (size_t)i;
  for (int k = f[0]; k < f[3]; k++) store_slot(vm, r->writes[2 * k], r->writes[2 * k + 1], pc);
  vm->h.next_mover = f[1];
  vm->chance_after = f[2];
  return 1;
}

void vm_effects_free(VM *vm) {
  for (int d = 0; d < vm->fx_cap; d++) {
    free(vm->fx[d].moves);
    free(vm->fx[d].first);
    free(vm->fx[d].writes);
  }
  free(vm->fx);
  vm->fx = NULL;
  vm->fx_cap = 0;
}
