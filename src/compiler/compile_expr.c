/*
** compile_expr.c -- type-checks and emits expressions: names, indexing,
** calls of functions and built-ins (builtins.c), operators.
*/
#include "compiler/compile_int.h"
#include "compiler/builtins.h"

#include <string.h>

/* ------------------------------------------------------------------ */
/* Expressions                                                        */
/* ------------------------------------------------------------------ */

Type cg_expect(Compiler *c, Node *e, TypeKind want, const char *what) {
  Type t = cg_expr(c, e);
  Type w = mkt(want);
  if (!type_compatible(t, w)) {
    char b1[64], b2[64];
    diag_error(c->d, e->span, "%s must be %s, not %s", what,
               type_name(c->p, w, b1, sizeof b1), type_name(c->p, t, b2, sizeof b2));
    return T_ERR;
  }
  return t;
}

/* Whether e depends on nothing that changes: no state, no mover, no
** local (argument, cell index), no call of a function.  Built-ins that
** fold count as constant when their arguments are. */
int cg_is_constant(Compiler *c, Node *e) {
  if (!e) return 1;
  switch (e->kind) {
    case NODE_NAME: {
      if (cg_find_local(c, e->name)) return 0;
      Symbol *s = resolve_lookup(c->r, e->name);
      return !s || (s->kind != SYM_STATE && s->kind != SYM_MOVER && s->kind != SYM_ROLLER);
    }
    case NODE_CALL: {
      const Builtin *b = builtin_find(e->name, ast_count(e->a));
      Symbol *s = resolve_lookup(c->r, e->name);
      if ((s && s->kind == SYM_FUNC) || !b || (b->fold == FOLD_NONE && !b->player_index)) return 0;
      for (Node *a = e->a; a; a = a->next)
        if (!cg_is_constant(c, a)) return 0;
      return 1;
    }
    default: {
      Node *kids[4] = { e->a, e->b, e->c, e->d };
      for (int k = 0; k < 4; k++)
        for (Node *n = kids[k]; n; n = n->next)
          if (!cg_is_constant(c, n)) return 0;
      return 1;
    }
  }
}

