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

#define GTP_EXACT_CELLS 9    /* genmove solves exactly up to this many points */

typedef struct GtpOptions {
  const char *file;       /* the game file, its text and -D overrides */
  const char *text;
  size_t len;
  const ParamDef *defs;
  int ndefs;
  int level;              /* genmove's search depth on bigger boards */
  size_t tt_mib;
} GtpOptions;

/* Answers GTP commands from `in` until quit or the end of the input.
** boardsize N recompiles the game with -D width=N -D height=N, komi K
** with -D komi=K.  Returns EXIT_OK, or the status of a failure that
** stops the engine (the game file does not compile, out of memory). */
int gtp_run(const GtpOptions *o, FILE *in, FILE *out);

#endif
