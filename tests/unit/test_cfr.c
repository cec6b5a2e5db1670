/*
** test_cfr.c -- unit tests of the game tree expansion (gametree.c) and
** CFR (cfr.c) on poker engines written here in C against game.h, with
** their information states, so that CFR is tested without the compiler
** and the VM:
**
**   Kuhn   3 cards (J Q K), ante 1, one bet of 1: 12 information sets,
**          value -1/18 for the first player; the uniform strategy's
**          NashConv is 11/12 (derived by hand below).
**   Leduc  OpenSpiel's rules: 6 cards (J Q K in two suits), ante 1, one
**          private card each, a public card after the first round,
**          raises of 2 then 4, at most two a round, fold only facing a
**          bet, pair beats high card: 936 information sets, value
**          -0.0856, uniform NashConv 4.747222.
**
** Both engines keep the moves played as their state and derive the rest
** by replaying them: slow, simple, and plenty for a tree of 10^4 nodes.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "cfr/cfr.h"
#include "cfr/gametree.h"

static int checks, failures;

#define CHECK(cond, ...)                                                   \
  do {                                                                     \
    checks++;                                                              \
    if (!(cond)) {                                                         \
      failures++;                                                          \
      fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__, #cond); \
      fprintf(stderr, __VA_ARGS__);                                        \
      fputc('\n', stderr);                                                 \
    }                                                                      \
  } while (0)

/* ---- the poker engines -------------------------------------------------- */

#define POKER_MAX_MOVES 16
enum { KUHN, LEDUC };
enum { DEAL, ACT };                    /* move rules */
enum { FOLD, CALL, RAISE };            /* Leduc's actions; Kuhn: CALL pass, RAISE bet */

typedef struct Poker {
  Game g;
  int variant;
  int n;                               /* moves played */
  Move hist[POKER_MAX_MOVES];
} Poker;

/* What the moves so far make of the hand. */
typedef struct Hand {
  int card[2], pub;                    /* -1: not dealt */
  int round;                           /* 1, 2 */
  int stakes, ante[2];                 /* the bet to match; each one's stake */
  int raises, calls;                   /* this round's */
  int player;                          /* to act when no card is due */
  int over;                            /* folded or shown down */
  int folded;                          /* who folded, or -1 */
} Hand;

static void replay(const Poker *p, Hand *h) {
  memset(h, 0, sizeof *h);
  h->card[0] = h->card[1] = h->pub = h->folded = -1;
  h->round = 1;
  h->stakes = h->ante[0] = h->ante[1] = 1;
  for (int k = 0; k < p->n; k++) {
    const Move *m = &p->hist[k];
    int who = h->player;
    if (m->rule == DEAL) {
      if (h->card[0] < 0) h->card[0] = m->arg[0];
      else if (h->card[1] < 0) h->card[1] = m->arg[0];
      else h->pub = m->arg[0];
      continue;
    }
    if (m->arg[0] == FOLD) {
      h->folded = who;
      h->over = 1;
    } else if (m->arg[0] == CALL) {
      h->ante[who] = h->stakes;
      h->calls++;
      if (h->calls >= 2 || (h->raises > 0 && h->calls >= 1)) {
        if (p->variant == KUHN || h->round == 2) {
          h->over = 1;
        } else {
          h->round = 2;
          h->raises = h->calls = 0;
          h->player = 0;
        }
      } else {
        h->player = 1 - who;
      }
    } else {
      /* Kuhn's bet ends the betting at the next move: a call or a fold. */
      h->stakes += p->variant == KUHN ? 1 : h->round == 1 ? 2 : 4;
      h->ante[who] = h->stakes;
      h->raises++;
      h->calls = 0;
      h->player = 1 - who;
    }
  }
}

static int dealing(const Poker *p, const Hand *h) {
  return h->card[0] < 0 || h->card[1] < 0 || (p->variant == LEDUC && h->round == 2 && h->pub < 0);
}

