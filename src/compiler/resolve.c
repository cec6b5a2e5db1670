/*
** resolve.c -- the declarations of a .game file: the symbol table, players,
** parameters (with the -D overrides), constants, types and the state
** layout, in the order written.  Names must be declared before they are
** used, except functions and moves, which may be called or named from
** anywhere.  Types and constant folding are in resolve_types.c, the board,
** the symmetries and the repetition rule in resolve_board.c.
*/
#include "compiler/resolve.h"
#include "compiler/builtins.h"
#include "util/fnv.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* Symbols                                                            */
/* ------------------------------------------------------------------ */

/* Names are hashed, not scanned: a file of 4096 constants each used many
** times made the lookups quadratic (seconds under the fuzzers' tracing). */
static unsigned name_slot(const char *name) {
  return (unsigned)fnv1a(FNV_OFFSET, name, strlen(name)) & (RESOLVE_SLOTS - 1);
}

Symbol *resolve_lookup(Resolver *r, const char *name) {
  if (!r->slots) return NULL;
  for (unsigned h = name_slot(name); r->slots[h]; h = (h + 1) & (RESOLVE_SLOTS - 1)) {
    Symbol *s = &r->syms[r->slots[h] - 1];
    if (strcmp(s->name, name) == 0) return s;
  }
  return NULL;
}

const char *resolve_kind_word(SymKind k) {
  switch (k) {
    case SYM_PARAM: return "parameter";
    case SYM_CONST: return "constant";
    case SYM_ENUMVAL: return "member of an enumeration";
    case SYM_TYPE: return "type";
    case SYM_STATE: return "state variable";
    case SYM_FUNC: return "function";
    case SYM_MOVE: return "move";
    default: return "built-in name";
  }
}

/* Declares a global name; a second declaration is an error. */
Symbol *resolve_declare(Resolver *r, const char *name, SymKind k, Span where) {
  Symbol *old = resolve_lookup(r, name);
  if (old) {
    if (old->where.end == 0 && old->where.start == 0)
      diag_error(r->d, where, "'%s' is a built-in name and cannot be redefined", name);
    else {
      diag_error(r->d, where, "duplicate definition of '%s'", name);
      diag_report(r->d, "note", old->where, "'%s' was first defined here as a %s",
                  name, resolve_kind_word(old->kind));
    }
    return NULL;
  }
  if (r->nsyms >= PROG_MAX_SYMBOLS) {
    diag_error(r->d, where, "too many names (limit is %d)", PROG_MAX_SYMBOLS);
    return NULL;
  }
  if (!r->slots && !(r->slots = calloc(RESOLVE_SLOTS, sizeof *r->slots))) {
    r->p->oom = 1;
    return NULL;
  }
  if (r->nsyms == r->cap) {
    int cap = r->cap ? r->cap * 2 : 64;
    Symbol *s = realloc(r->syms, (size_t)cap * sizeof *s);
    if (!s) { r->p->oom = 1; return NULL; }
    r->syms = s;
    r->cap = cap;
  }
  unsigned h = name_slot(name);
  while (r->slots[h]) h = (h + 1) & (RESOLVE_SLOTS - 1);
  r->slots[h] = r->nsyms + 1;
  Symbol *s = &r->syms[r->nsyms++];
  memset(s, 0, sizeof *s);
  s->name = name;
  s->kind = k;
  s->where = where;
  return s;
}

/* After an error in a declaration, the name stays known with the error
** type, so its uses do not cascade into "unknown name" errors. */
static void poison(Resolver *r, Node *decl) {
  if (resolve_lookup(r, decl->name)) return;
  Symbol *s = resolve_declare(r, decl->name, SYM_VALUE, decl->span);
  if (s) s->type = mktype(TY_ERROR, 0, 0);
}

void resolve_declare_value(Resolver *r, const char *name, Type t, int32_t v) {
  Span none = { 0, 0 };
  Symbol *s = resolve_declare(r, name, SYM_VALUE, none);
  if (s) { s->type = t; s->value = v; }
}

/* ------------------------------------------------------------------ */
/* Parameters and their -D overrides                                  */
/* ------------------------------------------------------------------ */

