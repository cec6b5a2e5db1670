/*
** export_gambit.c -- `--export efg FILE` and `--export nfg FILE`: the
** game from the position, in Gambit's file formats (docs/gambit.md).
**
** Both are built on the tree CFR expands (cfr/gametree.h): its nodes in
** preorder are the .efg's nodes in the order the format lists them, its
** information sets the .efg's (numbered per player in the order they
** first appear; in a game without views, where the tree's sets are
** positions, each node its own), its ends' payoffs (the moves' payoffs summed in) the
** outcomes.  The engine is walked alongside for what the tree does not
** keep: chance moves' names and exact weights (a probability is written
** as the fraction weight / total).  A one-shot game, where each player
** decides at most once, also has a strategic form (.nfg, outcome
** version): each player's strategies are his moves, and each profile's
** payoffs the expected ones over chance.
*/
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "cli/export_gambit.h"
#include "util/clock.h"
#include "util/diag.h"
#include "util/file.h"
#include "util/status.h"

typedef struct Export {
  const GameTree *t;
  Game *g;
  FILE *f;
  uint32_t *number;             /* per infoset: its number for its player */
  Move *moves;                  /* one chance node's moves */
  uint32_t *weights;
  uint32_t outcomes;            /* written so far */
  uint32_t chance_sets;         /* chance nodes written so far */
  uint32_t own[GAME_MAX_PLAYERS];   /* perfect information: each player's
                                ** nodes so far, each its own set */
  FILE *err;
  int status;
} Export;

/* A quoted label: '"' and '\' escaped, control characters as blanks. */
static void put_label(FILE *f, const char *s) {
  fputc('"', f);
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\') fputc('\\', f);
    fputc(c < 32 ? ' ' : c, f);
  }
  fputc('"', f);
}

static uint64_t gcd64(uint64_t a, uint64_t b) {
  while (b) { uint64_t r = a % b; a = b; b = r; }
  return a;
}

/* A number exactly when it is a fraction of small terms (payoffs summed,
** expectations over chance): the continued fraction of x with a
** denominator up to 10^9 that gives x back; else %.17g. */
static void put_number(FILE *f, double x) {
  if (x == floor(x) && fabs(x) < 1e15) { fprintf(f, "%.0f", x); return; }
  double a = fabs(x), h0 = 0, h1 = 1, k0 = 1, k1 = 0, y = a;
  for (int i = 0; i < 40; i++) {
    double q = floor(y), h = q * h1 + h0, k = q * k1 + k0;
    if (k > 1e9) break;
    h0 = h1; h1 = h; k0 = k1; k1 = k;
    if (fabs(h1 / k1 - a) <= 1e-12 * (a > 1 ? a : 1)) {
      fprintf(f, "%s%.0f/%.0f", x < 0 ? "-" : "", h1, k1);
      return;
    }
    if (y - q < 1e-15) break;
    y = 1 / (y - q);
  }
  fprintf(f, "%.17g", x);
}

static void put_payoffs(Export *x, uint32_t end) {
  const GameTree *t = x->t;
  fputs(" {", x->f);
  for (int p = 0; p < t->nplayers; p++) {
    fputc(' ', x->f);
    put_number(x->f, t->pay[(size_t)end * (size_t)t->nplayers + (size_t)p]);
  }
  fputs(" }", x->f);
}

