/*
** modes.c -- the modes that are not a solve: --make-book (an engine's
** opening book), --tree-dot (the game tree for Graphviz), --info-state
** (the players' information states) and play.
*/
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include "cli/cli.h"
#include "cli/treedot.h"
#include "util/clock.h"
#include "util/json.h"

/* The book's progress line (on a terminal, or with --progress). */
static void book_progress(void *arg, const char *how, uint64_t nodes, double done) {
  progress_note(arg, "making the book", how, nodes, "positions", done);
}

/* --make-book FILE: the exact score of every position of up to
** --book-depth stones (default 4), by the native Connect Four solver. */
int run_make_book(Run *r) {
  const Options *o = r->opt;
  Game *g = r->g;
  if (g->vt->make_book == NULL)
    return usage_error("%s", "--make-book needs the native Connect Four engine (connect4.game, k = 4)");
  if (r->pos.n > 0)
    return usage_error("%s", "--make-book starts from the empty board (no --position)");
  int depth = o->book_depth >= 0 ? o->book_depth : 4;
  EngineSolveOptions eo = o->solve.engine;
  EngineBookInfo b = { 0 };
  eo.table_mib = o->solve.tt_mib;
  eo.err = stderr;
  double t0 = clock_seconds();
  Progress progress;
  if (o->solve.progress) {
    progress_start(&progress, stderr);
    eo.progress = book_progress;
    eo.progress_arg = &progress;
  }
  int st = g->vt->make_book(g, &eo, depth, o->make_book, &b);
  if (o->solve.progress) progress_end(&progress);
  double secs = clock_seconds() - t0;
  if (st != EXIT_OK) return st;
  if (o->json) {
    JsonWriter w;
    json_init(&w, stdout);
    json_begin_object(&w);
    json_key(&w, "book"); json_string(&w, o->make_book);
    json_key(&w, "width"); json_int(&w, b.width);
    json_key(&w, "height"); json_int(&w, b.height);
    json_key(&w, "stones"); json_begin_array(&w); json_int(&w, b.from); json_int(&w, b.to);
    json_end_array(&w);
    json_key(&w, "positions"); json_uint(&w, b.positions);
    json_key(&w, "seconds"); json_raw(&w); printf("%.3f", secs);
    json_end_object(&w);
    putchar('\n');
  } else {
    printf("book: %s\nboard: %dx%d\nstones: %d..%d\npositions: %zu\nseconds: %.3f\n",
           o->make_book, b.width, b.height, b.from, b.to, b.positions, secs);
  }
  return EXIT_OK;
}

/* gsolve play FILE: the game and its parameters as the title. */
int run_play(Run *r) {
  char *params = params_text(r->prog), title[512];
  int has = params != NULL && params[0] != '\0';
  snprintf(title, sizeof title, "%s%s%s%s", r->g->name, has ? " (" : "",
           has ? params : "", has ? ")" : "");
  free(params);
  FenBoard b;
  const char *letters = gs_pieces(r->prog, &b);
  return play_run(r->g, r->pos.n, title, r->opt->solve.tt_mib, &r->opt->play,
                  letters ? &b : NULL, stdin, stdout);
}

/* --tree-dot OUT: the game tree as Graphviz DOT (or drawn by dot). */
int run_tree_dot(Run *r) {
  const Options *o = r->opt;
  TreeDotStats ts;
  double t0 = clock_seconds();
  int st = treedot_write(r->g, o->solve.depth, o->tree_prune, o->tree_dot, &ts, stderr);
  if (st != EXIT_OK) return st;
  r->seconds = clock_seconds() - t0;
  if (o->json) {
    JsonWriter w;
    report_json_head(&w, r);
    json_key(&w, "tree"); json_string(&w, o->tree_dot);
    json_key(&w, "nodes"); json_uint(&w, ts.nodes);
    json_key(&w, "edges"); json_uint(&w, ts.edges);
    json_key(&w, "cut_off"); json_uint(&w, ts.cutoffs);
    json_key(&w, "pruned"); json_uint(&w, ts.pruned);
    json_key(&w, "seconds"); json_double(&w, r->seconds);
    json_end_object(&w);
    putchar('\n');
    return EXIT_OK;
  }
  report_header(r);
  printf("tree: %s\nnodes: %" PRIu64 "\nedges: %" PRIu64 "\ncut off: %" PRIu64
         "\npruned: %" PRIu64 "\nseconds: %.3f\n", o->tree_dot, ts.nodes, ts.edges,
         ts.cutoffs, ts.pruned, r->seconds);
  return EXIT_OK;
}

/* --info-state: each player's information state at the position (a game
** with views): its printable text, and in JSON its 128-bit key too. */
int run_info_state(Run *r) {
  Game *g = r->g;
  if (!g->has_views)
    return usage_error("--info-state needs a game with hidden information ('hidden' "
                       "declarations); in %s every player sees the whole state", g->name);
  JsonWriter w;
  if (r->opt->json) {
    report_json_head(&w, r);
    json_key(&w, "info_states");
    json_begin_array(&w);
  } else {
    report_header(r);
  }
  for (int p = 0; p < g->nplayers; p++) {
    uint64_t key[2];
    size_t len = g->vt->infostate(g, p, key, NULL, 0);
    char *text = malloc(len + 1);
    if (!text) return diag_out_of_memory(stderr);
    g->vt->infostate(g, p, key, text, len + 1);
    if (r->opt->json) {
      char hex[40];
      snprintf(hex, sizeof hex, "%016" PRIx64 "%016" PRIx64, key[0], key[1]);
      json_begin_object(&w);
      json_key(&w, "player"); json_string(&w, g->player_names[p]);
      json_key(&w, "key"); json_string(&w, hex);
      json_key(&w, "text"); json_string(&w, text);
      json_end_object(&w);
    } else {
      printf("info-state %s: %s\n", g->player_names[p], text);
    }
    free(text);
  }
  if (r->opt->json) {
    json_end_array(&w);
    json_end_object(&w);
    putchar('\n');
  }
  return EXIT_OK;
}
