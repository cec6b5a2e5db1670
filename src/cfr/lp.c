/*
** lp.c -- the sequence-form linear programs of a two-player zero-sum
** game, solved with GLPK, and the exact check of their solution in
** rational arithmetic with GMP (see lp.h).
**
** The sequence form is read off the expanded tree (gametree.h) in one
** walk: each end adds an entry (the two players' last sequences, chance's
** probability times the first player's utility) to the payoff matrix,
** kept in floats for GLPK and, when small, as fractions too.  A player's
** sequences are numbered 0 (the empty one) and 1 + k for his k-th action
** in the tree's action order.
*/
#include <glpk.h>
#include <gmp.h>
#include <math.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "cfr/lp.h"
#include "cfr/lp_exact.h"
#include "cfr/strategy.h"
#include "util/clock.h"
#include "util/diag.h"
#include "util/status.h"
#include "util/stop.h"

/* One end of the tree: the players' sequences leading to it and chance's
** probability times the first player's utility (q: its index in the
** exact coefficients). */
typedef struct Entry {
  uint32_t s[2];
  uint32_t q;
  double v;
} Entry;

typedef struct SeqForm {
  const GameTree *t;
  FILE *err;
  int np;                       /* players: 1 or 2 */
  uint32_t n[2];                /* sequences per player */
  uint32_t nsets[2];            /* information sets per player */
  uint32_t *seq;                /* per action: its sequence, in its player's numbering */
  uint32_t *up;                 /* per information set: the sequence leading to it */
  uint32_t *ord;                /* per information set: its index among its player's */
  Entry *e;                     /* the ends with a nonzero utility, sorted */
  size_t ne, cap;
  size_t nmerged;               /* distinct pairs of sequences */
  int exact;                    /* the coefficients below are kept */
  mpq_t *q;                     /* per end: its exact coefficient */
  size_t nq;
  int status;
} SeqForm;

/* ---- the sequence form ------------------------------------------------ */

static int sf_fail(SeqForm *f, int status, const char *msg) {
  if (f->status == EXIT_OK) f->status = diag_fail(f->err, status, "%s", msg);
  return -1;
}

static int add_end(SeqForm *f, uint32_t s0, uint32_t s1, double v, mpq_srcptr exact) {
  if (f->ne == f->cap) {
    size_t n = f->cap ? 2 * f->cap : 1024;
    Entry *e = realloc(f->e, n * sizeof *e);
    if (e == NULL) return sf_fail(f, EXIT_LIMIT, "out of memory building the linear program");
    f->e = e;
    if (f->exact) {
      mpq_t *q = realloc(f->q, n * sizeof *q);
      if (q == NULL) return sf_fail(f, EXIT_LIMIT, "out of memory building the linear program");
      f->q = q;
    }
    f->cap = n;
  }
  Entry *e = &f->e[f->ne++];
  e->s[0] = s0;
  e->s[1] = s1;
  e->v = v;
  e->q = (uint32_t)f->nq;
  if (f->exact) {
    mpq_init(f->q[f->nq]);
    mpq_set(f->q[f->nq], exact);
    f->nq++;
  }
  return 0;
}

/* The subtree of node n, reached by sequences last[] with chance's
** probability reach (qreach exactly, when f->exact). */
static int walk(SeqForm *f, uint32_t n, const uint32_t last[2], double reach, mpq_srcptr qreach) {
  const GameTree *t = f->t;
  int kind = t->kind[n];
  uint32_t ch, end = t->next[n];
  if (kind == GT_TERMINAL) {
    double u = t->util[(size_t)t->data[n] * (size_t)t->nplayers];
    if (u == 0) return 0;
    if (!f->exact) return add_end(f, last[0], last[1], reach * u, NULL);
    mpq_t c;
    mpq_init(c);
    mpq_set_d(c, u);            /* utilities are whole numbers of chips */
    mpq_mul(c, c, qreach);
    int rc = add_end(f, last[0], last[1], reach * u, c);
    mpq_clear(c);
    return rc;
  }
  if (kind == GT_CHANCE) {
    const double *p = t->prob + t->data[n];
    const uint32_t *w = t->weight + t->data[n];
    unsigned long sum = 0;
    int k = 0, rc = 0;
    for (ch = n + 1; ch < end; ch = t->next[ch]) sum += w[k++];
    mpq_t c;
    mpq_init(c);
    k = 0;
    for (ch = n + 1; ch < end && rc == 0; ch = t->next[ch], k++) {
      if (w[k] == 0) continue;
      if (f->exact) {
        mpq_set_ui(c, w[k], sum);
        mpq_canonicalize(c);
        mpq_mul(c, c, qreach);
      }
      rc = walk(f, ch, last, reach * p[k], c);
    }
    mpq_clear(c);
    return rc;
  }
  uint32_t k = t->data[n];
  const GtInfoset *I = &t->infosets[k];
  if (last[kind] != f->up[k])
    return sf_fail(f, EXIT_USAGE, "the lp solver needs perfect recall, and a player reaches "
                   "one of his positions after different moves of his own (a game without "
                   "views whose lines meet): --solver alphabeta or retro solve it");
  uint32_t next[2] = { last[0], last[1] };
  int a = 0;
  for (ch = n + 1; ch < end; ch = t->next[ch], a++) {
    next[kind] = f->seq[I->action + (uint32_t)a];
    if (walk(f, ch, next, reach, qreach) != 0) return -1;
  }
  return 0;
}

