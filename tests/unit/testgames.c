/*
** testgames.c -- the test engines (see testgames.h).
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "testgames.h"

static const char *const two_names[GAME_MAX_PLAYERS] = { "First", "Second" };
static const char *const one_name[GAME_MAX_PLAYERS] = { "Solo" };

/* Every test engine starts with this, so testgame_free can free any. */
typedef struct TestBase {
  Game g;
  void (*destroy)(Game *g);
} TestBase;

static void *xcalloc(size_t n, size_t size) {
  void *p = calloc(n, size);
  if (p == NULL) {
    fputs("testgames: out of memory\n", stderr);
    exit(1);
  }
  return p;
}

static void init_base(TestBase *b, const GameVtable *vt, const char *name,
                      int nplayers, size_t state_bytes,
                      void (*destroy)(Game *)) {
  b->g.vt = vt;
  b->g.engine = "test";
  b->g.name = name;
  b->g.nplayers = nplayers;
  memcpy(b->g.player_names, nplayers == 1 ? one_name : two_names,
         sizeof b->g.player_names);
  b->g.state_bytes = state_bytes;
  b->g.trap = NULL;
  b->g.error_status = 0;
  b->destroy = destroy;
}

void testgame_free(Game *g) {
  if (g != NULL) ((TestBase *)g)->destroy(g);
}

static uint64_t hash_mask = ~(uint64_t)0;

void testgame_set_hash_mask(uint64_t mask) { hash_mask = mask; }

/* A 64-bit mix of the state bytes: a stand-in for Zobrist hashing. */
static uint64_t mix_bytes(const void *p, size_t n) {
  const unsigned char *b = p;
  uint64_t h = 0x9e3779b97f4a7c15u;
  for (size_t i = 0; i < n; i++) {
    h ^= b[i];
    h *= 0x100000001b3u;
    h ^= h >> 29;
  }
  h ^= h >> 31;
  h *= 0xbf58476d1ce4e5b9u;
  h ^= h >> 27;
  return h;
}

static uint64_t hash_bytes(const void *p, size_t n) {
  return mix_bytes(p, n) & hash_mask;
}

static int32_t no_eval(Game *g) {
  (void)g;
  return 0;
}

/* ---- Nim ---------------------------------------------------------- */

typedef struct NimState {
  int8_t heap[NIM_MAX_HEAPS];
  int8_t nheaps;
  int8_t mover;
} NimState;

typedef struct Nim {
  TestBase b;
  NimState st;
  Move *trail;              /* moves applied, for undo */
  int depth;
} Nim;

static int nim_generate(Game *g, Move *buf) {
  Nim *n = (Nim *)g;
  int k = 0;
  for (int h = 0; h < n->st.nheaps; h++)
    for (int c = 1; c <= n->st.heap[h]; c++) {
      memset(&buf[k], 0, sizeof buf[k]);
      buf[k].arg[0] = (int16_t)h;
      buf[k].arg[1] = (int16_t)c;
      k++;
    }
  return k;
}

static void nim_apply(Game *g, const Move *m) {
  Nim *n = (Nim *)g;
  n->trail[n->depth++] = *m;
  n->st.heap[m->arg[0]] = (int8_t)(n->st.heap[m->arg[0]] - m->arg[1]);
  n->st.mover = (int8_t)(1 - n->st.mover);
}

static void nim_undo(Game *g) {
  Nim *n = (Nim *)g;
  const Move *m = &n->trail[--n->depth];
  n->st.heap[m->arg[0]] = (int8_t)(n->st.heap[m->arg[0]] + m->arg[1]);
  n->st.mover = (int8_t)(1 - n->st.mover);
}

static int nim_ended(Game *g, Outcome *o) {
  (void)g;
  (void)o;
  return 0;
}

/* The player who cannot move loses. */
static void nim_no_moves(Game *g, Outcome *o) {
  Nim *n = (Nim *)g;
  memset(o, 0, sizeof *o);
  o->payoff[1 - n->st.mover] = 1;
}

