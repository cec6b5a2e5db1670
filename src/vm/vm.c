/*
** vm.c -- the game interface (game.h) of a compiled game, on the bytecode
** interpreter (interp.c): move generation, apply and undo on the undo
** trail, hashing, the repetition rule, canonical forms, printing.
*/
#include "vm/vm_int.h"

#include <stdlib.h>
#include <string.h>

#define VM_MAX_ZOBRIST_TABLE (1 << 22)   /* entries; beyond, keys are computed */

/* ------------------------------------------------------------------ */
/* Hashing                                                            */
/* ------------------------------------------------------------------ */

static uint64_t mix64(uint64_t x);

/* The hash of the slots alone: what vm->h.hash keeps up to date (from
** the table of keys when there is one: the same values). */
static uint64_t slots_hash(const VM *vm) {
  uint64_t h = 0;
  const Program *p = vm->p;
  const uint64_t *const *zob = vm->h.zob_base;
  for (int s = 0; s < p->nslots; s++) {
    int32_t v = vm->slots[s];
    /* A state set from outside (a database's key) may hold a value its
    ** slot cannot: hashed without the table, which it would overrun, so
    ** that the engine's `invalid` can say so (fuzz_db). */
    h ^= v >= p->lo[s] && v <= p->hi[s] ? aot_key(zob, s, v) : zobrist(s, v);
  }
  return h;
}

/* The state's hash recomputed (and, with a repetition rule in force, the
** history term of vm_hash, which is recorded, not incremental). */
uint64_t vm_hash_from_scratch(Game *g) {
  VM *vm = (VM *)g;
  vm_settle(vm);
  uint64_t h = slots_hash(vm);
  return vm->rep_on && vm->rep_in_key ? h ^ mix64(vm->rep_set[vm->nrep - 1] + 1) : h;
}

/* ------------------------------------------------------------------ */
/* The line of play, for the repetition rule                          */
/* ------------------------------------------------------------------ */

