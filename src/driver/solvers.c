/*
** solvers.c -- the solver registry (solvers.h): the table of solvers,
** the choice among them, and each row's run function, which sets up the
** solver's own module (minimax.c, alphabeta.c, retro.c, db.c,
** expectimax.c, valueiter.c, cfrsolve.c, or the engine's solver through the game
** interface).
*/
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "retro/cycle.h"
#include "retro/db.h"
#include "retro/retro_compact.h"
#include "mcts/ismcts.h"
#include "solve/minimax.h"
#include "driver/hooks.h"
#include "util/diag.h"
#include "util/file.h"
#include "cfr/strategy.h"
#include "cfr/lp.h"
#include "util/status.h"

static int run_alphabeta(SolveJob *j);
static int run_minimax(SolveJob *j);
static int run_retro(SolveJob *j);
static int run_db(SolveJob *j);
static int run_expectimax(SolveJob *j);
static int run_engine(SolveJob *j);
static int run_valueiter(SolveJob *j);
static int run_cfr(SolveJob *j);
static int run_ismcts(SolveJob *j);
static int run_matrix(SolveJob *j);
static int run_lp(SolveJob *j);
static int again_retro(SolveJob *j);
static int again_valueiter(SolveJob *j);
static int again_engine(SolveJob *j);
static int pv_sampled(SolveJob *j, Pv *pv);
static int prepare_alphabeta(SolveJob *j);
static int prepare_engine(SolveJob *j);
static const char *engine_name(const SolveJob *j);
static void engine_options(SolveJob *j, EngineSolveOptions *eo);

#define NEEDS_ALL (NEEDS_PLAYERS | NEEDS_CHANCE | NEEDS_PAYOFFS | NEEDS_HISTORY)

/* The rows' kinds of result, and the options every exact search takes. */
#define EXACT GIVES(RESULT_EXACT)
#define EXPECTED GIVES(RESULT_EXPECTED)
#define SEARCH (TAKES_ALL_MOVES | TAKES_PV)

/* In the order auto prefers them among those that fit (solver_choose).
** A row: name, the game properties it accepts, those it requires, its
** summary, its run, approximate; then by name what it gives and takes,
** whether it stores positions, and its hooks. */
const SolverInfo solver_table[] = {
  { "alphabeta", NEEDS_CHANCE | NEEDS_PAYOFFS | NEEDS_HISTORY, 0,
    "negamax alpha-beta with a transposition table (Star1 with chance)", run_alphabeta, 0,
    .gives = EXACT | EXPECTED, .stats = solver_stats_alphabeta, .prepare = prepare_alphabeta,
    .takes = SEARCH | TAKES_DEPTH | TAKES_SEARCH_MODES | TAKES_TEST_SET },
  { "minimax", NEEDS_HISTORY, 0, "plain minimax, the reference", run_minimax, 0,
    .gives = EXACT, .takes = SEARCH | TAKES_TEST_SET },
  { "retro", NEEDS_ALL, 0,
    "retrograde analysis of every reachable position (cycles, --db FILE)", run_retro, 0,
    .gives = EXACT | EXPECTED, .takes = SEARCH | TAKES_DB | TAKES_GRUNDY | TAKES_COMPACT,
    .stores = 1, .again = again_retro, .stats = solver_stats_retro },
  { "expectimax", NEEDS_PLAYERS | NEEDS_CHANCE | NEEDS_PAYOFFS | NEEDS_HISTORY, 0,
    "expected values: chance, per-move payoffs, max^n for n players", run_expectimax, 0,
    .gives = EXPECTED, .takes = SEARCH, .stats = solver_stats_expected },
  { "value-iteration", NEEDS_PLAYERS | NEEDS_CHANCE | NEEDS_PAYOFFS, 0,
    "expected values of games whose positions repeat (Pig): value iteration", run_valueiter, 0,
    .gives = EXPECTED, .takes = SEARCH | TAKES_SAMPLED_PV | TAKES_EPSILON, .stores = 1,
    .again = again_valueiter, .pv = pv_sampled, .stats = solver_stats_valueiter,
    .json = solver_json_valueiter },
  { "native", NEEDS_ALL | NEEDS_ENGINE, NEEDS_ENGINE,
    "the native engine's own solver (Connect Four, Nim, matchsticks)", run_engine, 0,
    .gives = EXACT, .takes = SEARCH | TAKES_ENGINE | TAKES_TEST_SET, .again = again_engine,
    .prepare = prepare_engine, .stats = solver_stats_engine, .report_name = engine_name },
  { "db", NEEDS_HISTORY | NEEDS_DB, NEEDS_DB, "answers from a database (--db FILE)", run_db, 0,
    .gives = EXACT, .takes = SEARCH | TAKES_DB | TAKES_GRUNDY, .stores = 1, .again = again_retro },
  { "cfr", NEEDS_ALL | NEEDS_VIEWS, 0,
    "counterfactual regret minimisation (CFR+ or vanilla): hidden information", run_cfr, 0,
    .gives = GIVES(RESULT_STRATEGY), .takes = TAKES_ITERATIONS | TAKES_CFR | TAKES_STRATEGY,
    .stats = solver_stats_cfr, .report_name = solver_name_cfr },
  { "matrix", NEEDS_ALL | NEEDS_VIEWS, 0,
    "backward induction with a matrix game per simultaneous round (two players, zero-sum)",
    run_matrix, 1, .gives = GIVES(RESULT_STRATEGY), .takes = TAKES_STRATEGY,
    .stats = solver_stats_cfr, .report_name = solver_name_cfr },
  { "lp", NEEDS_CHANCE | NEEDS_PAYOFFS | NEEDS_HISTORY | NEEDS_VIEWS, 0,
    "sequence-form linear program (GLPK): exact equilibria of two-player zero-sum games",
    run_lp, 0, .gives = GIVES(RESULT_STRATEGY), .takes = TAKES_STRATEGY | TAKES_BEST_RESPONSE,
    .stats = solver_stats_lp, .report_name = solver_name_cfr },
  { "ismcts", NEEDS_ALL, 0,
    "information-set Monte Carlo tree search: a move for games too large to solve",
    run_ismcts, 1, .gives = EXPECTED, .takes = SEARCH | TAKES_ITERATIONS | TAKES_SEED,
    .stats = solver_stats_expected },
  { .name = NULL }
};

