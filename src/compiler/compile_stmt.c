/*
** compile_stmt.c -- type-checks and emits statements: declarations,
** assignments, if, the for loops (ranges, lists, cells, neighbours, ...),
** while, and the statements that end or shape a move (win, next, pay...).
*/
#include "compiler/compile_int.h"
#include "compiler/builtins.h"

#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* Statements                                                         */
/* ------------------------------------------------------------------ */

static void stmt_list(Compiler *c, Node *list);

void cg_block(Compiler *c, Node *b) {
  Scope s = cg_scope_open(c);
  if (b && b->kind == NODE_BLOCK) stmt_list(c, b->a);
  else if (b) stmt_list(c, b);
  cg_scope_close(c, s);
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
    Local *l = cg_add_local(c, s->name, t, dim[0] * dim[1], s->span);
    if (!l) return;
    l->ndims = ndims;
    l->dim[0] = dim[0];
    l->dim[1] = dim[1];
    cg_emit(c, OP_CLEARL, l->slot, dim[0] * dim[1], s->span);
    return;
  }
  if (s->b) {
    Type it = cg_expr(c, s->b);
    if (s->a && !type_compatible(it, t)) {
      char b1[64], b2[64];
      diag_error(c->d, s->b->span, "cannot initialize %s '%s' with %s",
                 type_name(p, t, b1, sizeof b1), s->name, type_name(p, it, b2, sizeof b2));
    }
    if (!s->a) t = it.kind == TY_ERROR ? mkt(TY_INT) : it;
    if (t.kind == TY_VOID) { diag_error(c->d, s->b->span, "the initializer has no value"); t = T_ERR; }
  } else {
    cg_emit(c, OP_CONST, t.kind == TY_CELL ? -1 : 0, 0, s->span);
  }
  for (int i = c->scope_start; i < c->nlocals; i++)
    if (!strcmp(c->locals[i].name, s->name)) {
      diag_error(c->d, s->span, "'%s' is already declared in this block", s->name);
      break;
    }
  /* Declared after the initializer so `var x = x + 1` sees the outer x. */
  Local *l = cg_add_local(c, s->name, t, 1, s->span);
  if (l) cg_emit(c, OP_STOREL, l->slot, 0, s->span);
  else cg_emit(c, OP_POP, 0, 0, s->span);
}

static void assign_stmt(Compiler *c, Node *s) {
  Node *target = s->a;
  if (target->kind == NODE_INDEX) {
    cg_index_expr(c, target, 1, s->b, s->op);
    return;
  }
  if (target->kind != NODE_NAME) {
    diag_error(c->d, target->span, "cannot assign to this expression");
    cg_expr(c, s->b);
    cg_emit(c, OP_POP, 0, 0, s->span);
    return;
  }
  Local *l = cg_find_local(c, target->name);
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
    if (sym->kind == SYM_MOVER || sym->kind == SYM_ROLLER) {
      diag_error(c->d, target->span, "'%s' cannot be assigned; use 'next PLAYER;'", target->name);
      return;
    }
    if (sym->type.kind == TY_ERROR && sym->kind == SYM_VALUE) { cg_expr(c, s->b); return; }
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
  if (s->op != '=') cg_emit(c, is_state ? OP_LOADS : OP_LOADL, slot, 0, s->span);
  Type vt = cg_expr(c, s->b);
  if (s->op != '=') {
    if (!is_int(tt) || !is_int(vt)) diag_error(c->d, s->span, "'%c=' needs integers", s->op);
    cg_emit(c, s->op == '+' ? OP_ADD : s->op == '-' ? OP_SUB : OP_MUL, 0, 0, s->span);
  } else if (!type_compatible(vt, tt)) {
    char b1[64], b2[64];
    diag_error(c->d, s->b->span, "cannot assign %s to '%s' (%s)",
               type_name(c->p, vt, b1, sizeof b1), target->name, type_name(c->p, tt, b2, sizeof b2));
  }
  cg_emit(c, is_state ? OP_STORES : OP_STOREL, slot, 0, s->span);
}

/* Loops: the body, then `continue` lands on the increment. */
static void loop_begin(Compiler *c, Loop *l) {
  memset(l, 0, sizeof *l);
  l->cont = -1;
  l->outer = c->loop;
  c->loop = l;
}

