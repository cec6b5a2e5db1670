/*
** aot_gen.c -- the compiled tier's translator: a game's bytecode to C.
**
** One C function per chunk, one label per instruction.  The operand stack
** becomes C variables s0, s1, ... : each instruction's stack height is
** known before it runs (a data-flow pass over the chunk's control flow,
** which also checks every instruction's effect against opcodes.def and
** the chunk's maxstack, as the interpreter's checked build does at run
** time), so PUSH and POP are assignments the C compiler keeps in
** registers.  Locals are C variables too (an array that never escapes
** when an instruction indexes them).  Program tables
** (constants, slot ranges, the board's neighbours) are emitted as static
** data, parameters as literals.
**
** The semantics are the interpreter's (interp.c), instruction for
** instruction: the same checks in the same order with the same messages,
** the step budget, the call depth and stack-space limits; rare
** instructions call the interpreter's own definition (vm_rare_op) and
** every state write goes through store_slot() when off aot_store's fast
** path.  tests/t_compiled.sh compares the two on every bundled game.
*/
#include "vm/aot_gen.h"
#include "vm/vm_int.h"
#include "compiler/opcodes.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A frame's locals live on the C stack: 256 nested calls of this many
** words stay far below a thread's stack. */
#define AOT_MAX_FRAME 2048

typedef struct Out {
  char *buf;
  size_t len, cap;
  int oom;
} Out;