static int entry_order(const void *pa, const void *pb) {
  const Entry *a = pa, *b = pb;
  if (a->s[0] != b->s[0]) return a->s[0] < b->s[0] ? -1 : 1;
  if (a->s[1] != b->s[1]) return a->s[1] < b->s[1] ? -1 : 1;
  return 0;
}

static void sf_free(SeqForm *f) {
  for (size_t i = 0; i < f->nq; i++) mpq_clear(f->q[i]);
  free(f->q);
  free(f->e);
  free(f->seq);
  free(f->up);
  free(f->ord);
  memset(f, 0, sizeof *f);
}

static int sf_build(SeqForm *f, const GameTree *t, FILE *err) {
  memset(f, 0, sizeof *f);
  f->t = t;
  f->err = err;
  f->np = t->nplayers;
  f->n[0] = f->n[1] = 1;
  if (f->np > 2)
    return sf_fail(f, EXIT_USAGE, "the lp solver takes games of one or two players: "
                   "--solver cfr for more");
  f->seq = malloc((t->nactions ? t->nactions : 1) * sizeof *f->seq);
  f->up = malloc((t->ninfosets ? t->ninfosets : 1) * sizeof *f->up);
  f->ord = malloc((t->ninfosets ? t->ninfosets : 1) * sizeof *f->ord);
  if (!f->seq || !f->up || !f->ord) return sf_fail(f, EXIT_LIMIT, "out of memory");
  for (uint32_t k = 0; k < t->ninfosets; k++) {
    const GtInfoset *I = &t->infosets[k];
    f->ord[k] = f->nsets[I->player]++;
    for (int a = 0; a < I->nactions; a++) f->seq[I->action + (uint32_t)a] = f->n[I->player]++;
  }
  for (uint32_t k = 0; k < t->ninfosets; k++) {
    uint32_t p = t->infosets[k].parent;
    f->up[k] = p == GT_NONE ? 0 : f->seq[p];
  }
  /* The exact coefficients when the ends are few enough. */
  f->exact = t->nterminal <= LP_EXACT_MAX_ENTRIES;
  uint32_t last[2] = { 0, 0 };
  mpq_t one;
  mpq_init(one);
  mpq_set_ui(one, 1, 1);
  int rc = t->nnodes ? walk(f, 0, last, 1.0, one) : 0;
  mpq_clear(one);
  if (rc != 0) return f->status;
  qsort(f->e, f->ne, sizeof *f->e, entry_order);
  for (size_t i = 0; i < f->ne; i++)
    f->nmerged += i == 0 || entry_order(&f->e[i], &f->e[i - 1]) != 0;
  return EXIT_OK;
}

static mpq_t *qalloc(size_t n);
static void qfree(mpq_t *q, size_t n);

/* ---- the linear programs ---------------------------------------------- */

/* GLPK's peak memory, measured with glp_mem_usage: 406 bytes a nonzero
** on Leduc (8,042 nonzeros, 1,562 rows), 338 on Leduc with 4 ranks, 332
** on Liar's Dice with 5 faces; or 2,091 bytes a row on Leduc. */
#define LP_GLPK_BYTES_PER_NONZERO 512
#define LP_GLPK_BYTES_PER_ROW 2048

static jmp_buf glpk_trap;

static void glpk_error(void *info) {
  (void)info;
  longjmp(glpk_trap, 1);
}

/* GLPK's output, every LP_OUTPUT_MS while the simplex runs: where a stop
** (Ctrl-C, --time-limit) is seen, which GLPK itself never looks at; the
** text itself is dropped. */
#define LP_OUTPUT_MS 100
static int glpk_output(void *info, const char *s) {
  (void)info;
  (void)s;
  if (stop_requested) longjmp(glpk_trap, 2);
  return 1;
}

typedef struct Triplets {
  int *ia, *ja;
  double *ar;
  size_t n;
} Triplets;

static void put(Triplets *m, int row, int col, double v) {
  m->n++;
  m->ia[m->n] = row;
  m->ja[m->n] = col;
  m->ar[m->n] = v;
}

/* Player me's program (see lp.h): his realization plan into plan (n[me]
** long) and his value (his utility) into *value; with dual, the duals of
** the rows of the other's sequences, which are the other's realization
** plan (the program's dual is the other's program); with keep (and
** exact), the solved program is kept there, with its coefficients in
** fractions, for its exact vertex and duals (lp_exact.c). */
/* A program kept after its solve, for its exact basis (lp_exact.c). */
typedef struct Program {
  glp_prob *P;
  int rows, cols, row_o;
  Triplets m;
  mpq_t *qa;                    /* the coefficients in fractions, m's order */
  size_t nz;                    /* qa's size */
} Program;

