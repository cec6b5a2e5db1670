/*
** report.c -- what a run reports: the header (game, parameters,
** position, player to move), then the mode's result as text or as one
** JSON object (docs/cli.md gives the schema), and --stats on stderr.
*/
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "retro/retro_compact.h"
#include "search/value.h"
#include "util/file.h"
#include "util/json.h"

/* ---- reporting ---------------------------------------------------- */

/* The parameters as text ("heaps=1,3,5,7"), or NULL. */
static void write_params(void *p, FILE *f) { gs_write_params_text(p, f); }

char *params_text(const Program *p) { return file_text_of(write_params, (void *)p); }

char *move_text(Game *g, const Move *m, char *buf, size_t size) {
  buf[0] = '\0';
  game_format_move(g, m, buf, size);
  buf[size - 1] = '\0';
  return buf;
}

void report_header(const Run *r) {
  char *params = params_text(r->prog);
  printf("game: %s", r->g->name);
  if (params != NULL && params[0] != '\0') printf(" (%s)", params);
  free(params);
  fputs("\nposition: ", stdout);
  if (r->opt->fen) printf("%s%s", r->opt->fen, r->pos.n ? ", " : "");
  else if (r->pos.n == 0) fputs("start", stdout);
  for (int i = 0; i < r->pos.n; i++)
    printf("%s%s", i ? ", " : "", r->pos.moves[i]);
  printf("\nto move: %s\n", game_mover_name(r->g));
}

/* The report gives positions and stored for a retrograde solve and
** for an answer from a database. */
/* --pv in JSON: "pv", the line's moves, and "pv_repeats_from". */
static void json_pv(JsonWriter *w, const Pv *pv) {
  json_key(w, "pv");
  json_begin_array(w);
  for (int i = 0; i < pv->n; i++) json_string(w, pv->names[i]);
  json_end_array(w);
  json_key(w, "pv_repeats_from");
  if (pv->repeats_from >= 0) json_int(w, pv->repeats_from); else json_null(w);
}

static int reports_positions(const Run *r) {
  const SolverInfo *s = r->job.solver;
  return s != NULL && (r->job.from_db || strcmp(s->name, "retro") == 0
                       || strcmp(s->name, "value-iteration") == 0);
}

static int is_value_iteration(const Run *r) {
  return r->job.solver != NULL && strcmp(r->job.solver->name, "value-iteration") == 0;
}

/* A solver's value: score and plies; *proven is 0 for the eval of a
** position at the --depth horizon (then only the score means anything). */
static void decode_value(const Run *r, Value v, int64_t *score,
                         int64_t *plies, int *proven) {
  alphabeta_decode(v, r->opt->solve.depth, score, plies, proven);
}

static void text_solve(const Run *r) {
  const SolveResult *res = &r->job.search.result;
  char buf[256];
  int64_t score, plies;
  int i, k, proven;
  decode_value(r, res->value, &score, &plies, &proven);
  if (r->opt->solve.depth) printf("depth: %d\n", r->opt->solve.depth);
  printf("value: %s\nscore: %" PRId64 "\n",
         proven ? value_verdict(score) : "-", score);
  if (plies >= RETRO_ENDLESS || r->job.no_plies || !proven) printf("plies: -\nbest: ");   /* a draw forever */
  else printf("plies: %" PRId64 "\nbest: ", plies);
  if (res->nbest == 0) fputs("-", stdout);
  for (i = k = 0; i < res->nmoves; i++)
    if (res->best[i])
      printf("%s%s", k++ ? ", " : "",
             move_text(r->g, &res->moves[i], buf, sizeof buf));
  printf("\nnodes: %" PRIu64 "\n", r->job.search.nodes);
  if (reports_positions(r))
    printf("positions: %" PRIu64 "\nstored: %" PRIu64 "\n", r->job.retro.positions, r->job.retro.stored);
  printf("seconds: %.3f\nsolver: %s\nengine: %s\n", r->seconds,
         solver_report_name(&r->job), r->g->engine);
  if (r->opt->solve.all_moves && res->nmoves > 0) {
    int width = 4;
    for (i = 0; i < res->nmoves; i++) {
      int w = (int)strlen(move_text(r->g, &res->moves[i], buf, sizeof buf));
      if (w > width) width = w;
    }
    printf("%-*s  value  score  plies\n", width, "move");
    for (i = 0; i < res->nmoves; i++) {
      decode_value(r, res->values[i], &score, &plies, &proven);
      printf("%-*s  %-5s  %5" PRId64 "  ", width,
             move_text(r->g, &res->moves[i], buf, sizeof buf),
             proven ? value_verdict(score) : "-", score);
      if (plies >= RETRO_ENDLESS || r->job.no_plies || !proven) printf("%5s\n", "-");
      else printf("%5" PRId64 "\n", plies);
    }
  }
}

