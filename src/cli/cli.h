/*
** cli.h -- what the command line's files share: the options of a run
** (options.c parses them), the run itself (main.c dispatches it to a
** mode), and the reports (report.c) and modes (testset.c, modes.c).
*/
#ifndef GSOLVE_CLI_H
#define GSOLVE_CLI_H

#include <stdint.h>
#include <stdio.h>
#include "gsolve.h"
#include "cli/play.h"
#include "game/fen.h"
#include "game/position.h"
#include "game/symcheck.h"
#include "search/count.h"
#include "solve/grundy.h"
#include "search/perft.h"
#include "mcts/playout.h"
#include "search/pv.h"
#include "retro/retro_stats.h"
#include "driver/solvers.h"
#include "cfr/strategy.h"
#include "util/json.h"

#define TT_MAX_MIB ((size_t)1 << 20)   /* --tt-size limit: 1 TiB */

typedef enum Mode { MODE_NONE, MODE_SOLVE, MODE_PERFT, MODE_COUNT, MODE_DUMPDB, MODE_TESTSET,
                   MODE_PLAY, MODE_TREEDOT, MODE_GTP, MODE_PLAYOUTS, MODE_MAKEBOOK,
                   MODE_INFOSTATE, MODE_GRUNDY, MODE_SYMCHECK, MODE_EXPORT, MODE_DESCRIBE } Mode;

typedef struct Options {
  const char *file;
  Mode mode;
  const char *mode_flag;    /* the option that chose the mode */
  SolveOptions solve;       /* --solver and the solvers' settings */
  const char *test_set;     /* --test-set FILE: lines "moves score" */
  long limit;               /* --limit N: first N lines; 0 all */
  long playouts;            /* --playouts N: random games */
  int zero_based;           /* --zero-based: test-set columns from 0 */
  const char *position;     /* NULL: the start position */
  const char *fen;          /* --fen: the position to start from, or NULL */
  int json;
  int dump_ast, dump_bytecode;
  int perft_depth;
  EngineChoice engine;      /* --engine */
  int stats, quiet;
  unsigned time_limit;      /* --time-limit SECONDS; 0: none */
  ParamDef *defs;           /* -D overrides, names cut from copies ... */
  char **def_text;          /* ... kept here to be freed */
  int ndefs;
  PlayOptions play;         /* gsolve play FILE: its options */
  double move_time;         /* --move-time S (gtp); 0: its default */
  const char *tree_dot;     /* --tree-dot OUT */
  int tree_prune;           /* --tree-prune: losing moves left out */
  int pv;                   /* --pv: the principal variation, as boards */
  int progress;             /* --progress: even when stderr is no terminal */
  const char *make_book;    /* --make-book FILE */
  int book_depth;           /* --book-depth N (-1: not given, 4) */
  long grundy_seq;          /* --grundy-sequence N: N + 1; 0: not given */
  long symcheck;            /* --check-symmetry N: positions to test */
  const char *export_format;  /* --export efg|nfg FILE: "efg" or "nfg" */
  const char *export_path;
} Options;

/* Everything a run allocates after the engine exists. */
typedef struct Run {
  const Options *opt;
  const Program *prog;
  Game *g;
  Position pos;
  Position line;            /* --test-set: the line being solved (here, not
                            ** on the stack, so that a rule failing at run
                            ** time, a longjmp, leaves it to free_run) */
  SolveJob job;             /* --solve, --all-moves, test sets */
  Perft perft;
  Count count;
  Grundy grundy;            /* --grundy */
  Playouts playouts;        /* --playouts N */
  Strategy strategy;        /* --play-strategy FILE */
  double seconds;           /* time spent in the mode */
  Pv pv;                    /* --pv */
  char *params;             /* the parameters as text ("width=7 height=6") */
  Progress progress;        /* --perft, --count, --test-set: their line */
  RetroStats table;         /* --stats on a retrograde table: its counts */
  int has_table;            /* table was computed */
} Run;

/* options.c: parses argv into o; EXIT_OK to run, -1 after --help or
** --version, else a status (the error reported). */
int options_parse(int argc, char **argv, Options *o);
void options_free(Options *o);

/* Reports "gsolve: error: " fmt (with arg) on stderr; EXIT_USAGE. */
int usage_error(const char *fmt, const char *arg);
char *move_text(Game *g, const Move *m, char *buf, size_t size);
/* The parameters as text ("heaps=1,3,5,7"), or NULL out of memory. */
char *params_text(const Program *p);

/* report.c: the result of a mode, as text or as one JSON object. */
void report_header(const Run *r);
void report_json_head(JsonWriter *w, const Run *r);
/* --grundy's report (report_cgt.c), text or JSON. */
void report_grundy(const Run *r);
void report_result(const Run *r);
void report_stats(const Run *r);

/* testset.c: --test-set FILE; modes.c: --make-book, --tree-dot, play. */
int run_test_set(Run *r);
int run_make_book(Run *r);
int run_tree_dot(Run *r);
int run_info_state(Run *r);
int run_play(Run *r);
/* export_gambit.c: --export efg|nfg FILE. */
int run_export(Run *r);

#endif
