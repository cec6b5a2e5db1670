/*
** cfrsolve.c -- the CFR solver: expansion, iterations to a target, the
** average strategy's values (see cfrsolve.h).
*/
#include <stdlib.h>
#include <string.h>
#include "cfr/cfrsolve.h"
#include "cfr/matrix.h"
#include "cfr/lp.h"
#include "util/clock.h"
#include "util/diag.h"
#include "util/status.h"
#include "util/stop.h"

void cfrsolve_init(CfrSolver *s, Game *g, FILE *err) {
  memset(s, 0, sizeof *s);
  s->g = g;
  s->err = err;
  s->plus = 1;
  s->max_iterations = CFR_MAX_ITERATIONS;
}

void cfrsolve_free(CfrSolver *s) {
  cfr_free(&s->cfr);
  gametree_free(&s->tree);
  free(s->avg);
  free(s->best);
  s->avg = s->best = NULL;
  if (s->lp != NULL) lp_result_free(s->lp);
  free(s->lp);
  s->lp = NULL;
}

const char *cfrsolve_name(const CfrSolver *s) {
  return s->lp != NULL ? "lp" : s->matrix ? "matrix" : s->plus ? "cfr+" : "cfr";
}

/* The average strategy and its exploitability, now; kept when it is the
** best so far. */
static void measure(CfrSolver *s) {
  double t0 = clock_seconds();
  s->measured_at = s->iterations;
  cfr_average(&s->cfr, s->avg);
  s->nash_conv = cfr_gains(&s->cfr, s->avg, s->gain);
  s->exploitability = s->nash_conv / s->tree.nplayers;
  if (s->measures == 0 || s->exploitability < s->best_exploitability) {
    memcpy(s->best, s->avg, s->tree.nactions * sizeof *s->best);
    s->best_exploitability = s->exploitability;
    s->best_nash_conv = s->nash_conv;
    memcpy(s->best_gain, s->gain, sizeof s->gain);
    s->best_at = s->iterations;
  }
  s->measures++;
  s->measure_seconds += clock_seconds() - t0;
}

/* --time-limit before the target: the best strategy measured, with a
** note; a strategy found is worth reporting, unlike a search cut short. */
static void keep_best(CfrSolver *s) {
  char head[96];
  if (s->measured_at != s->iterations) measure(s);
  s->ran = s->iterations;
  memcpy(s->avg, s->best, s->tree.nactions * sizeof *s->avg);
  s->exploitability = s->best_exploitability;
  s->nash_conv = s->best_nash_conv;
  memcpy(s->gain, s->best_gain, sizeof s->gain);
  s->iterations = s->best_at;
  s->time_stopped = 1;
  stop_head(head, sizeof head);
  char target[64] = "";
  if (s->target > 0) snprintf(target, sizeof target, "; the target was %g", s->target);
  diag_plain(s->err, "note", "%s after %llu CFR iterations and %.2f seconds; the best strategy "
             "measured is reported (iteration %llu, exploitability %.3g%s)", head,
             (unsigned long long)s->ran, stop_elapsed(), (unsigned long long)s->best_at,
             s->exploitability, target);
}

int cfrsolve_score_bound(const CfrSolver *s, double *bound, double *lo, double *hi) {
  int n = s->tree.nplayers;
  if (n > 2 || s->measures == 0) return 0;
  /* Two players, zero-sum in the utilities CFR plays (payoffs or
  ** margins): the first player's strategy guarantees at least
  ** -BR(second) = score - gain[1], the second's holds the first to
  ** BR(first) = score + gain[0]; the value lies between.  One player:
  ** the value is the best response's, score + gain[0]. */
  double g0 = s->gain[0] > 0 ? s->gain[0] : 0, g1 = n == 2 && s->gain[1] > 0 ? s->gain[1] : 0;
  *lo = s->score - g1;
  *hi = s->score + g0;
  *bound = g0 > g1 ? g0 : g1;
  return 1;
}

