/*
** position.c -- turn the --position text into moves, check each against
** the legal moves of its position, and play it.
**
** Moves are recognized by their notation (game_format_move), so the
** command line speaks exactly the language the solver prints.
*/
#include <stdlib.h>
#include <string.h>
#include "util/diag.h"
#include "util/status.h"
#include "game/position.h"

#define NOTATION_MAX 256   /* longest move notation compared */

static int is_blank(int c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v'
      || c == '\f';
}

/* Trims s and collapses each run of blanks to one space, in place. */
static char *normalize(char *s) {
  char *w = s;
  const char *r = s;
  while (is_blank((unsigned char)*r)) r++;
  while (*r != '\0') {
    if (is_blank((unsigned char)*r)) {
      while (is_blank((unsigned char)*r)) r++;
      if (*r != '\0') *w++ = ' ';
    } else {
      *w++ = *r++;
    }
  }
  *w = '\0';
  return s;
}

/* m's notation, normalized, into buf. */
static const char *notation(Game *g, const Move *m, char *buf) {
  buf[0] = '\0';
  game_format_move(g, m, buf, NOTATION_MAX);
  buf[NOTATION_MAX - 1] = '\0';
  return normalize(buf);
}

/* How many of the words tokens[0..ntok) the notation spells, or 0 if
** it is not a prefix of them. */
static int words_matched(const char *nota, char **tokens, int ntok) {
  int k = 0;
  while (*nota != '\0') {
    size_t len = strcspn(nota, " ");
    if (k == ntok || strlen(tokens[k]) != len
        || strncmp(tokens[k], nota, len) != 0)
      return 0;
    k++;
    nota += len;
    if (*nota == ' ') nota++;
  }
  return k;
}

/* Reports `what` as not a legal move at ply `ply` (1-based), listing the
** moves that are. */
static int fail_illegal(Game *g, const char *what, int ply, int nlegal,
                        const Move *legal, int over, FILE *err) {
  char buf[NOTATION_MAX], *list = NULL;
  size_t len;
  FILE *m;
  if (err == NULL) return EXIT_USAGE;
  if ((m = open_memstream(&list, &len)) == NULL) return diag_out_of_memory(err);
  if (over) {
    fputs("the game is over", m);
  } else if (nlegal == 0) {
    fputs("no legal moves", m);
  } else {
    fputs("legal: ", m);
    for (int i = 0; i < nlegal; i++)
      fprintf(m, "%s%s", i ? ", " : "", notation(g, &legal[i], buf));
  }
  if (fclose(m) != 0) return free(list), diag_out_of_memory(err);
  diag_fail(err, EXIT_USAGE, "illegal move '%s' at ply %d (%s)", what, ply, list);
  free(list);
  return EXIT_USAGE;
}

/* The unmatched words to quote in an error, into buf: as many as the
** longest legal notation has, so "take 1 9" shows whole. */
static const char *quote_words(Game *g, Position *pos, int k, int nlegal,
                               char *buf) {
  int most = 1;
  size_t len = 0;
  for (int i = 0; i < nlegal; i++) {
    const char *nota = notation(g, &pos->legal[i], buf);
    int w = *nota != '\0';
    for (; *nota != '\0'; nota++) w += *nota == ' ';
    if (w > most) most = w;
  }
  buf[0] = '\0';
  for (int i = k; i < pos->ntokens && i < k + most; i++) {
    size_t t = strlen(pos->tokens[i]);
    if (len + t + 2 > NOTATION_MAX) break;
    if (i > k) buf[len++] = ' ';
    memcpy(buf + len, pos->tokens[i], t + 1);
    len += t;
  }
  return buf;
}

/* The first comma of s that separates moves, or NULL: a comma inside
** braces belongs to the move ({Na,A}pkB in games/needham-schroeder.game). */
static const char *separator(const char *s) {
  int depth = 0;
  for (; *s; s++) {
    if (*s == '{') depth++;
    else if (*s == '}' && depth > 0) depth--;
    else if (*s == ',' && depth == 0) return s;
  }
  return NULL;
}

/* Cuts pos->text into pieces: at commas if it has any, else at blanks. */
static int split(Position *pos) {
  int commas = separator(pos->text) != NULL;
  size_t max = strlen(pos->text) + 1;   /* pieces, at most */
  char *p = pos->text;
  if ((pos->tokens = malloc(max * sizeof *pos->tokens)) == NULL) return -1;
  if (commas) {
    for (;;) {
      char *c = (char *)separator(p);
      if (c != NULL) *c = '\0';
      pos->tokens[pos->ntokens++] = normalize(p);
      if (c == NULL) break;
      p = c + 1;
    }
  } else {
    for (;;) {
      while (is_blank((unsigned char)*p)) p++;
      if (*p == '\0') break;
      pos->tokens[pos->ntokens++] = p;
      while (*p != '\0' && !is_blank((unsigned char)*p)) p++;
      if (*p != '\0') *p++ = '\0';
    }
  }
  return 0;
}

