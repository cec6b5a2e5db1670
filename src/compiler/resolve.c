/*
** resolve.c -- the declarations of a .game file: players, parameters (with
** the -D overrides), constants, types, the board, the state layout and the
** symmetry group.  Names must be declared before they are used, except
** functions and moves, which may be called or named from anywhere.
*/
#include "compiler/resolve.h"
#include "compiler/builtins.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

static Type mktype(TypeKind k, int32_t lo, int32_t hi) {
  Type t = { k, 0, lo, hi };
  return t;
}

/* ------------------------------------------------------------------ */
/* Symbols                                                            */
/* ------------------------------------------------------------------ */

Symbol *resolve_lookup(Resolver *r, const char *name) {
  for (int i = r->nsyms - 1; i >= 0; i--)
    if (strcmp(r->syms[i].name, name) == 0) return &r->syms[i];
  return NULL;
}

static const char *sym_kind_word(SymKind k) {
  switch (k) {
    case SYM_PARAM: return "parameter";
    case SYM_CONST: return "constant";
    case SYM_ENUMVAL: return "member of an enumeration";
    case SYM_TYPE: return "type";
    case SYM_STATE: return "state variable";
    case SYM_FUNC: return "function";
    case SYM_MOVE: return "move";
    default: return "built-in name";
  }
}

/* Declares a global name; a second declaration is an error. */
static Symbol *declare(Resolver *r, const char *name, SymKind k, Span where) {
  Symbol *old = resolve_lookup(r, name);
  if (old) {
    if (old->where.end == 0 && old->where.start == 0)
      diag_error(r->d, where, "'%s' is a built-in name and cannot be redefined", name);
    else {
      diag_error(r->d, where, "duplicate definition of '%s'", name);
      diag_report(r->d, "note", old->where, "'%s' was first defined here as a %s",
                  name, sym_kind_word(old->kind));
    }
    return NULL;
  }
  if (r->nsyms >= PROG_MAX_SYMBOLS) {
    diag_error(r->d, where, "too many names (limit is %d)", PROG_MAX_SYMBOLS);
    return NULL;
  }
  if (r->nsyms == r->cap) {
    int cap = r->cap ? r->cap * 2 : 64;
    Symbol *s = realloc(r->syms, (size_t)cap * sizeof *s);
    if (!s) { r->p->oom = 1; return NULL; }
    r->syms = s;
    r->cap = cap;
  }
  Symbol *s = &r->syms[r->nsyms++];
  memset(s, 0, sizeof *s);
  s->name = name;
  s->kind = k;
  s->where = where;
  return s;
}

/* After an error in a declaration, the name stays known with the error
** type, so its uses do not cascade into "unknown name" errors. */
static void poison(Resolver *r, Node *decl) {
  if (resolve_lookup(r, decl->name)) return;
  Symbol *s = declare(r, decl->name, SYM_VALUE, decl->span);
  if (s) s->type = mktype(TY_ERROR, 0, 0);
}

static void declare_value(Resolver *r, const char *name, Type t, int32_t v) {
  Span none = { 0, 0 };
  Symbol *s = declare(r, name, SYM_VALUE, none);
  if (s) { s->type = t; s->value = v; }
}

/* ------------------------------------------------------------------ */
/* Types                                                              */
/* ------------------------------------------------------------------ */

int type_compatible(Type a, Type b) {
  if (a.kind == TY_ERROR || b.kind == TY_ERROR) return 1;
  int ai = a.kind == TY_INT || a.kind == TY_CELL;
  int bi = b.kind == TY_INT || b.kind == TY_CELL;
  if (ai && bi) return 1;
  if (a.kind != b.kind) return 0;
  return a.kind != TY_ENUM || a.enum_id == b.enum_id;
}

const char *type_name(const Program *p, Type t, char *buf, size_t n) {
  switch (t.kind) {
    case TY_INT: snprintf(buf, n, "int"); break;
    case TY_BOOL: snprintf(buf, n, "bool"); break;
    case TY_PLAYER: snprintf(buf, n, "player"); break;
    case TY_CELL: snprintf(buf, n, "cell"); break;
    case TY_DIR: snprintf(buf, n, "dir"); break;
    case TY_LIST: snprintf(buf, n, "list"); break;
    case TY_VOID: snprintf(buf, n, "nothing"); break;
    case TY_ENUM:
      if (p->enums[t.enum_id].name[0]) snprintf(buf, n, "%s", p->enums[t.enum_id].name);
      else snprintf(buf, n, "{%s, ...}", p->enums[t.enum_id].members[0]);
      break;
    default: snprintf(buf, n, "?"); break;
  }
  return buf;
}

/* Declares an enumeration's members as global constants. */
static Type declare_enum(Resolver *r, const char *name, Node *members) {
  Program *p = r->p;
  int n = ast_count(members);
  EnumInfo *e = realloc(p->enums, (size_t)(p->nenums + 1) * sizeof *e);
  if (!e) { p->oom = 1; return mktype(TY_ERROR, 0, 0); }
  p->enums = e;
  EnumInfo *info = &p->enums[p->nenums];
  info->name = name;
  info->count = n;
  info->members = prog_alloc(p, (size_t)n * sizeof(char *));
  Type t = { TY_ENUM, p->nenums, 0, n - 1 };
  p->nenums++;
  int i = 0;
  for (Node *m = members; m; m = m->next, i++) {
    if (info->members) info->members[i] = m->name;
    /* A member may be named like a built-in value (Go's `ko` has `none`):
    ** it exists for -D and printing, but the name keeps its built-in
    ** meaning in expressions. */
    Symbol *old = resolve_lookup(r, m->name);
    if (old && old->where.start == 0 && old->where.end == 0 && old->kind == SYM_VALUE) continue;
    Symbol *s = declare(r, m->name, SYM_ENUMVAL, m->span);
    if (s) { s->type = t; s->value = i; }
  }
  return t;
}

