/*
** boardview.c -- draws a position for people from the engine's own
** drawing.
**
** Every engine's print method draws a rectangular board the same way
** (vm.c, the native engines): one line per row, top row first, its number in
** three columns and a blank, then " c" for each cell ('.' empty, a
** player's initial, a digit...); then a line of four blanks and " x" per
** column label.  Other lines (state variables, "to move: P") are free
** text.  Reading that drawing back, rather than adding a second drawing
** method to every engine, keeps the Game interface as it is and works
** for any game: a drawing that does not have this shape is printed as it
** is.
*/
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include "game/boardview.h"
#include "util/file.h"

#define MAX_COLS BOARDVIEW_MAX_COLS
#define MAX_RULED_ROWS 5         /* taller boards: no rules between rows,
                                 ** so that they fit a terminal */

void boardview_style_for(FILE *f, int ascii, BoardStyle *st) {
  const char *term = getenv("TERM");
  const char *nc = getenv("NO_COLOR");
  const char *loc = getenv("LC_ALL");
  int tty = isatty(fileno(f));
  memset(st, 0, sizeof *st);
  /* The locale variables in order of precedence; the first set decides. */
  if (loc == NULL || *loc == '\0') loc = getenv("LC_CTYPE");
  if (loc == NULL || *loc == '\0') loc = getenv("LANG");
  st->colour = tty && term != NULL && strcmp(term, "dumb") != 0
               && (nc == NULL || *nc == '\0');
  st->unicode = tty && !ascii && loc != NULL
                && (strstr(loc, "UTF-8") || strstr(loc, "utf8")
                    || strstr(loc, "UTF8") || strstr(loc, "utf-8"));
}

/* The ANSI colour of a player: the colour his name says when it names
** one (Connect Four's Yellow and Red), else one by his index. */
static int colour_code(Game *g, int p) {
  static const struct { const char *name; int code; } named[] = {
    { "red", 31 }, { "green", 32 }, { "yellow", 33 }, { "blue", 34 },
    { "magenta", 35 }, { "cyan", 36 },
  };
  static const int by_index[GAME_MAX_PLAYERS] = { 31, 34, 32, 35, 33, 36, 91, 94 };
  for (size_t i = 0; i < sizeof named / sizeof named[0]; i++)
    if (strcasecmp(g->player_names[p], named[i].name) == 0) return named[i].code;
  return by_index[p];
}

const char *boardview_player_colour(Game *g, const BoardStyle *st, int p) {
  static char buf[GAME_MAX_PLAYERS][16];
  if (!st->colour || p < 0 || p >= g->nplayers) return "";
  snprintf(buf[p], sizeof buf[p], "\033[1;%dm", colour_code(g, p));
  return buf[p];
}

const char *boardview_colour_end(const BoardStyle *st) {
  return st->colour ? "\033[0m" : "";
}

/* The player whose initial is c, or -1. */
static int player_of(Game *g, char c) {
  for (int p = 0; p < g->nplayers; p++)
    if (g->player_names[p][0] == c) return p;
  return -1;
}

/* If `line` draws a board row: its number's text (trimmed, in num) and
** its cells (in cells); returns the number of cells, else 0. */
static int parse_row(const char *line, char *num, size_t numsize, char *cells) {
  const char *s = line, *d;
  size_t len;
  int w = 0;
  while (*s == ' ') s++;
  d = s;
  while (*s >= '0' && *s <= '9') s++;
  if (s == d || (size_t)(s - d) >= numsize || *s != ' ') return 0;
  memcpy(num, d, (size_t)(s - d));
  num[s - d] = '\0';
  s++;
  len = strlen(s);
  if (len == 0 || len % 2 != 0 || len / 2 > MAX_COLS) return 0;
  for (; *s != '\0'; s += 2) {
    if (s[0] != ' ' || s[1] == ' ') return 0;
    cells[w++] = s[1];
  }
  return w;
}

/* If `line` is the column labels of a board w cells wide: 1, the labels
** cut into words (they point into `copy`). */
static int parse_labels(const char *line, int w, char *copy, size_t size,
                        char **labels) {
  int n = 0;
  if (strncmp(line, "    ", 4) != 0 || strlen(line) >= size) return 0;
  strcpy(copy, line);
  for (char *t = strtok(copy, " "); t != NULL; t = strtok(NULL, " ")) {
    if (n == w || strlen(t) > 3) return 0;
    labels[n++] = t;
  }
  return n == w;
}

