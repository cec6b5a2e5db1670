/*
** solvers.h -- the solver registry and the solve driver: every solver is
** one row of a table saying what it is (the games it accepts, the kinds
** of result it gives, the options it takes, whether it stores positions,
** its hooks for --pv, --stats and the JSON report), and one SolveJob runs
** whichever the row chosen names, for the command, play, GTP, test sets
** and the web server alike.
**
** A solve is a SolveJob: the engine at the position to solve, the
** options, and the working memory of whichever solver runs (all of it
** freed by solve_job_free, also after a runtime error longjmps out).
** Whoever solves reads one SolveAnswer (solve_job_answer): exact values
** (Value, value.h), expected values (chance, per-move payoffs, more than
** two players) or a strategy, with the counts every report gives.
**
**   SolveJob j;                      the driver, from any caller
**   solve_job_init(&j, g, ply, &options, stderr);
**   if (solver_solve(&j) == EXIT_OK)   (solver_choose, then solver_run
**     read solve_job_answer(&j) ...     under a trap of its own)
**   solve_job_free(&j);              (solve_job_reroot and solver_again:
**                                     the next position, tables kept)
**
** Adding a solver: one row in the table of solvers.c (with its run
** function, the glue from the job's options to its module) and one file
** with its search.
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
#include "util/json.h"

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

/* --depth given where no search to a horizon runs: the rule's one message. */
#define SOLVER_DEPTH_REFUSED "--depth is a search of the alphabeta solver (with --solve or " \
                             "--all-moves) or the depth of --tree-dot"

/* The options only some solvers take (SolverInfo.takes); solver_run
** refuses one given to a solver whose row does not take it. */
enum {
  TAKES_DEPTH = 1 << 0,       /* --depth N: a search to a horizon */
  TAKES_SEARCH_MODES = 1 << 1,  /* --score-only, --with-plies, --no-deepening */
  TAKES_ALL_MOVES = 1 << 2,   /* --all-moves: each root move's value */
  TAKES_PV = 1 << 3,          /* --pv on exact values */
  TAKES_SAMPLED_PV = 1 << 4,  /* --pv on expected values: a line sampled with --seed */
  TAKES_DB = 1 << 5,          /* --db FILE: read, or written */
  TAKES_EPSILON = 1 << 6,     /* --epsilon: the stopping rule of sweeps */
  TAKES_SEED = 1 << 7,        /* --seed */
  TAKES_ITERATIONS = 1 << 8,  /* --iterations N */
  TAKES_CFR = 1 << 9,         /* --exploitability, --cfr-variant */
  TAKES_ENGINE = 1 << 10,     /* --threads, --without, --book, --weak */
  TAKES_TEST_SET = 1 << 11,   /* --test-set: one exact value a line */
  TAKES_STRATEGY = 1 << 12,   /* --strategy FILE: the strategy found, written */
  TAKES_BEST_RESPONSE = 1 << 13,  /* --best-response FILE: a strategy's best responses */
  TAKES_GRUNDY = 1 << 14,     /* --grundy: keeps Grundy values (retro_grundy.c) */
  TAKES_COMPACT = 1 << 15     /* --compact, --spill DIR: the compact tables */
};

/* What a solve gives (SolveAnswer.kind; a row's `gives`, 1 << kind). */
typedef enum ResultKind {
  RESULT_EXACT,             /* Values (value.h): verdict, score, plies */
  RESULT_EXPECTED,          /* ExpValues: payoffs averaged over chance */
  RESULT_STRATEGY           /* a strategy (CFR's average), its payoffs and bound */
} ResultKind;
#define GIVES(kind) (1u << (kind))

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
  const char *spill;        /* --spill DIR: its layers on disk there */
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
  const char *strategy;     /* --strategy FILE: cfr and lp write their strategy */
  const char *best_response;   /* --best-response FILE: lp evaluates its strategy */
  int root_only;            /* the root's value alone (test sets: the
                            ** engine's solver skips each move's) */
  /* What auto chooses by, for callers that are not the command (play,
  ** GTP, the web server): */
  int distances;            /* values with plies to the end: an engine's
                            ** solver without them is passed over */
  int repeats;              /* positions are known to repeat (a search met
                            ** a cycle): a solver that stores them all */
  unsigned wants;           /* GIVES(kind): the first row giving it; 0 any */
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
  ResultKind kind;          /* where the result is: search, exp or cfr */
  int no_plies;             /* the values carry no distance to the end */
  uint64_t book_hits;       /* positions the engine's solver found in its book */
  int prepared;             /* the engine's solver made its tables (solver_prepare) */
  int stored_ready;         /* retro (or vi) holds every position from a root */
  /* The progress of an engine's solver: by default on j->progress; a
  ** caller with a line of its own (test sets, play) sets note. */
  void (*note)(void *arg, const char *how, uint64_t nodes, double done);
  void *note_arg;
} SolveJob;

