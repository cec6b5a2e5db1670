/*
** efg.c -- a game read from a Gambit extensive-form file (.efg, version
** 2, as Gambit documents it: doc/formats.efg.rst): the tree, explicit,
** behind the game interface, so every solver that fits runs on it.
**
** The file lists the nodes in preorder: `c` chance, `p` personal
** (player, information set), `t` terminal, each with an outcome (0:
** none) whose payoffs count where the line passes (at an inner node they
** are added to the end's).  An information set or outcome is described
** (actions and probabilities, name and payoffs) where it first appears
** and may be described again identically, or not, later.  Numbers are
** integers, decimals or fractions, all exact.
**
** The engine: a position is a node of the tree (its index is the state,
** the path to it the undo stack); a move is an action's index (rule 0,
** arg[0]).  Chance probabilities become integer weights over their set's
** common denominator.  Payoffs are int32 in the game interface: when
** some are fractions all are multiplied by their common denominator (a
** note says so).  An information set of two or more nodes makes the
** game one of hidden information (GameVtable.infostate): a player's
** information state at his node is its set, elsewhere his last set and
** the action he took there (in an .efg a player learns only at his own
** decisions, under perfect recall).
*/
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "engines/efg.h"
#include "util/diag.h"
#include "util/status.h"

enum { K_CHANCE = 'c', K_PERSONAL = 'p', K_TERMINAL = 't' };

typedef struct EfgSet {
  int player;                   /* 0-based; -1 chance */
  int64_t number;               /* the file's number (per player) */
  int nactions;
  uint32_t action;              /* its first action in names[] / weights[] */
  uint32_t label;               /* offset in text */
  uint32_t nodes;               /* its nodes in the tree */
} EfgSet;

typedef struct EfgOutcome {
  int64_t number;
  uint32_t pay;                 /* its first payoff in payoff[] */
} EfgOutcome;

typedef struct EfgNode {
  char kind;
  int8_t player;
  uint32_t set;                 /* personal and chance nodes */
  uint32_t outcome;             /* index + 1, 0: none */
  uint32_t child;               /* its first child's slot in children[] */
} EfgNode;

typedef struct Efg {
  Game base;
  GameVtable vt;
  char *name, *players[GAME_MAX_PLAYERS];
  EfgNode *nodes; uint32_t nnodes, capnodes;
  uint32_t *children; uint32_t nchildren, capchildren;
  EfgSet *sets; uint32_t nsets, capsets;
  uint32_t *names; uint32_t nnames, capnames;    /* per action: its label (offset in text) */
  uint32_t *weights;                             /* per action of a chance set */
  EfgOutcome *outcomes; uint32_t noutcomes, capoutcomes;
  int64_t *payoff_num, *payoff_den; uint32_t npay, cappay;
  int32_t *payoff;                               /* scaled */
  char *text; size_t ntext, captext;             /* labels, NUL-terminated */
  uint32_t *slots; size_t nslots;                /* hash of (player, number) -> set + 1 */
  uint32_t *oslots; size_t noslots;              /* number -> outcome + 1 */
  /* Play. */
  uint32_t node;                                 /* the state */
  uint32_t *path;                                /* nodes above, root first */
  uint16_t *taken;                               /* the action taken at each */
  uint32_t depth;
} Efg;

/* ---- reading ------------------------------------------------------------ */

typedef struct Reader {
  Efg *e;
  Diag d;
  const char *s;
  size_t len, at;
  int status;
  /* The token just read. */
  int tok;                      /* 's' string, 'n' number, 'w' word, '{', '}', 0 end */
  size_t tstart, tend;
  int64_t num, den;             /* a number */
  char *str; size_t nstr, capstr;   /* a string's or word's text */
} Reader;

