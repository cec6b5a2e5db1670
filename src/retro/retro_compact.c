/*
** retro_compact.c -- retrograde analysis in the compact form (see
** retro_compact.h and docs/performance.md, "Compact retrograde tables").
**
** Forward, layer by layer: layer 0 is the root; layer k + 1 is the set of
** the children of layer k's positions (their canonical keys), gathered in
** an open-addressing set of 64-bit keys, then sorted, squeezed (the key
** bits constant in the layer dropped, which keeps the order) and stored
** as an Elias-Fano set, the gathering set freed.  A position met in two
** layers (a cycle, or a position reachable at two depths) refuses the
** form.  Backward, from the deepest layer to the root: each position's
** value from its children's, found by their rank in the next layer, in
** the order every solver uses (value_make); the fields are bit-packed:
** the mover (1 bit), the score (enough bits for every end's margin and
** its negation), the distance (enough for the layers below).
**
** No move graph is kept: each position is expanded twice (forward and
** backward), from its key (unpack, set_state), so the memory is the
** keys (about 2 + log2(U / n) bits each) and the values alone.
*/
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "retro/retro_compact.h"
#include "retro/retro_compact_cycles.h"
#include "search/progress.h"
#include "util/clock.h"
#include "util/diag.h"
#include "util/status.h"
#include "util/stop.h"

const char *retro_compact_refusal(const Retro *r) {
  const Game *g = r->g;
  if (!g->vt->pack || !g->vt->unpack || !g->vt->set_state)
    return "this engine cannot pack a position into a key and set it back from one "
           "(--engine vm or --engine compiled can)";
  if (g->key_bytes > 8) return "the game's packed keys are longer than 64 bits";
  if (g->has_chance || g->has_rewards || g->nplayers > 2)
    return "the game has chance, payoffs per move or more than two players";
  return NULL;
}

/* Keys of key_bytes (at most 8) as numbers, little end first. */
static uint64_t key_word(const unsigned char *k, size_t n) {
  uint64_t v = 0;
  for (size_t i = n; i-- > 0;) v = v << 8 | k[i];
  return v;
}

static void word_key(uint64_t v, unsigned char *k, size_t n) {
  for (size_t i = 0; i < n; i++, v >>= 8) k[i] = (unsigned char)v;
}

/* The key of the engine's current position: its canonical form's with
** symmetries. */
uint64_t retro_compact_key(Retro *r) {
  Game *g = r->g;
  if (!r->canonical) g->vt->pack(g, game_state(g), r->key);
  else if (g->vt->canonical_key) g->vt->canonical_key(g, game_state(g), r->key);
  else {
    r->canonical(g, game_state(g), r->canon);
    g->vt->pack(g, r->canon, r->key);
  }
  return key_word(r->key, g->key_bytes);
}

/* A layer's squeeze: the varying bits of each key byte packed together,
** the bytes' in order; and its inverse. */
void retro_compact_tables(CompactLayer *L) {
  int at = 0;
  for (int j = 0; j < 8; j++) {
    unsigned m = (unsigned)(L->vary >> (8 * j)) & 255;
    L->width[j] = (uint8_t)__builtin_popcount(m);
    L->shift[j] = (uint8_t)at;
    at += L->width[j];
    for (unsigned b = 0; b < 256; b++) {
      unsigned out = 0, dep = 0;
      int k = 0;
      for (int bit = 0; bit < 8; bit++) {
        if (!(m >> bit & 1)) continue;
        out |= (b >> bit & 1) << k;
        dep |= (b >> k & 1) << bit;
        k++;
      }
      L->squeeze[j][b] = (uint8_t)out;
      L->deposit[j][b] = (uint8_t)dep;
    }
  }
}

uint64_t retro_compact_squeeze(const CompactLayer *L, uint64_t key) {
  uint64_t out = 0;
  for (int j = 0; j < 8; j++)
    if (L->width[j]) out |= (uint64_t)L->squeeze[j][(key >> (8 * j)) & 255] << L->shift[j];
  return out;
}

uint64_t retro_compact_unsqueeze(const CompactLayer *L, uint64_t v) {
  uint64_t key = L->fixed;
  for (int j = 0; j < 8; j++)
    if (L->width[j])
      key |= (uint64_t)L->deposit[j][(v >> L->shift[j]) & ((1u << L->width[j]) - 1)] << (8 * j);
  return key;
}

/* The rank of key in layer L, or -1. */
int64_t retro_compact_rank(const CompactLayer *L, uint64_t key) {
  if ((key & ~L->vary) != L->fixed) return -1;
  return efset_rank(&L->keys, retro_compact_squeeze(L, key));
}

static int value_width(const RetroCompact *c, const CompactLayer *L) {
  return 1 + c->sbits + L->dbits;
}

int retro_compact_width(const RetroCompact *c, const CompactLayer *L) { return value_width(c, L); }

