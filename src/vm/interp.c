/*
** interp.c -- the bytecode interpreter: runs a chunk of a compiled game's
** rules on the VM's state, and reports runtime errors with the rule and
** the source position.
*/
#include "vm/vm_int.h"
#include "compiler/opcodes.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

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
    case CHUNK_VIEW: return snprintf(buf, n, "the view of '%s'", c->name);
    case CHUNK_VALID: return snprintf(buf, n, "the valid block");
    default: return snprintf(buf, n, "function '%s'", c->name);
  }
}

/* Reports a runtime error at pc and leaves through the trap (or exits). */
#ifdef VM_FUZZ_BUDGET
long vm_fuzz_budget;
/* One step or rule run against the fuzz build's budget for the input. */
#define FUZZ_STEP(at) do { \
    if (vm_fuzz_budget > 0 && --vm_fuzz_budget == 0) \
      vm_fail(vm, (at), depth, EXIT_RUNTIME, "the fuzz build's budget for one input is spent"); \
  } while (0)
#else
#define FUZZ_STEP(at) do { } while (0)
#endif

void vm_fail(VM *vm, int pc, int depth, int status, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vm_vfail(vm, pc, depth, status, fmt, ap);
}

void vm_vfail(VM *vm, int pc, int depth, int status, const char *fmt, va_list ap) {
  const Program *p = vm->p;
  char msg[512], where[160];
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
  Span at = { pc >= 0 && pc < p->ncode ? p->pos[pc] : 0, 0 };
  at.end = at.start + 1;
  vm_fail_at(vm, at, status, "%s in %s", msg, where);
}

void vm_fail_at(VM *vm, Span at, int status, const char *fmt, ...) {
  const Program *p = vm->p;
  char msg[768];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  Diag d;
  diag_init(&d, p->filename, p->source, p->source_len, stderr);
  diag_report(&d, "runtime error", at, "%s", msg);
  vm->base.error_status = status;
  vm->h.writable = vm->outcome_ok = 0;
  if (vm->base.trap) longjmp(*vm->base.trap, 1);
  exit(status);
}

/* ------------------------------------------------------------------ */
/* State writes and the trail                                         */
/* ------------------------------------------------------------------ */

/* An outcome declared by a move's effect (vm->out) goes into the hidden
** slots that make the new position terminal (vm_ended reads them). */
static void vm_record_outcome(VM *vm, int pc) {
  const Program *p = vm->p;
  for (int i = 0; i < p->nplayers; i++) store_slot(vm, p->outcome_slot + 1 + i, vm->out.payoff[i], pc);
  store_slot(vm, p->outcome_slot, 1, pc);
}

void vm_trail_grow(VM *vm, int pc) {
  int cap = vm->h.captrail ? vm->h.captrail * 2 : 1024;
  int32_t *t = realloc(vm->h.trail, (size_t)cap * 2 * sizeof *t);
  if (!t) vm_fail(vm, pc, 0, EXIT_LIMIT, "out of memory for the undo trail");
  vm->h.trail = t;
  vm->h.captrail = cap;
}

/* ------------------------------------------------------------------ */
/* The interpreter                                                    */
/* ------------------------------------------------------------------ */

_Static_assert(DIR_COUNT == 8, "aot_rt.h's board scans assume 8 directions");

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
  diag_plain(stderr, "internal error", "stack check: %s at pc %d: %s %d, found %d", name, k->pc,
             what, want, got);
  abort();
}