/* The value of e when it is a constant that folds (a literal, a
** parameter, a constant, arithmetic of them); 0 otherwise, silently. */
int cg_constant_value(Compiler *c, Node *e, int32_t *v) {
  if (!e || !cg_is_constant(c, e)) return 0;
  int errors = c->d->errors, ok = 1, mute = 1;
  Type t;
  const int *was = c->d->mute;
  c->d->mute = &mute;                       /* player(i) does not fold, say */
  *v = resolve_const(c->r, e, &t, &ok);
  c->d->mute = was;
  if (c->d->errors != errors) { c->d->errors = errors; return 0; }
  return ok;
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
  Local *l = cg_find_local(c, name->name);
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

Type cg_name_expr(Compiler *c, Node *e) {
  Local *l = cg_find_local(c, e->name);
  if (l) {
    if (l->ndims) {
      diag_error(c->d, e->span, "array '%s' needs an index", e->name);
      return T_ERR;
    }
    if (l->known) cg_emit(c, OP_CONST, l->value, 0, e->span);
    else cg_emit(c, OP_LOADL, l->slot, 0, e->span);
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
      cg_emit(c, OP_CONST, s->value, 0, e->span);
      return s->type;
    case SYM_MOVER:
      cg_emit(c, OP_LOADS, 0, 0, e->span);
      return s->type;
    case SYM_ROLLER: {
      /* The mover, except where chance moves: then the player it hands
      ** the turn back to (its hidden slot). */
      cg_emit(c, OP_LOADS, 0, 0, e->span);
      if (!c->p->chance) return s->type;
      cg_emit(c, OP_DUP, 0, 0, e->span);
      int j = cg_emit(c, OP_JNEK, 0, c->p->chance, e->span);
      cg_emit(c, OP_POP, 0, 0, e->span);
      cg_emit(c, OP_LOADS, c->p->chance_slot, 0, e->span);
      cg_patch(c, j, cg_here(c));
      return s->type;
    }
    case SYM_STATE: {
      StateVar *v = &c->p->vars[s->index];
      if (v->ndims) {
        diag_error(c->d, e->span, "array '%s' needs an index", e->name);
        return T_ERR;
      }
      cg_emit(c, OP_LOADS, v->base, 0, e->span);
      return v->elem;
    }
    default:
      diag_error(c->d, e->span, "'%s' is not a value", e->name);
      return T_ERR;
  }
}

/* Loads or stores a[i], a[i][j] or a[x, y].  For a store, `value` is the
** right-hand side and `op` '=' or the compound operator. */
Type cg_index_expr(Compiler *c, Node *e, int store, Node *value, int op) {
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
    if (valued && s->type.kind == TY_ERROR && !cg_find_local(c, base->name)) return T_ERR;  /* reported */
    if (!s && !cg_find_local(c, base->name)) diag_error(c->d, base->span, "unknown name '%s'", base->name);
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
    cg_expect(c, idx[0], TY_INT, "a column index");
    cg_expect(c, idx[1], TY_INT, "a row index");
    cg_emit(c, OP_AT, 0, 0, e->span);
  } else if (n != t.ndims) {
    diag_error(c->d, e->span, "'%s' has %d dimension%s but is indexed with %d", t.name,
               t.ndims, t.ndims > 1 ? "s" : "", n);
    return T_ERR;
  } else {
    for (int i = 0; i < n; i++) {
      Type it = cg_expr(c, idx[i]);
      if (it.kind == TY_PLAYER) {
        /* score[mover]: the first declared player is index 0. */
        cg_emit(c, OP_CONST, 1, 0, idx[i]->span);
        cg_emit(c, OP_SUB, 0, 0, idx[i]->span);
      } else if (!is_int(it)) {
        char b[64];
        diag_error(c->d, idx[i]->span, "an index must be an integer, not %s",
                   type_name(c->p, it, b, sizeof b));
      }
      if (n == 2) {
        cg_emit(c, OP_CHECK, t.dim[i], 0, idx[i]->span);
        if (i == 0) { cg_emit(c, OP_CONST, t.dim[1], 0, e->span); cg_emit(c, OP_MUL, 0, 0, e->span); }
        else cg_emit(c, OP_ADD, 0, 0, e->span);
      }
    }
  }
  OpCode load = t.kind == TG_LOCAL ? OP_LOADLI : t.kind == TG_STATE ? OP_LOADSI : OP_LOADK;
  if (!store) {
    cg_emit(c, load, t.base, size, e->span);
    return t.elem;
  }
  if (t.readonly || t.kind == TG_LIST) {
    diag_error(c->d, base->span, "'%s' cannot be assigned", t.name);
    return T_ERR;
  }
  if (op != '=') {
    cg_emit(c, OP_DUP, 0, 0, e->span);
    cg_emit(c, load, t.base, size, e->span);
  }
  Type vt = cg_expr(c, value);
  if (op != '=') {
    if (!is_int(t.elem) || !is_int(vt))
      diag_error(c->d, value->span, "'%c=' needs integers", op);
    cg_emit(c, op == '+' ? OP_ADD : op == '-' ? OP_SUB : OP_MUL, 0, 0, value->span);
  } else if (!type_compatible(vt, t.elem)) {
    char b1[64], b2[64];
    diag_error(c->d, value->span, "cannot assign %s to an element of '%s' (%s)",
               type_name(c->p, vt, b1, sizeof b1), t.name, type_name(c->p, t.elem, b2, sizeof b2));
  }
  cg_emit(c, t.kind == TG_LOCAL ? OP_STORELI : OP_STORESI, t.base, size, e->span);
  return mkt(TY_VOID);
}

