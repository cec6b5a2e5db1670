/*
** play_options.c -- the options `gsolve play` takes (--level, --first,
** --seed, --self-play, --show-evals, --ascii): which exist, which take a
** value, and reading them into PlayOptions.
*/
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/play.h"
#include "solve/alphabeta.h"
#include "util/diag.h"
#include "util/status.h"

void play_defaults(PlayOptions *o) {
  memset(o, 0, sizeof *o);
  o->level = PLAY_DEFAULT_LEVEL;
}

static const char *const value_options[] = { "--level", "--first", "--seed", NULL };
static const char *const flag_options[] = { "--self-play", "--show-evals", "--ascii", NULL };

static int listed(const char *const *list, const char *name) {
  for (int i = 0; list[i] != NULL; i++)
    if (strcmp(list[i], name) == 0) return 1;
  return 0;
}

int play_option_takes_value(const char *name) {
  return listed(value_options, name);
}

int play_is_option(const char *name) {
  return listed(value_options, name) || listed(flag_options, name);
}

static int bad_value(const char *name, const char *want, const char *val) {
  return diag_fail(stderr, EXIT_USAGE, "%s needs %s, not '%s'", name, want, val);
}

int play_set_option(PlayOptions *o, const char *name, const char *val) {
  if (strcmp(name, "--level") == 0) {
    char *end;
    long n;
    if (strcmp(val, "perfect") == 0) {
      o->level = PLAY_PERFECT;
      return EXIT_OK;
    }
    n = strtol(val, &end, 10);
    if (end == val || *end != '\0' || n < 1 || n > AB_MAX_DEPTH) {
      char want[64];
      snprintf(want, sizeof want, "a depth from 1 to %d or 'perfect'", AB_MAX_DEPTH);
      return bad_value(name, want, val);
    }
    o->level = (int)n;
  } else if (strcmp(name, "--first") == 0) {
    if (strcmp(val, "human") == 0) o->computer_first = 0;
    else if (strcmp(val, "computer") == 0) o->computer_first = 1;
    else return bad_value(name, "'human' or 'computer'", val);
  } else if (strcmp(name, "--seed") == 0) {
    char *end;
    unsigned long long s = strtoull(val, &end, 10);
    if (end == val || *end != '\0' || val[0] == '-')
      return bad_value(name, "a number from 0 to 18446744073709551615", val);
    o->seed = (uint64_t)s;
    o->seed_set = 1;
  } else if (strcmp(name, "--self-play") == 0) {
    o->self_play = 1;
  } else if (strcmp(name, "--show-evals") == 0) {
    o->show_evals = 1;
  } else if (strcmp(name, "--ascii") == 0) {
    o->ascii = 1;
  }
  return EXIT_OK;
}