/* Node n of the tree, the engine at its position: its line, then its
** subtree's. */
static void write_node(Export *x, uint32_t n) {
  const GameTree *t = x->t;
  Game *g = x->g;
  FILE *f = x->f;
  if (x->status != EXIT_OK) return;
  int kind = t->kind[n];
  if (kind == GT_TERMINAL) {
    fprintf(f, "t \"\" %" PRIu32 " \"\"", ++x->outcomes);
    put_payoffs(x, t->data[n]);
    fputc('\n', f);
    return;
  }
  Move *m = x->moves;
  int nmoves = game_generate(g, m);
  if (kind == GT_CHANCE) {
    uint64_t total = 0;
    char name[256];
    game_weights(g, m, nmoves, x->weights);
    for (int i = 0; i < nmoves; i++) total += x->weights[i];
    fprintf(f, "c \"\" %" PRIu32 " \"\" {", ++x->chance_sets);
    for (int i = 0; i < nmoves; i++) {
      uint64_t d = gcd64(x->weights[i], total);
      game_format_move(g, &m[i], name, sizeof name);
      fputc(' ', f);
      put_label(f, name);
      if (d == 0) fputs(" 0", f);
      else fprintf(f, " %" PRIu64 "/%" PRIu64, x->weights[i] / d, total / d);
    }
    fputs(" } 0\n", f);
  } else {
    uint32_t set = t->data[n];
    const GtInfoset *I = &t->infosets[set];
    /* Without views the tree's sets are positions, which transpositions
    ** share; in the .efg each node is its own set (perfect information,
    ** perfect recall). */
    fprintf(f, "p \"\" %d %" PRIu32 " ", kind + 1, t->positional ? ++x->own[kind] : x->number[set]);
    put_label(f, gametree_infoset_text(t, set));
    fputs(" {", f);
    for (int a = 0; a < I->nactions; a++) {
      fputc(' ', f);
      put_label(f, gametree_move_name(t, I->action + (uint32_t)a));
    }
    fputs(" } 0\n", f);
  }
  /* The children, with the engine following: the moves are generated
  ** again after each undo (m is shared down the line). */
  int i = 0;
  for (uint32_t c = n + 1; c < t->next[n] && x->status == EXIT_OK; c = t->next[c], i++) {
    nmoves = game_generate(g, x->moves);
    if (i >= nmoves) {
      x->status = diag_fail(x->err, EXIT_LIMIT, "--export: the game tree and the engine disagree");
      return;
    }
    Move mv = x->moves[i];
    game_apply(g, &mv);
    write_node(x, c);
    game_undo(g);
  }
}

/* Numbers every player's information sets 1, 2, ... in order. */
static int number_sets(Export *x) {
  const GameTree *t = x->t;
  uint32_t count[GAME_MAX_PLAYERS] = { 0 };
  if ((x->number = malloc((t->ninfosets ? t->ninfosets : 1) * sizeof *x->number)) == NULL)
    return diag_fail(x->err, EXIT_LIMIT, "out of memory for --export");
  for (uint32_t i = 0; i < t->ninfosets; i++) x->number[i] = ++count[t->infosets[i].player];
  return EXIT_OK;
}

static void put_header(FILE *f, const char *kind, Game *g) {
  fprintf(f, "%s ", kind);
  put_label(f, g->name);
  fputs(" {", f);
  for (int p = 0; p < g->nplayers; p++) {
    fputc(' ', f);
    put_label(f, g->player_names[p]);
  }
  fputs(" }\n", f);
}

static int write_efg(Export *x) {
  put_header(x->f, "EFG 2 R", x->g);
  fputs("\"Written by gsolve --export efg\"\n\n", x->f);
  if ((x->moves = malloc(GAME_MAX_MOVES * sizeof *x->moves)) == NULL
      || (x->weights = malloc(GAME_MAX_MOVES * sizeof *x->weights)) == NULL)
    return diag_fail(x->err, EXIT_LIMIT, "out of memory for --export");
  write_node(x, 0);
  return x->status;
}

/* The expected payoffs from node n when each player p plays action
** pick[p] at his one information set. */
static void expected(const GameTree *t, uint32_t n, const int *pick, double w, double *out) {
  int kind = t->kind[n];
  if (kind == GT_TERMINAL) {
    for (int p = 0; p < t->nplayers; p++)
      out[p] += w * t->pay[(size_t)t->data[n] * (size_t)t->nplayers + (size_t)p];
    return;
  }
  uint32_t k = 0;
  for (uint32_t c = n + 1; c < t->next[n]; c = t->next[c], k++) {
    if (kind == GT_CHANCE) expected(t, c, pick, w * t->prob[t->data[n] + k], out);
    else if ((int)k == pick[kind]) expected(t, c, pick, w, out);
  }
}

