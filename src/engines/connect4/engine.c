/*
** engine.c -- the native Connect Four engine (games/connect4.game, k = 4)
** on bitboards: what does not depend on the board's word.  The rules on
** the bitboard are c4rules.h, compiled over 64-bit words (c4game64.c:
** boards with width * (height + 1) <= 64, 7x6 among them, as fast as an
** engine that knows no other) and over 128-bit words (c4game128.c: up to
** 128 bits, 10x6, 9x7, 8x8 ...); native_c4_new picks one by the size.
** Here: the outcome, the notation, and the strong solver's glue.
*/
#include <stdlib.h>
#include <string.h>
#include "engines/connect4/c4engine.h"
#include "util/diag.h"
#include "util/file.h"
#include "util/status.h"
#include "util/stop.h"

int c4_ended(Game *g, Outcome *o) {
  C4Common *c = (C4Common *)g;
  if (c->winner) {
    /* Pons' score, as connect4.game's end block gives it. */
    memset(o, 0, sizeof *o);
    o->payoff[c->winner - 1] = (c->w * c->h + 2 - c->moves) / 2;
    return 1;
  }
  if (c->moves == c->w * c->h) {
    memset(o, 0, sizeof *o);
    return 1;
  }
  return 0;
}

void c4_no_moves(Game *g, Outcome *o) {
  /* Unreachable after ended(): a full board is a draw.  Normal play. */
  C4Common *c = (C4Common *)g;
  memset(o, 0, sizeof *o);
  o->payoff[c->moves & 1] = -1;
}

int c4_to_move(Game *g) { return ((C4Common *)g)->moves & 1; }

/* A move's column, as snprintf's "%d" would write it (the same return
** and truncation), but by hand: reading a --test-set line formats every
** legal move at every ply to match the notation, and snprintf was three
** quarters of the instructions of a Test_L3_R1 run (394 M). */
int c4_format(Game *g, const Move *m, char *buf, size_t n) {
  (void)g;
  char digits[16];
  int len = 0, v = m->arg[0];
  unsigned u = v < 0 ? 0u - (unsigned)v : (unsigned)v;
  do digits[len++] = (char)('0' + u % 10); while ((u /= 10) != 0);
  if (v < 0) digits[len++] = '-';
  for (int i = 0; i < len && (size_t)i + 1 < n; i++) buf[i] = digits[len - 1 - i];
  if (n > 0) buf[(size_t)len < n ? (size_t)len : n - 1] = '\0';
  return len;
}

void c4_common_free(C4Common *c) {
  c4_free(c->solver);
  c4book_free(c->book);
}

/* The current position as the strong solver takes it (c4solve.h). */
static void c4_query(const C4Common *c, C4Query *q) {
  memset(q, 0, sizeof *q);
  q->width = c->w;
  q->height = c->h;
  c->position(c, &q->cur, &q->mask);
  q->moves = c->moves;
}

static int c4_stopped(uint64_t nodes, FILE *err);

/* Opening books hold 64-bit keys: none past 64 bits; an exit status. */
static int c4_book_fits(const C4Common *c, const char *flag, FILE *err) {
  if (c->w * (c->h + 1) <= 64) return EXIT_OK;
  return diag_fail(err, EXIT_USAGE, "%s: opening books take boards with width * (height + 1) "
                   "<= 64 (%dx%d has %d bits)", flag, c->w, c->h, c->w * (c->h + 1));
}

