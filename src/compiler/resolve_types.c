/*
** resolve_types.c -- types (named, enumerations, ranges) and constant
** expressions folded at compile time, with the constant pool of lists.
*/
#include "compiler/resolve.h"
#include "compiler/builtins.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
Type resolve_declare_enum(Resolver *r, const char *name, Node *members) {
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
    Symbol *s = resolve_declare(r, m->name, SYM_ENUMVAL, m->span);
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
    case NODE_TENUM: return resolve_declare_enum(r, "", t->a);
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
  if (!*ok) return 0;
  if (b->fold == FOLD_AT) {   /* at(x, y): a cell of the rect board */
    char msg[96];
    if (p->board != BOARD_RECT) return fail(r, e, ok, "at() needs a rect board (declared before it)");
    if (ta.kind != TY_INT || tb.kind != TY_INT) return fail(r, e, ok, "at() takes a column and a row (integers)");
    if (a < 0 || a >= p->width) {
      snprintf(msg, sizeof msg, "column %d out of range 0..%d", a, p->width - 1);
      return fail(r, e->a, ok, msg);
    }
    if (c < 0 || c >= p->height) {
      snprintf(msg, sizeof msg, "row %d out of range 0..%d", c, p->height - 1);
      return fail(r, e->a->next, ok, msg);
    }
    *t = mktype(TY_CELL, c * p->width + a, c * p->width + a);
    return c * p->width + a;
  }
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
                   resolve_kind_word(s->kind));
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
int resolve_konst_add(Program *p, const int32_t *v, int n) {
  int32_t *k = realloc(p->konst, (size_t)(p->nkonst + n + 1) * sizeof *k);
  if (!k) { p->oom = 1; return -1; }
  p->konst = k;
  memcpy(k + p->nkonst, v, (size_t)n * sizeof *v);
  p->nkonst += n;
  return p->nkonst - n;
}

/* A list literal of constants into the pool. */
Type resolve_const_list(Resolver *r, Node *list, int *ok) {
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
  int off = resolve_konst_add(r->p, v, n);
  free(v);
  if (off < 0) { *ok = 0; return mktype(TY_ERROR, 0, 0); }
  return mktype(TY_LIST, off, n);
}
