/*
** simultaneous.c -- `simultaneous move`: the players listed choose at
** once, and the effect sees every choice (docs/language.md, section 4.20).
**
** The declaration is lowered, on the syntax tree before any other pass,
** into the turn-based game with views that it stands for, so every
** engine, view and solver runs it unchanged:
**
**   simultaneous move bid(card: T) by A, B when COND { EFFECT }
**
** becomes
**
**   state simultaneous.round: 0..R;        // public: who has chosen
**   state bid.card[NPLAYERS]: T;           // the choices made so far,
**   hidden bid.card;                       // seen by no one (each maker
**                                          // recalls his own move)
**   move bid(card: T) when (simultaneous.round == 0 && mover == A
**                        || simultaneous.round == K + 1 && mover == B) && COND {
**     bid.card[mover] = card;
**     if mover == A { simultaneous.round = K + 1; next B; }
**     else {                                // the last chooser
**       simultaneous.round = 0;
**       { var card[NPLAYERS]: T;            // shadows the argument
**         card[A] = bid.card[A]; bid.card[A] = DEFAULT; ... the same for B
**         EFFECT }                          // card[A], card[B]: the choices
**     }
**   }
**
** and every other move of the players gets `simultaneous.round == 0 &&`
** before its condition (no other move while a round is open).  Each
** round's stages have their own values of simultaneous.round (K + 1 ..
** K + n - 1 for a move of n players), so the position says whose turn
** it is within which round.  The choices are reset to their type's
** default when the effect starts, so a position after a round does not
** remember them.  A player learns that another has chosen (the mover is
** public, and so is the round), not what.
*/
#include <stdio.h>
#include <string.h>
#include "compiler/simultaneous.h"

#define SIMUL_ROUND_NAME "simultaneous.round"

typedef struct Lower {
  ParseState *ps;
  Node *decls;                  /* the whole declaration list */
  int nplayers;
  Node *players;                /* the NODE_NAME list of `players` */
} Lower;

static Node *node(Lower *l, NodeKind k, Span at) { return ast_node(l->ps, k, at); }

static Node *name(Lower *l, Span at, const char *s) {
  Node *n = node(l, NODE_NAME, at);
  if (n) n->name = s;
  return n;
}

static Node *integer(Lower *l, Span at, int64_t v) {
  Node *n = node(l, NODE_INT, at);
  if (n) n->ival = v;
  return n;
}

static Node *binary(Lower *l, Span at, int op, Node *a, Node *b) {
  Node *n = node(l, NODE_BINARY, at);
  if (n) { n->op = op; n->a = a; n->b = b; }
  return n;
}

static Node *index1(Lower *l, Span at, Node *array, Node *i) {
  Node *n = node(l, NODE_INDEX, at);
  if (n) { n->a = array; n->b = i; }
  return n;
}

static Node *assign(Lower *l, Span at, Node *target, Node *value) {
  Node *n = node(l, NODE_ASSIGN, at);
  if (n) { n->op = '='; n->a = target; n->b = value; }
  return n;
}

static Node *block(Lower *l, Span at, Node *stmts) {
  Node *n = node(l, NODE_BLOCK, at);
  if (n) n->a = stmts;
  return n;
}

static char *joined(Lower *l, const char *a, const char *b) {
  size_t na = strlen(a), nb = strlen(b);
  char *s = arena_alloc(l->ps->arena, na + nb + 2);
  if (!s) { l->ps->oom = 1; return NULL; }
  memcpy(s, a, na);
  s[na] = '.';
  memcpy(s + na + 1, b, nb + 1);
  return s;
}

/* A copy of a type node, for a declaration of its own (the type's
** expressions are shared: the later passes only read them). */
static Node *copy_type(Lower *l, const Node *t) {
  Node *n = node(l, t->kind, t->span);
  if (!n) return NULL;
  *n = *t;
  n->next = n->last = NULL;
  return n;
}

