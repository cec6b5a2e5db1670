/*
** main.c -- the gsolve command: options, then compile, play the
** position, run one mode (solve, perft, count) and report, as text or
** as one JSON object.
**
** Runtime errors in a game's rules longjmp back here (game->trap); all
** that a run allocates hangs off one heap-allocated Run so that it can
** still be freed afterwards.
*/
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "search/alphabeta.h"
#include "search/count.h"
#include "gsolve.h"
#include "util/json.h"
#include "search/minimax.h"
#include "search/perft.h"
#include "cli/play.h"
#include "search/playout.h"
#include "cli/gtp.h"
#include "game/position.h"
#include "search/progress.h"
#include "search/pv.h"
#include "search/retro.h"
#include "search/db.h"
#include "search/expectimax.h"
#include "engines/engines.h"
#include "search/search.h"
#include "cli/treedot.h"
#include "util/stop.h"
#include "util/file.h"
#include "lang/ast.h"
#include "search/tt.h"
#include "search/value.h"

#define TT_MAX_MIB ((size_t)1 << 20)   /* --tt-size limit: 1 TiB */

typedef enum Mode { MODE_NONE, MODE_SOLVE, MODE_PERFT, MODE_COUNT, MODE_DUMPDB, MODE_TESTSET,
                   MODE_PLAY, MODE_TREEDOT, MODE_GTP, MODE_PLAYOUTS, MODE_MAKEBOOK } Mode;
enum { ENGINE_AUTO, ENGINE_VM, ENGINE_NATIVE };

typedef enum Solver { SOLVER_ALPHABETA, SOLVER_MINIMAX, SOLVER_RETRO, SOLVER_NATIVE, SOLVER_EXPECTIMAX } Solver;

typedef struct Options {
  const char *file;
  Mode mode;
  const char *mode_flag;    /* the option that chose the mode */
  Solver solver;
  int solver_set;           /* --solver was given */
  int weak;                 /* --weak: win/draw/loss only (native solver) */
  int score_only;           /* 1 --score-only, -1 --with-plies, 0 the game's
                            ** declaration (alphabeta's values) */
  const char *test_set;     /* --test-set FILE: lines "moves score" */
  long limit;               /* --limit N: first N lines; 0 all */
  long playouts;            /* --playouts N: random games */
  int zero_based;           /* --zero-based: test-set columns from 0 */
  const char *position;     /* NULL: the start position */
  int all_moves;
  int json;
  int dump_ast, dump_bytecode;
  int perft_depth;
  int depth;                /* --depth N; 0: solve to the end */
  size_t tt_mib;
  const char *db;           /* --db FILE */
  int engine;               /* ENGINE_AUTO, ENGINE_VM, ENGINE_NATIVE */
  int stats, quiet;
  int no_symmetry;          /* --no-symmetry: retro stores every position */
  int no_deepening;         /* --no-deepening: alphabeta follows lines to the end */
  long max_positions;       /* 0: no limit */
  size_t memory_mib;        /* 0: no limit */
  unsigned time_limit;      /* --time-limit SECONDS; 0: none */
  ParamDef *defs;           /* -D overrides, names cut from copies ... */
  char **def_text;          /* ... kept here to be freed */
  int ndefs;
  PlayOptions play;         /* gsolve play FILE: its options */
  const char *tree_dot;     /* --tree-dot OUT */
  int tree_prune;           /* --tree-prune: losing moves left out */
  int pv;                   /* --pv: the principal variation, as boards */
  int progress;             /* --progress: even when stderr is no terminal */
  int threads;              /* --threads N: the native Connect Four solver's */
  unsigned without;         /* --without LIST: its techniques left out (C4_NO_*) */
  const char *book;         /* --book FILE: its opening book */
  const char *make_book;    /* --make-book FILE */
  int book_depth;           /* --book-depth N: stones of the deepest book positions
                               (-1: not given, 4) */
} Options;

/* Everything a run allocates after the engine exists. */
typedef struct Run {
  const Options *opt;
  const Program *prog;
  Game *g;
  Position pos;
  Search search;
  Tt *tt;
  Perft perft;
  Count count;
  Retro retro;
  ExpSolver exp;            /* expected values (chance, pay, n players) */
  Playouts playouts;        /* --playouts N */
  int expected;             /* the result is in exp, not search */
  Solver solver;            /* the solver that ran */
  C4Solver *c4;             /* the native Connect Four solver, once made */
  C4Book *c4book;           /* --book FILE, once read */
  int no_plies;             /* the solver gives no distances (nim-sum rule, --weak) */
  uint64_t c4_book_hits;    /* positions the native solver found in its book */
  AbOptions ab;             /* alphabeta's options, and its statistics */
  double seconds;           /* time spent in the mode */
  Progress progress;        /* alphabeta's and minimax's, on a terminal */
  Pv pv;                    /* --pv */
} Run;

static const char usage_text[] =
  "usage: gsolve FILE [options]       solve, count or draw the game in FILE\n"
  "       gsolve play FILE [options]  play it against the computer\n"
  "modes: --solve (default)  --all-moves (every move's value)  --perft N\n"
  "  --count (distinct positions)  --depth N (alphabeta to N plies, by eval)\n"
  "  --tree-dot OUT (.dot, .svg, .png: the game tree; --depth N, --tree-prune)\n"
  "  --pv (the best line, as boards)  --playouts N (random games; --seed S)\n"
  "  --test-set FILE [--limit N --zero-based]  --dump-ast  --dump-bytecode\n"
  "options: --position MOVES (\"4 4 3\", \"take 1 3, take 2 1\")  -D NAME=VALUE\n"
  "  --solver alphabeta|minimax|retro|native|expectimax  --engine auto|vm|native\n"
  "  --tt-size MB  --db FILE  --dump-db  --max-positions N  --memory MB\n"
  "  --time-limit S  --no-symmetry  --no-deepening  --weak  --json  --stats\n"
  "  --quiet (no progress)  --progress (even off a tty)\n"
  "  --score-only (no distances: plies -)  --with-plies (distances again)\n"
  "connect4: --threads N  --without LIST  --book FILE\n"
  "  --make-book FILE [--book-depth N] (solve the first N plies into a book)\n"
  "play: --level N|perfect (default 4)  --first human|computer  --self-play\n"
  "  --seed N  --show-evals  --ascii; type moves, or undo, hint, help, quit\n"
  "gtp: gsolve gtp FILE [--level N]: the Go Text Protocol on stdin/stdout\n"
  "  --help  --version\n"
  "exit: 0 ok, 2 bad command line or move, 3 errors in the game file,\n"
  "  4 runtime error in a rule, 5 a limit (memory, time, depth, cycles),\n"
  "  6 I/O, 130 interrupted (Ctrl-C)\n"
  "Values are for the player to move: score = his payoff minus the other's;\n"
  "plies = moves to the end.  man gsolve, docs/cli.md, docs/tutorial.md.\n";

static int usage_error(const char *fmt, const char *arg) {
  fputs("gsolve: error: ", stderr);
  fprintf(stderr, fmt, arg);
  fputc('\n', stderr);
  return EXIT_USAGE;
}

static int out_of_memory(void) {
  fputs("gsolve: error: out of memory\n", stderr);
  return EXIT_LIMIT;
}

/* The retrograde solver's memory limit without --memory: three quarters
** of the physical memory, so that it stops with a message rather than
** being killed by the system.  0 (none) if the size is unknown. */
static size_t default_memory(void) {
  long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
  if (pages <= 0 || size <= 0) return 0;
  return (size_t)pages / 4 * 3 * (size_t)size;
}

/* The native Connect Four solver for q's board, made once with the
** options' table size, threads, techniques and book; an exit status. */
static int c4_solver(Run *r, const C4Query *q) {
  const Options *o = r->opt;
  if (r->c4) return EXIT_OK;
  if (o->book && r->c4book == NULL) {
    int st = c4book_load(o->book, q->width, q->height, &r->c4book, stderr);
    if (st != EXIT_OK) return st;
  }
  C4Config cfg = { o->tt_mib, o->threads ? o->threads : 1, o->without, r->c4book };
  if (o->tt_mib == 0) cfg.without |= C4_NO_TABLE;
  if ((r->c4 = c4_new(q->width, q->height, &cfg)) == NULL) return out_of_memory();
  return EXIT_OK;
}

/* The native Connect Four solver stopped (Ctrl-C, --time-limit). */
static int c4_stopped(const C4Answer *a) {
  char msg[160];
  int st = stop_message(msg, sizeof msg, a->nodes, "nodes");
  fprintf(stderr, "gsolve: error: %s\n", msg);
  return st;
}

static void free_options(Options *o) {
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
  if (errno != 0 || end == s || *end != '\0' || v < lo || v > hi) return -1;
  *out = v;
  return 0;
}