static void loop_end(Compiler *c, Loop *l, int cont, int end) {
  for (int i = 0; i < l->nconts; i++) cg_patch(c, l->conts[i], cont);
  for (int i = 0; i < l->nbreaks; i++) cg_patch(c, l->breaks[i], end);
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
      if (cg_find_local(c, e->name)) return 0;
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
        Symbol *s = a->kind == NODE_NAME && !cg_find_local(c, a->name) ? resolve_lookup(c->r, a->name) : NULL;
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
  Scope sc = cg_scope_open(c);
  Local *var = cg_add_local(c, s->name, vt, 1, s->span);
  Local *lim = constant ? NULL : cg_add_local(c, " limit", mkt(TY_INT), 1, s->span);
  Local *idx = konst >= 0 ? cg_add_local(c, " index", mkt(TY_INT), 1, s->span) : NULL;
  if (!var || (!constant && !lim) || (konst >= 0 && !idx)) { cg_scope_close(c, sc); return; }
  var->readonly = 1;
  Local *counter = idx ? idx : var;
  int skip = -1;
  if (constant) {
    if (lo > hi) skip = cg_emit(c, OP_JMP, 0, 0, s->span);   /* checked, never run */
    cg_emit(c, OP_CONST, lo, 0, s->span);
    cg_emit(c, OP_STOREL, counter->slot, 0, s->span);
  } else {
    cg_expect(c, lo_e, TY_INT, "a range bound");
    cg_emit(c, OP_STOREL, counter->slot, 0, s->span);
    cg_expect(c, hi_e, TY_INT, "a range bound");
    cg_emit(c, OP_STOREL, lim->slot, 0, s->span);
    cg_emit(c, OP_LOADL, counter->slot, 0, s->span);
    cg_emit(c, OP_LOADL, lim->slot, 0, s->span);
    skip = cg_emit(c, OP_JGT, 0, 0, s->span);
  }
  int top = cg_here(c);
  if (idx) {
    cg_emit(c, OP_LOADL, idx->slot, 0, s->span);
    cg_emit(c, OP_LOADK, konst, klen, s->span);
    cg_emit(c, OP_STOREL, var->slot, 0, s->span);
  }
  Loop l;
  loop_begin(c, &l);
  cg_block(c, s->c);
  int cont = cg_here(c);
  if (constant) cg_emit_raw(c, OP_FORK, counter->slot, hi, top, s->span);
  else cg_emit_raw(c, OP_FORL, counter->slot, lim->slot, top, s->span);
  if (skip >= 0) cg_patch(c, skip, cg_here(c));
  loop_end(c, &l, cont, cg_here(c));
  cg_scope_close(c, sc);
}

static void for_neighbours(Compiler *c, Node *s, Node *call) {
  if (c->p->board == BOARD_NONE) { diag_error(c->d, call->span, "neighbours() needs a board"); return; }
  if (!cg_arity(c, call, 1)) return;
  Scope sc = cg_scope_open(c);
  Local *cell = cg_add_local(c, " cell", mkt(TY_CELL), 1, s->span);
  Local *i = cg_add_local(c, " i", mkt(TY_INT), 1, s->span);
  Local *n = cg_add_local(c, " n", mkt(TY_INT), 1, s->span);
  Local *var = cg_add_local(c, s->name, mkt(TY_CELL), 1, s->span);
  if (!cell || !i || !n || !var) { cg_scope_close(c, sc); return; }
  var->readonly = 1;
  cg_expect(c, call->a, TY_CELL, "the argument of neighbours");
  cg_emit(c, OP_DUP, 0, 0, s->span);
  cg_emit(c, OP_STOREL, cell->slot, 0, s->span);
  cg_emit(c, OP_NBRN, 0, 0, s->span);
  cg_emit(c, OP_ADDK, -1, 0, s->span);
  cg_emit(c, OP_STOREL, n->slot, 0, s->span);        /* the last index */
  cg_emit(c, OP_CONST, 0, 0, s->span);
  cg_emit(c, OP_STOREL, i->slot, 0, s->span);
  cg_emit(c, OP_LOADL, n->slot, 0, s->span);
  cg_emit(c, OP_CONST, 0, 0, s->span);
  int exit_jump = cg_emit(c, OP_JLT, 0, 0, s->span);   /* no neighbours */
  int top = cg_here(c);
  cg_emit(c, OP_LOADL, cell->slot, 0, s->span);
  cg_emit(c, OP_LOADL, i->slot, 0, s->span);
  cg_emit(c, OP_NBR, 0, 0, s->span);
  cg_emit(c, OP_STOREL, var->slot, 0, s->span);
  Loop l;
  loop_begin(c, &l);
  cg_block(c, s->c);
  int cont = cg_here(c);
  cg_emit_raw(c, OP_FORL, i->slot, n->slot, top, s->span);
  cg_patch(c, exit_jump, cg_here(c));
  loop_end(c, &l, cont, cg_here(c));
  cg_scope_close(c, sc);
}

