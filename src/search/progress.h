/*
** progress.h -- a one-line progress display on a terminal for the long
** searches of the minimax and alphabeta solvers: positions visited, the
** rate, the time so far, and an estimate of the rest.
*/
#ifndef GSOLVE_PROGRESS_H
#define GSOLVE_PROGRESS_H

#include <stdio.h>
#include "search/search.h"

typedef struct Progress {
  FILE *f;                /* NULL: not started */
  double start, last;     /* when the search began; the last display */
  int shown;              /* a line is on the screen */
  int tty;                /* f is a terminal: redraw one line in place */
} Progress;

/* Starts the display on f: on a terminal, one line redrawn in place from
** one second into the search; elsewhere (--progress to a file or a
** pipe), a line at a time from the first report on. */
void progress_start(Progress *p, FILE *f);

/* Redraws the line (at most a few times a second) from the search at
** `ply`: its nodes, and how far along the root's moves and the current
** line's moves it is, which gives the estimate. */
void progress_update(Progress *p, const Search *s, int ply);

/* For searches that write their own line (CFR): 1 when a redraw is due
** (progress_update's pace), then progress_show draws `text`. */
int progress_due(Progress *p);
void progress_show(Progress *p, const char *text);

/* Erases the line. */
void progress_end(Progress *p);

#endif
