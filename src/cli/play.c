/*
** play.c -- `gsolve play`: a game between a person and the computer (or
** the computer and itself) in the terminal.
**
** The person types moves in the game's own notation (the --position
** matcher reads them) or a command: undo, hint, help, quit.  The computer
** moves with the solvers: depth-limited alpha-beta with the game's eval
** at --level N, an exact solve at --level perfect (the native Connect
** Four solver when the engine is native, alpha-beta otherwise), and
** retrograde analysis for a game with cycles, which the searches refuse.
** Among equally good moves it picks one with a seeded generator, so games
** differ from seed to seed and repeat with the same seed.  In games with
** chance, per-move payoffs or more than two players the computer solves
** on expected values (Star1 alpha-beta, or max^n), whatever the level,
** and chance's moves are drawn by their weights with the same generator.
** In games with hidden information (views) the person sees only his own
** view, chance's moves and the computer's show only through it, and the
** end of the game reveals the whole state.  The computer plays from its
** own information state only: it draws its move from a strategy, the one
** in --play-strategy FILE or the average strategy of CFR+ run once on
** the whole game from the start of play (to exploitability 10^-level),
** looked up by its information state, never by the position.
**
** Input is read a line at a time: the terminal's own line editing
** serves, and the same code plays from a pipe or a file.  Lines are
** bounded (LINE_MAX_LEN; a longer one, or one with a NUL byte, is refused
** whole), input that never ends a line or never gives a move or command
** ends play with an error, and Ctrl-C or SIGTERM at the prompt ends it at
** once with exit 130.
*/
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "solve/alphabeta.h"
#include "cfr/cfrsolve.h"
#include "mcts/ismcts.h"
#include "cfr/strategy.h"
#include "game/boardview.h"
#include "game/fen.h"
#include "solve/expectimax.h"
#include "gsolve.h"
#include "engines/engines.h"
#include "cli/play.h"
#include "mcts/playout.h"
#include "search/progress.h"
#include "game/position.h"
#include "retro/retro.h"
#include "retro/cycle.h"
#include "retro/valueiter.h"
#include "search/search.h"
#include "search/tt.h"
#include "search/value.h"

#define LINE_MAX_LEN PLAY_LINE_MAX
#define UNUSABLE_MAX 100         /* lines in a row that are no move nor command
                                 ** (or empty, or refused) before play stops */
#define MOVES_LISTED 40          /* legal moves listed in a message, at most */
#define REPEATS_STOP 3           /* a position seen this often ends play */
#define BY_HUMAN 1               /* by_human: a person made the move */
#define BY_CHANCE 2              /* by_human: the chance player drew it */

typedef struct Play {
  Game *g;
  const PlayOptions *o;
  FILE *in, *out;
  const char *title;
  BoardStyle style;
  int echo;                 /* input is not a terminal: echo what is read */
  int human[GAME_MAX_PLAYERS];  /* 1: a person plays this player */
  uint64_t seed;            /* the generator's seed, shown at the start */
  uint64_t rng;             /* the tie-break generator's state */
  int base_ply;             /* moves played before the game began */
  unsigned char *by_human;  /* per move played here: BY_HUMAN, BY_CHANCE or 0 */
  int32_t *paid;            /* per move played here: nplayers `pay`s */
  unsigned char *states;    /* the state before each move and after the
                            ** last: repetitions end play */
  int nplayed, cap;
  size_t tt_mib;
  Tt *tt;                   /* alpha-beta's table, kept between moves */
  EngineMoveValue *engine_moves;   /* the engine's solver's answers */
  Retro retro;              /* for games with cycles: solved once */
  int retro_ready;          /* retro holds the labels of every position */
  int depth;                /* depth of the last search (0: exact) */
  int score_only;           /* its values had no distances (`score only;`) */
  int explained;            /* the evaluations' meaning has been said */
  int show_progress;        /* stderr is a terminal: the computer's long
                            ** searches show their progress there */
  Progress progress;
  Search search;
  ExpSolver exp;            /* expected values (chance, pay, n players) */
  int cyclic;               /* 0 unknown, 1 positions recur, -1 they do not */
  Retro vi_retro;           /* value iteration, solved once for a cyclic game */
  ValueIter vi;
  int vi_ready;
  Position pos;
  Move legal[GAME_MAX_MOVES];
  double prob[GAME_MAX_MOVES];   /* a strategy's, for the legal moves */
  Strategy strategy;        /* --play-strategy FILE */
  CfrSolver cfr;            /* games with views: CFR from the start of play */
  int cfr_ready;
  int large;                /* 1: chance or payoffs, too many positions to
                            ** solve (the probe ran out): ISMCTS plays */
  int unusable;             /* lines in a row that were no move nor command */
  const FenBoard *pieces;   /* the game's pieces, for SAN; NULL: none */
} Play;

/* ---- small helpers ------------------------------------------------- */

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static const char *move_name(Game *g, const Move *m, char *buf, size_t size) {
  buf[0] = '\0';
  game_format_move(g, m, buf, size);
  buf[size - 1] = '\0';
  return buf;
}

/* "White plays e2e4 (0.003 s)", said before the move is made; in a game
** with pieces the move in standard algebraic notation first: "White
** plays Nf3 (g1f3, 0.003 s)".  seconds < 0: no time. */
static void say_move(Play *p, int who, const Move *m, double seconds);

