/*
** retro.c -- retrograde analysis (the game database of the source
** material, done with counters and a work queue instead of passes).
**
** Step 1 walks every reachable position depth first with apply/undo and
** records the move graph between stored positions (canonical forms when
** the game declares symmetries).  Step 2 labels the ends, then propagates
** backwards in order of distance: a position with a child lost for its
** mover is won one ply later (the first such child found is the nearest);
** a position whose children are all won for the opponent is lost one ply
** after the last of them (the farthest).  Each move is looked at a
** constant number of times, so the cost is linear in the moves, not
** passes x positions.  What is never labelled is a draw.  Step 3 gives
** draws their distance under gsolve's convention (player 0 prefers the
** shortest draw, player 1 the longest), the same propagation again; a
** draw that can last forever has no distance.
*/
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "util/clock.h"
#include "util/diag.h"
#include "util/status.h"
#include "search/progress.h"
#include "retro/retro.h"
#include "retro/retro_compact.h"
#include "solve/grundy.h"
#include "retro/retro_compact_cycles.h"
#include "util/stop.h"

const RetroDistributed *retro_distributed = NULL;

typedef struct RetroFrame {
  size_t mbase;             /* first move in the move stack */
  int nmoves, i;
  int64_t cls;              /* class recording edges, or -1 */
} RetroFrame;

void retro_init(Retro *r, Game *g, int base_ply, FILE *err) {
  memset(r, 0, sizeof *r);
  r->g = g;
  r->base_ply = base_ply;
  r->err = err;
  r->max_positions = UINT32_MAX - 1;
  r->canonical = g->vt->canonical;
}

void retro_free(Retro *r) {
  keyset_free(&r->states);
  keyset_free(&r->classes);
  free(r->value); free(r->mover); free(r->dist); free(r->count); free(r->terminal);
  free(r->expanded);
  free(r->score);
  free(r->edge_from); free(r->edge_to);
  free(r->edge_weight); free(r->edge_pay); free(r->wstack); free(r->vec);
  free(r->parent_start); free(r->parents); free(r->queue);
  free(r->frames);
  free(r->deferred);
  free(r->sym_here); free(r->sym_moves);
  free(r->canon);
  free(r->key);
  free(r->root_state);
  free(r->ahead_key); free(r->ahead_hash); free(r->ahead_mover); free(r->ahead_cls);
  movestack_free(&r->ms);
  retro_compact_free(r->cpt);
  free(r->gvalue);
  free(r->mex_mark);
  memset(r, 0, sizeof *r);
}

int retro_fail(Retro *r, int status, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  r->status = diag_vfail(r->err, status, fmt, ap);
  va_end(ap);
  return status;
}

/* r->stored is set only when the enumeration ends: before that, the
** positions found so far are the states (and classes) in the sets. */
static int out_of_memory(Retro *r) {
  int enumerating = r->stored == 0;
  uint64_t found = enumerating ? r->states.n : r->stored;
  return retro_fail(r, EXIT_LIMIT, "out of memory in retrograde analysis %s %llu positions "
              "(%zu bytes each, about %zu MiB in use)",
              enumerating ? "while enumerating, after" : "while labelling",
              (unsigned long long)found, retro_bytes_per_position(r), retro_memory(r) >> 20);
}

/* A deferred position is kept as the index of its key in `set` (4 bytes;
** the key is read back with the engine's unpack) when the engine can,
** else as its raw state. */
static size_t deferred_size(const Retro *r) {
  return r->g->vt->unpack && r->g->vt->pack ? sizeof(uint32_t) : r->g->state_bytes;
}

/* Bytes allocated now: the sets, the per-position arrays, the moves, the
** positions deferred, the look-ahead's keys. */
size_t retro_memory(const Retro *r) {
  if (r->cpt) return retro_compact_bytes(r);
  const KeySet *sets[2] = { &r->states, &r->classes };
  size_t total = 0;
  for (int i = 0; i < 2; i++) total += keyset_bytes(sets[i]);
  total += r->class_cap * (3 * sizeof(uint8_t) + 2 * sizeof(uint32_t) + 1);
  total += r->nedges_cap * 2 * sizeof(uint32_t);
  if (r->vector)
    total += r->class_cap * sizeof(ExpValue) + r->nedges_cap * sizeof(uint32_t);
  if (r->edge_pay) total += r->nedges_cap * (size_t)r->g->nplayers * sizeof(int32_t);
  total += r->deferred_cap * deferred_size(r);
  if (r->ahead_key) total += GAME_MAX_MOVES * (r->classes.key_bytes + sizeof(uint64_t) + 1);
  total += r->ahead_cap * sizeof(uint32_t);
  return total;
}

/* The table key of a state: packed when the engine packs. */
static size_t key_size(const Game *g) {
  return g->vt->pack ? g->key_bytes : g->state_bytes;
}

static const void *make_key(Retro *r, const void *state) {
  if (!r->g->vt->pack) return state;
  r->g->vt->pack(r->g, state, r->key);
  return r->key;
}

/* The key of the engine's current position: its own, or its canonical
** form's (the engine's canonical_key when it has one). */
static const void *current_key(Retro *r, int canonical) {
  Game *g = r->g;
  if (!canonical) return make_key(r, game_state(g));
  if (g->vt->canonical_key && g->vt->pack) {
    g->vt->canonical_key(g, game_state(g), r->key);
    return r->key;
  }
  r->canonical(g, game_state(g), r->canon);
  return make_key(r, r->canon);
}

