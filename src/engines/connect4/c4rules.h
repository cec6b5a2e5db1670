/*
** c4rules.h -- the native Connect Four engine's rules on bitboards
** (games/connect4.game, k = 4), written once over the board's word:
** c4game64.c compiles it with C4W_BITS 64 (boards with width * (height
** + 1) <= 64), c4game128.c with C4W_BITS 128 (up to 128 bits).  The
** rest of the engine, and its choice between the two, is engine.c.
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
#include "engines/connect4/c4engine.h"
#include "engines/connect4/c4word.h"

typedef struct C4State {
  Word stones[2];           /* Yellow's and Red's cells */
} C4State;

typedef struct C4 {
  C4Common c;               /* w, h, moves, winner, solver, book */
  C4State s;                /* the position (state() returns it) */
  C4State *hist;            /* positions before each move */
  int *hist_winner;
  int nhist, caphist;
} C4;

static Word column_mask(const C4Common *c, int col) {
  return ((ONE << c->h) - 1) << (col * (c->h + 1));
}

static Word top_mask(const C4Common *c, int col) {
  return ONE << (c->h - 1 + col * (c->h + 1));
}

static int four(const C4Common *c, Word b) {
  const int shifts[4] = { 1, c->h + 1, c->h, c->h + 2 };
  for (int i = 0; i < 4; i++) {
    Word m = b & (b >> shifts[i]);
    if (m & (m >> (2 * shifts[i]))) return 1;
  }
  return 0;
}

static int c4_generate(Game *g, Move *buf) {
  C4 *e = (C4 *)g;
  C4Common *c = &e->c;
  Word mask = e->s.stones[0] | e->s.stones[1];
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
  C4 *e = (C4 *)g;
  C4Common *c = &e->c;
  if (e->nhist == e->caphist) {
    int cap = e->caphist ? e->caphist * 2 : 64;
    C4State *h = realloc(e->hist, (size_t)cap * sizeof *h);
    if (h) e->hist = h;
    int *w = realloc(e->hist_winner, (size_t)cap * sizeof *w);
    if (w) e->hist_winner = w;
    if (!h || !w) native_out_of_memory(&c->base);
    e->caphist = cap;
  }
  e->hist[e->nhist] = e->s;
  e->hist_winner[e->nhist] = c->winner;
  e->nhist++;
  int p = c->moves & 1;
  int col = m->arg[0] - 1;
  Word mask = e->s.stones[0] | e->s.stones[1];
  Word bit = (mask + (ONE << (col * (c->h + 1)))) & column_mask(c, col);
  e->s.stones[p] |= bit;
  c->moves++;
  if (four(c, e->s.stones[p])) c->winner = p + 1;
}

static void c4_undo(Game *g) {
  C4 *e = (C4 *)g;
  C4Common *c = &e->c;
  if (e->nhist == 0) return;
  e->nhist--;
  e->s = e->hist[e->nhist];
  c->winner = e->hist_winner[e->nhist];
  c->moves--;
}

/* The cell (x, y) of the bitboard. */
static int cell(const C4Common *c, Word b, int x, int y) {
  return (int)((b >> (x * (c->h + 1) + y)) & 1);
}

/* connect4.game's eval, to the letter: every window of 4 cells starting
** at a cell, going east, north, northeast or southeast, that holds stones
** of one side only counts 1, 10, 1000, 10000 for 1..4 stones, for the
** player to move (+) or against (-). */
static int32_t c4_eval(Game *g) {
  C4 *e = (C4 *)g;
  C4Common *c = &e->c;
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
          mine += cell(c, e->s.stones[me], x + i * dx[d], y + i * dy[d]);
          theirs += cell(c, e->s.stones[1 - me], x + i * dx[d], y + i * dy[d]);
        }
        if (mine && theirs) continue;
        if (mine) s += weight[mine];
        else s -= weight[theirs];
      }
  return s;
}


static uint64_t c4_hash(Game *g) {
  C4 *e = (C4 *)g;
  uint64_t x = fold_word(e->s.stones[0]) * 0x9e3779b97f4a7c15ULL
               ^ (fold_word(e->s.stones[1]) + 0x632be59bd9b4e019ULL);
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

static const void *c4_state(Game *g) { return &((C4 *)g)->s; }

/* Drawn as the VM draws connect4.game's state. */
static void c4_print(Game *g, FILE *f) {
  C4 *e = (C4 *)g;
  C4Common *c = &e->c;
  for (int y = c->h - 1; y >= 0; y--) {
    fprintf(f, "%3d ", y + 1);
    for (int x = 0; x < c->w; x++)
      fprintf(f, " %c", cell(c, e->s.stones[0], x, y) ? g->player_names[0][0]
                        : cell(c, e->s.stones[1], x, y) ? g->player_names[1][0] : '.');
    fputc('\n', f);
  }
  fprintf(f, "    ");
  for (int x = 0; x < c->w; x++) fprintf(f, " %c", 'a' + x);
  fprintf(f, "\nwinner = %s\nfilled = %d\nto move: %s\n",
          c->winner ? g->player_names[c->winner - 1] : "none", c->moves,
          g->player_names[c->moves & 1]);
}

/* Left-right mirror: the canonical form is the smaller of the two. */
static Word mirror(const C4Common *c, Word b) {
  Word r = 0;
  for (int col = 0; col < c->w; col++) {
    Word bits = (b >> (col * (c->h + 1))) & ((ONE << (c->h + 1)) - 1);
    r |= bits << ((c->w - 1 - col) * (c->h + 1));
  }
  return r;
}

static void c4_canonical(Game *g, const void *state, void *out) {
  const C4Common *c = (const C4Common *)g;
  C4State s = *(const C4State *)state, m;
  m.stones[0] = mirror(c, s.stones[0]);
  m.stones[1] = mirror(c, s.stones[1]);
  int smaller = m.stones[0] < s.stones[0] || (m.stones[0] == s.stones[0] && m.stones[1] < s.stones[1]);
  memcpy(out, smaller ? &m : &s, sizeof s);
}

static void c4_engine_free(Game *g) {
  C4 *e = (C4 *)g;
  if (!e) return;
  free(e->hist);
  free(e->hist_winner);
  c4_common_free(&e->c);
  free(e);
}

static void c4_position(const C4Common *c, C4Bits *cur, C4Bits *mask) {
  const C4 *e = (const C4 *)c;
  *mask = e->s.stones[0] | e->s.stones[1];
  *cur = e->s.stones[c->moves & 1];
}

static const GameVtable c4_vtable = {
  .generate = c4_generate, .apply = c4_apply, .undo = c4_undo, .eval = c4_eval,
  .hash = c4_hash, .state = c4_state, .print = c4_print, .canonical = c4_canonical,
  C4_VTABLE_COMMON
};

#if C4W_BITS == 64
Game *c4_game_new64(const Program *p, int w, int h) {
#else
Game *c4_game_new128(const Program *p, int w, int h) {
#endif
  C4 *e = calloc(1, sizeof *e);
  if (!e) return NULL;
  e->c.w = w;
  e->c.h = h;
  e->c.position = c4_position;
  return native_init(&e->c.base, p, &c4_vtable, "native-connect4", sizeof(C4State), c4_engine_free);
}
