/*
** options.c -- the command line of gsolve, as one table: each option's
** name, argument, the modes that use it, its help line and its setter.
** Parsing, --help, --help-options and the check that no option is given
** to a mode that would ignore it all read the table.
*/
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "solve/alphabeta.h"
#include "util/diag.h"
#include "util/stop.h"

/* Modes as bits, for the modes an option goes with. */
#define M(mode) (1u << (mode))
#define M_SOLVE M(MODE_SOLVE)
#define M_ANY 0xffffu
#define M_RUN (M_ANY & ~M(MODE_GTP))    /* every mode but GTP's session */

/* Sections of --help. */
enum { SEC_MODE, SEC_OPTION, SEC_SOLVER, SEC_ENGINE, SEC_PLAY, SEC_INFO, SEC_COUNT };
static const char *const section_names[SEC_COUNT] = {
  "modes", "options", "solvers", "engine's solver", "play", "info"
};

typedef struct OptionSpec {
  const char *name;         /* "--tt-size" */
  const char *arg;          /* "MB", or NULL for a flag */
  int section;
  unsigned modes;           /* M_* of the modes that use it */
  const char *misuse;       /* the message when the mode does not, or NULL */
  const char *help;         /* one line for --help-options */
  int (*set)(Options *o, const struct OptionSpec *spec, const char *val);
  size_t flag;              /* set_flag: the offset of the int it sets to 1 */
} OptionSpec;

int usage_error(const char *fmt, const char *arg) {
  char msg[512];
  snprintf(msg, sizeof msg, fmt, arg);
  return diag_fail(stderr, EXIT_USAGE, "%s", msg);
}

void options_free(Options *o) {
  for (int i = 0; i < o->ndefs; i++) free(o->def_text[i]);
  free(o->def_text);
  free(o->defs);
}

/* Parses a decimal integer in [lo, hi]; 0 on success. */
static int parse_int(const char *s, long lo, long hi, long *out) {
  char *end;
  long v;
  errno = 0;
  v = strtol(s, &end, 10);
  if (errno != 0 || end == s || *end != '\0' || v < lo || v > hi || s[0] == '+') return -1;
  *out = v;
  return 0;
}

/* Parses a decimal number; 0 on success. */
static int parse_double(const char *s, double *out) {
  char *end;
  errno = 0;
  *out = strtod(s, &end);
  return errno != 0 || end == s || *end != '\0' ? -1 : 0;
}

/* VAL, the argument of SPEC, as a whole number from LO to HI into *out;
** else the error "NAME needs WHAT, not 'VAL'", WHAT a format of LO and
** HI ("a number of plies from %ld to %ld"; "from %ld" alone where HI is
** only a guard). */
static int int_arg(const char *name, const char *val, long lo, long hi, const char *what,
                   long *out) {
  if (parse_int(val, lo, hi, out) == 0) return EXIT_OK;
  char want[128];
  snprintf(want, sizeof want, what, lo, hi);
  return diag_fail(stderr, EXIT_USAGE, "%s needs %s, not '%s'", name, want, val);
}

static int set_mode(Options *o, Mode m, const char *flag) {
  if (o->mode != MODE_NONE && o->mode != m) {
    return diag_fail(stderr, EXIT_USAGE, "%s and %s cannot be combined (one mode "
                     "per run)", o->mode_flag, flag);
  }
  o->mode = m;
  o->mode_flag = flag;
  return EXIT_OK;
}