static int set_mode(Options *o, Mode m, const char *flag) {
  if (o->mode != MODE_NONE && o->mode != m) {
    fprintf(stderr, "gsolve: error: %s and %s cannot be combined (one mode "
            "per run)\n", o->mode_flag, flag);
    return EXIT_USAGE;
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
    if (d == NULL) return out_of_memory();
    o->defs = d;
    t = realloc(o->def_text, (size_t)(o->ndefs + 8) * sizeof *t);
    if (t == NULL) return out_of_memory();
    o->def_text = t;
  }
  if ((copy = strdup(text)) == NULL) return out_of_memory();
  copy[eq - text] = '\0';
  o->def_text[o->ndefs] = copy;
  o->defs[o->ndefs].name = copy;
  o->defs[o->ndefs].value = copy + (eq - text) + 1;
  o->ndefs++;
  return EXIT_OK;
}

/* Returns EXIT_OK to run, -1 after --help or --version, else a status. */
static int parse_args(int argc, char **argv, Options *o) {
  int only_files = 0, first = 1;
  o->tt_mib = TT_DEFAULT_MIB;
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
  for (int i = first; i < argc; i++) {
    const char *a = argv[i], *val = NULL, *eq;
    char name[32];
    long n;
    int st;
    if (only_files || a[0] != '-' || a[1] == '\0') {
      if (o->file != NULL) {
        fprintf(stderr, "gsolve: error: more than one game file ('%s' and "
                "'%s')\n", o->file, a);
        return EXIT_USAGE;
      }
      o->file = a;
      continue;
    }
    if (strcmp(a, "--") == 0) {
      only_files = 1;
      continue;
    }
    if (strncmp(a, "-D", 2) == 0) {
      if (a[2] != '\0') {
        st = add_define(o, a + 2);
      } else if (i + 1 < argc) {
        st = add_define(o, argv[++i]);
      } else {
        return usage_error("option '%s' needs an argument NAME=VALUE", a);
      }
      if (st != EXIT_OK) return st;
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
      return usage_error("unknown option '%s' (try --help)", a);
    }
    if (strcmp(name, "--perft") == 0 || strcmp(name, "--playouts") == 0 || strcmp(name, "--position") == 0
        || strcmp(name, "--solver") == 0 || strcmp(name, "--tt-size") == 0
        || strcmp(name, "--db") == 0 || strcmp(name, "--max-positions") == 0
        || strcmp(name, "--memory") == 0 || strcmp(name, "--engine") == 0
        || strcmp(name, "--test-set") == 0 || strcmp(name, "--limit") == 0
        || strcmp(name, "--depth") == 0 || strcmp(name, "--tree-dot") == 0
        || strcmp(name, "--time-limit") == 0 || strcmp(name, "--threads") == 0
        || strcmp(name, "--without") == 0 || strcmp(name, "--book") == 0
        || strcmp(name, "--make-book") == 0 || strcmp(name, "--book-depth") == 0
        || play_option_takes_value(name)) {
      if (val == NULL) {
        if (i + 1 == argc)
          return usage_error("option '%s' needs an argument", name);
        val = argv[++i];
      }
    } else if (val != NULL) {
      return usage_error("unknown option '%s' (try --help)", a);
    }

    if (strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0) {
      fputs(usage_text, stdout);
      return -1;
    } else if (strcmp(name, "--version") == 0) {
      printf("gsolve %s\n", GSOLVE_VERSION);
      return -1;
    } else if (strcmp(name, "--solve") == 0) {
      if ((st = set_mode(o, MODE_SOLVE, "--solve")) != EXIT_OK) return st;
    } else if (strcmp(name, "--all-moves") == 0) {
      if ((st = set_mode(o, MODE_SOLVE, "--all-moves")) != EXIT_OK) return st;
      o->all_moves = 1;
    } else if (strcmp(name, "--perft") == 0) {
      if (parse_int(val, 0, GAME_MAX_PLY, &n) != 0) {
        fprintf(stderr, "gsolve: error: --perft needs a number of plies from "
                "0 to %d, not '%s'\n", GAME_MAX_PLY, val);
        return EXIT_USAGE;
      }
      if ((st = set_mode(o, MODE_PERFT, "--perft")) != EXIT_OK) return st;
      o->perft_depth = (int)n;
    } else if (strcmp(name, "--depth") == 0) {
      if (parse_int(val, 1, AB_MAX_DEPTH, &n) != 0) {
        fprintf(stderr, "gsolve: error: --depth needs a number of plies from "
                "1 to %d, not '%s'\n", AB_MAX_DEPTH, val);
        return EXIT_USAGE;
      }
      o->depth = (int)n;
    } else if (strcmp(name, "--time-limit") == 0) {
      if (parse_int(val, 1, STOP_MAX_SECONDS, &n) != 0) {
        fprintf(stderr, "gsolve: error: --time-limit needs a number of seconds from "
                "1 to %d, not '%s'\n", STOP_MAX_SECONDS, val);
        return EXIT_USAGE;
      }
      o->time_limit = (unsigned)n;
    } else if (strcmp(name, "--count") == 0) {
      if ((st = set_mode(o, MODE_COUNT, "--count")) != EXIT_OK) return st;
    } else if (strcmp(name, "--playouts") == 0) {
      if (parse_int(val, 1, 1000000000L, &n) != 0)
        return usage_error("--playouts needs a number of games from 1, not '%s'", val);
      if ((st = set_mode(o, MODE_PLAYOUTS, "--playouts")) != EXIT_OK) return st;
      o->playouts = n;
    } else if (strcmp(name, "--position") == 0) {
      o->position = val;
    } else if (strcmp(name, "--solver") == 0) {
      if (strcmp(val, "alphabeta") == 0)
        o->solver = SOLVER_ALPHABETA;
      else if (strcmp(val, "minimax") == 0)
        o->solver = SOLVER_MINIMAX;
      else if (strcmp(val, "retro") == 0)
        o->solver = SOLVER_RETRO;
      else if (strcmp(val, "native") == 0)
        o->solver = SOLVER_NATIVE;
      else if (strcmp(val, "expectimax") == 0 || strcmp(val, "maxn") == 0)
        o->solver = SOLVER_EXPECTIMAX;
      else
        return usage_error("unknown solver '%s' (alphabeta, minimax, retro, native or expectimax)", val);
      o->solver_set = 1;
    } else if (strcmp(name, "--tt-size") == 0) {
      if (parse_int(val, 0, (long)TT_MAX_MIB, &n) != 0) {
        fprintf(stderr, "gsolve: error: --tt-size needs a size in MiB from "
                "0 to %zu, not '%s'\n", TT_MAX_MIB, val);
        return EXIT_USAGE;
      }
      o->tt_mib = (size_t)n;
    } else if (strcmp(name, "--engine") == 0) {
      if (strcmp(val, "auto") == 0) o->engine = ENGINE_AUTO;
      else if (strcmp(val, "vm") == 0) o->engine = ENGINE_VM;
      else if (strcmp(val, "native") == 0) o->engine = ENGINE_NATIVE;
      else return usage_error("unknown engine '%s' (auto, vm or native)", val);
    } else if (strcmp(name, "--db") == 0) {
      o->db = val;
    } else if (strcmp(name, "--dump-db") == 0) {
      if ((st = set_mode(o, MODE_DUMPDB, "--dump-db")) != EXIT_OK) return st;
    } else if (strcmp(name, "--test-set") == 0) {
      if ((st = set_mode(o, MODE_TESTSET, "--test-set")) != EXIT_OK) return st;
      o->test_set = val;
    } else if (strcmp(name, "--limit") == 0) {
      if (parse_int(val, 1, 1000000000L, &n) != 0)
        return usage_error("--limit needs a number of lines from 1, not '%s'", val);
      o->limit = n;
    } else if (strcmp(name, "--zero-based") == 0) {
      o->zero_based = 1;
    } else if (strcmp(name, "--weak") == 0) {
      o->weak = 1;
    } else if (strcmp(name, "--score-only") == 0) {
      o->score_only = 1;
    } else if (strcmp(name, "--with-plies") == 0) {
      o->score_only = -1;
    } else if (strcmp(name, "--threads") == 0) {
      if (parse_int(val, 1, 64, &n) != 0)
        return usage_error("--threads needs a number from 1 to 64, not '%s'", val);
      o->threads = (int)n;
    } else if (strcmp(name, "--without") == 0) {
      /* A comma-separated list of the native Connect Four solver's techniques. */
      char list[256];
      snprintf(list, sizeof list, "%s", val);
      for (char *t = strtok(list, ","); t; t = strtok(NULL, ",")) {
        unsigned bit = c4_technique(t);
        if (bit == 0) {
          fprintf(stderr, "gsolve: error: --without: unknown technique '%s' (%s)\n", t,
                  c4_technique_names);
          return EXIT_USAGE;
        }
        o->without |= bit;
      }
    } else if (strcmp(name, "--book") == 0) {
      o->book = val;
    } else if (strcmp(name, "--make-book") == 0) {
      if ((st = set_mode(o, MODE_MAKEBOOK, "--make-book")) != EXIT_OK) return st;
      o->make_book = val;
    } else if (strcmp(name, "--book-depth") == 0) {
      if (parse_int(val, 0, 63, &n) != 0)
        return usage_error("--book-depth needs a number of stones from 0 to 63, not '%s'", val);
      o->book_depth = (int)n;
    } else if (strcmp(name, "--no-symmetry") == 0) {
      o->no_symmetry = 1;
    } else if (strcmp(name, "--no-deepening") == 0) {
      o->no_deepening = 1;
    } else if (strcmp(name, "--stats") == 0) {
      o->stats = 1;
    } else if (strcmp(name, "--quiet") == 0) {
      o->quiet = 1;
    } else if (strcmp(name, "--max-positions") == 0) {
      if (parse_int(val, 1, 4000000000L, &n) != 0)
        return usage_error("--max-positions needs a number from 1 to 4000000000, not '%s'", val);

      o->max_positions = n;
    } else if (strcmp(name, "--memory") == 0) {
      if (parse_int(val, 1, (long)TT_MAX_MIB, &n) != 0)
        return usage_error("--memory needs a size in MiB from 1 to 1048576, not '%s'", val);
      o->memory_mib = (size_t)n;
    } else if (strcmp(name, "--json") == 0) {
      o->json = 1;
    } else if (strcmp(name, "--dump-ast") == 0) {
      o->dump_ast = 1;
    } else if (strcmp(name, "--dump-bytecode") == 0) {
      o->dump_bytecode = 1;
    } else if (play_is_option(name)) {
      if (o->mode != MODE_PLAY && !(o->mode == MODE_GTP && strcmp(name, "--level") == 0)
          && strcmp(name, "--seed") != 0)
        return usage_error("%s is an option of 'gsolve play FILE'", name);
      if ((st = play_set_option(&o->play, name, val)) != EXIT_OK) return st;
    } else if (strcmp(name, "--tree-dot") == 0) {
      if ((st = set_mode(o, MODE_TREEDOT, "--tree-dot")) != EXIT_OK) return st;
      o->tree_dot = val;
    } else if (strcmp(name, "--tree-prune") == 0) {
      o->tree_prune = 1;
    } else if (strcmp(name, "--pv") == 0) {
      o->pv = 1;
    } else if (strcmp(name, "--progress") == 0) {
      o->progress = 1;
    } else {
      return usage_error("unknown option '%s' (try --help)", a);
    }
  }
  if (o->file == NULL)
    return usage_error("%s", "no game file given (try --help)");
  if (o->mode == MODE_DUMPDB && o->db == NULL)
    return usage_error("%s", "--dump-db needs --db FILE");
  if (o->depth && o->mode != MODE_TREEDOT
      && ((o->mode != MODE_NONE && o->mode != MODE_SOLVE)
          || o->solver != SOLVER_ALPHABETA || o->db))
    return usage_error("%s", "--depth is a search of the alphabeta solver "
                       "(with --solve or --all-moves) or the depth of --tree-dot");
  if (o->tree_prune && o->mode != MODE_TREEDOT)
    return usage_error("%s", "--tree-prune needs --tree-dot OUT");
  if (o->pv && o->mode != MODE_NONE && o->mode != MODE_SOLVE)
    return usage_error("%s", "--pv goes with --solve or --all-moves");
  if (o->book_depth >= 0 && o->mode != MODE_MAKEBOOK)
    return usage_error("%s", "--book-depth goes with --make-book FILE");
  if ((o->limit || o->zero_based) && o->mode != MODE_TESTSET)
    return usage_error("%s goes with --test-set FILE", o->limit ? "--limit" : "--zero-based");
  /* --memory bounds the transposition tables too. */
  if (o->memory_mib && o->tt_mib > o->memory_mib) o->tt_mib = o->memory_mib;
  return EXIT_OK;
}