struct SolverInfo {
  const char *name;         /* --solver NAME, and the report's solver */
  unsigned accepts;         /* NEEDS_* it takes */
  unsigned requires;        /* NEEDS_ENGINE, NEEDS_DB: what it cannot run without */
  const char *summary;      /* one line for --help and docs */
  int (*run)(SolveJob *j);  /* solves the engine's current position */
  int approximate;          /* estimates a move to play (ismcts): never
                            ** chosen by auto nor offered instead */
  /* The rest by name in the rows (.takes = ...); 0 where not given. */
  unsigned gives;           /* GIVES(RESULT_*): the kinds it can give */
  unsigned takes;           /* TAKES_*: the options it takes */
  int stores;               /* keeps every position (positions, stored,
                            ** --stats' table); the next position is read */
  /* Solves the job's position (rerooted, or one of --pv's line) from
  ** what the job keeps (its stored positions, the engine's table): --pv,
  ** play; NULL: run again. */
  int (*again)(SolveJob *j);
  /* --pv: the line into pv (NULL: solved move by move, pv_find with
  ** again or run at each position). */
  int (*pv)(SolveJob *j, Pv *pv);
  /* Makes its tables before the first timed solve (solver_prepare; NULL:
  ** nothing to make). */
  int (*prepare)(SolveJob *j);
  /* --stats: what it did, on f after the report (NULL: nothing). */
  void (*stats)(const SolveJob *j, double seconds, FILE *f);
  /* Fields of its own in the JSON report (NULL: none). */
  void (*json)(const SolveJob *j, JsonWriter *w);
  /* The name the report gives when not the row's (NULL: the row's). */
  const char *(*report_name)(const SolveJob *j);
};

/* The answer of a solve, whatever the solver: the one result type every
** report reads.  One of exact, expected, strategy is set, by kind. */
typedef struct SolveAnswer {
  ResultKind kind;
  const SolveResult *exact;     /* RESULT_EXACT */
  const ExpResult *expected;    /* RESULT_EXPECTED */
  const CfrSolver *strategy;    /* RESULT_STRATEGY */
  uint64_t nodes;               /* positions searched (a strategy: its tree's histories) */
  int no_plies;                 /* exact values without distances to the end */
  int stores;                   /* positions and stored are counts of the solve */
  uint64_t positions, stored;
  int depth;                    /* the horizon of exact values (--depth); 0: proven */
  uint64_t depths;              /* iterative deepening: the depths it searched */
  const char *solver;           /* the name reports give (solver_report_name) */
} SolveAnswer;

SolveAnswer solve_job_answer(const SolveJob *j);

/* The table, NULL-terminated, and a row by name (NULL if none). */
extern const SolverInfo solver_table[];
const SolverInfo *solver_find(const char *name);
/* "auto, alphabeta, minimax, ..." from the table, for messages. */
const char *solver_names(void);

/* What the game at g asks of a solver (NEEDS_*), with the options' --db. */
unsigned solver_needs(Game *g, const SolveOptions *o);

void solve_job_init(SolveJob *j, Game *g, int base_ply, const SolveOptions *o, FILE *err);
void solve_job_free(SolveJob *j);
/* The job moved to the engine's current position, `base_ply` moves past
** the start, for the next solve (play, GTP): the results are cleared;
** the chosen solver, its table, the engine's and the stored positions
** are kept (the next solver_again reads them). */
void solve_job_reroot(SolveJob *j, int base_ply);

/* Chooses the solver: the one --solver names if it accepts the game,
** else (auto) the first row giving what `wants` asks, or the first that
** fits: a database given, CFR for hidden information, the engine's own
** solver (with distances if asked), retro or value iteration when
** positions repeat (`repeats`, or the cycle probe), max^n for more than
** two players, alphabeta.  Sets j->solver and j->why; else reports an
** error naming the solvers that would accept the game and returns
** EXIT_USAGE.  It may be called again on the same job (play). */
int solver_choose(SolveJob *j);

/* Runs the chosen solver on the engine's current position; a status. */
int solver_run(SolveJob *j);
/* solver_choose (unless a solver is chosen) and solver_run, under a trap
** of their own: a rule that fails at run time returns its status here
** (the engine can then only be freed, the job too) instead of jumping
** past the caller.  For callers without a trap of their own (a server). */
int solver_solve(SolveJob *j);
/* The same from what the job keeps: the stored positions (their answer;
** EXIT_LIMIT, quietly, for a position not among them) or the table; the
** row's `again`, else solver_run. */
int solver_again(SolveJob *j);
/* The chosen solver makes its tables (alphabeta's, the engine's) before
** the first timed solve (test sets, GTP's move): its row's `prepare`,
** once a job.  A status (EXIT_LIMIT: they do not fit). */
int solver_prepare(SolveJob *j);
/* The options the named solver does not take, checked before the game is
** compiled (--depth: the rule of the rows); EXIT_OK or EXIT_USAGE after
** a message on err. */
int solver_check_named(const SolveOptions *o, FILE *err);
/* The solvers whose rows have every bit of `takes`, as "a, b or c". */
const char *solver_names_taking(unsigned takes, char *buf, size_t size);
/* The retrograde table of exact values the job holds (--stats counts
** it), or NULL. */
Retro *solve_job_table(SolveJob *j);
/* --stats lines of the chosen solver (its row's hook), on f. */
void solver_stats(const SolveJob *j, double seconds, FILE *f);
/* Its own fields of the JSON report (its row's hook). */
void solver_json(const SolveJob *j, JsonWriter *w);

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