static int fail_at(Reader *r, size_t start, size_t end, int status, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
static int fail_at(Reader *r, size_t start, size_t end, int status, const char *fmt, ...) {
  char msg[512];
  va_list ap;
  if (r->status != EXIT_OK) return r->status;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  Span sp = { (int)start, (int)(end > start ? end : start + 1) };
  if (sp.end > (int)r->len) sp.end = (int)r->len;
  if (sp.start > (int)r->len) sp.start = (int)r->len;
  diag_error(&r->d, sp, "%s", msg);
  r->status = status;
  return status;
}
#define FAIL(r, ...) fail_at((r), (r)->tstart, (r)->tend, EXIT_BAD_GAME, __VA_ARGS__)

static int oom(Reader *r) {
  if (r->status == EXIT_OK) r->status = diag_fail(r->d.out, EXIT_LIMIT, "out of memory reading %s",
                                                 r->d.filename);
  return r->status;
}

/* Grows *p (of *cap elements of size) to hold n; 0 or -1 (reported). */
static int grow(Reader *r, void **p, uint32_t *cap, size_t n, size_t size) {
  if (n <= *cap) return 0;
  size_t c = *cap ? *cap : 64;
  while (c < n) c *= 2;
  if (c > UINT32_MAX) { oom(r); return -1; }
  void *q = realloc(*p, c * size);
  if (!q) { oom(r); return -1; }
  *p = q;
  *cap = (uint32_t)c;
  return 0;
}

static int64_t gcd(int64_t a, int64_t b) {
  if (a < 0) a = -a;
  if (b < 0) b = -b;
  while (b) { int64_t t = a % b; a = b; b = t; }
  return a;
}

/* A number: [-]digits[.digits] or [-]digits/digits, exact. */
static int read_number(Reader *r) {
  size_t i = r->at;
  int neg = 0;
  int64_t num = 0, den = 1;
  const int64_t big = (int64_t)1 << 53;
  if (i < r->len && (r->s[i] == '-' || r->s[i] == '+')) neg = r->s[i++] == '-';
  int digits = 0;
  while (i < r->len && r->s[i] >= '0' && r->s[i] <= '9') {
    num = num * 10 + (r->s[i++] - '0');
    digits++;
    if (num > big) goto too_big;
  }
  if (i < r->len && r->s[i] == '.') {
    i++;
    while (i < r->len && r->s[i] >= '0' && r->s[i] <= '9') {
      if (den < big / 10 && num < big / 10) { num = num * 10 + (r->s[i] - '0'); den *= 10; }
      else if (r->s[i] != '0') goto too_big;
      i++;
      digits++;
    }
  } else if (i < r->len && r->s[i] == '/') {
    int64_t d = 0;
    int dd = 0;
    i++;
    while (i < r->len && r->s[i] >= '0' && r->s[i] <= '9') {
      d = d * 10 + (r->s[i++] - '0');
      dd++;
      if (d > big) goto too_big;
    }
    if (dd == 0 || d == 0) {
      r->tend = i;
      return FAIL(r, "a fraction needs a denominator above 0");
    }
    den = d;
  }
  r->tend = i;
  if (digits == 0) return FAIL(r, "expected a number");
  if (i < r->len && ((r->s[i] >= 'a' && r->s[i] <= 'z') || (r->s[i] >= 'A' && r->s[i] <= 'Z'))) {
    r->tend = i + 1;
    return FAIL(r, "expected a number (an integer, a decimal such as 0.5, or a fraction such as 1/3)");
  }
  int64_t g = gcd(num, den);
  if (g > 1) { num /= g; den /= g; }
  r->num = neg ? -num : num;
  r->den = den;
  r->at = i;
  r->tok = 'n';
  return EXIT_OK;
too_big:
  r->tend = i;
  return FAIL(r, "number too large (limit is 2^53 for its terms)");
}

static int add_char(Reader *r, char c) {
  if (r->nstr + 2 > r->capstr) {
    size_t c2 = r->capstr ? r->capstr * 2 : 64;
    char *q = realloc(r->str, c2);
    if (!q) return oom(r);
    r->str = q;
    r->capstr = c2;
  }
  r->str[r->nstr++] = c;
  r->str[r->nstr] = 0;
  return EXIT_OK;
}

/* The next token. */
static int next(Reader *r) {
  if (r->status != EXIT_OK) return r->status;
  while (r->at < r->len && (r->s[r->at] == ' ' || r->s[r->at] == '\t' || r->s[r->at] == '\n'
                            || r->s[r->at] == '\r' || r->s[r->at] == '\v' || r->s[r->at] == '\f'
                            || r->s[r->at] == ','))
    r->at++;
  r->tstart = r->tend = r->at;
  r->nstr = 0;
  if (r->str) r->str[0] = 0;
  if (r->at >= r->len) { r->tok = 0; return EXIT_OK; }
  char c = r->s[r->at];
  if (c == '{' || c == '}') {
    r->tok = c;
    r->tend = ++r->at;
    return EXIT_OK;
  }
  if (c == '"') {
    size_t i = r->at + 1;
    for (;;) {
      if (i >= r->len) { r->tend = i; return FAIL(r, "a label is not closed (a '\"' is missing)"); }
      char ch = r->s[i];
      if (ch == '"') break;
      if (ch == '\\' && i + 1 < r->len) ch = r->s[++i];
      if (r->nstr >= EFG_MAX_LABEL) {
        r->tend = i;
        return FAIL(r, "label too long (limit is %d bytes)", EFG_MAX_LABEL);
      }
      if (add_char(r, ch == 0 || (unsigned char)ch < 32 ? ' ' : ch) != EXIT_OK) return r->status;
      i++;
    }
    if (r->nstr == 0 && add_char(r, 0) == EXIT_OK) r->nstr = 0;   /* "": str holds "" */
    r->at = i + 1;
    r->tend = r->at;
    r->tok = 's';
    return r->status;
  }
  if (c == '-' || c == '+' || c == '.' || (c >= '0' && c <= '9')) return read_number(r);
  if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) {
    size_t i = r->at;
    while (i < r->len && ((r->s[i] >= 'a' && r->s[i] <= 'z') || (r->s[i] >= 'A' && r->s[i] <= 'Z')
                          || (r->s[i] >= '0' && r->s[i] <= '9'))) {
      if (r->nstr < 64 && add_char(r, r->s[i]) != EXIT_OK) return r->status;
      i++;
    }
    r->at = r->tend = i;
    r->tok = 'w';
    return EXIT_OK;
  }
  r->tend = r->at + 1;
  if ((unsigned char)c >= 32 && (unsigned char)c < 127) return FAIL(r, "unexpected '%c'", c);
  return FAIL(r, "unexpected byte 0x%02x", (unsigned char)c);
}

