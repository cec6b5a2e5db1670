/*
** retro_mpi.c -- retrograde analysis distributed over MPI ranks
** (gsolve-mpi only: `make mpi` compiles this file with mpicc; the plain
** build has no MPI code and no MPI header).
**
** The design (docs/mpi.md tells the same at more length):
**
** Ownership.  A stored position (its canonical key when the game has
** symmetries, else its packed state) belongs to the rank chosen by a hash
** of its key, independent of the tables' own hash.  Each rank keeps only
** its own positions: the key sets, the labels and the reverse edges of
** those positions, about 1/N of the single-process table each.  A raw
** state is kept by the owner of its class, so the count of reachable
** positions is exact without a second exchange.
**
** Loading a position.  The game interface has no "set state" hook and a
** packed key cannot be unpacked, so a position travels as its path from
** the root: the indices of the moves in generation order (2 bytes a
** ply).  Its owner replays the path with apply/undo to expand it.  That
** costs depth x (generate + apply) per position, against the
** single-process DFS's one apply, and needs nothing new from the engines
** (the VM and the native ones alike).  Paths live only in messages and
** in the work queue, never in the table.
**
** Enumeration.  Rounds: each rank expands up to RM_CHUNK queued states,
** and for every move sends to the child's owner one record (class key,
** raw key, the parent's rank and local index, the path); the records are
** batched per destination and exchanged with MPI_Alltoall (byte counts)
** then MPI_Alltoallv (the bytes).  The owner adds the raw state and the
** class, records the reverse edge (parent rank, parent index) and queues
** the state when it is new.  As in retro.c, only the first state of a
** class to arrive (the "recording" one) records the class's moves; the
** others are expanded for their own children and checked against it
** (the same symmetry check).  After each exchange one MPI_Allreduce of
** (work queued, states, classes, stop, status) decides for every rank
** together: go on, finish (no rank has queued work and every message
** has been delivered, since the exchange is collective), or fail.
**
** Labelling.  Level-synchronous, the single-process work queue cut into
** distances: the positions decided at distance d send one 16-byte update
** (the parent's index, the child's value, mover, distance and score) per
** reverse edge to
** the parent's owner, which labels a win at d + 1 on the first good
** child and a loss at d + 1 when its counter of undecided children
** reaches 0.  retro.c's FIFO queue takes positions in the same order of
** distance, so the labels and distances are the same.  A level is sent
** in rounds of at most D.batch bytes of updates per rank, which bounds
** the buffers and keeps MPI's int counts under 2 GiB.  Draws' distances
** and scored games go the same way (one round per level or per wave of
** decided positions).  A global sum ends each phase when no rank decided
** anything new.
**
** The answer.  Every rank knows the root; the owners of the root's
** children contribute their labels to an MPI_Allreduce and every rank
** adds those few records to its own table, so retro_answer reports the
** value, plies and best moves exactly as the single-process solver does.
**
** The database.  Records are sorted by key in both builds (db.h, format
** 3); each rank sorts its share and rank 0 merges the N sorted streams,
** pulling RM_BLOCK records at a time from each rank, so no rank ever
** holds more than its share plus N blocks.
**
** Stops and faults.  Ctrl-C and --time-limit set stop_requested on a
** rank; the next Allreduce makes every rank stop with the same status,
** before anything is written.  A rank that dies makes mpirun end the job
** (Open MPI's default errors-are-fatal handler and its process
** monitoring); nothing is renamed into place before the last record.
*/
#include <mpi.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "search/db.h"
#include "search/progress.h"
#include "search/retro.h"
#include "search/retro_mpi.h"
#include "search/retro_stats.h"
#include "search/value.h"
#include "util/status.h"
#include "util/stop.h"

#define RM_CHUNK 4096          /* states expanded per round and rank */
#define RM_BATCH (64u << 20)   /* default update bytes per labelling round and rank */
#define RM_BLOCK 4096          /* records per block of the merge */
#define RM_NONE UINT32_MAX     /* no parent (the root) */
#define RM_TAG_ASK 1
#define RM_TAG_BLOCK 2

typedef struct Buf {
  unsigned char *p;
  size_t n, cap, head;
} Buf;

/* This rank's share and its traffic. */
typedef struct Dist {
  Retro *r;
  Game *g;
  int rank, size;
  FILE *err;                   /* this rank's own stderr */
  KeySet *set;                 /* the stored keys: classes, or states */
  size_t owned;                /* stored positions owned (before the answer's extras) */
  size_t key;                  /* key bytes */
  Buf *out;                    /* per destination rank */
  Buf in, queue, send;
  int *scount, *rcount, *sdispl, *rdispl;
  /* Reverse edges while enumerating, then by child (CSR). */
  uint32_t *e_child, *e_rank, *e_idx;
  size_t nedges, edges_cap;
  uint32_t *pstart, *prank, *pidx;
  uint32_t *frontier, *next;
  size_t nfrontier, nnext;
  size_t fhead;                /* the frontier's positions already sent */
  size_t batch;                /* update bytes a round sends at most (GSOLVE_MPI_BATCH) */
  unsigned char *ckey, *rkey;
  uint64_t messages, bytes;    /* sent to other ranks */
  uint64_t rounds;
} Dist;

static Dist D;                 /* one solve per process */

/* ------------------------------------------------------------------ */
/* Errors, buffers, exchange                                          */
/* ------------------------------------------------------------------ */

/* An error seen by this rank: printed by it (rank 0's stderr is the
** user's; the others' too, through the saved descriptor). */
static int rank_fail(int status, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  if (D.err) {
    if (D.size > 1) fprintf(D.err, "gsolve: error: rank %d: ", D.rank);
    else fputs("gsolve: error: ", D.err);
    vfprintf(D.err, fmt, ap);
    fputc('\n', D.err);
    fflush(D.err);
  }
  va_end(ap);
  return D.r->status = status;
}

