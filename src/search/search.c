/*
** search.c -- the scaffolding shared by the minimax and alphabeta solvers.
*/
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "util/diag.h"
#include "util/status.h"
#include "search/search.h"
#include "util/stop.h"

#define PATH_BUCKETS (1 << 14)   /* chains of the path's hash table */

static void free_result(SolveResult *r) {
  free(r->moves);
  free(r->values);
  free(r->exact);
  free(r->best);
  memset(r, 0, sizeof *r);
}

void search_init(Search *s, Game *g, int base_ply, FILE *err) {
  memset(s, 0, sizeof *s);
  s->g = g;
  s->base_ply = base_ply;
  s->err = err;
}

static void path_free(SearchPath *p) {
  free(p->hash);
  free(p->next);
  free(p->state);
  free(p->head);
  memset(p, 0, sizeof *p);
}

void search_free(Search *s) {
  movestack_free(&s->ms);
  free(s->frames);
  s->frames = NULL;
  s->nframes = 0;
  path_free(&s->path);
  free_result(&s->result);
  if (s->free_work != NULL) s->free_work(s->work);
  s->work = NULL;
  s->free_work = NULL;
}

int search_fail(Search *s, int status, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  s->status = diag_vfail(s->err, status, fmt, ap);
  va_end(ap);
  return status;
}

static int fail_memory(Search *s) {
  return search_fail(s, EXIT_LIMIT, "out of memory");
}

SearchFrame *search_frame(Search *s, int ply) {
  if ((size_t)ply >= s->nframes) {
    size_t n = s->nframes ? s->nframes * 2 : 64;
    SearchFrame *f;
    while (n <= (size_t)ply) n *= 2;
    f = realloc(s->frames, n * sizeof *f);
    if (f == NULL) {
      fail_memory(s);
      return NULL;
    }
    s->frames = f;
    s->nframes = n;
  }
  return &s->frames[ply];
}

static int grow_path(Search *s) {
  size_t n = s->path.cap ? s->path.cap * 2 : 64;
  size_t sb = s->g->state_bytes ? s->g->state_bytes : 1;
  uint64_t *h;
  int32_t *next;
  unsigned char *st;
  if (s->path.head == NULL) {
    s->path.head = malloc(PATH_BUCKETS * sizeof *s->path.head);
    if (s->path.head == NULL) return fail_memory(s);
    for (int i = 0; i < PATH_BUCKETS; i++) s->path.head[i] = -1;
  }
  if (n > SIZE_MAX / sb) return fail_memory(s);
  /* Each array is stored as soon as it is grown, so a failure part way
  ** leaves a consistent (if larger) set behind. */
  if ((h = realloc(s->path.hash, n * sizeof *h)) == NULL) return fail_memory(s);
  s->path.hash = h;
  if ((next = realloc(s->path.next, n * sizeof *next)) == NULL)
    return fail_memory(s);
  s->path.next = next;
  if ((st = realloc(s->path.state, n * sb)) == NULL) return fail_memory(s);
  s->path.state = st;
  s->path.cap = n;
  return 0;
}

int search_path_push(Search *s, uint64_t h) {
  size_t sb = s->g->state_bytes;
  const void *state = game_state(s->g);
  size_t slot = (size_t)(h & (PATH_BUCKETS - 1));
  int32_t j;
  if (s->path.len == s->path.cap && grow_path(s) != 0) return s->status;
  for (j = s->path.head[slot]; j >= 0; j = s->path.next[j]) {
    if (s->path.hash[j] == h
        && memcmp(s->path.state + (size_t)j * sb, state, sb) == 0)
      return search_fail(s, EXIT_LIMIT, "position repeats along a line of "
                         "play; this game has cycles, which the minimax and "
                         "alphabeta solvers cannot solve (retrograde analysis "
                         "can: --solver retro)");
  }
  j = (int32_t)s->path.len++;
  s->path.hash[j] = h;
  s->path.next[j] = s->path.head[slot];
  memcpy(s->path.state + (size_t)j * sb, state, sb);
  s->path.head[slot] = j;
  return 0;
}

