/*
** native_c4.c -- Connect Four (games/connect4.game, k = 4) on bitboards,
** for any width x height with width * (height + 1) <= 64.
**
** Bit layout (7 x 6 shown): one column of height + 1 bits per column,
** the top bit of each column always 0 (a sentinel, so shifts never carry
** a line across columns); bit index = column * (height + 1) + row.
**
**     .  .  .  .  .  .  .      <- row 6: sentinel bits 6 13 20 27 34 41 48
**     5 12 19 26 33 40 47
**     4 11 18 25 32 39 46
**     3 10 17 24 31 38 45
**     2  9 16 23 30 37 44
**     1  8 15 22 29 36 43
**     0  7 14 21 28 35 42      <- bottom row
**
** Two words per position: `stones[p]`, the cells of player p, and their
** union `mask`.  Four in a row: for a shift s of 1 (vertical), H+1
** (horizontal), H (one diagonal) or H+2 (the other), m = b & (b >> s)
** keeps the starts of pairs, and m & (m >> 2s) != 0 finds four.  A unique
** key of a position is stones[mover] + mask + bottom row.
**
** The engine plays exactly the rules of connect4.game: moves "1".."W"
** (rule 0, the column 1-based) in column order, the same outcomes, the
** same eval, the same mirror symmetry.
*/
#include <stdlib.h>
#include <string.h>
#include "engines/engines.h"
#include "engines/connect4/c4solve.h"
#include "util/diag.h"
#include "util/file.h"
#include "util/status.h"
#include "util/stop.h"

typedef struct C4State {
  uint64_t stones[2];       /* Yellow's and Red's cells */
} C4State;

typedef struct C4 {
  Game base;
  int w, h;
  uint64_t bottom;          /* bit 0 of every column */
  uint64_t board;           /* every playable cell */
  C4State s;                /* the position (state() returns it) */
  int moves;                /* stones on the board */
  int winner;               /* 0 none, 1 Yellow, 2 Red: four was made */
  C4State *hist;            /* positions before each move */
  int *hist_winner;
  int nhist, caphist;
  C4Solver *solver;         /* the strong solver, made at its first use */
  C4Book *book;             /* --book FILE, read then */
} C4;

static uint64_t column_mask(const C4 *c, int col) {
  return ((UINT64_C(1) << c->h) - 1) << (col * (c->h + 1));
}

static uint64_t top_mask(const C4 *c, int col) {
  return UINT64_C(1) << (c->h - 1 + col * (c->h + 1));
}

static int four(const C4 *c, uint64_t b) {
  const int shifts[4] = { 1, c->h + 1, c->h, c->h + 2 };
  for (int i = 0; i < 4; i++) {
    uint64_t m = b & (b >> shifts[i]);
    if (m & (m >> (2 * shifts[i]))) return 1;
  }
  return 0;
}

static int c4_generate(Game *g, Move *buf) {
  C4 *c = (C4 *)g;
  uint64_t mask = c->s.stones[0] | c->s.stones[1];
  int k = 0;
  for (int col = 0; col < c->w; col++) {
    if (mask & top_mask(c, col)) continue;
    memset(&buf[k], 0, sizeof buf[k]);
    buf[k].arg[0] = (int16_t)(col + 1);
    k++;
  }
  return k;
}

static void c4_apply(Game *g, const Move *m) {
  C4 *c = (C4 *)g;
  if (c->nhist == c->caphist) {
    int cap = c->caphist ? c->caphist * 2 : 64;
    C4State *h = realloc(c->hist, (size_t)cap * sizeof *h);
    if (h) c->hist = h;
    int *w = realloc(c->hist_winner, (size_t)cap * sizeof *w);
    if (w) c->hist_winner = w;
    if (!h || !w) native_out_of_memory(&c->base);
    c->caphist = cap;
  }
  c->hist[c->nhist] = c->s;
  c->hist_winner[c->nhist] = c->winner;
  c->nhist++;
  int p = c->moves & 1;
  int col = m->arg[0] - 1;
  uint64_t mask = c->s.stones[0] | c->s.stones[1];
  uint64_t bit = (mask + (UINT64_C(1) << (col * (c->h + 1)))) & column_mask(c, col);
  c->s.stones[p] |= bit;
  c->moves++;
  if (four(c, c->s.stones[p])) c->winner = p + 1;
}

