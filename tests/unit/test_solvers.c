/*
** test_solvers.c -- unit tests of the value encoding, the solvers, the
** transposition table, perft, count, --position parsing and the JSON
** writer, on the C test engines of testgames.c.
**
** The central check: alphabeta (with a big table, a one-bucket table and
** none, with and without all_moves) must give exactly minimax's answer
** -- value, plies, and the set of optimal moves -- on every position of
** hundreds of random game graphs.  Nim results are also checked against
** an independent memoized solver written here on heap counts.
*/
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "solve/alphabeta.h"
#include "search/count.h"
#include "gsolve.h"
#include "util/json.h"
#include "solve/minimax.h"
#include "search/perft.h"
#include "game/position.h"
#include "search/search.h"
#include "testgames.h"
#include "search/tt.h"
#include "search/value.h"
#include "search/walk.h"
#include "util/diag.h"

static int checks, failures;

#define CHECK(cond)                                                       \
  do {                                                                    \
    checks++;                                                             \
    if (!(cond)) {                                                        \
      failures++;                                                         \
      fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__,   \
              #cond);                                                     \
    }                                                                     \
  } while (0)

enum { MINIMAX, ALPHABETA };

/* Solves g's current position into s (freed and re-initialized). */
static int solve(Search *s, Game *g, int solver, Tt *tt, int all, FILE *err) {
  search_free(s);
  search_init(s, g, 0, err);
  return solver == MINIMAX ? minimax_solve(s) : alphabeta_solve(s, tt, all);
}

/* Alphabeta's variants: every move ordering, root method and ETC
** setting (18 in all); eval ordering near the root only, in half. */
#define NVARIANTS 18

static void variant_options(AbOptions *o, int v, int all, int depth) {
  alphabeta_options(o);
  o->order = (AbOrder)(v % 3);
  o->root = (AbRoot)(v / 3 % 3);
  o->etc = v / 9;
  if (v % 2) o->eval_plies = 2;
  o->all_moves = all;
  o->depth = depth;
}

static int solve_variant(Search *s, Game *g, Tt *tt, int all, int v,
                         int depth) {
  AbOptions o;
  search_free(s);
  search_init(s, g, 0, stderr);
  variant_options(&o, v, all, depth);
  return alphabeta_run(s, tt, &o);
}

static void decode(Value v, int64_t *score, int64_t *plies) {
  value_decode(v, score, plies);
}

/* Same root value, same moves, same optimal set; with `all`, the same
** value for every move; else the same value wherever both are exact. */
static int same_result(const SolveResult *a, const SolveResult *b, int all) {
  if (a->terminal != b->terminal || a->value != b->value
      || a->nmoves != b->nmoves || a->nbest != b->nbest)
    return 0;
  for (int i = 0; i < a->nmoves; i++) {
    if (memcmp(&a->moves[i], &b->moves[i], sizeof(Move)) != 0) return 0;
    if (a->best[i] != b->best[i]) return 0;
    if (all && !(a->exact[i] && b->exact[i])) return 0;
    if (a->exact[i] && b->exact[i] && a->values[i] != b->values[i]) return 0;
  }
  return 1;
}

/* The notations of the optimal moves, comma-separated. */
static const char *best_text(Game *g, const SolveResult *r, char *buf,
                             size_t size) {
  size_t len = 0;
  buf[0] = '\0';
  for (int i = 0; i < r->nmoves; i++) {
    if (!r->best[i]) continue;
    if (len > 0) len += (size_t)snprintf(buf + len, size - len, ", ");
    len += (size_t)game_format_move(g, &r->moves[i], buf + len, size - len);
  }
  return buf;
}

/* ---- value encoding ----------------------------------------------- */

/* The order of the spec, directly: +1 if (s1, p1) is better for `mover`
** than (s2, p2), -1 if worse, 0 if equal. */
static int spec_compare(int mover, int s1, int p1, int s2, int p2) {
  if (s1 != s2) return s1 > s2 ? 1 : -1;
  if (p1 == p2) return 0;
  if (s1 > 0 || (s1 == 0 && mover == 0)) return p1 < p2 ? 1 : -1;
  return p1 > p2 ? 1 : -1;
}

static void test_value(void) {
  for (int m = 0; m < 2; m++)
    for (int s1 = -3; s1 <= 3; s1++)
      for (int p1 = 0; p1 < 6; p1++) {
        Value k1 = value_make(s1, p1, m);
        int64_t s, p;
        value_decode(k1, &s, &p);
        CHECK(s == s1 && p == p1);
        /* Zero-sum: one player's key is the other's, negated. */
        CHECK(value_make(-s1, p1, 1 - m) == -k1);
        CHECK(value_shift(value_shift(k1, m, 7), m, -7) == k1);
        value_decode(value_shift(k1, m, 7), &s, &p);
        CHECK(s == s1 && p == p1 + 7);
        for (int s2 = -3; s2 <= 3; s2++)
          for (int p2 = 0; p2 < 6; p2++) {
            Value k2 = value_make(s2, p2, m);
            int c = k1 > k2 ? 1 : k1 < k2 ? -1 : 0;
            CHECK(c == spec_compare(m, s1, p1, s2, p2));
          }
      }
  {
    /* Extremes: clamped scores and the deepest plies still decode. */
    int64_t s, p;
    value_decode(value_make(INT64_C(1) << 40, GAME_MAX_PLY, 1), &s, &p);
    CHECK(s == VALUE_SCORE_MAX && p == GAME_MAX_PLY);
    value_decode(value_make(-VALUE_SCORE_MAX, GAME_MAX_PLY, 0), &s, &p);
    CHECK(s == -VALUE_SCORE_MAX && p == GAME_MAX_PLY);
    CHECK(value_make(VALUE_SCORE_MAX, 0, 0) < VALUE_INF);
  }
  {
    Outcome o;
    int64_t s, p;
    memset(&o, 0, sizeof o);
    o.payoff[0] = 3;
    o.payoff[1] = 5;
    value_decode(value_from_outcome(&o, 2, 0, 4), &s, &p);
    CHECK(s == -2 && p == 4);
    value_decode(value_from_outcome(&o, 2, 1, 4), &s, &p);
    CHECK(s == 2 && p == 4);
    value_decode(value_from_outcome(&o, 1, 0, 9), &s, &p);
    CHECK(s == 3 && p == 9);
  }
  CHECK(strcmp(value_verdict(2), "win") == 0);
  CHECK(strcmp(value_verdict(-1), "loss") == 0);
  CHECK(strcmp(value_verdict(0), "draw") == 0);
}

/* ---- transposition table ------------------------------------------ */