/* Checks a call's arity. */
int cg_arity(Compiler *c, Node *e, int want) {
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
    if (!strcmp(b->name, "ray"))
      diag_error(c->d, e->span, "ray() can only be iterated: for x in ray(c, d) { ... }");
    else
      diag_error(c->d, e->span, "neighbours() can only be iterated: for n in neighbours(c) { ... }");
    return T_ERR;
  }
  if (b->rect && p->board != BOARD_RECT) {
    diag_error(c->d, e->span, "%s() needs a rect board", b->name);
    return T_ERR;
  }
  if (b->edges && p->board != BOARD_EDGES) {
    diag_error(c->d, e->span, "%s() needs an edges board", b->name);
    return T_ERR;
  }
  if (!cg_arity(c, e, b->nargs)) return T_ERR;
  if (b->edges) {
    /* edge_between(a, b): edge_at[a * nodes + b]; endpoint(e, i): edge_end[2 * e + i];
    ** each argument checked against its own range as it runs. */
    int first = b->arg[0] == BARG_INT ? p->nnodes : p->ncells;
    int second = b->arg[0] == BARG_INT ? p->nnodes : 2;
    cg_expect(c, e->a, builtin_arg_type(b->arg[0]), b->what[0]);
    cg_emit(c, OP_CHECK, first, 0, e->span);
    cg_emit(c, OP_CONST, second, 0, e->span);
    cg_emit(c, OP_MUL, 0, 0, e->span);
    cg_expect(c, e->a->next, builtin_arg_type(b->arg[1]), b->what[1]);
    cg_emit(c, OP_CHECK, second, 0, e->span);
    cg_emit(c, OP_ADD, 0, 0, e->span);
    if (b->arg[0] == BARG_INT) cg_emit(c, OP_LOADK, p->edge_at_k, p->nnodes * p->nnodes, e->span);
    else cg_emit(c, OP_LOADK, p->edge_end_k, 2 * p->ncells, e->span);
    return mkt(b->result);
  }
  if (b->kind == BUILTIN_FOLD) {
    int ok = 1;
    Type t;
    int32_t v = resolve_const(c->r, e, &t, &ok);
    if (!ok) return T_ERR;
    cg_emit(c, OP_CONST, v, 0, e->span);
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
        Type vt = cg_expr(c, a);
        if (arr.kind != TG_NONE && !type_compatible(vt, arr.elem))
          diag_error(c->d, a->span, "%s() compares values of another type", b->name);
        break;
      }
      default: cg_expect(c, a, builtin_arg_type(b->arg[k]), b->what[k]); break;
    }
  }
  if (b->player_index) {
    /* player(i): a constant i is checked now, any other as it runs. */
    int32_t v;
    if (cg_constant_value(c, e->a, &v) && (v < 0 || v >= p->nplayers))
      diag_error(c->d, e->a->span, "player index %d is out of range 0..%d (the game has %d player%s)",
                 v, p->nplayers - 1, p->nplayers, p->nplayers == 1 ? "" : "s");
    cg_emit(c, OP_CHECK, p->nplayers, 0, e->span);
    cg_emit(c, OP_CONST, 1, 0, e->span);
    cg_emit(c, OP_ADD, 0, 0, e->span);
    Type t = mkt(TY_PLAYER);
    t.lo = 1; t.hi = p->nplayers;
    return t;
  }
  if (b->pad_nowhere) cg_emit(c, OP_CONST, -1, 0, e->span);
  int size = arr.ndims == 2 ? arr.dim[0] * arr.dim[1] : arr.dim[0];
  cg_emit(c, b->op, arr.base, size, e->span);
  Type t = mkt(b->result);
  if (t.kind == TY_PLAYER) { t.lo = 1; t.hi = p->nplayers; }
  return t;
}

/* A function is inlined where it is called when its body is one `return
** E;` and E cannot fail: constants, its parameters, the mover, state
** scalars, comparisons, !, &&, ||, ?: and max/min (no arithmetic, which
** may overflow, no index, no call that may fail).  Then the program's
** results and errors are the same whether it is called or inlined, and a
** call costs more than most such bodies.  INLINE_MAX_NODES bounds the
** code copied. */
enum { INLINE_MAX_NODES = 48 };

/* The nodes of x (0 when x cannot be inlined): names other than f's
** parameters must mean the same in the caller (no local of the caller
** hides them). */
static int inline_size(Compiler *c, const Node *x, const Node *params) {
  if (!x) return 0;
  switch (x->kind) {
    case NODE_INT: case NODE_BOOL: return 1;
    case NODE_NAME: {
      for (const Node *q = params; q; q = q->next)
        if (!strcmp(q->name, x->name)) return 1;
      if (cg_find_local(c, x->name)) return 0;
      Symbol *s = resolve_lookup(c->r, x->name);
      if (!s) return 0;
      switch (s->kind) {
        case SYM_PARAM: return s->type.kind != TY_LIST;
        case SYM_CONST: case SYM_ENUMVAL: case SYM_VALUE: case SYM_MOVER: case SYM_ROLLER: return 1;
        case SYM_STATE: return c->p->vars[s->index].ndims == 0;
        default: return 0;
      }
    }
    case NODE_UNARY: {
      /* !e, and a negative literal (-5: it cannot overflow). */
      int n = x->op == '!' ? inline_size(c, x->a, params) : x->a && x->a->kind == NODE_INT ? 1 : 0;
      return n ? n + 1 : 0;
    }
    case NODE_BINARY: {
      int op = x->op;
      if (op != OPR_EQ && op != OPR_NE && op != '<' && op != '>' && op != OPR_LE && op != OPR_GE &&
          op != OPR_AND && op != OPR_OR)
        return 0;
      int a = inline_size(c, x->a, params), b = a ? inline_size(c, x->b, params) : 0;
      return a && b ? a + b + 1 : 0;
    }
    case NODE_COND: {
      int a = inline_size(c, x->a, params), b = a ? inline_size(c, x->b, params) : 0;
      int d = b ? inline_size(c, x->c, params) : 0;
      return a && b && d ? a + b + d + 1 : 0;
    }
    case NODE_CALL: {
      if (ast_count(x->a) != 2 || (strcmp(x->name, "max") && strcmp(x->name, "min"))) return 0;
      Symbol *s = resolve_lookup(c->r, x->name);
      if (s && s->kind == SYM_FUNC) return 0;
      int a = inline_size(c, x->a, params), b = a ? inline_size(c, x->a->next, params) : 0;
      return a && b ? a + b + 1 : 0;
    }
    default: return 0;
  }
}