static void report_text(const Run *r) {
  report_header(r);
  switch (r->opt->mode) {
  case MODE_PERFT:
    printf("perft %d: %" PRIu64 "\ngames: %" PRIu64 "\nnodes: %" PRIu64 "\n",
           r->opt->perft_depth, r->perft.count, r->perft.games, r->perft.nodes);
    if (r->g->has_views) printf("infosets: %" PRIu64 "\n", r->perft.infosets);
    printf("seconds: %.3f\nengine: %s\n", r->seconds, r->g->engine);
    break;
  case MODE_PLAYOUTS: {
    const Playouts *pl = &r->playouts;
    printf("playouts: %" PRIu64 "\nmoves: %" PRIu64 " (%.1f a game)\nwins:", pl->games,
           pl->moves, pl->games ? (double)pl->moves / (double)pl->games : 0.0);
    double games = pl->games ? (double)pl->games : 1.0;
    for (int i = 0; i < r->g->nplayers; i++)
      printf("%s %s %" PRIu64 " (%.1f%%)", i ? "," : "", r->g->player_names[i], pl->wins[i],
             100.0 * (double)pl->wins[i] / games);
    printf("\npayoffs:");
    for (int i = 0; i < r->g->nplayers; i++)
      printf("%s %s %.2f", i ? "," : "", r->g->player_names[i], (double)pl->payoff[i] / games);
    printf(" (mean)\ndraws: %" PRIu64 "\nseconds: %.3f\nplayouts/s: %.0f\nengine: %s\n", pl->draws,
           r->seconds, r->seconds > 0 ? (double)pl->games / r->seconds : 0.0, r->g->engine);
    break;
  }
  case MODE_COUNT:
    printf("positions: %" PRIu64 "\nterminal: %" PRIu64 "\n", r->count.positions,
           r->count.terminal);
    if (r->count.canonical)
      printf("canonical: %" PRIu64 "\n", r->count.canonical);
    if (r->count.boards)
      printf("boards: %" PRIu64 "\n", r->count.boards);
    printf("nodes: %" PRIu64 "\nseconds: %.3f\nengine: %s\n",
           r->count.nodes, r->seconds, r->g->engine);
    break;
  default:
    text_solve(r);
  }
}

/* A field that is null where the run did not compute it. */
static void json_uint_if(JsonWriter *w, const char *key, int present, uint64_t v) {
  json_key(w, key);
  if (present) json_uint(w, v);
  else json_null(w);
}

/* Fields no run of this kind computes: each null. */
static void json_nulls(JsonWriter *w, const char *const *keys, int n) {
  for (int i = 0; i < n; i++) {
    json_key(w, keys[i]);
    json_null(w);
  }
}

/* The run's "nodes", "seconds", "solver" (null without one) and "engine". */
static void json_run_fields(JsonWriter *w, const Run *r, uint64_t nodes, const char *solver) {
  json_key(w, "nodes");
  json_uint(w, nodes);
  json_key(w, "seconds");
  json_double(w, r->seconds);
  json_key(w, "solver");
  if (solver) json_string(w, solver);
  else json_null(w);
  json_key(w, "engine");
  json_string(w, r->g->engine);
}

/* The fields every JSON report starts with: the game, its parameters,
** the position and the player to move (an object is left open). */
void report_json_head(JsonWriter *w, const Run *r) {
  json_init(w, stdout);
  json_begin_object(w);
  json_key(w, "game");
  json_string(w, r->g->name);
  json_key(w, "params");
  json_raw(w);
  gs_write_params_json(r->prog, stdout);
  json_key(w, "position");
  json_begin_array(w);
  for (int i = 0; i < r->pos.n; i++) json_string(w, r->pos.moves[i]);
  json_end_array(w);
  json_key(w, "fen");
  if (r->opt->fen) json_string(w, r->opt->fen); else json_null(w);
  json_key(w, "to_move");
  json_string(w, game_mover_name(r->g));
}

static void json_table(JsonWriter *w, const Run *r);