/* A player's name in his colour. */
static void put_player(Play *p, int who) {
  fprintf(p->out, "%s%s%s", boardview_player_colour(p->g, &p->style, who),
          p->g->player_names[who], boardview_colour_end(&p->style));
}

/* The legal moves into p->legal; their number, 0 when the game is over
** (the end conditions hold, or the mover has no move). */
static int legal_moves(Play *p) {
  Outcome o;
  if (game_ended(p->g, &o)) return 0;
  return game_generate(p->g, p->legal);
}

static void say_move(Play *p, int who, const Move *m, double seconds) {
  char buf[256], san[64];
  put_player(p, who);
  move_name(p->g, m, buf, sizeof buf);
  if (p->pieces && fen_san(p->g, p->pieces, m, san, sizeof san) == 0) {
    fprintf(p->out, " plays %s (%s", san, buf);
    if (seconds >= 0) fprintf(p->out, ", %.3f s", seconds);
    fputs(")\n", p->out);
  } else if (seconds >= 0) {
    fprintf(p->out, " plays %s (%.3f s)\n", buf, seconds);
  } else {
    fprintf(p->out, " plays %s\n", buf);
  }
}

static void list_moves(Play *p, int n) {
  char buf[256];
  fputs("legal moves: ", p->out);
  for (int i = 0; i < n && i < MOVES_LISTED; i++)
    fprintf(p->out, "%s%s", i ? ", " : "", move_name(p->g, &p->legal[i], buf, sizeof buf));
  if (n > MOVES_LISTED) fprintf(p->out, ", ... (%d in all)", n);
  fputc('\n', p->out);
}

static int out_of_memory(void) {
  fputs("gsolve: error: out of memory\n", stderr);
  return EXIT_LIMIT;
}

/* ---- the computer's search ----------------------------------------- */

/* The engine's solver's progress, on the computer's progress line. */
static void engine_progress(void *arg, const char *how, uint64_t nodes, double done) {
  progress_note(arg, "thinking", how, nodes, "positions", done);
}

/* The engine's own solver on the current position (an engine that
** knows distances too: Connect Four, matchsticks): every move's exact
** value into p->search.result, its table kept from move to move. */
static int solve_by_engine(Play *p) {
  Search *s = &p->search;
  SolveResult *res = &s->result;
  Game *g = p->g;
  if (search_root_begin(s) != EXIT_OK || res->terminal) return s->status;
  if (p->engine_moves == NULL
      && (p->engine_moves = calloc(GAME_MAX_MOVES, sizeof *p->engine_moves)) == NULL)
    return out_of_memory();
  EngineSolveOptions eo = { .table_mib = p->tt_mib ? p->tt_mib : 64, .threads = 1,
                            .all_moves = 1, .keep_table = 1, .err = stderr };
  EngineAnswer a = { .moves = p->engine_moves };
  if (p->show_progress) {
    eo.progress = engine_progress;
    eo.progress_arg = &p->progress;
  }
  int st = g->vt->solve(g, &eo, &a);
  if (st != EXIT_OK) return st;
  s->nodes = a.nodes;
  for (int i = 0; i < res->nmoves && i < a.nmoves; i++) {
    res->values[i] = value_make(a.moves[i].margin, a.moves[i].plies, res->mover);
    res->exact[i] = 1;
  }
  search_root_finish(s);
  return EXIT_OK;
}

/* Retrograde analysis, for games with cycles: every position reachable
** from the current one is solved the first time, then looked up. */
static int solve_retro(Play *p) {
  int ply = p->base_ply + p->nplayed;
  int st;
  if (p->retro_ready) {
    /* A position from before the solve (after an undo) is not in it:
    ** then solve again from here. */
    p->retro.err = NULL;
    if (retro_answer(&p->retro, &p->search) == EXIT_OK) return EXIT_OK;
    retro_free(&p->retro);
    p->retro_ready = 0;
    search_free(&p->search);
    search_init(&p->search, p->g, ply, stderr);
  }
  retro_init(&p->retro, p->g, ply, stderr);
  if ((st = retro_solve(&p->retro, &p->search)) != EXIT_OK) return st;
  p->retro_ready = 1;
  return EXIT_OK;
}

/* Searches the current position for its mover at the level of play:
** p->search.result gets the values (of every move with all_moves) and
** the optimal moves; p->depth the depth they are for. */
static int think_now(Play *p, int all_moves) {
  Game *g = p->g;
  int ply = p->base_ply + p->nplayed, st;
  AbOptions ab;
  unsigned exact = ENGINE_SOLVES | ENGINE_DISTANCES;

  search_free(&p->search);
  search_init(&p->search, g, ply, stderr);
  if (p->show_progress) p->search.progress = &p->progress;
  p->depth = 0;
  p->score_only = 0;
  if (p->retro_ready) return solve_retro(p);
  if (p->o->level == PLAY_PERFECT && g->vt->solve && (g->vt->features & exact) == exact)
    return solve_by_engine(p);
  if (p->tt == NULL && p->tt_mib > 0 && (p->tt = tt_new(p->tt_mib)) == NULL)
    return out_of_memory();
  alphabeta_options(&ab);
  ab.all_moves = all_moves;
  ab.depth = p->o->level;
  ab.score_only = p->score_only = g->score_only;
  /* Quietly: a line that repeats a position (a game with cycles) stops
  ** the search, and retrograde analysis takes over. */
  p->search.err = NULL;
  st = alphabeta_run(&p->search, p->tt, &ab);
  p->depth = ab.depth;
  if (st == EXIT_OK) return EXIT_OK;
  if (st != EXIT_LIMIT) {
    fprintf(stderr, "gsolve: error: the computer's search failed\n");
    return st;
  }
  fputs("(this game has cycles, which the search cannot follow: the "
        "computer solves it by retrograde analysis)\n", p->out);
  search_free(&p->search);
  search_init(&p->search, g, ply, stderr);
  p->depth = 0;
  return solve_retro(p);
}