static int nim_to_move(Game *g) { return ((Nim *)g)->st.mover; }

static uint64_t nim_hash(Game *g) {
  return hash_bytes(&((Nim *)g)->st, sizeof(NimState));
}

static const void *nim_state(Game *g) { return &((Nim *)g)->st; }

static int nim_format(Game *g, const Move *m, char *buf, size_t size) {
  (void)g;
  return snprintf(buf, size, "take %d %d", m->arg[0] + 1, m->arg[1]);
}

static void nim_print(Game *g, FILE *f) {
  Nim *n = (Nim *)g;
  for (int h = 0; h < n->st.nheaps; h++) fprintf(f, "%d ", n->st.heap[h]);
  fputc('\n', f);
}

static void nim_destroy(Game *g) {
  free(((Nim *)g)->trail);
  free(g);
}

static const GameVtable nim_vt = {
  .generate = nim_generate, .apply = nim_apply, .undo = nim_undo, .ended = nim_ended,
  .no_moves = nim_no_moves, .eval = no_eval, .to_move = nim_to_move, .hash = nim_hash,
  .state = nim_state, .format_move = nim_format, .print = nim_print
};

Game *nim_new(int nheaps, const int *heaps) {
  Nim *n = xcalloc(1, sizeof *n);
  init_base(&n->b, &nim_vt, "Nim", 2, sizeof(NimState), nim_destroy);
  n->st.nheaps = (int8_t)nheaps;
  for (int h = 0; h < nheaps; h++) n->st.heap[h] = (int8_t)heaps[h];
  n->trail = xcalloc(GAME_MAX_PLY, sizeof *n->trail);
  return &n->b.g;
}

/* ---- Coins -------------------------------------------------------- */

typedef struct CoinsState {
  int8_t coin[COINS_MAX];
  int8_t left, right;       /* the coins left are coin[left..right] */
  int8_t mover;
  int8_t pad;
  int16_t sum[2];           /* what each player took */
} CoinsState;

typedef struct CoinsUndo {
  int8_t side;              /* 0: took the left coin, 1: the right */
  int8_t mover;             /* who took it */
} CoinsUndo;

typedef struct Coins {
  TestBase b;
  CoinsState st;
  CoinsUndo *trail;
  int depth;
} Coins;

static int coins_generate(Game *g, Move *buf) {
  Coins *c = (Coins *)g;
  int k = 0;
  if (c->st.left > c->st.right) return 0;
  memset(buf, 0, 2 * sizeof *buf);
  buf[k++].rule = 0;
  if (c->st.left < c->st.right) buf[k++].rule = 1;
  return k;
}

static void coins_apply(Game *g, const Move *m) {
  Coins *c = (Coins *)g;
  int v = m->rule == 0 ? c->st.coin[c->st.left++] : c->st.coin[c->st.right--];
  c->trail[c->depth].side = (int8_t)m->rule;
  c->trail[c->depth].mover = c->st.mover;
  c->depth++;
  c->st.sum[c->st.mover] = (int16_t)(c->st.sum[c->st.mover] + v);
  if (v != 0) c->st.mover = (int8_t)(1 - c->st.mover);
}

static void coins_undo(Game *g) {
  Coins *c = (Coins *)g;
  const CoinsUndo *u = &c->trail[--c->depth];
  int v = u->side == 0 ? c->st.coin[--c->st.left] : c->st.coin[++c->st.right];
  c->st.mover = u->mover;
  c->st.sum[u->mover] = (int16_t)(c->st.sum[u->mover] - v);
}

static int coins_ended(Game *g, Outcome *o) {
  Coins *c = (Coins *)g;
  if (c->st.left <= c->st.right) return 0;
  memset(o, 0, sizeof *o);
  o->payoff[0] = c->st.sum[0];
  o->payoff[1] = c->st.sum[1];
  return 1;
}

static void coins_no_moves(Game *g, Outcome *o) {
  coins_ended(g, o);
}