static void out(Out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void out(Out *o, const char *fmt, ...) {
  if (o->oom) return;
  for (;;) {
    va_list ap;
    va_start(ap, fmt);
    /* No pointer arithmetic on the first call's NULL buffer (UBSan). */
    int n = vsnprintf(o->buf ? o->buf + o->len : NULL, o->cap - o->len, fmt, ap);
    va_end(ap);
    if (n < 0) { o->oom = 1; return; }
    if (o->len + (size_t)n < o->cap) { o->len += (size_t)n; return; }
    size_t cap = o->cap * 2 + (size_t)n + 4096;
    char *b = realloc(o->buf, cap);
    if (!b) { o->oom = 1; return; }
    o->buf = b;
    o->cap = cap;
  }
}

/* The stack height before each instruction of chunk ci reachable from its
** start (-1: unreachable): 1; 0 with the reason when the code is not what
** the compiler makes (a height that differs between paths, an effect
** beyond the chunk's maxstack, a jump into an operand); -1 out of
** memory. */
static int chunk_heights(const Program *p, int ci, int *height, char *why, size_t n) {
  const Chunk *ch = &p->chunks[ci];
  const int32_t *code = p->code;
  int *work = malloc((size_t)p->ncode * sizeof *work), nwork = 0;
  if (!work) return -1;
  for (int i = 0; i < p->ncode; i++) height[i] = -1;
  height[ch->start] = 0;
  work[nwork++] = ch->start;
  while (nwork > 0) {
    int pc = work[--nwork], op = code[pc];
    if (op < 0 || op >= OP__COUNT || pc + op_operands[op] >= p->ncode) goto bad;
    int32_t a = op_operands[op] > 0 ? code[pc + 1] : 0, b = op_operands[op] > 1 ? code[pc + 2] : 0;
    if (op == OP_CALL && (a < 0 || a >= p->nchunks)) goto bad;
    int r = op == OP_CALL ? p->chunks[a].returns : 0;
    int h = height[pc];
    if (h < op_pops(op, a, b)) goto bad;
    int after = h - op_pops(op, a, b) + op_pushes(op, a, b, r);
    if (after > ch->maxstack) goto bad;
    if (op_ends_run(op)) continue;
    int next[2] = { -1, -1 };
    if (op != OP_JMP && op != OP_LOOP) next[0] = pc + 1 + op_operands[op];
    next[1] = op_jump_target(code, pc);
    if ((op == OP_JMP || op == OP_LOOP) && next[1] < 0) goto bad;
    for (int k = 0; k < 2; k++) {
      int q = next[k];
      if (q < 0) continue;
      if (q >= p->ncode) goto bad;
      if (height[q] < 0) { height[q] = after; work[nwork++] = q; }
      else if (height[q] != after) goto bad;
    }
  }
  free(work);
  /* No reachable instruction starts inside another's operands. */
  for (int pc = 0, end = 0; pc < p->ncode; pc++)
    if (height[pc] >= 0) {
      if (pc < end) { snprintf(why, n, "a jump into an instruction's operands in chunk %d", ci); return 0; }
      end = pc + 1 + op_operands[code[pc]];
    }
  return 1;
bad:
  free(work);
  snprintf(why, n, "chunk %d's stack effects do not agree with its code", ci);
  return 0;
}

static void emit_table32(Out *o, const char *name, const int32_t *v, int n) {
  out(o, "static const int32_t %s[%d] = {", name, n > 0 ? n : 1);
  for (int i = 0; i < n; i++) out(o, "%s%d", i == 0 ? "\n  " : i % 16 ? "," : ",\n  ", (int)v[i]);
  out(o, "%s};\n", n > 0 ? "" : "0");
}

/* The program's tables and parameters. */
static void emit_tables(Out *o, const Program *p) {
  emit_table32(o, "K", p->konst, p->nkonst);
  emit_table32(o, "LO", p->lo, p->nslots);
  emit_table32(o, "HI", p->hi, p->nslots);
  int nstep = p->step ? p->ncells * DIR_COUNT : 0;
  out(o, "static const int16_t STEP[%d] = {", nstep > 0 ? nstep : 1);
  for (int i = 0; i < nstep; i++) out(o, "%s%d", i == 0 ? "\n  " : i % 16 ? "," : ",\n  ", p->step[i]);
  out(o, "%s};\n", nstep > 0 ? "" : "0");
  int nnb = p->nbr_start ? p->nbr_start[p->ncells] : 0;
  emit_table32(o, "NBS", (const int32_t *)p->nbr_start, p->nbr_start ? p->ncells + 1 : 0);
  emit_table32(o, "NB", (const int32_t *)p->nbr, nnb);
  out(o, "#define W %d\n#define H %d\n#define NCELLS %d\n#define NPLAYERS %d\n#define CHANCE %d\n",
      p->width, p->height, p->ncells, p->nplayers, p->chance);
  out(o, "#define MAX_STEPS %d\n#define MAX_CALLS %d\n#define STACK_WORDS %d\n#define MAX_MOVES %d\n",
      VM_MAX_STEPS, VM_MAX_CALLS, VM_STACK_WORDS, GAME_MAX_MOVES);
  out(o, "#define ZB %d\n", vm_zobrist_entries(p) > 0);
  out(o, "#define FAIL(pc, ...) e->fail(e->vm, pc, depth, %d, __VA_ARGS__)\n", EXIT_RUNTIME);
  /* The step count lives in ST, a local of each chunk's function that cc
  ** keeps in a register, and goes back to the VM (SYNC) before anything
  ** else reads it: a call, a DEFER, a return. */
  out(o, "#define SYNC (e->h->steps = ST)\n");
  out(o, "#define STEPS(pc) if (++ST > MAX_STEPS) "
         "FAIL(pc, \"step budget exhausted (limit is %%d steps)\", MAX_STEPS)\n");
  out(o, "#define CHECKI(pc, i, n) if ((uint32_t)(i) >= (uint32_t)(n)) "
         "FAIL(pc, \"index %%d out of range 0..%%d\", (int)(i), (int)(n) - 1)\n");
  out(o, "#define CELL(pc, c) if ((uint32_t)(c) >= (uint32_t)NCELLS) FAIL(pc, \"cell %%d is off the board\", (int)(c))\n");
  out(o, "#define DIR(pc, d) if ((uint32_t)(d) >= 8u) FAIL(pc, \"bad direction %%d\", (int)(d))\n");
  out(o, "#define XY(pc, x, y) if ((uint32_t)(x) >= (uint32_t)W) FAIL(pc, \"column %%d out of range 0..%%d\", (int)(x), W - 1); "
         "if ((uint32_t)(y) >= (uint32_t)H) FAIL(pc, \"row %%d out of range 0..%%d\", (int)(y), H - 1)\n");
  out(o, "#define OVF(pc, x) if (x) FAIL(pc, \"integer overflow\")\n");
}

/* A counted loop copied once per pass (emit_unrolled): FORK at `fork`
** jumping back to `head`, its counter local[A] starting at a constant and
** written by nothing in the body, so pass `it` runs with it known. */
typedef struct Unroll {
  int head, fork;     /* the body is [head, fork], the FORK included */
  int n;              /* passes */
  int it;             /* the pass being emitted */
} Unroll;

/* The label of jump target t: inside an unrolled body, the pass's copy. */
static const char *lab(const Unroll *u, int t) {
  static _Thread_local char buf[4][32];
  static _Thread_local int k;
  char *b = buf[k++ & 3];
  if (u && t >= u->head && t <= u->fork) snprintf(b, sizeof buf[0], "P%d_%d", t, u->it);
  else snprintf(b, sizeof buf[0], "P%d", t);
  return b;
}

/* The chunk being emitted keeps its locals in C variables L0, L1, ...
** (no instruction indexes them), which cc keeps in registers; else in an
** array L. */
static _Thread_local int scalar_locals;
#define AOT_MAX_SCALARS 64

/* Local i's name in the C text. */
static const char *loc(int i) {
  static _Thread_local char buf[4][24];
  static _Thread_local int k;
  char *b = buf[k++ & 3];
  snprintf(b, sizeof buf[0], scalar_locals ? "L%d" : "L[%d]", i);
  return b;
}

/* How many C variables hold a chunk's locals: every chunk declares as
** many as the largest frame. */
static int scalar_count(const Program *p) {
  int n = 0;
  for (int i = 0; i < p->nchunks; i++)
    if (p->chunks[i].nlocals > n) n = p->chunks[i].nlocals;
  return n;
}

/* May a chunk's locals be C variables?  Not when an instruction indexes
** them (LOADLI, STORELI, CLEARL) or there are too many. */
static int locals_scalar(const Program *p, const int *height) {
  if (scalar_count(p) > AOT_MAX_SCALARS) return 0;
  for (int pc = 0; pc < p->ncode; pc++) {
    if (height[pc] < 0) continue;
    int op = p->code[pc];
    if (op == OP_LOADLI || op == OP_STORELI || op == OP_CLEARL) return 0;
  }
  return 1;
}

/* The bounds of a store into slots [a, a + n) at index s<i>, as C
** arguments "lo, hi": constants when every slot has the same range (a
** board of one type), else the tables' entries. */
static const char *range_of(const Program *p, int a, int n, int i) {
  static _Thread_local char buf[96];
  int same = a >= 0 && n > 0 && a + n <= p->nslots;
  for (int k = 1; same && k < n; k++) same = p->lo[a + k] == p->lo[a] && p->hi[a + k] == p->hi[a];
  if (same) snprintf(buf, sizeof buf, "%d, %d", p->lo[a], p->hi[a]);
  else snprintf(buf, sizeof buf, "LO[%d + s%d], HI[%d + s%d]", a, i, a, i);
  return buf;
}

/* One instruction at pc with stack height h (s<h-1> is the top), in pass
** u->it of an unrolled loop when u is not NULL. */
static void emit_op(Out *o, const Program *p, const Chunk *ch, int pc, int h, const Unroll *un) {
  const int32_t *code = p->code;
  int op = code[pc];
  int32_t A = op_operands[op] > 0 ? code[pc + 1] : 0;
  int32_t B = op_operands[op] > 1 ? code[pc + 2] : 0;
  int32_t C = op_operands[op] > 2 ? code[pc + 3] : 0;
  int32_t D = op_operands[op] > 3 ? code[pc + 4] : 0;
  int t = h - 1, u = h - 2;   /* the top two */
  out(o, "%s: ", lab(un, pc));
  switch (op) {
    case OP_CONST: out(o, "s%d = %d;", h, A); break;
    case OP_POP: out(o, ";"); break;
    case OP_DUP: out(o, "s%d = s%d;", h, t); break;
    case OP_LOADL: out(o, "s%d = %s;", h, loc(A)); break;
    case OP_STOREL: out(o, "%s = s%d;", loc(A), t); break;
    case OP_CLEARL: out(o, "memset(L + %d, 0, %d * sizeof(int32_t));", A, B); break;
    case OP_LOADLI: out(o, "CHECKI(%d, s%d, %d); s%d = L[%d + s%d];", pc, t, B, t, A, t); break;
    case OP_STORELI: out(o, "CHECKI(%d, s%d, %d); L[%d + s%d] = s%d;", pc, u, B, A, u, t); break;
    case OP_LOADS: out(o, "s%d = SL[%d];", h, A); break;
    case OP_STORES: out(o, "aot_store(e, %d, s%d, %d, %d, %d, depth, FX, ZB);", A, t, p->lo[A], p->hi[A], pc); break;
    case OP_LOADSI: out(o, "CHECKI(%d, s%d, %d); s%d = SL[%d + s%d];", pc, t, B, t, A, t); break;
    case OP_STORESI:
      out(o, "CHECKI(%d, s%d, %d); aot_store(e, %d + s%d, s%d, %s, %d, depth, FX, ZB);",
          pc, u, B, A, u, t, range_of(p, A, B, u), pc);
      break;
    case OP_LOADK: out(o, "CHECKI(%d, s%d, %d); s%d = K[%d + s%d];", pc, t, B, t, A, t); break;
    case OP_CHECK: out(o, "CHECKI(%d, s%d, %d);", pc, t, A); break;
    case OP_ADD: out(o, "OVF(%d, __builtin_add_overflow(s%d, s%d, &s%d));", pc, u, t, u); break;
    case OP_SUB: out(o, "OVF(%d, __builtin_sub_overflow(s%d, s%d, &s%d));", pc, u, t, u); break;
    case OP_MUL: out(o, "OVF(%d, __builtin_mul_overflow(s%d, s%d, &s%d));", pc, u, t, u); break;
    case OP_DIV: case OP_MOD:
      out(o, "if (s%d == 0) FAIL(%d, \"division by zero\"); OVF(%d, s%d == -1 && s%d == INT32_MIN); "
             "s%d = aot_floor_%s(s%d, s%d);", t, pc, pc, t, u, u, op == OP_DIV ? "div" : "mod", u, t);
      break;
    case OP_NEG: out(o, "OVF(%d, s%d == INT32_MIN); s%d = -s%d;", pc, t, t, t); break;
    case OP_NOT: out(o, "s%d = !s%d;", t, t); break;
    case OP_EQ: out(o, "s%d = s%d == s%d;", u, u, t); break;
    case OP_NE: out(o, "s%d = s%d != s%d;", u, u, t); break;
    case OP_LT: out(o, "s%d = s%d < s%d;", u, u, t); break;
    case OP_LE: out(o, "s%d = s%d <= s%d;", u, u, t); break;
    case OP_GT: out(o, "s%d = s%d > s%d;", u, u, t); break;
    case OP_GE: out(o, "s%d = s%d >= s%d;", u, u, t); break;
    case OP_ADDK: out(o, "OVF(%d, __builtin_add_overflow(s%d, %d, &s%d));", pc, t, A, t); break;
    case OP_JMP: out(o, "goto %s;", lab(un, A)); break;
    case OP_JLT: out(o, "if (s%d < s%d) goto %s;", u, t, lab(un, A)); break;
    case OP_JLE: out(o, "if (s%d <= s%d) goto %s;", u, t, lab(un, A)); break;
    case OP_JGT: out(o, "if (s%d > s%d) goto %s;", u, t, lab(un, A)); break;
    case OP_JGE: out(o, "if (s%d >= s%d) goto %s;", u, t, lab(un, A)); break;
    case OP_JEQ: out(o, "if (s%d == s%d) goto %s;", u, t, lab(un, A)); break;
    case OP_JNE: out(o, "if (s%d != s%d) goto %s;", u, t, lab(un, A)); break;
    case OP_JLTK: out(o, "if (s%d < %d) goto %s;", t, B, lab(un, A)); break;
    case OP_JLEK: out(o, "if (s%d <= %d) goto %s;", t, B, lab(un, A)); break;
    case OP_JGTK: out(o, "if (s%d > %d) goto %s;", t, B, lab(un, A)); break;
    case OP_JGEK: out(o, "if (s%d >= %d) goto %s;", t, B, lab(un, A)); break;
    case OP_JEQK: out(o, "if (s%d == %d) goto %s;", t, B, lab(un, A)); break;
    case OP_JNEK: out(o, "if (s%d != %d) goto %s;", t, B, lab(un, A)); break;
    case OP_JSEQK: out(o, "if (SL[%d] == %d) goto %s;", C, B, lab(un, A)); break;
    case OP_JSNEK: out(o, "if (SL[%d] != %d) goto %s;", C, B, lab(un, A)); break;
    case OP_LOADLK: out(o, "OVF(%d, __builtin_add_overflow(%s, %d, &s%d));", pc, loc(A), B, h); break;
    case OP_SETL: out(o, "%s = %d;", loc(A), B); break;
    case OP_INCL: out(o, "OVF(%d, __builtin_add_overflow(%s, %d, &%s));", pc, loc(A), B, loc(A)); break;
    case OP_TEEL: out(o, "%s = s%d;", loc(A), t); break;
    case OP_LOADSL: out(o, "CHECKI(%d, %s, %d); s%d = SL[%d + %s];", pc, loc(C), B, h, A, loc(C)); break;
    case OP_LOADSXY: out(o, "XY(%d, s%d, s%d); s%d = SL[%d + s%d * W + s%d];", pc, u, t, u, A, t, u); break;
    case OP_STORESIS:
      out(o, "CHECKI(%d, s%d, %d); aot_store(e, %d + s%d, SL[%d], %s, %d, depth, FX, ZB);",
          pc, t, B, A, t, C, range_of(p, A, B, t), pc);
      break;
    case OP_ATLK:
      out(o, "OVF(%d, __builtin_add_overflow(%s, %d, &s%d)); XY(%d, s%d, %s); s%d = %s * W + s%d;",
          pc + 2, loc(A), B, h, pc, h, loc(C), h, loc(C), h);
      break;
    case OP_LOADSXYLK:
      out(o, "OVF(%d, __builtin_add_overflow(%s, %d, &s%d)); XY(%d, s%d, %s); s%d = SL[%d + %s * W + s%d];",
          pc + 4, loc(C), D, h, pc, h, loc(B), h, A, loc(B), h);
      break;
    case OP_ATL: out(o, "XY(%d, s%d, %s); s%d = %s * W + s%d;", pc, t, loc(A), t, loc(A), t); break;
    case OP_INCS:
      out(o, "{ int32_t r; OVF(%d, __builtin_add_overflow(SL[%d], %d, &r)); aot_store(e, %d, r, %d, %d, %d, depth, FX, ZB); }",
          pc, A, B, A, p->lo[A], p->hi[A], pc);
      break;
    case OP_LOADSXYL: out(o, "XY(%d, s%d, %s); s%d = SL[%d + %s * W + s%d];", pc, t, loc(C), t, A, loc(C), t); break;
    case OP_LOADSXYK: out(o, "XY(%d, s%d, %d); s%d = SL[%d + %d * W + s%d];", pc, t, C, t, A, C, t); break;
    case OP_FORL: case OP_FORK:
      if (op == OP_FORL) out(o, "if (%s < %s) ", loc(A), loc(B));
      else out(o, "if (%s < %d) ", loc(A), B);
      /* In an unrolled pass the test is known (the C compiler folds it):
      ** the next pass, never taken from the last one. */
      if (un && pc == un->fork)
        out(o, "{ %s++; STEPS(%d); goto P%d_%d; }", loc(A), pc, C, un->it + 1 < un->n ? un->it + 1 : un->it);
      else
        out(o, "{ %s++; STEPS(%d); goto %s; }", loc(A), pc, lab(un, C));
      break;
    case OP_JMPF: out(o, "if (!s%d) goto %s;", t, lab(un, A)); break;
    case OP_JMPT: out(o, "if (s%d) goto %s;", t, lab(un, A)); break;
    case OP_LOOP: out(o, "STEPS(%d); goto %s;", pc, lab(un, A)); break;
    case OP_CALL: {
      const Chunk *callee = &p->chunks[A];
      out(o, "{ STEPS(%d); if (depth + 1 >= MAX_CALLS) FAIL(%d, \"too many nested calls (limit is %%d)\", MAX_CALLS); ",
          pc, pc);
      out(o, "int nb = base + %d; if (nb + %d > STACK_WORDS) FAIL(%d, \"out of stack space for locals\"); ",
          ch->nlocals + h - B, callee->nlocals + callee->maxstack, pc);
      out(o, "if (depth == 0) *e->ret_pc1 = %d; ", pc + 3);
      out(o, "int32_t a[%d] = {", B > 0 ? B : 1);
      for (int i = 0; i < B; i++) out(o, "%ss%d", i ? ", " : "", h - B + i);
      out(o, "%s}; SYNC; int32_t r = c%d(e, a, %d, depth + 1, nb); ST = e->h->steps; if (e->halted) return 0; ", B > 0 ? "" : "0", A, B);
      if (callee->returns) out(o, "s%d = r; ", h - B);
      out(o, "(void)r; }");
      break;
    }
    case OP_RET: out(o, "SYNC; return s%d;", t); break;
    case OP_RET0: out(o, "SYNC; return 0;"); break;
    case OP_NORET: out(o, "FAIL(%d, \"the function ended without returning a value\");", pc); break;
    case OP_STEP: out(o, "CELL(%d, s%d); DIR(%d, s%d); s%d = STEP[s%d * 8 + s%d];", pc, u, pc, t, u, u, t); break;
    case OP_AT: out(o, "XY(%d, s%d, s%d); s%d = s%d * W + s%d;", pc, u, t, u, t, u); break;
    case OP_COLOF: out(o, "CELL(%d, s%d); s%d = s%d %% (W ? W : 1);", pc, t, t, t); break;
    case OP_ROWOF: out(o, "CELL(%d, s%d); s%d = s%d / (W ? W : 1);", pc, t, t, t); break;
    case OP_LINE: out(o, "CELL(%d, s%d); DIR(%d, s%d); s%d = aot_line(SL + %d, STEP, s%d, s%d);", pc, u, pc, t, u, A, u, t); break;
    case OP_LINEK: out(o, "CELL(%d, s%d); DIR(%d, %d); s%d = aot_line(SL + %d, STEP, s%d, %d);", pc, t, pc, C, t, A, t, C); break;
    case OP_COUNTS: out(o, "s%d = aot_counts(SL + %d, %d, s%d);", t, A, B, t); break;
    case OP_SEES:   /* a b v g: s[h-4] .. s[h-1] */
      out(o, "CELL(%d, s%d); CELL(%d, s%d); s%d = aot_sees(SL + %d, W, s%d, s%d, s%d, s%d);", pc, h - 4, pc, h - 3,
          h - 4, A, h - 4, h - 3, h - 2, h - 1);
      break;
    case OP_FINDS: out(o, "s%d = aot_finds(SL + %d, %d, s%d, s%d);", u, A, B, u, t); break;
    case OP_NBRN: out(o, "CELL(%d, s%d); s%d = NBS[s%d + 1] - NBS[s%d];", pc, t, t, t, t); break;
    case OP_NBR: out(o, "s%d = NB[NBS[s%d] + s%d];", u, u, t); break;
    case OP_OPPOSITE: out(o, "s%d = (s%d + 4) %% 8;", t, t); break;
    case OP_STEPN:
      out(o, "CELL(%d, s%d); DIR(%d, s%d); s%d = aot_stepn(STEP, s%d, s%d, s%d, W + H);",
          pc, h - 3, pc, u, h - 3, h - 3, u, t);
      break;
    case OP_TURN: out(o, "DIR(%d, s%d); s%d = aot_turn(s%d, s%d);", pc, u, u, u, t); break;
    case OP_SPAN:
      out(o, "CELL(%d, s%d); DIR(%d, s%d); s%d = aot_span(SL + %d, STEP, s%d, s%d, s%d);",
          pc, h - 3, pc, u, h - 3, A, h - 3, u, t);
      break;
    case OP_LEAP: out(o, "CELL(%d, s%d); s%d = aot_leap(s%d, s%d, s%d, W, H);", pc, h - 3, h - 3, h - 3, u, t); break;
    case OP_NEXTP:
      out(o, "if (CHANCE && s%d == CHANCE) FAIL(%d, \"opponent() of the chance player (in a chance move, "
             "'roller' is the player it rolls for)\"); if (s%d < 1 || s%d > NPLAYERS) FAIL(%d, \"opponent() "
             "of no player\"); s%d = s%d %% NPLAYERS + 1;", t, pc, t, t, pc, t, t);
      break;
    case OP_ABS: out(o, "OVF(%d, s%d == INT32_MIN); if (s%d < 0) s%d = -s%d;", pc, t, t, t, t); break;
    case OP_MIN: out(o, "if (s%d < s%d) s%d = s%d;", t, u, u, t); break;
    case OP_MAX: out(o, "if (s%d > s%d) s%d = s%d;", t, u, u, t); break;
    case OP_EMITK:
      out(o, "{ if (*e->nmoves >= MAX_MOVES) FAIL(%d, \"too many legal moves (limit is %%d)\", MAX_MOVES); "
             "AotMove *m = *e->movebuf + (*e->nmoves)++; memset(m, 0, sizeof *m); m->rule = %d; "
             "m->arg[0] = (int16_t)%d; }", pc, A, B);
      break;
    case OP_EMIT:
      out(o, "{ if (*e->nmoves >= MAX_MOVES) FAIL(%d, \"too many legal moves (limit is %%d)\", MAX_MOVES); "
             "AotMove *m = *e->movebuf + (*e->nmoves)++; memset(m, 0, sizeof *m); m->rule = %d;", pc, A);
      for (int i = 0; i < B; i++) out(o, " m->arg[%d] = (int16_t)%s;", i, loc(i));
      out(o, " }");
      break;
    case OP_SETNEXT: case OP_NEXTCHANCE: case OP_WIN: case OP_LOSE: case OP_PRIORITY:
      out(o, "{ int32_t v[1] = { s%d }; e->op(e->vm, %d, %d, depth, v, 1); }", t, op, pc);
      break;
    case OP_PAY: out(o, "{ int32_t v[2] = { s%d, s%d }; e->op(e->vm, %d, %d, depth, v, 2); }", u, t, op, pc); break;
    case OP_ILLEGAL: case OP_DRAW: case OP_CONTMOVE: out(o, "e->op(e->vm, %d, %d, depth, SL, 0);", op, pc); break;
    case OP_SCORE:
      out(o, "{ int32_t v[%d] = {", A > 0 ? A : 1);
      for (int i = 0; i < A; i++) out(o, "%ss%d", i ? ", " : "", h - A + i);
      out(o, "%s}; e->op(e->vm, %d, %d, depth, v, %d); }", A > 0 ? "" : "0", op, pc, A);
      break;
    case OP_HALT: out(o, "if (depth) e->op(e->vm, %d, %d, depth, SL, 0);", op, pc); break;
    case OP_DEFER:
      if (scalar_locals) {   /* the locals stored one by one (aot_defer_now) */
        out(o, "SYNC; if (aot_defer_now(e->h, %d, MAX_STEPS)) { int32_t *D = e->h->pend_locals; (void)D;", A);
        for (int i = 0; i < ch->nlocals; i++) out(o, " D[%d] = %s;", i, loc(i));
        out(o, " aot_defer_mark(e->h, %d); return 0; }", pc);
      } else {
        out(o, "SYNC; if (aot_defer(e->h, %d, L, %d, %d, MAX_STEPS)) return 0;", pc, ch->nlocals, A);
      }
      break;
    default: out(o, "FAIL(%d, \"bad opcode %%d\", %d);", pc, op); break;
  }
  if (op == OP_ILLEGAL || op == OP_WIN || op == OP_LOSE || op == OP_DRAW || op == OP_SCORE || op == OP_HALT)
    out(o, " e->halted = 1; SYNC; return 0;");
  out(o, "\n");
}

#define UNROLL_PASSES 8     /* at most this many passes ... */
#define UNROLL_WORDS 160    /* ... of a body at most this long */

/* The counted loops of a chunk worth copying once per pass: a FORK back
** to `head` whose counter is set by `SETL A k` just before head
** and written by nothing in the body, with no jump into the body from
** outside, short and with few passes (the directions of a line test, a
** board's rows).  head_fork[head] := the FORK's pc, passes[head] := the
** passes; -1 elsewhere.  Loops overlapping one already kept are not. */
static void find_unrolls(const Program *p, const int *height, int *head_fork, int *passes) {
  const int32_t *code = p->code;
  for (int pc = 0; pc < p->ncode; pc++) head_fork[pc] = -1;
  int kept_end = -1;
  for (int f = 0; f < p->ncode; f++) {
    if (height[f] < 0 || code[f] != OP_FORK) continue;
    int a = code[f + 1], b = code[f + 2], c = code[f + 3];
    if (c < 4 || c >= f || f - c > UNROLL_WORDS || c <= kept_end) continue;
    if (height[c - 3] < 0 || code[c - 3] != OP_SETL || code[c - 2] != a) continue;
    int64_t trips = (int64_t)b - code[c - 1] + 1;
    if (trips < 1) trips = 1;
    if (trips > UNROLL_PASSES) continue;
    int ok = 1;
    for (int q = c; q < f && ok; q++)
      if (height[q] >= 0 && op_writes_local(code, q, a)) ok = 0;
    /* No jump into the body from outside. */
    for (int q = 0; q < p->ncode && ok; q++) {
      if (height[q] < 0) continue;
      int t = op_jump_target(code, q);
      if (t >= c && t <= f && (q < c || q > f)) ok = 0;
    }
    /* A head-fork pair of a loop already kept inside this one: not both. */
    for (int q = c; q < f && ok; q++)
      if (head_fork[q] >= 0) ok = 0;
    if (!ok) continue;
    head_fork[c] = f;
    passes[c] = (int)trips;
    kept_end = f;
  }
}

/* Does the VM play p's moves by its short way (vm.c: vm->plain or, a move
** of one step of a game with moves of several steps, vm->steps_plain;
** and no `pay`)?  Then the module has a play of its own. */
static int plays_plain(const Program *p) {
  return p->nhidden == 0 && !p->has_illegal && p->rep_kind == REP_NONE && !p->chance && !p->pass_slot &&
         !p->has_pay;
}

/* The module's play (AotModule.play): vm.c's apply_plain with the effect
** called directly, so that cc can inline it and fold its argument count. */
static void emit_play(Out *o, const Program *p) {
  out(o, "static void play(AotEnv *e, const AotMove *m) {\n"
         "  AotHot *h = e->h;\n  int32_t *const SL = e->slots;\n  int d = h->nmarks;\n"
         "  int32_t mover = SL[0];\n"
         "  h->marks[d].trail = h->ntrail;\n  h->marks[d].mover = mover;\n  h->marks[d].hash = h->hash;\n"
         "  h->nmarks = d + 1;\n  h->writable = 1;\n  h->next_mover = 0;\n"
         "  h->defer_now = h->defer_on;\n  h->pend_mover = mover;\n  h->steps = 0;\n  e->halted = 0;\n"
         "  switch (m->rule) {\n");
  for (int i = 0; i < p->nrules; i++) {
    const MoveRule *r = &p->rules[i];
    out(o, "  case %d: { int32_t a[%d] = {", i, r->nargs > 0 ? r->nargs : 1);
    for (int k = 0; k < r->nargs; k++) out(o, "%sm->arg[%d]", k ? ", " : "", k);
    out(o, "%s}; h->pend_chunk = %d; c%d(e, a, %d, 0, 0); break; }\n", r->nargs > 0 ? "" : "0",
        r->effect, r->effect, r->nargs);
  }
  out(o, "  }\n  h->defer_now = 0;\n"
         "  int32_t next = h->next_mover ? h->next_mover : mover < NPLAYERS ? mover + 1 : 1;\n"
         "  aot_set_mover(h, SL, next);\n  h->writable = 0;\n}\n");
}

char *aot_generate(const Program *p, size_t *len, char *why, size_t n, int *status) {
  Out o = { 0 };
  int h;
  *status = EXIT_USAGE;
  int *height = malloc(((size_t)p->ncode + 1) * sizeof *height);
  int *head_fork = malloc(((size_t)p->ncode + 1) * sizeof *head_fork);
  int *passes = malloc(((size_t)p->ncode + 1) * sizeof *passes);
  if (!height || !head_fork || !passes) {
    free(height); free(head_fork); free(passes);
    snprintf(why, n, "out of memory");
    *status = EXIT_LIMIT;
    return NULL;
  }
  out(&o, "/* Generated by gsolve from the bytecode of %s: do not edit. */\n", p->name);
  out(&o, "%s\n", aot_rt_text);
  emit_tables(&o, p);
  for (int ci = 0; ci < p->nchunks; ci++)
    out(&o, "static int32_t c%d(AotEnv *e, const int32_t *args, int n, int depth, int base);\n", ci);
  for (int ci = 0; ci < p->nchunks && !o.oom; ci++) {
    const Chunk *ch = &p->chunks[ci];
    /* An effect is inlined into play, where its argument count is known. */
    out(&o, "static %sint32_t c%d(AotEnv *e, const int32_t *args, int n, int depth, int base) {\n",
        ch->kind == CHUNK_EFFECT && plays_plain(p) ? "inline __attribute__((always_inline)) " : "", ci);
    /* A legality chunk only names its rule's part of the generator's code
    ** in runtime errors: nothing runs it (as a function of its own, its
    ** frame would be too small for the generator's locals it uses). */
    if (ch->start < 0 || ch->start >= p->ncode || ch->kind == CHUNK_LEGALITY) {   /* never run */
      out(&o, "  (void)e; (void)args; (void)n; (void)depth; (void)base; return 0;\n}\n");
      continue;
    }
    if (ch->nlocals > AOT_MAX_FRAME) {
      snprintf(why, n, "%s needs %d locals (the compiled tier's limit is %d)", ch->name ? ch->name : "a rule",
               ch->nlocals, AOT_MAX_FRAME);
      goto fail;
    }
    if ((h = chunk_heights(p, ci, height, why, n)) <= 0) {
      o.oom = h < 0;
      goto fail;
    }
    scalar_locals = locals_scalar(p, height);
    /* A move's effect always runs with state writes allowed (vm.c's
    ** applies, vm_force): its stores need not ask. */
    out(&o, "  enum { FX = %d };\n  long ST = e->h->steps;\n", ch->kind == CHUNK_EFFECT);
    if (scalar_locals) {
      out(&o, "  int32_t *const SL = e->slots;\n");
      for (int i = 0; i < scalar_count(p); i++) out(&o, "%s L%d = 0", i ? "," : "  int32_t", i);
      if (scalar_count(p) > 0) out(&o, ";\n");
    } else {
      out(&o, "  int32_t L[%d]; int32_t *const SL = e->slots;\n", ch->nlocals > 0 ? ch->nlocals : 1);
    }
    for (int i = 0; i < ch->maxstack; i++) out(&o, "%s s%d = 0", i ? "," : "  int32_t", i);
    if (ch->maxstack > 0) out(&o, ";\n");
    /* The arguments, the other locals 0 (unrolled: no library call). */
    int unroll = scalar_locals ? ch->nparams : ch->nlocals < 8 ? ch->nlocals : 8;
    if (ch->nlocals > unroll && !scalar_locals)
      out(&o, "  memset(L, 0, sizeof L);\n  for (int i = %d; i < n; i++) L[i] = args[i];\n", unroll);
    /* Callers pass at most the chunk's parameters: the other locals are 0. */
    for (int i = 0; i < unroll; i++)
      if (i < ch->nparams) out(&o, "  %s = n > %d ? args[%d] : 0;\n", loc(i), i, i);
      else out(&o, "  %s = 0;\n", loc(i));
    /* n < 0: the rest of a deferred effect, from after its DEFER. */
    for (int pc = ch->start; pc < ch->end; pc++)
      if (height[pc] >= 0 && p->code[pc] == OP_DEFER) {
        if (!scalar_locals) {
          out(&o, "  if (n < 0) { memcpy(L, args, %d * sizeof(int32_t)); goto P%d; }\n", ch->nlocals, pc + 2);
          continue;
        }
        out(&o, "  if (n < 0) {");
        for (int i = 0; i < ch->nlocals; i++) out(&o, " L%d = args[%d];", i, i);
        out(&o, " goto P%d; }\n", pc + 2);
      }
    out(&o, "  (void)args; (void)n; (void)base; (void)SL;\n  goto P%d;\n", ch->start);
    find_unrolls(p, height, head_fork, passes);
    for (int pc = 0; pc < p->ncode; pc++) {
      if (height[pc] < 0) continue;
      if (head_fork[pc] < 0) { emit_op(&o, p, ch, pc, height[pc], NULL); continue; }
      Unroll un = { pc, head_fork[pc], passes[pc], 0 };
      for (un.it = 0; un.it < un.n; un.it++)
        for (int q = un.head; q <= un.fork; q++)
          if (height[q] >= 0) emit_op(&o, p, ch, q, height[q], &un);
      pc = un.fork;
    }
    out(&o, "}\n");
  }
  if (plays_plain(p)) emit_play(&o, p);
  out(&o, "static const AotChunkFn chunks[%d] = {", p->nchunks > 0 ? p->nchunks : 1);
  for (int ci = 0; ci < p->nchunks; ci++) out(&o, "%sc%d", ci ? ", " : "", ci);
  out(&o, "%s};\n", p->nchunks > 0 ? "" : "0");
  out(&o, "static const AotModule module = { AOT_ABI, %d, chunks, %s };\n", p->nchunks, plays_plain(p) ? "play" : "0");
  out(&o, "__attribute__((visibility(\"default\"))) const AotModule *gsolve_aot_module(void) { return &module; }\n");
  if (o.oom) goto fail;
  free(height);
  free(head_fork);
  free(passes);
  *status = EXIT_OK;
  *len = o.len;
  return o.buf;
fail:   /* out of memory (o.oom), or the reason is in why */
  free(height);
  free(head_fork);
  free(passes);
  if (o.oom) {
    snprintf(why, n, "out of memory");
    *status = EXIT_LIMIT;
  }
  free(o.buf);
  return NULL;
}
