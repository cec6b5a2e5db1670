/*
** vm_chain.c -- moves of several steps (`continue move`, `priority`).
**
** A move rule's effect that says `continue move` leaves the turn with the
** mover: he makes another step, one of the moves the generator offers in
** the position the effect left, and so on until a step's effect does not
** say it (or ends the game).  The whole sequence is ONE move for every
** user of the game interface: generate finds them all by a depth-first
** search (play a step on a mark of its own, generate the next steps,
** recurse, take the step back), apply runs the steps' effects in turn
** under one mark, and format_move joins the steps' notations.  A branch
** whose effect says `illegal`, or that must go on but has no next step,
** is no move.  With `priority e` in effects, only the moves of the
** highest priority (the last `priority` one of its steps ran; 0 when none
** did) are legal.
**
** A move of one step is the Move the generator made.  A move of several
** steps is a Move of its own, so that a Move stays 10 bytes for the
** searches and the tables that keep moves, and two moves are the same
** exactly when their bytes are:
**
**   packed:    Move.rule = VM_PACKED_RULE + k (k steps, 2 <= k <= pack_max),
**              arg[0..3] = 64 bits holding the steps' codes of `bits`
**              bits each, the first step lowest.  A step's code is its
**              rule's index, then each argument's place in its domain
**              (an `in LIST` argument's in the list), each in as many
**              bits as its rule's count or its domain's size needs:
**              English draughts' 8 rules of two cells take 3 + 6 + 6 = 15
**              bits a step (4 steps), paper soccer's 8 rules without
**              arguments 3 (21 steps);
**   interned:  Move.rule = VM_CHAIN_RULE, arg[0] = id & 0xffff,
**              arg[1] = id >> 16: a move too long to pack, stored once in
**              the engine's table, which keeps every such move the engine
**              generated (a hash index finds one again), about 20 bytes
**              plus 10 per step each; the index is valid for the
**              engine's lifetime.
**
** Only the rules whose effects may say either (MoveRule.expands,
** compiler/steps.c) are played by the search; every other rule's move is
** a move of one step of priority 0, as generated.
*/
#include "vm/vm_int.h"

#include <stdlib.h>
#include <string.h>

typedef struct ArgCode {
  int32_t lo;             /* the argument's lowest value (a range) */
  int shift, bits;        /* where its place goes in a step's code */
  int set_off, set_len;   /* `in LIST`: the list in konst, coded by place */
} ArgCode;

struct VmChains {
  /* Packed moves: the bits of a step's code (and of its rule's index),
  ** the most steps a Move holds, the arguments' domains per rule. */
  int bits, rule_bits;
  int pack_max;
  ArgCode *args;          /* nrules * GAME_MAX_ARGS */
  Move decoded[64];       /* a packed move's steps (vm_chain_steps) */
  /* The table: move i's steps are steps[first[i] .. first[i + 1]). */
  Move *steps;
  size_t nsteps, capsteps;
  uint32_t *first;        /* cap + 1 entries */
  uint64_t *hash;         /* per move: the hash of its steps */
  uint32_t n, cap;
  uint32_t *index;        /* open addressing: id + 1, 0 empty */
  size_t mask;            /* index entries - 1 (a power of two) */
  /* The search: the steps generated at each level, above one another;
  ** the steps of the move being found; the moves found. */
  Move *stack;
  size_t top, capstack;
  Move path[VM_MAX_MOVE_STEPS];
  Move *out;
  int nout;
  int32_t best;           /* the highest priority found so far */
};

int vm_chain_init(VM *vm) {
  const Program *p = vm->p;
  VmChains *c = calloc(1, sizeof *c);
  if (!c) return 0;
  vm->chains = c;
  c->mask = 1023;
  c->index = calloc(c->mask + 1, sizeof *c->index);
  c->first = malloc(sizeof *c->first);
  c->args = calloc((size_t)p->nrules * GAME_MAX_ARGS + 1, sizeof *c->args);
  if (!c->index || !c->first || !c->args) return 0;
  c->first[0] = 0;
  /* The codes of the steps: each rule's argument domains, as the
  ** generator enumerates them (compiler/compile.c). */
  while ((1 << c->rule_bits) < p->nrules) c->rule_bits++;
  c->bits = c->rule_bits;
  for (int r = 0; r < p->nrules; r++) {
    const MoveRule *mr = &p->rules[r];
    int shift = c->rule_bits;
    for (int i = 0; i < mr->nargs; i++) {
      ArgCode *a = &c->args[r * GAME_MAX_ARGS + i];
      Type t = mr->arg[i];
      int32_t lo = t.lo, hi = t.hi;
      if (t.kind == TY_PLAYER) { lo = 1; hi = p->nplayers; }
      if (t.kind == TY_CELL) { lo = 0; hi = p->ncells - 1; }
      int64_t size = (int64_t)hi - lo + 1;
      if (mr->set_len[i] > 0) {
        a->set_off = mr->set_off[i];
        a->set_len = mr->set_len[i];
        size = mr->set_len[i];
      }
      a->lo = lo;
      a->shift = shift;
      while (((int64_t)1 << a->bits) < size) a->bits++;
      shift += a->bits;
    }
    if (shift > c->bits) c->bits = shift;
  }
  /* Codes of more than 32 bits: only the table. */
  c->pack_max = c->bits == 0 ? 64 : 64 / c->bits;
  if (c->pack_max < 2) c->pack_max = 0;
  return 1;
}

