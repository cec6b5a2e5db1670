/*
** progress.h -- a one-line progress display on a terminal for the long
** runs: the minimax and alphabeta searches (progress_update, which reads
** their stack of frames), and every other mode that counts something as
** it goes -- retrograde analysis, --count, --perft, an engine's own
** solver, test sets, opening books (progress_note).  The line says what
** is being done, how far (a count and its rate, the share done when it
** is known), the time so far, and an estimate of the rest when known.
**
** On a terminal nothing shows for the first second, then one line is
** redrawn in place a few times a second and erased at the end; when
** stderr is not a terminal the caller does not start it (main.c), except
** with --progress: then a line at a time.
*/
#ifndef GSOLVE_PROGRESS_H
#define GSOLVE_PROGRESS_H

#include <stdint.h>
#include <stdio.h>
#include "search/search.h"

/* Modes that count as they go call progress_note every PROGRESS_TICK + 1
** of their steps: the clock is read that rarely. */
#define PROGRESS_TICK 0xffff

typedef struct Progress {
  FILE *f;                /* NULL: not started */
  double start, last;     /* when the run began; the last display */
  int shown;              /* a line is on the screen */
  int tty;                /* f is a terminal: redraw one line in place */
  const char *doing;      /* the last note's words: a new phase shows at once */
} Progress;

/* Starts the display on f: on a terminal, one line redrawn in place from
** one second into the run; elsewhere (--progress to a file or a pipe), a
** line at a time from the first report on. */
void progress_start(Progress *p, FILE *f);

/* Redraws the line (at most a few times a second) from the search at
** `ply`: its nodes, and how far along the root's moves and the current
** line's moves it is, which gives the estimate. */
void progress_update(Progress *p, const Search *s, int ply);

/* Redraws the line (at most a few times a second, or at once when
** `doing` is new) with what the run is doing ("counting positions"), a
** count of `unit` so far and its rate, and `done`, the share done in
** 0..1, or a negative number when unknown (no estimate then).  `how`,
** if not NULL, says how far in words ("move 3 of 7"). p NULL or not
** started: nothing. */
void progress_note(Progress *p, const char *doing, const char *how, uint64_t count,
                   const char *unit, double done);
/* For searches that write their own line (CFR): 1 when a redraw is due
** (progress_update's pace), then progress_show draws `text`. */
int progress_due(Progress *p);
void progress_show(Progress *p, const char *text);

/* Erases the line. */
void progress_end(Progress *p);

#endif
