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
#include "cfr/lp.h"
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

/* --pv in JSON: "pv", the line's moves, and "pv_repeats_from". */
static void json_pv(JsonWriter *w, const Pv *pv) {
  json_key(w, "pv");
  json_begin_array(w);
  for (int i = 0; i < pv->n; i++) json_string(w, pv->names[i]);
  json_end_array(w);
  json_key(w, "pv_repeats_from");
  if (pv->repeats_from >= 0) json_int(w, pv->repeats_from); else json_null(w);
}

/* A solver's value: score and plies; *proven is 0 for the eval of a
** position at the --depth horizon (then only the score means anything). */
static void decode_value(const Run *r, Value v, int64_t *score,
                         int64_t *plies, int *proven) {
  alphabeta_decode(v, r->opt->solve.depth, score, plies, proven);
}

/* The best moves ("-" for none), the counts and the names after them,
** and the width of the all-moves table's first column: the text
** reports of exact and of expected values share them. */
static void text_best_and_tail(const Run *r, const SolveAnswer *a, const Move *moves,
                               const unsigned char *best, int n, int nbest) {
  char buf[256];
  if (nbest == 0) fputs("-", stdout);
  for (int i = 0, k = 0; i < n; i++)
    if (best[i]) printf("%s%s", k++ ? ", " : "", move_text(r->g, &moves[i], buf, sizeof buf));
  printf("\nnodes: %" PRIu64 "\n", a->nodes);
  if (a->stores) printf("positions: %" PRIu64 "\nstored: %" PRIu64 "\n", a->positions, a->stored);
  printf("seconds: %.3f\nsolver: %s\nengine: %s\n", r->seconds, a->solver, r->g->engine);
}

static int moves_width(const Run *r, const Move *moves, int n) {
  char buf[256];
  int width = 4;
  for (int i = 0; i < n; i++) {
    int w = (int)strlen(move_text(r->g, &moves[i], buf, sizeof buf));
    if (w > width) width = w;
  }
  return width;
}

