/*
** alphabeta.c -- fail-soft negamax alpha-beta with a transposition table.
**
** Contract of ab_search(window alpha, beta), value v of the position:
**   result <= alpha   v <= result  (an upper bound)
**   result >= beta    v >= result  (a lower bound)
**   otherwise         v == result  (exact)
** Fail-soft results are always values of real leaves, so they are valid
** keys (value.h) that the table can re-base from ply to ply.  Because
** keys carry the end ply and the order is zero-sum, the value found is
** exactly minimax's, plies included.
**
** The search is exact (to the end of the game), so table entries never
** go stale: a stored bound is a property of the position alone, once
** its end ply is made relative to the node.  The table finds positions
** by their key (the packed state), so a hit is never another position.
*/
#include <stdlib.h>
#include <string.h>
#include "alphabeta.h"
#include "gsolve.h"

/* What a solve carries besides the Search: the table and the key of each
** node on the current line (computed once, for the probe and the store).
** It lives on the heap, hung off the Search (s->work), so that the keys
** are freed even if the engine longjmps out of a solve. */
typedef struct Ab {
  Search *s;
  Tt *tt;
  size_t key_bytes;       /* size of a position's key (pack or state) */
  unsigned char *keys;    /* the key of each node on the line, by ply */
  size_t keys_cap;        /* bytes allocated for keys */
} Ab;

/* The key of the current position, written at `ply` of the key array;
** NULL (status set) if out of memory. */
static const unsigned char *node_key(Ab *a, int ply) {
  Game *g = a->s->g;
  unsigned char *k;
  const void *state;
  if (((size_t)ply + 1) * a->key_bytes > a->keys_cap) {
    size_t n = 64;
    while (n <= (size_t)ply) n *= 2;
    if ((k = realloc(a->keys, n * a->key_bytes)) == NULL) {
      search_fail(a->s, EXIT_LIMIT, "out of memory");
      return NULL;
    }
    a->keys = k;
    a->keys_cap = n * a->key_bytes;
  }
  k = a->keys + (size_t)ply * a->key_bytes;
  state = game_state(g);
  if (g->vt->pack != NULL) {
    g->vt->pack(g, state, k);
  } else {
    memset(k, 0, a->key_bytes);     /* a state of 0 bytes has a 1-byte key */
    memcpy(k, state, g->state_bytes);
  }
  return k;
}

/* The generation index of the move searched i-th: the table's move was
** swapped to the front, so 0 and `swapped` trade places. */
static int gen_index(const SearchFrame *f, int i) {
  if (f->swapped == 0) return i;
  return i == 0 ? f->swapped : i == f->swapped ? 0 : i;
}

/* Stores a finished node in the table: a result at or below alpha is an
** upper bound, one at or above beta a lower bound. */
static void store(Ab *a, const SearchFrame *f, int ply) {
  Value rel = value_shift(f->best, f->mover, -ply);
  tt_store(a->tt, f->hash, a->keys + (size_t)ply * a->key_bytes,
           f->best > f->alpha0 ? rel : -TT_NO_BOUND,
           f->best < f->beta ? rel : TT_NO_BOUND,
           f->best > f->alpha0 ? f->best_i : TT_NO_MOVE, TT_DRAFT_EXACT,
           a->s->nodes - f->nodes0);
}

