/*
** main.c -- the gsolve command: parse the options (options.c), compile
** the game, make its engine (engines/registry.c), play the position, run
** one mode and report (report.c).  Which solver answers is the solver
** registry's choice (driver/solvers.c); this file names no game.
**
** Runtime errors in a game's rules longjmp back here (game->trap); all
** that a run allocates hangs off one heap-allocated Run so that it can
** still be freed afterwards.
*/
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/gtp.h"
#include "engines/efg.h"
#include "cli/serve.h"
#include "retro/db.h"
#include "util/clock.h"
#include "util/stop.h"
#include "util/file.h"
#include "lang/ast.h"

/* Reads the whole file into a NUL-terminated buffer. */
static int read_file(const char *path, char **text, size_t *len) {
  /* Bounded by the parser's own limit: /dev/zero is refused, not read. */
  return file_read(path, AST_MAX_SOURCE, text, len, stderr);
}

/* A FILE that is not there and names no folder ("nim.game") is looked
** for among the installed games, PREFIX/share/gsolve/games, PREFIX being
** the folder above the one this program runs from (make install puts
** them there).  Returns the path to read: path itself, or one in buf. */
static const char *installed_game(const char *path, char *buf, size_t size) {
  char exe[4096];
  if (strchr(path, '/') != NULL || access(path, F_OK) == 0) return path;
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n <= 0) return path;
  exe[n] = '\0';
  char *slash = strrchr(exe, '/');                /* .../PREFIX/bin/gsolve */
  if (slash == NULL) return path;
  *slash = '\0';
  if ((slash = strrchr(exe, '/')) == NULL) return path;
  *slash = '\0';
  if (snprintf(buf, size, "%s/share/gsolve/games/%s", exe, path) >= (int)size) return path;
  return access(buf, R_OK) == 0 ? buf : path;
}

/* --pv on a two-player game with pieces: the line in standard algebraic
** notation ("san: 1. Qc3 Kf4 2. ..."), moves numbered from the first
** player's. */
static void san_print(Run *r) {
  FenBoard b;
  char buf[64];
  Game *g = r->g;
  b.letters = gs_pieces(r->prog, &b);
  if (!b.letters || g->nplayers != 2) return;
  fputs("san:", stdout);
  int number = 1, i;
  for (i = 0; i < r->pv.n; i++) {
    int who = game_to_move(g);
    if (who == 0) printf(" %d.", number);
    else if (i == 0) printf(" %d...", number);
    fen_san(g, &b, &r->pv.moves[i], buf, sizeof buf);
    printf(" %s", buf);
    if (who == 1) number++;
    game_apply(g, &r->pv.moves[i]);
  }
  for (; i > 0; i--) game_undo(g);
  if (r->pv.n == 0) fputs(" -", stdout);
  fputc('\n', stdout);
}

/* --solve, --all-moves: the solver the registry chooses, then --pv. */
static int run_solve(Run *r) {
  const Options *o = r->opt;
  SolveJob *j = &r->job;
  solve_job_init(j, r->g, r->pos.n, &o->solve, stderr);
  j->db_params = r->params;
  j->rules_hash = gs_rules_hash(r->prog);
  int st = solver_choose(j);
  if (st != EXIT_OK) return st;
  double t0 = clock_seconds();
  st = solver_solve(j);
  r->seconds = clock_seconds() - t0;
  if (st != EXIT_OK) return st;
  if (o->pv && (st = solver_pv(j, &r->pv)) != EXIT_OK) return st;
  Retro *table = solve_job_table(j);
  if (o->stats && table != NULL) {
    /* Counts over every record of a file: every record checked first. */
    if (table->db_path && (st = db_verify_all(table, stderr)) != EXIT_OK) return st;
    if (retro_stats_compute(table, &r->table) != EXIT_OK) return diag_out_of_memory(stderr);
    r->has_table = 1;
  }
  report_result(r);
  if (o->pv && !o->json) {
    san_print(r);
    pv_print(&r->pv, r->g, stdout);
  }
  report_stats(r);
  return EXIT_OK;
}