size_t retro_bytes_per_position(const Retro *r) {
  if (r->cpt) return r->stored ? (retro_compact_bytes(r) + r->stored - 1) / r->stored : 0;
  size_t key = key_size(r->g);
  /* state key + table slot (hash, index) at most half full, and the labels */
  size_t per = key + 2 * (sizeof(uint64_t) + sizeof(uint32_t)) +
               3 * sizeof(uint8_t) + 2 * sizeof(uint32_t);
  /* With symmetries, the classes' set too, and the states' set unless one
  ** position per class is expanded (retro_enumerate's by_class). */
  if (r->canonical && !(r->g->vt->orbit && r->g->vt->set_state))
    per += key + 2 * (sizeof(uint64_t) + sizeof(uint32_t));
  if (r->vector) per += sizeof(ExpValue);
  return per;
}

/* ------------------------------------------------------------------ */
/* Step 1: the move graph                                             */
/* ------------------------------------------------------------------ */

int retro_grow_classes(Retro *r, size_t n) {
  static const size_t sizes[] = { 1, 1, 4, 4, 1, 1, 4 };
  void **arrays[] = { (void **)&r->value, (void **)&r->mover, (void **)&r->dist,
                      (void **)&r->count, (void **)&r->terminal, (void **)&r->expanded,
                      (void **)&r->score };
  if (n <= r->class_cap) return 0;
  size_t cap = r->class_cap ? r->class_cap * 2 : 1024;
  while (cap < n) cap *= 2;
  for (int i = 0; i < 7; i++) {
    void *p = realloc(*arrays[i], cap * sizes[i]);
    if (!p) return -1;
    *arrays[i] = p;
  }
  if (r->vector) {
    ExpValue *v = realloc(r->vec, cap * sizeof *v);
    if (!v) return -1;
    r->vec = v;
  }
  r->class_cap = cap;
  return 0;
}

/* The stored position of key (hash h as keyset_hash gives it), added if
** new with `mover` to move.  *fresh: not yet expanded.  0, -1 out of
** memory, -2 over --max-positions, -3 over --memory, -4 stopped (Ctrl-C,
** --time-limit). */
static int class_seen(Retro *r, int a, int mover, uint32_t *cls, int *fresh);

static int class_of_key(Retro *r, const void *key, uint64_t h, int mover, uint32_t *cls, int *fresh) {
  KeySet *set = r->canonical ? &r->classes : &r->states;
  /* The table's next doubling (the set's, the per-position arrays'),
  ** refused before it is taken when it would not fit. */
  size_t more = keyset_next_growth(set);
  if (set->n + 1 > r->class_cap) more += r->class_cap * 2 * 16;
  if (more > ((size_t)1 << 20) && !retro_room_for(r, more)) return -3;
  int a = keyset_add_hashed(set, h, key, cls);
  if (a < 0) return -1;
  return class_seen(r, a, mover, cls, fresh);
}

/* class_of_key's bookkeeping once *cls is looked up (a: it was added):
** the limits, the progress line, the arrays of a position seen first. */
static int class_seen(Retro *r, int a, int mover, uint32_t *cls, int *fresh) {
  KeySet *set = r->canonical ? &r->classes : &r->states;
  if (stop_requested) return -4;
  if (set->n > r->max_positions) return -2;
  if (a && r->memory_limit && (set->n & 1023) == 0 && retro_memory(r) > r->memory_limit) return -3;
  if (a && r->progress && (set->n & 0xfff) == 0)
    progress_note(r->progress, r->label, NULL, set->n,
                  "positions", -1);
  if (retro_grow_classes(r, set->n) < 0) return -1;
  if (*cls + 1 > r->nclass) {
    /* First sight of this stored position. */
    r->nclass = *cls + 1;
    r->value[*cls] = RETRO_UNKNOWN;
    r->terminal[*cls] = 0;
    r->expanded[*cls] = 0;
    r->count[*cls] = 0;
    r->dist[*cls] = 0;
    r->mover[*cls] = (uint8_t)mover;
  }
  *fresh = !r->expanded[*cls];
  return 0;
}

/* The same for the engine's current state (its canonical form when
** there are symmetries). */
static int current_class(Retro *r, uint32_t *cls, int *fresh) {
  KeySet *set = r->canonical ? &r->classes : &r->states;
  const void *key = current_key(r, r->canonical != NULL);
  return class_of_key(r, key, keyset_hash(set, key), game_to_move(r->g), cls, fresh);
}

/* The look-ahead's arrays for one position's moves: 0, -1 when out of
** memory. */
static int ahead_alloc(Retro *r) {
  if (r->ahead_key) return 0;
  r->ahead_key = malloc(GAME_MAX_MOVES * r->classes.key_bytes);
  r->ahead_hash = malloc(GAME_MAX_MOVES * sizeof *r->ahead_hash);
  r->ahead_mover = malloc(GAME_MAX_MOVES);
  return r->ahead_key && r->ahead_hash && r->ahead_mover ? 0 : -1;
}

