/*
** grundy.c -- Grundy values by a memoised depth-first walk (grundy.h).
**
** Each position is entered once: its value is kept in a table keyed by
** its state (with the VM, the state without the player to move, which an
** impartial game ignores).  A position on the current line is marked
** open; meeting it again is a cycle, for which Grundy values (finite,
** without loops) are not defined.
**
** What makes a game impartial, as checked here:
**  - declared: two players, no chance, no payoffs, no hidden information,
**    no repetition rule (grundy_refusal);
**  - at every position entered: an end (`end` or `nomoves`) is a loss for
**    the player to move (normal play: whoever cannot move loses), and with
**    the VM (the state's slot 0 is the player to move + 1), the same position
**    with the other player to move has the same moves, each leading to the
**    same position but for the player to move, and ends alike.  The rules
**    may read `mover`, as long as what they decide does not depend on it.
*/
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "solve/grundy.h"
#include "util/diag.h"
#include "util/status.h"
#include "util/stop.h"

void grundy_init(Grundy *gr, Game *g, int base_ply, FILE *err) {
  memset(gr, 0, sizeof *gr);
  gr->g = g;
  gr->base_ply = base_ply;
  gr->err = err;
  gr->set.key_bytes = g->state_bytes;
  gr->seq_n = -1;
  gr->misere = -1;
  walk_init(&gr->walk, g);
}

void grundy_free(Grundy *gr) {
  walk_free(&gr->walk);
  size_t key_bytes = gr->set.key_bytes;
  keyset_free(&gr->set);
  gr->set.key_bytes = key_bytes;
  free(gr->val);
  free(gr->child);
  free(gr->line_idx);
  free(gr->mark);
  free(gr->swapped);
  free(gr->buf);
  free(gr->moves);
  free(gr->move_value);
  gr->val = gr->child = gr->line_idx = gr->move_value = NULL;
  gr->mark = gr->buf = NULL;
  gr->swapped = gr->moves = NULL;
  gr->val_cap = gr->child_cap = gr->line_cap = 0;
  free(gr->comp_val);
  free(gr->comp_status);
  free(gr->comp_star);
  gr->comp_star = NULL;
  free(gr->kids);
  gr->kids = NULL;
  free(gr->stack);
  free(gr->mbuf);
  gr->comp_val = NULL;
  gr->comp_status = NULL;
  gr->stack = NULL;
  gr->mbuf = NULL;
  gr->comp_cap = gr->stack_len = gr->stack_cap = 0;
}

const char *grundy_refusal(const Game *g) {
  if (g->nplayers != 2) return "it does not have two players";
  if (g->has_chance) return "it has chance moves";
  if (g->has_rewards) return "it has per-move payoffs";
  if (g->has_views) return "it hides information (views)";
  if (g->has_history) return "it has a repetition rule";
  return NULL;
}

/* Reports the error, takes back the walk's moves and returns status. */
static int fail(Grundy *gr, int status, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  gr->status = diag_vfail(gr->err, status, fmt, ap);
  va_end(ap);
  walk_unwind(&gr->walk);
  return gr->status;
}

static int not_impartial(Grundy *gr, const char *why) {
  if (gr->components)
    return fail(gr, EXIT_USAGE, "--grundy needs an impartial game under normal play: %s "
                "(at the component of entry %d alone)", why, (int)gr->cur_entry);
  return fail(gr, EXIT_USAGE, "--grundy needs an impartial game under normal play: %s "
              "(at a position %d plies from the root)", why, gr->ply_here);
}

/* Grows *p (elements of size sz) to hold n; 0, or -1 out of memory. */
static int grow(void **p, size_t *cap, size_t n, size_t sz) {
  if (n <= *cap) return 0;
  size_t c = *cap ? *cap : 256;
  while (c < n) c *= 2;
  void *q = realloc(*p, c * sz);
  if (q == NULL) return -1;
  *p = q;
  *cap = c;
  return 0;
}

/* The VM's state: slot 0 is the player to move + 1. */
static int mover_in_slot0(const Game *g) {
  return g->vt->set_state != NULL && g->state_bytes >= sizeof(int32_t)
         && (strcmp(g->engine, "vm") == 0 || strcmp(g->engine, "compiled") == 0);
}

