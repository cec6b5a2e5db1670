/*
** resolve_symmetry.c -- symmetries given by generators: `symmetry cells
** PERM;` (a permutation of the board's cells) and `symmetry nodes PERM;`
** (a permutation of a graph's nodes, acting on the cells of a graph board
** or on the edges of an edges board: {u, v} goes to {p(u), p(v)}), each
** written as an image list [p(0), p(1), ...] or as disjoint cycles
** (a, b, c)(d, e).  Every declaration adds one generator (a permutation of
** the cells); resolve_symmetry_group closes them into the group.
*/
#include "compiler/resolve.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

void resolve_symmetry_add(Resolver *r, Node *s, const int32_t *perm) {
  int n = r->p->ncells;
  int32_t *g = realloc(r->sym_gens, (size_t)(r->nsym_gens + 1) * (size_t)n * sizeof *g);
  if (!g) { r->p->oom = 1; return; }
  r->sym_gens = g;
  Node **d = realloc(r->sym_gen_decl, (size_t)(r->nsym_gens + 1) * sizeof *d);
  if (!d) { r->p->oom = 1; return; }
  r->sym_gen_decl = d;
  memcpy(g + (size_t)r->nsym_gens * n, perm, (size_t)n * sizeof *g);
  d[r->nsym_gens++] = s;
}

/* One element of a permutation: a constant int (or cell) in 0..n-1. */
static int perm_element(Resolver *r, Node *e, int n, const char *what, int32_t *v) {
  int ok = 1;
  Type t;
  *v = resolve_const(r, e, &t, &ok);
  if (!ok) return 0;
  if (t.kind != TY_INT && t.kind != TY_CELL) {
    diag_error(r->d, e->span, "a permutation lists %s numbers (constant ints)", what);
    return 0;
  }
  if (*v < 0 || *v >= n) {
    diag_error(r->d, e->span, "%s %d does not exist (they are 0..%d)", what, *v, n - 1);
    return 0;
  }
  return 1;
}

/* Reads an image list or cycles over 0..n-1 into p (p[i] = image of i).
** 0 after an error, reported with a caret at the offending element. */
static int read_perm(Resolver *r, Node *s, int n, const char *what, int32_t *p) {
  Node *a = s->a;
  char *seen = calloc((size_t)n, 1);
  if (!seen) { r->p->oom = 1; return 0; }
  int ok = 1;
  if (a->op != 'c') {                           /* [p(0), p(1), ...] */
    int k = ast_count(a->a);
    if (k != n) {
      diag_error(r->d, a->span, "the image list of a permutation of %d %ss has %d entr%s, "
                 "not %d", n, what, k, k == 1 ? "y" : "ies", n);
      free(seen);
      return 0;
    }
    int i = 0;
    for (Node *e = a->a; e && ok; e = e->next, i++) {
      ok = perm_element(r, e, n, what, &p[i]);
      if (ok && seen[p[i]]) {
        diag_error(r->d, e->span, "%s %d is the image of two %ss: not a permutation", what,
                   p[i], what);
        ok = 0;
      }
      if (ok) seen[p[i]] = 1;
    }
  } else {                                      /* (a, b, c)(d, e): a -> b -> c -> a */
    for (int i = 0; i < n; i++) p[i] = i;
    for (Node *c = a; c && ok; c = c->next) {
      int32_t first = -1, prev = -1, v;
      for (Node *e = c->a; e && ok; e = e->next) {
        ok = perm_element(r, e, n, what, &v);
        if (ok && seen[v]) {
          diag_error(r->d, e->span, "%s %d appears twice: the cycles of a permutation are "
                     "disjoint", what, v);
          ok = 0;
        }
        if (!ok) break;
        seen[v] = 1;
        if (prev >= 0) p[prev] = v;
        else first = v;
        prev = v;
      }
      if (ok && prev >= 0) p[prev] = first;
    }
  }
  free(seen);
  return ok;
}

/* Whether cell a is a neighbour of cell b (graph and edges boards). */
static int adjacent(const Program *p, int a, int b) {
  for (int k = p->nbr_start[a]; k < p->nbr_start[a + 1]; k++)
    if (p->nbr[k] == b) return 1;
  return 0;
}

