/*
** vi_dense.c -- value iteration's move graph without a hash set (see
** vi_dense.h): the positions found and numbered in sweep order by one
** depth-first walk that finds the strongly connected components as it
** goes, each one's moves written once as successor numbers.
**
** A position's packed key (at most 32 bits) is its address in a table
** of chunks of VID_CHUNK numbers, a chunk made when a key in it is first
** met: one read to find a position, no hashing, no key to compare.  While
** the walk runs, an entry names a position's place on Tarjan's stack
** (VID_ONSTACK) or, once its component is written, its number.  A
** position entered computes its successors' keys at once (apply, pack,
** undo; their table entries fetched together) onto an edge stack; the
** walk follows them one by one (down by apply, or by set_state past
** VID_APPLY_DEPTH), keeps Tarjan's low links, and when a component's root
** finishes, writes the component out: its positions in the order they
** finished (a stack of finished places gives it), each one's successors
** as numbers (a place on the stack is resolved then: every position a
** member reaches on the stack is a member).  Components come out children
** first, so the graph is in sweep order with nothing to sort or copy.  A
** chance position whose moves have one weight keeps no probabilities (1/n
** is what weight / total rounds to); others keep theirs per move.
*/
#include <stdlib.h>
#include <string.h>
#include "game/movestack.h"
#include "search/progress.h"
#include "retro/valueiter.h"
#include "retro/vi_dense.h"
#include "util/status.h"
#include "util/stop.h"

#define VID_CHUNK_BITS 16
#define VID_CHUNK (1u << VID_CHUNK_BITS)
#define VID_ONSTACK 0x80000000u      /* a table entry: a place on Tarjan's stack */
#define VID_APPLY_DEPTH 20000         /* deeper, the search goes down by set_state */
#if defined(__GNUC__)
#define PREFETCH(p) __builtin_prefetch((p), 1)
#else
#define PREFETCH(p) ((void)(p))
#endif

int vid_applies(const ValueIter *v) {
  const Retro *r = v->r;
  const Game *g = r->g;
  const GameVtable *vt = g->vt;
  return !retro_distributed && !r->canonical && vt->pack && vt->unpack && vt->set_state &&
         g->key_bytes <= sizeof(uint32_t) && g->nplayers == 2 && !g->has_rewards &&
         !g->has_history && !(getenv("GSOLVE_VI_HASHED") && *getenv("GSOLVE_VI_HASHED"));
}

/* The number of key k, or 0 (numbers are stored plus one). */
static uint32_t *slot(ValueIter *v, uint32_t k, int make) {
  uint32_t **c = &v->dchunk[k >> VID_CHUNK_BITS];
  if (!*c) {
    if (!make) return NULL;
    if (!(*c = calloc(VID_CHUNK, sizeof **c))) return NULL;
    v->dchunks++;
  }
  return *c + (k & (VID_CHUNK - 1));
}

static uint32_t key_of(Game *g, const void *state) {
  unsigned char buf[sizeof(uint32_t)] = { 0 };
  g->vt->pack(g, state, buf);
  uint32_t k;
  memcpy(&k, buf, sizeof k);          /* (a key's bytes, as one number) */
  return k;
}

/* Grows an array of `size`-byte items to hold `need`: 0, -1 when out of
** memory. */
static int grow(void *pp, size_t *cap, size_t need, size_t size) {
  if (need <= *cap) return 0;
  size_t n = *cap ? *cap : 4096;
  while (n < need) n *= 2;
  void *q = realloc(*(void **)pp, n * size);
  if (!q) return -1;
  *(void **)pp = q;
  *cap = n;
  return 0;
}

size_t vid_memory(const ValueIter *v) {
  size_t n = v->r->stored ? v->r->stored : v->dn;
  return v->dchunks * (size_t)VID_CHUNK * sizeof(uint32_t) + ((size_t)1 << 16) * sizeof(uint32_t *)
         + n * (sizeof(uint32_t) * 2 + 2 + 3 * sizeof(double)) + v->r->edges * sizeof(uint32_t)
         + v->nprob * sizeof(double);
}