/* One object with every field; those the mode does not compute are null. */
static void report_json(const Run *r) {
  const SolveResult *res = &r->job.search.result;
  Mode mode = r->opt->mode;
  JsonWriter w;
  char buf[256];
  int64_t score = 0, plies = 0;
  int proven = 1;
  uint64_t nodes = mode == MODE_PLAYOUTS ? r->playouts.moves + r->playouts.games
                 : mode == MODE_PERFT ? r->perft.nodes
                 : mode == MODE_COUNT ? r->count.nodes : r->job.search.nodes;
  int i;

  report_json_head(&w, r);

  if (mode == MODE_SOLVE) decode_value(r, res->value, &score, &plies, &proven);
  json_key(&w, "value");
  if (mode == MODE_SOLVE && proven) json_string(&w, value_verdict(score));
  else json_null(&w);
  json_key(&w, "score");
  if (mode == MODE_SOLVE) json_int(&w, score);
  else json_null(&w);
  json_key(&w, "plies");
  if (mode == MODE_SOLVE && plies < RETRO_ENDLESS && !r->job.no_plies && proven) json_int(&w, plies);
  else json_null(&w);
  json_key(&w, "best");
  if (mode == MODE_SOLVE) {
    json_begin_array(&w);
    for (i = 0; i < res->nmoves; i++)
      if (res->best[i])
        json_string(&w, move_text(r->g, &res->moves[i], buf, sizeof buf));
    json_end_array(&w);
  } else {
    json_null(&w);
  }

  json_run_fields(&w, r, nodes, mode == MODE_SOLVE ? solver_report_name(&r->job) : NULL);
  json_uint_if(&w, "perft", mode == MODE_PERFT, r->perft.count);
  json_key(&w, "depth");
  if (mode == MODE_PERFT) json_int(&w, r->opt->perft_depth);
  else if (mode == MODE_SOLVE && r->opt->solve.depth) json_int(&w, r->opt->solve.depth);
  else json_null(&w);
  json_key(&w, "positions");
  if (mode == MODE_COUNT) json_uint(&w, r->count.positions);
  else if (mode == MODE_SOLVE && reports_positions(r)) json_uint(&w, r->job.retro.positions);
  else json_null(&w);
  json_uint_if(&w, "stored", mode == MODE_SOLVE && reports_positions(r), r->job.retro.stored);
  json_table(&w, r);
  json_uint_if(&w, "terminal", mode == MODE_COUNT, r->count.terminal);
  json_uint_if(&w, "canonical", mode == MODE_COUNT && r->count.canonical, r->count.canonical);
  json_uint_if(&w, "games", mode == MODE_PERFT, r->perft.games);
  if (mode == MODE_PERFT && r->g->has_views) {   /* as the text says it */
    json_key(&w, "infosets");
    json_uint(&w, r->perft.infosets);
  }
  json_uint_if(&w, "boards", mode == MODE_COUNT && r->count.boards, r->count.boards);
  json_key(&w, "playouts");
  if (mode == MODE_PLAYOUTS) {
    json_begin_object(&w);
    json_key(&w, "games");
    json_uint(&w, r->playouts.games);
    json_key(&w, "moves");
    json_uint(&w, r->playouts.moves);
    json_key(&w, "wins");
    json_begin_array(&w);
    for (i = 0; i < r->g->nplayers; i++) json_uint(&w, r->playouts.wins[i]);
    json_end_array(&w);
    json_key(&w, "draws");
    json_uint(&w, r->playouts.draws);
    json_key(&w, "mean_payoffs");
    json_begin_array(&w);
    for (i = 0; i < r->g->nplayers; i++)
      json_double(&w, r->playouts.games ? (double)r->playouts.payoff[i] / (double)r->playouts.games : 0.0);
    json_end_array(&w);
    json_end_object(&w);
  } else {
    json_null(&w);
  }
  json_key(&w, "payoffs");
  json_null(&w);

  if (mode == MODE_SOLVE && r->opt->pv) json_pv(&w, &r->pv);
  if (mode == MODE_SOLVE && r->opt->solve.all_moves) {
    json_key(&w, "moves");
    json_begin_array(&w);
    for (i = 0; i < res->nmoves; i++) {
      decode_value(r, res->values[i], &score, &plies, &proven);
      json_begin_object(&w);
      json_key(&w, "move");
      json_string(&w, move_text(r->g, &res->moves[i], buf, sizeof buf));
      json_key(&w, "value");
      if (proven) json_string(&w, value_verdict(score));
      else json_null(&w);
      json_key(&w, "score");
      json_int(&w, score);
      json_key(&w, "plies");
      if (plies < RETRO_ENDLESS && !r->job.no_plies && proven) json_int(&w, plies);
      else json_null(&w);
      json_key(&w, "probability");
      json_null(&w);
      json_end_object(&w);
    }
    json_end_array(&w);
  }
  json_end_object(&w);
  fputc('\n', stdout);
}