static void program_free(Program *g) {
  if (g->P != NULL) glp_delete_prob(g->P);
  free(g->m.ia);
  free(g->m.ja);
  free(g->m.ar);
  qfree(g->qa, g->nz);
  memset(g, 0, sizeof *g);
}

static int solve_player(SeqForm *f, int me, int exact, LpResult *r, double *plan, double *value,
                        double *dual, Program *keep, size_t memory_limit) {
  const GameTree *t = f->t;
  int o = 1 - me;
  uint32_t nme = f->n[me], no = f->n[o];
  int rows = 1 + (int)f->nsets[me] + (int)no, cols = (int)nme + 1 + (int)f->nsets[o];
  size_t nz = (size_t)nme + f->nsets[me] + no + f->nsets[o] + f->nmerged + 2;
  Triplets m = { malloc((nz + 1) * sizeof(int)), malloc((nz + 1) * sizeof(int)),
                 malloc((nz + 1) * sizeof(double)), 0 };
  mpq_t *qa = keep != NULL && exact ? qalloc(nz + 1) : NULL, sum;
  if (!m.ia || !m.ja || !m.ar || (keep != NULL && exact && qa == NULL)) {
    qfree(qa, nz + 1);
    free(m.ia);
    free(m.ja);
    free(m.ar);
    return diag_fail(f->err, EXIT_LIMIT, "out of memory building the linear program");
  }
  int row_o = 2 + (int)f->nsets[me];     /* the row of o's sequence 0 */
  put(&m, 1, 1, 1.0);
  for (uint32_t k = 0; k < t->ninfosets; k++) {
    const GtInfoset *I = &t->infosets[k];
    if (I->player == me) {
      int row = 2 + (int)f->ord[k];
      for (int a = 0; a < I->nactions; a++)
        put(&m, row, 1 + (int)f->seq[I->action + (uint32_t)a], 1.0);
      put(&m, row, 1 + (int)f->up[k], -1.0);
    } else {
      int col = (int)nme + 2 + (int)f->ord[k];
      for (int a = 0; a < I->nactions; a++)
        put(&m, row_o + (int)f->seq[I->action + (uint32_t)a], col, 1.0);
      put(&m, row_o + (int)f->up[k], col, -1.0);
    }
  }
  put(&m, row_o, (int)nme + 1, 1.0);
  /* The payoffs, merged by pair of sequences: -(A^T x) for the first
  ** player, +(A y) (his utility is -A) for the second. */
  /* The exact coefficients so far: +-1. */
  for (size_t k = 1; qa != NULL && k <= m.n; k++) mpq_set_si(qa[k], (long)m.ar[k], 1);
  mpq_init(sum);
  for (size_t i = 0; i < f->ne;) {
    size_t j = i;
    double v = 0;
    mpq_set_ui(sum, 0, 1);
    for (; j < f->ne && entry_order(&f->e[j], &f->e[i]) == 0; j++) {
      v += f->e[j].v;
      if (qa != NULL) mpq_add(sum, sum, f->q[f->e[j].q]);
    }
    if (v != 0 || (qa != NULL && mpq_sgn(sum) != 0)) {
      put(&m, row_o + (int)f->e[i].s[o], 1 + (int)f->e[i].s[me], me == 0 ? -v : v);
      if (qa != NULL) {
        if (me == 0) mpq_neg(qa[m.n], sum);
        else mpq_set(qa[m.n], sum);
      }
    }
    i = j;
  }
  mpq_clear(sum);
  glp_prob *volatile P = NULL;
  int st = EXIT_OK;
  /* GLPK's memory, against --memory (its own limit, glp_mem_limit, fails
  ** through an error path that leaks a block of GLPK's). */
  size_t need = m.n * LP_GLPK_BYTES_PER_NONZERO + (size_t)rows * LP_GLPK_BYTES_PER_ROW;
  if (memory_limit && f->t->memory + need > memory_limit) {
    free(m.ia);
    free(m.ja);
    free(m.ar);
    qfree(qa, nz + 1);
    return diag_fail(f->err, EXIT_LIMIT, "the linear program (%d rows, %zu nonzeros) needs about "
                     "%.1f MiB in GLPK besides the game tree's %.1f MiB: over the memory limit "
                     "(--memory MB)", rows, m.n, (double)need / (1 << 20),
                     (double)f->t->memory / (1 << 20));
  }
  glp_error_hook(glpk_error, NULL);
  int jumped = setjmp(glpk_trap);
  if (jumped != 0) {
    /* GLPK failed (out of memory), or a stop: its environment, with all
    ** it allocated, is freed. */
    glp_free_env();
    free(m.ia);
    free(m.ja);
    free(m.ar);
    qfree(qa, nz + 1);
    if (jumped == 2) {
      char msg[160];
      st = stop_message(msg, sizeof msg, (uint64_t)me, "linear programs solved");
      return diag_fail(f->err, st, "%s", msg);
    }
    return diag_fail(f->err, EXIT_LIMIT, "GLPK failed solving the linear program (%d rows, %d "
                     "columns): out of memory?", rows, cols);
  }
  glp_term_hook(glpk_output, NULL);
  glp_term_out(GLP_ON);
  P = glp_create_prob();
  glp_set_obj_dir(P, GLP_MAX);
  glp_add_rows(P, rows);
  glp_add_cols(P, cols);
  for (int c = 1; c <= cols; c++)
    glp_set_col_bnds(P, c, c <= (int)nme ? GLP_LO : GLP_FR, 0.0, 0.0);
  glp_set_obj_coef(P, (int)nme + 1, 1.0);
  glp_set_row_bnds(P, 1, GLP_FX, 1.0, 1.0);
  for (int rw = 2; rw < row_o; rw++) glp_set_row_bnds(P, rw, GLP_FX, 0.0, 0.0);
  for (int rw = row_o; rw <= rows; rw++) glp_set_row_bnds(P, rw, GLP_UP, 0.0, 0.0);
  glp_load_matrix(P, (int)m.n, m.ia, m.ja, m.ar);
  r->rows[me] = rows;
  r->cols[me] = cols;
  r->nonzeros[me] = m.n;
  glp_smcp parm;
  glp_init_smcp(&parm);
  parm.msg_lev = GLP_MSG_ON;      /* to glpk_output, which drops it */
  parm.out_frq = LP_OUTPUT_MS;
  /* The primal simplex after GLPK's presolver: on Leduc and Liar's Dice
  ** the fastest of its choices (the dual simplex took 1.5 to 8 times as
  ** long, unscaled or without the presolver up to twice). */
  parm.presolve = GLP_ON;
  glp_scale_prob(P, GLP_SF_AUTO);
  double t0 = clock_seconds();
  int ret = glp_simplex(P, &parm);
  r->lp_seconds += clock_seconds() - t0;
  if (ret == 0 && glp_get_status(P) == GLP_OPT && exact && !stop_requested) {
    t0 = clock_seconds();
    ret = glp_exact(P, &parm);
    r->exact_lp_seconds += clock_seconds() - t0;
  }
  if (ret != 0 || glp_get_status(P) != GLP_OPT) {
    st = diag_fail(f->err, EXIT_LIMIT, "GLPK found no optimal solution of the linear program "
                   "(%d rows, %d columns; glp_simplex returned %d, status %d)", rows, cols, ret,
                   glp_get_status(P));
  } else {
    *value = glp_get_obj_val(P);
    for (uint32_t s = 0; s < nme; s++) plan[s] = glp_get_col_prim(P, 1 + (int)s);
    for (uint32_t s = 0; dual != NULL && s < no; s++) dual[s] = glp_get_row_dual(P, row_o + (int)s);
    r->simplex_iterations[me] = glp_get_it_cnt(P);
  }
  glp_error_hook(NULL, NULL);
  glp_term_hook(NULL, NULL);
  if (st == EXIT_OK && qa != NULL) {
    *keep = (Program){ .P = P, .rows = rows, .cols = cols, .row_o = row_o, .m = m, .qa = qa,
                       .nz = nz + 1 };
    return st;
  }
  free(m.ia);
  free(m.ja);
  free(m.ar);
  qfree(qa, nz + 1);
  glp_delete_prob(P);
  return st;
}