int vid_lookup(ValueIter *v, uint32_t *id) {
  uint32_t *s = slot(v, key_of(v->r->g, game_state(v->r->g)), 0);
  if (!s || !*s || (*s & VID_ONSTACK)) return 0;
  *id = *s - 1;
  return 1;
}

/* A position on Tarjan's stack (its place there names it until its
** component is found: positions above it on the stack come later). */
typedef struct VidNode {
  uint32_t index;           /* discovery number */
  uint32_t low;             /* the lowest discovery number it reaches on the stack */
  uint32_t key;             /* packed key */
  uint32_t rank;            /* its sweep number, when its component is written */
  uint32_t nedges;          /* its moves */
  size_t ebase;             /* its moves' successors in the edge stack */
  size_t pbase;             /* its probabilities in the probability stack, or SIZE_MAX */
  double pay[2];            /* an end's payoffs */
  int8_t kind;
} VidNode;

/* A position on the depth-first path. */
typedef struct VidFrame {
  uint32_t tpos;            /* its node's place on Tarjan's stack */
  uint32_t i;               /* the next move to follow */
  size_t mbase;             /* its moves in the move stack */
  int applied;              /* entered by game_apply (else set_state) */
} VidFrame;

/* The enumeration's working state. */
typedef struct Vid {
  ValueIter *v;
  Game *g;
  MoveStack ms;
  VidNode *node; size_t nnode, cap_node;
  VidFrame *frame; size_t nframe, cap_frame;
  uint32_t *edge; size_t nedge, cap_edge;     /* successors of the stack's positions */
  double *pst; size_t npst, cap_pst;          /* their probabilities (unequal weights) */
  uint32_t *w; size_t cap_w;                  /* one position's weights */
  uint32_t *sorted; size_t cap_sorted;        /* a component's places, by finish */
  uint32_t *fst; size_t nfst, cap_fst;        /* the places finished, not yet written */
  size_t cap_start, cap_kind, cap_val, cap_pstart, cap_to, cap_prob, cap_comp;
  uint32_t counter;
  size_t n, e;              /* positions and moves written */
  unsigned char *here;      /* a state */
  unsigned char *root;      /* the state the walk started from */
} Vid;

/* Frees the walk's working state (after it, or after a rule failed). */
static void vid_work_free(ValueIter *v) {
  Vid *d = v->dwork;
  if (!d) return;
  free(d->node); free(d->frame); free(d->edge); free(d->pst); free(d->w);
  free(d->sorted); free(d->fst); free(d->here); free(d->root);
  movestack_free(&d->ms);
  free(d);
  v->dwork = NULL;
}

