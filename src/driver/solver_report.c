/*
** solver_report.c -- the rows' hooks of the report (solvers.h): what
** each solver says of its work under --stats, its own fields of the JSON
** report, and the name it is reported by.  The report itself (cli/report.c)
** reads the SolveAnswer and calls these through the chosen row.
*/
#include <inttypes.h>
#include <stdio.h>
#include "cfr/lp.h"
#include "driver/hooks.h"
#include "retro/retro_compact.h"
#include "retro/retro_compact_cycles.h"


static double per_second(uint64_t n, double seconds) {
  return seconds > 0 ? (double)n / seconds : 0.0;
}

/* Expected values by a search (expectimax, Star1, ISMCTS): its memo. */
void solver_stats_expected(const SolveJob *j, double seconds, FILE *f) {
  const ExpSolver *e = &j->exp;
  fprintf(f, "stats: nodes %" PRIu64 " (%.0f nodes/s), memo hits %" PRIu64
          ", memo entries %" PRIu64 "%s\n", e->nodes, per_second(e->nodes, seconds),
          e->memo_hits, e->memo_stored, e->memo_grew ? ", table grew" : "");
  if (e->memo_grew)
    fprintf(f, "stats: the memo table doubled %" PRIu64 " times (from --tt-size %zu)\n",
            e->memo_grew, j->o->tt_mib);
}

/* Alpha-beta: its counts and its table's (Star1 on expected values: the
** memo's). */
void solver_stats_alphabeta(const SolveJob *j, double seconds, FILE *f) {
  const AbStats *a = &j->ab.stats;
  uint64_t nodes = j->search.nodes;
  if (j->kind == RESULT_EXPECTED) {
    solver_stats_expected(j, seconds, f);
    return;
  }
  fprintf(f, "stats: nodes %" PRIu64 " (%.0f nodes/s), evals %" PRIu64
          ", root searches %" PRIu64 ", depths %" PRIu64 ", bound cutoffs %" PRIu64 "\n", nodes,
          per_second(nodes, seconds), a->evals, a->probes, a->iterations, a->bound_cutoffs);
  if (j->tt != NULL) {
    const TtStats *t = tt_stats(j->tt);
    size_t cap, used = tt_used(j->tt, &cap);
    double p = t->probes ? (double)t->probes : 1.0;
    fprintf(f, "stats: table probes %" PRIu64 ", hits %" PRIu64
            " (%.1f%%), cutoffs %" PRIu64 " (%.1f%%), child cutoffs %" PRIu64
            ", stores %" PRIu64 ", replaced %" PRIu64 "\n", t->probes,
            t->hits, 100.0 * (double)t->hits / p, t->cutoffs,
            100.0 * (double)t->cutoffs / p, a->etc_cutoffs, t->stores,
            t->replaced);
    fprintf(f, "stats: table entries %zu of %zu (%.1f%% full)\n", used,
            cap, cap ? 100.0 * (double)used / (double)cap : 0.0);
  } else {
    fputs("stats: no table (--tt-size 0)\n", f);
  }
  if (a->symmetry_skips)
    fprintf(f, "stats: symmetry skips %" PRIu64 " (moves whose position a symmetry of the line "
            "maps onto a sibling's)\n", a->symmetry_skips);
}

/* Retrograde analysis: its enumeration and labelling (the table's
** counts follow, from the report, when they were computed). */
void solver_stats_retro(const SolveJob *j, double seconds, FILE *f) {
  const Retro *x = &j->retro;
  double mib = (double)retro_memory(x) / (1 << 20);
  (void)seconds;
  fprintf(f, "stats: positions %llu, stored %llu (symmetry factor %.2f), moves %llu\n",
          (unsigned long long)x->positions, (unsigned long long)x->stored,
          x->stored ? (double)x->positions / (double)x->stored : 1.0, (unsigned long long)x->edges);
  /* The compact form keeps no moves: its own line says what it keeps. */
  if (x->cpt) fprintf(f, "stats: %.1f MiB in all\n", mib);
  else fprintf(f, "stats: %zu bytes per stored position plus 16 per move; %.1f MiB in all\n",
               retro_bytes_per_position(x), mib);
  fprintf(f, "stats: enumeration %.3f s (%.0f positions/s), labelling %.3f s (%.0f positions/s)\n",
          x->enumerate_seconds, per_second(x->positions, x->enumerate_seconds), x->label_seconds,
          per_second(x->stored, x->label_seconds));
  if (x->cpt) retro_compact_note(x, f);
  if (x->cpt) retro_compact_cycles_note(x, f);
  if (x->closure)
    fprintf(f, "stats: note: positions counts every image of a reachable position under the "
            "symmetries (the root is not symmetric, so some images are not reachable from it)\n");
}

