/*
** serve.h -- `gsolve serve`: the web explorer (serve.c, serve_request.c;
** docs/web.md), and --describe (describe.c), the JSON of a position that
** its page draws.
*/
#ifndef GSOLVE_SERVE_H
#define GSOLVE_SERVE_H

#include "cli/cli.h"

/* gsolve serve [FILE ...] [options]: argv[0] is "serve".  Runs until
** Ctrl-C or SIGTERM; an exit status. */
int serve_main(int argc, char **argv);

/* --describe --json: the position for drawing (describe.c). */
int run_describe(Run *r);

#endif
