/*
** describe.c -- `gsolve FILE --describe --json`: what a drawing of the
** position needs, as one JSON object: the game's parameters with their
** types and ranges, its board declaration (a rect grid, a graph's nodes
** and edges, an edges board's nodes), the letters of its pieces, every
** state variable's values, the player to move or the outcome, each
** legal move with the board cells (or array entries) it changes and, at
** a chance node, its probability, and at a game with hidden information
** each player's information state.  `gsolve serve` draws its page from
** this (docs/web.md); it solves nothing.
**
** The state is read slot by slot, so the engine must be the VM (the
** rules' own layout): --engine vm, or a game without a native engine.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "cli/serve.h"
#include "compiler/program.h"
#include "game/boardview.h"
#include "util/diag.h"

static const char *type_name(TypeKind k) {
  switch (k) {
    case TY_INT: return "int";
    case TY_BOOL: return "bool";
    case TY_PLAYER: return "player";
    case TY_CELL: return "cell";
    case TY_DIR: return "dir";
    case TY_ENUM: return "enum";
    case TY_LIST: return "list";
    default: return "other";
  }
}

static void write_params(JsonWriter *w, const Program *p) {
  char buf[64];
  json_key(w, "params");
  json_begin_array(w);
  for (int i = 0; i < p->nparams; i++) {
    const ParamInfo *pi = &p->params[i];
    json_begin_object(w);
    json_key(w, "name"); json_string(w, pi->name);
    json_key(w, "type"); json_string(w, type_name(pi->type.kind));
    json_key(w, "value");
    if (pi->type.kind == TY_LIST) {
      json_begin_array(w);
      for (int k = 0; k < pi->type.hi; k++) json_int(w, p->konst[pi->type.lo + k]);
      json_end_array(w);
    } else if (pi->type.kind == TY_ENUM || pi->type.kind == TY_BOOL) {
      program_format_value(p, pi->type, pi->value, buf, sizeof buf);
      json_string(w, buf);
    } else {
      json_int(w, pi->value);
    }
    if (pi->type.kind == TY_INT) {
      json_key(w, "lo"); json_int(w, pi->type.lo);
      json_key(w, "hi"); json_int(w, pi->type.hi);
    }
    if (pi->type.kind == TY_ENUM) {
      const EnumInfo *e = &p->enums[pi->type.enum_id];
      json_key(w, "members");
      json_begin_array(w);
      for (int k = 0; k < e->count; k++) json_string(w, e->members[k]);
      json_end_array(w);
    }
    json_end_object(w);
  }
  json_end_array(w);
}

static void write_board(JsonWriter *w, const Program *p) {
  char buf[64];
  Type ct = { TY_CELL, 0, 0, 0 };
  json_key(w, "board");
  if (p->board == BOARD_NONE) {
    json_null(w);
    return;
  }
  json_begin_object(w);
  json_key(w, "kind");
  json_string(w, p->board == BOARD_RECT ? "rect" : p->board == BOARD_GRAPH ? "graph" : "edges");
  if (p->board == BOARD_RECT) {
    json_key(w, "width"); json_int(w, p->width);
    json_key(w, "height"); json_int(w, p->height);
  }
  json_key(w, "cells");
  json_begin_array(w);
  for (int c = 0; c < p->ncells; c++) {
    program_format_value(p, ct, c, buf, sizeof buf);
    json_string(w, buf);
  }
  json_end_array(w);
  if (p->board == BOARD_GRAPH) {      /* each edge once: a < b */
    json_key(w, "edges");
    json_begin_array(w);
    for (int a = 0; a < p->ncells; a++)
      for (int k = p->nbr_start[a]; k < p->nbr_start[a + 1]; k++)
        if (p->nbr[k] > a) {
          json_begin_array(w); json_int(w, a); json_int(w, p->nbr[k]); json_end_array(w);
        }
    json_end_array(w);
  }
  if (p->board == BOARD_EDGES) {      /* cell c joins ends[c][0] and ends[c][1] */
    json_key(w, "nodes"); json_int(w, p->nnodes);
    json_key(w, "ends");
    json_begin_array(w);
    for (int c = 0; c < p->ncells; c++) {
      json_begin_array(w);
      json_int(w, p->edge_end[2 * c]);
      json_int(w, p->edge_end[2 * c + 1]);
      json_end_array(w);
    }
    json_end_array(w);
  }
  json_end_object(w);
}

