/*
** vm.c -- the bytecode VM: runs a compiled game's rules and implements the
** game interface (game.h) for it.
**
** The state is a flat vector of 32-bit slots (slot 0: the player to move).
** Every write goes through one place, store_slot(), which checks the
** slot's bounds, records (slot, old value) on the undo trail and updates
** the Zobrist hash, so apply/undo never copy the state and the hash is
** always current.
*/
#include "vm/vm.h"
#include "compiler/opcodes.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define VM_STACK_WORDS (1 << 20)   /* locals and operands of all frames */
#define VM_MAX_CALLS   256         /* nested function calls */

typedef struct Frame {
  int chunk;          /* index into p->chunks */
  int base;           /* first local in the stack */
  int ret_pc;         /* where the caller resumes */
  int ret_sp;         /* VM_CHECK_STACK: the caller's height after the call */
} Frame;

typedef struct Mark {
  int trail;          /* trail height before the move */
  uint64_t hash;      /* hash before the move */
} Mark;

typedef struct VM {
  Game base;
  const Program *p;
  int32_t *slots;
  uint64_t hash;
  int32_t *trail; int ntrail, captrail;   /* pairs: slot, old value */
  Mark *marks; int nmarks, capmarks;
  int32_t *stack;
  Frame frames[VM_MAX_CALLS];
  /* What the running code may do, and what it produced. */
  int writable;       /* state writes allowed (a move's effect) */
  int outcome_ok;     /* win/lose/draw/score allowed (end, nomoves) */
  int ended;          /* an outcome statement ran */
  int next_mover;     /* set by `next`, 0 if not */
  int chance_after;   /* set by `next chance, P`, 0 if not */
  int32_t reward[GAME_MAX_PLAYERS];   /* `pay` of the move applied last */
  int rewarded;       /* some reward[] is nonzero */
  int rejected;       /* the effect said `illegal` */
  int filtering;      /* generate is trying its moves */
  Outcome out;
  Move *movebuf; int nmoves;
  long steps;
  int depth;          /* call depth of the running code (for messages) */
  int32_t *scratch;   /* nslots words for canonical forms */
  uint8_t *bits;      /* per slot: bits in a packed key */
  /* zobrist(s, v) tabled when the slot ranges are small enough:
  ** zob_base[s][v] for lo[s] <= v <= hi[s] (zob_base[s] is offset by lo). */
  uint64_t *zob_table;
  const uint64_t **zob_base;
  /* The repetition rule: per position of the line of play (0: the start,
  ** k: after k moves), the hash and values of the compared slots, and a
  ** hash of the set of the earlier ones (what a table must key on). */
  int rep_on;             /* applied (off: positions alone decide, --count) */
  int *rep_slots, rep_n;  /* the compared slots */
  uint64_t *rep_hash, *rep_set;
  int32_t *rep_vals;
  int nrep, caprep;
  int rep_in_key;         /* the set of earlier positions is in the key */
  /* What the repetition tests compared since the searcher last asked
  ** (vm_history_trace): positions tested, and earlier ones matched. */
  uint64_t trace_tested[GAME_MAX_MOVES + 1];
  uint64_t trace_hit[GAME_MAX_MOVES + 1];
  int trace_hit_index[GAME_MAX_MOVES + 1];
  int ntested, nhits;
} VM;

#define VM_MAX_ZOBRIST_TABLE (1 << 22)   /* entries; beyond, keys are computed */

/* ------------------------------------------------------------------ */
/* Hashing                                                            */
/* ------------------------------------------------------------------ */