/* The default value of a stored T (docs/language.md, section 4.7) as an
** expression: 0 if a range holds it, else its low end; false, none,
** nowhere, north, or an enumeration's first member.  NULL, with an
** error, for a type a choice cannot have. */
static Node *default_of(Lower *l, const Node *t, Span at) {
  for (int hops = 0; t && t->kind == NODE_TNAME && hops < 64; hops++) {
    const Node *d = l->decls;
    while (d && !(d->kind == NODE_TYPEDEF && d->name && strcmp(d->name, t->name) == 0)) d = d->next;
    if (!d) return integer(l, at, 0);   /* unknown: the resolver says so */
    t = d->a;
  }
  if (!t) return integer(l, at, 0);
  switch (t->kind) {
  case NODE_TRANGE: {
    /* (lo <= 0 && 0 <= hi) ? 0 : lo, folded by the compiler. */
    Node *c = node(l, NODE_COND, at);
    if (!c) return NULL;
    c->a = binary(l, at, OPR_AND, binary(l, at, OPR_LE, t->a, integer(l, at, 0)),
                  binary(l, at, OPR_LE, integer(l, at, 0), t->b));
    c->b = integer(l, at, 0);
    c->c = t->a;
    return c;
  }
  case NODE_TBOOL: { Node *b = node(l, NODE_BOOL, at); if (b) b->ival = 0; return b; }
  case NODE_TPLAYER: return name(l, at, "none");
  case NODE_TCELL: return name(l, at, "nowhere");
  case NODE_TDIR: return name(l, at, "north");
  case NODE_TENUM: return t->a ? name(l, at, t->a->name) : integer(l, at, 0);
  default: return integer(l, at, 0);
  }
}

/* The player of a `by` list, or -1 with an error. */
static int player_index(Lower *l, const Node *e) {
  if (e->kind == NODE_NAME) {
    int i = 0;
    for (const Node *p = l->players; p; p = p->next, i++)
      if (strcmp(p->name, e->name) == 0) return i;
  }
  if (e->kind == NODE_NAME)
    diag_error(l->ps->diag, e->span, "'%s' is not a player: a simultaneous move is made by players "
               "named in 'players'", e->name);
  else
    diag_error(l->ps->diag, e->span, "a simultaneous move is made by players named in 'players', "
               "not by an expression");
  return -1;
}

/* `ROUND == v && mover == P` */
static Node *stage_test(Lower *l, Span at, int v, Node *player) {
  return binary(l, at, OPR_AND, binary(l, at, OPR_EQ, name(l, at, SIMUL_ROUND_NAME), integer(l, at, v)),
                binary(l, at, OPR_EQ, name(l, at, "mover"), name(l, at, player->name)));
}

/* Lowers one simultaneous move m, whose stages after the first are
** round values base + 1 .. base + n - 1; its generated declarations are
** appended to *extra.  0 on an error (reported). */
static int lower_move(Lower *l, Node *m, int base, Node **extra) {
  Diag *d = l->ps->diag;
  Span at = m->span;
  Node *by[GAME_MAX_PLAYERS_SIMUL];
  int n = 0, ok = 1;
  for (Node *e = m->e; e; e = e->next) {
    int i = player_index(l, e);
    if (i < 0) { ok = 0; continue; }
    for (int k = 0; k < n; k++)
      if (strcmp(by[k]->name, e->name) == 0) {
        diag_error(d, e->span, "'%s' is listed twice: each player makes one choice", e->name);
        ok = 0;
      }
    if (n < GAME_MAX_PLAYERS_SIMUL) by[n++] = (Node *)e;
  }
  if (!ok) return 0;
  if (n < 2) {
    diag_error(d, at, "a simultaneous move needs two players or more after 'by' (one player's is an "
               "ordinary move)");
    return 0;
  }
  for (Node *pd = m->a; pd; pd = pd->next) {
    if (pd->a && (pd->a->kind == NODE_TSET || pd->a->kind == NODE_TENUM)) {
      diag_error(d, pd->a->span, "a simultaneous move's choice '%s' needs a type a state variable "
                 "can have (a range or a declared type), not %s", pd->name,
                 pd->a->kind == NODE_TSET ? "a list ('in')" : "an enumeration in place");
      return 0;
    }
  }
  /* The declarations: each argument's choices, hidden from the others. */
  for (Node *pd = m->a; pd; pd = pd->next) {
    const char *store = joined(l, m->name, pd->name);
    Node *st = node(l, NODE_STATE, pd->span), *hd = node(l, NODE_HIDDEN, pd->span);
    if (!store || !st || !hd) return 0;
    st->name = store;
    st->a = copy_type(l, pd->a);
    st->c = integer(l, pd->span, l->nplayers);
    /* Hidden from everyone: the maker knows his choice as his own move. */
    hd->name = store;
    *extra = ast_append(*extra, st);
    *extra = ast_append(*extra, hd);
  }
  /* The condition: the mover's stage of the round, then the rule's own. */
  Node *stage = NULL;
  for (int k = 0; k < n; k++) {
    Node *t = stage_test(l, at, k == 0 ? 0 : base + k, by[k]);
    stage = stage ? binary(l, at, OPR_OR, stage, t) : t;
  }
  m->b = m->b ? binary(l, at, OPR_AND, stage, m->b) : stage;
  /* The effect: store the choice; pass to the next chooser, or open the
  ** choices (the last). */
  Node *stmts = NULL;
  for (Node *pd = m->a; pd; pd = pd->next)
    stmts = ast_append(stmts, assign(l, at, index1(l, at, name(l, at, joined(l, m->name, pd->name)),
                                                   name(l, at, "mover")),
                                     name(l, at, pd->name)));
  Node *last = NULL;
  last = ast_append(last, assign(l, at, name(l, at, SIMUL_ROUND_NAME), integer(l, at, 0)));
  Node *open = NULL;
  for (Node *pd = m->a; pd; pd = pd->next) {
    Node *v = node(l, NODE_VAR, pd->span);
    if (!v) return 0;
    v->name = pd->name;
    v->a = copy_type(l, pd->a);
    v->c = integer(l, pd->span, l->nplayers);
    open = ast_append(open, v);
    const char *store = joined(l, m->name, pd->name);
    for (int k = 0; k < n; k++) {
      open = ast_append(open, assign(l, at, index1(l, at, name(l, at, pd->name), name(l, at, by[k]->name)),
                                     index1(l, at, name(l, at, store), name(l, at, by[k]->name))));
      open = ast_append(open, assign(l, at, index1(l, at, name(l, at, store), name(l, at, by[k]->name)),
                                     default_of(l, pd->a, at)));
    }
  }
  open = ast_append(open, m->c);
  last = ast_append(last, block(l, at, open));
  /* if mover == by[0] { ... } else if ... else { last } */
  Node *chain = block(l, at, last);
  for (int k = n - 2; k >= 0; k--) {
    Node *step = NULL, *nx = node(l, NODE_NEXT, at), *iff = node(l, NODE_IF, at);
    if (!nx || !iff) return 0;
    step = ast_append(step, assign(l, at, name(l, at, SIMUL_ROUND_NAME), integer(l, at, base + k + 1)));
    nx->a = name(l, at, by[k + 1]->name);
    step = ast_append(step, nx);
    iff->a = binary(l, at, OPR_EQ, name(l, at, "mover"), name(l, at, by[k]->name));
    iff->b = block(l, at, step);
    iff->c = chain;
    chain = iff;
  }
  stmts = ast_append(stmts, chain);
  m->c = block(l, at, stmts);
  m->op = 0;
  m->e = NULL;
  return !l->ps->oom;
}

