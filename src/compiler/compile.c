/*
** compile.c -- type-checks the bodies of a .game file (moves, functions,
** end, nomoves, eval) and emits bytecode for them.
**
** One pass per body: each expression is checked and emitted together, and
** an ill-typed expression gets the type TY_ERROR so one mistake gives one
** message.  The legal-move generator is compiled as one chunk of nested
** loops over the arguments of every rule, with each conjunct of a rule's
** `when` condition tested in the outermost loop where its arguments are
** all known.
*/
#include "compiler/resolve.h"
#include "compiler/opcodes.h"
#include "compiler/builtins.h"

#include <stdlib.h>
#include <string.h>

typedef struct Local {
  const char *name;
  int slot;               /* first frame slot */
  Type type;
  int ndims, dim[2];      /* arrays: dimensions */
  int readonly;           /* arguments and loop variables */
} Local;

typedef struct Loop {
  int cont;               /* -1 until known: continue target */
  int *breaks; int nbreaks, capbreaks;
  int *conts; int nconts, capconts;
  struct Loop *outer;
} Loop;

typedef struct Compiler {
  Program *p;
  Diag *d;
  Resolver *r;
  int cap;                /* allocated code words */
  Local *locals; int nlocals;
  int slots;              /* frame slots in use */
  int frame;              /* the most slots ever in use: the frame size */
  int stack, maxstack;    /* operand stack depth */
  ChunkKind kind;         /* what is being compiled */
  Type ret;               /* functions: declared return type */
  Loop *loop;
  int depth;
  int oom;
  /* Peephole state: where the last instructions start, and the lowest pc
  ** that may be fused (a jump may land at or after `barrier`). */
  int recent[4]; int nrecent;
  int barrier;
  int scope_start;        /* first local of the innermost scope */
  int too_deep;           /* "nested too deeply" was reported */
  /* Function signatures, resolved once (an enumeration type declares its
  ** members, so resolving it twice would declare them twice). */
  Type *fparams;          /* FUNC_MAX_PARAMS per function */
  Type *fret;
} Compiler;

#define FUNC_MAX_PARAMS 32   /* parameters of a user function */

static Type mkt(TypeKind k) { Type t = { k, 0, 0, 0 }; return t; }

static const Type T_ERR = { TY_ERROR, 0, 0, 0 };

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

static int emit_raw(Compiler *c, OpCode op, int32_t a, int32_t b, int32_t cc, Span at) {
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
  int32_t words[4] = { op, a, b, cc };
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
  emit_raw(c, OP_CONST, (int32_t)r, 0, 0, at);
  return 1;
}

/* Emits an instruction through a small peephole optimizer: constant
** folding, CONST k; ADD -> ADDK k, and compare; JMPF -> a compare-jump. */
/* Superinstructions: fuses the last two instructions when they form a
** pattern that is hot in game rules.  Jump targets stay operand A. */
static void fuse_tail(Compiler *c, Span at) {
  for (;;) {
    int p0 = recent_op(c, 2);
    if (p0 < 0) return;
    int p1 = c->recent[c->nrecent - 1];
    int32_t *code = c->p->code;
    int32_t op0 = code[p0], op1 = code[p1];
    int32_t w[4];
    if (op0 == OP_LOADL && op1 == OP_ADDK) {
      w[0] = OP_LOADLK; w[1] = code[p0 + 1]; w[2] = code[p1 + 1]; w[3] = 0;
    } else if (op0 == OP_CONST && op1 >= OP_JLT && op1 <= OP_JNE) {
      w[0] = OP_JLTK + (op1 - OP_JLT); w[1] = code[p1 + 1]; w[2] = code[p0 + 1]; w[3] = 0;
    } else if (op0 == OP_LOADL && op1 == OP_LOADSI) {
      w[0] = OP_LOADSL; w[1] = code[p1 + 1]; w[2] = code[p1 + 2]; w[3] = code[p0 + 1];
    } else if (op0 == OP_AT && op1 == OP_LOADSI && code[p1 + 2] == c->p->ncells) {
      w[0] = OP_LOADSXY; w[1] = code[p1 + 1]; w[2] = code[p1 + 2]; w[3] = 0;
    } else {
      return;
    }
    drop_recent(c, 2);
    emit_raw(c, (OpCode)w[0], w[1], w[2], w[3], at);
  }
}

static int emit_plain(Compiler *c, OpCode op, int32_t a, int32_t b, Span at);

static int emit(Compiler *c, OpCode op, int32_t a, int32_t b, Span at) {
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
    return emit_raw(c, OP_ADDK, op == OP_ADD ? k : -k, 0, 0, at);
  }
  if (p1 >= 0 && (op == OP_JMPF || op == OP_JMPT) && is_compare(c->p->code[p1])) {
    int cmp = c->p->code[p1];
    drop_recent(c, 1);
    return emit_raw(c, compare_jump(cmp, op == OP_JMPT), a, 0, 0, at);
  }
  return emit_raw(c, op, a, b, 0, at);
}

/* The current pc, taken as a jump target: nothing before it may be fused
** with what follows. */
static int here(Compiler *c) {
  c->barrier = c->p->ncode;
  return c->p->ncode;
}

/* Points the jump at `pc` to `target`. */
static void patch(Compiler *c, int pc, int target) {
  if (!c->oom && pc + 1 < c->p->ncode) c->p->code[pc + 1] = target;
}