/* ---- reporting expected values ------------------------------------ */

/* An expected value as shown: 0 when the solvers take it as equal to 0
** (EXP_EPS), so rounding noise (2.8e-17 for a symmetric game) is neither
** printed nor given a sign. */
static double exp_shown(double x) {
  return fabs(x) <= EXP_EPS * (1 + fabs(x)) ? 0.0 : x;
}

/* The score of an expected value for the root's mover; at a chance root,
** for the first player. */
static double exp_root_score(const Run *r, const ExpValue *v) {
  int m = r->job.exp.result.mover;
  return exp_shown(exp_score(r->g, v, m == GAME_CHANCE ? 0 : m));
}

/* "win", "loss" or "draw" when the value is certain, else NULL. */
static const char *exp_verdict(const Run *r, double score) {
  if (!r->job.exp.result.deterministic || r->g->nplayers > 2) return NULL;
  return score > 0.5e-9 ? "win" : score < -0.5e-9 ? "loss" : "draw";
}

static void text_expected(const Run *r) {
  const ExpResult *res = &r->job.exp.result;
  char buf[256];
  double sc = exp_root_score(r, &res->value);
  const char *verdict = exp_verdict(r, sc);
  int i, k;
  printf("value: %s\nscore: %.10g\n", verdict ? verdict : "-", sc);
  if (res->vector) {
    fputs("payoffs:", stdout);
    for (i = 0; i < r->g->nplayers; i++)
      printf("%s %s %.10g", i ? "," : "", r->g->player_names[i], exp_shown(res->value.pay[i]));
    fputc('\n', stdout);
  }
  if (res->deterministic && res->value.plies < EXP_ENDLESS) printf("plies: %.0f\n", res->value.plies);
  else printf("plies: -\n");
  fputs("best: ", stdout);
  if (res->nbest == 0) fputs("-", stdout);
  for (i = k = 0; i < res->nmoves; i++)
    if (res->best[i])
      printf("%s%s", k++ ? ", " : "", move_text(r->g, &res->moves[i], buf, sizeof buf));
  printf("\nnodes: %" PRIu64 "\n", r->job.exp.nodes);
  if (reports_positions(r))
    printf("positions: %" PRIu64 "\nstored: %" PRIu64 "\n", r->job.retro.positions, r->job.retro.stored);
  printf("seconds: %.3f\nsolver: %s\nengine: %s\n", r->seconds, solver_report_name(&r->job), r->g->engine);
  if (r->opt->solve.all_moves && res->nmoves > 0) {
    int width = 4;
    for (i = 0; i < res->nmoves; i++) {
      int w = (int)strlen(move_text(r->g, &res->moves[i], buf, sizeof buf));
      if (w > width) width = w;
    }
    printf("%-*s  value  %12s  plies%s\n", width, "move", "score", res->prob ? "  probability" : "");
    for (i = 0; i < res->nmoves; i++) {
      double s = exp_root_score(r, &res->values[i]);
      const char *v = exp_verdict(r, s);
      printf("%-*s  %-5s  %12.10g  ", width, move_text(r->g, &res->moves[i], buf, sizeof buf),
             v ? v : "-", s);
      if (res->deterministic && res->values[i].plies < EXP_ENDLESS) printf("%5.0f", res->values[i].plies);
      else printf("%5s", "-");
      if (res->prob) printf("  %11.10g", res->prob[i]);
      fputc('\n', stdout);
    }
  }
}