static int coins_to_move(Game *g) { return ((Coins *)g)->st.mover; }

static uint64_t coins_hash(Game *g) {
  return hash_bytes(&((Coins *)g)->st, sizeof(CoinsState));
}

static const void *coins_state(Game *g) { return &((Coins *)g)->st; }

static int coins_format(Game *g, const Move *m, char *buf, size_t size) {
  (void)g;
  return snprintf(buf, size, "%s", m->rule == 0 ? "left" : "right");
}

static void coins_print(Game *g, FILE *f) {
  Coins *c = (Coins *)g;
  for (int i = c->st.left; i <= c->st.right; i++)
    fprintf(f, "%d ", c->st.coin[i]);
  fputc('\n', f);
}

static void coins_destroy(Game *g) {
  free(((Coins *)g)->trail);
  free(g);
}

static const GameVtable coins_vt = {
  .generate = coins_generate, .apply = coins_apply, .undo = coins_undo, .ended = coins_ended,
  .no_moves = coins_no_moves, .eval = no_eval, .to_move = coins_to_move, .hash = coins_hash,
  .state = coins_state, .format_move = coins_format, .print = coins_print
};

Game *coins_new(int n, const int *values) {
  Coins *c = xcalloc(1, sizeof *c);
  init_base(&c->b, &coins_vt, "Coins", 2, sizeof(CoinsState), coins_destroy);
  for (int i = 0; i < n; i++) c->st.coin[i] = (int8_t)values[i];
  c->st.left = 0;
  c->st.right = (int8_t)(n - 1);
  c->trail = xcalloc(COINS_MAX + 1, sizeof *c->trail);
  return &c->b.g;
}

/* ---- Graph -------------------------------------------------------- */

typedef struct Graph {
  TestBase b;
  GraphNode *nodes;
  int n;
  int32_t cur;              /* the state: the current node */
  int32_t *trail;           /* nodes left by apply, for undo */
  int depth;
} Graph;

static int graph_generate(Game *g, Move *buf) {
  Graph *gr = (Graph *)g;
  const GraphNode *nd = &gr->nodes[gr->cur];
  for (int j = 0; j < nd->nkids; j++) {
    memset(&buf[j], 0, sizeof buf[j]);
    buf[j].arg[0] = (int16_t)j;
  }
  return nd->nkids;
}

static void graph_apply(Game *g, const Move *m) {
  Graph *gr = (Graph *)g;
  if (gr->depth >= GAME_MAX_PLY) {
    fputs("testgames: apply nested beyond GAME_MAX_PLY\n", stderr);
    abort();
  }
  gr->trail[gr->depth++] = gr->cur;
  gr->cur = gr->nodes[gr->cur].kid[m->arg[0]];
}

static void graph_undo(Game *g) {
  Graph *gr = (Graph *)g;
  gr->cur = gr->trail[--gr->depth];
}

static void graph_outcome(const Graph *gr, Outcome *o) {
  memset(o, 0, sizeof *o);
  o->payoff[0] = gr->nodes[gr->cur].payoff[0];
  o->payoff[1] = gr->nodes[gr->cur].payoff[1];
}

static int graph_ended(Game *g, Outcome *o) {
  Graph *gr = (Graph *)g;
  if (!gr->nodes[gr->cur].ended) return 0;
  graph_outcome(gr, o);
  return 1;
}

static void graph_no_moves(Game *g, Outcome *o) {
  graph_outcome((Graph *)g, o);
}

static int graph_to_move(Game *g) {
  Graph *gr = (Graph *)g;
  return gr->nodes[gr->cur].mover;
}

static uint64_t graph_hash(Game *g) {
  return hash_bytes(&((Graph *)g)->cur, sizeof(int32_t));
}

static const void *graph_state(Game *g) { return &((Graph *)g)->cur; }