/* Before an instruction: its pops are there; what height it must leave. */
static void stack_before(VM *vm, StackCheck *k, int op, int pc, const int32_t *sp, int depth) {
  int height = frame_height(vm, sp, depth);
  k->pc = pc;
  k->depth = depth;
  /* A superinstruction: its parts in turn (neither is a CALL). */
  if (op >= OP__COUNT) {
    for (int part = 0; part < 2; part++) {
      int o = vm_fused_parts[op - OP__COUNT][part];
      const int32_t *w = vm->p->code + pc + 1;
      int32_t a = op_operands[o] > 0 ? w[0] : 0, b = op_operands[o] > 1 ? w[1] : 0;
      k->op = o;
      if (height < op_pops(o, a, b)) stack_fault(vm, k, "pops", op_pops(o, a, b), height);
      height += op_pushes(o, a, b, 0) - op_pops(o, a, b);
      pc += 1 + op_operands[o];
    }
    k->expect = height;
    return;
  }
  const int32_t *w = vm->p->code + pc + 1;
  int n = op_operands[op];
  int32_t a = n > 0 ? w[0] : 0, b = n > 1 ? w[1] : 0;
  int r = op == OP_CALL ? vm->p->chunks[a].returns : 0;
  k->op = op;
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
#define STACK_BEFORE() stack_before(vm, &check, op, pc - 1, sp, depth)
#define STACK_AFTER() stack_after(vm, &check, sp, depth)
#else
#define STACK_BEFORE() ((void)0)
#define STACK_AFTER() ((void)0)
#endif

/* The rare instructions, shared with the compiled tier (aot.c): vals are
** the values the instruction pops, in push order. */
void vm_rare_op(VM *vm, int op, int pc, int depth, const int32_t *vals, int n) {
  const Program *p = vm->p;
  vm->depth = depth;
#define FAIL(...) vm_fail(vm, pc, depth, EXIT_RUNTIME, __VA_ARGS__)
  switch (op) {
    case OP_SETNEXT: {
      int32_t pl = vals[0];
      if (!vm->h.writable) FAIL("'next' outside a move's effect");
      if (pl < 1 || pl > (p->chance ? p->chance : p->nplayers)) FAIL("'next' needs a player, not none");
      vm->h.next_mover = pl;
      return;
    }
    case OP_NEXTCHANCE: {
      int32_t pl = vals[0];
      if (!vm->h.writable) FAIL("'next' outside a move's effect");
      if (pl < 1 || pl > p->nplayers) FAIL("'next chance, P' needs a player P, not %s", pl == 0 ? "none" : "chance");
      vm->h.next_mover = p->chance;
      vm->chance_after = pl;
      return;
    }
    case OP_ILLEGAL:
      if (!vm->h.writable || vm->h.nmarks == 0) FAIL("'illegal' outside a move's effect");
      vm->rejected = 1;
      return;
    case OP_CONTMOVE:
      if (!vm->h.writable || vm->h.nmarks == 0) FAIL("'continue move' outside a move's effect");
      vm->chain_more = 1;
      return;
    case OP_PRIORITY:
      if (!vm->h.writable || vm->h.nmarks == 0) FAIL("'priority' outside a move's effect");
      vm->priority = vals[0];
      return;
    case OP_PAY: {
      int32_t amount = vals[1], pl = vals[0];
      if (!vm->h.writable || vm->h.nmarks == 0) FAIL("'pay' outside a move's effect");
      if (pl < 1 || pl > p->nplayers) FAIL("'pay' needs a player, not %s", pl == 0 ? "none" : "chance");
      if (__builtin_add_overflow(vm->reward[pl - 1], amount, &vm->reward[pl - 1])) FAIL("integer overflow");
      vm->rewarded = 1;
      return;
    }
    case OP_WIN: case OP_LOSE: case OP_DRAW: case OP_SCORE:
      if (!vm->outcome_ok && !(vm->h.writable && vm->h.nmarks > 0 && p->outcome_slot))
        FAIL("an outcome outside a move's effect and the end and nomoves blocks");
      if (op == OP_WIN || op == OP_LOSE) {
        int32_t pl = vals[0];
        if (pl < 1 || pl > p->nplayers) FAIL("'%s' needs a player, not none", op == OP_WIN ? "win" : "lose");
        memset(&vm->out, 0, sizeof vm->out);
        vm->out.payoff[pl - 1] = op == OP_WIN ? 1 : -1;
      } else {
        memset(&vm->out, 0, sizeof vm->out);
        for (int i = 0; i < n; i++) vm->out.payoff[i] = vals[i];
        if (!vm->outcome_ok)
          for (int i = 0; i < n; i++)
            if (vm->out.payoff[i] < p->lo[p->outcome_slot + 1] || vm->out.payoff[i] > p->hi[p->outcome_slot + 1])
              FAIL("a score of %d in a move's effect (the limit is %d)", (int)vm->out.payoff[i], (int)p->hi[p->outcome_slot + 1]);
      }
      if (!vm->outcome_ok) vm_record_outcome(vm, pc);
      vm->ended = 1;
      return;
    case OP_HALT:   /* the depth it stopped at is all it leaves */
      return;
    default:
      FAIL("bad opcode %d", op);
  }
#undef FAIL
}

/* Runs chunk `ci` with `nargs` arguments; returns the value of a top-level
** `return` (eval), else 0.  An outcome statement stops the whole run. */
/* Each instruction ends in a dispatch of its own (no cross-jumping to a
** shared one): the processor predicts each from where it is.  GCC's
** attribute; clang (make fuzz) has no such pass to turn off. */
#if defined(__GNUC__) && !defined(__clang__)
__attribute__((optimize("no-crossjumping", "no-gcse")))
#endif
int32_t vm_interp(VM *vm, int ci, const int32_t *args, int nargs) {
  const Program *p = vm->p;
  const int32_t *code = vm->code;   /* p->code with superinstructions (vm_fuse.c) */
  const Chunk *ch = &p->chunks[ci];
  int32_t *stack = vm->stack;
  int depth = 0;
  long pc = ch->start;   /* long: no sign extension at each use as an index */
  int base = 0;
  int32_t *sp;
  vm->h.steps = 0;
  vm->depth = 0;
  FUZZ_STEP(pc);
  if (nargs < 0) {   /* vm_force: the rest of a deferred effect */
    /* Its locals are still at the stack's base unless a run since moved
    ** them out (below). */
    if (vm->pend_on_stack) vm->pend_on_stack = 0;
    else memcpy(stack, args, (size_t)ch->nlocals * sizeof *stack);
    pc = vm->h.pend_pc;
    vm->h.steps = vm->h.pend_steps;
  } else {
    /* The locals of a deferred rest left at the stack's base (DEFER):
    ** saved before this run overwrites them. */
    if (__builtin_expect(vm->pend_on_stack, 0)) {
      if (vm->h.pending) memcpy(vm->h.pend_locals, stack, (size_t)vm->pend_on_stack * sizeof *stack);
      vm->pend_on_stack = 0;
    }
    /* Most frames are a few words: 8 cleared at once (the stack has room
    ** above any frame), the arguments over them. */
    if (ch->nlocals <= 8) memset(stack, 0, 8 * sizeof *stack);
    else memset(stack, 0, (size_t)ch->nlocals * sizeof *stack);
    for (int i = 0; i < nargs; i++) stack[i] = args[i];
  }
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
  static const void *const dispatch[OPF__END] = {
#define OPCODE(name, shape, pops, pushes, flow, syn) [OP_##name] = &&do_##name,
#include "compiler/opcodes.def"
#undef OPCODE
#define FUSED_LABEL(a, b) [OPF_##a##_##b] = &&do_##a##_##b,
    VM_FUSED_PAIRS(FUSED_LABEL)
#undef FUSED_LABEL
  };
#define CASE(name) do_##name:
#define FUSED(name) do_##name:
#define NEXT() do { STACK_AFTER(); op = code[pc++]; STACK_BEFORE(); goto *dispatch[op]; } while (0)
#define DISPATCH_START() NEXT();
#define DISPATCH_END()
#else
#define CASE(name) case OP_##name:
#define FUSED(name) case OPF_##name:
#define NEXT() break
#define DISPATCH_START() for (;;) { STACK_AFTER(); op = code[pc++]; STACK_BEFORE(); switch (op) {
#define DISPATCH_END() default: FAIL("bad opcode %d", op); } }
#endif
#define POP() (*--sp)
#define PUSH(v) (*sp++ = (v))
#define TOP() (sp[-1])
/* The running instruction's pc: every handler reads it (to fail, to name
** where a write or an outcome happened) before it moves pc on, so it is
** pc - 1 there, and the dispatch need not keep it. */
#define OP_PC (pc - 1)
#define FAIL(...) vm_fail(vm, OP_PC, depth, EXIT_RUNTIME, __VA_ARGS__)
/* An index i into an array of n: fails unless 0 <= i < n. */
#define CHECK_INDEX(i, n) do { \
    if ((uint32_t)(i) >= (uint32_t)(n)) FAIL("index %d out of range 0..%d", (i), (n) - 1); \
  } while (0)
/* A board cell's coordinates, as AT and every instruction fused with it
** check them. */
#define CHECK_XY(x, y) do { \
    if ((uint32_t)(x) >= (uint32_t)p->width) FAIL("column %d out of range 0..%d", (x), p->width - 1); \
    if ((uint32_t)(y) >= (uint32_t)p->height) FAIL("row %d out of range 0..%d", (y), p->height - 1); \
  } while (0)

  /* A step against the budget (loops, calls), failing at `at`. */
