/*
** emit.c -- the compiler's output: instructions with their stack
** accounting (from opcodes.def), a peephole optimizer, jump patching, and
** the frame's locals and scopes.
*/
#include "compiler/compile_int.h"

#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* Emitting                                                           */
/* ------------------------------------------------------------------ */

/* Net stack effect of an instruction, as opcodes.def declares it.  A
** CALL's operand A is still the function's index (compile_program makes
** it a chunk index at the end). */
static int stack_effect(const Compiler *c, OpCode op, int32_t a, int32_t b) {
  int r = op == OP_CALL && a >= 0 && a < c->r->nfuncs && c->fret[a].kind != TY_VOID;
  return op_pushes(op, a, b, r) - op_pops(op, a, b);
}

int cg_emit_raw(Compiler *c, OpCode op, int32_t a, int32_t b, int32_t cc, Span at) {
  return cg_emit_raw4(c, op, a, b, cc, 0, at);
}

int cg_emit_raw4(Compiler *c, OpCode op, int32_t a, int32_t b, int32_t cc, int32_t d, Span at) {
  Program *p = c->p;
  int n = 1 + op_operands[op];
  if (p->ncode + n > c->cap) {
    if (p->ncode + n > PROG_MAX_CODE) {
      if (!c->oom) diag_error(c->d, at, "the game compiles to too much code (limit is %d words)", PROG_MAX_CODE);
      c->oom = 1;
      return p->ncode;
    }
    int cap = c->cap ? c->cap * 2 : 1024;
    int32_t *code = realloc(p->code, (size_t)cap * sizeof *code);
    if (code) p->code = code;
    int32_t *pos = realloc(p->pos, (size_t)cap * sizeof *pos);
    if (pos) p->pos = pos;
    if (!code || !pos) { c->oom = p->oom = 1; return p->ncode; }
    c->cap = cap;
  }
  int at_pc = p->ncode;
  int32_t words[5] = { op, a, b, cc, d };
  for (int i = 0; i < n; i++) {
    p->code[p->ncode] = words[i];
    p->pos[p->ncode++] = at.start;
  }
  c->stack += stack_effect(c, op, a, b);
  if (c->stack > c->maxstack) c->maxstack = c->stack;
  if (c->nrecent == 4) { memmove(c->recent, c->recent + 1, 3 * sizeof(int)); c->nrecent = 3; }
  c->recent[c->nrecent++] = at_pc;
  return at_pc;
}

/* The k-th last instruction (k = 1: the last) if the peephole may touch
** it: no jump lands after its start.  -1 otherwise. */
static int recent_op(Compiler *c, int k) {
  if (c->nrecent < k || c->oom) return -1;
  int pc = c->recent[c->nrecent - k];
  return pc >= c->barrier ? pc : -1;
}

/* Removes the last k instructions (their stack effects undone). */
static void drop_recent(Compiler *c, int k) {
  for (int i = 0; i < k; i++) {
    int pc = c->recent[--c->nrecent];
    const int32_t *w = c->p->code + pc;
    int n = op_operands[w[0]];
    c->stack -= stack_effect(c, (OpCode)w[0], n > 0 ? w[1] : 0, n > 1 ? w[2] : 0);
    c->p->ncode = pc;
  }
}

static int is_compare(int op) {
  return op == OP_LT || op == OP_LE || op == OP_GT || op == OP_GE || op == OP_EQ || op == OP_NE;
}

/* The conditional jump taken when the comparison holds (or fails). */
static OpCode compare_jump(int cmp, int when_true) {
  static const OpCode yes[] = { OP_JLT, OP_JLE, OP_JGT, OP_JGE, OP_JEQ, OP_JNE };
  static const OpCode no[] = { OP_JGE, OP_JGT, OP_JLE, OP_JLT, OP_JNE, OP_JEQ };
  int i = cmp == OP_LT ? 0 : cmp == OP_LE ? 1 : cmp == OP_GT ? 2 : cmp == OP_GE ? 3 : cmp == OP_EQ ? 4 : 5;
  return when_true ? yes[i] : no[i];
}

