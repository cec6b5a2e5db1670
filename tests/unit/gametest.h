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
#include "loadgame.h"

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

#endif