/* think_now with the progress display on a terminal: an exact solve of
** an early position can take tens of seconds. */
static int think(Play *p, int all_moves) {
  if (p->show_progress) progress_start(&p->progress, stderr);
  int st = think_now(p, all_moves);
  progress_end(&p->progress);
  return st;
}

/* A move's value in words, for the player to move: "win in 3",
** "loss in 4", "draw in 9", "win by 2 in 5" ("win by 2" when values
** are scores only); beyond the depth searched, the eval's score: "+2". */
static const char *value_words(Value v, int depth, int score_only, char *buf, size_t size) {
  int64_t score, plies;
  int proven;
  alphabeta_decode(v, depth, &score, &plies, &proven);
  if (proven && score_only && (score > 1 || score < -1))
    snprintf(buf, size, "%s by %" PRId64, value_verdict(score), score > 0 ? score : -score);
  else if (proven && score_only)
    snprintf(buf, size, "%s", value_verdict(score));
  else if (!proven && score == 0)
    snprintf(buf, size, "0");
  else if (!proven)
    snprintf(buf, size, "%+" PRId64, score);
  else if (plies >= RETRO_ENDLESS)
    snprintf(buf, size, "draw (endless)");
  else if (score > 1 || score < -1)
    snprintf(buf, size, "%s by %" PRId64 " in %" PRId64, value_verdict(score),
             score > 0 ? score : -score, plies);
  else
    snprintf(buf, size, "%s in %" PRId64, value_verdict(score), plies);
  return buf;
}

/* Before the first evaluation of the game: whose view its values are
** from and what they mean, once. */
static void explain_evals(Play *p, int mover, int expected) {
  if (p->explained) return;
  p->explained = 1;
  fputs("How to read an evaluation: each legal move, valued for the player to move (", p->out);
  put_player(p, mover);
  fputs(" now)\n", p->out);
  if (expected) {
    fputs("  +1.2500  his expected score if he plays it: his payoff minus the others',\n"
          "           averaged over chance, with best play from all; higher is better\n", p->out);
  } else {
    fputs("  win in N, loss in N, draw in N   proven: the game ends N plies (moves) from now\n"
          "  win by S in N                    in games that score: won by S points\n", p->out);
    if (p->depth)
      fprintf(p->out, "  -27, +4                          not proven: the game's eval where the\n"
              "                                   %d-ply search stops; higher is better\n",
              p->depth);
  }
  fputs("  best  the moves the computer chooses among\n", p->out);
}

/* --show-evals: one line per legal move, its value and whether best. */
static void show_evals(Play *p, double seconds) {
  const SolveResult *r = &p->search.result;
  char mb[256], vb[64];
  int width = 4;
  for (int i = 0; i < r->nmoves; i++) {
    int w = (int)strlen(move_name(p->g, &r->moves[i], mb, sizeof mb));
    if (w > width) width = w;
  }
  explain_evals(p, r->mover, 0);
  fputs("evaluation by ", p->out);
  put_player(p, r->mover);
  if (p->depth) fprintf(p->out, " (depth %d", p->depth);
  else fputs(" (exact", p->out);
  fprintf(p->out, ", %.3f s, %" PRIu64 " nodes):\n", seconds, p->search.nodes);
  for (int i = 0; i < r->nmoves; i++) {
    move_name(p->g, &r->moves[i], mb, sizeof mb);
    value_words(r->values[i], p->depth, p->score_only, vb, sizeof vb);
    if (r->best[i]) fprintf(p->out, "  %-*s  %-14s  best\n", width, mb, vb);
    else fprintf(p->out, "  %-*s  %s\n", width, mb, vb);
  }
}

/* Keeps the current position's state at index p->nplayed. */
static int keep_state(Play *p) {
  size_t sb = p->g->state_bytes;
  if (p->nplayed + 1 >= p->cap) {
    int cap = p->cap ? 2 * p->cap : 64;
    unsigned char *b = realloc(p->by_human, (size_t)cap), *s;
    if (b == NULL) return out_of_memory();
    p->by_human = b;
    int32_t *paid = realloc(p->paid, (size_t)cap * GAME_MAX_PLAYERS * sizeof *paid);
    if (paid == NULL) return out_of_memory();
    p->paid = paid;
    if ((s = realloc(p->states, (size_t)cap * (sb ? sb : 1))) == NULL) return out_of_memory();
    p->states = s;
    p->cap = cap;
  }
  memcpy(p->states + (size_t)p->nplayed * sb, game_state(p->g), sb);
  return EXIT_OK;
}

