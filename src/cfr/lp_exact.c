/*
** lp_exact.c -- an optimal basis's vertex in fractions (see lp_exact.h).
**
** The unknowns are the basic columns, the equations the rows GLPK holds
** at a bound (as many: a basis has one basic variable per row, a row's
** own or a column).  Each row is a sorted sparse vector of fractions;
** each column keeps the rows that may hold it (stale ones are skipped).
** Gauss-Jordan: the pivot is taken in the shortest remaining row, in its
** column held by the fewest rows, and eliminated from every other row,
** so that each row ends with its pivot alone.
*/
#include <stdlib.h>
#include <string.h>
#include "cfr/lp_exact.h"
#include "util/stop.h"

typedef struct QRow {
  uint32_t n, cap;
  uint32_t *col;                /* sorted */
  mpq_t *v;                     /* nonzero; slots up to cap initialized */
  mpq_t rhs;
  int done;                     /* pivoted */
  uint32_t pivot;
} QRow;

typedef struct QCol {
  uint32_t n, cap;
  uint32_t *row;
} QCol;

static int reserve(QRow *r, uint32_t n) {
  if (n <= r->cap) return 0;
  uint32_t cap = r->cap ? r->cap : 4;
  while (cap < n) cap *= 2;
  uint32_t *c = realloc(r->col, cap * sizeof *c);
  if (c == NULL) return -1;
  r->col = c;
  mpq_t *v = realloc(r->v, cap * sizeof *v);
  if (v == NULL) return -1;
  r->v = v;
  for (uint32_t i = r->cap; i < cap; i++) mpq_init(r->v[i]);
  r->cap = cap;
  return 0;
}

static int col_add(QCol *c, uint32_t row) {
  if (c->n == c->cap) {
    uint32_t cap = c->cap ? 2 * c->cap : 4;
    uint32_t *r = realloc(c->row, cap * sizeof *r);
    if (r == NULL) return -1;
    c->row = r;
    c->cap = cap;
  }
  c->row[c->n++] = row;
  return 0;
}

/* The entry of column c in row r, or -1. */
static int64_t find(const QRow *r, uint32_t c) {
  uint32_t lo = 0, hi = r->n;
  while (lo < hi) {
    uint32_t mid = (lo + hi) / 2;
    if (r->col[mid] < c) lo = mid + 1;
    else hi = mid;
  }
  return lo < r->n && r->col[lo] == c ? (int64_t)lo : -1;
}

/* Row r -= factor * row p (index ri), through scratch s; new columns of
** r join their column's list.  0 or -1. */
static int axpy(QRow *rows, QCol *cols, uint32_t ri, const QRow *p, mpq_srcptr factor, QRow *s,
                mpq_ptr tmp) {
  QRow *r = &rows[ri];
  uint32_t i = 0, j = 0, k = 0;
  if (reserve(s, r->n + p->n) != 0) return -1;
  while (i < r->n || j < p->n) {
    if (j >= p->n || (i < r->n && r->col[i] < p->col[j])) {
      s->col[k] = r->col[i];
      mpq_swap(s->v[k++], r->v[i++]);
    } else if (i >= r->n || p->col[j] < r->col[i]) {
      s->col[k] = p->col[j];
      mpq_mul(s->v[k], factor, p->v[j]);
      mpq_neg(s->v[k], s->v[k]);
      k++;
      if (col_add(&cols[p->col[j]], ri) != 0) return -1;
      j++;
    } else {
      mpq_mul(tmp, factor, p->v[j]);
      mpq_sub(s->v[k], r->v[i], tmp);
      if (mpq_sgn(s->v[k]) != 0) s->col[k++] = r->col[i];
      i++;
      j++;
    }
  }
  if (reserve(r, k) != 0) return -1;
  for (uint32_t t = 0; t < k; t++) {
    r->col[t] = s->col[t];
    mpq_swap(r->v[t], s->v[t]);
  }
  r->n = k;
  mpq_mul(tmp, factor, p->rhs);
  mpq_sub(r->rhs, r->rhs, tmp);
  return 0;
}

static void free_row(QRow *r) {
  for (uint32_t i = 0; i < r->cap; i++) mpq_clear(r->v[i]);
  free(r->v);
  free(r->col);
  mpq_clear(r->rhs);
}