static void json_expected(const Run *r) {
  const ExpResult *res = &r->job.exp.result;
  JsonWriter w;
  char buf[256];
  int i;
  double sc = exp_root_score(r, &res->value);
  const char *verdict = exp_verdict(r, sc);
  report_json_head(&w, r);
  json_key(&w, "value");
  if (verdict) json_string(&w, verdict); else json_null(&w);
  json_key(&w, "score");
  json_real(&w, sc);
  json_key(&w, "plies");
  if (res->deterministic && res->value.plies < EXP_ENDLESS) json_int(&w, (int64_t)res->value.plies);
  else json_null(&w);
  json_key(&w, "best");
  json_begin_array(&w);
  for (i = 0; i < res->nmoves; i++)
    if (res->best[i]) json_string(&w, move_text(r->g, &res->moves[i], buf, sizeof buf));
  json_end_array(&w);
  json_run_fields(&w, r, r->job.exp.nodes, solver_report_name(&r->job));
  static const char *const nulls[] = { "perft", "depth" };
  json_nulls(&w, nulls, 2);
  json_uint_if(&w, "positions", reports_positions(r), r->job.retro.positions);
  json_uint_if(&w, "stored", reports_positions(r), r->job.retro.stored);
  static const char *const nulls2[] = { "terminal", "canonical", "games", "boards", "playouts" };
  json_nulls(&w, nulls2, 5);
  json_key(&w, "payoffs");
  if (res->vector) {
    json_begin_array(&w);
    for (i = 0; i < r->g->nplayers; i++) json_real(&w, exp_shown(res->value.pay[i]));
    json_end_array(&w);
  } else {
    json_null(&w);
  }
  if (is_value_iteration(r)) {
    json_key(&w, "sweeps");
    json_uint(&w, r->job.vi.sweeps);
    json_key(&w, "residual");
    json_real(&w, r->job.vi.residual);
  }
  if (r->opt->pv) json_pv(&w, &r->pv);
  if (r->opt->solve.all_moves) {
    json_key(&w, "moves");
    json_begin_array(&w);
    for (i = 0; i < res->nmoves; i++) {
      double s = exp_root_score(r, &res->values[i]);
      const char *v = exp_verdict(r, s);
      json_begin_object(&w);
      json_key(&w, "move");
      json_string(&w, move_text(r->g, &res->moves[i], buf, sizeof buf));
      json_key(&w, "value");
      if (v) json_string(&w, v); else json_null(&w);
      json_key(&w, "score");
      json_real(&w, s);
      json_key(&w, "plies");
      if (res->deterministic && res->values[i].plies < EXP_ENDLESS)
        json_int(&w, (int64_t)res->values[i].plies);
      else
        json_null(&w);
      json_key(&w, "probability");
      if (res->prob) json_real(&w, res->prob[i]); else json_null(&w);
      json_end_object(&w);
    }
    json_end_array(&w);
  }
  json_end_object(&w);
  fputc('\n', stdout);
}

/* ---- reporting a strategy (cfr) ----------------------------------- */

/* The root's information set in the tree, or -1 (the root is an end or
** a chance node). */
static int64_t cfr_root_set(const Run *r) {
  const GameTree *t = &r->job.cfr.tree;
  return t->nnodes > 0 && t->kind[0] >= 0 ? (int64_t)t->data[0] : -1;
}

/* The decimals that show a bound to two significant digits (the score
** is known no better): 4 for 0.0012; -1 when there is no bound. */
static int bound_decimals(const CfrSolver *s) {
  double bound, lo, hi;
  if (!cfrsolve_score_bound(s, &bound, &lo, &hi) || !(bound > 0)) return -1;
  int d = 1 - (int)floor(log10(bound));
  return d < 0 ? 0 : d > 10 ? 10 : d;
}

static void text_strategic(const Run *r) {
  const CfrSolver *s = &r->job.cfr;
  const GameTree *t = &s->tree;
  int64_t root = cfr_root_set(r);
  double bound, lo, hi;
  int d = bound_decimals(s);
  /* The score to the digits the exploitability lets it be known, and
  ** how far from the game's value it may be. */
  if (d >= 0) printf("value: -\nscore: %.*f \u00b1 %.*f\npayoffs:", d, exp_shown(s->score), d,
                     (cfrsolve_score_bound(s, &bound, &lo, &hi), bound));
  else if (cfrsolve_score_bound(s, &bound, &lo, &hi)) printf("value: -\nscore: %.10g \u00b1 0\npayoffs:",
                                                            exp_shown(s->score));
  else printf("value: -\nscore: %.10g\npayoffs:", exp_shown(s->score));
  for (int i = 0; i < r->g->nplayers; i++)
    if (d >= 0) printf("%s %s %.*f", i ? "," : "", r->g->player_names[i], d, exp_shown(s->pay[i]));
    else printf("%s %s %.10g", i ? "," : "", r->g->player_names[i], exp_shown(s->pay[i]));
  printf("\nexploitability: %.6g\niterations: %llu\ninfosets: %u\nhistories: %u\n",
         s->exploitability, (unsigned long long)s->iterations, t->ninfosets, t->nnodes);
  fputs("strategy:", stdout);
  if (root < 0) fputs(" -", stdout);
  for (int a = 0; root >= 0 && a < t->infosets[root].nactions; a++) {
    uint32_t x = t->infosets[root].action + (uint32_t)a;
    printf("%s %s %.6f", a ? "," : "", gametree_move_name(t, x), s->avg[x]);
  }
  printf("\nseconds: %.3f\nsolver: %s\nengine: %s\n", r->seconds, solver_report_name(&r->job),
         r->g->engine);
}