/* Another name --solver takes for a solver of the table. */
static const char *const solver_alias[][2] = { { "maxn", "expectimax" } };

const SolverInfo *solver_find(const char *name) {
  for (size_t i = 0; i < sizeof solver_alias / sizeof *solver_alias; i++)
    if (strcmp(name, solver_alias[i][0]) == 0) name = solver_alias[i][1];
  for (const SolverInfo *s = solver_table; s->name; s++)
    if (strcmp(s->name, name) == 0) return s;
  return NULL;
}

const char *solver_names(void) {
  static char names[256];
  size_t n = 0, count = 0;
  if (names[0] != '\0') return names;
  for (const SolverInfo *s = solver_table; s->name; s++) count++;
  n += (size_t)snprintf(names, sizeof names, "auto");
  for (size_t k = 0; k < count && n < sizeof names; k++) {
    const char *alias = "";
    for (size_t i = 0; i < sizeof solver_alias / sizeof *solver_alias; i++)
      if (strcmp(solver_table[k].name, solver_alias[i][1]) == 0) alias = solver_alias[i][0];
    n += (size_t)snprintf(names + n, sizeof names - n, "%s%s%s%s%s", k + 1 == count ? " or " : ", ",
                          solver_table[k].name, *alias ? " (" : "", alias, *alias ? ")" : "");
  }
  return names;
}

unsigned solver_needs(Game *g, const SolveOptions *o) {
  unsigned n = 0;
  if (g->nplayers > 2) n |= NEEDS_PLAYERS;
  if (g->has_chance) n |= NEEDS_CHANCE;
  if (g->has_rewards) n |= NEEDS_PAYOFFS;
  if (g->has_history) n |= NEEDS_HISTORY;
  /* One player and no chance: the line of play is the player's own moves,
  ** which he recalls, so each information state is a single position and
  ** the views cannot change the value: every solver takes the game. */
  if (g->has_views && !(g->nplayers == 1 && !g->has_chance)) n |= NEEDS_VIEWS;
  if (g->vt->solve && (g->vt->features & ENGINE_SOLVES)) n |= NEEDS_ENGINE;
  if (o->db) n |= NEEDS_DB;
  return n;
}

void solve_job_init(SolveJob *j, Game *g, int base_ply, const SolveOptions *o, FILE *err) {
  memset(j, 0, sizeof *j);
  j->g = g;
  j->base_ply = base_ply;
  j->o = o;
  j->err = err;
  search_init(&j->search, g, base_ply, err);
  exp_init(&j->exp, g, base_ply, err);
  retro_init(&j->retro, g, base_ply, err);
  vi_init(&j->vi, &j->retro, err);
  cfrsolve_init(&j->cfr, g, err);
}

void solve_job_free(SolveJob *j) {
  search_free(&j->search);
  exp_free(&j->exp);
  vi_free(&j->vi);
  retro_free(&j->retro);
  cfrsolve_free(&j->cfr);
  tt_free(j->tt);
  j->tt = NULL;
  free(j->engine_moves);
  j->engine_moves = NULL;
}