/* Player p's behaviour strategy from his realization plan, into s. */
static void behaviour(const SeqForm *f, int p, const double *plan, double *s) {
  const GameTree *t = f->t;
  for (uint32_t k = 0; k < t->ninfosets; k++) {
    const GtInfoset *I = &t->infosets[k];
    if (I->player != p) continue;
    double total = 0, *b = s + I->action;
    for (int a = 0; a < I->nactions; a++) {
      double x = plan[f->seq[I->action + (uint32_t)a]];
      b[a] = x > 0 ? x : 0;
      total += b[a];
    }
    /* A set his own strategy avoids: any strategy there, uniform. */
    for (int a = 0; a < I->nactions; a++)
      b[a] = total > 1e-12 ? b[a] / total : 1.0 / I->nactions;
  }
}

/* Whether y (the duals of the first player's program, signs as GLPK
** gives them) is a realization plan of the second player, made one by
** the sign that gives y(empty) = 1. */
static int dual_plan(const SeqForm *f, double *y) {
  const GameTree *t = f->t;
  double sign = y[0] < 0 ? -1 : 1;
  for (uint32_t s = 0; s < f->n[1]; s++) y[s] *= sign;
  if (fabs(y[0] - 1) > 1e-9) return 0;
  for (uint32_t k = 0; k < t->ninfosets; k++) {
    const GtInfoset *I = &t->infosets[k];
    double sum = 0;
    if (I->player != 1) continue;
    for (int a = 0; a < I->nactions; a++) {
      double x = y[f->seq[I->action + (uint32_t)a]];
      if (x < -1e-9) return 0;
      sum += x;
    }
    if (fabs(sum - y[f->up[k]]) > 1e-9) return 0;
  }
  return 1;
}