Type resolve_type(Resolver *r, Node *t, int storable) {
  Program *p = r->p;
  switch (t->kind) {
    case NODE_TINT:
      if (storable) {
        diag_error(r->d, t->span, "a stored value needs bounds: write a range such as 0..9");
        return mktype(TY_ERROR, 0, 0);
      }
      return mktype(TY_INT, INT32_MIN, INT32_MAX);
    case NODE_TBOOL: return mktype(TY_BOOL, 0, 1);
    case NODE_TPLAYER: return mktype(TY_PLAYER, 0, p->nplayers);
    case NODE_TDIR: return mktype(TY_DIR, 0, DIR_COUNT - 1);
    case NODE_TCELL:
      if (p->board == BOARD_NONE) {
        diag_error(r->d, t->span, "type 'cell' needs a board declaration before it");
        return mktype(TY_ERROR, 0, 0);
      }
      return mktype(TY_CELL, -1, p->ncells - 1);
    case NODE_TENUM: return declare_enum(r, "", t->a);
    case NODE_TRANGE: {
      int ok1 = 1, ok2 = 1;
      Type t1, t2;
      int32_t lo = resolve_const(r, t->a, &t1, &ok1);
      int32_t hi = resolve_const(r, t->b, &t2, &ok2);
      if (!ok1 || !ok2 || t1.kind == TY_ERROR || t2.kind == TY_ERROR) return mktype(TY_ERROR, 0, 0);
      if (t1.kind != TY_INT || t2.kind != TY_INT) {
        diag_error(r->d, t->span, "range bounds must be integers");
        return mktype(TY_ERROR, 0, 0);
      }
      if (lo > hi) {
        diag_error(r->d, t->span, "empty range %d..%d", lo, hi);
        return mktype(TY_ERROR, 0, 0);
      }
      return mktype(TY_INT, lo, hi);
    }
    case NODE_TSET:
      diag_error(r->d, t->span, "'in LIST' is only allowed for a move's arguments");
      return mktype(TY_ERROR, 0, 0);
    case NODE_NAME: case NODE_TNAME: {
      Symbol *s = resolve_lookup(r, t->name);
      if (!s || s->kind != SYM_TYPE) {
        diag_error(r->d, t->span, "'%s' is not a type", t->name);
        return mktype(TY_ERROR, 0, 0);
      }
      return s->type;
    }
    default:
      diag_error(r->d, t->span, "expected a type");
      return mktype(TY_ERROR, 0, 0);
  }
}

/* ------------------------------------------------------------------ */
/* Constant expressions                                               */
/* ------------------------------------------------------------------ */

static int32_t fail(Resolver *r, Node *e, int *ok, const char *msg) {
  if (*ok) diag_error(r->d, e->span, "%s", msg);
  *ok = 0;
  return 0;
}

/* Checked 64-bit result back to 32 bits. */
static int32_t fit32(Resolver *r, Node *e, int64_t v, int *ok) {
  if (v < INT32_MIN || v > INT32_MAX) return fail(r, e, ok, "integer overflow in a constant");
  return (int32_t)v;
}

/* A call of a built-in that folds (builtins.c): len, sum, max and min of
** a list parameter; max, min and abs of constants. */
static int32_t fold_builtin(Resolver *r, Node *e, Type *t, int *ok) {
  Program *p = r->p;
  int n = ast_count(e->a);
  *t = mktype(TY_INT, 0, 0);
  const Builtin *b = builtin_find(e->name, n);
  if (!b || b->fold == FOLD_NONE) return fail(r, e, ok, "not a constant expression");
  if (b->nargs != n) {
    char msg[160];
    arity_message(msg, sizeof msg, e->name, b->nargs, n);
    return fail(r, e, ok, msg);
  }
  Type ta, tb;
  int32_t a = resolve_const(r, e->a, &ta, ok);
  if (!*ok) return 0;
  if (b->arg[0] == BARG_LIST) {
    if (ta.kind != TY_LIST) return fail(r, e->a, ok, "expected a list parameter");
    if (b->fold == FOLD_LEN) return ta.hi;
    if (ta.hi == 0 && b->fold != FOLD_SUM) return fail(r, e, ok, "max() and min() of an empty list");
    int64_t acc = b->fold == FOLD_SUM ? 0 : p->konst[ta.lo];
    for (int i = 0; i < ta.hi; i++) {
      int32_t x = p->konst[ta.lo + i];
      if (b->fold == FOLD_SUM) acc += x;
      else if (b->fold == FOLD_MAX) acc = x > acc ? x : acc;
      else acc = x < acc ? x : acc;
    }
    return fit32(r, e, acc, ok);
  }
  if (b->fold == FOLD_ABS) return fit32(r, e, a < 0 ? -(int64_t)a : a, ok);
  int32_t c = resolve_const(r, e->a->next, &tb, ok);
  return b->fold == FOLD_MAX ? (a > c ? a : c) : (a < c ? a : c);
}

