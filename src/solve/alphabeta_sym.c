/*
** alphabeta_sym.c -- symmetric lines: where a declared symmetry of the
** game maps every position of the line of play onto itself, two moves
** whose positions it maps onto each other have the same value, and only
** one of them is searched.
**
** Why it is exact even under a repetition rule: let s fix each position
** of the line (the root's earlier positions included) and send child i
** to child j.  Then s sends the subtree of i, line and all, onto the
** subtree of j: every position of a game below i has its image below j,
** and a repetition test of a position against the line gives the same
** answer for its image (s maps the line onto itself, and is one to one).
** So both have the same value.  The elements that fix the whole line are
** the intersection of those that fix each of its positions: computed
** ply by ply, and empty (no more work) as soon as only the identity is
** left, which on a Go board is a few plies from an empty start.
**
** What it costs the table: a node that skipped a child has not seen what
** that child's subtree would have tested against the line (ghi.h), so
** under a repetition rule it is not stored; nor are its ancestors (whose
** lines it shares).  Nodes below are stored as always.
*/
#include <stdlib.h>
#include <string.h>
#include "solve/alphabeta_int.h"

#define SYM_MAX 64                /* elements, one bit each in a mask */

static int popcount64(uint64_t x) {
  int n = 0;
  for (; x; x &= x - 1) n++;
  return n;
}

int ab_sym_setup(Ab *a) {
  Game *g = a->g;
  int n = g->vt->symmetries != NULL && g->vt->symmetry_image != NULL
          && a->o->symmetry ? g->vt->symmetries(g) : 0;
  a->nsym = n >= 2 && n <= SYM_MAX ? n : 0;
  if (!a->nsym) return 0;
  if (a->sym_img_bytes != g->state_bytes) {
    free(a->sym_img);
    a->sym_img = malloc(g->state_bytes > 0 ? g->state_bytes : 1);
    if (a->sym_img == NULL) return -1;
    a->sym_img_bytes = g->state_bytes;
  }
  return 0;
}

uint64_t ab_sym_fixers(Ab *a, uint64_t mask) {
  Game *g = a->g;
  const void *state = game_state(g);
  uint64_t out = 0;
  if (popcount64(mask) < 2) return 0;   /* the identity alone: nothing to gain */
  for (int e = 0; e < a->nsym; e++) {
    if (!(mask >> e & 1)) continue;
    g->vt->symmetry_image(g, e, state, a->sym_img);
    if (memcmp(a->sym_img, state, g->state_bytes) == 0) out |= (uint64_t)1 << e;
  }
  return popcount64(out) >= 2 ? out : 0;
}

int ab_sym_root_mask(Ab *a) {
  Game *g = a->g;
  const uint64_t *line;
  if (!a->nsym) return 0;
  /* Earlier positions are known by their hashes only: their images cannot
  ** be checked, so a line that has some is not taken as symmetric. */
  if (g->has_history && (g->vt->history_line == NULL || g->vt->history_line(g, &line) > 0))
    return 0;
  return 1;
}

/* A hash of a state's bytes, for finding equal states. */
static uint64_t state_hash(const unsigned char *p, size_t n) {
  uint64_t h = 0x9e3779b97f4a7c15u ^ n, w;
  for (; n >= 8; p += 8, n -= 8) {
    memcpy(&w, p, 8);
    h = (h ^ w) * 0xff51afd7ed558ccdu;
    h ^= h >> 32;
  }
  for (; n > 0; p++, n--) h = (h ^ *p) * 0x100000001b3u;
  h ^= h >> 29;
  return h * 0xc4ceb9fe1a85ec53u;
}

/* Room for n children's states and the representatives' chains (buckets:
** a power of two, at least 2n); 0, or -1 when out of memory. */
static int sym_room(Ab *a, int n, size_t sb) {
  if ((size_t)n * sb > a->sym_states_cap) {
    unsigned char *p = realloc(a->sym_states, (size_t)n * sb);
    if (p == NULL) return -1;
    a->sym_states = p;
    a->sym_states_cap = (size_t)n * sb;
  }
  if ((size_t)n > a->sym_next_cap) {
    int *p = realloc(a->sym_next, (size_t)n * sizeof *p);
    if (p == NULL) return -1;
    a->sym_next = p;
    a->sym_next_cap = (size_t)n;
  }
  size_t buckets = 16;
  while (buckets < 2 * (size_t)n) buckets *= 2;
  if (buckets > a->sym_buckets) {
    int *p = realloc(a->sym_head, buckets * sizeof *p);
    if (p == NULL) return -1;
    a->sym_head = p;
    a->sym_buckets = buckets;
  }
  return 0;
}

/* Each child's images are looked up among the earlier representatives by
** their hashes (a table of chains), so that a position of n moves costs
** n x elements images, not n^2 comparisons (Connect6's 129,240 moves
** after its first stone: minutes).  Representatives have distinct states
** when the identity is among the elements; the chains hold the latest
** first, and the earliest match is kept, so the result is the pairwise
** comparison's: the first element, in order, whose image of child i is
** an earlier representative, the first such representative. */
int ab_sym_mark(Ab *a, uint64_t mask, const Move *moves, int n, int *rep) {
  Game *g = a->g;
  size_t sb = g->state_bytes;
  int dups = 0;
  for (int i = 0; i < n; i++) rep[i] = i;
  if (popcount64(mask) < 2 || n < 2) return 0;
  if (sym_room(a, n, sb) != 0) return -1;
  size_t used = 16;
  while (used < 2 * (size_t)n) used *= 2;
  int *head = a->sym_head, *next = a->sym_next;
  for (size_t b = 0; b < used; b++) head[b] = -1;
  for (int i = 0; i < n; i++) {
    game_apply(g, &moves[i]);
    memcpy(a->sym_states + (size_t)i * sb, game_state(g), sb);
    game_undo(g);
  }
  for (int i = 0; i < n; i++) {
    const unsigned char *si = a->sym_states + (size_t)i * sb;
    for (int e = 0; i > 0 && e < a->nsym && rep[i] == i; e++) {
      if (!(mask >> e & 1)) continue;
      g->vt->symmetry_image(g, e, si, a->sym_img);
      int found = -1;
      for (int j = head[state_hash(a->sym_img, sb) & (used - 1)]; j >= 0; j = next[j])
        if (memcmp(a->sym_img, a->sym_states + (size_t)j * sb, sb) == 0) found = j;
      if (found >= 0) {
        rep[i] = found;
        dups++;
      }
    }
    if (rep[i] == i) {        /* a representative: into the table */
      size_t b = state_hash(si, sb) & (used - 1);
      next[i] = head[b];
      head[b] = i;
    }
  }
  a->o->stats.symmetry_skips += (uint64_t)dups;
  return dups;
}
