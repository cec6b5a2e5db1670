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
#include "mcts/ismcts.h"
#include "solve/minimax.h"
#include "driver/solvers.h"
#include "util/diag.h"
#include "util/file.h"
#include "cfr/strategy.h"
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

#define NEEDS_ALL (NEEDS_PLAYERS | NEEDS_CHANCE | NEEDS_PAYOFFS | NEEDS_HISTORY)

/* In the order auto prefers them among those that fit (solver_choose). */
const SolverInfo solver_table[] = {
  { "alphabeta", NEEDS_CHANCE | NEEDS_PAYOFFS | NEEDS_HISTORY, 0,
    "negamax alpha-beta with a transposition table (Star1 with chance)", run_alphabeta, 0 },
  { "minimax", NEEDS_HISTORY, 0, "plain minimax, the reference", run_minimax, 0 },
  { "retro", NEEDS_ALL, 0,
    "retrograde analysis of every reachable position (cycles, --db FILE)", run_retro, 0 },
  { "expectimax", NEEDS_PLAYERS | NEEDS_CHANCE | NEEDS_PAYOFFS | NEEDS_HISTORY, 0,
    "expected values: chance, per-move payoffs, max^n for n players", run_expectimax, 0 },
  { "value-iteration", NEEDS_PLAYERS | NEEDS_CHANCE | NEEDS_PAYOFFS, 0,
    "expected values of games whose positions repeat (Pig): value iteration", run_valueiter, 0 },
  { "native", NEEDS_ALL | NEEDS_ENGINE, NEEDS_ENGINE,
    "the native engine's own solver (Connect Four, Nim, matchsticks)", run_engine, 0 },
  { "db", NEEDS_HISTORY | NEEDS_DB, NEEDS_DB, "answers from a database (--db FILE)", run_db, 0 },
  { "cfr", NEEDS_ALL | NEEDS_VIEWS, 0,
    "counterfactual regret minimisation (CFR+ or vanilla): hidden information", run_cfr, 0 },
  { "ismcts", NEEDS_ALL, 0,
    "information-set Monte Carlo tree search: a move for games too large to solve",
    run_ismcts, 1 },
  { NULL, 0, 0, NULL, NULL, 0 }
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

/* "use --solver a, b or c": the solvers that accept what `needs` asks. */
static void accepting(unsigned needs, char *buf, size_t n) {
  const char *names[16];
  int k = 0;
  for (const SolverInfo *s = solver_table; s->name; s++) {
    /* CFR takes any finite game, but is the answer to hidden information
    ** only: on others it finds slowly what the other solvers find. */
    if ((s->accepts & NEEDS_VIEWS) && !(needs & NEEDS_VIEWS)) continue;
    if (s->approximate) continue;    /* a move, not a value: never the alternative */
    if ((s->accepts & needs) == needs && !(s->requires & ~needs)) names[k++] = s->name;
  }
  size_t len = (size_t)snprintf(buf, n, "use --solver ");
  for (int i = 0; i < k && len < n; i++)
    len += (size_t)snprintf(buf + len, n - len, "%s%s", names[i],
                            i + 2 < k ? ", " : i + 2 == k ? " or " : "");
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
      return usage(j, "unknown solver '%s' (auto, alphabeta, minimax, retro, expectimax, "
                   "value-iteration, native, db, cfr or ismcts)", o->solver);
    /* retro with --db builds the database; the others read it. */
    if (s != solver_find("retro") && s != solver_find("db") && o->db)
      return usage(j, "--db FILE is read by the db solver and written by retro, not by %s",
                   s->name);
    if ((s->accepts & asks) != asks || (s->requires & ~needs)) return refuse(j, s, asks);
    j->solver = s;
    snprintf(j->why, sizeof j->why, "named by --solver");
    return EXIT_OK;
  }
  if ((needs & NEEDS_DB) && (asks & (NEEDS_PLAYERS | NEEDS_CHANCE | NEEDS_PAYOFFS))) {
    return usage(j, "%s", "--db takes the retrograde solver, which does not handle chance, "
                 "per-move payoffs or more than two players");
  } else if (needs & NEEDS_DB) {
    s = solver_find("db");
    snprintf(j->why, sizeof j->why, "--db FILE: answered from the database");
  } else if (needs & NEEDS_VIEWS) {
    s = solver_find("cfr");
    snprintf(j->why, sizeof j->why, "hidden information (views): counterfactual regret "
             "minimisation on the expanded game tree");
  } else if ((needs & NEEDS_ENGINE) && !o->depth && !o->score_only && !o->no_deepening) {
    /* (--depth, --score-only and --no-deepening ask for alphabeta.) */
    s = solver_find("native");
    snprintf(j->why, sizeof j->why, "the %s engine solves these positions itself", j->g->engine);
  } else if (!(needs & NEEDS_HISTORY) && !o->depth && !o->score_only && !o->no_deepening
             && !o->no_cycle_probe && probe_cycles(j) == CYCLE_FOUND) {
    /* Positions recur: the searches would go round (chance) or search
    ** transpositions again; the solvers that store every position. */
    int expected = (asks & (NEEDS_PLAYERS | NEEDS_CHANCE | NEEDS_PAYOFFS)) != 0;
    s = solver_find(expected ? "value-iteration" : "retro");
    snprintf(j->why, sizeof j->why, "positions repeat (a line of play returns to a position, "
             "found by walking %llu positions)%s", (unsigned long long)j->probed,
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

/* Checks of the options that only some solvers take. */
static int check_options(SolveJob *j) {
  const SolveOptions *o = j->o;
  const char *name = j->solver->name;
  int native = strcmp(name, "native") == 0, ab = strcmp(name, "alphabeta") == 0;
  if (o->engine.weak && !native)
    return usage(j, "%s", "--weak needs the native Connect Four solver (--engine native)");
  if (o->score_only && !ab)
    return usage(j, "%s", o->score_only > 0 ? "--score-only is a mode of the alphabeta solver"
                 : "--with-plies is a mode of the alphabeta solver");
  if (o->no_deepening && !ab)
    return usage(j, "%s", "--no-deepening is a mode of the alphabeta solver");
  int vi = strcmp(name, "value-iteration") == 0;
  if (o->epsilon > 0 && !vi)
    return usage(j, "--epsilon is the stopping rule of the value-iteration solver, not of %s",
                 name);
  int ismcts = strcmp(name, "ismcts") == 0;
  if (o->seed_set && !(vi && o->pv) && !ismcts)
    return usage(j, "%s", "--seed goes with gsolve play FILE, --playouts N, or --pv of the "
                 "value-iteration solver");
  if (o->depth && !ab)
    return usage(j, "%s", "--depth is a search of the alphabeta solver "
                 "(with --solve or --all-moves) or the depth of --tree-dot");
  int cfr = strcmp(name, "cfr") == 0;
  const char *cfr_flag = o->iterations_set && !ismcts ? "--iterations" : o->exploitability > 0
                       ? "--exploitability" : o->cfr_vanilla ? "--cfr-variant" : o->strategy
                       ? "--strategy" : NULL;
  if (cfr_flag && !cfr) {
    fprintf(j->err, "gsolve: error: %s is an option of the cfr solver (--solver cfr); the %s "
            "solver does not use it\n", cfr_flag, name);
    return EXIT_USAGE;
  }
  if (cfr && o->all_moves)
    return usage(j, "%s", "the cfr solver finds a strategy, not each move's value: "
                 "--solve, and --strategy FILE for the strategy");
  if (cfr && o->pv)
    return usage(j, "%s", "--pv takes games without chance, per-move payoffs or more than two "
                 "players");
  if (cfr && o->db)
    return usage(j, "%s", "--db FILE is read by the db solver and written by retro, not by cfr");
  /* The engine's solver's own settings: only where it runs and takes them. */
  static const struct { unsigned feature; const char *flag; } engine_flags[] = {
    { ENGINE_THREADS, "--threads" }, { ENGINE_TECHNIQUES, "--without" }, { ENGINE_BOOK, "--book" }
  };
  for (int i = 0; i < 3; i++) {
    const EngineSolveOptions *e = &o->engine;
    int given = i == 0 ? e->threads != 0 : i == 1 ? e->without != NULL : e->book != NULL;
    if (!given) continue;
    if (!native)
      return usage(j, "%s is an option of an engine's own solver (Connect Four's); "
                   "the %s solver does not use it", engine_flags[i].flag, name);
    if (!(j->g->vt->features & engine_flags[i].feature))
      return usage(j, "%s: the %s engine's solver does not take it", engine_flags[i].flag,
                   j->g->engine);
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

const char *solver_report_name(const SolveJob *j) {
  if (j->solver == NULL) return "alphabeta";
  if (j->strategic) return cfrsolve_name(&j->cfr);
  if (strcmp(j->solver->name, "native") == 0) return j->g->engine;
  return j->solver->name;
}

/* ---- expected values ------------------------------------------------ */

/* The solvers of expected values take no --depth or --db, and no --pv
** but value iteration's (a sampled line). */
static int expected_begin(SolveJob *j) {
  const SolveOptions *o = j->o;
  if (o->depth)
    return usage(j, "%s", "--depth takes deterministic games without per-move payoffs");
  if (o->pv && strcmp(j->solver->name, "value-iteration") != 0)
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
  j->expected = 1;
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
  return vi_solve(&j->vi, &j->exp);
}

/* ---- exact values --------------------------------------------------- */

const char *solver_slow_note(const SolveJob *j) {
  if (strcmp(j->solver->name, "alphabeta") != 0 || j->g->has_chance || j->g->has_rewards)
    return NULL;
  if (j->g->has_history)
    return "alpha-beta under a repetition rule keys its table by the position and the earlier "
           "positions its subtree met, so a position reached by other lines is often searched "
           "again: slow where positions recur; without the rule, --solver retro solves every "
           "position once (endless play a draw)";
  return NULL;
}

static int run_alphabeta(SolveJob *j) {
  const SolveOptions *o = j->o;
  if (j->g->has_chance || j->g->has_rewards) {
    int st = expected_begin(j);
    return st != EXIT_OK ? st : star1_solve(&j->exp);
  }
  if (o->progress && j->g->has_history)
    fprintf(j->err, "gsolve: note: %s\n", solver_slow_note(j));
  if (o->tt_mib > 0 && j->tt == NULL) {
    if ((j->tt = tt_new(o->tt_mib)) == NULL)
      return file_memory_refused(j->err, "--tt-size", o->tt_mib, "a table");
    /* It halved until it fitted: say so, with what was free before it
    ** (under ulimit -v the table's untouched pages count as used). */
    if (tt_bytes(j->tt) < (o->tt_mib << 20) && j->err != NULL && !o->quiet) {
      int limited;
      size_t free_bytes = file_memory_free(&limited);
      if (limited) free_bytes += tt_bytes(j->tt);
      fprintf(j->err, "gsolve: note: --tt-size %zu MiB does not fit in memory (about %zu MiB %s): "
              "the table has %zu MiB\n", o->tt_mib, free_bytes >> 20,
              limited ? "left under ulimit -v" : "free", tt_bytes(j->tt) >> 20);
    }
  }
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
  if (vector) return retro_solve_vector(&j->retro, &j->exp);
  int st = retro_solve(&j->retro, &j->search);
  if (st == EXIT_OK && o->db) {
    j->from_db = 1;
    st = db_write(&j->retro, o->db, g->name, j->db_params, j->rules_hash, j->err);
  }
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
  j->strategic = 1;
  int st = cfrsolve_run(s);
  if (st != EXIT_OK || o->strategy == NULL) return st;
  char note[200];
  int params = j->db_params && j->db_params[0];
  snprintf(note, sizeof note, "%s%s%s%s: %s, %llu iterations, exploitability %.6g", j->g->name,
           params ? " (" : "", params ? j->db_params : "", params ? ")" : "", cfrsolve_name(s), (unsigned long long)s->iterations, s->exploitability);
  return strategy_write(o->strategy, j->g, &s->tree, s->avg, note, j->err);
}

static int run_db(SolveJob *j) {
  j->from_db = 1;
  int st = db_read(&j->retro, j->o->db, j->g->name, j->db_params, j->rules_hash, j->err);
  return st != EXIT_OK ? st : retro_answer(&j->retro, &j->search);
}

/* The engine's solver's progress, on the job's progress line. */
static void engine_progress(void *arg, const char *how, uint64_t nodes, double done) {
  SolveJob *j = arg;
  progress_note(&j->progress, "solving", how, nodes, "positions", done);
}

/* The engine's own solver, through the game interface: every root
** move's value (and plies where the engine knows them). */
static int run_engine(SolveJob *j) {
  Search *s = &j->search;
  SolveResult *res = &s->result;
  Game *g = j->g;
  EngineAnswer a;
  if (search_root_begin(s) != EXIT_OK) return s->status;
  if (res->terminal) return EXIT_OK;
  if (j->engine_moves == NULL
      && (j->engine_moves = calloc(GAME_MAX_MOVES, sizeof *j->engine_moves)) == NULL)
    return diag_fail(j->err, EXIT_LIMIT, "out of memory");
  EngineSolveOptions eo = j->o->engine;
  eo.all_moves = j->o->all_moves;
  eo.table_mib = j->o->tt_mib;
  eo.err = j->err;
  if (j->o->progress) {
    eo.progress = engine_progress;
    eo.progress_arg = j;
  }
  memset(&a, 0, sizeof a);
  a.moves = j->engine_moves;
  int st = g->vt->solve(g, &eo, &a);
  if (st != EXIT_OK) return st;
  s->nodes = a.nodes;
  j->book_hits = a.book_hits;
  j->no_plies = eo.weak || !(g->vt->features & ENGINE_DISTANCES);
  for (int i = 0; i < res->nmoves && i < a.nmoves; i++) {
    const EngineMoveValue *m = &a.moves[i];
    res->values[i] = value_make(m->margin, m->plies < 0 ? 0 : m->plies, res->mover);
    res->exact[i] = (unsigned char)m->exact;
  }
  search_root_finish(s);
  return EXIT_OK;
}

/* --pv: the position `ply` moves past the root, solved like the root
** (without all moves, with what is left of --depth).  The job's own
** search is set aside meanwhile: the report still gives the root's. */
int solver_pv_solve(void *ctx, Search *s, int ply, int depth) {
  SolveJob *j = ctx;
  Search root = j->search;
  AbOptions ab = j->ab;
  int st;
  j->search = *s;
  search_init(&j->search, j->g, j->base_ply + ply, j->err);
  if (strcmp(j->solver->name, "native") == 0) {
    st = run_engine(j);
  } else if (j->from_db || strcmp(j->solver->name, "retro") == 0) {
    st = retro_answer(&j->retro, &j->search);
  } else if (strcmp(j->solver->name, "minimax") == 0) {
    st = minimax_solve(&j->search);
  } else {
    j->ab.all_moves = 0;
    j->ab.depth = depth;
    st = alphabeta_run(&j->search, j->tt, &j->ab);
  }
  *s = j->search;
  j->search = root;
  j->ab = ab;
  return st;
}

int solver_pv(SolveJob *j, Pv *pv) {
  if (strcmp(j->solver->name, "value-iteration") == 0)
    return vi_sample_line(&j->vi, pv, j->base_ply, j->o->seed_set ? j->o->seed : 1);
  return pv_find(pv, j->g, &j->search.result, j->o->depth, j->base_ply, solver_pv_solve, j);
}