/* Records a move just played (by a person or not) for undo, with what
** it paid. */
static int record(Play *p, int human) {
  int32_t *paid = p->paid + (size_t)p->nplayed * GAME_MAX_PLAYERS;
  if (!game_rewards(p->g, paid)) memset(paid, 0, GAME_MAX_PLAYERS * sizeof *paid);
  p->by_human[p->nplayed++] = (unsigned char)human;
  return keep_state(p);
}

/* In a game with views: the person whose view is drawn; -1 when every
** player sees all, or with --self-play (no person to hide things from). */
static int viewer(const Play *p) {
  if (!p->g->has_views || p->o->self_play) return -1;
  for (int i = 0; i < p->g->nplayers; i++)
    if (p->human[i]) return i;
  return -1;
}

/* What each player was paid in this game so far, into base. */
static void paid_so_far(const Play *p, int64_t *base) {
  for (int i = 0; i < GAME_MAX_PLAYERS; i++) base[i] = 0;
  for (int m = 0; m < p->nplayed; m++)
    for (int i = 0; i < p->g->nplayers; i++) base[i] += p->paid[(size_t)m * GAME_MAX_PLAYERS + i];
}

/* The position as the person may see it, and the points of a game that
** pays per move. */
static void draw_position(Play *p) {
  int v = viewer(p);
  if (v >= 0) p->g->vt->print_view(p->g, v, p->out);
  else boardview_print(p->g, &p->style, p->out);
  if (p->g->has_rewards) {
    int64_t base[GAME_MAX_PLAYERS];
    paid_so_far(p, base);
    fputs("points:", p->out);
    for (int i = 0; i < p->g->nplayers; i++) {
      fputs(i ? ", " : " ", p->out);
      put_player(p, i);
      fprintf(p->out, " %" PRId64, base[i]);
    }
    fputc('\n', p->out);
  }
}

/* Games the computer solves on expected values. */
static int expected_game(const Game *g) {
  return g->has_chance || g->has_rewards || g->nplayers > 2;
}

/* Chance moves: one drawn by the weights, with the game's generator. */
static int chance_move(Play *p, int n) {
  char buf[256];
  int i = random_move(p->g, p->legal, n, &p->rng);
  if (viewer(p) >= 0) fputs("chance moves\n", p->out);   /* what it did shows in the view */
  else fprintf(p->out, "chance: %s\n", move_name(p->g, &p->legal[i], buf, sizeof buf));
  game_apply(p->g, &p->legal[i]);
  return record(p, BY_CHANCE);
}

/* The expected-value solve of the current position into p->exp. */
static int think_expected(Play *p) {
  exp_free(&p->exp);
  exp_init(&p->exp, p->g, p->base_ply + p->nplayed, stderr);
  p->exp.table_mib = p->tt_mib;
  p->exp.all_moves = 1;
  if (p->cyclic == 0) {
    uint64_t seen;
    p->cyclic = cycle_probe(p->g, CYCLE_PROBE_POSITIONS, &seen) == CYCLE_FOUND ? 1 : -1;
  }
  if (p->cyclic < 0)
    return p->g->nplayers > 2 ? expectimax_solve(&p->exp) : star1_solve(&p->exp);
  /* Positions recur (Pig): value iteration over every position reachable
  ** from here, once; later positions are read from it. */
  if (!p->vi_ready) {
    retro_init(&p->vi_retro, p->g, p->base_ply + p->nplayed, stderr);
    vi_init(&p->vi, &p->vi_retro, stderr);
    int st = vi_solve(&p->vi, &p->exp);
    p->vi_ready = st == EXIT_OK;
    return st;
  }
  return vi_answer(&p->vi, &p->exp);
}

/* The computer's move in such a game, with --show-evals the expected
** score of every move. */
static int computer_move_expected(Play *p) {
  char buf[256];
  double t0 = now(), seconds;
  int st = think_expected(p), k, i;
  const ExpResult *r = &p->exp.result;
  if (st != EXIT_OK) return st;
  seconds = now() - t0;
  if (r->nbest == 0) return EXIT_OK;
  if (p->o->show_evals) {
    explain_evals(p, r->mover, 1);
    fputs("evaluation by ", p->out);
    put_player(p, r->mover);
    fprintf(p->out, " (expected, %.3f s, %" PRIu64 " nodes):\n", seconds, p->exp.nodes);
    for (i = 0; i < r->nmoves; i++)
      fprintf(p->out, "  %-12s  %+.4f%s\n", move_name(p->g, &r->moves[i], buf, sizeof buf),
              exp_score(p->g, &r->values[i], r->mover), r->best[i] ? "  best" : "");
  }
  k = (int)(random_next(&p->rng) % (uint64_t)r->nbest);
  for (i = 0; i < r->nmoves; i++)
    if (r->best[i] && k-- == 0) break;
  say_move(p, r->mover, &r->moves[i], seconds);
  game_apply(p->g, &r->moves[i]);
  return record(p, 0);
}

/* ---- large games with chance: information-set MCTS ---------------- */

static int think_ismcts(Play *p, IsmctsResult *r) {
  int64_t base[GAME_MAX_PLAYERS];
  paid_so_far(p, base);
  return play_mcts_think(p->g, p->o->level, random_next(&p->rng), base, r);
}

static int computer_move_ismcts(Play *p) {
  IsmctsResult r;
  double t0 = now();
  int st = think_ismcts(p, &r);
  if (st != EXIT_OK || r.best < 0) return st;
  if (p->o->show_evals) play_mcts_show(p->g, &r, p->out);
  say_move(p, r.mover, &r.moves[r.best], now() - t0);
  game_apply(p->g, &r.moves[r.best]);
  ismcts_result_free(&r);
  return record(p, 0);
}

