/*
** gtp.c -- the Go Text Protocol engine (see gtp.h).
**
** One command per line: an optional numeric id, the command, arguments.
** Success is "=[id] result" and failure "?[id] message", each followed
** by an empty line; every line that holds a command gets exactly one
** answer, whatever its length or bytes.  Colours are the game's first
** player (black, b) and second (white, w); vertices are the game's own
** move notation, which games/go.game writes GTP style (columns a..t
** without i), so "C3" is the move "c3".  When a colour plays out of turn,
** the player whose turn it is passes first, as GTP controllers expect.
**
** genmove deepens a search (the solve driver's, driver/solvers.h: alpha-beta
** to a depth) until its time is up: a watchdog
** thread raises the stop flag of util/stop.h (the one --time-limit
** raises, which every search checks) at the deadline, and lowers it again
** once the search is over, so the next command runs unstopped.
*/
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "cli/gtp.h"
#include "driver/solvers.h"
#include "game/position.h"
#include "util/clock.h"
#include "util/stop.h"

#define GTP_MAX_WORDS 16        /* words of a command looked at */
#define GTP_MOVES_AHEAD 30      /* main time is shared by this many moves */
#define GTP_MIN_SECONDS 0.01    /* the least a move is given */
#define GTP_MAX_SECONDS 1e7     /* times beyond this are taken as this */
#define GTP_ERR_BYTES 256       /* a search's error message, kept */

/* What boardsize and komi override, as -D values. */
typedef struct Overrides {
  char width[16], height[16], komi[16];
  int sized, komi_set;
} Overrides;

/* The clock of time_settings and time_left, in seconds. */
typedef struct Clock {
  int set;                      /* time_settings was given */
  double main_time, byo_time;
  long byo_stones;
  int known[2];                 /* time_left was given for this colour */
  double left[2];
  long stones[2];               /* 0: in main time; else byo-yomi stones */
} Clock;

/* genmove's watchdog: a thread that raises stop_requested at `at`. */
typedef struct Deadline {
  pthread_mutex_t mu;
  pthread_cond_t cv;
  pthread_t thread;
  struct timespec at;           /* CLOCK_MONOTONIC */
  int running;                  /* the thread is there to be joined */
  int done;                     /* the search ended: the thread leaves */
  int fired;                    /* it raised the flag (and must lower it) */
} Deadline;

typedef struct Gtp {
  const GtpOptions *o;
  double move_time;             /* genmove's budget without a clock */
  FILE *out;
  Overrides ov;                 /* those of the game in play */
  Program *prog;
  Game *g;
  int played;                   /* moves applied since clear_board */
  SolveJob job;                 /* the solve driver's, kept from move to move
                                ** with its table (job_ready) */
  SolveOptions opts;            /* the search under way's */
  int job_ready;
  Position pos;                 /* play's, freed after a runtime error */
  Move *moves;                  /* genmove's fallback, GAME_MAX_MOVES */
  Clock clock;
  Deadline deadline;
  FILE *errf;                   /* the searches' messages go to errbuf */
  char errbuf[GTP_ERR_BYTES];
  char line[GTP_MAX_LINE + 1];
} Gtp;

static const char *const commands[] = {
  "protocol_version", "name", "version", "known_command", "list_commands",
  "quit", "boardsize", "clear_board", "komi", "play", "genmove",
  "showboard", "final_score", "undo", "time_settings", "time_left", NULL
};

/* ---- replies ------------------------------------------------------- */