static void put_cell(Game *g, const BoardStyle *st, char c, FILE *out) {
  /* Pieces lettered as FEN's: upper case the first player's, lower case
  ** the second's; else the player whose initial c is. */
  int p = !st->letter_case ? player_of(g, c) : c >= 'A' && c <= 'Z' ? 0 : c >= 'a' && c <= 'z' ? 1 : -1;
  if (c == '.' && st->unicode) c = ' ';
  if (p >= 0)
    fprintf(out, "%s%c%s", boardview_player_colour(g, st, p), c,
            boardview_colour_end(st));
  else
    fputc(c, out);
}

/* A rule of the Unicode grid: left, middle and right pieces. */
static void grid_rule(int margin, int w, const char *l, const char *m,
                      const char *r, FILE *out) {
  fprintf(out, "%*s%s", margin, "", l);
  for (int x = 0; x < w; x++) fprintf(out, "───%s", x + 1 < w ? m : r);
  fputc('\n', out);
}

/* Draws one board of h rows (nums, cells row by row) w cells wide. */
static void draw_board(Game *g, const BoardStyle *st, int w, int h,
                       char (*nums)[8], const char *cells, char **labels,
                       FILE *out) {
  int nw = 1;
  for (int y = 0; y < h; y++)
    if ((int)strlen(nums[y]) > nw) nw = (int)strlen(nums[y]);
  if (!st->unicode) {
    /* The engine's own layout, with colour. */
    for (int y = 0; y < h; y++) {
      fprintf(out, "%3s ", nums[y]);
      for (int x = 0; x < w; x++) {
        fputc(' ', out);
        put_cell(g, st, cells[y * w + x], out);
      }
      fputc('\n', out);
    }
    fputs("    ", out);
    for (int x = 0; x < w; x++) fprintf(out, " %s", labels[x]);
    fputc('\n', out);
    return;
  }
  grid_rule(nw + 1, w, "┌", "┬", "┐", out);
  for (int y = 0; y < h; y++) {
    fprintf(out, "%*s │", nw, nums[y]);
    for (int x = 0; x < w; x++) {
      fputc(' ', out);
      put_cell(g, st, cells[y * w + x], out);
      fputs(" │", out);
    }
    fputc('\n', out);
    if (y + 1 < h && h <= MAX_RULED_ROWS) grid_rule(nw + 1, w, "├", "┼", "┤", out);
  }
  grid_rule(nw + 1, w, "└", "┴", "┘", out);
  fprintf(out, "%*s", nw + 1, "");
  for (int x = 0; x < w; x++) fprintf(out, x + 1 < w ? "  %-2s" : "  %s", labels[x]);
  fputc('\n', out);
}

/* Whether a line is a state variable's, "name = value". */
static int is_state_line(const char *line) {
  const char *s = line;
  if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || *s == '_')) return 0;
  while ((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9')
         || *s == '_')
    s++;
  return strncmp(s, " = ", 3) == 0;
}

/* Prints lines[from..to) as they are, but "to move" when hidden, and the
** state variables beside a board when only the board is wanted. */
static void put_lines(const BoardStyle *st, int has_board, char **lines, int from, int to,
                      FILE *out) {
  for (int i = from; i < to; i++) {
    if (st->hide_to_move && strncmp(lines[i], "to move: ", 9) == 0) continue;
    if (st->board_only && has_board && is_state_line(lines[i])) continue;
    fprintf(out, "%s\n", lines[i]);
  }
}

/* The engine's drawing of the current position cut into lines (*lines
** point into *text, both to be freed); the number of lines, -1 when out
** of memory. */
static void print_game(void *g, FILE *f) { game_print(g, f); }

char *boardview_text(Game *g) { return file_text_of(print_game, g); }

static int drawing_lines(Game *g, char **text, char ***lines) {
  int n = 0, cap = 0;
  *lines = NULL;
  if ((*text = boardview_text(g)) == NULL) return -1;
  for (char *p = *text; *p != '\0';) {
    char *nl = strchr(p, '\n');
    if (n == cap) {
      char **l = realloc(*lines, (size_t)(cap = cap ? 2 * cap : 32) * sizeof *l);
      if (l == NULL) return -1;
      *lines = l;
    }
    (*lines)[n++] = p;
    if (nl == NULL) break;
    *nl = '\0';
    p = nl + 1;
  }
  return n;
}