static uint64_t mix64(uint64_t x) {
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

/* Records the current position as position nmarks of the line.  0 when
** out of memory. */
static int rep_push(VM *vm) {
  int k = vm->h.nmarks, n = vm->rep_n;
  if (k >= vm->caprep) {
    int cap = vm->caprep ? vm->caprep * 2 : 64;
    uint64_t *h = realloc(vm->rep_hash, (size_t)cap * sizeof *h);
    if (h) vm->rep_hash = h;
    uint64_t *s = realloc(vm->rep_set, (size_t)cap * sizeof *s);
    if (s) vm->rep_set = s;
    int32_t *v = realloc(vm->rep_vals, (size_t)cap * (size_t)n * sizeof *v + 1);
    if (v) vm->rep_vals = v;
    if (!h || !s || !v) return 0;
    vm->caprep = cap;
  }
  /* The compared slots' Zobrist keys, mixed once: every move (and every
  ** candidate the generator tries) records its position, and a chain of
  ** one mix per slot was 15% of a 4x4 Go solve. */
  uint64_t h = 0x6a09e667f3bcc909ULL;
  const uint64_t *const *zob = vm->h.zob_base;
  int32_t *vals = vm->rep_vals + (size_t)k * (size_t)n;
  for (int i = 0; i < n; i++) {
    int s = vm->rep_slots[i];
    vals[i] = vm->slots[s];
    h ^= aot_key(zob, s, vals[i]);
  }
  h = mix64(h);
  vm->rep_hash[k] = h;
  vm->rep_set[k] = k == 0 ? 0 : vm->rep_set[k - 1] + mix64(vm->rep_hash[k - 1]);
  vm->nrep = k + 1;
  return 1;
}

/* 1 if the current position (the last recorded) repeats an earlier one.
** The test goes on the trace, and so does the earlier position matched. */
static int rep_repeats(VM *vm) {
  int k = vm->nrep - 1, n = vm->rep_n;
  const int32_t *cur = vm->rep_vals + (size_t)k * (size_t)n;
  if (vm->ntested <= VM_MAX_TRACE) vm->trace_tested[vm->ntested++] = vm->rep_hash[k];
  for (int i = 0; i < k; i++)
    if (vm->rep_hash[i] == vm->rep_hash[k] &&
        memcmp(vm->rep_vals + (size_t)i * (size_t)n, cur, (size_t)n * sizeof *cur) == 0) {
      if (vm->nhits <= VM_MAX_TRACE) {
        vm->trace_hit[vm->nhits] = vm->rep_hash[i];
        vm->trace_hit_index[vm->nhits++] = i;
      }
      return 1;
    }
  return 0;
}


/* ------------------------------------------------------------------ */
/* The game interface                                                 */
/* ------------------------------------------------------------------ */

static void vm_apply(Game *g, const Move *m);
static void vm_undo(Game *g);

static const void *vm_state(Game *g);
static int vm_to_move(Game *g);

/* vm_generate_keyed: the key and mover of the position after move i, the
** current one.  keyed counts the moves keyed from the first on. */
static void key_child(VM *vm, unsigned char *keys, uint8_t *mover, int i) {
  vm_canonical_key(&vm->base, vm_state(&vm->base), keys + (size_t)i * vm->base.key_bytes);
  mover[i] = (uint8_t)vm_to_move(&vm->base);
  if (vm->keyed == i) vm->keyed = i + 1;
}

static void vm_apply_steps(Game *g, const Move *m);

/* Each move is tried: its effect may say `illegal` (not in a game with
** moves of several steps, whose search drops those), and a move that
** recreates an earlier position is not legal under the repetition rule.
** Returns the moves kept.  `steps`: a constant in each copy below. */
static inline __attribute__((always_inline)) int filter_moves(VM *vm, Move *buf, int n, unsigned char *keys,
                                                              uint8_t *mover, int steps) {
  const Program *p = vm->p;
  Game *g = &vm->base;
  int repeat = p->rep_kind == REP_FORBIDDEN && vm->rep_on;
  int illegal = !steps && p->has_illegal;
  if (!repeat && !illegal) return n;
  int kept = 0;
  vm->filtering = 1;
  vm->fx_rec = vm_effects_begin(vm);
  for (int i = 0; i < n; i++) {
    Move m = buf[i];
    int nsteps;
    int rule = !steps || m.rule < VM_PACKED_RULE ? m.rule : vm_chain_steps(vm, &m, &nsteps)->rule;
    int check_rep = repeat && !p->rep_except[rule];
    int ok = 1;
    if (check_rep || illegal) {
      if (steps) vm_apply_steps(g, &m);
      else vm_apply(g, &m);
      ok = !vm->rejected && !(check_rep && rep_repeats(vm));
      if (!ok) vm_effects_drop_last(vm->fx_rec, &m);
      else if (keys) key_child(vm, keys, mover, kept);
      vm_undo(g);
    }
    if (ok) buf[kept++] = m;
  }
  vm_effects_seal(vm, vm->fx_rec);
  vm->fx_rec = NULL;
  vm->filtering = 0;
  return kept;
}

/* What generate does beyond the generator's moves, in a game that has
** moves of several steps, `illegal` or a forbidding repetition rule
** (vm->gen_more): the search for the whole moves (vm_chain.c), then the
** moves tried.  Returns the moves kept. */
static __attribute__((noinline)) int generate_more(VM *vm, Move *buf, int n, unsigned char *keys,
                                                   uint8_t *mover) {
  if (!vm->p->has_steps) return filter_moves(vm, buf, n, keys, mover, 0);
  n = vm_chain_generate(vm, buf, n);
  return filter_moves(vm, buf, n, keys, mover, 1);
}

static int vm_generate(Game *g, Move *buf) {
  VM *vm = (VM *)g;
  const Program *p = vm->p;
  vm_settle(vm);
  /* Taken at once: a runtime error leaves no request behind. */
  unsigned char *keys = vm->key_out;
  uint8_t *mover = vm->mover_out;
  vm->key_out = NULL;
  vm->keyed = 0;
  vm->movebuf = buf;
  vm->nmoves = 0;
  vm_run(vm, p->gen_chunk, NULL, 0);
  int n = vm->nmoves;
  if (vm->gen_more) n = generate_more(vm, buf, n, keys, mover);
  /* nomoves pass: a player without a move passes, until all have passed
  ** in a row (then nobody moves: vm_no_moves gives the outcome). */
  if (n == 0 && p->pass_slot && !(p->chance && vm->slots[0] == p->chance) &&
      vm->slots[p->pass_slot] < p->nplayers) {
    memset(&buf[0], 0, sizeof buf[0]);
    buf[0].rule = (uint16_t)p->pass_rule;
    n = 1;
  }
  return n;
}

/* vm_apply for a plain game (vm->plain): no chance, passes, views,
** repetition rule nor `illegal`, so none of their bookkeeping: the
** effect, then the next player.  The same writes, trail and hash. */
static __attribute__((noinline)) void apply_plain(VM *vm, const Move *m) {
  const Program *p = vm->p;
  int depth = vm->h.nmarks;
  int32_t mover = vm->slots[0];
  vm->h.marks[depth].trail = vm->h.ntrail;
  vm->h.marks[depth].mover = mover;
  vm->h.marks[depth].hash = vm->h.hash;
  vm->h.nmarks = depth + 1;
  const MoveRule *r = &p->rules[m->rule];
  int32_t args[GAME_MAX_ARGS];
  for (int i = 0; i < GAME_MAX_ARGS; i++) args[i] = m->arg[i];
  vm->h.writable = 1;
  vm->h.next_mover = 0;
  if (vm->rewarded) { memset(vm->reward, 0, sizeof vm->reward); vm->rewarded = 0; }
  vm->h.defer_now = vm->h.defer_on;
  vm->h.pend_chunk = r->effect;
  vm->h.pend_mover = mover;
  vm_run(vm, r->effect, args, r->nargs);
  vm->h.defer_now = 0;
  int32_t next = vm->h.next_mover ? vm->h.next_mover : mover < p->nplayers ? mover + 1 : 1;
  aot_set_mover(&vm->h, vm->slots, next);
  vm->h.writable = 0;
}

void vm_marks_reserve(VM *vm, int limit) {
  if (vm->h.nmarks < vm->h.capmarks) return;
  if (vm->h.capmarks >= limit) vm_fail(vm, -1, 0, EXIT_LIMIT, "line of play longer than %d moves", GAME_MAX_PLY);
  int cap = vm->h.capmarks ? vm->h.capmarks * 2 : 64;
  if (cap > limit) cap = limit;
  Mark *mk = realloc(vm->h.marks, (size_t)cap * sizeof *mk);
  if (!mk) vm_fail(vm, -1, 0, EXIT_LIMIT, "out of memory for the undo trail");
  vm->h.marks = mk;
  vm->h.capmarks = cap;
}

/* Everything else, and a plain game's first move or a deferred rest;
** `steps`: m is a move of several steps (vm_chain.c), a constant in each
** of the two copies below. */
static inline __attribute__((always_inline)) void apply_move(VM *vm, const Move *m, int steps) {
  const Program *p = vm->p;
  vm_settle(vm);
  /* Not 131072 marks: the limit is GAME_MAX_PLY. */
  if (vm->h.nmarks == vm->h.capmarks) vm_marks_reserve(vm, GAME_MAX_PLY + 64);
  int depth = vm->h.nmarks, trail_from = vm->h.ntrail;
  int32_t mover = vm->slots[0];
  vm->h.marks[depth].trail = trail_from;
  vm->h.marks[depth].mover = mover;
  vm->h.marks[depth].hash = vm->h.hash;
  vm->h.nmarks = depth + 1;
  if (depth + 1 < vm->fx_cap) vm_effects_void(vm, depth + 1);
  /* A move of several steps: r is its first step's rule (for the
  ** errors) once its steps have run. */
  const MoveRule *r = steps ? NULL : &p->rules[m->rule];
  int32_t args[GAME_MAX_ARGS];
  for (int i = 0; i < GAME_MAX_ARGS; i++) args[i] = m->arg[i];   /* all: no loop on nargs */
  vm->h.writable = 1;
  vm->h.next_mover = vm->chance_after = 0;
  vm->rejected = 0;
  if (vm->rewarded) { memset(vm->reward, 0, sizeof vm->reward); vm->rewarded = 0; }
  /* Where errors after the effect point: the effect. */
#define AT (p->chunks[r->effect].start)
  if (steps) {   /* never deferred (compiler/defer.c) nor recorded */
    r = &p->rules[vm_chain_play(vm, m)];
  } else if (vm->filtering) {
    vm_run(vm, r->effect, args, r->nargs);
    if (vm->fx_rec) vm_effects_record(vm, vm->fx_rec, m, trail_from);
  } else if (depth >= vm->fx_cap || !vm_effects_replay(vm, depth, m, AT)) {
    vm->h.defer_now = vm->h.defer_on;
    vm->h.pend_chunk = r->effect;
    vm->h.pend_mover = mover;
    vm_run(vm, r->effect, args, r->nargs);
    vm->h.defer_now = 0;
  }
  if (vm->rejected && !vm->filtering)
    vm_fail(vm, AT, 0, EXIT_RUNTIME, "the move is illegal ('illegal' in its effect), but it was played");
  int32_t next = vm->h.next_mover ? vm->h.next_mover
               : p->chance && mover == p->chance ? vm->slots[p->chance_slot]
               : (uint32_t)mover < (uint32_t)p->nplayers ? mover + 1   /* no division on the hot path */
               : mover % p->nplayers + 1;
  /* Chance hands the turn back to whoever gave it (or as `next chance, P`). */
  if (p->chance && next == p->chance && (vm->chance_after || mover != p->chance))
    store_slot(vm, p->chance_slot, vm->chance_after ? vm->chance_after : mover, AT);
  /* A player: next, mover + 1 and the chance slot are in slot 0's range. */
  aot_set_mover(&vm->h, vm->slots, next);
  if (p->pass_slot)   /* passes in a row: the built-in pass counts, any other move resets */
    store_slot(vm, p->pass_slot, m->rule == p->pass_rule ? vm->slots[p->pass_slot] + 1 : 0, AT);
  vm->h.writable = 0;
  if (vm->base.has_views) vm_views_observe(vm, mover, m);
  if (vm->rep_on && !rep_push(vm)) vm_fail(vm, AT, 0, EXIT_LIMIT, "out of memory for the line of play");
#undef AT
}

/* The short way first, in a function of its own: the general one's
** registers are not saved for it. */
static __attribute__((noinline)) void apply_full(VM *vm, const Move *m) { apply_move(vm, m, 0); }

/* The apply of a game with moves of several steps: a move of one step
** by the short way when the game allows it (never deferred). */
static void vm_apply_steps(Game *g, const Move *m) {
  VM *vm = (VM *)g;
  if (m->rule >= VM_PACKED_RULE) {
    apply_move(vm, m, 1);
  } else if (vm->steps_plain && vm->h.nmarks < vm->h.capmarks && vm->h.nmarks < GAME_MAX_PLY + 64) {
    if (vm->aot_play) vm->aot_play(&vm->aot_env, (const AotMove *)m);
    else apply_plain(vm, m);
  } else {
    apply_move(vm, m, 0);
  }
}

static void vm_apply(Game *g, const Move *m) {
  VM *vm = (VM *)g;
  if (vm->plain && !vm->h.pending && vm->h.nmarks < vm->h.capmarks) {
    if (vm->aot_play) vm->aot_play(&vm->aot_env, (const AotMove *)m);
    else apply_plain(vm, m);
  } else {
    apply_full(vm, m);
  }
}

static void vm_undo(Game *g) {
  VM *vm = (VM *)g;
  if (vm->h.nmarks == 0) return;
  vm->h.pending = 0;   /* the last move's deferred rest: never needed */
  Mark *mk = &vm->h.marks[--vm->h.nmarks];
  vm->nrep = vm->h.nmarks + 1;
  /* In locals: a slot write could alias vm->h.ntrail and the mark for
  ** the compiler, which would read them again after every write. */
  int n = vm->h.ntrail, from = mk->trail;
  int32_t mover = mk->mover;
  uint64_t hash = mk->hash;
  const int32_t *t = vm->h.trail;
  int32_t *slots = vm->slots;
  while (n > from) {
    n--;
    slots[t[2 * n]] = t[2 * n + 1];
  }
  vm->h.ntrail = n;
  slots[0] = mover;
  vm->h.hash = hash;
  /* The positions deeper than the current one are gone. */
  if (vm->h.nmarks < vm->pieces_depth) vm->pieces_depth = -1;
  if (vm->h.nmarks < vm->state_set_depth) vm->state_set_depth = vm->h.nmarks;
}

/* The rest of the last move's effect, left at its DEFER: run now, with
** the state as the effect left it (the mover it saw in slot 0; nothing
** else changed since).  Its writes go on the move's trail. */
void vm_force(VM *vm) {
  int32_t now = vm->slots[0];
  vm->h.pending = 0;
  vm->slots[0] = vm->h.pend_mover;
  vm->h.writable = 1;
  vm_run(vm, vm->h.pend_chunk, vm->h.pend_locals, -1);
  vm->h.writable = 0;
  vm->slots[0] = now;
}

/* Moves and their children's keys: made while generate tries the moves
** (a game with `illegal` or a forbidding repetition rule), else by playing
** each move here.  Every move generate kept was keyed, in order. */
static int vm_generate_keyed(Game *g, Move *buf, unsigned char *keys, uint8_t *mover) {
  VM *vm = (VM *)g;
  vm->key_out = keys;
  vm->mover_out = mover;
  int n = vm_generate(g, buf);
  for (int i = vm->keyed; i < n; i++) {
    g->vt->apply(g, &buf[i]);
    key_child(vm, keys, mover, i);
    vm_undo(g);
  }
  return n;
}

/* Runs an outcome block; 1 if it declared an outcome. */
static int run_outcome(VM *vm, int chunk, Outcome *out) {
  if (chunk < 0) return 0;
  vm->outcome_ok = 1;
  vm->ended = 0;
  vm_run(vm, chunk, NULL, 0);
  vm->outcome_ok = 0;
  if (vm->ended && out) *out = vm->out;
  return vm->ended;
}

static int vm_ended(Game *g, Outcome *out) {
  VM *vm = (VM *)g;
  const Program *p = vm->p;
  vm_settle(vm);
  if (p->outcome_slot && vm->slots[p->outcome_slot]) {   /* a move ended the game */
    if (out) {
      memset(out, 0, sizeof *out);
      for (int i = 0; i < p->nplayers; i++) out->payoff[i] = vm->slots[p->outcome_slot + 1 + i];
    }
    return 1;
  }
  if (vm->p->rep_kind == REP_DRAW && vm->rep_on && rep_repeats(vm)) {
    if (out) memset(out, 0, sizeof *out);
    return 1;
  }
  return run_outcome(vm, vm->p->end_chunk, out);
}

static void vm_no_moves(Game *g, Outcome *out) {
  VM *vm = (VM *)g;
  vm_settle(vm);
  if (run_outcome(vm, vm->p->nomoves_chunk, out)) return;
  if (vm->p->chance && vm->slots[0] == vm->p->chance)
    vm_fail(vm, vm->p->chunks[vm->p->gen_chunk].start, 0, EXIT_RUNTIME,
            "the chance player has no legal move and the nomoves block gives no outcome");
  if (vm->p->pass_slot) {   /* everyone passed: a draw unless the block said otherwise */
    memset(out, 0, sizeof *out);
    return;
  }
  /* Normal play: the player who cannot move loses. */
  memset(out, 0, sizeof *out);
  out->payoff[vm->slots[0] - 1] = -1;
}

/* `pieces ... check F`: F(the player to move); 0 at a chance node. */
static int vm_in_check(Game *g) {
  VM *vm = (VM *)g;
  vm_settle(vm);
  int32_t who = vm->slots[0];
  if (vm->p->check_chunk < 0 || (vm->p->chance && who == vm->p->chance)) return 0;
  return vm_run(vm, vm->p->check_chunk, &who, 1) != 0;
}

static int32_t vm_eval(Game *g) {
  VM *vm = (VM *)g;
  vm_settle(vm);
  if (vm->p->eval_chunk < 0) return 0;
  return vm_run(vm, vm->p->eval_chunk, NULL, 0);
}

/* The game's bound(p): the most p's margin can still be, whatever is
** played.  The mover's margin lies in [-bound(other), bound(mover)]; a
** bound below its opposite is an error in the rules. */
static int vm_bounds(Game *g, int32_t *lo, int32_t *hi) {
  VM *vm = (VM *)g;
  const Program *p = vm->p;
  vm_settle(vm);
  if (p->chance && vm->slots[0] == p->chance) return 0;
  int32_t me = vm->slots[0], other = 3 - me;
  *hi = vm_run(vm, p->bound_chunk, &me, 1);
  *lo = -vm_run(vm, p->bound_chunk, &other, 1);
  if (*lo > *hi)
    vm_fail(vm, p->chunks[p->bound_chunk].start, 0, EXIT_RUNTIME,
            "the bounds cross: bound(%s) is %d, but %s's margin is at least -bound(%s) = %d",
            p->players[me - 1], (int)*hi, p->players[me - 1], p->players[other - 1], (int)*lo);
  return 1;
}

static int vm_to_move(Game *g) {
  VM *vm = (VM *)g;
  return vm->p->chance && vm->slots[0] == vm->p->chance ? GAME_CHANCE : vm->slots[0] - 1;
}

static void vm_weights(Game *g, const Move *m, int n, uint32_t *w) {
  VM *vm = (VM *)g;
  const Program *p = vm->p;
  vm_settle(vm);
  uint64_t total = 0;
  for (int i = 0; i < n; i++) {
    const MoveRule *r = &p->rules[m[i].rule];
    int32_t args[GAME_MAX_ARGS], v = 1;
    if (r->weight >= 0) {
      for (int k = 0; k < r->nargs; k++) args[k] = m[i].arg[k];
      v = vm_run(vm, r->weight, args, r->nargs);
      if (v < 0)
        vm_fail(vm, p->chunks[r->weight].start, 0, EXIT_RUNTIME, "negative weight %d", (int)v);
    }
    w[i] = (uint32_t)v;
    total += (uint32_t)v;
  }
  if (n > 0 && total == 0)
    vm_fail(vm, p->chunks[p->rules[m[0].rule].weight].start, 0, EXIT_RUNTIME,
            "every chance move has weight 0");
}

static int vm_rewards(Game *g, int32_t *out) {
  VM *vm = (VM *)g;
  memcpy(out, vm->reward, (size_t)vm->p->nplayers * sizeof *out);
  return vm->rewarded;
}
/* With a repetition rule the legal moves depend on the earlier positions:
** their set goes into the hash and the packed key, so that tables never
** mix positions whose pasts differ (docs/cli.md). */
static uint64_t vm_hash(Game *g) {
  VM *vm = (VM *)g;
  vm_settle(vm);
  return vm->rep_on && vm->rep_in_key ? vm->h.hash ^ mix64(vm->rep_set[vm->nrep - 1] + 1) : vm->h.hash;
}

/* The history interface for searchers that handle the repetition rule
** themselves (game.h): the key without the earlier positions, the trace
** of the tests, and the line's positions. */
static void vm_history_key(Game *g, int on) { ((VM *)g)->rep_in_key = on; }

static int vm_history_trace(Game *g, HistoryTrace *t) {
  VM *vm = (VM *)g;
  int over = vm->ntested > VM_MAX_TRACE || vm->nhits > VM_MAX_TRACE;
  t->tested = vm->trace_tested;
  t->ntested = vm->ntested > VM_MAX_TRACE ? VM_MAX_TRACE : vm->ntested;
  t->hits = vm->trace_hit;
  t->hit_index = vm->trace_hit_index;
  t->nhits = vm->nhits > VM_MAX_TRACE ? VM_MAX_TRACE : vm->nhits;
  vm->ntested = vm->nhits = 0;
  return over ? -1 : 0;
}

static int vm_history_line(Game *g, const uint64_t **hashes) {
  VM *vm = (VM *)g;
  *hashes = vm->rep_hash;
  return vm->rep_on ? vm->nrep - 1 : 0;   /* the positions before the current one */
}

/* The per-cell ([board]) arrays of a state, in slot order. */
static void vm_board_key(Game *g, const void *state, void *out) {
  const Program *p = ((VM *)g)->p;
  const int32_t *s = state;
  int32_t *o = out;
  for (int i = 0; i < p->nvars; i++)
    if (p->vars[i].on_board) {
      memcpy(o, s + p->vars[i].base, (size_t)p->ncells * sizeof *o);
      o += p->ncells;
    }
}

static void vm_set_history(Game *g, int on) {
  VM *vm = (VM *)g;
  vm->rep_on = on && vm->p->rep_kind != REP_NONE;
  vm->base.has_history = vm->rep_on;
}
/* The state (and everything that reads it: the vtable's canonical, orbit,
** pack and board_key take it from here) with any deferred rest run. */
static const void *vm_state(Game *g) {
  VM *vm = (VM *)g;
  vm_settle(vm);
  return vm->slots;
}

/* Appends step m's notation in format `notation` (NULL: the rule's name
** and its arguments) to buf (size bytes) at *len, counting what does not
** fit. */
static void format_step(const Program *p, const Move *m, const char *notation, char *buf, size_t size,
                        size_t *len) {
  const MoveRule *r = &p->rules[m->rule];
  char val[64];
#define PUT(s, n) do { size_t k_ = (n); if (*len + k_ < size) { memcpy(buf + *len, (s), k_); } *len += k_; } while (0)
  if (!notation) {
    PUT(r->name, strlen(r->name));
    for (int i = 0; i < r->nargs; i++) {
      int n = program_format_value(p, r->arg[i], m->arg[i], val, sizeof val);
      PUT(" ", 1);
      PUT(val, (size_t)n);
    }
    return;
  }
  for (const char *s = notation; *s; s++) {
    if (s[0] == '{' && s[1] == '{') { PUT(s, 1); s++; continue; }   /* "{{": a literal '{' */
    const char *e = *s == '{' ? strchr(s, '}') : NULL;
    if (!e) { PUT(s, 1); continue; }
    for (int i = 0; i < r->nargs; i++) {
      if ((size_t)(e - s - 1) == strlen(r->argname[i]) && !strncmp(s + 1, r->argname[i], (size_t)(e - s - 1))) {
        int n = program_format_value(p, r->arg[i], m->arg[i], val, sizeof val);
        PUT(val, (size_t)n);
      }
    }
    s = e;
  }
#undef PUT
}

/* A move's notation: its steps' in turn, a later step in its rule's
** second format (`as "...", "..."`), or else after a space. */
static int vm_format_move(Game *g, const Move *m, char *buf, size_t size) {
  VM *vm = (VM *)g;
  const Program *p = vm->p;
  int nsteps;
  const Move *steps = vm_chain_steps(vm, m, &nsteps);
  size_t len = 0;
  for (int k = 0; k < nsteps; k++) {
    const MoveRule *r = &p->rules[steps[k].rule];
    if (k == 0) {
      format_step(p, &steps[k], r->notation, buf, size, &len);
    } else if (r->step_notation) {
      format_step(p, &steps[k], r->step_notation, buf, size, &len);
    } else {
      format_step(p, &steps[k], " ", buf, size, &len);
      format_step(p, &steps[k], r->notation, buf, size, &len);
    }
  }
  if (size) buf[len < size ? len : size - 1] = 0;
  return (int)len;
}

/* One character for a board value: '.' for empty, a player's initial,
** '?' where a view masks it. */
static char cell_char(const Program *p, Type t, int32_t v) {
  if (v == INT32_MIN) return '?';
  switch (t.kind) {
    case TY_PLAYER: return v == 0 ? '.' : p->players[v - 1][0];
    case TY_BOOL: return v ? '#' : '.';
    case TY_ENUM: return v == 0 ? '.' : p->enums[t.enum_id].members[v][0];
    default: return v == 0 ? '.' : v > 0 && v < 10 ? (char)('0' + v) : v >= 10 && v < 36 ? (char)('a' + v - 10) : '?';
  }
}

static void vm_print(Game *g, FILE *f) {
  VM *vm = (VM *)g;
  vm_settle(vm);
  vm_print_slots(vm, vm->slots, f);
}

void vm_print_slots(VM *vm, const int32_t *slots, FILE *f) {
  const Program *p = vm->p;
  char val[64];
  for (int i = 0; i < p->nvars; i++) {
    const StateVar *v = &p->vars[i];
    const int32_t *s = slots + v->base;
    if (v->on_board && p->board == BOARD_RECT) {
      for (int y = p->height - 1; y >= 0; y--) {
        fprintf(f, "%3d ", y + 1);
        for (int x = 0; x < p->width; x++) {
          int32_t c = s[y * p->width + x];
          /* The letters of `pieces`, on its array: value k + 1 is letters[k]. */
          int lettered = v->base == p->pieces_base && p->piece_letters && c > 0 &&
                         c <= (int32_t)strlen(p->piece_letters);
          fprintf(f, " %c", lettered ? p->piece_letters[c - 1] : cell_char(p, v->elem, c));
        }
        fputc('\n', f);
      }
      fprintf(f, "    ");
      for (int x = 0; x < p->width; x++) {
        Type ct = { TY_CELL, 0, 0, 0 };
        program_format_value(p, ct, x, val, sizeof val);
        val[strlen(val) - 1] = 0;  /* the column letters of "a1" */
        fprintf(f, " %s", val);
      }
      fputc('\n', f);
      continue;
    }
    int size = v->ndims == 0 ? 1 : v->ndims == 1 ? v->dim[0] : v->dim[0] * v->dim[1];
    fprintf(f, "%s = ", v->name);
    if (v->ndims) fputc('[', f);
    for (int k = 0; k < size; k++) {
      if (s[k] == INT32_MIN) strcpy(val, "?");
      else program_format_value(p, v->elem, s[k], val, sizeof val);
      fprintf(f, "%s%s", k ? (v->ndims == 2 && k % v->dim[1] == 0 ? "; " : ", ") : "", val);
    }
    if (v->ndims) fputc(']', f);
    fputc('\n', f);
  }
  fprintf(f, "to move: %s\n", p->chance && vm->slots[0] == p->chance ? "chance" : p->players[vm->slots[0] - 1]);
}

static void vm_set_state(Game *g, const void *state);

/* GameVtable.invalid: each slot in its declared range, each [board] array
** within its `at most N pieces`, then the game's valid block (0, or
** the number of the reason its `invalid` gave, counted from 1). */
static int vm_invalid(Game *g, char *why, size_t size) {
  VM *vm = (VM *)g;
  const Program *p = vm->p;
  char name[96];
  vm_settle(vm);
  for (int s = 0; s < p->nslots; s++) {
    int32_t v = vm->slots[s];
    if (v >= p->lo[s] && v <= p->hi[s]) continue;
    program_slot_name(p, s, name, sizeof name);
    snprintf(why, size, "%s is %d, outside its range %d..%d", name, (int)v, (int)p->lo[s], (int)p->hi[s]);
    return 1;
  }
  for (int i = 0; i < p->nvars; i++) {
    const StateVar *v = &p->vars[i];
    int n = 0;
    if (!v->max_pieces) continue;
    for (int c = 0; c < p->ncells; c++) n += vm->slots[v->base + c] != p->lo[v->base + c];
    if (n > v->max_pieces) {
      snprintf(why, size, "%d pieces in '%s', more than its 'at most %d pieces' allows", n, v->name,
               v->max_pieces);
      return 1;
    }
  }
  if (p->valid_chunk < 0) return 0;
  int32_t k = vm_run(vm, p->valid_chunk, NULL, 0);
  if (k <= 0 || k > p->ninvalid) return 0;
  snprintf(why, size, "%s", p->invalid_reasons[k - 1]);
  return 1;
}

/* Games without symmetry have no canonical method. */
#define VM_METHODS \
  .generate = vm_generate, .apply = vm_apply, .undo = vm_undo, .ended = vm_ended,          \
  .no_moves = vm_no_moves, .eval = vm_eval, .to_move = vm_to_move, .hash = vm_hash,        \
  .state = vm_state, .format_move = vm_format_move, .print = vm_print, .pack = vm_pack,    \
  .set_state = vm_set_state, .unpack = vm_unpack,                                          \
  .weights = vm_weights, .rewards = vm_rewards, .set_history = vm_set_history,             \
  .history_key = vm_history_key, .history_trace = vm_history_trace,                        \
  .history_line = vm_history_line, .in_check = vm_in_check, .invalid = vm_invalid
static const GameVtable vm_vtable = { VM_METHODS };
static const GameVtable vm_vtable_symmetric = { VM_METHODS, .canonical = vm_canonical,
                                                .orbit = vm_orbit, .canonical_key = vm_canonical_key,
                                                .symmetries = vm_symmetries,
                                                .symmetry_image = vm_symmetry_image,
                                                .generate_keyed = vm_generate_keyed };

/* A raw state as the current position: slots and hash.  The trail is
** kept: a caller that set a state after applying moves sets the state
** it left back before undoing them. */
static void vm_set_state(Game *g, const void *state) {
  VM *vm = (VM *)g;
  vm_settle(vm);   /* the trail holds the whole move, as the caller expects */
  memcpy(vm->slots, state, (size_t)vm->p->nslots * sizeof(int32_t));
  /* Not vm_hash_from_scratch: the earlier positions' part is vm_hash's. */
  vm->h.hash = slots_hash(vm);
  vm_effects_void(vm, vm->h.nmarks);
  vm->pieces_depth = -1;
  if (vm->h.nmarks > vm->state_set_depth) vm->state_set_depth = vm->h.nmarks;
}

/* zobrist(s, v) is tabled for every slot value when there are few
** enough of them.  Decided from the program alone: the compiled tier's
** stores read the table unchecked when it exists. */
size_t vm_zobrist_entries(const Program *p) {
  size_t total = 0;
  for (int s = 0; s < p->nslots; s++) {
    total += (size_t)((int64_t)p->hi[s] - p->lo[s] + 1);
    if (total > VM_MAX_ZOBRIST_TABLE) return 0;
  }
  return total;
}

/* The table (vm_zobrist_entries); the keys are the same as computed
** ones, so it is only a cache.  0 when out of memory. */
static int build_zobrist_table(VM *vm) {
  const Program *p = vm->p;
  size_t total = vm_zobrist_entries(p);
  if (total == 0) return 1;
  vm->zob_table = malloc(total * sizeof *vm->zob_table);
  vm->h.zob_base = malloc((size_t)p->nslots * sizeof *vm->h.zob_base);
  if (!vm->zob_table || !vm->h.zob_base) return 0;   /* vm_free frees either */
  uint64_t *t = vm->zob_table;
  for (int s = 0; s < p->nslots; s++) {
    for (int64_t v = p->lo[s]; v <= p->hi[s]; v++) t[v - p->lo[s]] = zobrist(s, (int32_t)v);
    vm->h.zob_base[s] = t - p->lo[s];
    t += p->hi[s] - p->lo[s] + 1;
  }
  return 1;
}

/* Runs the start block, which writes the start position (nothing to
** undo).  0 after a runtime error in it, already reported. */
static int run_start(VM *vm) {
  jmp_buf trap;
  vm->base.trap = &trap;
  if (setjmp(trap)) { vm->base.trap = NULL; return 0; }
  vm->h.writable = 1;
  vm->h.next_mover = vm->chance_after = 0;
  vm_run(vm, vm->p->start_chunk, NULL, 0);
  if (vm->p->chance && vm->h.next_mover == vm->p->chance)
    vm->slots[vm->p->chance_slot] = vm->chance_after ? vm->chance_after : vm->slots[0];
  if (vm->h.next_mover) vm->slots[0] = vm->h.next_mover;
  vm->h.writable = 0;
  vm->h.ntrail = 0;
  vm->base.trap = NULL;
  return 1;
}

Game *vm_new(const Program *p, int *status) {
  return vm_new_compiled(p, NULL, NULL, NULL, status);
}

Game *vm_new_compiled(const Program *p, const AotModule *m, void *handle, void (*release)(void *handle),
                      int *status) {
  *status = EXIT_LIMIT;
  VM *vm = calloc(1, sizeof *vm);
  if (!vm) { if (release) release(handle); return NULL; }
  vm->p = p;
  vm->pieces_depth = -1;
  if (m) vm_aot_attach(vm, m, handle, release);
  vm->code = vm_fuse(p);
  vm->slots = malloc((size_t)p->nslots * sizeof(int32_t));
  vm->stack = malloc((size_t)VM_STACK_WORDS * sizeof(int32_t));
  vm->scratch = malloc((size_t)p->nslots * sizeof(int32_t));
  vm->aot_env.slots = vm->slots;
  if (!vm->code || !vm->slots || !vm->stack || !vm->scratch) { vm_free(&vm->base); return NULL; }
  memcpy(vm->slots, p->init, (size_t)p->nslots * sizeof(int32_t));
  Game *g = &vm->base;
  g->vt = p->nsym > 1 || p->npermute ? &vm_vtable_symmetric : &vm_vtable;
  /* The [board] arrays, in slot order, for canonical forms. */
  vm->board_base = malloc((size_t)(p->nvars + 1) * sizeof *vm->board_base);
  if (!vm->board_base) { vm_free(&vm->base); return NULL; }
  for (int i = 0; i < p->nvars; i++)
    if (p->vars[i].on_board) vm->board_base[vm->nboard++] = p->vars[i].base;
  for (int i = 0; i < p->npermute; i++)
    vm->permute_on_board |= p->vars[p->permute_vars[i]].on_board;
  if (p->nsym > 1 && !vm_symmetry_trie(vm)) { vm_free(&vm->base); return NULL; }
  /* vm_canonical_key's canonical form (symmetries or permutable arrays). */
  if ((p->nsym > 1 || p->npermute) &&
      !(vm->canon_state = malloc((size_t)p->nslots * sizeof *vm->canon_state))) {
    vm_free(&vm->base);
    return NULL;
  }
  g->engine = m ? "compiled" : "vm";
  g->destroy = vm_free;
  g->name = p->name;
  g->nplayers = p->nplayers;
  for (int i = 0; i < p->nplayers; i++) g->player_names[i] = p->players[i];
  g->state_bytes = (size_t)p->nslots * sizeof(int32_t);
  g->has_chance = p->chance != 0;
  for (int i = 0; i < p->nvars; i++)
    if (p->vars[i].on_board) g->board_bytes += (size_t)p->ncells * sizeof(int32_t);
  if (g->board_bytes) g->board_key = vm_board_key;
  if (p->bound_chunk >= 0 && p->nplayers == 2) g->bounds = vm_bounds;
  g->has_rewards = p->has_pay;
  g->margin_bound = p->has_pay || p->has_score ? 0 : 1;
  g->score_only = p->score_only;
  if (p->components_var >= 0) {
    g->comp_slot = p->vars[p->components_var].base;
    g->comp_count = p->vars[p->components_var].dim[0];
  }
  g->has_eval = p->eval_chunk >= 0;
  if (!vm_pack_init(vm)) { vm_free(g); return NULL; }
  if (p->has_steps) {   /* its own apply, for moves of several steps */
    if (!vm_chain_init(vm)) { vm_free(g); return NULL; }
    vm->vt_steps = *g->vt;
    vm->vt_steps.apply = vm_apply_steps;
    g->vt = &vm->vt_steps;
  }
  /* Deferred rests (compiler/defer.c): never while views observe each
  ** move or generate filters moves by playing them. */
  int defer_locals = 0;
  for (int i = 0; i < p->nrules; i++) {
    const Chunk *ch = &p->chunks[p->rules[i].effect];
    if (ch->nlocals > defer_locals) defer_locals = ch->nlocals;
  }
  vm->h.pend_locals = malloc((size_t)defer_locals * sizeof *vm->h.pend_locals + 1);
  if (!vm->h.pend_locals) { vm_free(g); return NULL; }
  vm->h.defer_on = p->nhidden == 0 && !p->has_illegal && p->rep_kind == REP_NONE && !p->has_steps;
  vm->gen_more = p->has_steps || p->has_illegal || p->rep_kind == REP_FORBIDDEN;
  vm->plain = vm->h.defer_on && !p->chance && !p->pass_slot;
  vm->steps_plain = p->has_steps && p->nhidden == 0 && !p->has_illegal && p->rep_kind == REP_NONE &&
                    !p->chance && !p->pass_slot;
  /* The compiled tier's own apply_plain, for games without `pay` (whose
  ** rewards apply_plain resets). */
  if (vm->aot && (vm->plain || vm->steps_plain) && !p->has_pay) vm->aot_play = vm->aot->play;
  /* Before the start block: the compiled tier's stores read the table. */
  if (!build_zobrist_table(vm)) { vm_free(g); return NULL; }
  if (p->start_chunk >= 0 && !run_start(vm)) {
    *status = g->error_status;
    vm_free(g);
    return NULL;
  }
  vm->h.hash = slots_hash(vm);
  if (p->rep_kind != REP_NONE) {
    for (int i = 0; i < p->nslots; i++) vm->rep_n += p->rep_mask[i];
    vm->rep_slots = malloc((size_t)vm->rep_n * sizeof *vm->rep_slots + 1);
    if (!vm->rep_slots) { vm_free(g); return NULL; }
    for (int i = 0, k = 0; i < p->nslots; i++)
      if (p->rep_mask[i]) vm->rep_slots[k++] = i;
    if (!rep_push(vm)) { vm_free(g); return NULL; }
    vm_set_history(g, 1);
    vm->rep_in_key = 1;
  }
  if (p->nhidden > 0) {
    /* Hidden information: the vtable gains infostate and print_view. */
    vm->vt_views = *g->vt;
    vm->vt_views.infostate = vm_infostate;
    vm->vt_views.print_view = vm_print_view;
    g->vt = &vm->vt_views;
    g->has_views = 1;
    int ok = vm_views_init(vm);
    if (ok <= 0) {
      *status = ok < 0 ? g->error_status : EXIT_LIMIT;
      vm_free(g);
      return NULL;
    }
  }
  *status = EXIT_OK;
  return g;
}

void vm_free(Game *g) {
  if (!g) return;
  VM *vm = (VM *)g;
  if (vm->aot_release) vm->aot_release(vm->aot_handle);
  free(vm->slots);
  free(vm->stack);
  free(vm->scratch);
  free(vm->board_base);
  free(vm->sym_sorted);
  free(vm->sym_next);
  free(vm->live);
  free(vm->sym_inverse);
  free(vm->canon_state);
  free(vm->sym_bit);
  free(vm->cell_of_slot);
  vm_effects_free(vm);
  vm_pack_free(vm);
  vm_chain_free(vm);
  free(vm->h.pend_locals);
  free(vm->code);
  free(vm->zob_table);
  free(vm->h.zob_base);
  free(vm->h.trail);
  free(vm->h.marks);
  free(vm->rep_slots);
  free(vm->rep_hash);
  free(vm->rep_set);
  free(vm->rep_vals);
  vm_views_free(vm);
  free(vm);
}