/* Alpha-beta value of the current position, at ply `top` (>= 1), for its
** mover, within (alpha, beta).  On an error it sets s->status, takes back
** the moves it made, and returns 0. */
static Value ab_search(Ab *a, int top, Value alpha, Value beta) {
  Search *s = a->s;
  Tt *tt = a->tt;
  Game *g = s->g;
  size_t path0 = s->path_len, ms0 = s->ms.top;
  int ply = top;
  SearchFrame *f;
  Outcome o;
  TtEntry e;
  Value r;
  int n, ttmove;

enter:
  /* Step 1. A new node with window (alpha, beta): a terminal position? */
  s->nodes++;
  if ((f = search_frame(s, ply)) == NULL) goto fail;
  f->mover = game_to_move(g);
  if (game_ended(g, &o)) {
    r = value_from_outcome(&o, g->nplayers, f->mover, ply);
    goto leave;
  }
  f->hash = game_hash(g);
  if (search_path_push(s, f->hash) != 0) goto fail;

  /* Step 2. The table may already settle it, or at least name a move. */
  ttmove = 0;
  if (tt != NULL) {
    const unsigned char *key = node_key(a, ply);
    if (key == NULL) goto fail;
    if (tt_probe(tt, f->hash, key, &e)) {
      Value lo = e.lower == -TT_NO_BOUND ? -VALUE_INF
               : value_shift(e.lower, f->mover, ply);
      Value hi = e.upper == TT_NO_BOUND ? VALUE_INF
               : value_shift(e.upper, f->mover, ply);
      if (lo >= beta || hi <= alpha || lo == hi) {
        r = lo >= beta ? lo : hi;
        tt_stats(tt)->cutoffs++;
        search_path_pop(s);
        goto leave;
      }
      ttmove = e.move;
    }
  }

  /* Step 3. Generate; the table's move goes first. */
  f->mbase = s->ms.top;
  if ((n = movestack_generate(&s->ms, g)) < 0) {
    search_fail(s, EXIT_LIMIT, "out of memory");
    goto fail;
  }
  if (n == 0) {
    game_no_moves(g, &o);
    r = value_from_outcome(&o, g->nplayers, f->mover, ply);
    search_path_pop(s);
    goto leave;
  }
  if (!search_depth_ok(s, ply)) goto fail;
  f->swapped = 0;
  if (ttmove > 0 && ttmove < n) {
    Move *m = &s->ms.moves[f->mbase];
    Move t = m[0];
    m[0] = m[ttmove];
    m[ttmove] = t;
    f->swapped = ttmove;
  }
  f->nmoves = n;
  f->i = 0;
  f->alpha = f->alpha0 = alpha;
  f->beta = beta;
  f->best = -VALUE_INF;
  f->best_i = 0;
  f->nodes0 = s->nodes - 1;

next:
  /* Step 4. Descend into child f->i.  If the same player moves again the
  ** window and the value pass through unchanged, else both are negated. */
  game_apply(g, &s->ms.moves[f->mbase + (size_t)f->i]);
  f->flip = game_to_move(g) != f->mover;
  alpha = f->flip ? -f->beta : f->alpha;
  beta = f->flip ? -f->alpha : f->beta;
  ply++;
  goto enter;

leave:
  /* Step 5. Node at `ply` has value r: fold it into its parent, which
  ** stops at a cutoff or after its last child. */
  if (ply == top) return r;
  ply--;
  game_undo(g);
  f = &s->frames[ply];
  if (f->flip) r = -r;
  if (r > f->best) {
    f->best = r;
    f->best_i = gen_index(f, f->i);
  }
  if (r > f->alpha) f->alpha = r;
  if (f->best < f->beta && ++f->i < f->nmoves) goto next;
  if (tt != NULL) store(a, f, ply);
  s->ms.top = f->mbase;
  search_path_pop(s);
  r = f->best;
  goto leave;

fail:
  search_unwind(s, ply, top, path0, ms0);
  return 0;
}

/* Root move i's value for the root mover, searched within (alpha, beta)
** of the root mover's view. */
static Value search_move(Ab *a, int i, Value alpha, Value beta) {
  SolveResult *r = &a->s->result;
  Game *g = a->s->g;
  int flip;
  Value v;
  game_apply(g, &r->moves[i]);
  flip = game_to_move(g) != r->mover;
  v = flip ? -ab_search(a, 1, -beta, -alpha)
           : ab_search(a, 1, alpha, beta);
  game_undo(g);
  return v;
}

static void free_ab(void *p) {
  Ab *a = p;
  free(a->keys);
  free(a);
}

int alphabeta_solve(Search *s, Tt *tt, int all_moves) {
  SolveResult *r = &s->result;
  Value alpha = -VALUE_INF;
  size_t key_bytes;
  Ab *ap;
  int i;

  if (search_root_begin(s) != EXIT_OK || r->terminal) return s->status;
  key_bytes = s->g->vt->pack != NULL ? s->g->key_bytes : s->g->state_bytes;
  if (key_bytes == 0) key_bytes = 1;
  if (s->free_work != free_ab) {
    if (s->free_work != NULL) s->free_work(s->work);
    s->free_work = NULL;
    if ((s->work = calloc(1, sizeof(Ab))) == NULL) {
      search_fail(s, EXIT_LIMIT, "out of memory");
      goto done;
    }
    s->free_work = free_ab;
  }
  ap = s->work;
  ap->s = s;
  ap->tt = tt;
  if (ap->key_bytes != key_bytes) {
    ap->key_bytes = key_bytes;
    ap->keys_cap = 0;           /* regrown for the new size */
  }
  if (tt != NULL && tt_prepare(tt, key_bytes) != 0) {
    search_fail(s, EXIT_LIMIT, "out of memory");
    goto done;
  }

  /* Step 1. The root value.  A result above the window's floor is exact;
  ** one at or below it is an upper bound.  With all_moves the floor stays
  ** at -infinity, so every move gets its exact value. */
  for (i = 0; i < r->nmoves; i++) {
    Value lo = all_moves ? -VALUE_INF : alpha;
    Value v = search_move(ap, i, lo, VALUE_INF);
    if (s->status != EXIT_OK) goto done;
    r->values[i] = v;
    r->exact[i] = v > lo;
    if (v > alpha) alpha = v;
  }

  /* Step 2. A move whose upper bound reaches the root value may tie it:
  ** a null window (alpha-1, alpha) says whether it does. */
  for (i = 0; i < r->nmoves; i++) {
    Value v;
    if (r->exact[i] || r->values[i] < alpha) continue;
    v = search_move(ap, i, alpha - 1, alpha);
    if (s->status != EXIT_OK) goto done;
    if (v >= alpha) {
      r->values[i] = alpha;
      r->exact[i] = 1;
    } else {
      r->values[i] = v;
    }
  }

done:
  search_root_finish(s);
  return s->status;
}