int cg_inlines(Compiler *c, int fi) {
  Node *f = c->r->funcs[fi];
  Node *body = f->c ? f->c->a : NULL;
  if (c->fret[fi].kind == TY_VOID || !body || body->next || body->kind != NODE_RETURN || !body->a) return 0;
  int size = inline_size(c, body->a, f->a);
  return size > 0 && size <= INLINE_MAX_NODES;
}

/* Inlines function fi's call e (its arguments into locals named as its
** parameters, known when constant, then its body's expression); 0 when
** the function is not one to inline (nothing emitted). */
static int inline_call(Compiler *c, Node *e, int fi, Type rt) {
  Node *f = c->r->funcs[fi];
  Node *body = f->c ? f->c->a : NULL;
  (void)rt;
  if (!cg_inlines(c, fi)) return 0;
  Scope sc = cg_scope_open(c);
  Local *bound[FUNC_MAX_PARAMS];
  int k = 0;
  Node *pd = f->a;
  for (Node *a = e->a; a; a = a->next, pd = pd->next, k++) {
    Type at = cg_expr(c, a);
    Type pt = c->fparams[fi * FUNC_MAX_PARAMS + k];
    if (!type_compatible(at, pt)) {
      char b1[64], b2[64];
      diag_error(c->d, a->span, "argument '%s' of %s() must be %s, not %s", pd->name,
                 e->name, type_name(c->p, pt, b1, sizeof b1), type_name(c->p, at, b2, sizeof b2));
    }
    Local *src = a->kind == NODE_NAME ? cg_find_local(c, a->name) : NULL;
    int src_known = src && src->known;
    int32_t src_value = src_known ? src->value : 0;
    bound[k] = cg_add_local(c, pd->name, pt, 1, a->span);
    if (!bound[k]) continue;
    cg_emit(c, OP_STOREL, bound[k]->slot, 0, a->span);
    /* A constant argument (or a local known to be one: an unrolled
    ** loop's variable): the copy of the body folds with it. */
    int32_t v;
    if (src_known) {
      bound[k]->known = 1;
      bound[k]->value = src_value;
    } else if (cg_constant_value(c, a, &v)) {
      bound[k]->known = 1;
      bound[k]->value = v;
    }
  }
  /* The body's own errors are the function's, reported where it is
  ** compiled: here they would come twice. */
  const int *was = c->d->mute;
  int errors = c->d->errors, mute = 1;
  c->d->mute = &mute;
  cg_expr(c, body->a);
  c->d->mute = was;
  c->d->errors = errors;
  cg_scope_close(c, sc);
  return 1;
}