#define COUNT_STEP(at) do { \
    if (++vm->h.steps > VM_MAX_STEPS) \
      vm_fail(vm, (at), depth, EXIT_RUNTIME, "step budget exhausted (limit is %d steps)", VM_MAX_STEPS); \
    FUZZ_STEP(at); \
  } while (0)

  int32_t op;   /* only the dispatch's: a handler that needs its opcode reads
                ** code[OP_PC], so op is dead after the jump */
  DISPATCH_START();
      CASE(CONST) PUSH(code[pc]); pc++; NEXT();
      CASE(POP) sp--; NEXT();
      CASE(DUP) sp[0] = sp[-1]; sp++; NEXT();
      CASE(LOADL) PUSH(locals[code[pc]]); pc++; NEXT();
      CASE(STOREL) locals[code[pc]] = POP(); pc++; NEXT();
      CASE(CLEARL) memset(locals + code[pc], 0, (size_t)code[pc + 1] * sizeof(int32_t)); pc += 2; NEXT();
      CASE(LOADLI) {
        int32_t i = TOP();
        CHECK_INDEX(i, code[pc + 1]);
        TOP() = locals[code[pc] + i];
        pc += 2;
        NEXT();
      }
      CASE(STORELI) {
        int32_t v = POP(), i = POP();
        CHECK_INDEX(i, code[pc + 1]);
        locals[code[pc] + i] = v;
        pc += 2;
        NEXT();
      }
      CASE(LOADS) PUSH(vm->slots[code[pc]]); pc++; NEXT();
      CASE(STORES) { int32_t v = POP(); store_slot(vm, code[pc], v, OP_PC); pc++; NEXT(); }
      /* LOADSI and LOADK: A, B an array of `base` (first element, size). */
