/*
** fuzz_db.c -- libFuzzer harness: the database reader (search/db.c) on
** any bytes, for three small games compiled once: a Tic-tac-toe of 3x2
** (symmetry, wins, losses and draws), the Token graph (a cycle: draws
** without end) and Nim 1,2,3 (impartial: its databases of format 4 keep
** Grundy values, --grundy).  A file db_read accepts is then checked whole and
** dumped, and answered from (retro_answer), as `gsolve --db` would.
**
** The reader takes a path: the input goes to a temporary file first.
** Seeds (fuzz/corpus_db) are databases of these two games, made with
**   gsolve fuzz/db_games/NAME.game --solver retro --db fuzz/corpus_db/NAME.db
** (--compact for the compact form's files, --grundy for nim's format 4)
** Built by `make fuzz` with clang -fsanitize=fuzzer,address,undefined.
** Without libFuzzer, fuzz/replay.c drives the same entry point over files.
*/
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "gsolve.h"
#include "retro/db.h"
#include "retro/retro.h"
#include "search/search.h"
#include "fuzz_checksum.h"

/* The sources of the games in fuzz/db_games (kept identical: the seeds were
** built from those files, and the rules hash must match). */
static const char *const SOURCES[] = {
  "game \"Tic-tac-toe\";\n"
  "players X, O;\n"
  "param m: 1..26 = 3;\n"
  "param n: 1..26 = 2;\n"
  "param k: 1..26 = 3;\n"
  "board rect(m, n);\n"
  "state square[board]: player;\n"
  "state winner: player;\n"
  "state filled: 0..m * n;\n"
  "symmetry mirror;\n"
  "symmetry flip;\n"
  "move place(c: cell) as \"{c}\" when square[c] == none {\n"
  "  square[c] = mover;\n"
  "  filled += 1;\n"
  "  for d in [east, north, northeast, southeast] {\n"
  "    if line(square, c, d) >= k { winner = mover; }\n"
  "  }\n"
  "}\n"
  "end {\n"
  "  if winner != none { win winner; }\n"
  "  if filled == m * n { draw; }\n"
  "}\n",
  "game \"Token\";\n"
  "players First, Second;\n"
  "param nodes: 1..1000 = 7;\n"
  "param edges = [0, 1, 1, 2, 2, 0, 2, 3, 3, 4, 5, 0, 5, 3, 6, 3];\n"
  "state at: 0..nodes - 1 = 0;\n"
  "function edge(a: int, b: int): bool {\n"
  "  for i in 0..len(edges) / 2 - 1 {\n"
  "    if edges[2 * i] == a && edges[2 * i + 1] == b { return true; }\n"
  "  }\n"
  "  return false;\n"
  "}\n"
  "move go(n: 0..nodes - 1) as \"to {n}\" when edge(at, n) {\n"
  "  at = n;\n"
  "}\n",
  "game \"Nim\";\n"
  "players First, Second;\n"
  "param heaps = [1, 2, 3];\n"
  "state heap[len(heaps)]: 0..max(heaps) = heaps;\n"
  "move take(h: 1..len(heaps), n: 1..max(heaps)) when heap[h - 1] >= n {\n"
  "  heap[h - 1] -= n;\n"
  "}\n"
  "nomoves { lose mover; }\n",
};
#define NGAMES (int)(sizeof SOURCES / sizeof SOURCES[0])

typedef struct Target {
  Program *p;
  Game *g;
  char *params;
  uint64_t hash;
} Target;

/* Compiled once: the reader, not the compiler, is under test. */
static Target *targets(void) {
  static Target t[NGAMES];
  static int ready;
  if (ready) return t;
  ready = 1;
  for (int i = 0; i < NGAMES; i++) {
    int st;
    size_t n = 0;
    t[i].p = gs_compile("fuzz.game", SOURCES[i], strlen(SOURCES[i]), NULL, 0, stderr, &st);
    if (!t[i].p || !(t[i].g = vm_new(t[i].p, &st))) abort();
    FILE *m = open_memstream(&t[i].params, &n);
    if (!m) abort();
    gs_write_params_text(t[i].p, m);
    fclose(m);
    t[i].hash = gs_rules_hash(t[i].p);
  }
  return t;
}

/* The input as a file: one temporary file per process, rewritten. */
static const char *input_file(const uint8_t *data, size_t size) {
  static char path[64];
  if (!path[0]) snprintf(path, sizeof path, "/tmp/gsolve-fuzz-db-%ld", (long)getpid());
  FILE *f = fopen(path, "wb");
  if (!f) return NULL;
  fwrite(data, 1, size, f);
  fclose(f);
  return path;
}

static void run_db(const uint8_t *data, size_t size) {
  Target *t = targets();
  const char *path = input_file(data, size);
  FILE *devnull = fopen("/dev/null", "w");
  if (!path || !devnull) abort();
  for (int i = 0; i < NGAMES; i++) {
    Retro r;
    retro_init(&r, t[i].g, 0, devnull);
    if (db_read(&r, path, t[i].g->name, t[i].params, t[i].hash, devnull) == EXIT_OK) {
      Search s;
      if (db_verify_all(&r, devnull) == EXIT_OK) {   /* --dump-db checks every record first */
        db_dump(&r, devnull, 0);
        db_dump(&r, devnull, 1);
      }
      search_init(&s, t[i].g, 0, NULL);
      (void)retro_answer(&r, &s);
      search_free(&s);
    }
    retro_free(&r);
  }
  fclose(devnull);
  unlink(path);
}

/* Each input as given, then with a valid checksum. */
int fuzz_db_one(const uint8_t *data, size_t size) {
  return fuzz_as_given_and_fixed(data, size, run_db);
}

#ifndef FUZZ_NO_MAIN
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  return fuzz_db_one(data, size);
}
#endif
