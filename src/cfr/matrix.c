/*
** matrix.c -- backward induction with a matrix game at each simultaneous
** round (see matrix.h).
*/
#include <glpk.h>
#include <stdlib.h>
#include <string.h>
#include "cfr/matrix.h"
#include "util/diag.h"
#include "util/status.h"

typedef struct Walk {
  const GameTree *t;
  double *s;                    /* the strategy being written */
  uint32_t *count;              /* per infoset: its positions */
  FILE *err;
  int status;                   /* EXIT_OK until something fails */
} Walk;

/* One linear program: max v subject to, for each column j,
** sum_i a[i][j] x_i >= v, sum_i x_i = 1, x >= 0 (the row player's
** guarantee); with `transpose`, the same for the column player who
** minimises: min w subject to sum_j a[i][j] y_j <= w. */
static int solve_side(const double *a, int rows, int cols, int column_player, double *value,
                      double *out) {
  int n = column_player ? cols : rows, m = column_player ? rows : cols;
  glp_prob *lp = glp_create_prob();
  int *ia = malloc(((size_t)(n + 1) * (m + 1) + 1) * sizeof *ia);
  int *ja = malloc(((size_t)(n + 1) * (m + 1) + 1) * sizeof *ja);
  double *ar = malloc(((size_t)(n + 1) * (m + 1) + 1) * sizeof *ar);
  int ok = lp && ia && ja && ar;
  if (ok) {
    glp_set_obj_dir(lp, column_player ? GLP_MIN : GLP_MAX);
    glp_add_rows(lp, m + 1);
    glp_add_cols(lp, n + 1);
    for (int i = 1; i <= n; i++) glp_set_col_bnds(lp, i, GLP_LO, 0.0, 0.0);
    glp_set_col_bnds(lp, n + 1, GLP_FR, 0.0, 0.0);
    glp_set_obj_coef(lp, n + 1, 1.0);
    int k = 0;
    for (int r = 1; r <= m; r++) {
      /* The opponent's pure strategy r: sum a x - v >= 0 (<= 0 for the
      ** column player). */
      glp_set_row_bnds(lp, r, column_player ? GLP_UP : GLP_LO, 0.0, 0.0);
      for (int i = 1; i <= n; i++) {
        double e = column_player ? a[(size_t)(r - 1) * cols + (i - 1)] : a[(size_t)(i - 1) * cols + (r - 1)];
        if (e == 0) continue;
        k++; ia[k] = r; ja[k] = i; ar[k] = e;
      }
      k++; ia[k] = r; ja[k] = n + 1; ar[k] = -1.0;
    }
    glp_set_row_bnds(lp, m + 1, GLP_FX, 1.0, 1.0);
    for (int i = 1; i <= n; i++) { k++; ia[k] = m + 1; ja[k] = i; ar[k] = 1.0; }
    glp_load_matrix(lp, k, ia, ja, ar);
    glp_smcp parm;
    glp_init_smcp(&parm);
    parm.msg_lev = GLP_MSG_OFF;
    ok = glp_simplex(lp, &parm) == 0 && glp_get_status(lp) == GLP_OPT;
    if (ok) {
      *value = glp_get_obj_val(lp);
      double sum = 0;
      for (int i = 0; i < n; i++) {
        out[i] = glp_get_col_prim(lp, i + 1);
        if (out[i] < 0) out[i] = 0;
        sum += out[i];
      }
      for (int i = 0; i < n; i++) out[i] = sum > 0 ? out[i] / sum : 1.0 / n;
    }
  }
  if (lp) glp_delete_prob(lp);
  free(ia);
  free(ja);
  free(ar);
  return ok ? 0 : -1;
}

int matrix_game(const double *a, int rows, int cols, double *value, double *x, double *y) {
  double w;
  glp_term_out(GLP_OFF);
  if (solve_side(a, rows, cols, 0, value, x) != 0) return -1;
  return solve_side(a, rows, cols, 1, &w, y);
}

static void set_pure(Walk *w, uint32_t set, int k) {
  const GtInfoset *is = &w->t->infosets[set];
  for (int i = 0; i < is->nactions; i++) w->s[is->action + i] = i == k;
}

static double value_of(Walk *w, uint32_t n);