static void test_tt(void) {
  Tt *t = tt_new(0);          /* a single bucket: replacement at work */
  TtEntry e;
  uint64_t k1 = 1, k2 = 2, k3 = 3, k4 = 4;
  unsigned char wide[12] = { 1 };
  CHECK(t != NULL && tt_prepare(t, sizeof k1) == 0);
  CHECK(!tt_probe(t, 7, &k1, &e));
  tt_store(t, 7, &k1, 10, 10, 3, TT_DRAFT_EXACT, 1000);
  CHECK(tt_probe(t, 7, &k1, &e) && e.lower == 10 && e.upper == 10
        && e.move == 3 && e.draft == TT_DRAFT_EXACT);
  /* The same hash with another key is another position: no hit. */
  CHECK(!tt_probe(t, 7, &k2, &e));
  tt_store(t, 7, &k2, 20, TT_NO_BOUND, 1, TT_DRAFT_EXACT, 10);  /* slot 1 */
  CHECK(tt_probe(t, 7, &k1, &e) && e.lower == 10);
  CHECK(tt_probe(t, 7, &k2, &e) && e.lower == 20 && e.upper == TT_NO_BOUND);
  tt_store(t, 7, &k3, -TT_NO_BOUND, 30, 0, TT_DRAFT_EXACT, 5);  /* replaces 2 */
  CHECK(tt_probe(t, 7, &k1, &e) && !tt_probe(t, 7, &k2, &e)
        && tt_probe(t, 7, &k3, &e) && e.upper == 30);
  tt_store(t, 7, &k4, 40, 40, 0, TT_DRAFT_EXACT, 5000);  /* more work: 1 moves down */
  CHECK(tt_probe(t, 7, &k4, &e) && tt_probe(t, 7, &k1, &e)
        && !tt_probe(t, 7, &k3, &e));
  /* Bounds of one draft merge (the tighter of each stays), and a store
  ** without a move keeps the stored one. */
  tt_store(t, 7, &k1, 5, 12, TT_NO_MOVE, TT_DRAFT_EXACT, 1);
  CHECK(tt_probe(t, 7, &k1, &e) && e.lower == 10 && e.upper == 10
        && e.move == 3 && tt_probe(t, 7, &k4, &e));
  tt_store(t, 7, &k4, -TT_NO_BOUND, 50, TT_NO_MOVE, TT_DRAFT_EXACT, 1);
  CHECK(tt_probe(t, 7, &k4, &e) && e.lower == 40 && e.upper == 40);
  /* Another draft replaces the bounds. */
  tt_store(t, 7, &k4, 1, 2, TT_NO_MOVE, 3, 1);
  CHECK(tt_probe(t, 7, &k4, &e) && e.lower == 1 && e.upper == 2
        && e.draft == 3 && e.move == 0);
  CHECK(tt_stats(t)->hits > 0 && tt_stats(t)->probes > tt_stats(t)->hits);
  {
    size_t cap, used = tt_used(t, &cap);
    CHECK(used == 2 && cap == 2);
  }
  /* A new key size clears the table. */
  CHECK(tt_prepare(t, sizeof wide) == 0);
  CHECK(tt_used(t, NULL) == 0 && !tt_probe(t, 7, wide, &e));
  tt_store(t, 7, wide, 1, 1, 0, TT_DRAFT_EXACT, 1);
  wide[11] = 9;
  CHECK(!tt_probe(t, 7, wide, &e));
  wide[11] = 0;
  CHECK(tt_probe(t, 7, wide, &e));
  tt_clear(t);
  CHECK(!tt_probe(t, 7, wide, &e));
  tt_free(t);
  t = tt_new(1);
  CHECK(t != NULL && tt_prepare(t, 4) == 0);
  {
    size_t cap;
    tt_used(t, &cap);
    CHECK(cap == ((size_t)1 << 20) / 32);   /* 32-byte entries */
  }
  tt_free(t);
}

/* ---- Nim: an independent solver on heap counts -------------------- */

typedef struct NimValue {
  int score, plies;          /* for the player to move */
  int known;
} NimValue;

static int nim_index(const int *h, const int *max, int n) {
  int idx = 0;
  for (int i = 0; i < n; i++) idx = idx * (max[i] + 1) + h[i];
  return idx;
}

static NimValue nim_value(int *h, const int *max, int n, NimValue *memo) {
  NimValue *v = &memo[nim_index(h, max, n)];
  if (v->known) return *v;
  v->known = 1;
  v->score = -1;               /* no move: the mover loses, now */
  v->plies = 0;
  int any = 0;
  for (int i = 0; i < n; i++)
    for (int c = 1; c <= h[i]; c++) {
      h[i] -= c;
      NimValue ch = nim_value(h, max, n, memo);
      h[i] += c;
      int s = -ch.score, p = ch.plies + 1;
      if (!any || spec_compare(0, s, p, v->score, v->plies) > 0) {
        v->score = s;
        v->plies = p;
      }
      any = 1;
    }
  return *v;
}

/* Nim 1,3,5,7 and all of its 384 sub-configurations: alphabeta (one
** table for all, as values do not depend on the path) against the
** independent solver; a loss exactly when the XOR of the heaps is 0. */
static void test_nim_configurations(void) {
  const int max[4] = { 1, 3, 5, 7 };
  NimValue *memo = calloc(384, sizeof *memo);
  Tt *tt = tt_new(4);
  Search s, m;
  int configs = 0, losses = 0;
  search_init(&s, NULL, 0, stderr);
  search_init(&m, NULL, 0, stderr);
  for (int a = 0; a <= 1; a++)
    for (int b = 0; b <= 3; b++)
      for (int c = 0; c <= 5; c++)
        for (int d = 0; d <= 7; d++) {
          int h[4] = { a, b, c, d };
          Game *g = nim_new(4, h);
          NimValue want = nim_value(h, max, 4, memo);
          int64_t score, plies;
          configs++;
          CHECK(solve(&s, g, ALPHABETA, tt, 0, stderr) == EXIT_OK);
          decode(s.result.value, &score, &plies);
          CHECK(score == want.score && plies == want.plies);
          CHECK((score < 0) == ((a ^ b ^ c ^ d) == 0));
          losses += score < 0;
          /* Each optimal move leads to a position worth exactly that. */
          for (int i = 0; i < s.result.nmoves; i++) {
            const Move *mv = &s.result.moves[i];
            int hh[4] = { a, b, c, d };
            hh[mv->arg[0]] -= mv->arg[1];
            NimValue ch = nim_value(hh, max, 4, memo);
            int opt = -ch.score == want.score && ch.plies + 1 == want.plies;
            CHECK(s.result.best[i] == opt);
          }
          if (a + b + c + d <= 7) {
            CHECK(solve(&m, g, MINIMAX, NULL, 0, stderr) == EXIT_OK);
            CHECK(same_result(&s.result, &m.result, 0));
          }
          if (a + b + c + d == 16) {
            char buf[512];
            CHECK(score == -1 && plies == 16);
            CHECK(strcmp(value_verdict(score), "loss") == 0);
            /* The loser prolongs: only single stones keep 16 plies. */
            printf("nim 1,3,5,7: loss in %" PRId64 " plies, best: %s, "
                   "nodes %" PRIu64 "\n", plies,
                   best_text(g, &s.result, buf, sizeof buf), s.nodes);
          }
          testgame_free(g);
        }
  CHECK(configs == 384);
  printf("nim: %d configurations, %d losses\n", configs, losses);
  search_free(&s);
  search_free(&m);
  tt_free(tt);
  free(memo);
}