/* for x in ray(c, d): the cells from c (not included) towards d, one
** step at a time, until the edge of the board. */
static void for_ray(Compiler *c, Node *s, Node *call) {
  if (c->p->board != BOARD_RECT) { diag_error(c->d, call->span, "ray() needs a rect board"); return; }
  if (!cg_arity(c, call, 2)) return;
  Scope sc = cg_scope_open(c);
  Local *cur = cg_add_local(c, " cell", mkt(TY_CELL), 1, s->span);
  Local *dir = cg_add_local(c, " dir", mkt(TY_DIR), 1, s->span);
  Local *var = cg_add_local(c, s->name, mkt(TY_CELL), 1, s->span);
  if (!cur || !dir || !var) { cg_scope_close(c, sc); return; }
  var->readonly = 1;
  cg_expect(c, call->a, TY_CELL, "the cell of ray");
  cg_emit(c, OP_STOREL, cur->slot, 0, s->span);
  cg_expect(c, call->a->next, TY_DIR, "the direction of ray");
  cg_emit(c, OP_STOREL, dir->slot, 0, s->span);
  int top = cg_here(c);
  cg_emit(c, OP_LOADL, cur->slot, 0, s->span);
  cg_emit(c, OP_LOADL, dir->slot, 0, s->span);
  cg_emit(c, OP_STEP, 0, 0, s->span);
  cg_emit(c, OP_DUP, 0, 0, s->span);
  cg_emit(c, OP_STOREL, cur->slot, 0, s->span);
  int exit_jump = cg_emit(c, OP_JEQK, 0, -1, s->span);   /* off the board */
  cg_emit(c, OP_LOADL, cur->slot, 0, s->span);
  cg_emit(c, OP_STOREL, var->slot, 0, s->span);
  Loop l;
  loop_begin(c, &l);
  cg_block(c, s->c);
  int cont = cg_here(c);
  cg_emit(c, OP_LOOP, top, 0, s->span);
  cg_patch(c, exit_jump, cg_here(c));
  loop_end(c, &l, cont, cg_here(c));
  cg_scope_close(c, sc);
}

void cg_copy_done(Compiler *c, Copies *k) {
  if (k->n++ == 0) k->was = c->d->mute;
  else c->d->errors = k->errors;
  k->errors = c->d->errors;
  k->mute = 1;
  c->d->mute = &k->mute;
}

void cg_copies_end(Compiler *c, Copies *k) {
  if (k->n > 0) c->d->mute = k->was;
}

int cg_unroll_size(const Node *n, int count) {
  for (; n && count <= UNROLL_MAX_NODES; n = n->next) {
    if (n->kind == NODE_BREAK || n->kind == NODE_CONTINUE) return UNROLL_MAX_NODES + 1;
    count++;
    const Node *kids[4] = { n->a, n->b, n->c, n->d };
    for (int k = 0; k < 4; k++) count = cg_unroll_size(kids[k], count);
  }
  return count;
}