/* Looks ahead at the n moves from move stack place `base` (by-class
** expansion with an engine that makes canonical keys): each child's key
** and mover (already made when `keyed`: generate_keyed), its hash, the
** prefetch of the hash set's slots, then of the keys they point to, then
** every child's class (ahead_cls), so that the cache misses of the n
** lookups overlap instead of adding up, and none waits until the search
** comes back from a sibling's subtree.  The children's classes are
** numbered before any of them is expanded.  0, or class_of_key's codes. */
static int look_ahead(Retro *r, size_t base, int n, int keyed) {
  Game *g = r->g;
  KeySet *set = &r->classes;
  size_t kb = set->key_bytes, need = base + (size_t)n;
  if (ahead_alloc(r) < 0) return -1;
  if (need > r->ahead_cap) {
    size_t cap = 2 * r->ahead_cap > need ? 2 * r->ahead_cap : need;
    uint32_t *c = realloc(r->ahead_cls, cap * sizeof *c);
    if (!c) return -1;
    r->ahead_cls = c;
    r->ahead_cap = cap;
  }
  for (int i = 0; i < n; i++) {
    unsigned char *key = r->ahead_key + (size_t)i * kb;
    if (!keyed) {
      game_apply(g, &r->ms.moves[base + (size_t)i]);
      g->vt->canonical_key(g, game_state(g), key);
      r->ahead_mover[i] = (uint8_t)game_to_move(g);
      game_undo(g);
    }
    r->ahead_hash[i] = keyset_hash(set, key);
    keyset_prefetch(set, r->ahead_hash[i], 0);
  }
  for (int i = 0; i < n; i++) keyset_prefetch(set, r->ahead_hash[i], 1);
  for (int i = 0; i < n; i++) {
    int fresh;
    int rc = class_of_key(r, r->ahead_key + (size_t)i * kb, r->ahead_hash[i], r->ahead_mover[i],
                          &r->ahead_cls[base + (size_t)i], &fresh);
    if (rc < 0) return rc;
  }
  return 0;
}

/* Records the move just applied from `from` to `to` (with its weight and
** pay when solving payoff vectors). */
static int add_edge(Retro *r, uint32_t from, uint32_t to, uint32_t weight) {
  size_t np = (size_t)r->g->nplayers;
  if (r->edges == r->nedges_cap) {
    size_t cap = r->nedges_cap ? r->nedges_cap * 2 : 4096;
    uint32_t *f = realloc(r->edge_from, cap * sizeof *f);
    if (f) r->edge_from = f;
    uint32_t *t = realloc(r->edge_to, cap * sizeof *t);
    if (t) r->edge_to = t;
    if (!f || !t) return -1;
    if (r->vector) {
      uint32_t *w = realloc(r->edge_weight, cap * sizeof *w);
      if (w) r->edge_weight = w;
      if (!w) return -1;
    }
    if (r->vector && r->g->has_rewards) {
      int32_t *p = realloc(r->edge_pay, cap * np * sizeof *p);
      if (!p) return -1;
      r->edge_pay = p;
    }
    r->nedges_cap = cap;
  }
  r->edge_from[r->edges] = from;
  r->edge_to[r->edges] = to;
  if (r->vector) r->edge_weight[r->edges] = weight;
  if (r->edge_pay) {
    int32_t *pay = r->edge_pay + r->edges * np;
    if (!game_rewards(r->g, pay)) memset(pay, 0, np * sizeof *pay);
  }
  r->edges++;
  return 0;
}

/* Terminal value of a class from an outcome: the margin for its mover.
** Margins beyond +-1 make the game a scored one (see propagate_scores). */
static int set_terminal(Retro *r, uint32_t c, const Outcome *o) {
  Game *g = r->g;
  int m = r->mover[c];
  if (r->vector) {
    memset(&r->vec[c], 0, sizeof r->vec[c]);
    for (int i = 0; i < g->nplayers; i++) r->vec[c].pay[i] = o->payoff[i];
    r->terminal[c] = 1;
    return 0;
  }
  int64_t margin = g->nplayers == 1 ? o->payoff[0] : (int64_t)o->payoff[m] - o->payoff[1 - m];
  if (margin > VALUE_SCORE_MAX) margin = VALUE_SCORE_MAX;
  if (margin < -VALUE_SCORE_MAX) margin = -VALUE_SCORE_MAX;
  if (margin > 1 || margin < -1) r->scored = 1;
  r->terminal[c] = 1;
  r->score[c] = (int32_t)margin;
  r->value[c] = margin > 0 ? RETRO_WIN : margin < 0 ? RETRO_LOSS : RETRO_DRAW;
  return 0;
}

int retro_set_terminal(Retro *r, uint32_t c, const Outcome *o) {
  return set_terminal(r, c, o);
}

/* Buffers for one canonical form and one key; sets the key sizes. */
int retro_scratch(Retro *r) {
  Game *g = r->g;
  r->states.key_bytes = r->classes.key_bytes = key_size(g);
  if (!r->canon && !(r->canon = malloc(g->state_bytes))) return -1;
  if (!r->key && !(r->key = malloc(key_size(g)))) return -1;
  return 0;
}

/* Expanding one position per class trusts the declared symmetries: the
** first RETRO_SYMMETRY_CHECKS classes are checked, the position met and
** its canonical form must agree on having ended and on their number of
** moves.  1 if they agree, 0 if not, -1 out of memory. */
#define RETRO_SYMMETRY_CHECKS 4096
static int symmetry_agrees(Retro *r, int ended, int nmoves) {
  Game *g = r->g;
  Outcome o;
  if (r->symmetry_checks >= RETRO_SYMMETRY_CHECKS) return 1;
  r->canonical(g, game_state(g), r->canon);
  if (memcmp(game_state(g), r->canon, g->state_bytes) == 0) return 1;
  r->symmetry_checks++;
  /* Kept in r, freed by retro_free: a rule failing at run time jumps out. */
  if (!r->sym_here && !(r->sym_here = malloc(g->state_bytes))) return -1;
  if (!r->sym_moves && !(r->sym_moves = malloc(GAME_MAX_MOVES * sizeof *r->sym_moves))) return -1;
  memcpy(r->sym_here, game_state(g), g->state_bytes);
  g->vt->set_state(g, r->canon);
  int e = game_ended(g, &o);
  int n = e ? 0 : game_generate(g, r->sym_moves);
  g->vt->set_state(g, r->sym_here);
  return e == ended && n == nmoves;
}

