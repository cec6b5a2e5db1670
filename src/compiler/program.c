/*
** program.c -- the public entry points: compile a .game source into a
** Program, free it, and describe its parameters and values.
*/
#include "compiler/resolve.h"
#include "compiler/simultaneous.h"

#include <stdlib.h>
#include <string.h>

Program *gs_compile(const char *filename, const char *text, size_t len,
                    const ParamDef *defs, int ndefs, FILE *err, int *status) {
  *status = EXIT_BAD_GAME;
  Program *p = calloc(1, sizeof *p);
  if (!p) { *status = diag_out_of_memory(err); return NULL; }
  p->arena = arena_new();
  p->components_var = -1;
  p->filename = strdup(filename);
  p->source = malloc(len + 1);
  if (!p->arena || !p->filename || !p->source) {
    *status = diag_out_of_memory(err);
    gs_program_free(p);
    return NULL;
  }
  memcpy(p->source, text, len);
  p->source[len] = 0;
  p->source_len = len;

  Diag d;
  diag_init(&d, p->filename, p->source, len, err);
  d.mute = &p->oom;
  ParseState ps;
  memset(&ps, 0, sizeof ps);
  ps.arena = p->arena;
  ps.diag = &d;
  p->ast = ast_parse(&ps, p->source, len);
  if (ps.oom) {
    *status = diag_fail(err, EXIT_LIMIT, "out of memory while parsing");
    gs_program_free(p);
    return NULL;
  }
  if (d.errors) {
    if (d.errors > 1) fprintf(err, "%d errors\n", d.errors);
    gs_program_free(p);
    return NULL;
  }

  if (!simul_lower(&ps) || ps.oom || d.errors) {
    if (ps.oom) diag_fail(err, EXIT_LIMIT, "out of memory while parsing");
    else if (d.errors > 1) fprintf(err, "%d errors\n", d.errors);
    *status = ps.oom ? EXIT_LIMIT : EXIT_BAD_GAME;
    gs_program_free(p);
    return NULL;
  }

  Resolver *r = NULL;
  int usage = 0;
  int ok = resolve_program(p, &d, defs, ndefs, &usage, &r);
  /* Bodies are checked even after declaration errors, to report more at
  ** once; not after a bad -D, which is the user's command line. */
  if (r && !usage && !p->oom && d.errors < DIAG_MAX_ERRORS) ok = compile_program(p, &d, r) && ok;
  resolver_free(r);
  if (p->oom) {      /* whatever else failed, and was not reported */
    *status = diag_fail(err, EXIT_LIMIT, "out of memory while compiling");
    gs_program_free(p);
    return NULL;
  }
  if (!ok) {
    if (usage && d.errors == 0) *status = EXIT_USAGE;
    else if (d.errors == 0) *status = diag_fail(err, EXIT_LIMIT, "out of memory while compiling");
    if (d.errors > 1) fprintf(err, "%d errors\n", d.errors);
    gs_program_free(p);
    return NULL;
  }
  *status = EXIT_OK;
  return p;
}

const char *const dir_names[DIR_COUNT] = {
  "north", "northeast", "east", "southeast",
  "south", "southwest", "west", "northwest",
};
const int dir_dx[DIR_COUNT] = { 0, 1, 1, 1, 0, -1, -1, -1 };
const int dir_dy[DIR_COUNT] = { 1, 1, 0, -1, -1, -1, 0, 1 };

void *prog_alloc(Program *p, size_t n) {
  void *m = arena_alloc(p->arena, n ? n : 1);
  if (!m) p->oom = 1;
  return m;
}

void gs_program_free(Program *p) {
  if (!p) return;
  arena_free(p->arena);
  free(p->filename);
  free(p->source);
  free(p->params);
  free(p->enums);
  free(p->konst);
  free(p->vars);
  free(p->lo);
  free(p->hi);
  free(p->init);
  free(p->code);
  free(p->invalid_reasons);
  free(p->pos);
  free(p->chunks);
  free(p->permute_vars);
  free(p);
}

void gs_dump_ast(const Program *p, FILE *out) {
  ast_dump(p->ast, 0, out);
}