/* A loop over a short constant list is unrolled: the body is compiled
** once per element with the variable a constant, so there is no counter,
** no list lookup, and what the element feeds folds (Connect Four's win
** test: line(square, c, d) for four directions).  Only small bodies
** without break or continue, which would need a target per copy. */
static void for_unrolled(Compiler *c, Node *s, Type et, const int32_t *v, int n) {
  int copies = c->copies;
  Copies k = { 0 };
  c->copies = (copies + 1) * n - 1;
  for (int i = 0; i < n; i++) {
    Scope sc = cg_scope_open(c);
    Local *var = cg_add_local(c, s->name, et, 1, s->span);
    if (!var) { cg_scope_close(c, sc); break; }
    var->readonly = 1;
    var->known = 1;
    var->value = v[i];
    cg_block(c, s->c);
    cg_scope_close(c, sc);
    cg_copy_done(c, &k);
  }
  cg_copies_end(c, &k);
  c->copies = copies;
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
    if (!strcmp(iterated->name, "ray")) for_ray(c, s, it);
    else for_neighbours(c, s, it);
    return;
  }
  if (it->kind == NODE_LIST) {
    int n = ast_count(it->a);
    if (n == 0) {
      /* Nothing to iterate, but the body is still checked. */
      Scope sc = cg_scope_open(c);
      int skip = cg_emit(c, OP_JMP, 0, 0, s->span);
      Local *var = cg_add_local(c, s->name, mkt(TY_INT), 1, s->span);
      if (var) var->readonly = 1;
      Loop l;
      loop_begin(c, &l);
      cg_block(c, s->c);
      cg_patch(c, skip, cg_here(c));
      loop_end(c, &l, cg_here(c), cg_here(c));
      cg_scope_close(c, sc);
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
    if (ok && n <= UNROLL_MAX_ITERATIONS && (c->copies + 1) * n <= UNROLL_MAX_COPIES &&
        cg_unroll_size(s->c, 0) <= UNROLL_MAX_NODES) {
      for_unrolled(c, s, et, v, n);
      free(v);
      return;
    }
    int32_t *k = ok ? realloc(p->konst, (size_t)(p->nkonst + n) * sizeof *k) : NULL;
    if (ok && !k) c->oom = p->oom = 1;
    if (k) {
      p->konst = k;
      memcpy(k + p->nkonst, v, (size_t)n * sizeof *v);
      /* Taken before the body is compiled: a list loop inside it adds
      ** its own constants after these, not over them. */
      int off = p->nkonst;
      p->nkonst += n;
      for_counted(c, s, et, NULL, NULL, 0, n - 1, off, n);
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
  int top = cg_here(c);
  cg_expect(c, s->a, TY_BOOL, "a while condition");
  int exit_jump = cg_emit(c, OP_JMPF, 0, 0, s->span);
  Loop l;
  loop_begin(c, &l);
  cg_block(c, s->c);
  cg_emit(c, OP_LOOP, top, 0, s->span);
  cg_patch(c, exit_jump, cg_here(c));
  loop_end(c, &l, top, cg_here(c));
}

static int outcome_allowed(Compiler *c, Node *s) {
  if (c->kind == CHUNK_END || c->kind == CHUNK_NOMOVES || c->kind == CHUNK_FUNCTION ||
      c->kind == CHUNK_EFFECT) return 1;
  diag_error(c->d, s->span, "'%s' is only allowed in a move's effect and the end and nomoves blocks (and functions they call)",
             s->kind == NODE_WIN ? "win" : s->kind == NODE_LOSE ? "lose" :
             s->kind == NODE_DRAW ? "draw" : "score");
  return 0;
}

static void stmt(Compiler *c, Node *s) {
  if (!s) return;
  switch (s->kind) {
    case NODE_BLOCK: cg_block(c, s); break;
    case NODE_VAR: var_stmt(c, s); break;
    case NODE_ASSIGN: assign_stmt(c, s); break;
    case NODE_IF: {
      cg_expect(c, s->a, TY_BOOL, "an if condition");
      int j1 = cg_emit(c, OP_JMPF, 0, 0, s->span);
      cg_block(c, s->b);
      if (s->c) {
        int j2 = cg_emit(c, OP_JMP, 0, 0, s->span);
        cg_patch(c, j1, cg_here(c));
        if (s->c->kind == NODE_IF) stmt(c, s->c); else cg_block(c, s->c);
        cg_patch(c, j2, cg_here(c));
      } else {
        cg_patch(c, j1, cg_here(c));
      }
      break;
    }
    case NODE_FOR: for_stmt(c, s); break;
    case NODE_WHILE: while_stmt(c, s); break;
    case NODE_BREAK: case NODE_CONTINUE:
      if (!c->loop) { diag_error(c->d, s->span, "'%s' outside a loop", s->kind == NODE_BREAK ? "break" : "continue"); break; }
      if (s->kind == NODE_BREAK)
        cg_list_push(&c->loop->breaks, &c->loop->nbreaks, &c->loop->capbreaks, cg_emit(c, OP_JMP, 0, 0, s->span), c);
      else
        cg_list_push(&c->loop->conts, &c->loop->nconts, &c->loop->capconts, cg_emit(c, OP_JMP, 0, 0, s->span), c);
      break;
    case NODE_RETURN:
      if (c->kind == CHUNK_FUNCTION || c->kind == CHUNK_EVAL || c->kind == CHUNK_BOUND) {
        if (c->ret.kind == TY_VOID) {
          if (s->a) { diag_error(c->d, s->a->span, "this function returns no value"); }
          cg_emit(c, OP_RET0, 0, 0, s->span);
        } else if (!s->a) {
          diag_error(c->d, s->span, "return needs a value here");
        } else {
          Type t = cg_expr(c, s->a);
          if (!type_compatible(t, c->ret)) {
            char b1[64], b2[64];
            diag_error(c->d, s->a->span, "returning %s where %s is expected",
                       type_name(c->p, t, b1, sizeof b1), type_name(c->p, c->ret, b2, sizeof b2));
          }
          cg_emit(c, OP_RET, 0, 0, s->span);
        }
      } else if (s->a) {
        diag_error(c->d, s->a->span, "only functions and eval return a value");
      } else {
        cg_emit(c, OP_HALT, 0, 0, s->span);
      }
      break;
    case NODE_WIN: case NODE_LOSE:
      if (!outcome_allowed(c, s)) break;
      cg_expect(c, s->a, TY_PLAYER, "a winner or loser");
      cg_emit(c, s->kind == NODE_WIN ? OP_WIN : OP_LOSE, 0, 0, s->span);
      break;
    case NODE_DRAW:
      if (outcome_allowed(c, s)) cg_emit(c, OP_DRAW, 0, 0, s->span);
      break;
    case NODE_SCORE: {
      if (!outcome_allowed(c, s)) break;
      int n = ast_count(s->a);
      if (n != c->p->nplayers) {
        diag_error(c->d, s->span, "score needs one value per player (%d), not %d", c->p->nplayers, n);
        break;
      }
      for (Node *e = s->a; e; e = e->next) cg_expect(c, e, TY_INT, "a score");
      cg_emit(c, OP_SCORE, n, 0, s->span);
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
        if (!c->p->chance) { cg_name_expr(c, s->a); break; }   /* reports the missing chance moves */
        cg_expect(c, s->b, TY_PLAYER, "the player after chance");
        cg_emit(c, OP_NEXTCHANCE, 0, 0, s->span);
        break;
      }
      cg_expect(c, s->a, TY_PLAYER, "the next player");
      cg_emit(c, OP_SETNEXT, 0, 0, s->span);
      break;
    case NODE_ILLEGAL:
      if (c->kind != CHUNK_EFFECT && c->kind != CHUNK_FUNCTION) {
        diag_error(c->d, s->span, "'illegal' is only allowed in a move's effect (and functions it calls)");
        break;
      }
      cg_emit(c, OP_ILLEGAL, 0, 0, s->span);
      c->p->has_illegal = 1;
      break;
    case NODE_INVALID: {
      /* The position is refused: return the reason's number + 1. */
      if (c->kind != CHUNK_VALID) {
        diag_error(c->d, s->span, "'invalid' is only allowed in the valid block");
        break;
      }
      Program *p = c->p;
      int k = 0;
      while (k < p->ninvalid && strcmp(p->invalid_reasons[k], s->name) != 0) k++;
      if (k == p->ninvalid) {
        const char **more = realloc(p->invalid_reasons, (size_t)(k + 1) * sizeof *more);
        if (!more) { c->oom = 1; break; }
        p->invalid_reasons = more;
        p->invalid_reasons[p->ninvalid++] = s->name;
      }
      cg_emit(c, OP_CONST, k + 1, 0, s->span);
      cg_emit(c, OP_RET, 0, 0, s->span);
      break;
    }
    case NODE_CONTMOVE: case NODE_PRIORITY:
      if (c->kind != CHUNK_EFFECT && c->kind != CHUNK_FUNCTION) {
        diag_error(c->d, s->span, "'%s' is only allowed in a move's effect (and functions it calls)",
                   s->kind == NODE_CONTMOVE ? "continue move" : "priority");
        break;
      }
      if (s->kind == NODE_PRIORITY) {
        cg_expect(c, s->a, TY_INT, "a move's priority");
        c->p->has_priority = 1;
      }
      cg_emit(c, s->kind == NODE_CONTMOVE ? OP_CONTMOVE : OP_PRIORITY, 0, 0, s->span);
      c->p->has_steps = 1;
      break;
    case NODE_PAY:
      if (c->kind != CHUNK_EFFECT && c->kind != CHUNK_FUNCTION) {
        diag_error(c->d, s->span, "'pay' is only allowed in a move's effect (and functions it calls)");
        break;
      }
      cg_expect(c, s->a, TY_PLAYER, "the player who is paid");
      cg_expect(c, s->b, TY_INT, "a payoff");
      cg_emit(c, OP_PAY, 0, 0, s->span);
      c->p->has_pay = 1;
      break;
    case NODE_EXPRSTMT: {
      if (s->a->kind != NODE_CALL) {
        diag_error(c->d, s->a->span, "this expression does nothing (did you mean '=' or a call?)");
        break;
      }
      Type t = cg_expr(c, s->a);
      if (t.kind != TY_VOID && t.kind != TY_ERROR) cg_emit(c, OP_POP, 0, 0, s->span);
      break;
    }
    default: diag_error(c->d, s->span, "expected a statement"); break;
  }
  c->stack = 0;   /* statements leave the operand stack empty */
}

static void stmt_list(Compiler *c, Node *list) {
  for (Node *s = list; s; s = s->next) stmt(c, s);
}