/* An end (o) that is not a loss for the player to move: reported. */
static int end_refused(Grundy *gr, const Outcome *o) {
  int m = game_to_move(gr->g);
  if (m >= 0 && o->payoff[m] < o->payoff[1 - m]) return EXIT_OK;
  return not_impartial(gr, "an `end` that is not a loss for the player to move");
}

/* 1 if the position ends, with the mover losing; 0 if it goes on; -1
** (reported) if it ends otherwise. */
static int ends(Grundy *gr, int *code) {
  Outcome o;
  *code = EXIT_OK;
  if (!game_ended(gr->g, &o)) return 0;
  return (*code = end_refused(gr, &o)) == EXIT_OK ? 1 : -1;
}

/* The current position with the other player to move: the same ends and
** moves, each to the same position but for the player to move.  EXIT_OK
** or the error reported: the n moves mv of the position (none: it has
** no moves, and the other player must have none either). */
static int check_swap_moves(Grundy *gr, const Move *mv, int n, const uint64_t *kids);

/* A digest of a state without its slot 0 (the player to move). */
static uint64_t digest(const unsigned char *s, size_t sb) {
  uint64_t h = 14695981039346656037ull;
  for (size_t i = sizeof(int32_t); i < sb; i++) h = (h ^ s[i]) * 1099511628211ull;
  return h;
}

/* kids: NULL, or the digests of the positions the moves lead to, which
** the caller made (then only the swapped side plays them: a collision of
** two digests could hide a difference, never invent one). */
static int check_swap_moves(Grundy *gr, const Move *mv, int n, const uint64_t *kids) {
  Game *g = gr->g;
  size_t sb = g->state_bytes;
  unsigned char *a = gr->buf, *b = a + sb, *c1 = b + sb, *c2 = c1 + sb;
  Outcome oa, ob;
  int32_t m;
  memcpy(a, game_state(g), sb);
  memcpy(&m, a, sizeof m);
  if (m != 1 && m != 2) return EXIT_OK;   /* slot 0 holds the player to move + 1 */
  memcpy(b, a, sb);
  m = 3 - m;
  memcpy(b, &m, sizeof m);
  int ea = game_ended(g, &oa);
  g->vt->set_state(g, b);
  int eb = game_ended(g, &ob), nb = ea || eb ? 0 : game_generate(g, gr->swapped);
  const char *why = NULL;
  if (ea != eb) why = "whether the game has ended depends on the player to move";
  else if (!ea && (nb != n || (n && memcmp(gr->swapped, mv, (size_t)n * sizeof *mv) != 0)))
    why = "the legal moves depend on the player to move";
  for (int i = 0; why == NULL && i < n && !ea; i++) {
    if (kids) {
      game_apply(g, &mv[i]);   /* from b: undo brings b back */
      int same = digest(game_state(g), sb) == kids[i];
      game_undo(g);
      if (!same) why = "a move's effect depends on the player to move";
      continue;
    }
    g->vt->set_state(g, a);
    game_apply(g, &mv[i]);
    memcpy(c1, game_state(g), sb);
    game_undo(g);
    g->vt->set_state(g, b);
    game_apply(g, &mv[i]);
    memcpy(c2, game_state(g), sb);
    game_undo(g);
    if (memcmp(c1 + sizeof m, c2 + sizeof m, sb - sizeof m) != 0)
      why = "a move's effect depends on the player to move";
  }
  g->vt->set_state(g, a);
  return why ? not_impartial(gr, why) : EXIT_OK;
}

/* The least value not among v[0..n). */
static uint32_t mex(Grundy *gr, const uint32_t *v, int n) {
  memset(gr->mark, 0, (size_t)n + 1);
  for (int i = 0; i < n; i++)
    if (v[i] <= (uint32_t)n) gr->mark[v[i]] = 1;
  uint32_t x = 0;
  while (gr->mark[x]) x++;
  return x;
}

static int oom(Grundy *gr) {
  return fail(gr, EXIT_LIMIT, "out of memory after %llu positions",
              (unsigned long long)gr->positions);
}