int32_t resolve_const(Resolver *r, Node *e, Type *t, int *ok) {
  *t = mktype(TY_INT, 0, 0);
  if (!e) return fail(r, e, ok, "missing expression");
  if (++r->depth > AST_MAX_DEPTH) {
    r->depth--;
    return fail(r, e, ok, "constant expression nested too deeply");
  }
  int32_t v = 0;
  switch (e->kind) {
    case NODE_INT: v = (int32_t)e->ival; break;
    case NODE_BOOL: *t = mktype(TY_BOOL, 0, 1); v = (int32_t)e->ival; break;
    case NODE_NAME: {
      Symbol *s = resolve_lookup(r, e->name);
      if (!s) {
        char msg[160];
        snprintf(msg, sizeof msg, "unknown name '%s'", e->name);
        v = fail(r, e, ok, msg);
        break;
      }
      switch (s->kind) {
        case SYM_PARAM: case SYM_CONST: case SYM_ENUMVAL: case SYM_VALUE:
          *t = s->type; v = s->value; break;
        default: {
          char msg[160];
          snprintf(msg, sizeof msg, "'%s' is a %s, not a constant", e->name,
                   sym_kind_word(s->kind));
          v = fail(r, e, ok, msg);
        }
      }
      break;
    }
    case NODE_UNARY: {
      Type ta;
      int32_t a = resolve_const(r, e->a, &ta, ok);
      if (e->op == '-') v = fit32(r, e, -(int64_t)a, ok);
      else { *t = mktype(TY_BOOL, 0, 1); v = !a; }
      break;
    }
    case NODE_BINARY: {
      Type ta, tb;
      int64_t a = resolve_const(r, e->a, &ta, ok);
      int64_t b = resolve_const(r, e->b, &tb, ok);
      if (!*ok) break;
      int arith = e->op == '+' || e->op == '-' || e->op == '*' || e->op == '/' || e->op == '%' ||
                  e->op == '<' || e->op == '>' || e->op == OPR_LE || e->op == OPR_GE;
      if (arith && (ta.kind != TY_INT || tb.kind != TY_INT)) { v = fail(r, e, ok, "arithmetic and ordering need integers"); break; }
      if ((e->op == OPR_AND || e->op == OPR_OR) && (ta.kind != TY_BOOL || tb.kind != TY_BOOL)) {
        v = fail(r, e, ok, "&& and || need booleans");
        break;
      }
      int cmp = 1;
      switch (e->op) {
        case '+': v = fit32(r, e, a + b, ok); cmp = 0; break;
        case '-': v = fit32(r, e, a - b, ok); cmp = 0; break;
        case '*': v = fit32(r, e, a * b, ok); cmp = 0; break;
        case '/': case '%':
          cmp = 0;
          if (b == 0) { v = fail(r, e, ok, "division by zero in a constant"); break; }
          /* Floor division, as the VM does it. */
          {
            int64_t q = a / b, m = a % b;
            if (m != 0 && ((m < 0) != (b < 0))) { q--; m += b; }
            v = fit32(r, e, e->op == '/' ? q : m, ok);
          }
          break;
        case '<': v = a < b; break;
        case '>': v = a > b; break;
        case OPR_LE: v = a <= b; break;
        case OPR_GE: v = a >= b; break;
        case OPR_EQ: v = a == b; break;
        case OPR_NE: v = a != b; break;
        case OPR_AND: v = a && b; break;
        case OPR_OR: v = a || b; break;
      }
      if (cmp) *t = mktype(TY_BOOL, 0, 1);
      break;
    }
    case NODE_COND: {
      Type tc, ta, tb;
      int32_t c = resolve_const(r, e->a, &tc, ok);
      int32_t a = resolve_const(r, e->b, &ta, ok);
      int32_t b = resolve_const(r, e->c, &tb, ok);
      *t = c ? ta : tb;
      v = c ? a : b;
      break;
    }
    case NODE_CALL: v = fold_builtin(r, e, t, ok); break;
    case NODE_LIST: v = fail(r, e, ok, "a list is not allowed here"); break;
    default: v = fail(r, e, ok, "not a constant expression"); break;
  }
  r->depth--;
  return v;
}

/* Appends values to the constant pool; returns the offset or -1. */
static int konst_add(Program *p, const int32_t *v, int n) {
  int32_t *k = realloc(p->konst, (size_t)(p->nkonst + n + 1) * sizeof *k);
  if (!k) { p->oom = 1; return -1; }
  p->konst = k;
  memcpy(k + p->nkonst, v, (size_t)n * sizeof *v);
  p->nkonst += n;
  return p->nkonst - n;
}

/* A list literal of constants into the pool. */
static Type const_list(Resolver *r, Node *list, int *ok) {
  int n = ast_count(list->a);
  if (n > PROG_MAX_LIST) {
    fail(r, list, ok, "list too long");
    return mktype(TY_ERROR, 0, 0);
  }
  int32_t *v = malloc((size_t)(n + 1) * sizeof *v);
  if (!v) { r->p->oom = 1; *ok = 0; return mktype(TY_ERROR, 0, 0); }
  int i = 0;
  for (Node *e = list->a; e; e = e->next) {
    Type t;
    v[i++] = resolve_const(r, e, &t, ok);
  }
  int off = konst_add(r->p, v, n);
  free(v);
  if (off < 0) { *ok = 0; return mktype(TY_ERROR, 0, 0); }
  return mktype(TY_LIST, off, n);
}

/* ------------------------------------------------------------------ */
/* Parameters and their -D overrides                                  */
/* ------------------------------------------------------------------ */

static int parse_int(const char *s, int32_t *out) {
  char *end;
  errno = 0;
  long long v = strtoll(s, &end, 10);
  while (*end == ' ') end++;
  if (errno || end == s || *end || v < INT32_MIN || v > INT32_MAX) return 0;
  *out = (int32_t)v;
  return 1;
}

/* Whether the first len bytes of text are an optional '-' and digits:
** an integer, maybe too big for 32 bits. */
static int all_digits(const char *text, size_t len) {
  size_t sign = len > 0 && text[0] == '-';
  if (len == sign) return 0;
  for (size_t i = sign; i < len; i++)
    if (text[i] < '0' || text[i] > '9') return 0;
  return 1;
}

/* Applies one -D value to a parameter; 0 and a message on a bad value. */
static int apply_override(Resolver *r, ParamInfo *pi, const char *text,
                          char *why, size_t n) {
  Program *p = r->p;
  switch (pi->type.kind) {
    case TY_INT: {
      int32_t v;
      if (!parse_int(text, &v)) {
        /* All digits but too big for 32 bits: say it is out of range. */
        if (all_digits(text, strlen(text)))
          snprintf(why, n, "%.20s%s is out of range %d..%d", text, strlen(text) > 20 ? "..." : "",
                   pi->type.lo, pi->type.hi);
        else
          snprintf(why, n, "expected an integer");
        return 0;
      }
      if (v < pi->type.lo || v > pi->type.hi) {
        snprintf(why, n, "%d is out of range %d..%d", v, pi->type.lo, pi->type.hi);
        return 0;
      }
      pi->value = v;
      return 1;
    }
    case TY_BOOL:
      if (!strcmp(text, "1") || !strcmp(text, "true")) { pi->value = 1; return 1; }
      if (!strcmp(text, "0") || !strcmp(text, "false")) { pi->value = 0; return 1; }
      snprintf(why, n, "expected 0, 1, true or false");
      return 0;
    case TY_ENUM: {
      EnumInfo *e = &p->enums[pi->type.enum_id];
      for (int i = 0; i < e->count; i++)
        if (!strcmp(e->members[i], text)) { pi->value = i; return 1; }
      int len = snprintf(why, n, "expected one of");
      for (int i = 0; i < e->count && len < (int)n; i++)
        len += snprintf(why + len, n - (size_t)len, "%s %s", i ? "," : "", e->members[i]);
      return 0;
    }
    case TY_LIST: {
      int32_t vals[PROG_MAX_LIST];
      int count = 0;
      const char *s = text;
      for (;;) {
        char item[32];
        size_t len = strcspn(s, ",");
        if (count == PROG_MAX_LIST) {
          snprintf(why, n, "too many values (limit is %d)", PROG_MAX_LIST);
          return 0;
        }
        if (len >= sizeof item) {
          snprintf(why, n, "'%.20s...' is %s", s,
                   all_digits(s, len) ? "out of range for a 32-bit integer" : "not an integer");
          return 0;
        }
        if (len == 0) {
          snprintf(why, n, "expected a comma-separated list of integers");
          return 0;
        }
        memcpy(item, s, len);
        item[len] = 0;
        if (!parse_int(item, &vals[count++])) {
          snprintf(why, n, "'%s' is %s", item,
                   all_digits(item, len) ? "out of range for a 32-bit integer" : "not an integer");
          return 0;
        }
        if (!s[len]) break;
        s += len + 1;
      }
      int off = konst_add(p, vals, count);
      if (off < 0) { snprintf(why, n, "out of memory"); return 0; }
      pi->type.lo = off;
      pi->type.hi = count;
      return 1;
    }
    default:
      snprintf(why, n, "cannot be set");
      return 0;
  }
}