/* The strong solver, made once with the options' table size, threads,
** techniques and book; an exit status. */
static int c4_solver(C4Common *c, const EngineSolveOptions *o) {
  if (c->solver) return EXIT_OK;
  C4Config cfg = { o->table_mib, o->threads ? o->threads : 1, 0, NULL };
  if (o->without) {
    /* A comma-separated list of the techniques to leave out. */
    char list[256];
    snprintf(list, sizeof list, "%s", o->without);
    for (char *t = strtok(list, ","); t; t = strtok(NULL, ",")) {
      unsigned bit = c4_technique(t);
      if (bit == 0) {
        return diag_fail(o->err, EXIT_USAGE, "--without: unknown technique '%s' (%s)", t,
                         c4_technique_names);
      }
      cfg.without |= bit;
    }
  }
  if (o->book && c4_book_fits(c, "--book", o->err) != EXIT_OK) return EXIT_USAGE;
  int fresh = o->book && c->book == NULL;
  if (fresh) {
    int st = c4book_load(o->book, c->w, c->h, &c->book, o->err);
    if (st != EXIT_OK) return st;
  }
  cfg.book = c->book;
  if (o->table_mib == 0) cfg.without |= C4_NO_TABLE;
  /* The table shrinks to what the memory allows (c4table.c): failing
  ** even so, the message names the table and the flag that sizes it. */
  if ((c->solver = c4_new(c->w, c->h, &cfg)) == NULL)
    return o->table_mib ? file_memory_refused(o->err, "--tt-size", o->table_mib, "the solver's table")
                        : diag_fail(o->err, EXIT_LIMIT, "out of memory for the Connect Four solver");
  /* It halved until it fitted: say so, as the VM solvers' table does. */
  size_t got = c4_table_shrunk_bytes(c->solver);
  if (got) file_memory_shrunk(o->err, o->table_mib, got);
  /* A book read from a file is checked against the rules before any
  ** answer comes from it, as a database is (a forged score with its
  ** checksum recomputed was believed). */
  if (fresh) {
    const char *why = NULL;
    int rc = c4_check_book(c->solver, c->book, &why);
    if (rc != 0) {
      c4_free(c->solver);
      c4book_free(c->book);
      c->solver = NULL;
      c->book = NULL;
      if (rc == -2) return c4_stopped(0, o->err);
      if (rc == -1) return diag_out_of_memory(o->err);
      return diag_fail(o->err, EXIT_USAGE, "'%s' is corrupt: %s", o->book, why);
    }
  }
  return EXIT_OK;
}

/* The solver stopped (Ctrl-C, --time-limit). */
static int c4_stopped(uint64_t nodes, FILE *err) {
  char msg[160];
  return diag_fail(err, stop_message(msg, sizeof msg, nodes, "nodes"), "%s", msg);
}

/* The solve's progress in words: which score is being found (the
** position's, or a move's) and the range it is known to lie in. */
static void c4_solve_progress(const C4Progress *p, void *arg) {
  const EngineSolveOptions *o = arg;
  char how[96];
  int n = p->move ? snprintf(how, sizeof how, "move %d of %d", p->move, p->nmoves)
                  : snprintf(how, sizeof how, "score");
  if (p->lo < p->hi)
    snprintf(how + n, sizeof how - (size_t)n, " in %+d..%+d", p->lo, p->hi);
  o->progress(o->progress_arg, how, p->nodes, -1);
}

/* The solver for these options made, its tables mapped: in full, or as
** much as half the memory still free allows (a table the kernel could
** only give lazily stays lazy past that, rather than being written into
** an out-of-memory kill). */
int c4_engine_prepare(Game *g, const EngineSolveOptions *o) {
  C4Common *c = (C4Common *)g;
  int st = c4_solver(c, o);
  if (st == EXIT_OK) {
    int limited;
    c4_touch(c->solver, file_memory_free(&limited) / 2);
  }
  return st;
}

