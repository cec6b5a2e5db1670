/*
** gametree.c -- expanding a game into an explicit tree with its table of
** information sets (see gametree.h).
**
** One depth-first walk (walk.h) over every line of play: each node gets
** the next preorder index, and next[] is set when the walk leaves it.
** Payoffs of the moves (`pay`) are summed along the line and added to the
** outcome at each end, so the tree's ends carry whole-game payoffs.
*/
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "cfr/gametree.h"
#include "search/walk.h"
#include "util/diag.h"
#include "util/fnv.h"
#include "util/status.h"
#include "util/stop.h"

/* The growing arrays, by their index in GameTree.caps. */
enum { CAP_NODES, CAP_PROB, CAP_ENDS, CAP_INFOSETS, CAP_ACTIONS, CAP_TEXT };

/* Work of one expansion: the walk and what each ply of the line holds. */
typedef struct Expansion {
  GameTree *t;
  Game *g;
  FILE *err;
  Progress *progress;           /* or NULL */
  Walk walk;
  size_t cap;                   /* plies allocated below */
  uint32_t *node;               /* per ply: the node */
  int64_t *paid;                /* per ply: nplayers pays summed so far */
  int *own;                     /* per ply: nplayers decisions so far */
  uint32_t *last;               /* per ply: nplayers last actions (GT_NONE) */
  uint64_t *path;               /* per ply: the position's hash */
  uint32_t *weights;            /* one chance node's weights */
  char *scratch;                /* an information state's text */
  size_t scratch_size;
  int status;
} Expansion;