/* Enters the engine's current position (key k, found new): a node on
** Tarjan's stack with its successors' keys, a frame on the path.  0, -1
** when out of memory. */
static int enter(Vid *d, uint32_t k, int applied) {
  ValueIter *v = d->v;
  Game *g = d->g;
  Outcome o;
  if (grow(&d->node, &d->cap_node, d->nnode + 1, sizeof *d->node) < 0 ||
      grow(&d->frame, &d->cap_frame, d->nframe + 1, sizeof *d->frame) < 0)
    return -1;
  uint32_t *s = slot(v, k, 1);
  if (!s) return -1;
  *s = VID_ONSTACK | (uint32_t)d->nnode;
  VidNode *x = &d->node[d->nnode];
  VidFrame *f = &d->frame[d->nframe++];
  f->tpos = (uint32_t)d->nnode++;
  f->i = 0;
  f->mbase = d->ms.top;
  f->applied = applied;
  x->index = x->low = d->counter++;
  x->key = k;
  x->ebase = d->nedge;
  x->pbase = SIZE_MAX;
  x->nedges = 0;
  int nm = 0;
  if (game_ended(g, &o) || (nm = movestack_generate(&d->ms, g)) == 0) {
    if (nm == 0 && !game_ended(g, &o)) game_no_moves(g, &o);
    x->kind = VI_END;
    x->pay[0] = o.payoff[0];
    x->pay[1] = o.payoff[1];
    return 0;
  }
  if (nm < 0) return -1;
  int mover = game_to_move(g);
  x->kind = mover == GAME_CHANCE ? VI_CHANCE : (int8_t)mover;
  const Move *m = d->ms.moves + f->mbase;
  if (mover == GAME_CHANCE) {
    if (grow(&d->w, &d->cap_w, (size_t)nm, sizeof *d->w) < 0) return -1;
    game_weights(g, m, nm, d->w);
    int same = 1;
    double total = 0;
    for (int i = 0; i < nm; i++) {
      total += d->w[i];
      same &= d->w[i] == d->w[0];
    }
    if (!same) {    /* probabilities of its own, as lay_out makes them */
      if (grow(&d->pst, &d->cap_pst, d->npst + (size_t)nm, sizeof *d->pst) < 0) return -1;
      x->pbase = d->npst;
      for (int i = 0; i < nm; i++) d->pst[d->npst++] = d->w[i] / total;
    }
  }
  if (grow(&d->edge, &d->cap_edge, d->nedge + (size_t)nm, sizeof *d->edge) < 0) return -1;
  /* The successors' keys, their slots fetched as they come, so that the
  ** cache misses of the lookups overlap. */
  for (int i = 0; i < nm; i++) {
    game_apply(g, &m[i]);
    uint32_t ck = d->edge[d->nedge++] = key_of(g, game_state(g));
    game_undo(g);
    uint32_t *cs = slot(v, ck, 1);
    if (!cs) return -1;
    PREFETCH(cs);
  }
  x->nedges = (uint32_t)nm;
  return 0;
}

/* The component of the node at place t (its root, just finished) and
** the places above it: numbered in the order they finished, written out
** (kinds, ends' payoffs, moves with successors by number, probabilities),
** the table set to their numbers, taken off the stacks.  0, -1 when out
** of memory. */
static int emit(Vid *d, uint32_t t) {
  ValueIter *v = d->v;
  size_t m = d->nnode - t;
  if (grow(&d->sorted, &d->cap_sorted, m, sizeof *d->sorted) < 0 ||
      grow(&v->comp, &d->cap_comp, v->ncomp + 2, sizeof *v->comp) < 0)
    return -1;
  /* The places in finish order: the top m of the finished stack (the
  ** components found inside this one have left it). */
  memcpy(d->sorted, d->fst + d->nfst - m, m * sizeof *d->sorted);
  d->nfst -= m;
  v->comp[v->ncomp++] = (uint32_t)d->n;
  for (size_t i = 0; i < m; i++) d->node[d->sorted[i]].rank = (uint32_t)(d->n + i);
  size_t n1 = d->n + m + 1, e1 = d->e;
  for (size_t i = 0; i < m; i++) e1 += d->node[d->sorted[i]].nedges;
  if (grow(&v->start, &d->cap_start, n1, sizeof *v->start) < 0 ||
      grow(&v->kind, &d->cap_kind, n1, 1) < 0 ||
      grow(&v->val, &d->cap_val, 3 * n1, sizeof *v->val) < 0 ||
      grow(&v->to, &d->cap_to, e1 + 1, sizeof *v->to) < 0)
    return -1;
  /* Where probabilities start: made at the first chance position of
  ** unequal weights (none in most games). */
  int probs = v->dpstart != NULL;
  for (size_t i = 0; i < m && !probs; i++) probs = d->node[d->sorted[i]].pbase != SIZE_MAX;
  if (probs) {
    size_t had = v->dpstart ? d->cap_pstart : 0;
    if (grow(&v->dpstart, &d->cap_pstart, n1, sizeof *v->dpstart) < 0) return -1;
    if (!had) for (size_t k = 0; k < d->n; k++) v->dpstart[k] = UINT32_MAX;
  }
  if (d->n == 0) v->start[0] = 0;
  for (size_t i = 0; i < m; i++) {
    VidNode *x = &d->node[d->sorted[i]];
    size_t k = x->rank;
    v->kind[k] = x->kind;
    v->val[3 * k] = x->kind == VI_END ? x->pay[0] : 0;       /* (valueiter.c's plies_at) */
    v->val[3 * k + 1] = x->kind == VI_END ? x->pay[1] : 0;
    v->val[3 * k + 2] = 0;
    if (probs) v->dpstart[k] = UINT32_MAX;
    if (x->pbase != SIZE_MAX) {
      if (grow(&v->prob, &d->cap_prob, v->nprob + x->nedges, sizeof *v->prob) < 0) return -1;
      v->dpstart[k] = (uint32_t)v->nprob;
      memcpy(v->prob + v->nprob, d->pst + x->pbase, x->nedges * sizeof *v->prob);
      v->nprob += x->nedges;
    }
    for (uint32_t j = 0; j < x->nedges; j++) {
      uint32_t c = d->edge[x->ebase + j];
      v->to[d->e++] = c & VID_ONSTACK ? c & ~VID_ONSTACK : d->node[c].rank;
    }
    v->start[k + 1] = (uint32_t)d->e;
    *slot(v, x->key, 0) = (uint32_t)k + 1;
  }
  d->n += m;
  d->nedge = d->node[t].ebase;
  for (size_t p = t; p < d->nnode; p++)
    if (d->node[p].pbase != SIZE_MAX) { d->npst = d->node[p].pbase; break; }
  d->nnode = t;
  return 0;
}