size_t retro_compact_bytes(const Retro *r) {
  const RetroCompact *c = r->cpt;
  size_t total = 0;
  if (!c) return 0;
  for (int k = 0; k < c->nlayers; k++) {
    const CompactLayer *L = &c->layer[k];
    total += sizeof *L;
    if (compact_keys_resident(L)) total += efset_bytes(&L->keys);
    if (L->vals) total += bits_words(L->keys.n, value_width(c, L)) * sizeof(uint64_t);
    if (L->rec)             /* the record's blocks, and a block decompressed */
      total += (L->file_len > efset_bytes(&L->keys) ? L->file_len - efset_bytes(&L->keys) : 0) +
               ((size_t)c->block * (size_t)value_width(c, L) / 64 + 2) * 8;
  }
  return total;
}

void compact_layer_free(CompactLayer *L) {
  efset_free(&L->keys);
  free(L->vals);
  free(L->block_at);
  free(L->block_size);
  free(L->block_kind);
  free(L->cache);
  free(L->rec);
  L->vals = NULL;
  L->block_at = NULL;
  L->block_size = NULL;
  L->block_kind = NULL;
  L->cache = NULL;
  L->rec = NULL;
}

void retro_compact_free(RetroCompact *c) {
  if (!c) return;
  compact_db_abort(c);
  if (c->spill_fd) close(c->spill_fd - 1);
  if (c->read_fd) close(c->read_fd - 1);
  free(c->written);
  free(c->run_at);
  free(c->run_n);
  for (int k = 0; k < c->nlayers; k++) compact_layer_free(&c->layer[k]);
  free(c->file);
  free(c->next.slot);
  free(c->layer);
  free(c->moves);
  free(c->ckeys);
  free(c->cmover);
  free(c->child);
  free(c->state);
  free(c);
}

/* ------------------------------------------------------------------ */
/* The set a layer is gathered in                                     */
/* ------------------------------------------------------------------ */

typedef CompactGather Gather;

static inline size_t gather_home(const Gather *s, uint64_t key) {
  uint64_t h = key * 0x9e3779b97f4a7c15ULL;
  h ^= h >> 29;
  return (size_t)(h * 0xbf58476d1ce4e5b9ULL >> 20) & (s->cap - 1);
}

void retro_compact_gather_put(Gather *s, uint64_t key) {
  if (key == UINT64_MAX) {
    s->n += !s->has_max;
    s->has_max = 1;
    return;
  }
  size_t j = gather_home(s, key);
  for (; s->slot[j]; j = (j + 1) & (s->cap - 1))
    if (s->slot[j] == key + 1) return;
  s->slot[j] = key + 1;
  s->n++;
}

int retro_compact_gather_grow(Gather *s) {
  Gather t = *s;
  t.cap = s->cap ? s->cap * 2 : 1024;
  t.n = 0;
  t.has_max = 0;
  if (!(t.slot = calloc(t.cap, sizeof *t.slot))) return -1;
  for (size_t i = 0; i < s->cap; i++)
    if (s->slot[i]) retro_compact_gather_put(&t, s->slot[i] - 1);
  t.n += s->has_max;
  t.has_max = s->has_max;
  free(s->slot);
  *s = t;
  return 0;
}

/* Sorts a[0..n) in place (the C library's qsort may take a buffer as
** large as the array): quicksort on the median of three, the smaller
** side first, insertion sort for short runs. */
static void sort_u64(uint64_t *a, size_t n) {
  while (n > 16) {
    uint64_t x = a[0], y = a[n / 2], z = a[n - 1], t;
    uint64_t p = x < y ? (y < z ? y : x < z ? z : x) : (x < z ? x : y < z ? z : y);
    size_t i = 0, j = n - 1;
    for (;;) {
      while (a[i] < p) i++;
      while (a[j] > p) j--;
      if (i >= j) break;
      t = a[i]; a[i] = a[j]; a[j] = t;
      i++;
      j--;
    }
    /* a[0..j] <= p <= a[j+1..n) */
    size_t left = j + 1;
    if (left < n - left) {
      sort_u64(a, left);
      a += left;
      n -= left;
    } else {
      sort_u64(a + left, n - left);
      n = left;
    }
  }
  for (size_t i = 1; i < n; i++) {
    uint64_t v = a[i];
    size_t j = i;
    for (; j > 0 && a[j - 1] > v; j--) a[j] = a[j - 1];
    a[j] = v;
  }
}

/* The gathering set's keys (stored + 1, 0 empty) packed to its front,
** sorted, UINT64_MAX last when it is one (room: the set is at most 3/4
** full); their number. */
static size_t sorted_keys(CompactGather *s) {
  uint64_t *keys = s->slot;
  size_t n = 0;
  for (size_t i = 0; i < s->cap; i++)
    if (keys[i]) keys[n++] = keys[i] - 1;
  sort_u64(keys, n);
  if (s->has_max) keys[n++] = UINT64_MAX;
  return n;
}

/* Room in c->layer for one more layer.  0, or -1 out of memory. */
static int layer_room(RetroCompact *c) {
  if (c->nlayers < c->layer_cap) return 0;
  int cap = c->layer_cap ? c->layer_cap * 2 : 32;
  CompactLayer *l = realloc(c->layer, (size_t)cap * sizeof *l);
  if (!l) return -1;
  c->layer = l;
  c->layer_cap = cap;
  return 0;
}

