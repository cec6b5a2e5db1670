/*
** matchsticks.c -- the matchsticks family (games/matchsticks.game): n
** sticks, a move takes 1..k, whoever takes the last stick wins.
**
** State as the VM lays it out: word 0 the player to move (1-based), word
** 1 the sticks left; moves are rule 0 "take T", T ascending.
**
** Solved by its period: the player to move loses exactly when n is a
** multiple of k + 1; the winning move takes n mod (k + 1).  Under best
** play (winner shortest, loser longest) every round of two plies removes
** k + 1 sticks whatever the loser does, so the game lasts
** 2 * floor(n / (k + 1)) plies, plus one for the winner's first move when
** n is not a multiple.
*/
#include <stdlib.h>
#include <string.h>
#include "engines/engines.h"

typedef struct Sticks {
  Game base;
  int32_t k;
  int32_t s[2];              /* mover (1-based), sticks left */
  int32_t *undo;             /* sticks taken, per ply */
  size_t nundo, capundo;
} Sticks;

static int st_generate(Game *g, Move *buf) {
  Sticks *st = (Sticks *)g;
  int n = 0;
  for (int32_t t = 1; t <= st->k && t <= st->s[1]; t++) {
    memset(&buf[n], 0, sizeof buf[n]);
    buf[n++].arg[0] = (int16_t)t;
  }
  return n;
}

static void st_apply(Game *g, const Move *m) {
  Sticks *st = (Sticks *)g;
  if (st->nundo == st->capundo) {
    size_t cap = st->capundo ? st->capundo * 2 : 64;
    int32_t *u = realloc(st->undo, cap * sizeof *u);
    if (!u) native_out_of_memory(g);
    st->undo = u;
    st->capundo = cap;
  }
  st->undo[st->nundo++] = m->arg[0];
  st->s[1] -= m->arg[0];
  st->s[0] = 3 - st->s[0];
}

static void st_undo(Game *g) {
  Sticks *st = (Sticks *)g;
  if (st->nundo == 0) return;
  st->s[1] += st->undo[--st->nundo];
  st->s[0] = 3 - st->s[0];
}

static int st_ended(Game *g, Outcome *o) { (void)g; (void)o; return 0; }

static void st_no_moves(Game *g, Outcome *o) {
  memset(o, 0, sizeof *o);
  o->payoff[((Sticks *)g)->s[0] - 1] = -1;    /* the previous player took the last */
}

/* matchsticks.game's eval: 1 when n is not a multiple of k + 1, else -1. */
static int32_t st_eval(Game *g) {
  Sticks *st = (Sticks *)g;
  return st->s[1] % (st->k + 1) != 0 ? 1 : -1;
}

static int st_to_move(Game *g) { return ((Sticks *)g)->s[0] - 1; }

static uint64_t st_hash(Game *g) {
  Sticks *st = (Sticks *)g;
  uint64_t x = ((uint64_t)(uint32_t)st->s[1] << 2 | (uint64_t)st->s[0]) * 0x9e3779b97f4a7c15ULL;
  return x ^ (x >> 29);
}

static const void *st_state(Game *g) { return ((Sticks *)g)->s; }

static int st_format(Game *g, const Move *m, char *buf, size_t n) {
  (void)g;
  return snprintf(buf, n, "take %d", m->arg[0]);
}

static void st_print(Game *g, FILE *f) {
  Sticks *st = (Sticks *)g;
  fprintf(f, "sticks = %d\nto move: %s\n", st->s[1], g->player_names[st->s[0] - 1]);
}

static void st_free(Game *g) {
  Sticks *st = (Sticks *)g;
  if (!st) return;
  free(st->undo);
  free(st);
}

/* By the period k + 1: n sticks are lost for the player to move exactly
** when k + 1 divides n; the winner then takes n mod (k + 1) and answers
** every take t with k + 1 - t, so the game lasts 2 * (n / (k + 1)) plies
** more (+1 for the first take), both players playing their best. */
static void st_value(const Sticks *st, int32_t n, int32_t *margin, int32_t *plies) {
  int32_t r = n % (st->k + 1);
  *margin = r != 0 ? 1 : -1;
  *plies = 2 * (n / (st->k + 1)) + (r != 0);
}

static int st_solve(Game *g, const EngineSolveOptions *o, EngineAnswer *a) {
  Sticks *st = (Sticks *)g;
  int32_t margin, plies;
  st_value(st, st->s[1], &margin, &plies);
  native_answer_root(a, margin, plies, 1);
  if (o->root_only) return EXIT_OK;
  for (int32_t t = 1; t <= st->k && t <= st->s[1]; t++) {
    st_value(st, st->s[1] - t, &margin, &plies);
    /* The opponent's value, seen from here, one ply further. */
    native_answer_move(a, -margin, 1 + plies, 1);
  }
  return EXIT_OK;
}

static const GameVtable sticks_vtable = {
  .generate = st_generate, .apply = st_apply, .undo = st_undo, .ended = st_ended,
  .no_moves = st_no_moves, .eval = st_eval, .to_move = st_to_move, .hash = st_hash,
  .state = st_state, .format_move = st_format, .print = st_print,
  .features = ENGINE_SOLVES | ENGINE_DISTANCES,
  .solve = st_solve,
};

Game *native_sticks_new(const Program *p, char *why, size_t n, int *status) {
  int32_t sticks, k;
  if (!gs_param_int(p, "n", &sticks) || !gs_param_int(p, "k", &k)) {
    snprintf(why, n, "native matchsticks needs parameters 'n' and 'k'");
    return NULL;
  }
  if (gs_player_count(p) != 2 || sticks < 0 || k < 1 || k > GAME_MAX_MOVES) {
    snprintf(why, n, "native matchsticks needs two players, n >= 0 and 1 <= k <= %d", GAME_MAX_MOVES);
    return NULL;
  }
  Sticks *st = calloc(1, sizeof *st);
  if (!st) { *status = EXIT_LIMIT; return NULL; }
  st->k = k;
  st->s[0] = 1;
  st->s[1] = sticks;
  return native_init(&st->base, p, &sticks_vtable, "native-matchsticks", sizeof st->s, st_free);
}