/* Solves the square system of n equations in n unknowns given as
** triplets (eq[k], var[k], val[k]), k < nz, with right-hand sides rhs:
** the unknowns into out.  0, or -1 (singular, stopped, out of memory). */
static int qsolve(uint32_t n, size_t nz, const uint32_t *eq, const uint32_t *var, mpq_t *val,
                  mpq_t *rhs, mpq_t *out) {
  int rc = -1;
  QRow *rows = calloc(n ? n : 1, sizeof *rows), scratch;
  QCol *cols = calloc(n ? n : 1, sizeof *cols);
  mpq_t tmp, factor;
  memset(&scratch, 0, sizeof scratch);
  mpq_init(scratch.rhs);
  mpq_init(tmp);
  mpq_init(factor);
  if (!rows || !cols) goto out;
  for (uint32_t i = 0; i < n; i++) {
    mpq_init(rows[i].rhs);
    mpq_set(rows[i].rhs, rhs[i]);
  }
  /* The triplets as sorted rows. */
  for (size_t k = 0; k < nz; k++) {
    if (mpq_sgn(val[k]) == 0) continue;
    QRow *r = &rows[eq[k]];
    uint32_t c = var[k];
    if (reserve(r, r->n + 1) != 0) goto out;
    uint32_t at = r->n;
    while (at > 0 && r->col[at - 1] > c) {
      r->col[at] = r->col[at - 1];
      mpq_swap(r->v[at], r->v[at - 1]);
      at--;
    }
    r->col[at] = c;
    mpq_set(r->v[at], val[k]);
    r->n++;
    if (col_add(&cols[c], eq[k]) != 0) goto out;
  }
  for (uint32_t step = 0; step < n; step++) {
    if (stop_requested) goto out;
    /* The shortest row left, its column held by the fewest rows. */
    int64_t best = -1;
    for (uint32_t i = 0; i < n; i++)
      if (!rows[i].done && (best < 0 || rows[i].n < rows[best].n)) best = i;
    QRow *p = &rows[best];
    if (p->n == 0) goto out;                     /* singular */
    uint32_t pc = p->col[0];
    for (uint32_t t = 1; t < p->n; t++)
      if (cols[p->col[t]].n < cols[pc].n) pc = p->col[t];
    p->done = 1;
    p->pivot = pc;
    mpq_srcptr pv = p->v[find(p, pc)];
    /* Each other row holding the column loses it (the list may grow
    ** meanwhile with rows already in it: its length taken first). */
    QCol *c = &cols[pc];
    uint32_t len = c->n;
    for (uint32_t t = 0; t < len; t++) {
      uint32_t ri = c->row[t];
      if (ri == (uint32_t)best) continue;
      int64_t at = find(&rows[ri], pc);
      if (at < 0) continue;
      mpq_div(factor, rows[ri].v[at], pv);
      if (axpy(rows, cols, ri, p, factor, &scratch, tmp) != 0) goto out;
      p = &rows[best];
      pv = p->v[find(p, pc)];
    }
    c->row[0] = (uint32_t)best;           /* the list is now the pivot row alone */
    c->n = 1;
  }
  for (uint32_t i = 0; i < n; i++) {
    if (rows[i].n != 1) goto out;
    mpq_div(out[rows[i].pivot], rows[i].rhs, rows[i].v[0]);
  }
  rc = 0;
out:
  if (rows != NULL)
    for (uint32_t i = 0; i < n; i++) free_row(&rows[i]);
  if (cols != NULL)
    for (uint32_t i = 0; i < n; i++) free(cols[i].row);
  free(rows);
  free(cols);
  free_row(&scratch);
  mpq_clear(tmp);
  mpq_clear(factor);
  return rc;
}

/* The basis's system: basic columns and tight rows numbered (-1 the
** others); 0 when they are as many, else -1. */
static int number(glp_prob *P, int nrows, int ncols, int *colno, int *rowno, uint32_t *n) {
  uint32_t nu = 0, ne = 0;
  for (int c = 1; c <= ncols; c++) colno[c] = glp_get_col_stat(P, c) == GLP_BS ? (int)nu++ : -1;
  for (int r = 1; r <= nrows; r++) rowno[r] = glp_get_row_stat(P, r) == GLP_BS ? -1 : (int)ne++;
  *n = nu;
  return nu == ne ? 0 : -1;
}