/* The walk's buffers: one position's moves, marks and children, and 7
** states (check_swap's 4, before, the root, a component).  0, or what
** oom() returns. */
static int alloc_buffers(Grundy *gr, size_t sb) {
  gr->mover_checked = 1;
  gr->mark = malloc(GAME_MAX_MOVES + 1);
  gr->buf = malloc(7 * sb);
  gr->swapped = malloc(GAME_MAX_MOVES * sizeof *gr->swapped);
  gr->mbuf = malloc(GAME_MAX_MOVES * sizeof *gr->mbuf);
  gr->child = malloc(GAME_MAX_MOVES * sizeof *gr->child);
  gr->child_cap = GAME_MAX_MOVES;
  gr->kids = malloc(GAME_MAX_MOVES * sizeof *gr->kids);
  if (!gr->mark || !gr->buf || !gr->swapped || !gr->mbuf || !gr->child || !gr->kids) return oom(gr);
  return 0;
}

int grundy_check_begin(Grundy *gr) {
  const char *why = grundy_refusal(gr->g);
  if (why) return gr->status = diag_fail(gr->err, EXIT_USAGE, "--grundy needs an impartial "
                                         "game under normal play: %s", why);
  if (gr->buf) return EXIT_OK;
  int st = alloc_buffers(gr, gr->g->state_bytes);
  gr->mover_checked = mover_in_slot0(gr->g);
  return st;
}

int grundy_check_here(Grundy *gr, int ply, int ended, const Outcome *o, const Move *mv, int n) {
  Game *g = gr->g;
  gr->ply_here = ply;
  if (ended) {
    if (end_refused(gr, o) != EXIT_OK) return gr->status;
  } else if (n == 0) {
    Outcome none;
    int m = game_to_move(g);
    game_no_moves(g, &none);
    if (m < 0 || none.payoff[m] >= none.payoff[1 - m])
      return not_impartial(gr, "a position without moves that is not a loss for the "
                           "player to move (misère play or a draw)");
  }
  return gr->mover_checked ? check_swap_moves(gr, mv, ended ? 0 : n, NULL) : EXIT_OK;
}

static int grundy_walk(Grundy *gr) {
  Game *g = gr->g;
  Walk *w = &gr->walk;
  size_t sb = g->state_bytes;
  int swap = mover_in_slot0(g);
  uint32_t last = 0;
  int code;

  gr->status = EXIT_OK;
  if ((code = grundy_check_begin(gr)) != EXIT_OK) return code;
  for (int e = walk_begin(w); e != WALK_DONE; e = walk_step(w)) {
    if (e == WALK_BACK) {
      WalkFrame *f = walk_frame(w, w->ply);
      gr->child[f->mbase + (size_t)f->i] = last;
      continue;
    }
    if (e == WALK_LEAVE) {
      WalkFrame *f = walk_frame(w, w->ply);
      last = mex(gr, gr->child + f->mbase, f->nmoves);
      gr->val[gr->line_idx[w->ply]] = last;
      if (w->ply == 0) {
        gr->nmoves = f->nmoves;
        gr->moves = malloc((size_t)f->nmoves * sizeof *gr->moves);
        gr->move_value = malloc((size_t)f->nmoves * sizeof *gr->move_value);
        if (gr->moves == NULL || gr->move_value == NULL) return oom(gr);
        memcpy(gr->moves, w->ms.moves + f->mbase, (size_t)f->nmoves * sizeof *gr->moves);
        memcpy(gr->move_value, gr->child + f->mbase, (size_t)f->nmoves * sizeof *gr->move_value);
      }
      continue;
    }
    /* WALK_NODE: valued already, on the line (a cycle), an end, or new. */
    gr->nodes++;
    unsigned char *key = gr->buf + 2 * sb;   /* c1's room, free between checks */
    memcpy(key, game_state(g), sb);
    if (swap) memset(key, 0, sizeof(int32_t));
    uint32_t idx;
    int added = keyset_add(&gr->set, key, &idx);
    if (added < 0) return oom(gr);
    if (!added) {
      if (gr->val[idx] == GRUNDY_OPEN)
        return fail(gr, EXIT_USAGE, GRUNDY_CYCLE " (%d plies from the root)", w->ply);
      last = gr->val[idx];
      continue;
    }
    gr->positions++;
    if (grow((void **)&gr->val, &gr->val_cap, gr->set.n, sizeof *gr->val) != 0) return oom(gr);
    if (gr->memory_limit && keyset_bytes(&gr->set) > gr->memory_limit)
      return fail(gr, EXIT_LIMIT, "memory limit of %zu MiB reached after %llu positions; "
                  "raise --memory", gr->memory_limit >> 20, (unsigned long long)gr->positions);
    gr->val[idx] = GRUNDY_OPEN;
    if (stop_requested) {
      char msg[160];
      return fail(gr, stop_message(msg, sizeof msg, gr->positions, "positions"), "%s", msg);
    }
    Outcome o;
    int end = game_ended(g, &o), n = 0;
    size_t mbase = w->ms.top;
    if (!end && (n = walk_expand(w)) < 0) return oom(gr);
    code = grundy_check_here(gr, w->ply, end, &o, w->ms.moves + mbase, n);
    if (code != EXIT_OK) return code;
    if (end || n == 0) {
      gr->val[idx] = last = 0;
      if (w->ply == 0) gr->nmoves = 0;
      continue;
    }
    if (gr->base_ply + w->ply >= GAME_MAX_PLY)
      return fail(gr, EXIT_LIMIT, "a line of play is longer than %d plies (GAME_MAX_PLY)",
                  GAME_MAX_PLY);
    if (grow((void **)&gr->child, &gr->child_cap, w->ms.top, sizeof *gr->child) != 0
        || grow((void **)&gr->line_idx, &gr->line_cap, (size_t)w->ply + 1, sizeof *gr->line_idx) != 0)
      return oom(gr);
    gr->line_idx[w->ply] = idx;
  }
  gr->value = last;
  return EXIT_OK;
}