/* ---- playing from a strategy (hidden information) ------------------ */

#define PLAY_CFR_MAX_ITERATIONS 1000000

/* The exploitability CFR+ runs to at the level of play: 10^-level,
** 10^-6 at level perfect. */
static double level_target(const Play *p) {
  int level = p->o->level == PLAY_PERFECT ? 6 : p->o->level > 12 ? 12 : p->o->level;
  double e = 1;
  while (level-- > 0) e /= 10;
  return e;
}

/* Solves the game from the current position once: play_game calls it at
** the start of play, before any hidden move is made (refused after
** --position moves in a game with views: they may be hidden ones). */
static int solve_by_cfr(Play *p) {
  if (p->cfr_ready) return EXIT_OK;
  if (p->g->has_views && p->base_ply > 0) {
    fputs("gsolve: error: gsolve play on a game with hidden information starts from the "
          "start: the computer would solve it knowing the moves of --position (or give "
          "--play-strategy FILE)\n", stderr);
    return EXIT_USAGE;
  }
  cfrsolve_init(&p->cfr, p->g, stderr);
  p->cfr.target = level_target(p);
  p->cfr.max_iterations = PLAY_CFR_MAX_ITERATIONS;
  fprintf(p->out, "(the computer solves the game with CFR+ to exploitability %g ...)\n",
          p->cfr.target);
  fflush(p->out);
  int st = cfrsolve_run(&p->cfr);
  if (st != EXIT_OK) return st;
  fprintf(p->out, "(%llu iterations, exploitability %.3g, %u information sets)\n",
          (unsigned long long)p->cfr.iterations, p->cfr.exploitability, p->cfr.tree.ninfosets);
  p->cfr_ready = 1;
  return EXIT_OK;
}

/* The strategy's probabilities of the n legal moves of the mover, into
** p->prob: from the file, or from CFR's tree by the mover's information
** state.  1 when the strategy knows the state, 0 when not (uniform). */
static int strategy_for_mover(Play *p, int n) {
  Game *g = p->g;
  int mover = game_to_move(g);
  if (p->o->strategy) return strategy_probs(&p->strategy, g, p->legal, n, p->prob);
  uint64_t key[2];
  gametree_key(g, mover, key, NULL, 0);
  int64_t I = gametree_find(&p->cfr.tree, mover, key);
  for (int i = 0; i < n; i++) p->prob[i] = 1.0 / n;
  if (I < 0) return 0;
  const GtInfoset *set = &p->cfr.tree.infosets[I];
  for (int i = 0; i < n; i++) {
    p->prob[i] = 0;
    for (int a = 0; a < set->nactions; a++)
      if (memcmp(&p->cfr.tree.moves[set->action + (uint32_t)a], &p->legal[i], sizeof p->legal[i]) == 0)
        p->prob[i] = p->cfr.avg[set->action + (uint32_t)a];
  }
  return 1;
}

/* The computer draws its move from the strategy. */
static int computer_move_strategy(Play *p, int n) {
  char buf[256];
  int st, known;
  if (!p->o->strategy && (st = solve_by_cfr(p)) != EXIT_OK) return st;
  if ((known = strategy_for_mover(p, n)) < 0) return out_of_memory();
  int mover = game_to_move(p->g);
  if (!known)
    fputs("(the strategy has no line for the computer's information state: it draws "
          "uniformly)\n", p->out);
  if (p->o->show_evals && viewer(p) < 0) {
    fputs("strategy of ", p->out);
    put_player(p, mover);
    fputs(" in its information state:\n", p->out);
    for (int i = 0; i < n; i++)
      fprintf(p->out, "  %-12s  %.4f\n", move_name(p->g, &p->legal[i], buf, sizeof buf),
              p->prob[i]);
  }
  int i = random_pick(p->prob, n, &p->rng);
  /* A person sees the computer's move only through his view. */
  if (viewer(p) >= 0) {
    put_player(p, mover);
    fputs(" moves\n", p->out);
  } else {
    say_move(p, mover, &p->legal[i], -1);
  }
  game_apply(p->g, &p->legal[i]);
  return record(p, 0);
}

/* Games the computer plays from a strategy. */
static int strategic_game(const Play *p) {
  return p->g->has_views || p->o->strategy != NULL;
}

/* How many times the current position has come up since the last
** chance move: a position that recurs after dice (Pig's scores after two
** turns that rolled a 1) is luck, not a cycle the players keep up. */
static int times_seen(const Play *p) {
  size_t sb = p->g->state_bytes;
  int n = 0;
  for (int i = p->nplayed; i >= 0; i--) {
    n += memcmp(p->states + (size_t)i * sb, p->states + (size_t)p->nplayed * sb, sb) == 0;
    if (i > 0 && p->by_human[i - 1] == BY_CHANCE) break;
  }
  return n;
}

