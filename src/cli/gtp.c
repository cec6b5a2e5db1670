/*
** gtp.c -- the Go Text Protocol engine (see gtp.h).
**
** One command per line: an optional numeric id, the command, arguments.
** Success is "=[id] result" and failure "?[id] message", each followed
** by an empty line.  Colours are the game's first player (black, b) and
** second (white, w); vertices are the game's own move notation, which
** games/go.game writes GTP style (columns a..t without i), so "C3" is
** the move "c3".  When a colour plays out of turn, the player whose turn
** it is passes first, as GTP controllers expect.
*/
#include <ctype.h>
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "search/alphabeta.h"
#include "cli/gtp.h"
#include "game/position.h"
#include "compiler/program.h"
#include "search/search.h"
#include "search/tt.h"
#include "search/value.h"

#define GTP_LINE 4096
#define GTP_MAX_DEFS 64

typedef struct Gtp {
  const GtpOptions *o;
  FILE *out;
  ParamDef defs[GTP_MAX_DEFS];    /* the user's -D, then ours */
  int ndefs;
  char width[16], height[16], komi[16];   /* our overrides' values */
  int sized, komi_set;
  Program *prog;
  Game *g;
  int played;                     /* moves applied since clear_board */
  Tt *tt;
  Search search;
} Gtp;

static const char *const commands[] = {
  "protocol_version", "name", "version", "known_command", "list_commands",
  "quit", "boardsize", "clear_board", "komi", "play", "genmove",
  "showboard", "final_score", "undo", NULL
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
  search_free(&t->search);
  tt_free(t->tt);
  t->tt = NULL;
  game_free(t->g);
  t->g = NULL;
  if (t->prog) gs_program_free(t->prog);
  t->prog = NULL;
  t->played = 0;
}

/* Compiles the game with the user's -D and our size and komi; NULL
** message on success, else why not (diagnostics go to stderr). */
static const char *build(Gtp *t) {
  int n = 0, st;
  for (int i = 0; i < t->o->ndefs && n < GTP_MAX_DEFS - 3; i++) {
    const char *name = t->o->defs[i].name;
    if ((t->sized && (!strcmp(name, "width") || !strcmp(name, "height"))) ||
        (t->komi_set && !strcmp(name, "komi")))
      continue;
    t->defs[n++] = t->o->defs[i];
  }
  if (t->sized) {
    t->defs[n++] = (ParamDef){ "width", t->width };
    t->defs[n++] = (ParamDef){ "height", t->height };
  }
  if (t->komi_set) t->defs[n++] = (ParamDef){ "komi", t->komi };
  t->ndefs = n;
  drop_game(t);
  t->prog = gs_compile(t->o->file, t->o->text, t->o->len, t->defs, t->ndefs, stderr, &st);
  if (t->prog == NULL) return "the game does not take these parameters";
  if ((t->g = vm_new(t->prog, &st)) == NULL) return "the game cannot start";
  if (t->g->nplayers != 2) return "GTP needs a game of two players";
  search_init(&t->search, t->g, 0, stderr);
  return NULL;
}

/* 0 black, 1 white, -1 not a colour. */
static int colour(const char *s) {
  if (!strcasecmp(s, "b") || !strcasecmp(s, "black")) return 0;
  if (!strcasecmp(s, "w") || !strcasecmp(s, "white")) return 1;
  return -1;
}

/* Plays the move written `text` (any case); 0 if it is not legal. */
static int play_text(Gtp *t, const char *text) {
  char low[64];
  Position pos;
  size_t i;
  for (i = 0; text[i] && i + 1 < sizeof low; i++) low[i] = (char)tolower((unsigned char)text[i]);
  low[i] = '\0';
  int st = position_play(t->g, low, &pos, NULL);
  int n = pos.n;
  position_free(&pos);
  if (st != EXIT_OK || n != 1) {
    for (int k = 0; k < n; k++) game_undo(t->g);
    return 0;
  }
  t->played++;
  return 1;
}