/* Reads the whole file into a NUL-terminated buffer. */
static int read_file(const char *path, char **text, size_t *len) {
  /* Bounded by the parser's own limit: /dev/zero is refused, not read. */
  return file_read(path, AST_MAX_SOURCE, text, len, stderr);
}

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---- reporting ---------------------------------------------------- */

/* The parameters as text ("heaps=1,3,5,7"), or NULL. */
static char *params_text(const Program *p) {
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  if (f == NULL) return NULL;
  gs_write_params_text(p, f);
  if (fclose(f) != 0) {
    free(buf);
    return NULL;
  }
  return buf;
}

static char *move_text(Game *g, const Move *m, char *buf, size_t size) {
  buf[0] = '\0';
  game_format_move(g, m, buf, size);
  buf[size - 1] = '\0';
  return buf;
}

static void text_header(const Run *r) {
  char *params = params_text(r->prog);
  printf("game: %s", r->g->name);
  if (params != NULL && params[0] != '\0') printf(" (%s)", params);
  free(params);
  fputs("\nposition: ", stdout);
  if (r->pos.n == 0) fputs("start", stdout);
  for (int i = 0; i < r->pos.n; i++)
    printf("%s%s", i ? ", " : "", r->pos.moves[i]);
  printf("\nto move: %s\n", game_mover_name(r->g));
}

static const char *solver_name(const Run *r) {
  if (r->opt->db && r->solver != SOLVER_RETRO) return "db";
  switch (r->solver) {
    case SOLVER_MINIMAX: return "minimax";
    case SOLVER_RETRO: return "retro";
    case SOLVER_NATIVE: return r->g->engine;
    case SOLVER_EXPECTIMAX: return "expectimax";
    default: return "alphabeta";
  }
}

/* A solver's value: score and plies; *proven is 0 for the eval of a
** position at the --depth horizon (then only the score means anything). */
static void decode_value(const Run *r, Value v, int64_t *score,
                         int64_t *plies, int *proven) {
  alphabeta_decode(v, r->opt->depth, score, plies, proven);
}

static void text_solve(const Run *r) {
  const SolveResult *res = &r->search.result;
  char buf[256];
  int64_t score, plies;
  int i, k, proven;
  decode_value(r, res->value, &score, &plies, &proven);
  if (r->opt->depth) printf("depth: %d\n", r->opt->depth);
  printf("value: %s\nscore: %" PRId64 "\n",
         proven ? value_verdict(score) : "-", score);
  if (plies >= RETRO_ENDLESS || r->no_plies || !proven) printf("plies: -\nbest: ");   /* a draw forever */
  else printf("plies: %" PRId64 "\nbest: ", plies);
  if (res->nbest == 0) fputs("-", stdout);
  for (i = k = 0; i < res->nmoves; i++)
    if (res->best[i])
      printf("%s%s", k++ ? ", " : "",
             move_text(r->g, &res->moves[i], buf, sizeof buf));
  printf("\nnodes: %" PRIu64 "\n", r->search.nodes);
  if (r->opt->solver == SOLVER_RETRO || r->opt->db)
    printf("positions: %" PRIu64 "\nstored: %" PRIu64 "\n", r->retro.positions, r->retro.stored);
  printf("seconds: %.3f\nsolver: %s\nengine: %s\n", r->seconds,
         solver_name(r), r->g->engine);
  if (r->opt->all_moves && res->nmoves > 0) {
    int width = 4;
    for (i = 0; i < res->nmoves; i++) {
      int w = (int)strlen(move_text(r->g, &res->moves[i], buf, sizeof buf));
      if (w > width) width = w;
    }
    printf("%-*s  value  score  plies\n", width, "move");
    for (i = 0; i < res->nmoves; i++) {
      decode_value(r, res->values[i], &score, &plies, &proven);
      printf("%-*s  %-5s  %5" PRId64 "  ", width,
             move_text(r->g, &res->moves[i], buf, sizeof buf),
             proven ? value_verdict(score) : "-", score);
      if (plies >= RETRO_ENDLESS || r->no_plies || !proven) printf("%5s\n", "-");
      else printf("%5" PRId64 "\n", plies);
    }
  }
}