/* --grundy --solver retro (docs/cgt.md): retrograde analysis labels every
** position with its Grundy value besides its value and distance; the
** walk's checks refuse what it refuses.  With --db FILE it writes them
** (format 4), and --solver db answers from such a file.  Other solvers
** keep no values. */
static int run_grundy_retro(Run *r) {
  const Options *o = r->opt;
  SolveJob *j = &r->job;
  const SolverInfo *s = solver_find(o->solve.solver);
  char names[160];
  if (s == NULL || !(s->takes & TAKES_GRUNDY))
    return diag_fail(stderr, EXIT_USAGE, "--grundy is answered by its own walk or by a solver "
                     "that keeps Grundy values (%s), not by %s",
                     solver_names_taking(TAKES_GRUNDY, names, sizeof names), o->solve.solver);
  if (r->grundy.seq_n >= 0)
    return diag_fail(stderr, EXIT_USAGE, "--grundy-sequence values components by the Grundy "
                     "walk: drop --solver");
  int st = grundy_check_begin(&r->grundy);
  if (st != EXIT_OK) return st;
  solve_job_init(j, r->g, r->pos.n, &o->solve, stderr);
  j->db_params = r->params;
  j->rules_hash = gs_rules_hash(r->prog);
  j->retro.grundy = &r->grundy;
  if ((st = solver_choose(j)) != EXIT_OK) return st;
  return solver_solve(j);
}

/* The rules run once on a position: its end test, then its moves. */
typedef struct RulesTry { Game *g; Move *moves; } RulesTry;
static int try_rules(void *arg) {
  RulesTry *t = arg;
  Outcome o;
  if (!game_ended(t->g, &o)) (void)game_generate(t->g, t->moves);
  return 0;
}

/* The position about to be handed to the mode, checked (position_check:
** the declared ranges, `at most N pieces`, the game's valid block): FLAG
** and TEXT say where it came from in a refusal. */
static int check_position(Run *r, const char *flag, const char *text) {
  char what[160];
  if (text) snprintf(what, sizeof what, "%s \"%.100s%s\"", flag, text, strlen(text) > 100 ? "..." : "");
  else snprintf(what, sizeof what, "%s", flag);
  return position_check(r->g, what, stderr);
}

/* --fen: the game must declare the letters of its pieces.  The position
** must then be one of the game's (check_position), and one its rules can
** run on: a position they fail on (a chess king that can be taken, in a
** game that does not declare it invalid) is a usage error, after the
** rule's own message. */
static int read_fen(Run *r) {
  FenBoard b;
  b.letters = gs_pieces(r->prog, &b);
  if (!b.letters) {
    return diag_fail(stderr, EXIT_USAGE, "--fen needs a game that declares its pieces "
                     "(pieces NAME \"LETTERS\";)");
  }
  int st = fen_read(r->g, &b, r->opt->fen, stderr), unused;
  if (st != EXIT_OK) return st;
  if ((st = check_position(r, "--fen", r->opt->fen)) != EXIT_OK) return st;
  RulesTry t = { r->g, malloc(GAME_MAX_MOVES * sizeof(Move)) };
  if (!t.moves) return diag_out_of_memory(stderr);
  int failed = game_call_trapped(r->g, try_rules, &t, &unused);
  free(t.moves);
  if (failed) {
    return diag_fail(stderr, EXIT_USAGE, "--fen \"%s\": not a legal position of this game "
                     "(its rules fail on it: above)", r->opt->fen);
  }
  return EXIT_OK;
}

/* Whether the mode's answers depend on the declared symmetries (tables,
** counts, searches): the others need no symmetry test of the position. */
static int uses_symmetries(Mode m) {
  return m != MODE_SYMCHECK && m != MODE_PERFT && m != MODE_PLAYOUTS && m != MODE_DESCRIBE
         && m != MODE_EXPORT && m != MODE_INFOSTATE;
}