int vid_enumerate(ValueIter *v, int (*fail)(ValueIter *, int, const char *, ...)) {
  Retro *r = v->r;
  Game *g = r->g;
  /* The working state lives in v (vid_free frees it): a rule that fails
  ** at run time leaves this function by longjmp. */
  Vid *d = v->dwork = calloc(1, sizeof *d);
  if (!d) return fail(v, EXIT_LIMIT, "out of memory");
  d->v = v;
  d->g = g;
  size_t sb = g->state_bytes;
  unsigned char *root = d->root = malloc(sb);
  int st = EXIT_OK;
  d->here = malloc(sb);
  v->dchunk = calloc((size_t)1 << (32 - VID_CHUNK_BITS), sizeof *v->dchunk);
  if (!root || !d->here || !v->dchunk) goto oom;
  memcpy(root, game_state(g), sb);
  if (enter(d, key_of(g, root), 0) < 0) goto oom;
  while (d->nframe > 0) {
    VidFrame *f = &d->frame[d->nframe - 1];
    VidNode *x = &d->node[f->tpos];
    if (f->i < x->nedges) {
      /* Step 1: the next move's successor: new (go down), on Tarjan's
      ** stack (its low lowers this one's; named by its place), or in a
      ** component written already (named by its number, flagged). */
      uint32_t *e = &d->edge[x->ebase + f->i], k = *e, *s = slot(v, k, 0);
      if (*s == 0) {
        if ((d->counter & 0xfff) == 0) {
          if (stop_requested) {
            char msg[160];
            st = fail(v, stop_message(msg, sizeof msg, d->counter, "positions"), "%s", msg);
            goto out;
          }
          if (r->progress) progress_note(r->progress, r->label, NULL, d->counter, "positions", -1);
          v->dn = d->counter;
          r->edges = d->e;
          if (r->memory_limit && vid_memory(v) > r->memory_limit) {
            st = fail(v, EXIT_LIMIT, "memory limit of %zu MiB reached after %u positions "
                      "(about %zu bytes each, moves included); raise --memory",
                      r->memory_limit >> 20, d->counter, vid_memory(v) / d->counter);
            goto out;
          }
        }
        if (d->counter >= r->max_positions || d->counter >= VID_ONSTACK - 1) {
          st = fail(v, EXIT_LIMIT, "more than %llu positions (--max-positions)",
                    (unsigned long long)(d->counter >= VID_ONSTACK - 1 ? VID_ONSTACK - 2
                                         : r->max_positions));
          goto out;
        }
        /* Down by the move while the engine's line may grow, else by
        ** the successor's state. */
        int apply = d->nframe < VID_APPLY_DEPTH;
        if (apply) {
          game_apply(g, &d->ms.moves[f->mbase + f->i]);
        } else {
          g->vt->unpack(g, &k, d->here);
          g->vt->set_state(g, d->here);
        }
        if (enter(d, k, apply) < 0) goto oom;
        continue;
      }
      if (*s & VID_ONSTACK) {
        uint32_t t = *s & ~VID_ONSTACK;
        if (d->node[t].low < x->low) x->low = d->node[t].low;
        *e = t;
      } else {
        *e = (*s - 1) | VID_ONSTACK;     /* (here: a number, not a place) */
      }
      f->i++;
      continue;
    }
    /* Step 2: finished: back up; a component root writes its component. */
    if (grow(&d->fst, &d->cap_fst, d->nfst + 1, sizeof *d->fst) < 0) goto oom;
    d->fst[d->nfst++] = f->tpos;
    uint32_t t = f->tpos;
    int applied = f->applied;
    d->ms.top = f->mbase;
    d->nframe--;
    if (x->low == x->index && emit(d, t) < 0) goto oom;
    if (d->nframe > 0) {
      if (applied) {
        game_undo(g);
      } else {
        g->vt->unpack(g, &d->node[d->frame[d->nframe - 1].tpos].key, d->here);
        g->vt->set_state(g, d->here);
      }
    }
  }
  r->positions = r->stored = v->dn = d->n;
  r->edges = d->e;
  v->comp[v->ncomp] = (uint32_t)d->n;
  goto out;
oom:
  st = fail(v, EXIT_LIMIT, "out of memory enumerating %u positions and %zu moves for value "
            "iteration (raise --memory, or a smaller game)", d->counter, d->e);
out:
  /* Back at the root: by undoing the moves applied, then its state. */
  for (size_t i = d->nframe; i > 0; i--)
    if (d->frame[i - 1].applied) game_undo(g);
  if (root) g->vt->set_state(g, root);
  vid_work_free(v);
  return st;
}