/* The solve of lp_exact_vertex (dual 0) or lp_exact_duals (dual 1). */
static int basis_solve(glp_prob *P, int nrows, int ncols, const int *ia, const int *ja,
                       mpq_t *qa, size_t nz, mpq_t *out, int dual) {
  int *colno = malloc((size_t)(ncols + 1) * sizeof *colno);
  int *rowno = malloc((size_t)(nrows + 1) * sizeof *rowno);
  uint32_t *eq = malloc((nz ? nz : 1) * sizeof *eq), *var = malloc((nz ? nz : 1) * sizeof *var);
  mpq_t *val = malloc((nz ? nz : 1) * sizeof *val), *rhs = NULL, *x = NULL;
  uint32_t n = 0;
  size_t m = 0;
  int rc = -1;
  if (!colno || !rowno || !eq || !var || !val || number(P, nrows, ncols, colno, rowno, &n) != 0)
    goto out;
  rhs = malloc((n ? n : 1) * sizeof *rhs);
  x = malloc((n ? n : 1) * sizeof *x);
  if (!rhs || !x) goto out;
  for (uint32_t i = 0; i < n; i++) {
    mpq_init(rhs[i]);
    mpq_init(x[i]);
  }
  /* Primal: tight rows' equations in the basic columns (the others are
  ** 0), right-hand sides the rows' bounds.  Dual: the basic columns'
  ** equations (reduced cost 0) in the tight rows' duals (the basic rows'
  ** are 0), right-hand sides the objective's coefficients. */
  for (size_t k = 1; k <= nz; k++) {
    if (rowno[ia[k]] < 0 || colno[ja[k]] < 0) continue;
    eq[m] = (uint32_t)(dual ? colno[ja[k]] : rowno[ia[k]]);
    var[m] = (uint32_t)(dual ? rowno[ia[k]] : colno[ja[k]]);
    val[m][0] = qa[k][0];       /* shared, not copied: read only */
    m++;
  }
  if (dual) {
    for (int c = 1; c <= ncols; c++)
      if (colno[c] >= 0) mpq_set_d(rhs[colno[c]], glp_get_obj_coef(P, c));
  } else {
    for (int r = 1; r <= nrows; r++)
      if (rowno[r] >= 0)
        mpq_set_d(rhs[rowno[r]], glp_get_row_stat(P, r) == GLP_NU ? glp_get_row_ub(P, r)
                                                                  : glp_get_row_lb(P, r));
  }
  if (qsolve(n, m, eq, var, val, rhs, x) != 0) goto out;
  if (dual) {
    for (int r = 1; r <= nrows; r++) {
      if (rowno[r] >= 0) mpq_set(out[r - 1], x[rowno[r]]);
      else mpq_set_ui(out[r - 1], 0, 1);
    }
  } else {
    for (int c = 1; c <= ncols; c++) {
      if (colno[c] >= 0) mpq_set(out[c - 1], x[colno[c]]);
      else mpq_set_ui(out[c - 1], 0, 1);
    }
  }
  rc = 0;
out:
  for (uint32_t i = 0; rhs && x && i < n; i++) {
    mpq_clear(rhs[i]);
    mpq_clear(x[i]);
  }
  free(rhs);
  free(x);
  free(colno);
  free(rowno);
  free(eq);
  free(var);
  free(val);
  return rc;
}

int lp_exact_vertex(glp_prob *P, int nrows, int ncols, const int *ia, const int *ja, mpq_t *qa,
                    size_t nz, mpq_t *colval) {
  return basis_solve(P, nrows, ncols, ia, ja, qa, nz, colval, 0);
}

int lp_exact_duals(glp_prob *P, int nrows, int ncols, const int *ia, const int *ja, mpq_t *qa,
                   size_t nz, mpq_t *rowdual) {
  return basis_solve(P, nrows, ncols, ia, ja, qa, nz, rowdual, 1);
}