/* Column letters as in a spreadsheet: a..z, aa, ab, ... */
static int column_name(int x, char *buf, size_t n) {
  char tmp[8];
  int len = 0;
  x++;
  while (x > 0 && len < 7) {
    x--;
    tmp[len++] = (char)('a' + x % 26);
    x /= 26;
  }
  int k = 0;
  while (len > 0 && (size_t)k + 1 < n) buf[k++] = tmp[--len];
  buf[k] = 0;
  return k;
}

int program_format_value(const Program *p, Type t, int32_t v, char *buf, size_t n) {
  switch (t.kind) {
    case TY_BOOL: return snprintf(buf, n, "%s", v ? "true" : "false");
    case TY_PLAYER: return snprintf(buf, n, "%s", v >= 1 && v <= p->nplayers ? p->players[v - 1] : "none");
    case TY_DIR: return snprintf(buf, n, "%s", v >= 0 && v < DIR_COUNT ? dir_names[v] : "?");
    case TY_ENUM:
      if (v >= 0 && v < p->enums[t.enum_id].count) return snprintf(buf, n, "%s", p->enums[t.enum_id].members[v]);
      return snprintf(buf, n, "%d", v);
    case TY_CELL:
      if (v < 0) return snprintf(buf, n, "nowhere");
      if (p->board == BOARD_RECT && p->gtp_cells) {
        /* GTP vertices: columns a..h, j..z (no i), at most 25. */
        int x = v % p->width;
        return snprintf(buf, n, "%c%d", (char)('a' + x + (x >= 8)), v / p->width + 1);
      }
      if (p->board == BOARD_RECT) {
        int k = column_name(v % p->width, buf, n);
        return k + snprintf(buf + k, n - (size_t)k, "%d", v / p->width + 1);
      }
      if (p->board == BOARD_EDGES && v < p->ncells)   /* an edge: its two nodes */
        return snprintf(buf, n, "%d-%d", p->edge_end[2 * v], p->edge_end[2 * v + 1]);
      return snprintf(buf, n, "%d", v);
    default: return snprintf(buf, n, "%d", v);
  }
}

void program_slot_name(const Program *p, int s, char *buf, size_t n) {
  if (s == 0) { snprintf(buf, n, "mover"); return; }
  if (p->outcome_slot && s == p->outcome_slot) { snprintf(buf, n, "(ended by a move)"); return; }
  if (p->outcome_slot && s > p->outcome_slot && s <= p->outcome_slot + p->nplayers) {
    snprintf(buf, n, "(payoff of %s)", p->players[s - p->outcome_slot - 1]);
    return;
  }
  if (p->pass_slot && s == p->pass_slot) { snprintf(buf, n, "(passes in a row)"); return; }
  for (int i = 0; i < p->nvars; i++) {
    const StateVar *v = &p->vars[i];
    int size = v->ndims == 0 ? 1 : v->ndims == 1 ? v->dim[0] : v->dim[0] * v->dim[1];
    if (s < v->base || s >= v->base + size) continue;
    int k = s - v->base;
    if (v->ndims == 0) snprintf(buf, n, "%s", v->name);
    else if (v->ndims == 1) snprintf(buf, n, "%s[%d]", v->name, k);
    else snprintf(buf, n, "%s[%d][%d]", v->name, k / v->dim[1], k % v->dim[1]);
    return;
  }
  snprintf(buf, n, "slot %d", s);
}

static void write_param_value(const Program *p, const ParamInfo *pi, FILE *out, int json) {
  if (pi->type.kind == TY_LIST) {
    fputs(json ? "[" : "", out);
    for (int i = 0; i < pi->type.hi; i++)
      fprintf(out, "%s%d", i ? "," : "", p->konst[pi->type.lo + i]);
    fputs(json ? "]" : "", out);
  } else if (pi->type.kind == TY_ENUM) {
    fprintf(out, json ? "\"%s\"" : "%s", p->enums[pi->type.enum_id].members[pi->value]);
  } else if (pi->type.kind == TY_BOOL) {
    fprintf(out, "%s", pi->value ? "true" : "false");
  } else {
    fprintf(out, "%d", pi->value);
  }
}