/* Value iteration: retro's enumeration, then the sweeps. */
void solver_stats_valueiter(const SolveJob *j, double seconds, FILE *f) {
  const Retro *x = &j->retro;
  const ValueIter *v = &j->vi;
  if (v->dense)   /* no hash set: the dense graph's own memory, below */
    fprintf(f, "stats: positions %llu, moves %llu (a dense graph: found in one walk with its "
            "components, keys in a direct table)\n", (unsigned long long)x->positions,
            (unsigned long long)x->edges);
  else
    solver_stats_retro(j, seconds, f);
  fprintf(f, "stats: sweeps %" PRIu64 " (the most a component needed), residual %.3g "
          "(--epsilon %.3g); %" PRIu64 " updates (%.1f per position) in %.3f s (%.0f/s); "
          "compact graph %.1f MiB\n", v->sweeps, v->residual, v->epsilon,
          v->updates, x->stored ? (double)v->updates / (double)x->stored : 0.0,
          v->sweep_seconds, per_second(v->updates, v->sweep_seconds),
          (double)vi_memory(v) / (1 << 20));
}

void solver_json_valueiter(const SolveJob *j, JsonWriter *w) {
  json_key(w, "sweeps");
  json_uint(w, j->vi.sweeps);
  json_key(w, "residual");
  json_real(w, j->vi.residual);
}

/* An engine's own solver, where it has a table. */
void solver_stats_engine(const SolveJob *j, double seconds, FILE *f) {
  const EngineSolveOptions *e = &j->o->engine;
  if (!(j->g->vt->features & ENGINE_TABLE)) return;
  fprintf(f, "stats: %s solver: nodes %" PRIu64 " (%.0f nodes/s), "
          "threads %d, table %zu MiB, book hits %" PRIu64 "\n", j->g->engine, j->search.nodes,
          per_second(j->search.nodes, seconds), e->threads ? e->threads : 1, j->o->tt_mib,
          j->book_hits);
}

/* The expanded tree CFR and lp both work on. */
static void tree_stats(const CfrSolver *s, FILE *f) {
  const GameTree *t = &s->tree;
  fprintf(f, "stats: tree: histories %u (chance %u, ends %u), infosets %u, actions %u, "
          "%.1f MiB, expanded in %.3f s\n", t->nnodes, t->nchance, t->nterminal, t->ninfosets,
          t->nactions, (double)t->memory / (1 << 20), s->expand_seconds);
}

/* CFR: its tree, then its iterations. */
void solver_stats_cfr(const SolveJob *j, double seconds, FILE *f) {
  const CfrSolver *s = &j->cfr;
  const GameTree *t = &s->tree;
  (void)seconds;
  tree_stats(s, f);
  fprintf(f, "stats: utilities: %s\n", t->zero_sum ? "the payoffs (zero-sum)"
          : t->margins ? "the margins (payoff minus the other's)" : "the payoffs");
  fprintf(f, "stats: %s: %llu iterations in %.3f s (%.0f iterations/s; CPU %.3f s), "
          "nash_conv %.6g, exploitability measured %llu times (%.3f s)\n", cfrsolve_name(s),
          (unsigned long long)s->iterations, s->iterate_seconds,
          per_second(s->iterations, s->iterate_seconds), s->iterate_cpu, s->nash_conv,
          (unsigned long long)s->measures, s->measure_seconds);
}

/* lp's: the sequence form, GLPK's programs and the exact check; CFR's
** when the tree was too big for lp and CFR+ ran instead. */
void solver_stats_lp(const SolveJob *j, double seconds, FILE *f) {
  const CfrSolver *s = &j->cfr;
  const LpResult *lp = s->lp;
  const char *const *name = j->g->player_names;
  if (lp == NULL) {
    solver_stats_cfr(j, seconds, f);
    return;
  }
  tree_stats(s, f);
  fprintf(f, "stats: sequence form: %u + %u sequences, %u payoff entries, built in %.3f s\n",
          lp->seq[0], lp->seq[1], lp->entries, lp->build_seconds);
  if (!lp->best_response) {
    for (int i = 0; i < j->g->nplayers && i < 2 - lp->from_duals; i++)
      fprintf(f, "stats: %s's program: %d rows, %d columns, %zu nonzeros, %d simplex "
              "iterations\n", name[i], lp->rows[i], lp->cols[i], lp->nonzeros[i],
              lp->simplex_iterations[i]);
    fprintf(f, "stats: GLPK simplex %.3f s, exact simplex %.3f s (%s); programs' gap %.3g, "
            "float strategies' NashConv %.3g\n", lp->lp_seconds, lp->exact_lp_seconds,
            lp->exact_tried ? "run" : "skipped: too many payoff entries", lp->gap, s->nash_conv);
  }
  if (lp->from_duals)
    fprintf(f, "stats: %s's strategy: the duals of %s's program (its dual is %s's)\n",
            name[1], name[0], name[1]);
  if (lp->vertex_tried)
    fprintf(f, "stats: the doubles read as fractions were no exact equilibrium: the "
            "program's exact basis solved again in fractions (GMP), its vertex %s's plan and its "
            "duals %s's, in %.3f s\n", name[0], j->g->nplayers > 1 ? name[1] : "-",
            lp->vertex_seconds);
  fprintf(f, "stats: exact check %.3f s: %s\n", lp->check_seconds,
          !lp->exact_tried ? "skipped (more than LP_EXACT_MAX_ENTRIES ends)"
          : lp->best_response ? "best responses in fractions"
          : lp->value_exact ? "each strategy's best response equals the value: exact"
          : "the rationalized strategies are no exact equilibrium: the float value");
}

/* "cfr+" or "cfr": the variant that ran. */
const char *solver_name_cfr(const SolveJob *j) {
  return cfrsolve_name(&j->cfr);
}