static int add_define(Options *o, const char *text) {
  const char *eq = strchr(text, '=');
  char *copy;
  if (eq == NULL || eq == text)
    return usage_error("-D needs NAME=VALUE, not '%s'", text);
  if (o->ndefs % 8 == 0) {
    ParamDef *d = realloc(o->defs, (size_t)(o->ndefs + 8) * sizeof *d);
    char **t;
    if (d == NULL) return diag_out_of_memory(stderr);
    o->defs = d;
    t = realloc(o->def_text, (size_t)(o->ndefs + 8) * sizeof *t);
    if (t == NULL) return diag_out_of_memory(stderr);
    o->def_text = t;
  }
  /* A second value for the same parameter would silently win: refused. */
  for (int i = 0; i < o->ndefs; i++)
    if (strlen(o->defs[i].name) == (size_t)(eq - text)
        && strncmp(o->defs[i].name, text, (size_t)(eq - text)) == 0) {
      return diag_fail(stderr, EXIT_USAGE, "-D %s given twice (%s=%s, then %s): give each parameter "
                       "once", o->defs[i].name, o->defs[i].name, o->defs[i].value, text);
    }
  if ((copy = strdup(text)) == NULL) return diag_out_of_memory(stderr);
  copy[eq - text] = '\0';
  o->def_text[o->ndefs] = copy;
  o->defs[o->ndefs].name = copy;
  o->defs[o->ndefs].value = copy + (eq - text) + 1;
  o->ndefs++;
  return EXIT_OK;
}

/* ---- setters -------------------------------------------------------- */

#define SETTER(fn) static int fn(Options *o, const OptionSpec *spec, const char *val)

/* An option whose argument is a whole number that it stores in FIELD. */
#define INT_SETTER(fn, field, lo, hi, what) \
  SETTER(fn) { \
    long n; \
    int st = int_arg(spec->name, val, lo, hi, what, &n); \
    if (st == EXIT_OK) o->field = n; \
    return st; \
  }

static int print_help(void);
static int print_help_options(void);

/* A flag: the int at spec->flag in the options becomes 1. */
SETTER(set_flag) {
  *(int *)((char *)o + spec->flag) = 1;
  return EXIT_OK;
}
SETTER(set_help) { return print_help(); }
SETTER(set_help_options) { return print_help_options(); }
SETTER(set_version) {
  printf("gsolve %s\n", GSOLVE_VERSION);
  return -1;
}
SETTER(set_solve) { return set_mode(o, MODE_SOLVE, spec->name); }
SETTER(set_all_moves) {
  o->solve.all_moves = 1;
  return set_mode(o, MODE_SOLVE, spec->name);
}
SETTER(set_count) { return set_mode(o, MODE_COUNT, spec->name); }
SETTER(set_grundy) { return set_mode(o, MODE_GRUNDY, spec->name); }
SETTER(set_grundy_seq) {
  long n;
  int st = int_arg(spec->name, val, 0, GRUNDY_MAX_SEQUENCE, "a heap size from %ld to %ld", &n);
  if (st != EXIT_OK) return st;
  o->grundy_seq = n + 1;
  return set_mode(o, MODE_GRUNDY, spec->name);
}
SETTER(set_symcheck) {
  int st = int_arg(spec->name, val, 1, 100000000, "a number of positions from %ld to %ld",
                   &o->symcheck);
  if (st != EXIT_OK) return st;
  return set_mode(o, MODE_SYMCHECK, spec->name);
}
SETTER(set_dump_db) { return set_mode(o, MODE_DUMPDB, spec->name); }
SETTER(set_info_state) { return set_mode(o, MODE_INFOSTATE, spec->name); }
SETTER(set_describe) { return set_mode(o, MODE_DESCRIBE, spec->name); }
SETTER(set_perft) {
  long n;
  int st = int_arg(spec->name, val, 0, GAME_MAX_PLY, "a number of plies from %ld to %ld", &n);
  if (st != EXIT_OK) return st;
  o->perft_depth = (int)n;
  return set_mode(o, MODE_PERFT, spec->name);
}
SETTER(set_playouts) {
  long n;
  int st = int_arg(spec->name, val, 1, 1000000000L, "a number of games from %ld", &n);
  if (st != EXIT_OK) return st;
  o->playouts = n;
  return set_mode(o, MODE_PLAYOUTS, spec->name);
}
SETTER(set_test_set) {
  o->test_set = val;
  return set_mode(o, MODE_TESTSET, spec->name);
}
SETTER(set_tree_dot) {
  o->tree_dot = val;
  return set_mode(o, MODE_TREEDOT, spec->name);
}
/* --export efg FILE, --export nfg FILE, or --export FILE.efg / FILE.nfg. */
SETTER(set_export) {
  const char *dot = strrchr(val, '.');
  o->export_path = val;
  if (o->export_format == NULL && dot && (strcmp(dot, ".efg") == 0 || strcmp(dot, ".nfg") == 0))
    o->export_format = dot + 1;
  if (o->export_format == NULL)
    return usage_error("--export takes a format and a file, 'efg FILE' or 'nfg FILE' (or a FILE "
                       "ending in .efg or .nfg), not '%s'", val);
  return set_mode(o, MODE_EXPORT, spec->name);
}
SETTER(set_make_book) {
  o->make_book = val;
  return set_mode(o, MODE_MAKEBOOK, spec->name);
}
INT_SETTER(set_depth, solve.depth, 1, AB_MAX_DEPTH, "a number of plies from %ld to %ld")
INT_SETTER(set_time_limit, time_limit, 1, STOP_MAX_SECONDS,
           "a number of seconds from %ld to %ld")
