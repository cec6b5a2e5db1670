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
#include "vm.h"
#include "opcodes.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define VM_STACK_WORDS (1 << 20)   /* locals and operands of all frames */
#define VM_MAX_CALLS   256         /* nested function calls */

typedef struct Frame {
  int chunk;          /* index into p->chunks */
  int base;           /* first local in the stack */
  int ret_pc;         /* where the caller resumes */
  int ret_sp;         /* caller's stack height after the call's arguments */
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

uint64_t vm_hash_from_scratch(Game *g) {
  VM *vm = (VM *)g;
  uint64_t h = 0;
  for (int s = 0; s < vm->p->nslots; s++) h ^= zobrist(s, vm->slots[s]);
  return h;
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
    case CHUNK_START: return snprintf(buf, n, "the start block");
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

/* The name of a slot for messages: heap[2], cell[a3], winner. */
static void slot_name(const Program *p, int s, char *buf, size_t n) {
  if (s == 0) { snprintf(buf, n, "mover"); return; }
  for (int i = 0; i < p->nvars; i++) {
    const StateVar *v = &p->vars[i];
    int size = v->ndims == 0 ? 1 : v->ndims == 1 ? v->dim[0] : v->dim[0] * v->dim[1];
    if (s < v->base || s >= v->base + size) continue;
    int k = s - v->base;
    if (v->ndims == 0) snprintf(buf, n, "%s", v->name);
    else if (v->ndims == 1) snprintf(buf, n, "%s[%d]", v->name, k);
    else snprintf(buf, n, "%s[%d][%d]", v->name, k / v->dim[1], k % v->dim[1]);
    return;
  }
  snprintf(buf, n, "slot %d", s);
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
    slot_name(p, s, name, sizeof name);
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

  /* Dispatch: computed goto with GCC and clang, a switch elsewhere. */
#if defined(__GNUC__)
  static const void *const dispatch[OP__COUNT] = {
#define OPCODE_LABEL(name, n, syn) &&do_##name,
    OPCODE_LIST(OPCODE_LABEL)
#undef OPCODE_LABEL
  };
#define CASE(name) do_##name:
#define NEXT() do { op_pc = pc; op = code[pc++]; goto *dispatch[op]; } while (0)
#define DISPATCH_START() NEXT();
#define DISPATCH_END()
#else
#define CASE(name) case OP_##name:
#define NEXT() break
#define DISPATCH_START() for (;;) { op_pc = pc; op = code[pc++]; switch (op) {
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
        if (pl < 1 || pl > p->nplayers) FAIL("'next' needs a player, not none");
        vm->next_mover = pl;
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
}

/* ------------------------------------------------------------------ */
/* The game interface                                                 */
/* ------------------------------------------------------------------ */

static int vm_generate(Game *g, Move *buf) {
  VM *vm = (VM *)g;
  vm->movebuf = buf;
  vm->nmoves = 0;
  run(vm, vm->p->gen_chunk, NULL, 0);
  return vm->nmoves;
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
  vm->next_mover = 0;
  run(vm, r->effect, args, r->nargs);
  store_slot(vm, 0, vm->next_mover ? vm->next_mover : mover % p->nplayers + 1,
             p->chunks[r->effect].start);
  vm->writable = 0;
}

static void vm_undo(Game *g) {
  VM *vm = (VM *)g;
  if (vm->nmarks == 0) return;
  Mark *mk = &vm->marks[--vm->nmarks];
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
  return run_outcome(vm, vm->p->end_chunk, out);
}

static void vm_no_moves(Game *g, Outcome *out) {
  VM *vm = (VM *)g;
  if (run_outcome(vm, vm->p->nomoves_chunk, out)) return;
  /* Normal play: the player who cannot move loses. */
  memset(out, 0, sizeof *out);
  out->payoff[vm->slots[0] - 1] = -1;
}

static int32_t vm_eval(Game *g) {
  VM *vm = (VM *)g;
  if (vm->p->eval_chunk < 0) return 0;
  return run(vm, vm->p->eval_chunk, NULL, 0);
}

static int vm_to_move(Game *g) { return ((VM *)g)->slots[0] - 1; }
static uint64_t vm_hash(Game *g) { return ((VM *)g)->hash; }
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
  fprintf(f, "to move: %s\n", p->players[vm->slots[0] - 1]);
}

static void vm_canonical(Game *g, const void *state, void *result);

static void vm_pack(Game *g, const void *state, void *key);

/* Games without symmetry have no canonical method. */
static const GameVtable vm_vtable = {
  vm_generate, vm_apply, vm_undo, vm_ended, vm_no_moves, vm_eval,
  vm_to_move, vm_hash, vm_state, vm_format_move, vm_print, NULL, vm_pack,
};
static const GameVtable vm_vtable_symmetric = {
  vm_generate, vm_apply, vm_undo, vm_ended, vm_no_moves, vm_eval,
  vm_to_move, vm_hash, vm_state, vm_format_move, vm_print, vm_canonical, vm_pack,
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
  vm->next_mover = 0;
  run(vm, vm->p->start_chunk, NULL, 0);
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
  vm->bits = malloc((size_t)p->nslots);
  if (!vm->bits) { vm_free(g); return NULL; }
  size_t total = 0;
  for (int i = 0; i < p->nslots; i++) total += vm->bits[i] = (uint8_t)slot_bits(p->lo[i], p->hi[i]);
  g->key_bytes = (total + 7) / 8 ? (total + 7) / 8 : 1;
  if (p->start_chunk >= 0 && !run_start(vm)) {
    *status = g->error_status;
    vm_free(g);
    return NULL;
  }
  build_zobrist_table(vm);
  vm->hash = vm_hash_from_scratch(g);
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