static int parse_int(const char *s, int32_t *out) {
  char *end;
  errno = 0;
  long long v = strtoll(s, &end, 10);
  while (*end == ' ') end++;
  if (errno || end == s || *end || v < INT32_MIN || v > INT32_MAX) return 0;
  *out = (int32_t)v;
  return 1;
}

/* Whether the first len bytes of text are an optional '-' and digits:
** an integer, maybe too big for 32 bits. */
static int all_digits(const char *text, size_t len) {
  size_t sign = len > 0 && text[0] == '-';
  if (len == sign) return 0;
  for (size_t i = sign; i < len; i++)
    if (text[i] < '0' || text[i] > '9') return 0;
  return 1;
}

/* Applies one -D value to a parameter; 0 and a message on a bad value. */
static int apply_override(Resolver *r, ParamInfo *pi, const char *text,
                          char *why, size_t n) {
  Program *p = r->p;
  switch (pi->type.kind) {
    case TY_INT: {
      int32_t v;
      if (!parse_int(text, &v)) {
        /* All digits but too big for 32 bits: say it is out of range. */
        if (all_digits(text, strlen(text)))
          snprintf(why, n, "%.20s%s is out of range %d..%d", text, strlen(text) > 20 ? "..." : "",
                   pi->type.lo, pi->type.hi);
        else
          snprintf(why, n, "expected an integer");
        return 0;
      }
      if (v < pi->type.lo || v > pi->type.hi) {
        snprintf(why, n, "%d is out of range %d..%d", v, pi->type.lo, pi->type.hi);
        return 0;
      }
      pi->value = v;
      return 1;
    }
    case TY_BOOL:
      if (!strcmp(text, "1") || !strcmp(text, "true")) { pi->value = 1; return 1; }
      if (!strcmp(text, "0") || !strcmp(text, "false")) { pi->value = 0; return 1; }
      snprintf(why, n, "expected 0, 1, true or false");
      return 0;
    case TY_ENUM: {
      EnumInfo *e = &p->enums[pi->type.enum_id];
      for (int i = 0; i < e->count; i++)
        if (!strcmp(e->members[i], text)) { pi->value = i; return 1; }
      int len = snprintf(why, n, "expected one of");
      for (int i = 0; i < e->count && len < (int)n; i++)
        len += snprintf(why + len, n - (size_t)len, "%s %s", i ? "," : "", e->members[i]);
      return 0;
    }
    case TY_LIST: {
      int32_t vals[PROG_MAX_LIST];
      int count = 0;
      const char *s = text;
      size_t ip = strspn(s, "0123456789");
      int digits = 0;
      if (s[ip] == '.' && s[ip + 1] && strspn(s + ip + 1, "0123456789") == strlen(s + ip + 1)
          && strlen(s) <= PROG_MAX_LIST) {
        /* A number with a decimal point, digit by digit: 0.77 is 0,7,7
        ** (an octal game's code); no digit before the point is a 0. */
        if (ip == 0) vals[count++] = 0;
        for (; *s; s++)
          if (*s != '.') vals[count++] = *s - '0';
        digits = 1;
      }
      while (!digits) {
        char item[32];
        size_t len = strcspn(s, ",");
        if (count == PROG_MAX_LIST) {
          snprintf(why, n, "too many values (limit is %d)", PROG_MAX_LIST);
          return 0;
        }
        if (len >= sizeof item) {
          snprintf(why, n, "'%.20s...' is %s", s,
                   all_digits(s, len) ? "out of range for a 32-bit integer" : "not an integer");
          return 0;
        }
        if (len == 0) {
          snprintf(why, n, "expected a comma-separated list of integers");
          return 0;
        }
        memcpy(item, s, len);
        item[len] = 0;
        if (!parse_int(item, &vals[count++])) {
          snprintf(why, n, "'%s' is %s", item,
                   all_digits(item, len) ? "out of range for a 32-bit integer" : "not an integer");
          return 0;
        }
        if (!s[len]) break;
        s += len + 1;
      }
      int off = resolve_konst_add(p, vals, count);
      if (off < 0) { snprintf(why, n, "out of memory"); return 0; }
      pi->type.lo = off;
      pi->type.hi = count;
      return 1;
    }
    default:
      snprintf(why, n, "cannot be set");
      return 0;
  }
}