/* The gathered keys, sorted, into a new layer; the set is freed. */
int retro_compact_gather_layer(RetroCompact *c, Gather *s) {
  if (layer_room(c) < 0) return -1;
  uint64_t *keys = s->slot;
  size_t n = sorted_keys(s);
  uint64_t all = ~UINT64_C(0), any = 0;
  for (size_t i = 0; i < n; i++) {
    all &= keys[i];
    any |= keys[i];
  }
  CompactLayer *L = &c->layer[c->nlayers];
  memset(L, 0, sizeof *L);
  L->vary = all ^ any;
  L->fixed = all;
  retro_compact_tables(L);
  for (size_t i = 0; i < n; i++) keys[i] = retro_compact_squeeze(L, keys[i]);
  int rc = efset_build(&L->keys, keys, n);
  free(s->slot);
  memset(s, 0, sizeof *s);
  if (rc < 0) return -1;
  c->nlayers++;
  if (n > c->largest) c->largest = n;
  return 0;
}

/* Whether layers a and b hold a key in common. */
int retro_compact_meet(const CompactLayer *a, const CompactLayer *b) {
  if ((a->fixed ^ b->fixed) & ~a->vary & ~b->vary) return 0;
  EfIter ia, ib;
  uint64_t x, y;
  efset_iter_init(&ia, &a->keys);
  efset_iter_init(&ib, &b->keys);
  int more = efset_next(&ia, &x) && efset_next(&ib, &y);
  while (more) {
    uint64_t kx = retro_compact_unsqueeze(a, x), ky = retro_compact_unsqueeze(b, y);
    if (kx == ky) return 1;
    more = kx < ky ? efset_next(&ia, &x) : efset_next(&ib, &y);
  }
  return 0;
}

/* ------------------------------------------------------------------ */
/* Expanding a position                                               */
/* ------------------------------------------------------------------ */

/* Sets the engine to the position of key. */
void retro_compact_set_key(Retro *r, RetroCompact *c, uint64_t key) {
  Game *g = r->g;
  word_key(key, r->key, g->key_bytes);
  g->vt->unpack(g, r->key, c->state);
  g->vt->set_state(g, c->state);
}

/* The current position's children: their keys in c->child, their movers
** in c->cmover, and their number; -1 when the game has ended here (the
** outcome in *o). */
int retro_compact_expand(Retro *r, RetroCompact *c, Outcome *o) {
  Game *g = r->g;
  size_t kb = g->key_bytes;
  int n;
  if (game_ended(g, o)) return -1;
  if (r->canonical && g->vt->generate_keyed && g->vt->canonical_key) {
    n = g->vt->generate_keyed(g, c->moves, c->ckeys, c->cmover);
    for (int i = 0; i < n; i++) c->child[i] = key_word(c->ckeys + (size_t)i * kb, kb);
  } else {
    n = game_generate(g, c->moves);
    for (int i = 0; i < n; i++) {
      game_apply(g, &c->moves[i]);
      c->child[i] = retro_compact_key(r);
      c->cmover[i] = (uint8_t)game_to_move(g);
      game_undo(g);
    }
  }
  if (n == 0) {
    game_no_moves(g, o);
    return -1;
  }
  return n;
}

/* The margin of an outcome for mover m, as retro.c's set_terminal. */
int64_t retro_compact_margin(const Game *g, int m, const Outcome *o) {
  int64_t margin = g->nplayers == 1 ? o->payoff[0] : (int64_t)o->payoff[m] - o->payoff[1 - m];
  if (margin > VALUE_SCORE_MAX) margin = VALUE_SCORE_MAX;
  if (margin < -VALUE_SCORE_MAX) margin = -VALUE_SCORE_MAX;
  return margin;
}

static int stopped(Retro *r, uint64_t n) {
  char msg[160];
  int st = stop_message(msg, sizeof msg, n, "positions");
  return retro_fail(r, st, "%s", msg);
}

/* The refusal when gathering layer k would need `need` bytes. */
static int too_big(Retro *r, size_t need, int k) {
  size_t limit, free_now;
  compact_fits(r, 0, 0, &limit, &free_now);
  return compact_refuse(r, need, limit, free_now, "to gather its next layer", k);
}

/* ------------------------------------------------------------------ */
/* The layer being gathered in sorted runs on disk                    */
/* ------------------------------------------------------------------ */

