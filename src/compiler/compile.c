/*
** compile.c -- compiles the bodies of a .game file (moves, functions, end,
** nomoves, eval, ...) into chunks of bytecode, after the resolver.
**
** The legal-move generator is compiled as one chunk of nested loops over
** the arguments of every rule, with each conjunct of a rule's `when`
** condition tested in the outermost loop where its arguments are all
** known.  Expressions and statements are in compile_expr.c and
** compile_stmt.c, the emitter in emit.c.
*/
#include "compiler/compile_int.h"

#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* Chunks                                                             */
/* ------------------------------------------------------------------ */

/* The span of a block's closing brace. */
static Span closing(const Node *block) {
  Span s = { block->span.end - 1, block->span.end };
  return s;
}

int cg_chunk_begin(Compiler *c, ChunkKind k, const char *name) {
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
void cg_chunk_end(Compiler *c, int idx, OpCode last, Span at) {
  if (idx < 0) return;
  cg_emit(c, last, 0, 0, at);
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
    Local *l = cg_add_local(c, pd->name, t, 1, pd->span);
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

/* A board cell argument whose first test is `A[x] == E` (or `E == A[x]`),
** A a state array with an entry per cell and E free of x and of the arguments
** after it: the generator finds the cells where A holds E's value with
** FINDS, one instruction per match, instead of testing every cell.  The
** other side, E, or NULL; *var the array. */
static Node *find_pattern(Compiler *c, Node *e, Node *params, int level, const char *arg,
                          StateVar **var) {
  if (!e || e->kind != NODE_BINARY || e->op != OPR_EQ) return NULL;
  for (int side = 0; side < 2; side++) {
    Node *ix = side ? e->b : e->a, *other = side ? e->a : e->b;
    if (ix->kind != NODE_INDEX || ix->a->kind != NODE_NAME || !ix->b || ix->b->next ||
        ix->b->kind != NODE_NAME || strcmp(ix->b->name, arg) != 0)
      continue;
    if (cg_find_local(c, ix->a->name)) continue;
    Symbol *s = resolve_lookup(c->r, ix->a->name);
    if (!s || s->kind != SYM_STATE) continue;
    StateVar *v = &c->p->vars[s->index];
    if (v->ndims != 1 || v->dim[0] != c->p->ncells) continue;
    if (conjunct_level(other, params) >= level) continue;
    *var = v;
    return other;
  }
  return NULL;
}

/* An argument x whose first test is `x == E` (or `E == x`), E free of x and
** of the arguments after it: x takes E's value alone, when it lies in x's
** domain, instead of every value of the domain being tried against it.
** The other side, E, or NULL. */
static Node *pin_pattern(Node *e, Node *params, int level, const char *arg) {
  if (!e || e->kind != NODE_BINARY || e->op != OPR_EQ) return NULL;
  for (int side = 0; side < 2; side++) {
    Node *x = side ? e->b : e->a, *other = side ? e->a : e->b;
    if (x->kind != NODE_NAME || strcmp(x->name, arg) != 0) continue;
    if (conjunct_level(other, params) >= level) continue;
    return other;
  }
  return NULL;
}

/* The pinned argument x (pin_pattern): x := E once, then out unless E is
** in lo..hi.  E's type must be one == accepts beside x's. */
static void pinned_arg(Compiler *c, Node *e, Node *value, Type at, int slot, int32_t lo, int32_t hi,
                       int **exits, int *nexits, int *capexits) {
  Type t = cg_expr(c, value);
  if (!type_compatible(at, t)) {
    char b1[64], b2[64];
    int left = e->a == value;
    diag_error(c->d, e->span, "cannot compare %s with %s",
               type_name(c->p, left ? t : at, b1, sizeof b1),
               type_name(c->p, left ? at : t, b2, sizeof b2));
  }
  cg_emit(c, OP_STOREL, slot, 0, e->span);
  cg_emit(c, OP_LOADL, slot, 0, e->span);
  cg_list_push(exits, nexits, capexits, cg_emit(c, OP_JLTK, 0, lo, e->span), c);
  cg_emit(c, OP_LOADL, slot, 0, e->span);
  cg_list_push(exits, nexits, capexits, cg_emit(c, OP_JGTK, 0, hi, e->span), c);
  c->stack = 0;
}

/* The head of a cell argument x's FINDS loop, for the test e, `A[x] ==
** value` (find_pattern): v := value once; x := 0; top: x := FINDS(v from
** x), out when -1.  The loop's top, or -1 (too many locals, reported). */
static int finds_loop(Compiler *c, Node *e, Node *value, const StateVar *var, int slot, Span at,
                      int **exits, int *nexits, int *capexits) {
  Local *want = cg_add_local(c, " find value", var->elem, 1, at);
  if (!want) return -1;
  Type t = cg_expr(c, value);
  if (!type_compatible(var->elem, t)) {
    /* The operands in the order written, as == says it. */
    char b1[64], b2[64];
    int left = e->a == value;
    diag_error(c->d, e->span, "cannot compare %s with %s",
               type_name(c->p, left ? t : var->elem, b1, sizeof b1),
               type_name(c->p, left ? var->elem : t, b2, sizeof b2));
  }
  cg_emit(c, OP_STOREL, want->slot, 0, at);
  cg_emit(c, OP_CONST, 0, 0, at);
  cg_emit(c, OP_STOREL, slot, 0, at);
  int top = cg_here(c);
  cg_emit(c, OP_LOADL, want->slot, 0, at);
  cg_emit(c, OP_LOADL, slot, 0, at);
  cg_emit(c, OP_FINDS, var->base, var->dim[0], at);
  cg_emit(c, OP_STOREL, slot, 0, at);
  cg_emit(c, OP_LOADL, slot, 0, at);
  cg_list_push(exits, nexits, capexits, cg_emit(c, OP_JLTK, 0, 0, at), c);
  c->stack = 0;
  return top;
}

/* A board cell argument whose first test is `sees(A, a, x, v)` or
** `sees(A, a, x, v, g)` (builtins.c), A a state array with an entry per
** cell of a rect board, and a, v, g free of x and of the arguments after
** it: the generator walks the eight rays from a instead of testing every
** cell (a slider's moves: a queen's, an amazon's and its arrow's).  The
** call, or NULL; *var the array. */
static Node *sees_pattern(Compiler *c, Node *e, Node *params, int level, const char *arg,
                          StateVar **var) {
  if (!e || e->kind != NODE_CALL || strcmp(e->name, "sees") != 0 || c->p->board != BOARD_RECT) return NULL;
  int n = ast_count(e->a);
  if (n != 4 && n != 5) return NULL;
  Node *arr = e->a, *a = arr->next, *x = a->next, *v = x->next, *g = v->next;
  if (arr->kind != NODE_NAME || cg_find_local(c, arr->name)) return NULL;
  Symbol *s = resolve_lookup(c->r, arr->name);
  if (!s || s->kind != SYM_STATE) return NULL;
  StateVar *sv = &c->p->vars[s->index];
  if (sv->ndims != 1 || sv->dim[0] != c->p->ncells || !sv->on_board) return NULL;
  if (x->kind != NODE_NAME || strcmp(x->name, arg) != 0) return NULL;
  if (conjunct_level(a, params) >= level || conjunct_level(v, params) >= level ||
      (g && conjunct_level(g, params) >= level))
    return NULL;
  *var = sv;
  return e;
}

/* A ray loop (sees_pattern): its locals, its head's targets and the jumps
** to its next direction, patched where the loop closes. */
typedef struct RayLoop {
  int on;
  const StateVar *var;
  int x, origin, want, gone, d;   /* locals: the argument, a, v, g, the direction */
  int top;                        /* the next cell along the ray */
  int *next, nnext, capnext;      /* jumps to the next direction */
  Span at;
} RayLoop;

/* The head of a ray loop for the test e = sees(A, a, x, v[, g]), with the
** checks and messages of the call: a, v and g once; d := 0; restart: x
** := a; top: x := STEP(x, d), to the next direction off the board.  The
** restart (FORK's target), or -1 (too many locals, reported). */
static int ray_head(Compiler *c, Node *e, const StateVar *var, int slot, RayLoop *ray) {
  Node *a = e->a->next, *v = a->next->next, *g = v->next;
  Local *o = cg_add_local(c, " ray origin", mkt(TY_CELL), 1, e->span);
  Local *want = o ? cg_add_local(c, " ray value", var->elem, 1, e->span) : NULL;
  Local *gone = want ? cg_add_local(c, " ray gone", mkt(TY_CELL), 1, e->span) : NULL;
  Local *d = gone ? cg_add_local(c, " ray direction", mkt(TY_DIR), 1, e->span) : NULL;
  if (!d) return -1;
  ray->on = 1;
  ray->var = var;
  ray->x = slot;
  ray->origin = o->slot;
  ray->want = want->slot;
  ray->gone = gone->slot;
  ray->d = d->slot;
  ray->at = e->span;
  cg_expect(c, a, TY_CELL, "a cell");
  cg_emit(c, OP_STOREL, o->slot, 0, e->span);
  Type vt = cg_expr(c, v);
  if (!type_compatible(vt, var->elem))
    diag_error(c->d, v->span, "%s() compares values of another type", e->name);
  cg_emit(c, OP_STOREL, want->slot, 0, e->span);
  if (g) cg_expect(c, g, TY_CELL, "a cell");
  else cg_emit(c, OP_CONST, -1, 0, e->span);
  cg_emit(c, OP_STOREL, gone->slot, 0, e->span);
  /* sees() fails on a that is no cell: so does the loop, as the call would. */
  cg_emit(c, OP_LOADL, o->slot, 0, e->span);
  cg_emit(c, OP_COLOF, 0, 0, e->span);
  cg_emit(c, OP_POP, 0, 0, e->span);
  cg_emit(c, OP_CONST, 0, 0, e->span);
  cg_emit(c, OP_STOREL, d->slot, 0, e->span);
  int restart = cg_here(c);
  cg_emit(c, OP_LOADL, o->slot, 0, e->span);
  cg_emit(c, OP_STOREL, slot, 0, e->span);
  ray->top = cg_here(c);
  cg_emit(c, OP_LOADL, slot, 0, e->span);
  cg_emit(c, OP_LOADL, d->slot, 0, e->span);
  cg_emit(c, OP_STEP, 0, 0, e->span);
  cg_emit(c, OP_STOREL, slot, 0, e->span);
  cg_emit(c, OP_LOADL, slot, 0, e->span);
  cg_list_push(&ray->next, &ray->nnext, &ray->capnext, cg_emit(c, OP_JEQK, 0, -1, e->span), c);
  c->stack = 0;
  return restart;
}

/* The bottom of a ray loop: on along the ray while its cell holds v (or is
** g), else the next direction (FORK), up to the eighth. */
static void ray_close(Compiler *c, RayLoop *ray, int restart) {
  Span at = ray->at;
  cg_emit(c, OP_LOADL, ray->x, 0, at);
  cg_emit(c, OP_LOADSI, ray->var->base, ray->var->dim[0], at);
  cg_emit(c, OP_LOADL, ray->want, 0, at);
  cg_emit(c, OP_EQ, 0, 0, at);
  int go = cg_emit(c, OP_JMPT, 0, 0, at);
  cg_emit(c, OP_LOADL, ray->x, 0, at);
  cg_emit(c, OP_LOADL, ray->gone, 0, at);
  cg_emit(c, OP_EQ, 0, 0, at);
  cg_list_push(&ray->next, &ray->nnext, &ray->capnext, cg_emit(c, OP_JMPF, 0, 0, at), c);
  cg_patch(c, go, cg_here(c));
  cg_emit(c, OP_LOOP, ray->top, 0, at);
  int next = cg_here(c);
  for (int k = 0; k < ray->nnext; k++) cg_patch(c, ray->next[k], next);
  cg_emit_raw(c, OP_FORK, ray->d, 7, restart, at);
  c->stack = 0;
}

/* An integer or cell argument's bound `x <= E`, `x < E`, `x >= E`, `x >
** E` or `x == E` (both bounds at once; or the same written E first), E
** free of x and of the arguments after it: the bound's other side, and in
** *op the comparison with x on the left ('<', OPR_LE, '>', OPR_GE or
** OPR_EQ); NULL if the conjunct is not one. */
static Node *bound_pattern(Node *e, Node *params, int level, const char *arg, int *op) {
  if (!e || e->kind != NODE_BINARY) return NULL;
  int o = e->op;
  if (o != '<' && o != '>' && o != OPR_LE && o != OPR_GE && o != OPR_EQ) return NULL;
  Node *other;
  if (e->a->kind == NODE_NAME && !strcmp(e->a->name, arg)) {
    other = e->b;
  } else if (e->b->kind == NODE_NAME && !strcmp(e->b->name, arg)) {
    other = e->a;
    o = o == '<' ? '>' : o == '>' ? '<' : o == OPR_LE ? OPR_GE : o == OPR_GE ? OPR_LE : o;
  } else {
    return NULL;
  }
  if (conjunct_level(other, params) >= level) return NULL;
  *op = o;
  return other;
}

/* The loop of integer or cell argument x over lo..hi narrowed by the
** bounds its level's first tests set (bound_pattern): each bound, in the
** order written, raises the start or lowers the limit (local lim), `x ==
** E` after another bound both (a first `x == E` is pinned instead:
** pin_pattern), and the loop is left as soon as it is empty, so that a bound is evaluated only where the original test would
** have been. */
static void bounded_loop(Compiler *c, Node **conj, int nconj, const int *level_of, int level,
                        Node *params, const char *arg, Type xt, int slot, int lim, int32_t lo, int32_t hi,
                        int *used, int **exits, int *nexits, int *capexits) {
  cg_emit(c, OP_CONST, lo, 0, params->span);
  cg_emit(c, OP_STOREL, slot, 0, params->span);
  cg_emit(c, OP_CONST, hi, 0, params->span);
  cg_emit(c, OP_STOREL, lim, 0, params->span);
  for (int k = 0; k < nconj; k++) {
    if (level_of[k] != level) continue;
    int op;
    Node *e = bound_pattern(conj[k], params, level, arg, &op);
    if (!e) break;
    Span at = conj[k]->span;
    Type t = cg_expr(c, e);
    if (op == OPR_EQ) {
      if (!is_int(t)) {
        /* The operands in the order written, as == says it. */
        char b1[64], b2[64];
        int left = conj[k]->a == e;
        diag_error(c->d, at, "cannot compare %s with %s",
                   type_name(c->p, left ? t : xt, b1, sizeof b1),
                   type_name(c->p, left ? xt : t, b2, sizeof b2));
      }
      cg_emit(c, OP_DUP, 0, 0, at);
      cg_emit(c, OP_LOADL, lim, 0, at);
      cg_emit(c, OP_MIN, 0, 0, at);
      cg_emit(c, OP_STOREL, lim, 0, at);
      cg_emit(c, OP_LOADL, slot, 0, at);
      cg_emit(c, OP_MAX, 0, 0, at);
      cg_emit(c, OP_STOREL, slot, 0, at);
      cg_emit(c, OP_LOADL, slot, 0, at);
      cg_emit(c, OP_LOADL, lim, 0, at);
      cg_list_push(exits, nexits, capexits, cg_emit(c, OP_JGT, 0, 0, at), c);
      c->stack = 0;
      used[k] = 1;
      continue;
    }
    if (!is_int(t)) {
      /* The operands in the order written, as the comparison says it. */
      char b1[64], b2[64];
      int left = conj[k]->a == e;
      diag_error(c->d, at, "arithmetic and ordering need integers, not %s and %s",
                 type_name(c->p, left ? t : mkt(TY_INT), b1, sizeof b1),
                 type_name(c->p, left ? mkt(TY_INT) : t, b2, sizeof b2));
    }
    int upper = op == '<' || op == OPR_LE;
    /* Strict bounds: E clamped first (E - 1 and E + 1 cannot overflow). */
    if (op == '<') {
      cg_emit(c, OP_CONST, lo, 0, at);
      cg_emit(c, OP_MAX, 0, 0, at);
      cg_emit(c, OP_CONST, 1, 0, at);
      cg_emit(c, OP_SUB, 0, 0, at);
    } else if (op == '>') {
      cg_emit(c, OP_CONST, hi, 0, at);
      cg_emit(c, OP_MIN, 0, 0, at);
      cg_emit(c, OP_CONST, 1, 0, at);
      cg_emit(c, OP_ADD, 0, 0, at);
    }
    cg_emit(c, OP_LOADL, upper ? lim : slot, 0, at);
    cg_emit(c, upper ? OP_MIN : OP_MAX, 0, 0, at);
    cg_emit(c, OP_STOREL, upper ? lim : slot, 0, at);
    cg_emit(c, OP_LOADL, slot, 0, at);
    cg_emit(c, OP_LOADL, lim, 0, at);
    cg_list_push(exits, nexits, capexits, cg_emit(c, OP_JGT, 0, 0, at), c);
    c->stack = 0;
    used[k] = 1;
  }
}

/* A rule of one argument over a few values (Connect Four's columns),
** tested by small conditions, is generated without a loop: its tests once
** per value with the argument a constant, where they fold (the top cell
** of a column is a fixed slot), then EMITK. */
static int generator_unrolls(const MoveRule *rule, Node **conj, int nconj, const int *level_of,
                             int32_t lo, int32_t hi) {
  if (rule->nargs != 1 || rule->set_len[0] > 0 || rule->arg[0].kind == TY_CELL ||
      (int64_t)hi - lo + 1 > UNROLL_MAX_ITERATIONS)
    return 0;
  int size = 0;
  for (int k = 0; k < nconj; k++)
    if (level_of[k] == 0) size = cg_unroll_size(conj[k], size);
  return size <= UNROLL_MAX_NODES;
}

static void unroll_generator(Compiler *c, int ri, Node *m, Local *arg, Node **conj, int nconj,
                             const int *level_of, int32_t lo, int32_t hi) {
  Copies copies = { 0 };
  for (int32_t v = lo; v <= hi; v++) {
    arg->known = 1;
    arg->value = v;
    int *skip = NULL, nskip = 0, capskip = 0;
    for (int k = 0; k < nconj; k++) {
      if (level_of[k] != 0) continue;   /* tested before the values */
      cg_expect(c, conj[k], TY_BOOL, "a move's when condition");
      cg_list_push(&skip, &nskip, &capskip, cg_emit(c, OP_JMPF, 0, 0, conj[k]->span), c);
      c->stack = 0;
    }
    cg_emit(c, OP_EMITK, ri, v, m->span);
    int next = cg_here(c);
    for (int k = 0; k < nskip; k++) cg_patch(c, skip[k], next);
    free(skip);
    cg_copy_done(c, &copies);
  }
  cg_copies_end(c, &copies);
  arg->known = 0;
}

/* Whether a and b are written alike: the same node kinds, names and
** values, their operands alike too (b's `next` is not looked at). */
static int same_list(const Node *a, const Node *b);
static int same_node(const Node *a, const Node *b) {
  if (!a || !b) return a == b;
  if (a->kind != b->kind || a->op != b->op || a->ival != b->ival) return 0;
  if ((a->name == NULL) != (b->name == NULL) || (a->name && strcmp(a->name, b->name) != 0)) return 0;
  return same_list(a->a, b->a) && same_list(a->b, b->b) && same_list(a->c, b->c) && same_list(a->d, b->d);
}
static int same_list(const Node *a, const Node *b) {
  for (; a && b; a = a->next, b = b->next)
    if (!same_node(a, b)) return 0;
  return a == b;
}

const struct MemoSite *cg_memo_site(const Compiler *c, const Node *e) {
  for (int i = 0; i < c->nsites; i++)
    if (same_node(c->sites[i].call, e)) return &c->sites[i];
  return NULL;
}

/* The calls in e, a conjunct tested in the loop of argument `level`, whose
** arguments outer loops fix (a call at level L < level): each gets a memo
** site, shared by the calls written alike, its two locals in the rule's
** frame.  Functions without arguments have their generation-wide memo;
** functions that are inlined need none. */
static void collect_sites(Compiler *c, Node *e, Node *params, int level) {
  for (; e; e = e->next) {
    if (e->kind == NODE_CALL && e->a) {
      Symbol *s = resolve_lookup(c->r, e->name);
      int at = conjunct_level(e, params);
      if (s && s->kind == SYM_FUNC && c->fret[s->index].kind != TY_VOID && at < level &&
          !cg_inlines(c, s->index) && !cg_memo_site(c, e)) {
        struct MemoSite *ns = realloc(c->sites, (size_t)(c->nsites + 1) * sizeof *ns);
        Local *l = ns ? cg_add_local(c, " memo", c->fret[s->index], 2, e->span) : NULL;
        if (!ns) { c->oom = c->p->oom = 1; return; }
        c->sites = ns;
        if (!l) return;
        ns[c->nsites].call = e;
        ns[c->nsites].slot = l->slot;
        ns[c->nsites++].level = at;
      }
    }
    Node *kids[4] = { e->a, e->b, e->c, e->d };
    for (int k = 0; k < 4; k++) collect_sites(c, kids[k], params, level);
  }
}

/* At the top of each pass of argument `level`'s loop (-1: before the
** loops): its memo sites are not computed yet. */
static void clear_sites(Compiler *c, int level, Span at) {
  for (int i = 0; i < c->nsites; i++)
    if (c->sites[i].level == level) {
      cg_emit(c, OP_CONST, 0, 0, at);
      cg_emit(c, OP_STOREL, c->sites[i].slot + 1, 0, at);
    }
}

/* One rule's part of the generator: nested loops, hoisted tests, EMIT. */
static void compile_rule_generator(Compiler *c, int ri, Node *m) {
  MoveRule *rule = &c->p->rules[ri];
  int legal = cg_chunk_begin(c, CHUNK_LEGALITY, rule->name);
  c->kind = CHUNK_GENERATE;
  Scope sc = cg_scope_open(c);
  int nargs = rule->nargs;
  Local *args[GAME_MAX_ARGS];
  int i = 0;
  for (Node *pd = m->a; pd && i < nargs; pd = pd->next, i++) {
    args[i] = cg_add_local(c, pd->name, rule->arg[i], 1, pd->span);
    if (!args[i]) return;
    args[i]->readonly = 1;
  }
  /* The memos' locals follow the arguments' room: no other local takes them. */
  if (c->memo_end > GAME_MAX_ARGS && c->slots < c->memo_end) c->slots = c->memo_end;
  if (c->frame < c->slots) c->frame = c->slots;
  Node *conj[MAX_CONJUNCTS];
  int nconj = 0;
  split_conjuncts(m->b, conj, &nconj, MAX_CONJUNCTS);
  if (m->b && nconj == MAX_CONJUNCTS) { nconj = 1; conj[0] = m->b; }
  int top[GAME_MAX_ARGS];
  int32_t limit[GAME_MAX_ARGS];
  int counter[GAME_MAX_ARGS];   /* the local FORK steps: the arg or a set index */
  /* The ways out of a FINDS loop or a bounded loop (patched after its
  ** FORK or FORL), and a bounded loop's limit local (or -1). */
  int *exits[GAME_MAX_ARGS] = { 0 }, nexits[GAME_MAX_ARGS] = { 0 }, capexits[GAME_MAX_ARGS] = { 0 };
  int limit_local[GAME_MAX_ARGS];
  int pinned[GAME_MAX_ARGS] = { 0 };   /* x == E: x takes E's value alone */
  RayLoop ray[GAME_MAX_ARGS];
  memset(ray, 0, sizeof ray);
  int *skips[GAME_MAX_ARGS + 1] = { 0 };
  int nskips[GAME_MAX_ARGS + 1] = { 0 }, capskips[GAME_MAX_ARGS + 1] = { 0 };
  /* A conjunct is tested where its arguments are known, but never before
  ** the conjuncts written to its left: && keeps its left-to-right meaning. */
  int level_of[MAX_CONJUNCTS], used[MAX_CONJUNCTS] = { 0 };
  for (int k = 0; k < nargs; k++) limit_local[k] = -1;
  for (int k = 0, run = -1; k < nconj; k++) {
    int l = conjunct_level(conj[k], m->a);
    run = l > run ? l : run;
    level_of[k] = run;
  }
  /* Memo sites, in the conjuncts after the first of each level (a first
  ** one may drive its loop: FINDS, a bound, a pin). */
  c->nsites = 0;
  for (int k = 0; k < nconj; k++)
    if (k > 0 && level_of[k - 1] == level_of[k]) collect_sites(c, conj[k], m->a, level_of[k]);
  /* In a game with chance, chance's moves and the players' moves are
  ** generated in different positions. */
  if (c->p->chance) {
    cg_emit(c, OP_LOADS, 0, 0, m->span);
    cg_emit(c, OP_CONST, c->p->chance, 0, m->span);
    cg_emit(c, rule->chance ? OP_EQ : OP_NE, 0, 0, m->span);
    cg_list_push(&skips[0], &nskips[0], &capskips[0], cg_emit(c, OP_JMPF, 0, 0, m->span), c);
    c->stack = 0;
  }
  int unrolled = 0;
  for (int level = -1; level < nargs; level++) {
    if (level >= 0) {
      int32_t lo, hi;
      arg_domain(c, rule->arg[level], m->span, &lo, &hi);
      if (generator_unrolls(rule, conj, nconj, level_of, lo, hi)) {
        unroll_generator(c, ri, m, args[0], conj, nconj, level_of, lo, hi);
        unrolled = 1;
        break;
      }
      /* Domains are never empty: test at the bottom only (FORK). */
      if (rule->set_len[level] > 0) {
        Local *idx = cg_add_local(c, " set index", rule->arg[level], 1, m->span);
        if (!idx) goto fail;
        counter[level] = idx->slot;
        cg_emit(c, OP_CONST, 0, 0, m->span);
        cg_emit(c, OP_STOREL, idx->slot, 0, m->span);
        top[level] = cg_here(c);
        cg_emit(c, OP_LOADL, idx->slot, 0, m->span);
        cg_emit(c, OP_LOADK, rule->set_off[level], rule->set_len[level], m->span);
        cg_emit(c, OP_STOREL, args[level]->slot, 0, m->span);
        limit[level] = rule->set_len[level] - 1;
      } else {
        counter[level] = args[level]->slot;
        /* The first test at this level, when it can drive a FINDS loop. */
        int first = 0;
        while (first < nconj && level_of[first] != level) first++;
        StateVar *var = NULL;
        Node *pin = first < nconj ? pin_pattern(conj[first], m->a, level, rule->argname[level]) : NULL;
        Node *value = !pin && rule->arg[level].kind == TY_CELL && first < nconj
                        ? find_pattern(c, conj[first], m->a, level, rule->argname[level], &var)
                        : NULL;
        Node *seen = rule->arg[level].kind == TY_CELL && first < nconj && !value && !pin
                       ? sees_pattern(c, conj[first], m->a, level, rule->argname[level], &var)
                       : NULL;
        if (pin) {
          pinned_arg(c, conj[first], pin, rule->arg[level], args[level]->slot, lo, hi, &exits[level],
                     &nexits[level], &capexits[level]);
          pinned[level] = 1;
          used[first] = 1;
        } else if (value) {
          top[level] = finds_loop(c, conj[first], value, var, args[level]->slot, m->span,
                                  &exits[level], &nexits[level], &capexits[level]);
          if (top[level] < 0) goto fail;
          used[first] = 1;
        } else if (seen) {
          top[level] = ray_head(c, seen, var, args[level]->slot, &ray[level]);
          if (top[level] < 0) goto fail;
          used[first] = 1;
        } else {
          int op;
          Node *bound = (rule->arg[level].kind == TY_INT || rule->arg[level].kind == TY_CELL)
                          && first < nconj
                          ? bound_pattern(conj[first], m->a, level, rule->argname[level], &op)
                          : NULL;
          if (bound) {
            /* lo..hi narrowed by the bounds: a FORL loop up to a local. */
            Local *lim = cg_add_local(c, " limit", rule->arg[level], 1, m->span);
            if (!lim) goto fail;
            bounded_loop(c, conj, nconj, level_of, level, m->a, rule->argname[level],
                         rule->arg[level], args[level]->slot, lim->slot, lo, hi, used, &exits[level],
                         &nexits[level], &capexits[level]);
            limit_local[level] = lim->slot;
          } else {
            cg_emit(c, OP_CONST, lo, 0, m->span);
            cg_emit(c, OP_STOREL, args[level]->slot, 0, m->span);
          }
          top[level] = cg_here(c);
        }
        limit[level] = hi;
      }
    }
    clear_sites(c, level, m->span);
    for (int k = 0; k < nconj; k++) {
      if (level_of[k] != level || used[k]) continue;
      cg_expect(c, conj[k], TY_BOOL, "a move's when condition");
      cg_list_push(&skips[level + 1], &nskips[level + 1], &capskips[level + 1],
                cg_emit(c, OP_JMPF, 0, 0, conj[k]->span), c);
      c->stack = 0;
    }
  }
  if (!unrolled) cg_emit(c, OP_EMIT, ri, nargs, m->span);
  for (int level = nargs - 1; level >= -1; level--) {
    for (int k = 0; k < nskips[level + 1]; k++) cg_patch(c, skips[level + 1][k], cg_here(c));
    free(skips[level + 1]);
    if (level < 0) break;
    if (unrolled) continue;
    cg_here(c);
    if (pinned[level])
      ;   /* one value: no loop */
    else if (ray[level].on)
      ray_close(c, &ray[level], top[level]);
    else if (limit_local[level] >= 0)
      cg_emit_raw(c, OP_FORL, counter[level], limit_local[level], top[level], m->span);
    else
      cg_emit_raw(c, OP_FORK, counter[level], limit[level], top[level], m->span);
    for (int k = 0; k < nexits[level]; k++) cg_patch(c, exits[level][k], cg_here(c));
    free(exits[level]);
  }
  c->nsites = 0;
  for (int level = 0; level < nargs; level++) free(ray[level].next);
  cg_scope_close(c, sc);
  /* The legality chunk only names this code range for runtime errors. */
  Chunk *ch = &c->p->chunks[legal];
  ch->end = cg_here(c);
  ch->nlocals = c->frame;
  ch->maxstack = c->maxstack + 2;
  return;
fail:   /* too many locals, reported */
  c->nsites = 0;
  for (int level = 0; level < nargs; level++) free(ray[level].next);
  for (int level = 0; level <= nargs; level++) free(skips[level]);
  for (int level = 0; level < nargs; level++) free(exits[level]);
}

/* The functions without arguments that e (a `when` condition) calls: each
** gets its memo's two locals (memo_slot), from memo_end on. */
static void collect_memos(Compiler *c, Node *e) {
  for (; e; e = e->next) {
    if (e->kind == NODE_CALL && !e->a) {
      Symbol *s = resolve_lookup(c->r, e->name);
      if (s && s->kind == SYM_FUNC && ast_count(c->r->funcs[s->index]->a) == 0 &&
          c->fret[s->index].kind != TY_VOID && c->memo_slot[s->index] < 0) {
        c->memo_slot[s->index] = c->memo_end;
        c->memo_end += 2;
      }
    }
    Node *kids[4] = { e->a, e->b, e->c, e->d };
    for (int k = 0; k < 4; k++) collect_memos(c, kids[k]);
  }
}

/* A notation (NODE_NAME fmt, or NULL) names only the rule's arguments. */
static void check_notation(Compiler *c, Node *fmt, MoveRule *rule) {
  if (!fmt) return;
  const char *f = fmt->name;
  for (const char *s = f; *s; s++) {
    if (*s != '{') continue;
    if (s[1] == '{') { s++; continue; }   /* "{{" stands for a literal '{' */
    const char *e = strchr(s, '}');
    if (!e) { diag_error(c->d, fmt->span, "unclosed '{' in the notation"); return; }
    int found = 0;
    for (int i = 0; i < rule->nargs; i++)
      if ((size_t)(e - s - 1) == strlen(rule->argname[i]) && !strncmp(s + 1, rule->argname[i], (size_t)(e - s - 1)))
        found = 1;
    if (!found) {
      diag_error(c->d, fmt->span, "the notation names '%.*s', which is not an argument of '%s'",
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
  p->bound_chunk = p->check_chunk = p->valid_chunk = -1;
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
    rule->step_notation = m->d && m->d->a ? m->d->a->name : NULL;
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
    check_notation(&c, m->d, rule);
    if (m->d) check_notation(&c, m->d->a, rule);
  }

  /* Step 2. The generator: every rule's loops in one chunk, after the
  ** memos' flags are cleared (their locals come after the arguments). */
  c.memo_slot = malloc(((size_t)r->nfuncs + 1) * sizeof *c.memo_slot);
  if (!c.memo_slot) { p->oom = 1; free(c.locals); free(c.fparams); free(c.fret); return 0; }
  for (int fi = 0; fi < r->nfuncs; fi++) c.memo_slot[fi] = -1;
  c.memo_end = GAME_MAX_ARGS;
  for (int ri = 0; ri < p->nrules; ri++) collect_memos(&c, r->moves[ri]->b);
  p->gen_chunk = cg_chunk_begin(&c, CHUNK_GENERATE, "generate");
  for (int fi = 0; fi < r->nfuncs; fi++)
    if (c.memo_slot[fi] >= 0) {
      cg_emit(&c, OP_CONST, 0, 0, r->funcs[fi]->span);
      cg_emit(&c, OP_STOREL, c.memo_slot[fi] + 1, 0, r->funcs[fi]->span);
    }
  int gen_frame = 0, gen_stack = 0;
  for (int ri = 0; ri < p->nrules; ri++) {
    compile_rule_generator(&c, ri, r->moves[ri]);
    Chunk *lc = &p->chunks[p->nchunks - 1];
    if (lc->nlocals > gen_frame) gen_frame = lc->nlocals;
    if (lc->maxstack > gen_stack) gen_stack = lc->maxstack;
  }
  cg_emit(&c, OP_HALT, 0, 0, (Span){ 0, 0 });
  p->chunks[p->gen_chunk].end = p->ncode;
  p->chunks[p->gen_chunk].nlocals = gen_frame;
  p->chunks[p->gen_chunk].maxstack = gen_stack + 2;

  /* Step 3. Effects. */
  for (int ri = 0; ri < p->nrules; ri++) {
    Node *m = r->moves[ri];
    int idx = cg_chunk_begin(&c, CHUNK_EFFECT, m->name);
    add_params(&c, m->a, p->rules[ri].arg, GAME_MAX_ARGS, 1);
    p->chunks[idx].nparams = p->rules[ri].nargs;
    cg_block(&c, m->c);
    cg_chunk_end(&c, idx, OP_HALT, closing(m->c));
    p->rules[ri].effect = idx;
  }
  /* Step 3b. Weights of chance moves: int-valued chunks of the arguments. */
  for (int ri = 0; ri < p->nrules; ri++) {
    Node *m = r->moves[ri];
    if (!m->e) continue;
    int idx = cg_chunk_begin(&c, CHUNK_WEIGHT, m->name);
    add_params(&c, m->a, p->rules[ri].arg, GAME_MAX_ARGS, 1);
    p->chunks[idx].nparams = p->rules[ri].nargs;
    p->chunks[idx].returns = 1;
    cg_expect(&c, m->e, TY_INT, "a chance move's weight");
    cg_emit(&c, OP_RET, 0, 0, m->e->span);
    cg_chunk_end(&c, idx, OP_NORET, m->e->span);
    p->rules[ri].weight = idx;
  }

  /* Step 4. Functions: chunk i+first is function i (CALL uses the index). */
  int first_func = p->nchunks;
  for (int fi = 0; fi < r->nfuncs; fi++) {
    Node *f = r->funcs[fi];
    int idx = cg_chunk_begin(&c, CHUNK_FUNCTION, f->name);
    c.ret = c.fret[fi];
    add_params(&c, f->a, c.fparams + (size_t)fi * FUNC_MAX_PARAMS, FUNC_MAX_PARAMS, 0);
    p->chunks[idx].nparams = ast_count(f->a);
    p->chunks[idx].returns = c.ret.kind != TY_VOID;
    cg_block(&c, f->c);
    cg_chunk_end(&c, idx, c.ret.kind != TY_VOID ? OP_NORET : OP_RET0, closing(f->c));
  }
  /* `pieces ... check F`: F(p: player): bool. */
  if (r->pieces_check) {
    Node *name = r->pieces_check;
    Symbol *s = resolve_lookup(r, name->name);
    if (!s || s->kind != SYM_FUNC)
      diag_error(d, name->span, "'%s' is not a function (check needs a function(p: player): bool)",
                 name->name);
    else if (ast_count(r->funcs[s->index]->a) != 1 ||
             c.fparams[(size_t)s->index * FUNC_MAX_PARAMS].kind != TY_PLAYER ||
             c.fret[s->index].kind != TY_BOOL)
      diag_error(d, name->span, "check needs a function(p: player): bool; '%s' is not one", name->name);
    else
      p->check_chunk = first_func + s->index;
  }
  /* Step 5. end, nomoves, eval. */
  if (r->end_decl) {
    p->end_chunk = cg_chunk_begin(&c, CHUNK_END, "end");
    cg_block(&c, r->end_decl->c);
    cg_chunk_end(&c, p->end_chunk, OP_HALT, closing(r->end_decl->c));
  }
  if (r->nomoves_decl) {
    p->nomoves_chunk = cg_chunk_begin(&c, CHUNK_NOMOVES, "nomoves");
    cg_block(&c, r->nomoves_decl->c);
    cg_chunk_end(&c, p->nomoves_chunk, OP_HALT, closing(r->nomoves_decl->c));
  }
  if (r->start_decl) {
    p->start_chunk = cg_chunk_begin(&c, CHUNK_START, "start");
    cg_block(&c, r->start_decl->c);
    cg_chunk_end(&c, p->start_chunk, OP_HALT, closing(r->start_decl->c));
  }
  if (r->valid_decl) {
    p->valid_chunk = cg_chunk_begin(&c, CHUNK_VALID, "valid");
    cg_block(&c, r->valid_decl->c);
    cg_chunk_end(&c, p->valid_chunk, OP_HALT, closing(r->valid_decl->c));
  }
  if (r->eval_decl) {
    p->eval_chunk = cg_chunk_begin(&c, CHUNK_EVAL, "eval");
    c.ret = mkt(TY_INT);
    cg_block(&c, r->eval_decl->c);
    cg_chunk_end(&c, p->eval_chunk, OP_NORET, closing(r->eval_decl->c));
  }
  if (r->bound_decl) {
    Type pt = mkt(TY_PLAYER);
    p->bound_chunk = cg_chunk_begin(&c, CHUNK_BOUND, "bound");
    c.ret = mkt(TY_INT);
    add_params(&c, r->bound_decl->a, &pt, 1, 0);
    p->chunks[p->bound_chunk].nparams = 1;
    p->chunks[p->bound_chunk].returns = 1;
    cg_block(&c, r->bound_decl->c);
    cg_chunk_end(&c, p->bound_chunk, OP_NORET, closing(r->bound_decl->c));
  }
  /* Step 6. The views: what each player sees of the state. */
  cg_views(&c);
  /* CALL operands are function indices; make them chunk indices, once
  ** every body that may call is compiled. */
  for (int pc = 0; pc < p->ncode && !c.oom; pc += 1 + op_operands[p->code[pc]])
    if (p->code[pc] == OP_CALL) p->code[pc + 1] += first_func;
  /* Step 6b. Which rules make moves of several steps (steps.c). */
  if (!c.oom && d->errors == 0 && !compile_steps(p, d)) c.oom = p->oom = 1;
  /* Step 7. What effects may leave for the end test (defer.c). */
  if (!c.oom && d->errors == 0 && !compile_defer(p)) c.oom = p->oom = 1;
  free(c.locals);
  free(c.fparams);
  free(c.fret);
  free(c.memo_slot);
  free(c.sites);
  if (c.oom) return 0;
  return d->errors == 0;
}
