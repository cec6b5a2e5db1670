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
        /* A run of empty cells, read digit by digit while it still fits
        ** the rank (strtol's value overflowed the rank, then the state). */
        int n = 0;
        while (*c >= '0' && *c <= '9' && n <= b->width - x) n = n * 10 + (*c++ - '0');
        if (n > b->width - x) {
          snprintf(msg, sizeof msg, "rank %d has more than %d cells", y + 1, b->width);
          free(s);
          return bad(err, msg, fen);
        }
        for (int k = 0; k < n; k++) s[b->base + y * b->width + x++] = 0;
        continue;
      }
      const char *at = (unsigned char)*c >= 0x21 && (unsigned char)*c < 0x7f ? strchr(b->letters, *c) : NULL;
      if (!at) {
        if ((unsigned char)*c >= 0x21 && (unsigned char)*c < 0x7f)
          snprintf(msg, sizeof msg, "'%c' in rank %d is not a piece (the pieces are %s)", *c, y + 1,
                   b->letters);
        else
          snprintf(msg, sizeof msg, "byte 0x%02x in rank %d is not a piece (the pieces are %s)",
                   (unsigned char)*c, y + 1, b->letters);
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

/* Where move m takes a piece: from, to, the value moved, the value it
** becomes and the value it captures; 0, or -1 if not one piece moving. */
typedef struct Step { int from, to; int32_t moved, placed, taken; } Step;

static int step_of(Game *g, const FenBoard *b, const Move *m, Step *st) {
  int cells = b->width * b->height;
  const int32_t *s = game_state(g);
  int32_t *before = malloc((size_t)cells * sizeof *before);
  if (!before) return -1;
  memcpy(before, s + b->base, (size_t)cells * sizeof *before);
  game_apply(g, m);
  s = game_state(g);
  int from = -1, to = -1, ok = 1;
  for (int c = 0; c < cells; c++) {
    int32_t v = before[c], w = s[b->base + c];
    if (v == w) continue;
    if (v != 0 && w == 0) { ok &= from < 0; from = c; }
    else if (w != 0) { ok &= to < 0; to = c; }
  }
  if (ok && from >= 0 && to >= 0) {
    st->from = from;
    st->to = to;
    st->moved = before[from];
    st->placed = s[b->base + to];
    st->taken = before[to];
  }
  game_undo(g);
  free(before);
  return ok && from >= 0 && to >= 0 ? 0 : -1;
}

static char upper(char c) { return c >= 'a' && c <= 'z' ? (char)(c - 'a' + 'A') : c; }

int fen_san(Game *g, const FenBoard *b, const Move *m, char *buf, size_t size) {
  Step st, other;
  Move *moves = malloc(GAME_MAX_MOVES * sizeof *moves);
  size_t n = 0;
  int nl = (int)strlen(b->letters);
  buf[0] = 0;
  if (!moves || step_of(g, b, m, &st) < 0 || st.moved > nl || st.placed > nl) {
    free(moves);
    game_format_move(g, m, buf, size);
    return -1;
  }
  char letter = upper(b->letters[st.moved - 1]);
  int pawn = letter == 'P';
  int fx = st.from % b->width, fy = st.from / b->width;
  int tx = st.to % b->width, ty = st.to / b->width;
  /* Step 1. Other moves of the same kind of piece to the same cell. */
  int same = 0, same_file = 0, same_rank = 0;
  int count = game_generate(g, moves);
  for (int i = 0; i < count && !pawn; i++) {
    if (step_of(g, b, &moves[i], &other) < 0) continue;
    if (other.to != st.to || other.moved != st.moved || other.from == st.from) continue;
    same = 1;
    same_file |= other.from % b->width == fx;
    same_rank |= other.from / b->width == fy;
  }
  /* Step 2. The text. */
#define PUTC(ch) do { if (n + 1 < size) buf[n] = (ch); n++; } while (0)
  if (!pawn) PUTC(letter);
  if (same && (!same_file || same_rank)) PUTC((char)('a' + fx));
  if (same && same_file) n += (size_t)snprintf(buf + (n < size ? n : size - 1), n < size ? size - n : 1, "%d", fy + 1);
  if (st.taken) {
    if (pawn) PUTC((char)('a' + fx));
    PUTC('x');
  }
  PUTC((char)('a' + tx));
  n += (size_t)snprintf(buf + (n < size ? n : size - 1), n < size ? size - n : 1, "%d", ty + 1);
  if (st.placed != st.moved) { PUTC('='); PUTC(upper(b->letters[st.placed - 1])); }
  /* Step 3. Mate: no move for the player to move, and a loss; else
  ** check, when the game says what check is. */
  game_apply(g, m);
  Outcome o;
  int mate = 0;
  if (!game_ended(g, &o) && game_generate(g, moves) == 0) {
    int who = game_to_move(g);
    game_no_moves(g, &o);
    mate = g->nplayers == 2 && who >= 0 && o.payoff[who] < o.payoff[1 - who];
  }
  if (mate) PUTC('#');
  else if (g->vt->in_check && g->vt->in_check(g)) PUTC('+');
  game_undo(g);
#undef PUTC
  if (size) buf[n < size ? n : size - 1] = 0;
  free(moves);
  return 0;
}