/* The set's keys, sorted, as a run at the end of the spill file; the set
** emptied.  0, or the status reported. */
static int flush_run(Retro *r, RetroCompact *c, Gather *s) {
  int st = compact_spill_open(r, c);
  if (st) return st;
  if (c->nruns == c->runs_cap) {
    int cap = c->runs_cap ? 2 * c->runs_cap : 16;
    uint64_t *at = realloc(c->run_at, (size_t)cap * sizeof *at);
    if (at) c->run_at = at;
    uint64_t *n = at ? realloc(c->run_n, (size_t)cap * sizeof *n) : NULL;
    if (!n) return retro_fail(r, EXIT_LIMIT, "out of memory");
    c->run_n = n;
    c->runs_cap = cap;
  }
  uint64_t *keys = s->slot;
  size_t n = sorted_keys(s);
  if (c->nruns == 0) c->runs_from = c->spill_end;
  if (compact_write_at(c->spill_fd - 1, keys, n * sizeof *keys, c->spill_end) < 0) {
    char buf[4096];
    return retro_fail(r, EXIT_IO, "cannot write the compact table's layers to disk in '%s': %s "
                      "(give --spill DIR)", compact_spill_folder(r, buf, sizeof buf), strerror(errno));
  }
  c->run_at[c->nruns] = c->spill_end;
  c->run_n[c->nruns++] = n;
  c->runs_total++;
  c->spill_end += n * sizeof *keys;
  c->runs_end = c->spill_end;
  memset(s->slot, 0, s->cap * sizeof *s->slot);
  s->n = 0;
  s->has_max = 0;
  return 0;
}

typedef struct Tally {
  uint64_t n, all, any, last;
} Tally;

static void tally_key(void *arg, uint64_t key, uint64_t i) {
  Tally *t = arg;
  t->n = i + 1;
  t->all &= key;
  t->any |= key;
  t->last = key;
}

static void put_key(void *arg, uint64_t key, uint64_t i) {
  CompactLayer *L = arg;
  efset_put(&L->keys, i, retro_compact_squeeze(L, key));
}

/* The runs (and what the set still holds) merged into a new layer, in two
** passes: the keys' number, constant bits and largest; then the set.  The
** runs' room in the spill file is used again.  0; -1 out of memory; or
** the status reported. */
int retro_compact_merge(Retro *r, RetroCompact *c, Gather *s) {
  if (s->n) {
    int st = flush_run(r, c, s);
    if (st) return st;
  }
  free(s->slot);
  memset(s, 0, sizeof *s);
  if (layer_room(c) < 0) return -1;
  Tally t = { 0, ~UINT64_C(0), 0, 0 };
  int rc = compact_merge_runs(r, c, tally_key, &t);
  if (rc) return rc < 0 ? -1 : r->status;
  CompactLayer *L = &c->layer[c->nlayers];
  memset(L, 0, sizeof *L);
  L->vary = t.all ^ t.any;
  L->fixed = t.all;
  retro_compact_tables(L);
  if (efset_begin(&L->keys, t.n, retro_compact_squeeze(L, t.last)) < 0) return -1;
  rc = compact_merge_runs(r, c, put_key, L);
  if (rc == 0 && efset_end(&L->keys) < 0) rc = -1;
  if (rc) {
    efset_free(&L->keys);
    return rc < 0 ? -1 : r->status;
  }
  if (c->spill_end == c->runs_end) c->spill_end = c->runs_from;
  c->nruns = 0;
  c->nlayers++;
  if (t.n > c->largest) c->largest = t.n;
  return 0;
}

/* ------------------------------------------------------------------ */
/* Forward: the layers                                                */
/* ------------------------------------------------------------------ */

/* With layers on disk, the most slots the gathering set takes: no more
** than the set of the layer being expanded (so that the two layers of
** the labels stay the peak), COMPACT_GATHER_MIN at least and
** COMPACT_GATHER_SLOTS at most. */
static size_t gather_most(const RetroCompact *c, int k) {
  size_t words = efset_bytes(&c->layer[k].keys) / sizeof(uint64_t), most = COMPACT_GATHER_MIN;
  while (most < COMPACT_GATHER_SLOTS && most * 2 <= words) most *= 2;
  return most;
}

/* Before the gathering set doubles (the forward pass's large allocation):
** the room for it, checked against --memory and what is free; when it is
** not there, the layers already expanded go to disk (all but layer k,
** being expanded) and the check is made again.  With layers on disk, a
** set of gather_most slots (or one that cannot double) goes to disk as a
** sorted run instead.  0: it may double; 1: it went to disk; -1 failed,
** or the refusal's status (both reported). */
int retro_compact_room(Retro *r, RetroCompact *c, int k) {
  Gather *next = &c->next;
  size_t more = next->cap * 2 * sizeof *next->slot, limit, free_now;
  size_t held = retro_compact_bytes(r) + next->cap * sizeof *next->slot;
  if (c->spill && next->cap >= gather_most(c, k)) return flush_run(r, c, next) ? -1 : 1;
  if (!compact_fits(r, held, more, &limit, &free_now) && !c->spill) {
    c->spill = 1;
    for (int j = 0; j < c->nlayers; j++)
      if (j != k) {
        int st = compact_spill_keys(r, c, &c->layer[j]);
        if (st) return st;
      }
    held = retro_compact_bytes(r) + next->cap * sizeof *next->slot;
    if (next->cap >= gather_most(c, k)) return flush_run(r, c, next) ? -1 : 1;
  }
  if (!compact_fits(r, held, more, &limit, &free_now)) {
    if (c->spill && next->cap >= 1024) return flush_run(r, c, next) ? -1 : 1;
    return too_big(r, held + more, k + 1);
  }
  if (held + more > c->peak) c->peak = held + more;
  return 0;
}