static int write_nfg(Export *x) {
  const GameTree *t = x->t;
  Game *g = x->g;
  int set[GAME_MAX_PLAYERS], n = t->nplayers;
  for (int p = 0; p < n; p++) set[p] = -1;
  for (uint32_t i = 0; i < t->ninfosets; i++) {
    int p = t->infosets[i].player;
    if (set[p] >= 0)
      return diag_fail(x->err, EXIT_USAGE, "--export nfg takes a one-shot game (each player decides "
                       "at most once, as in a simultaneous move); %s decides more than once here: "
                       "use --export efg", g->player_names[p]);
    set[p] = (int)i;
  }
  put_header(x->f, "NFG 1 R", g);
  fputs("{\n", x->f);
  uint64_t profiles = 1;
  for (int p = 0; p < n; p++) {
    fputs("{", x->f);
    if (set[p] < 0) fputs(" \"-\"", x->f);
    else
      for (int a = 0; a < t->infosets[set[p]].nactions; a++) {
        fputc(' ', x->f);
        put_label(x->f, gametree_move_name(t, t->infosets[set[p]].action + (uint32_t)a));
      }
    fputs(" }\n", x->f);
    profiles *= set[p] < 0 ? 1 : (uint64_t)t->infosets[set[p]].nactions;
    if (profiles > NFG_MAX_PROFILES)
      return diag_fail(x->err, EXIT_LIMIT, "--export nfg: more than %d strategy profiles",
                       NFG_MAX_PROFILES);
  }
  fputs("}\n\"Written by gsolve --export nfg\"\n\n{\n", x->f);
  /* Each profile its outcome, the first player's strategy varying fastest. */
  int pick[GAME_MAX_PLAYERS] = { 0 };
  for (uint64_t k = 0; k < profiles; k++) {
    double pay[GAME_MAX_PLAYERS] = { 0 };
    uint64_t rest = k;
    for (int p = 0; p < n; p++) {
      int na = set[p] < 0 ? 1 : t->infosets[set[p]].nactions;
      pick[p] = (int)(rest % (uint64_t)na);
      rest /= (uint64_t)na;
    }
    expected(t, 0, pick, 1.0, pay);
    fputs("{ \"\"", x->f);
    for (int p = 0; p < n; p++) {
      fputs(p ? ", " : " ", x->f);
      put_number(x->f, pay[p]);
    }
    fputs(" }\n", x->f);
  }
  fputs("}\n", x->f);
  for (uint64_t k = 0; k < profiles; k++) fprintf(x->f, "%s%" PRIu64, k ? " " : "", k + 1);
  fputc('\n', x->f);
  return EXIT_OK;
}

int export_gambit(Game *g, const char *format, const char *path, size_t memory_limit,
                  ExportStats *stats, FILE *err) {
  GameTree t;
  Export x;
  memset(&t, 0, sizeof t);
  memset(&x, 0, sizeof x);
  int efg = strcmp(format, "efg") == 0;
  int st = gametree_build(&t, g, memory_limit, NULL, err);
  if (st != EXIT_OK) { gametree_free(&t); return st; }
  FileOut out;
  x.t = &t;
  x.g = g;
  x.err = err;
  x.status = EXIT_OK;
  if ((st = number_sets(&x)) == EXIT_OK
      && (st = file_create(&out, path, efg ? "EFG" : "NFG", 3,
                           efg ? "Gambit extensive form (.efg)" : "Gambit strategic form (.nfg)",
                           err)) == EXIT_OK) {
    x.f = out.f;
    st = efg ? write_efg(&x) : write_nfg(&x);
    if (st == EXIT_OK) st = file_commit(&out, err);
    else file_abort(&out);
  }
  if (stats) {
    stats->nodes = t.nnodes;
    stats->infosets = t.ninfosets;
    stats->ends = t.nterminal;
  }
  free(x.number);
  free(x.moves);
  free(x.weights);
  gametree_free(&t);
  return st;
}

int run_export(Run *r) {
  const Options *o = r->opt;
  ExportStats es;
  double t0 = clock_seconds();
  /* The tree within --memory, or CFR's default. */
  size_t limit = o->solve.memory_mib ? o->solve.memory_mib << 20 : solver_default_memory();
  int st = export_gambit(r->g, o->export_format, o->export_path, limit, &es, stderr);
  if (st != EXIT_OK) return st;
  r->seconds = clock_seconds() - t0;
  if (o->json) {
    JsonWriter w;
    report_json_head(&w, r);
    json_key(&w, "export"); json_string(&w, o->export_path);
    json_key(&w, "format"); json_string(&w, o->export_format);
    json_key(&w, "nodes"); json_uint(&w, es.nodes);
    json_key(&w, "infosets"); json_uint(&w, es.infosets);
    json_key(&w, "seconds"); json_double(&w, r->seconds);
    json_end_object(&w);
    putchar('\n');
    return EXIT_OK;
  }
  report_header(r);
  printf("export: %s (%s)\nnodes: %" PRIu32 "\ninfosets: %" PRIu32 "\nseconds: %.3f\n",
         o->export_path, o->export_format, es.nodes, es.infosets, r->seconds);
  return EXIT_OK;
}