static Type call_expr(Compiler *c, Node *e) {
  Program *p = c->p;
  Symbol *s = resolve_lookup(c->r, e->name);
  if (s && s->kind == SYM_FUNC) {
    Node *f = c->r->funcs[s->index];
    int want = ast_count(f->a);
    if (!cg_arity(c, e, want)) return T_ERR;
    if (inline_call(c, e, s->index, c->fret[s->index])) return c->fret[s->index];
    Type rt = c->fret[s->index];
    /* In the generator: a function without arguments once per generation
    ** (memo_slot), a call whose arguments an outer loop fixes once per
    ** pass of that loop (its memo site); the value kept in two locals
    ** (the value, then a flag: computed). */
    int memo = c->kind == CHUNK_GENERATE && c->memo_slot ? c->memo_slot[s->index] : -1;
    const struct MemoSite *site = memo < 0 && c->kind == CHUNK_GENERATE ? cg_memo_site(c, e) : NULL;
    if (site) memo = site->slot;
    int have = -1;
    if (memo >= 0) {
      cg_emit(c, OP_LOADL, memo + 1, 0, e->span);
      have = cg_emit(c, OP_JMPT, 0, 0, e->span);
    }
    Node *pd = f->a;
    int k = 0;
    for (Node *a = e->a; a; a = a->next, pd = pd->next, k++) {
      Type at = cg_expr(c, a);
      Type pt = k < FUNC_MAX_PARAMS ? c->fparams[s->index * FUNC_MAX_PARAMS + k] : T_ERR;
      if (!type_compatible(at, pt)) {
        char b1[64], b2[64];
        diag_error(c->d, a->span, "argument '%s' of %s() must be %s, not %s", pd->name,
                   e->name, type_name(p, pt, b1, sizeof b1), type_name(p, at, b2, sizeof b2));
      }
    }
    cg_emit(c, OP_CALL, s->index, want, e->span);
    if (memo < 0) return rt;
    cg_emit(c, OP_STOREL, memo, 0, e->span);
    cg_emit(c, OP_CONST, 1, 0, e->span);
    cg_emit(c, OP_STOREL, memo + 1, 0, e->span);
    cg_patch(c, have, cg_here(c));
    cg_emit(c, OP_LOADL, memo, 0, e->span);
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
    cg_expect(c, e->a, TY_BOOL, op == OPR_AND ? "an operand of &&" : "an operand of ||");
    int j1 = cg_emit(c, op == OPR_AND ? OP_JMPF : OP_JMPT, 0, 0, e->span);
    cg_expect(c, e->b, TY_BOOL, op == OPR_AND ? "an operand of &&" : "an operand of ||");
    int j2 = cg_emit(c, OP_JMP, 0, 0, e->span);
    cg_patch(c, j1, cg_here(c));
    cg_emit(c, OP_CONST, op == OPR_OR, 0, e->span);
    c->stack--;       /* the two paths join with one value */
    cg_patch(c, j2, cg_here(c));
    return mkt(TY_BOOL);
  }
  Type a = cg_expr(c, e->a);
  Type b = cg_expr(c, e->b);
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
  cg_emit(c, code, 0, 0, e->span);
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

Type cg_expr(Compiler *c, Node *e) {
  if (!e) return T_ERR;
  if (++c->depth > AST_MAX_EXPR_DEPTH) {
    c->depth--;
    if (!c->too_deep) diag_error(c->d, e->span, "expression nested too deeply");
    c->too_deep = 1;
    return T_ERR;
  }
  Type t = T_ERR;
  switch (e->kind) {
    case NODE_INT: cg_emit(c, OP_CONST, (int32_t)e->ival, 0, e->span); t = mkt(TY_INT); break;
    case NODE_BOOL: cg_emit(c, OP_CONST, (int32_t)e->ival, 0, e->span); t = mkt(TY_BOOL); break;
    case NODE_NAME: t = cg_name_expr(c, e); break;
    case NODE_INDEX: t = cg_index_expr(c, e, 0, NULL, 0); break;
    case NODE_CALL: t = call_expr(c, e); break;
    case NODE_UNARY:
      if (e->op == '-') { cg_expect(c, e->a, TY_INT, "the operand of '-'"); cg_emit(c, OP_NEG, 0, 0, e->span); t = mkt(TY_INT); }
      else { cg_expect(c, e->a, TY_BOOL, "the operand of '!'"); cg_emit(c, OP_NOT, 0, 0, e->span); t = mkt(TY_BOOL); }
      break;
    case NODE_BINARY: t = binary_expr(c, e); break;
    case NODE_COND: {
      cg_expect(c, e->a, TY_BOOL, "a condition");
      int j1 = cg_emit(c, OP_JMPF, 0, 0, e->span);
      Type a = cg_expr(c, e->b);
      int j2 = cg_emit(c, OP_JMP, 0, 0, e->span);
      cg_patch(c, j1, cg_here(c));
      Type b = cg_expr(c, e->c);
      c->stack--;
      cg_patch(c, j2, cg_here(c));
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
