/*
** fuzz_position.c -- libFuzzer harness: positions typed by a user, read
** by --fen (game/fen.c) and --position (game/position.c), and the check
** that a position is one of the game's (position_check: the declared
** ranges, `at most N pieces`, the game's valid block).
**
** The input's first byte picks one of the games below, the bytes up to
** the first newline are a FEN, the rest a --position line of moves.  On
** the game's VM, from its start: the FEN is read (when the game has
** pieces) and checked; a position it accepts is written back as FEN,
** which must read back to the same state, and the rules run once on it;
** then the moves are played from there and the position they reach is
** checked; undoing them must give back the state they started from
** (abort otherwise).  A rule failing at run time (a position no valid
** block bounds) longjmps to the trap and ends the input; the engine is
** then made anew, since the failed move may be half applied.
**
** The games are read from games/ and tests/files/ once: run from the top
** of the repository, as make fuzz and make test do.  A game that cannot
** be read or compiled aborts (a harness that runs nothing would pass
** every input).
**
** Built by `make fuzz` with clang -fsanitize=fuzzer,address,undefined.
** Without libFuzzer, fuzz/replay.c drives the same entry point over files.
*/
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gsolve.h"
#include "game/fen.h"
#include "game/position.h"

#define FUZZ_TEXT_MAX 4096   /* bytes of FEN and of moves read, at most */

typedef struct FuzzGame {
  const char *file;
  ParamDef defs[2];
  int ndefs;
  Program *p;
  Game *g;
  FenBoard b;               /* b.letters NULL: no pieces, no --fen */
  int32_t *start;           /* the start state */
} FuzzGame;

/* Chess with pawns and promotions, chess with a black piece on a small
** board, two-digit runs of empty cells, no pieces at all, moves written
** glued together ("4433"), moves of several words ("take 1 9"). */
static FuzzGame games[] = {
  { "games/chess-endgame.game", { { "material", "KPK" } }, 1, 0, 0, { 0 }, 0 },
  { "games/chess-endgame.game", { { "material", "KQKR" }, { "size", "5" } }, 2, 0, 0, { 0 }, 0 },
  { "tests/files/fen_wide.game", { { 0 } }, 0, 0, 0, { 0 }, 0 },
  { "games/tictactoe.game", { { 0 } }, 0, 0, 0, { 0 }, 0 },
  { "games/connect4.game", { { "width", "5" }, { "height", "4" } }, 2, 0, 0, { 0 }, 0 },
  { "games/nim.game", { { 0 } }, 0, 0, 0, { 0 }, 0 },
};
#define NGAMES ((int)(sizeof games / sizeof games[0]))

static _Noreturn void die(const char *what, const char *file) {
  fprintf(stderr, "fuzz_position: %s %s (run from the top of the repository)\n", what, file);
  abort();
}

static void load(FuzzGame *f) {
  FILE *in = fopen(f->file, "rb");
  long n = 0;
  char *text = NULL;
  int status;
  if (in == NULL || fseek(in, 0, SEEK_END) != 0 || (n = ftell(in)) < 0 || fseek(in, 0, SEEK_SET) != 0
      || (text = malloc((size_t)n + 1)) == NULL || fread(text, 1, (size_t)n, in) != (size_t)n)
    die("cannot read", f->file);
  fclose(in);
  f->p = gs_compile(f->file, text, (size_t)n, f->defs, f->ndefs, stderr, &status);
  free(text);
  if (f->p == NULL || (f->g = vm_new(f->p, &status)) == NULL) die("cannot compile", f->file);
  f->b.letters = gs_pieces(f->p, &f->b);
  if ((f->start = malloc(f->g->state_bytes)) == NULL) die("out of memory for", f->file);
  memcpy(f->start, game_state(f->g), f->g->state_bytes);
}