static void text_solve(const Run *r) {
  SolveAnswer a = solve_job_answer(&r->job);
  const SolveResult *res = a.exact;
  char buf[256];
  int64_t score, plies;
  int i, proven;
  decode_value(r, res->value, &score, &plies, &proven);
  if (r->opt->solve.depth) printf("depth: %d\n", r->opt->solve.depth);
  printf("value: %s\nscore: %" PRId64 "\n",
         proven ? value_verdict(score) : "-", score);
  if (plies >= RETRO_ENDLESS || a.no_plies || !proven) printf("plies: -\nbest: ");   /* a draw forever */
  else printf("plies: %" PRId64 "\nbest: ", plies);
  text_best_and_tail(r, &a, res->moves, res->best, res->nmoves, res->nbest);
  if (r->opt->solve.all_moves && res->nmoves > 0) {
    int width = moves_width(r, res->moves, res->nmoves);
    printf("%-*s  value  score  plies\n", width, "move");
    for (i = 0; i < res->nmoves; i++) {
      decode_value(r, res->values[i], &score, &plies, &proven);
      printf("%-*s  %-5s  %5" PRId64 "  ", width,
             move_text(r->g, &res->moves[i], buf, sizeof buf),
             proven ? value_verdict(score) : "-", score);
      if (plies >= RETRO_ENDLESS || a.no_plies || !proven) printf("%5s\n", "-");
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
  SolveAnswer a = solve_job_answer(&r->job);
  const SolveResult *res = a.exact;
  Mode mode = r->opt->mode;
  JsonWriter w;
  char buf[256];
  int64_t score = 0, plies = 0;
  int proven = 1;
  uint64_t nodes = mode == MODE_PLAYOUTS ? r->playouts.moves + r->playouts.games
                 : mode == MODE_PERFT ? r->perft.nodes
                 : mode == MODE_COUNT ? r->count.nodes : a.nodes;
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
  if (mode == MODE_SOLVE && plies < RETRO_ENDLESS && !a.no_plies && proven) json_int(&w, plies);
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

  json_run_fields(&w, r, nodes, mode == MODE_SOLVE ? a.solver : NULL);
  json_uint_if(&w, "perft", mode == MODE_PERFT, r->perft.count);
  json_key(&w, "depth");
  if (mode == MODE_PERFT) json_int(&w, r->opt->perft_depth);
  else if (mode == MODE_SOLVE && r->opt->solve.depth) json_int(&w, r->opt->solve.depth);
  else json_null(&w);
  json_key(&w, "positions");
  if (mode == MODE_COUNT) json_uint(&w, r->count.positions);
  else if (mode == MODE_SOLVE && a.stores) json_uint(&w, a.positions);
  else json_null(&w);
  json_uint_if(&w, "stored", mode == MODE_SOLVE && a.stores, a.stored);
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
      if (plies < RETRO_ENDLESS && !a.no_plies && proven) json_int(&w, plies);
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
static double exp_root_score(const Run *r, const ExpResult *res, const ExpValue *v) {
  int m = res->mover;
  return exp_shown(exp_score(r->g, v, m == GAME_CHANCE ? 0 : m));
}

/* "win", "loss" or "draw" when the value is certain, else NULL. */
static const char *exp_verdict(const Run *r, const ExpResult *res, double score) {
  if (!res->deterministic || r->g->nplayers > 2) return NULL;
  return score > 0.5e-9 ? "win" : score < -0.5e-9 ? "loss" : "draw";
}

static void text_expected(const Run *r) {
  SolveAnswer a = solve_job_answer(&r->job);
  const ExpResult *res = a.expected;
  char buf[256];
  double sc = exp_root_score(r, res, &res->value);
  const char *verdict = exp_verdict(r, res, sc);
  int i;
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
  text_best_and_tail(r, &a, res->moves, res->best, res->nmoves, res->nbest);
  if (r->opt->solve.all_moves && res->nmoves > 0) {
    int width = moves_width(r, res->moves, res->nmoves);
    printf("%-*s  value  %12s  plies%s\n", width, "move", "score", res->prob ? "  probability" : "");
    for (i = 0; i < res->nmoves; i++) {
      double s = exp_root_score(r, res, &res->values[i]);
      const char *v = exp_verdict(r, res, s);
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
  SolveAnswer a = solve_job_answer(&r->job);
  const ExpResult *res = a.expected;
  JsonWriter w;
  char buf[256];
  int i;
  double sc = exp_root_score(r, res, &res->value);
  const char *verdict = exp_verdict(r, res, sc);
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
  json_run_fields(&w, r, a.nodes, a.solver);
  static const char *const nulls[] = { "perft", "depth" };
  json_nulls(&w, nulls, 2);
  json_uint_if(&w, "positions", a.stores, a.positions);
  json_uint_if(&w, "stored", a.stores, a.stored);
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
  solver_json(&r->job, &w);
  if (r->opt->pv) json_pv(&w, &r->pv);
  if (r->opt->solve.all_moves) {
    json_key(&w, "moves");
    json_begin_array(&w);
    for (i = 0; i < res->nmoves; i++) {
      double s = exp_root_score(r, res, &res->values[i]);
      const char *v = exp_verdict(r, res, s);
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
static int64_t cfr_root_set(const CfrSolver *s) {
  const GameTree *t = &s->tree;
  return t->nnodes > 0 && t->kind[0] >= 0 ? (int64_t)t->data[0] : -1;
}

/* JSON "strategy": the probabilities of the moves at the root's
** information set (root, cfr_root_set's), or null. */
static void json_root_strategy(JsonWriter *w, const CfrSolver *s, int64_t root) {
  const GameTree *t = &s->tree;
  json_key(w, "strategy");
  if (root < 0) {
    json_null(w);
    return;
  }
  json_begin_array(w);
  for (int a = 0; a < t->infosets[root].nactions; a++) {
    uint32_t x = t->infosets[root].action + (uint32_t)a;
    json_begin_object(w);
    json_key(w, "move");
    json_string(w, gametree_move_name(t, x));
    json_key(w, "probability");
    json_real(w, s->avg[x]);
    json_end_object(w);
  }
  json_end_array(w);
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
  SolveAnswer a = solve_job_answer(&r->job);
  const CfrSolver *s = a.strategy;
  const GameTree *t = &s->tree;
  int64_t root = cfr_root_set(s);
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
  printf("\nseconds: %.3f\nsolver: %s\nengine: %s\n", r->seconds, a.solver, r->g->engine);
}

static void json_strategic(const Run *r) {
  SolveAnswer a = solve_job_answer(&r->job);
  const CfrSolver *s = a.strategy;
  const GameTree *t = &s->tree;
  int64_t root = cfr_root_set(s);
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
  json_run_fields(&w, r, a.nodes, a.solver);
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
  json_root_strategy(&w, s, root);
  json_end_object(&w);
  fputc('\n', stdout);
}

/* ---- the lp solver: exact values (lp.h) ---------------------------- */

/* "-1/18 (-0.0555556)" when exact, else the decimal alone; a fraction
** longer than LP_TEXT_MAX_CHARS by its size (JSON has it). */
static void text_exact(const char *exact, double x) {
  const char *slash = exact ? strchr(exact, '/') : NULL;
  if (exact != NULL && slash == NULL) printf("%s", exact);
  else if (exact != NULL && strlen(exact) <= LP_TEXT_MAX_CHARS) printf("%s (%.6g)", exact, x);
  else if (exact != NULL)
    printf("%.10g (a fraction of %zu/%zu digits: --json)",
           exp_shown(lp_exact_double(exact)), (size_t)(slash - exact) - (exact[0] == '-'),
           strlen(slash + 1));
  else printf("%.10g", exp_shown(x));
}

static double exact_or(const char *exact, double x) {
  return exact == NULL ? x : lp_exact_double(exact);
}

/* Players' numbers "P1 a, P2 b", exact where known. */
static void text_players(const Run *r, const char *const *exact, const double *x) {
  for (int i = 0; i < r->g->nplayers; i++) {
    printf("%s %s ", i ? "," : "", r->g->player_names[i]);
    text_exact(exact ? exact[i] : NULL, x[i]);
  }
  putchar('\n');
}

static void text_lp(const Run *r) {
  const CfrSolver *s = &r->job.cfr;
  const LpResult *lp = s->lp;
  const GameTree *t = &s->tree;
  int np = r->g->nplayers;
  if (lp->best_response) {
    fputs("value: -\nscore: ", stdout);
    text_exact(lp->expected_exact, s->score);
  } else {
    fputs("value: ", stdout);
    if (lp->value_exact) text_exact(lp->value_exact, lp->value);
    else printf("%.10g (floating point; the strategies' NashConv %.2g)", lp->value, s->nash_conv);
    printf("\nscore: %.10g", exp_shown(lp->value));
  }
  fputs("\npayoffs:", stdout);
  for (int i = 0; i < np; i++) printf("%s %s %.10g", i ? "," : "", r->g->player_names[i], exp_shown(s->pay[i]));
  if (lp->best_response) {
    double gain[2] = { s->gain[0], np > 1 ? s->gain[1] : 0 };
    fputs("\nbest_response:", stdout);
    text_players(r, lp->exact ? (const char *const *)lp->br_exact : NULL, lp->br);
    fputs("gains:", stdout);
    text_players(r, lp->exact ? (const char *const *)lp->gain_exact : NULL, gain);
    fputs("nash_conv: ", stdout);
    text_exact(lp->nash_conv_exact, s->nash_conv);
    fputs("\nexploitability: ", stdout);
    text_exact(lp->exploitability_exact, s->exploitability);
    printf("\nmissing: %u\n", lp->missing);
  } else {
    fputs("\nexploitability: ", stdout);
    if (lp->value_exact) fputs("0", stdout);
    else printf("%.3g", s->exploitability);
    putchar('\n');
  }
  printf("infosets: %u\nhistories: %u\n", t->ninfosets, t->nnodes);
  int64_t root = cfr_root_set(s);
  if (!lp->best_response) {
    fputs("strategy:", stdout);
    if (root < 0) fputs(" -", stdout);
    for (int a = 0; root >= 0 && a < t->infosets[root].nactions; a++) {
      uint32_t x = t->infosets[root].action + (uint32_t)a;
      printf("%s %s %.6f", a ? "," : "", gametree_move_name(t, x), s->avg[x]);
    }
    putchar('\n');
  }
  printf("seconds: %.3f\nsolver: %s\nengine: %s\n", r->seconds, solver_report_name(&r->job),
         r->g->engine);
}

/* An exact number as a JSON string, or null. */
static void json_exact(JsonWriter *w, const char *key, const char *exact) {
  json_key(w, key);
  if (exact) json_string(w, exact); else json_null(w);
}

static void json_lp(const Run *r) {
  const CfrSolver *s = &r->job.cfr;
  const LpResult *lp = s->lp;
  const GameTree *t = &s->tree;
  int np = r->g->nplayers;
  JsonWriter w;
  report_json_head(&w, r);
  json_key(&w, "value");
  if (lp->best_response) json_null(&w); else json_real(&w, exp_shown(lp->value));
  json_exact(&w, "value_exact", lp->value_exact);
  json_key(&w, "score");
  json_real(&w, exp_shown(lp->best_response ? exact_or(lp->expected_exact, s->score) : lp->value));
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
  for (int i = 0; i < np; i++) json_real(&w, exp_shown(s->pay[i]));
  json_end_array(&w);
  json_key(&w, "exploitability");
  json_real(&w, lp->value_exact ? 0.0 : exact_or(lp->exploitability_exact, s->exploitability));
  json_exact(&w, "exploitability_exact", lp->value_exact ? "0" : lp->exploitability_exact);
  json_key(&w, "nash_conv");
  json_real(&w, lp->value_exact ? 0.0 : exact_or(lp->nash_conv_exact, s->nash_conv));
  json_exact(&w, "nash_conv_exact", lp->value_exact ? "0" : lp->nash_conv_exact);
  if (!lp->best_response) {
    /* The float strategies' NashConv (0 when the value is exact: the
    ** doubles' rounding noise would only vary with GLPK's version) and
    ** the two programs' disagreement. */
    json_key(&w, "residual");
    json_real(&w, lp->value_exact ? 0.0 : s->nash_conv);
    json_key(&w, "lp_gap");
    json_real(&w, lp->gap);
  } else {
    json_key(&w, "best_response");
    json_begin_array(&w);
    for (int i = 0; i < np; i++)
      json_real(&w, exact_or(lp->exact ? lp->br_exact[i] : NULL, lp->br[i]));
    json_end_array(&w);
    json_key(&w, "best_response_exact");
    if (lp->exact) {
      json_begin_array(&w);
      for (int i = 0; i < np; i++) json_string(&w, lp->br_exact[i]);
      json_end_array(&w);
    } else {
      json_null(&w);
    }
    json_key(&w, "missing");
    json_uint(&w, lp->missing);
  }
  json_key(&w, "infosets");
  json_uint(&w, t->ninfosets);
  json_key(&w, "histories");
  json_uint(&w, t->nnodes);
  json_root_strategy(&w, s, lp->best_response ? -1 : cfr_root_set(s));
  json_end_object(&w);
  fputc('\n', stdout);
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

/* The result of the mode, on stdout. */
void report_result(const Run *r) {
  if (r->opt->mode == MODE_GRUNDY) {
    report_grundy(r);
    return;
  }
  switch (r->job.kind) {
  case RESULT_STRATEGY:
    if (r->job.cfr.lp != NULL) {
      if (r->opt->json) json_lp(r);
      else { report_header(r); text_lp(r); }
      break;
    }
    if (r->opt->json) json_strategic(r);
    else { report_header(r); text_strategic(r); }
    break;
  case RESULT_EXPECTED:
    if (r->opt->json) json_expected(r);
    else { report_header(r); text_expected(r); }
    break;
  case RESULT_EXACT:
    if (r->opt->json) report_json(r);
    else report_text(r);
    break;
  }
}

/* --stats, on stderr after the report: what the solver did (its row's
** hook), the table's counts, and which solver it was and why it was
** chosen. */
void report_stats(const Run *r) {
  const SolveJob *j = &r->job;
  if (!r->opt->stats || j->solver == NULL) return;
  fflush(stdout);
  solver_stats(j, r->seconds, stderr);
  if (r->has_table) table_stats(r);
  fprintf(stderr, "stats: solver %s (%s)\n", solver_report_name(j), j->why);
  if (solver_slow_note(j)) fprintf(stderr, "stats: note: %s\n", solver_slow_note(j));
}
