/*
** serve_request.c -- a request target checked into a Request (see
** serve_request.h).  Every field is decoded (%XX, '+'), bounded and
** checked against a small alphabet here, so that what reaches a child's
** argument vector is a served game's own path, a known parameter's name
** and values made of letters, digits and a few signs.
*/
#include <stdio.h>
#include <string.h>
#include "cli/serve_request.h"

/* Errors: the status and the message. */
static int fail(char *err, int status, const char *fmt, const char *a, const char *b) {
  snprintf(err, SERVE_MAX_ERROR, fmt, a, b);
  return status;
}

static int hex(int c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

/* Decodes s[0..n) ('+' a space, %XX a byte) into out (size bytes, NUL
** ended); -1 on a bad escape, a NUL or a control byte, or no room. */
static int decode(const char *s, size_t n, char *out, size_t size) {
  size_t k = 0;
  for (size_t i = 0; i < n; i++) {
    int c = (unsigned char)s[i];
    if (c == '+') c = ' ';
    else if (c == '%') {
      if (i + 2 >= n) return -1;
      int h = hex((unsigned char)s[i + 1]), l = hex((unsigned char)s[i + 2]);
      if (h < 0 || l < 0) return -1;
      c = h * 16 + l;
      i += 2;
    }
    if (c < 0x20 || c == 0x7f) return -1;
    if (k + 1 >= size) return -1;
    out[k++] = (char)c;
  }
  out[k] = '\0';
  return 0;
}

/* Whether every byte of s is one of a parameter value's: letters,
** digits, and , . - _ (a list "1,3,5", a number "-2", an enum member). */
static int value_ok(const char *s) {
  if (*s == '\0') return 0;
  for (; *s; s++)
    if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
          *s == ',' || *s == '.' || *s == '-' || *s == '_'))
      return 0;
  return 1;
}

/* Moves: printable ASCII; runs of spaces become one, none at the ends. */
static int moves_ok(char *s) {
  char *w = s;
  for (char *r = s; *r; r++) {
    unsigned char c = (unsigned char)*r;
    if (c < 0x20 || c > 0x7e) return 0;
    if (c == ' ' && (w == s || w[-1] == ' ')) continue;
    *w++ = (char)c;
  }
  if (w > s && w[-1] == ' ') w--;
  *w = '\0';
  return 1;
}

/* A whole number from lo to hi; -1 otherwise. */
static int small_int(const char *s, int lo, int hi) {
  int v = 0;
  if (*s == '\0' || strlen(s) > 4) return -1;
  for (; *s; s++) {
    if (*s < '0' || *s > '9') return -1;
    v = v * 10 + (*s - '0');
  }
  return v >= lo && v <= hi ? v : -1;
}

static const struct { const char *path; Endpoint ep; } endpoints[] = {
  { "/api/games", EP_GAMES }, { "/api/describe", EP_DESCRIBE },
  { "/api/position", EP_POSITION }, { "/api/computer", EP_COMPUTER },
  { "/api/strategy", EP_STRATEGY }, { "/api/tree", EP_TREE }, { NULL, EP_NONE }
};

const WebFile *serve_web_file(const char *name) {
  for (const WebFile *f = web_files; f->name; f++)
    if (strcmp(f->name, name) == 0) return f;
  return NULL;
}