#define LOAD_INDEXED(base) do { \
        int32_t i_ = TOP(); \
        CHECK_INDEX(i_, code[pc + 1]); \
        TOP() = (base)[code[pc] + i_]; \
        pc += 2; \
      } while (0)
      CASE(LOADSI) LOAD_INDEXED(vm->slots); NEXT();
      CASE(STORESI) {
        int32_t v = POP(), i = POP();
        CHECK_INDEX(i, code[pc + 1]);
        store_slot(vm, code[pc] + i, v, OP_PC);
        pc += 2;
        NEXT();
      }
      CASE(LOADK) LOAD_INDEXED(p->konst); NEXT();
      CASE(CHECK) {
        int32_t i = TOP();
        CHECK_INDEX(i, code[pc]);
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
        TOP() = code[OP_PC] == OP_DIV ? aot_floor_div(a, b) : aot_floor_mod(a, b);
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
        COUNT_STEP((int)OP_PC);
        pc = code[pc];
        NEXT();
      CASE(CALL) {
        const Chunk *callee = &p->chunks[code[pc]];
        int n = code[pc + 1];
        COUNT_STEP((int)OP_PC);
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
        int ret = code[OP_PC] == OP_RET;   /* read before pc moves */
        int32_t v = ret ? POP() : 0;
        if (depth == 0) return v;
        sp = stack + vm->frames[depth].base;
        pc = vm->frames[depth].ret_pc;
        depth--;
        vm->depth = depth;
        base = vm->frames[depth].base;
        locals = stack + base;
        if (ret) PUSH(v);
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
        CHECK_XY(x, y);
        TOP() = y * p->width + x;
        NEXT();
      }
      CASE(COLOF) CASE(ROWOF) {
        int32_t c = TOP();
        if ((uint32_t)c >= (uint32_t)p->ncells) FAIL("cell %d is off the board", c);
        TOP() = code[OP_PC] == OP_COLOF ? c % p->width : c / p->width;
        NEXT();
      }
      CASE(LINE) {
        int32_t d = POP(), c = TOP();
        if ((uint32_t)c >= (uint32_t)p->ncells) FAIL("cell %d is off the board", c);
        if ((uint32_t)d >= DIR_COUNT) FAIL("bad direction %d", d);
        TOP() = aot_line(vm->slots + code[pc], p->step, c, d);
        pc += 2;
        NEXT();
      }
      /* LINEK with its operands at w, the cell c, failing at `at`: the
      ** run through c (shared with LOADL_LINEK). */
#define LINE_RUN(c, w, at, r) do { \
        int32_t d_ = (w)[2]; \
        if ((uint32_t)(c) >= (uint32_t)p->ncells) vm_fail(vm, (at), depth, EXIT_RUNTIME, "cell %d is off the board", (c)); \
        if ((uint32_t)d_ >= DIR_COUNT) vm_fail(vm, (at), depth, EXIT_RUNTIME, "bad direction %d", d_); \
        r = aot_line(vm->slots + (w)[0], p->step, (c), d_); \
      } while (0)
      CASE(LINEK) { LINE_RUN(TOP(), code + pc, (int)OP_PC, TOP()); pc += 3; NEXT(); }
      CASE(SEES) {
        int32_t g = POP(), v = POP(), b = POP(), a = TOP();
        if ((uint32_t)a >= (uint32_t)p->ncells) FAIL("cell %d is off the board", a);
        if ((uint32_t)b >= (uint32_t)p->ncells) FAIL("cell %d is off the board", b);
        TOP() = aot_sees(vm->slots + code[pc], p->width, a, b, v, g);
        pc += 2;
        NEXT();
      }
      CASE(COUNTS) {
        TOP() = aot_counts(vm->slots + code[pc], code[pc + 1], TOP());
        pc += 2;
        NEXT();
      }
      CASE(FINDS) {
        int32_t i = POP();
        TOP() = aot_finds(vm->slots + code[pc], code[pc + 1], TOP(), i);
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
      CASE(STEPN) {
        /* n steps towards d (-n: the other way); -1 once off the board. */
        int32_t n = POP(), d = POP(), c = TOP();
        if ((uint32_t)c >= (uint32_t)p->ncells) FAIL("cell %d is off the board", c);
        if ((uint32_t)d >= DIR_COUNT) FAIL("bad direction %d", d);
        TOP() = aot_stepn(p->step, c, d, n, p->width + p->height);
        NEXT();
      }
      CASE(SPAN) {
        int32_t v = POP(), d = POP(), c = TOP();
        if ((uint32_t)c >= (uint32_t)p->ncells) FAIL("cell %d is off the board", c);
        if ((uint32_t)d >= DIR_COUNT) FAIL("bad direction %d", d);
        TOP() = aot_span(vm->slots + code[pc], p->step, c, d, v);
        pc += 2;
        NEXT();
      }
      CASE(LEAP) {
        int32_t dy = POP(), dx = POP(), c = TOP();
        if ((uint32_t)c >= (uint32_t)p->ncells) FAIL("cell %d is off the board", c);
        TOP() = aot_leap(c, dx, dy, p->width, p->height);
        NEXT();
      }
      CASE(TURN) {
        int32_t k = POP(), d = TOP();
        if ((uint32_t)d >= DIR_COUNT) FAIL("bad direction %d", d);
        TOP() = aot_turn(d, k);
        NEXT();
      }
      CASE(NEXTP) {
        int32_t pl = TOP();
        if (p->chance && pl == p->chance)
          FAIL("opponent() of the chance player (in a chance move, 'roller' is the player it rolls for)");
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
      /* EMITK with its operands at w, failing at `at` (shared with
      ** JSNEK_EMITK). */
#define EMIT_K(w, at) do { \
        if (vm->nmoves >= GAME_MAX_MOVES) \
          vm_fail(vm, (at), depth, EXIT_RUNTIME, "too many legal moves (limit is %d)", GAME_MAX_MOVES); \
        Move *m = &vm->movebuf[vm->nmoves++]; \
        memset(m, 0, sizeof *m); \
        m->rule = (uint16_t)(w)[0]; \
        m->arg[0] = (int16_t)(w)[1]; \
      } while (0)
      CASE(EMITK) { EMIT_K(code + pc, (int)OP_PC); pc += 2; NEXT(); }
      CASE(SETNEXT) CASE(NEXTCHANCE) { sp--; vm_rare_op(vm, code[OP_PC], OP_PC, depth, sp, 1); NEXT(); }
      CASE(PAY) { sp -= 2; vm_rare_op(vm, code[OP_PC], OP_PC, depth, sp, 2); NEXT(); }
      CASE(CONTMOVE) vm_rare_op(vm, code[OP_PC], OP_PC, depth, sp, 0); NEXT();
      CASE(PRIORITY) { sp--; vm_rare_op(vm, code[OP_PC], OP_PC, depth, sp, 1); NEXT(); }
      CASE(ILLEGAL) vm_rare_op(vm, code[OP_PC], OP_PC, depth, sp, 0); return 0;
      CASE(WIN) CASE(LOSE) { sp--; vm_rare_op(vm, code[OP_PC], OP_PC, depth, sp, 1); return 0; }
      CASE(DRAW) vm_rare_op(vm, code[OP_PC], OP_PC, depth, sp, 0); return 0;
      CASE(SCORE) { int n = code[pc]; sp -= n; vm_rare_op(vm, code[OP_PC], OP_PC, depth, sp, n); return 0; }
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
      CASE(JSEQK) { pc = vm->slots[code[pc + 2]] == code[pc + 1] ? code[pc] : pc + 3; NEXT(); }
      CASE(JSNEK) { pc = vm->slots[code[pc + 2]] != code[pc + 1] ? code[pc] : pc + 3; NEXT(); }
      CASE(LOADLK) {
        int32_t r;
        if (__builtin_add_overflow(locals[code[pc]], code[pc + 1], &r)) FAIL("integer overflow");
        PUSH(r);
        pc += 2;
        NEXT();
      }
      CASE(SETL) locals[code[pc]] = code[pc + 1]; pc += 2; NEXT();
      /* INCL and INCS with their operands at w, failing at `at` (shared
      ** with INCL_LOOP and STORESIS_INCS). */
#define INC_L(w, at) do { \
        int32_t r_; \
        if (__builtin_add_overflow(locals[(w)[0]], (w)[1], &r_)) \
          vm_fail(vm, (at), depth, EXIT_RUNTIME, "integer overflow"); \
        locals[(w)[0]] = r_; \
      } while (0)