/* Every root move's exact Pons score (hence value and plies), or with
** root_only the position's score alone; the table cleared first unless
** asked to keep it. */
int c4_engine_solve(Game *g, const EngineSolveOptions *o, EngineAnswer *ans) {
  C4Common *c = (C4Common *)g;
  C4Query q;
  C4Answer a;
  int st = c4_solver(c, o);
  if (st != EXIT_OK) return st;
  c4_query(c, &q);
  q.weak = o->weak;
  q.all_moves = o->all_moves;
  q.root_only = o->root_only;
  if (o->progress) {
    q.progress = c4_solve_progress;
    q.progress_arg = (void *)o;
  }
  if (!o->keep_table) c4_reset(c->solver);
  if (c4_solve(c->solver, &q, &a) != 0)
    return stop_requested ? c4_stopped(a.nodes, o->err) : diag_out_of_memory(o->err);
  int cells = c->w * c->h;
  native_answer_root(ans, a.score, o->weak ? -1 : c4_plies_from_score(cells, q.moves, a.score),
                     a.nodes);
  ans->book_hits = a.book_hits;
  for (int i = 0; i < (o->root_only ? 0 : a.nmoves); i++) {
    int sc = a.move_score[i];
    native_answer_move(ans, sc, o->weak ? -1 : c4_plies_from_score(cells, q.moves, sc),
                       a.move_exact[i]);
  }
  return EXIT_OK;
}

/* --make-book: the positions of 0..depth stones from the empty board. */
/* The book's progress: the level being solved and how far into it. */
static void c4_book_progress(int stones, size_t done, size_t positions, uint64_t nodes,
                             void *arg) {
  const EngineSolveOptions *o = arg;
  char how[96];
  if (positions == 0)
    snprintf(how, sizeof how, "listing the positions of %d stone%s", stones, stones == 1 ? "" : "s");
  else
    snprintf(how, sizeof how, "%d stone%s: %zu of %zu", stones, stones == 1 ? "" : "s",
             done + 1, positions);
  o->progress(o->progress_arg, how, nodes, -1);
}

int c4_engine_make_book(Game *g, const EngineSolveOptions *o, int depth, const char *path,
                        EngineBookInfo *info) {
  C4Common *c = (C4Common *)g;
  int st = c4_book_fits(c, "--make-book", o->err);
  if (st == EXIT_OK) st = c4_solver(c, o);
  if (st != EXIT_OK) return st;
  C4Book *b = c4book_new(c->w, c->h);
  uint64_t nodes = 0;
  int rc = b ? c4_make_book(c->solver, depth, b, &nodes, o->progress ? c4_book_progress : NULL,
                            (void *)o) : -1;
  if (rc == -2) st = c4_stopped(nodes, o->err);
  else if (rc != 0)
    st = diag_fail(o->err, EXIT_LIMIT, "out of memory while making the book (fewer stones: "
                   "--book-depth N)");
  else st = c4book_save(b, path, o->err);
  if (b) *info = (EngineBookInfo){ b->width, b->height, b->from, b->to, b->n, nodes };
  c4book_free(b);
  return st;
}

Game *native_c4_new(const Program *p, char *why, size_t n, int *status) {
  int32_t w, h, k = 4;
  if (!gs_param_int(p, "width", &w) || !gs_param_int(p, "height", &h)) {
    snprintf(why, n, "native connect4 needs parameters 'width' and 'height'");
    return NULL;
  }
  gs_param_int(p, "k", &k);
  if (k != 4) {
    snprintf(why, n, "native connect4 plays k = 4 only (k=%d)", k);
    return NULL;
  }
  if (!c4_supported(w, h)) {
    if (w >= 1 && h >= 1 && (int64_t)w * (h + 1) <= C4_MAX_BITS)
      snprintf(why, n, "native connect4 needs 2 * width * height + 6 < 256 (%dx%d)", w, h);
    else
      snprintf(why, n, "native connect4 needs width * (height + 1) <= %d (%dx%d: %lld bits)",
               C4_MAX_BITS, w, h, (long long)w * (h + 1));
    return NULL;
  }
  if (gs_player_count(p) != 2) {
    snprintf(why, n, "native connect4 needs two players");
    return NULL;
  }
  Game *g = w * (h + 1) <= 64 ? c4_game_new64(p, w, h) : c4_game_new128(p, w, h);
  if (!g) *status = EXIT_LIMIT;
  return g;
}
