/*
** gtp.h -- `gsolve gtp FILE`: the Go Text Protocol, version 2, on stdin
** and stdout, for Go-like games (two players, moves written as vertices
** such as "c3" and "pass"; games/go.game).
*/
#ifndef GSOLVE_GTP_H
#define GSOLVE_GTP_H

#include <stddef.h>
#include <stdio.h>
#include "gsolve.h"
#include "engines/engines.h"

#define GTP_EXACT_CELLS 9    /* genmove solves exactly up to this many points */
#define GTP_MAX_LINE 65536   /* longest command line, its comment aside */
#define GTP_DEFAULT_MOVE_SECONDS 10.0   /* genmove's budget without a clock */

typedef struct GtpOptions {
  const char *file;       /* the game file, its text and -D overrides */
  const char *text;
  size_t len;
  const ParamDef *defs;
  int ndefs;
  int level;              /* genmove's deepest search on bigger boards */
  size_t tt_mib;
  EngineChoice engine;    /* --engine: what runs the rules (auto: as for
                          ** every mode) */
} GtpOptions;

/* Answers GTP commands from `in` until quit or the end of the input.
** boardsize N recompiles the game with -D width=N -D height=N, komi K
** with -D komi=K; when that fails the game in play stays.  Returns
** EXIT_OK, or the status of a failure that stops the engine (the game
** file does not compile: its status; out of memory at the start:
** EXIT_LIMIT; a runtime error in the rules: its status). */
int gtp_run(const GtpOptions *o, FILE *in, FILE *out);

/* gtp_run with genmove's budget (--move-time): at most `move_time`
** seconds a move; 0: GTP_DEFAULT_MOVE_SECONDS.  A clock set by
** time_settings / time_left may give less.  (A parameter, not a field of
** GtpOptions: main initialises GtpOptions by position.) */
int gtp_run_timed(const GtpOptions *o, double move_time, FILE *in, FILE *out);

#endif