int position_play(Game *g, const char *text, Position *pos, FILE *err) {
  int commas = separator(text) != NULL;
  char buf[NOTATION_MAX];
  Outcome o;
  int k = 0;

  memset(pos, 0, sizeof *pos);
  if ((pos->text = strdup(text)) == NULL) return diag_out_of_memory(err);
  if ((pos->legal = malloc(GAME_MAX_MOVES * sizeof *pos->legal)) == NULL)
    return diag_out_of_memory(err);
  if (split(pos) != 0) return diag_out_of_memory(err);

  while (k < pos->ntokens) {
    int ply = pos->n + 1, found = -1, words = 0, nlegal;
    const char *what = pos->tokens[k];
    if (commas && what[0] == '\0') {
      return diag_fail(err, EXIT_USAGE, "empty move at ply %d in --position", ply);
    }
    if (game_ended(g, &o)) return fail_illegal(g, what, ply, 0, NULL, 1, err);
    nlegal = game_generate(g, pos->legal);
    for (int i = 0; i < nlegal; i++) {
      const char *nota = notation(g, &pos->legal[i], buf);
      if (commas) {
        if (strcmp(nota, what) == 0) {
          found = i;
          words = 1;
          break;
        }
      } else {
        int w = words_matched(nota, pos->tokens + k, pos->ntokens - k);
        if (w > words) {
          found = i;
          words = w;
        }
      }
    }
    size_t glued = 0;
    if (found < 0 && !commas) {
      /* Moves written without blanks, as in "4433221" (Connect Four test
      ** sets): the longest legal one-word notation the token starts with. */
      for (int i = 0; i < nlegal; i++) {
        const char *nota = notation(g, &pos->legal[i], buf);
        size_t n = strlen(nota);
        if (n > glued && n < strlen(what) && !strchr(nota, ' ') && strncmp(nota, what, n) == 0) {
          found = i;
          glued = n;
        }
      }
    }
    if (found < 0) {
      if (!commas) what = quote_words(g, pos, k, nlegal, buf);
      return fail_illegal(g, what, ply, nlegal, pos->legal, 0, err);
    }
    if (pos->n >= GAME_MAX_PLY) {
      return diag_fail(err, EXIT_LIMIT, "--position has more than %d moves (GAME_MAX_PLY)",
                       GAME_MAX_PLY);
    }
    if (pos->n == pos->cap) {
      int cap = pos->cap ? pos->cap * 2 : 16;
      char **m = realloc(pos->moves, (size_t)cap * sizeof *m);
      if (m == NULL) return diag_out_of_memory(err);
      pos->moves = m;
      pos->cap = cap;
    }
    if ((pos->moves[pos->n] = strdup(notation(g, &pos->legal[found], buf)))
        == NULL)
      return diag_out_of_memory(err);
    pos->n++;
    game_apply(g, &pos->legal[found]);
    if (glued) pos->tokens[k] += glued;   /* the rest of the token is next */
    else k += words;
  }
  return EXIT_OK;
}

typedef struct CheckCall { Game *g; char *why; size_t size; } CheckCall;
static int check_call(void *arg) {
  CheckCall *c = arg;
  return c->g->vt->invalid(c->g, c->why, c->size);
}

int position_check(Game *g, const char *what, FILE *err) {
  char why[512];
  CheckCall c = { g, why, sizeof why };
  int bad = 0;
  if (g->vt->invalid == NULL) return EXIT_OK;
  why[0] = '\0';
  if (game_call_trapped(g, check_call, &c, &bad)) {
    return diag_fail(err, EXIT_USAGE, "%s: not a position of this game (its valid block fails "
                     "on it: above)", what);
  }
  if (!bad) return EXIT_OK;
  return diag_fail(err, EXIT_USAGE, "%s: not a position of this game: %s", what, why);
}

void position_free(Position *pos) {
  for (int i = 0; i < pos->n; i++) free(pos->moves[i]);
  free(pos->moves);
  free(pos->text);
  free(pos->tokens);
  free(pos->legal);
  memset(pos, 0, sizeof *pos);
}
