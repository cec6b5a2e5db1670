/*
** vm_view.c -- hidden information on the VM: each player's view of the
** state and information state (GameVtable.infostate, print_view), for a
** game with `hidden` declarations (compile_view.c).
**
** A player's view of a position is the state with the slots hidden from
** him masked.  What he observes of a move is who made it (a player or
** chance), the move itself when he made it, and his view of the state
** after it.  His information state is the sequence of his observations
** from the root (perfect recall), kept as a 128-bit key folded on every
** apply: keys[ply][player], so that undo restores it for nothing.  Two
** positions have the same key for p exactly when p's observation
** sequences agree (up to a 2^-128 chance of a collision).
**
** The printable text is built on demand by replaying the line from the
** root: the player's current view, then one entry per move, the mover,
** the move when it is his own, and the cells of his view that it changed:
**
**   card=[J,?] bet=[1,2] | chance card[0]=J | chance | A check | B bet[1]=2
**
** and " | X to move" at the end when the player to move is not he.  From
** one root the text determines the observations, so it is unique per
** information state.
*/
#include "vm/vm_int.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define VIEW_HIDDEN INT32_MIN    /* a masked slot's value in a view */
#define VIEW_PUBLIC (-1)         /* view_decl: no `hidden` covers the slot */
#define VIEW_NEVER  (-2)         /* view_decl: hidden from all (chance's slot) */

