/*
** stop.h -- ending a long run early and cleanly: Ctrl-C (SIGINT, and
** SIGTERM) and --time-limit.
**
** The signal handlers only set `stop_requested`; the solvers, perft and
** the position counter look at it once per position they expand and,
** when it is set, unwind, free what they hold and fail with the status
** and message of stop_message().  Nothing is written after a stop (a
** database is written only after a complete solve, through a temporary
** file renamed into place).  A second Ctrl-C (or SIGTERM) ends the
** program at once with EXIT_INTERRUPTED and a message, after removing
** the temporary file being written, if any (stop_set_cleanup).
*/
#ifndef GSOLVE_STOP_H
#define GSOLVE_STOP_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#define STOP_MAX_SECONDS 31536000   /* --time-limit: at most one year */

enum { STOP_NONE, STOP_INTERRUPT, STOP_TIME };
extern volatile sig_atomic_t stop_requested;   /* STOP_* */

/* Installs the handlers of SIGINT and SIGTERM and, if seconds > 0, a
** timer of that many seconds of wall time (SIGALRM); starts the clock.
** It may be called again (main.c: the handlers before the engine is made,
** whose compiled tier may run a compiler, then the timer). */
void stop_install(unsigned seconds);

/* Names the temporary file that a second Ctrl-C must remove (util/file.c
** while it writes one); NULL: none.  The name is copied. */
void stop_set_cleanup(const char *path);

/* Names the process group of a child that a second Ctrl-C must kill
** (the compiled tier's C compiler while it runs); 0: none. */
void stop_set_child(int pgid);

/* Seconds since stop_install. */
double stop_elapsed(void);

/* After a stop: writes into buf "interrupted ..." or "time limit of N
** seconds reached ...", with `count` `what` (e.g. "nodes") done so far
** and the time, and returns the exit status (EXIT_INTERRUPTED or
** EXIT_LIMIT). */
int stop_message(char *buf, size_t n, uint64_t count, const char *what);
/* Why the run stopped, as stop_message begins: "time limit of N seconds
** reached" or "interrupted". */
void stop_head(char *buf, size_t n);

#endif