/* A failure of the whole job (every rank knows it): rank 0 says it. */
static int job_fail(int status, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  if (D.rank == 0 && D.err) {
    fputs("gsolve: error: ", D.err);
    vfprintf(D.err, fmt, ap);
    fputc('\n', D.err);
    fflush(D.err);
  }
  va_end(ap);
  return D.r->status = status;
}

static int buf_room(Buf *b, size_t more) {
  if (b->n + more <= b->cap) return 0;
  size_t cap = b->cap ? b->cap : 4096;
  while (cap < b->n + more) cap *= 2;
  unsigned char *p = realloc(b->p, cap);
  if (!p) return -1;
  b->p = p;
  b->cap = cap;
  return 0;
}

static int buf_put(Buf *b, const void *data, size_t n) {
  if (buf_room(b, n) < 0) return -1;
  memcpy(b->p + b->n, data, n);
  b->n += n;
  return 0;
}

static int put32(Buf *b, uint32_t v) { return buf_put(b, &v, 4); }

static uint32_t get32(const unsigned char *p) {
  uint32_t v;
  memcpy(&v, p, 4);
  return v;
}

/* The owner of a key: a hash of its own (not the key sets' one, whose low
** bits pick slots), scaled onto the ranks. */
static int owner(const unsigned char *key) {
  uint64_t h = 0x9ae16a3b2f90404fULL;
  for (size_t i = 0; i < D.key; i++) { h ^= key[i]; h *= 0x100000001b3ULL; }
  h ^= h >> 31;
  h *= 0x94d049bb133111ebULL;
  h ^= h >> 29;
  return (int)(((h >> 32) * (uint64_t)D.size) >> 32);
}

/* Sends every rank its batch and receives the batches for this one
** into D.in.  -1 when out of memory or over 2 GiB in one round. */
static int exchange(void) {
  size_t total = 0;
  int bad = 0;
  for (int d = 0; d < D.size; d++) {
    if (D.out[d].n > INT_MAX / 2) bad = 1;
    D.scount[d] = (int)D.out[d].n;
    D.sdispl[d] = (int)total;
    total += D.out[d].n;
    if (d != D.rank && D.out[d].n) { D.messages++; D.bytes += D.out[d].n; }
  }
  if (total > INT_MAX / 2) bad = 1;
  D.send.n = 0;
  if (!bad && buf_room(&D.send, total + 1) < 0) bad = 1;
  if (bad) for (int d = 0; d < D.size; d++) D.scount[d] = D.sdispl[d] = 0;
  else
    for (int d = 0; d < D.size; d++) {
      memcpy(D.send.p + D.sdispl[d], D.out[d].p, D.out[d].n);
      D.out[d].n = 0;
    }
  MPI_Alltoall(D.scount, 1, MPI_INT, D.rcount, 1, MPI_INT, MPI_COMM_WORLD);
  size_t in = 0;
  for (int d = 0; d < D.size; d++) { D.rdispl[d] = (int)in; in += (size_t)D.rcount[d]; }
  D.in.n = 0;
  D.in.head = 0;
  if (in > INT_MAX / 2 || buf_room(&D.in, in + 1) < 0) bad = 1;
  MPI_Alltoallv(D.send.p, D.scount, D.sdispl, MPI_BYTE, D.in.p, D.rcount, D.rdispl, MPI_BYTE,
                MPI_COMM_WORLD);
  D.in.n = bad ? 0 : in;
  D.rounds++;
  return bad ? -1 : 0;
}