/* Folds CONST a; CONST b; op into CONST (a op b) when it cannot fail. */
static int fold_constants(Compiler *c, OpCode op, Span at) {
  int p0 = recent_op(c, 2), p1 = recent_op(c, 1);
  int32_t *code = c->p->code;
  if (p0 < 0 || p1 < 0 || code[p0] != OP_CONST || code[p1] != OP_CONST) return 0;
  int64_t a = code[p0 + 1], b = code[p1 + 1], r;
  switch (op) {
    case OP_ADD: r = a + b; break;
    case OP_SUB: r = a - b; break;
    case OP_MUL: r = a * b; break;
    case OP_LT: r = a < b; break;
    case OP_LE: r = a <= b; break;
    case OP_GT: r = a > b; break;
    case OP_GE: r = a >= b; break;
    case OP_EQ: r = a == b; break;
    case OP_NE: r = a != b; break;
    default: return 0;
  }
  if (r < INT32_MIN || r > INT32_MAX) return 0;   /* leave it to fail at run time */
  drop_recent(c, 2);
  cg_emit_raw(c, OP_CONST, (int32_t)r, 0, 0, at);
  return 1;
}

/* Emits an instruction through a small peephole optimizer: constant
** folding, CONST k; ADD -> ADDK k, and compare; JMPF -> a compare-jump. */
/* Superinstructions: fuses the last two instructions when they form a
** pattern that is hot in game rules.  Jump targets stay operand A. */
static void fuse_tail(Compiler *c, Span at) {
  for (;;) {
    /* LOADS A; ADDK k; STORES A (`s += k`) -> INCS A k, when the addition
    ** and the store fail at one source position. */
    int q0 = recent_op(c, 3);
    if (q0 >= 0) {
      int q1 = c->recent[c->nrecent - 2], q2 = c->recent[c->nrecent - 1];
      const int32_t *code = c->p->code;
      if (code[q0] == OP_LOADS && code[q1] == OP_ADDK && code[q2] == OP_STORES && code[q2 + 1] == code[q0 + 1] &&
          c->p->pos[q1] == c->p->pos[q2]) {
        int32_t s = code[q0 + 1], k = code[q1 + 1];
        Span pos = { c->p->pos[q2], c->p->pos[q2] + 1 };
        drop_recent(c, 3);
        cg_emit_raw(c, OP_INCS, s, k, 0, pos);
        continue;
      }
    }
    int p0 = recent_op(c, 2);
    if (p0 < 0) return;
    int p1 = c->recent[c->nrecent - 1];
    int32_t *code = c->p->code;
    int32_t op0 = code[p0], op1 = code[p1];
    int32_t w[5] = { 0, 0, 0, 0, 0 };
    /* A fused instruction that may fail where its first part did: that
    ** operand word's source position, to fail at (0: none). */
    int first_word = 0;
    if (op0 == OP_LOADL && op1 == OP_ADDK) {
      w[0] = OP_LOADLK; w[1] = code[p0 + 1]; w[2] = code[p1 + 1]; w[3] = 0;
    } else if (op0 == OP_CONST && op1 >= OP_JLT && op1 <= OP_JNE) {
      w[0] = OP_JLTK + (op1 - OP_JLT); w[1] = code[p1 + 1]; w[2] = code[p0 + 1]; w[3] = 0;
    } else if (op0 == OP_LOADL && op1 == OP_LOADSI) {
      w[0] = OP_LOADSL; w[1] = code[p1 + 1]; w[2] = code[p1 + 2]; w[3] = code[p0 + 1];
    } else if (op0 == OP_AT && op1 == OP_LOADSI && code[p1 + 2] == c->p->ncells) {
      w[0] = OP_LOADSXY; w[1] = code[p1 + 1]; w[2] = code[p1 + 2]; w[3] = 0;
    } else if (op0 == OP_ATL && op1 == OP_LOADSI && code[p1 + 2] == c->p->ncells) {
      w[0] = OP_LOADSXYL; w[1] = code[p1 + 1]; w[2] = code[p1 + 2]; w[3] = code[p0 + 1];
    } else if ((op0 == OP_LOADL || op0 == OP_CONST) && op1 == OP_LOADSXY) {
      w[0] = op0 == OP_LOADL ? OP_LOADSXYL : OP_LOADSXYK; w[1] = code[p1 + 1]; w[2] = code[p1 + 2];
      w[3] = code[p0 + 1];
    } else if (op0 == OP_LOADS && op1 == OP_STORESI) {
      w[0] = OP_STORESIS; w[1] = code[p1 + 1]; w[2] = code[p1 + 2]; w[3] = code[p0 + 1];
    } else if (op0 == OP_LOADS && (op1 == OP_JEQK || op1 == OP_JNEK)) {
      w[0] = op1 == OP_JEQK ? OP_JSEQK : OP_JSNEK; w[1] = code[p1 + 1]; w[2] = code[p1 + 2];
      w[3] = code[p0 + 1];
    } else if (op0 == OP_CONST && op1 == OP_LOADSXYK && code[p1 + 2] == c->p->ncells &&
               code[p0 + 1] >= 0 && code[p0 + 1] < c->p->width && code[p1 + 3] >= 0 &&
               code[p1 + 3] < c->p->height) {
      /* A constant cell: a plain load (out of range, AT's error stays). */
      w[0] = OP_LOADS; w[1] = code[p1 + 1] + code[p1 + 3] * c->p->width + code[p0 + 1];
      w[2] = w[3] = 0;
    } else if (op0 == OP_CONST && op1 == OP_LINE) {
      w[0] = OP_LINEK; w[1] = code[p1 + 1]; w[2] = code[p1 + 2]; w[3] = code[p0 + 1];
    } else if (op0 == OP_ATLK && op1 == OP_LOADSI && code[p1 + 2] == c->p->ncells) {
      w[0] = OP_LOADSXYLK; w[1] = code[p1 + 1]; w[2] = code[p0 + 3]; w[3] = code[p0 + 1];
      w[4] = code[p0 + 2];
      first_word = 4;
    } else if (op0 == OP_LOADLK && op1 == OP_ATL) {
      w[0] = OP_ATLK; w[1] = code[p0 + 1]; w[2] = code[p0 + 2]; w[3] = code[p1 + 1];
      first_word = 2;
    } else if (op0 == OP_LOADL && op1 == OP_AT) {
      w[0] = OP_ATL; w[1] = code[p0 + 1]; w[2] = w[3] = 0;
    } else if (op0 == OP_CONST && op1 == OP_STOREL) {
      w[0] = OP_SETL; w[1] = code[p1 + 1]; w[2] = code[p0 + 1]; w[3] = 0;
    } else if (op0 == OP_LOADLK && op1 == OP_STOREL && code[p1 + 1] == code[p0 + 1]) {
      w[0] = OP_INCL; w[1] = code[p0 + 1]; w[2] = code[p0 + 2]; w[3] = 0;
    } else if (op0 == OP_STOREL && op1 == OP_LOADL && code[p1 + 1] == code[p0 + 1]) {
      w[0] = OP_TEEL; w[1] = code[p0 + 1]; w[2] = w[3] = 0;
    } else {
      return;
    }
    /* INCL fails where its LOADLK did: its source position. */
    Span first = { c->p->pos[p0], c->p->pos[p0] + 1 };
    if (w[0] == OP_LOADSXYLK) first.start = c->p->pos[p0 + 2];   /* the ATLK's addition */
    drop_recent(c, 2);
    int pc = cg_emit_raw4(c, (OpCode)w[0], w[1], w[2], w[3], w[4], w[0] == OP_INCL ? first : at);
    if (first_word && !c->oom) c->p->pos[pc + first_word] = first.start;
  }
}