static int poker_generate(Game *g, Move *buf) {
  Poker *p = (Poker *)g;
  Hand h;
  int n = 0, ncards = p->variant == KUHN ? 3 : 6;
  replay(p, &h);
  if (h.over) return 0;
  memset(buf, 0, 3 * sizeof *buf);
  if (dealing(p, &h)) {
    for (int c = 0; c < ncards; c++) {
      if (c == h.card[0] || c == h.card[1]) continue;
      memset(&buf[n], 0, sizeof buf[n]);
      buf[n].rule = DEAL;
      buf[n++].arg[0] = (int16_t)c;
    }
    return n;
  }
  if (p->variant == KUHN) {
    /* pass (check or fold), bet (bet or call) */
    buf[0].rule = buf[1].rule = ACT;
    buf[0].arg[0] = h.raises ? FOLD : CALL;
    buf[1].arg[0] = h.raises ? CALL : RAISE;
    return 2;
  }
  if (h.stakes > h.ante[h.player]) { buf[n].rule = ACT; buf[n++].arg[0] = FOLD; }
  buf[n].rule = ACT; buf[n++].arg[0] = CALL;
  if (h.raises < 2) { buf[n].rule = ACT; buf[n++].arg[0] = RAISE; }
  return n;
}

static void poker_apply(Game *g, const Move *m) {
  Poker *p = (Poker *)g;
  p->hist[p->n++] = *m;
}

static void poker_undo(Game *g) { ((Poker *)g)->n--; }

static int rank(const Poker *p, int card) { return p->variant == KUHN ? card : card / 2; }

static int poker_ended(Game *g, Outcome *o) {
  Poker *p = (Poker *)g;
  Hand h;
  replay(p, &h);
  if (!h.over) return 0;
  memset(o, 0, sizeof *o);
  int winner;
  if (h.folded >= 0) {
    winner = 1 - h.folded;
  } else {
    int r0 = rank(p, h.card[0]), r1 = rank(p, h.card[1]), pr = h.pub >= 0 ? rank(p, h.pub) : -1;
    if (r0 == pr) winner = 0;
    else if (r1 == pr) winner = 1;
    else if (r0 == r1) return 1;
    else winner = r0 > r1 ? 0 : 1;
  }
  o->payoff[winner] = h.ante[1 - winner];
  o->payoff[1 - winner] = -h.ante[1 - winner];
  return 1;
}

static void poker_no_moves(Game *g, Outcome *o) { memset(o, 0, sizeof *o); }
static int32_t poker_eval(Game *g) { return 0; }

static int poker_to_move(Game *g) {
  Poker *p = (Poker *)g;
  Hand h;
  replay(p, &h);
  return dealing(p, &h) ? GAME_CHANCE : h.player;
}

static uint64_t fnv(const void *s, size_t n, uint64_t h) {
  const unsigned char *b = s;
  for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * 0x100000001b3u;
  return h;
}

static uint64_t poker_hash(Game *g) {
  Poker *p = (Poker *)g;
  return fnv(p->hist, (size_t)p->n * sizeof *p->hist, 0xcbf29ce484222325u);
}

static const void *poker_state(Game *g) { return ((Poker *)g)->hist; }

static const char *card_name(const Poker *p, int c) {
  static const char *const kuhn[] = { "J", "Q", "K" };
  static const char *const leduc[] = { "Js", "Jh", "Qs", "Qh", "Ks", "Kh" };
  return p->variant == KUHN ? kuhn[c] : leduc[c];
}

static int poker_format(Game *g, const Move *m, char *buf, size_t size) {
  Poker *p = (Poker *)g;
  static const char *const names[2][3] = { { "fold", "pass", "bet" }, { "fold", "call", "raise" } };
  if (m->rule == DEAL) return snprintf(buf, size, "deal %s", card_name(p, m->arg[0]));
  return snprintf(buf, size, "%s", names[p->variant][m->arg[0]]);
}

