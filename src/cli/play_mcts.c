/*
** play_mcts.c -- the computer's moves in `gsolve play` for games with
** chance or payoffs too large to solve: information-set MCTS
** (mcts/ismcts.c) at the budget of --level, and what --show-evals
** prints of its search.
*/
#include <inttypes.h>
#include "cli/play.h"
#include "mcts/ismcts.h"

int play_mcts_think(Game *g, int level, uint64_t seed, const int64_t *base, IsmctsResult *r) {
  IsmctsOptions o;
  ismcts_defaults(&o);
  o.iterations = ismcts_level_iterations(play_mcts_level(level));
  o.seed = seed;
  o.base = base;
  return ismcts_search(g, &o, r, stderr);
}

int play_mcts_level(int level) {
  return level == PLAY_PERFECT || level > ISMCTS_MAX_LEVEL ? ISMCTS_MAX_LEVEL : level;
}

void play_mcts_show(Game *g, const IsmctsResult *r, FILE *out) {
  char buf[256];
  int other = g->nplayers == 2 ? 1 - r->mover : r->mover;
  fprintf(out, "evaluation by %s (ismcts, %" PRIu64 " iterations; visits, chance to win, "
          "points to come):\n", g->player_names[r->mover], r->iterations);
  for (int i = 0; i < r->nmoves; i++) {
    if (r->visits[i] == 0) continue;
    buf[0] = '\0';
    game_format_move(g, &r->moves[i], buf, sizeof buf);
    buf[sizeof buf - 1] = '\0';
    fprintf(out, "  %-12s  %6" PRIu64 "  %.3f  %+.1f%s\n", buf, r->visits[i], r->value[i],
            other == r->mover ? r->gain[i][r->mover] : r->gain[i][r->mover] - r->gain[i][other],
            i == r->best ? "  played" : "");
  }
}