static void declare_param_checked(Resolver *r, Node *decl, const ParamDef *defs, int ndefs,
                                  int *usage);

static void declare_param(Resolver *r, Node *decl, const ParamDef *defs, int ndefs,
                          int *usage) {
  declare_param_checked(r, decl, defs, ndefs, usage);
  poison(r, decl);
}

static void declare_param_checked(Resolver *r, Node *decl, const ParamDef *defs, int ndefs,
                                  int *usage) {
  Program *p = r->p;
  int ok = 1;
  Type t, dt;
  int32_t v = 0;
  /* The type first: an enumeration declares the members the default names. */
  Type want = decl->a ? resolve_type(r, decl->a, 0) : mktype(TY_VOID, 0, 0);
  if (want.kind == TY_ERROR) return;
  if (decl->b && decl->b->kind == NODE_LIST) dt = resolve_const_list(r, decl->b, &ok);
  else v = resolve_const(r, decl->b, &dt, &ok);
  if (!ok) return;
  t = dt;
  if (decl->a) {
    if (!type_compatible(want, dt) || dt.kind == TY_LIST) {
      char b1[64], b2[64];
      diag_error(r->d, decl->b->span, "default value of type %s for a parameter of type %s",
                 type_name(p, dt, b1, sizeof b1), type_name(p, want, b2, sizeof b2));
      return;
    }
    if (want.kind == TY_INT && (v < want.lo || v > want.hi)) {
      diag_error(r->d, decl->b->span, "default %d is out of range %d..%d", v, want.lo,
                 want.hi);
      return;
    }
    t = want;
  } else if (t.kind == TY_INT) {
    t.lo = INT32_MIN;
    t.hi = INT32_MAX;
  }
  ParamInfo *pi = realloc(p->params, (size_t)(p->nparams + 1) * sizeof *pi);
  if (!pi) { p->oom = 1; return; }
  p->params = pi;
  pi = &p->params[p->nparams++];
  memset(pi, 0, sizeof *pi);
  pi->name = decl->name;
  pi->type = t;
  pi->value = v;
  for (int i = 0; i < ndefs; i++) {
    if (strcmp(defs[i].name, decl->name) != 0) continue;
    char why[256];
    if (!apply_override(r, pi, defs[i].value, why, sizeof why)) {
      if (!r->p->oom)   /* else gs_compile reports the lack of memory */
        diag_plain(r->d->out, "error", "-D %s=%.60s%s: %s", defs[i].name, defs[i].value,
                   strlen(defs[i].value) > 60 ? "..." : "", why);
      *usage = 1;
    }
    pi->overridden = 1;
  }
  Symbol *s = resolve_declare(r, decl->name, SYM_PARAM, decl->span);
  if (s) {
    s->type = pi->type;
    s->value = pi->value;
  }
}

/* ------------------------------------------------------------------ */
/* State variables                                                    */
/* ------------------------------------------------------------------ */

static void declare_state_checked(Resolver *r, Node *decl);

static void declare_state(Resolver *r, Node *decl) {
  declare_state_checked(r, decl);
  poison(r, decl);
}