static void poker_print(Game *g, FILE *f) { fprintf(f, "(%d moves)\n", ((Poker *)g)->n); }

/* What `player` saw: its own card, the public card, every action. */
static size_t poker_infostate(Game *g, int player, uint64_t key[2], char *text, size_t size) {
  Poker *p = (Poker *)g;
  char buf[128];
  size_t len = 0;
  int deals = 0;
  for (int k = 0; k < p->n; k++) {
    const Move *m = &p->hist[k];
    if (m->rule == DEAL) {
      /* The first card is the first player's, the second the second's. */
      if (deals == player || deals == 2)
        len += (size_t)snprintf(buf + len, sizeof buf - len, "%s ", card_name(p, m->arg[0]));
      else
        len += (size_t)snprintf(buf + len, sizeof buf - len, "? ");
      deals++;
    } else {
      buf[len++] = "fcr"[m->arg[0]];
    }
  }
  buf[len] = '\0';
  key[0] = fnv(buf, len, 0xcbf29ce484222325u ^ (uint64_t)player);
  key[1] = fnv(buf, len, 0x84222325cbf29ce4u);
  if (text != NULL && size > 0) snprintf(text, size, "%s", buf);
  return len;
}

static const GameVtable poker_vt = {
  .generate = poker_generate, .apply = poker_apply, .undo = poker_undo, .ended = poker_ended,
  .no_moves = poker_no_moves, .eval = poker_eval, .to_move = poker_to_move, .hash = poker_hash,
  .state = poker_state, .format_move = poker_format, .print = poker_print,
  .infostate = poker_infostate
};

static void poker_destroy(Game *g) { free(g); }

static Game *poker_new(int variant) {
  Poker *p = calloc(1, sizeof *p);
  if (p == NULL) exit(1);
  p->variant = variant;
  p->g.vt = &poker_vt;
  p->g.engine = "test";
  p->g.name = variant == KUHN ? "Kuhn" : "Leduc";
  p->g.nplayers = 2;
  p->g.player_names[0] = "First";
  p->g.player_names[1] = "Second";
  p->g.state_bytes = sizeof p->hist;
  p->g.has_chance = 1;
  p->g.has_views = 1;
  p->g.destroy = poker_destroy;
  return &p->g;
}

/* ---- the tests --------------------------------------------------------- */

static double seconds_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Runs `iters` iterations of CFR (plus) on t; the average strategy's
** first-player value and NashConv. */
static void run(const GameTree *t, int plus, int iters, double *value, double *conv) {
  Cfr c;
  double u[GAME_MAX_PLAYERS], pay[GAME_MAX_PLAYERS];
  double *avg = malloc(t->nactions * sizeof *avg);
  if (avg == NULL || cfr_init(&c, t, plus) != 0) exit(1);
  for (int k = 0; k < iters; k++) cfr_iterate(&c);
  cfr_average(&c, avg);
  cfr_expected(t, avg, u, pay);
  *value = u[0];
  *conv = cfr_nash_conv(&c, avg);
  cfr_free(&c);
  free(avg);
}

/* The poker of `variant` with its tree expanded into *t, which must have
** `infosets` information sets. */
static Game *poker_tree(int variant, GameTree *t, unsigned infosets) {
  const char *name = variant == KUHN ? "Kuhn" : "Leduc";
  Game *g = poker_new(variant);
  CHECK(gametree_build(t, g, 0, NULL, stderr) == 0, "%s expands", name);
  CHECK(t->ninfosets == infosets, "%s: %u information sets", name, t->ninfosets);
  return g;
}