static int expect(Reader *r, int tok, const char *what) {
  if (next(r) != EXIT_OK) return r->status;
  if (r->tok != tok) return FAIL(r, "expected %s", what);
  return EXIT_OK;
}

/* The text of the string just read, kept in the game's text. */
static uint32_t keep_text(Reader *r, const char *s) {
  Efg *e = r->e;
  size_t n = strlen(s) + 1;
  if (e->ntext + n > UINT32_MAX) { oom(r); return 0; }
  uint32_t cap = (uint32_t)e->captext;
  if (grow(r, (void **)&e->text, &cap, e->ntext + n, 1) != 0) return 0;
  e->captext = cap;
  memcpy(e->text + e->ntext, s, n);
  uint32_t at = (uint32_t)e->ntext;
  e->ntext += n;
  return at;
}

static uint64_t mix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

/* The slot of key in a table of n slots (n a power of two) holding
** index + 1 of items whose keys `key_of` gives; 0-valued when free. */
static size_t find_slot(const uint32_t *slots, size_t n, uint64_t key, const Efg *e,
                        uint64_t (*key_of)(const Efg *e, uint32_t i)) {
  size_t h = (size_t)mix(key) & (n - 1);
  while (slots[h] && key_of(e, slots[h] - 1) != key) h = (h + 1) & (n - 1);
  return h;
}
static uint64_t set_key(const Efg *e, uint32_t i) {
  return ((uint64_t)(uint32_t)(e->sets[i].player + 1) << 56) ^ (uint64_t)e->sets[i].number;
}
static uint64_t outcome_key(const Efg *e, uint32_t i) { return (uint64_t)e->outcomes[i].number; }

/* Makes room for one more entry in a table of *n slots holding `count`. */
static int table_room(Reader *r, uint32_t **slots, size_t *n, uint32_t count,
                      uint64_t (*key_of)(const Efg *e, uint32_t i)) {
  if ((size_t)(count + 1) * 2 <= *n) return 0;
  size_t m = *n ? *n * 2 : 256;
  uint32_t *t = calloc(m, sizeof *t);
  if (!t) { oom(r); return -1; }
  for (uint32_t i = 0; i < count; i++) t[find_slot(t, m, key_of(r->e, i), r->e, key_of)] = i + 1;
  free(*slots);
  *slots = t;
  *n = m;
  return 0;
}

