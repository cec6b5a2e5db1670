/*
** resolve_board.c -- the board (rect, graph or edges: cells, steps,
** adjacency), the symmetry declarations (their group in
** resolve_symmetry.c), and the repetition rule.
*/
#include "compiler/resolve.h"

#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* The board                                                          */
/* ------------------------------------------------------------------ */

/* Whether edges i and j (different) share a node. */
static int share_node(const Program *p, int i, int j) {
  const int32_t *a = p->edge_end + 2 * i, *b = p->edge_end + 2 * j;
  return i != j && (a[0] == b[0] || a[0] == b[1] || a[1] == b[0] || a[1] == b[1]);
}

/* board edges(nodes, [a1, b1, ...]): the cells are the edges of the
** graph, in list order; neighbours(e) are the edges that share a node with
** e; edge_between(a, b) and endpoint(e, i) read the tables made here. */
static void declare_edges(Resolver *r, Node *decl, int n, Type et) {
  Program *p = r->p;
  Node *edges = decl->a->next;
  int ne = et.hi / 2;
  if (n > PROG_MAX_EDGE_NODES || ne < 1 || ne > PROG_MAX_CELLS) {
    diag_error(r->d, decl->span, "an edges board has 1 to %d nodes and 1 to %d edges",
               PROG_MAX_EDGE_NODES, PROG_MAX_CELLS);
    return;
  }
  p->edge_end = prog_alloc(p, (size_t)2 * ne * sizeof(int32_t));
  p->edge_at = prog_alloc(p, (size_t)n * n * sizeof(int32_t));
  if (!p->edge_end || !p->edge_at) return;
  for (int i = 0; i < n * n; i++) p->edge_at[i] = -1;
  for (int i = 0; i < ne; i++) {
    int a = p->konst[et.lo + 2 * i], b = p->konst[et.lo + 2 * i + 1];
    if (a < 0 || a >= n || b < 0 || b >= n || a == b || p->edge_at[a * n + b] >= 0) {
      diag_error(r->d, edges->span, "edge %d-%d: nodes are 0..%d, an edge joins two different "
                 "nodes and appears once", a, b, n - 1);
      return;
    }
    p->edge_end[2 * i] = a;
    p->edge_end[2 * i + 1] = b;
    p->edge_at[a * n + b] = p->edge_at[b * n + a] = i;
  }
  /* Adjacency: edges sharing a node, in edge order. */
  int total = 0;
  for (int i = 0; i < ne; i++)
    for (int j = 0; j < ne; j++)
      total += share_node(p, i, j);
  p->nbr_start = prog_alloc(p, (size_t)(ne + 1) * sizeof(int));
  p->nbr = prog_alloc(p, (size_t)(total + 1) * sizeof(int));
  if (!p->nbr_start || !p->nbr) return;
  int k = 0;
  for (int i = 0; i < ne; i++) {
    p->nbr_start[i] = k;
    for (int j = 0; j < ne; j++)
      if (share_node(p, i, j))
        p->nbr[k++] = j;
  }
  p->nbr_start[ne] = k;
  p->edge_end_k = resolve_konst_add(p, p->edge_end, 2 * ne);
  p->edge_at_k = resolve_konst_add(p, p->edge_at, n * n);
  if (p->edge_end_k < 0 || p->edge_at_k < 0) { p->oom = 1; return; }
  p->board = BOARD_EDGES;
  p->nnodes = n;
  p->width = ne;
  p->height = 1;
  p->ncells = ne;
  Type ct = mktype(TY_INT, p->ncells, p->ncells);
  resolve_declare_value(r, "cells", ct, p->ncells);
}