/* forward: a position recurs at another depth (not a status: those are
** exit codes). */
#define COMPACT_LAYERS_MEET 1000

static int forward(Retro *r, RetroCompact *c) {
  Game *g = r->g;
  int by_orbit = r->canonical != NULL;
  r->closure = by_orbit && g->vt->orbit(g, game_state(g)) != 1;
  int64_t lo = 0, hi = 0;
  int ends = 0;
  Gather *next = &c->next;
  if (retro_compact_gather_grow(next) < 0) return -1;
  retro_compact_gather_put(next, retro_compact_key(r));
  if (retro_compact_gather_layer(c, next) < 0) return -1;
  for (int k = 0;; k++) {
    CompactLayer *L = &c->layer[k];
    EfIter it;
    uint64_t sq, seen = 0;
    if (retro_compact_gather_grow(next) < 0) return -1;
    efset_iter_init(&it, &L->keys);
    while (efset_next(&it, &sq)) {
      retro_compact_set_key(r, c, retro_compact_unsqueeze(L, sq));
      r->positions += by_orbit ? g->vt->orbit(g, c->state) : 1;
      Outcome o;
      int n = retro_compact_expand(r, c, &o);
      if (n < 0) {
        int64_t m = retro_compact_margin(g, game_to_move(g), &o);
        if (!ends || m < lo) lo = m;
        if (!ends || m > hi) hi = m;
        ends = 1;
        continue;
      }
      r->edges += (uint64_t)n;
      for (int i = 0; i < n; i++) {
        if ((next->n + 1) * 4 > next->cap * 3) {
          int st = retro_compact_room(r, c, k);
          if (st < 0) return r->status;
          if (st > 1) return st;
          if (st == 0 && retro_compact_gather_grow(next) < 0) return -1;
        }
        retro_compact_gather_put(next, c->child[i]);
        /* --max-positions, as the hash form counts it (stored positions);
        ** its default, the hash form's 32-bit indices, does not bind here. */
        if (r->max_positions < UINT32_MAX - 1 && r->stored + L->keys.n + next->n > r->max_positions)
          return retro_fail(r, EXIT_LIMIT, "more than %llu positions (--max-positions)",
                      (unsigned long long)r->max_positions);
      }
      if ((++seen & 0xfff) == 0) {
        if (stop_requested) return stopped(r, r->positions);
        if (r->progress) {
          char how[64];
          snprintf(how, sizeof how, "layer %d, %.0f MiB%s", k + 1,
                   (double)(retro_compact_bytes(r) + next->cap * sizeof *next->slot) / (1 << 20),
                   c->spill ? ", layers on disk" : "");
          progress_note(r->progress, "compact retrograde analysis, enumerating", how,
                        r->positions, "positions", -1);
        }
      }
    }
    r->stored += L->keys.n;
    if (next->n == 0 && c->nruns == 0) break;
    if (c->nlayers >= COMPACT_MAX_LAYERS)
      return retro_fail(r, EXIT_LIMIT, "more than %d layers in the compact form", COMPACT_MAX_LAYERS);
    size_t now = retro_compact_bytes(r) + next->cap * sizeof *next->slot;
    if (now > c->peak) c->peak = now;
    if (c->nruns) {
      int st = retro_compact_merge(r, c, next);
      if (st) return st;
    } else if (retro_compact_gather_layer(c, next) < 0) return -1;
    /* The count above misses the keys gone to sorted runs: the merged
    ** layer's is exact. */
    if (r->max_positions < UINT32_MAX - 1 &&
        r->stored + c->layer[c->nlayers - 1].keys.n > r->max_positions)
      return retro_fail(r, EXIT_LIMIT, "more than %llu positions (--max-positions)",
                        (unsigned long long)r->max_positions);
    /* Layer k's positions are expanded: on disk now, when layers are. */
    if (c->spill) {
      int st = compact_spill_keys(r, c, &c->layer[k]);
      if (st) return st;
    }
    int st = compact_labels_so_far(r, c);
    if (st) return st;
    CompactLayer *B = &c->layer[c->nlayers - 1];
    for (int j = 0; j < c->nlayers - 1; j++) {
      CompactLayer *A = &c->layer[j];
      if ((A->fixed ^ B->fixed) & ~A->vary & ~B->vary) continue;   /* a key bit tells them apart */
      int back = !compact_keys_resident(A), meet;
      if (back) {
        int rc = compact_keys_back(r, c, A);
        if (rc) return rc < 0 ? -1 : r->status;
      }
      meet = retro_compact_meet(A, B);
      if (back) compact_db_unload(A);
      if (meet) return COMPACT_LAYERS_MEET;
    }
  }
  /* Every score is an end's margin or its negation. */
  int64_t smax = hi > -lo ? hi : -lo;
  c->smin = -smax;
  c->sbits = bits_for((uint64_t)(2 * smax));
  return 0;
}