/* An information set's description, when given: "name" { actions }.
** For chance, each action a label and a probability.  At its first
** appearance it is required; later it must agree. */
static int read_set(Reader *r, int player, int64_t number, uint32_t *set) {
  Efg *e = r->e;
  size_t at0 = r->tstart, at1 = r->tend;
  if (table_room(r, &e->slots, &e->nslots, e->nsets, set_key) != 0) return r->status;
  uint64_t key = ((uint64_t)(uint32_t)(player + 1) << 56) ^ (uint64_t)number;
  size_t h = find_slot(e->slots, e->nslots, key, e, set_key);
  int known = e->slots[h] != 0;
  /* Peek: a label starts the description. */
  size_t save = r->at;
  if (next(r) != EXIT_OK) return r->status;
  if (r->tok != 's') {
    r->at = save;
    if (!known)
      return fail_at(r, at0, at1, EXIT_BAD_GAME, "information set %lld of %s is not described (its "
                     "name and actions) where it first appears", (long long)number,
                     player < 0 ? "chance" : e->players[player]);
    *set = e->slots[h] - 1;
    return EXIT_OK;
  }
  uint32_t label = keep_text(r, r->str);
  if (r->status != EXIT_OK || expect(r, '{', "'{' and the actions") != EXIT_OK) return r->status;
  size_t brace = r->tstart;
  uint32_t first = e->nnames;
  int n = 0;
  int64_t sum_num = 0, sum_den = 1, lcm = 1;
  int64_t *pn = NULL, *pd = NULL;
  size_t cap = 0;
  for (;;) {
    if (next(r) != EXIT_OK) break;
    if (r->tok == '}') break;
    if (r->tok != 's') { FAIL(r, "expected an action's name (a quoted label) or '}'"); break; }
    if (n >= EFG_MAX_ACTIONS) { fail_at(r, r->tstart, r->tend, EXIT_LIMIT, "too many actions (limit is %d)", EFG_MAX_ACTIONS); break; }
    if (grow(r, (void **)&e->names, &e->capnames, (size_t)e->nnames + 1, sizeof *e->names) != 0) break;
    e->names[e->nnames++] = keep_text(r, r->str);
    if (player < 0) {
      if (next(r) != EXIT_OK) break;
      if (r->tok != 'n') { FAIL(r, "expected the action's probability"); break; }
      if (r->num < 0) { FAIL(r, "a probability must not be negative"); break; }
      if ((size_t)n >= cap) {
        cap = cap ? cap * 2 : 16;
        int64_t *a = realloc(pn, cap * sizeof *a), *b = a ? realloc(pd, cap * sizeof *b) : NULL;
        if (a) pn = a;
        if (!a || !b) { oom(r); break; }
        pd = b;
      }
      pn[n] = r->num;
      pd[n] = r->den;
      int64_t g = gcd(lcm, r->den);
      if (lcm / g > EFG_MAX_SCALE / r->den) {
        FAIL(r, "the probabilities' common denominator is too large (limit is %d)", EFG_MAX_SCALE);
        break;
      }
      lcm = lcm / g * r->den;
      /* sum += num/den */
      int64_t g2 = gcd(sum_den, r->den);
      sum_num = sum_num * (r->den / g2) + r->num * (sum_den / g2);
      sum_den = sum_den / g2 * r->den;
      int64_t g3 = gcd(sum_num, sum_den);
      if (g3 > 1) { sum_num /= g3; sum_den /= g3; }
      if (sum_den > EFG_MAX_SCALE || sum_num > (int64_t)EFG_MAX_SCALE * EFG_MAX_SCALE) {
        FAIL(r, "the probabilities are too large");
        break;
      }
    }
    n++;
  }
  if (r->status == EXIT_OK && n == 0) FAIL(r, "an information set needs at least one action");
  if (r->status == EXIT_OK && player < 0 && !(sum_num == 1 && sum_den == 1))
    fail_at(r, brace, r->tend, EXIT_BAD_GAME, "the chance probabilities add up to %lld/%lld, not 1",
            (long long)sum_num, (long long)sum_den);
  if (r->status == EXIT_OK && player < 0) {
    uint32_t *w = realloc(e->weights, ((size_t)e->nnames + 1) * sizeof *w);
    if (!w) oom(r);
    else {
      e->weights = w;
      for (int i = 0; i < n; i++) w[first + (uint32_t)i] = (uint32_t)(pn[i] * (lcm / pd[i]));
    }
  }
  free(pn);
  free(pd);
  if (r->status != EXIT_OK) return r->status;
  if (known) {
    /* Described again: it must agree. */
    EfgSet *s = &e->sets[e->slots[h] - 1];
    int same = s->nactions == n;
    for (int i = 0; same && i < n; i++)
      same = strcmp(e->text + e->names[s->action + (uint32_t)i], e->text + e->names[first + (uint32_t)i]) == 0
             && (player >= 0 || e->weights[s->action + (uint32_t)i] == e->weights[first + (uint32_t)i]);
    e->nnames = first;
    if (!same)
      return fail_at(r, at0, at1, EXIT_BAD_GAME, "information set %lld of %s is described again "
                     "with other actions", (long long)number, player < 0 ? "chance" : e->players[player]);
    *set = e->slots[h] - 1;
    return EXIT_OK;
  }
  if (grow(r, (void **)&e->sets, &e->capsets, (size_t)e->nsets + 1, sizeof *e->sets) != 0) return r->status;
  EfgSet *s = &e->sets[e->nsets];
  s->player = player;
  s->number = number;
  s->nactions = n;
  s->action = first;
  s->label = label;
  s->nodes = 0;
  e->slots[h] = ++e->nsets;
  *set = e->nsets - 1;
  return EXIT_OK;
}