/* Keeps the engine's current position, whose key is `index` in the set
** being enumerated (its class, or its state without by-class expansion),
** for expansion later. */
static int defer_state(Retro *r, uint32_t index) {
  size_t sb = deferred_size(r);
  if (r->ndeferred == r->deferred_cap) {
    size_t cap = r->deferred_cap ? r->deferred_cap * 2 : 64;
    unsigned char *d = realloc(r->deferred, cap * sb);
    if (!d) return -1;
    r->deferred = d;
    r->deferred_cap = cap;
  }
  if (sb == sizeof index) memcpy(r->deferred + r->ndeferred++ * sb, &index, sb);
  else memcpy(r->deferred + r->ndeferred++ * sb, game_state(r->g), sb);
  return 0;
}

/* The last deferred position, into state (scratch of state_bytes); its
** key's index into *known when it was kept as one and known is not NULL. */
static const void *undefer_state(Retro *r, const KeySet *set, void *state, int64_t *known) {
  size_t sb = deferred_size(r);
  const unsigned char *d = r->deferred + --r->ndeferred * sb;
  if (sb != sizeof(uint32_t)) return d;
  uint32_t index;
  memcpy(&index, d, sizeof index);
  if (known) *known = index;
  r->g->vt->unpack(r->g, keyset_key(set, index), state);
#if defined(__GNUC__)
  if (r->ndeferred) {
    /* The next one's key, read at random in a large array: fetched while
    ** this one is expanded. */
    uint32_t next;
    memcpy(&next, d - sb, sizeof next);
    __builtin_prefetch(keyset_key(set, next));
    __builtin_prefetch(r->expanded + next);
  }
#endif
  return state;
}

int retro_enumerate(Retro *r) {
  Game *g = r->g;
  int ply = 0, added, status;
  uint32_t idx, cls;
  int64_t known = -1;
  /* class_of_key's failures, where each is handled. */
#define CLASS_CHECK(rc) do {                                                 \
    if ((rc) == -1) goto oom;                                                \
    if ((rc) == -2) goto limit;                                              \
    if ((rc) == -3) goto memory;                                             \
    if ((rc) == -4) goto stopped;                                            \
  } while (0)
  Outcome o;
  void (*set_state)(Game *, const void *) = g->vt->set_state;
  unsigned char *root = NULL;
  /* With symmetries whose orbits the engine counts, one position of each
  ** class is expanded (the class's moves are the same from any of them)
  ** and the positions are the sum of the orbits: the reachable ones when
  ** every symmetry fixes the root (then they are closed under the group);
  ** from another root (chess, a --position) their symmetric closure, a
  ** few more: the images of reachable positions that are not themselves
  ** reachable.  Their values are right all the same, and expanding every
  ** position instead costs as many times the work as there are symmetries. */
  int by_class = r->canonical && g->vt->orbit && set_state && g->vt->orbit(g, game_state(g)) != 0;
  /* With canonical keys, each position's children are keyed ahead. */
  int ahead = by_class && g->vt->canonical_key && g->vt->pack && g->vt->unpack;
  r->closure = by_class && g->vt->orbit(g, game_state(g)) != 1;
  uint64_t orbits = 0;
  if (!r->label) r->label = "retrograde analysis, enumerating";
  if (retro_scratch(r) < 0) return out_of_memory(r);
  if (set_state) {
    /* Lines may then be cut at RETRO_MAX_DEPTH: the root comes back last. */
    /* Kept in r (freed by retro_free): a rule that fails at run time
    ** leaves this function by longjmp. */
    free(r->root_state);
    if (!(root = r->root_state = malloc(g->state_bytes))) return out_of_memory(r);
    memcpy(root, game_state(g), g->state_bytes);
  }
  if (!by_class && keyset_add(&r->states, current_key(r, 0), &idx) < 0) goto oom;