static int emit_plain(Compiler *c, OpCode op, int32_t a, int32_t b, Span at);

int cg_emit(Compiler *c, OpCode op, int32_t a, int32_t b, Span at) {
  emit_plain(c, op, a, b, at);
  fuse_tail(c, at);
  return c->nrecent > 0 ? c->recent[c->nrecent - 1] : c->p->ncode;   /* 0: out of memory */
}

static int emit_plain(Compiler *c, OpCode op, int32_t a, int32_t b, Span at) {
  if (fold_constants(c, op, at)) return c->nrecent > 0 ? c->recent[c->nrecent - 1] : c->p->ncode;
  int p1 = recent_op(c, 1);
  if (p1 >= 0 && (op == OP_ADD || op == OP_SUB) && c->p->code[p1] == OP_CONST &&
      c->p->code[p1 + 1] != INT32_MIN) {
    int32_t k = c->p->code[p1 + 1];
    drop_recent(c, 1);
    return cg_emit_raw(c, OP_ADDK, op == OP_ADD ? k : -k, 0, 0, at);
  }
  /* CONST k; NEG -> CONST -k (a negative literal). */
  if (p1 >= 0 && op == OP_NEG && c->p->code[p1] == OP_CONST && c->p->code[p1 + 1] != INT32_MIN) {
    int32_t k = c->p->code[p1 + 1];
    Span where = { c->p->pos[p1], c->p->pos[p1] + 1 };   /* the literal's, for messages */
    drop_recent(c, 1);
    return cg_emit_raw(c, OP_CONST, -k, 0, 0, where);
  }
  /* NOT; JMPF -> JMPT, NOT; JMPT -> JMPF. */
  if (p1 >= 0 && (op == OP_JMPF || op == OP_JMPT) && c->p->code[p1] == OP_NOT) {
    drop_recent(c, 1);
    return cg_emit_raw(c, op == OP_JMPF ? OP_JMPT : OP_JMPF, a, 0, 0, at);
  }
  if (p1 >= 0 && (op == OP_JMPF || op == OP_JMPT) && is_compare(c->p->code[p1])) {
    int cmp = c->p->code[p1];
    drop_recent(c, 1);
    return cg_emit_raw(c, compare_jump(cmp, op == OP_JMPT), a, 0, 0, at);
  }
  return cg_emit_raw(c, op, a, b, 0, at);
}