/* The outcome: its number, then "name" { payoffs } where given. */
static int read_outcome(Reader *r, uint32_t *outcome) {
  Efg *e = r->e;
  int np = e->base.nplayers;
  if (expect(r, 'n', "the outcome's number (0: none)") != EXIT_OK) return r->status;
  if (r->den != 1 || r->num < 0) return FAIL(r, "an outcome's number is an integer, 0 or above");
  int64_t number = r->num;
  size_t at0 = r->tstart, at1 = r->tend;
  size_t save = r->at;
  if (next(r) != EXIT_OK) return r->status;
  int described = r->tok == 's';
  if (!described) r->at = save;
  if (number == 0) {
    if (described) return FAIL(r, "outcome 0 (none) has no name nor payoffs");
    *outcome = 0;
    return EXIT_OK;
  }
  if (table_room(r, &e->oslots, &e->noslots, e->noutcomes, outcome_key) != 0) return r->status;
  size_t h = find_slot(e->oslots, e->noslots, (uint64_t)number, e, outcome_key);
  if (!described) {
    if (!e->oslots[h])
      return fail_at(r, at0, at1, EXIT_BAD_GAME, "outcome %lld has no payoffs where it first appears",
                     (long long)number);
    *outcome = e->oslots[h];
    return EXIT_OK;
  }
  if (expect(r, '{', "'{' and the payoffs") != EXIT_OK) return r->status;
  if ((size_t)e->npay + (size_t)np > e->cappay) {
    size_t c = e->cappay ? (size_t)e->cappay * 2 : 64;
    while (c < (size_t)e->npay + (size_t)np) c *= 2;
    int64_t *a = c <= UINT32_MAX ? realloc(e->payoff_num, c * sizeof *a) : NULL;
    if (a) e->payoff_num = a;
    int64_t *b = a ? realloc(e->payoff_den, c * sizeof *b) : NULL;
    if (!a || !b) return oom(r);
    e->payoff_den = b;
    e->cappay = (uint32_t)c;
  }
  uint32_t first = e->npay;
  for (int p = 0; p < np; p++) {
    if (next(r) != EXIT_OK) return r->status;
    if (r->tok != 'n') return FAIL(r, "expected %d payoffs, one per player", np);
    e->payoff_num[first + (uint32_t)p] = r->num;
    e->payoff_den[first + (uint32_t)p] = r->den;
  }
  if (expect(r, '}', "'}' after one payoff per player") != EXIT_OK) return r->status;
  if (e->oslots[h]) {
    const EfgOutcome *o = &e->outcomes[e->oslots[h] - 1];
    for (int p = 0; p < np; p++)
      if (e->payoff_num[o->pay + (uint32_t)p] != e->payoff_num[first + (uint32_t)p]
          || e->payoff_den[o->pay + (uint32_t)p] != e->payoff_den[first + (uint32_t)p])
        return fail_at(r, at0, at1, EXIT_BAD_GAME, "outcome %lld is described again with other payoffs",
                       (long long)number);
    *outcome = e->oslots[h];
    return EXIT_OK;
  }
  e->npay += (uint32_t)np;
  if (grow(r, (void **)&e->outcomes, &e->capoutcomes, (size_t)e->noutcomes + 1, sizeof *e->outcomes) != 0)
    return r->status;
  e->outcomes[e->noutcomes].number = number;
  e->outcomes[e->noutcomes].pay = first;
  e->oslots[h] = ++e->noutcomes;
  *outcome = e->noutcomes;
  return EXIT_OK;
}

/* The nodes, in preorder: each attached to the next free child slot of
** the innermost node still waiting for children. */
static int read_nodes(Reader *r) {
  Efg *e = r->e;
  uint32_t *stack = NULL, *left = NULL;
  size_t depth = 0, cap = 0;
  for (;;) {
    if (next(r) != EXIT_OK) break;
    if (r->tok == 0) break;
    if (r->tok != 'w' || r->nstr != 1 || (r->str[0] != 'c' && r->str[0] != 'p' && r->str[0] != 't')) {
      FAIL(r, "expected a node: 'c' (chance), 'p' (a player's) or 't' (terminal)");
      break;
    }
    char kind = r->str[0];
    if (e->nnodes > 0 && depth == 0) {
      FAIL(r, "the tree is complete: this node is one too many");
      break;
    }
    if (e->nnodes >= EFG_MAX_NODES) {
      fail_at(r, r->tstart, r->tend, EXIT_LIMIT, "too many nodes (limit is %u)", EFG_MAX_NODES);
      break;
    }
    if (expect(r, 's', "the node's name (a quoted label, \"\" for none)") != EXIT_OK) break;
    EfgNode nd = { kind, -1, 0, 0, 0 };
    int player = -1;
    int64_t number = 0;
    if (kind == K_PERSONAL) {
      if (expect(r, 'n', "the player's number") != EXIT_OK) break;
      if (r->den != 1 || r->num < 1 || r->num > e->base.nplayers) {
        FAIL(r, "a player's number is 1 to %d (the players listed)", e->base.nplayers);
        break;
      }
      player = (int)r->num - 1;
      nd.player = (int8_t)player;
    }
    if (kind != K_TERMINAL) {
      if (expect(r, 'n', "the information set's number") != EXIT_OK) break;
      if (r->den != 1 || r->num < 1) { FAIL(r, "an information set's number is an integer above 0"); break; }
      number = r->num;
      if (read_set(r, player, number, &nd.set) != EXIT_OK) break;
    }
    if (read_outcome(r, &nd.outcome) != EXIT_OK) break;
    /* Attach. */
    if (grow(r, (void **)&e->nodes, &e->capnodes, (size_t)e->nnodes + 1, sizeof *e->nodes) != 0) break;
    uint32_t id = e->nnodes++;
    if (depth > 0) {
      uint32_t parent = stack[depth - 1];
      const EfgSet *ps = &e->sets[e->nodes[parent].set];
      e->children[e->nodes[parent].child + (uint32_t)ps->nactions - left[depth - 1]] = id;
      if (--left[depth - 1] == 0) depth--;
    }
    if (kind != K_TERMINAL) {
      const EfgSet *s = &e->sets[nd.set];
      e->sets[nd.set].nodes++;
      nd.child = e->nchildren;
      if (grow(r, (void **)&e->children, &e->capchildren, (size_t)e->nchildren + (size_t)s->nactions,
               sizeof *e->children) != 0)
        break;
      e->nchildren += (uint32_t)s->nactions;
      if (depth == cap) {
        size_t c = cap ? cap * 2 : 64;
        uint32_t *a = realloc(stack, c * sizeof *a), *b = a ? realloc(left, c * sizeof *b) : NULL;
        if (a) stack = a;
        if (!a || !b) { oom(r); break; }
        left = b;
        cap = c;
      }
      stack[depth] = id;
      left[depth] = (uint32_t)s->nactions;
      depth++;
    }
    e->nodes[id] = nd;
  }
  if (r->status == EXIT_OK && e->nnodes == 0) FAIL(r, "the file has no nodes");
  if (r->status == EXIT_OK && depth > 0)
    FAIL(r, "the file ends before the tree does (%u more nodes expected at least)", left[depth - 1]);
  free(stack);
  free(left);
  return r->status;
}