enter:
  /* Step 1a. A new reachable state: its class (known when it was just
  ** looked up by class), and whether to expand. */
  {
    int rc = 0;
    if (known >= 0) {
      cls = (uint32_t)known;
      added = !r->expanded[cls];
      known = -1;
    } else {
      rc = current_class(r, &cls, &added);
    }
    CLASS_CHECK(rc);
    if (by_class) {
      if (!added) goto leave;       /* a deferred position whose class was expanded since */
      orbits += g->vt->orbit(g, game_state(g));   /* its class's */
    }
    r->expanded[cls] = 1;
  }
  if ((size_t)ply >= r->nframes) {
    size_t n = r->nframes ? r->nframes * 2 : 64;
    RetroFrame *f = realloc(r->frames, n * sizeof *f);
    if (!f) goto oom;
    r->frames = f;
    r->nframes = n;
  }
  {
    RetroFrame *f = &r->frames[ply];
    f->cls = added ? (int64_t)cls : -1;
    f->mbase = r->ms.top;
    f->i = 0;
    f->nmoves = 0;
    if (game_ended(g, &o)) {
      if (by_class) {
        int a = symmetry_agrees(r, 1, 0);
        if (a < 0) goto oom;
        if (a == 0) goto asymmetric;
      }
      if (added && r->grundy && grundy_check_here(r->grundy, ply, 1, &o, NULL, 0) != EXIT_OK)
        goto grundy_refused;
      if (added && set_terminal(r, cls, &o)) goto failed;
      if (!added && !r->terminal[cls]) goto asymmetric;
      goto leave;
    }
    /* With look-ahead, the engine keys the children as it generates
    ** when it can. */
    int keyed = ahead && g->vt->generate_keyed, n;
    if (keyed) {
      if (movestack_reserve(&r->ms) < 0 || ahead_alloc(r) < 0) goto oom;
      n = g->vt->generate_keyed(g, r->ms.moves + r->ms.top, r->ahead_key, r->ahead_mover);
      r->ms.top += (size_t)n;
    } else {
      n = movestack_generate(&r->ms, g);
      if (n < 0) goto oom;
    }
    if (by_class) {
      int a = symmetry_agrees(r, 0, n);
      if (a < 0) goto oom;
      if (a == 0) goto asymmetric;
    }
    if (added && r->grundy
        && grundy_check_here(r->grundy, ply, 0, NULL, r->ms.moves + f->mbase, n) != EXIT_OK)
      goto grundy_refused;
    if (n == 0) {
      game_no_moves(g, &o);
      if (added && set_terminal(r, cls, &o)) goto failed;
      if (!added && !r->terminal[cls]) goto asymmetric;
      goto leave;
    }
    f->nmoves = n;
    if (r->vector) {
      /* The weights live beside the moves, in an array as large. */
      if (r->wstack_cap < r->ms.cap) {
        uint32_t *w = realloc(r->wstack, r->ms.cap * sizeof *w);
        if (!w) goto oom;
        r->wstack = w;
        r->wstack_cap = r->ms.cap;
      }
      if (game_to_move(g) == GAME_CHANCE) game_weights(g, r->ms.moves + f->mbase, n, r->wstack + f->mbase);
      else for (int k = 0; k < n; k++) r->wstack[f->mbase + (size_t)k] = 1;
    }
    if (added) r->count[cls] = (uint32_t)n;
    /* A symmetric image must have as many moves: a cheap check that the
    ** declared symmetries are symmetries of the rules. */
    else if (r->terminal[cls] || r->count[cls] != (uint32_t)n) goto asymmetric;
    if (ahead) {
      int rc = look_ahead(r, f->mbase, n, keyed);
      CLASS_CHECK(rc);
    }
  }

next:
  /* Step 1b. Follow the frame's next move; record the edge. */
  {
    RetroFrame *f = &r->frames[ply];
    size_t at = f->mbase + (size_t)f->i;
    int fresh = 0;
    if (ahead) {
      /* The child's class is known: the move is played only to go down,
      ** when the class has not been expanded since the look-ahead. */
      cls = r->ahead_cls[at];
      added = !r->expanded[cls];
      if (add_edge(r, (uint32_t)f->cls, cls, r->vector ? r->wstack[at] : 1) < 0) goto oom;
      if (added && ply + 1 >= RETRO_MAX_DEPTH) {
        if (defer_state(r, cls) < 0) goto oom;
      } else if (added) {
        game_apply(g, &r->ms.moves[at]);
        fresh = 1;
      }
      goto followed;
    }
    game_apply(g, &r->ms.moves[at]);
    fresh = by_class ? 0 : keyset_add(&r->states, current_key(r, 0), &idx);
    if (fresh < 0) goto oom;
    if (!r->canonical) {
      /* No symmetry: the state is its class, just looked up. */
      cls = idx;
      int rc = class_seen(r, fresh, game_to_move(g), &cls, &added);
      CLASS_CHECK(rc);
      if (add_edge(r, (uint32_t)f->cls, cls, r->vector ? r->wstack[at] : 1) < 0) goto oom;
    } else if (f->cls >= 0) {
      int rc = current_class(r, &cls, &added);
      CLASS_CHECK(rc);
      if (add_edge(r, (uint32_t)f->cls, cls, r->vector ? r->wstack[at] : 1) < 0) goto oom;
      if (by_class) fresh = added;
    }
    if (fresh && set_state && ply + 1 >= RETRO_MAX_DEPTH) {
      if (defer_state(r, by_class ? cls : idx) < 0) goto oom;
      fresh = 0;
    }
  followed:
    if (fresh) {
      if (ply + 1 + r->base_ply >= GAME_MAX_PLY) {
        game_undo(g);
        goto too_long;
      }
      ply++;
      if (by_class || !r->canonical) known = cls;
      goto enter;
    }
    if (!ahead) game_undo(g);
    if (++f->i < f->nmoves) goto next;
    r->ms.top = f->mbase;
  }

leave:
  /* Step 1c. Back to the parent and on to its next move. */
  if (ply == 0) {
    if (r->ndeferred) {
      /* Step 1d. The next position left below the depth limit (by
      ** class: the class's stored form, as good as the position met). */
      if (!r->sym_here && !(r->sym_here = malloc(g->state_bytes))) goto oom;
      set_state(g, undefer_state(r, by_class && r->canonical ? &r->classes : &r->states, r->sym_here,
                                 by_class || !r->canonical ? &known : NULL));
      r->ms.top = 0;
      goto enter;
    }
    if (root) set_state(g, root);
    r->positions = by_class ? orbits : r->states.n;
    r->stored = r->canonical ? r->classes.n : r->states.n;
    return EXIT_OK;
  }
  ply--;
  game_undo(g);
  {
    RetroFrame *f = &r->frames[ply];
    r->ms.top = f->mbase + (size_t)f->nmoves;
    if (++f->i < f->nmoves) goto next;
    r->ms.top = f->mbase;
  }
  goto leave;

  /* Every failure: its message, then one unwind to the root. */
oom:
  status = out_of_memory(r);
  goto unwind;