/* ---- sums: `components V;` ---------------------------------------- */

/* The entries of the array in the current state. */
static const int32_t *entries(Grundy *gr) {
  return (const int32_t *)game_state(gr->g) + gr->g->comp_slot;
}

/* Makes the component position of entry value v the current one: the
** root's state with the array empty but entry 0 = v, the first player to
** move.  base is the root's state. */
static void set_component(Grundy *gr, const unsigned char *base, int32_t v) {
  Game *g = gr->g;
  size_t sb = g->state_bytes;
  unsigned char *s = gr->buf + 6 * sb;
  int32_t one = 1;
  memcpy(s, base, sb);
  memset(s + (size_t)g->comp_slot * sizeof(int32_t), 0, (size_t)g->comp_count * sizeof(int32_t));
  memcpy(s + (size_t)g->comp_slot * sizeof(int32_t), &v, sizeof v);
  memcpy(s, &one, sizeof one);
  g->vt->set_state(g, s);
}

/* Room for entry values 0..v. */
static int comp_room(Grundy *gr, int32_t v) {
  size_t old = gr->comp_cap;
  if ((size_t)v < gr->comp_cap) return 0;
  if (grow((void **)&gr->comp_val, &old, (size_t)v + 1, sizeof *gr->comp_val) != 0) return -1;
  old = gr->comp_cap;
  size_t cap = gr->comp_cap;
  if (grow((void **)&gr->comp_status, &cap, (size_t)v + 1, 1) != 0) return -1;
  memset(gr->comp_status + old, 0, cap - old);
  cap = gr->comp_cap;
  if (grow((void **)&gr->comp_star, &cap, (size_t)v + 1, 1) != 0) return -1;
  gr->comp_cap = cap;
  return 0;
}

static int push(Grundy *gr, int32_t v) {
  if (grow((void **)&gr->stack, &gr->stack_cap, gr->stack_len + 1, sizeof *gr->stack) != 0) return -1;
  gr->stack[gr->stack_len++] = v;
  return 0;
}

/* The XOR of the known values of the current position's entries; -1 when
** some entry's value is not known yet (*missing gets it). */
static int64_t sum_value(Grundy *gr, int32_t *missing) {
  const int32_t *e = entries(gr);
  uint32_t x = 0;
  for (int i = 0; i < gr->g->comp_count; i++) {
    if (e[i] == 0) continue;
    if ((size_t)e[i] >= gr->comp_cap || gr->comp_status[e[i]] != 2) { *missing = e[i]; return -1; }
    x ^= gr->comp_val[e[i]];
  }
  return x;
}