static void declare_param_checked(Resolver *r, Node *decl, const ParamDef *defs, int ndefs,
                                  int *usage);

static void declare_param(Resolver *r, Node *decl, const ParamDef *defs, int ndefs,
                          int *usage) {
  declare_param_checked(r, decl, defs, ndefs, usage);
  poison(r, decl);
}

static void declare_param_checked(Resolver *r, Node *decl, const ParamDef *defs, int ndefs,
                                  int *usage) {
  Program *p = r->p;
  int ok = 1;
  Type t, dt;
  int32_t v = 0;
  /* The type first: an enumeration declares the members the default names. */
  Type want = decl->a ? resolve_type(r, decl->a, 0) : mktype(TY_VOID, 0, 0);
  if (want.kind == TY_ERROR) return;
  if (decl->b && decl->b->kind == NODE_LIST) dt = const_list(r, decl->b, &ok);
  else v = resolve_const(r, decl->b, &dt, &ok);
  if (!ok) return;
  t = dt;
  if (decl->a) {
    if (!type_compatible(want, dt) || dt.kind == TY_LIST) {
      char b1[64], b2[64];
      diag_error(r->d, decl->b->span, "default value of type %s for a parameter of type %s",
                 type_name(p, dt, b1, sizeof b1), type_name(p, want, b2, sizeof b2));
      return;
    }
    if (want.kind == TY_INT && (v < want.lo || v > want.hi)) {
      diag_error(r->d, decl->b->span, "default %d is out of range %d..%d", v, want.lo,
                 want.hi);
      return;
    }
    t = want;
  } else if (t.kind == TY_INT) {
    t.lo = INT32_MIN;
    t.hi = INT32_MAX;
  }
  ParamInfo *pi = realloc(p->params, (size_t)(p->nparams + 1) * sizeof *pi);
  if (!pi) { p->oom = 1; return; }
  p->params = pi;
  pi = &p->params[p->nparams++];
  memset(pi, 0, sizeof *pi);
  pi->name = decl->name;
  pi->type = t;
  pi->value = v;
  for (int i = 0; i < ndefs; i++) {
    if (strcmp(defs[i].name, decl->name) != 0) continue;
    char why[256];
    if (!apply_override(r, pi, defs[i].value, why, sizeof why)) {
      if (!r->p->oom)   /* else gs_compile reports the lack of memory */
        fprintf(r->d->out, "gsolve: error: -D %s=%.60s%s: %s\n", defs[i].name, defs[i].value,
                strlen(defs[i].value) > 60 ? "..." : "", why);
      *usage = 1;
    }
    pi->overridden = 1;
  }
  Symbol *s = declare(r, decl->name, SYM_PARAM, decl->span);
  if (s) {
    s->type = pi->type;
    s->value = pi->value;
  }
}

/* ------------------------------------------------------------------ */
/* The board                                                          */
/* ------------------------------------------------------------------ */