limit:
  status = retro_fail(r, EXIT_LIMIT, "more than %llu positions (--max-positions)",
                (unsigned long long)r->max_positions);
  goto unwind;
asymmetric:
  status = retro_fail(r, EXIT_BAD_GAME, "the game's symmetry declarations do not match its rules: two "
                "positions that a declared symmetry maps onto each other differ (in legal moves "
                "or in having ended); remove or correct the symmetry lines");
  goto unwind;
stopped:
  {
    char msg[160];
    int st = stop_message(msg, sizeof msg, r->states.n, "positions");
    status = retro_fail(r, st, "%s", msg);
  }
  goto unwind;
memory:
  status = retro_memory_refused(r);
  goto unwind;
too_long:
  status = retro_fail(r, EXIT_LIMIT, "a line of play longer than %d plies", GAME_MAX_PLY);
  goto unwind;
grundy_refused:
  r->status = r->grundy->status;
failed:
  status = r->status;
unwind:
  for (; ply > 0; ply--) game_undo(g);
  if (root) set_state(g, root);
  return status;
#undef CLASS_CHECK
}

/* ------------------------------------------------------------------ */
/* Step 2 and 3: backward induction                                   */
/* ------------------------------------------------------------------ */

/* The reverse graph: for each position, the positions with a move to it
** (once per move). */
static int build_parents(Retro *r) {
  size_t n = r->stored;
  r->parent_start = calloc(n + 1, sizeof *r->parent_start);
  r->parents = malloc((r->edges + 1) * sizeof *r->parents);
  r->queue = malloc((n + 1) * sizeof *r->queue);
  if (!r->parent_start || !r->parents || !r->queue) return -1;
  for (size_t e = 0; e < r->edges; e++) r->parent_start[r->edge_to[e] + 1]++;
  for (size_t i = 0; i < n; i++) r->parent_start[i + 1] += r->parent_start[i];
  uint32_t *fill = malloc((n + 1) * sizeof *fill);
  if (!fill) return -1;
  memcpy(fill, r->parent_start, (n + 1) * sizeof *fill);
  for (size_t e = 0; e < r->edges; e++) r->parents[fill[r->edge_to[e]]++] = r->edge_from[e];
  free(fill);
  return 0;
}

static void propagate_wins_losses(Retro *r) {
  size_t head = 0, tail = 0;
  for (size_t c = 0; c < r->stored; c++)
    if (r->terminal[c] && r->value[c] != RETRO_DRAW) r->queue[tail++] = (uint32_t)c;
  while (head < tail) {
    uint32_t x = r->queue[head++];
    for (uint32_t k = r->parent_start[x]; k < r->parent_start[x + 1]; k++) {
      uint32_t p = r->parents[k];
      if (r->value[p] != RETRO_UNKNOWN) continue;
      int same = r->mover[p] == r->mover[x];
      int good = (r->value[x] == RETRO_WIN) == same;
      if (good) {
        r->value[p] = RETRO_WIN;
        r->dist[p] = r->dist[x] + 1;
        r->queue[tail++] = p;
      } else if (--r->count[p] == 0) {
        r->value[p] = RETRO_LOSS;
        r->dist[p] = r->dist[x] + 1;
        r->queue[tail++] = p;
      }
    }
  }
  r->labelled = tail;
}

/* Draws: player 0 takes the shortest drawn line (the first child to get a
** distance), player 1 the longest (the last).  Draws never reached stay
** endless: the line can go on forever. */
static void propagate_draws(Retro *r) {
  size_t head = 0, tail = 0;
  for (size_t c = 0; c < r->stored; c++) {
    if (r->value[c] == RETRO_UNKNOWN) {
      r->value[c] = RETRO_DRAW;
      r->dist[c] = RETRO_ENDLESS;
      r->count[c] = 0;
    }
  }
  /* Count each draw's moves to draws: its choices. */
  for (size_t e = 0; e < r->edges; e++) {
    uint32_t p = r->edge_from[e], x = r->edge_to[e];
    if (r->value[p] == RETRO_DRAW && !r->terminal[p] && r->value[x] == RETRO_DRAW) r->count[p]++;
  }
  for (size_t c = 0; c < r->stored; c++)
    if (r->terminal[c] && r->value[c] == RETRO_DRAW) r->queue[tail++] = (uint32_t)c;
  while (head < tail) {
    uint32_t x = r->queue[head++];
    for (uint32_t k = r->parent_start[x]; k < r->parent_start[x + 1]; k++) {
      uint32_t p = r->parents[k];
      if (r->value[p] != RETRO_DRAW || r->dist[p] != RETRO_ENDLESS || r->terminal[p]) continue;
      if (r->mover[p] == 0 || --r->count[p] == 0) {
        r->dist[p] = r->dist[x] + 1;
        r->queue[tail++] = p;
      }
    }
  }
}