static void reply(Gtp *t, const char *id, int ok, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void reply(Gtp *t, const char *id, int ok, const char *fmt, ...) {
  va_list ap;
  fprintf(t->out, "%c%s ", ok ? '=' : '?', id);
  va_start(ap, fmt);
  vfprintf(t->out, fmt, ap);
  va_end(ap);
  fputs("\n\n", t->out);
  fflush(t->out);
}

/* ---- the game ------------------------------------------------------ */

static void drop_game(Gtp *t) {
  if (t->job_ready) solve_job_free(&t->job);
  t->job_ready = 0;
  game_free(t->g);
  t->g = NULL;
  if (t->prog) gs_program_free(t->prog);
  t->prog = NULL;
  t->played = 0;
}

/* Compiles the game with the user's -D and the overrides `ov` and, when
** that works, makes it the game in play, on an empty board; otherwise
** the game in play stays as it was.  Returns EXIT_OK, EXIT_LIMIT when
** out of memory, or the status of the failure; *why holds a message
** when neither the compiler nor the VM printed one on stderr. */
static int build(Gtp *t, const Overrides *ov, const char **why) {
  const GtpOptions *o = t->o;
  ParamDef *defs = malloc((size_t)(o->ndefs + 3) * sizeof *defs);
  Program *p;
  Game *g;
  int n = 0, st;
  *why = NULL;
  if (defs == NULL) {
    *why = "out of memory";
    return EXIT_LIMIT;
  }
  for (int i = 0; i < o->ndefs; i++) {
    const char *name = o->defs[i].name;
    if ((ov->sized && (!strcmp(name, "width") || !strcmp(name, "height"))) ||
        (ov->komi_set && !strcmp(name, "komi")))
      continue;
    defs[n++] = o->defs[i];
  }
  if (ov->sized) {
    defs[n++] = (ParamDef){ "width", ov->width };
    defs[n++] = (ParamDef){ "height", ov->height };
  }
  if (ov->komi_set) defs[n++] = (ParamDef){ "komi", ov->komi };
  p = gs_compile(o->file, o->text, o->len, defs, n, stderr, &st);
  free(defs);
  if (p == NULL) return st;
  /* engine_new says why on stderr (a runtime error in the start block:
  ** the VM did). */
  if ((g = engine_new(p, o->engine, 1, stderr, &st)) == NULL) {
    gs_program_free(p);
    return st;
  }
  if (g->nplayers != 2) {
    game_free(g);
    gs_program_free(p);
    *why = "GTP needs a game of two players";
    return EXIT_BAD_GAME;
  }
  drop_game(t);
  t->prog = p;
  t->g = g;
  t->ov = *ov;
  return EXIT_OK;
}

/* 0 black, 1 white, -1 not a colour. */
static int colour(const char *s) {
  if (!strcasecmp(s, "b") || !strcasecmp(s, "black")) return 0;
  if (!strcasecmp(s, "w") || !strcasecmp(s, "white")) return 1;
  return -1;
}

/* Plays the move written `text` (any case).  Returns EXIT_OK, EXIT_USAGE
** if it is not one legal move, EXIT_LIMIT when out of memory. */
static int play_text(Gtp *t, const char *text) {
  char low[64];
  size_t i;
  if (strlen(text) >= sizeof low || t->played + 1 >= GAME_MAX_PLY) return EXIT_USAGE;
  for (i = 0; text[i]; i++) low[i] = (char)tolower((unsigned char)text[i]);
  low[i] = '\0';
  int st = position_play(t->g, low, &t->pos, NULL);
  int n = t->pos.n;
  position_free(&t->pos);
  if (st == EXIT_OK && n == 1) {
    t->played++;
    return EXIT_OK;
  }
  for (int k = 0; k < n; k++) game_undo(t->g);
  return st == EXIT_LIMIT ? EXIT_LIMIT : EXIT_USAGE;
}

/* Gives the turn to colour c: the other side passes if it is to move. */
static int turn_to(Gtp *t, int c) {
  if (game_to_move(t->g) == c) return EXIT_OK;
  return play_text(t, "pass");
}

/* Takes back the moves applied since there were `before`. */
static void undo_to(Gtp *t, int before) {
  while (t->played > before) {
    game_undo(t->g);
    t->played--;
  }
}

/* The outcome as GTP writes it: "B+3", "W+1", "0". */
static void score_text(const Outcome *o, char *buf, size_t n) {
  long d = (long)o->payoff[0] - (long)o->payoff[1];
  if (d > 0) snprintf(buf, n, "B+%ld", d);
  else if (d < 0) snprintf(buf, n, "W+%ld", -d);
  else snprintf(buf, n, "0");
}

/* The score if both passed now (the game ended: its outcome).  Returns
** EXIT_OK, EXIT_USAGE if the game does not end so, or EXIT_LIMIT. */
static int final_score(Gtp *t, char *buf, size_t n) {
  Outcome o;
  int before = t->played, st = EXIT_USAGE;
  for (int passes = 0; passes <= 3; passes++) {
    if (game_ended(t->g, &o)) {
      score_text(&o, buf, n);
      st = EXIT_OK;
      break;
    }
    if (passes == 3 || (st = play_text(t, "pass")) != EXIT_OK) break;
    st = EXIT_USAGE;
  }
  undo_to(t, before);
  return st;
}

/* ---- the clock ------------------------------------------------------ */

/* Seconds for colour c's next move by the clock, or -1 without a clock
** (none set, or time_settings said no limit: byo-yomi time, no stones).
** A byo-yomi period is shared by its stones, main time by
** GTP_MOVES_AHEAD moves; a tenth and 50 ms are kept for the answer. */
static double clock_budget(const Clock *k, int c) {
  double left, share;
  long stones;
  if (k->set && k->byo_time > 0 && k->byo_stones == 0) return -1;
  if (k->known[c]) {
    left = k->left[c];
    stones = k->stones[c];
  } else if (!k->set) {
    return -1;
  } else if (k->main_time > 0 || k->byo_stones == 0) {
    left = k->main_time;
    stones = 0;
  } else {
    left = k->byo_time;
    stones = k->byo_stones;
  }
  share = stones > 0 ? left / (double)stones : left / GTP_MOVES_AHEAD;
  share = share * 0.9 - 0.05;
  return share > GTP_MIN_SECONDS ? share : GTP_MIN_SECONDS;
}

/* genmove's budget: --move-time (or its default), less if the clock
** leaves less. */
static double move_budget(const Gtp *t, int c) {
  double mine = t->move_time > 0 ? t->move_time : GTP_DEFAULT_MOVE_SECONDS;
  double clock = clock_budget(&t->clock, c);
  if (clock < 0) return mine;
  return t->move_time > 0 && mine < clock ? mine : clock;
}

/* A time in seconds: a number >= 0 (GTP sends integers), capped. */
static int parse_seconds(const char *s, double *v) {
  char *end;
  double x = strtod(s, &end);
  if (end == s || *end || !isfinite(x) || x < 0) return 0;
  *v = x < GTP_MAX_SECONDS ? x : GTP_MAX_SECONDS;
  return 1;
}

/* A number of stones: an integer >= 0, capped. */
static int parse_stones(const char *s, long *v) {
  char *end;
  errno = 0;
  long x = strtol(s, &end, 10);
  if (end == s || *end || x < 0) return 0;
  *v = errno == ERANGE || x > 1000000 ? 1000000 : x;
  return 1;
}

/* ---- the deadline --------------------------------------------------- */

static void *watch(void *arg) {
  Deadline *d = arg;
  pthread_mutex_lock(&d->mu);
  while (!d->done) {
    if (pthread_cond_timedwait(&d->cv, &d->mu, &d->at) == ETIMEDOUT && !d->done) {
      /* Only if no one else stopped the run (a Ctrl-C stays). */
      sig_atomic_t none = STOP_NONE;
      d->fired = __atomic_compare_exchange_n(&stop_requested, &none, STOP_TIME, 0,
                                             __ATOMIC_RELAXED, __ATOMIC_RELAXED);
      break;
    }
  }
  pthread_mutex_unlock(&d->mu);
  return NULL;
}

static int deadline_init(Deadline *d) {
  pthread_condattr_t a;
  memset(d, 0, sizeof *d);
  if (pthread_condattr_init(&a) != 0) return -1;
  int bad = pthread_condattr_setclock(&a, CLOCK_MONOTONIC) != 0
            || pthread_cond_init(&d->cv, &a) != 0;
  pthread_condattr_destroy(&a);
  if (bad) return -1;
  if (pthread_mutex_init(&d->mu, NULL) != 0) {
    pthread_cond_destroy(&d->cv);
    return -1;
  }
  return 0;
}

static void deadline_destroy(Deadline *d) {
  pthread_cond_destroy(&d->cv);
  pthread_mutex_destroy(&d->mu);
}

/* Starts the watchdog for `seconds` from now; -1 if no thread. */
static int deadline_start(Deadline *d, double seconds) {
  d->at = clock_deadline(seconds);
  d->done = d->fired = 0;
  if (pthread_create(&d->thread, NULL, watch, d) != 0) return -1;
  d->running = 1;
  return 0;
}

/* Ends the watchdog (idempotent) and lowers the flag if it raised it.
** Returns 1 if the deadline passed. */
static int deadline_end(Deadline *d) {
  if (!d->running) return 0;
  pthread_mutex_lock(&d->mu);
  d->done = 1;
  pthread_cond_signal(&d->cv);
  pthread_mutex_unlock(&d->mu);
  pthread_join(d->thread, NULL);
  d->running = 0;
  if (d->fired) {
    sig_atomic_t raised = STOP_TIME;
    __atomic_compare_exchange_n(&stop_requested, &raised, STOP_NONE, 0,
                                __ATOMIC_RELAXED, __ATOMIC_RELAXED);
  }
  return d->fired;
}

/* ---- genmove -------------------------------------------------------- */

/* The job at the position, its solver chosen for a search of `depth`
** plies (0: exact); the job keeps its table from one search to the next. */
static int job_for(Gtp *t, int depth) {
  SolveOptions *o = &t->opts;
  if (!t->job_ready) solve_job_init(&t->job, t->g, t->played, o, t->errf);
  else solve_job_reroot(&t->job, t->played);
  t->job_ready = 1;
  if (t->errf) rewind(t->errf);
  memset(o, 0, sizeof *o);
  o->depth = depth;
  o->tt_mib = t->o->tt_mib;
  o->no_cycle_probe = 1;
  o->quiet = 1;
  return solver_choose(&t->job);
}

/* One search of the position by the solve driver. */
static int search_once(Gtp *t, int depth) {
  int st = job_for(t, depth);
  return st != EXIT_OK ? st : solver_run(&t->job);
}

/* The message of the search that failed, without "gsolve: error: ". */
static const char *search_error(Gtp *t) {
  static const char head[] = DIAG_ERROR_HEAD;
  long len;
  if (t->errf == NULL || fflush(t->errf) != 0 || (len = ftell(t->errf)) <= 0)
    return "the search failed";
  if (len >= GTP_ERR_BYTES) len = GTP_ERR_BYTES - 1;
  t->errbuf[len] = '\0';
  t->errbuf[strcspn(t->errbuf, "\n")] = '\0';
  return strncmp(t->errbuf, head, sizeof head - 1) ? t->errbuf : t->errbuf + sizeof head - 1;
}

/* The first of the best root moves of the last search; 0 if none. */
static int first_best(const SolveAnswer *a, Move *m) {
  int n = a->exact ? a->exact->nmoves : a->expected ? a->expected->nmoves : 0;
  const unsigned char *best = a->exact ? a->exact->best : a->expected ? a->expected->best : NULL;
  const Move *moves = a->exact ? a->exact->moves : a->expected ? a->expected->moves : NULL;
  for (int i = 0; i < n; i++)
    if (best[i]) {
      *m = moves[i];
      return 1;
    }
  return 0;
}

/* When no search finished in time: the first legal move, a pass only if
** there is nothing else.  1, 0 if there is no move, -1 out of memory. */
static int first_legal(Gtp *t, Move *m) {
  char text[64];
  int n;
  if (t->moves == NULL && (t->moves = malloc(GAME_MAX_MOVES * sizeof *t->moves)) == NULL)
    return -1;
  if ((n = game_generate(t->g, t->moves)) <= 0) return 0;
  *m = t->moves[0];
  for (int i = 0; i < n; i++) {
    game_format_move(t->g, &t->moves[i], text, sizeof text);
    if (strcmp(text, "pass") != 0) {
      *m = t->moves[i];
      break;
    }
  }
  return 1;
}

/* The computer's move for colour c, to move: iterative deepening within
** the move's budget, depth 1, 2, ... up to --level, then, on boards of
** at most GTP_EXACT_CELLS points, an exact solve; each search that
** finishes gives the move (the first of its best), and the deadline stops
** the one under way (or is not started when it cannot end in time).  A
** depth that met no position at its horizon solved the game: no deeper
** one is needed.  Applies the move and writes its notation into buf.
** Returns 1, 0 when there is no move, -1 on an error (message in *why). */
static int choose(Gtp *t, int c, char *buf, size_t n, const char **why) {
  int level = t->o->level > 0 ? t->o->level : 1;
  int exact_too = gs_board_cells(t->prog) <= GTP_EXACT_CELLS;
  int have = 0, st = EXIT_OK, late;
  Move m;
  /* The search's table is made before the clock starts. */
  if ((st = job_for(t, 1)) != EXIT_OK || (st = solver_prepare(&t->job)) != EXIT_OK) {
    *why = st == EXIT_LIMIT ? "out of memory" : search_error(t);
    return -1;
  }
  double budget = move_budget(t, c), start = clock_seconds(), began;
  if (deadline_start(&t->deadline, budget) != 0) {
    *why = "cannot start the move timer";
    return -1;
  }
  for (int d = 1;; d++) {
    int depth = d <= level ? d : 0;
    if (depth == 0 && !exact_too) break;
    began = clock_seconds();
    if ((st = search_once(t, depth)) != EXIT_OK) break;
    SolveAnswer a = solve_job_answer(&t->job);
    have |= first_best(&a, &m);
    if (depth == 0 || a.depths < (uint64_t)d) break;
    /* The next search costs at least as much as this one (it repeats
    ** it, and goes a ply deeper): not worth starting if it cannot end
    ** in time (and a search starts with work the flag does not stop). */
    if (clock_seconds() - start + (clock_seconds() - began) > budget) break;
  }
  late = deadline_end(&t->deadline);
  if (st != EXIT_OK && !late) {
    *why = search_error(t);
    return -1;
  }
  if (!have && (have = first_legal(t, &m)) <= 0) {
    *why = "out of memory";
    return have;
  }
  game_format_move(t->g, &m, buf, n);
  game_apply(t->g, &m);
  t->played++;
  return 1;
}

/* ---- the commands -------------------------------------------------- */

static void cmd_boardsize(Gtp *t, const char *id, char **arg, int narg) {
  Overrides ov = t->ov;
  const char *why;
  char *end;
  long size = narg > 0 ? strtol(arg[0], &end, 10) : 0;
  if (narg < 1 || *end || end == arg[0]) {
    reply(t, id, 0, "syntax error");
    return;
  }
  /* GTP's vertices reach 25; the game's parameter range decides. */
  if (size < 1 || size > 25) {
    reply(t, id, 0, "unacceptable size");
    return;
  }
  snprintf(ov.width, sizeof ov.width, "%ld", size);
  snprintf(ov.height, sizeof ov.height, "%ld", size);
  ov.sized = 1;
  int st = build(t, &ov, &why);
  if (st == EXIT_OK) reply(t, id, 1, "%s", "");
  else reply(t, id, 0, "%s", st == EXIT_LIMIT ? "out of memory" : "unacceptable size");
}

/* Komi is a parameter: the game is compiled again, on an empty board
** (controllers set komi before the first move). */
static void cmd_komi(Gtp *t, const char *id, char **arg, int narg) {
  Overrides ov = t->ov;
  const char *why;
  char *end;
  double k = narg > 0 ? strtod(arg[0], &end) : 0;
  if (narg < 1 || *end || end == arg[0] || !isfinite(k)) {
    reply(t, id, 0, "syntax error");
    return;
  }
  if (k != floor(k) || fabs(k) > 1e9) {
    reply(t, id, 0, "komi must be a whole number in this game");
    return;
  }
  snprintf(ov.komi, sizeof ov.komi, "%ld", (long)k);
  ov.komi_set = 1;
  int st = build(t, &ov, &why);
  if (st == EXIT_OK) reply(t, id, 1, "%s", "");
  else reply(t, id, 0, "%s", st == EXIT_LIMIT ? "out of memory" : "unacceptable komi");
}

static void cmd_play(Gtp *t, const char *id, char **arg, int narg) {
  int c = narg > 1 ? colour(arg[0]) : -1, before = t->played, st;
  if (c < 0) {
    reply(t, id, 0, "syntax error");
    return;
  }
  if ((st = turn_to(t, c)) == EXIT_OK) st = play_text(t, arg[1]);
  if (st == EXIT_OK) {
    reply(t, id, 1, "%s", "");
    return;
  }
  undo_to(t, before);
  reply(t, id, 0, "%s", st == EXIT_LIMIT ? "out of memory" : "illegal move");
}

static void cmd_genmove(Gtp *t, const char *id, char **arg, int narg) {
  int c = narg > 0 ? colour(arg[0]) : -1, before = t->played, got, st;
  const char *why = NULL;
  char buf[256];
  Outcome o;
  if (c < 0) {
    reply(t, id, 0, "syntax error");
    return;
  }
  if ((st = turn_to(t, c)) != EXIT_OK) {
    reply(t, id, 0, "%s", st == EXIT_LIMIT ? "out of memory" : "cannot move now");
    return;
  }
  got = game_ended(t->g, &o) ? 0 : choose(t, c, buf, sizeof buf, &why);
  if (got <= 0) {
    undo_to(t, before);
    if (got < 0) reply(t, id, 0, "%s", why);
    else reply(t, id, 1, "pass");
    return;
  }
  for (char *s = buf; *s; s++) *s = (char)toupper((unsigned char)*s);
  reply(t, id, 1, "%s", !strcmp(buf, "PASS") ? "pass" : buf);
}

/* time_settings main_time byo_yomi_time byo_yomi_stones */
static void cmd_time_settings(Gtp *t, const char *id, char **arg, int narg) {
  Clock k;
  memset(&k, 0, sizeof k);
  if (narg < 3 || !parse_seconds(arg[0], &k.main_time) || !parse_seconds(arg[1], &k.byo_time)
      || !parse_stones(arg[2], &k.byo_stones)) {
    reply(t, id, 0, "syntax error");
    return;
  }
  k.set = 1;
  t->clock = k;
  reply(t, id, 1, "%s", "");
}

/* time_left colour time stones */
static void cmd_time_left(Gtp *t, const char *id, char **arg, int narg) {
  int c = narg > 2 ? colour(arg[0]) : -1;
  double left;
  long stones;
  if (c < 0 || !parse_seconds(arg[1], &left) || !parse_stones(arg[2], &stones)) {
    reply(t, id, 0, "syntax error");
    return;
  }
  t->clock.known[c] = 1;
  t->clock.left[c] = left;
  t->clock.stones[c] = stones;
  reply(t, id, 1, "%s", "");
}

/* Runs one command; 0 after quit. */
static int command(Gtp *t, const char *id, const char *cmd, char **arg, int narg) {
  char buf[64];
  int st;
  if (!strcmp(cmd, "protocol_version")) reply(t, id, 1, "2");
  else if (!strcmp(cmd, "name")) reply(t, id, 1, "gsolve");
  else if (!strcmp(cmd, "version")) reply(t, id, 1, "%s", GSOLVE_VERSION);
  else if (!strcmp(cmd, "known_command")) {
    int known = 0;
    for (int i = 0; commands[i] && narg > 0; i++) known |= !strcmp(commands[i], arg[0]);
    reply(t, id, 1, "%s", known ? "true" : "false");
  } else if (!strcmp(cmd, "list_commands")) {
    fprintf(t->out, "=%s ", id);
    for (int i = 0; commands[i]; i++) fprintf(t->out, "%s%s", i ? "\n" : "", commands[i]);
    fputs("\n\n", t->out);
    fflush(t->out);
  } else if (!strcmp(cmd, "quit")) {
    reply(t, id, 1, "%s", "");
    return 0;
  } else if (!strcmp(cmd, "boardsize")) cmd_boardsize(t, id, arg, narg);
  else if (!strcmp(cmd, "clear_board")) {
    undo_to(t, 0);
    reply(t, id, 1, "%s", "");
  } else if (!strcmp(cmd, "komi")) cmd_komi(t, id, arg, narg);
  else if (!strcmp(cmd, "play")) cmd_play(t, id, arg, narg);
  else if (!strcmp(cmd, "genmove")) cmd_genmove(t, id, arg, narg);
  else if (!strcmp(cmd, "time_settings")) cmd_time_settings(t, id, arg, narg);
  else if (!strcmp(cmd, "time_left")) cmd_time_left(t, id, arg, narg);
  else if (!strcmp(cmd, "showboard")) {
    fprintf(t->out, "=%s\n", id);
    game_print(t->g, t->out);
    fputs("\n", t->out);
    fflush(t->out);
  } else if (!strcmp(cmd, "final_score")) {
    if ((st = final_score(t, buf, sizeof buf)) == EXIT_OK) reply(t, id, 1, "%s", buf);
    else reply(t, id, 0, "%s", st == EXIT_LIMIT ? "out of memory" : "cannot score");
  } else if (!strcmp(cmd, "undo")) {
    if (t->played == 0) reply(t, id, 0, "cannot undo");
    else {
      undo_to(t, t->played - 1);
      reply(t, id, 1, "%s", "");
    }
  } else {
    reply(t, id, 0, "unknown command");
  }
  return 1;
}

/* A command with a trap for runtime errors in the rules, which end the
** engine (with their status in *st) after an error reply. */
static int trapped(Gtp *t, const char *id, const char *cmd, char **arg, int narg, int *st) {
  jmp_buf trap;
  int go;
  t->g->trap = &trap;
  if (setjmp(trap) != 0) {
    deadline_end(&t->deadline);
    position_free(&t->pos);
    *st = t->g->error_status;
    t->g->trap = NULL;
    reply(t, id, 0, "runtime error in the rules");
    return 0;
  }
  go = command(t, id, cmd, arg, narg);
  t->g->trap = NULL;
  return go;
}

/* ---- reading commands ----------------------------------------------- */

enum { LINE_OK, LINE_TOO_LONG, LINE_EOF };

/* Reads one line, however long, cleaned as GTP 2 says: control
** characters other than HT and LF removed (NUL, CR and DEL too), HT made
** a space, everything from '#' on discarded.  Keeps GTP_MAX_LINE bytes
** in `line`; a line with more than that (trailing blanks aside) is still
** read to its end, and is LINE_TOO_LONG.  LINE_EOF when nothing was left
** to read. */
static int read_line(FILE *in, char *line) {
  size_t n = 0;
  int c, any = 0, comment = 0, too_long = 0;
  while ((c = getc(in)) != EOF) {
    any = 1;
    if (c == '\n') break;
    if (comment) continue;
    if (c == '#') {
      comment = 1;
      continue;
    }
    if (c == '\t') c = ' ';
    else if (c < 0x20 || c == 0x7f) continue;
    if (n == GTP_MAX_LINE) too_long |= c != ' ';
    else line[n++] = (char)c;
  }
  line[n] = '\0';
  if (!any) return LINE_EOF;
  return too_long ? LINE_TOO_LONG : LINE_OK;
}

/* Cuts the line into its first `max` words; returns how many. */
static int split(char *s, char **word, int max) {
  int n = 0;
  while (n < max) {
    while (*s == ' ') s++;
    if (!*s) break;
    word[n++] = s;
    while (*s && *s != ' ') s++;
    if (*s) *s++ = '\0';
  }
  return n;
}

static int is_id(const char *s) {
  if (!*s) return 0;
  while (isdigit((unsigned char)*s)) s++;
  return *s == '\0';
}

/* Answers the commands of `in` until quit or its end; the status. */
static int session(Gtp *t, FILE *in) {
  char *word[GTP_MAX_WORDS];
  int st = EXIT_OK, kind;
  while ((kind = read_line(in, t->line)) != LINE_EOF) {
    int n = split(t->line, word, GTP_MAX_WORDS);
    if (n == 0 && kind == LINE_OK) continue;     /* blank: no answer */
    int first = n > 0 && is_id(word[0]);
    const char *id = first ? word[0] : "";
    if (kind == LINE_TOO_LONG)
      reply(t, id, 0, "line too long (limit is %d bytes)", GTP_MAX_LINE);
    else if (n == first)
      reply(t, id, 0, "no command");
    else if (!trapped(t, id, word[first], word + first + 1, n - first - 1, &st))
      break;
  }
  return st;
}

int gtp_run(const GtpOptions *o, FILE *in, FILE *out) {
  return gtp_run_timed(o, 0, in, out);
}

int gtp_run_timed(const GtpOptions *o, double move_time, FILE *in, FILE *out) {
  Gtp *t = calloc(1, sizeof *t);
  Overrides none;
  const char *why;
  int st;
  if (t == NULL || deadline_init(&t->deadline) != 0) {
    free(t);
    return diag_out_of_memory(stderr);
  }
  memset(&none, 0, sizeof none);
  t->o = o;
  t->move_time = isfinite(move_time) && move_time > 0 ? fmin(move_time, GTP_MAX_SECONDS) : 0;
  t->out = out;
  t->errf = fmemopen(t->errbuf, sizeof t->errbuf, "w");
  st = build(t, &none, &why);
  if (st == EXIT_OK) {
    st = session(t, in);
  } else if (why != NULL) {
    diag_plain(stderr, "error", "%s", why);
  }
  drop_game(t);
  free(t->moves);
  if (t->errf != NULL) fclose(t->errf);
  deadline_destroy(&t->deadline);
  free(t);
  return st;
}