static uint64_t sum_u64(uint64_t v) {
  uint64_t total;
  MPI_Allreduce(&v, &total, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
  return total;
}

/* One decision for all ranks: the largest failure status and stop. */
static int agree(int status, int *stop) {
  int in[2] = { status, stop_requested }, out[2];
  MPI_Allreduce(in, out, 2, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  *stop = out[1];
  return out[0];
}

/* ------------------------------------------------------------------ */
/* Enumeration                                                        */
/* ------------------------------------------------------------------ */

/* Bytes this rank holds, as retro_memory counts them plus the reverse
** edges and the exchange buffers. */
static size_t rank_memory(void) {
  size_t total = retro_memory(D.r) + D.edges_cap * 3 * sizeof(uint32_t) + D.queue.cap +
                 D.in.cap + D.send.cap;
  for (int d = 0; d < D.size; d++) total += D.out[d].cap;
  return total;
}

static int new_class(uint32_t c) {
  Retro *r = D.r;
  if (retro_grow_classes(D.r, (size_t)c + 1) < 0) return -1;
  r->value[c] = RETRO_UNKNOWN;
  r->mover[c] = 0;
  r->dist[c] = 0;
  r->count[c] = 0;
  r->terminal[c] = 0;
  r->expanded[c] = 0;
  r->score[c] = 0;
  r->nclass = (size_t)c + 1;
  return 0;
}

static int add_edge(uint32_t child, uint32_t prank, uint32_t pidx) {
  if (D.nedges == D.edges_cap) {
    size_t cap = D.edges_cap ? D.edges_cap * 2 : 4096;
    uint32_t *a = realloc(D.e_child, cap * sizeof *a);
    if (a) D.e_child = a;
    uint32_t *b = realloc(D.e_rank, cap * sizeof *b);
    if (b) D.e_rank = b;
    uint32_t *c = realloc(D.e_idx, cap * sizeof *c);
    if (c) D.e_idx = c;
    if (!a || !b || !c) return -1;
    D.edges_cap = cap;
  }
  D.e_child[D.nedges] = child;
  D.e_rank[D.nedges] = prank;
  D.e_idx[D.nedges] = pidx;
  D.nedges++;
  return 0;
}

/* The keys of the engine's current state into D.rkey (raw) and D.ckey
** (stored: canonical when there are symmetries). */
static void current_keys(void) {
  Retro *r = D.r;
  Game *g = D.g;
  const void *s = game_state(g);
  if (g->vt->pack) g->vt->pack(g, s, D.rkey); else memcpy(D.rkey, s, D.key);
  if (!r->canonical) { memcpy(D.ckey, D.rkey, D.key); return; }
  r->canonical(g, s, r->canon);
  if (g->vt->pack) g->vt->pack(g, r->canon, D.ckey); else memcpy(D.ckey, r->canon, D.key);
}

/* A state reached (a message, or the root): its raw state and class
** added, the edge from its parent recorded, queued if new.  0, or -1
** when out of memory. */
static int receive_state(const unsigned char *ckey, const unsigned char *rkey, uint32_t prank,
                         uint32_t pidx, uint32_t len, const unsigned char *path) {
  Retro *r = D.r;
  uint32_t c, ri;
  int raw_new = 1;
  if (r->canonical && (raw_new = keyset_add(&r->states, rkey, &ri)) < 0) return -1;
  int cls_new = keyset_add(D.set, ckey, &c);
  if (cls_new < 0) return -1;
  if (cls_new && new_class(c) < 0) return -1;
  if (!r->canonical) raw_new = cls_new;
  if (prank != RM_NONE && add_edge(c, prank, pidx) < 0) return -1;
  if (!raw_new) return 0;
  unsigned char rec = (unsigned char)cls_new;
  if (put32(&D.queue, c) < 0 || buf_put(&D.queue, &rec, 1) < 0 || put32(&D.queue, len) < 0 ||
      buf_put(&D.queue, path, (size_t)len * 2) < 0)
    return -1;
  return 0;
}

/* Expands the queued state at the queue's head: replays its path from
** the root, records the class's moves (the recording state) or checks
** them (another state of the class), and sends every child to its owner.
** EXIT_OK or a failure status (reported). */
static int expand_one(MoveStack *ms) {
  Retro *r = D.r;
  Game *g = D.g;
  const unsigned char *item = D.queue.p + D.queue.head;
  uint32_t c = get32(item), len = get32(item + 5);
  int record = item[4];
  const unsigned char *path = item + 9;
  D.queue.head += 9 + (size_t)len * 2;
  if ((uint64_t)len + 1 + (uint64_t)r->base_ply >= GAME_MAX_PLY)
    return rank_fail(EXIT_LIMIT, "a line of play longer than %d plies", GAME_MAX_PLY);
  uint32_t applied = 0;
  int st = EXIT_OK;
  for (; applied < len; applied++) {
    size_t base = ms->top;
    int n = movestack_generate(ms, g);
    uint16_t k;
    memcpy(&k, path + (size_t)applied * 2, 2);
    if (n < 0) { st = rank_fail(EXIT_LIMIT, "out of memory"); goto undo; }
    if (k >= n) { st = rank_fail(EXIT_RUNTIME, "a path from the root does not replay: the rules are not deterministic"); goto undo; }
    Move m = ms->moves[base + k];
    ms->top = base;
    game_apply(g, &m);
  }
  {
    Outcome o;
    int ended = game_ended(g, &o), n = 0;
    size_t base = ms->top;
    if (!ended) {
      if ((n = movestack_generate(ms, g)) < 0) { st = rank_fail(EXIT_LIMIT, "out of memory"); goto undo; }
      if (n == 0) { game_no_moves(g, &o); ended = 1; ms->top = base; }
    }
    if (record) {
      r->mover[c] = (uint8_t)game_to_move(g);
      r->expanded[c] = 1;
      if (ended) retro_set_terminal(r, c, &o);
      else r->count[c] = (uint32_t)n;
    } else if (ended ? !r->terminal[c] : (r->terminal[c] || r->count[c] != (uint32_t)n)) {
      ms->top = base;
      st = rank_fail(EXIT_BAD_GAME, "the game's symmetry declarations do not match its rules: "
                     "two positions that a declared symmetry maps onto each other differ (in "
                     "legal moves or in having ended); remove or correct the symmetry lines");
      goto undo;
    }
    for (int i = 0; i < n && st == EXIT_OK; i++) {
      game_apply(g, &ms->moves[base + (size_t)i]);
      current_keys();
      Buf *b = &D.out[owner(D.ckey)];
      uint16_t k = (uint16_t)i;
      if (buf_put(b, D.ckey, D.key) < 0 || (r->canonical && buf_put(b, D.rkey, D.key) < 0) ||
          put32(b, record ? (uint32_t)D.rank : RM_NONE) < 0 || put32(b, c) < 0 ||
          put32(b, len + 1) < 0 || buf_put(b, path, (size_t)len * 2) < 0 || buf_put(b, &k, 2) < 0)
        st = rank_fail(EXIT_LIMIT, "out of memory");
      game_undo(g);
    }
    ms->top = base;
  }
undo:
  for (; applied > 0; applied--) game_undo(g);
  return st;
}

/* Reads a round's records (the layout expand_one writes). */
static int receive_round(void) {
  size_t rec = D.key * (D.r->canonical ? 2 : 1);
  while (D.in.head < D.in.n) {
    const unsigned char *p = D.in.p + D.in.head;
    const unsigned char *ckey = p, *rkey = D.r->canonical ? p + D.key : p;
    uint32_t prank = get32(p + rec), pidx = get32(p + rec + 4), len = get32(p + rec + 8);
    D.in.head += rec + 12 + (size_t)len * 2;
    if (receive_state(ckey, rkey, prank, pidx, len, p + rec + 12) < 0) return -1;
  }
  return 0;
}

static int enumerate(void) {
  Retro *r = D.r;
  MoveStack ms = { NULL, 0, 0 };
  int st = EXIT_OK, stop = 0;
  current_keys();
  if (owner(D.ckey) == D.rank && receive_state(D.ckey, D.rkey, RM_NONE, 0, 0, NULL) < 0)
    st = rank_fail(EXIT_LIMIT, "out of memory");
  for (;;) {
    for (int i = 0; i < RM_CHUNK && st == EXIT_OK && D.queue.head < D.queue.n; i++)
      st = expand_one(&ms);
    if (D.queue.head == D.queue.n) D.queue.head = D.queue.n = 0;
    else if (D.queue.head > D.queue.n / 2) {
      memmove(D.queue.p, D.queue.p + D.queue.head, D.queue.n - D.queue.head);
      D.queue.n -= D.queue.head;
      D.queue.head = 0;
    }
    if (exchange() < 0 && st == EXIT_OK) st = rank_fail(EXIT_LIMIT, "out of memory (exchange)");
    if (st == EXIT_OK && receive_round() < 0) st = rank_fail(EXIT_LIMIT, "out of memory");
    if (st == EXIT_OK && r->memory_limit && rank_memory() > r->memory_limit)
      st = rank_fail(EXIT_LIMIT, "memory limit of %zu MiB reached after %zu stored positions "
                     "on this rank (about %zu bytes each, moves included); raise --memory or "
                     "add ranks", r->memory_limit >> 20, D.set->n,
                     rank_memory() / (D.set->n ? D.set->n : 1));
    uint64_t in[3] = { D.queue.n - D.queue.head, r->states.n, D.set->n }, tot[3];
    MPI_Allreduce(in, tot, 3, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
    int all = agree(st, &stop);
    if (all != EXIT_OK) { st = all; break; }
    if (stop) {
      char msg[160];
      st = stop_message(msg, sizeof msg, tot[1], "positions");
      job_fail(st, "%s", msg);
      break;
    }
    if (tot[2] > r->max_positions) {
      st = EXIT_LIMIT;
      job_fail(st, "more than %llu positions (--max-positions)",
               (unsigned long long)r->max_positions);
      break;
    }
    if (D.rank == 0)
      progress_note(r->progress, "retrograde analysis over MPI, enumerating", NULL, tot[2],
                    "positions stored", -1);
    if (tot[0] == 0) break;
  }
  movestack_free(&ms);
  return r->status = st;
}

/* The reverse edges by child: pstart, prank, pidx. */
static int build_parents(void) {
  size_t n = D.owned;
  D.pstart = calloc(n + 1, sizeof *D.pstart);
  D.prank = malloc((D.nedges + 1) * sizeof *D.prank);
  D.pidx = malloc((D.nedges + 1) * sizeof *D.pidx);
  uint32_t *fill = malloc((n + 1) * sizeof *fill);
  if (!D.pstart || !D.prank || !D.pidx || !fill) { free(fill); return -1; }
  for (size_t e = 0; e < D.nedges; e++) D.pstart[D.e_child[e] + 1]++;
  for (size_t i = 0; i < n; i++) D.pstart[i + 1] += D.pstart[i];
  memcpy(fill, D.pstart, (n + 1) * sizeof *fill);
  for (size_t e = 0; e < D.nedges; e++) {
    uint32_t k = fill[D.e_child[e]]++;
    D.prank[k] = D.e_rank[e];
    D.pidx[k] = D.e_idx[e];
  }
  free(fill);
  free(D.e_child); free(D.e_rank); free(D.e_idx);
  D.e_child = D.e_rank = D.e_idx = NULL;
  D.edges_cap = 0;
  return 0;
}

/* ------------------------------------------------------------------ */
/* Labelling                                                          */
/* ------------------------------------------------------------------ */

/* What a decided position tells its parents. */
typedef struct Update {
  uint32_t parent;
  uint8_t value, mover;
  uint16_t pad;
  uint32_t dist;
  int32_t score;
} Update;

/* Sends the updates of the next positions of the frontier to their
** parents' owners, up to D.batch bytes (at least one position's), and
** exchanges them.  A level too large for one round is sent in several:
** its updates all carry the same distance, so the order does not matter,
** and what they decide joins the next level.  -1 when out of memory. */
static int send_to_parents(void) {
  Retro *r = D.r;
  int bad = 0;
  size_t bytes = 0;
  while (D.fhead < D.nfrontier && !bad && (bytes == 0 || bytes < D.batch)) {
    uint32_t x = D.frontier[D.fhead++];
    for (uint32_t k = D.pstart[x]; k < D.pstart[x + 1]; k++) {
      Update u = { D.pidx[k], r->value[x], r->mover[x], 0, r->dist[x], r->score[x] };
      if (buf_put(&D.out[D.prank[k]], &u, sizeof u) < 0) { bad = 1; break; }
      bytes += sizeof u;
    }
  }
  if (exchange() < 0) bad = 1;
  return bad ? -1 : 0;
}

/* Runs one phase to its end: rounds of send_to_parents, `take` deciding
** each parent (1: it joins the next frontier), until no rank has a
** frontier.  Returns the positions decided by the phase (global), or
** sets *st. */
static uint64_t phase(int (*take)(const Update *u), int *st) {
  uint64_t decided = sum_u64(D.nfrontier);
  D.fhead = 0;
  D.nnext = 0;
  for (;;) {
    int stop;
    if (*st == EXIT_OK && send_to_parents() < 0) *st = rank_fail(EXIT_LIMIT, "out of memory");
    else if (*st != EXIT_OK) exchange();
    for (size_t at = 0; *st == EXIT_OK && at + sizeof(Update) <= D.in.n; at += sizeof(Update)) {
      Update u;
      memcpy(&u, D.in.p + at, sizeof u);
      if (take(&u)) D.next[D.nnext++] = u.parent;
    }
    int all = agree(*st, &stop);
    if (all == EXIT_OK && stop) {
      char msg[160];
      all = stop_message(msg, sizeof msg, D.r->positions, "positions");
      job_fail(all, "%s", msg);
    }
    if (all != EXIT_OK) { *st = D.r->status = all; return 0; }
    if (sum_u64(D.nfrontier - D.fhead) > 0) continue;   /* the level goes on */
    uint32_t *t = D.frontier;
    D.frontier = D.next;
    D.next = t;
    D.nfrontier = D.nnext;
    D.fhead = 0;
    D.nnext = 0;
    uint64_t n = sum_u64(D.nfrontier);
    if (n == 0) return decided;
    decided += n;
  }
}

static int take_win_loss(const Update *u) {
  Retro *r = D.r;
  uint32_t p = u->parent;
  if (r->value[p] != RETRO_UNKNOWN) return 0;
  int same = r->mover[p] == u->mover;
  int good = (u->value == RETRO_WIN) == same;
  if (good || --r->count[p] == 0) {
    r->value[p] = good ? RETRO_WIN : RETRO_LOSS;
    r->dist[p] = u->dist + 1;
    return 1;
  }
  return 0;
}

/* Counts each draw's moves to draws (the first draw phase). */
static int take_draw_count(const Update *u) {
  Retro *r = D.r;
  uint32_t p = u->parent;
  if (u->value == RETRO_DRAW && r->value[p] == RETRO_DRAW && !r->terminal[p]) r->count[p]++;
  return 0;
}

static int take_draw(const Update *u) {
  Retro *r = D.r;
  uint32_t p = u->parent;
  if (r->value[p] != RETRO_DRAW || r->dist[p] != RETRO_ENDLESS || r->terminal[p]) return 0;
  if (r->mover[p] == 0 || --r->count[p] == 0) {
    r->dist[p] = u->dist + 1;
    return 1;
  }
  return 0;
}

static Value *best;            /* scored games: the best child so far */

static int take_score(const Update *u) {
  Retro *r = D.r;
  uint32_t p = u->parent;
  int64_t score = r->mover[p] == u->mover ? u->score : -(int64_t)u->score;
  Value v = value_make(score, (int64_t)u->dist + 1, r->mover[p]);
  if (v > best[p]) best[p] = v;
  if (--r->count[p] != 0) return 0;
  int64_t s, d;
  value_decode(best[p], &s, &d);
  r->score[p] = (int32_t)s;
  r->dist[p] = (uint32_t)d;
  r->value[p] = s > 0 ? RETRO_WIN : s < 0 ? RETRO_LOSS : RETRO_DRAW;
  return 1;
}

static int label(void) {
  Retro *r = D.r;
  int st = EXIT_OK;
  size_t n = D.owned;
  D.frontier = malloc((n + 1) * sizeof *D.frontier);
  D.next = malloc((n + 1) * sizeof *D.next);
  if (!D.frontier || !D.next || build_parents() < 0) st = rank_fail(EXIT_LIMIT, "out of memory");
  int stop, all = agree(st, &stop);
  if (all != EXIT_OK) return r->status = all;
  int scored = 0, mine = r->scored;
  MPI_Allreduce(&mine, &scored, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  r->scored = scored;
  D.nfrontier = 0;
  if (scored) {
    best = malloc((n + 1) * sizeof *best);
    if (!best) st = rank_fail(EXIT_LIMIT, "out of memory");
    for (size_t c = 0; c < n && best; c++) {
      best[c] = -VALUE_INF;
      if (r->terminal[c]) { r->dist[c] = 0; D.frontier[D.nfrontier++] = (uint32_t)c; }
    }
    r->labelled = phase(take_score, &st);
    free(best);
    best = NULL;
    if (st != EXIT_OK) return st;
    if (r->labelled < r->stored) {
      job_fail(EXIT_USAGE, "this game scores beyond win, loss and draw and has cycles: "
                  "retrograde analysis of scored games needs an acyclic game");
      return r->status = EXIT_USAGE;
    }
    return EXIT_OK;
  }
  for (size_t c = 0; c < n; c++)
    if (r->terminal[c] && r->value[c] != RETRO_DRAW) D.frontier[D.nfrontier++] = (uint32_t)c;
  r->labelled = phase(take_win_loss, &st);
  if (st != EXIT_OK) return st;
  /* Draws: what is not labelled; then their choices, then distances. */
  for (size_t c = 0; c < n; c++) {
    if (r->value[c] == RETRO_UNKNOWN) {
      r->value[c] = RETRO_DRAW;
      r->dist[c] = RETRO_ENDLESS;
      r->count[c] = 0;
    }
    if (r->value[c] == RETRO_DRAW) D.frontier[D.nfrontier++] = (uint32_t)c;
  }
  /* One round: every draw tells its parents; none goes on. */
  phase(take_draw_count, &st);
  if (st != EXIT_OK) return st;
  for (size_t c = 0; c < n; c++)
    if (r->terminal[c] && r->value[c] == RETRO_DRAW) D.frontier[D.nfrontier++] = (uint32_t)c;
  phase(take_draw, &st);
  if (st != EXIT_OK) return st;
  for (size_t c = 0; c < n; c++)
    r->score[c] = r->value[c] == RETRO_WIN ? 1 : r->value[c] == RETRO_LOSS ? -1 : 0;
  return EXIT_OK;
}

/* ------------------------------------------------------------------ */
/* The answer, the report, the database                               */
/* ------------------------------------------------------------------ */

/* The labels of the root's children, from their owners, added to every
** rank's table so that retro_answer finds them. */
static int gather_answer(void) {
  Retro *r = D.r;
  Game *g = D.g;
  MoveStack ms = { NULL, 0, 0 };
  int n = movestack_generate(&ms, g), st = EXIT_OK;
  Outcome o;
  if (n < 0) n = 0, st = rank_fail(EXIT_LIMIT, "out of memory");
  if (game_ended(g, &o)) n = 0;
  /* Per child: found, value, mover, dist, score (summed: one owner). */
  int64_t *lab = calloc((size_t)n * 5 + 1, sizeof *lab), *sum = calloc((size_t)n * 5 + 1, sizeof *sum);
  unsigned char *keys = malloc((size_t)n * D.key + 1);
  if (!lab || !sum || !keys) st = rank_fail(EXIT_LIMIT, "out of memory"), n = 0;
  for (int i = 0; i < n; i++) {
    uint32_t c;
    game_apply(g, &ms.moves[i]);
    current_keys();
    game_undo(g);
    memcpy(keys + (size_t)i * D.key, D.ckey, D.key);
    /* Owned children are stored (the root's moves were enumerated). */
    if (owner(D.ckey) != D.rank || keyset_add(D.set, D.ckey, &c) != 0) continue;
    int64_t *l = lab + (size_t)i * 5;
    l[0] = 1; l[1] = r->value[c]; l[2] = r->mover[c]; l[3] = r->dist[c]; l[4] = r->score[c];
  }
  int all_n = n;
  MPI_Allreduce(&n, &all_n, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce(lab, sum, all_n * 5, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
  for (int i = 0; i < all_n && st == EXIT_OK; i++) {
    const int64_t *l = sum + (size_t)i * 5;
    uint32_t c;
    if (l[0] != 1) continue;     /* not stored: retro_answer says so */
    int a = keyset_add(D.set, keys + (size_t)i * D.key, &c);
    if (a < 0 || (a && new_class(c) < 0)) { st = rank_fail(EXIT_LIMIT, "out of memory"); break; }
    r->value[c] = (uint8_t)l[1]; r->mover[c] = (uint8_t)l[2];
    r->dist[c] = (uint32_t)l[3]; r->score[c] = (int32_t)l[4];
  }
  free(lab); free(sum); free(keys);
  movestack_free(&ms);
  int stop;
  return r->status = agree(st, &stop);
}

static double seconds_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* One line per rank on rank 0's stderr: what each holds and sent. */
static void report_ranks(void) {
  uint64_t mine[6] = { D.owned, D.r->states.n, D.nedges, rank_memory(), D.messages, D.bytes };
  uint64_t *all = D.rank == 0 ? malloc((size_t)D.size * sizeof mine) : NULL;
  MPI_Gather(mine, 6, MPI_UINT64_T, all, 6, MPI_UINT64_T, 0, MPI_COMM_WORLD);
  if (D.rank != 0 || !all || !D.err) { free(all); return; }
  for (int i = 0; i < D.size; i++) {
    const uint64_t *a = all + (size_t)i * 6;
    fprintf(D.err, "mpi: rank %d of %d: stored %llu, positions %llu, moves %llu, memory %.2f MiB, "
            "sent %llu messages, %llu bytes\n", i, D.size, (unsigned long long)a[0],
            (unsigned long long)a[1], (unsigned long long)a[2], (double)a[3] / (1 << 20),
            (unsigned long long)a[4], (unsigned long long)a[5]);
  }
  fprintf(D.err, "mpi: %llu exchange rounds\n", (unsigned long long)D.rounds);
  free(all);
}

static int mpi_solve(Retro *r, Search *s) {
  Game *g = r->g;
  D.r = r;
  D.g = g;
  /* What every rank would say (retro_answer's errors), rank 0 says;
  ** a rank's own failures go through rank_fail. */
  r->err = D.rank == 0 ? D.err : NULL;
  /* GSOLVE_MPI_BATCH caps a labelling round's updates per rank, in
  ** bytes: the send buffers' size, and under MPI's 2 GiB int counts. */
  const char *batch = getenv("GSOLVE_MPI_BATCH");
  D.batch = RM_BATCH;
  if (batch && *batch) {
    char *end;
    unsigned long long b = strtoull(batch, &end, 10);
    if (*end || b == 0 || b > (1ull << 30))
      return job_fail(EXIT_USAGE, "GSOLVE_MPI_BATCH must be a number of bytes from 1 to 1073741824, "
                       "not '%s'", batch);
    D.batch = (size_t)b;
  }
  if (retro_scratch(r) < 0) return rank_fail(EXIT_LIMIT, "out of memory");
  D.set = r->canonical ? &r->classes : &r->states;
  D.key = D.set->key_bytes;
  D.ckey = malloc(D.key);
  D.rkey = malloc(D.key);
  D.out = calloc((size_t)D.size, sizeof *D.out);
  D.scount = calloc((size_t)D.size * 4, sizeof(int));
  int st = EXIT_OK, stop;
  if (!D.ckey || !D.rkey || !D.out || !D.scount) st = rank_fail(EXIT_LIMIT, "out of memory");
  if ((st = agree(st, &stop)) != EXIT_OK) return r->status = st;
  D.rcount = D.scount + D.size;
  D.sdispl = D.rcount + D.size;
  D.rdispl = D.sdispl + D.size;
  double t0 = seconds_now();
  if ((st = enumerate()) != EXIT_OK) return st;
  D.owned = D.set->n;
  r->positions = sum_u64(r->states.n);
  r->stored = sum_u64(D.owned);
  r->edges = sum_u64(D.nedges);
  double t1 = seconds_now();
  if (D.rank == 0)
    progress_note(r->progress, "retrograde analysis over MPI, labelling", NULL, r->stored,
                  "positions", -1);
  if ((st = label()) != EXIT_OK) return st;
  r->enumerate_seconds = t1 - t0;
  r->label_seconds = seconds_now() - t1;
  report_ranks();
  if ((st = gather_answer()) != EXIT_OK) return st;
  s->nodes = r->positions;
  st = retro_answer(r, s);
  return st;
}

/* A block of up to RM_BLOCK of this rank's records, in key order, from
** *at on: count (4 bytes), then per record key, value, mover, dist,
** score. */
static size_t make_block(const uint32_t *order, size_t *at, unsigned char *out) {
  Retro *r = D.r;
  uint32_t n = 0;
  size_t rec = D.key + 10, pos = 4;
  for (; n < RM_BLOCK && *at < D.owned; n++, (*at)++) {
    uint32_t i = order[*at];
    memcpy(out + pos, D.set->keys + (size_t)i * D.key, D.key);
    out[pos + D.key] = r->value[i];
    out[pos + D.key + 1] = r->mover[i];
    memcpy(out + pos + D.key + 2, &r->dist[i], 4);
    memcpy(out + pos + D.key + 6, &r->score[i], 4);
    pos += rec;
  }
  memcpy(out, &n, 4);
  return pos;
}

/* The database: every rank's share sorted by key; rank 0 merges them
** into the file, asking each rank for a block at a time. */
static int mpi_write(const Retro *cr, const char *path, const char *game, const char *params,
                     uint64_t rules_hash, FILE *err) {
  size_t rec = D.key + 10, bsize = 4 + RM_BLOCK * rec;
  uint32_t *order = db_key_order(D.set, D.owned);
  unsigned char *mine = malloc(bsize);
  int st = order && mine ? EXIT_OK : rank_fail(EXIT_LIMIT, "out of memory writing '%s'", path);
  int stop;
  if ((st = agree(st, &stop)) != EXIT_OK) { free(order); free(mine); return st; }
  size_t at = 0;
  if (D.rank != 0) {
    for (;;) {
      int ask;
      MPI_Recv(&ask, 1, MPI_INT, 0, RM_TAG_ASK, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      if (!ask) break;
      size_t n = make_block(order, &at, mine);
      MPI_Send(mine, (int)n, MPI_BYTE, 0, RM_TAG_BLOCK, MPI_COMM_WORLD);
      if (n < 4 + RM_BLOCK * rec) break;     /* its last block */
    }
  } else {
    /* Per rank: its current block, the next record in it, how many. */
    unsigned char **blk = calloc((size_t)D.size, sizeof *blk);
    uint32_t *cnt = calloc((size_t)D.size, sizeof *cnt), *pos = calloc((size_t)D.size, sizeof *pos);
    int *done = calloc((size_t)D.size, sizeof *done);
    DbWriter w;
    int open = 0;
    if (!blk || !cnt || !pos || !done) st = rank_fail(EXIT_LIMIT, "out of memory writing '%s'", path);
    for (int i = 0; i < D.size && st == EXIT_OK; i++)
      if (!(blk[i] = i == 0 ? mine : malloc(bsize))) st = rank_fail(EXIT_LIMIT, "out of memory");
    if (st == EXIT_OK) {
      st = db_write_begin(&w, D.r, D.r->positions, D.r->stored, path, game, params, rules_hash, err);
      open = st == EXIT_OK;
    }
    for (int i = 0; i < D.size; i++) {       /* the first blocks, or the end */
      if (i == 0) {
        if (st == EXIT_OK) { make_block(order, &at, mine); memcpy(&cnt[0], mine, 4); }
        continue;
      }
      int ask = st == EXIT_OK;
      MPI_Send(&ask, 1, MPI_INT, i, RM_TAG_ASK, MPI_COMM_WORLD);
      if (!ask) { done[i] = 1; continue; }
      MPI_Recv(blk[i], (int)bsize, MPI_BYTE, i, RM_TAG_BLOCK, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      memcpy(&cnt[i], blk[i], 4);
    }
    for (uint64_t written = 0; st == EXIT_OK; written++) {
      int min = -1;
      for (int i = 0; i < D.size; i++) {
        if (pos[i] == cnt[i]) continue;
        if (min < 0 || memcmp(blk[i] + 4 + pos[i] * rec, blk[min] + 4 + pos[min] * rec, D.key) < 0)
          min = i;
      }
      if (min < 0) break;
      const unsigned char *p = blk[min] + 4 + pos[min] * rec;
      uint32_t dist;
      int32_t score;
      memcpy(&dist, p + D.key + 2, 4);
      memcpy(&score, p + D.key + 6, 4);
      db_write_record(&w, p, D.key, p[D.key], p[D.key + 1], dist, score);
      if (++pos[min] == cnt[min] && cnt[min] == RM_BLOCK) {   /* the next block */
        pos[min] = 0;
        if (min == 0) make_block(order, &at, mine);
        else {
          int ask = 1;
          MPI_Send(&ask, 1, MPI_INT, min, RM_TAG_ASK, MPI_COMM_WORLD);
          MPI_Recv(blk[min], (int)bsize, MPI_BYTE, min, RM_TAG_BLOCK, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }
        memcpy(&cnt[min], blk[min], 4);
      }
      if (stop_requested) {
        char msg[160];
        st = stop_message(msg, sizeof msg, written, "records written");
        job_fail(st, "%s", msg);
      }
    }
    /* Ranks still serving blocks hear the end. */
    for (int i = 1; i < D.size; i++) {
      if (done[i] || cnt[i] < RM_BLOCK) continue;   /* it sent its last block */
      int ask = 0;
      MPI_Send(&ask, 1, MPI_INT, i, RM_TAG_ASK, MPI_COMM_WORLD);
    }
    if (open) {
      if (st == EXIT_OK) st = db_write_end(&w, err);
      else file_abort(&w.file);
    }
    for (int i = 1; blk && i < D.size; i++) free(blk[i]);
    free(blk); free(cnt); free(pos); free(done);
  }
  free(order);
  free(mine);
  MPI_Bcast(&st, 1, MPI_INT, 0, MPI_COMM_WORLD);
  (void)cr;
  return st;
}

static void mpi_free(void) {
  for (int d = 0; D.out && d < D.size; d++) free(D.out[d].p);
  free(D.out); free(D.in.p); free(D.queue.p); free(D.send.p);
  free(D.scount);
  free(D.e_child); free(D.e_rank); free(D.e_idx);
  free(D.pstart); free(D.prank); free(D.pidx);
  free(D.frontier); free(D.next);
  free(D.ckey); free(D.rkey);
}

/* --stats' table counts: each rank counts its own share (the positions
** it owns and the raw states kept with them), then the counts and the
** histograms are summed and the longest win's example comes from the
** rank that holds it.  Every rank makes the same collective calls. */
static int mpi_stats(Retro *r, RetroStats *st) {
  size_t stored = r->stored;
  uint64_t positions = r->positions;
  r->stored = D.owned;                 /* the answer's extra records are others' */
  r->positions = r->states.n;
  int fail = retro_stats_local(r, st) != EXIT_OK, any;
  r->stored = stored;
  r->positions = positions;
  MPI_Allreduce(&fail, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (any) { retro_stats_free(st); return EXIT_LIMIT; }
  uint32_t maxdist;
  int raw;
  MPI_Allreduce(&st->maxdist, &maxdist, 1, MPI_UINT32_T, MPI_MAX, MPI_COMM_WORLD);
  MPI_Allreduce(&st->raw, &raw, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  uint64_t count[2][4];
  MPI_Allreduce(st->count, count, 8, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
  memcpy(st->count, count, sizeof count);
  st->raw = raw;
  fail = 0;
  for (int m = 0; m < 2; m++)
    for (int k = 0; k < 2; k++) {
      /* Every rank's histogram to the global length, then summed. */
      uint64_t *h = calloc((size_t)maxdist + 1, sizeof *h), *sum = calloc((size_t)maxdist + 1, sizeof *sum);
      if (!h || !sum) fail = 1;
      else if (st->hist[m][k]) memcpy(h, st->hist[m][k], ((size_t)st->maxdist + 1) * sizeof *h);
      MPI_Allreduce(&fail, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
      if (any) { free(h); free(sum); retro_stats_free(st); return EXIT_LIMIT; }
      MPI_Allreduce(h, sum, (int)maxdist + 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
      free(h);
      free(st->hist[m][k]);
      st->hist[m][k] = sum;
    }
  st->maxdist = maxdist;
  for (int m = 0; m < 2; m++) {
    /* The longest win, and the lowest rank holding one that long. */
    struct { int plies, rank; } mine = { (int)st->longest[m], D.rank }, best;
    MPI_Allreduce(&mine, &best, 1, MPI_2INT, MPI_MAXLOC, MPI_COMM_WORLD);
    st->longest[m] = best.plies;
    if (best.plies < 0) continue;
    int have = st->example[m] != NULL, all;
    MPI_Bcast(&have, 1, MPI_INT, best.rank, MPI_COMM_WORLD);
    if (!have) { free(st->example[m]); st->example[m] = NULL; continue; }
    if (!st->example[m] && !(st->example[m] = malloc(D.g->state_bytes))) fail = 1;
    MPI_Allreduce(&fail, &all, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (all) { retro_stats_free(st); return EXIT_LIMIT; }
    MPI_Bcast(st->example[m], (int)D.g->state_bytes, MPI_BYTE, best.rank, MPI_COMM_WORLD);
  }
  return EXIT_OK;
}

static const RetroDistributed retro_mpi = { mpi_solve, mpi_write, mpi_stats };

int retro_mpi_start(int *argc, char ***argv) {
  if (MPI_Init(argc, argv) != MPI_SUCCESS) {
    fputs("gsolve: error: MPI_Init failed\n", stderr);
    return EXIT_IO;
  }
  MPI_Comm_rank(MPI_COMM_WORLD, &D.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &D.size);
  D.err = stderr;
  if (D.rank != 0) {
    /* Every rank runs the command line; rank 0 alone speaks for the
    ** job.  The others keep their own stderr for their own failures. */
    int fd = dup(2);
    D.err = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!freopen("/dev/null", "w", stdout) || !freopen("/dev/null", "w", stderr)) return EXIT_IO;
  }
  retro_distributed = &retro_mpi;
  return EXIT_OK;
}

int retro_mpi_end(int status) {
  mpi_free();
  /* The ranks agree on the status: the worst one. */
  int worst = status;
  MPI_Allreduce(&status, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  MPI_Finalize();
  return D.rank == 0 ? status : worst;
}
