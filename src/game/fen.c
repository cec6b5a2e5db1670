/*
** fen.c -- FEN for any game with a `pieces` declaration (fen.h).
*/
#include "game/fen.h"

#include <stdlib.h>
#include <string.h>
#include "util/diag.h"
#include "util/status.h"

static int bad(FILE *err, const char *what, const char *fen) {
  fprintf(err, "gsolve: error: --fen \"%.100s\": %s\n", fen, what);
  return EXIT_USAGE;
}

int fen_read(Game *g, const FenBoard *b, const char *fen, FILE *err) {
  char msg[200];
  if (!g->vt->set_state) return bad(err, "this engine cannot set a position (use --engine vm)", fen);
  int32_t *s = malloc(g->state_bytes);
  if (!s) return bad(err, "out of memory", fen);
  memcpy(s, game_state(g), g->state_bytes);
  const char *c = fen;
  while (*c == ' ') c++;
  /* Step 1. The ranks, from the top row down. */
  for (int y = b->height - 1; y >= 0; y--) {
    int x = 0;
    while (*c && *c != '/' && *c != ' ') {
      if (*c >= '1' && *c <= '9') {
        long n = strtol(c, (char **)&c, 10);
        if (x + n > b->width) break;
        for (long k = 0; k < n; k++) s[b->base + y * b->width + x++] = 0;
        continue;
      }
      const char *at = strchr(b->letters, *c);
      if (!at) {
        snprintf(msg, sizeof msg, "'%c' in rank %d is not a piece (the pieces are %s)", *c,
                 y + 1, b->letters);
        free(s);
        return bad(err, msg, fen);
      }
      if (x >= b->width) break;
      s[b->base + y * b->width + x++] = (int32_t)(at - b->letters) + 1;
      c++;
    }
    if (x != b->width || (*c && *c != '/' && *c != ' ')) {
      snprintf(msg, sizeof msg, "rank %d does not have %d cells", y + 1, b->width);
      free(s);
      return bad(err, msg, fen);
    }
    if (y > 0) {
      if (*c != '/') {
        snprintf(msg, sizeof msg, "%d ranks where the board has %d", b->height - y, b->height);
        free(s);
        return bad(err, msg, fen);
      }
      c++;
    }
  }
  if (*c == '/') {
    snprintf(msg, sizeof msg, "more than %d ranks", b->height);
    free(s);
    return bad(err, msg, fen);
  }
  /* Step 2. The player to move: w (the first) or b (the second). */
  while (*c == ' ') c++;
  if (*c) {
    int who = *c == 'w' ? 1 : *c == 'b' ? 2 : 0;
    if (!who || (c[1] && c[1] != ' ') || who > g->nplayers) {
      free(s);
      return bad(err, "the player to move must be w or b", fen);
    }
    s[0] = who;
  }
  /* Castling, en passant and the clocks, if any, are ignored. */
  g->vt->set_state(g, s);
  free(s);
  return EXIT_OK;
}

size_t fen_write(const FenBoard *b, const int32_t *state, int nplayers, char *buf, size_t size) {
  size_t n = 0;
  char tmp[16];
#define PUT(ch) do { if (n + 1 < size) buf[n] = (ch); n++; } while (0)
  for (int y = b->height - 1; y >= 0; y--) {
    int empty = 0;
    for (int x = 0; x < b->width; x++) {
      int32_t v = state[b->base + y * b->width + x];
      if (v <= 0 || v > (int32_t)strlen(b->letters)) { empty++; continue; }
      if (empty) { snprintf(tmp, sizeof tmp, "%d", empty); for (char *t = tmp; *t; t++) PUT(*t); }
      empty = 0;
      PUT(b->letters[v - 1]);
    }
    if (empty) { snprintf(tmp, sizeof tmp, "%d", empty); for (char *t = tmp; *t; t++) PUT(*t); }
    if (y > 0) PUT('/');
  }
  if (nplayers == 2) { PUT(' '); PUT(state[0] == 1 ? 'w' : 'b'); }
#undef PUT
  if (size) buf[n < size ? n : size - 1] = 0;
  return n;
}