static void declare_state_checked(Resolver *r, Node *decl) {
  Program *p = r->p;
  StateVar v;
  memset(&v, 0, sizeof v);
  v.name = decl->name;
  v.where = decl->span;
  v.ndims = ast_count(decl->c);
  if (v.ndims > 2) {
    diag_error(r->d, decl->span, "arrays have at most 2 dimensions");
    return;
  }
  int i = 0, ok = 1;
  int64_t size = 1;
  for (Node *dn = decl->c; dn; dn = dn->next, i++) {
    if (dn->kind == NODE_TCELL) {
      if (p->board == BOARD_NONE) {
        diag_error(r->d, dn->span, "[board] needs a board declaration before it");
        return;
      }
      if (v.ndims != 1) {
        diag_error(r->d, dn->span, "an array over the board has one dimension");
        return;
      }
      v.on_board = 1;
      v.dim[i] = p->ncells;
    } else {
      Type t;
      int32_t n = resolve_const(r, dn, &t, &ok);
      if (!ok) return;
      if (t.kind != TY_INT) {
        char b[64];
        diag_error(r->d, dn->span, "array size must be an integer from 1 to %d, not %s",
                   PROG_MAX_ARRAY, type_name(p, t, b, sizeof b));
        return;
      }
      if (n < 1 || n > PROG_MAX_ARRAY) {
        diag_error(r->d, dn->span, "array size must be an integer from 1 to %d (got %d)",
                   PROG_MAX_ARRAY, n);
        return;
      }
      v.dim[i] = n;
    }
    size *= v.dim[i];
  }
  v.elem = resolve_type(r, decl->a, 1);
  if (v.elem.kind == TY_ERROR) return;
  if (p->nslots + size > PROG_MAX_SLOTS) {
    diag_error(r->d, decl->span, "state too large (limit is %d values)", PROG_MAX_SLOTS);
    return;
  }
  v.base = p->nslots;
  /* Slot bounds and start values. */
  int32_t *lo = realloc(p->lo, (size_t)(p->nslots + size) * sizeof *lo);
  if (lo) p->lo = lo;
  int32_t *hi = realloc(p->hi, (size_t)(p->nslots + size) * sizeof *hi);
  if (hi) p->hi = hi;
  int32_t *in = realloc(p->init, (size_t)(p->nslots + size) * sizeof *in);
  if (in) p->init = in;
  if (!lo || !hi || !in) { p->oom = 1; return; }
  int32_t dflt = (v.elem.lo <= 0 && 0 <= v.elem.hi) ? 0 : v.elem.lo;
  if (v.elem.kind == TY_CELL) dflt = -1;
  for (int k = 0; k < size; k++) {
    p->lo[v.base + k] = v.elem.lo;
    p->hi[v.base + k] = v.elem.hi;
    p->init[v.base + k] = dflt;
  }
  if (decl->b) {
    Type it;
    int32_t iv = 0;
    if (decl->b->kind == NODE_LIST) it = resolve_const_list(r, decl->b, &ok);
    else iv = resolve_const(r, decl->b, &it, &ok);
    if (!ok) goto declare;
    if (it.kind == TY_LIST) {
      if (it.hi != size) {
        diag_error(r->d, decl->b->span, "initial list has %d values for %lld entries",
                   it.hi, (long long)size);
        goto declare;
      }
      for (int k = 0; k < size; k++) p->init[v.base + k] = p->konst[it.lo + k];
    } else {
      if (!type_compatible(it, v.elem)) {
        char b1[64], b2[64];
        diag_error(r->d, decl->b->span, "initial value of type %s for a state of type %s",
                   type_name(p, it, b1, sizeof b1), type_name(p, v.elem, b2, sizeof b2));
        goto declare;
      }
      for (int k = 0; k < size; k++) p->init[v.base + k] = iv;
    }
    for (int k = 0; k < size; k++) {
      int32_t x = p->init[v.base + k];
      if (x < v.elem.lo || x > v.elem.hi) {
        diag_error(r->d, decl->b->span, "initial value %d is out of range %d..%d", x,
                   v.elem.lo, v.elem.hi);
        goto declare;
      }
    }
  }
  /* A bad initial value is reported above; the state is declared all the
  ** same (with the default values), so its uses do not cascade into more
  ** errors ("'heap' is not a one-dimensional state array"). */
declare:
  if (decl->d) {
    /* `, at most N pieces`: at most N cells hold anything but the lowest
    ** value, so that keys can list the pieces (vm_pack.c). */
    Type t;
    int bound_ok = 1;
    int32_t n = resolve_const(r, decl->d, &t, &bound_ok);
    if (!v.on_board)
      diag_error(r->d, decl->d->span, "'at most N pieces' is for an array over the board ([board])");
    else if (bound_ok && (t.kind != TY_INT || n < 1 || n > p->ncells))
      diag_error(r->d, decl->d->span, "the number of pieces must be an integer from 1 to %d, the board's cells",
                 p->ncells);
    else if (bound_ok)
      v.max_pieces = n;
  }
  p->nslots += (int)size;
  StateVar *vars = realloc(p->vars, (size_t)(p->nvars + 1) * sizeof *vars);
  if (!vars) { p->oom = 1; return; }
  p->vars = vars;
  p->vars[p->nvars] = v;
  Symbol *s = resolve_declare(r, decl->name, SYM_STATE, decl->span);
  if (s) { s->index = p->nvars; s->type = v.elem; }
  p->nvars++;
}