static uint64_t mix(uint64_t x) {
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

/* Whether player q (1-based) sees slot s now. */
static int sees(VM *vm, int q, int s) {
  int d = vm->view_decl[s];
  if (d == VIEW_PUBLIC) return 1;
  if (d == VIEW_NEVER) return 0;
  const HiddenDecl *h = &vm->p->hidden[d];
  if (h->chunk < 0) return 0;
  int32_t args[3];
  for (int i = 0; i < h->nidx; i++) args[i] = vm->view_args[2 * s + i];
  args[h->nidx] = q;
  return vm_run(vm, h->chunk, args, h->nidx + 1) != 0;
}

/* Player q's view of the current state into out (nslots values). */
static void view_of(VM *vm, int q, int32_t *out) {
  const Program *p = vm->p;
  for (int s = 0; s < p->nslots; s++) out[s] = sees(vm, q, s) ? vm->slots[s] : VIEW_HIDDEN;
}

/* Two independent 64-bit hashes of player q's view of the state. */
static void view_hash(VM *vm, int q, uint64_t h[2]) {
  const Program *p = vm->p;
  h[0] = 0x243f6a8885a308d3ULL;
  h[1] = 0x13198a2e03707344ULL;
  for (int s = 0; s < p->nslots; s++) {
    int32_t v = vm->view_decl[s] == VIEW_PUBLIC || sees(vm, q, s) ? vm->slots[s] : VIEW_HIDDEN;
    uint64_t x = zobrist(s, v);
    h[0] ^= x;
    h[1] ^= mix(x ^ 0xa4093822299f31d0ULL);
  }
}

static uint64_t *keys_at(VM *vm, int ply) {
  return vm->view_keys + (size_t)ply * (size_t)vm->p->nplayers * 2;
}

/* Room for the keys of ply `ply` and the move that led to it. */
static void view_reserve(VM *vm, int ply) {
  if (ply < vm->view_cap) return;
  int cap = vm->view_cap ? vm->view_cap * 2 : 64;
  while (cap <= ply) cap *= 2;
  uint64_t *k = realloc(vm->view_keys, (size_t)cap * (size_t)vm->p->nplayers * 2 * sizeof *k);
  if (k) vm->view_keys = k;
  Move *m = realloc(vm->view_moves, (size_t)cap * sizeof *m);
  if (m) vm->view_moves = m;
  if (!k || !m) vm_fail(vm, -1, 0, EXIT_LIMIT, "out of memory for the information states");
  vm->view_cap = cap;
}

void vm_views_observe(VM *vm, int32_t mover, const Move *m) {
  const Program *p = vm->p;
  int ply = vm->h.nmarks;
  view_reserve(vm, ply);
  vm->view_moves[ply - 1] = *m;
  uint64_t code = m->rule;
  for (int i = 0; i < GAME_MAX_ARGS; i++) code = code * 0x10001ULL + (uint16_t)m->arg[i];
  const uint64_t *before = keys_at(vm, ply - 1);
  uint64_t *after = keys_at(vm, ply);
  for (int q = 0; q < p->nplayers; q++) {
    uint64_t h[2];
    view_hash(vm, q + 1, h);
    h[0] ^= mix((uint64_t)mover * 0x9e3779b97f4a7c15ULL + 1);
    h[1] ^= mix((uint64_t)mover * 0xc2b2ae3d27d4eb4fULL + 2);
    if (mover == q + 1) {
      h[0] ^= mix(code ^ 0x452821e638d01377ULL);
      h[1] ^= mix(code * 0x165667b19e3779f9ULL + 3);
    }
    after[2 * q] = mix(before[2 * q] * 0x100000001b3ULL ^ h[0]);
    after[2 * q + 1] = mix((before[2 * q + 1] + h[1]) * 0xff51afd7ed558ccdULL);
  }
}

int vm_views_init(VM *vm) {
  const Program *p = vm->p;
  vm->view_decl = malloc((size_t)p->nslots * sizeof *vm->view_decl);
  vm->view_args = calloc((size_t)p->nslots * 2, sizeof *vm->view_args);
  vm->view_a = malloc((size_t)p->nslots * sizeof *vm->view_a);
  vm->view_b = malloc((size_t)p->nslots * sizeof *vm->view_b);
  if (!vm->view_decl || !vm->view_args || !vm->view_a || !vm->view_b) return 0;
  for (int s = 0; s < p->nslots; s++) vm->view_decl[s] = VIEW_PUBLIC;
  /* Who moves after chance shows when he moves: not in the view. */
  if (p->chance) vm->view_decl[p->chance_slot] = VIEW_NEVER;
  for (int d = 0; d < p->nhidden; d++) {
    const HiddenDecl *h = &p->hidden[d];
    const StateVar *v = &p->vars[h->var];
    int size = v->ndims == 0 ? 1 : v->ndims == 1 ? v->dim[0] : v->dim[0] * v->dim[1];
    for (int k = 0; k < size; k++) {
      int s = v->base + k;
      vm->view_decl[s] = d;
      if (v->ndims == 2) { vm->view_args[2 * s] = k / v->dim[1]; vm->view_args[2 * s + 1] = k % v->dim[1]; }
      else vm->view_args[2 * s] = k;
    }
  }
  jmp_buf trap;
  jmp_buf *outer = vm->base.trap;
  vm->base.trap = &trap;
  if (setjmp(trap)) { vm->base.trap = outer; return -1; }
  view_reserve(vm, 0);
  uint64_t *k = keys_at(vm, 0);
  for (int q = 0; q < p->nplayers; q++) {
    uint64_t h[2];
    view_hash(vm, q + 1, h);
    k[2 * q] = mix(h[0] ^ 0x082efa98ec4e6c89ULL);
    k[2 * q + 1] = mix(h[1] + 0x3f84d5b5b5470917ULL);
  }
  vm->base.trap = outer;
  return 1;
}

void vm_views_free(VM *vm) {
  free(vm->view_decl);
  free(vm->view_args);
  free(vm->view_a);
  free(vm->view_b);
  free(vm->view_keys);
  free(vm->view_moves);
}

/* ------------------------------------------------------------------ */
/* The printable information state                                   */
/* ------------------------------------------------------------------ */

/* Text written into buf (cut at size) while its whole length is counted. */
typedef struct Out {
  char *buf;
  size_t size, len;
} Out;

static void put(Out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(Out *o, const char *fmt, ...) {
  char tmp[256];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
  va_end(ap);
  if (n < 0) return;
  if ((size_t)n >= sizeof tmp) n = sizeof tmp - 1;
  if (o->buf && o->size > 0 && o->len < o->size - 1) {
    size_t room = o->size - 1 - o->len;
    memcpy(o->buf + o->len, tmp, (size_t)n < room ? (size_t)n : room);
  }
  o->len += (size_t)n;
}

static void put_value(Out *o, const Program *p, Type t, int32_t v) {
  char val[64];
  if (v == VIEW_HIDDEN) { put(o, "?"); return; }
  program_format_value(p, t, v, val, sizeof val);
  put(o, "%s", val);
}

/* The view as `name=value` and `name=[a,b,?]` (rows of 2-D arrays
** separated by ';'), the variables separated by blanks. */
static void put_view(Out *o, const Program *p, const int32_t *view) {
  for (int i = 0; i < p->nvars; i++) {
    const StateVar *v = &p->vars[i];
    int size = v->ndims == 0 ? 1 : v->ndims == 1 ? v->dim[0] : v->dim[0] * v->dim[1];
    put(o, "%s%s=%s", i ? " " : "", v->name, v->ndims ? "[" : "");
    for (int k = 0; k < size; k++) {
      if (k) put(o, v->ndims == 2 && k % v->dim[1] == 0 ? ";" : ",");
      put_value(o, p, v->elem, view[v->base + k]);
    }
    if (v->ndims) put(o, "]");
  }
}

static const StateVar *var_of(const Program *p, int s) {
  for (int i = 0; i < p->nvars; i++) {
    const StateVar *v = &p->vars[i];
    int size = v->ndims == 0 ? 1 : v->ndims == 1 ? v->dim[0] : v->dim[0] * v->dim[1];
    if (s >= v->base && s < v->base + size) return v;
  }
  return NULL;
}

static const char *mover_name(const Program *p, int32_t m) {
  return p->chance && m == p->chance ? "chance" : p->players[m - 1];
}

size_t vm_infostate(Game *g, int player, uint64_t key[2], char *text, size_t size) {
  VM *vm = (VM *)g;
  const Program *p = vm->p;
  const uint64_t *k = keys_at(vm, vm->h.nmarks);
  key[0] = k[2 * player];
  key[1] = k[2 * player + 1];
  Out o = { text, size, 0 };
  int q = player + 1;
  int32_t *prev = vm->view_a, *cur = vm->view_b;
  view_of(vm, q, cur);
  put_view(&o, p, cur);
  /* Replay the line from the root, observing as q does.  Undo leaves
  ** view_moves as it was, and each apply writes back the same move. */
  int n = vm->h.nmarks;
  for (int i = 0; i < n; i++) vm->base.vt->undo(g);
  view_of(vm, q, prev);
  for (int i = 0; i < n; i++) {
    int32_t mover = vm->slots[0];
    Move m = vm->view_moves[i];
    vm->base.vt->apply(g, &m);
    view_of(vm, q, cur);
    put(&o, " | %s", mover_name(p, mover));
    if (mover == q) {
      char mv[128];
      vm->base.vt->format_move(g, &m, mv, sizeof mv);
      put(&o, " %s", mv);
    }
    for (int s = 1; s < p->nslots; s++) {
      if (cur[s] == prev[s] || vm->view_decl[s] == VIEW_NEVER) continue;
      const StateVar *v = var_of(p, s);
      char name[96];
      program_slot_name(p, s, name, sizeof name);
      put(&o, " %s=", name);
      put_value(&o, p, v ? v->elem : (Type){ TY_INT, 0, 0, 0 }, cur[s]);
    }
    int32_t *t = prev; prev = cur; cur = t;
  }
  if (vm->slots[0] != q) put(&o, " | %s to move", mover_name(p, vm->slots[0]));
  if (text && size > 0) text[o.len < size ? o.len : size - 1] = 0;
  return o.len;
}

void vm_print_view(Game *g, int player, FILE *f) {
  VM *vm = (VM *)g;
  view_of(vm, player + 1, vm->view_a);
  vm_print_slots(vm, vm->view_a, f);
}
