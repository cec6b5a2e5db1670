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

/* The state's hash recomputed (and, with a repetition rule in force, the
** history term of vm_hash, which is recorded, not incremental). */
/* The hash of the slots alone: what vm->hash keeps up to date. */
static uint64_t slots_hash(const VM *vm) {
  uint64_t h = 0;
  for (int s = 0; s < vm->p->nslots; s++) h ^= zobrist(s, vm->slots[s]);
  return h;
}

/* The game's hash (vm_hash): the slots' and, with a repetition rule in
** the key, the earlier positions'. */
uint64_t vm_hash_from_scratch(Game *g) {
  VM *vm = (VM *)g;
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
  int k = vm->nmarks, n = vm->rep_n;
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
  uint64_t h = 0x6a09e667f3bcc909ULL;
  int32_t *vals = vm->rep_vals + (size_t)k * (size_t)n;
  for (int i = 0; i < n; i++) {
    vals[i] = vm->slots[vm->rep_slots[i]];
    h = mix64(h ^ ((uint64_t)(uint32_t)vals[i] << 20 ^ (uint64_t)i));
  }
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
  if (vm->ntested <= GAME_MAX_MOVES) vm->trace_tested[vm->ntested++] = vm->rep_hash[k];
  for (int i = 0; i < k; i++)
    if (vm->rep_hash[i] == vm->rep_hash[k] &&
        memcmp(vm->rep_vals + (size_t)i * (size_t)n, cur, (size_t)n * sizeof *cur) == 0) {
      if (vm->nhits <= GAME_MAX_MOVES) {
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

static int vm_generate(Game *g, Move *buf) {
  VM *vm = (VM *)g;
  const Program *p = vm->p;
  vm->movebuf = buf;
  vm->nmoves = 0;
  vm_run(vm, p->gen_chunk, NULL, 0);
  int n = vm->nmoves;
  int repeat = p->rep_kind == REP_FORBIDDEN && vm->rep_on;
  if (repeat || p->has_illegal) {
    /* Each move is tried: its effect may say `illegal`, and a move that
    ** recreates an earlier position is not legal under the rule. */
    int kept = 0;
    vm->filtering = 1;
    vm->fx_rec = vm_effects_begin(vm);
    for (int i = 0; i < n; i++) {
      Move m = buf[i];
      int check_rep = repeat && !p->rep_except[m.rule];
      int ok = 1;
      if (check_rep || p->has_illegal) {
        vm_apply(g, &m);
        ok = !vm->rejected && !(check_rep && rep_repeats(vm));
        if (!ok) vm_effects_drop_last(vm->fx_rec, &m);
        vm_undo(g);
      }
      if (ok) buf[kept++] = m;
    }
    vm_effects_seal(vm, vm->fx_rec);
    vm->fx_rec = NULL;
    vm->filtering = 0;
    n = kept;
  }
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

static void vm_apply(Game *g, const Move *m) {
  VM *vm = (VM *)g;
  const Program *p = vm->p;
  if (vm->nmarks == vm->capmarks) {
    if (vm->capmarks >= GAME_MAX_PLY + 64) vm_fail(vm, -1, 0, EXIT_LIMIT, "line of play longer than %d moves", GAME_MAX_PLY);
    int cap = vm->capmarks ? vm->capmarks * 2 : 64;
    if (cap > GAME_MAX_PLY + 64) cap = GAME_MAX_PLY + 64;   /* not 131072: the limit is GAME_MAX_PLY */
    Mark *mk = realloc(vm->marks, (size_t)cap * sizeof *mk);
    if (!mk) vm_fail(vm, -1, 0, EXIT_LIMIT, "out of memory for the undo trail");
    vm->marks = mk;
    vm->capmarks = cap;
  }
  int depth = vm->nmarks, trail_from = vm->h.ntrail;
  vm->marks[vm->nmarks].trail = vm->h.ntrail;
  vm->marks[vm->nmarks].hash = vm->h.hash;
  vm->nmarks++;
  vm_effects_void(vm, depth + 1);
  const MoveRule *r = &p->rules[m->rule];
  int32_t args[GAME_MAX_ARGS];
  for (int i = 0; i < GAME_MAX_ARGS; i++) args[i] = m->arg[i];   /* all: no loop on nargs */
  int32_t mover = vm->slots[0];
  vm->h.writable = 1;
  vm->next_mover = vm->chance_after = 0;
  vm->rejected = 0;
  if (vm->rewarded) { memset(vm->reward, 0, sizeof vm->reward); vm->rewarded = 0; }
  int at = p->chunks[r->effect].start;
  if (vm->filtering) {
    vm_run(vm, r->effect, args, r->nargs);
    if (vm->fx_rec) vm_effects_record(vm, vm->fx_rec, m, trail_from);
  } else if (!vm_effects_replay(vm, depth, m, at)) {
    vm_run(vm, r->effect, args, r->nargs);
  }
  if (vm->rejected && !vm->filtering)
    vm_fail(vm, at, 0, EXIT_RUNTIME, "the move is illegal ('illegal' in its effect), but it was played");
  int32_t next = vm->next_mover ? vm->next_mover
               : p->chance && mover == p->chance ? vm->slots[p->chance_slot]
               : (uint32_t)mover < (uint32_t)p->nplayers ? mover + 1   /* no division on the hot path */
               : mover % p->nplayers + 1;
  /* Chance hands the turn back to whoever gave it (or as `next chance, P`). */
  if (p->chance && next == p->chance && (vm->chance_after || mover != p->chance))
    store_slot(vm, p->chance_slot, vm->chance_after ? vm->chance_after : mover, at);
  store_slot(vm, 0, next, at);
  if (p->pass_slot)   /* passes in a row: the built-in pass counts, any other move resets */
    store_slot(vm, p->pass_slot, m->rule == p->pass_rule ? vm->slots[p->pass_slot] + 1 : 0, at);
  vm->h.writable = 0;
  if (vm->base.has_views) vm_views_observe(vm, mover, m);
  if (vm->rep_on && !rep_push(vm)) vm_fail(vm, at, 0, EXIT_LIMIT, "out of memory for the line of play");
}

static void vm_undo(Game *g) {
  VM *vm = (VM *)g;
  if (vm->nmarks == 0) return;
  Mark *mk = &vm->marks[--vm->nmarks];
  vm->nrep = vm->nmarks + 1;
  /* In locals: a slot write could alias vm->h.ntrail for the compiler. */
  int n = vm->h.ntrail;
  const int32_t *t = vm->h.trail;
  int32_t *slots = vm->slots;
  while (n > mk->trail) {
    n--;
    slots[t[2 * n]] = t[2 * n + 1];
  }
  vm->h.ntrail = n;
  vm->h.hash = mk->hash;
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
  int32_t who = vm->slots[0];
  if (vm->p->check_chunk < 0 || (vm->p->chance && who == vm->p->chance)) return 0;
  return vm_run(vm, vm->p->check_chunk, &who, 1) != 0;
}

static int32_t vm_eval(Game *g) {
  VM *vm = (VM *)g;
  if (vm->p->eval_chunk < 0) return 0;
  return vm_run(vm, vm->p->eval_chunk, NULL, 0);
}

/* The game's bound(p): the most p's margin can still be, whatever is
** played.  The mover's margin lies in [-bound(other), bound(mover)]; a
** bound below its opposite is an error in the rules. */
static int vm_bounds(Game *g, int32_t *lo, int32_t *hi) {
  VM *vm = (VM *)g;
  const Program *p = vm->p;
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
  return vm->rep_on && vm->rep_in_key ? vm->h.hash ^ mix64(vm->rep_set[vm->nrep - 1] + 1) : vm->h.hash;
}

/* The history interface for searchers that handle the repetition rule
** themselves (game.h): the key without the earlier positions, the trace
** of the tests, and the line's positions. */
static void vm_history_key(Game *g, int on) { ((VM *)g)->rep_in_key = on; }

static int vm_history_trace(Game *g, HistoryTrace *t) {
  VM *vm = (VM *)g;
  int over = vm->ntested > GAME_MAX_MOVES || vm->nhits > GAME_MAX_MOVES;
  t->tested = vm->trace_tested;
  t->ntested = vm->ntested > GAME_MAX_MOVES ? GAME_MAX_MOVES : vm->ntested;
  t->hits = vm->trace_hit;
  t->hit_index = vm->trace_hit_index;
  t->nhits = vm->nhits > GAME_MAX_MOVES ? GAME_MAX_MOVES : vm->nhits;
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
static const void *vm_state(Game *g) { return ((VM *)g)->slots; }

static int vm_format_move(Game *g, const Move *m, char *buf, size_t size) {
  VM *vm = (VM *)g;
  const Program *p = vm->p;
  const MoveRule *r = &p->rules[m->rule];
  size_t len = 0;
  char val[64];
#define PUT(s, n) do { size_t k_ = (n); if (len + k_ < size) { memcpy(buf + len, (s), k_); } len += k_; } while (0)
  if (!r->notation) {
    PUT(r->name, strlen(r->name));
    for (int i = 0; i < r->nargs; i++) {
      int n = program_format_value(p, r->arg[i], m->arg[i], val, sizeof val);
      PUT(" ", 1);
      PUT(val, (size_t)n);
    }
  } else {
    for (const char *s = r->notation; *s; s++) {
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
  }
#undef PUT
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
        for (int x = 0; x < p->width; x++) fprintf(f, " %c", cell_char(p, v->elem, s[y * p->width + x]));
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

static void vm_canonical(Game *g, const void *state, void *result);

static void vm_pack(Game *g, const void *state, void *key);
static void vm_set_state(Game *g, const void *state);
static void vm_unpack(Game *g, const void *key, void *state);

/* Games without symmetry have no canonical method. */
#define VM_METHODS \
  .generate = vm_generate, .apply = vm_apply, .undo = vm_undo, .ended = vm_ended,          \
  .no_moves = vm_no_moves, .eval = vm_eval, .to_move = vm_to_move, .hash = vm_hash,        \
  .state = vm_state, .format_move = vm_format_move, .print = vm_print, .pack = vm_pack,    \
  .set_state = vm_set_state, .unpack = vm_unpack,                                          \
  .weights = vm_weights, .rewards = vm_rewards, .set_history = vm_set_history,             \
  .history_key = vm_history_key, .history_trace = vm_history_trace,                        \
  .history_line = vm_history_line, .in_check = vm_in_check
static const GameVtable vm_vtable = { VM_METHODS };
static uint32_t vm_orbit(Game *g, const void *state);
static const GameVtable vm_vtable_symmetric = { VM_METHODS, .canonical = vm_canonical,
                                                .orbit = vm_orbit };

/* A raw state as the current position: slots and hash.  The trail is
** kept: a caller that set a state after applying moves sets the state
** it left back before undoing them. */
static void vm_set_state(Game *g, const void *state) {
  VM *vm = (VM *)g;
  memcpy(vm->slots, state, (size_t)vm->p->nslots * sizeof(int32_t));
  /* Not vm_hash_from_scratch: the earlier positions' part is vm_hash's. */
  vm->h.hash = slots_hash(vm);
  vm_effects_void(vm, vm->nmarks);
}

/* Bits for the values lo..hi of a slot. */
static int slot_bits(int32_t lo, int32_t hi) {
  uint64_t span = (uint64_t)((int64_t)hi - lo);
  int b = 0;
  while (span >> b) b++;
  return b;
}

/* Packs each slot's value - lo into its bit width, in slot order. */
static void vm_pack(Game *g, const void *state, void *key) {
  const VM *vm = (const VM *)g;
  const Program *p = vm->p;
  const int32_t *s = state;
  unsigned char *out = key;
  /* Slots at their lowest value (a board's empty cells) add no bits: only
  ** the others are written, each at its offset (a slot has at most 32
  ** bits, so it spans at most 5 bytes). */
  memset(out, 0, g->key_bytes);
  size_t off = 0;
  for (int i = 0; i < p->nslots; i++) {
    if (vm->zero_run[i] >= 4) {
      uint64_t w[2];
      memcpy(w, s + i, sizeof w);
      if ((w[0] | w[1]) == 0) {
        off += 4 * (size_t)vm->bits[i];
        i += 3;
        continue;
      }
    }
    uint64_t v = (uint64_t)((int64_t)s[i] - p->lo[i]);
    if (v) {
      unsigned char *o = out + (off >> 3);
      v <<= off & 7;
      do { *o++ |= (unsigned char)v; v >>= 8; } while (v);
    }
    off += vm->bits[i];
  }
  size_t k = (off + 7) / 8;
  if (p->rep_kind != REP_NONE) {
    uint64_t set = vm->rep_on && vm->rep_in_key && state == vm->slots ? vm->rep_set[vm->nrep - 1] : 0;
    for (int i = 0; i < 8; i++) out[k++] = (unsigned char)(set >> (8 * i));
  }
}

/* vm_pack's inverse: each slot's bits, in slot order, plus lo. */
static void vm_unpack(Game *g, const void *key, void *state) {
  const VM *vm = (const VM *)g;
  const Program *p = vm->p;
  const unsigned char *in = key;
  int32_t *s = state;
  size_t bit = 0;
  for (int i = 0; i < p->nslots; i++) {
    uint64_t v = 0;
    for (int b = 0; b < vm->bits[i]; b++, bit++)
      v |= (uint64_t)((in[bit >> 3] >> (bit & 7)) & 1) << b;
    s[i] = (int32_t)((int64_t)p->lo[i] + (int64_t)v);
  }
}

/* Tables zobrist(s, v) for every slot value when that is small; the keys
** are the same as computed ones, so the table is only a cache. */
static void build_zobrist_table(VM *vm) {
  const Program *p = vm->p;
  size_t total = 0;
  for (int s = 0; s < p->nslots; s++) {
    total += (size_t)((int64_t)p->hi[s] - p->lo[s] + 1);
    if (total > VM_MAX_ZOBRIST_TABLE) return;
  }
  vm->zob_table = malloc(total * sizeof *vm->zob_table);
  vm->h.zob_base = malloc((size_t)p->nslots * sizeof *vm->h.zob_base);
  if (!vm->zob_table || !vm->h.zob_base) {
    free(vm->zob_table);
    free(vm->h.zob_base);
    vm->zob_table = NULL;
    vm->h.zob_base = NULL;
    return;
  }
  uint64_t *t = vm->zob_table;
  for (int s = 0; s < p->nslots; s++) {
    for (int64_t v = p->lo[s]; v <= p->hi[s]; v++) t[v - p->lo[s]] = zobrist(s, (int32_t)v);
    vm->h.zob_base[s] = t - p->lo[s];
    t += p->hi[s] - p->lo[s] + 1;
  }
}

/* Runs the start block, which writes the start position (nothing to
** undo).  0 after a runtime error in it, already reported. */
static int run_start(VM *vm) {
  jmp_buf trap;
  vm->base.trap = &trap;
  if (setjmp(trap)) { vm->base.trap = NULL; return 0; }
  vm->h.writable = 1;
  vm->next_mover = vm->chance_after = 0;
  vm_run(vm, vm->p->start_chunk, NULL, 0);
  if (vm->p->chance && vm->next_mover == vm->p->chance)
    vm->slots[vm->p->chance_slot] = vm->chance_after ? vm->chance_after : vm->slots[0];
  if (vm->next_mover) vm->slots[0] = vm->next_mover;
  vm->h.writable = 0;
  vm->h.ntrail = 0;
  vm->base.trap = NULL;
  return 1;
}

/* The group's elements sorted by their cell sequences (element e before f
** when e's sequence is smaller), and for each cell c and element i the
** first element after i that differs from it in cells 0..c: the trie
** vm_canonical walks.  0 when out of memory. */
typedef struct SymRow { const int32_t *cells; int nc; } SymRow;

static int cmp_rows(const void *a, const void *b) {
  const SymRow *x = a, *y = b;
  for (int c = 0; c < x->nc; c++)
    if (x->cells[c] != y->cells[c]) return x->cells[c] < y->cells[c] ? -1 : 1;
  return 0;
}

static int vm_symmetry_trie(VM *vm) {
  const Program *p = vm->p;
  int G = p->nsym, nc = p->ncells;
  SymRow *order = malloc((size_t)G * sizeof *order);
  vm->sym_sorted = malloc((size_t)G * nc * sizeof *vm->sym_sorted);
  vm->sym_next = malloc((size_t)G * nc * sizeof *vm->sym_next);
  vm->live = malloc((size_t)4 * G * sizeof *vm->live);
  vm->sym_inverse = malloc((size_t)G * nc * sizeof *vm->sym_inverse);
  if (!order || !vm->sym_sorted || !vm->sym_next || !vm->live || !vm->sym_inverse) {
    free(order);
    return 0;
  }
  for (int i = 0; i < G; i++) order[i] = (SymRow){ p->sym + (size_t)i * nc, nc };
  qsort(order, (size_t)G, sizeof *order, cmp_rows);
  for (int i = 0; i < G; i++)
    memcpy(vm->sym_sorted + (size_t)i * nc, order[i].cells, (size_t)nc * sizeof(int32_t));
  free(order);
  for (int i = 0; i < G; i++)
    for (int c = 0; c < nc; c++)
      vm->sym_inverse[(size_t)i * nc + vm->sym_sorted[(size_t)i * nc + c]] = c;
  for (int i = G - 1; i >= 0; i--) {
    /* lcp: how many leading cells element i shares with element i + 1. */
    int lcp = 0;
    if (i + 1 < G)
      while (lcp < nc && vm->sym_sorted[(size_t)i * nc + lcp] == vm->sym_sorted[(size_t)(i + 1) * nc + lcp]) lcp++;
    for (int c = 0; c < nc; c++)
      vm->sym_next[(size_t)c * G + i] = c < lcp ? vm->sym_next[(size_t)c * G + i + 1] : i + 1;
  }
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
  if (m) vm_aot_attach(vm, m, handle, release);
  vm->slots = malloc((size_t)p->nslots * sizeof(int32_t));
  vm->stack = malloc((size_t)VM_STACK_WORDS * sizeof(int32_t));
  vm->scratch = malloc((size_t)p->nslots * sizeof(int32_t));
  vm->aot_env.slots = vm->slots;
  if (!vm->slots || !vm->stack || !vm->scratch) { vm_free(&vm->base); return NULL; }
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
  vm->bits = malloc((size_t)p->nslots);
  if (!vm->bits) { vm_free(g); return NULL; }
  size_t total = 0;
  for (int i = 0; i < p->nslots; i++) total += vm->bits[i] = (uint8_t)slot_bits(p->lo[i], p->hi[i]);
  /* Runs of slots with lowest value 0 and one width (a board's cells),
  ** which vm_pack skips four at a time while they are 0. */
  vm->zero_run = malloc((size_t)p->nslots + 1);
  if (!vm->zero_run) { vm_free(g); return NULL; }
  for (int i = p->nslots - 1; i >= 0; i--) {
    int next = i + 1 < p->nslots && p->lo[i + 1] == 0 && vm->bits[i + 1] == vm->bits[i] ? vm->zero_run[i + 1] : 0;
    vm->zero_run[i] = (uint8_t)(p->lo[i] != 0 ? 0 : next < 255 ? next + 1 : 255);
  }
  g->key_bytes = (total + 7) / 8 ? (total + 7) / 8 : 1;
  if (p->rep_kind != REP_NONE) g->key_bytes = (total + 7) / 8 + 8;
  if (p->start_chunk >= 0 && !run_start(vm)) {
    *status = g->error_status;
    vm_free(g);
    return NULL;
  }
  build_zobrist_table(vm);
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
  vm_effects_free(vm);
  free(vm->bits);
  free(vm->zero_run);
  free(vm->zob_table);
  free(vm->h.zob_base);
  free(vm->h.trail);
  free(vm->marks);
  free(vm->rep_slots);
  free(vm->rep_hash);
  free(vm->rep_set);
  free(vm->rep_vals);
  vm_views_free(vm);
  free(vm);
}

/* Canonical form under the declared symmetries: the image whose slot
** values, read in slot order, are smallest (any fixed total order would
** do), with the permutable arrays sorted.  Only the [board] arrays move,
** so each group element is compared on their slots alone, and the
** comparison stops at the first slot that differs: an element costs a
** few reads unless the position maps onto itself under it. */
static int cmp_i32(const void *a, const void *b) {
  int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
  return (x > y) - (x < y);
}

static void sort_permutable(const Program *p, int32_t *s) {
  for (int i = 0; i < p->npermute; i++) {
    const StateVar *v = &p->vars[p->permute_vars[i]];
    qsort(s + v->base, (size_t)v->dim[0], sizeof(int32_t), cmp_i32);
  }
}

/* The image of `in` under element e, its board arrays moved. */
static void board_image(const Program *p, int e, const int32_t *in, int32_t *out) {
  const int32_t *pe = p->sym + (size_t)e * p->ncells;
  memcpy(out, in, (size_t)p->nslots * sizeof *out);
  for (int vi = 0; vi < p->nvars; vi++) {
    const StateVar *v = &p->vars[vi];
    if (v->on_board)
      for (int c = 0; c < p->ncells; c++) out[v->base + c] = in[v->base + pe[c]];
  }
}

/* Sparse positions (see canonical_sparse): at most SPARSE_CELLS pieces,
** groups of at most SPARSE_GROUP elements. */
enum { SPARSE_CELLS = 8, SPARSE_GROUP = 64 };
static int sparse_pieces(const VM *vm, const int32_t *in, int32_t *cell, int32_t *board,
                         int32_t *value);

/* The number of distinct images of a state: the group's order over the
** number of elements that fix it (orbit and stabiliser).  0 with
** `permute` arrays: raw states that differ only in their order are
** distinct positions, which this does not count.  An element fixes a
** sparse position when it sends each piece onto a cell holding its value
** (the images of the k pieces are then the k pieces). */
static uint32_t vm_orbit(Game *g, const void *state) {
  VM *vm = (VM *)g;
  const Program *p = vm->p;
  if (p->npermute > 0) return 0;
  if (p->nsym <= 1) return 1;
  const int32_t *in = state;
  int32_t cell[SPARSE_CELLS], board[SPARSE_CELLS], value[SPARSE_CELLS];
  int k = p->nsym <= SPARSE_GROUP ? sparse_pieces(vm, in, cell, board, value) : -1;
  if (k >= 0) {
    uint32_t fixed = 0;
    for (int e = 0; e < p->nsym; e++) {
      const int32_t *inv = vm->sym_inverse + (size_t)e * p->ncells;
      int t = 0;
      while (t < k && in[vm->board_base[board[t]] + inv[cell[t]]] == value[t]) t++;
      fixed += t == k;
    }
    return (uint32_t)p->nsym / fixed;
  }
  size_t n = (size_t)p->nslots;
  int32_t *img = malloc(n * sizeof(int32_t));
  if (!img) vm_fail(vm, -1, 0, EXIT_LIMIT, "out of memory");
  uint32_t fixed = 0;
  for (int e = 0; e < p->nsym; e++) {
    board_image(p, e, state, img);
    fixed += memcmp(img, state, n * sizeof(int32_t)) == 0;
  }
  free(img);
  return (uint32_t)p->nsym / fixed;
}

/* The canonical form of a sparse position: when at most SPARSE_CELLS
** board cells hold anything but their array's lowest value (chess's
** empty squares), the images are compared by those cells alone: an image
** is smaller when its first such cell comes later, or comes at the same
** place with a smaller value, and so on.  The same form as the trie's
** walk, at a cost in the number of pieces instead of cells.  0 when the
** position is not sparse (or the group is large: then the trie wins). */
/* The index of the lowest set bit of x (x != 0). */
static inline int lowest_bit(uint64_t x) {
#if defined(__GNUC__)
  return __builtin_ctzll(x);
#else
  int i = 0;
  while (!(x & 1)) { x >>= 1; i++; }
  return i;
#endif
}

/* The cells of a sparse position that hold something else than their
** array's lowest value: cell, board (index into board_base) and value;
** their number, or -1 when there are more than SPARSE_CELLS. */
static int sparse_pieces(const VM *vm, const int32_t *in, int32_t *cell, int32_t *board,
                         int32_t *value) {
  const Program *p = vm->p;
  int nc = p->ncells, k = 0;
  for (int b = 0; b < vm->nboard; b++) {
    int base = vm->board_base[b];
    int32_t low = p->lo[base];
    const int32_t *row = in + base;
    int c = 0;
    if (low == 0)
      /* Empty cells four at a time. */
      for (uint64_t w[2]; c + 4 <= nc; c += 4) {
        memcpy(w, row + c, sizeof w);
        if ((w[0] | w[1]) == 0) continue;
        for (int i = c; i < c + 4; i++)
          if (row[i] != 0) {
            if (k == SPARSE_CELLS) return -1;
            cell[k] = i;
            board[k] = b;
            value[k++] = row[i];
          }
      }
    for (; c < nc; c++)
      if (row[c] != low) {
        if (k == SPARSE_CELLS) return -1;
        cell[k] = c;
        board[k] = b;
        value[k++] = row[c];
      }
  }
  return k;
}

static int canonical_sparse(VM *vm, const int32_t *in, int32_t *out) {
  const Program *p = vm->p;
  int G = p->nsym, nc = p->ncells;
  if (G > SPARSE_GROUP) return 0;
  int32_t cell[SPARSE_CELLS], board[SPARSE_CELLS], value[SPARSE_CELLS];
  int k = sparse_pieces(vm, in, cell, board, value);
  if (k < 0) return 0;
  if (vm->nboard * nc <= 64) {
    /* Each image as the set of its pieces' places (a 64-bit mask, read in
    ** increasing order) and their values by place; two tables, the best
    ** image's and the one being made. */
    int32_t tab[2][64];
    uint64_t best_mask = 0;
    int cur = 0, bi = -1;
    for (int t = 0; t < k; t++) board[t] *= nc;   /* the board's first place */
    for (int e = 0; e < G; e++) {
      const int32_t *inv = vm->sym_inverse + (size_t)e * nc;
      uint64_t m = 0;
      for (int t = 0; t < k; t++) m |= 1ULL << (board[t] + inv[cell[t]]);
      /* Usually the first places differ and the values are not needed. */
      if (bi >= 0 && lowest_bit(m) < lowest_bit(best_mask)) continue;
      int32_t *tv = tab[cur];
      for (int t = 0; t < k; t++) tv[board[t] + inv[cell[t]]] = value[t];
      int smaller = bi < 0;
      for (uint64_t a = m, b = best_mask; !smaller && a; a &= a - 1, b &= b - 1) {
        int pa = lowest_bit(a), pb = lowest_bit(b);
        if (pa != pb) { smaller = pa > pb; break; }
        if (tv[pa] != tab[bi][pb]) { smaller = tv[pa] < tab[bi][pb]; break; }
      }
      if (smaller) {
        best_mask = m;
        bi = cur;
        cur ^= 1;
      }
    }
    for (int b = 0; b < vm->nboard; b++) {
      int base = vm->board_base[b];
      int32_t low = p->lo[base];
      if (low == 0) memset(out + base, 0, (size_t)nc * sizeof *out);
      else for (int c = 0; c < nc; c++) out[base + c] = low;
    }
    for (uint64_t a = best_mask; a; a &= a - 1) {
      int place = lowest_bit(a);
      out[vm->board_base[place / nc] + place % nc] = tab[bi][place];
    }
    return 1;
  }
  /* Each image as its k pieces sorted by place, each piece one number,
  ** (place << 32) + (INT32_MAX - value): at the first piece where two
  ** images differ, the one whose number is larger (a later place, or the
  ** same place and a smaller value) is the smaller image. */
  int64_t best[SPARSE_CELLS], img[SPARSE_CELLS];
  for (int e = 0; e < G; e++) {
    const int32_t *inv = vm->sym_inverse + (size_t)e * nc;
    for (int t = 0; t < k; t++) {
      int64_t x = ((int64_t)(board[t] * nc + inv[cell[t]]) << 32) + ((int64_t)INT32_MAX - value[t]);
      int u = t;
      for (; u > 0 && img[u - 1] > x; u--) img[u] = img[u - 1];
      img[u] = x;
    }
    int t = 0;
    if (e > 0)
      while (t < k && img[t] == best[t]) t++;
    if (e == 0 || (t < k && img[t] > best[t])) memcpy(best, img, (size_t)k * sizeof *img);
  }
  for (int b = 0; b < vm->nboard; b++) {
    int base = vm->board_base[b];
    int32_t low = p->lo[base];
    for (int c = 0; c < nc; c++) out[base + c] = low;
  }
  for (int t = 0; t < k; t++) {
    int place = (int)(best[t] >> 32);
    out[vm->board_base[place / nc] + place % nc] = (int32_t)((int64_t)INT32_MAX - (best[t] & 0xffffffff));
  }
  return 1;
}

static void vm_canonical(Game *g, const void *state, void *result) {
  VM *vm = (VM *)g;
  const Program *p = vm->p;
  const int32_t *in = state;
  int32_t *out = result;
  int n = p->nslots, nc = p->ncells;
  memcpy(out, in, (size_t)n * sizeof *out);
  if (vm->permute_on_board) {
    /* A permutable [board] array: each image sorted, then compared whole. */
    int32_t *tmp = vm->scratch;
    sort_permutable(p, out);
    for (int e = 1; e < p->nsym; e++) {
      board_image(p, e, in, tmp);
      sort_permutable(p, tmp);
      for (int k = 0; k < n; k++)
        if (tmp[k] != out[k]) {
          if (tmp[k] < out[k]) memcpy(out, tmp, (size_t)n * sizeof *out);
          break;
        }
    }
    return;
  }
  if (p->nsym > 1 && canonical_sparse(vm, in, out)) {
    sort_permutable(p, out);
    return;
  }
  /* The elements, sorted by their cell sequences, form a trie: those that
  ** agree on the first k cells are a run.  Walk it level by level keeping
  ** only the runs whose image so far is the smallest; a run whose next
  ** value is larger is dropped whole, with one read. */
  int G = p->nsym, nlive = 1, m = G > 1 ? vm->nboard * nc : 0;
  int32_t *lo = vm->live, *hi = vm->live + G, *nlo = vm->live + 2 * G, *nhi = vm->live + 3 * G;
  if (m > 0) {   /* vm->live exists when the group does (nsym > 1) */
    lo[0] = 0;
    hi[0] = G;
  }
  for (int j = 0; j < m; j++) {
    int b = j / nc, c = j % nc, base = vm->board_base[b], nnew = 0;
    int32_t best = INT32_MAX;
    for (int r = 0; r < nlive; r++) {
      for (int i = lo[r]; i < hi[r];) {
        int nx = hi[r] - lo[r] == 1 || b > 0 ? i + 1 : vm->sym_next[(size_t)c * G + i];
        int32_t v = in[base + vm->sym_sorted[(size_t)i * nc + c]];
        if (v < best) { best = v; nnew = 0; }
        if (v == best) { nlo[nnew] = i; nhi[nnew++] = nx; }
        i = nx;
      }
    }
    out[base + c] = best;
    int32_t *t = lo; lo = nlo; nlo = t;
    t = hi; hi = nhi; nhi = t;
    nlive = nnew;
    if (nlive == 1 && hi[0] - lo[0] == 1) {
      /* One element left: the rest of its image as it is. */
      const int32_t *pe = vm->sym_sorted + (size_t)lo[0] * nc;
      for (j++; j < m; j++) {
        b = j / nc;
        c = j % nc;
        out[vm->board_base[b] + c] = in[vm->board_base[b] + pe[c]];
      }
    }
  }
  sort_permutable(p, out);
}