static void test_kuhn(void) {
  GameTree t;
  Game *g = poker_tree(KUHN, &t, 12);
  double v, conv;
  /* 1 + 3 + 6 deals, 6 x (2 + 2 x 2 + 2) betting nodes */
  CHECK(t.nnodes == 58, "Kuhn: %u histories", t.nnodes);
  CHECK(t.zero_sum && !t.margins, "Kuhn is zero-sum");
  /* The uniform strategy (0 iterations): both players lose by 1/8 on
  ** average against the best response... NashConv 11/12. */
  run(&t, 1, 0, &v, &conv);
  CHECK(fabs(v - 0.125) < 1e-12, "uniform Kuhn value %.12f, want 1/8", v);
  CHECK(fabs(conv - 11.0 / 12) < 1e-12, "uniform Kuhn NashConv %.12f, want 11/12", conv);
  run(&t, 1, 2000, &v, &conv);
  CHECK(fabs(v + 1.0 / 18) < 1e-4, "CFR+ Kuhn value %.6f, want -1/18", v);
  CHECK(conv / 2 < 1e-4, "CFR+ Kuhn exploitability %.2e", conv / 2);
  run(&t, 0, 10000, &v, &conv);
  CHECK(fabs(v + 1.0 / 18) < 2e-3, "vanilla CFR Kuhn value %.6f, want -1/18", v);
  CHECK(conv / 2 < 5e-3, "vanilla CFR Kuhn exploitability %.2e", conv / 2);
  /* The text and moves of a set. */
  uint64_t key[2];
  g->vt->apply(g, &(Move){ .rule = DEAL, .arg = { 2 } });
  g->vt->apply(g, &(Move){ .rule = DEAL, .arg = { 0 } });
  gametree_key(g, 0, key, NULL, 0);
  int64_t I = gametree_find(&t, 0, key);
  CHECK(I >= 0 && strcmp(gametree_infoset_text(&t, (uint32_t)I), "K ? ") == 0, "K's set: '%s'",
        I >= 0 ? gametree_infoset_text(&t, (uint32_t)I) : "-");
  CHECK(I >= 0 && t.infosets[I].nactions == 2
        && strcmp(gametree_move_name(&t, t.infosets[I].action + 1), "bet") == 0, "K's moves");
  gametree_free(&t);
  g->destroy(g);
}

static void test_leduc(void) {
  GameTree t;
  Game *g = poker_tree(LEDUC, &t, 936);
  double v, conv;
  run(&t, 1, 0, &v, &conv);
  CHECK(fabs(conv - 4.747222) < 1e-6, "uniform Leduc NashConv %.7f, want 4.747222", conv);
  /* CFR+ to exploitability 1e-3, checked every 10 iterations. */
  Cfr c;
  double *avg = malloc(t.nactions * sizeof *avg), u[2], pay[2], t0 = seconds_now(), expl = 1;
  if (avg == NULL || cfr_init(&c, &t, 1) != 0) exit(1);
  while (expl >= 1e-3 && c.iterations < 5000) {
    for (int k = 0; k < 10; k++) cfr_iterate(&c);
    cfr_average(&c, avg);
    expl = cfr_nash_conv(&c, avg) / 2;
  }
  double secs = seconds_now() - t0;
  cfr_expected(&t, avg, u, pay);
  CHECK(expl < 1e-3, "CFR+ Leduc exploitability %.2e after %llu iterations", expl,
        (unsigned long long)c.iterations);
  CHECK(fabs(u[0] + 0.0856) < 1e-3, "CFR+ Leduc value %.5f, want -0.0856", u[0]);
  printf("leduc: %u histories, %u infosets; CFR+ exploitability %.2e after %llu iterations in "
         "%.3f s\n", t.nnodes, t.ninfosets, expl, (unsigned long long)c.iterations, secs);
  t0 = seconds_now();
  for (int k = 0; k < 200; k++) cfr_iterate(&c);
  printf("leduc: %.0f CFR+ iterations/s\n", 200 / (seconds_now() - t0));
  cfr_free(&c);
  free(avg);
  gametree_free(&t);
  g->destroy(g);
}

int main(void) {
  test_kuhn();
  test_leduc();
  printf("%d passed, %d failed\n", checks - failures, failures);
  return failures != 0;
}
