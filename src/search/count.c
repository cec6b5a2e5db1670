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
  c->set.size = g->state_bytes;
  walk_init(&c->walk, g);
}

void count_free(Count *c) {
  walk_free(&c->walk);
  free(c->set.hashes);
  free(c->set.slots);
  free(c->set.arena);
  c->set.hashes = c->set.slots = NULL;
  c->set.arena = NULL;
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

/* Doubles the slot array (kept at most half full) and re-inserts. */
static int grow_slots(StateSet *s) {
  size_t n = s->nslots ? s->nslots * 2 : 1024;
  uint64_t *h, *sl;
  if (n > SIZE_MAX / sizeof *h) return -1;
  h = malloc(n * sizeof *h);
  sl = calloc(n, sizeof *sl);
  if (h == NULL || sl == NULL) {
    free(h);
    free(sl);
    return -1;
  }
  for (size_t i = 0; i < s->nslots; i++) {
    size_t j;
    if (s->slots[i] == 0) continue;
    for (j = s->hashes[i] & (n - 1); sl[j] != 0; j = (j + 1) & (n - 1)) {}
    h[j] = s->hashes[i];
    sl[j] = s->slots[i];
  }
  free(s->hashes);
  free(s->slots);
  s->hashes = h;
  s->slots = sl;
  s->nslots = n;
  return 0;
}

static int grow_arena(StateSet *s) {
  size_t n = s->arena_cap ? s->arena_cap * 2 : 1024;
  size_t sz = s->size ? s->size : 1;
  unsigned char *a;
  if (n > SIZE_MAX / sz) return -1;
  if ((a = realloc(s->arena, n * sz)) == NULL) return -1;
  s->arena = a;
  s->arena_cap = n;
  return 0;
}

/* Bytes the set holds: its slots and its arena. */
static size_t set_bytes(const StateSet *s) {
  return s->nslots * 2 * sizeof(uint64_t) + s->arena_cap * (s->size ? s->size : 1);
}

/* Adds the state; 1 if it is new, 0 if already there, -1 out of memory,
** -2 when growing would pass `limit` bytes (0: no limit). */
static int set_add(StateSet *s, uint64_t h, const void *state, size_t limit) {
  size_t j;
  if (limit && (2 * (s->n + 1) > s->nslots || s->n == s->arena_cap)) {
    /* The next growth doubles the slots or the arena. */
    size_t more = 2 * (s->n + 1) > s->nslots ? (s->nslots ? s->nslots : 512) * 2 * sizeof(uint64_t)
                                              : (s->arena_cap ? s->arena_cap : 1024) * (s->size ? s->size : 1);
    if (set_bytes(s) + more > limit) return -2;
  }
  if (2 * (s->n + 1) > s->nslots && grow_slots(s) != 0) return -1;
  for (j = h & (s->nslots - 1); s->slots[j] != 0;
       j = (j + 1) & (s->nslots - 1)) {
    if (s->hashes[j] == h
        && memcmp(s->arena + (size_t)(s->slots[j] - 1) * s->size, state,
                  s->size) == 0)
      return 0;
  }
  if (s->n == s->arena_cap && grow_arena(s) != 0) return -1;
  memcpy(s->arena + s->n * s->size, state, s->size);
  s->hashes[j] = h;
  s->slots[j] = ++s->n;
  return 1;
}

static size_t cmp_size;
static int cmp_states(const void *a, const void *b) { return memcmp(a, b, cmp_size); }

/* Distinct boards among the positions found: the board of every state,
** sorted.  (Go: the other state -- passes, the ko point -- and the player
** to move do not count.) */
static int count_boards(Count *c) {
  Game *g = c->g;
  StateSet *s = &c->set;
  size_t bb = g->board_bytes;
  if (bb == 0 || s->n == 0) return EXIT_OK;
  unsigned char *boards = malloc(s->n * bb);
  if (boards == NULL) return fail(c, EXIT_LIMIT, "out of memory");
  for (size_t i = 0; i < s->n; i++) g->board_key(g, s->arena + i * s->size, boards + i * bb);
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
  StateSet *s = &c->set;
  if (g->vt->canonical == NULL || s->n == 0) return EXIT_OK;
  unsigned char *forms = malloc(s->n * s->size);
  if (forms == NULL) return fail(c, EXIT_LIMIT, "out of memory");
  for (size_t i = 0; i < s->n; i++)
    g->vt->canonical(g, s->arena + i * s->size, forms + i * s->size);
  cmp_size = s->size;
  qsort(forms, s->n, s->size, cmp_states);
  c->canonical = 1;
  for (size_t i = 1; i < s->n; i++)
    c->canonical += memcmp(forms + (i - 1) * s->size, forms + i * s->size, s->size) != 0;
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
    if ((n = set_add(&c->set, game_hash(g), game_state(g), c->memory_limit)) == -2)
      return fail(c, EXIT_LIMIT, "memory limit of %zu MiB reached after %llu positions (about "
                  "%zu bytes each); raise --memory", c->memory_limit >> 20,
                  (unsigned long long)c->positions, set_bytes(&c->set) / (c->set.n ? c->set.n : 1));
    if (n < 0)
      return fail(c, EXIT_LIMIT, "out of memory counting positions after %llu (%zu MiB held)",
                  (unsigned long long)c->positions, set_bytes(&c->set) >> 20);
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