static void declare_board(Resolver *r, Node *decl) {
  Program *p = r->p;
  int ok = 1;
  Type t;
  if (decl->b) {   /* board ... when COND: in force only if COND holds */
    int32_t v = resolve_const(r, decl->b, &t, &ok);
    if (ok && t.kind != TY_BOOL) {
      diag_error(r->d, decl->b->span, "the condition of 'board' must be bool");
      return;
    }
    if (!ok || !v) return;
  }
  if (p->board != BOARD_NONE) {
    diag_error(r->d, decl->span, decl->b ? "two boards are in force (make their when conditions exclusive)"
                                         : "only one board may be declared");
    return;
  }
  /* A bad notation is reported, and the board declared without it (so
  ** that what uses the board does not fail too). */
  p->gtp_cells = decl->c != NULL;
  if (decl->c && (strcmp(decl->c->name, "gtp") != 0 || strcmp(decl->name, "rect") != 0)) {
    diag_error(r->d, decl->c->span, strcmp(decl->c->name, "gtp") != 0
               ? "unknown board notation '%s' (expected gtp)" : "'%s' notation is for rect boards",
               decl->c->name);
    p->gtp_cells = 0;
  }
  int nargs = ast_count(decl->a);
  if (!strcmp(decl->name, "rect")) {
    if (nargs != 2) {
      diag_error(r->d, decl->span, "rect takes 2 arguments (width, height), not %d", nargs);
      return;
    }
    int32_t w = resolve_const(r, decl->a, &t, &ok);
    int32_t h = resolve_const(r, decl->a->next, &t, &ok);
    if (!ok) return;
    if (w < 1 || h < 1 || (int64_t)w * h > PROG_MAX_CELLS) {
      diag_error(r->d, decl->span, "board %dx%d: each side must be at least 1 and the "
                 "board at most %d cells", w, h, PROG_MAX_CELLS);
      return;
    }
    if (p->gtp_cells && w > 25) {
      diag_error(r->d, decl->c->span, "gtp notation has 25 columns at most, not %d", w);
      p->gtp_cells = 0;
    }
    p->board = BOARD_RECT;
    p->width = w;
    p->height = h;
    p->ncells = w * h;
    p->step = prog_alloc(p, (size_t)p->ncells * DIR_COUNT * sizeof(int16_t));
    p->nbr_start = prog_alloc(p, (size_t)(p->ncells + 1) * sizeof(int));
    p->nbr = prog_alloc(p, (size_t)p->ncells * 4 * sizeof(int));
    if (!p->step || !p->nbr_start || !p->nbr) return;
    int k = 0;
    for (int c = 0; c < p->ncells; c++) {
      int x = c % w, y = c / w;
      p->nbr_start[c] = k;
      for (int d = 0; d < DIR_COUNT; d++) {
        int nx = x + dir_dx[d], ny = y + dir_dy[d];
        int ok2 = nx >= 0 && nx < w && ny >= 0 && ny < h;
        p->step[c * DIR_COUNT + d] = (int16_t)(ok2 ? ny * w + nx : -1);
        if (ok2 && (d % 2) == 0) p->nbr[k++] = ny * w + nx;   /* orthogonal */
      }
    }
    p->nbr_start[p->ncells] = k;
  } else if (!strcmp(decl->name, "graph")) {
    if (nargs != 2) {
      diag_error(r->d, decl->span, "graph takes 2 arguments (nodes, edges), not %d", nargs);
      return;
    }
    int32_t n = resolve_const(r, decl->a, &t, &ok);
    Node *edges = decl->a->next;
    Type et;
    if (edges->kind == NODE_LIST) et = const_list(r, edges, &ok);
    else resolve_const(r, edges, &et, &ok);
    if (!ok) return;
    if (et.kind != TY_LIST || et.hi % 2 != 0) {
      diag_error(r->d, edges->span, "edges must be a list of node pairs [a1, b1, a2, b2, ...]");
      return;
    }
    if (n < 1 || n > PROG_MAX_CELLS) {
      diag_error(r->d, decl->a->span, "a graph needs 1 to %d nodes", PROG_MAX_CELLS);
      return;
    }
    p->board = BOARD_GRAPH;
    p->width = n;
    p->height = 1;
    p->ncells = n;
    int ne = et.hi / 2;
    int *deg = calloc((size_t)n + 1, sizeof(int));
    if (!deg) { p->oom = 1; return; }
    for (int i = 0; i < ne; i++) {
      int a = p->konst[et.lo + 2 * i], b = p->konst[et.lo + 2 * i + 1];
      if (a < 0 || a >= n || b < 0 || b >= n || a == b) {
        diag_error(r->d, edges->span, "edge %d-%d: nodes are 0..%d and an edge joins two "
                   "different nodes", a, b, n - 1);
        free(deg);
        p->board = BOARD_NONE;
        return;
      }
      deg[a]++;
      deg[b]++;
    }
    p->nbr_start = prog_alloc(p, (size_t)(n + 1) * sizeof(int));
    p->nbr = prog_alloc(p, (size_t)(2 * ne + 1) * sizeof(int));
    if (!p->nbr_start || !p->nbr) { free(deg); return; }
    for (int i = 0; i < n; i++) p->nbr_start[i + 1] = p->nbr_start[i] + deg[i];
    memset(deg, 0, (size_t)n * sizeof(int));
    for (int i = 0; i < ne; i++) {
      int a = p->konst[et.lo + 2 * i], b = p->konst[et.lo + 2 * i + 1];
      p->nbr[p->nbr_start[a] + deg[a]++] = b;
      p->nbr[p->nbr_start[b] + deg[b]++] = a;
    }
    free(deg);
  } else {
    diag_error(r->d, decl->span, "unknown board kind '%s' (expected rect or graph)",
               decl->name);
    return;
  }
  Type ct = mktype(TY_INT, p->ncells, p->ncells);
  declare_value(r, "cells", ct, p->ncells);
}

/* ------------------------------------------------------------------ */
/* State variables                                                    */
/* ------------------------------------------------------------------ */

static void declare_state_checked(Resolver *r, Node *decl);

static void declare_state(Resolver *r, Node *decl) {
  declare_state_checked(r, decl);
  poison(r, decl);
}

static void declare_state_checked(Resolver *r, Node *decl) {
  Program *p = r->p;
  StateVar v;
  memset(&v, 0, sizeof v);
  v.name = decl->name;
  v.where = decl->span;
  v.ndims = ast_count(decl->c);
  if (v.ndims > 2) {
    diag_error(r->d, decl->span, "arrays have at most 2 dimensions");
    return;
  }
  int i = 0, ok = 1;
  int64_t size = 1;
  for (Node *dn = decl->c; dn; dn = dn->next, i++) {
    if (dn->kind == NODE_TCELL) {
      if (p->board == BOARD_NONE) {
        diag_error(r->d, dn->span, "[board] needs a board declaration before it");
        return;
      }
      if (v.ndims != 1) {
        diag_error(r->d, dn->span, "an array over the board has one dimension");
        return;
      }
      v.on_board = 1;
      v.dim[i] = p->ncells;
    } else {
      Type t;
      int32_t n = resolve_const(r, dn, &t, &ok);
      if (!ok) return;
      if (t.kind != TY_INT) {
        char b[64];
        diag_error(r->d, dn->span, "array size must be an integer from 1 to %d, not %s",
                   PROG_MAX_ARRAY, type_name(p, t, b, sizeof b));
        return;
      }
      if (n < 1 || n > PROG_MAX_ARRAY) {
        diag_error(r->d, dn->span, "array size must be an integer from 1 to %d (got %d)",
                   PROG_MAX_ARRAY, n);
        return;
      }
      v.dim[i] = n;
    }
    size *= v.dim[i];
  }
  v.elem = resolve_type(r, decl->a, 1);
  if (v.elem.kind == TY_ERROR) return;
  if (p->nslots + size > PROG_MAX_SLOTS) {
    diag_error(r->d, decl->span, "state too large (limit is %d values)", PROG_MAX_SLOTS);
    return;
  }
  v.base = p->nslots;
  /* Slot bounds and start values. */
  int32_t *lo = realloc(p->lo, (size_t)(p->nslots + size) * sizeof *lo);
  if (lo) p->lo = lo;
  int32_t *hi = realloc(p->hi, (size_t)(p->nslots + size) * sizeof *hi);
  if (hi) p->hi = hi;
  int32_t *in = realloc(p->init, (size_t)(p->nslots + size) * sizeof *in);
  if (in) p->init = in;
  if (!lo || !hi || !in) { p->oom = 1; return; }
  int32_t dflt = (v.elem.lo <= 0 && 0 <= v.elem.hi) ? 0 : v.elem.lo;
  if (v.elem.kind == TY_CELL) dflt = -1;
  for (int k = 0; k < size; k++) {
    p->lo[v.base + k] = v.elem.lo;
    p->hi[v.base + k] = v.elem.hi;
    p->init[v.base + k] = dflt;
  }
  if (decl->b) {
    Type it;
    int32_t iv = 0;
    if (decl->b->kind == NODE_LIST) it = const_list(r, decl->b, &ok);
    else iv = resolve_const(r, decl->b, &it, &ok);
    if (!ok) goto declare;
    if (it.kind == TY_LIST) {
      if (it.hi != size) {
        diag_error(r->d, decl->b->span, "initial list has %d values for %lld entries",
                   it.hi, (long long)size);
        goto declare;
      }
      for (int k = 0; k < size; k++) p->init[v.base + k] = p->konst[it.lo + k];
    } else {
      if (!type_compatible(it, v.elem)) {
        char b1[64], b2[64];
        diag_error(r->d, decl->b->span, "initial value of type %s for a state of type %s",
                   type_name(p, it, b1, sizeof b1), type_name(p, v.elem, b2, sizeof b2));
        goto declare;
      }
      for (int k = 0; k < size; k++) p->init[v.base + k] = iv;
    }
    for (int k = 0; k < size; k++) {
      int32_t x = p->init[v.base + k];
      if (x < v.elem.lo || x > v.elem.hi) {
        diag_error(r->d, decl->b->span, "initial value %d is out of range %d..%d", x,
                   v.elem.lo, v.elem.hi);
        goto declare;
      }
    }
  }
  /* A bad initial value is reported above; the state is declared all the
  ** same (with the default values), so its uses do not cascade into more
  ** errors ("'heap' is not a one-dimensional state array"). */
declare:
  p->nslots += (int)size;
  StateVar *vars = realloc(p->vars, (size_t)(p->nvars + 1) * sizeof *vars);
  if (!vars) { p->oom = 1; return; }
  p->vars = vars;
  p->vars[p->nvars] = v;
  Symbol *s = declare(r, decl->name, SYM_STATE, decl->span);
  if (s) { s->index = p->nvars; s->type = v.elem; }
  p->nvars++;
}

