/*
** solvers.h -- the solver registry: every solver in one table, with what
** it accepts, and the one function that chooses a solver for a game.
**
** A solve is a SolveJob: the engine at the position to solve, the
** options, and the working memory of whichever solver runs (all of it
** freed by solve_job_free, also after a runtime error longjmps out).  A
** solver fills either job->search.result (exact values: Value, value.h)
** or job->exp.result (expected values: chance, per-move payoffs, more
** than two players), and says which in job->expected.
**
** Adding a solver: one row in the table of solvers.c and one file with
** its search; its run function takes the job.
*/
#ifndef GSOLVE_SOLVERS_H
#define GSOLVE_SOLVERS_H

#include <stdint.h>
#include <stdio.h>
#include "game/game.h"
#include "solve/alphabeta.h"
#include "cfr/cfrsolve.h"
#include "solve/expectimax.h"
#include "search/progress.h"
#include "retro/retro.h"
#include "search/search.h"
#include "search/tt.h"
#include "retro/valueiter.h"

/* What a game asks of a solver (solver_needs), and what a solver takes
** (SolverInfo.accepts): a solver accepts a game when it takes every
** property the game has. */
enum {
  NEEDS_PLAYERS = 1 << 0,   /* more than two players (max^n) */
  NEEDS_CHANCE = 1 << 1,    /* chance moves */
  NEEDS_PAYOFFS = 1 << 2,   /* per-move payoffs */
  NEEDS_HISTORY = 1 << 3,   /* a repetition rule: the line of play matters */
  NEEDS_ENGINE = 1 << 4,    /* (accepts only) the engine's own solver */
  NEEDS_DB = 1 << 5,        /* (accepts only) a database file (--db) */
  NEEDS_VIEWS = 1 << 6      /* hidden information: players' views differ */
};

/* The settings of a solve, from the command line. */
typedef struct SolveOptions {
  const char *solver;       /* --solver NAME; NULL or "auto": chosen */
  int all_moves;            /* --all-moves: every root move's value */
  int depth;                /* --depth N (alphabeta by eval); 0: exact */
  int score_only;           /* 1 --score-only, -1 --with-plies, 0 the game's */
  int no_deepening;         /* --no-deepening */
  size_t tt_mib;            /* --tt-size */
  size_t memory_mib;        /* --memory; 0: the retro default */
  uint64_t max_positions;   /* --max-positions; 0: none */
  int no_symmetry;          /* --no-symmetry */
  int compact;              /* --compact: retro's compact form */
  const char *db;           /* --db FILE */
  int progress;             /* 1: a progress display on stderr */
  int quiet;                /* --quiet: no notes */
  int pv;                   /* --pv will follow the solve */
  int no_cycle_probe;       /* auto chooses among the searches only (test sets) */
  double epsilon;           /* --epsilon (value-iteration); 0: the default */
  int seed_set;             /* --seed given (value-iteration's sampled --pv) */
  uint64_t seed;
  uint64_t iterations;      /* --iterations N (cfr) */
  int iterations_set;       /* ... given */
  double exploitability;    /* --exploitability E (cfr); 0: not given */
  int cfr_vanilla;          /* --cfr-variant vanilla */
  const char *strategy;     /* --strategy FILE: cfr writes its strategy */
  EngineSolveOptions engine;   /* --threads, --without, --book, --weak */
} SolveOptions;

typedef struct SolverInfo SolverInfo;

typedef struct SolveJob {
  Game *g;
  int base_ply;             /* moves played before the root */
  FILE *err;
  const SolveOptions *o;
  const SolverInfo *solver; /* chosen by solver_choose */
  char why[256];            /* why it was chosen */
  uint64_t probed;          /* positions auto's cycle probe walked */
  /* A database's identity: the game's name, parameters and rules hash. */
  const char *db_params;
  uint64_t rules_hash;
  /* The solvers' working memory. */
  Search search;
  ExpSolver exp;
  Retro retro;
  ValueIter vi;             /* value iteration (its enumeration is retro) */
  CfrSolver cfr;
  Tt *tt;
  AbOptions ab;
  Progress progress;
  EngineMoveValue *engine_moves;   /* GAME_MAX_MOVES, for the engine's solver */
  int expected;             /* the result is in exp, not search */
  int strategic;            /* the result is in cfr (a strategy) */
  int no_plies;             /* the values carry no distance to the end */
  int from_db;              /* the answer came from, or went to, a database */
  uint64_t book_hits;       /* positions the engine's solver found in its book */
} SolveJob;

struct SolverInfo {
  const char *name;         /* --solver NAME, and the report's solver */
  unsigned accepts;         /* NEEDS_* it takes */
  unsigned requires;        /* NEEDS_ENGINE, NEEDS_DB: what it cannot run without */
  const char *summary;      /* one line for --help and docs */
  int (*run)(SolveJob *j);  /* solves the engine's current position */
  int approximate;          /* estimates a move to play (ismcts): never
                            ** chosen by auto nor offered instead */
};

/* The table, NULL-terminated, and a row by name (NULL if none). */
extern const SolverInfo solver_table[];
const SolverInfo *solver_find(const char *name);
/* "auto, alphabeta, minimax, ..." from the table, for messages. */
const char *solver_names(void);

/* What the game at g asks of a solver (NEEDS_*), with the options' --db. */
unsigned solver_needs(Game *g, const SolveOptions *o);

void solve_job_init(SolveJob *j, Game *g, int base_ply, const SolveOptions *o, FILE *err);
void solve_job_free(SolveJob *j);

/* Chooses the solver: the one --solver names if it accepts the game,
** else (auto) the first that fits: a database given, CFR for hidden
** information, the engine's own solver, max^n for more than two
** players, alphabeta.  Sets j->solver
** and j->why; else reports an error naming the solvers that would accept
** the game and returns EXIT_USAGE. */
int solver_choose(SolveJob *j);

/* Runs the chosen solver on the engine's current position; a status. */
int solver_run(SolveJob *j);

/* The memory limit of retrograde analysis and --count without --memory:
** three quarters of the physical memory, so that they stop with a
** message rather than being killed by the system.  0 (none) if the size
** is unknown. */
size_t solver_default_memory(void);

/* The name the report gives: the solver's, the engine's for its own
** solver ("native-connect4"), "db" for an answer read from a database. */
const char *solver_report_name(const SolveJob *j);

/* Why the chosen alphabeta may be slow on this game (a repetition rule:
** its table keys positions with the line), for a note and --stats; NULL
** when there is nothing to say. */
const char *solver_slow_note(const SolveJob *j);

/* --pv after the solve: the principal variation from the root into pv
** (value iteration: a line sampled at chance's moves with --seed).  The
** engine is back at the root after.  EXIT_OK or an error's status. */
int solver_pv(SolveJob *j, Pv *pv);

/* --pv's PvSolveFn (pv.h): solves the position `ply` moves past the root
** the way the root was solved, into s. */
int solver_pv_solve(void *job, Search *s, int ply, int depth);

#endif