/* Perft and count on Nim against direct computation on heap counts. */
static uint64_t nim_perft(int *h, int n, int depth) {
  uint64_t total = 0;
  if (depth == 0) return 1;
  for (int i = 0; i < n; i++)
    for (int c = 1; c <= h[i]; c++) {
      h[i] -= c;
      total += nim_perft(h, n, depth - 1);
      h[i] += c;
    }
  return total;
}

/* Positions of Nim are heap counts and the player to move: marks the
** (configuration, mover) pairs reachable from h. */
static void nim_reach(int *h, int n, int mover, char *seen, uint64_t *count) {
  int idx = mover;
  for (int i = 0; i < n; i++) idx = idx * 8 + h[i];
  if (seen[idx]) return;
  seen[idx] = 1;
  ++*count;
  for (int i = 0; i < n; i++)
    for (int c = 1; c <= h[i]; c++) {
      h[i] -= c;
      nim_reach(h, n, 1 - mover, seen, count);
      h[i] += c;
    }
}

static void test_nim_perft_count(void) {
  const int sets[][4] = { { 1, 3, 5, 7 }, { 2, 2, 0, 0 }, { 4, 1, 3, 0 },
                          { 0, 0, 0, 0 } };
  for (size_t k = 0; k < sizeof sets / sizeof sets[0]; k++) {
    int h[4];
    uint64_t want = 0;
    char *seen = calloc(2 * 8 * 8 * 8 * 8, 1);
    Game *g;
    Perft p;
    Count c;
    memcpy(h, sets[k], sizeof h);
    g = nim_new(4, h);
    nim_reach(h, 4, 0, seen, &want);
    free(seen);
    perft_init(&p, g, 0, stderr);
    for (int d = 0; d <= 5; d++) {
      CHECK(perft_run(&p, d) == EXIT_OK);
      CHECK(p.count == nim_perft(h, 4, d));
    }
    perft_free(&p);
    count_init(&c, g, 0, stderr);
    CHECK(count_run(&c) == EXIT_OK);
    CHECK(c.positions == want);
    /* The empty heaps are terminal, with either player to move (or only
    ** the first, if the start is empty). */
    CHECK(c.terminal == (uint64_t)(h[0] + h[1] + h[2] + h[3] > 1 ? 2 : 1));
    count_free(&c);
    testgame_free(g);
  }
  {
    /* Known numbers: Nim 1,3,5,7 has 16 moves at the start and 384
    ** heap configurations; with the player to move in the state, 752
    ** positions (a configuration one stone short of the start, say, only
    ** comes with the second player to move); perft 1 of heaps 1,2 is 3. */
    int h[4] = { 1, 3, 5, 7 }, h2[2] = { 1, 2 };
    Game *g = nim_new(4, h), *g2 = nim_new(2, h2);
    Perft p;
    Count c;
    perft_init(&p, g, 0, stderr);
    CHECK(perft_run(&p, 1) == EXIT_OK && p.count == 16 && p.nodes == 17);
    CHECK(perft_run(&p, 0) == EXIT_OK && p.count == 1 && p.nodes == 1);
    perft_free(&p);
    count_init(&c, g, 0, stderr);
    CHECK(count_run(&c) == EXIT_OK && c.positions == 752 && c.terminal == 2);
    count_free(&c);
    perft_init(&p, g2, 0, stderr);
    CHECK(perft_run(&p, 1) == EXIT_OK && p.count == 3);
    /* Depth 4 from 1,2: sequences of single stones only: 3 ways. */
    CHECK(perft_run(&p, 3) == EXIT_OK && p.count == 3);
    CHECK(perft_run(&p, 4) == EXIT_OK && p.count == 0);
    perft_free(&p);
    testgame_free(g);
    testgame_free(g2);
  }
}

/* ---- Coins: margins, draws, extra turns --------------------------- */

static void test_coins(void) {
  const int rows[][8] = { { 1, 2 }, { 1, 1 }, { 3, 0, 2, 5, 0, 1 },
                          { 2, 0, 0, 2, 1, 1, 3, 0 }, { 0, 0, 0 },
                          { 5, 1, 0, 4, 2, 2, 0, 3 } };
  const int lens[] = { 2, 2, 6, 8, 3, 8 };
  Search a, b;
  Tt *tt = tt_new(1);
  char buf[256];
  int64_t score, plies;
  search_init(&a, NULL, 0, stderr);
  search_init(&b, NULL, 0, stderr);
  for (size_t k = 0; k < sizeof lens / sizeof lens[0]; k++) {
    Game *g = coins_new(lens[k], rows[k]);
    for (int all = 0; all <= 1; all++) {
      CHECK(solve(&a, g, MINIMAX, NULL, all, stderr) == EXIT_OK);
      CHECK(solve(&b, g, ALPHABETA, tt, all, stderr) == EXIT_OK);
      CHECK(same_result(&a.result, &b.result, all));
      CHECK(solve(&b, g, ALPHABETA, NULL, all, stderr) == EXIT_OK);
      CHECK(same_result(&a.result, &b.result, all));
      for (int v = 0; v < NVARIANTS; v++) {
        CHECK(solve_variant(&b, g, v % 2 ? tt : NULL, all, v, 0) == EXIT_OK);
        CHECK(same_result(&a.result, &b.result, all));
      }
    }
    decode(a.result.value, &score, &plies);
    if (k == 0) {        /* take the 2, leave the 1: +1 after 2 plies */
      CHECK(score == 1 && plies == 2);
      CHECK(strcmp(best_text(g, &a.result, buf, sizeof buf), "right") == 0);
    } else if (k == 1) { /* a draw either way */
      CHECK(score == 0 && plies == 2 && a.result.nbest == 2);
    } else if (k == 4) { /* zeros only: one player takes all, a draw */
      CHECK(score == 0 && plies == 3);
    }
    testgame_free(g);
  }
  search_free(&a);
  search_free(&b);
  tt_free(tt);
}

