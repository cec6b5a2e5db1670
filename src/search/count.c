/*
** count.c -- the number of distinct positions reachable, and of terminal
** ones, by a depth-first walk over the game graph (and of distinct
** boards, where the game has per-cell arrays).
**
** Positions are told apart by their full state (game_state), never by
** the hash alone, so the count is exact.  The engine only applies and
** undoes moves, so the walk is depth first along real lines of play,
** with an explicit stack: a line may be GAME_MAX_PLY deep.
*/
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "search/count.h"
#include "search/progress.h"
#include "util/diag.h"
#include "util/status.h"
#include "util/stop.h"

void count_init(Count *c, Game *g, int base_ply, FILE *err) {
  memset(c, 0, sizeof *c);
  c->g = g;
  c->base_ply = base_ply;
  c->err = err;
  c->set.key_bytes = g->state_bytes;
  walk_init(&c->walk, g);
}

void count_free(Count *c) {
  walk_free(&c->walk);
  size_t key_bytes = c->set.key_bytes;
  keyset_free(&c->set);
  c->set.key_bytes = key_bytes;
}

/* Reports the error, takes back the walk's moves and returns status. */
static int fail(Count *c, int status, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  c->status = diag_vfail(c->err, status, fmt, ap);
  va_end(ap);
  walk_unwind(&c->walk);
  return c->status;
}

/* Adds the current position; 1 if it is new, 0 if already there, -1 out
** of memory, -2 when growing would pass `limit` bytes (0: no limit).
** Positions are told apart by their full state; the engine's hash only
** places them. */
static int set_add(KeySet *s, Game *g, size_t limit) {
  uint32_t idx;
  size_t more = limit ? keyset_next_growth(s) : 0;
  if (more && keyset_bytes(s) + more > limit) return -2;
  return keyset_add_hashed(s, game_hash(g), game_state(g), &idx);
}

static size_t cmp_size;
static int cmp_states(const void *a, const void *b) { return memcmp(a, b, cmp_size); }

/* Distinct boards among the positions found: the board of every state,
** sorted.  (Go: the other state -- passes, the ko point -- and the player
** to move do not count.) */
static int count_boards(Count *c) {
  Game *g = c->g;
  KeySet *s = &c->set;
  size_t bb = g->board_bytes;
  if (bb == 0 || s->n == 0) return EXIT_OK;
  unsigned char *boards = malloc(s->n * bb);
  if (boards == NULL) return fail(c, EXIT_LIMIT, "out of memory");
  for (size_t i = 0; i < s->n; i++) g->board_key(g, keyset_key(s, i), boards + i * bb);
  cmp_size = bb;
  qsort(boards, s->n, bb, cmp_states);
  c->boards = 1;
  for (size_t i = 1; i < s->n; i++)
    c->boards += memcmp(boards + (i - 1) * bb, boards + i * bb, bb) != 0;
  free(boards);
  return EXIT_OK;
}

/* Positions up to symmetry: canonicalise every state found, sort, and
** count the distinct ones. */
static int count_classes(Count *c) {
  Game *g = c->g;
  KeySet *s = &c->set;
  if (g->vt->canonical == NULL || s->n == 0) return EXIT_OK;
  unsigned char *forms = malloc(s->n * s->key_bytes);
  if (forms == NULL) return fail(c, EXIT_LIMIT, "out of memory");
  for (size_t i = 0; i < s->n; i++)
    g->vt->canonical(g, keyset_key(s, i), forms + i * s->key_bytes);
  cmp_size = s->key_bytes;
  qsort(forms, s->n, s->key_bytes, cmp_states);
  c->canonical = 1;
  for (size_t i = 1; i < s->n; i++)
    c->canonical += memcmp(forms + (i - 1) * s->key_bytes, forms + i * s->key_bytes, s->key_bytes) != 0;
  free(forms);
  return EXIT_OK;
}

static int count_walk(Count *c) {
  Game *g = c->g;
  Walk *w = &c->walk;
  Outcome o;
  int n;

  c->status = EXIT_OK;
  /* Each node: seen before, terminal, or expanded. */
  for (int e = walk_begin(w); e != WALK_DONE; ) {
    if ((++c->nodes & PROGRESS_TICK) == 0 && c->progress)
      progress_note(c->progress, "counting", NULL, c->positions, "positions", -1);
    if ((n = set_add(&c->set, g, c->memory_limit)) == -2)
      return fail(c, EXIT_LIMIT, "memory limit of %zu MiB reached after %llu positions (about "
                  "%zu bytes each); raise --memory", c->memory_limit >> 20,
                  (unsigned long long)c->positions, keyset_bytes(&c->set) / (c->set.n ? c->set.n : 1));
    if (n < 0 && c->set.n == KEYSET_MAX)
      return fail(c, EXIT_LIMIT, "more than %lu positions: the most --count holds",
                  (unsigned long)KEYSET_MAX);
    if (n < 0)
      return fail(c, EXIT_LIMIT, "out of memory counting positions after %llu (%zu MiB held)",
                  (unsigned long long)c->positions, keyset_bytes(&c->set) >> 20);
    if (n == 0) {
      e = walk_next(w);
      continue;
    }
    c->positions++;
    if (game_ended(g, &o)) {
      c->terminal++;
    } else if ((n = walk_expand(w)) < 0) {
      return fail(c, EXIT_LIMIT, "out of memory");
    } else if (n == 0) {
      c->terminal++;
    } else if (c->base_ply + w->ply >= GAME_MAX_PLY) {
      return fail(c, EXIT_LIMIT, "a line of play without repetitions is "
                  "longer than %d plies (GAME_MAX_PLY)", GAME_MAX_PLY);
    } else if (stop_requested) {
      char msg[160];
      return fail(c, stop_message(msg, sizeof msg, c->positions, "positions"), "%s", msg);
    } else {
      e = walk_into(w);
      continue;
    }
    e = walk_next(w);
  }
  return count_classes(c) != EXIT_OK ? c->status : count_boards(c);
}

/* Positions are counted as positions: a repetition rule, which looks at
** the line of play, is off meanwhile (Go's boards "ignoring the ko
** history"). */
int count_run(Count *c) {
  int had = c->g->has_history;
  if (had) game_set_history(c->g, 0);
  int st = count_walk(c);
  if (had) game_set_history(c->g, 1);
  return st;
}