void search_path_pop(Search *s) {
  int32_t j = (int32_t)--s->path.len;
  s->path.head[s->path.hash[j] & (PATH_BUCKETS - 1)] = s->path.next[j];
}

int search_depth_ok(Search *s, int ply) {
  if (stop_requested) {
    char msg[160];
    int st = stop_message(msg, sizeof msg, s->nodes, "nodes");
    search_fail(s, st, "%s", msg);
    return 0;
  }
  if (s->max_nodes != 0 && s->nodes > s->max_nodes) {
    search_fail(s, EXIT_LIMIT, "node limit reached (%llu nodes)",
                (unsigned long long)s->max_nodes);
    return 0;
  }
  if (s->base_ply + ply < GAME_MAX_PLY) return 1;
  search_fail(s, EXIT_LIMIT, "a line of play is longer than %d plies "
              "(GAME_MAX_PLY); the minimax and alphabeta solvers cannot "
              "search it", GAME_MAX_PLY);
  return 0;
}

void search_unwind(Search *s, int ply, int top, size_t path_len,
                   size_t ms_top) {
  for (; ply > top; ply--) game_undo(s->g);
  while (s->path.len > path_len) search_path_pop(s);
  s->ms.top = ms_top;
}

int search_root_moves(Game *g, MoveStack *ms, Outcome *o) {
  int n;
  ms->top = 0;
  if (game_ended(g, o)) return 0;
  if ((n = movestack_generate(ms, g)) == 0) game_no_moves(g, o);
  return n;
}

int search_root_arrays(int n, const Move *from, Move **moves, unsigned char **exact,
                       unsigned char **best) {
  *moves = malloc((size_t)n * sizeof **moves);
  *exact = calloc((size_t)n, 1);
  *best = calloc((size_t)n, 1);
  if (*moves == NULL || *exact == NULL || *best == NULL) return -1;
  memcpy(*moves, from, (size_t)n * sizeof **moves);
  return 0;
}

int search_root_begin(Search *s) {
  Game *g = s->g;
  SolveResult *r = &s->result;
  Outcome o;
  int n;

  free_result(r);
  s->status = EXIT_OK;
  if (g->nplayers < 1 || g->nplayers > 2)
    return search_fail(s, EXIT_USAGE, "the minimax and alphabeta solvers "
                       "need one or two players (this game has %d)",
                       g->nplayers);
  if (g->has_chance || g->has_rewards)
    return search_fail(s, EXIT_USAGE, "this search does not handle %s: use "
                       "--solver expectimax or alphabeta", g->has_chance
                       ? "chance moves" : "per-move payoffs");
  s->nodes++;
  r->mover = game_to_move(g);
  if ((n = search_root_moves(g, &s->ms, &o)) < 0) return fail_memory(s);
  if (n == 0) {
    r->terminal = 1;
    r->value = value_from_outcome(&o, g->nplayers, r->mover, 0);
    return EXIT_OK;
  }
  if (!search_depth_ok(s, 0)) return s->status;
  if (search_root_arrays(n, s->ms.moves, &r->moves, &r->exact, &r->best) != 0
      || (r->values = malloc((size_t)n * sizeof *r->values)) == NULL)
    return fail_memory(s);
  r->nmoves = n;
  s->ms.top = 0;    /* the root's moves now live in the result */
  return search_path_push(s, game_hash(g));
}

void search_root_finish(Search *s) {
  SolveResult *r = &s->result;
  Value v = -VALUE_INF;
  int i;
  s->path.len = 0;
  if (s->path.head != NULL)
    for (i = 0; i < PATH_BUCKETS; i++) s->path.head[i] = -1;
  s->ms.top = 0;
  if (s->status != EXIT_OK) return;
  for (i = 0; i < r->nmoves; i++)
    if (r->exact[i] && r->values[i] > v) v = r->values[i];
  r->value = v;
  r->nbest = 0;
  for (i = 0; i < r->nmoves; i++) {
    r->best[i] = r->exact[i] && r->values[i] == v;
    r->nbest += r->best[i];
  }
}