/* Gives the turn to colour c: the other side passes if it is to move. */
static int turn_to(Gtp *t, int c) {
  if (game_to_move(t->g) == c) return 1;
  return play_text(t, "pass");
}

/* The outcome as GTP writes it: "B+3", "W+1", "0". */
static void score_text(const Outcome *o, char *buf, size_t n) {
  long d = (long)o->payoff[0] - (long)o->payoff[1];
  if (d > 0) snprintf(buf, n, "B+%ld", d);
  else if (d < 0) snprintf(buf, n, "W+%ld", -d);
  else snprintf(buf, n, "0");
}

/* The score if both passed now (the game ended: its outcome). */
static int final_score(Gtp *t, char *buf, size_t n) {
  Outcome o;
  int applied = 0, ok = 0;
  while (applied < 3) {
    if (game_ended(t->g, &o)) { ok = 1; break; }
    if (!play_text(t, "pass")) break;
    applied++;
  }
  while (applied-- > 0) { game_undo(t->g); t->played--; }
  if (ok) score_text(&o, buf, n);
  return ok;
}

/* The computer's move for the player to move: an exact solve on small
** boards, depth-limited alpha-beta (the game's eval) otherwise; the
** first of the best moves.  Writes its notation into buf; 0 when none. */
static int choose(Gtp *t, char *buf, size_t n) {
  Game *g = t->g;
  AbOptions ab;
  search_free(&t->search);
  search_init(&t->search, g, t->played, stderr);
  if (t->tt == NULL && t->o->tt_mib > 0 && (t->tt = tt_new(t->o->tt_mib)) == NULL) return 0;
  alphabeta_options(&ab);
  ab.depth = t->prog->ncells <= GTP_EXACT_CELLS ? 0 : t->o->level;
  ab.score_only = g->score_only;
  if (alphabeta_run(&t->search, t->tt, &ab) != EXIT_OK) return 0;
  const SolveResult *r = &t->search.result;
  for (int i = 0; i < r->nmoves; i++)
    if (r->best[i]) {
      game_format_move(g, &r->moves[i], buf, n);
      game_apply(g, &r->moves[i]);
      t->played++;
      return 1;
    }
  return 0;
}

/* ---- the commands -------------------------------------------------- */