static void list_push(int **arr, int *n, int *cap, int v, Compiler *c) {
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

static Local *find_local(Compiler *c, const char *name) {
  for (int i = c->nlocals - 1; i >= 0; i--)
    if (!strcmp(c->locals[i].name, name)) return &c->locals[i];
  return NULL;
}

static Local *add_local(Compiler *c, const char *name, Type t, int size, Span at) {
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

typedef struct Scope { int nlocals, slots, outer_start; } Scope;

/* The innermost scope starts at this local (set by scope_open). */
static Scope scope_open(Compiler *c) {
  Scope s = { c->nlocals, c->slots, c->scope_start };
  c->scope_start = c->nlocals;
  return s;
}
static void scope_close(Compiler *c, Scope s) {
  c->nlocals = s.nlocals;
  c->slots = s.slots;
  c->scope_start = s.outer_start;
}

/* ------------------------------------------------------------------ */
/* Expressions                                                        */
/* ------------------------------------------------------------------ */

static Type expr(Compiler *c, Node *e);

static int is_int(Type t) { return t.kind == TY_INT || t.kind == TY_CELL || t.kind == TY_ERROR; }

static Type expect(Compiler *c, Node *e, TypeKind want, const char *what) {
  Type t = expr(c, e);
  Type w = mkt(want);
  if (!type_compatible(t, w)) {
    char b1[64], b2[64];
    diag_error(c->d, e->span, "%s must be %s, not %s", what,
               type_name(c->p, w, b1, sizeof b1), type_name(c->p, t, b2, sizeof b2));
    return T_ERR;
  }
  return t;
}

/* Collects the indices of a[i][j] or a[i, j] into idx; returns the base. */
static Node *flatten_index(Node *e, Node **idx, int *n) {
  if (e->kind != NODE_INDEX) return e;
  Node *base = flatten_index(e->a, idx, n);
  for (Node *i = e->b; i; i = i->next) {
    if (*n < 3) idx[*n] = i;
    (*n)++;
  }
  return base;
}

/* What an indexable name refers to. */
typedef struct Target {
  enum { TG_NONE, TG_LOCAL, TG_STATE, TG_LIST } kind;
  int base, ndims, dim[2], on_board, readonly;
  Type elem;
  const char *name;
} Target;

static Target lookup_target(Compiler *c, Node *name) {
  Target t;
  memset(&t, 0, sizeof t);
  t.name = name->name;
  if (name->kind != NODE_NAME) return t;
  Local *l = find_local(c, name->name);
  if (l) {
    t.kind = TG_LOCAL; t.base = l->slot; t.ndims = l->ndims;
    t.dim[0] = l->dim[0]; t.dim[1] = l->dim[1]; t.elem = l->type; t.readonly = l->readonly;
    return t;
  }
  Symbol *s = resolve_lookup(c->r, name->name);
  if (!s) return t;
  if (s->kind == SYM_STATE) {
    StateVar *v = &c->p->vars[s->index];
    t.kind = TG_STATE; t.base = v->base; t.ndims = v->ndims;
    t.dim[0] = v->dim[0]; t.dim[1] = v->dim[1]; t.on_board = v->on_board; t.elem = v->elem;
  } else if (s->kind == SYM_PARAM && s->type.kind == TY_LIST) {
    t.kind = TG_LIST; t.base = s->type.lo; t.ndims = 1; t.dim[0] = s->type.hi;
    t.elem = mkt(TY_INT); t.readonly = 1;
  } else if (s->kind == SYM_MOVER) {
    t.kind = TG_STATE; t.base = 0; t.elem = s->type; t.readonly = 1;
  }
  return t;
}

static Type index_expr(Compiler *c, Node *e, int store, Node *value, int op) ;

static Type name_expr(Compiler *c, Node *e) {
  Local *l = find_local(c, e->name);
  if (l) {
    if (l->ndims) {
      diag_error(c->d, e->span, "array '%s' needs an index", e->name);
      return T_ERR;
    }
    emit(c, OP_LOADL, l->slot, 0, e->span);
    return l->type;
  }
  Symbol *s = resolve_lookup(c->r, e->name);
  if (!s) {
    if (!strcmp(e->name, "chance"))
      diag_error(c->d, e->span, "'chance' needs a chance move (declare one: chance move NAME(...) { ... })");
    else if (builtin_find(e->name, -1))
      diag_error(c->d, e->span, "'%s' is a built-in function, not a value", e->name);
    else
      diag_error(c->d, e->span, "unknown name '%s'", e->name);
    return T_ERR;
  }
  switch (s->kind) {
    case SYM_PARAM:
      if (s->type.kind == TY_LIST) {
        diag_error(c->d, e->span, "list parameter '%s' needs an index (or len(%s))", e->name, e->name);
        return T_ERR;
      }
      /* fall through */
    case SYM_CONST: case SYM_ENUMVAL: case SYM_VALUE:
      emit(c, OP_CONST, s->value, 0, e->span);
      return s->type;
    case SYM_MOVER:
      emit(c, OP_LOADS, 0, 0, e->span);
      return s->type;
    case SYM_STATE: {
      StateVar *v = &c->p->vars[s->index];
      if (v->ndims) {
        diag_error(c->d, e->span, "array '%s' needs an index", e->name);
        return T_ERR;
      }
      emit(c, OP_LOADS, v->base, 0, e->span);
      return v->elem;
    }
    default:
      diag_error(c->d, e->span, "'%s' is not a value", e->name);
      return T_ERR;
  }
}

/* Loads or stores a[i], a[i][j] or a[x, y].  For a store, `value` is the
** right-hand side and `op` '=' or the compound operator. */
static Type index_expr(Compiler *c, Node *e, int store, Node *value, int op) {
  Node *idx[3];
  int n = 0;
  Node *base = flatten_index(e, idx, &n);
  if (base->kind != NODE_NAME) {
    diag_error(c->d, base->span, "only named arrays can be indexed");
    return T_ERR;
  }
  Target t = lookup_target(c, base);
  if (t.kind == TG_NONE) {
    Symbol *s = resolve_lookup(c->r, base->name);
    /* A value whose declaration failed was reported there; a move, a
    ** function, a type or the board has no value type at all. */
    int valued = s && s->kind != SYM_FUNC && s->kind != SYM_MOVE && s->kind != SYM_TYPE
                 && s->kind != SYM_BOARDDECL;
    if (valued && s->type.kind == TY_ERROR && !find_local(c, base->name)) return T_ERR;  /* reported */
    if (!s && !find_local(c, base->name)) diag_error(c->d, base->span, "unknown name '%s'", base->name);
    else diag_error(c->d, base->span, "'%s' is not an array", base->name);
    return T_ERR;
  }
  if (n > 2) {
    diag_error(c->d, e->span, "arrays have at most 2 dimensions");
    return T_ERR;
  }
  if (t.ndims == 0) {
    diag_error(c->d, e->span, "'%s' is not an array", t.name);
    return T_ERR;
  }
  int size = t.ndims == 2 ? t.dim[0] * t.dim[1] : t.dim[0];
  if (n == 2 && t.on_board) {
    if (c->p->board != BOARD_RECT) {
      diag_error(c->d, e->span, "(x, y) indexing needs a rect board");
      return T_ERR;
    }
    expect(c, idx[0], TY_INT, "a column index");
    expect(c, idx[1], TY_INT, "a row index");
    emit(c, OP_AT, 0, 0, e->span);
  } else if (n != t.ndims) {
    diag_error(c->d, e->span, "'%s' has %d dimension%s but is indexed with %d", t.name,
               t.ndims, t.ndims > 1 ? "s" : "", n);
    return T_ERR;
  } else {
    for (int i = 0; i < n; i++) {
      Type it = expr(c, idx[i]);
      if (!is_int(it)) {
        char b[64];
        diag_error(c->d, idx[i]->span, "an index must be an integer, not %s",
                   type_name(c->p, it, b, sizeof b));
      }
      if (n == 2) {
        emit(c, OP_CHECK, t.dim[i], 0, idx[i]->span);
        if (i == 0) { emit(c, OP_CONST, t.dim[1], 0, e->span); emit(c, OP_MUL, 0, 0, e->span); }
        else emit(c, OP_ADD, 0, 0, e->span);
      }
    }
  }
  OpCode load = t.kind == TG_LOCAL ? OP_LOADLI : t.kind == TG_STATE ? OP_LOADSI : OP_LOADK;
  if (!store) {
    emit(c, load, t.base, size, e->span);
    return t.elem;
  }
  if (t.readonly || t.kind == TG_LIST) {
    diag_error(c->d, base->span, "'%s' cannot be assigned", t.name);
    return T_ERR;
  }
  if (op != '=') {
    emit(c, OP_DUP, 0, 0, e->span);
    emit(c, load, t.base, size, e->span);
  }
  Type vt = expr(c, value);
  if (op != '=') {
    if (!is_int(t.elem) || !is_int(vt))
      diag_error(c->d, value->span, "'%c=' needs integers", op);
    emit(c, op == '+' ? OP_ADD : op == '-' ? OP_SUB : OP_MUL, 0, 0, value->span);
  } else if (!type_compatible(vt, t.elem)) {
    char b1[64], b2[64];
    diag_error(c->d, value->span, "cannot assign %s to an element of '%s' (%s)",
               type_name(c->p, vt, b1, sizeof b1), t.name, type_name(c->p, t.elem, b2, sizeof b2));
  }
  emit(c, t.kind == TG_LOCAL ? OP_STORELI : OP_STORESI, t.base, size, e->span);
  return mkt(TY_VOID);
}

/* Checks a call's arity. */
static int arity(Compiler *c, Node *e, int want) {
  int n = ast_count(e->a);
  if (n != want) {
    char msg[160];
    arity_message(msg, sizeof msg, e->name, want, n);
    diag_error(c->d, e->span, "%s", msg);
    return 0;
  }
  return 1;
}

/* A state array argument of line() or count(). */
static Target array_arg(Compiler *c, Node *e, int need_board) {
  Target t = lookup_target(c, e);
  if (t.kind != TG_STATE || t.ndims == 0 || (need_board && !t.on_board)) {
    diag_error(c->d, e->span, need_board ? "expected a state array over the board"
                                         : "expected a state array");
    t.kind = TG_NONE;
  }
  return t;
}

/* A call of a built-in function, as its row of the table (builtins.c)
** says: folded to a constant, or its arguments and one instruction. */
static Type builtin_call(Compiler *c, Node *e) {
  Program *p = c->p;
  int nargs = ast_count(e->a);
  const Builtin *b = builtin_find(e->name, nargs);
  if (!b) {
    diag_error(c->d, e->span, "unknown function '%s'", e->name);
    return T_ERR;
  }
  if (b->kind == BUILTIN_ITERATE) {
    diag_error(c->d, e->span, "neighbours() can only be iterated: for n in neighbours(c) { ... }");
    return T_ERR;
  }
  if (b->rect && p->board != BOARD_RECT) {
    diag_error(c->d, e->span, "%s() needs a rect board", b->name);
    return T_ERR;
  }
  if (!arity(c, e, b->nargs)) return T_ERR;
  if (b->kind == BUILTIN_FOLD) {
    int ok = 1;
    Type t;
    int32_t v = resolve_const(c->r, e, &t, &ok);
    if (!ok) return T_ERR;
    emit(c, OP_CONST, v, 0, e->span);
    return mkt(TY_INT);
  }
  Target arr;
  memset(&arr, 0, sizeof arr);
  int k = 0;
  for (Node *a = e->a; a; a = a->next, k++) {
    switch (b->arg[k]) {
      case BARG_ARRAY: case BARG_BOARD_ARRAY:
        arr = array_arg(c, a, b->arg[k] == BARG_BOARD_ARRAY);
        break;
      case BARG_ELEMENT: {
        Type vt = expr(c, a);
        if (arr.kind != TG_NONE && !type_compatible(vt, arr.elem))
          diag_error(c->d, a->span, "%s() compares values of another type", b->name);
        break;
      }
      default: expect(c, a, builtin_arg_type(b->arg[k]), b->what[k]); break;
    }
  }
  int size = arr.ndims == 2 ? arr.dim[0] * arr.dim[1] : arr.dim[0];
  emit(c, b->op, arr.base, size, e->span);
  Type t = mkt(b->result);
  if (t.kind == TY_PLAYER) { t.lo = 1; t.hi = p->nplayers; }
  return t;
}

static Type call_expr(Compiler *c, Node *e) {
  Program *p = c->p;
  Symbol *s = resolve_lookup(c->r, e->name);
  if (s && s->kind == SYM_FUNC) {
    Node *f = c->r->funcs[s->index];
    int want = ast_count(f->a);
    if (!arity(c, e, want)) return T_ERR;
    Node *pd = f->a;
    int k = 0;
    for (Node *a = e->a; a; a = a->next, pd = pd->next, k++) {
      Type at = expr(c, a);
      Type pt = k < FUNC_MAX_PARAMS ? c->fparams[s->index * FUNC_MAX_PARAMS + k] : T_ERR;
      if (!type_compatible(at, pt)) {
        char b1[64], b2[64];
        diag_error(c->d, a->span, "argument '%s' of %s() must be %s, not %s", pd->name,
                   e->name, type_name(p, pt, b1, sizeof b1), type_name(p, at, b2, sizeof b2));
      }
    }
    Type rt = c->fret[s->index];
    emit(c, OP_CALL, s->index, want, e->span);
    return rt;
  }
  /* Other names (a state called max, say) do not hide the built-ins. */
  if (s && !builtin_find(e->name, -1)) {
    static const char *const what[] = { "parameter", "constant", "member of an enumeration",
                                        "type", "state variable", "function", "move", "value",
                                        "value", "board" };
    diag_error(c->d, e->span, "'%s' is a %s, not a function", e->name,
               s->kind <= SYM_BOARDDECL ? what[s->kind] : "name");
    return T_ERR;
  }
  return builtin_call(c, e);
}

static Type binary_expr(Compiler *c, Node *e) {
  int op = e->op;
  if (op == OPR_AND || op == OPR_OR) {
    expect(c, e->a, TY_BOOL, op == OPR_AND ? "an operand of &&" : "an operand of ||");
    int j1 = emit(c, op == OPR_AND ? OP_JMPF : OP_JMPT, 0, 0, e->span);
    expect(c, e->b, TY_BOOL, op == OPR_AND ? "an operand of &&" : "an operand of ||");
    int j2 = emit(c, OP_JMP, 0, 0, e->span);
    patch(c, j1, here(c));
    emit(c, OP_CONST, op == OPR_OR, 0, e->span);
    c->stack--;       /* the two paths join with one value */
    patch(c, j2, here(c));
    return mkt(TY_BOOL);
  }
  Type a = expr(c, e->a);
  Type b = expr(c, e->b);
  OpCode code;
  int arith = 0;
  switch (op) {
    case '+': code = OP_ADD; arith = 1; break;
    case '-': code = OP_SUB; arith = 1; break;
    case '*': code = OP_MUL; arith = 1; break;
    case '/': code = OP_DIV; arith = 1; break;
    case '%': code = OP_MOD; arith = 1; break;
    case '<': code = OP_LT; arith = 2; break;
    case '>': code = OP_GT; arith = 2; break;
    case OPR_LE: code = OP_LE; arith = 2; break;
    case OPR_GE: code = OP_GE; arith = 2; break;
    case OPR_EQ: code = OP_EQ; break;
    default: code = OP_NE; break;
  }
  emit(c, code, 0, 0, e->span);
  char b1[64], b2[64];
  if (arith) {
    if (!is_int(a) || !is_int(b)) {
      diag_error(c->d, e->span, "arithmetic and ordering need integers, not %s and %s",
                 type_name(c->p, a, b1, sizeof b1), type_name(c->p, b, b2, sizeof b2));
      return T_ERR;
    }
    return arith == 1 ? mkt(TY_INT) : mkt(TY_BOOL);
  }
  if (!type_compatible(a, b))
    diag_error(c->d, e->span, "cannot compare %s with %s",
               type_name(c->p, a, b1, sizeof b1), type_name(c->p, b, b2, sizeof b2));
  return mkt(TY_BOOL);
}

static Type expr(Compiler *c, Node *e) {
  if (!e) return T_ERR;
  if (++c->depth > AST_MAX_DEPTH * 4) {
    c->depth--;
    if (!c->too_deep) diag_error(c->d, e->span, "expression nested too deeply");
    c->too_deep = 1;
    return T_ERR;
  }
  Type t = T_ERR;
  switch (e->kind) {
    case NODE_INT: emit(c, OP_CONST, (int32_t)e->ival, 0, e->span); t = mkt(TY_INT); break;
    case NODE_BOOL: emit(c, OP_CONST, (int32_t)e->ival, 0, e->span); t = mkt(TY_BOOL); break;
    case NODE_NAME: t = name_expr(c, e); break;
    case NODE_INDEX: t = index_expr(c, e, 0, NULL, 0); break;
    case NODE_CALL: t = call_expr(c, e); break;
    case NODE_UNARY:
      if (e->op == '-') { expect(c, e->a, TY_INT, "the operand of '-'"); emit(c, OP_NEG, 0, 0, e->span); t = mkt(TY_INT); }
      else { expect(c, e->a, TY_BOOL, "the operand of '!'"); emit(c, OP_NOT, 0, 0, e->span); t = mkt(TY_BOOL); }
      break;
    case NODE_BINARY: t = binary_expr(c, e); break;
    case NODE_COND: {
      expect(c, e->a, TY_BOOL, "a condition");
      int j1 = emit(c, OP_JMPF, 0, 0, e->span);
      Type a = expr(c, e->b);
      int j2 = emit(c, OP_JMP, 0, 0, e->span);
      patch(c, j1, here(c));
      Type b = expr(c, e->c);
      c->stack--;
      patch(c, j2, here(c));
      if (!type_compatible(a, b)) {
        char b1[64], b2[64];
        diag_error(c->d, e->span, "the branches of ?: have different types (%s and %s)",
                   type_name(c->p, a, b1, sizeof b1), type_name(c->p, b, b2, sizeof b2));
      }
      t = a.kind == TY_ERROR ? b : a;
      break;
    }
    case NODE_LIST: diag_error(c->d, e->span, "a list is only allowed in a for loop or an initializer"); break;
    default: diag_error(c->d, e->span, "expected an expression"); break;
  }
  c->depth--;
  return t;
}

/* ------------------------------------------------------------------ */
/* Statements                                                         */
/* ------------------------------------------------------------------ */

static void stmt_list(Compiler *c, Node *list);

static void block(Compiler *c, Node *b) {
  Scope s = scope_open(c);
  if (b && b->kind == NODE_BLOCK) stmt_list(c, b->a);
  else if (b) stmt_list(c, b);
  scope_close(c, s);
}

static void var_stmt(Compiler *c, Node *s) {
  Program *p = c->p;
  int ndims = ast_count(s->c);
  int dim[2] = { 1, 1 };
  if (ndims > 2) { diag_error(c->d, s->span, "arrays have at most 2 dimensions"); return; }
  int i = 0;
  for (Node *dn = s->c; dn; dn = dn->next, i++) {
    if (dn->kind == NODE_TCELL) {
      if (p->board == BOARD_NONE) { diag_error(c->d, dn->span, "[board] needs a board"); return; }
      dim[i] = p->ncells;
      continue;
    }
    int ok = 1;
    Type t;
    int32_t n = resolve_const(c->r, dn, &t, &ok);
    if (!ok) return;
    if (n < 1 || n > PROG_MAX_LOCALS) {
      diag_error(c->d, dn->span, "local array size must be 1 to %d (got %d)", PROG_MAX_LOCALS, n);
      return;
    }
    dim[i] = n;
  }
  Type t = s->a ? resolve_type(c->r, s->a, 0) : mkt(TY_INT);
  if (ndims) {
    if (s->b) { diag_error(c->d, s->b->span, "local arrays start at 0 and take no initializer"); }
    for (int k = c->scope_start; k < c->nlocals; k++)
      if (!strcmp(c->locals[k].name, s->name)) {
        diag_error(c->d, s->span, "'%s' is already declared in this block", s->name);
        break;
      }
    Local *l = add_local(c, s->name, t, dim[0] * dim[1], s->span);
    if (!l) return;
    l->ndims = ndims;
    l->dim[0] = dim[0];
    l->dim[1] = dim[1];
    emit(c, OP_CLEARL, l->slot, dim[0] * dim[1], s->span);
    return;
  }
  if (s->b) {
    Type it = expr(c, s->b);
    if (s->a && !type_compatible(it, t)) {
      char b1[64], b2[64];
      diag_error(c->d, s->b->span, "cannot initialize %s '%s' with %s",
                 type_name(p, t, b1, sizeof b1), s->name, type_name(p, it, b2, sizeof b2));
    }
    if (!s->a) t = it.kind == TY_ERROR ? mkt(TY_INT) : it;
    if (t.kind == TY_VOID) { diag_error(c->d, s->b->span, "the initializer has no value"); t = T_ERR; }
  } else {
    emit(c, OP_CONST, t.kind == TY_CELL ? -1 : 0, 0, s->span);
  }
  for (int i = c->scope_start; i < c->nlocals; i++)
    if (!strcmp(c->locals[i].name, s->name)) {
      diag_error(c->d, s->span, "'%s' is already declared in this block", s->name);
      break;
    }
  /* Declared after the initializer so `var x = x + 1` sees the outer x. */
  Local *l = add_local(c, s->name, t, 1, s->span);
  if (l) emit(c, OP_STOREL, l->slot, 0, s->span);
  else emit(c, OP_POP, 0, 0, s->span);
}

static void assign_stmt(Compiler *c, Node *s) {
  Node *target = s->a;
  if (target->kind == NODE_INDEX) {
    index_expr(c, target, 1, s->b, s->op);
    return;
  }
  if (target->kind != NODE_NAME) {
    diag_error(c->d, target->span, "cannot assign to this expression");
    expr(c, s->b);
    emit(c, OP_POP, 0, 0, s->span);
    return;
  }
  Local *l = find_local(c, target->name);
  Type tt;
  int slot, is_state = 0;
  if (l) {
    if (l->readonly || l->ndims) {
      diag_error(c->d, target->span, "'%s' cannot be assigned%s", target->name,
                 l->ndims ? " (it is an array)" : " (it is an argument or loop variable)");
      return;
    }
    tt = l->type;
    slot = l->slot;
  } else {
    Symbol *sym = resolve_lookup(c->r, target->name);
    if (!sym) { diag_error(c->d, target->span, "unknown name '%s'", target->name); return; }
    if (sym->kind == SYM_MOVER) {
      diag_error(c->d, target->span, "'mover' cannot be assigned; use 'next PLAYER;'");
      return;
    }
    if (sym->type.kind == TY_ERROR && sym->kind == SYM_VALUE) { expr(c, s->b); return; }
    if (sym->kind != SYM_STATE) {
      diag_error(c->d, target->span, "'%s' is a %s and cannot be assigned", target->name,
                 sym->kind == SYM_PARAM ? "parameter" : "constant");
      return;
    }
    StateVar *v = &c->p->vars[sym->index];
    if (v->ndims) { diag_error(c->d, target->span, "array '%s' needs an index", target->name); return; }
    tt = v->elem;
    slot = v->base;
    is_state = 1;
  }
  if (s->op != '=') emit(c, is_state ? OP_LOADS : OP_LOADL, slot, 0, s->span);
  Type vt = expr(c, s->b);
  if (s->op != '=') {
    if (!is_int(tt) || !is_int(vt)) diag_error(c->d, s->span, "'%c=' needs integers", s->op);
    emit(c, s->op == '+' ? OP_ADD : s->op == '-' ? OP_SUB : OP_MUL, 0, 0, s->span);
  } else if (!type_compatible(vt, tt)) {
    char b1[64], b2[64];
    diag_error(c->d, s->b->span, "cannot assign %s to '%s' (%s)",
               type_name(c->p, vt, b1, sizeof b1), target->name, type_name(c->p, tt, b2, sizeof b2));
  }
  emit(c, is_state ? OP_STORES : OP_STOREL, slot, 0, s->span);
}

/* Loops: the body, then `continue` lands on the increment. */
static void loop_begin(Compiler *c, Loop *l) {
  memset(l, 0, sizeof *l);
  l->cont = -1;
  l->outer = c->loop;
  c->loop = l;
}

static void loop_end(Compiler *c, Loop *l, int cont, int end) {
  for (int i = 0; i < l->nconts; i++) patch(c, l->conts[i], cont);
  for (int i = 0; i < l->nbreaks; i++) patch(c, l->breaks[i], end);
  free(l->conts);
  free(l->breaks);
  c->loop = l->outer;
}

/* for v in lo..hi, with hi evaluated once into a hidden local. */
/* 1 if e folds to a constant: literals, parameters, constants and
** built-ins over them, and no local in sight. */
static int is_constant(Compiler *c, Node *e) {
  if (!e) return 0;
  switch (e->kind) {
    case NODE_INT: case NODE_BOOL: return 1;
    case NODE_NAME: {
      if (find_local(c, e->name)) return 0;
      Symbol *s = resolve_lookup(c->r, e->name);
      return s && (s->kind == SYM_CONST || s->kind == SYM_ENUMVAL ||
                   (s->kind == SYM_VALUE && s->type.kind != TY_ERROR) ||
                   (s->kind == SYM_PARAM && s->type.kind != TY_LIST));
    }
    case NODE_UNARY: return is_constant(c, e->a);
    case NODE_BINARY: return e->op != '/' && e->op != '%' && is_constant(c, e->a) && is_constant(c, e->b);
    case NODE_CALL: {
      const Builtin *b = builtin_find(e->name, ast_count(e->a));
      if (!b || b->fold == FOLD_NONE || b->nargs != ast_count(e->a)) return 0;
      if (resolve_lookup(c->r, e->name)) return 0;
      for (Node *a = e->a; a; a = a->next) {
        Symbol *s = a->kind == NODE_NAME && !find_local(c, a->name) ? resolve_lookup(c->r, a->name) : NULL;
        if (!(s && s->kind == SYM_PARAM && s->type.kind == TY_LIST) && !is_constant(c, a)) return 0;
      }
      return 1;
    }
    default: return 0;
  }
}

static void for_counted(Compiler *c, Node *s, Type vt, Node *lo_e, Node *hi_e,
                        int32_t lo, int32_t hi, int konst, int klen) {
  /* Constant bounds: no limit local and no entry test (FORK). */
  int ok = 1;
  Type t;
  if (lo_e && hi_e && is_constant(c, lo_e) && is_constant(c, hi_e)) {
    lo = resolve_const(c->r, lo_e, &t, &ok);
    hi = resolve_const(c->r, hi_e, &t, &ok);
    if (ok) lo_e = hi_e = NULL;
  }
  int constant = !lo_e && !hi_e;
  Scope sc = scope_open(c);
  Local *var = add_local(c, s->name, vt, 1, s->span);
  Local *lim = constant ? NULL : add_local(c, " limit", mkt(TY_INT), 1, s->span);
  Local *idx = konst >= 0 ? add_local(c, " index", mkt(TY_INT), 1, s->span) : NULL;
  if (!var || (!constant && !lim) || (konst >= 0 && !idx)) { scope_close(c, sc); return; }
  var->readonly = 1;
  Local *counter = idx ? idx : var;
  int skip = -1;
  if (constant) {
    if (lo > hi) skip = emit(c, OP_JMP, 0, 0, s->span);   /* checked, never run */
    emit(c, OP_CONST, lo, 0, s->span);
    emit(c, OP_STOREL, counter->slot, 0, s->span);
  } else {
    expect(c, lo_e, TY_INT, "a range bound");
    emit(c, OP_STOREL, counter->slot, 0, s->span);
    expect(c, hi_e, TY_INT, "a range bound");
    emit(c, OP_STOREL, lim->slot, 0, s->span);
    emit(c, OP_LOADL, counter->slot, 0, s->span);
    emit(c, OP_LOADL, lim->slot, 0, s->span);
    skip = emit(c, OP_JGT, 0, 0, s->span);
  }
  int top = here(c);
  if (idx) {
    emit(c, OP_LOADL, idx->slot, 0, s->span);
    emit(c, OP_LOADK, konst, klen, s->span);
    emit(c, OP_STOREL, var->slot, 0, s->span);
  }
  Loop l;
  loop_begin(c, &l);
  block(c, s->c);
  int cont = here(c);
  if (constant) emit_raw(c, OP_FORK, counter->slot, hi, top, s->span);
  else emit_raw(c, OP_FORL, counter->slot, lim->slot, top, s->span);
  if (skip >= 0) patch(c, skip, here(c));
  loop_end(c, &l, cont, here(c));
  scope_close(c, sc);
}

static void for_neighbours(Compiler *c, Node *s, Node *call) {
  if (c->p->board == BOARD_NONE) { diag_error(c->d, call->span, "neighbours() needs a board"); return; }
  if (!arity(c, call, 1)) return;
  Scope sc = scope_open(c);
  Local *cell = add_local(c, " cell", mkt(TY_CELL), 1, s->span);
  Local *i = add_local(c, " i", mkt(TY_INT), 1, s->span);
  Local *n = add_local(c, " n", mkt(TY_INT), 1, s->span);
  Local *var = add_local(c, s->name, mkt(TY_CELL), 1, s->span);
  if (!cell || !i || !n || !var) { scope_close(c, sc); return; }
  var->readonly = 1;
  expect(c, call->a, TY_CELL, "the argument of neighbours");
  emit(c, OP_DUP, 0, 0, s->span);
  emit(c, OP_STOREL, cell->slot, 0, s->span);
  emit(c, OP_NBRN, 0, 0, s->span);
  emit(c, OP_ADDK, -1, 0, s->span);
  emit(c, OP_STOREL, n->slot, 0, s->span);        /* the last index */
  emit(c, OP_CONST, 0, 0, s->span);
  emit(c, OP_STOREL, i->slot, 0, s->span);
  emit(c, OP_LOADL, n->slot, 0, s->span);
  emit(c, OP_CONST, 0, 0, s->span);
  int exit_jump = emit(c, OP_JLT, 0, 0, s->span);   /* no neighbours */
  int top = here(c);
  emit(c, OP_LOADL, cell->slot, 0, s->span);
  emit(c, OP_LOADL, i->slot, 0, s->span);
  emit(c, OP_NBR, 0, 0, s->span);
  emit(c, OP_STOREL, var->slot, 0, s->span);
  Loop l;
  loop_begin(c, &l);
  block(c, s->c);
  int cont = here(c);
  emit_raw(c, OP_FORL, i->slot, n->slot, top, s->span);
  patch(c, exit_jump, here(c));
  loop_end(c, &l, cont, here(c));
  scope_close(c, sc);
}

static void for_stmt(Compiler *c, Node *s) {
  Program *p = c->p;
  Node *it = s->a;
  if (it->kind == NODE_RANGE) {
    for_counted(c, s, mkt(TY_INT), it->a, it->b, 0, 0, -1, 0);
    return;
  }
  const Builtin *iterated = it->kind == NODE_CALL ? builtin_find(it->name, -1) : NULL;
  if (iterated && iterated->kind == BUILTIN_ITERATE) {
    for_neighbours(c, s, it);
    return;
  }
  if (it->kind == NODE_LIST) {
    int n = ast_count(it->a);
    if (n == 0) {
      /* Nothing to iterate, but the body is still checked. */
      Scope sc = scope_open(c);
      int skip = emit(c, OP_JMP, 0, 0, s->span);
      Local *var = add_local(c, s->name, mkt(TY_INT), 1, s->span);
      if (var) var->readonly = 1;
      Loop l;
      loop_begin(c, &l);
      block(c, s->c);
      patch(c, skip, here(c));
      loop_end(c, &l, here(c), here(c));
      scope_close(c, sc);
      return;
    }
    int32_t *v = malloc((size_t)n * sizeof *v);
    if (!v) { c->oom = p->oom = 1; return; }
    Type et = T_ERR;
    int i = 0, ok = 1;
    for (Node *e = it->a; e; e = e->next) {
      Type t;
      v[i++] = resolve_const(c->r, e, &t, &ok);
      if (i == 1) et = t;
      else if (!type_compatible(t, et)) { diag_error(c->d, e->span, "list elements of different types"); ok = 0; }
    }
    int32_t *k = ok ? realloc(p->konst, (size_t)(p->nkonst + n) * sizeof *k) : NULL;
    if (ok && !k) c->oom = p->oom = 1;
    if (k) {
      p->konst = k;
      memcpy(k + p->nkonst, v, (size_t)n * sizeof *v);
      for_counted(c, s, et, NULL, NULL, 0, n - 1, p->nkonst, n);
      p->nkonst += n;
    }
    free(v);
    return;
  }
  if (it->kind == NODE_NAME) {
    Symbol *sym = resolve_lookup(c->r, it->name);
    Type t = { TY_INT, 0, 0, 0 };
    if (!strcmp(it->name, "players")) {
      t.kind = TY_PLAYER;
      for_counted(c, s, t, NULL, NULL, 1, p->nplayers, -1, 0);
      return;
    }
    if (!strcmp(it->name, "directions")) {
      if (p->board != BOARD_RECT) { diag_error(c->d, it->span, "directions need a rect board"); return; }
      t.kind = TY_DIR;
      for_counted(c, s, t, NULL, NULL, 0, DIR_COUNT - 1, -1, 0);
      return;
    }
    if (!strcmp(it->name, "cells") && sym && sym->kind == SYM_VALUE) {
      t.kind = TY_CELL;
      for_counted(c, s, t, NULL, NULL, 0, p->ncells - 1, -1, 0);
      return;
    }
    if (sym && sym->kind == SYM_TYPE && sym->type.kind == TY_ENUM) {
      for_counted(c, s, sym->type, NULL, NULL, 0, p->enums[sym->type.enum_id].count - 1, -1, 0);
      return;
    }
    if (sym && sym->kind == SYM_PARAM && sym->type.kind == TY_LIST) {
      if (sym->type.hi > 0)
        for_counted(c, s, t, NULL, NULL, 0, sym->type.hi - 1, sym->type.lo, sym->type.hi);
      return;
    }
  }
  diag_error(c->d, it->span, "cannot iterate over this (expected a..b, cells, players, "
             "directions, neighbours(c), an enumeration, a list parameter or [a, b, ...])");
}

static void while_stmt(Compiler *c, Node *s) {
  int top = here(c);
  expect(c, s->a, TY_BOOL, "a while condition");
  int exit_jump = emit(c, OP_JMPF, 0, 0, s->span);
  Loop l;
  loop_begin(c, &l);
  block(c, s->c);
  emit(c, OP_LOOP, top, 0, s->span);
  patch(c, exit_jump, here(c));
  loop_end(c, &l, top, here(c));
}

static int outcome_allowed(Compiler *c, Node *s) {
  if (c->kind == CHUNK_END || c->kind == CHUNK_NOMOVES || c->kind == CHUNK_FUNCTION) return 1;
  diag_error(c->d, s->span, "'%s' is only allowed in the end and nomoves blocks (and functions they call)",
             s->kind == NODE_WIN ? "win" : s->kind == NODE_LOSE ? "lose" :
             s->kind == NODE_DRAW ? "draw" : "score");
  return 0;
}

static void stmt(Compiler *c, Node *s) {
  if (!s) return;
  switch (s->kind) {
    case NODE_BLOCK: block(c, s); break;
    case NODE_VAR: var_stmt(c, s); break;
    case NODE_ASSIGN: assign_stmt(c, s); break;
    case NODE_IF: {
      expect(c, s->a, TY_BOOL, "an if condition");
      int j1 = emit(c, OP_JMPF, 0, 0, s->span);
      block(c, s->b);
      if (s->c) {
        int j2 = emit(c, OP_JMP, 0, 0, s->span);
        patch(c, j1, here(c));
        if (s->c->kind == NODE_IF) stmt(c, s->c); else block(c, s->c);
        patch(c, j2, here(c));
      } else {
        patch(c, j1, here(c));
      }
      break;
    }
    case NODE_FOR: for_stmt(c, s); break;
    case NODE_WHILE: while_stmt(c, s); break;
    case NODE_BREAK: case NODE_CONTINUE:
      if (!c->loop) { diag_error(c->d, s->span, "'%s' outside a loop", s->kind == NODE_BREAK ? "break" : "continue"); break; }
      if (s->kind == NODE_BREAK)
        list_push(&c->loop->breaks, &c->loop->nbreaks, &c->loop->capbreaks, emit(c, OP_JMP, 0, 0, s->span), c);
      else
        list_push(&c->loop->conts, &c->loop->nconts, &c->loop->capconts, emit(c, OP_JMP, 0, 0, s->span), c);
      break;
    case NODE_RETURN:
      if (c->kind == CHUNK_FUNCTION || c->kind == CHUNK_EVAL || c->kind == CHUNK_BOUND) {
        if (c->ret.kind == TY_VOID) {
          if (s->a) { diag_error(c->d, s->a->span, "this function returns no value"); }
          emit(c, OP_RET0, 0, 0, s->span);
        } else if (!s->a) {
          diag_error(c->d, s->span, "return needs a value here");
        } else {
          Type t = expr(c, s->a);
          if (!type_compatible(t, c->ret)) {
            char b1[64], b2[64];
            diag_error(c->d, s->a->span, "returning %s where %s is expected",
                       type_name(c->p, t, b1, sizeof b1), type_name(c->p, c->ret, b2, sizeof b2));
          }
          emit(c, OP_RET, 0, 0, s->span);
        }
      } else if (s->a) {
        diag_error(c->d, s->a->span, "only functions and eval return a value");
      } else {
        emit(c, OP_HALT, 0, 0, s->span);
      }
      break;
    case NODE_WIN: case NODE_LOSE:
      if (!outcome_allowed(c, s)) break;
      expect(c, s->a, TY_PLAYER, "a winner or loser");
      emit(c, s->kind == NODE_WIN ? OP_WIN : OP_LOSE, 0, 0, s->span);
      break;
    case NODE_DRAW:
      if (outcome_allowed(c, s)) emit(c, OP_DRAW, 0, 0, s->span);
      break;
    case NODE_SCORE: {
      if (!outcome_allowed(c, s)) break;
      int n = ast_count(s->a);
      if (n != c->p->nplayers) {
        diag_error(c->d, s->span, "score needs one value per player (%d), not %d", c->p->nplayers, n);
        break;
      }
      for (Node *e = s->a; e; e = e->next) expect(c, e, TY_INT, "a score");
      emit(c, OP_SCORE, n, 0, s->span);
      c->p->has_score = 1;
      break;
    }
    case NODE_NEXT:
      if (c->kind != CHUNK_EFFECT && c->kind != CHUNK_FUNCTION && c->kind != CHUNK_START) {
        diag_error(c->d, s->span, "'next' is only allowed in a move's effect");
        break;
      }
      if (s->b) {   /* next chance, P; */
        if (s->a->kind != NODE_NAME || strcmp(s->a->name, "chance") != 0) {
          diag_error(c->d, s->a->span, "'next A, B;' hands the turn to chance: write 'next chance, PLAYER;'");
          break;
        }
        if (!c->p->chance) { name_expr(c, s->a); break; }   /* reports the missing chance moves */
        expect(c, s->b, TY_PLAYER, "the player after chance");
        emit(c, OP_NEXTCHANCE, 0, 0, s->span);
        break;
      }
      expect(c, s->a, TY_PLAYER, "the next player");
      emit(c, OP_SETNEXT, 0, 0, s->span);
      break;
    case NODE_ILLEGAL:
      if (c->kind != CHUNK_EFFECT && c->kind != CHUNK_FUNCTION) {
        diag_error(c->d, s->span, "'illegal' is only allowed in a move's effect (and functions it calls)");
        break;
      }
      emit(c, OP_ILLEGAL, 0, 0, s->span);
      c->p->has_illegal = 1;
      break;
    case NODE_PAY:
      if (c->kind != CHUNK_EFFECT && c->kind != CHUNK_FUNCTION) {
        diag_error(c->d, s->span, "'pay' is only allowed in a move's effect (and functions it calls)");
        break;
      }
      expect(c, s->a, TY_PLAYER, "the player who is paid");
      expect(c, s->b, TY_INT, "a payoff");
      emit(c, OP_PAY, 0, 0, s->span);
      c->p->has_pay = 1;
      break;
    case NODE_EXPRSTMT: {
      if (s->a->kind != NODE_CALL) {
        diag_error(c->d, s->a->span, "this expression does nothing (did you mean '=' or a call?)");
        break;
      }
      Type t = expr(c, s->a);
      if (t.kind != TY_VOID && t.kind != TY_ERROR) emit(c, OP_POP, 0, 0, s->span);
      break;
    }
    default: diag_error(c->d, s->span, "expected a statement"); break;
  }
  c->stack = 0;   /* statements leave the operand stack empty */
}

static void stmt_list(Compiler *c, Node *list) {
  for (Node *s = list; s; s = s->next) stmt(c, s);
}

/* ------------------------------------------------------------------ */
/* Chunks                                                             */
/* ------------------------------------------------------------------ */

/* The span of a block's closing brace. */
static Span closing(const Node *block) {
  Span s = { block->span.end - 1, block->span.end };
  return s;
}

static int chunk_begin(Compiler *c, ChunkKind k, const char *name) {
  Program *p = c->p;
  Chunk *ch = realloc(p->chunks, (size_t)(p->nchunks + 1) * sizeof *ch);
  /* Out of memory: chunk 0 (compile_program allocates one first) takes
  ** the writes of the failed chunk, and the compilation fails. */
  if (!ch) { c->oom = p->oom = 1; return 0; }
  p->chunks = ch;
  ch = &p->chunks[p->nchunks];
  memset(ch, 0, sizeof *ch);
  ch->kind = k;
  ch->name = name;
  ch->start = p->ncode;
  c->nrecent = 0;
  c->barrier = p->ncode;
  c->kind = k;
  c->nlocals = 0;
  c->scope_start = 0;
  c->slots = 0;
  c->frame = 0;
  c->stack = 0;
  c->maxstack = 0;
  c->loop = NULL;
  c->ret = mkt(TY_VOID);
  return p->nchunks++;
}

/* Ends a chunk with `last`, located at `at` (for a missing return: the
** body's closing brace). */
static void chunk_end(Compiler *c, int idx, OpCode last, Span at) {
  if (idx < 0) return;
  emit(c, last, 0, 0, at);
  Chunk *ch = &c->p->chunks[idx];
  ch->end = c->p->ncode;
  ch->nlocals = c->frame;
  ch->maxstack = c->maxstack + 2;
}

/* Adds the arguments of a move (read-only) or function as locals, with
** the types resolved with the signature. */
static int add_params(Compiler *c, Node *params, const Type *types, int ntypes, int readonly) {
  int n = 0;
  for (Node *pd = params; pd; pd = pd->next, n++) {
    for (Node *q = params; q != pd; q = q->next)
      if (!strcmp(q->name, pd->name)) diag_error(c->d, pd->span, "duplicate argument '%s'", pd->name);
    Type t = n < ntypes ? types[n] : T_ERR;
    Local *l = add_local(c, pd->name, t, 1, pd->span);
    if (l) l->readonly = readonly;
  }
  return n;
}

/* The outermost argument a guard conjunct depends on: -1 for none. */
static int conjunct_level(Node *e, Node *params) {
  if (!e) return -1;
  int level = -1;
  if (e->kind == NODE_NAME) {
    int i = 0;
    for (Node *p = params; p; p = p->next, i++)
      if (!strcmp(p->name, e->name)) return i;
    return -1;
  }
  Node *kids[4] = { e->a, e->b, e->c, e->d };
  for (int k = 0; k < 4; k++)
    for (Node *n = kids[k]; n; n = n->next) {
      int l = conjunct_level(n, params);
      if (l > level) level = l;
      if (e->kind != NODE_CALL && e->kind != NODE_INDEX && e->kind != NODE_LIST) break;
    }
  return level;
}

static void split_conjuncts(Node *e, Node **out, int *n, int max) {
  if (e && e->kind == NODE_BINARY && e->op == OPR_AND) {
    split_conjuncts(e->a, out, n, max);
    split_conjuncts(e->b, out, n, max);
  } else if (e && *n < max) {
    out[(*n)++] = e;
  }
}

/* The domain of a move argument as lo..hi. */
static int arg_domain(Compiler *c, Type t, Span at, int32_t *lo, int32_t *hi) {
  switch (t.kind) {
    case TY_INT: case TY_BOOL: case TY_DIR: case TY_ENUM:
      *lo = t.lo; *hi = t.hi; break;
    case TY_PLAYER: *lo = 1; *hi = c->p->nplayers; break;
    case TY_CELL: *lo = 0; *hi = c->p->ncells - 1; break;
    default: return 0;
  }
  if (*lo < INT16_MIN || *hi > INT16_MAX) {
    diag_error(c->d, at, "a move argument's values must lie within %d..%d", INT16_MIN, INT16_MAX);
    return 0;
  }
  return 1;
}

/* `x: in LIST`: a list literal of constants or a list parameter; the
** values go to the constant pool.  The type is int bounded by the list. */
static Type set_domain(Compiler *c, Node *e, int *off, int *len) {
  Program *p = c->p;
  Type t = { TY_INT, 0, 0, 0 };
  if (e->kind == NODE_NAME) {
    Symbol *s = resolve_lookup(c->r, e->name);
    if (!s || s->kind != SYM_PARAM || s->type.kind != TY_LIST) {
      diag_error(c->d, e->span, "'%s' is not a list parameter", e->name);
      return T_ERR;
    }
    *off = s->type.lo;
    *len = s->type.hi;
  } else if (e->kind == NODE_LIST) {
    int n = ast_count(e->a), ok = 1, i = 0;
    int32_t *k = realloc(p->konst, (size_t)(p->nkonst + n + 1) * sizeof *k);
    if (!k) { c->oom = p->oom = 1; return T_ERR; }
    p->konst = k;
    for (Node *x = e->a; x; x = x->next) {
      Type xt;
      k[p->nkonst + i++] = resolve_const(c->r, x, &xt, &ok);
      if (ok && !is_int(xt)) { diag_error(c->d, x->span, "a set of move values holds integers"); ok = 0; }
    }
    if (!ok) return T_ERR;
    *off = p->nkonst;
    *len = n;
    p->nkonst += n;
  } else {
    diag_error(c->d, e->span, "expected a list [a, b, ...] or a list parameter after 'in'");
    return T_ERR;
  }
  if (*len == 0) {
    diag_error(c->d, e->span, "a move argument needs at least one value");
    *len = 0;
    return T_ERR;
  }
  for (int i = 0; i < *len; i++)
    for (int j = 0; j < i; j++)
      if (p->konst[*off + i] == p->konst[*off + j]) {
        diag_error(c->d, e->span, "the value %d appears twice: each move must be different",
                   p->konst[*off + i]);
        return T_ERR;
      }
  t.lo = t.hi = p->konst[*off];
  for (int i = 1; i < *len; i++) {
    int32_t v = p->konst[*off + i];
    if (v < t.lo) t.lo = v;
    if (v > t.hi) t.hi = v;
  }
  return t;
}

enum { MAX_CONJUNCTS = 64 };

/* One rule's part of the generator: nested loops, hoisted tests, EMIT. */
static void compile_rule_generator(Compiler *c, int ri, Node *m) {
  MoveRule *rule = &c->p->rules[ri];
  int legal = chunk_begin(c, CHUNK_LEGALITY, rule->name);
  c->kind = CHUNK_GENERATE;
  Scope sc = scope_open(c);
  int nargs = rule->nargs;
  Local *args[GAME_MAX_ARGS];
  int i = 0;
  for (Node *pd = m->a; pd && i < nargs; pd = pd->next, i++) {
    args[i] = add_local(c, pd->name, rule->arg[i], 1, pd->span);
    if (!args[i]) return;
    args[i]->readonly = 1;
  }
  Node *conj[MAX_CONJUNCTS];
  int nconj = 0;
  split_conjuncts(m->b, conj, &nconj, MAX_CONJUNCTS);
  if (m->b && nconj == MAX_CONJUNCTS) { nconj = 1; conj[0] = m->b; }
  int top[GAME_MAX_ARGS];
  int32_t limit[GAME_MAX_ARGS];
  int counter[GAME_MAX_ARGS];   /* the local FORK steps: the arg or a set index */
  int *skips[GAME_MAX_ARGS + 1] = { 0 };
  int nskips[GAME_MAX_ARGS + 1] = { 0 }, capskips[GAME_MAX_ARGS + 1] = { 0 };
  /* A conjunct is tested where its arguments are known, but never before
  ** the conjuncts written to its left: && keeps its left-to-right meaning. */
  int level_of[MAX_CONJUNCTS];
  for (int k = 0, run = -1; k < nconj; k++) {
    int l = conjunct_level(conj[k], m->a);
    run = l > run ? l : run;
    level_of[k] = run;
  }
  /* In a game with chance, chance's moves and the players' moves are
  ** generated in different positions. */
  if (c->p->chance) {
    emit(c, OP_LOADS, 0, 0, m->span);
    emit(c, OP_CONST, c->p->chance, 0, m->span);
    emit(c, rule->chance ? OP_EQ : OP_NE, 0, 0, m->span);
    list_push(&skips[0], &nskips[0], &capskips[0], emit(c, OP_JMPF, 0, 0, m->span), c);
    c->stack = 0;
  }
  for (int level = -1; level < nargs; level++) {
    if (level >= 0) {
      int32_t lo, hi;
      arg_domain(c, rule->arg[level], m->span, &lo, &hi);
      /* Domains are never empty: test at the bottom only (FORK). */
      if (rule->set_len[level] > 0) {
        Local *idx = add_local(c, " set index", rule->arg[level], 1, m->span);
        if (!idx) return;
        counter[level] = idx->slot;
        emit(c, OP_CONST, 0, 0, m->span);
        emit(c, OP_STOREL, idx->slot, 0, m->span);
        top[level] = here(c);
        emit(c, OP_LOADL, idx->slot, 0, m->span);
        emit(c, OP_LOADK, rule->set_off[level], rule->set_len[level], m->span);
        emit(c, OP_STOREL, args[level]->slot, 0, m->span);
        limit[level] = rule->set_len[level] - 1;
      } else {
        counter[level] = args[level]->slot;
        emit(c, OP_CONST, lo, 0, m->span);
        emit(c, OP_STOREL, args[level]->slot, 0, m->span);
        top[level] = here(c);
        limit[level] = hi;
      }
    }
    for (int k = 0; k < nconj; k++) {
      if (level_of[k] != level) continue;
      expect(c, conj[k], TY_BOOL, "a move's when condition");
      list_push(&skips[level + 1], &nskips[level + 1], &capskips[level + 1],
                emit(c, OP_JMPF, 0, 0, conj[k]->span), c);
      c->stack = 0;
    }
  }
  emit(c, OP_EMIT, ri, nargs, m->span);
  for (int level = nargs - 1; level >= -1; level--) {
    for (int k = 0; k < nskips[level + 1]; k++) patch(c, skips[level + 1][k], here(c));
    free(skips[level + 1]);
    if (level < 0) break;
    here(c);
    emit_raw(c, OP_FORK, counter[level], limit[level], top[level], m->span);
  }
  scope_close(c, sc);
  /* The legality chunk only names this code range for runtime errors. */
  Chunk *ch = &c->p->chunks[legal];
  ch->end = here(c);
  ch->nlocals = c->frame;
  ch->maxstack = c->maxstack + 2;
}

static void check_notation(Compiler *c, Node *m, MoveRule *rule) {
  if (!m->d) return;
  const char *f = m->d->name;
  for (const char *s = f; *s; s++) {
    if (*s != '{') continue;
    const char *e = strchr(s, '}');
    if (!e) { diag_error(c->d, m->d->span, "unclosed '{' in the notation"); return; }
    int found = 0;
    for (int i = 0; i < rule->nargs; i++)
      if ((size_t)(e - s - 1) == strlen(rule->argname[i]) && !strncmp(s + 1, rule->argname[i], (size_t)(e - s - 1)))
        found = 1;
    if (!found) {
      diag_error(c->d, m->d->span, "the notation names '%.*s', which is not an argument of '%s'",
                 (int)(e - s - 1), s + 1, rule->name);
      return;
    }
    s = e;
  }
}

int compile_program(Program *p, Diag *d, Resolver *r) {
  Compiler c;
  memset(&c, 0, sizeof c);
  c.p = p;
  c.d = d;
  c.r = r;
  c.locals = malloc(PROG_MAX_LOCALS * sizeof *c.locals);
  if (!c.locals) { p->oom = 1; return 0; }
  p->gen_chunk = p->end_chunk = p->nomoves_chunk = p->eval_chunk = p->start_chunk = -1;
  p->bound_chunk = -1;
  p->rules = prog_alloc(p, (size_t)(p->nrules + 1) * sizeof(MoveRule));
  if (!p->chunks) p->chunks = calloc(1, sizeof *p->chunks);
  if (!p->rules || !p->chunks) { p->oom = 1; free(c.locals); return 0; }

  /* Step 1. Function and rule signatures. */
  c.fparams = calloc((size_t)r->nfuncs * FUNC_MAX_PARAMS + 1, sizeof(Type));
  c.fret = calloc((size_t)r->nfuncs + 1, sizeof(Type));
  if (!c.fparams || !c.fret) { p->oom = 1; free(c.locals); free(c.fparams); free(c.fret); return 0; }
  for (int fi = 0; fi < r->nfuncs; fi++) {
    Node *f = r->funcs[fi];
    int k = 0;
    for (Node *pd = f->a; pd; pd = pd->next, k++) {
      if (k == FUNC_MAX_PARAMS) {
        diag_error(d, pd->span, "too many parameters (limit is %d)", FUNC_MAX_PARAMS);
        break;
      }
      c.fparams[(size_t)fi * FUNC_MAX_PARAMS + k] = resolve_type(r, pd->a, 0);
    }
    c.fret[fi] = f->b ? resolve_type(r, f->b, 0) : mkt(TY_VOID);
  }
  for (int ri = 0; ri < p->nrules; ri++) {
    Node *m = r->moves[ri];
    MoveRule *rule = &p->rules[ri];
    rule->name = m->name;
    rule->nargs = ast_count(m->a);
    rule->notation = m->d ? m->d->name : NULL;
    rule->chance = m->op == 1;
    rule->weight = -1;
    if (rule->nargs > GAME_MAX_ARGS) {
      diag_error(d, m->span, "a move has at most %d arguments", GAME_MAX_ARGS);
      rule->nargs = GAME_MAX_ARGS;
    }
    int i = 0;
    for (Node *pd = m->a; pd && i < rule->nargs; pd = pd->next, i++) {
      rule->argname[i] = pd->name;
      if (pd->a->kind == NODE_TSET)
        rule->arg[i] = set_domain(&c, pd->a->a, &rule->set_off[i], &rule->set_len[i]);
      else
        rule->arg[i] = resolve_type(r, pd->a, 1);
      int32_t lo, hi;
      if (rule->arg[i].kind != TY_ERROR && !arg_domain(&c, rule->arg[i], pd->span, &lo, &hi))
        rule->arg[i].kind = TY_ERROR;
    }
    if (rule->nargs > p->maxargs) p->maxargs = rule->nargs;
    check_notation(&c, m, rule);
  }

  /* Step 2. The generator: every rule's loops in one chunk. */
  p->gen_chunk = chunk_begin(&c, CHUNK_GENERATE, "generate");
  int gen_frame = 0, gen_stack = 0;
  for (int ri = 0; ri < p->nrules; ri++) {
    compile_rule_generator(&c, ri, r->moves[ri]);
    Chunk *lc = &p->chunks[p->nchunks - 1];
    if (lc->nlocals > gen_frame) gen_frame = lc->nlocals;
    if (lc->maxstack > gen_stack) gen_stack = lc->maxstack;
  }
  emit(&c, OP_HALT, 0, 0, (Span){ 0, 0 });
  p->chunks[p->gen_chunk].end = p->ncode;
  p->chunks[p->gen_chunk].nlocals = gen_frame;
  p->chunks[p->gen_chunk].maxstack = gen_stack + 2;

  /* Step 3. Effects. */
  for (int ri = 0; ri < p->nrules; ri++) {
    Node *m = r->moves[ri];
    int idx = chunk_begin(&c, CHUNK_EFFECT, m->name);
    add_params(&c, m->a, p->rules[ri].arg, GAME_MAX_ARGS, 1);
    p->chunks[idx].nparams = p->rules[ri].nargs;
    block(&c, m->c);
    chunk_end(&c, idx, OP_HALT, closing(m->c));
    p->rules[ri].effect = idx;
  }
  /* Step 3b. Weights of chance moves: int-valued chunks of the arguments. */
  for (int ri = 0; ri < p->nrules; ri++) {
    Node *m = r->moves[ri];
    if (!m->e) continue;
    int idx = chunk_begin(&c, CHUNK_WEIGHT, m->name);
    add_params(&c, m->a, p->rules[ri].arg, GAME_MAX_ARGS, 1);
    p->chunks[idx].nparams = p->rules[ri].nargs;
    p->chunks[idx].returns = 1;
    expect(&c, m->e, TY_INT, "a chance move's weight");
    emit(&c, OP_RET, 0, 0, m->e->span);
    chunk_end(&c, idx, OP_NORET, m->e->span);
    p->rules[ri].weight = idx;
  }

  /* Step 4. Functions: chunk i+first is function i (CALL uses the index). */
  int first_func = p->nchunks;
  for (int fi = 0; fi < r->nfuncs; fi++) {
    Node *f = r->funcs[fi];
    int idx = chunk_begin(&c, CHUNK_FUNCTION, f->name);
    c.ret = c.fret[fi];
    add_params(&c, f->a, c.fparams + (size_t)fi * FUNC_MAX_PARAMS, FUNC_MAX_PARAMS, 0);
    p->chunks[idx].nparams = ast_count(f->a);
    p->chunks[idx].returns = c.ret.kind != TY_VOID;
    block(&c, f->c);
    chunk_end(&c, idx, c.ret.kind != TY_VOID ? OP_NORET : OP_RET0, closing(f->c));
  }
  /* Step 5. end, nomoves, eval. */
  if (r->end_decl) {
    p->end_chunk = chunk_begin(&c, CHUNK_END, "end");
    block(&c, r->end_decl->c);
    chunk_end(&c, p->end_chunk, OP_HALT, closing(r->end_decl->c));
  }
  if (r->nomoves_decl) {
    p->nomoves_chunk = chunk_begin(&c, CHUNK_NOMOVES, "nomoves");
    block(&c, r->nomoves_decl->c);
    chunk_end(&c, p->nomoves_chunk, OP_HALT, closing(r->nomoves_decl->c));
  }
  if (r->start_decl) {
    p->start_chunk = chunk_begin(&c, CHUNK_START, "start");
    block(&c, r->start_decl->c);
    chunk_end(&c, p->start_chunk, OP_HALT, closing(r->start_decl->c));
  }
  if (r->eval_decl) {
    p->eval_chunk = chunk_begin(&c, CHUNK_EVAL, "eval");
    c.ret = mkt(TY_INT);
    block(&c, r->eval_decl->c);
    chunk_end(&c, p->eval_chunk, OP_NORET, closing(r->eval_decl->c));
  }
  if (r->bound_decl) {
    Type pt = mkt(TY_PLAYER);
    p->bound_chunk = chunk_begin(&c, CHUNK_BOUND, "bound");
    c.ret = mkt(TY_INT);
    add_params(&c, r->bound_decl->a, &pt, 1, 0);
    p->chunks[p->bound_chunk].nparams = 1;
    p->chunks[p->bound_chunk].returns = 1;
    block(&c, r->bound_decl->c);
    chunk_end(&c, p->bound_chunk, OP_NORET, closing(r->bound_decl->c));
  }
  /* CALL operands are function indices; make them chunk indices, once
  ** every body that may call is compiled. */
  for (int pc = 0; pc < p->ncode && !c.oom; pc += 1 + op_operands[p->code[pc]])
    if (p->code[pc] == OP_CALL) p->code[pc + 1] += first_func;
  free(c.locals);
  free(c.fparams);
  free(c.fret);
  if (c.oom) return 0;
  return d->errors == 0;
}