/* ---- exact arithmetic ------------------------------------------------- */

/* v as the first convergent of its continued fraction within
** LP_RATIONAL_TOLERANCE (1/3 for 0.333333333), with a denominator of at
** most LP_MAX_DENOMINATOR. */
static void rationalize(mpq_ptr out, double v) {
  long h0 = 0, h1 = 1, k0 = 1, k1 = 0;
  double x = v;
  if (!(v > 0)) {
    mpq_set_ui(out, 0, 1);
    return;
  }
  for (int i = 0; i < 64; i++) {
    double a = floor(x);
    if (a > (double)LP_MAX_DENOMINATOR) break;
    long ai = (long)a, h2 = ai * h1 + h0, k2 = ai * k1 + k0;
    if (k2 > LP_MAX_DENOMINATOR) break;
    h0 = h1;
    h1 = h2;
    k0 = k1;
    k1 = k2;
    if (fabs(v - (double)h1 / (double)k1) <= LP_RATIONAL_TOLERANCE) break;
    double frac = x - a;
    if (frac < 1e-300) break;
    x = 1 / frac;
  }
  if (k1 == 0) k1 = 1;
  mpq_set_si(out, h1, (unsigned long)k1);
  mpq_canonicalize(out);
}

/* s (one probability per action) as fractions: each set's rationalized
** and made to add up to 1 exactly. */
static void exact_strategy(const GameTree *t, const double *s, mpq_t *b) {
  mpq_t sum;
  mpq_init(sum);
  for (uint32_t k = 0; k < t->ninfosets; k++) {
    const GtInfoset *I = &t->infosets[k];
    mpq_set_ui(sum, 0, 1);
    for (int a = 0; a < I->nactions; a++) {
      rationalize(b[I->action + (uint32_t)a], s[I->action + (uint32_t)a]);
      mpq_add(sum, sum, b[I->action + (uint32_t)a]);
    }
    for (int a = 0; a < I->nactions; a++) {
      if (mpq_sgn(sum) == 0) mpq_set_ui(b[I->action + (uint32_t)a], 1, (unsigned long)I->nactions);
      else mpq_div(b[I->action + (uint32_t)a], b[I->action + (uint32_t)a], sum);
    }
  }
  mpq_clear(sum);
}

/* Player p's realization plan of behaviour b into r (n[p] long): a set's
** parent comes before it in the table. */
static void exact_plan(const SeqForm *f, int p, mpq_t *b, mpq_t *r) {
  const GameTree *t = f->t;
  mpq_set_ui(r[0], 1, 1);
  for (uint32_t k = 0; k < t->ninfosets; k++) {
    const GtInfoset *I = &t->infosets[k];
    if (I->player != p) continue;
    for (int a = 0; a < I->nactions; a++) {
      uint32_t x = I->action + (uint32_t)a;
      mpq_mul(r[f->seq[x]], r[f->up[k]], b[x]);
    }
  }
}

/* Player i's best-response value (his utility) against the other's plan
** ro: each sequence's payoff, then the sets bottom up (a set comes after
** its parent in the table, so backwards is children first), the best
** action's value added to the sequence leading there.  w: n[i] scratch. */
static void exact_br(const SeqForm *f, int i, mpq_t *ro, mpq_t *w, mpq_ptr out) {
  const GameTree *t = f->t;
  mpq_t x;
  mpq_init(x);
  for (uint32_t s = 0; s < f->n[i]; s++) mpq_set_ui(w[s], 0, 1);
  for (size_t k = 0; k < f->ne; k++) {
    const Entry *e = &f->e[k];
    mpq_mul(x, f->q[e->q], ro[e->s[1 - i]]);
    if (i == 0) mpq_add(w[e->s[0]], w[e->s[0]], x);
    else mpq_sub(w[e->s[1]], w[e->s[1]], x);
  }
  for (uint32_t k = t->ninfosets; k-- > 0;) {
    const GtInfoset *I = &t->infosets[k];
    if (I->player != i) continue;
    uint32_t best = f->seq[I->action];
    for (int a = 1; a < I->nactions; a++)
      if (mpq_cmp(w[f->seq[I->action + (uint32_t)a]], w[best]) > 0) best = f->seq[I->action + (uint32_t)a];
    mpq_add(w[f->up[k]], w[f->up[k]], w[best]);
  }
  mpq_set(out, w[0]);
  mpq_clear(x);
}

static char *qstr(mpq_srcptr q) {
  size_t n = mpz_sizeinbase(mpq_numref(q), 10) + mpz_sizeinbase(mpq_denref(q), 10) + 3;
  char *s = malloc(n);
  if (s != NULL) mpq_get_str(s, 10, q);
  return s;
}

static mpq_t *qalloc(size_t n) {
  mpq_t *q = malloc((n ? n : 1) * sizeof *q);
  if (q != NULL)
    for (size_t i = 0; i < n; i++) mpq_init(q[i]);
  return q;
}

