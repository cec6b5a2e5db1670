/*
** match.c -- games between two computer players on a .game file, for
** `make bench` (tests/bench.sh): the information-set MCTS player
** (src/mcts/ismcts.c) against a random player and a one-ply greedy one.
**
**   match GAMEFILE A B GAMES LEVEL SEED [-D name=value ...]
**
** A and B are `ismcts` (at --level LEVEL's budget), `alphabeta` (the
** computer of `gsolve play --level LEVEL` on a game of perfect
** information: alpha-beta to LEVEL plies with the game's eval, a random
** one of the best moves), `random` (uniform among the legal moves) or
** `greedy` (the move that pays the mover the most at once, less what it
** pays the others; ties at random).  The
** players change seats every game, chance draws from the match's own
** generator, and the report gives A's wins, draws and losses, its score
** (a draw half a win) with a 95% confidence interval (Wilson's score
** interval), the mean payoffs of A and B and
** the time taken.  Two-player games only.
*/
#include <math.h>
#include <stdint.h>
#include <time.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gsolve.h"
#include "solve/alphabeta.h"
#include "mcts/ismcts.h"
#include "mcts/playout.h"
#include "util/file.h"
#include "loadgame.h"
#include "util/status.h"

enum { P_RANDOM, P_GREEDY, P_ISMCTS, P_ALPHABETA };

static int kind_of(const char *s) {
  if (strcmp(s, "random") == 0) return P_RANDOM;
  if (strcmp(s, "greedy") == 0) return P_GREEDY;
  if (strcmp(s, "ismcts") == 0) return P_ISMCTS;
  if (strcmp(s, "alphabeta") == 0) return P_ALPHABETA;
  return -1;
}

static Move moves[GAME_MAX_MOVES];
static Tt *table;                   /* the alphabeta player's, 64 MiB */

/* As play.c's computer: alpha-beta to `level` plies (the game's eval at
** the horizon), then a random one of the best moves.  `ply` is the
** position's ply in the game (for distances). */
static int pick_alphabeta(Game *g, int n, int level, int ply, uint64_t *rng) {
  Search s;
  AbOptions ab;
  if (table == NULL && (table = tt_new(64)) == NULL) exit(4);
  search_init(&s, g, ply, stderr);
  alphabeta_options(&ab);
  ab.depth = level;
  ab.score_only = g->score_only;
  if (alphabeta_run(&s, table, &ab) != EXIT_OK) exit(4);
  const SolveResult *r = &s.result;
  int k = r->nbest > 0 ? (int)(random_next(rng) % (uint64_t)r->nbest) : 0, i, choice = 0;
  for (i = 0; i < r->nmoves; i++)
    if (r->best[i] && k-- == 0) break;
  if (i < r->nmoves)
    for (int j = 0; j < n; j++)
      if (memcmp(&moves[j], &r->moves[i], sizeof(Move)) == 0) { choice = j; break; }
  search_free(&s);
  return choice;
}

/* What the mover earns by m at once, less what the others earn. */
static int64_t gain_of(Game *g, const Move *m, int mover) {
  int32_t rw[GAME_MAX_PLAYERS];
  int64_t x = 0;
  game_apply(g, m);
  if (g->has_rewards && game_rewards(g, rw))
    for (int i = 0; i < g->nplayers; i++) x += i == mover ? rw[i] : -rw[i];
  game_undo(g);
  return x;
}

/* The move index the player of `kind` picks among moves[0..n). */
static int pick(Game *g, int kind, int n, int level, int ply, const int64_t *paid,
                uint64_t *rng) {
  int mover = game_to_move(g);
  if (kind == P_RANDOM) return (int)(random_next(rng) % (uint64_t)n);
  if (kind == P_ALPHABETA) return pick_alphabeta(g, n, level, ply, rng);
  if (kind == P_GREEDY) {
    int64_t best = INT64_MIN;
    int nbest = 0, choice = 0;
    for (int i = 0; i < n; i++) {
      int64_t x = gain_of(g, &moves[i], mover);
      if (x > best) { best = x; nbest = 0; }
      if (x == best && random_next(rng) % (uint64_t)++nbest == 0) choice = i;
    }
    return choice;
  }
  IsmctsOptions o;
  IsmctsResult r;
  ismcts_defaults(&o);
  o.iterations = ismcts_level_iterations(level);
  o.seed = random_next(rng);
  o.base = paid;
  if (ismcts_search(g, &o, &r, stderr) != EXIT_OK) exit(4);
  Move m = r.moves[r.best];
  ismcts_result_free(&r);
  for (int i = 0; i < n; i++)
    if (memcmp(&moves[i], &m, sizeof m) == 0) return i;
  return 0;
}