/* Games scored beyond win/loss/draw: plain backward induction over the
** move graph, children before parents (the counters again: a position is
** decided when its last child is), keeping the best child value in the
** order every solver uses.  Needs an acyclic game. */
static int propagate_scores(Retro *r) {
  size_t head = 0, tail = 0;
  Value *best = malloc((r->stored + 1) * sizeof *best);
  if (!best) return out_of_memory(r);
  for (size_t c = 0; c < r->stored; c++) {
    best[c] = -VALUE_INF;
    if (r->terminal[c]) { r->dist[c] = 0; r->queue[tail++] = (uint32_t)c; }
  }
  while (head < tail) {
    uint32_t x = r->queue[head++];
    for (uint32_t k = r->parent_start[x]; k < r->parent_start[x + 1]; k++) {
      uint32_t p = r->parents[k];
      int64_t score = r->mover[p] == r->mover[x] ? r->score[x] : -(int64_t)r->score[x];
      Value v = value_make(score, (int64_t)r->dist[x] + 1, r->mover[p]);
      if (v > best[p]) best[p] = v;
      if (--r->count[p] == 0) {
        int64_t s, d;
        value_decode(best[p], &s, &d);
        r->score[p] = (int32_t)s;
        r->dist[p] = (uint32_t)d;
        r->value[p] = s > 0 ? RETRO_WIN : s < 0 ? RETRO_LOSS : RETRO_DRAW;
        r->queue[tail++] = p;
      }
    }
  }
  free(best);
  r->labelled = tail;
  if (tail < r->stored)
    return retro_fail(r, EXIT_USAGE, "this game scores beyond win, loss and draw and has cycles: "
                "retrograde analysis of scored games needs an acyclic game");
  return EXIT_OK;
}

/* The forward graph (CSR): position p's moves are the edges
** out[start[p]] .. out[start[p + 1] - 1], in the order they were
** generated.  -1 when out of memory (nothing allocated then). */
int retro_out_edges(const Retro *r, uint32_t **startp, uint32_t **outp) {
  size_t n = r->stored;
  uint32_t *start = calloc(n + 1, sizeof *start);
  uint32_t *out = malloc((r->edges + 1) * sizeof *out);
  uint32_t *fill = malloc((n + 1) * sizeof *fill);
  if (!start || !out || !fill) {
    free(start); free(out); free(fill);
    return -1;
  }
  for (size_t e = 0; e < r->edges; e++) start[r->edge_from[e] + 1]++;
  for (size_t i = 0; i < n; i++) start[i + 1] += start[i];
  memcpy(fill, start, (n + 1) * sizeof *fill);
  for (size_t e = 0; e < r->edges; e++) out[fill[r->edge_from[e]]++] = (uint32_t)e;
  free(fill);
  *startp = start;
  *outp = out;
  return 0;
}

/* Payoff vectors: backward induction again, children before parents,
** but each position's value is computed from its own moves (forward
** edges, in generation order) once the last child is known: max^n for a
** player, the weighted mean for chance.  Needs an acyclic game. */
static int propagate_vectors(Retro *r) {
  Game *g = r->g;
  size_t n = r->stored, np = (size_t)g->nplayers, head = 0, tail = 0;
  uint32_t *start, *out;
  if (retro_out_edges(r, &start, &out) < 0) return out_of_memory(r);
  for (size_t c = 0; c < n; c++)
    if (r->terminal[c]) r->queue[tail++] = (uint32_t)c;
  while (head < tail) {
    uint32_t x = r->queue[head++];
    for (uint32_t k = r->parent_start[x]; k < r->parent_start[x + 1]; k++) {
      uint32_t p = r->parents[k];
      if (--r->count[p] != 0) continue;
      int chance = r->mover[p] == (uint8_t)GAME_CHANCE;
      double total = 0;
      ExpValue best;
      memset(&best, 0, sizeof best);
      if (chance)
        for (uint32_t j = start[p]; j < start[p + 1]; j++) total += r->edge_weight[out[j]];
      for (uint32_t j = start[p]; j < start[p + 1]; j++) {
        uint32_t e = out[j];
        ExpValue v = r->vec[r->edge_to[e]];
        if (r->edge_pay) for (size_t i = 0; i < np; i++) v.pay[i] += r->edge_pay[e * np + i];
        v.plies += 1;
        if (chance) {
          double w = r->edge_weight[e] / total;
          for (size_t i = 0; i < np; i++) best.pay[i] += w * v.pay[i];
          best.plies += w * v.plies;
        } else if (j == start[p] || exp_better(g, r->mover[p], &v, &best)) {
          best = v;
        }
      }
      r->vec[p] = best;
      r->queue[tail++] = p;
    }
  }
  free(start);
  free(out);
  r->labelled = tail;
  if (tail < n)
    return retro_fail(r, EXIT_USAGE, "this game has cycles: retrograde analysis with chance, "
                "per-move payoffs or more than two players needs an acyclic game "
                "(use --solver value-iteration)");
  return EXIT_OK;
}

/* The stored position of the engine's current state. */
int retro_lookup(Retro *r, uint32_t *cls) {
  if (r->canonical) return keyset_find(&r->classes, current_key(r, 1), cls);
  return keyset_find(&r->states, current_key(r, 0), cls);
}

/* A stored position's value as a search key for `viewer` at `ply`. */
static Value key_of(const Retro *r, uint32_t c, int viewer, int64_t ply) {
  int64_t score = r->score[c];
  if (r->mover[c] != viewer) score = -score;
  int64_t end = r->dist[c] >= RETRO_ENDLESS ? RETRO_ENDLESS : ply + r->dist[c];
  return value_make(score, end, viewer);
}

/* Retrograde analysis labels positions: rules that look at the line of
** play (a repetition rule) have no value per position. */
static int refuse_history(Retro *r) {
  return retro_fail(r, EXIT_USAGE, "retrograde analysis needs rules that depend on the position alone; "
              "this game has a repetition rule (use --solver alphabeta)");
}