void vm_chain_free(VM *vm) {
  VmChains *c = vm->chains;
  if (!c) return;
  free(c->steps);
  free(c->first);
  free(c->hash);
  free(c->index);
  free(c->stack);
  free(c->args);
  free(c);
  vm->chains = NULL;
}

static uint64_t hash_steps(const Move *s, int n) {
  uint64_t h = 0x9e3779b97f4a7c15ULL ^ (uint64_t)n;
  for (int i = 0; i < n; i++) {
    uint64_t w = (uint64_t)s[i].rule | (uint64_t)(uint16_t)s[i].arg[0] << 16 |
                 (uint64_t)(uint16_t)s[i].arg[1] << 32 | (uint64_t)(uint16_t)s[i].arg[2] << 48;
    h = (h ^ w) * 0xff51afd7ed558ccdULL;
    h = (h ^ (uint16_t)s[i].arg[3]) * 0xc4ceb9fe1a85ec53ULL;
    h ^= h >> 29;
  }
  return h ^ (h >> 32);
}

static void out_of_memory(VM *vm) {
  vm_fail(vm, vm->p->chunks[vm->p->gen_chunk].start, 0, EXIT_LIMIT,
          "out of memory for the moves of several steps");
}

/* Doubles the index and puts every move back in it. */
static void grow_index(VM *vm, VmChains *c) {
  size_t size = (c->mask + 1) * 2;
  uint32_t *index = calloc(size, sizeof *index);
  if (!index) out_of_memory(vm);
  for (uint32_t id = 0; id < c->n; id++) {
    size_t k = (size_t)c->hash[id] & (size - 1);
    while (index[k]) k = (k + 1) & (size - 1);
    index[k] = id + 1;
  }
  free(c->index);
  c->index = index;
  c->mask = size - 1;
}

/* The id of the move of steps s[0..n) (n >= 2), stored if it is new. */
static uint32_t intern(VM *vm, VmChains *c, const Move *s, int n) {
  uint64_t h = hash_steps(s, n);
  size_t k = (size_t)h & c->mask;
  for (uint32_t e; (e = c->index[k]) != 0; k = (k + 1) & c->mask) {
    uint32_t id = e - 1;
    if (c->hash[id] == h && c->first[id + 1] - c->first[id] == (uint32_t)n &&
        memcmp(c->steps + c->first[id], s, (size_t)n * sizeof *s) == 0)
      return id;
  }
  if (c->n >= VM_MAX_CHAINS)
    vm_fail(vm, vm->p->chunks[vm->p->gen_chunk].start, 0, EXIT_LIMIT,
            "more than %u different moves of several steps (limit is %u)", VM_MAX_CHAINS, VM_MAX_CHAINS);
  if (c->n == c->cap) {
    uint32_t cap = c->cap ? c->cap * 2 : 1024;
    uint32_t *first = realloc(c->first, ((size_t)cap + 1) * sizeof *first);
    if (first) c->first = first;
    uint64_t *hash = realloc(c->hash, (size_t)cap * sizeof *hash);
    if (hash) c->hash = hash;
    if (!first || !hash) out_of_memory(vm);
    c->cap = cap;
  }
  if (c->nsteps + (size_t)n > c->capsteps) {
    size_t cap = c->capsteps ? c->capsteps * 2 : 4096;
    while (cap < c->nsteps + (size_t)n) cap *= 2;
    Move *steps = realloc(c->steps, cap * sizeof *steps);
    if (!steps) out_of_memory(vm);
    c->steps = steps;
    c->capsteps = cap;
  }
  uint32_t id = c->n++;
  memcpy(c->steps + c->nsteps, s, (size_t)n * sizeof *s);
  c->nsteps += (size_t)n;
  c->first[id + 1] = (uint32_t)c->nsteps;
  c->hash[id] = h;
  c->index[k] = id + 1;
  if ((size_t)c->n * 4 > (c->mask + 1) * 3) grow_index(vm, c);
  return id;
}