/* The computer chooses among the optimal moves at random and plays. */
static int computer_move(Play *p, int n) {
  const SolveResult *r;
  double t0 = now(), seconds;
  if (strategic_game(p)) return computer_move_strategy(p, n);
  if (p->large > 0) return computer_move_ismcts(p);
  if (expected_game(p->g)) return computer_move_expected(p);
  int st = think(p, p->o->show_evals), k, i;
  if (st != EXIT_OK) return st;
  seconds = now() - t0;
  r = &p->search.result;
  if (r->nbest == 0) return EXIT_OK;
  if (p->o->show_evals) show_evals(p, seconds);
  k = (int)(random_next(&p->rng) % (uint64_t)r->nbest);
  for (i = 0; i < r->nmoves; i++)
    if (r->best[i] && k-- == 0) break;
  say_move(p, r->mover, &r->moves[i], seconds);
  game_apply(p->g, &r->moves[i]);
  return record(p, 0);
}

/* ---- the person's commands ----------------------------------------- */

static void help(Play *p, int n) {
  fputs("Type a move in the game's notation, as listed below, or a command:\n"
        "  undo   take back your last move (and the computer's reply)\n"
        "  hint   the computer's advice for your move\n"
        "  state  the position with the rules' own state variables\n"
        "  help   this text\n"
        "  quit   end the game\n", p->out);
  list_moves(p, n);
}

static void hint(Play *p, int n) {
  const SolveResult *r;
  char buf[256], vb[64];
  int k = 0;
  if (strategic_game(p)) {
    /* The person's own information state: the strategy for it. */
    if (!p->o->strategy && solve_by_cfr(p) != EXIT_OK) return;
    if (strategy_for_mover(p, n) < 0) return;
    fputs("hint: the strategy plays", p->out);
    for (int i = 0; i < n; i++)
      fprintf(p->out, "%s %s %.3f", i ? "," : "", move_name(p->g, &p->legal[i], buf, sizeof buf),
              p->prob[i]);
    fputc('\n', p->out);
    return;
  }
  if (p->large > 0) {
    IsmctsResult ir;
    if (think_ismcts(p, &ir) != EXIT_OK || ir.best < 0) return;
    fprintf(p->out, "hint: %s (ismcts: chance to win %.3f)\n",
            move_name(p->g, &ir.moves[ir.best], buf, sizeof buf), ir.value[ir.best]);
    ismcts_result_free(&ir);
    return;
  }
  if (expected_game(p->g)) {
    if (think_expected(p) != EXIT_OK) return;
    fputs("hint: ", p->out);
    for (int i = 0; i < p->exp.result.nmoves; i++)
      if (p->exp.result.best[i])
        fprintf(p->out, "%s%s", k++ ? ", " : "", move_name(p->g, &p->exp.result.moves[i], buf, sizeof buf));
    fprintf(p->out, " (expected %+.4f)\n", exp_score(p->g, &p->exp.result.value, p->exp.result.mover));
    return;
  }
  if (think(p, 0) != EXIT_OK) return;
  r = &p->search.result;
  fputs("hint: ", p->out);
  for (int i = 0; i < r->nmoves; i++)
    if (r->best[i])
      fprintf(p->out, "%s%s", k++ ? ", " : "", move_name(p->g, &r->moves[i], buf, sizeof buf));
  fprintf(p->out, " (%s)\n", value_words(r->value, p->depth, p->score_only, vb, sizeof vb));
}

/* Takes back moves up to and including the person's last one. */
static void undo(Play *p) {
  int last = p->nplayed - 1;
  while (last >= 0 && p->by_human[last] != BY_HUMAN) last--;
  if (last < 0) {
    fputs("nothing to undo\n", p->out);
    return;
  }
  while (p->nplayed > last) {
    game_undo(p->g);
    p->nplayed--;
  }
  fputs("move taken back\n", p->out);
}

/* Lower case, blanks dropped: the form a near miss is compared in. */
static void squeeze(const char *s, char *out, size_t size) {
  size_t n = 0;
  for (; *s != '\0' && n + 1 < size; s++)
    if (*s != ' ' && *s != '\t') out[n++] = (char)(*s >= 'A' && *s <= 'Z' ? *s - 'A' + 'a' : *s);
  out[n] = '\0';
}

/* What was typed is no legal move: say so, suggest the move it nearly
** spells (another case, other blanks), and list the legal ones. */
static void not_a_move(Play *p, const char *text, int n) {
  char want[LINE_MAX_LEN], have[LINE_MAX_LEN], buf[256];
  squeeze(text, want, sizeof want);
  fprintf(p->out, "'%s' is not a legal move here", text);
  for (int i = 0; i < n; i++) {
    squeeze(move_name(p->g, &p->legal[i], buf, sizeof buf), have, sizeof have);
    if (strcmp(want, have) == 0) {
      fprintf(p->out, "; did you mean '%s'?", buf);
      break;
    }
  }
  fputc('\n', p->out);
  list_moves(p, n);
}

/* One more line that was no move nor command: past UNUSABLE_MAX in a row
** (`yes | gsolve play`), play stops with an error. */
static int unusable(Play *p) {
  if (++p->unusable < UNUSABLE_MAX) return 1;
  diag_clear_transient();
  fprintf(stderr, "gsolve: error: %d input lines in a row were no move and no command; "
          "play stops\n", UNUSABLE_MAX);
  return -EXIT_USAGE;
}

static int is_command(const char *line, const char *a, const char *b) {
  return strcmp(line, a) == 0 || strcmp(line, b) == 0;
}