static void report_text(const Run *r) {
  text_header(r);
  switch (r->opt->mode) {
  case MODE_PERFT:
    printf("perft %d: %" PRIu64 "\ngames: %" PRIu64 "\nnodes: %" PRIu64
           "\nseconds: %.3f\nengine: %s\n", r->opt->perft_depth, r->perft.count,
           r->perft.games, r->perft.nodes, r->seconds, r->g->engine);
    break;
  case MODE_PLAYOUTS: {
    const Playouts *pl = &r->playouts;
    printf("playouts: %" PRIu64 "\nmoves: %" PRIu64 " (%.1f a game)\nwins:", pl->games,
           pl->moves, pl->games ? (double)pl->moves / (double)pl->games : 0.0);
    for (int i = 0; i < r->g->nplayers; i++)
      printf("%s %s %" PRIu64, i ? "," : "", r->g->player_names[i], pl->wins[i]);
    printf("\ndraws: %" PRIu64 "\nseconds: %.3f\nplayouts/s: %.0f\nengine: %s\n", pl->draws,
           r->seconds, r->seconds > 0 ? (double)pl->games / r->seconds : 0.0, r->g->engine);
    break;
  }
  case MODE_COUNT:
    printf("positions: %" PRIu64 "\nterminal: %" PRIu64 "\n", r->count.positions,
           r->count.terminal);
    if (r->count.canonical)
      printf("canonical: %" PRIu64 "\n", r->count.canonical);
    if (r->count.boards)
      printf("boards: %" PRIu64 "\n", r->count.boards);
    printf("nodes: %" PRIu64 "\nseconds: %.3f\nengine: %s\n",
           r->count.nodes, r->seconds, r->g->engine);
    break;
  default:
    text_solve(r);
  }
}

/* The fields every JSON report starts with: the game, its parameters,
** the position and the player to move (an object is left open). */
static void json_head(JsonWriter *w, const Run *r) {
  json_init(w, stdout);
  json_begin_object(w);
  json_key(w, "game");
  json_string(w, r->g->name);
  json_key(w, "params");
  json_raw(w);
  gs_write_params_json(r->prog, stdout);
  json_key(w, "position");
  json_begin_array(w);
  for (int i = 0; i < r->pos.n; i++) json_string(w, r->pos.moves[i]);
  json_end_array(w);
  json_key(w, "to_move");
  json_string(w, game_mover_name(r->g));
}

/* One object with every field; those the mode does not compute are null. */
static void report_json(const Run *r) {
  const SolveResult *res = &r->search.result;
  Mode mode = r->opt->mode;
  JsonWriter w;
  char buf[256];
  int64_t score = 0, plies = 0;
  int proven = 1;
  uint64_t nodes = mode == MODE_PLAYOUTS ? r->playouts.moves + r->playouts.games
                 : mode == MODE_PERFT ? r->perft.nodes
                 : mode == MODE_COUNT ? r->count.nodes : r->search.nodes;
  int i;

  json_head(&w, r);

  if (mode == MODE_SOLVE) decode_value(r, res->value, &score, &plies, &proven);
  json_key(&w, "value");
  if (mode == MODE_SOLVE && proven) json_string(&w, value_verdict(score));
  else json_null(&w);
  json_key(&w, "score");
  if (mode == MODE_SOLVE) json_int(&w, score);
  else json_null(&w);
  json_key(&w, "plies");
  if (mode == MODE_SOLVE && plies < RETRO_ENDLESS && !r->no_plies && proven) json_int(&w, plies);
  else json_null(&w);
  json_key(&w, "best");
  if (mode == MODE_SOLVE) {
    json_begin_array(&w);
    for (i = 0; i < res->nmoves; i++)
      if (res->best[i])
        json_string(&w, move_text(r->g, &res->moves[i], buf, sizeof buf));
    json_end_array(&w);
  } else {
    json_null(&w);
  }

  json_key(&w, "nodes");
  json_uint(&w, nodes);
  json_key(&w, "seconds");
  json_double(&w, r->seconds);
  json_key(&w, "solver");
  if (mode == MODE_SOLVE)
    json_string(&w, solver_name(r));
  else
    json_null(&w);
  json_key(&w, "engine");
  json_string(&w, r->g->engine);
  json_key(&w, "perft");
  if (mode == MODE_PERFT) json_uint(&w, r->perft.count);
  else json_null(&w);
  json_key(&w, "depth");
  if (mode == MODE_PERFT) json_int(&w, r->opt->perft_depth);
  else if (mode == MODE_SOLVE && r->opt->depth) json_int(&w, r->opt->depth);
  else json_null(&w);
  json_key(&w, "positions");
  if (mode == MODE_COUNT) json_uint(&w, r->count.positions);
  else if (mode == MODE_SOLVE && (r->opt->solver == SOLVER_RETRO || r->opt->db)) json_uint(&w, r->retro.positions);
  else json_null(&w);
  json_key(&w, "stored");
  if (mode == MODE_SOLVE && (r->opt->solver == SOLVER_RETRO || r->opt->db)) json_uint(&w, r->retro.stored);
  else json_null(&w);
  json_key(&w, "terminal");
  if (mode == MODE_COUNT) json_uint(&w, r->count.terminal);
  else json_null(&w);
  json_key(&w, "canonical");
  if (mode == MODE_COUNT && r->count.canonical) json_uint(&w, r->count.canonical);
  else json_null(&w);
  json_key(&w, "games");
  if (mode == MODE_PERFT) json_uint(&w, r->perft.games);
  else json_null(&w);
  json_key(&w, "boards");
  if (mode == MODE_COUNT && r->count.boards) json_uint(&w, r->count.boards);
  else json_null(&w);
  json_key(&w, "playouts");
  if (mode == MODE_PLAYOUTS) {
    json_begin_object(&w);
    json_key(&w, "games");
    json_uint(&w, r->playouts.games);
    json_key(&w, "moves");
    json_uint(&w, r->playouts.moves);
    json_key(&w, "wins");
    json_begin_array(&w);
    for (i = 0; i < r->g->nplayers; i++) json_uint(&w, r->playouts.wins[i]);
    json_end_array(&w);
    json_key(&w, "draws");
    json_uint(&w, r->playouts.draws);
    json_end_object(&w);
  } else {
    json_null(&w);
  }
  json_key(&w, "payoffs");
  json_null(&w);

  if (mode == MODE_SOLVE && r->opt->pv) {
    json_key(&w, "pv");
    json_begin_array(&w);
    for (i = 0; i < r->pv.n; i++) json_string(&w, r->pv.names[i]);
    json_end_array(&w);
    json_key(&w, "pv_repeats_from");
    if (r->pv.repeats_from >= 0) json_int(&w, r->pv.repeats_from); else json_null(&w);
  }
  if (mode == MODE_SOLVE && r->opt->all_moves) {
    json_key(&w, "moves");
    json_begin_array(&w);
    for (i = 0; i < res->nmoves; i++) {
      decode_value(r, res->values[i], &score, &plies, &proven);
      json_begin_object(&w);
      json_key(&w, "move");
      json_string(&w, move_text(r->g, &res->moves[i], buf, sizeof buf));
      json_key(&w, "value");
      if (proven) json_string(&w, value_verdict(score));
      else json_null(&w);
      json_key(&w, "score");
      json_int(&w, score);
      json_key(&w, "plies");
      if (plies < RETRO_ENDLESS && !r->no_plies && proven) json_int(&w, plies);
      else json_null(&w);
      json_key(&w, "probability");
      json_null(&w);
      json_end_object(&w);
    }
    json_end_array(&w);
  }
  json_end_object(&w);
  fputc('\n', stdout);
}

/* ---- reporting expected values ------------------------------------ */

/* An expected value as shown: 0 when the solvers take it as equal to 0
** (EXP_EPS), so rounding noise (2.8e-17 for a symmetric game) is neither
** printed nor given a sign. */
static double exp_shown(double x) {
  return fabs(x) <= EXP_EPS * (1 + fabs(x)) ? 0.0 : x;
}

/* The score of an expected value for the root's mover; at a chance root,
** for the first player. */
static double exp_root_score(const Run *r, const ExpValue *v) {
  int m = r->exp.result.mover;
  return exp_shown(exp_score(r->g, v, m == GAME_CHANCE ? 0 : m));
}

/* "win", "loss" or "draw" when the value is certain, else NULL. */
static const char *exp_verdict(const Run *r, double score) {
  if (!r->exp.result.deterministic || r->g->nplayers > 2) return NULL;
  return score > 0.5e-9 ? "win" : score < -0.5e-9 ? "loss" : "draw";
}