static int var_size(const StateVar *v) {
  return v->ndims == 0 ? 1 : v->ndims == 1 ? v->dim[0] : v->dim[0] * v->dim[1];
}

/* Each state variable: its name, type, shape and values (raw, and as
** the rules print them; a value a view masks is null). */
static void write_vars(JsonWriter *w, const Program *p, const int32_t *s) {
  char buf[64];
  json_key(w, "vars");
  json_begin_array(w);
  for (int i = 0; i < p->nvars; i++) {
    const StateVar *v = &p->vars[i];
    int n = var_size(v);
    json_begin_object(w);
    json_key(w, "name"); json_string(w, v->name);
    json_key(w, "type"); json_string(w, type_name(v->elem.kind));
    json_key(w, "board"); json_bool(w, v->on_board);
    json_key(w, "pieces"); json_bool(w, p->piece_letters && v->base == p->pieces_base);
    json_key(w, "dims");
    json_begin_array(w);
    for (int d = 0; d < v->ndims; d++) json_int(w, v->dim[d]);
    json_end_array(w);
    json_key(w, "values");
    json_begin_array(w);
    for (int k = 0; k < n; k++) {
      if (s[v->base + k] == INT32_MIN) json_null(w);
      else json_int(w, s[v->base + k]);
    }
    json_end_array(w);
    json_key(w, "text");
    json_begin_array(w);
    for (int k = 0; k < n; k++) {
      if (s[v->base + k] == INT32_MIN) { json_null(w); continue; }
      program_format_value(p, v->elem, s[v->base + k], buf, sizeof buf);
      json_string(w, buf);
    }
    json_end_array(w);
    json_end_object(w);
  }
  json_end_array(w);
}

/* Which variable holds slot s, and its index there; -1 for none. */
static int var_of_slot(const Program *p, int s, int *k) {
  for (int i = 0; i < p->nvars; i++)
    if (s >= p->vars[i].base && s < p->vars[i].base + var_size(&p->vars[i])) {
      *k = s - p->vars[i].base;
      return i;
    }
  return -1;
}

typedef struct Describe {
  Run *r;
  Move *moves;
  uint32_t *weights;
  int32_t *before;
} Describe;

/* The legal moves, each with what it changes: the board cells, and the
** entries of other arrays as [variable, index]. */
static void write_moves(JsonWriter *w, Describe *d, int n, int chance) {
  Game *g = d->r->g;
  const Program *p = d->r->prog;
  char buf[256];
  uint64_t total = 0;
  if (chance) {
    game_weights(g, d->moves, n, d->weights);
    for (int i = 0; i < n; i++) total += d->weights[i];
  }
  memcpy(d->before, game_state(g), g->state_bytes);
  json_key(w, "moves");
  json_begin_array(w);
  for (int i = 0; i < n; i++) {
    json_begin_object(w);
    game_format_move(g, &d->moves[i], buf, sizeof buf);
    json_key(w, "move"); json_string(w, buf);
    game_apply(g, &d->moves[i]);
    const int32_t *after = game_state(g);
    json_key(w, "cells");
    json_begin_array(w);
    for (int s = 1; s < p->nslots; s++) {
      int k, v = var_of_slot(p, s, &k);
      if (after[s] != d->before[s] && v >= 0 && p->vars[v].on_board) json_int(w, k);
    }
    json_end_array(w);
    json_key(w, "entries");
    json_begin_array(w);
    for (int s = 1; s < p->nslots; s++) {
      int k, v = var_of_slot(p, s, &k);
      if (after[s] != d->before[s] && v >= 0 && !p->vars[v].on_board && p->vars[v].ndims > 0) {
        json_begin_array(w); json_int(w, v); json_int(w, k); json_end_array(w);
      }
    }
    json_end_array(w);
    game_undo(g);
    json_key(w, "probability");
    if (chance && total > 0) json_real(w, (double)d->weights[i] / (double)total);
    else json_null(w);
    json_end_object(w);
  }
  json_end_array(w);
}