#define INC_S(w, at) do { \
        int32_t r_; \
        if (__builtin_add_overflow(vm->slots[(w)[0]], (w)[1], &r_)) \
          vm_fail(vm, (at), depth, EXIT_RUNTIME, "integer overflow"); \
        store_slot(vm, (w)[0], r_, (at)); \
      } while (0)
      CASE(INCL) { INC_L(code + pc, (int)OP_PC); pc += 2; NEXT(); }
      CASE(TEEL) locals[code[pc]] = TOP(); pc++; NEXT();
      CASE(LOADSL) {
        int32_t i = locals[code[pc + 2]];
        CHECK_INDEX(i, code[pc + 1]);
        PUSH(vm->slots[code[pc] + i]);
        pc += 3;
        NEXT();
      }
      CASE(LOADSXY) {
        int32_t y = POP(), x = TOP();
        CHECK_XY(x, y);
        TOP() = vm->slots[code[pc] + y * p->width + x];
        pc += 2;
        NEXT();
      }
      /* STORESIS and ATLK as they start a superinstruction too. */
#define STORE_SIS() do { \
        int32_t i_ = POP(); \
        CHECK_INDEX(i_, code[pc + 1]); \
        store_slot(vm, code[pc] + i_, vm->slots[code[pc + 2]], OP_PC); \
      } while (0)