int serve_parse(const char *target, size_t len, const ServedGame *games, int ngames,
                Request *q, char *err) {
  char path[64], key[64], val[SERVE_MAX_MOVES];
  const char *game_name = NULL;
  char game_buf[128];
  int have_moves = 0, have_level = 0, have_depth = 0;
  memset(q, 0, sizeof *q);
  q->game = -1;
  err[0] = '\0';
  if (len == 0 || target[0] != '/') return fail(err, 400, "a request target starts with /%s%s", "", "");
  if (len > SERVE_MAX_TARGET)
    return fail(err, 414, "the request target is longer than %s bytes%s", "16384", "");
  if (strlen(target) != len) return fail(err, 400, "a NUL byte in the request target%s%s", "", "");
  const char *qm = memchr(target, '?', len);
  size_t plen = qm ? (size_t)(qm - target) : len;
  if (decode(target, plen, path, sizeof path) != 0 || strchr(path, ' '))
    return fail(err, 404, "no such page%s%s", "", "");
  if (strcmp(path, "/") == 0) strcpy(path, "/index.html");
  for (int i = 0; endpoints[i].path; i++)
    if (strcmp(path, endpoints[i].path) == 0) q->ep = endpoints[i].ep;
  if (q->ep == EP_NONE) {
    const WebFile *f = serve_web_file(path + 1);
    if (f == NULL) return fail(err, 404, "no such page: %.100s%s", path, "");
    q->ep = EP_FILE;
    q->file = f->name;
    return 200;
  }
  /* The query: key=value fields joined by '&'. */
  const char *s = qm ? qm + 1 : target + len, *end = target + len;
  int nfields = 0;
  while (s < end) {
    const char *amp = memchr(s, '&', (size_t)(end - s));
    const char *fe = amp ? amp : end;
    const char *eq = memchr(s, '=', (size_t)(fe - s));
    if (fe == s) { s = fe + 1; continue; }       /* "a=1&&b=2" */
    if (++nfields > SERVE_MAX_FIELDS) return fail(err, 400, "more than %s fields in the query%s", "32", "");
    if (eq == NULL) return fail(err, 400, "a query field without '=': %.60s%s", s, "");
    if (decode(s, (size_t)(eq - s), key, sizeof key) != 0 || key[0] == '\0')
      return fail(err, 400, "a bad field name in the query%s%s", "", "");
    if (decode(eq + 1, (size_t)(fe - eq - 1), val, sizeof val) != 0)
      return fail(err, 400, "field '%.60s': a bad or too long value (escapes %%XX, no control bytes)%s", key, "");
    s = amp ? amp + 1 : end;
    if (strcmp(key, "game") == 0) {
      if (game_name) return fail(err, 400, "field 'game' given twice%s%s", "", "");
      if (strlen(val) >= sizeof game_buf) return fail(err, 404, "no such game%s%s", "", "");
      strcpy(game_buf, val);
      game_name = game_buf;
    } else if (strcmp(key, "moves") == 0) {
      if (have_moves++) return fail(err, 400, "field 'moves' given twice%s%s", "", "");
      if (!moves_ok(val)) return fail(err, 400, "moves: printable ASCII only%s%s", "", "");
      strcpy(q->moves, val);
    } else if (strcmp(key, "level") == 0) {
      if (have_level++) return fail(err, 400, "field 'level' given twice%s%s", "", "");
      if (strcmp(val, "perfect") == 0) q->level = 0;
      else if ((q->level = small_int(val, 1, SERVE_MAX_DEPTH)) < 0)
        return fail(err, 400, "level: 1 to 12 or perfect, not '%.40s'%s", val, "");
    } else if (strcmp(key, "depth") == 0) {
      if (have_depth++) return fail(err, 400, "field 'depth' given twice%s%s", "", "");
      if ((q->depth = small_int(val, 1, SERVE_MAX_DEPTH)) < 0)
        return fail(err, 400, "depth: 1 to 12, not '%.40s'%s", val, "");
    } else {
      /* A parameter of the game: checked once the game is known. */
      if (q->nparams == SERVE_MAX_PARAMS) return fail(err, 400, "too many parameters%s%s", "", "");
      if (strlen(val) >= SERVE_MAX_VALUE || strlen(key) >= SERVE_MAX_VALUE)
        return fail(err, 400, "parameter '%.60s': value too long%s", key, "");
      q->param[q->nparams] = -1;
      /* The name is kept in value until the game is known: "name=value". */
      snprintf(q->value[q->nparams], SERVE_MAX_VALUE, "%s", key);
      if (!value_ok(val)) return fail(err, 400, "parameter '%.60s': letters, digits and , . - _ only%s", key, "");
      size_t kl = strlen(key);
      if (kl + 1 + strlen(val) >= SERVE_MAX_VALUE)
        return fail(err, 400, "parameter '%.60s': value too long%s", key, "");
      q->value[q->nparams][kl] = '=';
      strcpy(q->value[q->nparams] + kl + 1, val);
      q->nparams++;
    }
  }
  if (q->ep == EP_GAMES) {
    if (game_name || have_moves || q->nparams || have_level || have_depth)
      return fail(err, 400, "/api/games takes no fields%s%s", "", "");
    return 200;
  }
  if (game_name == NULL) return fail(err, 400, "field 'game' is missing (GET /api/games lists them)%s%s", "", "");
  for (int i = 0; i < ngames; i++)
    if (strcmp(games[i].name, game_name) == 0) q->game = i;
  if (q->game < 0) return fail(err, 404, "no game '%.60s' is served (GET /api/games)%s", game_name, "");
  if (have_level && q->ep != EP_COMPUTER) return fail(err, 400, "field 'level' goes with /api/computer%s%s", "", "");
  if (have_depth && q->ep != EP_TREE) return fail(err, 400, "field 'depth' goes with /api/tree%s%s", "", "");
  if (q->ep == EP_COMPUTER && !have_level) q->level = 4;
  if (q->ep == EP_TREE && !have_depth) q->depth = 2;
  const ServedGame *g = &games[q->game];
  for (int i = 0; i < q->nparams; i++) {
    char *eq = strchr(q->value[i], '=');
    *eq = '\0';
    for (int k = 0; k < g->nparams; k++)
      if (strcmp(g->params[k], q->value[i]) == 0) q->param[i] = k;
    if (q->param[i] < 0)
      return fail(err, 400, "'%.60s' is not a parameter of %.60s", q->value[i], g->name);
    for (int j = 0; j < i; j++)
      if (q->param[j] == q->param[i])
        return fail(err, 400, "parameter '%.60s' given twice%s", q->value[i], "");
    memmove(q->value[i], eq + 1, strlen(eq + 1) + 1);
  }
  return 200;
}
