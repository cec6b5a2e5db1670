/*
** fen.c -- FEN for any game with a `pieces` declaration (fen.h).
*/
#include "game/fen.h"

#include <stdlib.h>
#include <string.h>
#include "util/diag.h"
#include "util/status.h"

static int bad(FILE *err, const char *what, const char *fen) {
  return diag_fail(err, EXIT_USAGE, "--fen \"%.100s\": %s", fen, what);
}

/* A field's number: decimal digits, at most `hi` (no overflow: the
** digits stop counting past it).  The end of the digits, or NULL. */
static const char *read_number(const char *c, int64_t hi, int64_t *v) {
  if (*c < '0' || *c > '9') return NULL;
  *v = 0;
  for (; *c >= '0' && *c <= '9'; c++)
    if (*v <= hi) *v = *v * 10 + (*c - '0');
  return *c == 0 || *c == ' ' ? c : NULL;
}

/* A cell's name on the board (column letters as a1, ..., z1, aa1, row
** from 1): the cell, or -1. */
static int read_cell(const char **cp, const FenBoard *b) {
  const char *c = *cp;
  int64_t x = 0, y;
  int letters = 0;
  for (; *c >= 'a' && *c <= 'z' && letters < 4; c++, letters++) x = x * 26 + (*c - 'a' + 1);
  if (letters == 0 || letters == 4 || !(c = read_number(c, b->height, &y))) return -1;
  x--;
  if (x >= b->width || y < 1 || y > b->height) return -1;
  *cp = c;
  return (int)((y - 1) * b->width + x);
}

/* Writes cell c's name into buf (room for 16). */
static void cell_name(const FenBoard *b, int c, char *buf) {
  char col[8];
  int n = 0;
  for (int x = c % b->width + 1; x > 0 && n < 7; x = (x - 1) / 26) col[n++] = (char)('a' + (x - 1) % 26);
  for (int i = 0; i < n; i++) buf[i] = col[n - 1 - i];
  snprintf(buf + n, 16 - (size_t)n, "%d", c / b->width + 1);
}

/* FEN's later fields, after the player to move: castling, en passant,
** the halfmove clock, the fullmove number, each into the slot the game
** keeps it in (b).  Missing fields read as "- - 0 1".  0, or a message
** in msg. */
static int read_fields(const FenBoard *b, const char *c, int32_t *s, char *msg, size_t size) {
  /* Step 1. Castling: '-' or letters of the game's rights. */
  int ncastle = b->castle_letters ? (int)strlen(b->castle_letters) : 0;
  for (int i = 0; i < ncastle; i++) s[b->castle_base + i] = 0;
  while (*c == ' ') c++;
  if (*c == '-' && (c[1] == ' ' || c[1] == 0)) {
    c++;
  } else if (*c) {
    for (; *c && *c != ' '; c++) {
      const char *at = b->castle_letters ? strchr(b->castle_letters, *c) : NULL;
      if (!at || *c == 0) {
        if (b->castle_letters)
          snprintf(msg, size, "'%c' in the castling rights is not one of %s (or -)", *c, b->castle_letters);
        else
          snprintf(msg, size, "castling rights '%c': this game has none (write -)", *c);
        return -1;
      }
      if (s[b->castle_base + (at - b->castle_letters)]) {
        snprintf(msg, size, "the castling right '%c' is given twice", *c);
        return -1;
      }
      s[b->castle_base + (at - b->castle_letters)] = 1;
    }
  }
  /* Step 2. En passant: '-' or a cell. */
  if (b->ep_slot) s[b->ep_slot] = -1;
  while (*c == ' ') c++;
  if (*c == '-' && (c[1] == ' ' || c[1] == 0)) {
    c++;
  } else if (*c) {
    int cell = read_cell(&c, b);
    if (cell < 0) { snprintf(msg, size, "the en-passant field must be - or a cell of the board"); return -1; }
    if (!b->ep_slot) { snprintf(msg, size, "en passant: this game has none (write -)"); return -1; }
    s[b->ep_slot] = cell;
  }
  /* Step 3. The halfmove clock and the fullmove number. */
  static const char *const what[2] = { "halfmove clock", "fullmove number" };
  int slot[2] = { b->half_slot, b->full_slot };
  int64_t lo[2] = { b->half_lo, b->full_lo }, hi[2] = { b->half_hi, b->full_hi };
  int64_t dflt[2] = { 0, 1 };
  for (int k = 0; k < 2; k++) {
    if (!slot[k]) { lo[k] = k; hi[k] = FEN_MAX_NUMBER; }
    int64_t v = dflt[k] < lo[k] ? lo[k] : dflt[k] > hi[k] ? hi[k] : dflt[k];
    while (*c == ' ') c++;
    const char *digits = c;
    if (*c && !(c = read_number(c, hi[k], &v))) {
      snprintf(msg, size, "the %s must be a number", what[k]);
      return -1;
    }
    if (v < lo[k] || v > hi[k]) {
      snprintf(msg, size, "the %s %.*s is out of range %lld..%lld", what[k], (int)(c - digits) < 24 ? (int)(c - digits) : 24,
               digits, (long long)lo[k], (long long)hi[k]);
      return -1;
    }
    if (slot[k]) s[slot[k]] = (int32_t)v;
  }
  while (*c == ' ') c++;
  if (*c) { snprintf(msg, size, "unexpected '%.20s' after the fullmove number", c); return -1; }
  return 0;
}