/* The Zobrist key of (slot, value): a mixed 64-bit value, computed rather
** than tabled so that any slot range works. */
static inline uint64_t zobrist(int slot, int32_t v) {
  uint64_t x = ((uint64_t)(uint32_t)slot << 32 | (uint32_t)v) + 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

static uint64_t mix64(uint64_t x);

/* The state's hash recomputed (and, with a repetition rule in force, the
** history term of vm_hash, which is recorded, not incremental). */
uint64_t vm_hash_from_scratch(Game *g) {
  VM *vm = (VM *)g;
  uint64_t h = 0;
  for (int s = 0; s < vm->p->nslots; s++) h ^= zobrist(s, vm->slots[s]);
  return vm->rep_on && vm->rep_in_key ? h ^ mix64(vm->rep_set[vm->nrep - 1] + 1) : h;
}

/* ------------------------------------------------------------------ */
/* Runtime errors                                                     */
/* ------------------------------------------------------------------ */

/* The chunk whose code holds pc; legality ranges win over the generator. */
static const Chunk *chunk_at(const Program *p, int pc) {
  const Chunk *best = NULL;
  for (int i = 0; i < p->nchunks; i++) {
    const Chunk *c = &p->chunks[i];
    if (pc >= c->start && pc < c->end && (!best || c->kind == CHUNK_LEGALITY)) best = c;
  }
  return best;
}

static int describe_chunk(const Chunk *c, char *buf, size_t n) {
  if (!c) return snprintf(buf, n, "the rules");
  switch (c->kind) {
    case CHUNK_EFFECT: return snprintf(buf, n, "move '%s'", c->name);
    case CHUNK_LEGALITY: return snprintf(buf, n, "the when condition of move '%s'", c->name);
    case CHUNK_GENERATE: return snprintf(buf, n, "move generation");
    case CHUNK_END: return snprintf(buf, n, "the end block");
    case CHUNK_NOMOVES: return snprintf(buf, n, "the nomoves block");
    case CHUNK_EVAL: return snprintf(buf, n, "eval");
    case CHUNK_BOUND: return snprintf(buf, n, "bound");
    case CHUNK_START: return snprintf(buf, n, "the start block");
    case CHUNK_WEIGHT: return snprintf(buf, n, "the weight of move '%s'", c->name);
    default: return snprintf(buf, n, "function '%s'", c->name);
  }
}

/* Reports a runtime error at pc and leaves through the trap (or exits). */
static void vm_fail(VM *vm, int pc, int depth, int status, const char *fmt, ...)
    __attribute__((format(printf, 5, 6), noreturn));
static void vm_fail(VM *vm, int pc, int depth, int status, const char *fmt, ...) {
  const Program *p = vm->p;
  char msg[512], where[160];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  const Chunk *inner = chunk_at(p, pc);
  int len = describe_chunk(inner, where, sizeof where);
  if (depth > 0 && len > 0 && (size_t)len < sizeof where) {
    const Chunk *outer = chunk_at(p, vm->frames[1].ret_pc - 3);   /* the first CALL */
    if (outer && outer != inner) {
      snprintf(where + len, sizeof where - (size_t)len, " (called from ");
      len = (int)strlen(where);
      describe_chunk(outer, where + len, sizeof where - (size_t)len);
      len = (int)strlen(where);
      if ((size_t)len + 1 < sizeof where) { where[len] = ')'; where[len + 1] = 0; }
    }
  }
  Diag d;
  diag_init(&d, p->filename, p->source, p->source_len, stderr);
  Span at = { pc >= 0 && pc < p->ncode ? p->pos[pc] : 0, 0 };
  at.end = at.start + 1;
  diag_report(&d, "runtime error", at, "%s in %s", msg, where);
  vm->base.error_status = status;
  vm->writable = vm->outcome_ok = 0;
  if (vm->base.trap) longjmp(*vm->base.trap, 1);
  exit(status);
}

/* ------------------------------------------------------------------ */
/* State writes and the trail                                         */
/* ------------------------------------------------------------------ */

static void trail_grow(VM *vm, int pc) {
  int cap = vm->captrail ? vm->captrail * 2 : 1024;
  int32_t *t = realloc(vm->trail, (size_t)cap * 2 * sizeof *t);
  if (!t) vm_fail(vm, pc, 0, EXIT_LIMIT, "out of memory for the undo trail");
  vm->trail = t;
  vm->captrail = cap;
}

static inline __attribute__((always_inline)) void store_slot(VM *vm, int s, int32_t v, int pc) {
  const Program *p = vm->p;
  if (!vm->writable) vm_fail(vm, pc, vm->depth, EXIT_RUNTIME, "the state can only change in a move's effect");
  if (v < p->lo[s] || v > p->hi[s]) {
    char name[96];
    program_slot_name(p, s, name, sizeof name);
    vm_fail(vm, pc, vm->depth, EXIT_RUNTIME, "value %d out of range %d..%d for '%s'", v, p->lo[s], p->hi[s], name);
  }
  int32_t old = vm->slots[s];
  if (old == v) return;
  if (vm->ntrail == vm->captrail) trail_grow(vm, pc);
  vm->trail[2 * vm->ntrail] = s;
  vm->trail[2 * vm->ntrail + 1] = old;
  vm->ntrail++;
  if (vm->zob_base) vm->hash ^= vm->zob_base[s][old] ^ vm->zob_base[s][v];
  else vm->hash ^= zobrist(s, old) ^ zobrist(s, v);
  vm->slots[s] = v;
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
/* The interpreter                                                    */
/* ------------------------------------------------------------------ */

static int32_t floor_div(int32_t a, int32_t b) {
  int32_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) q--;
  return q;
}

static int32_t floor_mod(int32_t a, int32_t b) {
  int32_t m = a % b;
  if (m != 0 && ((m < 0) != (b < 0))) m += b;
  return m;
}

#ifdef VM_CHECK_STACK
/* The checked build (make asan) holds every instruction to the stack
** effect opcodes.def declares, and every frame to the maxstack the
** compiler computed: a mismatch is a bug in the compiler or the VM, so it
** aborts with the instruction and the heights. */
typedef struct StackCheck {
  int op;             /* the instruction being checked, -1 before the first */
  int pc, depth;      /* where it ran */
  int expect;         /* its frame's operand height after it */
} StackCheck;

/* The operand height of the frame at `depth`: values above its locals. */
static int frame_height(const VM *vm, const int32_t *sp, int depth) {
  const Chunk *ch = &vm->p->chunks[vm->frames[depth].chunk];
  return (int)(sp - (vm->stack + vm->frames[depth].base + ch->nlocals));
}

static void stack_fault(const VM *vm, const StackCheck *k, const char *what, int want, int got) {
  const char *name = k->op >= 0 && k->op < OP__COUNT ? op_names[k->op] : "?";
  fprintf(stderr, "gsolve: internal error: stack check: %s at pc %d: %s %d, found %d\n",
          name, k->pc, what, want, got);
  abort();
}

/* Before an instruction: its pops are there; what height it must leave. */
static void stack_before(VM *vm, StackCheck *k, int op, int pc, const int32_t *sp, int depth) {
  const int32_t *w = vm->p->code + pc + 1;
  int n = op_operands[op];
  int32_t a = n > 0 ? w[0] : 0, b = n > 1 ? w[1] : 0;
  int r = op == OP_CALL ? vm->p->chunks[a].returns : 0;
  int height = frame_height(vm, sp, depth);
  k->op = op;
  k->pc = pc;
  k->depth = depth;
  if (height < op_pops(op, a, b)) stack_fault(vm, k, "pops", op_pops(op, a, b), height);
  k->expect = height - op_pops(op, a, b) + op_pushes(op, a, b, r);
  /* The caller's height once the callee returns (checked at RET). */
  if (op == OP_CALL && depth + 1 < VM_MAX_CALLS) vm->frames[depth + 1].ret_sp = k->expect;
}

/* After it: the height it declared, within the chunk's maxstack.  A CALL
** leaves the callee's empty frame; a RET the caller's height the CALL
** declared. */
static void stack_after(const VM *vm, const StackCheck *k, const int32_t *sp, int depth) {
  if (k->op < 0) return;
  int height = frame_height(vm, sp, depth);
  int want = k->expect;
  if (k->op == OP_CALL) want = 0;
  else if ((k->op == OP_RET || k->op == OP_RET0) && depth < k->depth) want = vm->frames[k->depth].ret_sp;
  int want_depth = k->op == OP_CALL ? k->depth + 1 : depth < k->depth ? k->depth - 1 : k->depth;
  if (depth != want_depth) stack_fault(vm, k, "call depth", want_depth, depth);
  if (height != want) stack_fault(vm, k, "operand height", want, height);
  int max = vm->p->chunks[vm->frames[depth].chunk].maxstack;
  if (height > max) stack_fault(vm, k, "maxstack", max, height);
}
#define STACK_BEFORE() stack_before(vm, &check, op, op_pc, sp, depth)
#define STACK_AFTER() stack_after(vm, &check, sp, depth)
#else
#define STACK_BEFORE() ((void)0)
#define STACK_AFTER() ((void)0)
#endif

/* Runs chunk `ci` with `nargs` arguments; returns the value of a top-level
** `return` (eval), else 0.  An outcome statement stops the whole run. */
static int32_t run(VM *vm, int ci, const int32_t *args, int nargs) {
  const Program *p = vm->p;
  const int32_t *code = p->code;
  const Chunk *ch = &p->chunks[ci];
  int32_t *stack = vm->stack;
  int depth = 0;
  int pc = ch->start;
  int base = 0;
  int32_t *sp;
  vm->steps = 0;
  vm->depth = 0;
  memset(stack, 0, (size_t)ch->nlocals * sizeof *stack);
  for (int i = 0; i < nargs; i++) stack[i] = args[i];
  sp = stack + ch->nlocals;
  vm->frames[0].chunk = ci;
  vm->frames[0].base = 0;
  vm->frames[0].ret_pc = -1;
  int32_t *locals = stack;
#ifdef VM_CHECK_STACK
  StackCheck check = { -1, 0, 0, 0 };
#endif

  /* Dispatch: computed goto with GCC and clang, a switch elsewhere. */
#if defined(__GNUC__)
  static const void *const dispatch[OP__COUNT] = {
#define OPCODE(name, shape, pops, pushes, syn) [OP_##name] = &&do_##name,
#include "compiler/opcodes.def"
#undef OPCODE
  };
#define CASE(name) do_##name:
#define NEXT() do { STACK_AFTER(); op_pc = pc; op = code[pc++]; STACK_BEFORE(); goto *dispatch[op]; } while (0)
#define DISPATCH_START() NEXT();
#define DISPATCH_END()
#else
#define CASE(name) case OP_##name:
#define NEXT() break
#define DISPATCH_START() for (;;) { STACK_AFTER(); op_pc = pc; op = code[pc++]; STACK_BEFORE(); switch (op) {
#define DISPATCH_END() default: FAIL("bad opcode %d", op); } }
#endif
#define POP() (*--sp)
#define PUSH(v) (*sp++ = (v))
#define TOP() (sp[-1])
#define FAIL(...) vm_fail(vm, op_pc, depth, EXIT_RUNTIME, __VA_ARGS__)

  int op_pc;
  int32_t op;
  DISPATCH_START();
      CASE(CONST) PUSH(code[pc]); pc++; NEXT();
      CASE(POP) sp--; NEXT();
      CASE(DUP) sp[0] = sp[-1]; sp++; NEXT();
      CASE(LOADL) PUSH(locals[code[pc]]); pc++; NEXT();
      CASE(STOREL) locals[code[pc]] = POP(); pc++; NEXT();
      CASE(CLEARL) memset(locals + code[pc], 0, (size_t)code[pc + 1] * sizeof(int32_t)); pc += 2; NEXT();
      CASE(LOADLI) {
        int32_t i = TOP();
        if ((uint32_t)i >= (uint32_t)code[pc + 1]) FAIL("index %d out of range 0..%d", i, code[pc + 1] - 1);
        TOP() = locals[code[pc] + i];
        pc += 2;
        NEXT();
      }
      CASE(STORELI) {
        int32_t v = POP(), i = POP();
        if ((uint32_t)i >= (uint32_t)code[pc + 1]) FAIL("index %d out of range 0..%d", i, code[pc + 1] - 1);
        locals[code[pc] + i] = v;
        pc += 2;
        NEXT();
      }
      CASE(LOADS) PUSH(vm->slots[code[pc]]); pc++; NEXT();
      CASE(STORES) { int32_t v = POP(); store_slot(vm, code[pc], v, op_pc); pc++; NEXT(); }
      CASE(LOADSI) {
        int32_t i = TOP();
        if ((uint32_t)i >= (uint32_t)code[pc + 1]) FAIL("index %d out of range 0..%d", i, code[pc + 1] - 1);
        TOP() = vm->slots[code[pc] + i];
        pc += 2;
        NEXT();
      }
      CASE(STORESI) {
        int32_t v = POP(), i = POP();
        if ((uint32_t)i >= (uint32_t)code[pc + 1]) FAIL("index %d out of range 0..%d", i, code[pc + 1] - 1);
        store_slot(vm, code[pc] + i, v, op_pc);
        pc += 2;
        NEXT();
      }
      CASE(LOADK) {
        int32_t i = TOP();
        if ((uint32_t)i >= (uint32_t)code[pc + 1]) FAIL("index %d out of range 0..%d", i, code[pc + 1] - 1);
        TOP() = p->konst[code[pc] + i];
        pc += 2;
        NEXT();
      }
      CASE(CHECK) {
        int32_t i = TOP();
        if ((uint32_t)i >= (uint32_t)code[pc]) FAIL("index %d out of range 0..%d", i, code[pc] - 1);
        pc++;
        NEXT();
      }
      CASE(ADD) { int32_t b = POP(), r; if (__builtin_add_overflow(TOP(), b, &r)) FAIL("integer overflow"); TOP() = r; NEXT(); }
      CASE(SUB) { int32_t b = POP(), r; if (__builtin_sub_overflow(TOP(), b, &r)) FAIL("integer overflow"); TOP() = r; NEXT(); }
      CASE(MUL) { int32_t b = POP(), r; if (__builtin_mul_overflow(TOP(), b, &r)) FAIL("integer overflow"); TOP() = r; NEXT(); }
      CASE(DIV) CASE(MOD) {
        int32_t b = POP(), a = TOP();
        if (b == 0) FAIL("division by zero");
        if (b == -1 && a == INT32_MIN) FAIL("integer overflow");
        TOP() = op == OP_DIV ? floor_div(a, b) : floor_mod(a, b);
        NEXT();
      }
      CASE(NEG) if (TOP() == INT32_MIN) FAIL("integer overflow"); TOP() = -TOP(); NEXT();
      CASE(NOT) TOP() = !TOP(); NEXT();
      CASE(EQ) { int32_t b = POP(); TOP() = TOP() == b; NEXT(); }
      CASE(NE) { int32_t b = POP(); TOP() = TOP() != b; NEXT(); }
      CASE(LT) { int32_t b = POP(); TOP() = TOP() < b; NEXT(); }
      CASE(LE) { int32_t b = POP(); TOP() = TOP() <= b; NEXT(); }
      CASE(GT) { int32_t b = POP(); TOP() = TOP() > b; NEXT(); }
      CASE(GE) { int32_t b = POP(); TOP() = TOP() >= b; NEXT(); }
      CASE(JMP) pc = code[pc]; NEXT();
      CASE(JMPF) pc = POP() ? pc + 1 : code[pc]; NEXT();
      CASE(JMPT) pc = POP() ? code[pc] : pc + 1; NEXT();
      CASE(LOOP)
        if (++vm->steps > VM_MAX_STEPS) FAIL("step budget exhausted (limit is %d steps)", VM_MAX_STEPS);
        pc = code[pc];
        NEXT();
      CASE(CALL) {
        const Chunk *callee = &p->chunks[code[pc]];
        int n = code[pc + 1];
        if (++vm->steps > VM_MAX_STEPS) FAIL("step budget exhausted (limit is %d steps)", VM_MAX_STEPS);
        if (depth + 1 >= VM_MAX_CALLS) FAIL("too many nested calls (limit is %d)", VM_MAX_CALLS);
        int32_t *nbase = sp - n;
        if (nbase + callee->nlocals + callee->maxstack > stack + VM_STACK_WORDS)
          FAIL("out of stack space for locals");
        depth++;
        vm->depth = depth;
        vm->frames[depth].chunk = code[pc];
        vm->frames[depth].base = (int)(nbase - stack);
        vm->frames[depth].ret_pc = pc + 2;
        memset(nbase + n, 0, (size_t)(callee->nlocals - n) * sizeof *nbase);
        locals = nbase;
        sp = nbase + callee->nlocals;
        base = (int)(nbase - stack);
        pc = callee->start;
        NEXT();
      }
      CASE(RET) CASE(RET0) {
        int32_t v = op == OP_RET ? POP() : 0;
        if (depth == 0) return v;
        sp = stack + vm->frames[depth].base;
        pc = vm->frames[depth].ret_pc;
        depth--;
        vm->depth = depth;
        base = vm->frames[depth].base;
        locals = stack + base;
        if (op == OP_RET) PUSH(v);
        NEXT();
      }
      CASE(NORET) FAIL("the function ended without returning a value");
      CASE(STEP) {
        int32_t d = POP(), c = TOP();
        if ((uint32_t)c >= (uint32_t)p->ncells) FAIL("cell %d is off the board", c);
        if ((uint32_t)d >= DIR_COUNT) FAIL("bad direction %d", d);
        TOP() = p->step[c * DIR_COUNT + d];
        NEXT();
      }
      CASE(AT) {
        int32_t y = POP(), x = TOP();
        if ((uint32_t)x >= (uint32_t)p->width) FAIL("column %d out of range 0..%d", x, p->width - 1);
        if ((uint32_t)y >= (uint32_t)p->height) FAIL("row %d out of range 0..%d", y, p->height - 1);
        TOP() = y * p->width + x;
        NEXT();
      }
      CASE(COLOF) CASE(ROWOF) {
        int32_t c = TOP();
        if ((uint32_t)c >= (uint32_t)p->ncells) FAIL("cell %d is off the board", c);
        TOP() = op == OP_COLOF ? c % p->width : c / p->width;
        NEXT();
      }
      CASE(LINE) {
        int32_t d = POP(), c = TOP();
        if ((uint32_t)c >= (uint32_t)p->ncells) FAIL("cell %d is off the board", c);
        if ((uint32_t)d >= DIR_COUNT) FAIL("bad direction %d", d);
        const int32_t *arr = vm->slots + code[pc];
        int32_t v = arr[c], n = 1;
        for (int k = 0; k < 2; k++) {
          int dd = k ? (d + 4) & (DIR_COUNT - 1) : d;   /* DIR_COUNT is 8 */
          for (int x = p->step[c * DIR_COUNT + dd]; x >= 0 && arr[x] == v; x = p->step[x * DIR_COUNT + dd]) n++;
        }
        TOP() = n;
        pc += 2;
        NEXT();
      }
      CASE(COUNTS) {
        int32_t v = TOP(), n = 0;
        const int32_t *arr = vm->slots + code[pc];
        for (int i = 0; i < code[pc + 1]; i++) n += arr[i] == v;
        TOP() = n;
        pc += 2;
        NEXT();
      }
      CASE(NBRN) {
        int32_t c = TOP();
        if ((uint32_t)c >= (uint32_t)p->ncells) FAIL("cell %d is off the board", c);
        TOP() = p->nbr_start[c + 1] - p->nbr_start[c];
        NEXT();
      }
      CASE(NBR) {
        int32_t i = POP(), c = TOP();
        TOP() = p->nbr[p->nbr_start[c] + i];
        NEXT();
      }
      CASE(OPPOSITE) TOP() = (TOP() + 4) % DIR_COUNT; NEXT();
      CASE(NEXTP) {
        int32_t pl = TOP();
        if (pl < 1 || pl > p->nplayers) FAIL("opponent() of no player");
        TOP() = pl % p->nplayers + 1;
        NEXT();
      }
      CASE(ABS) if (TOP() == INT32_MIN) FAIL("integer overflow"); if (TOP() < 0) TOP() = -TOP(); NEXT();
      CASE(MIN) { int32_t b = POP(); if (b < TOP()) TOP() = b; NEXT(); }
      CASE(MAX) { int32_t b = POP(); if (b > TOP()) TOP() = b; NEXT(); }
      CASE(EMIT) {
        if (vm->nmoves >= GAME_MAX_MOVES) FAIL("too many legal moves (limit is %d)", GAME_MAX_MOVES);
        Move *m = &vm->movebuf[vm->nmoves++];
        memset(m, 0, sizeof *m);
        m->rule = (uint16_t)code[pc];
        for (int i = 0; i < code[pc + 1]; i++) m->arg[i] = (int16_t)locals[i];
        pc += 2;
        NEXT();
      }
      CASE(SETNEXT) {
        int32_t pl = POP();
        if (!vm->writable) FAIL("'next' outside a move's effect");
        if (pl < 1 || pl > (p->chance ? p->chance : p->nplayers)) FAIL("'next' needs a player, not none");
        vm->next_mover = pl;
        NEXT();
      }
      CASE(NEXTCHANCE) {
        int32_t pl = POP();
        if (!vm->writable) FAIL("'next' outside a move's effect");
        if (pl < 1 || pl > p->nplayers) FAIL("'next chance, P' needs a player P, not %s", pl == 0 ? "none" : "chance");
        vm->next_mover = p->chance;
        vm->chance_after = pl;
        NEXT();
      }
      CASE(ILLEGAL)
        if (!vm->writable || vm->nmarks == 0) FAIL("'illegal' outside a move's effect");
        vm->rejected = 1;
        return 0;
      CASE(PAY) {
        int32_t amount = POP(), pl = POP();
        if (!vm->writable || vm->nmarks == 0) FAIL("'pay' outside a move's effect");
        if (pl < 1 || pl > p->nplayers) FAIL("'pay' needs a player, not %s", pl == 0 ? "none" : "chance");
        if (__builtin_add_overflow(vm->reward[pl - 1], amount, &vm->reward[pl - 1])) FAIL("integer overflow");
        vm->rewarded = 1;
        NEXT();
      }
      CASE(WIN) CASE(LOSE) {
        int32_t pl = POP();
        if (!vm->outcome_ok) FAIL("an outcome outside the end and nomoves blocks");
        if (pl < 1 || pl > p->nplayers) FAIL("'%s' needs a player, not none", op == OP_WIN ? "win" : "lose");
        memset(&vm->out, 0, sizeof vm->out);
        vm->out.payoff[pl - 1] = op == OP_WIN ? 1 : -1;
        vm->ended = 1;
        return 0;
      }
      CASE(DRAW)
        if (!vm->outcome_ok) FAIL("an outcome outside the end and nomoves blocks");
        memset(&vm->out, 0, sizeof vm->out);
        vm->ended = 1;
        return 0;
      CASE(SCORE) {
        if (!vm->outcome_ok) FAIL("an outcome outside the end and nomoves blocks");
        int n = code[pc];
        memset(&vm->out, 0, sizeof vm->out);
        for (int i = 0; i < n; i++) vm->out.payoff[i] = sp[i - n];
        sp -= n;
        vm->ended = 1;
        return 0;
      }
      CASE(ADDK) { int32_t r; if (__builtin_add_overflow(TOP(), code[pc], &r)) FAIL("integer overflow"); TOP() = r; pc++; NEXT(); }
      CASE(JLT) { int32_t b = POP(), a = POP(); pc = a < b ? code[pc] : pc + 1; NEXT(); }
      CASE(JLE) { int32_t b = POP(), a = POP(); pc = a <= b ? code[pc] : pc + 1; NEXT(); }
      CASE(JGT) { int32_t b = POP(), a = POP(); pc = a > b ? code[pc] : pc + 1; NEXT(); }
      CASE(JGE) { int32_t b = POP(), a = POP(); pc = a >= b ? code[pc] : pc + 1; NEXT(); }
      CASE(JEQ) { int32_t b = POP(), a = POP(); pc = a == b ? code[pc] : pc + 1; NEXT(); }
      CASE(JNE) { int32_t b = POP(), a = POP(); pc = a != b ? code[pc] : pc + 1; NEXT(); }
      CASE(JLTK) { int32_t a = POP(); pc = a < code[pc + 1] ? code[pc] : pc + 2; NEXT(); }
      CASE(JLEK) { int32_t a = POP(); pc = a <= code[pc + 1] ? code[pc] : pc + 2; NEXT(); }
      CASE(JGTK) { int32_t a = POP(); pc = a > code[pc + 1] ? code[pc] : pc + 2; NEXT(); }
      CASE(JGEK) { int32_t a = POP(); pc = a >= code[pc + 1] ? code[pc] : pc + 2; NEXT(); }
      CASE(JEQK) { int32_t a = POP(); pc = a == code[pc + 1] ? code[pc] : pc + 2; NEXT(); }
      CASE(JNEK) { int32_t a = POP(); pc = a != code[pc + 1] ? code[pc] : pc + 2; NEXT(); }
      CASE(LOADLK) {
        int32_t r;
        if (__builtin_add_overflow(locals[code[pc]], code[pc + 1], &r)) FAIL("integer overflow");
        PUSH(r);
        pc += 2;
        NEXT();
      }
      CASE(LOADSL) {
        int32_t i = locals[code[pc + 2]];
        if ((uint32_t)i >= (uint32_t)code[pc + 1]) FAIL("index %d out of range 0..%d", i, code[pc + 1] - 1);
        PUSH(vm->slots[code[pc] + i]);
        pc += 3;
        NEXT();
      }
      CASE(LOADSXY) {
        int32_t y = POP(), x = TOP();
        if ((uint32_t)x >= (uint32_t)p->width) FAIL("column %d out of range 0..%d", x, p->width - 1);
        if ((uint32_t)y >= (uint32_t)p->height) FAIL("row %d out of range 0..%d", y, p->height - 1);
        TOP() = vm->slots[code[pc] + y * p->width + x];
        pc += 2;
        NEXT();
      }
      CASE(FORL) CASE(FORK) {
        /* Counted loops: the counter cannot overflow, it stops at a limit
        ** no larger than INT32_MAX - 1 (bounds are checked ranges). */
        int32_t lim = op == OP_FORL ? locals[code[pc + 1]] : code[pc + 1];
        if (locals[code[pc]] < lim) {
          locals[code[pc]]++;
          if (++vm->steps > VM_MAX_STEPS) FAIL("step budget exhausted (limit is %d steps)", VM_MAX_STEPS);
          pc = code[pc + 2];
        } else {
          pc += 3;
        }
        NEXT();
      }
      CASE(HALT) return 0;
      DISPATCH_END();
#undef CASE
#undef NEXT
#undef DISPATCH_START
#undef DISPATCH_END
#undef POP
#undef PUSH
#undef TOP
#undef FAIL
#undef STACK_BEFORE
#undef STACK_AFTER
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
  run(vm, p->gen_chunk, NULL, 0);
  int n = vm->nmoves;
  int repeat = p->rep_kind == REP_FORBIDDEN && vm->rep_on;
  if (repeat || p->has_illegal) {
    /* Each move is tried: its effect may say `illegal`, and a move that
    ** recreates an earlier position is not legal under the rule. */
    int kept = 0;
    vm->filtering = 1;
    for (int i = 0; i < n; i++) {
      Move m = buf[i];
      int check_rep = repeat && !p->rep_except[m.rule];
      int ok = 1;
      if (check_rep || p->has_illegal) {
        vm_apply(g, &m);
        ok = !vm->rejected && !(check_rep && rep_repeats(vm));
        vm_undo(g);
      }
      if (ok) buf[kept++] = m;
    }
    vm->filtering = 0;
    n = kept;
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
  vm->marks[vm->nmarks].trail = vm->ntrail;
  vm->marks[vm->nmarks].hash = vm->hash;
  vm->nmarks++;
  const MoveRule *r = &p->rules[m->rule];
  int32_t args[GAME_MAX_ARGS];
  for (int i = 0; i < r->nargs; i++) args[i] = m->arg[i];
  int32_t mover = vm->slots[0];
  vm->writable = 1;
  vm->next_mover = vm->chance_after = 0;
  vm->rejected = 0;
  if (vm->rewarded) { memset(vm->reward, 0, sizeof vm->reward); vm->rewarded = 0; }
  run(vm, r->effect, args, r->nargs);
  int at = p->chunks[r->effect].start;
  if (vm->rejected && !vm->filtering)
    vm_fail(vm, at, 0, EXIT_RUNTIME, "the move is illegal ('illegal' in its effect), but it was played");
  int32_t next = vm->next_mover ? vm->next_mover
               : p->chance && mover == p->chance ? vm->slots[p->chance_slot]
               : mover % p->nplayers + 1;
  /* Chance hands the turn back to whoever gave it (or as `next chance, P`). */
  if (p->chance && next == p->chance && (vm->chance_after || mover != p->chance))
    store_slot(vm, p->chance_slot, vm->chance_after ? vm->chance_after : mover, at);
  store_slot(vm, 0, next, at);
  vm->writable = 0;
  if (vm->rep_on && !rep_push(vm)) vm_fail(vm, at, 0, EXIT_LIMIT, "out of memory for the line of play");
}

static void vm_undo(Game *g) {
  VM *vm = (VM *)g;
  if (vm->nmarks == 0) return;
  Mark *mk = &vm->marks[--vm->nmarks];
  vm->nrep = vm->nmarks + 1;
  while (vm->ntrail > mk->trail) {
    vm->ntrail--;
    vm->slots[vm->trail[2 * vm->ntrail]] = vm->trail[2 * vm->ntrail + 1];
  }
  vm->hash = mk->hash;
}

/* Runs an outcome block; 1 if it declared an outcome. */
static int run_outcome(VM *vm, int chunk, Outcome *out) {
  if (chunk < 0) return 0;
  vm->outcome_ok = 1;
  vm->ended = 0;
  run(vm, chunk, NULL, 0);
  vm->outcome_ok = 0;
  if (vm->ended && out) *out = vm->out;
  return vm->ended;
}

static int vm_ended(Game *g, Outcome *out) {
  VM *vm = (VM *)g;
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
  /* Normal play: the player who cannot move loses. */
  memset(out, 0, sizeof *out);
  out->payoff[vm->slots[0] - 1] = -1;
}

static int32_t vm_eval(Game *g) {
  VM *vm = (VM *)g;
  if (vm->p->eval_chunk < 0) return 0;
  return run(vm, vm->p->eval_chunk, NULL, 0);
}

/* The game's bound(p): the most p's margin can still be, whatever is
** played.  The mover's margin lies in [-bound(other), bound(mover)]; a
** bound below its opposite is an error in the rules. */
static int vm_bounds(Game *g, int32_t *lo, int32_t *hi) {
  VM *vm = (VM *)g;
  const Program *p = vm->p;
  if (p->chance && vm->slots[0] == p->chance) return 0;
  int32_t me = vm->slots[0], other = 3 - me;
  *hi = run(vm, p->bound_chunk, &me, 1);
  *lo = -run(vm, p->bound_chunk, &other, 1);
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
      v = run(vm, r->weight, args, r->nargs);
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
  return vm->rep_on && vm->rep_in_key ? vm->hash ^ mix64(vm->rep_set[vm->nrep - 1] + 1) : vm->hash;
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

/* One character for a board value: '.' for empty, a player's initial. */
static char cell_char(const Program *p, Type t, int32_t v) {
  switch (t.kind) {
    case TY_PLAYER: return v == 0 ? '.' : p->players[v - 1][0];
    case TY_BOOL: return v ? '#' : '.';
    case TY_ENUM: return v == 0 ? '.' : p->enums[t.enum_id].members[v][0];
    default: return v == 0 ? '.' : v > 0 && v < 10 ? (char)('0' + v) : v >= 10 && v < 36 ? (char)('a' + v - 10) : '?';
  }
}

static void vm_print(Game *g, FILE *f) {
  VM *vm = (VM *)g;
  const Program *p = vm->p;
  char val[64];
  for (int i = 0; i < p->nvars; i++) {
    const StateVar *v = &p->vars[i];
    const int32_t *s = vm->slots + v->base;
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
      program_format_value(p, v->elem, s[k], val, sizeof val);
      fprintf(f, "%s%s", k ? (v->ndims == 2 && k % v->dim[1] == 0 ? "; " : ", ") : "", val);
    }
    if (v->ndims) fputc(']', f);
    fputc('\n', f);
  }
  fprintf(f, "to move: %s\n", p->chance && vm->slots[0] == p->chance ? "chance" : p->players[vm->slots[0] - 1]);
}

static void vm_canonical(Game *g, const void *state, void *result);

static void vm_pack(Game *g, const void *state, void *key);

/* Games without symmetry have no canonical method. */
static const GameVtable vm_vtable = {
  vm_generate, vm_apply, vm_undo, vm_ended, vm_no_moves, vm_eval,
  vm_to_move, vm_hash, vm_state, vm_format_move, vm_print, NULL, vm_pack,
  vm_weights, vm_rewards, vm_set_history, vm_history_key, vm_history_trace, vm_history_line,
};
static const GameVtable vm_vtable_symmetric = {
  vm_generate, vm_apply, vm_undo, vm_ended, vm_no_moves, vm_eval,
  vm_to_move, vm_hash, vm_state, vm_format_move, vm_print, vm_canonical, vm_pack,
  vm_weights, vm_rewards, vm_set_history, vm_history_key, vm_history_trace, vm_history_line,
};

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
  uint64_t acc = 0;
  int nacc = 0;
  size_t k = 0;
  for (int i = 0; i < p->nslots; i++) {
    int b = vm->bits[i];
    uint64_t v = (uint64_t)((int64_t)s[i] - p->lo[i]);
    for (int done = 0; done < b;) {
      int take = b - done < 32 ? b - done : 32;
      acc |= ((v >> done) & ((1ULL << take) - 1)) << nacc;
      nacc += take;
      done += take;
      while (nacc >= 8) { out[k++] = (unsigned char)acc; acc >>= 8; nacc -= 8; }
    }
  }
  if (nacc > 0) out[k++] = (unsigned char)acc;
  if (p->rep_kind != REP_NONE) {
    uint64_t set = vm->rep_on && vm->rep_in_key && state == vm->slots ? vm->rep_set[vm->nrep - 1] : 0;
    for (int i = 0; i < 8; i++) out[k++] = (unsigned char)(set >> (8 * i));
  }
  while (k < g->key_bytes) out[k++] = 0;
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
  vm->zob_base = malloc((size_t)p->nslots * sizeof *vm->zob_base);
  if (!vm->zob_table || !vm->zob_base) {
    free(vm->zob_table);
    free(vm->zob_base);
    vm->zob_table = NULL;
    vm->zob_base = NULL;
    return;
  }
  uint64_t *t = vm->zob_table;
  for (int s = 0; s < p->nslots; s++) {
    for (int64_t v = p->lo[s]; v <= p->hi[s]; v++) t[v - p->lo[s]] = zobrist(s, (int32_t)v);
    vm->zob_base[s] = t - p->lo[s];
    t += p->hi[s] - p->lo[s] + 1;
  }
}

/* Runs the start block, which writes the start position (nothing to
** undo).  0 after a runtime error in it, already reported. */
static int run_start(VM *vm) {
  jmp_buf trap;
  vm->base.trap = &trap;
  if (setjmp(trap)) { vm->base.trap = NULL; return 0; }
  vm->writable = 1;
  vm->next_mover = vm->chance_after = 0;
  run(vm, vm->p->start_chunk, NULL, 0);
  if (vm->p->chance && vm->next_mover == vm->p->chance)
    vm->slots[vm->p->chance_slot] = vm->chance_after ? vm->chance_after : vm->slots[0];
  if (vm->next_mover) vm->slots[0] = vm->next_mover;
  vm->writable = 0;
  vm->ntrail = 0;
  vm->base.trap = NULL;
  return 1;
}

Game *vm_new(const Program *p, int *status) {
  *status = EXIT_LIMIT;
  VM *vm = calloc(1, sizeof *vm);
  if (!vm) return NULL;
  vm->p = p;
  vm->slots = malloc((size_t)p->nslots * sizeof(int32_t));
  vm->stack = malloc((size_t)VM_STACK_WORDS * sizeof(int32_t));
  vm->scratch = malloc((size_t)p->nslots * sizeof(int32_t));
  if (!vm->slots || !vm->stack || !vm->scratch) { vm_free(&vm->base); return NULL; }
  memcpy(vm->slots, p->init, (size_t)p->nslots * sizeof(int32_t));
  Game *g = &vm->base;
  g->vt = p->nsym > 1 || p->npermute ? &vm_vtable_symmetric : &vm_vtable;
  g->engine = "vm";
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
  g->key_bytes = (total + 7) / 8 ? (total + 7) / 8 : 1;
  if (p->rep_kind != REP_NONE) g->key_bytes = (total + 7) / 8 + 8;
  if (p->start_chunk >= 0 && !run_start(vm)) {
    *status = g->error_status;
    vm_free(g);
    return NULL;
  }
  build_zobrist_table(vm);
  vm->hash = vm_hash_from_scratch(g);
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
  *status = EXIT_OK;
  return g;
}

void vm_free(Game *g) {
  if (!g) return;
  VM *vm = (VM *)g;
  free(vm->slots);
  free(vm->stack);
  free(vm->scratch);
  free(vm->bits);
  free(vm->zob_table);
  free(vm->zob_base);
  free(vm->trail);
  free(vm->marks);
  free(vm->rep_slots);
  free(vm->rep_hash);
  free(vm->rep_set);
  free(vm->rep_vals);
  free(vm);
}

/* Canonical form under the declared symmetries: the smallest image of the
** state (as a slot vector), with permutable arrays sorted. */
static int cmp_i32(const void *a, const void *b) {
  int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
  return (x > y) - (x < y);
}

static void vm_canonical(Game *g, const void *state, void *result) {
  VM *vm = (VM *)g;
  const Program *p = vm->p;
  const int32_t *in = state;
  int32_t *out = result;
  int n = p->nslots;
  int32_t *tmp = vm->scratch;
  memcpy(out, in, (size_t)n * sizeof *out);
  for (int e = 0; e < (p->nsym ? p->nsym : 1); e++) {
    for (int k = 0; k < n; k++) tmp[k] = p->sym ? in[p->sym[(size_t)e * n + k]] : in[k];
    for (int i = 0; i < p->npermute; i++) {
      const StateVar *v = &p->vars[p->permute_vars[i]];
      qsort(tmp + v->base, (size_t)v->dim[0], sizeof(int32_t), cmp_i32);
    }
    /* Any fixed total order will do; memcmp is the cheapest. */
    if (e == 0 || memcmp(tmp, out, (size_t)n * sizeof *out) < 0)
      memcpy(out, tmp, (size_t)n * sizeof *out);
  }
}