static void qfree(mpq_t *q, size_t n) {
  if (q == NULL) return;
  for (size_t i = 0; i < n; i++) mpq_clear(q[i]);
  free(q);
}

/* The exact values of strategy s (rationalized): the expected value,
** each player's best response and gain, NashConv and exploitability,
** into r's strings; s made the doubles of the fractions.  Returns
** whether NashConv is 0 (s is an equilibrium), or -1 out of memory. */
static int exact_values_q(const SeqForm *f, mpq_t *b, double *s, LpResult *r) {
  const GameTree *t = f->t;
  mpq_t *r0 = qalloc(f->n[0]), *r1 = qalloc(f->n[1]);
  mpq_t *w = qalloc(f->n[0] > f->n[1] ? f->n[0] : f->n[1]);
  mpq_t ev, x, br[2], gain[2], conv;
  int zero = -1;
  if (!r0 || !r1 || !w) goto done;
  for (int i = 0; i < 2; i++) {
    free(r->br_exact[i]);
    free(r->gain_exact[i]);
    r->br_exact[i] = r->gain_exact[i] = NULL;
  }
  free(r->expected_exact);
  free(r->nash_conv_exact);
  free(r->exploitability_exact);
  free(r->value_exact);
  r->expected_exact = r->nash_conv_exact = r->exploitability_exact = r->value_exact = NULL;
  mpq_inits(ev, x, br[0], br[1], gain[0], gain[1], conv, NULL);
  for (uint32_t a = 0; a < t->nactions; a++) s[a] = mpq_get_d(b[a]);
  exact_plan(f, 0, b, r0);
  exact_plan(f, 1, b, r1);
  for (size_t k = 0; k < f->ne; k++) {
    const Entry *e = &f->e[k];
    mpq_mul(x, f->q[e->q], r0[e->s[0]]);
    mpq_mul(x, x, r1[e->s[1]]);
    mpq_add(ev, ev, x);
  }
  r->expected_exact = qstr(ev);
  for (int i = 0; i < f->np; i++) {
    exact_br(f, i, i == 0 ? r1 : r0, w, br[i]);
    if (i == 0) mpq_sub(gain[0], br[0], ev);
    else mpq_add(gain[1], br[1], ev);
    mpq_add(conv, conv, gain[i]);
    r->br_exact[i] = qstr(br[i]);
    r->gain_exact[i] = qstr(gain[i]);
  }
  r->nash_conv_exact = qstr(conv);
  mpq_set_ui(x, 1, (unsigned long)f->np);
  mpq_mul(x, x, conv);
  r->exploitability_exact = qstr(x);
  zero = mpq_sgn(conv) == 0;
  if (zero) r->value_exact = qstr(ev);
  r->exact = 1;
  mpq_clears(ev, x, br[0], br[1], gain[0], gain[1], conv, NULL);
done:
  qfree(r0, f->n[0]);
  qfree(r1, f->n[1]);
  qfree(w, f->n[0] > f->n[1] ? f->n[0] : f->n[1]);
  return zero;
}

static int exact_values(const SeqForm *f, double *s, LpResult *r) {
  mpq_t *b = qalloc(f->t->nactions);
  if (b == NULL) return -1;
  exact_strategy(f->t, s, b);
  int rc = exact_values_q(f, b, s, r);
  qfree(b, f->t->nactions);
  return rc;
}

/* Player p's behaviour strategy from his exact plan x into b. */
static void behaviour_q(const SeqForm *f, int p, mpq_t *x, mpq_t *b) {
  const GameTree *t = f->t;
  for (uint32_t k = 0; k < t->ninfosets; k++) {
    const GtInfoset *I = &t->infosets[k];
    if (I->player != p) continue;
    for (int a = 0; a < I->nactions; a++) {
      uint32_t y = I->action + (uint32_t)a;
      if (mpq_sgn(x[f->up[k]]) == 0) mpq_set_ui(b[y], 1, (unsigned long)I->nactions);
      else mpq_div(b[y], x[f->seq[y]], x[f->up[k]]);
    }
  }
}

/* The exact plans at the first player's program's exact basis: his own
** its vertex, the second player's its duals (the sign that makes the
** empty sequence's weight 1); their values.  1 when they certify the
** value, 0 when not (or the system failed), -1 out of memory. */
static int exact_basis(CfrSolver *s, SeqForm *f, Program *g) {
  LpResult *r = s->lp;
  mpq_t *col = qalloc((size_t)g->cols), *row = qalloc((size_t)g->rows);
  mpq_t *b = qalloc(s->tree.nactions), *y = qalloc(f->n[1]);
  int rc = -1;
  if (col && row && b && y) {
    double t0 = clock_seconds();
    rc = 0;
    if (lp_exact_vertex(g->P, g->rows, g->cols, g->m.ia, g->m.ja, g->qa, g->m.n, col) == 0
        && (f->np == 1
            || lp_exact_duals(g->P, g->rows, g->cols, g->m.ia, g->m.ja, g->qa, g->m.n, row) == 0)) {
      mpq_set_ui(y[0], 1, 1);
      if (f->np > 1) {
        int sign = mpq_sgn(row[g->row_o - 1]);
        for (uint32_t q = 0; q < f->n[1]; q++) {
          mpq_set(y[q], row[g->row_o - 1 + (int)q]);
          if (sign < 0) mpq_neg(y[q], y[q]);
        }
      }
      r->vertex_seconds += clock_seconds() - t0;
      behaviour_q(f, 0, col, b);
      behaviour_q(f, 1, y, b);
      rc = exact_values_q(f, b, s->avg, r);
    }
  }
  qfree(col, (size_t)g->cols);
  qfree(row, (size_t)g->rows);
  qfree(b, s->tree.nactions);
  qfree(y, f->n[1]);
  return rc;
}