static int fail(Expansion *x, int status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int fail(Expansion *x, int status, const char *fmt, ...) {
  va_list ap;
  if (x->status != EXIT_OK) return x->status;
  va_start(ap, fmt);
  x->status = diag_vfail(x->err, status, fmt, ap);
  va_end(ap);
  return status;
}

/* Whether `more` bytes fit the memory limit; 0, or -1 after an error. */
static int within_limit(Expansion *x, size_t more) {
  GameTree *t = x->t;
  if (!t->memory_limit || t->memory + more <= t->memory_limit) return 0;
  fail(x, EXIT_LIMIT, "the game tree needs more than %zu MiB (%u histories and %u "
       "information sets so far): too big for the CFR solver within its memory limit "
       "(--memory MB)", t->memory_limit >> 20, t->nnodes, t->ninfosets);
  return -1;
}

/* The new capacity for `need` elements (doubling from caps[which]), 0 if
** the old one will do. */
static size_t new_cap(const GameTree *t, int which, size_t need) {
  size_t cap = t->caps[which], n = cap ? cap : 256;
  if (need <= cap) return 0;
  while (n < need) n *= 2;
  return n;
}

/* Reallocates *p to n elements of `size` bytes; 0, or -1 after an error. */
static int resize(Expansion *x, void **p, size_t n, size_t size) {
  void *q = realloc(*p, n * size);
  if (q == NULL) {
    fail(x, EXIT_LIMIT, "out of memory expanding the game tree (%u histories so far)",
         x->t->nnodes);
    return -1;
  }
  *p = q;
  return 0;
}

/* Makes room for `need` elements of `size` bytes in *p (capacity
** t->caps[which]), doubling, within the memory limit.  0, or -1 after an
** error. */
static int grow(Expansion *x, void **p, int which, size_t need, size_t size) {
  GameTree *t = x->t;
  size_t n = new_cap(t, which, need);
  if (n == 0) return 0;
  if (within_limit(x, (n - t->caps[which]) * size) != 0 || resize(x, p, n, size) != 0) return -1;
  t->memory += (n - t->caps[which]) * size;
  t->caps[which] = n;
  return 0;
}

/* The three node arrays grow together. */
static int grow_nodes(Expansion *x, size_t need) {
  GameTree *t = x->t;
  size_t n = new_cap(t, CAP_NODES, need), per = sizeof *t->next + sizeof *t->data + sizeof *t->kind;
  if (n == 0) return 0;
  if (within_limit(x, (n - t->caps[CAP_NODES]) * per) != 0
      || resize(x, (void **)&t->next, n, sizeof *t->next) != 0
      || resize(x, (void **)&t->data, n, sizeof *t->data) != 0
      || resize(x, (void **)&t->kind, n, sizeof *t->kind) != 0)
    return -1;
  t->memory += (n - t->caps[CAP_NODES]) * per;
  t->caps[CAP_NODES] = n;
  return 0;
}

/* The chance probabilities and their integer weights, together. */
static int grow_probs(Expansion *x, size_t need) {
  GameTree *t = x->t;
  size_t n = new_cap(t, CAP_PROB, need), per = sizeof *t->prob + sizeof *t->weight;
  if (n == 0) return 0;
  if (within_limit(x, (n - t->caps[CAP_PROB]) * per) != 0
      || resize(x, (void **)&t->prob, n, sizeof *t->prob) != 0
      || resize(x, (void **)&t->weight, n, sizeof *t->weight) != 0)
    return -1;
  t->memory += (n - t->caps[CAP_PROB]) * per;
  t->caps[CAP_PROB] = n;
  return 0;
}

/* The two action arrays too. */
static int grow_actions(Expansion *x, size_t need) {
  GameTree *t = x->t;
  size_t n = new_cap(t, CAP_ACTIONS, need), per = sizeof *t->moves + sizeof *t->move_name;
  if (n == 0) return 0;
  if (within_limit(x, (n - t->caps[CAP_ACTIONS]) * per) != 0
      || resize(x, (void **)&t->moves, n, sizeof *t->moves) != 0
      || resize(x, (void **)&t->move_name, n, sizeof *t->move_name) != 0)
    return -1;
  t->memory += (n - t->caps[CAP_ACTIONS]) * per;
  t->caps[CAP_ACTIONS] = n;
  return 0;
}

/* Appends a NUL-terminated copy of s[0..n) to the text pool, tabs and
** line breaks made blanks (the strategy file is one line per set, its
** fields separated by tabs); its offset, or -1. */
static int64_t add_text(Expansion *x, const char *s, size_t n) {
  GameTree *t = x->t;
  if (t->text_len + n + 1 > UINT32_MAX)   /* (offsets are 32 bits) */
    return fail(x, EXIT_LIMIT, "the texts of the information sets and moves exceed 4 GiB: "
                "too big for the CFR solver"), -1;
  if (grow(x, (void **)&t->text, CAP_TEXT, t->text_len + n + 1, 1) != 0) return -1;
  char *out = t->text + t->text_len;
  for (size_t i = 0; i < n; i++)
    out[i] = s[i] == '\t' || s[i] == '\n' || s[i] == '\r' ? ' ' : s[i];
  out[n] = '\0';
  t->text_len += n + 1;
  return (int64_t)(t->text_len - n - 1);
}

/* ---- information states ---------------------------------------------- */

static uint64_t mix(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
  return z ^ (z >> 31);
}

static uint64_t slot_hash(int player, const uint64_t key[2]) {
  return mix(key[0] ^ mix(key[1] + (uint64_t)player * 0x9e3779b97f4a7c15u));
}

void gametree_key(Game *g, int player, uint64_t key[2], char *text, size_t size) {
  if (g->vt->infostate != NULL) {
    g->vt->infostate(g, player, key, text, size);
    return;
  }
  /* Perfect information: the position (and, under a repetition rule, the
  ** earlier positions, which the hash then includes). */
  const unsigned char *s = game_state(g);
  key[0] = game_hash(g);
  key[1] = fnv1a(0x84222325cbf29ce4u, s, g->state_bytes);
  if (text != NULL && size > 0) {
    size_t k = 0;
    static const char hex[] = "0123456789abcdef";
    for (size_t i = 0; i < g->state_bytes && k + 2 < size; i++) {
      text[k++] = hex[s[i] >> 4];
      text[k++] = hex[s[i] & 15];
    }
    if (g->has_history && k + 18 < size)
      k += (size_t)snprintf(text + k, size - k, "@%016llx", (unsigned long long)key[0]);
    text[k] = '\0';
  }
}

int64_t gametree_find(const GameTree *t, int player, const uint64_t key[2]) {
  if (t->nslots == 0) return -1;
  for (size_t k = slot_hash(player, key) & (t->nslots - 1);; k = (k + 1) & (t->nslots - 1)) {
    uint32_t s = t->slots[k];
    if (s == 0) return -1;
    const GtInfoset *I = &t->infosets[s - 1];
    if (I->player == player && I->key[0] == key[0] && I->key[1] == key[1]) return s - 1;
  }
}

/* Doubles the hash table when half full; 0 or -1. */
static int grow_slots(Expansion *x) {
  GameTree *t = x->t;
  if (t->ninfosets * 2 < t->nslots) return 0;
  size_t n = t->nslots ? 2 * t->nslots : 1024;
  if (within_limit(x, (n - t->nslots) * sizeof *t->slots) != 0) return -1;
  uint32_t *s = calloc(n, sizeof *s);
  if (s == NULL) return fail(x, EXIT_LIMIT, "out of memory expanding the game tree"), -1;
  for (uint32_t i = 0; i < t->ninfosets; i++) {
    size_t k = slot_hash(t->infosets[i].player, t->infosets[i].key) & (n - 1);
    while (s[k] != 0) k = (k + 1) & (n - 1);
    s[k] = i + 1;
  }
  t->memory += (n - t->nslots) * sizeof *s;
  free(t->slots);
  t->slots = s;
  t->nslots = n;
  return 0;
}

/* The printable text of the mover's information state, in x->scratch. */
static int state_text(Expansion *x, int player, uint64_t key[2]) {
  size_t need;
  if (x->g->vt->infostate == NULL) {
    need = 2 * x->g->state_bytes + 20;
    if (need > x->scratch_size) {
      char *s = realloc(x->scratch, need);
      if (s == NULL) return fail(x, EXIT_LIMIT, "out of memory");
      x->scratch = s;
      x->scratch_size = need;
    }
    gametree_key(x->g, player, key, x->scratch, x->scratch_size);
    return EXIT_OK;
  }
  need = x->g->vt->infostate(x->g, player, key, x->scratch, x->scratch_size);
  if (need >= x->scratch_size) {
    char *s = realloc(x->scratch, need + 1);
    if (s == NULL) return fail(x, EXIT_LIMIT, "out of memory");
    x->scratch = s;
    x->scratch_size = need + 1;
    x->g->vt->infostate(x->g, player, key, x->scratch, x->scratch_size);
  }
  return EXIT_OK;
}

/* The information set of the current position, a decision of `player`
** with the n moves on top of the walk's move stack, found or added; its
** index, or -1. */
static int64_t infoset_of(Expansion *x, int player, int n, int depth, uint32_t parent) {
  GameTree *t = x->t;
  Game *g = x->g;
  const Move *moves = x->walk.ms.moves + x->walk.ms.top - n;
  uint64_t key[2];
  int64_t i;
  gametree_key(g, player, key, NULL, 0);
  if ((i = gametree_find(t, player, key)) >= 0) {
    GtInfoset *I = &t->infosets[i];
    if (I->nactions != n || memcmp(t->moves + I->action, moves, (size_t)n * sizeof *moves) != 0) {
      fail(x, EXIT_BAD_GAME, "%s's information state '%s' has different legal moves in two "
           "positions (%d and %d moves): what a player sees must determine its moves",
           g->player_names[player], gametree_infoset_text(t, (uint32_t)i), I->nactions, n);
      return -1;
    }
    if (I->depth != depth || I->parent != parent) {
      if (!t->positional && I->depth != depth) {
        fail(x, EXIT_BAD_GAME, "%s's information state '%s' comes after %d of its own moves "
             "in one line and %d in another: the views do not give perfect recall",
             g->player_names[player], gametree_infoset_text(t, (uint32_t)i), I->depth, depth);
        return -1;
      }
      if (!t->positional) {
        fail(x, EXIT_BAD_GAME, "%s's information state '%s' comes after other moves of its "
             "own in one line than in another: the views do not give perfect recall",
             g->player_names[player], gametree_infoset_text(t, (uint32_t)i));
        return -1;
      }
      if (depth > I->depth) I->depth = depth;
    }
    return i;
  }
  if (grow_slots(x) != 0 || state_text(x, player, key) != EXIT_OK) return -1;
  if (grow(x, (void **)&t->infosets, CAP_INFOSETS, t->ninfosets + 1, sizeof *t->infosets) != 0)
    return -1;
  if (grow_actions(x, t->nactions + (size_t)n) != 0) return -1;
  int64_t text = add_text(x, x->scratch, strlen(x->scratch));
  if (text < 0) return -1;
  GtInfoset *I = &t->infosets[t->ninfosets];
  I->key[0] = key[0];
  I->key[1] = key[1];
  I->player = player;
  I->nactions = n;
  I->action = t->nactions;
  I->text = (uint32_t)text;
  I->depth = depth;
  I->parent = parent;
  for (int k = 0; k < n; k++) {
    char buf[256];
    buf[0] = '\0';
    game_format_move(g, &moves[k], buf, sizeof buf);
    buf[sizeof buf - 1] = '\0';
    int64_t name = add_text(x, buf, strlen(buf));
    if (name < 0) return -1;
    t->moves[t->nactions + (uint32_t)k] = moves[k];
    t->move_name[t->nactions + (uint32_t)k] = (uint32_t)name;
  }
  t->nactions += (uint32_t)n;
  size_t k = slot_hash(player, key) & (t->nslots - 1);
  while (t->slots[k] != 0) k = (k + 1) & (t->nslots - 1);
  t->slots[k] = t->ninfosets + 1;
  if (depth > t->max_depth[player]) t->max_depth[player] = depth;
  return t->ninfosets++;
}

/* ---- the walk -------------------------------------------------------- */

static int grow_plies(Expansion *x, int ply) {
  if ((size_t)ply < x->cap) return 0;
  size_t n = x->cap ? 2 * x->cap : 64, np = GAME_MAX_PLAYERS;
  uint32_t *node = realloc(x->node, n * sizeof *node);
  if (node) x->node = node;
  int64_t *paid = realloc(x->paid, n * np * sizeof *paid);
  if (paid) x->paid = paid;
  int *own = realloc(x->own, n * np * sizeof *own);
  if (own) x->own = own;
  uint64_t *path = realloc(x->path, n * sizeof *path);
  if (path) x->path = path;
  uint32_t *last = realloc(x->last, n * np * sizeof *last);
  if (last) x->last = last;
  if (!node || !paid || !own || !path || !last) return fail(x, EXIT_LIMIT, "out of memory"), -1;
  x->cap = n;
  return 0;
}

/* A new node at ply d: its index, with the line's pays and decisions. */
static int64_t new_node(Expansion *x, int d) {
  GameTree *t = x->t;
  Game *g = x->g;
  if (t->nnodes == UINT32_MAX - 1) {
    fail(x, EXIT_LIMIT, "the game tree has more than %u histories: too big for the CFR "
         "solver", UINT32_MAX - 1);
    return -1;
  }
  if (grow_plies(x, d) != 0 || grow_nodes(x, (size_t)t->nnodes + 1) != 0) return -1;
  uint32_t n = t->nnodes++;
  int np = g->nplayers;
  int64_t *paid = x->paid + (size_t)d * GAME_MAX_PLAYERS;
  int *own = x->own + (size_t)d * GAME_MAX_PLAYERS;
  uint32_t *last = x->last + (size_t)d * GAME_MAX_PLAYERS;
  x->node[d] = n;
  if (d == 0) {
    memset(paid, 0, GAME_MAX_PLAYERS * sizeof *paid);
    memset(own, 0, GAME_MAX_PLAYERS * sizeof *own);
    for (int i = 0; i < np; i++) last[i] = GT_NONE;
  } else {
    int32_t rw[GAME_MAX_PLAYERS];
    uint32_t up = x->node[d - 1];
    int parent = t->kind[up];
    int any = g->has_rewards && game_rewards(g, rw);
    for (int i = 0; i < np; i++) {
      paid[i] = paid[i - GAME_MAX_PLAYERS] + (any ? rw[i] : 0);
      own[i] = own[i - GAME_MAX_PLAYERS] + (parent == i);
      last[i] = parent == i ? t->infosets[t->data[up]].action
                              + (uint32_t)walk_frame(&x->walk, d - 1)->i
                            : last[i - GAME_MAX_PLAYERS];
    }
  }
  return n;
}

/* The current position ends the game with outcome o: node n is an end. */
static int make_end(Expansion *x, uint32_t n, int d, const Outcome *o) {
  GameTree *t = x->t;
  int np = x->g->nplayers;
  const int64_t *paid = x->paid + (size_t)d * GAME_MAX_PLAYERS;
  size_t at = (size_t)t->nterminal * (size_t)np;
  if (grow(x, (void **)&t->pay, CAP_ENDS, at + (size_t)np, sizeof *t->pay) != 0) return -1;
  for (int i = 0; i < np; i++) t->pay[at + (size_t)i] = (double)o->payoff[i] + (double)paid[i];
  t->kind[n] = GT_TERMINAL;
  t->data[n] = t->nterminal++;
  t->next[n] = n + 1;
  return 0;
}

/* A chance node with the n moves on top of the move stack. */
static int make_chance(Expansion *x, uint32_t n, int nmoves) {
  GameTree *t = x->t;
  const Move *m = x->walk.ms.moves + x->walk.ms.top - nmoves;
  double total = 0;
  if (grow_probs(x, (size_t)t->nprob + (size_t)nmoves) != 0) return -1;
  if (x->weights == NULL && (x->weights = malloc(GAME_MAX_MOVES * sizeof *x->weights)) == NULL)
    return fail(x, EXIT_LIMIT, "out of memory"), -1;
  game_weights(x->g, m, nmoves, x->weights);
  for (int i = 0; i < nmoves; i++) total += x->weights[i];
  for (int i = 0; i < nmoves; i++) {
    t->prob[t->nprob + (uint32_t)i] = x->weights[i] / total;
    t->weight[t->nprob + (uint32_t)i] = x->weights[i];
  }
  t->kind[n] = GT_CHANCE;
  t->data[n] = t->nprob;
  t->nprob += (uint32_t)nmoves;
  t->nchance++;
  return 0;
}

/* Utilities from payoffs: zero-sum as they are, else margins (two
** players), else the payoffs. */
static void set_utilities(GameTree *t) {
  int np = t->nplayers;
  size_t n = (size_t)t->nterminal * (size_t)np;
  t->zero_sum = 1;
  for (uint32_t e = 0; e < t->nterminal && t->zero_sum; e++) {
    double s = 0;
    for (int i = 0; i < np; i++) s += t->pay[(size_t)e * (size_t)np + (size_t)i];
    if (fabs(s) > 1e-9) t->zero_sum = 0;
  }
  t->margins = np == 2 && !t->zero_sum;
  for (size_t k = 0; k < n; k++) {
    if (t->margins) {
      size_t e = k - k % 2;
      t->util[k] = t->pay[k] - t->pay[e + (1 - k % 2)];
    } else {
      t->util[k] = t->pay[k];
    }
  }
}

/* The walk, one event at a time; EXIT_OK or x->status. */
static int expand(void *arg) {
  Expansion *x = arg;
  GameTree *t = x->t;
  Game *g = x->g;
  Walk *w = &x->walk;
  Outcome o;
  for (int e = walk_begin(w); e != WALK_DONE; e = walk_step(w)) {
    int d = w->ply, nm;
    if (e == WALK_BACK) continue;
    if (e == WALK_LEAVE) {
      t->next[x->node[d]] = t->nnodes;
      continue;
    }
    if (stop_requested) {
      char msg[160];
      int st = stop_message(msg, sizeof msg, t->nnodes, "histories expanded");
      return fail(x, st, "%s", msg);
    }
    if (t->nnodes && (t->nnodes & 4095) == 0 && progress_due(x->progress)) {
      char line[120];
      snprintf(line, sizeof line, "expanding the game tree: %u histories, %u information sets",
               t->nnodes, t->ninfosets);
      progress_show(x->progress, line);
    }
    if (d >= GT_MAX_PLY)
      return fail(x, EXIT_LIMIT, "a line of play is longer than %d plies, the limit of the "
                  "CFR solver (GT_MAX_PLY)", GT_MAX_PLY);
    int64_t n = new_node(x, d);
    if (n < 0) return x->status;
    if (game_ended(g, &o)) {
      if (make_end(x, (uint32_t)n, d, &o) != 0) return x->status;
      continue;
    }
    uint64_t h = game_hash(g);
    for (int i = 0; i < d; i++)
      if (x->path[i] == h)
        return fail(x, EXIT_LIMIT, "position repeats along a line of play: the CFR solver "
                    "needs a finite game tree");
    x->path[d] = h;
    if ((nm = walk_expand(w)) < 0) return fail(x, EXIT_LIMIT, "out of memory");
    if (nm == 0) {
      game_no_moves(g, &o);
      if (make_end(x, (uint32_t)n, d, &o) != 0) return x->status;
      continue;
    }
    int mover = game_to_move(g);
    if (mover == GAME_CHANCE) {
      if (make_chance(x, (uint32_t)n, nm) != 0) return x->status;
      continue;
    }
    size_t at = (size_t)d * GAME_MAX_PLAYERS + (size_t)mover;
    int64_t I = infoset_of(x, mover, nm, x->own[at], x->last[at]);
    if (I < 0) return x->status;
    t->kind[n] = (int8_t)mover;
    t->data[n] = (uint32_t)I;
  }
  return EXIT_OK;
}

/* What the expansion allocated for itself (not the tree's arrays). */
static void expansion_free(Expansion *x) {
  walk_free(&x->walk);
  free(x->node);
  free(x->paid);
  free(x->own);
  free(x->last);
  free(x->path);
  free(x->weights);
  free(x->scratch);
  free(x);
}

int gametree_build(GameTree *t, Game *g, size_t memory_limit, Progress *progress, FILE *err) {
  /* On the heap, so that a rule failing at run time (a longjmp out of
  ** expand) leaves it to free before going on to the caller's trap. */
  Expansion *x = calloc(1, sizeof *x);
  memset(t, 0, sizeof *t);
  if (x == NULL) return diag_fail(err, EXIT_LIMIT, "out of memory");
  t->nplayers = g->nplayers;
  t->positional = g->vt->infostate == NULL;
  t->memory_limit = memory_limit;
  *x = (Expansion){ .t = t, .g = g, .err = err, .progress = progress };
  walk_init(&x->walk, g);
  /* Keys of positions include the earlier positions under a repetition
  ** rule. */
  if (g->vt->history_key != NULL) g->vt->history_key(g, 1);
  int st = EXIT_OK;
  if (game_call_trapped(g, expand, x, &st)) {
    expansion_free(x);          /* a rule failed: the engine can only be freed */
    game_reraise(g);
  }
  if (st != EXIT_OK) walk_unwind(&x->walk);
  expansion_free(x);
  if (st == EXIT_OK) {
    size_t n = (size_t)t->nterminal * (size_t)t->nplayers;
    if ((t->util = malloc((n ? n : 1) * sizeof *t->util)) == NULL)
      st = diag_fail(err, EXIT_LIMIT, "out of memory");
    else
      set_utilities(t);
    t->memory += n * sizeof *t->util;
  }
  return st;
}

void gametree_free(GameTree *t) {
  free(t->kind);
  free(t->next);
  free(t->data);
  free(t->prob);
  free(t->weight);
  free(t->util);
  free(t->pay);
  free(t->infosets);
  free(t->moves);
  free(t->move_name);
  free(t->text);
  free(t->slots);
  memset(t, 0, sizeof *t);
}