SETTER(set_position) {
  o->position = val;
  return EXIT_OK;
}
SETTER(set_fen) {
  o->fen = val;
  return EXIT_OK;
}
SETTER(set_solver) {
  if (strcmp(val, "auto") != 0 && solver_find(val) == NULL)
    return diag_fail(stderr, EXIT_USAGE, "unknown solver '%s' (%s)", val, solver_names());
  o->solve.solver = val;
  return EXIT_OK;
}
SETTER(set_iterations) {
  long n;
  int st = int_arg(spec->name, val, 0, (long)CFR_MAX_ITERATIONS,
                   "a number of iterations from %ld to %ld", &n);
  if (st != EXIT_OK) return st;
  o->solve.iterations = (uint64_t)n;
  o->solve.iterations_set = 1;
  return EXIT_OK;
}
SETTER(set_exploitability) {
  double e;
  if (parse_double(val, &e) != 0 || !(e > 0) || e > 1e300)
    return usage_error("--exploitability needs a number above 0, not '%s'", val);
  o->solve.exploitability = e;
  return EXIT_OK;
}
SETTER(set_cfr_variant) {
  if (strcmp(val, "plus") == 0) o->solve.cfr_vanilla = 0;
  else if (strcmp(val, "vanilla") == 0) o->solve.cfr_vanilla = 1;
  else return usage_error("unknown CFR variant '%s' (plus or vanilla)", val);
  return EXIT_OK;
}
SETTER(set_strategy) {
  o->solve.strategy = val;
  return EXIT_OK;
}
SETTER(set_best_response) {
  o->solve.best_response = val;
  return EXIT_OK;
}
SETTER(set_play_strategy) {
  o->play.strategy = val;
  return EXIT_OK;
}
INT_SETTER(set_tt_size, solve.tt_mib, 0, (long)TT_MAX_MIB, "a size in MiB from %ld to %ld")
SETTER(set_epsilon) {
  double e;
  if (parse_double(val, &e) != 0 || !(e > 0) || e >= 1)
    return usage_error("--epsilon needs a number above 0 and below 1, not '%s'", val);
  o->solve.epsilon = e;
  return EXIT_OK;
}
SETTER(set_engine) {
  if (strcmp(val, "auto") == 0) o->engine = ENGINE_AUTO;
  else if (strcmp(val, "vm") == 0) o->engine = ENGINE_VM;
  else if (strcmp(val, "native") == 0) o->engine = ENGINE_NATIVE;
  else if (strcmp(val, "compiled") == 0) o->engine = ENGINE_COMPILED;
  else return usage_error("unknown engine '%s' (auto, vm, native or compiled)", val);
  return EXIT_OK;
}
SETTER(set_db) {
  o->solve.db = val;
  return EXIT_OK;
}
SETTER(set_spill) {
  o->solve.spill = val;
  return EXIT_OK;
}
INT_SETTER(set_limit, limit, 1, 1000000000L, "a number of lines from %ld")
SETTER(set_score_only) {
  o->solve.score_only = strcmp(spec->name, "--score-only") == 0 ? 1 : -1;
  return EXIT_OK;
}
INT_SETTER(set_threads, solve.engine.threads, 1, 64, "a number from %ld to %ld")
SETTER(set_without) {
  /* A comma-separated list, checked by the engine's solver. */
  o->solve.engine.without = val;
  return EXIT_OK;
}
SETTER(set_book) {
  o->solve.engine.book = val;
  return EXIT_OK;
}
INT_SETTER(set_book_depth, book_depth, 0, 63, "a number of stones from %ld to %ld")
INT_SETTER(set_max_positions, solve.max_positions, 1, 4000000000L, "a number from %ld to %ld")
INT_SETTER(set_memory, solve.memory_mib, 1, (long)TT_MAX_MIB, "a size in MiB from %ld to %ld")
SETTER(set_move_time) {
  double t;
  if (parse_double(val, &t) != 0 || !(t > 0) || t > 86400)
    return usage_error("--move-time needs a number of seconds above 0 and at most 86400, "
                       "not '%s'", val);
  o->move_time = t;
  return EXIT_OK;
}
SETTER(set_play) { return play_set_option(&o->play, spec->name, val); }