/* ------------------------------------------------------------------ */
/* Backward: the values                                               */
/* ------------------------------------------------------------------ */

inline int retro_compact_value(Retro *r, CompactLayer *L, uint64_t rank, int *mover, int32_t *score,
                               uint32_t *dist) {
  const RetroCompact *c = r->cpt;
  int w = value_width(c, L);
  uint64_t f;
  if (L->vals) {
    f = bits_get(L->vals, rank * (uint64_t)w, w);
  } else {
    uint64_t b = rank / c->block;
    if (L->cached != (int64_t)b && compact_db_block(r, L, b) < 0) return -1;
    f = bits_get(L->cache, (rank % c->block) * (uint64_t)w, w);
  }
  *mover = (int)(f & 1);
  *score = (int32_t)(c->smin + (int64_t)((f >> 1) & ((UINT64_C(1) << c->sbits) - 1)));
  *dist = (uint32_t)(f >> (1 + c->sbits));
  if (c->endless && *dist == c->endless) *dist = RETRO_ENDLESS;
  return 0;
}

/* The value of the engine's current position (retro_compact_set_key'd, or reached)
** from its children's in layer N: its score and distance; 0, or -1 when
** a child is not in N or a block fails (reported). */
static int value_here(Retro *r, CompactLayer *N, int mover, int64_t *score, int64_t *dist) {
  RetroCompact *c = r->cpt;
  Game *g = r->g;
  Outcome o;
  int n = retro_compact_expand(r, c, &o);
  *dist = 0;
  if (n < 0) {
    *score = retro_compact_margin(g, mover, &o);
    return 0;
  }
  Value best = -VALUE_INF;
  for (int j = 0; j < n; j++) {
    int64_t rank = N ? retro_compact_rank(N, c->child[j]) : -1;
    if (rank < 0) {
      retro_fail(r, r->cpt->file ? EXIT_USAGE : EXIT_RUNTIME, "a move leads out of the next layer "
           "of the compact table (%s)", r->cpt->file ? "the file is corrupt or for other rules"
           : "the rules are not a function of the position");
      return -1;
    }
    int cm;
    int32_t cs;
    uint32_t cd;
    if (retro_compact_value(r, N, (uint64_t)rank, &cm, &cs, &cd) < 0) return -1;
    int64_t sc = cm == mover ? cs : -(int64_t)cs;
    Value v = value_make(sc, (int64_t)cd + 1, mover);
    if (v > best) best = v;
  }
  value_decode(best, score, dist);
  return 0;
}

int retro_compact_bad_key(Retro *r) {
  Game *g = r->g;
  char why[256];
  if (!g->vt->invalid || !g->vt->invalid(g, why, sizeof why)) return 0;
  retro_fail(r, EXIT_USAGE, "'%s' is corrupt: a key that is not a position of the game (%s)",
             r->db_path ? r->db_path : "the table", why);
  return 1;
}

/* The labels, deepest layer first; with `verify`, the labels already
** there (a file's) are computed again and compared.  0, -1 out of
** memory, 1 failed (reported). */
static int backward(Retro *r, RetroCompact *c, int verify) {
  Game *g = r->g;
  uint64_t done = 0;
  for (int k = c->nlayers - 1; k >= 0; k--) {
    CompactLayer *L = &c->layer[k], *N = k + 1 < c->nlayers ? &c->layer[k + 1] : NULL;
    if (!verify) L->dbits = bits_for((uint64_t)(c->nlayers - 1 - k));
    int w = value_width(c, L);
    if (!verify && c->spill) {
      int rc = compact_keys_back(r, c, L);
      if (rc) return rc;
    }
    /* A file read by layer: this one and the next, the others dropped. */
    if (verify && ((N && compact_layer_ready(r, c, k + 1) < 0) || compact_layer_ready(r, c, k) < 0))
      return 1;
    if (!verify && !(L->vals = calloc(bits_words(L->keys.n, w), sizeof *L->vals))) return -1;
    EfIter it;
    uint64_t sq, i = 0;
    efset_iter_init(&it, &L->keys);
    while (efset_next(&it, &sq)) {
      retro_compact_set_key(r, c, retro_compact_unsqueeze(L, sq));
      if (verify && retro_compact_bad_key(r)) return 1;   /* a file's key */
      int mover = game_to_move(g);
      int64_t score, dist;
      if (value_here(r, N, mover, &score, &dist) < 0) return 1;
      if (verify) {
        int m;
        int32_t s;
        uint32_t d;
        if (retro_compact_value(r, L, i, &m, &s, &d) < 0) return 1;
        if (m != (mover & 1) || s != score || d != dist) {
          retro_fail(r, EXIT_USAGE, "'%s' is corrupt: a position's value disagrees with its "
               "children's and the rules", r->db_path ? r->db_path : "the table");
          return 1;
        }
      } else {
        if (score != 0) r->labelled++;
        uint64_t f = (uint64_t)(mover & 1) | (uint64_t)(score - c->smin) << 1 |
                     (uint64_t)dist << (1 + c->sbits);
        bits_or(L->vals, i * (uint64_t)w, w, f);
      }
      i++;
      if ((++done & 0xfff) == 0) {
        if (stop_requested) return stopped(r, done), 1;
        if (r->progress)
          progress_note(r->progress, verify ? "checking the compact table" :
                        "compact retrograde analysis, labelling", NULL, done,
                        "positions", (double)done / (double)(r->stored ? r->stored : 1));
      }
    }
    size_t now = retro_compact_bytes(r);
    if (now > c->peak) c->peak = now;
    /* Layers on disk: layer k + 1 is done with (its parents are
    ** labelled): to the database, and out of memory but for the root's
    ** two layers, which the answer reads. */
    if (!verify && c->out && N) {
      if (compact_db_layer(r, k + 1) < 0) return 1;
      if (k + 1 >= 2) compact_db_unload(N);
    }
  }
  if (!verify && c->out && compact_db_layer(r, 0) < 0) return 1;
  return 0;
}