/* The decision position n of player p, one position of its set: the best
** of its moves, a group of moves into one set of the other player's (a
** simultaneous round) counting as a matrix game. */
static double decide(Walk *w, uint32_t n, int p) {
  const GameTree *t = w->t;
  uint32_t set = t->data[n];
  int nact = t->infosets[set].nactions;
  double best = 0;
  int have = 0, best_k = -1;        /* best_k: a move, or -2 - its group's first move */
  uint32_t *child = malloc((size_t)(nact ? nact : 1) * sizeof *child);
  char *done = calloc((size_t)(nact ? nact : 1), 1);
  double *xbest = malloc((size_t)(nact ? nact : 1) * sizeof *xbest);
  if (!child || !done || !xbest) {
    w->status = diag_fail(w->err, EXIT_LIMIT, "out of memory for the matrix games");
    goto out;
  }
  int k = 0;
  for (uint32_t c = n + 1; c < t->next[n] && k < nact; c = t->next[c]) child[k++] = c;
  for (k = 0; k < nact && w->status == EXIT_OK; k++) {
    if (done[k]) continue;
    uint32_t c = child[k];
    int q = t->kind[c];
    double v;
    if (q >= 0 && q != p && w->count[t->data[c]] > 1) {
      /* A round: the moves of n into the other player's set J. */
      uint32_t j = t->data[c];
      int rows = 0, cols = t->infosets[j].nactions;
      int *row = malloc((size_t)nact * sizeof *row);
      double *a = NULL, *x = NULL, *y = NULL;
      for (int r = k; r < nact && row; r++)
        if (t->kind[child[r]] == q && t->data[child[r]] == j) row[rows++] = r;
      if (row && (uint32_t)rows != w->count[j]) {
        w->status = diag_fail(w->err, EXIT_BAD_GAME, "the matrix solver takes games whose hidden "
                              "information is only simultaneous moves' choices; here a player does "
                              "not know more than the last move (use --solver cfr)");
        free(row);
        break;
      }
      a = row ? malloc((size_t)rows * cols * sizeof *a) : NULL;
      x = malloc((size_t)rows * sizeof *x);
      y = malloc((size_t)cols * sizeof *y);
      if (!row || !a || !x || !y) {
        w->status = diag_fail(w->err, EXIT_LIMIT, "out of memory for the matrix games");
        free(row); free(a); free(x); free(y);
        break;
      }
      for (int r = 0; r < rows && w->status == EXIT_OK; r++) {
        uint32_t cr = child[row[r]];
        int m = 0;
        for (uint32_t g = cr + 1; g < t->next[cr] && m < cols; g = t->next[g], m++)
          a[(size_t)r * cols + m] = (p == 0 ? 1 : -1) * value_of(w, g);
        done[row[r]] = 1;
      }
      if (w->status == EXIT_OK && matrix_game(a, rows, cols, &v, x, y) != 0)
        w->status = diag_fail(w->err, EXIT_LIMIT, "GLPK could not solve a matrix game of %d x %d",
                              rows, cols);
      if (w->status == EXIT_OK) {
        /* The column player's mix is his whole strategy at J. */
        for (int m = 0; m < cols; m++) w->s[t->infosets[j].action + m] = y[m];
        v = p == 0 ? v : -v;
        if (!have || (p == 0 ? v > best : v < best)) {
          have = 1;
          best = v;
          best_k = -2 - k;
          for (int i = 0; i < nact; i++) xbest[i] = 0;
          for (int r = 0; r < rows; r++) xbest[row[r]] = x[r];
        }
      }
      free(row); free(a); free(x); free(y);
      continue;
    }
    done[k] = 1;
    v = value_of(w, c);
    if (!have || (p == 0 ? v > best : v < best)) {
      have = 1;
      best = v;
      best_k = k;
    }
  }
  if (w->status == EXIT_OK && have) {
    if (best_k >= 0) set_pure(w, set, best_k);
    else
      for (int i = 0; i < nact; i++) w->s[t->infosets[set].action + i] = xbest[i];
  }
out:
  free(child);
  free(done);
  free(xbest);
  return best;
}

/* Position n's value for the first player. */
static double value_of(Walk *w, uint32_t n) {
  const GameTree *t = w->t;
  if (w->status != EXIT_OK) return 0;
  int kind = t->kind[n];
  if (kind == GT_TERMINAL) return t->util[(size_t)t->data[n] * (size_t)t->nplayers];
  if (kind == GT_CHANCE) {
    double v = 0;
    uint32_t k = 0;
    for (uint32_t c = n + 1; c < t->next[n]; c = t->next[c], k++)
      v += t->prob[t->data[n] + k] * value_of(w, c);
    return v;
  }
  if (w->count[t->data[n]] != 1) {
    w->status = diag_fail(w->err, EXIT_BAD_GAME, "the matrix solver takes games whose hidden "
                          "information is only simultaneous moves' choices; in this one %s does not "
                          "know the position (use --solver cfr)",
                          kind < t->nplayers ? "a player" : "someone");
    return 0;
  }
  return decide(w, n, kind);
}

int matrix_solve(const GameTree *t, double *strategy, double *value, FILE *err) {
  Walk w = { t, strategy, NULL, err, EXIT_OK };
  if (t->nplayers != 2)
    return diag_fail(err, EXIT_BAD_GAME, "the matrix solver takes two-player games (this one has %d)",
                     t->nplayers);
  if ((w.count = calloc(t->ninfosets ? t->ninfosets : 1, sizeof *w.count)) == NULL)
    return diag_fail(err, EXIT_LIMIT, "out of memory for the matrix solver");
  for (uint32_t n = 0; n < t->nnodes; n++)
    if (t->kind[n] >= 0) w.count[t->data[n]]++;
  /* Sets no line reaches keep a uniform strategy. */
  for (uint32_t i = 0; i < t->ninfosets; i++)
    for (int k = 0; k < t->infosets[i].nactions; k++)
      strategy[t->infosets[i].action + k] = 1.0 / t->infosets[i].nactions;
  *value = value_of(&w, 0);
  free(w.count);
  return w.status;
}