/* EFG 2 R "title" { "player" ... } ["comment"] */
static int read_header(Reader *r) {
  Efg *e = r->e;
  if (next(r) != EXIT_OK) return r->status;
  if (r->tok != 'w' || strcmp(r->str, "EFG") != 0)
    return FAIL(r, "not a Gambit extensive form: the file starts with 'EFG 2 R'");
  if (next(r) != EXIT_OK) return r->status;
  if (r->tok != 'n' || r->num != 2 || r->den != 1) return FAIL(r, "expected the version, 2");
  if (next(r) != EXIT_OK) return r->status;
  if (r->tok != 'w' || strcmp(r->str, "R") != 0) return FAIL(r, "expected 'R' after the version");
  if (expect(r, 's', "the game's title (a quoted label)") != EXIT_OK) return r->status;
  if ((e->name = strdup(r->str)) == NULL) return oom(r);
  if (expect(r, '{', "'{' and the players") != EXIT_OK) return r->status;
  int n = 0;
  for (;;) {
    if (next(r) != EXIT_OK) return r->status;
    if (r->tok == '}') break;
    if (r->tok != 's') return FAIL(r, "expected a player's name (a quoted label) or '}'");
    if (n >= GAME_MAX_PLAYERS) return FAIL(r, "too many players (limit is %d)", GAME_MAX_PLAYERS);
    if ((e->players[n] = strdup(r->str)) == NULL) return oom(r);
    e->base.player_names[n] = e->players[n];
    n++;
  }
  if (n == 0) return FAIL(r, "a game needs a player");
  e->base.nplayers = n;
  size_t save = r->at;
  if (next(r) != EXIT_OK) return r->status;
  if (r->tok != 's') r->at = save;      /* no comment */
  return EXIT_OK;
}

/* Payoffs to int32: all multiplied by their common denominator. */
static int scale_payoffs(Reader *r, int64_t *scale) {
  Efg *e = r->e;
  int64_t l = 1;
  for (uint32_t i = 0; i < e->npay; i++) {
    int64_t g = gcd(l, e->payoff_den[i]);
    if (l / g > EFG_MAX_SCALE / e->payoff_den[i]) {
      r->tstart = r->tend = 0;
      return fail_at(r, 0, 1, EXIT_LIMIT, "the payoffs' common denominator is too large (limit is "
                     "%d): gsolve's payoffs are integers", EFG_MAX_SCALE);
    }
    l = l / g * e->payoff_den[i];
  }
  if ((e->payoff = malloc(((size_t)e->npay + 1) * sizeof *e->payoff)) == NULL) return oom(r);
  for (uint32_t i = 0; i < e->npay; i++) {
    int64_t v = e->payoff_num[i] * (l / e->payoff_den[i]);
    if (e->payoff_num[i] > EFG_MAX_PAYOFF * (int64_t)EFG_MAX_SCALE || v > EFG_MAX_PAYOFF || v < -EFG_MAX_PAYOFF)
      return fail_at(r, 0, 1, EXIT_LIMIT, "a payoff is too large (limit is %d%s)", EFG_MAX_PAYOFF,
                     l > 1 ? " once multiplied by the common denominator" : "");
    e->payoff[i] = (int32_t)v;
  }
  *scale = l;
  return EXIT_OK;
}

/* ---- the game interface ----------------------------------------------- */

static const EfgNode *cur(const Efg *e) { return &e->nodes[e->node]; }

static int efg_generate(Game *g, Move *buf) {
  Efg *e = (Efg *)g;
  const EfgNode *n = cur(e);
  if (n->kind == K_TERMINAL) return 0;
  int k = e->sets[n->set].nactions;
  for (int i = 0; i < k; i++) {
    memset(&buf[i], 0, sizeof buf[i]);
    buf[i].arg[0] = (int16_t)i;
  }
  return k;
}

static void efg_apply(Game *g, const Move *m) {
  Efg *e = (Efg *)g;
  const EfgNode *n = cur(e);
  e->path[e->depth] = e->node;
  e->taken[e->depth] = (uint16_t)m->arg[0];
  e->depth++;
  e->node = e->children[n->child + (uint32_t)m->arg[0]];
}

static void efg_undo(Game *g) {
  Efg *e = (Efg *)g;
  if (e->depth == 0) return;
  e->node = e->path[--e->depth];
}

static void add_outcome(const Efg *e, uint32_t outcome, int32_t *out) {
  if (!outcome) return;
  const EfgOutcome *o = &e->outcomes[outcome - 1];
  for (int p = 0; p < e->base.nplayers; p++) out[p] += e->payoff[o->pay + (uint32_t)p];
}