/* ---- Graphs: hand-made orders, random cross-checks ---------------- */

static GraphNode leaf(int p0, int p1) {
  GraphNode n;
  memset(&n, 0, sizeof n);
  n.ended = 1;
  n.payoff[0] = p0;
  n.payoff[1] = p1;
  return n;
}

static GraphNode inner(int mover, int nkids, int k0, int k1, int k2) {
  GraphNode n;
  memset(&n, 0, sizeof n);
  n.mover = mover;
  n.nkids = nkids;
  n.kid[0] = k0;
  n.kid[1] = k1;
  n.kid[2] = k2;
  return n;
}

/* Solves nodes[0] with both solvers; checks they agree and the result. */
static void check_graph(const GraphNode *nodes, int n, int nplayers,
                        int want_score, int want_plies, const char *want_best) {
  Game *g = graph_new(nodes, n, 0, nplayers);
  Search a, b;
  char buf[256];
  int64_t score, plies;
  search_init(&a, NULL, 0, stderr);
  search_init(&b, NULL, 0, stderr);
  CHECK(solve(&a, g, MINIMAX, NULL, 1, stderr) == EXIT_OK);
  CHECK(solve(&b, g, ALPHABETA, NULL, 0, stderr) == EXIT_OK);
  CHECK(same_result(&a.result, &b.result, 0));
  decode(a.result.value, &score, &plies);
  CHECK(score == want_score && plies == want_plies);
  best_text(g, &a.result, buf, sizeof buf);
  if (strcmp(buf, want_best) != 0)
    fprintf(stderr, "  best: got '%s', want '%s'\n", buf, want_best);
  CHECK(strcmp(buf, want_best) == 0);
  search_free(&a);
  search_free(&b);
  testgame_free(g);
}

static void test_graph_orders(void) {
  GraphNode t[8];
  /* A draw: the first player wants it short ... */
  t[0] = inner(0, 2, 1, 2, 0);
  t[1] = leaf(0, 0);
  t[2] = inner(1, 1, 3, 0, 0);
  t[3] = leaf(0, 0);
  check_graph(t, 4, 2, 0, 1, "m0");
  /* ... the second long. */
  t[0].mover = 1;
  t[2].mover = 0;
  check_graph(t, 4, 2, 0, 2, "m1");
  /* A win: sooner is better, but a bigger margin comes first. */
  t[0] = inner(0, 3, 1, 3, 4);
  t[1] = inner(1, 1, 2, 0, 0);
  t[2] = leaf(3, 0);
  t[3] = leaf(1, 0);
  t[4] = leaf(2, 1);
  check_graph(t, 5, 2, 3, 2, "m0");
  t[2] = leaf(1, 0);
  check_graph(t, 5, 2, 1, 1, "m1, m2");
  /* A loss: later is better. */
  t[0] = inner(0, 2, 1, 2, 0);
  t[1] = leaf(0, 1);
  t[2] = inner(1, 1, 3, 0, 0);
  t[3] = leaf(0, 1);
  check_graph(t, 4, 2, -1, 2, "m1");
  /* The same player moves twice: no negation in between. */
  t[0] = inner(0, 2, 1, 4, 0);
  t[1] = inner(0, 2, 2, 3, 0);
  t[2] = leaf(2, 0);
  t[3] = leaf(0, 1);
  t[4] = leaf(1, 0);
  check_graph(t, 5, 2, 2, 2, "m0");
  /* ... and seen from the second player. */
  t[0].mover = 1;
  t[1].mover = 1;
  check_graph(t, 5, 2, 1, 2, "m0");
  /* One player: the payoff is the score. */
  t[0] = inner(0, 3, 1, 2, 4);
  t[1] = leaf(3, 0);
  t[2] = inner(0, 1, 3, 0, 0);
  t[3] = leaf(3, 0);
  t[4] = leaf(-1, 0);
  check_graph(t, 5, 1, 3, 1, "m0");
  t[1] = leaf(0, 0);
  t[3] = leaf(0, 0);
  check_graph(t, 5, 1, 0, 1, "m0");
  t[4] = leaf(-1, 0);
  t[1] = leaf(-2, 0);
  t[3] = leaf(-1, 0);
  check_graph(t, 5, 1, -1, 2, "m1");
  /* A terminal root; a root without moves. */
  t[0] = leaf(0, 4);
  check_graph(t, 1, 2, -4, 0, "");
  t[0] = leaf(5, 1);
  t[0].ended = 0;
  check_graph(t, 1, 2, 4, 0, "");
  {
    /* Three players: not for these solvers. */
    Game *g;
    Search s;
    t[0] = inner(0, 1, 1, 0, 0);
    t[1] = leaf(0, 0);
    g = graph_new(t, 2, 0, 2);
    g->nplayers = 3;
    search_init(&s, g, 0, NULL);
    CHECK(minimax_solve(&s) == EXIT_USAGE);
    CHECK(alphabeta_solve(&s, NULL, 0) == EXIT_USAGE);
    search_free(&s);
    testgame_free(g);
  }
}

/* Perft and count on a graph, directly. */
static uint64_t graph_perft(const GraphNode *nd, int node, int depth) {
  uint64_t total = 0;
  if (depth == 0) return 1;
  if (nd[node].ended) return 0;
  for (int j = 0; j < nd[node].nkids; j++)
    total += graph_perft(nd, nd[node].kid[j], depth - 1);
  return total;
}

static void graph_reach(const GraphNode *nd, int node, char *seen,
                        uint64_t *positions, uint64_t *terminal) {
  if (seen[node]) return;
  seen[node] = 1;
  ++*positions;
  if (nd[node].ended || nd[node].nkids == 0) {
    ++*terminal;
    return;
  }
  for (int j = 0; j < nd[node].nkids; j++)
    graph_reach(nd, nd[node].kid[j], seen, positions, terminal);
}