static void text_expected(const Run *r) {
  const ExpResult *res = &r->exp.result;
  char buf[256];
  double sc = exp_root_score(r, &res->value);
  const char *verdict = exp_verdict(r, sc);
  int i, k;
  printf("value: %s\nscore: %.10g\n", verdict ? verdict : "-", sc);
  if (res->vector) {
    fputs("payoffs:", stdout);
    for (i = 0; i < r->g->nplayers; i++)
      printf("%s %s %.10g", i ? "," : "", r->g->player_names[i], exp_shown(res->value.pay[i]));
    fputc('\n', stdout);
  }
  if (res->deterministic) printf("plies: %.0f\n", res->value.plies);
  else printf("plies: -\n");
  fputs("best: ", stdout);
  if (res->nbest == 0) fputs("-", stdout);
  for (i = k = 0; i < res->nmoves; i++)
    if (res->best[i])
      printf("%s%s", k++ ? ", " : "", move_text(r->g, &res->moves[i], buf, sizeof buf));
  printf("\nnodes: %" PRIu64 "\n", r->exp.nodes);
  if (r->solver == SOLVER_RETRO)
    printf("positions: %" PRIu64 "\nstored: %" PRIu64 "\n", r->retro.positions, r->retro.stored);
  printf("seconds: %.3f\nsolver: %s\nengine: %s\n", r->seconds, solver_name(r), r->g->engine);
  if (r->opt->all_moves && res->nmoves > 0) {
    int width = 4;
    for (i = 0; i < res->nmoves; i++) {
      int w = (int)strlen(move_text(r->g, &res->moves[i], buf, sizeof buf));
      if (w > width) width = w;
    }
    printf("%-*s  value  %12s  plies%s\n", width, "move", "score", res->prob ? "  probability" : "");
    for (i = 0; i < res->nmoves; i++) {
      double s = exp_root_score(r, &res->values[i]);
      const char *v = exp_verdict(r, s);
      printf("%-*s  %-5s  %12.10g  ", width, move_text(r->g, &res->moves[i], buf, sizeof buf),
             v ? v : "-", s);
      if (res->deterministic) printf("%5.0f", res->values[i].plies);
      else printf("%5s", "-");
      if (res->prob) printf("  %11.10g", res->prob[i]);
      fputc('\n', stdout);
    }
  }
}

static void json_expected(const Run *r) {
  const ExpResult *res = &r->exp.result;
  JsonWriter w;
  char buf[256];
  int i;
  double sc = exp_root_score(r, &res->value);
  const char *verdict = exp_verdict(r, sc);
  json_head(&w, r);
  json_key(&w, "value");
  if (verdict) json_string(&w, verdict); else json_null(&w);
  json_key(&w, "score");
  json_real(&w, sc);
  json_key(&w, "plies");
  if (res->deterministic) json_int(&w, (int64_t)res->value.plies); else json_null(&w);
  json_key(&w, "best");
  json_begin_array(&w);
  for (i = 0; i < res->nmoves; i++)
    if (res->best[i]) json_string(&w, move_text(r->g, &res->moves[i], buf, sizeof buf));
  json_end_array(&w);
  json_key(&w, "nodes");
  json_uint(&w, r->exp.nodes);
  json_key(&w, "seconds");
  json_double(&w, r->seconds);
  json_key(&w, "solver");
  json_string(&w, solver_name(r));
  json_key(&w, "engine");
  json_string(&w, r->g->engine);
  static const char *const nulls[] = { "perft", "depth" };
  for (i = 0; i < 2; i++) { json_key(&w, nulls[i]); json_null(&w); }
  json_key(&w, "positions");
  if (r->solver == SOLVER_RETRO) json_uint(&w, r->retro.positions); else json_null(&w);
  json_key(&w, "stored");
  if (r->solver == SOLVER_RETRO) json_uint(&w, r->retro.stored); else json_null(&w);
  static const char *const nulls2[] = { "terminal", "canonical", "games", "boards", "playouts" };
  for (i = 0; i < 5; i++) { json_key(&w, nulls2[i]); json_null(&w); }
  json_key(&w, "payoffs");
  if (res->vector) {
    json_begin_array(&w);
    for (i = 0; i < r->g->nplayers; i++) json_real(&w, exp_shown(res->value.pay[i]));
    json_end_array(&w);
  } else {
    json_null(&w);
  }
  if (r->opt->all_moves) {
    json_key(&w, "moves");
    json_begin_array(&w);
    for (i = 0; i < res->nmoves; i++) {
      double s = exp_root_score(r, &res->values[i]);
      const char *v = exp_verdict(r, s);
      json_begin_object(&w);
      json_key(&w, "move");
      json_string(&w, move_text(r->g, &res->moves[i], buf, sizeof buf));
      json_key(&w, "value");
      if (v) json_string(&w, v); else json_null(&w);
      json_key(&w, "score");
      json_real(&w, s);
      json_key(&w, "plies");
      if (res->deterministic) json_int(&w, (int64_t)res->values[i].plies); else json_null(&w);
      json_key(&w, "probability");
      if (res->prob) json_real(&w, res->prob[i]); else json_null(&w);
      json_end_object(&w);
    }
    json_end_array(&w);
  }
  json_end_object(&w);
  fputc('\n', stdout);
}

static void retro_stats(const Run *r);

/* Solves with expected values: --solver expectimax, or alphabeta (Star1)
** on a game with chance moves or per-move payoffs. */
static int run_expected(Run *r) {
  const Options *o = r->opt;
  if (o->depth)
    return usage_error("%s", "--depth takes deterministic games without per-move payoffs");
  if (o->pv)
    return usage_error("%s", "--pv takes games without chance, per-move payoffs or more than two players");
  if (o->db)
    return usage_error("%s", "--db takes the retrograde solver, which does not handle chance, "
                       "per-move payoffs or more than two players");
  exp_init(&r->exp, r->g, r->pos.n, stderr);
  r->exp.table_mib = o->tt_mib;
  r->exp.all_moves = o->all_moves;
  r->expected = 1;
  r->solver = o->solver;
  double t0 = now();
  int st;
  if (o->solver == SOLVER_RETRO) {
    retro_init(&r->retro, r->g, r->pos.n, stderr);
    if (o->max_positions) r->retro.max_positions = (uint64_t)o->max_positions;
    r->retro.memory_limit = o->memory_mib << 20;
    r->retro.progress = !o->quiet && isatty(2);
    if (o->no_symmetry) r->retro.canonical = NULL;
    st = retro_solve_vector(&r->retro, &r->exp);
  } else {
    st = o->solver == SOLVER_EXPECTIMAX ? expectimax_solve(&r->exp) : star1_solve(&r->exp);
  }
  r->seconds = now() - t0;
  if (st != EXIT_OK) return st;
  if (o->json) json_expected(r);
  else { text_header(r); text_expected(r); }
  if (o->stats && o->solver == SOLVER_RETRO) {
    fflush(stdout);
    retro_stats(r);
  } else if (o->stats) {
    fflush(stdout);
    fprintf(stderr, "stats: nodes %" PRIu64 " (%.0f nodes/s), memo hits %" PRIu64
            ", memo entries %" PRIu64 "\n", r->exp.nodes,
            r->seconds > 0 ? (double)r->exp.nodes / r->seconds : 0.0,
            r->exp.memo_hits, r->exp.memo_stored);
  }
  return EXIT_OK;
}

/* ---- running ------------------------------------------------------ */

/* The strong Connect Four solver on the native engine: every root move's
** exact Pons score (hence value and plies), reported like the others. */
static int native_solve(Run *r) {
  Search *s = &r->search;
  SolveResult *res = &s->result;
  C4Query q;
  C4Answer a;
  int win, nwin;
  static Move winning[GAME_MAX_MOVES];
  int plies0;
  if (native_sticks_analyze(r->g, &win, &plies0, winning, &nwin)) {
    /* The period gives every move's exact value and distance. */
    if (search_root_begin(s) != EXIT_OK) return s->status;
    if (res->terminal) return EXIT_OK;
    for (int i = 0; i < res->nmoves; i++) {
      int cwin, cplies, cn;
      game_apply(r->g, &res->moves[i]);
      native_sticks_analyze(r->g, &cwin, &cplies, winning, &cn);
      game_undo(r->g);
      res->values[i] = value_make(cwin ? -1 : 1, 1 + cplies, res->mover);
      res->exact[i] = 1;
    }
    search_root_finish(s);
    return EXIT_OK;
  }
  if (native_nim_analyze(r->g, &win, winning, &nwin)) {
    /* The nim-sum rule: the value and the winning moves, no distance. */
    if (search_root_begin(s) != EXIT_OK) return s->status;
    if (res->terminal) return EXIT_OK;
    r->no_plies = 1;
    for (int i = 0; i < res->nmoves; i++) {
      int good = 0;
      for (int k = 0; k < nwin && !good; k++) good = !memcmp(&winning[k], &res->moves[i], sizeof *winning);
      res->values[i] = value_make(win && good ? 1 : -1, 0, res->mover);
      res->exact[i] = 1;
    }
    search_root_finish(s);
    return EXIT_OK;
  }
  if (!native_c4_query(r->g, &q)) {
    fprintf(stderr, "gsolve: error: --solver native needs a native engine with a solver "
            "(Connect Four: --engine native)\n");
    return EXIT_USAGE;
  }
  if (search_root_begin(s) != EXIT_OK) return s->status;
  if (res->terminal) return EXIT_OK;
  q.weak = r->opt->weak;
  r->no_plies = q.weak;
  q.all_moves = r->opt->all_moves;
  int st = c4_solver(r, &q);
  if (st != EXIT_OK) return st;
  c4_reset(r->c4);
  if (c4_solve(r->c4, &q, &a) != 0) return stop_requested ? c4_stopped(&a) : out_of_memory();
  s->nodes = a.nodes;
  r->c4_book_hits = a.book_hits;
  int cells = q.width * q.height;
  for (int i = 0; i < res->nmoves && i < a.nmoves; i++) {
    int sc = a.move_score[i];
    int plies = r->opt->weak ? 0 : c4_plies_from_score(cells, q.moves, sc);
    res->values[i] = value_make(sc, plies, res->mover);
    res->exact[i] = a.move_exact[i];
  }
  search_root_finish(s);
  return EXIT_OK;
}