/* ------------------------------------------------------------------ */
/* Symmetries                                                         */
/* ------------------------------------------------------------------ */

/* The cell that (x, y) goes to under a board symmetry. */
static int map_cell(const Program *p, const char *kind, int c) {
  int w = p->width, h = p->height, x = c % w, y = c / w;
  if (!strcmp(kind, "mirror")) return y * w + (w - 1 - x);
  if (!strcmp(kind, "flip")) return (h - 1 - y) * w + x;
  if (w == h) return (w - 1 - x) * w + y;                /* rotate 90 degrees */
  return (h - 1 - y) * w + (w - 1 - x);                  /* rotate 180 degrees */
}

/* Closes the generators under composition (at most PROG_MAX_SYMMETRIES). */
static void build_symmetry_group(Resolver *r) {
  Program *p = r->p;
  int n = p->nslots;
  int32_t *group = malloc((size_t)PROG_MAX_SYMMETRIES * (size_t)n * sizeof(int32_t));
  int32_t *gens = malloc((size_t)(r->nsymmetries + 1) * (size_t)n * sizeof(int32_t));
  if (!group || !gens) { r->p->oom = 1; free(group); free(gens); return; }
  int ngens = 0;
  for (int i = 0; i < r->nsymmetries; i++) {
    Node *s = r->symmetries[i];
    if (!strcmp(s->name, "permute")) continue;
    int32_t *g = gens + (size_t)ngens * n;
    for (int k = 0; k < n; k++) g[k] = k;
    for (int vi = 0; vi < p->nvars; vi++) {
      StateVar *v = &p->vars[vi];
      if (!v->on_board) continue;
      for (int c = 0; c < p->ncells; c++)
        g[v->base + c] = v->base + map_cell(p, s->name, c);
    }
    ngens++;
  }
  int count = 1;
  for (int k = 0; k < n; k++) group[k] = k;
  /* Breadth-first closure: multiply every element by every generator. */
  for (int e = 0; e < count; e++) {
    for (int gi = 0; gi < ngens; gi++) {
      int32_t *cand = group + (size_t)count * n;
      if (count == PROG_MAX_SYMMETRIES) break;
      for (int k = 0; k < n; k++) cand[k] = group[(size_t)e * n + gens[(size_t)gi * n + k]];
      int seen = 0;
      for (int f = 0; f < count && !seen; f++)
        seen = memcmp(group + (size_t)f * n, cand, (size_t)n * sizeof(int32_t)) == 0;
      if (!seen) count++;
    }
  }
  p->nsym = count;
  p->sym = prog_alloc(p, (size_t)count * (size_t)n * sizeof(int32_t));
  if (p->sym) memcpy(p->sym, group, (size_t)count * (size_t)n * sizeof(int32_t));
  free(group);
  free(gens);
}

static void check_symmetry(Resolver *r, Node *s) {
  Program *p = r->p;
  const char *k = s->name;
  if (!strcmp(k, "mirror") || !strcmp(k, "flip") || !strcmp(k, "rotate")) {
    if (p->board != BOARD_RECT) {
      diag_error(r->d, s->span, "symmetry '%s' needs a rect board", k);
      return;
    }
    if (s->a) diag_error(r->d, s->a->span, "symmetry '%s' takes no operand", k);
    return;
  }
  if (!strcmp(k, "permute")) {
    Symbol *sym = s->a ? resolve_lookup(r, s->a->name) : NULL;
    if (!s->a) { diag_error(r->d, s->span, "permute needs a state array: symmetry permute NAME;"); return; }
    if (!sym || sym->kind != SYM_STATE || p->vars[sym->index].ndims != 1) {
      diag_error(r->d, s->a->span, "'%s' is not a one-dimensional state array", s->a->name);
      return;
    }
    int *pv = realloc(p->permute_vars, (size_t)(p->npermute + 1) * sizeof(int));
    if (!pv) { p->oom = 1; return; }
    p->permute_vars = pv;
    p->permute_vars[p->npermute++] = sym->index;
    return;
  }
  diag_error(r->d, s->span, "unknown symmetry '%s' (expected mirror, flip, rotate or permute)", k);
}

/* ------------------------------------------------------------------ */
/* The repetition rule                                                */
/* ------------------------------------------------------------------ */