static void show_progress(CfrSolver *s, double t0) {
  char line[160];
  double el = clock_seconds() - t0;
  if (!progress_due(s->progress)) return;
  snprintf(line, sizeof line, "%s: %llu iterations, %.0f/s, exploitability %.3g, %.1f s",
           cfrsolve_name(s), (unsigned long long)s->iterations,
           el > 0 ? (double)s->iterations / el : 0.0, s->exploitability, el);
  progress_show(s->progress, line);
}

int cfrsolve_run(CfrSolver *s) {
  double t0 = clock_seconds();
  int st = gametree_build(&s->tree, s->g, s->memory_limit, s->progress, s->err);
  s->expand_seconds = clock_seconds() - t0;
  return st != EXIT_OK ? st : cfrsolve_iterate(s);
}

int cfrsolve_iterate(CfrSolver *s) {
  double t0;
  int st;
  /* CFR's tables: eight doubles an action (cfr.h, the average and the
  ** best average measured), two
  ** doubles and an index a node, four indices a set. */
  const GameTree *t = &s->tree;
  size_t tables = (size_t)t->nactions * 8 * sizeof(double)
                + (size_t)t->nnodes * (2 * sizeof(double) + sizeof(uint32_t))
                + (size_t)t->ninfosets * 4 * sizeof(uint32_t);
  if (s->memory_limit && t->memory + tables > s->memory_limit)
    return diag_fail(s->err, EXIT_LIMIT, "the game tree and CFR's tables need %.0f MiB: too big "
                     "for the CFR solver within its memory limit (--memory MB)",
                     (double)(t->memory + tables) / (1 << 20));
  if ((s->avg = malloc((s->tree.nactions ? s->tree.nactions : 1) * sizeof *s->avg)) == NULL
      || (s->best = malloc((s->tree.nactions ? s->tree.nactions : 1) * sizeof *s->best)) == NULL
      || cfr_init(&s->cfr, &s->tree, s->plus) != EXIT_OK)
    return diag_fail(s->err, EXIT_LIMIT, "out of memory for CFR's tables");
  t0 = clock_seconds();
  double c0 = clock_cpu_seconds();
  if (s->matrix) {
    /* The strategy of backward induction, measured as CFR's would be. */
    double value;
    if ((st = matrix_solve(&s->tree, s->avg, &value, s->err)) != EXIT_OK) return st;
    s->nash_conv = cfr_gains(&s->cfr, s->avg, s->gain);
    s->exploitability = s->nash_conv / s->tree.nplayers;
    s->measures = 1;
    s->iterate_seconds = clock_seconds() - t0;
    s->iterate_cpu = clock_cpu_seconds() - c0;
    cfr_expected(&s->tree, s->avg, s->util, s->pay);
    s->score = s->util[0];
    return EXIT_OK;
  }
  measure(s);
  /* Measures after iteration 1, 10, 20, ..., at most 1/8 apart. */
  uint64_t next = 1;
  while (s->iterations < s->max_iterations && !(s->target > 0 && s->exploitability <= s->target)) {
    if (stop_requested) {
      char msg[160];
      s->iterate_seconds = clock_seconds() - t0;
      s->iterate_cpu = clock_cpu_seconds() - c0;
      if (stop_requested == STOP_TIME) {
        keep_best(s);
        break;
      }
      st = stop_message(msg, sizeof msg, s->iterations, "CFR iterations");
      return diag_fail(s->err, st, "%s", msg);
    }
    cfr_iterate(&s->cfr);
    s->iterations++;
    if (s->iterations == s->max_iterations || (s->target > 0 && s->iterations >= next)) {
      measure(s);
      uint64_t gap = s->iterations / 8;
      next = s->iterations + (gap > 10 ? gap : 10) - (s->iterations == 1);
    }
    show_progress(s, t0);
  }
  if (!s->time_stopped) {
    s->iterate_seconds = clock_seconds() - t0;
    s->iterate_cpu = clock_cpu_seconds() - c0;
    s->ran = s->iterations;
    if (s->measured_at != s->iterations) measure(s);
  }
  cfr_expected(&s->tree, s->avg, s->util, s->pay);
  s->score = s->util[0];
  return EXIT_OK;
}