/* ---- the solver ------------------------------------------------------- */

/* The expansion and the tables both modes share. */
static int begin(CfrSolver *s, SeqForm *f) {
  double t0 = clock_seconds();
  if ((s->lp = calloc(1, sizeof *s->lp)) == NULL) return diag_fail(s->err, EXIT_LIMIT, "out of memory");
  int st = gametree_build(&s->tree, s->g, s->memory_limit, s->progress, s->err);
  s->expand_seconds = clock_seconds() - t0;
  if (st != EXIT_OK) return st;
  t0 = clock_seconds();
  if ((st = sf_build(f, &s->tree, s->err)) != EXIT_OK) return st;
  s->lp->build_seconds = clock_seconds() - t0;
  s->lp->seq[0] = f->n[0];
  s->lp->seq[1] = f->np > 1 ? f->n[1] : 0;
  s->lp->entries = (uint32_t)f->nmerged;
  s->lp->exact_tried = f->exact;
  size_t na = s->tree.nactions ? s->tree.nactions : 1;
  if ((s->avg = malloc(na * sizeof *s->avg)) == NULL
      || cfr_init(&s->cfr, &s->tree, 1) != EXIT_OK)
    return diag_fail(s->err, EXIT_LIMIT, "out of memory");
  return EXIT_OK;
}

/* s->avg's values in floats (the CFR solver's measures), then exactly. */
static void measure(CfrSolver *s, SeqForm *f) {
  LpResult *r = s->lp;
  double t0 = clock_seconds();
  s->nash_conv = cfr_gains(&s->cfr, s->avg, s->gain);
  s->exploitability = s->nash_conv / s->tree.nplayers;
  s->measures = 1;
  cfr_expected(&s->tree, s->avg, s->util, s->pay);
  s->score = s->util[0];
  for (int i = 0; i < f->np; i++) r->br[i] = s->util[i] + s->gain[i];
  s->measure_seconds = clock_seconds() - t0;
}

