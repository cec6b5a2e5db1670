/*
** strategy.c -- writing and reading strategy files (see strategy.h).
*/
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "cfr/strategy.h"
#include "util/diag.h"
#include "util/file.h"
#include "util/fnv.h"
#include "util/status.h"

int strategy_write(const char *path, Game *g, const GameTree *t, const double *s,
                   const char *note, FILE *err) {
  FileOut out;
  int st = file_create(&out, path, STRATEGY_MAGIC, strlen(STRATEGY_MAGIC), "gsolve strategy",
                       err);
  if (st != EXIT_OK) return st;
  fputs(STRATEGY_MAGIC, out.f);
  fprintf(out.f, "# %s\n# player\tinformation state\tmove\tprobability\t...\n", note);
  for (uint32_t k = 0; k < t->ninfosets; k++) {
    const GtInfoset *I = &t->infosets[k];
    fprintf(out.f, "%s\t%s", g->player_names[I->player], gametree_infoset_text(t, k));
    for (int a = 0; a < I->nactions; a++) {
      uint32_t x = I->action + (uint32_t)a;
      fprintf(out.f, "\t%s\t%.9g", gametree_move_name(t, x), s[x]);
    }
    fputc('\n', out.f);
  }
  return file_commit(&out, err);
}

void strategy_free(Strategy *st) {
  free(st->data);
  free(st->entries);
  free(st->names);
  free(st->prob);
  free(st->slots);
  free(st->scratch);
  memset(st, 0, sizeof *st);
}

static uint64_t text_hash(int player, const char *s) {
  uint64_t h = FNV_OFFSET ^ (uint64_t)player * 0x9e3779b97f4a7c15u;
  h = fnv1a(h, s, strlen(s));
  return h ^ (h >> 29);
}

int64_t strategy_find(const Strategy *st, int player, const char *text) {
  if (st->nslots == 0) return -1;
  for (size_t k = text_hash(player, text) & (st->nslots - 1);; k = (k + 1) & (st->nslots - 1)) {
    uint32_t e = st->slots[k];
    if (e == 0) return -1;
    const StrategyEntry *x = &st->entries[e - 1];
    if (x->player == player && strcmp(x->text, text) == 0) return e - 1;
  }
}

static int bad_line(FILE *err, const char *path, size_t line, const char *what) {
  return diag_fail(err, EXIT_USAGE, "%s:%zu: %s", path, line, what);
}

/* Splits a line at its tabs into fields (at most max); their number. */
static int split(char *line, char **field, int max) {
  int n = 0;
  field[n++] = line;
  for (char *p = line; *p; p++)
    if (*p == '\t') {
      *p = '\0';
      if (n == max) return max + 1;
      field[n++] = p + 1;
    }
  return n;
}

