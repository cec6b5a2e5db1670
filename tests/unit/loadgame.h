/*
** loadgame.h -- the unit tests' and benchmarks' one way to compile a game
** file with the -D name=value pairs of their command line.
*/
#ifndef GSOLVE_TESTS_LOADGAME_H
#define GSOLVE_TESTS_LOADGAME_H

#include <stdlib.h>
#include <string.h>
#include "gsolve.h"
#include "util/file.h"

/* Compiles path with the -D pairs of argv[first..]; NULL (reported) on
** any failure. */
static Program *load_game(const char *path, int argc, char **argv, int first) {
  ParamDef defs[16];
  int ndefs = 0, status;
  char *text;
  size_t len;
  for (int i = first; i + 1 < argc && ndefs < 16; i += 2) {
    char *eq = strchr(argv[i + 1], '=');
    if (strcmp(argv[i], "-D") || !eq) continue;
    *eq = 0;
    defs[ndefs].name = argv[i + 1];
    defs[ndefs].value = eq + 1;
    ndefs++;
  }
  if (file_read(path, (size_t)16 << 20, &text, &len, stderr) != EXIT_OK) return NULL;
  Program *p = gs_compile(path, text, len, defs, ndefs, stderr, &status);
  free(text);
  return p;
}

#endif