/* ---- the table ------------------------------------------------------ */

#define M_TABLE (M_SOLVE | M(MODE_TESTSET) | M(MODE_PLAY) | M(MODE_GTP) | M(MODE_MAKEBOOK))
#define M_ENGINE (M_SOLVE | M(MODE_TESTSET) | M(MODE_MAKEBOOK))
#define PLAY_ONLY "%s is an option of 'gsolve play FILE'"

static const OptionSpec option_table[] = {
  { "--solve", NULL, SEC_MODE, M_ANY, NULL, "the value, distance and best moves (the default)",
    set_solve, 0 },
  { "--all-moves", NULL, SEC_MODE, M_ANY, NULL, "every move's value", set_all_moves, 0 },
  { "--perft", "N", SEC_MODE, M_ANY, NULL, "move sequences of N plies", set_perft, 0 },
  { "--count", NULL, SEC_MODE, M_ANY, NULL, "distinct reachable positions", set_count, 0 },
  { "--grundy", NULL, SEC_MODE, M_ANY, NULL, "the Grundy value of an impartial game (docs/cgt.md)",
    set_grundy, 0 },
  { "--grundy-sequence", "N", SEC_MODE, M_ANY, NULL,
    "G(0..N) of a game's components, its period and pre-period", set_grundy_seq, 0 },
  { "--check-symmetry", "N", SEC_MODE, M_ANY, NULL,
    "test the declared symmetries on N positions of random lines (--seed S)", set_symcheck, 0 },
  { "--playouts", "N", SEC_MODE, M_ANY, NULL, "N random games (--seed S)", set_playouts, 0 },
  { "--tree-dot", "OUT", SEC_MODE, M_ANY, NULL,
    "the game tree as DOT (Graphviz only to draw .svg/.png/.pdf)", set_tree_dot, 0 },
  { "--export", "efg|nfg FILE", SEC_MODE, M_ANY, NULL,
    "the game in Gambit's extensive (.efg) or strategic (.nfg) form", set_export, 0 },
  { "--test-set", "FILE", SEC_MODE, M_ANY, NULL, "solve lines \"moves score\", check scores",
    set_test_set, 0 },
  { "--make-book", "FILE", SEC_MODE, M_ANY, NULL, "an opening book of the engine's solver",
    set_make_book, 0 },
  { "--dump-db", NULL, SEC_MODE, M_ANY, NULL, "list the database of --db FILE", set_dump_db, 0 },
  { "--info-state", NULL, SEC_MODE, M_ANY, NULL, "each player's information state (views)",
    set_info_state, 0 },
  { "--describe", NULL, SEC_MODE, M_ANY, NULL, "the position, board and moves for drawing (with --json)",
    set_describe, 0 },
  { "--dump-ast", NULL, SEC_MODE, M_ANY, NULL, "the parsed game",
    set_flag, offsetof(Options, dump_ast) },
  { "--dump-bytecode", NULL, SEC_MODE, M_ANY, NULL, "the compiled rules",
    set_flag, offsetof(Options, dump_bytecode) },

  { "--position", "MOVES", SEC_OPTION, M_RUN, NULL, "play MOVES first (\"4 4 3\")",
    set_position, 0 },
  { "--fen", "FEN", SEC_OPTION, M_RUN, NULL, "start from FEN (games that declare pieces)",
    set_fen, 0 },
  { "--engine", "NAME", SEC_OPTION, M_ANY, NULL, "which engine runs the rules: auto, vm, native or compiled",
    set_engine, 0 },
  { "--json", NULL, SEC_OPTION, M_RUN & ~M(MODE_PLAY), NULL, "the report as one JSON object",
    set_flag, offsetof(Options, json) },
  { "--time-limit", "S", SEC_OPTION, M_RUN, NULL, "stop after S seconds (exit 5)",
    set_time_limit, 0 },
  { "--quiet", NULL, SEC_OPTION, M_ANY, NULL, "no progress display, no notes",
    set_flag, offsetof(Options, quiet) },
  { "--progress", NULL, SEC_OPTION,
    M_SOLVE | M(MODE_COUNT) | M(MODE_PERFT) | M(MODE_TESTSET) | M(MODE_MAKEBOOK)
    | M(MODE_PLAYOUTS), NULL,
    "progress even when stderr is no terminal",
    set_flag, offsetof(Options, progress) },
  { "--stats", NULL, SEC_OPTION, M_SOLVE, NULL, "the solver's statistics and choice on stderr",
    set_flag, offsetof(Options, stats) },
  { "--pv", NULL, SEC_OPTION, M_SOLVE, "--pv goes with --solve or --all-moves",
    "the best line, as boards", set_flag, offsetof(Options, pv) },
  { "--depth", "N", SEC_OPTION, M_SOLVE | M(MODE_TREEDOT), SOLVER_DEPTH_REFUSED,
    "alphabeta to N plies by eval; --tree-dot's depth", set_depth, 0 },
  { "--tree-prune", NULL, SEC_OPTION, M(MODE_TREEDOT), "--tree-prune needs --tree-dot OUT",
    "leave losing moves out of the tree", set_flag, offsetof(Options, tree_prune) },
  { "--limit", "N", SEC_OPTION, M(MODE_TESTSET), "--limit goes with --test-set FILE",
    "the first N lines of the test set", set_limit, 0 },
  { "--zero-based", NULL, SEC_OPTION, M(MODE_TESTSET), "--zero-based goes with --test-set FILE",
    "test-set columns from 0", set_flag, offsetof(Options, zero_based) },

  { "--solver", "NAME", SEC_SOLVER, M_SOLVE | M(MODE_TESTSET) | M(MODE_GRUNDY), NULL,
    "auto, alphabeta, minimax, retro, expectimax, value-iteration, native, db, cfr, lp",
    set_solver, 0 },
  { "--epsilon", "E", SEC_SOLVER, M_SOLVE, NULL,
    "value-iteration stops when no value changes by E (1e-12)", set_epsilon, 0 },
  { "--tt-size", "MB", SEC_SOLVER, M_TABLE, NULL, "search table size in MiB (default 64)",
    set_tt_size, 0 },
  { "--db", "FILE", SEC_SOLVER, M_SOLVE | M(MODE_DUMPDB) | M(MODE_GRUNDY), NULL,
    "retro writes a database, others answer from it", set_db, 0 },
  { "--spill", "DIR", SEC_SOLVER, M_SOLVE, NULL, "--compact keeps its layers on disk in DIR, two at a time in memory (automatic when the table does not fit)",
    set_spill, 0 },
  { "--max-positions", "N", SEC_SOLVER, M_SOLVE | M(MODE_GRUNDY), NULL, "retro stops beyond N positions",
    set_max_positions, 0 },
  { "--memory", "MB", SEC_SOLVER, M_ENGINE | M(MODE_COUNT) | M(MODE_EXPORT) | M(MODE_GRUNDY), NULL,
    "memory limit of retro and --count; caps --tt-size",
    set_memory, 0 },
  { "--compact", NULL, SEC_SOLVER, M_SOLVE, NULL, "retro keeps a value and a distance alone, a few bytes a position (placement games; games with cycles by passes)",
    set_flag, offsetof(Options, solve.compact) },
  { "--no-symmetry", NULL, SEC_SOLVER, M_SOLVE | M(MODE_GRUNDY), NULL, "retro stores every position; alphabeta searches every move of a symmetric line",
    set_flag, offsetof(Options, solve.no_symmetry) },
  { "--no-deepening", NULL, SEC_SOLVER, M_SOLVE, NULL, "alphabeta without deepening",
    set_flag, offsetof(Options, solve.no_deepening) },
  { "--score-only", NULL, SEC_SOLVER, M_SOLVE, NULL, "alphabeta by score alone (plies -)",
    set_score_only, 0 },
  { "--with-plies", NULL, SEC_SOLVER, M_SOLVE, NULL, "alphabeta with distances again",
    set_score_only, 0 },
  { "--iterations", "N", SEC_SOLVER, M_SOLVE, NULL,
    "cfr: stop after N iterations; ismcts: its budget", set_iterations, 0 },
  { "--exploitability", "E", SEC_SOLVER, M_SOLVE, NULL,
    "cfr: stop at exploitability E (default 0.001)", set_exploitability, 0 },
  { "--cfr-variant", "plus|vanilla", SEC_SOLVER, M_SOLVE, NULL, "cfr: CFR+ (default) or CFR",
    set_cfr_variant, 0 },
  { "--strategy", "FILE", SEC_SOLVER, M_SOLVE, NULL, "cfr, lp: write the strategy found",
    set_strategy, 0 },
  { "--best-response", "FILE", SEC_SOLVER, M_SOLVE, NULL,
    "lp: best responses to FILE's strategy, its exploitability", set_best_response, 0 },

  { "--weak", NULL, SEC_ENGINE, M_SOLVE | M(MODE_TESTSET), NULL,
    "win/draw/loss only (Connect Four)", set_flag, offsetof(Options, solve.engine.weak) },
  { "--threads", "N", SEC_ENGINE, M_ENGINE, NULL, "search threads (Connect Four)",
    set_threads, 0 },
  { "--without", "LIST", SEC_ENGINE, M_ENGINE, NULL, "techniques left out, to measure them",
    set_without, 0 },
  { "--book", "FILE", SEC_ENGINE, M_SOLVE | M(MODE_TESTSET), NULL,
    "an opening book made by --make-book", set_book, 0 },
  { "--book-depth", "N", SEC_ENGINE, M(MODE_MAKEBOOK), "--book-depth goes with --make-book FILE",
    "stones of the book's deepest positions (4)", set_book_depth, 0 },

  { "--level", "N|perfect", SEC_PLAY, M(MODE_PLAY) | M(MODE_GTP), PLAY_ONLY,
    "search depth (ISMCTS: 25*2^N iterations), or an exact solve (default 4)", set_play, 0 },
  { "--first", "human|computer", SEC_PLAY, M(MODE_PLAY), PLAY_ONLY, "who moves first",
    set_play, 0 },
  { "--self-play", NULL, SEC_PLAY, M(MODE_PLAY), PLAY_ONLY, "the computer plays both sides",
    set_play, 0 },
  { "--seed", "N", SEC_PLAY, M(MODE_PLAY) | M(MODE_PLAYOUTS) | M(MODE_SYMCHECK) | M_SOLVE,
    "--seed goes with gsolve play FILE, --playouts N, --check-symmetry N or --pv", "the random seed", set_play, 0 },
  { "--show-evals", NULL, SEC_PLAY, M(MODE_PLAY), PLAY_ONLY, "the computer's evaluations",
    set_play, 0 },
  { "--ascii", NULL, SEC_PLAY, M(MODE_PLAY), PLAY_ONLY, "plain ASCII boards", set_play, 0 },
  { "--play-strategy", "FILE", SEC_PLAY, M(MODE_PLAY) | M(MODE_PLAYOUTS),
    "--play-strategy goes with gsolve play FILE or --playouts N",
    "moves drawn from a --strategy file", set_play_strategy, 0 },

  { "--move-time", "S", SEC_PLAY, M(MODE_GTP), "--move-time goes with gsolve gtp FILE",
    "GTP: seconds a genmove may take without a clock (default 10)", set_move_time, 0 },

  { "--help", NULL, SEC_INFO, M_ANY, NULL, "this summary", set_help, 0 },
  { "--help-options", NULL, SEC_INFO, M_ANY, NULL, "every option, its modes and a line on it",
    set_help_options, 0 },
  { "--version", NULL, SEC_INFO, M_ANY, NULL, "the version", set_version, 0 },
  { NULL, NULL, 0, 0, NULL, NULL, NULL, 0 }
};