static void test_random_graphs(void) {
  Tt *big = tt_new(2), *tiny = tt_new(0);
  Search a, b;
  int positions = 0, nonterminal = 0;
  uint64_t mm_nodes = 0, ab_nodes = 0;
  search_init(&a, NULL, 0, stderr);
  search_init(&b, NULL, 0, stderr);
  for (uint64_t seed = 1; seed <= 400; seed++) {
    int width = 2 + (int)(seed % 9), layers = 3 + (int)(seed * 7 % 8);
    int nplayers = seed % 5 == 0 ? 1 : 2;
    Game *g = graph_random(seed, width, layers, nplayers, 0);
    int n;
    const GraphNode *nd = graph_nodes(g, &n);
    /* Every node of the first layers as a root. */
    for (int root = 0; root < 3 * width && root < n; root++) {
      graph_set_node(g, root);
      positions++;
      CHECK(solve(&a, g, MINIMAX, NULL, 0, stderr) == EXIT_OK);
      CHECK(graph_node(g) == root);
      nonterminal += !a.result.terminal;
      mm_nodes += a.nodes;
      for (int all = 0; all <= 1; all++) {
        Tt *tables[3] = { big, tiny, NULL };
        for (int t = 0; t < 3; t++) {
          int v = (int)(seed + (uint64_t)root * 3 + (uint64_t)t) % NVARIANTS;
          CHECK(solve(&b, g, ALPHABETA, tables[t], all, stderr) == EXIT_OK);
          CHECK(graph_node(g) == root);
          CHECK(same_result(&a.result, &b.result, all));
          if (t == 0 && all == 0) ab_nodes += b.nodes;
          CHECK(solve_variant(&b, g, tables[t], all, v, 0) == EXIT_OK);
          CHECK(graph_node(g) == root);
          CHECK(same_result(&a.result, &b.result, all));
        }
      }
      if (root < width) {
        Perft p;
        Count c;
        uint64_t pos = 0, term = 0;
        char *seen = calloc((size_t)n, 1);
        perft_init(&p, g, 0, stderr);
        for (int d = 0; d <= 4; d++) {
          CHECK(perft_run(&p, d) == EXIT_OK);
          CHECK(p.count == graph_perft(nd, root, d));
        }
        perft_free(&p);
        count_init(&c, g, 0, stderr);
        CHECK(count_run(&c) == EXIT_OK);
        graph_reach(nd, root, seen, &pos, &term);
        CHECK(c.positions == pos && c.terminal == term);
        CHECK(graph_node(g) == root);
        count_free(&c);
        free(seen);
      }
    }
    testgame_free(g);
    /* Graphs hash by node number alone: a table serves one graph. */
    tt_free(big);
    tt_free(tiny);
    big = tt_new(2);
    tiny = tt_new(0);
  }
  /* A few bigger, deeper graphs, solved from their first node only. */
  for (uint64_t seed = 1000; seed < 1030; seed++) {
    int width = 6 + (int)(seed % 9), layers = 10 + (int)(seed % 4);
    Game *g = graph_random(seed, width, layers, seed % 7 == 0 ? 1 : 2,
                           GRAPH_BUSHY);
    Tt *tt = tt_new(1), *one = tt_new(0);
    positions++;
    CHECK(solve(&a, g, MINIMAX, NULL, 0, stderr) == EXIT_OK);
    nonterminal += !a.result.terminal;
    mm_nodes += a.nodes;
    for (int all = 0; all <= 1; all++) {
      CHECK(solve(&b, g, ALPHABETA, tt, all, stderr) == EXIT_OK);
      CHECK(same_result(&a.result, &b.result, all));
      if (all == 0) ab_nodes += b.nodes;
      CHECK(solve(&b, g, ALPHABETA, one, all, stderr) == EXIT_OK);
      CHECK(same_result(&a.result, &b.result, all));
      for (int v = 0; v < NVARIANTS; v++) {
        CHECK(solve_variant(&b, g, v % 3 == 0 ? one : tt, all, v, 0)
              == EXIT_OK);
        CHECK(same_result(&a.result, &b.result, all));
      }
    }
    tt_free(tt);
    tt_free(one);
    testgame_free(g);
  }
  printf("random graphs: %d roots (%d non-terminal) agree; nodes minimax "
         "%" PRIu64 ", alphabeta %" PRIu64 "\n", positions, nonterminal,
         mm_nodes, ab_nodes);
  search_free(&a);
  search_free(&b);
  tt_free(big);
  tt_free(tiny);
}

/* ---- Depth-limited search ------------------------------------------ */

/* The reference for alphabeta's depth N: plain negamax to the horizon,
** where a position that is not terminal is worth its eval. */
static Value ref_depth(Game *g, int ply, int depth) {
  Move moves[64];
  Outcome o;
  int mover = game_to_move(g), n;
  Value best = -VALUE_INF;
  if (game_ended(g, &o))
    return alphabeta_proven(value_from_outcome(&o, g->nplayers, mover, ply));
  n = game_generate(g, moves);
  if (n == 0) {
    game_no_moves(g, &o);
    return alphabeta_proven(value_from_outcome(&o, g->nplayers, mover, ply));
  }
  if (ply >= depth) return alphabeta_horizon(game_eval(g), depth, mover);
  for (int i = 0; i < n; i++) {
    Value v;
    game_apply(g, &moves[i]);
    v = ref_depth(g, ply + 1, depth);
    if (game_to_move(g) != mover) v = -v;
    game_undo(g);
    if (v > best) best = v;
  }
  return best;
}

/* Alphabeta's result at depth `depth` against the reference. */
static int same_as_reference(Game *g, const SolveResult *r, int depth,
                             int all) {
  Move moves[64];
  Value want[64], top = -VALUE_INF;
  int n = game_generate(g, moves);
  if (r->terminal) return n == 0 || game_ended(g, &(Outcome){ { 0 } });
  if (n != r->nmoves) return 0;
  for (int i = 0; i < n; i++) {
    game_apply(g, &moves[i]);
    want[i] = ref_depth(g, 1, depth);
    if (game_to_move(g) != r->mover) want[i] = -want[i];
    game_undo(g);
    if (want[i] > top) top = want[i];
  }
  if (r->value != top) return 0;
  for (int i = 0; i < n; i++) {
    if (r->best[i] != (want[i] == top)) return 0;
    if (all && !r->exact[i]) return 0;
    if (r->exact[i] && r->values[i] != want[i]) return 0;
  }
  return 1;
}