/* One line from the person.  Returns 1 to go on, 0 to stop (quit or end
** of input), or -status on an error. */
static int person_turn(Play *p, int n, int *moved) {
  char line[LINE_MAX_LEN];
  const char *text = line;
  int st;
  *moved = 0;
  put_player(p, game_to_move(p->g));
  fputs(" to move> ", p->out);
  fflush(p->out);
  st = play_read_line(p->in, p->out, p->echo, line, sizeof line);
  if (st < 0) return st;
  if (st == PLAY_READ_EOF) {
    fputc('\n', p->out);
    return 0;
  }
  if (st == PLAY_READ_REFUSED) return unusable(p);
  while (*text == ' ' || *text == '\t') text++;
  if (*text == '\0') return unusable(p);
  st = position_play(p->g, text, &p->pos, NULL);
  if (st == EXIT_OK && p->pos.n == 1) {
    if (p->pieces) {
      /* The move in standard algebraic notation, from the position before it. */
      char buf[256];
      for (int i = 0; i < n; i++)
        if (!strcmp(move_name(p->g, &p->legal[i], buf, sizeof buf), p->pos.moves[0])) {
          game_undo(p->g);
          say_move(p, game_to_move(p->g), &p->legal[i], -1);
          game_apply(p->g, &p->legal[i]);
          break;
        }
    }
    position_free(&p->pos);
    if ((st = record(p, BY_HUMAN)) != EXIT_OK) return -st;
    *moved = 1;
    p->unusable = 0;
    return 1;
  }
  for (int i = 0; i < p->pos.n; i++) game_undo(p->g);
  if (st == EXIT_LIMIT) {
    position_free(&p->pos);
    return -out_of_memory();
  }
  if (st == EXIT_OK) {
    fputs("one move at a time, please\n", p->out);
  } else if (is_command(text, "quit", "q") || is_command(text, "exit", "resign")) {
    position_free(&p->pos);
    return 0;
  } else if (is_command(text, "help", "?")) {
    help(p, n);
  } else if (is_command(text, "hint", "h")) {
    hint(p, n);
  } else if (is_command(text, "state", "s")) {
    /* The rules' variables, hidden ones included: not on a game with views. */
    if (p->g->has_views) fprintf(p->out, "the state is hidden in part in this game: its view is shown\n");
    else game_print(p->g, p->out);
  } else if (is_command(text, "undo", "u")) {
    undo(p);
    *moved = 1;   /* the position changed: draw it again */
  } else {
    not_a_move(p, text, n);
    position_free(&p->pos);
    return unusable(p);
  }
  p->unusable = 0;
  position_free(&p->pos);
  return 1;
}

/* ---- the game ------------------------------------------------------ */

/* The end: who won (the payoffs' margin) and, in games with scores,
** the final score. */
static void announce_result(Play *p) {
  Game *g = p->g;
  Outcome o;
  int plain = 1, winner = -1;
  if (!game_ended(g, &o)) game_no_moves(g, &o);
  if (viewer(p) >= 0) {
    fputs("the whole position, revealed:\n", p->out);
    boardview_print(g, &p->style, p->out);
  }
  /* Payoffs are the outcome's plus what the moves paid. */
  for (int m = 0; m < p->nplayed; m++)
    for (int i = 0; i < g->nplayers; i++) o.payoff[i] += p->paid[(size_t)m * GAME_MAX_PLAYERS + i];
  if (g->has_rewards) plain = 0;
  for (int i = 0; i < g->nplayers; i++) {
    if (o.payoff[i] > 1 || o.payoff[i] < -1) plain = 0;
    if (winner < 0 || o.payoff[i] > o.payoff[winner]) winner = i;
  }
  fputs("game over: ", p->out);
  if (g->nplayers == 1) {
    put_player(p, 0);
    fputs(o.payoff[0] > 0 ? " wins" : o.payoff[0] < 0 ? " loses" : " draws", p->out);
  } else if (g->nplayers == 2 && o.payoff[0] == o.payoff[1]) {
    fputs("a draw", p->out);
  } else {
    put_player(p, winner);
    fputs(" wins", p->out);
  }
  if (winner >= 0 && (g->nplayers > 1 ? o.payoff[0] != o.payoff[1] : o.payoff[0] != 0) && !p->o->self_play)
    fputs(p->human[winner] ? " (you)" : " (the computer)", p->out);
  if (!plain) {
    fputs("; final score", p->out);
    for (int i = 0; i < g->nplayers; i++) {
      fputs(i ? ", " : " ", p->out);
      put_player(p, i);
      fprintf(p->out, " %" PRId32, o.payoff[i]);
    }
  }
  fprintf(p->out, " (%d moves)\n", p->base_ply + p->nplayed);
}

