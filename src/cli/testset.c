/*
** testset.c -- --test-set FILE: every line "moves score" (moves from the
** start) is solved from scratch and its score checked against the
** expected one; the count, the mismatches, the mean time and nodes.
*/
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "search/value.h"
#include "util/clock.h"
#include "util/diag.h"
#include "util/json.h"
#include "util/units.h"

/* One line of a test set: "moves score", the score its last word, the
** moves before it (glued digits or words; "-" for none).  Zero-based
** moves are column digits from 0 (Steininger's sets, up to 10 columns),
** rewritten as the game's moves "1" .. "10" one word each.  1 with the
** moves (in `moves`) and the expected score, 0 for a blank or comment
** line, -1 malformed. */
static int test_line(const char *line, int zero_based, char *moves, size_t size, long *want) {
  size_t len = strlen(line);
  while (len > 0 && isspace((unsigned char)line[len - 1])) len--;
  size_t start = 0;
  while (start < len && isspace((unsigned char)line[start])) start++;
  if (start == len || line[start] == '#') return 0;
  size_t last = len;                      /* the score: the last word */
  while (last > start && !isspace((unsigned char)line[last - 1])) last--;
  if (last == start) return -1;
  char *end;
  errno = 0;
  *want = strtol(line + last, &end, 10);
  if (end != line + len || errno == ERANGE) return -1;
  size_t n = 0;
  for (size_t i = start; i < last; i++) {
    unsigned char c = (unsigned char)line[i];
    if (n + 4 > size) return -1;          /* not reached: 3 bytes a character */
    if (zero_based && isdigit(c)) {
      n += (size_t)snprintf(moves + n, size - n, "%s%d", n ? " " : "", c - '0' + 1);
    } else {
      moves[n++] = (char)c;
    }
  }
  while (n > 0 && isspace((unsigned char)moves[n - 1])) n--;
  moves[n] = '\0';
  if (strcmp(moves, "-") == 0) moves[0] = '\0';    /* the start position */
  return 1;
}

/* The lines to solve (for the progress line's share done): those that
** are not blank or comments, at most --limit; the file is rewound. */
static long count_lines(FILE *f, long limit) {
  char line[4096];
  long n = 0;
  while (fgets(line, sizeof line, f) != NULL && (limit == 0 || n < limit)) {
    const char *p = line;
    while (isspace((unsigned char)*p)) p++;
    if (*p != '\0' && *p != '#') n++;
    while (strchr(line, '\n') == NULL && fgets(line, sizeof line, f) != NULL) {}
  }
  rewind(f);
  return n;
}

/* The progress line of a test set: the line being solved, and within
** it what the engine's solver says (a position of the empty board takes
** tens of seconds). */
typedef struct LineProgress {
  Progress *p;
  long line, lines;
  uint64_t nodes;           /* of the lines before */
} LineProgress;

static void line_note(LineProgress *lp, const char *how, uint64_t nodes) {
  char text[160];
  int n = snprintf(text, sizeof text, "line %ld of %ld", lp->line, lp->lines);
  if (how != NULL) snprintf(text + n, sizeof text - (size_t)n, ": %s", how);
  progress_note(lp->p, "test set", text, lp->nodes + nodes, "positions",
                lp->lines > 0 ? (double)(lp->line - 1) / (double)lp->lines : -1);
}

static void engine_note(void *arg, const char *how, uint64_t nodes, double done) {
  line_note(arg, how, nodes);
}