int fen_read(Game *g, const FenBoard *b, const char *fen, FILE *err) {
  char msg[200];
  if (!g->vt->set_state) return bad(err, "this engine cannot set a position (use --engine vm)", fen);
  int32_t *s = malloc(g->state_bytes);
  if (!s) return diag_out_of_memory(err);
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
    c++;
  }
  /* Castling, en passant and the clocks: into the state the game keeps
  ** them in; ignored by a game that keeps none. */
  if ((b->castle_letters || b->ep_slot || b->half_slot || b->full_slot) &&
      read_fields(b, c, s, msg, sizeof msg) < 0) {
    free(s);
    return bad(err, msg, fen);
  }
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
  /* The later fields, when the game keeps any. */
  if (b->castle_letters || b->ep_slot || b->half_slot || b->full_slot) {
    int any = 0;
    PUT(' ');
    for (int i = 0; b->castle_letters && b->castle_letters[i]; i++)
      if (state[b->castle_base + i]) { PUT(b->castle_letters[i]); any = 1; }
    if (!any) PUT('-');
    PUT(' ');
    if (b->ep_slot && state[b->ep_slot] >= 0) cell_name(b, state[b->ep_slot], tmp);
    else snprintf(tmp, sizeof tmp, "-");
    for (char *t = tmp; *t; t++) PUT(*t);
    snprintf(tmp, sizeof tmp, " %d %d", b->half_slot ? (int)state[b->half_slot] : 0,
             b->full_slot ? (int)state[b->full_slot] : 1);
    for (char *t = tmp; *t; t++) PUT(*t);
  }
#undef PUT
  if (size) buf[n < size ? n : size - 1] = 0;
  return n;
}

/* Where move m takes a piece: from, to, the value moved, the value it
** becomes and the value it captures; castle 1 (O-O) or 2 (O-O-O) when a
** piece lettered K and another of its side move together (castling: the
** king's cells are from and to).  0, or -1 if the move is none of these.
** A capture may take a piece off another cell than `to` (en passant):
** the cell left empty beside `from`. */
typedef struct Step { int from, to; int32_t moved, placed, taken; int castle; } Step;

static char upper(char c);

static int step_of(Game *g, const FenBoard *b, const Move *m, Step *st) {
  int cells = b->width * b->height, nl = (int)strlen(b->letters);
  const int32_t *s = game_state(g);
  int32_t *before = malloc((size_t)cells * sizeof *before);
  if (!before) return -1;
  memcpy(before, s + b->base, (size_t)cells * sizeof *before);
  game_apply(g, m);
  s = game_state(g);
  int left[2], put[2], nleft = 0, nput = 0, ok = 1;
  for (int c = 0; c < cells && ok; c++) {
    int32_t v = before[c], w = s[b->base + c];
    if (v == w) continue;
    if (v != 0 && w == 0) { if (nleft < 2) left[nleft] = c; nleft++; }
    else if (w != 0) { if (nput < 2) put[nput] = c; nput++; }
  }
  memset(st, 0, sizeof *st);
  st->from = -1;
  if (nleft == 1 && nput == 1) {
    st->from = left[0];
    st->to = put[0];
    st->taken = before[put[0]];
  } else if (nleft == 2 && nput == 1 && before[put[0]] == 0) {
    /* En passant: the piece that arrives left one cell; the other lost its piece. */
    int k = before[left[0]] == s[b->base + put[0]] ? 0 : before[left[1]] == s[b->base + put[0]] ? 1 : -1;
    if (k >= 0) {
      st->from = left[k];
      st->to = put[0];
      st->taken = before[left[1 - k]];
    }
  } else if (nleft == 2 && nput == 2 && before[put[0]] == 0 && before[put[1]] == 0) {
    /* Castling: two pieces move unchanged, one of them lettered K. */
    for (int k = 0; k < 2 && st->from < 0; k++) {
      int32_t v = before[left[k]];
      if (v < 1 || v > nl || upper(b->letters[v - 1]) != 'K') continue;
      int j = s[b->base + put[0]] == v ? 0 : s[b->base + put[1]] == v ? 1 : -1;
      if (j < 0 || s[b->base + put[1 - j]] != before[left[1 - k]]) continue;
      st->from = left[k];
      st->to = put[j];
      st->castle = put[j] % b->width > left[k] % b->width ? 1 : 2;
    }
  }
  if (st->from >= 0) {
    st->moved = before[st->from];
    st->placed = s[b->base + st->to];
  }
  game_undo(g);
  free(before);
  return ok && st->from >= 0 ? 0 : -1;
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
  if (st.castle) {
    snprintf(buf, size, "%s", st.castle == 1 ? "O-O" : "O-O-O");
    n = strlen(buf);
    goto suffix;
  }
  char letter = upper(b->letters[st.moved - 1]);
  int pawn = letter == 'P';
  int fx = st.from % b->width, fy = st.from / b->width;
  int tx = st.to % b->width, ty = st.to / b->width;
  /* Step 1. Other moves of the same kind of piece to the same cell. */
  int same = 0, same_file = 0, same_rank = 0;
  int count = game_generate(g, moves);
  for (int i = 0; i < count && !pawn; i++) {
    if (step_of(g, b, &moves[i], &other) < 0 || other.castle) continue;
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
suffix:
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