/* What one input does, on the heap: a runtime error longjmps past the
** frames that would free it. */
typedef struct Work {
  FuzzGame *f;
  char fen[FUZZ_TEXT_MAX + 1], moves[FUZZ_TEXT_MAX + 1], back[FUZZ_TEXT_MAX];
  int32_t *before, *after;
  Move *legal;
  Position pos;
  FILE *devnull;
} Work;

/* Step 1: the FEN, checked, written back and read again, the rules run
** once.  0 when the moves may follow. */
static int try_fen(Work *w) {
  FuzzGame *f = w->f;
  Game *g = f->g;
  size_t sb = g->state_bytes;
  Outcome o;
  if (!f->b.letters || w->fen[0] == '\0') return 0;
  if (fen_read(g, &f->b, w->fen, w->devnull) != EXIT_OK) return -1;
  if (position_check(g, "--fen", w->devnull) != EXIT_OK) return -1;
  memcpy(w->before, game_state(g), sb);
  fen_write(&f->b, w->before, g->nplayers, w->back, sizeof w->back);
  g->vt->set_state(g, f->start);
  if (fen_read(g, &f->b, w->back, w->devnull) != EXIT_OK) abort();
  if (memcmp(w->before, game_state(g), sb) != 0) abort();   /* the board and the mover */
  if (!game_ended(g, &o)) (void)game_generate(g, w->legal);
  return 0;
}

/* Step 2: the moves from there; undone, the state must be as before. */
static void try_moves(Work *w) {
  Game *g = w->f->g;
  size_t sb = g->state_bytes;
  memcpy(w->before, game_state(g), sb);
  int st = position_play(g, w->moves, &w->pos, NULL);
  if (st == EXIT_OK && w->pos.n > 0) (void)position_check(g, "--position", w->devnull);
  for (int i = 0; i < w->pos.n; i++) game_undo(g);
  memcpy(w->after, game_state(g), sb);
  if (memcmp(w->before, w->after, sb) != 0) abort();
}

int fuzz_position_one(const uint8_t *data, size_t size) {
  static int loaded;
  if (!loaded) {
    for (int i = 0; i < NGAMES; i++) load(&games[i]);
    loaded = 1;
  }
  if (size == 0) return 0;
  Work *w = calloc(1, sizeof *w);
  if (!w) return 0;
  FuzzGame *f = w->f = &games[data[0] % NGAMES];
  Game *g = f->g;
  /* The text: a FEN up to the first newline, then the moves (NUL bytes
  ** end each, as they would a command-line argument). */
  size_t i = 1, k = 0;
  for (; i < size && data[i] != '\n' && k < FUZZ_TEXT_MAX; i++) w->fen[k++] = (char)data[i];
  w->fen[k] = '\0';
  while (i < size && data[i] != '\n') i++;
  for (i++, k = 0; i < size && k < FUZZ_TEXT_MAX; i++) w->moves[k++] = (char)data[i];
  w->moves[k] = '\0';
  w->before = malloc(g->state_bytes);
  w->after = malloc(g->state_bytes);
  w->legal = malloc(GAME_MAX_MOVES * sizeof *w->legal);
  w->devnull = fopen("/dev/null", "w");
  if (w->before && w->after && w->legal && w->devnull) {
    jmp_buf trap;
    g->trap = &trap;
    if (setjmp(trap) == 0) {
      if (try_fen(w) == 0) try_moves(w);
      g->trap = NULL;
      g->vt->set_state(g, f->start);
    } else {
      /* A rule failed mid-move: a fresh engine at the start. */
      int status;
      g->trap = NULL;
      game_free(g);
      if ((f->g = vm_new(f->p, &status)) == NULL) die("cannot remake the engine of", f->file);
    }
  }
  position_free(&w->pos);
  if (w->devnull) fclose(w->devnull);
  free(w->before);
  free(w->after);
  free(w->legal);
  free(w);
  return 0;
}

#ifndef FUZZ_NO_MAIN
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  return fuzz_position_one(data, size);
}
#endif