static int graph_format(Game *g, const Move *m, char *buf, size_t size) {
  Graph *gr = (Graph *)g;
  const char *label = gr->nodes[gr->cur].label[m->arg[0]];
  if (label != NULL) return snprintf(buf, size, "%s", label);
  return snprintf(buf, size, "m%d", m->arg[0]);
}

static void graph_print(Game *g, FILE *f) {
  fprintf(f, "node %d\n", ((Graph *)g)->cur);
}

static void graph_destroy(Game *g) {
  Graph *gr = (Graph *)g;
  free(gr->nodes);
  free(gr->trail);
  free(gr);
}

static int32_t graph_eval(Game *g) {
  Graph *gr = (Graph *)g;
  return gr->nodes[gr->cur].eval;
}

static const GameVtable graph_vt = {
  .generate = graph_generate, .apply = graph_apply, .undo = graph_undo, .ended = graph_ended,
  .no_moves = graph_no_moves, .eval = graph_eval, .to_move = graph_to_move, .hash = graph_hash,
  .state = graph_state, .format_move = graph_format, .print = graph_print
};

Game *graph_new(const GraphNode *nodes, int n, int start, int nplayers) {
  Graph *gr = xcalloc(1, sizeof *gr);
  init_base(&gr->b, &graph_vt, "Graph", nplayers, sizeof(int32_t),
            graph_destroy);
  gr->nodes = xcalloc((size_t)n, sizeof *gr->nodes);
  memcpy(gr->nodes, nodes, (size_t)n * sizeof *nodes);
  gr->n = n;
  gr->cur = start;
  gr->trail = xcalloc(GAME_MAX_PLY, sizeof *gr->trail);
  return &gr->b.g;
}

static uint64_t next_random(uint64_t *s) {
  uint64_t z = (*s += 0x9e3779b97f4a7c15u);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
  return z ^ (z >> 31);
}

Game *graph_random(uint64_t seed, int width, int layers, int nplayers,
                   int flags) {
  int n = width * layers;
  GraphNode *nodes = xcalloc((size_t)n, sizeof *nodes);
  uint64_t s = seed;
  Game *g;
  for (int d = 0; d < layers; d++) {
    for (int x = 0; x < width; x++) {
      GraphNode *nd = &nodes[d * width + x];
      nd->mover = nplayers == 1 ? 0 : (int)(next_random(&s) % 2);
      nd->payoff[0] = (int32_t)(next_random(&s) % 5) - 2;
      nd->payoff[1] = (int32_t)(next_random(&s) % 5) - 2;
      {   /* drawn apart from the stream: the graphs stay as they were */
        uint64_t es = seed * 0x100000 + (uint64_t)(d * width + x);
        nd->eval = (int32_t)(next_random(&es) % 21) - 10;
      }
      if (d == layers - 1
          || next_random(&s) % (flags & GRAPH_BUSHY ? 40 : 10) == 0) {
        nd->ended = 1;
        continue;
      }
      /* Sometimes no moves (terminal through no_moves). */
      if (flags & GRAPH_BUSHY)
        nd->nkids = 2 + (int)(next_random(&s) % 3);
      else
        nd->nkids = (int)(next_random(&s) % 5);
      for (int j = 0; j < nd->nkids; j++) {
        int to = d + 1;
        if (d + 2 < layers && next_random(&s) % 3 == 0) to = d + 2;
        if ((flags & GRAPH_CYCLIC) && next_random(&s) % 4 == 0)
          to = (int)(next_random(&s) % (unsigned)(d + 1));
        nd->kid[j] = to * width + (int)(next_random(&s) % (unsigned)width);
      }
    }
  }
  g = graph_new(nodes, n, 0, nplayers);
  free(nodes);
  return g;
}

const GraphNode *graph_nodes(Game *g, int *n) {
  Graph *gr = (Graph *)g;
  *n = gr->n;
  return gr->nodes;
}

void graph_set_node(Game *g, int node) {
  Graph *gr = (Graph *)g;
  gr->cur = node;
  gr->depth = 0;
}

int graph_node(Game *g) {
  return ((Graph *)g)->cur;
}
