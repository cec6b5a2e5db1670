/*
** gametest.h -- what the C tests that load a .game file share: the check
** counters, a seeded random generator, and compiling GAMEFILE with the
** -D name=value pairs found in argv from index `first` on.
*/
#ifndef GSOLVE_GAMETEST_H
#define GSOLVE_GAMETEST_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gsolve.h"

static int passed, failed;

#define CHECK(cond, ...)                                                     \
  do {                                                                       \
    if (cond) passed++;                                                      \
    else { failed++; if (failed < 20) { fprintf(stderr, "FAIL: ");          \
           fprintf(stderr, __VA_ARGS__); fputc('\n', stderr); } }            \
  } while (0)

static uint64_t rng = 0x9e3779b97f4a7c15ULL;
static uint32_t next_random(void) {
  rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17;
  return (uint32_t)rng;
}

/* Compiles path with the -D pairs of argv[first..]; NULL (reported) on
** any failure. */
static Program *load_game(const char *path, int argc, char **argv, int first) {
  ParamDef defs[16];
  int ndefs = 0;
  for (int i = first; i + 1 < argc && ndefs < 16; i += 2) {
    char *eq = strchr(argv[i + 1], '=');
    if (strcmp(argv[i], "-D") || !eq) continue;
    *eq = 0;
    defs[ndefs].name = argv[i + 1];
    defs[ndefs].value = eq + 1;
    ndefs++;
  }
  FILE *f = fopen(path, "rb");
  if (!f) { perror(path); return NULL; }
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *text = malloc((size_t)n + 1);
  size_t len = text ? fread(text, 1, (size_t)n, f) : 0;
  fclose(f);
  if (!text) return NULL;
  int status;
  Program *p = gs_compile(path, text, len, defs, ndefs, stderr, &status);
  free(text);
  return p;
}

#endif