int retro_compact_verify(Retro *r) {
  Game *g = r->g;
  RetroCompact *c = r->cpt;
  if (c->endless) return retro_compact_cycles_verify(r);     /* one layer, with cycles */
  void *here = malloc(g->state_bytes);
  if (!here) return retro_fail(r, EXIT_LIMIT, "out of memory");
  memcpy(here, game_state(g), g->state_bytes);
  int rc = backward(r, c, 1);
  g->vt->set_state(g, here);
  free(here);
  return rc == 0 ? EXIT_OK : r->status;
}

int retro_compact_check_here(Retro *r) {
  RetroCompact *c = r->cpt;
  Game *g = r->g;
  uint64_t key = retro_compact_key(r);
  for (int k = 0; k < c->nlayers; k++) {
    if ((key & ~c->layer[k].vary) != c->layer[k].fixed) continue;
    if (compact_layer_ready(r, c, k) < 0) return r->status;
    int64_t rank = retro_compact_rank(&c->layer[k], key);
    if (rank < 0) continue;
    if (k + 1 < c->nlayers && (compact_layer_ready(r, c, k + 1) < 0 || compact_layer_ready(r, c, k) < 0))
      return r->status;
    int m;
    int32_t s;
    uint32_t d;
    int64_t score, dist;
    int mover = game_to_move(g);
    if (retro_compact_value(r, &c->layer[k], (uint64_t)rank, &m, &s, &d) < 0 ||
        value_here(r, k + 1 < c->nlayers ? &c->layer[k + 1] : NULL, mover, &score, &dist) < 0)
      return r->status;
    if (m != (mover & 1) || s != score || d != dist)
      return retro_fail(r, EXIT_USAGE, "'%s' is corrupt: a position's value disagrees with its "
                  "children's and the rules", r->db_path ? r->db_path : "the table");
    return EXIT_OK;
  }
  return EXIT_OK;
}

/* The table (r->cpt, freed by retro_free) and a position's scratch, for
** both forms.  0, or -1 out of memory. */
int retro_compact_scratch(Retro *r) {
  Game *g = r->g;
  if (retro_scratch(r) < 0) return -1;
  RetroCompact *c = r->cpt = calloc(1, sizeof *c);
  if (!c) return -1;
  c->moves = malloc(GAME_MAX_MOVES * sizeof *c->moves);
  c->ckeys = malloc(GAME_MAX_MOVES * g->key_bytes + 8);
  c->cmover = malloc(GAME_MAX_MOVES);
  c->child = malloc(GAME_MAX_MOVES * sizeof *c->child);
  c->state = malloc(g->state_bytes);
  return c->moves && c->ckeys && c->cmover && c->child && c->state ? 0 : -1;
}