static void json_strategic(const Run *r) {
  const CfrSolver *s = &r->job.cfr;
  const GameTree *t = &s->tree;
  int64_t root = cfr_root_set(r);
  JsonWriter w;
  int i;
  report_json_head(&w, r);
  json_key(&w, "value");
  json_null(&w);
  json_key(&w, "score");
  json_real(&w, exp_shown(s->score));
  json_key(&w, "plies");
  json_null(&w);
  json_key(&w, "best");
  json_null(&w);
  json_run_fields(&w, r, t->nnodes, solver_report_name(&r->job));
  static const char *const nulls[] = { "perft", "depth", "positions", "stored", "terminal",
                                       "canonical", "games", "boards", "playouts" };
  json_nulls(&w, nulls, 9);
  json_key(&w, "payoffs");
  json_begin_array(&w);
  for (i = 0; i < r->g->nplayers; i++) json_real(&w, exp_shown(s->pay[i]));
  json_end_array(&w);
  json_key(&w, "exploitability");
  json_real(&w, s->exploitability);
  json_key(&w, "nash_conv");
  json_real(&w, s->nash_conv);
  /* How far the score may be from the game's value, and the interval
  ** the value lies in; null with more than two players (no value). */
  double bound, lo, hi;
  int known = cfrsolve_score_bound(s, &bound, &lo, &hi);
  json_key(&w, "score_bound");
  if (known) json_real(&w, bound); else json_null(&w);
  json_key(&w, "score_interval");
  if (known) {
    json_begin_array(&w);
    json_real(&w, lo);
    json_real(&w, hi);
    json_end_array(&w);
  } else {
    json_null(&w);
  }
  json_key(&w, "iterations");
  json_uint(&w, s->iterations);
  json_key(&w, "infosets");
  json_uint(&w, t->ninfosets);
  json_key(&w, "histories");
  json_uint(&w, t->nnodes);
  json_key(&w, "strategy");
  if (root < 0) {
    json_null(&w);
  } else {
    json_begin_array(&w);
    for (int a = 0; a < t->infosets[root].nactions; a++) {
      uint32_t x = t->infosets[root].action + (uint32_t)a;
      json_begin_object(&w);
      json_key(&w, "move");
      json_string(&w, gametree_move_name(t, x));
      json_key(&w, "probability");
      json_real(&w, s->avg[x]);
      json_end_object(&w);
    }
    json_end_array(&w);
  }
  json_end_object(&w);
  fputc('\n', stdout);
}

/* --stats for a CFR solve. */
static void cfr_stats(const Run *r) {
  const CfrSolver *s = &r->job.cfr;
  const GameTree *t = &s->tree;
  fprintf(stderr, "stats: tree: histories %u (chance %u, ends %u), infosets %u, actions %u, "
          "%.1f MiB, expanded in %.3f s\n", t->nnodes, t->nchance, t->nterminal, t->ninfosets,
          t->nactions, (double)t->memory / (1 << 20), s->expand_seconds);
  fprintf(stderr, "stats: utilities: %s\n", t->zero_sum ? "the payoffs (zero-sum)"
          : t->margins ? "the margins (payoff minus the other's)" : "the payoffs");
  fprintf(stderr, "stats: %s: %llu iterations in %.3f s (%.0f iterations/s; CPU %.3f s), "
          "nash_conv %.6g, exploitability measured %llu times (%.3f s)\n", cfrsolve_name(s),
          (unsigned long long)s->iterations, s->iterate_seconds,
          s->iterate_seconds > 0 ? (double)s->iterations / s->iterate_seconds : 0.0,
          s->iterate_cpu, s->nash_conv, (unsigned long long)s->measures, s->measure_seconds);
}