static int describe(void *arg) {
  Describe *d = arg;
  Run *r = d->r;
  Game *g = r->g;
  const Program *p = r->prog;
  Outcome out;
  JsonWriter w;
  int ended = game_ended(g, &out), n = 0;
  if (!ended) {
    n = game_generate(g, d->moves);
    if (n == 0) {
      game_no_moves(g, &out);
      ended = 1;
    }
  }
  const int32_t *s = game_state(g);
  int mover = game_to_move(g);
  json_init(&w, stdout);
  json_begin_object(&w);
  json_key(&w, "game"); json_string(&w, p->name);
  json_key(&w, "players");
  json_begin_array(&w);
  for (int i = 0; i < g->nplayers; i++) json_string(&w, g->player_names[i]);
  json_end_array(&w);
  write_params(&w, p);
  write_board(&w, p);
  json_key(&w, "pieces");
  if (p->piece_letters) json_string(&w, p->piece_letters);
  else json_null(&w);
  json_key(&w, "position");
  json_begin_array(&w);
  for (int i = 0; i < r->pos.n; i++) json_string(&w, r->pos.moves[i]);
  json_end_array(&w);
  json_key(&w, "ended"); json_bool(&w, ended);
  json_key(&w, "to_move");
  if (ended) json_null(&w);
  else json_string(&w, game_mover_name(g));
  json_key(&w, "payoffs");
  if (ended) {
    json_begin_array(&w);
    for (int i = 0; i < g->nplayers; i++) json_int(&w, out.payoff[i]);
    json_end_array(&w);
  } else {
    json_null(&w);
  }
  write_vars(&w, p, s);
  write_moves(&w, d, n, !ended && mover == GAME_CHANCE);
  json_key(&w, "views");
  if (g->has_views && g->vt->infostate) {
    json_begin_array(&w);
    for (int pl = 0; pl < g->nplayers; pl++) {
      uint64_t key[2];
      size_t len = g->vt->infostate(g, pl, key, NULL, 0);
      char *text = malloc(len + 1);
      if (text == NULL) return diag_out_of_memory(stderr);
      g->vt->infostate(g, pl, key, text, len + 1);
      json_begin_object(&w);
      json_key(&w, "player"); json_string(&w, g->player_names[pl]);
      json_key(&w, "info"); json_string(&w, text);
      free(text);
      /* The position as the player sees it: hidden values drawn '?'. */
      char *seen = NULL;
      size_t seen_len = 0;
      FILE *f = g->vt->print_view ? open_memstream(&seen, &seen_len) : NULL;
      if (f) {
        g->vt->print_view(g, pl, f);
        fclose(f);
      }
      json_key(&w, "text");
      if (seen) json_string(&w, seen);
      else json_null(&w);
      free(seen);
      json_end_object(&w);
    }
    json_end_array(&w);
  } else {
    json_null(&w);
  }
  char *drawing = boardview_text(g);
  if (drawing == NULL) return diag_out_of_memory(stderr);
  json_key(&w, "text"); json_string(&w, drawing);
  free(drawing);
  json_end_object(&w);
  putchar('\n');
  return EXIT_OK;
}

int run_describe(Run *r) {
  Game *g = r->g;
  const Program *p = r->prog;
  if (!r->opt->json)
    return usage_error("%s", "--describe has a JSON form only (--describe --json)");
  if (g->state_bytes != (size_t)p->nslots * sizeof(int32_t))
    return usage_error("--describe reads the rules' own state: give --engine vm (this game "
                       "runs on the %s engine)", g->engine);
  Describe d = { r, malloc(GAME_MAX_MOVES * sizeof(Move)), malloc(GAME_MAX_MOVES * sizeof(uint32_t)),
                 malloc(g->state_bytes) };
  int st = EXIT_OK, failed = 0;
  if (d.moves == NULL || d.weights == NULL || d.before == NULL) st = diag_out_of_memory(stderr);
  else failed = game_call_trapped(g, describe, &d, &st);
  free(d.moves);
  free(d.weights);
  free(d.before);
  if (failed) game_reraise(g);
  return st;
}