int retro_compact_solve(Retro *r, Search *s) {
  Game *g = r->g;
  const char *why = retro_compact_refusal(r);
  if (why) return retro_fail(r, EXIT_USAGE, "--compact: %s (drop --compact)", why);
  /* Positions are counted by their classes' orbits: an engine that cannot
  ** count them has every position stored (the hash form counts the states
  ** it met, which this form does not keep). */
  if (r->canonical && !(g->vt->orbit && g->vt->orbit(g, game_state(g)) != 0)) r->canonical = NULL;
  if (retro_compact_scratch(r) < 0) return retro_fail(r, EXIT_LIMIT, "out of memory");
  RetroCompact *c = r->cpt;
  free(r->root_state);
  if (!(r->root_state = malloc(g->state_bytes))) return retro_fail(r, EXIT_LIMIT, "out of memory");
  memcpy(r->root_state, game_state(g), g->state_bytes);
  c->spill = r->spill_dir != NULL;
  double t0 = clock_seconds();
  int rc = forward(r, c);
  double t1 = clock_seconds();
  if (rc == COMPACT_LAYERS_MEET) {
    /* A position recurs at another depth, later than the probe of
    ** retro_compact_cycles_wanted looked: the form with cycles, afresh. */
    int layer = c->nlayers - 1;
    g->vt->set_state(g, r->root_state);
    retro_compact_free(c);
    r->cpt = NULL;
    r->positions = r->edges = r->stored = 0;
    int st = retro_compact_cycles_solve(r, s);
    if (r->cpt) r->cpt->handed_at = layer;
    return st;
  }
  if (rc == 0) {
    /* The labels' memory is known now: refused before it is taken. */
    int st = compact_plan_labels(r, c);
    if (st) {
      g->vt->set_state(g, r->root_state);
      return r->status = st;
    }
    char how[80];
    snprintf(how, sizeof how, "about %zu MiB%s", c->estimate >> 20, c->spill ? ", layers on disk" : "");
    progress_note(r->progress, "compact retrograde analysis, labelling", how, 0, "positions", 0);
    rc = backward(r, c, 0);
    if (rc == 0 && c->out) {
      if ((st = compact_db_close(r, r->db_out, r->err)) != EXIT_OK) {
        g->vt->set_state(g, r->root_state);
        return r->status = st;
      }
    }
    if (c->spill_fd) {        /* the forward pass's sets: all read back */
      close(c->spill_fd - 1);
      c->spill_fd = 0;
    }
  }
  g->vt->set_state(g, r->root_state);
  if (rc < 0) return retro_fail(r, EXIT_LIMIT, "out of memory in the compact retrograde analysis "
                          "(%zu MiB held); raise --memory or free memory", retro_compact_bytes(r) >> 20);
  if (rc > 0) return r->status;
  r->enumerate_seconds = c->forward_seconds = t1 - t0;
  r->label_seconds = c->backward_seconds = clock_seconds() - t1;
  s->nodes = r->positions;
  return retro_answer(r, s);
}

int retro_compact_find(Retro *r, int32_t *score, uint32_t *dist) {
  RetroCompact *c = r->cpt;
  uint64_t key = retro_compact_key(r);
  for (int k = 0; k < c->nlayers; k++) {
    if ((key & ~c->layer[k].vary) != c->layer[k].fixed) continue;
    if (compact_layer_ready(r, c, k) < 0) return -1;
    int64_t rank = retro_compact_rank(&c->layer[k], key);
    if (rank < 0) continue;
    int m;
    return retro_compact_value(r, &c->layer[k], (uint64_t)rank, &m, score, dist) < 0 ? -1 : 1;
  }
  return 0;
}

int retro_compact_each(Retro *r, int (*fn)(void *arg, const void *state, int mover,
                                          int32_t score, uint32_t dist), void *arg) {
  RetroCompact *c = r->cpt;
  Game *g = r->g;
  for (int k = 0; k < c->nlayers; k++) {
    const CompactLayer *L = &c->layer[k];
    EfIter it;
    uint64_t sq, i = 0;
    if (compact_layer_ready(r, c, k) < 0) return -1;
    efset_iter_init(&it, &L->keys);
    while (efset_next(&it, &sq)) {
      int m;
      int32_t s;
      uint32_t d;
      word_key(retro_compact_unsqueeze(L, sq), r->key, g->key_bytes);
      g->vt->unpack(g, r->key, c->state);
      if (retro_compact_value(r, &c->layer[k], i++, &m, &s, &d) < 0) return -1;
      int rc = fn(arg, c->state, m, s, d);
      if (rc) return rc;
    }
    compact_layer_done(c, k);
  }
  return 0;
}

void retro_compact_note(const Retro *r, FILE *f) {
  const RetroCompact *c = r->cpt;
  uint64_t largest = 0;
  double key_bits = 0, value_bits = 0;
  size_t table = 0;         /* in memory or not */
  for (int k = 0; k < c->nlayers; k++) {
    const CompactLayer *L = &c->layer[k];
    table += sizeof *L + efset_bytes(&L->keys) + bits_words(L->keys.n, value_width(c, L)) * 8;
    if (L->keys.n > largest) largest = L->keys.n;
    key_bits += 8.0 * (double)efset_bytes(&L->keys);
    value_bits += (double)L->keys.n * value_width(c, L);
  }
  double n = r->stored ? (double)r->stored : 1;
  fprintf(f, "stats: compact form: %d layers, the largest %llu stored; %.1f bits of key and "
          "%.1f of value a stored position (no moves kept), %.2f bytes a position\n",
          c->nlayers, (unsigned long long)largest, key_bits / n, value_bits / n,
          (double)table / (double)(r->positions ? r->positions : 1));
  char runs[80] = "";
  if (c->runs_total)
    snprintf(runs, sizeof runs, "; %llu sorted runs of gathered keys on disk",
             (unsigned long long)c->runs_total);
  if (c->estimate)
    fprintf(f, "stats: compact form's memory: the labels estimated at %.1f MiB before they were "
            "allocated (%s; %.1f MiB all in memory, %.1f with the layers on disk), the table held "
            "%.1f MiB at most (the gathering set included)%s\n", (double)c->estimate / (1 << 20),
            c->spill ? "layers on disk" : "all in memory", (double)c->need_memory / (1 << 20),
            (double)c->need_disk / (1 << 20), (double)c->peak / (1 << 20), runs);
}
