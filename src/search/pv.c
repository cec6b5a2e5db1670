/*
** pv.c -- the principal variation: from the position solved, play the
** first of the optimal moves (in generation order, so the line is the
** same on every run), solve again, and so on to the end of the game.
**
** Each step solves its position anew with the solver the run used; the
** alpha-beta table is warm from the root's solve, so the steps are
** cheap next to it.  The line's length is the root's plies: along an
** optimal line every position keeps the root's value.  A draw by endless
** play (retro's "plies: -") has no end: the line stops at the first
** position that repeats one of it (same hash, same state bytes).
*/
#include <stdlib.h>
#include <string.h>
#include "util/status.h"
#include "search/pv.h"
#include "util/diag.h"

int pv_push(Pv *pv, Game *g, const Move *m) {
  char buf[256];
  if (pv->n == pv->cap) {
    int cap = pv->cap ? 2 * pv->cap : 32;
    Move *mv = realloc(pv->moves, (size_t)cap * sizeof *mv);
    char **nm;
    if (mv == NULL) return -1;
    pv->moves = mv;
    if ((nm = realloc(pv->names, (size_t)cap * sizeof *nm)) == NULL) return -1;
    pv->names = nm;
    pv->cap = cap;
  }
  buf[0] = '\0';
  game_format_move(g, m, buf, sizeof buf);
  buf[sizeof buf - 1] = '\0';
  if ((pv->names[pv->n] = strdup(buf)) == NULL) return -1;
  pv->moves[pv->n++] = *m;
  return 0;
}

/* The first optimal move of a solve, or NULL when there is none. */
static const Move *first_best(const SolveResult *r) {
  if (r->terminal) return NULL;
  for (int i = 0; i < r->nmoves; i++)
    if (r->best[i]) return &r->moves[i];
  return NULL;
}

/* Records the current position as the line's pv->n-th; the index of an
** earlier equal one, or -1 (-2: out of memory).  Both are compared: the
** hash carries a repetition rule's history (which the state bytes lack),
** the states kept whole rule out a hash collision. */
int pv_seen(Pv *pv, Game *g) {
  size_t sb = g->state_bytes;
  uint64_t h = game_hash(g);
  const void *st = game_state(g);
  for (int i = 0; i < pv->n; i++)
    if (pv->hashes[i] == h && memcmp(pv->states + (size_t)i * sb, st, sb) == 0) return i;
  if ((size_t)pv->n >= pv->seen_cap) {
    size_t cap = pv->seen_cap ? 2 * pv->seen_cap : 32;
    while (cap <= (size_t)pv->n) cap *= 2;
    uint64_t *hs = realloc(pv->hashes, cap * sizeof *hs);
    if (hs == NULL) return -2;
    pv->hashes = hs;
    unsigned char *ss = realloc(pv->states, cap * sb + 1);
    if (ss == NULL) return -2;
    pv->states = ss;
    pv->seen_cap = cap;
  }
  pv->hashes[pv->n] = h;
  memcpy(pv->states + (size_t)pv->n * sb, st, sb);
  return -1;
}

int pv_find(Pv *pv, Game *g, const SolveResult *root, int depth, int base_ply,
            PvSolveFn solve, void *ctx) {
  Search s;
  const Move *m = first_best(root);
  int st = EXIT_OK, rep;
  memset(&s, 0, sizeof s);
  pv->repeats_from = -1;
  if (pv_seen(pv, g) == -2) m = NULL, st = EXIT_LIMIT;
  while (m != NULL) {
    if (pv_push(pv, g, m) != 0) {
      st = EXIT_LIMIT;
      break;
    }
    game_apply(g, m);
    if ((rep = pv_seen(pv, g)) == -2) { st = EXIT_LIMIT; break; }
    if (rep >= 0) { pv->repeats_from = rep; break; }
    if (pv->n >= GAME_MAX_PLY || (depth && pv->n >= depth)) break;
    search_free(&s);
    search_init(&s, g, base_ply + pv->n, stderr);
    if ((st = solve(ctx, &s, pv->n, depth ? depth - pv->n : 0)) != EXIT_OK) break;
    m = first_best(&s.result);
  }
  if (st == EXIT_LIMIT) diag_fail(stderr, st, "out of memory");
  search_free(&s);
  for (int i = 0; i < pv->n; i++) game_undo(g);
  return st;
}

void pv_print(const Pv *pv, Game *g, FILE *out) {
  fputs("pv: ", out);
  if (pv->n == 0) fputs("-", out);
  for (int i = 0; i < pv->n; i++) fprintf(out, "%s%s", i ? ", " : "", pv->names[i]);
  if (pv->repeats_from == 0)
    fputs(" (back to the start: round again for ever)", out);
  else if (pv->repeats_from > 0)
    fprintf(out, " (back to the position after move %d: round again for ever)", pv->repeats_from);
  fputs("\n\nstart:\n", out);
  game_print(g, out);
  for (int i = 0; i < pv->n; i++) {
    int who = game_to_move(g);
    fprintf(out, "\n%d. %s %s:\n", i + 1, who == GAME_CHANCE ? "chance" : g->player_names[who],
            pv->names[i]);
    game_apply(g, &pv->moves[i]);
    game_print(g, out);
  }
  for (int i = 0; i < pv->n; i++) game_undo(g);
}

void pv_free(Pv *pv) {
  for (int i = 0; i < pv->n; i++) free(pv->names[i]);
  free(pv->names);
  free(pv->moves);
  free(pv->hashes);
  free(pv->states);
  memset(pv, 0, sizeof *pv);
}