/* The code of step m. */
static uint64_t encode_step(const Program *p, const VmChains *c, const Move *m) {
  const MoveRule *r = &p->rules[m->rule];
  const ArgCode *a = &c->args[m->rule * GAME_MAX_ARGS];
  uint64_t code = m->rule;
  for (int i = 0; i < r->nargs; i++) {
    uint32_t v = (uint32_t)(m->arg[i] - a[i].lo);
    if (a[i].set_len) {
      v = 0;
      while (p->konst[a[i].set_off + (int)v] != m->arg[i]) v++;
    }
    code |= (uint64_t)v << a[i].shift;
  }
  return code;
}

/* The step of code `code`. */
static void decode_step(const Program *p, const VmChains *c, uint64_t code, Move *m) {
  int r = (int)(code & ((1u << c->rule_bits) - 1));
  memset(m, 0, sizeof *m);
  m->rule = (uint16_t)r;
  const ArgCode *a = &c->args[r * GAME_MAX_ARGS];
  for (int i = 0; i < p->rules[r].nargs; i++) {
    uint32_t v = (uint32_t)(code >> a[i].shift) & ((1u << a[i].bits) - 1);
    m->arg[i] = (int16_t)(a[i].set_len ? p->konst[a[i].set_off + (int)v] : a[i].lo + (int32_t)v);
  }
}

const Move *vm_chain_steps(VM *vm, const Move *m, int *n) {
  if (m->rule < VM_PACKED_RULE) { *n = 1; return m; }
  VmChains *c = vm->chains;
  if (m->rule != VM_CHAIN_RULE) {
    int k = m->rule - VM_PACKED_RULE;
    if (!c || k < 2 || k > c->pack_max)
      vm_fail(vm, -1, 0, EXIT_RUNTIME, "internal error: a packed move of %d steps", k);
    uint64_t v = 0, mask = ((uint64_t)1 << c->bits) - 1;   /* bits <= 32 */
    for (int i = 3; i >= 0; i--) v = v << 16 | (uint16_t)m->arg[i];
    for (int i = 0; i < k; i++) {
      decode_step(vm->p, c, v & mask, &c->decoded[i]);
      v >>= c->bits;
    }
    *n = k;
    return c->decoded;
  }
  uint32_t id = (uint16_t)m->arg[0] | (uint32_t)(uint16_t)m->arg[1] << 16;
  if (!c || id >= c->n)
    vm_fail(vm, -1, 0, EXIT_RUNTIME, "internal error: no move of several steps has index %u", id);
  *n = (int)(c->first[id + 1] - c->first[id]);
  return c->steps + c->first[id];
}

/* Room for a level's steps (GAME_MAX_MOVES) at the top of the stack. */
static void reserve_level(VM *vm, VmChains *c) {
  if (c->capstack - c->top >= GAME_MAX_MOVES) return;
  size_t cap = c->capstack ? c->capstack * 2 : 4 * GAME_MAX_MOVES;
  while (cap - c->top < GAME_MAX_MOVES) cap *= 2;
  Move *s = realloc(c->stack, cap * sizeof *s);
  if (!s) out_of_memory(vm);
  c->stack = s;
  c->capstack = cap;
}

/* The move path[0..len) is whole: it joins the moves found, unless its
** priority is below the best (then a higher one empties them). */
static void found(VM *vm, VmChains *c, int len) {
  if (vm->p->has_priority) {
    if (vm->priority < c->best) return;
    if (vm->priority > c->best) { c->best = vm->priority; c->nout = 0; }
  }
  if (c->nout >= GAME_MAX_MOVES)
    vm_fail(vm, vm->p->chunks[vm->p->gen_chunk].start, 0, EXIT_RUNTIME, "too many legal moves (limit is %d)",
            GAME_MAX_MOVES);
  Move *o = &c->out[c->nout++];
  if (len == 1) {
    *o = c->path[0];
    return;
  }
  memset(o, 0, sizeof *o);
  if (len <= c->pack_max) {
    uint64_t v = 0;
    for (int i = len - 1; i >= 0; i--) v = v << c->bits | encode_step(vm->p, c, &c->path[i]);
    o->rule = (uint16_t)(VM_PACKED_RULE + len);
    for (int i = 0; i < 4; i++) o->arg[i] = (int16_t)(uint16_t)(v >> (16 * i));
    return;
  }
  uint32_t id = intern(vm, c, c->path, len);
  o->rule = VM_CHAIN_RULE;
  o->arg[0] = (int16_t)(uint16_t)(id & 0xffff);
  o->arg[1] = (int16_t)(uint16_t)(id >> 16);
}