/* Solves the engine's current position with the chosen solver into
** r->search (the table, if any, new: cleared per position). */
static int solve_current(Run *r, int base_ply) {
  const Options *o = r->opt;
  C4Query q;
  search_init(&r->search, r->g, base_ply, stderr);
  r->solver = o->solver;
  if (!o->solver_set && native_c4_query(r->g, &q)) r->solver = SOLVER_NATIVE;
  if (r->solver == SOLVER_NATIVE) return native_solve(r);
  if (r->solver == SOLVER_MINIMAX) return minimax_solve(&r->search);
  if (r->solver == SOLVER_RETRO) {
    fprintf(stderr, "gsolve: error: --test-set takes the alphabeta, minimax or native solver\n");
    return EXIT_USAGE;
  }
  tt_free(r->tt);
  r->tt = o->tt_mib > 0 ? tt_new(o->tt_mib) : NULL;
  if (o->tt_mib > 0 && r->tt == NULL) return out_of_memory();
  return alphabeta_solve(&r->search, r->tt, 0);
}

/* --test-set FILE: every line "moves score" (moves as column digits from
** the start) is solved from scratch and its score checked.  Prints the
** count, mismatches, mean time and nodes; exit 1 on a mismatch. */
/* One line of a test set: "moves score", the score its last word, the
** moves before it (glued digits or words; "-" for none).  Zero-based
** moves are column digits from 0 (Steininger's sets, up to 10 columns),
** rewritten as the game's moves "1" .. "10" one word each.  1 with the
** moves (in `moves`) and the expected score, 0 for a blank or comment
** line, -1 malformed. */
static int test_line(const char *line, int zero_based, char *moves, size_t size, long *want) {
  size_t len = strlen(line);
  while (len > 0 && isspace((unsigned char)line[len - 1])) len--;
  size_t start = 0;
  while (start < len && isspace((unsigned char)line[start])) start++;
  if (start == len || line[start] == '#') return 0;
  size_t last = len;                      /* the score: the last word */
  while (last > start && !isspace((unsigned char)line[last - 1])) last--;
  if (last == start) return -1;
  char *end;
  errno = 0;
  *want = strtol(line + last, &end, 10);
  if (end != line + len || errno == ERANGE) return -1;
  size_t n = 0;
  for (size_t i = start; i < last; i++) {
    unsigned char c = (unsigned char)line[i];
    if (n + 4 > size) return -1;          /* not reached: 3 bytes a character */
    if (zero_based && isdigit(c)) {
      n += (size_t)snprintf(moves + n, size - n, "%s%d", n ? " " : "", c - '0' + 1);
    } else {
      moves[n++] = (char)c;
    }
  }
  while (n > 0 && isspace((unsigned char)moves[n - 1])) n--;
  moves[n] = '\0';
  if (strcmp(moves, "-") == 0) moves[0] = '\0';    /* the start position */
  return 1;
}

static int run_test_set(Run *r) {
  const Options *o = r->opt;
  FILE *f = fopen(o->test_set, "r");
  if (f == NULL) {
    fprintf(stderr, "gsolve: error: cannot read '%s': %s\n", o->test_set, strerror(errno));
    return EXIT_IO;
  }
  char line[4096];
  long n = 0, bad = 0, lineno = 0;
  uint64_t nodes = 0;
  double seconds = 0;
  int st = EXIT_OK;
  while (fgets(line, sizeof line, f) != NULL && (o->limit == 0 || n < o->limit)) {
    lineno++;
    char moves[3 * sizeof line];
    long want;
    int k = test_line(line, o->zero_based, moves, sizeof moves, &want);
    if (strchr(line, '\n') == NULL && !feof(f)) k = -2;
    if (k == 0) continue;
    if (k < 0) {
      fprintf(stderr, "gsolve: error: %s:%ld: %s\n", o->test_set, lineno,
              k == -2 ? "a line longer than 4095 bytes" : "expected \"moves score\"");
      st = EXIT_USAGE;
      break;
    }
    Position pos;
    if ((st = position_play(r->g, moves, &pos, stderr)) != EXIT_OK) { position_free(&pos); break; }
    C4Query q;
    /* The solver (and its table) is made once, outside the timings. */
    if (native_c4_query(r->g, &q) && (st = c4_solver(r, &q)) != EXIT_OK) {
      position_free(&pos);
      break;
    }
    double t0 = now();
    int64_t score = 0, plies;
    uint64_t used = 0;
    Outcome out;
    if ((!o->solver_set || o->solver == SOLVER_NATIVE) && native_c4_query(r->g, &q) &&
        !game_ended(r->g, &out)) {
      /* The native solver on the root alone, its table cleared per line. */
      C4Answer a;
      r->solver = SOLVER_NATIVE;
      q.weak = o->weak;
      q.root_only = 1;
      c4_reset(r->c4);
      if (c4_solve(r->c4, &q, &a) != 0) st = c4_stopped(&a);
      score = a.score;
      used = a.nodes;
      search_init(&r->search, r->g, pos.n, stderr);
    } else {
      st = solve_current(r, pos.n);
      value_decode(r->search.result.value, &score, &plies);
      used = r->search.nodes;
    }
    seconds += now() - t0;
    if (st == EXIT_OK) {
      nodes += used;
      if (o->weak) { score = score > 0 ? 1 : score < 0 ? -1 : 0; want = want > 0 ? 1 : want < 0 ? -1 : 0; }
      if (score != want) {
        bad++;
        fprintf(stderr, "%s:%ld: %s: expected %ld, got %lld\n", o->test_set, lineno, moves, want,
                (long long)score);
      }
      n++;
    }
    for (int i = 0; i < pos.n; i++) game_undo(r->g);
    position_free(&pos);
    search_free(&r->search);
    if (st != EXIT_OK) break;
  }
  fclose(f);
  if (st != EXIT_OK) return st;
  double mean = n ? seconds / (double)n : 0;
  if (o->json) {
    JsonWriter w;
    json_init(&w, stdout);
    json_begin_object(&w);
    json_key(&w, "test_set"); json_string(&w, o->test_set);
    json_key(&w, "engine"); json_string(&w, r->g->engine);
    json_key(&w, "solver"); json_string(&w, solver_name(r));
    json_key(&w, "positions"); json_int(&w, n);
    json_key(&w, "mismatches"); json_int(&w, bad);
    json_key(&w, "seconds"); json_double(&w, seconds);
    json_key(&w, "mean_seconds"); json_raw(&w); printf("%.9f", mean);
    json_key(&w, "nodes"); json_uint(&w, nodes);
    json_key(&w, "mean_nodes"); json_raw(&w); printf("%.1f", n ? (double)nodes / (double)n : 0.0);
    json_key(&w, "nodes_per_second"); json_raw(&w);
    printf("%.0f", seconds > 0 ? (double)nodes / seconds : 0.0);
    json_end_object(&w);
    putchar('\n');
  } else
    printf("test set: %s\nengine: %s\nsolver: %s\npositions: %ld\nmismatches: %ld\n"
           "mean time: %.1f us\nmean nodes: %.1f\nnodes/s: %.0f\n", o->test_set, r->g->engine,
           solver_name(r), n, bad, mean * 1e6, n ? (double)nodes / (double)n : 0.0,
           seconds > 0 ? (double)nodes / seconds : 0.0);
  return bad ? 1 : EXIT_OK;
}

static void book_progress(int stones, size_t positions, void *arg) {
  const Options *o = arg;
  if (!o->quiet)
    fprintf(stderr, "book: solving %zu position%s of %d stone%s\n", positions,
            positions == 1 ? "" : "s", stones, stones == 1 ? "" : "s");
}

