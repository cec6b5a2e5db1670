/*
** progress.c -- the progress line of the minimax and alphabeta searches.
**
** The estimate reads the explicit stack of frames: at each ply of the
** current line, which of its moves is being searched out of how many.
** Taking every subtree as the same size, the share of the tree done is
**   (i1 + (i2 + (i3 + ...) / n3) / n2) / n1
** (i_k of n_k at ply k).  Minimax searches each root move once in order,
** so that is the share of the whole solve.  Alpha-beta searches root
** moves several times (probes, then ties), so it shows the move being
** searched and the share of that one search.
*/
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "search/progress.h"

#define PROGRESS_INTERVAL 0.25  /* seconds between redraws */
#define PROGRESS_FIRST 1.0      /* nothing is shown for shorter searches */

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void progress_start(Progress *p, FILE *f) {
  memset(p, 0, sizeof *p);
  p->f = f;
  p->tty = isatty(fileno(f));
  p->start = now();
  p->last = p->start - PROGRESS_INTERVAL;
}

/* A count in a few characters: 950, 12.3k, 4.56M, 7.89G. */
static const char *short_count(double n, char *buf, size_t size) {
  if (n < 1e4) snprintf(buf, size, "%.0f", n);
  else if (n < 1e6) snprintf(buf, size, "%.1fk", n / 1e3);
  else if (n < 1e9) snprintf(buf, size, "%.2fM", n / 1e6);
  else snprintf(buf, size, "%.2fG", n / 1e9);
  return buf;
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
  double t = now(), elapsed, share;
  char a[16], b[16], move[64];
  const SolveResult *r = &s->result;
  if (p->f == NULL || t - p->last < PROGRESS_INTERVAL
      || (p->tty && t - p->start < PROGRESS_FIRST))
    return;
  p->last = t;
  share = subtree_share(s, ply);
  if (t <= p->start) t = p->start + 1e-9;
  elapsed = t - p->start;
  fprintf(p->f, "%s%s positions, %s/s, %.1f s", p->tty ? "\r" : "", short_count((double)s->nodes, a, sizeof a),
          short_count((double)s->nodes / elapsed, b, sizeof b), elapsed);
  if (s->root_pass == 0 && r->nmoves > 0) {
    /* One pass over the root moves in order (minimax). */
    double done = ((double)s->root_move + share) / (double)r->nmoves;
    fprintf(p->f, "; move %d of %d, %.0f%% done", s->root_move + 1, r->nmoves, 100 * done);
    if (done > 0.01) fprintf(p->f, ", about %.0f s left", elapsed * (1 - done) / done);
  } else if (r->nmoves > 0 && s->root_move < r->nmoves) {
    move[0] = '\0';
    game_format_move(s->g, &r->moves[s->root_move], move, sizeof move);
    move[sizeof move - 1] = '\0';
    fprintf(p->f, "; search %llu, of %s: %.0f%% done", (unsigned long long)s->root_pass,
            move, 100 * share);
  }
  fputs(p->tty ? "   " : "\n", p->f);
  fflush(p->f);
  p->shown = p->tty;
}

int progress_due(Progress *p) {
  double t;
  if (p == NULL || p->f == NULL) return 0;
  t = now();
  if (t - p->last < PROGRESS_INTERVAL || (p->tty && t - p->start < PROGRESS_FIRST)) return 0;
  p->last = t;
  return 1;
}

void progress_show(Progress *p, const char *text) {
  fprintf(p->f, "%s%s%s", p->tty ? "\r" : "", text, p->tty ? "   " : "\n");
  fflush(p->f);
  p->shown = p->tty;
}

void progress_end(Progress *p) {
  if (p->f != NULL && p->shown) {
    fprintf(p->f, "\r%79s\r", "");
    fflush(p->f);
  }
  p->shown = 0;
}