/* Runs one command; 0 after quit. */
static int command(Gtp *t, const char *id, char *cmd, char **arg, int narg) {
  char buf[256];
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
  } else if (!strcmp(cmd, "boardsize")) {
    char *end;
    long size = narg > 0 ? strtol(arg[0], &end, 10) : 0;
    if (narg < 1 || *end || size < 1 || size > 25) { reply(t, id, 0, "unacceptable size"); return 1; }
    snprintf(t->width, sizeof t->width, "%ld", size);
    snprintf(t->height, sizeof t->height, "%ld", size);
    t->sized = 1;
    const char *why = build(t);
    if (why) reply(t, id, 0, "unacceptable size");
    else reply(t, id, 1, "%s", "");
  } else if (!strcmp(cmd, "clear_board")) {
    while (t->played > 0) { game_undo(t->g); t->played--; }
    reply(t, id, 1, "%s", "");
  } else if (!strcmp(cmd, "komi")) {
    char *end;
    double k = narg > 0 ? strtod(arg[0], &end) : 0;
    if (narg < 1 || *end) { reply(t, id, 0, "syntax error"); return 1; }
    if (k != (double)(long)k) { reply(t, id, 0, "komi must be a whole number in this game"); return 1; }
    snprintf(t->komi, sizeof t->komi, "%ld", (long)k);
    t->komi_set = 1;
    /* Komi is a parameter: the game is compiled again, with an empty
    ** board (controllers set komi before the first move). */
    const char *why = build(t);
    if (why) reply(t, id, 0, "%s", why);
    else reply(t, id, 1, "%s", "");
  } else if (!strcmp(cmd, "play")) {
    int c = narg > 1 ? colour(arg[0]) : -1;
    if (c < 0) { reply(t, id, 0, "syntax error"); return 1; }
    int before = t->played;
    if (!turn_to(t, c) || !play_text(t, arg[1])) {
      while (t->played > before) { game_undo(t->g); t->played--; }
      reply(t, id, 0, "illegal move");
    } else {
      reply(t, id, 1, "%s", "");
    }
  } else if (!strcmp(cmd, "genmove")) {
    int c = narg > 0 ? colour(arg[0]) : -1;
    Outcome o;
    if (c < 0) { reply(t, id, 0, "syntax error"); return 1; }
    int before = t->played;
    if (!turn_to(t, c)) { reply(t, id, 0, "cannot move now"); return 1; }
    if (game_ended(t->g, &o) || !choose(t, buf, sizeof buf)) {
      while (t->played > before) { game_undo(t->g); t->played--; }
      reply(t, id, 1, "pass");
    } else {
      for (char *s = buf; *s; s++) *s = (char)toupper((unsigned char)*s);
      reply(t, id, 1, "%s", !strcmp(buf, "PASS") ? "pass" : buf);
    }
  } else if (!strcmp(cmd, "showboard")) {
    fprintf(t->out, "=%s\n", id);
    game_print(t->g, t->out);
    fputs("\n", t->out);
    fflush(t->out);
  } else if (!strcmp(cmd, "final_score")) {
    if (final_score(t, buf, sizeof buf)) reply(t, id, 1, "%s", buf);
    else reply(t, id, 0, "cannot score");
  } else if (!strcmp(cmd, "undo")) {
    if (t->played == 0) { reply(t, id, 0, "cannot undo"); return 1; }
    game_undo(t->g);
    t->played--;
    reply(t, id, 1, "%s", "");
  } else {
    reply(t, id, 0, "unknown command");
  }
  return 1;
}

/* A command with a trap for runtime errors in the rules, which end the
** engine (with their status in *st) after an error reply. */
static int trapped(Gtp *t, const char *id, char *cmd, char **arg, int narg, int *st) {
  jmp_buf trap;
  Game *g = t->g;
  int go;
  g->trap = &trap;
  if (setjmp(trap) != 0) {
    *st = g->error_status;
    reply(t, id, 0, "runtime error in the rules");
    return 0;
  }
  go = command(t, id, cmd, arg, narg);
  if (t->g) t->g->trap = NULL;
  return go;
}

int gtp_run(const GtpOptions *o, FILE *in, FILE *out) {
  Gtp *t = calloc(1, sizeof *t);
  char line[GTP_LINE];
  int st = EXIT_OK, go = 1;
  if (t == NULL) return EXIT_LIMIT;
  t->o = o;
  t->out = out;
  const char *why = build(t);
  if (why) {
    fprintf(stderr, "gsolve: error: gtp: %s\n", why);
    drop_game(t);
    free(t);
    return EXIT_BAD_GAME;
  }
  while (go && fgets(line, sizeof line, in) != NULL) {
    char *word[16], *s = line, id[24] = "";
    int n = 0;
    /* Control characters but tab and newline go; # starts a comment. */
    for (char *p = line; *p; p++) {
      if (*p == '#') { *p = '\0'; break; }
      if (*p == '\t') *p = ' ';
    }
    while (n < 16) {
      while (*s == ' ' || *s == '\n' || *s == '\r') s++;
      if (!*s) break;
      word[n++] = s;
      while (*s && *s != ' ' && *s != '\n' && *s != '\r') s++;
      if (*s) *s++ = '\0';
    }
    if (n == 0) continue;
    int first = 0;
    if (isdigit((unsigned char)word[0][0])) {
      snprintf(id, sizeof id, "%s", word[0]);
      first = 1;
      if (n == 1) continue;
    }
    go = trapped(t, id, word[first], word + first + 1, n - first - 1, &st);
  }
  drop_game(t);
  free(t);
  return st;
}