#define AT_LK() do { \
        int32_t x_, y_ = locals[code[pc + 2]]; \
        if (__builtin_add_overflow(locals[code[pc]], code[pc + 1], &x_)) \
          vm_fail(vm, (int)pc + 1, depth, EXIT_RUNTIME, "integer overflow"); \
        CHECK_XY(x_, y_); \
        PUSH(y_ * p->width + x_); \
      } while (0)
      CASE(STORESIS) { STORE_SIS(); pc += 3; NEXT(); }
      CASE(ATLK) { AT_LK(); pc += 3; NEXT(); }
      CASE(ATL) {
        int32_t y = locals[code[pc]], x = TOP();
        CHECK_XY(x, y);
        TOP() = y * p->width + x;
        pc++;
        NEXT();
      }
      CASE(INCS) { INC_S(code + pc, (int)OP_PC); pc += 2; NEXT(); }
      /* Two handlers, not one with a test of op: each predicts its own. */
#define LOAD_SXY(y) do { \
        int32_t x = TOP(); \
        CHECK_XY(x, y); \
        TOP() = vm->slots[code[pc] + (y) * p->width + x]; \
        pc += 3; \
      } while (0)
      CASE(LOADSXYL) { int32_t y = locals[code[pc + 2]]; LOAD_SXY(y); NEXT(); }
      CASE(LOADSXYK) { int32_t y = code[pc + 2]; LOAD_SXY(y); NEXT(); }
      /* x's addition fails where the LOADLK fused into this did: the
      ** position of operand D. */