/* The current pc, taken as a jump target: nothing before it may be fused
** with what follows. */
int cg_here(Compiler *c) {
  c->barrier = c->p->ncode;
  return c->p->ncode;
}

/* Points the jump at `pc` to `target`. */
void cg_patch(Compiler *c, int pc, int target) {
  if (!c->oom && pc + 1 < c->p->ncode) c->p->code[pc + 1] = target;
}

void cg_list_push(int **arr, int *n, int *cap, int v, Compiler *c) {
  if (*n == *cap) {
    int nc = *cap ? *cap * 2 : 4;
    int *a = realloc(*arr, (size_t)nc * sizeof(int));
    if (!a) { c->oom = c->p->oom = 1; return; }
    *arr = a;
    *cap = nc;
  }
  (*arr)[(*n)++] = v;
}

/* ------------------------------------------------------------------ */
/* Locals and scopes                                                  */
/* ------------------------------------------------------------------ */

Local *cg_find_local(Compiler *c, const char *name) {
  for (int i = c->nlocals - 1; i >= 0; i--)
    if (!strcmp(c->locals[i].name, name)) return &c->locals[i];
  return NULL;
}

Local *cg_add_local(Compiler *c, const char *name, Type t, int size, Span at) {
  if (c->slots + size > PROG_MAX_LOCALS || c->nlocals >= PROG_MAX_LOCALS) {
    diag_error(c->d, at, "too many local values (limit is %d)", PROG_MAX_LOCALS);
    return NULL;
  }
  /* The table never moves, so Local pointers stay valid while more are added. */
  Local *l = &c->locals[c->nlocals++];
  memset(l, 0, sizeof *l);
  l->name = name;
  l->type = t;
  l->slot = c->slots;
  c->slots += size;
  if (c->slots > c->frame) c->frame = c->slots;
  return l;
}


/* The innermost scope starts at this local (set by scope_open). */
Scope cg_scope_open(Compiler *c) {
  Scope s = { c->nlocals, c->slots, c->scope_start };
  c->scope_start = c->nlocals;
  return s;
}
void cg_scope_close(Compiler *c, Scope s) {
  c->nlocals = s.nlocals;
  c->slots = s.slots;
  c->scope_start = s.outer_start;
}