static int efg_ended(Game *g, Outcome *out) {
  Efg *e = (Efg *)g;
  if (cur(e)->kind != K_TERMINAL) return 0;
  memset(out, 0, sizeof *out);
  add_outcome(e, cur(e)->outcome, out->payoff);
  if (e->node != 0) add_outcome(e, e->nodes[0].outcome, out->payoff);
  return 1;
}

static void efg_no_moves(Game *g, Outcome *out) {
  (void)g;
  memset(out, 0, sizeof *out);
}

static int32_t efg_eval(Game *g) { (void)g; return 0; }

static int efg_to_move(Game *g) {
  const Efg *e = (const Efg *)g;
  const EfgNode *n = cur(e);
  if (n->kind == K_CHANCE) return GAME_CHANCE;
  if (n->kind == K_PERSONAL) return n->player;
  /* An end: whoever moved last, else the first player. */
  for (uint32_t d = e->depth; d > 0; d--)
    if (e->nodes[e->path[d - 1]].kind == K_PERSONAL) return e->nodes[e->path[d - 1]].player;
  return 0;
}

static uint64_t efg_hash(Game *g) { return mix(((Efg *)g)->node); }
static const void *efg_state(Game *g) { return &((Efg *)g)->node; }

/* An action's notation: its label when it names it alone in its set,
** else "action K". */
static int efg_format(Game *g, const Move *m, char *buf, size_t size) {
  Efg *e = (Efg *)g;
  const EfgNode *n = cur(e);
  if (n->kind == K_TERMINAL) return snprintf(buf, size, "action %d", m->arg[0] + 1);
  const EfgSet *s = &e->sets[n->set];
  if (m->arg[0] < 0 || m->arg[0] >= s->nactions) return snprintf(buf, size, "action %d", m->arg[0] + 1);
  const char *label = e->text + e->names[s->action + (uint32_t)m->arg[0]];
  int unique = label[0] != 0;
  for (int i = 0; unique && i < s->nactions; i++)
    if (i != m->arg[0] && strcmp(label, e->text + e->names[s->action + (uint32_t)i]) == 0) unique = 0;
  if (!unique) return snprintf(buf, size, "action %d", m->arg[0] + 1);
  return snprintf(buf, size, "%s", label);
}

static void efg_print(Game *g, FILE *f) {
  Efg *e = (Efg *)g;
  const EfgNode *n = cur(e);
  fprintf(f, "node %u", e->node + 1);
  if (n->kind == K_TERMINAL) fputs(" (an end)\n", f);
  else if (n->kind == K_CHANCE) fprintf(f, " (chance, information set %lld)\n", (long long)e->sets[n->set].number);
  else fprintf(f, " (%s, information set %lld \"%s\")\n", e->players[n->player],
               (long long)e->sets[n->set].number, e->text + e->sets[n->set].label);
}

static void efg_weights(Game *g, const Move *m, int n, uint32_t *w) {
  Efg *e = (Efg *)g;
  const EfgNode *nd = cur(e);
  for (int i = 0; i < n; i++)
    w[i] = nd->kind == K_CHANCE ? e->weights[e->sets[nd->set].action + (uint32_t)m[i].arg[0]] : 1;
}

/* The outcome of an inner node just entered (an end's is in ended()). */
static int efg_rewards(Game *g, int32_t *out) {
  Efg *e = (Efg *)g;
  const EfgNode *n = cur(e);
  for (int p = 0; p < g->nplayers; p++) out[p] = 0;
  if (n->kind == K_TERMINAL || !n->outcome) return 0;
  add_outcome(e, n->outcome, out);
  for (int p = 0; p < g->nplayers; p++)
    if (out[p]) return 1;
  return 0;
}

static size_t efg_infostate(Game *g, int player, uint64_t key[2], char *text, size_t size) {
  Efg *e = (Efg *)g;
  const EfgNode *n = cur(e);
  int len;
  char buf[EFG_MAX_LABEL + 128];
  if (n->kind == K_PERSONAL && n->player == player) {
    const EfgSet *s = &e->sets[n->set];
    key[0] = mix(((uint64_t)(uint32_t)player << 40) ^ (uint64_t)s->number);
    key[1] = 1;
    /* Its label alone where it has one: an .efg written again from here
    ** (--export efg) is the same file. */
    if (e->text[s->label]) len = snprintf(buf, sizeof buf, "%s", e->text + s->label);
    else len = snprintf(buf, sizeof buf, "information set %lld", (long long)s->number);
  } else {
    /* His last decision and the action he took. */
    uint32_t d = e->depth;
    while (d > 0 && !(e->nodes[e->path[d - 1]].kind == K_PERSONAL && e->nodes[e->path[d - 1]].player == player)) d--;
    if (d == 0) {
      key[0] = mix((uint64_t)(uint32_t)player);
      key[1] = 2;
      len = snprintf(buf, sizeof buf, "no decision yet");
    } else {
      const EfgSet *s = &e->sets[e->nodes[e->path[d - 1]].set];
      int a = e->taken[d - 1];
      key[0] = mix(((uint64_t)(uint32_t)player << 40) ^ (uint64_t)s->number);
      key[1] = 3 + (uint64_t)a;
      len = snprintf(buf, sizeof buf, "information set %lld \"%s\", then %s", (long long)s->number,
                     e->text + s->label, e->text + e->names[s->action + (uint32_t)a]);
    }
  }
  if (len < 0) len = 0;
  if ((size_t)len >= sizeof buf) len = (int)sizeof buf - 1;
  if (text && size) {
    size_t k = (size_t)len < size - 1 ? (size_t)len : size - 1;
    memcpy(text, buf, k);
    text[k] = 0;
  }
  return (size_t)len;
}