/* lp_solve and lp_solve_auto: why NULL for lp_solve. */
static int solve(CfrSolver *s, char *why, size_t size) {
  SeqForm f;
  memset(&f, 0, sizeof f);
  int st = begin(s, &f);
  LpResult *r = s->lp;
  double *plan = NULL, *dual = NULL, v[2] = { 0, 0 };
  Program prog;
  memset(&prog, 0, sizeof prog);
  if (st != EXIT_OK) goto out;
  if (why != NULL) {
    uint32_t most = f.n[0] > f.n[1] ? f.n[0] : f.n[1];
    int small = most <= LP_AUTO_MAX_SEQUENCES;
    snprintf(why, size, "hidden information, %s: %u + %u sequences, %s %u a player: %s",
             f.np == 1 ? "one player" : "two players", f.n[0], f.np > 1 ? f.n[1] : 0,
             small ? "at most" : "more than", LP_AUTO_MAX_SEQUENCES,
             small ? "the exact value by linear programming"
                   : "CFR+ to exploitability 0.001 (--solver lp for the exact value)");
    if (!small) {
      /* CFR on the tree expanded: lp's tables go. */
      sf_free(&f);
      cfr_free(&s->cfr);
      free(s->avg);
      s->avg = NULL;
      lp_result_free(s->lp);
      free(s->lp);
      s->lp = NULL;
      return cfrsolve_iterate(s);
    }
  }
  plan = malloc((f.n[0] > f.n[1] ? f.n[0] : f.n[1]) * sizeof *plan);
  dual = malloc(f.n[1] * sizeof *dual);
  if (plan == NULL || dual == NULL) {
    st = diag_fail(s->err, EXIT_LIMIT, "out of memory");
    goto out;
  }
  /* The first player's program; its duals are the second player's plan,
  ** checked (the empty sequence's weight 1, the set's weights adding up)
  ** and else the second player's program solved as well. */
  for (int p = 0; p < f.np && st == EXIT_OK; p++) {
    if (p == 1 && dual_plan(&f, dual)) {
      behaviour(&f, 1, dual, s->avg);
      v[1] = -v[0];
      r->from_duals = 1;
      break;
    }
    if (stop_requested) {
      char msg[160];
      st = diag_fail(s->err, stop_message(msg, sizeof msg, (uint64_t)p, "linear programs solved"),
                     "%s", msg);
      break;
    }
    if (s->progress != NULL) {
      char line[120];
      snprintf(line, sizeof line, "lp: %s's program (%u sequences against %u)",
               s->g->player_names[p], f.n[p], f.n[1 - p]);
      progress_show(s->progress, line);
    }
    st = solve_player(&f, p, f.exact, r, plan, &v[p], p == 0 && f.np > 1 ? dual : NULL,
                      p == 0 && f.exact ? &prog : NULL, s->memory_limit);
    if (st == EXIT_OK) behaviour(&f, p, plan, s->avg);
  }
  if (st != EXIT_OK) goto out;
  r->value = v[0];
  r->gap = f.np > 1 ? fabs(v[0] + v[1]) : 0;
  measure(s, &f);
  if (f.exact) {
    double t0 = clock_seconds();
    if (exact_values(&f, s->avg, r) < 0) {
      st = diag_fail(s->err, EXIT_LIMIT, "out of memory");
      goto out;
    }
    r->check_seconds = clock_seconds() - t0;
    /* The doubles' fractions no equilibrium: the exact basis's. */
    if (r->value_exact == NULL && !stop_requested) {
      r->vertex_tried = 1;
      double *keep = malloc(s->tree.nactions * sizeof *keep);
      if (keep == NULL) {
        st = diag_fail(s->err, EXIT_LIMIT, "out of memory");
        goto out;
      }
      memcpy(keep, s->avg, s->tree.nactions * sizeof *keep);
      int rc = prog.P != NULL ? exact_basis(s, &f, &prog) : 0;
      if (rc < 0) {
        free(keep);
        st = diag_fail(s->err, EXIT_LIMIT, "out of memory");
        goto out;
      }
      if (r->value_exact == NULL) memcpy(s->avg, keep, s->tree.nactions * sizeof *keep);
      free(keep);
    }
    if (r->value_exact != NULL) {
      /* The strategies reported are the exact ones, rounded. */
      measure(s, &f);
      mpq_t q;
      mpq_init(q);
      mpq_set_str(q, r->value_exact, 10);
      r->value = mpq_get_d(q);
      mpq_clear(q);
    }
  }
out:
  program_free(&prog);
  free(plan);
  free(dual);
  sf_free(&f);
  return st;
}

int lp_solve(CfrSolver *s) {
  return solve(s, NULL, 0);
}

int lp_solve_auto(CfrSolver *s, char *why, size_t size) {
  return solve(s, why, size);
}

int lp_best_response(CfrSolver *s, const char *path) {
  Strategy file;
  SeqForm f;
  memset(&f, 0, sizeof f);
  int st = strategy_read(&file, path, s->g, s->err);
  if (st != EXIT_OK) {
    strategy_free(&file);
    return st;
  }
  st = begin(s, &f);
  if (st == EXIT_OK) {
    LpResult *r = s->lp;
    const GameTree *t = &s->tree;
    r->best_response = 1;
    for (uint32_t k = 0; k < t->ninfosets; k++) {
      const GtInfoset *I = &t->infosets[k];
      double *p = s->avg + I->action, total = 0;
      int64_t e = strategy_find(&file, I->player, gametree_infoset_text(t, k));
      for (int a = 0; a < I->nactions; a++) {
        p[a] = 0;
        for (int j = 0; e >= 0 && j < file.entries[e].nmoves; j++)
          if (strcmp(file.names[file.entries[e].move + (uint32_t)j],
                     gametree_move_name(t, I->action + (uint32_t)a)) == 0)
            p[a] = file.prob[file.entries[e].move + (uint32_t)j];
        total += p[a];
      }
      r->missing += e < 0;
      for (int a = 0; a < I->nactions; a++) p[a] = total > 0 ? p[a] / total : 1.0 / I->nactions;
    }
    if (f.exact) {
      /* The file's probabilities as fractions (exact_values), measured
      ** below as the doubles nearest them. */
      double t0 = clock_seconds();
      if (exact_values(&f, s->avg, r) < 0) st = diag_fail(s->err, EXIT_LIMIT, "out of memory");
      r->check_seconds = clock_seconds() - t0;
    }
    if (st == EXIT_OK) measure(s, &f);
  }
  strategy_free(&file);
  sf_free(&f);
  return st;
}

double lp_exact_double(const char *exact) {
  mpq_t q;
  mpq_init(q);
  double x = mpq_set_str(q, exact, 10) == 0 ? mpq_get_d(q) : 0.0;
  mpq_clear(q);
  return x;
}

void lp_result_free(LpResult *r) {
  free(r->value_exact);
  free(r->expected_exact);
  for (int i = 0; i < 2; i++) {
    free(r->br_exact[i]);
    free(r->gain_exact[i]);
  }
  free(r->nash_conv_exact);
  free(r->exploitability_exact);
  memset(r, 0, sizeof *r);
}
