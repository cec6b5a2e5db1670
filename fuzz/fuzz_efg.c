/*
** fuzz_efg.c -- libFuzzer harness: the Gambit .efg reader (engines/efg.c)
** on any bytes.  A file it accepts is then walked through the game
** interface (every move of every node: generate, apply, undo, ended,
** rewards, notation, information states, drawing), expanded into CFR's
** tree within a memory limit, and solved by the matrix solver where it
** takes the game: as `gsolve FILE.efg` would.
**
** Seeds: fuzz/corpus_efg (Gambit's examples of tests/data/gambit and
** games exported with --export efg).
** Built by `make fuzz` with clang -fsanitize=fuzzer,address,undefined.
** Without libFuzzer, fuzz/replay.c drives the same entry point over files.
*/
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cfr/gametree.h"
#include "cfr/matrix.h"
#include "engines/efg.h"
#include "util/status.h"

enum { FUZZ_EFG_NODES = 100000 };

/* Every line from the position, up to `budget` nodes in all. */
static void walk(Game *g, Move *buf, int depth, long *budget, FILE *out) {
  Outcome o;
  int32_t pay[GAME_MAX_PLAYERS];
  char text[256];
  uint64_t key[2];
  if (--*budget < 0 || depth > 10000) return;
  game_print(g, out);
  for (int p = 0; p < g->nplayers && g->vt->infostate; p++) g->vt->infostate(g, p, key, text, sizeof text);
  if (game_ended(g, &o)) return;
  int n = game_generate(g, buf + 0);
  if (n <= 0) { game_no_moves(g, &o); return; }
  Move *mine = malloc((size_t)n * sizeof *mine);
  uint32_t *w = malloc((size_t)n * sizeof *w);
  if (mine && w) {
    memcpy(mine, buf, (size_t)n * sizeof *mine);
    game_weights(g, mine, n, w);
    for (int i = 0; i < n && *budget >= 0; i++) {
      game_format_move(g, &mine[i], text, sizeof text);
      game_apply(g, &mine[i]);
      game_rewards(g, pay);
      (void)game_hash(g);
      walk(g, buf, depth + 1, budget, out);
      game_undo(g);
    }
  }
  free(mine);
  free(w);
}

int fuzz_efg_one(const uint8_t *data, size_t size) {
  FILE *devnull = fopen("/dev/null", "w");
  if (!devnull) return 0;
  int st;
  Game *g = efg_new("fuzz.efg", (const char *)data, size, devnull, &st);
  if (g) {
    Move *buf = malloc(GAME_MAX_MOVES * sizeof *buf);
    long budget = FUZZ_EFG_NODES;
    if (buf) walk(g, buf, 0, &budget, devnull);
    free(buf);
    GameTree t;
    memset(&t, 0, sizeof t);
    if (gametree_build(&t, g, (size_t)64 << 20, NULL, devnull) == EXIT_OK) {
      double *s = malloc((t.nactions ? t.nactions : 1) * sizeof *s), v;
      if (s) (void)matrix_solve(&t, s, &v, devnull);
      free(s);
    }
    gametree_free(&t);
    game_free(g);
  }
  fclose(devnull);
  return 0;
}

#ifndef FUZZ_NO_MAIN
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  return fuzz_efg_one(data, size);
}
#endif
