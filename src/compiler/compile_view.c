/*
** compile_view.c -- the `hidden` declarations: what each player sees of
** the state (docs/language.md, section 4.19).
**
**   hidden NAME;                        hidden from every player
**   hidden NAME seen by P, Q;           ... but P and Q
**   hidden NAME[i] seen by player(i);   cell by cell
**   hidden NAME[c] when !up[c];         only while the condition holds
**
** Each declaration becomes one view chunk: (cell indices..., player) ->
** 1 when that player sees the cell in the current state, that is when
** the `when` condition is false or the player is one of `seen by`.  A
** declaration with neither is hidden from all, always: no chunk.  The VM
** (vm_view.c) runs the chunks to mask each player's view.
*/
#include "compiler/compile_int.h"

#include <stdlib.h>
#include <string.h>

/* Checks one `seen by` player: of type player, and a declared player
** when it is a constant (a player's name, player(k)). */
static void check_seen(Compiler *c, Node *e, Type t) {
  Program *p = c->p;
  if (t.kind != TY_PLAYER) return;
  int32_t v;
  if (e->kind == NODE_NAME && cg_constant_value(c, e, &v) && (v < 1 || v > p->nplayers))
    diag_error(c->d, e->span, "'seen by' needs a player, not '%s'%s", e->name,
               v == 0 ? " (to hide it from everyone, leave 'seen by' out)" : "");
}

/* The view chunk of one declaration (-1 for hidden from all, always). */
static int view_chunk(Compiler *c, Node *h, const StateVar *v) {
  Program *p = c->p;
  if (!h->b && !h->c) return -1;
  int idx = cg_chunk_begin(c, CHUNK_VIEW, v->name);
  int nidx = 0;
  for (Node *n = h->a; n; n = n->next, nidx++) {
    for (Node *q = h->a; q != n; q = q->next)
      if (!strcmp(q->name, n->name)) diag_error(c->d, n->span, "duplicate index '%s'", n->name);
    Type t = { TY_INT, 0, 0, 0 };
    if (v->on_board) t.kind = TY_CELL, t.lo = 0, t.hi = p->ncells - 1;
    else t.hi = v->dim[nidx < 2 ? nidx : 1] - 1;
    Local *l = cg_add_local(c, n->name, t, 1, n->span);
    if (l) l->readonly = 1;
  }
  Type pt = { TY_PLAYER, 0, 1, p->nplayers };
  Local *viewer = cg_add_local(c, " viewer", pt, 1, h->span);   /* no name a user can write */
  if (!viewer) return -1;
  p->chunks[idx].nparams = nidx + 1;
  p->chunks[idx].returns = 1;
  int *sees = NULL, nsees = 0, capsees = 0;
  if (h->c) {
    if (cg_is_constant(c, h->c))
      diag_error(c->d, h->c->span, "the condition of 'hidden %s' is constant: the view depends on "
                 "nothing (without 'when', '%s' is hidden always)", v->name, v->name);
    cg_expect(c, h->c, TY_BOOL, "the condition of 'hidden'");
    cg_list_push(&sees, &nsees, &capsees, cg_emit(c, OP_JMPF, 0, 0, h->c->span), c);
  }
  for (Node *e = h->b; e; e = e->next) {
    cg_emit(c, OP_LOADL, viewer->slot, 0, e->span);
    Type t = cg_expect(c, e, TY_PLAYER, "a player after 'seen by'");
    check_seen(c, e, t);
    cg_emit(c, OP_EQ, 0, 0, e->span);
    cg_list_push(&sees, &nsees, &capsees, cg_emit(c, OP_JMPT, 0, 0, e->span), c);
  }
  cg_emit(c, OP_CONST, 0, 0, h->span);
  cg_emit(c, OP_RET, 0, 0, h->span);
  int yes = cg_here(c);
  for (int i = 0; i < nsees; i++) cg_patch(c, sees[i], yes);
  free(sees);
  cg_emit(c, OP_CONST, 1, 0, h->span);
  cg_emit(c, OP_RET, 0, 0, h->span);
  cg_chunk_end(c, idx, OP_NORET, h->span);
  return idx;
}

void cg_views(Compiler *c) {
  Program *p = c->p;
  Resolver *r = c->r;
  if (r->nhiddens == 0) return;
  p->hidden = prog_alloc(p, (size_t)r->nhiddens * sizeof *p->hidden);
  Node **first = calloc((size_t)p->nvars + 1, sizeof *first);   /* where each var was hidden */
  if (!p->hidden || !first) { free(first); c->oom = p->oom = 1; return; }
  for (int i = 0; i < r->nhiddens; i++) {
    Node *h = r->hiddens[i];
    Symbol *s = resolve_lookup(r, h->name);
    if (!s) {
      diag_error(c->d, h->span, "unknown name '%s' (only a state variable can be hidden)", h->name);
      continue;
    }
    if (s->kind != SYM_STATE) {
      diag_error(c->d, h->span, "'%s' is a %s, not a state variable: only the state can be hidden",
                 h->name, s->kind == SYM_MOVER ? "built-in name" : resolve_kind_word(s->kind));
      continue;
    }
    const StateVar *v = &p->vars[s->index];
    if (first[s->index]) {
      diag_error(c->d, h->span, "'%s' is hidden twice", h->name);
      diag_report(c->d, "note", first[s->index]->span, "'%s' was first hidden here", h->name);
      continue;
    }
    first[s->index] = h;
    int nidx = ast_count(h->a), dims = v->ndims;
    if (nidx != 0 && nidx != dims) {
      if (dims == 0)
        diag_error(c->d, h->a->span, "'%s' is not an array: hide it as 'hidden %s'", h->name, h->name);
      else
        diag_error(c->d, h->a->span, "'%s' has %d dimension%s but 'hidden' names %d ind%s", h->name,
                   dims, dims > 1 ? "s" : "", nidx, nidx > 1 ? "ices" : "ex");
      continue;
    }
    HiddenDecl *d = &p->hidden[p->nhidden++];
    d->var = s->index;
    d->nidx = nidx;
    d->chunk = view_chunk(c, h, v);
  }
  free(first);
}