static int usage(SolveJob *j, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int usage(SolveJob *j, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  diag_vfail(j->err, EXIT_USAGE, fmt, ap);
  va_end(ap);
  return EXIT_USAGE;
}

/* The k names after `head` in buf: "a, b or c". */
static const char *join_names(const char *head, const char *const *names, int k, char *buf,
                              size_t n) {
  size_t len = (size_t)snprintf(buf, n, "%s", head);
  for (int i = 0; i < k && len < n; i++)
    len += (size_t)snprintf(buf + len, n - len, "%s%s", names[i],
                            i + 2 < k ? ", " : i + 2 == k ? " or " : "");
  return buf;
}

/* "use --solver a, b or c": the solvers that accept what `needs` asks. */
static void accepting(unsigned needs, char *buf, size_t n) {
  const char *names[16];
  int k = 0;
  for (const SolverInfo *s = solver_table; s->name && k < 16; s++) {
    /* CFR takes any finite game, but is the answer to hidden information
    ** only: on others it finds slowly what the other solvers find. */
    if ((s->accepts & NEEDS_VIEWS) && !(needs & NEEDS_VIEWS)) continue;
    if (s->approximate) continue;    /* a move, not a value: never the alternative */
    if ((s->accepts & needs) == needs && !(s->requires & ~needs)) names[k++] = s->name;
  }
  join_names("use --solver ", names, k, buf, n);
}

/* The message for a solver that does not take the game. */
static int refuse(SolveJob *j, const SolverInfo *s, unsigned needs) {
  char alt[160];
  unsigned missing = needs & ~s->accepts & ~(NEEDS_ENGINE | NEEDS_DB);
  if (s->requires & ~needs) {
    if (s->requires & NEEDS_DB)
      return usage(j, "%s", "--solver db needs --db FILE");
    return usage(j, "--solver %s needs a native engine with a solver of its own "
                 "(Connect Four, Nim, matchsticks: --engine native)", s->name);
  }
  accepting(missing, alt, sizeof alt);
  if (missing & NEEDS_PLAYERS)
    return usage(j, "the %s solver needs one or two players (this game has %d): %s", s->name,
                 j->g->nplayers, alt);
  return usage(j, "the %s solver does not handle %s: %s", s->name,
               missing & NEEDS_VIEWS ? "hidden information (views)"
               : missing & NEEDS_CHANCE ? "chance moves" : missing & NEEDS_PAYOFFS ? "per-move payoffs"
               : "a repetition rule", alt);
}

/* --db given to a solver that neither reads nor writes it. */
static int refuse_db(SolveJob *j, const SolverInfo *s) {
  return usage(j, "--db FILE is read by the db solver and written by retro, not by %s", s->name);
}

/* The cycle probe (cycle.h) from the root: its verdict; j->probed gets
** the positions it walked. */
static int probe_cycles(SolveJob *j) {
  return cycle_probe(j->g, CYCLE_PROBE_POSITIONS, &j->probed);
}

int solver_choose(SolveJob *j) {
  const SolveOptions *o = j->o;
  unsigned needs = solver_needs(j->g, o);
  unsigned asks = needs & ~(NEEDS_ENGINE | NEEDS_DB);
  const SolverInfo *s;
  if (o->solver && strcmp(o->solver, "auto") != 0) {
    if ((s = solver_find(o->solver)) == NULL)
      return usage(j, "unknown solver '%s' (%s)", o->solver, solver_names());
    /* retro with --db builds the database; the others read it. */
    if (!(s->takes & TAKES_DB) && o->db) return refuse_db(j, s);
    if ((s->accepts & asks) != asks || (s->requires & ~needs)) return refuse(j, s, asks);
    j->solver = s;
    snprintf(j->why, sizeof j->why, "named by --solver");
    return EXIT_OK;
  }
  if (o->wants) {
    /* The first row giving what is wanted that takes the game. */
    for (s = solver_table; s->name; s++)
      if ((s->gives & o->wants) && !s->approximate && (s->accepts & asks) == asks
          && !(s->requires & ~needs))
        break;
    if (s->name == NULL) return usage(j, "%s", "no solver gives that for this game");
    snprintf(j->why, sizeof j->why, "the first solver that gives what the caller wants");
  } else if ((needs & NEEDS_DB) && (asks & (NEEDS_PLAYERS | NEEDS_CHANCE | NEEDS_PAYOFFS))) {
    return usage(j, "%s", "--db takes the retrograde solver, which does not handle chance, "
                 "per-move payoffs or more than two players");
  } else if (needs & NEEDS_DB) {
    s = solver_find("db");
    snprintf(j->why, sizeof j->why, "--db FILE: answered from the database");
  } else if (o->best_response) {
    s = solver_find("lp");
    snprintf(j->why, sizeof j->why, "--best-response FILE: the strategy's best responses, "
             "exact where the game is small");
  } else if ((needs & NEEDS_VIEWS) && !(needs & NEEDS_PLAYERS) && !o->iterations_set
             && o->exploitability <= 0 && !o->cfr_vanilla) {
    /* Two players or one, no CFR option: lp when the tree is small, else
    ** CFR (run_lp decides once the tree is expanded, and says why). */
    s = solver_find("lp");
    snprintf(j->why, sizeof j->why, "hidden information: lp or CFR by the size of the tree");
  } else if (needs & NEEDS_VIEWS) {
    s = solver_find("cfr");
    snprintf(j->why, sizeof j->why, "hidden information (views): counterfactual regret "
             "minimisation on the expanded game tree");
  } else if ((needs & NEEDS_ENGINE) && !o->depth && !o->score_only && !o->no_deepening
             && !(o->distances && !(j->g->vt->features & ENGINE_DISTANCES))) {
    /* (--depth, --score-only and --no-deepening ask for alphabeta.) */
    s = solver_find("native");
    snprintf(j->why, sizeof j->why, "the %s engine solves these positions itself", j->g->engine);
  } else if (!(needs & NEEDS_HISTORY) && !o->depth && !o->score_only && !o->no_deepening
             && (o->repeats || (!o->no_cycle_probe && probe_cycles(j) == CYCLE_FOUND))) {
    /* Positions recur: the searches would go round (chance) or search
    ** transpositions again; the solvers that store every position. */
    int expected = (asks & (NEEDS_PLAYERS | NEEDS_CHANCE | NEEDS_PAYOFFS)) != 0;
    s = solver_find(expected ? "value-iteration" : "retro");
    char found[64];
    if (o->repeats) snprintf(found, sizeof found, "met by a search");
    else snprintf(found, sizeof found, "found by walking %llu positions",
                  (unsigned long long)j->probed);
    snprintf(j->why, sizeof j->why, "positions repeat (a line of play returns to a position, "
             "%s)%s", found,
             expected ? ": value iteration over every reachable position"
                      : ": retrograde analysis of every position, endless play a draw");
  } else if (needs & NEEDS_PLAYERS) {
    s = solver_find("expectimax");
    snprintf(j->why, sizeof j->why, "%d players: max^n", j->g->nplayers);
  } else {
    s = solver_find("alphabeta");
    const char *who = j->g->nplayers == 1 ? "one player" : "two players";
    snprintf(j->why, sizeof j->why, "%s%s", who, asks & (NEEDS_CHANCE | NEEDS_PAYOFFS)
             ? " with chance or payoffs: Star1 alpha-beta on expected values"
             : needs & NEEDS_HISTORY
             ? ": alpha-beta with a transposition table; the repetition rule rules "
               "out retro, whose values would ignore it"
             : ": alpha-beta with a transposition table");
  }
  if ((s->accepts & asks) != asks) return refuse(j, s, asks);
  j->solver = s;
  return EXIT_OK;
}

/* --depth where the solver (NULL: auto) does not search to a horizon,
** or with --db: the rule of the rows, for solver_check_named and
** check_options alike.  1 if refused. */
static int depth_refused(const SolverInfo *s, const SolveOptions *o) {
  return o->depth && (o->db || (s != NULL && !(s->takes & TAKES_DEPTH)));
}

int solver_check_named(const SolveOptions *o, FILE *err) {
  const SolverInfo *s = o->solver && strcmp(o->solver, "auto") != 0 ? solver_find(o->solver) : NULL;
  return depth_refused(s, o) ? diag_fail(err, EXIT_USAGE, "%s", SOLVER_DEPTH_REFUSED) : EXIT_OK;
}

const char *solver_names_taking(unsigned takes, char *buf, size_t size) {
  const char *names[16];
  int k = 0;
  for (const SolverInfo *s = solver_table; s->name && k < 16; s++)
    if ((s->takes & takes) == takes) names[k++] = s->name;
  return join_names("", names, k, buf, size);
}

/* Checks of the options that only some solvers take: each against the
** chosen row's `takes`. */
static int check_options(SolveJob *j) {
  const SolveOptions *o = j->o;
  const SolverInfo *s = j->solver;
  const char *name = s->name;
  unsigned takes = s->takes;
  if (o->engine.weak && !(takes & TAKES_ENGINE))
    return usage(j, "%s", "--weak needs the native Connect Four solver (--engine native)");
  if (o->score_only && !(takes & TAKES_SEARCH_MODES))
    return usage(j, "%s", o->score_only > 0 ? "--score-only is a mode of the alphabeta solver"
                 : "--with-plies is a mode of the alphabeta solver");
  if (o->no_deepening && !(takes & TAKES_SEARCH_MODES))
    return usage(j, "%s", "--no-deepening is a mode of the alphabeta solver");
  if (o->epsilon > 0 && !(takes & TAKES_EPSILON))
    return usage(j, "--epsilon is the stopping rule of the value-iteration solver, not of %s",
                 name);
  if (o->seed_set && !((takes & TAKES_SAMPLED_PV) && o->pv) && !(takes & TAKES_SEED))
    return usage(j, "%s", "--seed goes with gsolve play FILE, --playouts N, or --pv of the "
                 "value-iteration solver");
  if (depth_refused(s, o)) return usage(j, "%s", SOLVER_DEPTH_REFUSED);
  const char *cfr_flag = o->iterations_set && !(takes & TAKES_ITERATIONS) ? "--iterations"
                       : !(takes & TAKES_CFR) && o->exploitability > 0 ? "--exploitability"
                       : !(takes & TAKES_CFR) && o->cfr_vanilla ? "--cfr-variant"
                       : !(takes & TAKES_STRATEGY) && o->strategy ? "--strategy" : NULL;
  if (cfr_flag)
    return usage(j, "%s is an option of the cfr solver (--solver cfr); the %s solver does not "
                 "use it", cfr_flag, name);
  if (o->best_response && !(takes & TAKES_BEST_RESPONSE))
    return usage(j, "--best-response FILE is evaluated by the lp solver (--solver lp), not by %s",
                 name);
  if (o->best_response && o->strategy)
    return usage(j, "%s", "--best-response FILE reads a strategy, --strategy FILE writes the one "
                 "lp finds: one or the other");
  if (o->all_moves && !(takes & TAKES_ALL_MOVES))
    return usage(j, "the %s solver finds a strategy, not each move's value: "
                 "--solve, and --strategy FILE for the strategy", name);
  if (o->pv && !(takes & (TAKES_PV | TAKES_SAMPLED_PV)))
    return usage(j, "%s", "--pv takes games without chance, per-move payoffs or more than two "
                 "players");
  if (o->db && !(takes & TAKES_DB)) return refuse_db(j, s);
  /* They did nothing, silently, elsewhere. */
  if ((o->compact || o->spill) && !(takes & TAKES_COMPACT)) {
    char names[128];
    return usage(j, "%s is an option of the %s solver; the %s solver does not use it",
                 o->compact ? "--compact" : "--spill DIR",
                 solver_names_taking(TAKES_COMPACT, names, sizeof names), name);
  }
  if (o->spill && !o->compact)
    return usage(j, "%s", "--spill DIR keeps the compact form's layers on disk: it goes with "
                 "--compact");
  /* The engine's solver's own settings: only where it runs and takes them. */
  static const struct { unsigned feature; const char *flag; } engine_flags[] = {
    { ENGINE_THREADS, "--threads" }, { ENGINE_TECHNIQUES, "--without" }, { ENGINE_BOOK, "--book" }
  };
  for (int i = 0; i < 3; i++) {
    const EngineSolveOptions *e = &o->engine;
    int given = i == 0 ? e->threads != 0 : i == 1 ? e->without != NULL : e->book != NULL;
    if (!given) continue;
    if (!(takes & TAKES_ENGINE))
      return usage(j, "%s is an option of an engine's own solver (Connect Four's); "
                   "the %s solver does not use it", engine_flags[i].flag, name);
    if (!(j->g->vt->features & engine_flags[i].feature))
      return usage(j, "%s: the %s engine's solver does not take it", engine_flags[i].flag,
                   j->g->engine);
  }
  if (o->root_only && !(takes & TAKES_TEST_SET)) {
    char names[128];
    return usage(j, "--test-set takes the %s solver",
                 solver_names_taking(TAKES_TEST_SET, names, sizeof names));
  }
  return EXIT_OK;
}

int solver_run(SolveJob *j) {
  int st = check_options(j);
  if (st != EXIT_OK) return st;
  if (j->o->progress) {
    progress_start(&j->progress, j->err);
    j->search.progress = &j->progress;
  }
  st = j->solver->run(j);
  progress_end(&j->progress);
  return st;
}

static int run_trapped(void *arg) {
  return solver_run(arg);
}

int solver_solve(SolveJob *j) {
  int st;
  if (j->solver == NULL && (st = solver_choose(j)) != EXIT_OK) return st;
  if (game_call_trapped(j->g, run_trapped, j, &st)) {
    st = j->g->error_status;
    if (retro_distributed) retro_distributed->trapped(st);   /* gsolve-mpi: abort the job */
  }
  return st;
}

const char *solver_report_name(const SolveJob *j) {
  if (j->solver == NULL) return solver_table[0].name;
  return j->solver->report_name ? j->solver->report_name(j) : j->solver->name;
}

/* The engine's solver is reported by the engine's name ("native-connect4"). */
static const char *engine_name(const SolveJob *j) {
  return j->g->engine;
}

/* The stored positions dropped: the next solve stores those from the
** job's root. */
static void forget_stored(SolveJob *j) {
  vi_free(&j->vi);
  retro_free(&j->retro);
  retro_init(&j->retro, j->g, j->base_ply, j->err);
  vi_init(&j->vi, &j->retro, j->err);
  j->stored_ready = 0;
}

int solver_again(SolveJob *j) {
  if (j->solver->again && (j->stored_ready || !j->solver->stores)) {
    /* Quietly: a position not among the stored ones is solved afresh. */
    FILE *err = j->retro.err;
    j->retro.err = NULL;
    int st = j->solver->again(j);
    j->retro.err = err;
    if (st == EXIT_OK || !j->solver->stores) return st;
    /* A position not among them (one from before their root, after an
    ** undo): solved afresh from here. */
    solve_job_reroot(j, j->base_ply);
  }
  if (j->solver->stores) forget_stored(j);
  return solver_run(j);
}

int solver_prepare(SolveJob *j) {
  if (j->prepared || j->solver->prepare == NULL) return EXIT_OK;
  j->prepared = 1;
  return j->solver->prepare(j);
}

/* The engine's solver makes its table and maps its memory. */
static int prepare_engine(SolveJob *j) {
  EngineSolveOptions eo;
  if (!j->g->vt->prepare) return EXIT_OK;
  engine_options(j, &eo);
  return j->g->vt->prepare(j->g, &eo);
}

Retro *solve_job_table(SolveJob *j) {
  return j->kind == RESULT_EXACT && j->solver && j->solver->stores && j->stored_ready
         && j->retro.stored ? &j->retro : NULL;
}

void solver_stats(const SolveJob *j, double seconds, FILE *f) {
  if (j->solver && j->solver->stats) j->solver->stats(j, seconds, f);
}

void solver_json(const SolveJob *j, JsonWriter *w) {
  if (j->solver && j->solver->json) j->solver->json(j, w);
}

SolveAnswer solve_job_answer(const SolveJob *j) {
  SolveAnswer a;
  memset(&a, 0, sizeof a);
  a.kind = j->kind;
  a.solver = solver_report_name(j);
  a.no_plies = j->no_plies;
  a.stores = j->solver != NULL && j->solver->stores;
  a.positions = j->retro.positions;
  a.stored = j->retro.stored;
  switch (j->kind) {
  case RESULT_EXACT:
    a.exact = &j->search.result;
    a.nodes = j->search.nodes;
    if (j->solver && (j->solver->takes & TAKES_DEPTH)) {
      a.depth = j->ab.depth;
      a.depths = j->ab.stats.iterations;
    }
    break;
  case RESULT_EXPECTED:
    a.expected = &j->exp.result;
    a.nodes = j->exp.nodes;
    break;
  case RESULT_STRATEGY:
    a.strategy = &j->cfr;
    a.nodes = j->cfr.tree.nnodes;
    break;
  }
  return a;
}

/* ---- expected values ------------------------------------------------ */

/* The solvers of expected values take no --depth or --db, and no --pv
** but value iteration's (a sampled line). */
static int expected_begin(SolveJob *j) {
  const SolveOptions *o = j->o;
  if (o->depth)
    return usage(j, "%s", "--depth takes deterministic games without per-move payoffs");
  if (o->pv && !(j->solver->takes & TAKES_SAMPLED_PV))
    return usage(j, "%s", "--pv takes games without chance, per-move payoffs or more than two "
                 "players, or --solver value-iteration (a line sampled with --seed)");
  if (o->db)
    return usage(j, "%s", "--db takes the retrograde solver, which does not handle chance, "
                 "per-move payoffs or more than two players");
  j->exp.table_mib = o->tt_mib;
  /* The memo table doubles when full, up to --memory or the default. */
  j->exp.table_max_mib = o->memory_mib ? o->memory_mib : solver_default_memory() >> 20;
  if (j->exp.table_max_mib < o->tt_mib) j->exp.table_max_mib = o->tt_mib;
  j->exp.all_moves = o->all_moves;
  j->kind = RESULT_EXPECTED;
  return EXIT_OK;
}

static int run_expectimax(SolveJob *j) {
  int st = expected_begin(j);
  return st != EXIT_OK ? st : expectimax_solve(&j->exp);
}

/* Value iteration: retro's enumeration (its limits and progress), then
** the sweeps (valueiter.c). */
static int run_valueiter(SolveJob *j) {
  const SolveOptions *o = j->o;
  int st = expected_begin(j);
  if (st != EXIT_OK) return st;
  if (o->max_positions) j->retro.max_positions = o->max_positions;
  j->retro.memory_limit = o->memory_mib ? o->memory_mib << 20 : solver_default_memory();
  j->retro.progress = &j->progress;
  if (o->no_symmetry) j->retro.canonical = NULL;
  j->vi.progress = &j->progress;
  if (o->epsilon > 0) j->vi.epsilon = o->epsilon;
  st = vi_solve(&j->vi, &j->exp);
  j->stored_ready = st == EXIT_OK;
  return st;
}

/* ---- exact values --------------------------------------------------- */

const char *solver_slow_note(const SolveJob *j) {
  if (!(j->solver->takes & TAKES_SEARCH_MODES) || j->g->has_chance || j->g->has_rewards)
    return NULL;
  if (j->g->has_history)
    return "alpha-beta under a repetition rule keys its table by the position and the earlier "
           "positions its subtree met, so a position reached by other lines is often searched "
           "again: slow where positions recur; without the rule, --solver retro solves every "
           "position once (endless play a draw)";
  return NULL;
}

/* Alpha-beta's transposition table, kept by the job (--tt-size; none
** with 0, nor for Star1, whose memo is its own). */
static int prepare_alphabeta(SolveJob *j) {
  const SolveOptions *o = j->o;
  if (o->tt_mib == 0 || j->tt != NULL || j->g->has_chance || j->g->has_rewards) return EXIT_OK;
  if ((j->tt = tt_new(o->tt_mib)) == NULL)
    return file_memory_refused(j->err, "--tt-size", o->tt_mib, "a table");
  /* It halved until it fitted: say so, with what was free before it. */
  if (tt_bytes(j->tt) < (o->tt_mib << 20) && !o->quiet)
    file_memory_shrunk(j->err, o->tt_mib, tt_bytes(j->tt));
  return EXIT_OK;
}

static int run_alphabeta(SolveJob *j) {
  const SolveOptions *o = j->o;
  if (j->g->has_chance || j->g->has_rewards) {
    int st = expected_begin(j);
    return st != EXIT_OK ? st : star1_solve(&j->exp);
  }
  if (o->progress && j->g->has_history)
    diag_plain(j->err, "note", "%s", solver_slow_note(j));
  int st = prepare_alphabeta(j);
  if (st != EXIT_OK) return st;
  alphabeta_options(&j->ab);
  j->ab.all_moves = o->all_moves;
  j->ab.depth = o->depth;
  j->ab.score_only = o->score_only ? o->score_only > 0 : j->g->score_only;
  j->no_plies = j->ab.score_only;
  j->ab.deepen = !o->no_deepening;
  j->ab.symmetry = !o->no_symmetry;
  return alphabeta_run(&j->search, j->tt, &j->ab);
}

static int run_minimax(SolveJob *j) {
  return minimax_solve(&j->search);
}

size_t solver_default_memory(void) {
  long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
  if (pages <= 0 || size <= 0) return 0;
  return (size_t)pages / 4 * 3 * (size_t)size;
}

static int run_retro(SolveJob *j) {
  const SolveOptions *o = j->o;
  Game *g = j->g;
  int vector = g->has_chance || g->has_rewards || g->nplayers > 2;
  if (vector) {
    int st = expected_begin(j);
    if (st != EXIT_OK) return st;
  }
  if (o->max_positions) j->retro.max_positions = o->max_positions;
  /* Expected values take --memory alone (their tables are the retro's). */
  j->retro.memory_limit = o->memory_mib ? o->memory_mib << 20 : vector ? 0 : solver_default_memory();
  j->retro.progress = &j->progress;
  if (o->no_symmetry) j->retro.canonical = NULL;
  j->retro.compact = o->compact;
  j->retro.spill_dir = o->spill;
  if (o->db) {
    j->retro.db_out = o->db;
    j->retro.db_game = g->name;
    j->retro.db_params = j->db_params;
    j->retro.db_hash = j->rules_hash;
  }
  int st = vector ? retro_solve_vector(&j->retro, &j->exp) : retro_solve(&j->retro, &j->search);
  j->stored_ready = st == EXIT_OK;
  if (vector) return st;
  if (st == EXIT_OK && o->db)
    st = db_write(&j->retro, o->db, g->name, j->db_params, j->rules_hash, j->err);
  return st;
}

/* Counterfactual regret minimisation (cfrsolve.c), and --strategy FILE. */
/* Information-set MCTS: the root's moves by the search's estimates; the
** move it would play is the only `best`.  --iterations N is its budget
** (default: play's level 4), --seed S its generator. */
static int run_ismcts(SolveJob *j) {
  const SolveOptions *o = j->o;
  IsmctsOptions io;
  IsmctsResult ir;
  ExpResult *r = &j->exp.result;
  int st = expected_begin(j);
  if (st != EXIT_OK || (st = exp_root_begin(&j->exp)) != EXIT_OK || r->terminal) return st;
  ismcts_defaults(&io);
  if (o->iterations_set) io.iterations = o->iterations;
  if (o->seed_set) io.seed = o->seed;
  if ((st = ismcts_search(j->g, &io, &ir, j->err)) != EXIT_OK) return st;
  r->deterministic = 0;
  for (int i = 0; i < r->nmoves && i < ir.nmoves; i++) {
    for (int p = 0; p < j->g->nplayers; p++) r->values[i].pay[p] = ir.gain[i][p];
    r->values[i].plies = EXP_ENDLESS;
    r->best[i] = i == ir.best;
  }
  r->nbest = ir.best >= 0;
  if (ir.best >= 0) r->value = r->values[ir.best];
  j->exp.nodes = ir.nodes;
  j->exp.path_len = 0;
  ismcts_result_free(&ir);
  return EXIT_OK;
}

static int run_cfr(SolveJob *j) {
  const SolveOptions *o = j->o;
  CfrSolver *s = &j->cfr;
  s->plus = !o->cfr_vanilla;
  if (o->iterations_set) s->max_iterations = o->iterations;
  /* Without either, to the default exploitability. */
  s->target = o->exploitability > 0 ? o->exploitability
            : o->iterations_set ? 0 : CFR_DEFAULT_TARGET;
  s->memory_limit = o->memory_mib ? o->memory_mib << 20 : solver_default_memory();
  s->progress = o->progress ? &j->progress : NULL;
  j->kind = RESULT_STRATEGY;
  int st = cfrsolve_run(s);
  if (st != EXIT_OK || o->strategy == NULL) return st;
  char note[200];
  int params = j->db_params && j->db_params[0];
  snprintf(note, sizeof note, "%s%s%s%s: %s, %llu iterations, exploitability %.6g", j->g->name,
           params ? " (" : "", params ? j->db_params : "", params ? ")" : "", cfrsolve_name(s), (unsigned long long)s->iterations, s->exploitability);
  return strategy_write(o->strategy, j->g, &s->tree, s->avg, note, j->err);
}

/* Simultaneous rounds solved as matrix games (cfr/matrix.h), reported
** as CFR's strategy is. */
static int run_matrix(SolveJob *j) {
  j->cfr.matrix = 1;
  return run_cfr(j);
}

/* The sequence-form linear program (lp.c), or the best responses to a
** strategy file; --strategy FILE as CFR's. */
static int run_lp(SolveJob *j) {
  const SolveOptions *o = j->o;
  CfrSolver *s = &j->cfr;
  s->memory_limit = o->memory_mib ? o->memory_mib << 20 : solver_default_memory();
  s->progress = o->progress ? &j->progress : NULL;
  j->kind = RESULT_STRATEGY;
  if (o->best_response) return lp_best_response(s, o->best_response);
  int st;
  if (o->solver == NULL || strcmp(o->solver, "auto") == 0) {
    s->target = CFR_DEFAULT_TARGET;     /* if the tree is too big for lp */
    st = lp_solve_auto(s, j->why, sizeof j->why);
  } else {
    st = lp_solve(s);
  }
  if (st != EXIT_OK || o->strategy == NULL) return st;
  if (s->lp == NULL) {
    char note[200];
    int params = j->db_params && j->db_params[0];
    snprintf(note, sizeof note, "%s%s%s%s: %s, %llu iterations, exploitability %.6g", j->g->name,
             params ? " (" : "", params ? j->db_params : "", params ? ")" : "", cfrsolve_name(s),
             (unsigned long long)s->iterations, s->exploitability);
    return strategy_write(o->strategy, j->g, &s->tree, s->avg, note, j->err);
  }
  char note[200];
  int params = j->db_params && j->db_params[0];
  snprintf(note, sizeof note, "%s%s%s%s: lp, value %s (%.9g)", j->g->name, params ? " (" : "",
           params ? j->db_params : "", params ? ")" : "",
           s->lp->value_exact ? s->lp->value_exact : "not exact", s->lp->value);
  return strategy_write(o->strategy, j->g, &s->tree, s->avg, note, j->err);
}

static int run_db(SolveJob *j) {
  int st = db_read(&j->retro, j->o->db, j->g->name, j->db_params, j->rules_hash, j->err);
  j->stored_ready = st == EXIT_OK;
  return st != EXIT_OK ? st : retro_answer(&j->retro, &j->search);
}

/* The engine's solver's progress, on the job's progress line. */
static void engine_progress(void *arg, const char *how, uint64_t nodes, double done) {
  SolveJob *j = arg;
  progress_note(&j->progress, "solving", how, nodes, "positions", done);
}

/* The engine's solver's settings: the options', and the job's progress. */
static void engine_options(SolveJob *j, EngineSolveOptions *eo) {
  *eo = j->o->engine;
  eo->all_moves = j->o->all_moves;
  eo->root_only = j->o->root_only;
  eo->table_mib = j->o->tt_mib;
  eo->err = j->err;
  if (j->note) {
    eo->progress = j->note;
    eo->progress_arg = j->note_arg;
  } else if (j->o->progress) {
    eo->progress = engine_progress;
    eo->progress_arg = j;
  }
}

/* The engine's own solver, through the game interface: every root
** move's value (and plies where the engine knows them); with root_only
** the root's value alone. */
static int run_engine(SolveJob *j) {
  Search *s = &j->search;
  SolveResult *res = &s->result;
  Game *g = j->g;
  EngineSolveOptions eo;
  EngineAnswer a;
  if (search_root_begin(s) != EXIT_OK) return s->status;
  if (res->terminal) return EXIT_OK;
  if (j->engine_moves == NULL
      && (j->engine_moves = calloc(GAME_MAX_MOVES, sizeof *j->engine_moves)) == NULL)
    return diag_fail(j->err, EXIT_LIMIT, "out of memory");
  engine_options(j, &eo);
  memset(&a, 0, sizeof a);
  a.moves = j->engine_moves;
  int st = g->vt->solve(g, &eo, &a);
  if (st != EXIT_OK) return st;
  s->nodes = a.nodes;
  j->book_hits = a.book_hits;
  j->no_plies = eo.weak || eo.root_only || !(g->vt->features & ENGINE_DISTANCES);
  if (eo.root_only) {
    res->value = value_make(a.margin, 0, res->mover);
    return EXIT_OK;
  }
  for (int i = 0; i < res->nmoves && i < a.nmoves; i++) {
    const EngineMoveValue *m = &a.moves[i];
    res->values[i] = value_make(m->margin, m->plies < 0 ? 0 : m->plies, res->mover);
    res->exact[i] = (unsigned char)m->exact;
  }
  search_root_finish(s);
  return EXIT_OK;
}

/* The engine keeps its table from one position to the next. */
static int again_engine(SolveJob *j) {
  return run_engine(j);
}

/* A position among the stored ones (retro, db): its answer; EXIT_LIMIT
** (said on retro.err, unless solver_again quietens it) for one that is
** not. */
static int again_retro(SolveJob *j) {
  return j->kind == RESULT_EXPECTED ? retro_vector_answer(&j->retro, &j->exp)
                                    : retro_answer(&j->retro, &j->search);
}

static int again_valueiter(SolveJob *j) {
  return vi_answer(&j->vi, &j->exp);   /* the dense graph's, or retro's vectors */
}

void solve_job_reroot(SolveJob *j, int base_ply) {
  j->base_ply = base_ply;
  search_free(&j->search);
  search_init(&j->search, j->g, base_ply, j->err);
  exp_free(&j->exp);
  exp_init(&j->exp, j->g, base_ply, j->err);
  j->no_plies = 0;
}

/* --pv: the position `ply` moves past the root, solved like the root
** (without all moves, with what is left of --depth), or read from what
** the job keeps (the row's `again`).  The job's own search is set aside
** meanwhile: the report still gives the root's. */
int solver_pv_solve(void *ctx, Search *s, int ply, int depth) {
  SolveJob *j = ctx;
  Search root = j->search;
  AbOptions ab = j->ab;
  const SolveOptions *o = j->o;
  SolveOptions po = *o;
  int st;
  j->search = *s;
  search_init(&j->search, j->g, j->base_ply + ply, j->err);
  if (j->solver->again) {
    st = j->solver->again(j);
  } else {
    po.all_moves = 0;
    po.depth = depth;
    po.progress = 0;
    j->o = &po;
    st = j->solver->run(j);
    j->o = o;
  }
  *s = j->search;
  j->search = root;
  j->ab = ab;
  return st;
}

/* Value iteration's line: sampled at chance's moves with --seed. */
static int pv_sampled(SolveJob *j, Pv *pv) {
  return vi_sample_line(&j->vi, pv, j->base_ply, j->o->seed_set ? j->o->seed : 1);
}

int solver_pv(SolveJob *j, Pv *pv) {
  if (j->solver->pv) return j->solver->pv(j, pv);
  return pv_find(pv, j->g, &j->search.result, j->o->depth, j->base_ply, solver_pv_solve, j);
}
