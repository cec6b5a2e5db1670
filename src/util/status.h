/*
** status.h -- the exit statuses of the gsolve command, which every layer
** returns (documented in docs/cli.md), and the version.
*/
#ifndef GSOLVE_STATUS_H
#define GSOLVE_STATUS_H

#define GSOLVE_VERSION "0.1.0"

enum {
  EXIT_OK = 0,
  EXIT_USAGE = 2,        /* bad command line: unknown flag, bad -D, bad move */
  EXIT_BAD_GAME = 3,     /* the .game file has errors (syntax, types, ...) */
  EXIT_RUNTIME = 4,      /* a rule failed at run time (index, step budget) */
  EXIT_LIMIT = 5,        /* a resource limit: memory, depth, positions */
  EXIT_IO = 6,           /* a file could not be read or written */
  EXIT_INTERRUPTED = 130 /* stopped by Ctrl-C (SIGINT) or SIGTERM */
};

#endif