static void c4_undo(Game *g) {
  C4 *c = (C4 *)g;
  if (c->nhist == 0) return;
  c->nhist--;
  c->s = c->hist[c->nhist];
  c->winner = c->hist_winner[c->nhist];
  c->moves--;
}

static int c4_ended(Game *g, Outcome *o) {
  C4 *c = (C4 *)g;
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

static void c4_no_moves(Game *g, Outcome *o) {
  /* Unreachable after ended(): a full board is a draw.  Normal play. */
  C4 *c = (C4 *)g;
  memset(o, 0, sizeof *o);
  o->payoff[c->moves & 1] = -1;
}

/* The cell (x, y) of the bitboard. */
static int cell(const C4 *c, uint64_t b, int x, int y) {
  return (int)((b >> (x * (c->h + 1) + y)) & 1);
}

/* connect4.game's eval, to the letter: every window of 4 cells starting
** at a cell, going east, north, northeast or southeast, that holds stones
** of one side only counts 1, 10, 1000, 10000 for 1..4 stones, for the
** player to move (+) or against (-). */
static int32_t c4_eval(Game *g) {
  C4 *c = (C4 *)g;
  static const int dx[4] = { 1, 0, 1, 1 }, dy[4] = { 0, 1, 1, -1 };
  static const int32_t weight[5] = { 0, 1, 10, 1000, 10000 };
  int me = c->moves & 1;
  int32_t s = 0;
  for (int y = 0; y < c->h; y++)
    for (int x = 0; x < c->w; x++)
      for (int d = 0; d < 4; d++) {
        int ex = x + 3 * dx[d], ey = y + 3 * dy[d];
        if (ex < 0 || ex >= c->w || ey < 0 || ey >= c->h) continue;
        int mine = 0, theirs = 0;
        for (int i = 0; i < 4; i++) {
          mine += cell(c, c->s.stones[me], x + i * dx[d], y + i * dy[d]);
          theirs += cell(c, c->s.stones[1 - me], x + i * dx[d], y + i * dy[d]);
        }
        if (mine && theirs) continue;
        if (mine) s += weight[mine];
        else s -= weight[theirs];
      }
  return s;
}

static int c4_to_move(Game *g) { return ((C4 *)g)->moves & 1; }

static uint64_t c4_hash(Game *g) {
  C4 *c = (C4 *)g;
  uint64_t x = c->s.stones[0] * 0x9e3779b97f4a7c15ULL ^ (c->s.stones[1] + 0x632be59bd9b4e019ULL);
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

static const void *c4_state(Game *g) { return &((C4 *)g)->s; }

static int c4_format(Game *g, const Move *m, char *buf, size_t n) {
  (void)g;
  return snprintf(buf, n, "%d", m->arg[0]);
}

/* Drawn as the VM draws connect4.game's state. */
static void c4_print(Game *g, FILE *f) {
  C4 *c = (C4 *)g;
  for (int y = c->h - 1; y >= 0; y--) {
    fprintf(f, "%3d ", y + 1);
    for (int x = 0; x < c->w; x++)
      fprintf(f, " %c", cell(c, c->s.stones[0], x, y) ? g->player_names[0][0]
                        : cell(c, c->s.stones[1], x, y) ? g->player_names[1][0] : '.');
    fputc('\n', f);
  }
  fprintf(f, "    ");
  for (int x = 0; x < c->w; x++) fprintf(f, " %c", 'a' + x);
  fprintf(f, "\nwinner = %s\nfilled = %d\nto move: %s\n",
          c->winner ? g->player_names[c->winner - 1] : "none", c->moves,
          g->player_names[c->moves & 1]);
}

/* Left-right mirror: the canonical form is the smaller of the two. */
static uint64_t mirror(const C4 *c, uint64_t b) {
  uint64_t r = 0;
  for (int col = 0; col < c->w; col++) {
    uint64_t bits = (b >> (col * (c->h + 1))) & ((UINT64_C(1) << (c->h + 1)) - 1);
    r |= bits << ((c->w - 1 - col) * (c->h + 1));
  }
  return r;
}

static void c4_canonical(Game *g, const void *state, void *out) {
  const C4 *c = (const C4 *)g;
  C4State s = *(const C4State *)state, m;
  m.stones[0] = mirror(c, s.stones[0]);
  m.stones[1] = mirror(c, s.stones[1]);
  int smaller = m.stones[0] < s.stones[0] || (m.stones[0] == s.stones[0] && m.stones[1] < s.stones[1]);
  memcpy(out, smaller ? &m : &s, sizeof s);
}

static void c4_engine_free(Game *g) {
  C4 *c = (C4 *)g;
  if (!c) return;
  free(c->hist);
  free(c->hist_winner);
  c4_free(c->solver);
  c4book_free(c->book);
  free(c);
}

/* The current position as the strong solver takes it (c4solve.h). */
static void c4_query(const C4 *c, C4Query *q) {
  memset(q, 0, sizeof *q);
  q->width = c->w;
  q->height = c->h;
  q->mask = c->s.stones[0] | c->s.stones[1];
  q->cur = c->s.stones[c->moves & 1];
  q->moves = c->moves;
}

static int c4_out_of_memory(FILE *err) { return diag_fail(err, EXIT_LIMIT, "out of memory"); }

/* The strong solver, made once with the options' table size, threads,
** techniques and book; an exit status. */
static int c4_solver(C4 *c, const EngineSolveOptions *o) {
  if (c->solver) return EXIT_OK;
  C4Config cfg = { o->table_mib, o->threads ? o->threads : 1, 0, NULL };
  if (o->without) {
    /* A comma-separated list of the techniques to leave out. */
    char list[256];
    snprintf(list, sizeof list, "%s", o->without);
    for (char *t = strtok(list, ","); t; t = strtok(NULL, ",")) {
      unsigned bit = c4_technique(t);
      if (bit == 0) {
        if (o->err) fprintf(o->err, "gsolve: error: --without: unknown technique '%s' (%s)\n", t,
                            c4_technique_names);
        return EXIT_USAGE;
      }
      cfg.without |= bit;
    }
  }
  if (o->book && c->book == NULL) {
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
  if (got && o->err) {
    int limited;
    size_t free_bytes = file_memory_free(&limited);
    if (limited) free_bytes += got;
    fprintf(o->err, "gsolve: note: --tt-size %zu MiB does not fit in memory (about %zu MiB %s): "
            "the table has %zu MiB\n", o->table_mib, free_bytes >> 20,
            limited ? "left under ulimit -v" : "free", got >> 20);
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

/* Every root move's exact Pons score (hence value and plies), or with
** root_only the position's score alone; the table cleared first unless
** asked to keep it. */
static int c4_engine_solve(Game *g, const EngineSolveOptions *o, EngineAnswer *ans) {
  C4 *c = (C4 *)g;
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
    return stop_requested ? c4_stopped(a.nodes, o->err) : c4_out_of_memory(o->err);
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

static int c4_engine_make_book(Game *g, const EngineSolveOptions *o, int depth, const char *path,
                               EngineBookInfo *info) {
  C4 *c = (C4 *)g;
  int st = c4_solver(c, o);
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

static const GameVtable c4_vtable = {
  .generate = c4_generate, .apply = c4_apply, .undo = c4_undo, .ended = c4_ended,
  .no_moves = c4_no_moves, .eval = c4_eval, .to_move = c4_to_move, .hash = c4_hash,
  .state = c4_state, .format_move = c4_format, .print = c4_print, .canonical = c4_canonical,
  .features = ENGINE_SOLVES | ENGINE_DISTANCES | ENGINE_WEAK | ENGINE_THREADS
            | ENGINE_TECHNIQUES | ENGINE_BOOK | ENGINE_TABLE,
  .solve = c4_engine_solve,
  .make_book = c4_engine_make_book,
  .techniques = C4_TECHNIQUE_NAMES,
};

Game *native_c4_new(const Program *p, char *why, size_t n) {
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
  if (w < 1 || h < 1 || w * (h + 1) > 64) {
    snprintf(why, n, "native connect4 needs width * (height + 1) <= 64 (%dx%d)", w, h);
    return NULL;
  }
  if (gs_player_count(p) != 2) {
    snprintf(why, n, "native connect4 needs two players");
    return NULL;
  }
  C4 *c = calloc(1, sizeof *c);
  if (!c) { snprintf(why, n, "out of memory"); return NULL; }
  c->w = w;
  c->h = h;
  for (int col = 0; col < w; col++) {
    c->bottom |= UINT64_C(1) << (col * (h + 1));
    c->board |= column_mask(c, col);
  }
  return native_init(&c->base, p, &c4_vtable, "native-connect4", sizeof(C4State), c4_engine_free);
}