/* repetition forbidden|draw [of NAMES] [except RULES] [when COND]; */
static void declare_repetition(Resolver *r, Node *n) {
  Program *p = r->p;
  int kind = !strcmp(n->name, "forbidden") ? REP_FORBIDDEN : !strcmp(n->name, "draw") ? REP_DRAW : REP_NONE;
  if (kind == REP_NONE) {
    diag_error(r->d, n->span, "unknown repetition rule '%s' (expected forbidden or draw)", n->name);
    return;
  }
  if (n->b) {
    int ok = 1;
    Type t;
    int32_t v = resolve_const(r, n->b, &t, &ok);
    if (ok && t.kind != TY_BOOL) {
      diag_error(r->d, n->b->span, "the condition of 'repetition' must be bool");
      return;
    }
    if (!ok || !v) return;      /* not in force with these parameters */
  }
  if (p->rep_kind) {
    diag_error(r->d, n->span, "a second repetition rule is in force (make their when conditions exclusive)");
    return;
  }
  uint8_t *mask = prog_alloc(p, (size_t)p->nslots);
  uint8_t *except = prog_alloc(p, (size_t)p->nrules + 1);
  if (!mask || !except) return;
  int has_of = 0, ok = 1;
  for (Node *c = n->a; c; c = c->next) {
    int is_of = !strcmp(c->name, "of");
    if (!is_of && strcmp(c->name, "except") != 0) {
      diag_error(r->d, c->span, "expected 'of' or 'except' in a repetition rule, not '%s'", c->name);
      ok = 0;
      continue;
    }
    if (!is_of && kind != REP_FORBIDDEN) {
      diag_error(r->d, c->span, "'except' applies to 'repetition forbidden' only");
      ok = 0;
      continue;
    }
    has_of |= is_of;
    for (Node *nm = c->a; nm; nm = nm->next) {
      if (is_of && !strcmp(nm->name, "mover")) { mask[0] = 1; continue; }
      int found = 0;
      if (is_of) {
        Symbol *s = resolve_lookup(r, nm->name);
        if (s && s->kind == SYM_STATE) {
          const StateVar *v = &p->vars[s->index];
          int size = v->ndims == 0 ? 1 : v->ndims == 1 ? v->dim[0] : v->dim[0] * v->dim[1];
          memset(mask + v->base, 1, (size_t)size);
          found = 1;
        }
      } else {
        for (int i = 0; i < p->nrules && !found; i++)
          if (!strcmp(r->moves[i]->name, nm->name)) except[i] = found = 1;
      }
      if (!found) {
        diag_error(r->d, nm->span, is_of ? "'%s' is not a state variable (or mover)" : "'%s' is not a move",
                   nm->name);
        ok = 0;
      }
    }
  }
  if (!ok) return;
  if (!has_of) memset(mask, 1, (size_t)p->nslots);   /* the whole position */
  p->rep_kind = kind;
  p->rep_mask = mask;
  p->rep_except = except;
}

/* ------------------------------------------------------------------ */
/* The whole file                                                     */
/* ------------------------------------------------------------------ */

static void declare_builtins(Resolver *r) {
  Program *p = r->p;
  Span none = { 0, 0 };
  Symbol *m = declare(r, "mover", SYM_MOVER, none);
  if (m) m->type = mktype(TY_PLAYER, 1, p->chance ? p->chance : p->nplayers);
  declare_value(r, "none", mktype(TY_PLAYER, 0, 0), 0);
  if (p->chance) declare_value(r, "chance", mktype(TY_PLAYER, p->chance, p->chance), p->chance);
  declare_value(r, "nowhere", mktype(TY_CELL, -1, -1), -1);
  for (int d = 0; d < DIR_COUNT; d++) declare_value(r, dir_names[d], mktype(TY_DIR, d, d), d);
  for (int i = 0; i < p->nplayers; i++) {
    int dup = 0;
    for (int j = 0; j < i; j++) dup |= !strcmp(p->players[j], p->players[i]);
    if (dup) continue;   /* reported by declare_players */
    if (resolve_lookup(r, p->players[i])) {
      diag_error(r->d, r->players_span[i], "player name '%s' is a built-in name", p->players[i]);
      continue;
    }
    Symbol *s = declare(r, p->players[i], SYM_VALUE, r->players_span[i]);
    if (s) { s->type = mktype(TY_PLAYER, i + 1, i + 1); s->value = i + 1; }
  }
}

static void declare_players(Resolver *r, Node *decl) {
  Program *p = r->p;
  if (p->nplayers) {
    diag_error(r->d, decl->span, "players declared twice");
    return;
  }
  int n = ast_count(decl->a);
  if (n < 1 || n > GAME_MAX_PLAYERS) {
    diag_error(r->d, decl->span, "a game has 1 to %d players, not %d", GAME_MAX_PLAYERS, n);
    return;
  }
  p->nplayers = n;
  int i = 0;
  for (Node *nm = decl->a; nm; nm = nm->next) {
    r->players_span[i] = nm->span;
    p->players[i++] = nm->name;
    for (int j = 0; j < i - 1; j++)
      if (!strcmp(p->players[j], nm->name))
        diag_error(r->d, nm->span, "duplicate player '%s'", nm->name);
  }
}

/* Names a function or move; the built-in functions' names are taken. */
static int register_named(Resolver *r, Node *decl, SymKind k, Node ***arr, int *n) {
  if (builtin_find(decl->name, -1))
    diag_error(r->d, decl->span, "'%s' is a built-in function and cannot be redefined", decl->name);
  Symbol *s = declare(r, decl->name, k, decl->span);
  Node **a = realloc(*arr, (size_t)(*n + 1) * sizeof(Node *));
  if (!a) { r->p->oom = 1; return 0; }
  *arr = a;
  a[*n] = decl;
  if (s) s->index = *n;
  (*n)++;
  return 1;
}