static const OptionSpec *find_option(const char *name) {
  if (strcmp(name, "-h") == 0) name = "--help";
  for (const OptionSpec *s = option_table; s->name; s++)
    if (strcmp(s->name, name) == 0) return s;
  return NULL;
}

/* The flag that names a mode, for messages. */
static const char *mode_name(Mode m) {
  static const char *const names[] = {
    [MODE_NONE] = "--solve", [MODE_SOLVE] = "--solve", [MODE_PERFT] = "--perft",
    [MODE_COUNT] = "--count", [MODE_DUMPDB] = "--dump-db", [MODE_TESTSET] = "--test-set",
    [MODE_PLAY] = "gsolve play", [MODE_TREEDOT] = "--tree-dot", [MODE_GTP] = "gsolve gtp",
    [MODE_PLAYOUTS] = "--playouts", [MODE_MAKEBOOK] = "--make-book",
    [MODE_INFOSTATE] = "--info-state", [MODE_GRUNDY] = "--grundy",
    [MODE_SYMCHECK] = "--check-symmetry", [MODE_EXPORT] = "--export", [MODE_DESCRIBE] = "--describe"
  };
  return names[m];
}

/* ---- help ----------------------------------------------------------- */

/* --help: the options of each section, wrapped to one screen. */
static int print_help(void) {
  fputs("usage: gsolve FILE [options]       solve, count or draw the game in FILE\n"
        "       gsolve play FILE [options]  play it against the computer\n"
        "       gsolve gtp FILE [--level N] the Go Text Protocol on stdin/stdout\n"
        "       gsolve serve [FILE ...]     a web page of the games (gsolve serve --help)\n", stdout);
  for (int sec = 0; sec < SEC_COUNT; sec++) {
    int col = printf("%s:", section_names[sec]);
    if (sec == SEC_OPTION) col += printf(" -D NAME=VALUE");
    for (const OptionSpec *s = option_table; s->name; s++) {
      if (s->section != sec) continue;
      int w = (int)strlen(s->name) + (s->arg ? 1 + (int)strlen(s->arg) : 0) + 2;
      if (col + w > 79) {
        fputs("\n ", stdout);
        col = 1;
      }
      col += printf("  %s%s%s", s->name, s->arg ? " " : "", s->arg ? s->arg : "");
    }
    putchar('\n');
  }
  fputs("exit: 0 ok, 2 bad command line or move, 3 errors in the game file, 4 runtime\n"
        "  error in a rule, 5 a limit (memory, time, cycles), 6 I/O, 130 interrupted\n"
        "Values are for the player to move: score = his payoff minus the other's;\n"
        "plies = moves to the end.  --help-options, man gsolve, docs/cli.md.\n", stdout);
  return -1;
}