static void introduce(Play *p, int n) {
  char buf[256];
  Game *g = p->g;
  fprintf(p->out, "%s\n", p->title);
  for (int i = 0; i < g->nplayers; i++) {
    fputs(i ? ", " : "", p->out);
    put_player(p, i);
    fputs(p->human[i] ? ": you" : ": the computer", p->out);
  }
  if (p->o->strategy) fprintf(p->out, "; the computer plays the strategy in %s", p->o->strategy);
  else if (strategic_game(p) && p->o->level == PLAY_PERFECT)
    fprintf(p->out, "; level perfect (a CFR+ strategy to exploitability %g)", level_target(p));
  else if (strategic_game(p))
    fprintf(p->out, "; level %d (a CFR+ strategy to exploitability %g)", p->o->level,
            level_target(p));
  else if (p->large > 0)
    fprintf(p->out, "; level %d (information-set MCTS, %" PRIu64 " iterations a move)",
            play_mcts_level(p->o->level), ismcts_level_iterations(play_mcts_level(p->o->level)));
  else if (p->o->level == PLAY_PERFECT) fputs("; level perfect (exact solve)", p->out);
  else fprintf(p->out, "; level %d (searches %d plies)", p->o->level, p->o->level);
  fprintf(p->out, "; seed %" PRIu64 "\n", p->seed);
  if (!p->o->self_play && n > 0)
    fprintf(p->out, "Type a move such as '%s', or help, hint, undo, quit.\n",
            move_name(g, &p->legal[0], buf, sizeof buf));
}

/* The game loop: draw, then the computer or the person moves. */
static int play_game(void *arg) {
  Play *p = arg;
  int draw = 1, st;
  if ((st = keep_state(p)) != EXIT_OK) return st;
  /* Chance or payoffs on more positions than the probe walks: too large
  ** to solve on expected values; information-set MCTS plays. */
  if (expected_game(p->g) && !strategic_game(p)) {
    uint64_t seen;
    int c = cycle_probe(p->g, CYCLE_PROBE_POSITIONS, &seen);
    p->cyclic = c == CYCLE_FOUND ? 1 : c == CYCLE_NONE ? -1 : 0;
    p->large = c == CYCLE_UNKNOWN;
  }
  introduce(p, legal_moves(p));
  /* The computer's strategy comes from the whole game, solved before a
  ** move is made: later, the position would give away what it hides. */
  if (strategic_game(p) && !p->o->strategy && legal_moves(p) > 0
      && (st = solve_by_cfr(p)) != EXIT_OK)
    return st;
  for (;;) {
    int n = legal_moves(p), mover, moved;
    if (draw) draw_position(p);
    draw = 0;
    if (n == 0) {
      announce_result(p);
      return EXIT_OK;
    }
    if (times_seen(p) >= REPEATS_STOP) {
      /* A game with cycles may go round for ever: stop. */
      fprintf(p->out, "game over: the same position has come up %d times (this game "
              "goes round in cycles; the solvers count that as a draw)\n", REPEATS_STOP);
      return EXIT_OK;
    }
    mover = game_to_move(p->g);
    if (mover == GAME_CHANCE) {
      if ((st = chance_move(p, n)) != EXIT_OK) return st;
      draw = 1;
      continue;
    }
    if (!p->human[mover]) {
      if ((st = computer_move(p, n)) != EXIT_OK) return st;
      draw = 1;
      continue;
    }
    st = person_turn(p, n, &moved);
    if (st <= 0) return -st;
    draw = moved;
  }
}

int play_run(Game *g, int base_ply, const char *title, size_t tt_mib,
             const PlayOptions *o, const FenBoard *pieces, FILE *in, FILE *out) {
  Play *p;
  int st = EXIT_OK;
  if ((p = calloc(1, sizeof *p)) == NULL) return out_of_memory();
  p->g = g;
  p->pieces = g->nplayers == 2 ? pieces : NULL;
  p->o = o;
  p->in = in;
  p->out = out;
  p->title = title;
  p->base_ply = base_ply;
  p->tt_mib = tt_mib;
  p->echo = !isatty(fileno(in));
  p->show_progress = isatty(fileno(stderr));
  boardview_style_for(out, o->ascii, &p->style);
  p->style.hide_to_move = 1;
  /* A person reads the board; the rules' other variables ("filled = 3")
  ** are shown by the `state` command.  Columns that moves name (Connect
  ** Four's 1..7) are labelled as the moves are typed. */
  p->style.board_only = 1;
  boardview_label_columns_by_moves(g, &p->style);
  p->style.letter_case = p->pieces != NULL;
  /* Without --seed, one from the clock and the process, kept short: it
  ** is shown at the start, so that --seed can replay the game. */
  if (o->seed_set) {
    p->seed = o->seed;
  } else {
    uint64_t s = (uint64_t)time(NULL) * 1000003u ^ (uint64_t)getpid();
    p->seed = random_next(&s) % 1000000u;
  }
  p->rng = p->seed;
  if (o->strategy && (st = strategy_read(&p->strategy, o->strategy, g, stderr)) != EXIT_OK) {
    strategy_free(&p->strategy);
    free(p);
    return st;
  }
  /* The person plays the first player, or the second with --first
  ** computer; the computer all the others. */
  for (int i = 0; i < g->nplayers; i++)
    p->human[i] = !o->self_play && (g->nplayers == 1 ? !o->computer_first
                                    : i == (o->computer_first ? 1 : 0));
  /* A rule failing at run time lands here; what play made is freed. */
  if (game_call_trapped(g, play_game, p, &st)) st = g->error_status;
  fflush(out);
  search_free(&p->search);
  exp_free(&p->exp);
  vi_free(&p->vi);
  retro_free(&p->vi_retro);
  position_free(&p->pos);
  retro_free(&p->retro);
  cfrsolve_free(&p->cfr);
  strategy_free(&p->strategy);
  tt_free(p->tt);
  free(p->engine_moves);
  free(p->by_human);
  free(p->paid);
  free(p->states);
  free(p);
  return st;
}