int main(int argc, char **argv) {
  if (argc < 7 || kind_of(argv[2]) < 0 || kind_of(argv[3]) < 0) {
    fprintf(stderr, "usage: match GAMEFILE A B GAMES LEVEL SEED [-D name=value ...]\n"
            "  (A, B: random, greedy, ismcts or alphabeta)\n");
    return 2;
  }
  int kinds[2] = { kind_of(argv[2]), kind_of(argv[3]) };
  long games = atol(argv[4]);
  int level = atoi(argv[5]);
  uint64_t rng = (uint64_t)atoll(argv[6]);
  Program *p = load_game(argv[1], argc, argv, 7);
  int st;
  if (p == NULL) return 3;
  Game *g = vm_new(p, &st);
  if (g == NULL || g->nplayers != 2) { fprintf(stderr, "match: a two-player game, please\n"); return 3; }
  long won = 0, drawn = 0, lost = 0, plies = 0;
  double score_sum = 0, pay[2] = { 0, 0 };
  struct timespec t0, t1, c0, c1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c0);
  for (long k = 0; k < games; k++) {
    int seat_a = (int)(k % 2);       /* the game's player that A plays */
    int64_t paid[GAME_MAX_PLAYERS] = { 0 };
    int32_t rw[GAME_MAX_PLAYERS];
    int depth = 0;
    Outcome o;
    for (;;) {
      if (game_ended(g, &o)) break;
      int n = game_generate(g, moves);
      if (n == 0) { game_no_moves(g, &o); break; }
      int mover = game_to_move(g), i;
      if (mover == GAME_CHANCE) i = random_move(g, moves, n, &rng);
      else i = pick(g, kinds[mover == seat_a ? 0 : 1], n, level, depth, paid, &rng);
      game_apply(g, &moves[i]);
      if (g->has_rewards && game_rewards(g, rw))
        for (int q = 0; q < 2; q++) paid[q] += rw[q];
      depth++;
    }
    int64_t a = paid[seat_a] + o.payoff[seat_a], b = paid[1 - seat_a] + o.payoff[1 - seat_a];
    double s = a > b ? 1 : a < b ? 0 : 0.5;
    won += a > b;
    lost += a < b;
    drawn += a == b;
    score_sum += s;
    pay[0] += (double)a;
    pay[1] += (double)b;
    plies += depth;
    while (depth-- > 0) game_undo(g);
  }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c1);
  /* The Wilson score interval of the score (a draw half a win): unlike
  ** the plain normal one it stays inside 0..1 and is not empty at 100%. */
  double n = (double)games, mean = score_sum / n, z = 1.96;
  double centre = (mean + z * z / (2 * n)) / (1 + z * z / n);
  double half = z * sqrt(mean * (1 - mean) / n + z * z / (4 * n * n)) / (1 + z * z / n);
  char who[64];
  if (kinds[0] == P_ISMCTS || kinds[0] == P_ALPHABETA) snprintf(who, sizeof who, "%s (level %d)", argv[2], level);
  else snprintf(who, sizeof who, "%s", argv[2]);
  printf("%s vs %s: %ld games, %ld won, %ld drawn, %ld lost; score %.1f%% "
         "(95%% CI %.1f%%..%.1f%%); mean points %.1f to %.1f; %.1f plies a game; %.1f s (%.1f s CPU)\n",
         who, argv[3], games, won, drawn, lost, 100 * mean,
         100 * (centre - half), 100 * (centre + half), pay[0] / n, pay[1] / n,
         (double)plies / n,
         (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9,
         (double)(c1.tv_sec - c0.tv_sec) + (double)(c1.tv_nsec - c0.tv_nsec) / 1e9);
  game_free(g);
  gs_program_free(p);
  return 0;
}
