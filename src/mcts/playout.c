/*
** playout.c -- random playouts (see playout.h).
*/
#include <stdlib.h>
#include <string.h>
#include "util/status.h"
#include "mcts/playout.h"
#include "search/progress.h"
#include "util/diag.h"
#include "util/stop.h"

/* Chance's weights are asked for WEIGHTS_CHUNK moves at a time: twice
** (the total, then the pick), with no buffer of GAME_MAX_MOVES. */
#define WEIGHTS_CHUNK 256

int random_move(Game *g, const Move *moves, int n, uint64_t *rng) {
  if (game_to_move(g) != GAME_CHANCE || g->vt->weights == NULL)
    return (int)(random_next(rng) % (uint64_t)n);
  uint32_t w[WEIGHTS_CHUNK];
  uint64_t total = 0, x;
  for (int i = 0; i < n; i += WEIGHTS_CHUNK) {
    int k = n - i < WEIGHTS_CHUNK ? n - i : WEIGHTS_CHUNK;
    game_weights(g, moves + i, k, w);
    for (int j = 0; j < k; j++) total += w[j];
  }
  x = random_next(rng) % total;
  for (int i = 0; i < n; i += WEIGHTS_CHUNK) {
    int k = n - i < WEIGHTS_CHUNK ? n - i : WEIGHTS_CHUNK;
    game_weights(g, moves + i, k, w);
    for (int j = 0; j < k; j++) {
      if (i + j == n - 1 || x < w[j]) return i + j;
      x -= w[j];
    }
  }
  return n - 1;
}

int random_pick(const double *prob, int n, uint64_t *rng) {
  /* 53 random bits: a number in [0, 1). */
  double x = (double)(random_next(rng) >> 11) * (1.0 / 9007199254740992.0);
  int i;
  for (i = 0; i < n - 1 && x >= prob[i]; i++) x -= prob[i];
  return i;
}

static int run_playouts(Game *g, uint64_t n, uint64_t seed, Strategy *strategy, Playouts *out,
                        FILE *err, struct Progress *progress, Move *moves, double *prob) {
  uint64_t rng = seed;
  memset(out, 0, sizeof *out);
  for (uint64_t k = 0; k < n; k++) {
    if (progress && (k & 255) == 0)
      progress_note(progress, "playouts", NULL, k, "games", (double)k / (double)n);
    if (stop_requested) {
      char msg[160];
      return diag_fail(err, stop_message(msg, sizeof msg, out->games, "playouts"), "%s", msg);
    }
    int ply = 0, m;
    int64_t paid[GAME_MAX_PLAYERS] = { 0 };
    int32_t rw[GAME_MAX_PLAYERS];
    Outcome o;
    while (!game_ended(g, &o)) {
      if ((m = game_generate(g, moves)) == 0) {
        game_no_moves(g, &o);
        break;
      }
      if (ply >= GAME_MAX_PLY - 1) {
        while (ply-- > 0) game_undo(g);
        return diag_fail(err, EXIT_LIMIT, "a playout ran past %d moves (GAME_MAX_PLY)", GAME_MAX_PLY);
      }
      int pick;
      if (strategy != NULL && game_to_move(g) != GAME_CHANCE) {
        if (strategy_probs(strategy, g, moves, m, prob) < 0) {
          while (ply-- > 0) game_undo(g);
          return diag_fail(err, EXIT_LIMIT, "out of memory");
        }
        pick = random_pick(prob, m, &rng);
      } else {
        pick = random_move(g, moves, m, &rng);
      }
      game_apply(g, &moves[pick]);
      if (g->has_rewards && game_rewards(g, rw))
        for (int i = 0; i < g->nplayers; i++) paid[i] += rw[i];
      ply++;
    }
    /* Who ended ahead: the best total payoff, alone. */
    int best = 0, tie = 0;
    for (int i = 1; i < g->nplayers; i++) {
      int64_t a = o.payoff[i] + paid[i], b = o.payoff[best] + paid[best];
      if (a > b) { best = i; tie = 0; } else if (a == b) tie = 1;
    }
    for (int i = 0; i < g->nplayers; i++) out->payoff[i] += o.payoff[i] + paid[i];
    if (g->nplayers == 1) { if (o.payoff[0] + paid[0] > 0) out->wins[0]++; else out->draws++; }
    else if (tie) out->draws++;
    else out->wins[best]++;
    out->games++;
    out->moves += (uint64_t)ply;
    while (ply-- > 0) game_undo(g);
  }
  return EXIT_OK;
}

/* run_playouts' arguments, for game_call_trapped. */
typedef struct PlayoutCall {
  Game *g;
  uint64_t n, seed;
  Strategy *strategy;
  Playouts *out;
  FILE *err;
  struct Progress *progress;
  Move *moves;
  double *prob;
} PlayoutCall;

static int playout_call(void *arg) {
  PlayoutCall *c = arg;
  return run_playouts(c->g, c->n, c->seed, c->strategy, c->out, c->err, c->progress, c->moves,
                      c->prob);
}

int playouts_run(Game *g, uint64_t n, uint64_t seed, Strategy *strategy, Playouts *out,
                 FILE *err, struct Progress *progress) {
  PlayoutCall c = { g, n, seed, strategy, out, err, progress,
                    malloc(GAME_MAX_MOVES * sizeof(Move)), malloc(GAME_MAX_MOVES * sizeof(double)) };
  int st;
  if (!c.moves || !c.prob) {
    st = diag_fail(err, EXIT_LIMIT, "out of memory");
  } else if (game_call_trapped(g, playout_call, &c, &st)) {
    /* A rule failed at run time: the buffers freed, the failure passed on. */
    free(c.moves);
    free(c.prob);
    game_reraise(g);
  }
  free(c.moves);
  free(c.prob);
  return st;
}