/* Values entry value v (and what it needs), depth first on an explicit
** stack: a value is expanded (its moves' unknown entries pushed), then
** valued once they are known. */
static int value_component(Grundy *gr, const unsigned char *base, int32_t v0) {
  Game *g = gr->g;
  size_t sb = g->state_bytes;
  unsigned char *before = gr->buf + 4 * sb;
  int code;
  if (comp_room(gr, v0) != 0 || push(gr, v0) != 0) return oom(gr);
  while (gr->stack_len > 0) {
    int32_t v = gr->stack[gr->stack_len - 1];
    if (gr->comp_status[v] == 2) { gr->stack_len--; continue; }
    if (stop_requested) {
      char msg[160];
      return fail(gr, stop_message(msg, sizeof msg, gr->positions, "positions"), "%s", msg);
    }
    set_component(gr, base, v);
    gr->cur_entry = v;
    gr->nodes++;
    int end = ends(gr, &code);
    if (end < 0) return code;
    int n = end ? 0 : game_generate(g, gr->mbuf);
    if (n == 0 && (code = check_swap_moves(gr, gr->mbuf, 0, NULL)) != EXIT_OK) return code;
    if (n == 0) {
      Outcome o;
      if (!end) {
        game_no_moves(g, &o);
        int win = o.payoff[0] > o.payoff[1];
        if (gr->misere < 0) gr->misere = win;   /* the empty position (v 0) decides */
        if (o.payoff[0] == o.payoff[1] || win != gr->misere)
          return not_impartial(gr, win ? "a position without moves that is a win for the player "
                               "to move where another is a loss" : "a position without moves that "
                               "is not a loss for the player to move (a draw, or a loss where "
                               "another is a win)");
      } else if (gr->misere == 1) {
        return not_impartial(gr, "an `end` in a misère game");
      } else {
        gr->misere = 0;
      }
      gr->comp_val[v] = 0;
      gr->comp_star[v] = 1;
      gr->comp_status[v] = 2;
      gr->positions++;
      gr->stack_len--;
      continue;
    }
    if (v == 0)
      return fail(gr, EXIT_USAGE, "--grundy: the components' empty position (every entry of "
                  "the array 0) has moves: an entry of 0 must be an empty game");
    int first = gr->comp_status[v] == 0, waiting = 0, star = 1;
    memcpy(before, game_state(g), sb);
    for (int i = 0; i < n; i++) {
      game_apply(g, &gr->mbuf[i]);
      const unsigned char *after = game_state(g);
      if (memcmp(before + sizeof(int32_t), after + sizeof(int32_t),
                 (size_t)g->comp_slot * sizeof(int32_t) - sizeof(int32_t)) != 0
          || memcmp(before + (size_t)(g->comp_slot + g->comp_count) * sizeof(int32_t),
                    after + (size_t)(g->comp_slot + g->comp_count) * sizeof(int32_t),
                    sb - (size_t)(g->comp_slot + g->comp_count) * sizeof(int32_t)) != 0) {
        game_undo(g);
        return fail(gr, EXIT_USAGE, "--grundy: a move of a component changes the state outside "
                    "the components' array: the position is not a sum of its entries");
      }
      const int32_t *e = entries(gr);
      gr->kids[i] = digest(after, sb);
      int64_t sum = 0;
      for (int j = 0; j < g->comp_count; j++) sum += e[j];
      if (v - sum > gr->max_drop) gr->max_drop = (int32_t)(v - sum);
      for (int j = 0; j < g->comp_count; j++) {
        int32_t c = e[j];
        if (c == 0) continue;
        if (c < 0 || comp_room(gr, c) != 0) { game_undo(g); return oom(gr); }
        if (gr->comp_status[c] == 2) continue;
        if (gr->comp_status[c] == 1 || c == v) {
          game_undo(g);
          return fail(gr, EXIT_USAGE, "--grundy needs a game that ends: a component of value "
                      "%d comes back to %d", (int)v, (int)c);
        }
        if (!first) { game_undo(g); return fail(gr, EXIT_LIMIT, "component %d not valued (a fault)", (int)c); }
        if (push(gr, c) != 0) { game_undo(g); return oom(gr); }
        waiting = 1;
      }
      if (!waiting) {
        int32_t miss;
        int parts = 0;
        gr->child[i] = (uint32_t)sum_value(gr, &miss);
        for (int j = 0; j < g->comp_count; j++)
          if (e[j] != 0) { parts++; star &= gr->comp_star[e[j]]; }
        star &= parts <= 1;
      }
      game_undo(g);
    }
    /* The mover swapped, once: at the first visit, all moves played. */
    if (first && (code = check_swap_moves(gr, gr->mbuf, n, gr->kids)) != EXIT_OK) return code;
    if (waiting) { gr->comp_status[v] = 1; continue; }
    gr->comp_val[v] = mex(gr, gr->child, n);
    /* A Nim heap of G: its options are Nim heaps of exactly 0..G-1. */
    for (int i = 0; i < n; i++) star &= gr->child[i] < gr->comp_val[v];
    gr->comp_star[v] = (unsigned char)star;
    gr->comp_status[v] = 2;
    gr->positions++;
    gr->stack_len--;
  }
  return EXIT_OK;
}