static void test_depth_limited(void) {
  Search s;
  int solves = 0, heuristic = 0;
  search_init(&s, NULL, 0, stderr);
  {
    /* The encoding: proven wins and losses beyond every eval; a proven
    ** draw and an eval of 0 apart. */
    int64_t score, plies;
    int proven;
    Value win = alphabeta_proven(value_make(1, 9, 0));
    Value loss = alphabeta_proven(value_make(-1, 9, 1));
    Value high = alphabeta_horizon(INT32_MAX, 4, 0);
    Value zero = alphabeta_horizon(0, 4, 0);
    Value draw = alphabeta_proven(value_make(0, 4, 0));
    CHECK(win > high && loss < -high && draw != zero);
    CHECK(alphabeta_horizon(-7, 4, 1) == -alphabeta_horizon(7, 4, 0));
    alphabeta_decode(win, 12, &score, &plies, &proven);
    CHECK(score == 1 && plies == 9 && proven);
    alphabeta_decode(loss, 12, &score, &plies, &proven);
    CHECK(score == -1 && plies == 9 && proven);
    alphabeta_decode(alphabeta_horizon(-35, 4, 1), 4, &score, &plies,
                     &proven);
    CHECK(score == -35 && plies == 5 && !proven);
    alphabeta_decode(draw, 4, &score, &plies, &proven);
    CHECK(score == 0 && plies == 4 && proven);
    alphabeta_decode(value_make(2, 7, 0), 0, &score, &plies, &proven);
    CHECK(score == 2 && plies == 7 && proven);
  }
  for (uint64_t seed = 1; seed <= 120; seed++) {
    int width = 2 + (int)(seed % 7), layers = 4 + (int)(seed * 5 % 7);
    Game *g = graph_random(seed, width, layers, seed % 6 == 0 ? 1 : 2,
                           seed % 2 ? GRAPH_BUSHY : 0);
    Tt *big = tt_new(1), *tiny = tt_new(0);
    for (int root = 0; root < 2 * width; root++) {
      graph_set_node(g, root);
      for (int depth = 1; depth <= 5; depth++)
        for (int all = 0; all <= 1; all++) {
          Tt *tables[3] = { big, tiny, NULL };
          int t = (int)(seed + (uint64_t)depth) % 3;
          int v = (int)(seed * 7 + (uint64_t)(root + depth + all)) % NVARIANTS;
          int64_t score, plies;
          int proven;
          CHECK(solve_variant(&s, g, tables[t], all, v, depth) == EXIT_OK);
          CHECK(graph_node(g) == root);
          CHECK(same_as_reference(g, &s.result, depth, all));
          alphabeta_decode(s.result.value, depth, &score, &plies, &proven);
          heuristic += !proven;
          solves++;
        }
    }
    tt_free(big);
    tt_free(tiny);
    testgame_free(g);
  }
  {
    /* Games without eval (every horizon worth 0): ties everywhere. */
    const int row[8] = { 3, 0, 2, 5, 0, 1, 4, 2 };
    int heaps[3] = { 2, 3, 4 };
    Game *games[2] = { coins_new(8, row), nim_new(3, heaps) };
    Tt *tt = tt_new(1);
    for (int k = 0; k < 2; k++) {
      /* A horizon beyond the longest game (8 and 9 plies): every value
      ** proven, and the same as the exact solve's. */
      Search m;
      search_init(&m, NULL, 0, stderr);
      CHECK(solve(&m, games[k], MINIMAX, NULL, 1, stderr) == EXIT_OK);
      CHECK(solve_variant(&s, games[k], tt, 1, k, 10) == EXIT_OK);
      CHECK(s.result.nbest == m.result.nbest && s.result.nmoves == m.result.nmoves);
      for (int i = 0; i < s.result.nmoves; i++) {
        int64_t sa, pa, sb, pb;
        int proven;
        alphabeta_decode(s.result.values[i], 10, &sa, &pa, &proven);
        value_decode(m.result.values[i], &sb, &pb);
        CHECK(proven && sa == sb && pa == pb);
        CHECK(s.result.best[i] == m.result.best[i]);
      }
      search_free(&m);
      for (int depth = 1; depth <= 6; depth++)
        for (int v = 0; v < NVARIANTS; v++) {
          CHECK(solve_variant(&s, games[k], v % 2 ? tt : NULL, v % 4 == 0,
                              v, depth) == EXIT_OK);
          CHECK(same_as_reference(games[k], &s.result, depth, v % 4 == 0));
          solves++;
        }
      testgame_free(games[k]);
    }
    tt_free(tt);
  }
  printf("depth-limited: %d solves agree with the reference (%d roots "
         "worth an eval)\n", solves, heuristic);
  search_free(&s);
}

/* Hashes that collide almost always (2 bits): a table that trusted them
** would mix positions up; comparing keys, the answers must not change. */
static void test_collisions(void) {
  Search a, b;
  search_init(&a, NULL, 0, stderr);
  search_init(&b, NULL, 0, stderr);
  testgame_set_hash_mask(3);
  for (uint64_t seed = 1; seed <= 80; seed++) {
    Game *g = graph_random(seed, 3 + (int)(seed % 6), 6 + (int)(seed % 5),
                           2, GRAPH_BUSHY);
    Tt *big = tt_new(1), *tiny = tt_new(0);
    for (int all = 0; all <= 1; all++) {
      CHECK(solve(&a, g, MINIMAX, NULL, all, stderr) == EXIT_OK);
      for (int v = (int)seed % 3; v < NVARIANTS; v += 3) {
        CHECK(solve_variant(&b, g, v % 2 ? big : tiny, all, v, 0) == EXIT_OK);
        CHECK(same_result(&a.result, &b.result, all));
        CHECK(solve_variant(&b, g, big, all, v, 3) == EXIT_OK);
        CHECK(same_as_reference(g, &b.result, 3, all));
      }
    }
    tt_free(big);
    tt_free(tiny);
    testgame_free(g);
  }
  {
    int heaps[4] = { 1, 3, 5, 4 };
    Game *g = nim_new(4, heaps);
    Tt *tt = tt_new(1);
    CHECK(solve(&a, g, MINIMAX, NULL, 1, stderr) == EXIT_OK);
    CHECK(solve(&b, g, ALPHABETA, tt, 1, stderr) == EXIT_OK);
    CHECK(same_result(&a.result, &b.result, 1));
    CHECK(tt_stats(tt)->hits > 0);
    tt_free(tt);
    testgame_free(g);
  }
  testgame_set_hash_mask(~(uint64_t)0);
  search_free(&a);
  search_free(&b);
}

/* ---- Limits: cycles and depth ------------------------------------- */