void resolve_symmetry_perm(Resolver *r, Node *s) {
  Program *p = r->p;
  int nodes = !strcmp(s->name, "nodes");
  if (!s->a || s->a->kind != NODE_LIST) {
    diag_error(r->d, s->span, "symmetry %s needs a permutation: [images] or (cycles)", s->name);
    return;
  }
  if (p->board == BOARD_NONE || (nodes && p->board == BOARD_RECT)) {
    diag_error(r->d, s->span, nodes ? "symmetry nodes needs a graph or edges board (on a rect "
               "board, use symmetry cells)" : "symmetry cells needs a board");
    return;
  }
  int n = nodes && p->board == BOARD_EDGES ? p->nnodes : p->ncells;
  int32_t *perm = malloc((size_t)n * sizeof *perm);
  int32_t *cells = malloc((size_t)p->ncells * sizeof *cells);
  if (!perm || !cells) { p->oom = 1; free(perm); free(cells); return; }
  if (!read_perm(r, s, n, nodes ? "node" : "cell", perm)) goto done;
  if (nodes && p->board == BOARD_EDGES) {
    /* The edge {u, v} goes to {p(u), p(v)}, which must be an edge. */
    for (int c = 0; c < p->ncells; c++) {
      int u = p->edge_end[2 * c], v = p->edge_end[2 * c + 1];
      int pu = perm[u], pv = perm[v];
      cells[c] = p->edge_at[pu * p->nnodes + pv];
      if (cells[c] < 0) {
        diag_error(r->d, s->a->span, "this permutation of the nodes does not map the graph "
                   "onto itself: edge %d-%d goes to %d-%d, which is not an edge", u, v, pu, pv);
        goto done;
      }
    }
  } else {
    memcpy(cells, perm, (size_t)p->ncells * sizeof *cells);
  }
  if (p->board != BOARD_RECT) {
    /* neighbours() must look the same from the image. */
    for (int c = 0; c < p->ncells; c++)
      for (int k = p->nbr_start[c]; k < p->nbr_start[c + 1]; k++) {
        int d = p->nbr[k];
        if (adjacent(p, cells[c], cells[d])) continue;
        char a[32], b[32], ia[32], ib[32];
        Type ct = mktype(TY_CELL, 0, p->ncells - 1);
        program_format_value(p, ct, c, a, sizeof a);
        program_format_value(p, ct, d, b, sizeof b);
        program_format_value(p, ct, cells[c], ia, sizeof ia);
        program_format_value(p, ct, cells[d], ib, sizeof ib);
        diag_error(r->d, s->a->span, "this permutation does not keep neighbours: cells %s and "
                   "%s are neighbours, their images %s and %s are not", a, b, ia, ib);
        goto done;
      }
  }
  resolve_symmetry_add(r, s, cells);
done:
  free(perm);
  free(cells);
}

/* ------------------------------------------------------------------ */
/* The group                                                          */
/* ------------------------------------------------------------------ */

/* Open addressing over the elements found so far (indices + 1). */
typedef struct ElemSet {
  uint32_t *slot;
  size_t cap;
} ElemSet;

static uint64_t perm_hash(const int32_t *e, int n) {
  uint64_t h = 0x9e3779b97f4a7c15ULL;
  for (int i = 0; i < n; i++) h = (h ^ (uint32_t)e[i]) * 0x100000001b3ULL;
  return h ^ (h >> 31);
}

/* Index of e in the set, or -1 after inserting it as element `count`. */
static int elem_find_or_add(ElemSet *s, const int32_t *elems, const int32_t *e, int n, int count) {
  size_t j = perm_hash(e, n) & (s->cap - 1);
  while (s->slot[j]) {
    int f = (int)s->slot[j] - 1;
    if (memcmp(elems + (size_t)f * n, e, (size_t)n * sizeof *e) == 0) return f;
    j = (j + 1) & (s->cap - 1);
  }
  s->slot[j] = (uint32_t)count + 1;
  return -1;
}

/* Closes the generators under composition, one generator at a time, so
** that a group over the limit names the declaration that made it so. */
void resolve_symmetry_group(Resolver *r) {
  Program *p = r->p;
  int n = p->ncells;
  p->nsym = 1;
  if (r->nsym_gens == 0 || n == 0) return;
  int limit = PROG_MAX_SYMMETRIES;
  if ((int64_t)limit * n > PROG_MAX_SYM_ENTRIES) limit = PROG_MAX_SYM_ENTRIES / n;
  size_t cap = 1;
  while (cap < (size_t)limit * 2) cap *= 2;
  ElemSet set = { calloc(cap, sizeof(uint32_t)), cap };
  int32_t *elems = malloc(((size_t)limit + 1) * (size_t)n * sizeof *elems);
  if (!set.slot || !elems) { p->oom = 1; free(set.slot); free(elems); return; }
  int count = 1;
  for (int k = 0; k < n; k++) elems[k] = k;
  elem_find_or_add(&set, elems, elems, n, 0);
  for (int gi = 0; gi < r->nsym_gens; gi++) {
    /* Breadth-first: every element times every generator so far; the
    ** elements found before this generator are multiplied again. */
    for (int e = 0; e < count; e++) {
      for (int hi = 0; hi <= gi; hi++) {
        const int32_t *g = r->sym_gens + (size_t)hi * n;
        int32_t *cand = elems + (size_t)count * n;
        for (int k = 0; k < n; k++) cand[k] = elems[(size_t)e * n + g[k]];
        if (elem_find_or_add(&set, elems, cand, n, count) >= 0) continue;
        if (++count > limit) {
          Node *s = r->sym_gen_decl[gi];
          diag_error(r->d, s->span, "the symmetry group has more than %d elements (limit is %d%s)",
                     limit, limit, limit < PROG_MAX_SYMMETRIES ? " on a board this large" : "");
          free(set.slot);
          free(elems);
          return;
        }
      }
    }
  }
  p->nsym = count;
  p->sym = prog_alloc(p, (size_t)count * (size_t)n * sizeof *p->sym);
  if (p->sym) memcpy(p->sym, elems, (size_t)count * (size_t)n * sizeof *p->sym);
  free(set.slot);
  free(elems);
}