int retro_solve(Retro *r, Search *s) {
  Game *g = r->g;
  if (g->has_history) return refuse_history(r);
  if (g->nplayers < 1 || g->nplayers > 2)
    return retro_fail(r, EXIT_USAGE, "retrograde analysis needs one or two players (this game has %d)",
                g->nplayers);
  if (r->compact && retro_distributed && !r->grundy) return retro_distributed->compact_solve(r, s);
  if (r->grundy && (r->compact || retro_distributed))
    return retro_fail(r, EXIT_USAGE, "--grundy with --solver retro runs in one process, "
                      "without --compact");
  if (r->grundy && grundy_check_begin(r->grundy) != EXIT_OK) return r->status = r->grundy->status;
  if (r->compact) {
    int cycles = retro_compact_cycles_wanted(r);
    if (cycles < 0) return r->status;
    return cycles ? retro_compact_cycles_solve(r, s) : retro_compact_solve(r, s);
  }
  if (retro_distributed) return retro_distributed->solve(r, s);
  double t0 = clock_seconds();
  if (retro_enumerate(r) != EXIT_OK) return r->status;
  double t1 = clock_seconds();
  progress_note(r->progress, "retrograde analysis, labelling", NULL, r->stored, "positions", -1);
  /* The labelling's reverse graph and queue: refused before they are taken. */
  if (retro_labels_refused(r)) return r->status;
  if (build_parents(r) < 0) return out_of_memory(r);
  if (r->scored) {
    if (propagate_scores(r) != EXIT_OK) return r->status;
  } else {
    propagate_wins_losses(r);
    propagate_draws(r);
    for (size_t c = 0; c < r->stored; c++)
      r->score[c] = r->value[c] == RETRO_WIN ? 1 : r->value[c] == RETRO_LOSS ? -1 : 0;
  }
  if (r->grundy && retro_label_grundy(r) != EXIT_OK) return r->status;
  r->enumerate_seconds = t1 - t0;
  r->label_seconds = clock_seconds() - t1;
  s->nodes = r->positions;     /* every position was expanded once */
  return retro_answer(r, s);
}

int retro_solve_vector(Retro *r, ExpSolver *s) {
  Game *g = r->g;
  if (g->has_history) return refuse_history(r);
  r->vector = 1;
  if (retro_distributed) return retro_distributed->solve_vector(r, s);
  double t0 = clock_seconds();
  if (retro_enumerate(r) != EXIT_OK) return r->status;
  double t1 = clock_seconds();
  if (build_parents(r) < 0) return out_of_memory(r);
  if (propagate_vectors(r) != EXIT_OK) return r->status;
  r->enumerate_seconds = t1 - t0;
  r->label_seconds = clock_seconds() - t1;
  return retro_vector_answer(r, s);
}

int retro_vector_answer(Retro *r, ExpSolver *s) {
  Game *g = r->g;
  if (retro_distributed && retro_distributed->children(r) != EXIT_OK) return r->status;
  /* The root's moves from the stored values, as expectimax reports them. */
  s->table_mib = 0;
  if (exp_root_begin(s) != EXIT_OK) return r->status = s->status;
  s->nodes = r->positions;
  ExpResult *res = &s->result;
  for (int i = 0; i < res->nmoves && !res->terminal; i++) {
    int32_t pay[GAME_MAX_PLAYERS];
    uint32_t c;
    game_apply(g, &res->moves[i]);
    if (!g->has_rewards || !game_rewards(g, pay)) memset(pay, 0, sizeof pay);
    int found = retro_lookup(r, &c);
    game_undo(g);
    if (!found) return retro_fail(r, EXIT_LIMIT, "a root move leads out of the enumerated positions");
    res->values[i] = r->vec[c];
    for (int k = 0; k < g->nplayers; k++) res->values[i].pay[k] += pay[k];
    res->values[i].plies += 1;
    res->exact[i] = 1;
  }
  exp_root_finish(s);
  return s->status;
}

/* The root and its moves, read from the labels. */
int retro_answer(Retro *r, Search *s) {
  Game *g = r->g;
  uint64_t nodes = s->nodes;
  if (retro_distributed && retro_distributed->children(r) != EXIT_OK) return r->status;
  if (retro_scratch(r) < 0) return out_of_memory(r);
  if (search_root_begin(s) != EXIT_OK) return r->status = s->status;
  s->nodes = nodes;
  SolveResult *res = &s->result;
  /* Read from a file: the records answered from are checked first, as
  ** at a direct query, whatever asks (--pv's every step, play). */
  if (r->verify_here && r->verify_here(r) != EXIT_OK) return r->status;
  if (res->terminal) return r->grundy ? retro_grundy_answer(r, s) : EXIT_OK;
  for (int i = 0; i < res->nmoves; i++) {
    uint32_t c;
    game_apply(g, &res->moves[i]);
    if (r->cpt) {
      /* The compact table: the child's score for its own mover. */
      int32_t score;
      uint32_t dist;
      int found = retro_compact_find(r, &score, &dist), m = game_to_move(g);
      /* A file's record is checked against the rules before it is used. */
      if (found > 0 && r->verify_here && r->verify_here(r) != EXIT_OK) found = -1;
      game_undo(g);
      if (found < 0) return r->status;
      if (!found) return retro_fail(r, EXIT_USAGE, "the position after a root move is not in the table");
      res->values[i] = value_make(m == res->mover ? score : -(int64_t)score,
                                  dist >= RETRO_ENDLESS ? RETRO_ENDLESS : 1 + (int64_t)dist, res->mover);
      res->exact[i] = 1;
      continue;
    }
    int found = retro_lookup(r, &c);
    game_undo(g);
    if (!found)
      return retro_fail(r, EXIT_USAGE, "the position after %s is not in the database (it was built "
                  "from another position)", "a root move");
    res->values[i] = key_of(r, c, res->mover, 1);
    res->exact[i] = 1;
  }
  search_root_finish(s);
  return r->grundy ? retro_grundy_answer(r, s) : EXIT_OK;
}