static void test_cycles(void) {
  GraphNode t[3];
  Game *g;
  Search s;
  Count c;
  Perft p;
  t[0] = inner(0, 1, 1, 0, 0);
  t[1] = inner(1, 2, 0, 2, 0);
  t[2] = leaf(1, 0);
  g = graph_new(t, 3, 0, 2);
  {
    FILE *err = tmpfile();
    char msg[512];
    size_t n;
    search_init(&s, g, 0, err);
    CHECK(minimax_solve(&s) == EXIT_LIMIT);
    rewind(err);
    n = fread(msg, 1, sizeof msg - 1, err);
    msg[n] = '\0';
    fclose(err);
    CHECK(strcmp(msg, "gsolve: error: position repeats along a line of "
                 "play; this game has cycles, which the minimax and "
                 "alphabeta solvers cannot solve (retrograde analysis "
                 "can: --solver retro)\n") == 0);
    s.err = NULL;
  }
  CHECK(graph_node(g) == 0);
  CHECK(alphabeta_solve(&s, NULL, 0) == EXIT_LIMIT);
  CHECK(graph_node(g) == 0);
  search_free(&s);
  count_init(&c, g, 0, stderr);
  CHECK(count_run(&c) == EXIT_OK && c.positions == 3 && c.terminal == 1);
  count_free(&c);
  perft_init(&p, g, 0, stderr);
  for (int d = 0; d <= 9; d++) {
    CHECK(perft_run(&p, d) == EXIT_OK);
    CHECK(p.count == graph_perft(t, 0, d));
  }
  perft_free(&p);
  testgame_free(g);

  /* Random graphs with back edges: every solve either agrees or both
  ** solvers report the cycle (alphabeta may prune it away). */
  for (uint64_t seed = 1; seed <= 60; seed++) {
    Game *cg = graph_random(seed, 4, 5, 2, GRAPH_CYCLIC);
    Search a;
    int st;
    search_init(&a, cg, 0, NULL);
    st = minimax_solve(&a);
    CHECK(st == EXIT_OK || st == EXIT_LIMIT);
    CHECK(graph_node(cg) == 0);
    st = alphabeta_solve(&a, NULL, 0);
    CHECK(st == EXIT_OK || st == EXIT_LIMIT);
    CHECK(graph_node(cg) == 0);
    search_free(&a);
    testgame_free(cg);
  }
}

/* A chain of `len` moves: exactly GAME_MAX_PLY is fine, one more is not. */
static void test_depth(void) {
  int n = GAME_MAX_PLY + 2;
  GraphNode *t = calloc((size_t)n, sizeof *t);
  for (int len = GAME_MAX_PLY; len <= GAME_MAX_PLY + 1; len++) {
    int ok = len <= GAME_MAX_PLY;
    Game *g;
    Search s;
    Count c;
    Perft p;
    memset(t, 0, (size_t)n * sizeof *t);
    for (int i = 0; i < len; i++) t[i] = inner(i % 2, 1, i + 1, 0, 0);
    t[len] = leaf(1, 0);
    Tt *tt = tt_new(8);   /* graphs hash by node number: one per graph */
    g = graph_new(t, len + 1, 0, 2);
    search_init(&s, g, 0, NULL);
    CHECK(minimax_solve(&s) == (ok ? EXIT_OK : EXIT_LIMIT));
    CHECK(graph_node(g) == 0);
    if (ok) {
      int64_t score, plies;
      decode(s.result.value, &score, &plies);
      CHECK(score == 1 && plies == len);
    }
    CHECK(alphabeta_solve(&s, tt, 1) == (ok ? EXIT_OK : EXIT_LIMIT));
    CHECK(graph_node(g) == 0);
    search_free(&s);
    /* Moves played before the root count against the limit too. */
    search_init(&s, g, 1, NULL);
    CHECK(alphabeta_solve(&s, NULL, 0) == EXIT_LIMIT);
    search_free(&s);
    count_init(&c, g, 0, NULL);
    CHECK(count_run(&c) == (ok ? EXIT_OK : EXIT_LIMIT));
    CHECK(!ok || c.positions == (uint64_t)len + 1);
    CHECK(graph_node(g) == 0);
    count_free(&c);
    perft_init(&p, g, 0, NULL);
    CHECK(perft_run(&p, len) == (ok ? EXIT_OK : EXIT_LIMIT));
    CHECK(!ok || (p.count == 1 && p.nodes == (uint64_t)len + 1));
    perft_free(&p);
    testgame_free(g);
    tt_free(tt);
  }
  free(t);
}

/* ---- the walker (search/walk.h) and diag_fail --------------------- */

/* The events of a walk over the graph 0 -> {1, 2}, 1 -> {3, 2}, where
** node 1 is cut (closed) when `cut`, as "N0 N1 N3 B L B N2 B L D" (node
** entered, back, leave, done), and the engine is back at the root. */
static void walk_events(Game *g, int cut, char *out) {
  Walk w;
  int n;
  walk_init(&w, g);
  out[0] = '\0';
  for (int e = walk_begin(&w); ; e = walk_step(&w)) {
    char buf[8];
    if (e == WALK_NODE) snprintf(buf, sizeof buf, "N%d ", graph_node(g));
    else snprintf(buf, sizeof buf, "%s ", e == WALK_BACK ? "B" : e == WALK_LEAVE ? "L" : "D");
    strcat(out, buf);
    if (e == WALK_DONE) break;
    if (e != WALK_NODE || graph_nodes(g, &n)[graph_node(g)].ended) continue;
    CHECK(walk_expand(&w) > 0);
    if (cut && graph_node(g) == 1) walk_close(&w);
  }
  CHECK(graph_node(g) == 0 && w.ply == 0 && w.open == 0 && w.ms.top == 0);
  walk_free(&w);
}

static void test_walk(void) {
  GraphNode t[4];
  char events[64];
  Walk w;
  int nodes = 0, n;
  FILE *err = tmpfile();
  char msg[128];
  t[0] = inner(0, 2, 1, 2, 0);
  t[1] = inner(1, 2, 3, 2, 0);
  t[2] = leaf(1, 0);
  t[3] = leaf(0, 1);
  Game *g = graph_new(t, 4, 0, 2);
  walk_events(g, 0, events);
  CHECK(strcmp(events, "N0 N1 N3 B N2 B L B N2 B L D ") == 0);
  walk_events(g, 1, events);
  CHECK(strcmp(events, "N0 N1 B N2 B L D ") == 0);
  /* The counting pair visits the same nodes in the same order. */
  walk_init(&w, g);
  for (int e = walk_begin(&w); e != WALK_DONE; ) {
    nodes++;
    if (!graph_nodes(g, &n)[graph_node(g)].ended && walk_expand(&w) > 0) e = walk_into(&w);
    else e = walk_next(&w);
  }
  CHECK(nodes == 5 && graph_node(g) == 0 && w.ply == 0 && w.open == 0 && w.ms.top == 0);
  /* Unwinding takes back the moves of a walk abandoned half way. */
  walk_begin(&w);
  walk_expand(&w);
  walk_into(&w);
  walk_expand(&w);
  walk_into(&w);
  CHECK(graph_node(g) == 3 && w.ply == 2);
  walk_unwind(&w);
  CHECK(graph_node(g) == 0 && w.ply == 0 && w.open == 0 && w.ms.top == 0);
  walk_free(&w);
  testgame_free(g);
  /* diag_fail prints one line, or nothing without a stream. */
  CHECK(diag_fail(err, EXIT_LIMIT, "out of %s", "memory") == EXIT_LIMIT);
  CHECK(diag_fail(NULL, EXIT_IO, "unseen") == EXIT_IO);
  rewind(err);
  n = (int)fread(msg, 1, sizeof msg - 1, err);
  msg[n] = '\0';
  CHECK(strcmp(msg, "gsolve: error: out of memory\n") == 0);
  fclose(err);
}