void vid_fold(ValueIter *v) {
  size_t n = v->r->stored, e = v->r->edges;
  if (n >= VI_FOLD_BIT) return;
  unsigned char *in = calloc(n, 1);
  if (!in) return;                      /* (nothing folded: the same values) */
  for (size_t j = 0; j < e; j++)
    if (in[v->to[j]] < 2) in[v->to[j]]++;
  for (size_t p = 0; p < n; p++) {
    if (v->kind[p] < 0) continue;       /* a player's positions only */
    for (uint32_t j = v->start[p]; j < v->start[p + 1]; j++) {
      uint32_t t = v->to[j];
      if (t != 0 && t != p && in[t] == 1 && v->kind[t] == VI_CHANCE) {
        v->kind[t] = VI_FOLDED;
        v->to[j] = t | VI_FOLD_BIT;
      }
    }
  }
  free(in);
}

void vid_free(ValueIter *v) {
  vid_work_free(v);
  if (v->dchunk)
    for (size_t i = 0; i < (size_t)1 << (32 - VID_CHUNK_BITS); i++) free(v->dchunk[i]);
  free(v->dchunk);
  free(v->dkey);
  free(v->dpstart);
  v->dchunk = NULL;
  v->dkey = NULL;
  v->dpstart = NULL;
}