/* ------------------------------------------------------------------ */
/* The whole file                                                     */
/* ------------------------------------------------------------------ */

static void declare_builtins(Resolver *r) {
  Program *p = r->p;
  Span none = { 0, 0 };
  Symbol *m = resolve_declare(r, "mover", SYM_MOVER, none);
  if (m) m->type = mktype(TY_PLAYER, 1, p->chance ? p->chance : p->nplayers);
  Symbol *roller = resolve_declare(r, "roller", SYM_ROLLER, none);
  if (roller) roller->type = mktype(TY_PLAYER, 1, p->nplayers);
  resolve_declare_value(r, "none", mktype(TY_PLAYER, 0, 0), 0);
  if (p->chance) resolve_declare_value(r, "chance", mktype(TY_PLAYER, p->chance, p->chance), p->chance);
  resolve_declare_value(r, "nowhere", mktype(TY_CELL, -1, -1), -1);
  for (int d = 0; d < DIR_COUNT; d++) resolve_declare_value(r, dir_names[d], mktype(TY_DIR, d, d), d);
  for (int i = 0; i < p->nplayers; i++) {
    int dup = 0;
    for (int j = 0; j < i; j++) dup |= !strcmp(p->players[j], p->players[i]);
    if (dup) continue;   /* reported by declare_players */
    if (resolve_lookup(r, p->players[i])) {
      diag_error(r->d, r->players_span[i], "player name '%s' is a built-in name", p->players[i]);
      continue;
    }
    Symbol *s = resolve_declare(r, p->players[i], SYM_VALUE, r->players_span[i]);
    if (s) { s->type = mktype(TY_PLAYER, i + 1, i + 1); s->value = i + 1; }
  }
}

static void declare_players(Resolver *r, Node *decl) {
  Program *p = r->p;
  if (p->nplayers) {
    diag_error(r->d, decl->span, "players declared twice");
    return;
  }
  int n = ast_count(decl->a);
  if (n < 1 || n > GAME_MAX_PLAYERS) {
    diag_error(r->d, decl->span, "a game has 1 to %d players, not %d", GAME_MAX_PLAYERS, n);
    return;
  }
  p->nplayers = n;
  int i = 0;
  for (Node *nm = decl->a; nm; nm = nm->next) {
    r->players_span[i] = nm->span;
    p->players[i++] = nm->name;
    for (int j = 0; j < i - 1; j++)
      if (!strcmp(p->players[j], nm->name))
        diag_error(r->d, nm->span, "duplicate player '%s'", nm->name);
  }
}

/* Names a function or move; the built-in functions' names are taken. */
static int register_named(Resolver *r, Node *decl, SymKind k, Node ***arr, int *n) {
  if (builtin_find(decl->name, -1))
    diag_error(r->d, decl->span, "'%s' is a built-in function and cannot be redefined", decl->name);
  Symbol *s = resolve_declare(r, decl->name, k, decl->span);
  Node **a = realloc(*arr, (size_t)(*n + 1) * sizeof(Node *));
  if (!a) { r->p->oom = 1; return 0; }
  *arr = a;
  a[*n] = decl;
  if (s) s->index = *n;
  (*n)++;
  return 1;
}