/* --make-book FILE: the exact score of every position of up to
** --book-depth stones (default 4), by the native Connect Four solver. */
static int make_book(Run *r) {
  const Options *o = r->opt;
  C4Query q;
  if (!native_c4_query(r->g, &q))
    return usage_error("%s", "--make-book needs the native Connect Four engine (connect4.game, k = 4)");
  if (r->pos.n > 0)
    return usage_error("%s", "--make-book starts from the empty board (no --position)");
  int st = c4_solver(r, &q), depth = o->book_depth >= 0 ? o->book_depth : 4;
  if (st != EXIT_OK) return st;
  C4Book *b = c4book_new(q.width, q.height);
  if (!b) return out_of_memory();
  double t0 = now();
  C4Answer a = { 0 };
  int rc = c4_make_book(r->c4, depth, b, &a.nodes, book_progress, (void *)o);
  double secs = now() - t0;
  if (rc == -2) {
    st = c4_stopped(&a);
  } else if (rc != 0) {
    st = out_of_memory();
  } else if ((st = c4book_save(b, o->make_book, stderr)) == EXIT_OK) {
    if (o->json) {
      JsonWriter w;
      json_init(&w, stdout);
      json_begin_object(&w);
      json_key(&w, "book"); json_string(&w, o->make_book);
      json_key(&w, "width"); json_int(&w, b->width);
      json_key(&w, "height"); json_int(&w, b->height);
      json_key(&w, "stones"); json_begin_array(&w); json_int(&w, b->from); json_int(&w, b->to);
      json_end_array(&w);
      json_key(&w, "positions"); json_uint(&w, b->n);
      json_key(&w, "seconds"); json_raw(&w); printf("%.3f", secs);
      json_end_object(&w);
      putchar('\n');
    } else
      printf("book: %s\nboard: %dx%d\nstones: %d..%d\npositions: %zu\nseconds: %.3f\n",
             o->make_book, b->width, b->height, b->from, b->to, b->n, secs);
  }
  c4book_free(b);
  return st;
}

/* The parameters as text, which a database records. */
static int with_params(Run *r, int (*fn)(Run *, const char *)) {
  char *text = NULL;
  size_t len = 0;
  FILE *m = open_memstream(&text, &len);
  if (m == NULL) return out_of_memory();
  gs_write_params_text(r->prog, m);
  if (fclose(m) != 0 || text == NULL) { free(text); return out_of_memory(); }
  int st = fn(r, text);
  free(text);
  return st;
}

static int write_db(Run *r, const char *params) {
  return db_write(&r->retro, r->opt->db, r->g->name, params, gs_rules_hash(r->prog), stderr);
}

static int read_db(Run *r, const char *params) {
  return db_read(&r->retro, r->opt->db, r->g->name, params, gs_rules_hash(r->prog), stderr);
}

/* --stats for an alphabeta solve, on stderr, after the report. */
static void alphabeta_stats(const Run *r) {
  const AbStats *a = &r->ab.stats;
  uint64_t nodes = r->search.nodes;
  fflush(stdout);
  fprintf(stderr, "stats: nodes %" PRIu64 " (%.0f nodes/s), evals %" PRIu64
          ", root searches %" PRIu64 ", depths %" PRIu64 ", bound cutoffs %" PRIu64 "\n", nodes,
          r->seconds > 0 ? (double)nodes / r->seconds : 0.0, a->evals,
          a->probes, a->iterations, a->bound_cutoffs);
  if (r->tt != NULL) {
    const TtStats *t = tt_stats(r->tt);
    size_t cap, used = tt_used(r->tt, &cap);
    double p = t->probes ? (double)t->probes : 1.0;
    fprintf(stderr, "stats: table probes %" PRIu64 ", hits %" PRIu64
            " (%.1f%%), cutoffs %" PRIu64 " (%.1f%%), child cutoffs %" PRIu64
            ", stores %" PRIu64 ", replaced %" PRIu64 "\n", t->probes,
            t->hits, 100.0 * (double)t->hits / p, t->cutoffs,
            100.0 * (double)t->cutoffs / p, a->etc_cutoffs, t->stores,
            t->replaced);
    fprintf(stderr, "stats: table entries %zu of %zu (%.1f%% full)\n", used,
            cap, cap ? 100.0 * (double)used / (double)cap : 0.0);
  } else {
    fputs("stats: no table (--tt-size 0)\n", stderr);
  }
}

/* --stats for a retrograde solve, on stderr. */
static void retro_stats(const Run *r) {
  const Retro *x = &r->retro;
  double mib = (double)retro_memory(x) / (1 << 20);
  fprintf(stderr, "stats: positions %llu, stored %llu (symmetry factor %.2f), moves %llu\n"
          "stats: %zu bytes per stored position plus 16 per move; %.1f MiB in all\n"
          "stats: enumeration %.3f s (%.0f positions/s), labelling %.3f s (%.0f positions/s)\n",
          (unsigned long long)x->positions, (unsigned long long)x->stored,
          x->stored ? (double)x->positions / (double)x->stored : 1.0, (unsigned long long)x->edges,
          retro_bytes_per_position(x), mib, x->enumerate_seconds,
          x->enumerate_seconds > 0 ? (double)x->positions / x->enumerate_seconds : 0.0,
          x->label_seconds, x->label_seconds > 0 ? (double)x->stored / x->label_seconds : 0.0);
}

/* --pv: solves the engine's current position (ply moves past the root)
** the way the mode solved the root, into s, with `depth` plies left for
** --depth.  The run's own search and options are set aside meanwhile:
** the report still gives the root's. */
static int pv_solve(void *ctx, Search *s, int ply, int depth) {
  Run *r = ctx;
  const Options *o = r->opt;
  Search root = r->search;
  AbOptions ab = r->ab;
  int st;
  r->search = *s;
  search_init(&r->search, r->g, r->pos.n + ply, stderr);
  if (r->solver == SOLVER_NATIVE) {
    st = native_solve(r);
  } else if (o->solver == SOLVER_RETRO || o->db) {
    st = retro_answer(&r->retro, &r->search);
  } else if (o->solver == SOLVER_MINIMAX) {
    st = minimax_solve(&r->search);
  } else {
    r->ab.all_moves = 0;
    r->ab.depth = depth;
    st = alphabeta_run(&r->search, r->tt, &r->ab);
  }
  *s = r->search;
  r->search = root;
  r->ab = ab;
  return st;
}

/* gsolve play FILE: the game and its parameters as the title. */
static int play_game(Run *r) {
  char *params = params_text(r->prog), title[512];
  int has = params != NULL && params[0] != '\0';
  snprintf(title, sizeof title, "%s%s%s%s", r->g->name, has ? " (" : "",
           has ? params : "", has ? ")" : "");
  free(params);
  return play_run(r->g, r->pos.n, title, r->opt->tt_mib, &r->opt->play,
                  stdin, stdout);
}

/* --tree-dot OUT: the game tree as Graphviz DOT (or drawn by dot). */
static int tree_dot(Run *r) {
  const Options *o = r->opt;
  TreeDotStats ts;
  double t0 = now();
  int st = treedot_write(r->g, o->depth, o->tree_prune, o->tree_dot, &ts, stderr);
  if (st != EXIT_OK) return st;
  r->seconds = now() - t0;
  if (o->json) {
    JsonWriter w;
    json_head(&w, r);
    json_key(&w, "tree"); json_string(&w, o->tree_dot);
    json_key(&w, "nodes"); json_uint(&w, ts.nodes);
    json_key(&w, "edges"); json_uint(&w, ts.edges);
    json_key(&w, "cut_off"); json_uint(&w, ts.cutoffs);
    json_key(&w, "pruned"); json_uint(&w, ts.pruned);
    json_key(&w, "seconds"); json_double(&w, r->seconds);
    json_end_object(&w);
    putchar('\n');
    return EXIT_OK;
  }
  text_header(r);
  printf("tree: %s\nnodes: %" PRIu64 "\nedges: %" PRIu64 "\ncut off: %" PRIu64
         "\npruned: %" PRIu64 "\nseconds: %.3f\n", o->tree_dot, ts.nodes, ts.edges,
         ts.cutoffs, ts.pruned, r->seconds);
  return EXIT_OK;
}

