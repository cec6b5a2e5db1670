/*
** boardview.c -- draws a position for people from the engine's own
** drawing.
**
** Every engine's print method draws a rectangular board the same way
** (vm.c, native_c4.c): one line per row, top row first, its number in
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

#define MAX_COLS 64              /* widest board redrawn; wider: as it is */
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
  int p = player_of(g, c);
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

/* Prints lines[from..to) as they are, but "to move" when hidden. */
static void put_lines(const BoardStyle *st, char **lines, int from, int to,
                      FILE *out) {
  for (int i = from; i < to; i++)
    if (!st->hide_to_move || strncmp(lines[i], "to move: ", 9) != 0)
      fprintf(out, "%s\n", lines[i]);
}

void boardview_print(Game *g, const BoardStyle *st, FILE *out) {
  char *text = NULL, **lines = NULL;
  size_t len = 0;
  int n = 0, cap = 0;
  FILE *m = open_memstream(&text, &len);
  if (m == NULL) {
    game_print(g, out);
    return;
  }
  game_print(g, m);
  if (fclose(m) != 0 || text == NULL) {
    free(text);
    game_print(g, out);
    return;
  }
  /* Cut the drawing into lines. */
  for (char *p = text; *p != '\0';) {
    char *nl = strchr(p, '\n');
    if (n == cap) {
      char **l = realloc(lines, (size_t)(cap = cap ? 2 * cap : 32) * sizeof *l);
      if (l == NULL) {
        fputs(text, out);
        free(lines);
        free(text);
        return;
      }
      lines = l;
    }
    lines[n++] = p;
    if (nl == NULL) break;
    *nl = '\0';
    p = nl + 1;
  }
  /* Each run of row lines followed by its labels is redrawn. */
  int i = 0;
  while (i < n) {
    char nums[MAX_COLS][8], cells[MAX_COLS * MAX_COLS], copy[MAX_COLS * 4 + 8];
    char *labels[MAX_COLS];
    int w = parse_row(lines[i], nums[0], sizeof nums[0], cells), h = 1;
    if (w == 0) {
      put_lines(st, lines, i, i + 1, out);
      i++;
      continue;
    }
    while (i + h < n && h < MAX_COLS
           && parse_row(lines[i + h], nums[h], sizeof nums[h], cells + h * w) == w)
      h++;
    if (i + h < n && parse_labels(lines[i + h], w, copy, sizeof copy, labels)) {
      draw_board(g, st, w, h, nums, cells, labels, out);
      i += h + 1;
    } else {
      put_lines(st, lines, i, i + h, out);
      i += h;
    }
  }
  free(lines);
  free(text);
}
