/*
** options.c -- the command line of gsolve: its options, their checks,
** and --help.
*/
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "search/alphabeta.h"
#include "util/stop.h"

static const char usage_text[] =
  "usage: gsolve FILE [options]       solve, count or draw the game in FILE\n"
  "       gsolve play FILE [options]  play it against the computer\n"
  "modes: --solve (default)  --all-moves (every move's value)  --perft N\n"
  "  --count (distinct positions)  --depth N (alphabeta to N plies, by eval)\n"
  "  --tree-dot OUT (.dot, .svg, .png: the game tree; --depth N, --tree-prune)\n"
  "  --pv (the best line, as boards)  --playouts N (random games; --seed S)\n"
  "  --test-set FILE [--limit N --zero-based]  --dump-ast  --dump-bytecode\n"
  "options: --position MOVES (\"4 4 3\", \"take 1 3, take 2 1\")  -D NAME=VALUE\n"
  "  --solver auto|alphabeta|minimax|retro|expectimax|native|db  --engine auto|vm|native\n"
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

int usage_error(const char *fmt, const char *arg) {
  fputs("gsolve: error: ", stderr);
  fprintf(stderr, fmt, arg);
  fputc('\n', stderr);
  return EXIT_USAGE;
}

int out_of_memory(void) {
  fputs("gsolve: error: out of memory\n", stderr);
  return EXIT_LIMIT;
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
int options_parse(int argc, char **argv, Options *o) {
  int only_files = 0, first = 1;
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
      o->solve.all_moves = 1;
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
      o->solve.depth = (int)n;
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
      if (strcmp(val, "auto") != 0 && solver_find(val) == NULL)
        return usage_error("unknown solver '%s' (auto, alphabeta, minimax, retro, expectimax, "
                           "native or db)", val);
      o->solve.solver = val;
    } else if (strcmp(name, "--tt-size") == 0) {
      if (parse_int(val, 0, (long)TT_MAX_MIB, &n) != 0) {
        fprintf(stderr, "gsolve: error: --tt-size needs a size in MiB from "
                "0 to %zu, not '%s'\n", TT_MAX_MIB, val);
        return EXIT_USAGE;
      }
      o->solve.tt_mib = (size_t)n;
    } else if (strcmp(name, "--engine") == 0) {
      if (strcmp(val, "auto") == 0) o->engine = ENGINE_AUTO;
      else if (strcmp(val, "vm") == 0) o->engine = ENGINE_VM;
      else if (strcmp(val, "native") == 0) o->engine = ENGINE_NATIVE;
      else return usage_error("unknown engine '%s' (auto, vm or native)", val);
    } else if (strcmp(name, "--db") == 0) {
      o->solve.db = val;
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
      o->solve.engine.weak = 1;
    } else if (strcmp(name, "--score-only") == 0) {
      o->solve.score_only = 1;
    } else if (strcmp(name, "--with-plies") == 0) {
      o->solve.score_only = -1;
    } else if (strcmp(name, "--threads") == 0) {
      if (parse_int(val, 1, 64, &n) != 0)
        return usage_error("--threads needs a number from 1 to 64, not '%s'", val);
      o->solve.engine.threads = (int)n;
    } else if (strcmp(name, "--without") == 0) {
      /* A comma-separated list, checked by the engine's solver. */
      o->solve.engine.without = val;
    } else if (strcmp(name, "--book") == 0) {
      o->solve.engine.book = val;
    } else if (strcmp(name, "--make-book") == 0) {
      if ((st = set_mode(o, MODE_MAKEBOOK, "--make-book")) != EXIT_OK) return st;
      o->make_book = val;
    } else if (strcmp(name, "--book-depth") == 0) {
      if (parse_int(val, 0, 63, &n) != 0)
        return usage_error("--book-depth needs a number of stones from 0 to 63, not '%s'", val);
      o->book_depth = (int)n;
    } else if (strcmp(name, "--no-symmetry") == 0) {
      o->solve.no_symmetry = 1;
    } else if (strcmp(name, "--no-deepening") == 0) {
      o->solve.no_deepening = 1;
    } else if (strcmp(name, "--stats") == 0) {
      o->stats = 1;
    } else if (strcmp(name, "--quiet") == 0) {
      o->quiet = 1;
    } else if (strcmp(name, "--max-positions") == 0) {
      if (parse_int(val, 1, 4000000000L, &n) != 0)
        return usage_error("--max-positions needs a number from 1 to 4000000000, not '%s'", val);

      o->solve.max_positions = (uint64_t)n;
    } else if (strcmp(name, "--memory") == 0) {
      if (parse_int(val, 1, (long)TT_MAX_MIB, &n) != 0)
        return usage_error("--memory needs a size in MiB from 1 to 1048576, not '%s'", val);
      o->solve.memory_mib = (size_t)n;
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
  if (o->mode == MODE_DUMPDB && o->solve.db == NULL)
    return usage_error("%s", "--dump-db needs --db FILE");
  if (o->solve.depth && o->mode != MODE_TREEDOT
      && ((o->mode != MODE_NONE && o->mode != MODE_SOLVE)
          || (o->solve.solver && strcmp(o->solve.solver, "alphabeta") != 0
              && strcmp(o->solve.solver, "auto") != 0) || o->solve.db))
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
  if (o->solve.memory_mib && o->solve.tt_mib > o->solve.memory_mib) o->solve.tt_mib = o->solve.memory_mib;
  return EXIT_OK;
}