/* Plays the position, runs the mode and reports.  Runtime errors in the
** engine longjmp out of here. */
static int run(void *arg) {
  Run *r = arg;
  const Options *o = r->opt;
  Game *g = r->g;
  int st;
  double t0 = clock_seconds();

  if (o->fen && (st = read_fen(r)) != EXIT_OK) return st;
  st = position_play(g, o->position ? o->position : "", &r->pos, stderr);
  if (st != EXIT_OK) return st;
  /* Whatever the moves reached, or the start itself, is checked too:
  ** no solver sees a position the game declares not its own. */
  if (o->position && *o->position) st = check_position(r, "--position", o->position);
  else if (!o->fen) st = check_position(r, "the start position", NULL);
  if (st != EXIT_OK) return st;
  /* A position from outside must also be one the declared symmetries
  ** hold on (a flip with a pawn on the board): else every table's
  ** answer about it would be wrong.  Modes that never use them (perft,
  ** playouts, the page's description, exports) skip the test: on
  ** Connect6 it plays 129,240 moves for each of 8 images. */
  if (uses_symmetries(o->mode) && !o->solve.no_symmetry && (o->fen || (o->position && *o->position))
      && (st = position_check_symmetry(g, o->fen ? "--fen" : "--position", stderr)) != EXIT_OK)
    return st;

  switch (o->mode) {
  case MODE_PERFT:
    perft_init(&r->perft, g, r->pos.n, stderr);
    if (o->solve.progress) progress_start(r->perft.progress = &r->progress, stderr);
    t0 = clock_seconds();
    st = perft_run(&r->perft, o->perft_depth);
    progress_end(&r->progress);
    break;
  case MODE_COUNT:
    count_init(&r->count, g, r->pos.n, stderr);
    r->count.memory_limit = o->solve.memory_mib ? o->solve.memory_mib << 20 : solver_default_memory();
    if (o->solve.progress) progress_start(r->count.progress = &r->progress, stderr);
    t0 = clock_seconds();
    st = count_run(&r->count);
    progress_end(&r->progress);
    break;
  case MODE_GRUNDY:
    grundy_init(&r->grundy, g, r->pos.n, stderr);
    r->grundy.memory_limit = o->solve.memory_mib ? o->solve.memory_mib << 20 : solver_default_memory();
    r->grundy.seq_n = o->grundy_seq - 1;
    t0 = clock_seconds();
    if (o->solve.solver && strcmp(o->solve.solver, "auto") != 0) st = run_grundy_retro(r);
    else st = grundy_run(&r->grundy);
    break;
  case MODE_PLAYOUTS:
    if (o->play.strategy
        && (st = strategy_read(&r->strategy, o->play.strategy, g, stderr)) != EXIT_OK)
      return st;
    t0 = clock_seconds();
    if (o->solve.progress) progress_start(&r->progress, stderr);
    st = playouts_run(g, (uint64_t)o->playouts, o->play.seed_set ? o->play.seed : 1,
                      o->play.strategy ? &r->strategy : NULL, &r->playouts, stderr,
                      o->solve.progress ? &r->progress : NULL);
    progress_end(&r->progress);
    break;
  case MODE_SYMCHECK:
    return symmetry_walk(g, o->symcheck, o->play.seed_set ? o->play.seed : 1, stdout, stderr);
  case MODE_TESTSET:
    return run_test_set(r);
  case MODE_MAKEBOOK:
    return run_make_book(r);
  case MODE_PLAY:
    return run_play(r);
  case MODE_TREEDOT:
    return run_tree_dot(r);
  case MODE_INFOSTATE:
    return run_info_state(r);
  case MODE_EXPORT:
    return run_export(r);
  case MODE_DESCRIBE:
    return run_describe(r);
  case MODE_DUMPDB:
    retro_init(&r->job.retro, g, r->pos.n, stderr);
    st = db_read(&r->job.retro, o->solve.db, g->name, r->params, gs_rules_hash(r->prog), stderr);
    if (st == EXIT_OK) st = db_verify_all(&r->job.retro, stderr);
    if (st == EXIT_OK) db_dump(&r->job.retro, stdout, o->json);
    return st;
  default:
    return run_solve(r);
  }
  r->seconds = clock_seconds() - t0;
  if (st != EXIT_OK) return st;
  report_result(r);
  return EXIT_OK;
}

/* Runs with a trap installed: a runtime error in a rule lands back here
** with the engine's status; r (on the heap) still holds what to free. */
static int run_trapped(Run *r) {
  int st = EXIT_OK;
  if (game_call_trapped(r->g, run, r, &st)) {
    st = r->g->error_status;
    if (retro_distributed) retro_distributed->trapped(st);
  }
  return st;
}

static void free_run(Run *r) {
  position_free(&r->pos);
  position_free(&r->line);
  solve_job_free(&r->job);
  perft_free(&r->perft);
  count_free(&r->count);
  grundy_free(&r->grundy);
  retro_stats_free(&r->table);
  pv_free(&r->pv);
  strategy_free(&r->strategy);
  free(r->params);
  free(r);
}