int simul_lower(ParseState *ps) {
  Lower l = { ps, ps->root, 0, NULL };
  Node *players = NULL, *first_simul = NULL;
  int nsimul = 0, stages = 0, ok = 1;
  for (Node *n = ps->root; n; n = n->next) {
    if (n->kind == NODE_PLAYERS && !players) players = n;
    if (n->kind == NODE_MOVE && n->op == 2) {
      if (nsimul++ == 0) first_simul = n;
      stages += ast_count(n->e) - 1;
    }
  }
  if (nsimul == 0) return 1;
  if (!players) return 1;          /* the resolver reports it */
  l.players = players->a;
  l.nplayers = ast_count(players->a);
  Node *extra = NULL;
  int base = 0;
  for (Node *n = ps->root; n; n = n->next) {
    if (n->kind != NODE_MOVE) continue;
    if (n->op == 2) {
      int count = ast_count(n->e);
      ok = lower_move(&l, n, base, &extra) && ok;
      base += count - 1;
    } else if (n->op == 0) {
      /* No other move of a player while a round is open. */
      Node *closed = binary(&l, n->span, OPR_EQ, name(&l, n->span, SIMUL_ROUND_NAME),
                            integer(&l, n->span, 0));
      n->b = n->b ? binary(&l, n->span, OPR_AND, closed, n->b) : closed;
    }
  }
  if (!ok || ps->oom) return 0;
  /* The round's state, and the choices, right before the first
  ** simultaneous move (after the types its choices may name). */
  Node *first = ps->root, *before = NULL;
  while (first != first_simul) before = first, first = first->next;
  Node *round = node(&l, NODE_STATE, first->span);
  Node *type = node(&l, NODE_TRANGE, first->span);
  if (!round || !type) return 0;
  round->name = SIMUL_ROUND_NAME;
  type->a = integer(&l, first->span, 0);
  type->b = integer(&l, first->span, stages > 0 ? stages : 1);
  round->a = type;
  round->next = extra;
  round->last = NULL;
  Node *tail = round;
  while (tail->next) tail = tail->next;
  tail->next = first;
  if (before) before->next = round;
  else ps->root = round;
  /* The list's head keeps its last node (ast_append). */
  Node *end = ps->root;
  while (end->next) end = end->next;
  ps->root->last = end;
  return !ps->oom;
}