/* Values the entries e[0..comp_count) not valued yet; the engine is at
** base after. */
static int value_entries(Grundy *gr, const unsigned char *base, const int32_t *e) {
  for (int j = 0; j < gr->g->comp_count; j++) {
    if (e[j] < 0) return fail(gr, EXIT_USAGE, "--grundy: a component's entry is negative");
    if (e[j] == 0 || ((size_t)e[j] < gr->comp_cap && gr->comp_status[e[j]] == 2)) continue;
    int code = value_component(gr, base, e[j]);
    gr->g->vt->set_state(gr->g, base);
    if (code != EXIT_OK) return code;
  }
  return EXIT_OK;
}

/* The XOR of the entries' values; *loses: Bouton's misère rule for Nim
** heaps: the player to move loses when the XOR is 0 and some heap is 2 or
** more, or when every heap is 0 or 1 and the XOR is 1.  Entries that are
** not Nim heaps are counted in gr->not_star (misere_check). */
static uint32_t sum_entries(Grundy *gr, const int32_t *e, int *loses) {
  uint32_t x = 0;
  int big = 0;
  for (int j = 0; j < gr->g->comp_count; j++) {
    if (e[j] == 0) continue;
    x ^= gr->comp_val[e[j]];
    big |= gr->comp_val[e[j]] >= 2;
    if (!gr->comp_star[e[j]] && gr->not_star == 0) gr->not_star = e[j];
  }
  *loses = big ? x == 0 : x == 1;
  return x;
}

/* Misère play needs Nim heaps: the root's and its moves' entries. */
static int misere_check(Grundy *gr) {
  if (gr->not_star == 0) return EXIT_OK;
  return fail(gr, EXIT_USAGE, "--grundy: misère play is solved for sums of Nim heaps only "
              "(Bouton's rule); the component %d is not a Nim heap (docs/cgt.md)",
              (int)gr->not_star);
}

/* The root as a sum: every entry valued, XORed; each root move's value. */
static int grundy_sum(Grundy *gr) {
  Game *g = gr->g;
  size_t sb = g->state_bytes;
  unsigned char *base;   /* the root's state, kept to the end */
  int code;
  gr->status = EXIT_OK;
  gr->components = 1;
  int st = alloc_buffers(gr, sb);
  if (st != 0) return st;
  base = gr->buf + 5 * sb;
  memcpy(base, game_state(g), sb);
  /* The root's moves. */
  int n = game_generate(g, gr->mbuf);
  gr->nmoves = n;
  gr->moves = malloc((size_t)(n ? n : 1) * sizeof *gr->moves);
  gr->move_value = malloc((size_t)(n ? n : 1) * sizeof *gr->move_value);
  if (!gr->moves || !gr->move_value) return oom(gr);
  memcpy(gr->moves, gr->mbuf, (size_t)n * sizeof *gr->moves);
  /* The root's entries, then each move's: valued as they come, one
  ** position's entries held at a time. */
  size_t cc = (size_t)g->comp_count;
  int32_t *ent = malloc(2 * cc * sizeof *ent), *kid = ent + cc;
  if (!ent) return oom(gr);
  memcpy(ent, entries(gr), cc * sizeof *ent);
  /* The empty position first: it must be a loss for the player to move. */
  if ((code = value_component(gr, base, 0)) != EXIT_OK) goto out;
  if ((code = value_entries(gr, base, ent)) != EXIT_OK) goto out;
  /* The declaration's test: the root's moves are its components' moves. */
  uint64_t compmoves = 0;
  for (size_t j = 0; j < cc; j++) {
    if (ent[j] == 0) continue;
    set_component(gr, base, ent[j]);
    Outcome o;
    if (!game_ended(g, &o)) compmoves += (uint64_t)game_generate(g, gr->mbuf);
  }
  g->vt->set_state(g, base);
  if (compmoves != (uint64_t)n) {
    code = fail(gr, EXIT_USAGE, "--grundy: the position has %d moves but its components %llu "
                "together: the position is not the sum of its entries", n,
                (unsigned long long)compmoves);
    goto out;
  }
  int loses = 0;
  gr->value = sum_entries(gr, ent, &loses);
  gr->misere_win = !loses;
  for (int i = 0; i < n && code == EXIT_OK; i++) {
    game_apply(g, &gr->moves[i]);
    memcpy(kid, entries(gr), cc * sizeof *kid);
    game_undo(g);
    if ((code = value_entries(gr, base, kid)) != EXIT_OK) break;
    gr->move_value[i] = sum_entries(gr, kid, &loses);
    /* Misère: 0 for a move to a loss (a winning move), else 1. */
    if (gr->misere == 1) gr->move_value[i] = loses ? 0 : 1;
  }
  if (code == EXIT_OK && gr->misere == 1) code = misere_check(gr);
out:
  free(ent);
  g->vt->set_state(g, base);
  return gr->status = code;
}