void gs_write_params_json(const Program *p, FILE *out) {
  fputc('{', out);
  for (int i = 0; i < p->nparams; i++) {
    fprintf(out, "%s\"%s\":", i ? "," : "", p->params[i].name);
    write_param_value(p, &p->params[i], out, 1);
  }
  fputc('}', out);
}

void gs_write_params_text(const Program *p, FILE *out) {
  for (int i = 0; i < p->nparams; i++) {
    fprintf(out, "%s%s=", i ? " " : "", p->params[i].name);
    write_param_value(p, &p->params[i], out, 0);
  }
}

/* FNV-1a over a buffer, continuing from h. */
static uint64_t fnv(uint64_t h, const void *data, size_t n) {
  const unsigned char *p = data;
  for (size_t i = 0; i < n; i++) { h ^= p[i]; h *= 0x100000001b3ULL; }
  return h;
}

uint64_t gs_rules_hash(const Program *p) {
  /* Parameters are folded into the code and the constants, so hashing
  ** these covers them; player names and the state layout go in too. */
  uint64_t h = 0xcbf29ce484222325ULL;
  h = fnv(h, p->code, (size_t)p->ncode * sizeof *p->code);
  if (p->nkonst) h = fnv(h, p->konst, (size_t)p->nkonst * sizeof *p->konst);
  h = fnv(h, p->lo, (size_t)p->nslots * sizeof *p->lo);
  h = fnv(h, p->hi, (size_t)p->nslots * sizeof *p->hi);
  h = fnv(h, p->init, (size_t)p->nslots * sizeof *p->init);
  for (int i = 0; i < p->nplayers; i++) h = fnv(h, p->players[i], strlen(p->players[i]) + 1);
  for (int i = 0; i < p->nrules; i++) h = fnv(h, p->rules[i].name, strlen(p->rules[i].name) + 1);
  if (p->sym) h = fnv(h, p->sym, (size_t)p->nsym * (size_t)p->ncells * sizeof *p->sym);
  /* A bound on pieces changes the keys' layout (vm_pack.c). */
  for (int i = 0; i < p->nvars; i++)
    if (p->vars[i].max_pieces) h = fnv(h, &p->vars[i].max_pieces, sizeof p->vars[i].max_pieces);
  return h;
}

static const ParamInfo *find_param(const Program *p, const char *name) {
  for (int i = 0; i < p->nparams; i++)
    if (!strcmp(p->params[i].name, name)) return &p->params[i];
  return NULL;
}

int gs_param_int(const Program *p, const char *name, int32_t *value) {
  const ParamInfo *pi = find_param(p, name);
  if (!pi || pi->type.kind == TY_LIST) return 0;
  *value = pi->value;
  return 1;
}

int gs_param_list(const Program *p, const char *name, const int32_t **values, int *n) {
  const ParamInfo *pi = find_param(p, name);
  if (!pi || pi->type.kind != TY_LIST) return 0;
  *values = p->konst + pi->type.lo;
  *n = pi->type.hi;
  return 1;
}

const char *gs_native_name(const Program *p, int *allowed) {
  *allowed = p->native_ok;
  return p->native;
}

const char *gs_game_name(const Program *p) { return p->name; }
int gs_player_count(const Program *p) { return p->nplayers; }
const char *gs_player_name(const Program *p, int i) {
  return i >= 0 && i < p->nplayers ? p->players[i] : "?";
}

int gs_board_cells(const Program *p) { return p->ncells; }

const char *gs_pieces(const Program *p, FenBoard *b) {
  memset(b, 0, sizeof *b);
  b->letters = p->piece_letters;
  b->base = p->pieces_base;
  b->width = p->width;
  b->height = p->height;
  b->castle_letters = p->fen_castle_base ? p->fen_castle_letters : NULL;
  b->castle_base = p->fen_castle_base;
  b->ep_slot = p->fen_ep_slot;
  b->half_slot = p->fen_half_slot;
  b->full_slot = p->fen_full_slot;
  if (b->half_slot) { b->half_lo = p->lo[b->half_slot]; b->half_hi = p->hi[b->half_slot]; }
  if (b->full_slot) { b->full_lo = p->lo[b->full_slot]; b->full_hi = p->hi[b->full_slot]; }
  return p->piece_letters;
}