/* Plays the position, runs the mode and reports.  Runtime errors in the
** engine longjmp out of here. */
static int run(Run *r) {
  const Options *o = r->opt;
  Game *g = r->g;
  int st;
  double t0;

  st = position_play(g, o->position ? o->position : "", &r->pos, stderr);
  if (st != EXIT_OK) return st;

  switch (o->mode) {
  case MODE_PERFT:
    perft_init(&r->perft, g, r->pos.n, stderr);
    t0 = now();
    st = perft_run(&r->perft, o->perft_depth);
    break;
  case MODE_COUNT:
    count_init(&r->count, g, r->pos.n, stderr);
    t0 = now();
    st = count_run(&r->count);
    break;
  case MODE_PLAYOUTS:
    t0 = now();
    st = playouts_run(g, (uint64_t)o->playouts, o->play.seed_set ? o->play.seed : 1,
                      &r->playouts, stderr);
    break;
  case MODE_TESTSET:
    return run_test_set(r);
  case MODE_MAKEBOOK:
    return make_book(r);
  case MODE_PLAY:
    return play_game(r);
  case MODE_TREEDOT:
    return tree_dot(r);
  case MODE_DUMPDB:
    retro_init(&r->retro, g, r->pos.n, stderr);
    st = with_params(r, read_db);
    if (st == EXIT_OK) db_dump(&r->retro, stdout, o->json);
    return st;
  default:
    if (o->solver == SOLVER_EXPECTIMAX
        || ((o->solver == SOLVER_ALPHABETA || o->solver == SOLVER_RETRO)
            && (g->has_chance || g->has_rewards || (o->solver == SOLVER_RETRO && g->nplayers > 2))))
      return run_expected(r);
    search_init(&r->search, g, r->pos.n, stderr);
    r->solver = o->solver;
    if (g->nplayers < 1 || g->nplayers > 2)
      return search_fail(&r->search, EXIT_USAGE, "the %s solver needs one or two "
                         "players (this game has %d): use --solver expectimax "
                         "(max^n)", solver_name(r), g->nplayers);
    if ((g->has_chance || g->has_rewards) && !o->db)
      return search_fail(&r->search, EXIT_USAGE, "the %s solver does not handle %s: "
                         "use --solver expectimax or alphabeta", solver_name(r),
                         g->has_chance ? "chance moves" : "per-move payoffs");
    if (o->solver == SOLVER_ALPHABETA && o->tt_mib > 0
        && (r->tt = tt_new(o->tt_mib)) == NULL)
      return out_of_memory();
    if (o->progress || (!o->quiet && isatty(2))) {
      progress_start(&r->progress, stderr);
      r->search.progress = &r->progress;
    }
    t0 = now();
    /* A native engine with its own solver uses it unless told otherwise. */
    C4Query q;
    r->solver = o->solver;
    int w_, p_, n_;
    static Move scratch[GAME_MAX_MOVES];
    if (!o->solver_set && !o->db && !o->depth &&
        (native_c4_query(g, &q) || native_sticks_analyze(g, &w_, &p_, scratch, &n_)))
      r->solver = SOLVER_NATIVE;
    if (o->weak && r->solver != SOLVER_NATIVE)
      return usage_error("%s", "--weak needs the native Connect Four solver (--engine native)");
    if (o->score_only && (r->solver != SOLVER_ALPHABETA || o->db))
      return usage_error("%s", o->score_only > 0 ? "--score-only is a mode of the alphabeta solver"
                         : "--with-plies is a mode of the alphabeta solver");
    if (o->no_deepening && (r->solver != SOLVER_ALPHABETA || o->db))
      return usage_error("%s", "--no-deepening is a mode of the alphabeta solver");
    if (r->solver == SOLVER_NATIVE) {
      st = native_solve(r);
    } else if (o->solver == SOLVER_RETRO) {
      retro_init(&r->retro, g, r->pos.n, stderr);
      if (o->max_positions) r->retro.max_positions = (uint64_t)o->max_positions;
      r->retro.memory_limit = o->memory_mib ? o->memory_mib << 20 : default_memory();
      r->retro.progress = !o->quiet && isatty(2);
      if (o->no_symmetry) r->retro.canonical = NULL;
      st = retro_solve(&r->retro, &r->search);
      if (st == EXIT_OK && o->stats) retro_stats(r);
      if (st == EXIT_OK && o->db) st = with_params(r, write_db);
    } else if (o->db) {
      retro_init(&r->retro, g, r->pos.n, stderr);
      st = with_params(r, read_db);
      if (st == EXIT_OK) st = retro_answer(&r->retro, &r->search);
    } else if (o->solver == SOLVER_MINIMAX)
      st = minimax_solve(&r->search);
    else {
      alphabeta_options(&r->ab);
      r->ab.all_moves = o->all_moves;
      r->ab.depth = o->depth;
      r->ab.score_only = o->score_only ? o->score_only > 0 : g->score_only;
      r->no_plies = r->ab.score_only;
      r->ab.deepen = !o->no_deepening;
      st = alphabeta_run(&r->search, r->tt, &r->ab);
    }
    progress_end(&r->progress);
  }
  r->seconds = now() - t0;
  if (st != EXIT_OK) return st;
  if (o->pv && (st = pv_find(&r->pv, g, &r->search.result, o->depth, r->pos.n,
                             pv_solve, r)) != EXIT_OK)
    return st;
  if (o->json)
    report_json(r);
  else
    report_text(r);
  if (o->pv && !o->json) pv_print(&r->pv, g, stdout);
  if (o->stats && o->mode == MODE_SOLVE && r->solver == SOLVER_ALPHABETA
      && !o->db)
    alphabeta_stats(r);
  if (o->stats && r->solver == SOLVER_NATIVE && r->c4)
    fprintf(stderr, "stats: native Connect Four solver: nodes %" PRIu64 " (%.0f nodes/s), "
            "threads %d, table %zu MiB, book hits %" PRIu64 "\n", r->search.nodes,
            r->seconds > 0 ? (double)r->search.nodes / r->seconds : 0.0,
            o->threads ? o->threads : 1, o->tt_mib, r->c4_book_hits);
  return EXIT_OK;
}

/* Runs with a trap installed: a runtime error in a rule lands back here
** with the engine's status; r (on the heap) still holds what to free. */
static int run_trapped(Run *r) {
  jmp_buf trap;
  int st;
  r->g->trap = &trap;
  if (setjmp(trap) == 0)
    st = run(r);
  else
    st = r->g->error_status;
  r->g->trap = NULL;
  return st;
}

static void free_run(Run *r) {
  position_free(&r->pos);
  search_free(&r->search);
  exp_free(&r->exp);
  tt_free(r->tt);
  perft_free(&r->perft);
  count_free(&r->count);
  pv_free(&r->pv);
  retro_free(&r->retro);
  c4_free(r->c4);
  c4book_free(r->c4book);
  free(r);
}

/* The engine: native when the game declares one that supports these
** parameters (--engine auto, the default, or native), else the VM. */
static Game *make_engine(const Program *prog, const Options *o, int *st) {
  char why[256];
  int allowed;
  Game *g = NULL;
  *st = EXIT_OK;
  if (o->engine != ENGINE_VM && (gs_native_name(prog, &allowed) || o->engine == ENGINE_NATIVE)) {
    g = native_new(prog, why, sizeof why);
    if (g == NULL && o->engine == ENGINE_NATIVE) {
      fprintf(stderr, "gsolve: error: --engine native: %s\n", why);
      *st = EXIT_USAGE;
      return NULL;
    }
    if (g == NULL && !o->quiet) fprintf(stderr, "gsolve: note: %s; using the VM\n", why);
  }
  if (g == NULL && (g = vm_new(prog, st)) == NULL && *st == EXIT_LIMIT) out_of_memory();
  return g;
}

int main(int argc, char **argv) {
  Options opt;
  Program *prog = NULL;
  Game *g = NULL;
  Run *r = NULL;
  char *text = NULL;
  size_t len = 0;
  int st;

  memset(&opt, 0, sizeof opt);
  st = parse_args(argc, argv, &opt);
  if (st != EXIT_OK) {
    free_options(&opt);
    return st < 0 ? EXIT_OK : st;
  }
  if ((st = read_file(opt.file, &text, &len)) != EXIT_OK) goto done;
  if (opt.mode == MODE_GTP) {
    GtpOptions go = { opt.file, text, len, opt.defs, opt.ndefs,
                      opt.play.level ? opt.play.level : 2, opt.tt_mib };
    st = gtp_run(&go, stdin, stdout);
    goto done;
  }
  prog = gs_compile(opt.file, text, len, opt.defs, opt.ndefs, stderr, &st);
  if (prog == NULL) goto done;
  st = EXIT_OK;
  if (opt.dump_ast) gs_dump_ast(prog, stdout);
  if (opt.dump_bytecode) gs_disassemble(prog, stdout);
  if (opt.mode == MODE_NONE) {
    if (opt.dump_ast || opt.dump_bytecode) goto done;
    opt.mode = MODE_SOLVE;
  }

  if ((g = make_engine(prog, &opt, &st)) == NULL) goto done;
  if ((r = calloc(1, sizeof *r)) == NULL) {
    st = out_of_memory();
    goto done;
  }
  r->opt = &opt;
  r->prog = prog;
  r->g = g;
  stop_install(opt.time_limit);
  st = run_trapped(r);

done:
  if (r != NULL) free_run(r);
  game_free(g);
  if (prog != NULL) gs_program_free(prog);
  free(text);
  free_options(&opt);
  if (fflush(stdout) != 0 || ferror(stdout)) {
    fprintf(stderr, "gsolve: error: cannot write the output: %s\n",
            strerror(errno));
    if (st == EXIT_OK) st = EXIT_IO;
  }
  return st;
}