int main(int argc, char **argv) {
  Options opt;
  Program *prog = NULL;
  Game *g = NULL;
  Run *r = NULL;
  char *text = NULL;
  size_t len = 0;
  int st;

  if (argc > 1 && strcmp(argv[1], "serve") == 0) return serve_main(argc - 1, argv + 1);
  memset(&opt, 0, sizeof opt);
  st = options_parse(argc, argv, &opt);
  if (st != EXIT_OK) {
    options_free(&opt);
    return st < 0 ? EXIT_OK : st;
  }
  char game_path[4200];
  opt.file = installed_game(opt.file, game_path, sizeof game_path);
  if ((st = read_file(opt.file, &text, &len)) != EXIT_OK) goto done;
  if (opt.mode == MODE_GTP) {
    GtpOptions go = { opt.file, text, len, opt.defs, opt.ndefs,
                      opt.play.level ? opt.play.level : 2, opt.solve.tt_mib, opt.engine };
    st = gtp_run_timed(&go, opt.move_time, stdin, stdout);
    goto done;
  }
  /* A Gambit .efg file is a game of its own engine (engines/efg.h). */
  if (efg_is_file(opt.file)) {
    if ((g = efg_new(opt.file, text, len, stderr, &st)) == NULL) goto done;
    if (opt.ndefs > 0 || opt.dump_ast || opt.dump_bytecode) {
      st = usage_error(opt.ndefs ? "-D sets a .game file's parameters; %s has none"
                                 : "--dump-ast and --dump-bytecode show a .game file's rules; %s has none",
                       opt.file);
      goto done;
    }
  }
  prog = g ? efg_program(g, stderr, &st) : gs_compile(opt.file, text, len, opt.defs, opt.ndefs, stderr, &st);
  if (prog == NULL) goto done;
  st = EXIT_OK;
  if (opt.dump_ast) gs_dump_ast(prog, stdout);
  if (opt.dump_bytecode) {
    if (opt.json) gs_disassemble_json(prog, stdout);
    else gs_disassemble(prog, stdout);
  }
  if (opt.mode == MODE_NONE) {
    if (opt.dump_ast || opt.dump_bytecode) goto done;
    opt.mode = MODE_SOLVE;
  }
  opt.solve.progress = opt.progress || (!opt.quiet && isatty(2));
  opt.solve.pv = opt.pv;
  opt.solve.quiet = opt.quiet;
  if (opt.mode == MODE_SOLVE) {     /* --seed of a sampled --pv */
    opt.solve.seed_set = opt.play.seed_set;
    opt.solve.seed = opt.play.seed;
  }

  /* `auto` takes the compiled tier for the long jobs only (cached, or
  ** built when a probe finds the job long, autotier.c): a
  ** one-move query or a drawing gains nothing from it. */
  EngineChoice choice = opt.engine;
  if (choice == ENGINE_AUTO && (opt.mode == MODE_PERFT || opt.mode == MODE_COUNT || opt.mode == MODE_SOLVE ||
                                opt.mode == MODE_PLAYOUTS || opt.mode == MODE_TESTSET))
    choice = opt.solve.compact ? ENGINE_AUTO_RULES : ENGINE_AUTO_LONG;
  engine_auto_job(opt.mode == MODE_PERFT ? opt.perft_depth : 0,     /* its probe (autotier.c) */
                  opt.mode == MODE_PLAYOUTS ? opt.playouts : 0);
  /* Ctrl-C and SIGTERM are handled from here: making the engine may run
  ** a C compiler (the compiled tier), which a stop must kill. */
  stop_install(0);
  if (g == NULL && (g = engine_new(prog, choice, opt.quiet, stderr, &st)) == NULL) goto done;
  if ((r = calloc(1, sizeof *r)) == NULL || (r->params = params_text(prog)) == NULL) {
    st = diag_out_of_memory(stderr);
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
  options_free(&opt);
  if (fflush(stdout) != 0 || ferror(stdout)) {
    diag_plain(stderr, "error", "cannot write the output: %s", strerror(errno));
    if (st == EXIT_OK) st = EXIT_IO;
  }
  return st;
}
