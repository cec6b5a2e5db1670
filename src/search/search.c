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

void search_free(Search *s) {
  movestack_free(&s->ms);
  free(s->frames);
  free(s->path_hash);
  free(s->path_next);
  free(s->path_state);
  free(s->path_head);
  free_result(&s->result);
  if (s->free_work != NULL) s->free_work(s->work);
  s->work = NULL;
  s->free_work = NULL;
  s->frames = NULL;
  s->path_hash = NULL;
  s->path_next = NULL;
  s->path_state = NULL;
  s->path_head = NULL;
  s->nframes = s->path_len = s->path_cap = 0;
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
  size_t n = s->path_cap ? s->path_cap * 2 : 64;
  size_t sb = s->g->state_bytes ? s->g->state_bytes : 1;
  uint64_t *h;
  int32_t *next;
  unsigned char *st;
  if (s->path_head == NULL) {
    s->path_head = malloc(PATH_BUCKETS * sizeof *s->path_head);
    if (s->path_head == NULL) return fail_memory(s);
    for (int i = 0; i < PATH_BUCKETS; i++) s->path_head[i] = -1;
  }
  if (n > SIZE_MAX / sb) return fail_memory(s);
  /* Each array is stored as soon as it is grown, so a failure part way
  ** leaves a consistent (if larger) set behind. */
  if ((h = realloc(s->path_hash, n * sizeof *h)) == NULL) return fail_memory(s);
  s->path_hash = h;
  if ((next = realloc(s->path_next, n * sizeof *next)) == NULL)
    return fail_memory(s);
  s->path_next = next;
  if ((st = realloc(s->path_state, n * sb)) == NULL) return fail_memory(s);
  s->path_state = st;
  s->path_cap = n;
  return 0;
}

int search_path_push(Search *s, uint64_t h) {
  size_t sb = s->g->state_bytes;
  const void *state = game_state(s->g);
  size_t slot = (size_t)(h & (PATH_BUCKETS - 1));
  int32_t j;
  if (s->path_len == s->path_cap && grow_path(s) != 0) return s->status;
  for (j = s->path_head[slot]; j >= 0; j = s->path_next[j]) {
    if (s->path_hash[j] == h
        && memcmp(s->path_state + (size_t)j * sb, state, sb) == 0)
      return search_fail(s, EXIT_LIMIT, "position repeats along a line of "
                         "play; this game has cycles, which the minimax and "
                         "alphabeta solvers cannot solve (retrograde analysis "
                         "can: --solver retro)");
  }
  j = (int32_t)s->path_len++;
  s->path_hash[j] = h;
  s->path_next[j] = s->path_head[slot];
  memcpy(s->path_state + (size_t)j * sb, state, sb);
  s->path_head[slot] = j;
  return 0;
}

void search_path_pop(Search *s) {
  int32_t j = (int32_t)--s->path_len;
  s->path_head[s->path_hash[j] & (PATH_BUCKETS - 1)] = s->path_next[j];
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
  while (s->path_len > path_len) search_path_pop(s);
  s->ms.top = ms_top;
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
  if (game_ended(g, &o)) {
    r->terminal = 1;
    r->value = value_from_outcome(&o, g->nplayers, r->mover, 0);
    return EXIT_OK;
  }
  s->ms.top = 0;
  n = movestack_generate(&s->ms, g);
  if (n < 0) return fail_memory(s);
  if (n == 0) {
    game_no_moves(g, &o);
    r->terminal = 1;
    r->value = value_from_outcome(&o, g->nplayers, r->mover, 0);
    return EXIT_OK;
  }
  if (!search_depth_ok(s, 0)) return s->status;
  r->moves = malloc((size_t)n * sizeof *r->moves);
  r->values = malloc((size_t)n * sizeof *r->values);
  r->exact = calloc((size_t)n, 1);
  r->best = calloc((size_t)n, 1);
  if (!r->moves || !r->values || !r->exact || !r->best)
    return fail_memory(s);
  memcpy(r->moves, s->ms.moves, (size_t)n * sizeof *r->moves);
  r->nmoves = n;
  s->ms.top = 0;    /* the root's moves now live in the result */
  return search_path_push(s, game_hash(g));
}

void search_root_finish(Search *s) {
  SolveResult *r = &s->result;
  Value v = -VALUE_INF;
  int i;
  s->path_len = 0;
  if (s->path_head != NULL)
    for (i = 0; i < PATH_BUCKETS; i++) s->path_head[i] = -1;
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