#define CELL_XYLK(v) do { \
        int32_t x, y = locals[code[pc + 1]]; \
        if (__builtin_add_overflow(locals[code[pc + 2]], code[pc + 3], &x)) \
          vm_fail(vm, (int)pc + 3, depth, EXIT_RUNTIME, "integer overflow"); \
        CHECK_XY(x, y); \
        v = vm->slots[code[pc] + y * p->width + x]; \
      } while (0)
      CASE(LOADSXYLK) { int32_t v; CELL_XYLK(v); PUSH(v); pc += 4; NEXT(); }
      /* The superinstructions (vm_fuse.c).  pc is the first part's first
      ** operand; the second part's opcode word is at pc + (the first's
      ** operands), its operands after it. */
      FUSED(LOADSXYLK_JEQK) { int32_t v; CELL_XYLK(v); pc = v == code[pc + 6] ? code[pc + 5] : pc + 7; NEXT(); }
      FUSED(LOADSXYLK_JNEK) { int32_t v; CELL_XYLK(v); pc = v != code[pc + 6] ? code[pc + 5] : pc + 7; NEXT(); }
#undef CELL_XYLK
      FUSED(INCL_LOOP) { INC_L(code + pc, (int)OP_PC); COUNT_STEP((int)pc + 2); pc = code[pc + 3]; NEXT(); }
      FUSED(JSNEK_EMITK) {
        if (vm->slots[code[pc + 2]] != code[pc + 1]) { pc = code[pc]; NEXT(); }
        EMIT_K(code + pc + 4, (int)pc + 3);
        pc += 6;
        NEXT();
      }
      FUSED(ATLK_TEEL) { AT_LK(); locals[code[pc + 4]] = TOP(); pc += 5; NEXT(); }
      FUSED(STORESIS_INCS) { STORE_SIS(); INC_S(code + pc + 4, (int)pc + 3); pc += 6; NEXT(); }
      FUSED(LOADL_LINEK) {
        int32_t c = locals[code[pc]], r;
        LINE_RUN(c, code + pc + 2, (int)pc + 1, r);
        PUSH(r);
        pc += 5;
        NEXT();
      }
#undef LINE_RUN
#undef EMIT_K
#undef STORE_SIS
#undef AT_LK
#undef INC_L
#undef INC_S
#undef LOAD_SXY
      CASE(FORL) CASE(FORK) {
        /* Counted loops: the counter cannot overflow, it stops at a limit
        ** no larger than INT32_MAX - 1 (bounds are checked ranges). */
        int32_t lim = code[OP_PC] == OP_FORL ? locals[code[pc + 1]] : code[pc + 1];
        if (locals[code[pc]] < lim) {
          locals[code[pc]]++;
          COUNT_STEP((int)OP_PC);
          pc = code[pc + 2];
        } else {
          pc += 3;
        }
        NEXT();
      }
      CASE(DEFER) {
        /* Stops when the move being played may leave the rest for later
        ** and the step budget cannot run out in it (compiler/defer.c). */
        if (vm->h.defer_now && vm->h.steps <= VM_MAX_STEPS - code[pc]) {
          /* The locals stay where they are (depth 0: the stack's base). */
          vm->h.pending = 1;
          vm->h.pend_pc = OP_PC + 2;
          vm->h.pend_steps = vm->h.steps;
          vm->pend_on_stack = ch->nlocals;
          return 0;
        }
        pc++;
        NEXT();
      }
      CASE(HALT) return 0;
      DISPATCH_END();
#undef CASE
#undef FUSED
#undef NEXT
#undef DISPATCH_START
#undef DISPATCH_END
#undef POP
#undef PUSH
#undef TOP
#undef COUNT_STEP
#undef FAIL
#undef OP_PC
#undef STACK_BEFORE
#undef STACK_AFTER
}