/* Plays step path[len - 1] on a mark of its own; if its effect says
** `continue move`, each step generated next in turn, and so on; then
** takes it back. */
static void expand(VM *vm, VmChains *c, int len) {
  const Program *p = vm->p;
  const Move *m = &c->path[len - 1];
  const MoveRule *r = &p->rules[m->rule];
  if (vm->h.nmarks == vm->h.capmarks)   /* the line's marks, then the steps' */
    vm_marks_reserve(vm, GAME_MAX_PLY + 64 + VM_MAX_MOVE_STEPS);
  int depth = vm->h.nmarks;
  int trail_from = vm->h.ntrail;
  uint64_t hash = vm->h.hash;
  vm->h.marks[depth].trail = trail_from;
  vm->h.marks[depth].mover = vm->slots[0];
  vm->h.marks[depth].hash = hash;
  vm->h.nmarks = depth + 1;
  int32_t priority = vm->priority;
  int32_t args[GAME_MAX_ARGS];
  for (int i = 0; i < GAME_MAX_ARGS; i++) args[i] = m->arg[i];
  vm->chain_more = vm->rejected = 0;
  vm->h.writable = 1;
  vm_run(vm, r->effect, args, r->nargs);
  vm->h.writable = 0;
  if (!vm->rejected) {
    if (!vm->chain_more || (p->outcome_slot && vm->slots[p->outcome_slot])) {
      found(vm, c, len);
    } else {
      if (len == VM_MAX_MOVE_STEPS)
        vm_fail(vm, p->chunks[r->effect].start, 0, EXIT_RUNTIME, "a move of more than %d steps (limit is %d)",
                VM_MAX_MOVE_STEPS, VM_MAX_MOVE_STEPS);
      reserve_level(vm, c);
      size_t base = c->top;
      vm->movebuf = c->stack + base;
      vm->nmoves = 0;
      vm_run(vm, p->gen_chunk, NULL, 0);
      int k = vm->nmoves;
      c->top = base + (size_t)k;
      for (int i = 0; i < k; i++) {
        c->path[len] = c->stack[base + (size_t)i];
        expand(vm, c, len + 1);
      }
      c->top = base;
    }
  }
  /* Take the step back: the trail, the hash, the mark. */
  const int32_t *t = vm->h.trail;
  int32_t *slots = vm->slots;
  for (int n = vm->h.ntrail; n > trail_from;) {
    n--;
    slots[t[2 * n]] = t[2 * n + 1];
  }
  vm->h.ntrail = trail_from;
  vm->h.hash = hash;
  vm->h.nmarks = depth;
  vm->priority = priority;
}

int vm_chain_generate(VM *vm, Move *buf, int n) {
  const Program *p = vm->p;
  VmChains *c = vm->chains;
  /* Nothing to play (draughts without a capture): moves of one step, of
  ** priority 0 all. */
  int i0 = 0;
  while (i0 < n && !p->rules[buf[i0].rule].expands) i0++;
  if (i0 == n) return n;
  /* The search runs effects: what `pay` said of the move applied last
  ** stays as it was. */
  int32_t reward[GAME_MAX_PLAYERS];
  int rewarded = vm->rewarded;
  memcpy(reward, vm->reward, sizeof reward);
  reserve_level(vm, c);
  size_t base = c->top;
  memcpy(c->stack + base, buf, (size_t)n * sizeof *buf);
  c->top = base + (size_t)n;
  c->out = buf;
  c->nout = i0;      /* the moves before the first to play are found, */
  c->best = i0 > 0 ? 0 : INT32_MIN;   /* of priority 0 */
  for (int i = i0; i < n; i++) {
    c->path[0] = c->stack[base + (size_t)i];
    vm->priority = 0;
    if (p->rules[c->path[0].rule].expands) expand(vm, c, 1);
    else found(vm, c, 1);
  }
  c->top = base;
  memcpy(vm->reward, reward, sizeof reward);
  vm->rewarded = rewarded;
  return c->nout;
}

int vm_chain_play(VM *vm, const Move *m) {
  const Program *p = vm->p;
  int n;
  const Move *s = vm_chain_steps(vm, m, &n);
  int first = s[0].rule;
  for (int i = 0; i < n; i++) {
    const MoveRule *r = &p->rules[s[i].rule];
    int32_t args[GAME_MAX_ARGS];
    for (int k = 0; k < GAME_MAX_ARGS; k++) args[k] = s[i].arg[k];
    vm_run(vm, r->effect, args, r->nargs);
    if (p->outcome_slot && vm->slots[p->outcome_slot]) break;
  }
  return first;
}