/* --help-options: one line an option, with the modes that take it. */
static int print_help_options(void) {
  for (const OptionSpec *s = option_table; s->name; s++) {
    char head[48];
    snprintf(head, sizeof head, "%s%s%s", s->name, s->arg ? " " : "", s->arg ? s->arg : "");
    printf("%-30s %s", head, s->help);
    if (s->modes != M_ANY) {
      fputs(" [", stdout);
      int k = 0;
      for (int m = MODE_SOLVE; m <= MODE_MAKEBOOK; m++)
        if (s->modes & M(m)) printf("%s%s", k++ ? ", " : "", mode_name((Mode)m));
      putchar(']');
    }
    putchar('\n');
  }
  return -1;
}

/* ---- parsing -------------------------------------------------------- */

/* An option given to a mode that would not use it is an error. */
static int check_modes(const Options *o, const OptionSpec *const *given, int ngiven) {
  Mode m = o->mode == MODE_NONE ? MODE_SOLVE : o->mode;
  for (int i = 0; i < ngiven; i++) {
    const OptionSpec *s = given[i];
    if (s->modes & M(m)) continue;
    if (s->misuse) return usage_error(s->misuse, s->name);
    return diag_fail(stderr, EXIT_USAGE, "%s is not used by %s", s->name, mode_name(m));
  }
  return EXIT_OK;
}