/* The first board of the current drawing: its cells row by row (top
** first) into cells, its width and height; 0 when there is none. */
static int first_board(Game *g, char *cells, int *w, int *h) {
  char *text = NULL, **lines = NULL, num[8], copy[MAX_COLS * 4 + 8], *labels[MAX_COLS];
  int n = drawing_lines(g, &text, &lines), found = 0;
  for (int i = 0; i < n && !found; i++) {
    int width = parse_row(lines[i], num, sizeof num, cells), rows = 1;
    if (width == 0) continue;
    while (i + rows < n && rows < MAX_COLS
           && parse_row(lines[i + rows], num, sizeof num, cells + rows * width) == width)
      rows++;
    if (i + rows < n && parse_labels(lines[i + rows], width, copy, sizeof copy, labels)) {
      *w = width;
      *h = rows;
      found = 1;
    }
  }
  free(lines);
  free(text);
  return found;
}

int boardview_label_columns_by_moves(Game *g, BoardStyle *st) {
  static char before[MAX_COLS * MAX_COLS], after[MAX_COLS * MAX_COLS];
  char labels[MAX_COLS][4], name[64];
  Move *moves;
  Outcome o;
  int w, h, w2, h2, ok = 1, has[MAX_COLS] = { 0 };
  if (game_ended(g, &o) || !first_board(g, before, &w, &h)) return 0;
  if ((moves = malloc(GAME_MAX_MOVES * sizeof *moves)) == NULL) return 0;
  int n = game_generate(g, moves);
  for (int i = 0; i < n && ok; i++) {
    int col = -1;
    game_apply(g, &moves[i]);
    if (!first_board(g, after, &w2, &h2) || w2 != w || h2 != h) ok = 0;
    for (int c = 0; ok && c < w * h; c++)
      if (before[c] != after[c]) {
        if (col >= 0 && col != c % w) ok = 0;
        col = c % w;
      }
    game_undo(g);
    if (!ok || col < 0) continue;           /* a move that leaves the board (a pass) */
    name[0] = '\0';
    game_format_move(g, &moves[i], name, sizeof name);
    name[sizeof name - 1] = '\0';
    if (has[col] || strlen(name) >= sizeof labels[0] || strchr(name, ' ')) ok = 0;
    else {
      strcpy(labels[col], name);
      has[col] = 1;
    }
  }
  free(moves);
  for (int c = 0; ok && c < w; c++)
    if (!has[c]) ok = 0;
  if (!ok) return 0;
  memcpy(st->col_labels, labels, sizeof labels[0] * (size_t)w);
  st->ncol_labels = w;
  return 1;
}

void boardview_print(Game *g, const BoardStyle *st, FILE *out) {
  char *text = NULL, **lines = NULL;
  int n = drawing_lines(g, &text, &lines);
  if (n < 0) {
    free(lines);
    free(text);
    game_print(g, out);
    return;
  }
  char scratch[MAX_COLS * MAX_COLS];
  int has_board = first_board(g, scratch, &(int){ 0 }, &(int){ 0 });
  /* Each run of row lines followed by its labels is redrawn. */
  int i = 0;
  while (i < n) {
    char nums[MAX_COLS][8], cells[MAX_COLS * MAX_COLS], copy[MAX_COLS * 4 + 8];
    char *labels[MAX_COLS];
    int w = parse_row(lines[i], nums[0], sizeof nums[0], cells), h = 1;
    if (w == 0) {
      put_lines(st, has_board, lines, i, i + 1, out);
      i++;
      continue;
    }
    while (i + h < n && h < MAX_COLS
           && parse_row(lines[i + h], nums[h], sizeof nums[h], cells + h * w) == w)
      h++;
    if (i + h < n && parse_labels(lines[i + h], w, copy, sizeof copy, labels)) {
      if (st->ncol_labels == w)
        for (int x = 0; x < w; x++) labels[x] = (char *)st->col_labels[x];
      draw_board(g, st, w, h, nums, cells, labels, out);
      i += h + 1;
    } else {
      put_lines(st, has_board, lines, i, i + h, out);
      i += h;
    }
  }
  free(lines);
  free(text);
}
