/*
** report_cgt.c -- the reports of --grundy (docs/cgt.md): the Grundy
** value, the win or loss it means for the player to move, and the moves
** to a position of value 0 (the winning moves).
*/
#include <inttypes.h>
#include <string.h>
#include "cli/cli.h"
#include "search/value.h"

/* --solver retro: the plies to the end of a value of the solve job's
** result (retro's distance, the root at ply 0). */
static int64_t retro_plies(Value v) {
  int64_t score, plies;
  value_decode(v, &score, &plies);
  return plies;
}

/* The fields both JSON reports end with, and the object's end. */
static void json_tail(JsonWriter *w, const Run *r) {
  const Grundy *gr = &r->grundy;
  json_key(w, "positions");
  json_uint(w, gr->positions);
  if (gr->by_retro) {
    json_key(w, "stored");
    json_uint(w, r->job.retro.stored);
    json_key(w, "solver");
    json_string(w, r->opt->solve.solver);
  }
  json_key(w, "nodes");
  json_uint(w, gr->nodes);
  json_key(w, "seconds");
  json_double(w, r->seconds);
  json_key(w, "engine");
  json_string(w, r->g->engine);
  json_end_object(w);
  fputc('\n', stdout);
}

/* --grundy-sequence N: G(0..N), the period and pre-period. */
static void text_sequence(const Run *r) {
  const Grundy *gr = &r->grundy;
  report_header(r);
  printf("grundy_sequence:");
  for (int i = 0; i <= gr->seq_n; i++) printf(" %" PRIu32, gr->comp_val[i]);
  printf("\n");
  if (gr->period) printf("period: %d\npreperiod: %d\n", gr->period, gr->preperiod);
  else printf("period: none proven\n");
  printf("max_take: %d\npositions: %" PRIu64 "\nnodes: %" PRIu64 "\nseconds: %.3f\nengine: %s\n",
         (int)gr->max_drop, gr->positions, gr->nodes, r->seconds, r->g->engine);
}

static void json_sequence(const Run *r) {
  const Grundy *gr = &r->grundy;
  JsonWriter w;
  report_json_head(&w, r);
  json_key(&w, "grundy_sequence");
  json_begin_array(&w);
  for (int i = 0; i <= gr->seq_n; i++) json_uint(&w, gr->comp_val[i]);
  json_end_array(&w);
  json_key(&w, "period");
  if (gr->period) json_int(&w, gr->period); else json_null(&w);
  json_key(&w, "preperiod");
  if (gr->period) json_int(&w, gr->preperiod); else json_null(&w);
  json_key(&w, "max_take");
  json_int(&w, gr->max_drop);
  json_tail(&w, r);
}

static void text_grundy(const Run *r) {
  const Grundy *gr = &r->grundy;
  char buf[256];
  report_header(r);
  int win = gr->misere == 1 ? gr->misere_win : gr->value != 0;
  if (gr->misere == 1) printf("misere: Bouton's rule (a sum of Nim heaps)\n");
  else printf("grundy: %" PRIu32 "\n", gr->value);
  printf("value: %s\n", win ? "win" : "loss");
  if (gr->by_retro) printf("plies: %" PRId64 "\n", retro_plies(r->job.search.result.value));
  if (win) {
    const char *sep = " ";
    printf("best:");
    for (int i = 0; i < gr->nmoves; i++)
      if (gr->move_value[i] == 0) {
        printf("%s%s", sep, move_text(r->g, &gr->moves[i], buf, sizeof buf));
        sep = ", ";
      }
    printf("\n");
  }
  printf("positions: %" PRIu64 "\n", gr->positions);
  if (gr->by_retro) printf("stored: %" PRIu64 "\n", r->job.retro.stored);
  printf("nodes: %" PRIu64 "\nseconds: %.3f\n", gr->nodes, r->seconds);
  if (gr->by_retro) printf("solver: %s\n", r->opt->solve.solver);
  printf("engine: %s\n", r->g->engine);
}

static void json_grundy(const Run *r) {
  const Grundy *gr = &r->grundy;
  JsonWriter w;
  char buf[256];
  report_json_head(&w, r);
  int misere = gr->misere == 1;
  json_key(&w, "grundy");
  if (misere) json_null(&w); else json_uint(&w, gr->value);
  json_key(&w, "misere");
  json_bool(&w, misere);
  json_key(&w, "value");
  json_string(&w, (misere ? gr->misere_win : gr->value != 0) ? "win" : "loss");
  if (gr->by_retro) {
    json_key(&w, "plies");
    json_int(&w, retro_plies(r->job.search.result.value));
  }
  json_key(&w, "best");
  json_begin_array(&w);
  for (int i = 0; i < gr->nmoves; i++)
    if (gr->move_value[i] == 0) json_string(&w, move_text(r->g, &gr->moves[i], buf, sizeof buf));
  json_end_array(&w);
  json_key(&w, "moves");
  json_begin_array(&w);
  for (int i = 0; i < gr->nmoves; i++) {
    json_begin_object(&w);
    json_key(&w, "move");
    json_string(&w, move_text(r->g, &gr->moves[i], buf, sizeof buf));
    json_key(&w, misere ? "value" : "grundy");
    if (misere) json_string(&w, gr->move_value[i] ? "win" : "loss");   /* for the opponent */
    else json_uint(&w, gr->move_value[i]);
    if (gr->by_retro) {
      json_key(&w, "plies");
      json_int(&w, retro_plies(r->job.search.result.values[i]));
    }
    json_end_object(&w);
  }
  json_end_array(&w);
  json_tail(&w, r);
}

void report_grundy(const Run *r) {
  if (r->grundy.seq_n >= 0) {
    if (r->opt->json) json_sequence(r);
    else text_sequence(r);
  } else if (r->opt->json) json_grundy(r);
  else text_grundy(r);
}