void resolve_declare_board(Resolver *r, Node *decl) {
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
  } else if (!strcmp(decl->name, "graph") || !strcmp(decl->name, "edges")) {
    if (nargs != 2) {
      diag_error(r->d, decl->span, "%s takes 2 arguments (nodes, edges), not %d", decl->name, nargs);
      return;
    }
    int32_t n = resolve_const(r, decl->a, &t, &ok);
    Node *edges = decl->a->next;
    Type et;
    if (edges->kind == NODE_LIST) et = resolve_const_list(r, edges, &ok);
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
    if (decl->name[0] == 'e') {
      declare_edges(r, decl, n, et);
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
    diag_error(r->d, decl->span, "unknown board kind '%s' (expected rect, graph or edges)",
               decl->name);
    return;
  }
  Type ct = mktype(TY_INT, p->ncells, p->ncells);
  resolve_declare_value(r, "cells", ct, p->ncells);
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

/* A symmetry's `when COND`: 1 when it is in force with these parameters
** (or has no condition), 0 when not or when COND is not a constant bool. */
static int symmetry_in_force(Resolver *r, Node *s) {
  if (!s->b) return 1;
  int ok = 1;
  Type t;
  int32_t v = resolve_const(r, s->b, &t, &ok);
  if (!ok) return 0;
  if (t.kind != TY_BOOL) {
    diag_error(r->d, s->b->span, "the condition of 'symmetry' must be bool");
    return 0;
  }
  return v != 0;
}

void resolve_check_symmetry(Resolver *r, Node *s) {
  Program *p = r->p;
  const char *k = s->name;
  if (!symmetry_in_force(r, s)) return;   /* `when COND` false: not a generator */
  if (!strcmp(k, "mirror") || !strcmp(k, "flip") || !strcmp(k, "rotate")) {
    if (p->board != BOARD_RECT) {
      diag_error(r->d, s->span, "symmetry '%s' needs a rect board", k);
      return;
    }
    if (s->a) { diag_error(r->d, s->a->span, "symmetry '%s' takes no operand", k); return; }
    int32_t *perm = malloc((size_t)p->ncells * sizeof *perm);
    if (!perm) { p->oom = 1; return; }
    for (int c = 0; c < p->ncells; c++) perm[c] = map_cell(p, k, c);
    resolve_symmetry_add(r, s, perm);
    free(perm);
    return;
  }
  if (!strcmp(k, "cells") || !strcmp(k, "nodes")) {
    resolve_symmetry_perm(r, s);
    return;
  }
  if (!strcmp(k, "permute")) {
    if (!s->a || s->a->kind != NODE_NAME) {
      diag_error(r->d, s->a ? s->a->span : s->span, "permute needs a state array: symmetry permute NAME;");
      return;
    }
    Symbol *sym = resolve_lookup(r, s->a->name);
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
  diag_error(r->d, s->span, "unknown symmetry '%s' (expected mirror, flip, rotate, cells, nodes "
             "or permute)", k);
}

/* The state variable a clause of `pieces` names (`castling V "KQkq"`,
** `en_passant V`, ...), or NULL after an error saying it must be `what`. */
static const StateVar *piece_field(Resolver *r, const Node *clause, const char *what) {
  const Node *v = clause->a;
  Symbol *sym = resolve_lookup(r, v->name);
  if (!sym || sym->kind != SYM_STATE) {
    diag_error(r->d, v->span, "%s needs %s; '%s' is not a state variable", clause->name, what, v->name);
    return NULL;
  }
  return &r->p->vars[sym->index];
}

/* One clause after the letters of `pieces`: `check F` (SAN's '+'), or a
** FEN field mapped on the state: `castling V "KQkq"` (V[i] the right of
** letter i), `en_passant V` (a cell), `halfmove V`, `fullmove V` (ranges). */
static void pieces_clause(Resolver *r, const Node *cl, const Node *clauses) {
  Program *p = r->p;
  static const char *const words[] = { "check", "castling", "en_passant", "halfmove", "fullmove" };
  int w = -1;
  for (int i = 0; i < 5; i++)
    if (!strcmp(cl->name, words[i])) w = i;
  if (w < 0) {
    diag_error(r->d, cl->span, "expected check, castling, en_passant, halfmove or fullmove after "
               "the letters of 'pieces', not '%s'", cl->name);
    return;
  }
  for (const Node *o = clauses; o != cl; o = o->next)
    if (!strcmp(o->name, cl->name)) {
      diag_error(r->d, cl->span, "'%s' appears twice in 'pieces'", cl->name);
      return;
    }
  if ((w == 1) != (cl->b != NULL)) {
    diag_error(r->d, cl->b ? cl->b->span : cl->a->span, w == 1
               ? "castling needs the letters of the rights after the array: castling V \"KQkq\""
               : "only castling takes letters");
    return;
  }
  if (w == 0) { r->pieces_check = cl->a; return; }   /* checked once functions are compiled */
  const StateVar *v;
  if (w == 1) {
    if (!(v = piece_field(r, cl, "an array of bool, one per letter"))) return;
    const char *letters = cl->b->name;
    size_t len = strlen(letters);
    if (v->ndims != 1 || v->on_board || v->elem.kind != TY_BOOL || (size_t)v->dim[0] != len) {
      diag_error(r->d, cl->a->span, "castling needs an array of bool, one per letter (%zu); '%s' is not one",
                 len, v->name);
      return;
    }
    for (size_t i = 0; i < len; i++) {
      unsigned char ch = (unsigned char)letters[i];
      if (!((ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z')) || strchr(letters + i + 1, ch)) {
        diag_error(r->d, cl->b->span, "the letters of castling must be distinct letters ('%c')", ch);
        return;
      }
    }
    p->fen_castle_base = v->base;
    p->fen_castle_letters = letters;
    return;
  }
  if (w == 2) {
    if (!(v = piece_field(r, cl, "a cell variable"))) return;
    if (v->ndims != 0 || v->elem.kind != TY_CELL) {
      diag_error(r->d, cl->a->span, "en_passant needs a cell variable; '%s' is not one", v->name);
      return;
    }
    p->fen_ep_slot = v->base;
    return;
  }
  if (!(v = piece_field(r, cl, "an integer variable"))) return;
  if (v->ndims != 0 || v->elem.kind != TY_INT) {
    diag_error(r->d, cl->a->span, "%s needs an integer variable (a range); '%s' is not one", cl->name, v->name);
    return;
  }
  if (w == 3) p->fen_half_slot = v->base;
  else p->fen_full_slot = v->base;
}

/* pieces NAME "LETTERS" [clauses];  the letter of each value of a board
** array (value k + 1 is LETTERS[k], 0 an empty cell), for --fen and
** notation, and the state that FEN's other fields set. */
void resolve_declare_pieces(Resolver *r, Node *n) {
  Program *p = r->p;
  Symbol *sym = resolve_lookup(r, n->name);
  const char *letters = n->a->name;
  if (p->piece_letters) { diag_error(r->d, n->span, "a second 'pieces' declaration"); return; }
  if (!sym || sym->kind != SYM_STATE || !p->vars[sym->index].on_board || p->board != BOARD_RECT) {
    diag_error(r->d, n->span, "'%s' is not a state array over a rect board ([board])", n->name);
    return;
  }
  const StateVar *v = &p->vars[sym->index];
  size_t len = strlen(letters);
  if (len == 0 || p->lo[v->base] != 0 || (int64_t)len > (int64_t)p->hi[v->base]) {
    diag_error(r->d, n->a->span, "'pieces' has %zu letters, but '%s' holds 0..%d (0 is an "
               "empty cell; the values 1, 2, ... take one letter each)", len, n->name,
               p->hi[v->base]);
    return;
  }
  for (size_t i = 0; i < len; i++) {
    unsigned char ch = (unsigned char)letters[i];
    if (!((ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z')) || strchr(letters + i + 1, ch)) {
      diag_error(r->d, n->a->span, "the letters of 'pieces' must be distinct letters ('%c')", ch);
      return;
    }
  }
  p->pieces_base = v->base;
  p->piece_letters = letters;
  for (const Node *cl = n->b; cl; cl = cl->next) pieces_clause(r, cl, n->b);
}

/* ------------------------------------------------------------------ */
/* The repetition rule                                                */
/* ------------------------------------------------------------------ */

/* repetition forbidden|draw [of NAMES] [except RULES] [when COND]; */
void resolve_declare_repetition(Resolver *r, Node *n) {
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