int strategy_read(Strategy *st, const char *path, Game *g, FILE *err) {
  size_t len, lines = 0, fields_total = 0;
  memset(st, 0, sizeof *st);
  /* The first line first: /dev/zero, or any file that is no strategy,
  ** is refused after a few bytes, not after STRATEGY_MAX_BYTES. */
  FileIn in;
  int rc = file_open(&in, path, err);
  if (rc == EXIT_OK) rc = file_fill(&in, strlen(STRATEGY_MAGIC), err);
  if (rc == EXIT_OK && (in.len < strlen(STRATEGY_MAGIC)
                        || memcmp(in.data, STRATEGY_MAGIC, strlen(STRATEGY_MAGIC)) != 0))
    rc = diag_fail(err, EXIT_USAGE, "'%s' is not a gsolve strategy file (its first line "
                   "is not '%.*s')", path, (int)strlen(STRATEGY_MAGIC) - 1, STRATEGY_MAGIC);
  if (rc == EXIT_OK) rc = file_fill_all(&in, STRATEGY_MAX_BYTES, err);
  if (rc == EXIT_OK) {
    st->data = (char *)in.data;
    len = in.len;
    in.data = NULL;
  }
  file_close(&in);
  if (rc != EXIT_OK) return rc;
  for (size_t i = 0; i < len; i++) {
    lines += st->data[i] == '\n';
    fields_total += st->data[i] == '\t';
  }
  st->entries = malloc((lines + 1) * sizeof *st->entries);
  st->names = malloc((fields_total / 2 + 1) * sizeof *st->names);
  st->prob = malloc((fields_total / 2 + 1) * sizeof *st->prob);
  for (st->nslots = 16; st->nslots < 2 * (lines + 1); st->nslots *= 2) {}
  st->slots = calloc(st->nslots, sizeof *st->slots);
  char **field = malloc((fields_total + 2) * sizeof *field);
  if (!st->entries || !st->names || !st->prob || !st->slots || !field) {
    free(field);
    return diag_fail(err, EXIT_LIMIT, "out of memory reading '%s'", path);
  }
  uint32_t nmoves = 0;
  size_t lineno = 0;
  rc = EXIT_OK;
  for (char *line = st->data, *end; rc == EXIT_OK && *line; line = end) {
    lineno++;
    end = strchr(line, '\n');
    if (end != NULL) *end++ = '\0';
    else end = line + strlen(line);
    size_t n = strlen(line);
    if (n > 0 && line[n - 1] == '\r') line[--n] = '\0';
    if (n == 0 || line[0] == '#') continue;
    int nf = split(line, field, (int)fields_total + 1);
    if (nf < 4 || nf % 2 != 0) {
      rc = bad_line(err, path, lineno, "a line needs a player, an information state and "
                    "pairs of a move and its probability, separated by tabs");
      break;
    }
    int player = -1;
    for (int i = 0; i < g->nplayers; i++)
      if (strcmp(field[0], g->player_names[i]) == 0) player = i;
    if (player < 0) {
      char buf[80];
      diag_fail(err, EXIT_USAGE, "%s:%zu: '%s' is no player of %s", path, lineno,
                file_escape(field[0], strlen(field[0]), buf, sizeof buf), g->name);
      rc = EXIT_USAGE;
      break;
    }
    if (strategy_find(st, player, field[1]) >= 0) {
      rc = bad_line(err, path, lineno, "this player's information state has a line already");
      break;
    }
    StrategyEntry *e = &st->entries[st->nentries];
    e->player = player;
    e->text = field[1];
    e->move = nmoves;
    e->nmoves = (nf - 2) / 2;
    for (int k = 2; k < nf; k += 2) {
      char *stop;
      errno = 0;
      double p = strtod(field[k + 1], &stop);
      if (errno != 0 || stop == field[k + 1] || *stop != '\0' || !(p >= 0 && p <= 1)) {
        rc = bad_line(err, path, lineno, "a probability must be a number from 0 to 1");
        break;
      }
      st->names[nmoves] = field[k];
      st->prob[nmoves++] = p;
    }
    size_t h = text_hash(player, field[1]) & (st->nslots - 1);
    while (st->slots[h] != 0) h = (h + 1) & (st->nslots - 1);
    st->slots[h] = (uint32_t)++st->nentries;
  }
  free(field);
  return rc;
}

int strategy_state_text(Game *g, int player, char **buf, size_t *size) {
  if (*buf == NULL) {
    if ((*buf = malloc(256)) == NULL) return -1;
    *size = 256;
  }
  uint64_t key[2];
  if (g->vt->infostate == NULL) {
    size_t need = 2 * g->state_bytes + 20;
    if (need > *size) {
      char *b = realloc(*buf, need);
      if (b == NULL) return -1;
      *buf = b;
      *size = need;
    }
    gametree_key(g, player, key, *buf, *size);
    return 0;
  }
  size_t need = g->vt->infostate(g, player, key, *buf, *size);
  if (need >= *size) {
    char *b = realloc(*buf, need + 1);
    if (b == NULL) return -1;
    *buf = b;
    *size = need + 1;
    g->vt->infostate(g, player, key, *buf, *size);
  }
  /* As the tree keeps it: tabs and line breaks as blanks. */
  for (char *p = *buf; *p; p++)
    if (*p == '\t' || *p == '\n' || *p == '\r') *p = ' ';
  return 0;
}

int strategy_probs(Strategy *st, Game *g, const Move *moves, int n, double *prob) {
  int player = game_to_move(g), found = 0;
  double total = 0;
  for (int i = 0; i < n; i++) prob[i] = 0;
  if (strategy_state_text(g, player, &st->scratch, &st->scratch_size) != 0) return -1;
  int64_t e = strategy_find(st, player, st->scratch);
  if (e >= 0) {
    const StrategyEntry *x = &st->entries[e];
    found = 1;
    for (int i = 0; i < n; i++) {
      char name[256];
      name[0] = '\0';
      game_format_move(g, &moves[i], name, sizeof name);
      name[sizeof name - 1] = '\0';
      for (int k = 0; k < x->nmoves; k++)
        if (strcmp(st->names[x->move + (uint32_t)k], name) == 0) prob[i] = st->prob[x->move + (uint32_t)k];
      total += prob[i];
    }
  }
  if (total <= 0)
    for (int i = 0; i < n; i++) prob[i] = 1.0 / n;
  else
    for (int i = 0; i < n; i++) prob[i] /= total;
  return found;
}