int resolve_program(Program *p, Diag *d, const ParamDef *defs, int ndefs,
                    int *usage_error, Resolver **out) {
  Resolver *r = calloc(1, sizeof *r);
  *out = r;
  if (!r) { p->oom = 1; return 0; }
  r->p = p;
  r->d = d;
  *usage_error = 0;
  Span zero = { 0, 0 };

  /* Step 1. The game's name and players come first: names below may use them. */
  for (Node *n = p->ast; n; n = n->next) {
    if (n->kind == NODE_GAME) {
      if (p->name) diag_error(d, n->span, "game name declared twice");
      p->name = n->name;
    } else if (n->kind == NODE_PLAYERS) {
      r->players_seen = 1;
      declare_players(r, n);
    }
  }
  if (!p->name) p->name = "unnamed";
  if (p->nplayers == 0) {
    if (!r->players_seen) diag_error(d, zero, "the game declares no players (add: players A, B;)");
    p->nplayers = 1;
    p->players[0] = "A";
  }
  /* A game with chance moves has one more player value, `chance`, and a
  ** hidden slot 1 holding the player who moves after chance. */
  for (Node *n = p->ast; n; n = n->next)
    if (n->kind == NODE_MOVE && n->op == 1) p->chance = p->nplayers + 1;
  p->lo = malloc(2 * sizeof(int32_t));
  p->hi = malloc(2 * sizeof(int32_t));
  p->init = malloc(2 * sizeof(int32_t));
  if (!p->lo || !p->hi || !p->init) { p->oom = 1; return 0; }
  p->lo[0] = 1;
  p->hi[0] = p->chance ? p->chance : p->nplayers;
  p->init[0] = 1;
  p->nslots = 1;
  if (p->chance) {
    p->chance_slot = 1;
    p->lo[1] = 1;
    p->hi[1] = p->nplayers;
    p->init[1] = 1;
    p->nslots = 2;
  }
  declare_builtins(r);

  /* Step 2. Declarations in order; functions and moves only get names. */
  int nmoves = 0;
  for (Node *n = p->ast; n; n = n->next) {
    switch (n->kind) {
      case NODE_PARAM: declare_param(r, n, defs, ndefs, usage_error); break;
      case NODE_CONST: {
        int ok = 1;
        Type t;
        int32_t v = resolve_const(r, n->b, &t, &ok);
        Symbol *s = ok ? resolve_declare(r, n->name, SYM_CONST, n->span) : NULL;
        if (s) { s->type = t; s->value = v; }
        if (!ok) poison(r, n);
        break;
      }
      case NODE_TYPEDEF: {
        Type t = n->a->kind == NODE_TENUM ? resolve_declare_enum(r, n->name, n->a->a)
                                           : resolve_type(r, n->a, 0);
        Symbol *s = resolve_declare(r, n->name, SYM_TYPE, n->span);
        if (s) s->type = t;
        break;
      }
      case NODE_BOARD: resolve_declare_board(r, n); break;
      case NODE_STATE: declare_state(r, n); break;
      case NODE_FUNC: register_named(r, n, SYM_FUNC, &r->funcs, &r->nfuncs); break;
      case NODE_MOVE:
        if (nmoves == PROG_MAX_RULES) {
          diag_error(d, n->span, "too many move rules (limit is %d)", PROG_MAX_RULES);
          break;
        }
        register_named(r, n, SYM_MOVE, &r->moves, &nmoves);
        break;
      case NODE_NOMOVES:
        if (n->a) {   /* nomoves pass [block] */
          Node *m = resolve_builtin_pass(r, n);
          if (m && nmoves == PROG_MAX_RULES)
            diag_error(d, n->a->span, "too many move rules (limit is %d, the built-in pass included)", PROG_MAX_RULES);
          else if (m && register_named(r, m, SYM_MOVE, &r->moves, &nmoves))
            p->pass_rule = nmoves - 1;
          if (!n->c) break;
        }
        /* fall through */
      case NODE_END: case NODE_EVAL: case NODE_START: {
        Node **slot = n->kind == NODE_END ? &r->end_decl
                    : n->kind == NODE_NOMOVES ? &r->nomoves_decl
                    : n->kind == NODE_START ? &r->start_decl : &r->eval_decl;
        if (*slot) diag_error(d, n->span, "'%s' declared twice", n->name);
        else *slot = n;
        break;
      }
      case NODE_VALID:
        if (r->valid_decl) diag_error(d, n->span, "'valid' declared twice");
        else r->valid_decl = n;
        break;
      case NODE_BOUND:
        /* Kept only when well formed: the compiler then takes it as is. */
        if (r->bound_decl) diag_error(d, n->span, "'bound' declared twice");
        else if (!n->a || n->a->next || n->a->a->kind != NODE_TPLAYER)
          diag_error(d, n->span, "a bound takes one parameter, a player: bound(p: player) { ... }");
        else r->bound_decl = n;
        break;
      case NODE_NATIVE: {
        if (p->native) { diag_error(d, n->span, "native engine declared twice"); break; }
        p->native = n->name;
        p->native_ok = 1;
        if (n->a) {
          int ok = 1;
          Type t;
          int32_t v = resolve_const(r, n->a, &t, &ok);
          if (ok && t.kind != TY_BOOL) diag_error(d, n->a->span, "the condition of 'native' must be bool");
          p->native_ok = ok && v;
        }
        break;
      }
      case NODE_COMPONENTS: {
        Symbol *sym = resolve_lookup(r, n->name);
        if (p->components_var >= 0)
          diag_error(d, n->span, "'components' declared twice");
        else if (!sym || sym->kind != SYM_STATE || p->vars[sym->index].ndims != 1)
          diag_error(d, n->span, "components needs a one-dimensional state array declared before it; '%s' is not one",
                     n->name);
        else if (p->vars[sym->index].elem.kind != TY_INT || p->vars[sym->index].elem.lo != 0)
          diag_error(d, n->span, "components needs an array of integers from 0 (an empty "
                     "component): '%s' is not", n->name);
        else
          p->components_var = sym->index;
        break;
      }
      case NODE_SCORE_ONLY:
        if (strcmp(n->name, "only") != 0)
          diag_error(d, n->span, "expected 'only' after 'score' (the declaration 'score only;')");
        else if (p->score_only) diag_error(d, n->span, "'score only' declared twice");
        p->score_only = 1;
        break;
      case NODE_SYMMETRY: {
        Node **s = realloc(r->symmetries, (size_t)(r->nsymmetries + 1) * sizeof *s);
        if (s) { r->symmetries = s; s[r->nsymmetries++] = n; }
        else p->oom = 1;
        break;
      }
      case NODE_PIECES: resolve_declare_pieces(r, n); break;
      case NODE_HIDDEN: {
        Node **s = realloc(r->hiddens, (size_t)(r->nhiddens + 1) * sizeof *s);
        if (s) { r->hiddens = s; s[r->nhiddens++] = n; }
        else p->oom = 1;
        break;
      }
      case NODE_REPETITION: {
        Node **s = realloc(r->repetitions, (size_t)(r->nrepetitions + 1) * sizeof *s);
        if (s) { r->repetitions = s; s[r->nrepetitions++] = n; }
        else p->oom = 1;
        break;
      }
      default: break;
    }
  }
  p->nrules = nmoves;
  resolve_effect_outcomes(r);
  if (nmoves == 0) diag_error(d, zero, "the game declares no moves (add: move NAME(...) { ... })");

  /* Step 3. -D names must exist.  Out of memory, a parameter may have
  ** been left undeclared: gs_compile reports the lack of memory alone. */
  for (int i = 0; i < ndefs && !p->oom; i++) {
    int found = 0;
    for (int k = 0; k < p->nparams && !found; k++) found = !strcmp(p->params[k].name, defs[i].name);
    if (!found) {
      char names[1024] = "";
      size_t len = 0;
      for (int k = 0; k < p->nparams && len < sizeof names; k++)
        len += (size_t)snprintf(names + len, sizeof names - len, "%s %s%s", k ? "," : " (parameters:",
                                p->params[k].name, k == p->nparams - 1 ? ")" : "");
      diag_plain(d->out, "error", "-D %s=%s: the game has no parameter '%s'%s", defs[i].name,
                 defs[i].value, defs[i].name, names);
      *usage_error = 1;
    }
  }

  /* Step 4. Symmetries and the repetition rule, once the state layout
  ** and the move rules are known. */
  for (int i = 0; i < r->nsymmetries; i++) resolve_check_symmetry(r, r->symmetries[i]);
  for (int i = 0; i < r->nrepetitions; i++) resolve_declare_repetition(r, r->repetitions[i]);
  resolve_symmetry_group(r);
  return d->errors == 0 && !*usage_error;
}

void resolver_free(Resolver *r) {
  if (!r) return;
  free(r->syms);
  free(r->slots);
  free(r->funcs);
  free(r->moves);
  free(r->symmetries);
  free(r->sym_gens);
  free(r->sym_gen_decl);
  free(r->repetitions);
  free(r->hiddens);
  free(r);
}