/* --stats for an alphabeta solve, on stderr, after the report. */
static void alphabeta_stats(const Run *r) {
  const AbStats *a = &r->job.ab.stats;
  uint64_t nodes = r->job.search.nodes;
  fflush(stdout);
  fprintf(stderr, "stats: nodes %" PRIu64 " (%.0f nodes/s), evals %" PRIu64
          ", root searches %" PRIu64 ", depths %" PRIu64 ", bound cutoffs %" PRIu64 "\n", nodes,
          r->seconds > 0 ? (double)nodes / r->seconds : 0.0, a->evals,
          a->probes, a->iterations, a->bound_cutoffs);
  if (r->job.tt != NULL) {
    const TtStats *t = tt_stats(r->job.tt);
    size_t cap, used = tt_used(r->job.tt, &cap);
    double p = t->probes ? (double)t->probes : 1.0;
    fprintf(stderr, "stats: table probes %" PRIu64 ", hits %" PRIu64
            " (%.1f%%), cutoffs %" PRIu64 " (%.1f%%), child cutoffs %" PRIu64
            ", stores %" PRIu64 ", replaced %" PRIu64 "\n", t->probes,
            t->hits, 100.0 * (double)t->hits / p, t->cutoffs,
            100.0 * (double)t->cutoffs / p, a->etc_cutoffs, t->stores,
            t->replaced);
    fprintf(stderr, "stats: table entries %zu of %zu (%.1f%% full)\n", used,
            cap, cap ? 100.0 * (double)used / (double)cap : 0.0);
  } else {
    fputs("stats: no table (--tt-size 0)\n", stderr);
  }
  if (a->symmetry_skips)
    fprintf(stderr, "stats: symmetry skips %" PRIu64 " (moves whose position a symmetry of the line "
            "maps onto a sibling's)\n", a->symmetry_skips);
}

/* An example position of the table: FEN when the game declares its
** pieces, else the state as the engine prints slot values. */
static void example_text(const Run *r, const void *state, char *buf, size_t size) {
  FenBoard b;
  b.letters = gs_pieces(r->prog, &b);
  if (b.letters) {
    fen_write(&b, state, r->g->nplayers, buf, size);
    return;
  }
  size_t n = 0;
  const int32_t *s = state;
  buf[0] = 0;
  for (size_t i = 0; i < r->g->state_bytes / sizeof(int32_t) && n + 12 < size; i++)
    n += (size_t)snprintf(buf + n, size - n, "%s%d", i ? " " : "", s[i]);
}

/* The table's counts (--stats on a retrograde solve), on stderr. */
static void table_stats(const Run *r) {
  const RetroStats *t = &r->table;
  char buf[512];
  for (int m = 0; m < t->nmovers; m++) {
    const char *who = r->g->player_names[m];
    fprintf(stderr, "stats: %s to move: %llu won, %llu lost, %llu drawn (%s)\n", who,
            (unsigned long long)t->count[m][RETRO_WIN], (unsigned long long)t->count[m][RETRO_LOSS],
            (unsigned long long)t->count[m][RETRO_DRAW],
            t->raw ? "positions before symmetry" : "stored positions");
    for (int k = 0; k < 2; k++) {
      fprintf(stderr, "stats: %s to move, %s in plies:", who, k ? "lost" : "won");
      for (uint32_t d = 0; d <= t->maxdist; d++)
        if (t->hist[m][k][d]) fprintf(stderr, " %u:%llu", d, (unsigned long long)t->hist[m][k][d]);
      fputc('\n', stderr);
    }
    if (t->longest[m] >= 0) {
      if (t->example[m]) example_text(r, t->example[m], buf, sizeof buf);
      fprintf(stderr, "stats: longest win, %s to move: %lld plies%s%s\n", who,
              (long long)t->longest[m], t->example[m] ? ", e.g. " : "", t->example[m] ? buf : "");
    }
  }
}

/* The same in the JSON report: "table", or null. */
static void json_table(JsonWriter *w, const Run *r) {
  const RetroStats *t = &r->table;
  char buf[512];
  json_key(w, "table");
  if (!r->has_table) { json_null(w); return; }
  json_begin_object(w);
  json_key(w, "counted");
  json_string(w, t->raw ? "positions" : "stored");
  json_key(w, "by_mover");
  json_begin_array(w);
  for (int m = 0; m < t->nmovers; m++) {
    json_begin_object(w);
    json_key(w, "to_move"); json_string(w, r->g->player_names[m]);
    json_key(w, "win"); json_uint(w, t->count[m][RETRO_WIN]);
    json_key(w, "loss"); json_uint(w, t->count[m][RETRO_LOSS]);
    json_key(w, "draw"); json_uint(w, t->count[m][RETRO_DRAW]);
    for (int k = 0; k < 2; k++) {
      json_key(w, k ? "loss_plies" : "win_plies");
      json_begin_array(w);
      for (uint32_t d = 0; d <= t->maxdist; d++) json_uint(w, t->hist[m][k][d]);
      json_end_array(w);
    }
    json_key(w, "longest_win");
    if (t->longest[m] >= 0) json_int(w, t->longest[m]); else json_null(w);
    json_key(w, "example");
    if (t->example[m]) { example_text(r, t->example[m], buf, sizeof buf); json_string(w, buf); }
    else json_null(w);
    json_end_object(w);
  }
  json_end_array(w);
  json_end_object(w);
}

