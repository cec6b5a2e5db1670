/*
** progress.c -- the progress line of the long runs (progress.h).
**
** The estimate of a search reads its explicit stack of frames: at each
** ply of the current line, which of its moves is being searched out of
** how many.  Taking every subtree as the same size, the share of the
** tree done is
**   (i1 + (i2 + (i3 + ...) / n3) / n2) / n1
** (i_k of n_k at ply k).  Minimax searches each root move once in order,
** so that is the share of the whole solve.  Alpha-beta searches root
** moves several times (probes, then ties), so it shows the move being
** searched and the share of that one search.
*/
#include <string.h>
#include <unistd.h>
#include "search/progress.h"
#include "util/clock.h"
#include "util/diag.h"
#include "util/units.h"

#define PROGRESS_INTERVAL 0.25  /* seconds between redraws */
#define PROGRESS_FIRST 1.0      /* nothing is shown for shorter runs */
#define PROGRESS_WIDTH 79       /* a redrawn line never wraps */

void progress_start(Progress *p, FILE *f) {
  memset(p, 0, sizeof *p);
  p->f = f;
  p->tty = isatty(fileno(f));
  p->start = clock_seconds();
  p->last = p->start - PROGRESS_INTERVAL;
}

/* Whether to draw now; the time since the start into *elapsed. */
static int due(Progress *p, int force, double *elapsed) {
  double t = clock_seconds();
  if (p == NULL || p->f == NULL) return 0;
  if (p->tty && t - p->start < PROGRESS_FIRST) return 0;
  if (!force && t - p->last < PROGRESS_INTERVAL) return 0;
  p->last = t;
  *elapsed = t > p->start ? t - p->start : 1e-9;
  return 1;
}

/* Puts the line: redrawn in place (cut to the width) on a terminal. */
static void put_line(Progress *p, char *line) {
  if (p->tty) {
    line[PROGRESS_WIDTH - 1] = '\0';
    fprintf(p->f, "\r%-*s", PROGRESS_WIDTH - 1, line);
    diag_transient(p->f, PROGRESS_WIDTH - 1);
  } else {
    fprintf(p->f, "%s\n", line);
  }
  fflush(p->f);
  p->shown = p->tty;
}

/* The share of the root move's subtree searched, from plies 1..ply-1. */
static double subtree_share(const Search *s, int ply) {
  double share = 0, weight = 1;
  for (int d = 1; d < ply && (size_t)d < s->nframes; d++) {
    const SearchFrame *f = &s->frames[d];
    if (f->nmoves <= 0) break;
    share += weight * (double)f->i / (double)f->nmoves;
    weight /= (double)f->nmoves;
  }
  return share;
}

void progress_update(Progress *p, const Search *s, int ply) {
  double elapsed, share;
  char line[256], a[16], b[16], t[24], left[24], move[64];
  const SolveResult *r = &s->result;
  if (!due(p, 0, &elapsed)) return;
  share = subtree_share(s, ply);
  int n = snprintf(line, sizeof line, "searching: %s positions, %s/s, %s",
                   units_count((double)s->nodes, a, sizeof a),
                   units_count((double)s->nodes / elapsed, b, sizeof b),
                   units_seconds(elapsed, t, sizeof t));
  if (s->root_pass == 0 && r->nmoves > 0) {
    /* One pass over the root moves in order (minimax). */
    double done = ((double)s->root_move + share) / (double)r->nmoves;
    n += snprintf(line + n, sizeof line - (size_t)n, "; move %d of %d, %.0f%% done",
                  s->root_move + 1, r->nmoves, 100 * done);
    if (done > 0.01)
      snprintf(line + n, sizeof line - (size_t)n, ", about %s left",
               units_seconds(elapsed * (1 - done) / done, left, sizeof left));
  } else if (r->nmoves > 0 && s->root_move < r->nmoves) {
    move[0] = '\0';
    game_format_move(s->g, &r->moves[s->root_move], move, sizeof move);
    move[sizeof move - 1] = '\0';
    n += snprintf(line + n, sizeof line - (size_t)n, "; search %llu, of %s: %.0f%% done",
                  (unsigned long long)s->root_pass, move, 100 * share);
    if (s->root_goal_set && n < (int)sizeof line)
      snprintf(line + n, sizeof line - (size_t)n, " (score >= %lld? horizon %d)",
               (long long)s->root_goal, s->root_horizon);
  }
  put_line(p, line);
}

void progress_note(Progress *p, const char *doing, const char *how, uint64_t count,
                   const char *unit, double done) {
  double elapsed;
  char line[256], a[16], b[16], t[24], left[24];
  if (p == NULL || p->f == NULL) return;
  int fresh = p->doing == NULL || strcmp(p->doing, doing) != 0;
  if (!due(p, fresh, &elapsed)) return;
  p->doing = doing;
  /* The most telling first: a line too long for the terminal is cut. */
  int n = snprintf(line, sizeof line, "%s: %s %s, %s/s, %s", doing,
                   units_count((double)count, a, sizeof a), unit,
                   units_count((double)count / elapsed, b, sizeof b),
                   units_seconds(elapsed, t, sizeof t));
  if (done > 0) {
    n += snprintf(line + n, sizeof line - (size_t)n, "; %.0f%% done", 100 * done);
    if (done > 0.01 && done < 1)
      n += snprintf(line + n, sizeof line - (size_t)n, ", about %s left",
                    units_seconds(elapsed * (1 - done) / done, left, sizeof left));
  }
  if (how != NULL) snprintf(line + n, sizeof line - (size_t)n, "; %s", how);
  put_line(p, line);
}

int progress_due(Progress *p) {
  double elapsed;
  return due(p, 0, &elapsed);
}

void progress_show(Progress *p, const char *text) {
  char line[256];
  snprintf(line, sizeof line, "%s", text);
  put_line(p, line);
}

void progress_end(Progress *p) {
  if (p != NULL && p->f != NULL && p->shown) diag_clear_transient();
  if (p != NULL) p->shown = 0;
}