/* ---- --grundy-sequence ---------------------------------------------- */

/* The smallest period p, and with it the smallest pre-period e, such that
** G(n + p) = G(n) for e <= n <= N - p and the range checked reaches the
** Guy-Smith bound: for an octal game whose moves take at most t tokens,
** G(n + p) = G(n) for every n in e .. 2e + p + t - 1 proves it for every
** n >= e (Winning Ways, ch. 4).  0 when no period is proven. */
static void find_period(Grundy *gr) {
  int N = gr->seq_n, t = gr->max_drop;
  gr->period = gr->preperiod = 0;
  for (int p = 1; p <= N; p++) {
    int e = N - p + 1;   /* the first n from which every later one agrees */
    while (e > 0 && gr->comp_val[e - 1] == gr->comp_val[e - 1 + p]) e--;
    if (2 * (int64_t)e + p + t - 1 <= (int64_t)N - p) {
      gr->period = p;
      gr->preperiod = e;
      return;
    }
  }
}

static int grundy_sequence(Grundy *gr) {
  Game *g = gr->g;
  size_t sb = g->state_bytes;
  int code;
  gr->status = EXIT_OK;
  gr->components = 1;
  int st = alloc_buffers(gr, sb);
  if (st != 0) return st;
  unsigned char *base = gr->buf + 5 * sb;
  memcpy(base, game_state(g), sb);
  for (int32_t v = 0; v <= gr->seq_n; v++) {
    if (g->vt->invalid) {
      char why[256];
      set_component(gr, base, v);
      int bad = g->vt->invalid(g, why, sizeof why);
      g->vt->set_state(g, base);
      if (bad)
        return fail(gr, EXIT_USAGE, "--grundy-sequence %d: a component of %d is not a position "
                    "of the game (%s): give parameters whose array holds %d (octal.game: -D n=%d)",
                    gr->seq_n, (int)v, why, gr->seq_n, gr->seq_n);
    }
    if ((size_t)v < gr->comp_cap && gr->comp_status[v] == 2) continue;
    code = value_component(gr, base, v);
    g->vt->set_state(g, base);
    if (code != EXIT_OK) return code;
  }
  find_period(gr);
  gr->value = gr->comp_val[gr->seq_n];
  return EXIT_OK;
}

int grundy_run(Grundy *gr) {
  const char *why = grundy_refusal(gr->g);
  if (why) return gr->status = diag_fail(gr->err, EXIT_USAGE, "--grundy needs an impartial "
                                         "game under normal play: %s", why);
  if (gr->g->comp_count > 0) {
    if (!mover_in_slot0(gr->g))
      return gr->status = diag_fail(gr->err, EXIT_USAGE, "--grundy: components are solved with "
                                    "the VM (--engine vm or compiled)");
    return gr->seq_n >= 0 ? grundy_sequence(gr) : grundy_sum(gr);
  }
  if (gr->seq_n >= 0)
    return gr->status = diag_fail(gr->err, EXIT_USAGE, "--grundy-sequence needs a game that "
                                  "declares its components (components V;: language.md 4.14c)");
  return grundy_walk(gr);
}