/* --stats for a retrograde solve, on stderr. */
static void retro_stats(const Run *r) {
  const Retro *x = &r->job.retro;
  double mib = (double)retro_memory(x) / (1 << 20);
  fprintf(stderr, "stats: positions %llu, stored %llu (symmetry factor %.2f), moves %llu\n"
          "stats: %zu bytes per stored position plus 16 per move; %.1f MiB in all\n"
          "stats: enumeration %.3f s (%.0f positions/s), labelling %.3f s (%.0f positions/s)\n",
          (unsigned long long)x->positions, (unsigned long long)x->stored,
          x->stored ? (double)x->positions / (double)x->stored : 1.0, (unsigned long long)x->edges,
          retro_bytes_per_position(x), mib, x->enumerate_seconds,
          x->enumerate_seconds > 0 ? (double)x->positions / x->enumerate_seconds : 0.0,
          x->label_seconds, x->label_seconds > 0 ? (double)x->stored / x->label_seconds : 0.0);
  if (x->cpt) retro_compact_note(x, stderr);
  if (x->closure)
    fprintf(stderr, "stats: note: positions counts every image of a reachable position under the "
            "symmetries (the root is not symmetric, so some images are not reachable from it)\n");
  if (r->has_table) table_stats(r);
}


/* The result of the mode, on stdout. */
void report_result(const Run *r) {
  if (r->opt->mode == MODE_GRUNDY) {
    report_grundy(r);
  } else if (r->job.strategic) {
    if (r->opt->json) json_strategic(r);
    else { report_header(r); text_strategic(r); }
  } else if (r->job.expected) {
    if (r->opt->json) json_expected(r);
    else { report_header(r); text_expected(r); }
  } else if (r->opt->json) {
    report_json(r);
  } else {
    report_text(r);
  }
}

/* --stats, on stderr after the report: what the solver did, and which
** solver it was and why it was chosen. */
void report_stats(const Run *r) {
  const SolveJob *j = &r->job;
  if (!r->opt->stats || j->solver == NULL) return;
  fflush(stdout);
  const char *name = j->solver->name;
  if (j->strategic) {
    cfr_stats(r);
  } else if (strcmp(name, "retro") == 0) {
    retro_stats(r);
  } else if (r->has_table) {
    table_stats(r);
  } else if (is_value_iteration(r)) {
    const Retro *x = &j->retro;
    retro_stats(r);
    fprintf(stderr, "stats: sweeps %" PRIu64 " (the most a component needed), residual %.3g "
            "(--epsilon %.3g); %" PRIu64 " updates (%.1f per position) in %.3f s (%.0f/s); "
            "compact graph %.1f MiB\n", j->vi.sweeps, j->vi.residual, j->vi.epsilon,
            j->vi.updates, x->stored ? (double)j->vi.updates / (double)x->stored : 0.0,
            j->vi.sweep_seconds, j->vi.sweep_seconds > 0
            ? (double)j->vi.updates / j->vi.sweep_seconds : 0.0,
            (double)vi_memory(&j->vi) / (1 << 20));
  } else if (j->expected) {
    fprintf(stderr, "stats: nodes %" PRIu64 " (%.0f nodes/s), memo hits %" PRIu64
            ", memo entries %" PRIu64 "%s\n", j->exp.nodes,
            r->seconds > 0 ? (double)j->exp.nodes / r->seconds : 0.0,
            j->exp.memo_hits, j->exp.memo_stored, j->exp.memo_grew ? ", table grew" : "");
    if (j->exp.memo_grew)
      fprintf(stderr, "stats: the memo table doubled %" PRIu64 " times (from --tt-size %zu)\n",
              j->exp.memo_grew, r->opt->solve.tt_mib);
  } else if (strcmp(name, "alphabeta") == 0) {
    alphabeta_stats(r);
  } else if (strcmp(name, "native") == 0 && (r->g->vt->features & ENGINE_TABLE)) {
    const EngineSolveOptions *e = &r->opt->solve.engine;
    fprintf(stderr, "stats: %s solver: nodes %" PRIu64 " (%.0f nodes/s), "
            "threads %d, table %zu MiB, book hits %" PRIu64 "\n", r->g->engine, j->search.nodes,
            r->seconds > 0 ? (double)j->search.nodes / r->seconds : 0.0,
            e->threads ? e->threads : 1, r->opt->solve.tt_mib, j->book_hits);
  }
  fprintf(stderr, "stats: solver %s (%s)\n", solver_report_name(j), j->why);
  if (solver_slow_note(j)) fprintf(stderr, "stats: note: %s\n", solver_slow_note(j));
}