int resolve_program(Program *p, Diag *d, const ParamDef *defs, int ndefs,
                    int *usage_error, Resolver **out) {
  Resolver *r = calloc(1, sizeof *r);
  *out = r;
  if (!r) { p->oom = 1; return 0; }
  r->p = p;
  r->d = d;
  *usage_error = 0;
  Span zero = { 0, 0 };

  /* Step 1. The game's name and players come first: names below may use them. */
  for (Node *n = p->ast; n; n = n->next) {
    if (n->kind == NODE_GAME) {
      if (p->name) diag_error(d, n->span, "game name declared twice");
      p->name = n->name;
    } else if (n->kind == NODE_PLAYERS) {
      r->players_seen = 1;
      declare_players(r, n);
    }
  }
  if (!p->name) p->name = "unnamed";
  if (p->nplayers == 0) {
    if (!r->players_seen) diag_error(d, zero, "the game declares no players (add: players A, B;)");
    p->nplayers = 1;
    p->players[0] = "A";
  }
  /* A game with chance moves has one more player value, `chance`, and a
  ** hidden slot 1 holding the player who moves after chance. */
  for (Node *n = p->ast; n; n = n->next)
    if (n->kind == NODE_MOVE && n->op == 1) p->chance = p->nplayers + 1;
  p->lo = malloc(2 * sizeof(int32_t));
  p->hi = malloc(2 * sizeof(int32_t));
  p->init = malloc(2 * sizeof(int32_t));
  if (!p->lo || !p->hi || !p->init) { p->oom = 1; return 0; }
  p->lo[0] = 1;
  p->hi[0] = p->chance ? p->chance : p->nplayers;
  p->init[0] = 1;
  p->nslots = 1;
  if (p->chance) {
    p->chance_slot = 1;
    p->lo[1] = 1;
    p->hi[1] = p->nplayers;
    p->init[1] = 1;
    p->nslots = 2;
  }
  declare_builtins(r);

  /* Step 2. Declarations in order; functions and moves only get names. */
  int nmoves = 0;
  for (Node *n = p->ast; n; n = n->next) {
    switch (n->kind) {
      case NODE_PARAM: declare_param(r, n, defs, ndefs, usage_error); break;
      case NODE_CONST: {
        int ok = 1;
        Type t;
        int32_t v = resolve_const(r, n->b, &t, &ok);
        Symbol *s = ok ? declare(r, n->name, SYM_CONST, n->span) : NULL;
        if (s) { s->type = t; s->value = v; }
        if (!ok) poison(r, n);
        break;
      }
      case NODE_TYPEDEF: {
        Type t = n->a->kind == NODE_TENUM ? declare_enum(r, n->name, n->a->a)
                                           : resolve_type(r, n->a, 0);
        Symbol *s = declare(r, n->name, SYM_TYPE, n->span);
        if (s) s->type = t;
        break;
      }
      case NODE_BOARD: declare_board(r, n); break;
      case NODE_STATE: declare_state(r, n); break;
      case NODE_FUNC: register_named(r, n, SYM_FUNC, &r->funcs, &r->nfuncs); break;
      case NODE_MOVE:
        if (nmoves == PROG_MAX_RULES) {
          diag_error(d, n->span, "too many move rules (limit is %d)", PROG_MAX_RULES);
          break;
        }
        register_named(r, n, SYM_MOVE, &r->moves, &nmoves);
        break;
      case NODE_END: case NODE_NOMOVES: case NODE_EVAL: case NODE_START: {
        Node **slot = n->kind == NODE_END ? &r->end_decl
                    : n->kind == NODE_NOMOVES ? &r->nomoves_decl
                    : n->kind == NODE_START ? &r->start_decl : &r->eval_decl;
        if (*slot) diag_error(d, n->span, "'%s' declared twice", n->name);
        else *slot = n;
        break;
      }
      case NODE_BOUND:
        /* Kept only when well formed: the compiler then takes it as is. */
        if (r->bound_decl) diag_error(d, n->span, "'bound' declared twice");
        else if (!n->a || n->a->next || n->a->a->kind != NODE_TPLAYER)
          diag_error(d, n->span, "a bound takes one parameter, a player: bound(p: player) { ... }");
        else r->bound_decl = n;
        break;
      case NODE_NATIVE: {
        if (p->native) { diag_error(d, n->span, "native engine declared twice"); break; }
        p->native = n->name;
        p->native_ok = 1;
        if (n->a) {
          int ok = 1;
          Type t;
          int32_t v = resolve_const(r, n->a, &t, &ok);
          if (ok && t.kind != TY_BOOL) diag_error(d, n->a->span, "the condition of 'native' must be bool");
          p->native_ok = ok && v;
        }
        break;
      }
      case NODE_SCORE_ONLY:
        if (strcmp(n->name, "only") != 0)
          diag_error(d, n->span, "expected 'only' after 'score' (the declaration 'score only;')");
        else if (p->score_only) diag_error(d, n->span, "'score only' declared twice");
        p->score_only = 1;
        break;
      case NODE_SYMMETRY: {
        Node **s = realloc(r->symmetries, (size_t)(r->nsymmetries + 1) * sizeof *s);
        if (s) { r->symmetries = s; s[r->nsymmetries++] = n; }
        else p->oom = 1;
        break;
      }
      case NODE_REPETITION: {
        Node **s = realloc(r->repetitions, (size_t)(r->nrepetitions + 1) * sizeof *s);
        if (s) { r->repetitions = s; s[r->nrepetitions++] = n; }
        else p->oom = 1;
        break;
      }
      default: break;
    }
  }
  p->nrules = nmoves;
  if (nmoves == 0) diag_error(d, zero, "the game declares no moves (add: move NAME(...) { ... })");

  /* Step 3. -D names must exist.  Out of memory, a parameter may have
  ** been left undeclared: gs_compile reports the lack of memory alone. */
  for (int i = 0; i < ndefs && !p->oom; i++) {
    int found = 0;
    for (int k = 0; k < p->nparams && !found; k++) found = !strcmp(p->params[k].name, defs[i].name);
    if (!found) {
      fprintf(d->out, "gsolve: error: -D %s=%s: the game has no parameter '%s'", defs[i].name,
              defs[i].value, defs[i].name);
      if (p->nparams) {
        fprintf(d->out, " (parameters:");
        for (int k = 0; k < p->nparams; k++) fprintf(d->out, "%s %s", k ? "," : "", p->params[k].name);
        fprintf(d->out, ")");
      }
      fprintf(d->out, "\n");
      *usage_error = 1;
    }
  }

  /* Step 4. Symmetries and the repetition rule, once the state layout
  ** and the move rules are known. */
  for (int i = 0; i < r->nsymmetries; i++) check_symmetry(r, r->symmetries[i]);
  for (int i = 0; i < r->nrepetitions; i++) declare_repetition(r, r->repetitions[i]);
  build_symmetry_group(r);
  return d->errors == 0 && !*usage_error;
}

void resolver_free(Resolver *r) {
  if (!r) return;
  free(r->syms);
  free(r->funcs);
  free(r->moves);
  free(r->symmetries);
  free(r->repetitions);
  free(r);
}