static void efg_free(Game *g) {
  Efg *e = (Efg *)g;
  if (!e) return;
  free(e->name);
  for (int p = 0; p < GAME_MAX_PLAYERS; p++) free(e->players[p]);
  free(e->nodes);
  free(e->children);
  free(e->sets);
  free(e->names);
  free(e->weights);
  free(e->outcomes);
  free(e->payoff_num);
  free(e->payoff_den);
  free(e->payoff);
  free(e->text);
  free(e->slots);
  free(e->oslots);
  free(e->path);
  free(e->taken);
  free(e);
}

static const GameVtable efg_vtable = {
  .generate = efg_generate, .apply = efg_apply, .undo = efg_undo, .ended = efg_ended,
  .no_moves = efg_no_moves, .eval = efg_eval, .to_move = efg_to_move, .hash = efg_hash,
  .state = efg_state, .format_move = efg_format, .print = efg_print, .weights = efg_weights,
  .rewards = efg_rewards,
};

int efg_is_file(const char *path) {
  size_t n = strlen(path);
  return n > 4 && strcmp(path + n - 4, ".efg") == 0;
}

Game *efg_new(const char *path, const char *text, size_t len, FILE *err, int *status) {
  Efg *e = calloc(1, sizeof *e);
  Reader r;
  memset(&r, 0, sizeof r);
  *status = EXIT_LIMIT;
  if (!e) { diag_fail(err, EXIT_LIMIT, "out of memory reading %s", path); return NULL; }
  e->base.destroy = efg_free;
  r.e = e;
  r.s = text;
  r.len = len;
  r.status = EXIT_OK;
  diag_init(&r.d, path, text, len, err);
  if (len > EFG_MAX_BYTES) {
    diag_fail(err, EXIT_LIMIT, "%s is too large (limit %zu MiB)", path, EFG_MAX_BYTES >> 20);
    efg_free(&e->base);
    return NULL;
  }
  int64_t scale = 1;
  if (read_header(&r) == EXIT_OK && read_nodes(&r) == EXIT_OK) scale_payoffs(&r, &scale);
  free(r.str);
  if (r.status != EXIT_OK) {
    *status = r.status;
    efg_free(&e->base);
    return NULL;
  }
  if (scale > 1)
    diag_plain(err, "note", "%s: the payoffs are fractions; gsolve's are integers, so all are "
            "multiplied by %lld (values are %lld times the file's)", path, (long long)scale,
            (long long)scale);
  /* The deepest line bounds the undo stack. */
  if ((e->path = malloc(((size_t)e->nnodes + 1) * sizeof *e->path)) == NULL
      || (e->taken = malloc(((size_t)e->nnodes + 1) * sizeof *e->taken)) == NULL) {
    diag_fail(err, EXIT_LIMIT, "out of memory reading %s", path);
    efg_free(&e->base);
    return NULL;
  }
  e->vt = efg_vtable;
  Game *g = &e->base;
  g->vt = &e->vt;
  g->engine = "efg";
  g->name = e->name;
  g->state_bytes = g->key_bytes = sizeof e->node;
  for (uint32_t i = 0; i < e->nnodes; i++) {
    if (e->nodes[i].kind == K_CHANCE) g->has_chance = 1;
    if (i > 0 && e->nodes[i].kind != K_TERMINAL && e->nodes[i].outcome) g->has_rewards = 1;
  }
  for (uint32_t i = 0; i < e->nsets; i++)
    if (e->sets[i].player >= 0 && e->sets[i].nodes > 1) g->has_views = 1;
  if (g->has_views) e->vt.infostate = efg_infostate;
  if (!g->has_rewards) e->vt.rewards = NULL;
  if (g->nplayers > GAME_MAX_PLAYERS) g->nplayers = GAME_MAX_PLAYERS;
  *status = EXIT_OK;
  return g;
}

Program *efg_program(const Game *g, FILE *err, int *status) {
  char src[256];
  int n = snprintf(src, sizeof src, "game \"efg\";\nplayers");
  for (int p = 0; p < g->nplayers; p++) n += snprintf(src + n, sizeof src - (size_t)n, "%s p%d", p ? "," : "", p + 1);
  n += snprintf(src + n, sizeof src - (size_t)n, ";\nmove m() { }\n");
  return gs_compile("efg", src, (size_t)n, NULL, 0, err, status);
}