int run_test_set(Run *r) {
  const Options *o = r->opt;
  FILE *f = fopen(o->test_set, "r");
  if (f == NULL) {
    return diag_fail(stderr, EXIT_IO, "cannot read '%s': %s", o->test_set, strerror(errno));
  }
  char line[4096];
  long n = 0, bad = 0, lineno = 0;
  uint64_t nodes = 0;
  double seconds = 0;
  int st = EXIT_OK;
  LineProgress lp = { NULL, 0, 0, 0 };
  int prepared = 0;
  if (o->solve.progress) {
    lp.p = &r->progress;
    lp.lines = count_lines(f, o->limit);
    progress_start(lp.p, stderr);
  }
  /* A test set takes the searches only: auto's cycle probe (which would
  ** pick retro or value iteration) is not run, once per line; the root's
  ** value is all a line asks (the engine's solver skips each move's). */
  SolveOptions searches = o->solve;
  searches.no_cycle_probe = 1;
  searches.root_only = 1;
  if (lp.p) searches.progress = 0;     /* the engine's solver notes on the line's */
  while (fgets(line, sizeof line, f) != NULL && (o->limit == 0 || n < o->limit)) {
    lineno++;
    char moves[3 * sizeof line];
    long want = 0;   /* set by test_line when it returns 1 */
    int k = test_line(line, o->zero_based, moves, sizeof moves, &want);
    if (strchr(line, '\n') == NULL && !feof(f)) k = -2;
    if (k == 0) continue;
    if (k < 0) {
      st = diag_fail(stderr, EXIT_USAGE, "%s:%ld: %s", o->test_set, lineno,
                     k == -2 ? "a line longer than 4095 bytes" : "expected \"moves score\"");
      break;
    }
    lp.line = n + 1;
    lp.nodes = nodes;
    line_note(&lp, NULL, 0);
    Position *pos = &r->line;
    if ((st = position_play(r->g, moves, pos, stderr)) != EXIT_OK) { position_free(pos); break; }
    double t0 = clock_seconds();
    int64_t score = 0, plies;
    uint64_t used = 0;
    SolveJob *j = &r->job;
    solve_job_init(j, r->g, pos->n, &searches, stderr);
    if (lp.p) {
      j->note = engine_note;
      j->note_arg = &lp;
    }
    if ((st = solver_choose(j)) != EXIT_OK) {
      position_free(pos);
      break;
    }
    /* The solver and its table made, and the table's memory mapped,
    ** before the first line is timed (as the peers' own harnesses clear
    ** their tables before they time a position). */
    if (!prepared) {
      double p0 = clock_seconds();
      st = solver_prepare(j);
      t0 += clock_seconds() - p0;
      prepared = 1;
    }
    if (st == EXIT_OK) st = solver_run(j);
    if (st == EXIT_OK && j->kind != RESULT_EXACT)
      st = diag_fail(stderr, EXIT_USAGE, "--test-set takes games of exact values");
    if (st == EXIT_OK) {
      SolveAnswer a = solve_job_answer(j);
      value_decode(a.exact->value, &score, &plies);
      used = a.nodes;
    }
    seconds += clock_seconds() - t0;
    if (st == EXIT_OK) {
      nodes += used;
      if (o->solve.engine.weak) { score = score > 0 ? 1 : score < 0 ? -1 : 0; want = want > 0 ? 1 : want < 0 ? -1 : 0; }
      if (score != want) {
        bad++;
        fprintf(stderr, "%s:%ld: %s: expected %ld, got %lld\n", o->test_set, lineno, moves, want,
                (long long)score);
      }
      n++;
    }
    for (int i = 0; i < pos->n; i++) game_undo(r->g);
    position_free(pos);
    if (st != EXIT_OK) break;
    solve_job_free(&r->job);
  }
  fclose(f);
  if (lp.p) progress_end(lp.p);
  if (st != EXIT_OK) return st;
  double mean = n ? seconds / (double)n : 0;
  /* An empty set ran no solver: none is named. */
  const char *solver = n ? solver_report_name(&r->job) : NULL;
  char mean_text[32];
  if (o->json) {
    JsonWriter w;
    json_init(&w, stdout);
    json_begin_object(&w);
    json_key(&w, "test_set"); json_string(&w, o->test_set);
    json_key(&w, "engine"); json_string(&w, r->g->engine);
    json_key(&w, "solver");
    if (solver) json_string(&w, solver);
    else json_null(&w);
    json_key(&w, "positions"); json_int(&w, n);
    json_key(&w, "mismatches"); json_int(&w, bad);
    json_key(&w, "seconds"); json_double(&w, seconds);
    json_key(&w, "mean_seconds"); json_raw(&w); printf("%.9f", mean);
    json_key(&w, "nodes"); json_uint(&w, nodes);
    json_key(&w, "mean_nodes"); json_raw(&w); printf("%.1f", n ? (double)nodes / (double)n : 0.0);
    json_key(&w, "nodes_per_second"); json_raw(&w);
    printf("%.0f", seconds > 0 ? (double)nodes / seconds : 0.0);
    json_end_object(&w);
    putchar('\n');
  } else
    printf("test set: %s\nengine: %s\nsolver: %s\npositions: %ld\nmismatches: %ld\n"
           "mean time: %s\nmean nodes: %.1f\nnodes/s: %.0f\n", o->test_set, r->g->engine,
           solver ? solver : "none (no line to solve)", n, bad,
           n ? units_seconds(mean, mean_text, sizeof mean_text) : "-",
           n ? (double)nodes / (double)n : 0.0, seconds > 0 ? (double)nodes / seconds : 0.0);
  return bad ? 1 : EXIT_OK;
}