int options_parse(int argc, char **argv, Options *o) {
  int only_files = 0, first = 1, ngiven = 0;
  const OptionSpec **given = calloc((size_t)argc + 1, sizeof *given);
  int st = EXIT_OK;
  if (given == NULL) return diag_out_of_memory(stderr);
  o->solve.tt_mib = TT_DEFAULT_MIB;
  o->book_depth = -1;
  play_defaults(&o->play);
  if (argc > 1 && strcmp(argv[1], "play") == 0) {
    o->mode = MODE_PLAY;
    o->mode_flag = "play";
    first = 2;
  } else if (argc > 1 && strcmp(argv[1], "gtp") == 0) {
    o->mode = MODE_GTP;
    o->mode_flag = "gtp";
    o->play.level = 2;      /* genmove's depth on boards too big to solve */
    first = 2;
  }
  for (int i = first; i < argc && st == EXIT_OK; i++) {
    const char *a = argv[i], *val = NULL, *eq;
    char name[32];
    if (only_files || a[0] != '-' || a[1] == '\0') {
      if (o->file != NULL) {
        st = diag_fail(stderr, EXIT_USAGE, "more than one game file ('%s' and "
                       "'%s')", o->file, a);
      }
      o->file = a;
      continue;
    }
    if (strcmp(a, "--") == 0) {
      only_files = 1;
      continue;
    }
    if (strncmp(a, "-D", 2) == 0) {
      if (a[2] != '\0') st = add_define(o, a + 2);
      else if (i + 1 < argc) st = add_define(o, argv[++i]);
      else st = usage_error("option '%s' needs an argument NAME=VALUE", a);
      continue;
    }
    /* --name=value or --name value for the options that take one. */
    eq = strchr(a, '=');
    if (eq != NULL && (size_t)(eq - a) < sizeof name) {
      memcpy(name, a, (size_t)(eq - a));
      name[eq - a] = '\0';
      val = eq + 1;
    } else if (strlen(a) < sizeof name) {
      strcpy(name, a);
    } else {
      st = usage_error("unknown option '%s' (try --help)", a);
      break;
    }
    const OptionSpec *s = find_option(name);
    if (s == NULL || (val != NULL && s->arg == NULL)) {
      st = usage_error("unknown option '%s' (try --help)", a);
      break;
    }
    if (s->arg != NULL && val == NULL) {
      if (i + 1 == argc) {
        st = usage_error("option '%s' needs an argument", name);
        break;
      }
      val = argv[++i];
    }
    /* --export's two words: the format, then the file. */
    if (s->set == set_export && (strcmp(val, "efg") == 0 || strcmp(val, "nfg") == 0) && i + 1 < argc) {
      o->export_format = val;
      val = argv[++i];
    }
    given[ngiven++] = s;
    st = s->set(o, s, val);
  }
  if (st == EXIT_OK && o->file == NULL)
    st = usage_error("%s", "no game file given (try --help)");
  if (st == EXIT_OK) st = check_modes(o, given, ngiven);
  free(given);
  if (st != EXIT_OK) return st;
  if (o->dump_ast && o->json)
    return usage_error("%s", "--dump-ast has no JSON form (--dump-bytecode --json has)");
  if (o->mode == MODE_DUMPDB && o->solve.db == NULL)
    return usage_error("%s", "--dump-db needs --db FILE");
  if (o->mode != MODE_TREEDOT && (st = solver_check_named(&o->solve, stderr)) != EXIT_OK)
    return st;
  /* --memory bounds the transposition tables too. */
  if (o->solve.memory_mib && o->solve.tt_mib > o->solve.memory_mib)
    o->solve.tt_mib = o->solve.memory_mib;
  return EXIT_OK;
}