/* ---- --position ---------------------------------------------------- */

/* Plays text on a fresh Nim 1,3,5,7; returns the status, the moves
** played joined by '|' and what was printed on the error stream. */
static int play(Game *g, const char *text, char *moves, char *msg) {
  Position pos;
  FILE *err = tmpfile();
  size_t n;
  int st = position_play(g, text, &pos, err);
  moves[0] = '\0';
  for (int i = 0; i < pos.n; i++) {
    if (i) strcat(moves, "|");
    strcat(moves, pos.moves[i]);
  }
  rewind(err);
  n = fread(msg, 1, 1023, err);
  msg[n] = '\0';
  fclose(err);
  position_free(&pos);
  return st;
}

static void test_position(void) {
  int h[4] = { 1, 3, 5, 7 };
  char moves[1024], msg[1024];
  Game *g = nim_new(4, h);
  CHECK(play(g, "take 1 1 take 2 3", moves, msg) == EXIT_OK);
  CHECK(strcmp(moves, "take 1 1|take 2 3") == 0 && msg[0] == '\0');
  testgame_free(g);

  g = nim_new(4, h);
  CHECK(play(g, "  take 1 1,take   2 3 ,  take 4 7", moves, msg) == EXIT_OK);
  CHECK(strcmp(moves, "take 1 1|take 2 3|take 4 7") == 0);
  testgame_free(g);

  g = nim_new(4, h);
  CHECK(play(g, "   ", moves, msg) == EXIT_OK && moves[0] == '\0');
  CHECK(play(g, "take 1 2", moves, msg) == EXIT_USAGE);
  CHECK(strncmp(msg, "gsolve: error: illegal move 'take 1 2' at ply 1 "
                "(legal: take 1 1, take 2 1, take 2 2, take 2 3, take 3 1",
                strlen("gsolve: error: illegal move 'take 1 2' at ply 1 "
                       "(legal: take 1 1, take 2 1, take 2 2, take 2 3, "
                       "take 3 1")) == 0);
  testgame_free(g);

  g = nim_new(4, h);
  CHECK(play(g, "take 4 7, Take 1 1", moves, msg) == EXIT_USAGE);
  CHECK(strcmp(moves, "take 4 7") == 0);
  CHECK(strstr(msg, "illegal move 'Take 1 1' at ply 2 (legal: take 1 1,")
        != NULL);
  testgame_free(g);

  g = nim_new(4, h);
  CHECK(play(g, "take 4 7,, take 1 1", moves, msg) == EXIT_USAGE);
  CHECK(strcmp(msg, "gsolve: error: empty move at ply 2 in --position\n")
        == 0);
  testgame_free(g);

  {
    int one[1] = { 1 };
    g = nim_new(1, one);
    CHECK(play(g, "take 1 1 take 1 1", moves, msg) == EXIT_USAGE);
    CHECK(strcmp(msg, "gsolve: error: illegal move 'take' at ply 2 (no "
                  "legal moves)\n") == 0);
    testgame_free(g);
  }
  {
    /* Greedy matching among notations that are prefixes of others. */
    GraphNode t[5];
    const char *labels[3] = { "a", "a b", "b" };
    for (int i = 0; i < 4; i++) {
      t[i] = inner(i % 2, 3, i + 1, i + 1, i + 1);
      memcpy(t[i].label, labels, sizeof labels);
    }
    t[4] = leaf(0, 0);
    g = graph_new(t, 5, 0, 2);
    CHECK(play(g, "a b a", moves, msg) == EXIT_OK);
    CHECK(strcmp(moves, "a b|a") == 0);
    graph_set_node(g, 0);
    CHECK(play(g, "a a b b", moves, msg) == EXIT_OK);
    CHECK(strcmp(moves, "a|a b|b") == 0);
    graph_set_node(g, 0);
    CHECK(play(g, "a, a b,b", moves, msg) == EXIT_OK);
    CHECK(strcmp(moves, "a|a b|b") == 0);
    graph_set_node(g, 0);
    CHECK(play(g, "c", moves, msg) == EXIT_USAGE);
    CHECK(strcmp(msg, "gsolve: error: illegal move 'c' at ply 1 (legal: "
                  "a, a b, b)\n") == 0);
    graph_set_node(g, 0);
    CHECK(play(g, "a a a a a", moves, msg) == EXIT_USAGE);
    CHECK(strcmp(msg, "gsolve: error: illegal move 'a' at ply 5 (the game "
                  "is over)\n") == 0);
    testgame_free(g);
  }
}

/* ---- JSON ----------------------------------------------------------- */

static void test_json(void) {
  FILE *f = tmpfile();
  JsonWriter w;
  char buf[512];
  size_t n;
  json_init(&w, f);
  json_begin_object(&w);
  json_key(&w, "s");
  json_string(&w, "q\"b\\n\n\t\x01\xc3\xa9");
  json_key(&w, "a");
  json_begin_array(&w);
  json_int(&w, -5);
  json_uint(&w, UINT64_C(18446744073709551615));
  json_null(&w);
  json_bool(&w, 1);
  json_begin_object(&w);
  json_end_object(&w);
  json_end_array(&w);
  json_key(&w, "d");
  json_double(&w, 0.25);
  json_key(&w, "r");
  json_raw(&w);
  fputs("{\"x\":1}", f);
  json_key(&w, "e");
  json_begin_array(&w);
  json_end_array(&w);
  json_end_object(&w);
  rewind(f);
  n = fread(buf, 1, sizeof buf - 1, f);
  buf[n] = '\0';
  fclose(f);
  CHECK(strcmp(buf, "{\"s\":\"q\\\"b\\\\n\\n\\t\\u0001\xc3\xa9\","
               "\"a\":[-5,18446744073709551615,null,true,{}],"
               "\"d\":0.250000,\"r\":{\"x\":1},\"e\":[]}") == 0);
}

int main(void) {
  test_value();
  test_tt();
  test_nim_configurations();
  test_nim_perft_count();
  test_coins();
  test_graph_orders();
  test_random_graphs();
  test_depth_limited();
  test_collisions();
  test_cycles();
  test_depth();
  test_walk();
  test_position();
  test_json();
  printf("%d passed, %d failed\n", checks - failures, failures);
  return failures ? 1 : 0;
}
