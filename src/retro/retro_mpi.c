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
** Loading a position.  With an engine that has set_state and can unpack
** its keys (the VM), a position travels as its raw key, which its record
** carries anyway: the owner unpacks it and sets the state (by_state).
** Otherwise (the native engines, or GSOLVE_MPI_PATHS) it travels as its
** path from the root: the indices of the moves in generation order (2
** bytes a ply), which its owner replays with generate + apply, depth x
** (generate + apply) per position against the single-process DFS's one
** apply.  Paths live only in messages and in the work queue, never in
** the table.
**
** Enumeration.  Rounds: each rank expands up to RM_CHUNK queued states,
** and for every move sends to the child's owner one record (class key,
** raw key, the parent's rank and local index, the move's slot with
** payoff vectors, the path without by_state); the records are
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
** in rounds of at most rmpi.batch bytes of updates per rank, which bounds
** the buffers and keeps MPI's int counts under 2 GiB.  Draws' distances
** and scored games go the same way (one round per level or per wave of
** decided positions).  A global sum ends each phase when no rank decided
** anything new.  The payoff-vector mode (chance, per-move payoffs, more
** than two players) has its own labelling: retro_mpi_vector.c.
**
** The answer.  Every rank knows the root; the owners of the root's
** children contribute their labels to an MPI_Allreduce and every rank
** adds those few records to its own table, so retro_answer reports the
** value, plies and best moves exactly as the single-process solver does.
** --pv runs on every rank alike, each step fetching its position's
** children the same way (rmpi_children, through retro_answer's hook).
**
** The database (retro_mpi_db.c).  Each rank sorts its share by key and
** rank 0 merges the N sorted streams into the file.
**
** Stops and faults.  Ctrl-C (mpirun sends the ranks SIGTERM), a signal to
** one rank and --time-limit set stop_requested on a rank; the next
** Allreduce makes every rank stop with the same status, before anything
** is written.  A rank that dies makes mpirun end the job
** (Open MPI's default errors-are-fatal handler and its process
** monitoring); nothing is renamed into place before the last record.
*/
#include <mpi.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "retro/db.h"
#include "search/progress.h"
#include "retro/retro.h"
#include "retro/retro_compact.h"
#include "retro/retro_mpi.h"
#include "retro/retro_mpi_int.h"
#include "retro/retro_stats.h"
#include "search/value.h"
#include "util/clock.h"
#include "util/diag.h"
#include "util/status.h"
#include "util/stop.h"

#define RM_CHUNK 4096          /* states expanded per round and rank */
#define RM_BATCH (64u << 20)   /* default update bytes per labelling round and rank */

RetroMpi rmpi;                 /* one solve per process */

/* ------------------------------------------------------------------ */
/* Errors, buffers, exchange                                          */
/* ------------------------------------------------------------------ */

/* An error seen by this rank: printed by it (rank 0's stderr is the
** user's; the others' too, through the saved descriptor). */
int rmpi_fail(int status, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  if (rmpi.err) {
    char msg[512];
    vsnprintf(msg, sizeof msg, fmt, ap);
    if (rmpi.size > 1) diag_fail(rmpi.err, status, "rank %d: %s", rmpi.rank, msg);
    else diag_fail(rmpi.err, status, "%s", msg);
    fflush(rmpi.err);
  }
  va_end(ap);
  return rmpi.r->status = status;
}

/* A failure of the whole job (every rank knows it): rank 0 says it. */
int rmpi_job_fail(int status, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  if (rmpi.rank == 0 && rmpi.err) {
    diag_vfail(rmpi.err, status, fmt, ap);
    fflush(rmpi.err);
  }
  va_end(ap);
  return rmpi.r->status = status;
}

int rmpi_room(Buf *b, size_t more) {
  if (b->n + more <= b->cap) return 0;
  size_t cap = b->cap ? b->cap : 4096;
  while (cap < b->n + more) cap *= 2;
  unsigned char *p = realloc(b->p, cap);
  if (!p) return -1;
  b->p = p;
  b->cap = cap;
  return 0;
}

int rmpi_put(Buf *b, const void *data, size_t n) {
  if (rmpi_room(b, n) < 0) return -1;
  if (n) memcpy(b->p + b->n, data, n);
  b->n += n;
  return 0;
}

int rmpi_put32(Buf *b, uint32_t v) { return rmpi_put(b, &v, 4); }

uint32_t rmpi_get32(const unsigned char *p) {
  uint32_t v;
  memcpy(&v, p, 4);
  return v;
}

/* The owner of a key: a hash of its own (not the key sets' one, whose low
** bits pick slots), scaled onto the ranks. */
int rmpi_owner(const unsigned char *key) {
  uint64_t h = 0x9ae16a3b2f90404fULL;
  for (size_t i = 0; i < rmpi.key; i++) { h ^= key[i]; h *= 0x100000001b3ULL; }
  h ^= h >> 31;
  h *= 0x94d049bb133111ebULL;
  h ^= h >> 29;
  return (int)(((h >> 32) * (uint64_t)rmpi.size) >> 32);
}

/* Sends every rank its batch and receives the batches for this one
** into rmpi.in.  -1 when out of memory or over 2 GiB in one round.  The
** ranks agree before any byte moves, since a rank without room to
** receive cannot take what was announced to it (the bytes went into the
** short buffer, session 24): when one fails, none receives anything. */
int rmpi_exchange(void) {
  size_t total = 0;
  int bad = 0;
  for (int d = 0; d < rmpi.size; d++) {
    if (rmpi.out[d].n > INT_MAX / 2) bad = 1;
    rmpi.scount[d] = (int)rmpi.out[d].n;
    rmpi.sdispl[d] = (int)total;
    total += rmpi.out[d].n;
    if (d != rmpi.rank && rmpi.out[d].n) { rmpi.messages++; rmpi.bytes += rmpi.out[d].n; }
  }
  if (total > INT_MAX / 2) bad = 1;
  rmpi.send.n = 0;
  if (!bad && rmpi_room(&rmpi.send, total + 1) < 0) bad = 1;
  if (bad) for (int d = 0; d < rmpi.size; d++) rmpi.scount[d] = rmpi.sdispl[d] = 0;
  else
    for (int d = 0; d < rmpi.size; d++) {
      if (rmpi.out[d].n) memcpy(rmpi.send.p + rmpi.sdispl[d], rmpi.out[d].p, rmpi.out[d].n);
      rmpi.out[d].n = 0;
    }
  MPI_Alltoall(rmpi.scount, 1, MPI_INT, rmpi.rcount, 1, MPI_INT, MPI_COMM_WORLD);
  size_t in = 0;
  for (int d = 0; d < rmpi.size; d++) { rmpi.rdispl[d] = (int)in; in += (size_t)rmpi.rcount[d]; }
  rmpi.in.n = 0;
  rmpi.in.head = 0;
  if (in > INT_MAX / 2 || rmpi_room(&rmpi.in, in + 1) < 0) bad = 1;
  int any_bad = 0;
  MPI_Allreduce(&bad, &any_bad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (any_bad) {
    /* Nothing moves: the rank that failed says so (-1), the others see an
    ** empty round (0) until the round's agreement stops them all. */
    for (int d = 0; d < rmpi.size; d++) rmpi.rcount[d] = 0;
    in = 0;
  } else {
    MPI_Alltoallv(rmpi.send.p, rmpi.scount, rmpi.sdispl, MPI_BYTE, rmpi.in.p, rmpi.rcount, rmpi.rdispl,
                  MPI_BYTE, MPI_COMM_WORLD);
  }
  rmpi.in.n = bad ? 0 : in;
  rmpi.rounds++;
  return bad ? -1 : 0;
}

uint64_t rmpi_sum(uint64_t v) {
  uint64_t total;
  MPI_Allreduce(&v, &total, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
  return total;
}

/* One decision for all ranks: the largest failure status and stop. */
int rmpi_agree(int status, int *stop) {
  int in[2] = { status, stop_requested }, out[2];
  MPI_Allreduce(in, out, 2, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  *stop = out[1];
  return out[0];
}

/* ------------------------------------------------------------------ */
/* Enumeration                                                        */
/* ------------------------------------------------------------------ */

/* Bytes this rank holds, as retro_memory counts them plus the reverse
** edges, the exchange buffers and the labelling's arrays. */
size_t rmpi_memory(void) {
  size_t np = (size_t)rmpi.g->nplayers;
  size_t total = retro_memory(rmpi.r) + rmpi.edges_cap * (rmpi.r->vector ? 4 : 3) * sizeof(uint32_t) +
                 rmpi.queue.cap +
                 rmpi.in.cap + rmpi.send.cap + rmpi.fstart_cap * sizeof(uint32_t) +
                 rmpi.fw_cap * (sizeof(uint32_t) + (rmpi.fw_pay ? np * sizeof(int32_t) : 0) +
                                (rmpi.fw_value ? (np + 1) * sizeof(double) : 0));
  for (int d = 0; d < rmpi.size; d++) total += rmpi.out[d].cap;
  return total + rmpi.label_bytes;
}

int rmpi_new_class(uint32_t c) {
  Retro *r = rmpi.r;
  if (retro_grow_classes(rmpi.r, (size_t)c + 1) < 0) return -1;
  if (r->vector && rmpi.fstart_cap < r->class_cap) {
    uint32_t *f = realloc(rmpi.fstart, r->class_cap * sizeof *f);
    if (!f) return -1;
    rmpi.fstart = f;
    rmpi.fstart_cap = r->class_cap;
  }
  r->value[c] = RETRO_UNKNOWN;
  r->mover[c] = 0;
  r->dist[c] = 0;
  r->count[c] = 0;
  r->terminal[c] = 0;
  r->expanded[c] = 0;
  r->score[c] = 0;
  if (r->vector) memset(&r->vec[c], 0, sizeof r->vec[c]);
  r->nclass = (size_t)c + 1;
  return 0;
}

static int add_edge(uint32_t child, uint32_t prank, uint32_t pidx, uint32_t slot) {
  if (rmpi.nedges == rmpi.edges_cap) {
    size_t cap = rmpi.edges_cap ? rmpi.edges_cap * 2 : 4096;
    uint32_t *a = realloc(rmpi.e_child, cap * sizeof *a);
    if (a) rmpi.e_child = a;
    uint32_t *b = realloc(rmpi.e_rank, cap * sizeof *b);
    if (b) rmpi.e_rank = b;
    uint32_t *c = realloc(rmpi.e_idx, cap * sizeof *c);
    if (c) rmpi.e_idx = c;
    if (!a || !b || !c) return -1;
    if (rmpi.r->vector) {
      uint32_t *d = realloc(rmpi.e_slot, cap * sizeof *d);
      if (!d) return -1;
      rmpi.e_slot = d;
    }
    rmpi.edges_cap = cap;
  }
  rmpi.e_child[rmpi.nedges] = child;
  rmpi.e_rank[rmpi.nedges] = prank;
  rmpi.e_idx[rmpi.nedges] = pidx;
  if (rmpi.r->vector) rmpi.e_slot[rmpi.nedges] = slot;
  rmpi.nedges++;
  return 0;
}

/* Payoff vectors: room for n more moves' weights and pays. */
static int fw_room(size_t n) {
  size_t np = (size_t)rmpi.g->nplayers;
  if (rmpi.nfw + n <= rmpi.fw_cap) return 0;
  if (rmpi.nfw + n > UINT32_MAX) return -1;
  size_t cap = rmpi.fw_cap ? rmpi.fw_cap : 4096;
  while (cap < rmpi.nfw + n) cap *= 2;
  uint32_t *w = realloc(rmpi.fw_weight, cap * sizeof *w);
  if (!w) return -1;
  rmpi.fw_weight = w;
  if (rmpi.g->has_rewards) {
    int32_t *p = realloc(rmpi.fw_pay, cap * np * sizeof *p);
    if (!p) return -1;
    rmpi.fw_pay = p;
  }
  rmpi.fw_cap = cap;
  return 0;
}

/* The keys of the engine's current state into rmpi.rkey (raw) and rmpi.ckey
** (stored: canonical when there are symmetries). */
void rmpi_keys(void) {
  Retro *r = rmpi.r;
  Game *g = rmpi.g;
  const void *s = game_state(g);
  if (g->vt->pack) g->vt->pack(g, s, rmpi.rkey); else memcpy(rmpi.rkey, s, rmpi.key);
  if (!r->canonical) { memcpy(rmpi.ckey, rmpi.rkey, rmpi.key); return; }
  r->canonical(g, s, r->canon);
  if (g->vt->pack) g->vt->pack(g, r->canon, rmpi.ckey); else memcpy(rmpi.ckey, r->canon, rmpi.key);
}

/* A state reached (a message, or the root): its raw state and class
** added, the edge from its parent (its move's slot in the parent's
** moves) recorded, queued if new: the stored index, whether it records
** the class's moves, then its raw key (by_state) or its path.  0, or -1
** when out of memory. */
static int receive_state(const unsigned char *ckey, const unsigned char *rkey, uint32_t prank,
                         uint32_t pidx, uint32_t slot, uint32_t len, const unsigned char *path) {
  Retro *r = rmpi.r;
  uint32_t c, ri;
  int raw_new = 1;
  if (r->canonical && (raw_new = keyset_add(&r->states, rkey, &ri)) < 0) return -1;
  int cls_new = keyset_add(rmpi.set, ckey, &c);
  if (cls_new < 0) return -1;
  if (cls_new && rmpi_new_class(c) < 0) return -1;
  if (!r->canonical) raw_new = cls_new;
  if (prank != RM_NONE && add_edge(c, prank, pidx, slot) < 0) return -1;
  if (!raw_new) return 0;
  unsigned char rec = (unsigned char)cls_new;
  if (rmpi_put32(&rmpi.queue, c) < 0 || rmpi_put(&rmpi.queue, &rec, 1) < 0) return -1;
  if (rmpi.by_state) return rmpi_put(&rmpi.queue, rkey, rmpi.key);
  if (rmpi_put32(&rmpi.queue, len) < 0 || rmpi_put(&rmpi.queue, path, (size_t)len * 2) < 0)
    return -1;
  return 0;
}

/* Loads the queued state at the queue's head: set from its raw key
** (by_state), or its path from the root replayed (*applied moves, to
** undo after).  Sets *c, *record, *len and *path.  EXIT_OK or a status. */
static int load_one(MoveStack *ms, uint32_t *c, int *record, uint32_t *applied, uint32_t *len,
                    const unsigned char **path) {
  Game *g = rmpi.g;
  const unsigned char *item = rmpi.queue.p + rmpi.queue.head;
  *c = rmpi_get32(item);
  *record = item[4];
  *applied = *len = 0;
  *path = NULL;
  if (rmpi.by_state) {
    const unsigned char *key = item + 5;
    rmpi.queue.head += 5 + rmpi.key;
    if (g->vt->pack) g->vt->unpack(g, key, rmpi.state);
    else memcpy(rmpi.state, key, rmpi.key);
    g->vt->set_state(g, rmpi.state);
    return EXIT_OK;
  }
  *len = rmpi_get32(item + 5);
  *path = item + 9;
  rmpi.queue.head += 9 + (size_t)*len * 2;
  if ((uint64_t)*len + 1 + (uint64_t)rmpi.r->base_ply >= GAME_MAX_PLY)
    return rmpi_fail(EXIT_LIMIT, "a line of play longer than %d plies", GAME_MAX_PLY);
  for (; *applied < *len; (*applied)++) {
    size_t base = ms->top;
    int n = movestack_generate(ms, g);
    uint16_t k;
    memcpy(&k, *path + (size_t)*applied * 2, 2);
    if (n < 0) return rmpi_fail(EXIT_LIMIT, "out of memory");
    if (k >= n) return rmpi_fail(EXIT_RUNTIME, "a path from the root does not replay: the rules are not deterministic");
    Move m = ms->moves[base + k];
    ms->top = base;
    game_apply(g, &m);
  }
  return EXIT_OK;
}

/* Payoff vectors: the recording state's moves' weights (chance) and
** pays, in generation order from fstart[c], as retro.c's add_edge keeps
** them per edge. */
static int record_moves(uint32_t c, const Move *moves, int n) {
  Game *g = rmpi.g;
  size_t np = (size_t)g->nplayers;
  if (fw_room((size_t)n) < 0) return -1;
  rmpi.fstart[c] = (uint32_t)rmpi.nfw;
  uint32_t *w = rmpi.fw_weight + rmpi.nfw;
  if (game_to_move(g) == GAME_CHANCE) game_weights(g, moves, n, w);
  else for (int i = 0; i < n; i++) w[i] = 1;
  for (int i = 0; rmpi.fw_pay && i < n; i++) {
    int32_t *pay = rmpi.fw_pay + (rmpi.nfw + (size_t)i) * np;
    game_apply(g, &moves[i]);
    if (!game_rewards(g, pay)) memset(pay, 0, np * sizeof *pay);
    game_undo(g);
  }
  rmpi.nfw += (size_t)n;
  return 0;
}

/* Expands the queued state at the queue's head: loads it, records the
** class's moves (the recording state) or checks them (another state of
** the class), and sends every child to its owner: its keys, the parent's
** rank and index, the move's slot (payoff vectors), the path (without
** by_state).  EXIT_OK or a failure status (reported). */
static int expand_one(MoveStack *ms) {
  Retro *r = rmpi.r;
  Game *g = rmpi.g;
  uint32_t c, applied, len;
  int record;
  const unsigned char *path;
  int st = load_one(ms, &c, &record, &applied, &len, &path);
  if (st != EXIT_OK) goto undo;
  {
    Outcome o;
    int ended = game_ended(g, &o), n = 0;
    size_t base = ms->top;
    if (!ended) {
      if ((n = movestack_generate(ms, g)) < 0) { st = rmpi_fail(EXIT_LIMIT, "out of memory"); goto undo; }
      if (n == 0) { game_no_moves(g, &o); ended = 1; ms->top = base; }
    }
    if (record) {
      r->mover[c] = (uint8_t)game_to_move(g);
      r->expanded[c] = 1;
      if (ended) retro_set_terminal(r, c, &o);
      else r->count[c] = (uint32_t)n;
      if (!ended && r->vector && record_moves(c, ms->moves + base, n) < 0) {
        ms->top = base;
        st = rmpi_fail(EXIT_LIMIT, "out of memory");
        goto undo;
      }
    } else if (ended ? !r->terminal[c] : (r->terminal[c] || r->count[c] != (uint32_t)n)) {
      ms->top = base;
      st = rmpi_fail(EXIT_BAD_GAME, "the game's symmetry declarations do not match its rules: "
                     "two positions that a declared symmetry maps onto each other differ (in "
                     "legal moves or in having ended); remove or correct the symmetry lines");
      goto undo;
    }
    for (int i = 0; i < n && st == EXIT_OK; i++) {
      game_apply(g, &ms->moves[base + (size_t)i]);
      rmpi_keys();
      Buf *b = &rmpi.out[rmpi_owner(rmpi.ckey)];
      uint16_t k = (uint16_t)i;
      int bad = rmpi_put(b, rmpi.ckey, rmpi.key) < 0 ||
                (r->canonical && rmpi_put(b, rmpi.rkey, rmpi.key) < 0) ||
                rmpi_put32(b, record ? (uint32_t)rmpi.rank : RM_NONE) < 0 || rmpi_put32(b, c) < 0 ||
                (r->vector && rmpi_put32(b, (uint32_t)i) < 0);
      if (!bad && !rmpi.by_state)
        bad = rmpi_put32(b, len + 1) < 0 || rmpi_put(b, path, (size_t)len * 2) < 0 ||
              rmpi_put(b, &k, 2) < 0;
      if (bad) st = rmpi_fail(EXIT_LIMIT, "out of memory");
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
  size_t keys = rmpi.key * (rmpi.r->canonical ? 2 : 1), head = keys + 8 + (rmpi.r->vector ? 4 : 0);
  while (rmpi.in.head < rmpi.in.n) {
    const unsigned char *p = rmpi.in.p + rmpi.in.head;
    const unsigned char *ckey = p, *rkey = rmpi.r->canonical ? p + rmpi.key : p;
    uint32_t prank = rmpi_get32(p + keys), pidx = rmpi_get32(p + keys + 4);
    uint32_t slot = rmpi.r->vector ? rmpi_get32(p + keys + 8) : 0, len = 0;
    if (!rmpi.by_state) len = rmpi_get32(p + head);
    rmpi.in.head += head + (rmpi.by_state ? 0 : 4 + (size_t)len * 2);
    if (receive_state(ckey, rkey, prank, pidx, slot, len, rmpi.by_state ? NULL : p + head + 4) < 0)
      return -1;
  }
  return 0;
}

static int enumerate(void) {
  Retro *r = rmpi.r;
  MoveStack ms = { NULL, 0, 0 };
  int st = EXIT_OK, stop = 0;
  rmpi_keys();
  if (rmpi_owner(rmpi.ckey) == rmpi.rank &&
      receive_state(rmpi.ckey, rmpi.rkey, RM_NONE, 0, 0, 0, NULL) < 0)
    st = rmpi_fail(EXIT_LIMIT, "out of memory");
  for (;;) {
    for (int i = 0; i < RM_CHUNK && st == EXIT_OK && rmpi.queue.head < rmpi.queue.n; i++)
      st = expand_one(&ms);
    if (rmpi.queue.head == rmpi.queue.n) rmpi.queue.head = rmpi.queue.n = 0;
    else if (rmpi.queue.head > rmpi.queue.n / 2) {
      memmove(rmpi.queue.p, rmpi.queue.p + rmpi.queue.head, rmpi.queue.n - rmpi.queue.head);
      rmpi.queue.n -= rmpi.queue.head;
      rmpi.queue.head = 0;
    }
    if (rmpi_exchange() < 0 && st == EXIT_OK) st = rmpi_fail(EXIT_LIMIT, "out of memory (exchange)");
    if (st == EXIT_OK && receive_round() < 0) st = rmpi_fail(EXIT_LIMIT, "out of memory");
    if (st == EXIT_OK && r->memory_limit && rmpi_memory() > r->memory_limit)
      st = rmpi_fail(EXIT_LIMIT, "memory limit of %zu MiB reached after %zu stored positions "
                     "on this rank (about %zu bytes each, moves included); raise --memory or "
                     "add ranks", r->memory_limit >> 20, rmpi.set->n,
                     rmpi_memory() / (rmpi.set->n ? rmpi.set->n : 1));
    uint64_t in[3] = { rmpi.queue.n - rmpi.queue.head, r->states.n, rmpi.set->n }, tot[3];
    MPI_Allreduce(in, tot, 3, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
    int all = rmpi_agree(st, &stop);
    if (all != EXIT_OK) { st = all; break; }
    if (stop) {
      char msg[160];
      st = stop_message(msg, sizeof msg, tot[1], "positions");
      rmpi_job_fail(st, "%s", msg);
      break;
    }
    if (tot[2] > r->max_positions) {
      st = EXIT_LIMIT;
      rmpi_job_fail(st, "more than %llu positions (--max-positions)",
               (unsigned long long)r->max_positions);
      break;
    }
    if (rmpi.rank == 0)
      progress_note(r->progress, "retrograde analysis over MPI, enumerating", NULL, tot[2],
                    "positions stored", -1);
    if (tot[0] == 0) break;
  }
  movestack_free(&ms);
  if (rmpi.by_state) rmpi.g->vt->set_state(rmpi.g, rmpi.root);   /* back to the root */
  return r->status = st;
}

/* The reverse edges by child: pstart, prank, pidx (and pslot). */
int rmpi_build_parents(void) {
  size_t n = rmpi.owned;
  rmpi.pstart = calloc(n + 1, sizeof *rmpi.pstart);
  rmpi.prank = malloc((rmpi.nedges + 1) * sizeof *rmpi.prank);
  rmpi.pidx = malloc((rmpi.nedges + 1) * sizeof *rmpi.pidx);
  uint32_t *fill = malloc((n + 1) * sizeof *fill);
  if (rmpi.r->vector && !(rmpi.pslot = malloc((rmpi.nedges + 1) * sizeof *rmpi.pslot))) {
    free(fill);
    return -1;
  }
  if (!rmpi.pstart || !rmpi.prank || !rmpi.pidx || !fill) { free(fill); return -1; }
  for (size_t e = 0; e < rmpi.nedges; e++) rmpi.pstart[rmpi.e_child[e] + 1]++;
  for (size_t i = 0; i < n; i++) rmpi.pstart[i + 1] += rmpi.pstart[i];
  memcpy(fill, rmpi.pstart, (n + 1) * sizeof *fill);
  for (size_t e = 0; e < rmpi.nedges; e++) {
    uint32_t k = fill[rmpi.e_child[e]]++;
    rmpi.prank[k] = rmpi.e_rank[e];
    rmpi.pidx[k] = rmpi.e_idx[e];
    if (rmpi.pslot) rmpi.pslot[k] = rmpi.e_slot[e];
  }
  free(fill);
  free(rmpi.e_child); free(rmpi.e_rank); free(rmpi.e_idx); free(rmpi.e_slot);
  rmpi.e_child = rmpi.e_rank = rmpi.e_idx = rmpi.e_slot = NULL;
  rmpi.edges_cap = 0;
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
** parents' owners, up to rmpi.batch bytes (at least one position's), and
** exchanges them.  A level too large for one round is sent in several:
** its updates all carry the same distance, so the order does not matter,
** and what they decide joins the next level.  -1 when out of memory. */
static int send_to_parents(void) {
  Retro *r = rmpi.r;
  int bad = 0;
  size_t bytes = 0;
  while (rmpi.fhead < rmpi.nfrontier && !bad && (bytes == 0 || bytes < rmpi.batch)) {
    uint32_t x = rmpi.frontier[rmpi.fhead++];
    for (uint32_t k = rmpi.pstart[x]; k < rmpi.pstart[x + 1]; k++) {
      Update u = { rmpi.pidx[k], r->value[x], r->mover[x], 0, r->dist[x], r->score[x] };
      if (rmpi_put(&rmpi.out[rmpi.prank[k]], &u, sizeof u) < 0) { bad = 1; break; }
      bytes += sizeof u;
    }
  }
  if (rmpi_exchange() < 0) bad = 1;
  return bad ? -1 : 0;
}

/* Runs one phase to its end: rounds of send_to_parents, `take` deciding
** each parent (1: it joins the next frontier), until no rank has a
** frontier.  Returns the positions decided by the phase (global), or
** sets *st. */
static uint64_t phase(int (*take)(const Update *u), int *st) {
  uint64_t decided = rmpi_sum(rmpi.nfrontier);
  rmpi.fhead = 0;
  rmpi.nnext = 0;
  for (;;) {
    int stop;
    if (*st == EXIT_OK && send_to_parents() < 0) *st = rmpi_fail(EXIT_LIMIT, "out of memory");
    else if (*st != EXIT_OK) rmpi_exchange();
    for (size_t at = 0; *st == EXIT_OK && at + sizeof(Update) <= rmpi.in.n; at += sizeof(Update)) {
      Update u;
      memcpy(&u, rmpi.in.p + at, sizeof u);
      if (take(&u)) rmpi.next[rmpi.nnext++] = u.parent;
    }
    int all = rmpi_agree(*st, &stop);
    if (all == EXIT_OK && stop) {
      char msg[160];
      all = stop_message(msg, sizeof msg, rmpi.r->positions, "positions");
      rmpi_job_fail(all, "%s", msg);
    }
    if (all != EXIT_OK) { *st = rmpi.r->status = all; return 0; }
    if (rmpi_sum(rmpi.nfrontier - rmpi.fhead) > 0) continue;   /* the level goes on */
    uint32_t *t = rmpi.frontier;
    rmpi.frontier = rmpi.next;
    rmpi.next = t;
    rmpi.nfrontier = rmpi.nnext;
    rmpi.fhead = 0;
    rmpi.nnext = 0;
    uint64_t n = rmpi_sum(rmpi.nfrontier);
    if (n == 0) return decided;
    decided += n;
  }
}

static int take_win_loss(const Update *u) {
  Retro *r = rmpi.r;
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
  Retro *r = rmpi.r;
  uint32_t p = u->parent;
  if (u->value == RETRO_DRAW && r->value[p] == RETRO_DRAW && !r->terminal[p]) r->count[p]++;
  return 0;
}

static int take_draw(const Update *u) {
  Retro *r = rmpi.r;
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
  Retro *r = rmpi.r;
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
  Retro *r = rmpi.r;
  int st = EXIT_OK;
  size_t n = rmpi.owned;
  rmpi.frontier = malloc((n + 1) * sizeof *rmpi.frontier);
  rmpi.next = malloc((n + 1) * sizeof *rmpi.next);
  rmpi.label_bytes = 2 * (n + 1) * sizeof(uint32_t);
  if (!rmpi.frontier || !rmpi.next || rmpi_build_parents() < 0) st = rmpi_fail(EXIT_LIMIT, "out of memory");
  int stop, all = rmpi_agree(st, &stop);
  if (all != EXIT_OK) return r->status = all;
  int scored = 0, mine = r->scored;
  MPI_Allreduce(&mine, &scored, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  r->scored = scored;
  rmpi.nfrontier = 0;
  if (scored) {
    best = malloc((n + 1) * sizeof *best);
    rmpi.label_bytes += (n + 1) * sizeof *best;   /* the most this rank held */
    if (!best) st = rmpi_fail(EXIT_LIMIT, "out of memory");
    for (size_t c = 0; c < n && best; c++) {
      best[c] = -VALUE_INF;
      if (r->terminal[c]) { r->dist[c] = 0; rmpi.frontier[rmpi.nfrontier++] = (uint32_t)c; }
    }
    r->labelled = phase(take_score, &st);
    free(best);
    best = NULL;
    if (st != EXIT_OK) return st;
    if (r->labelled < r->stored) {
      rmpi_job_fail(EXIT_USAGE, "this game scores beyond win, loss and draw and has cycles: "
                  "retrograde analysis of scored games needs an acyclic game");
      return r->status = EXIT_USAGE;
    }
    return EXIT_OK;
  }
  for (size_t c = 0; c < n; c++)
    if (r->terminal[c] && r->value[c] != RETRO_DRAW) rmpi.frontier[rmpi.nfrontier++] = (uint32_t)c;
  r->labelled = phase(take_win_loss, &st);
  if (st != EXIT_OK) return st;
  /* Draws: what is not labelled; then their choices, then distances. */
  for (size_t c = 0; c < n; c++) {
    if (r->value[c] == RETRO_UNKNOWN) {
      r->value[c] = RETRO_DRAW;
      r->dist[c] = RETRO_ENDLESS;
      r->count[c] = 0;
    }
    if (r->value[c] == RETRO_DRAW) rmpi.frontier[rmpi.nfrontier++] = (uint32_t)c;
  }
  /* One round: every draw tells its parents; none goes on. */
  phase(take_draw_count, &st);
  if (st != EXIT_OK) return st;
  for (size_t c = 0; c < n; c++)
    if (r->terminal[c] && r->value[c] == RETRO_DRAW) rmpi.frontier[rmpi.nfrontier++] = (uint32_t)c;
  phase(take_draw, &st);
  if (st != EXIT_OK) return st;
  for (size_t c = 0; c < n; c++)
    r->score[c] = r->value[c] == RETRO_WIN ? 1 : r->value[c] == RETRO_LOSS ? -1 : 0;
  return EXIT_OK;
}

/* ------------------------------------------------------------------ */
/* The answer, the report, the database                               */
/* ------------------------------------------------------------------ */

/* A child's label as its owner sends it to every rank. */
typedef struct ChildLabel {
  uint8_t found, value, mover, terminal;
  uint32_t dist;
  int32_t score;
  uint32_t pad;
  ExpValue vec;                /* payoff vectors */
} ChildLabel;

/* The labels of the current position's children, from their owners,
** added to every rank's table (past rmpi.owned, where the database and
** --stats do not look) so that retro_answer finds them: the root's after
** the solve, then each position of --pv's line.  One collective: each
** owner fills its children's records, the others leave zeros, and a
** bitwise or gives every rank the owners' bytes exactly (doubles
** included).  Does nothing (and is not collective) on a table that is
** not the distributed one (a database read whole by every rank). */
int rmpi_children(void) {
  Retro *r = rmpi.r;
  Game *g = rmpi.g;
  MoveStack ms = { NULL, 0, 0 };
  Outcome o;
  int n = 0, st = EXIT_OK;
  if (!game_ended(g, &o) && (n = movestack_generate(&ms, g)) < 0)
    n = 0, st = rmpi_fail(EXIT_LIMIT, "out of memory");
  size_t bytes = (size_t)n * sizeof(ChildLabel) + 1;
  unsigned char *mine = calloc(bytes, 1), *all = calloc(bytes, 1);
  unsigned char *keys = malloc((size_t)n * rmpi.key + 1);
  if (!mine || !all || !keys) st = rmpi_fail(EXIT_LIMIT, "out of memory"), n = 0;
  for (int i = 0; i < n; i++) {
    uint32_t c;
    game_apply(g, &ms.moves[i]);
    rmpi_keys();
    game_undo(g);
    memcpy(keys + (size_t)i * rmpi.key, rmpi.ckey, rmpi.key);
    /* An owned child is stored (the position's moves were enumerated),
    ** among the owned ones or an extra added before. */
    if (rmpi_owner(rmpi.ckey) != rmpi.rank || !keyset_find(rmpi.set, rmpi.ckey, &c)) continue;
    ChildLabel l;
    memset(&l, 0, sizeof l);
    l.found = 1; l.value = r->value[c]; l.mover = r->mover[c]; l.terminal = r->terminal[c];
    l.dist = r->dist[c]; l.score = r->score[c];
    if (r->vector) l.vec = r->vec[c];
    memcpy(mine + (size_t)i * sizeof l, &l, sizeof l);
  }
  int all_n = n;
  MPI_Allreduce(&n, &all_n, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce(mine, all, (int)((size_t)all_n * sizeof(ChildLabel)), MPI_UNSIGNED_CHAR, MPI_BOR,
                MPI_COMM_WORLD);
  for (int i = 0; i < all_n && st == EXIT_OK; i++) {
    ChildLabel l;
    uint32_t c;
    memcpy(&l, all + (size_t)i * sizeof l, sizeof l);
    if (!l.found) continue;      /* not stored: retro_answer says so */
    int a = keyset_add(rmpi.set, keys + (size_t)i * rmpi.key, &c);
    if (a < 0 || (a && rmpi_new_class(c) < 0)) { st = rmpi_fail(EXIT_LIMIT, "out of memory"); break; }
    if (c < rmpi.owned) continue;   /* its own */
    r->value[c] = l.value; r->mover[c] = l.mover; r->terminal[c] = l.terminal;
    r->dist[c] = l.dist; r->score[c] = l.score;
    if (r->vector) r->vec[c] = l.vec;
  }
  free(mine); free(all); free(keys);
  movestack_free(&ms);
  int stop;
  return r->status = rmpi_agree(st, &stop);
}

/* retro_answer's hook: the distributed table's lookups. */
static int mpi_children(Retro *r) {
  if (r != rmpi.r || !rmpi.ready) return EXIT_OK;
  return rmpi_children();
}

/* One line per rank on rank 0's stderr: what each holds and sent. */
static void report_ranks(void) {
  uint64_t mine[6] = { rmpi.owned, rmpi.r->states.n, rmpi.nedges, rmpi_memory(), rmpi.messages, rmpi.bytes };
  uint64_t *all = rmpi.rank == 0 ? malloc((size_t)rmpi.size * sizeof mine) : NULL;
  MPI_Gather(mine, 6, MPI_UINT64_T, all, 6, MPI_UINT64_T, 0, MPI_COMM_WORLD);
  if (rmpi.rank != 0 || !all || !rmpi.err) { free(all); return; }
  for (int i = 0; i < rmpi.size; i++) {
    const uint64_t *a = all + (size_t)i * 6;
    fprintf(rmpi.err, "mpi: rank %d of %d: stored %llu, positions %llu, moves %llu, memory %.2f MiB, "
            "sent %llu messages, %llu bytes\n", i, rmpi.size, (unsigned long long)a[0],
            (unsigned long long)a[1], (unsigned long long)a[2], (double)a[3] / (1 << 20),
            (unsigned long long)a[4], (unsigned long long)a[5]);
  }
  fprintf(rmpi.err, "mpi: %llu exchange rounds\n", (unsigned long long)rmpi.rounds);
  free(all);
}

/* What both modes do first: the buffers, then the enumeration, whose
** totals every rank learns.  EXIT_OK or the job's status. */
static int mpi_enumerate(Retro *r) {
  Game *g = r->g;
  rmpi.r = r;
  rmpi.g = g;
  int entered = rmpi_enter();
  if (entered != EXIT_OK) return r->status = entered;
  /* What every rank would say (retro_answer's errors), rank 0 says;
  ** a rank's own failures go through rmpi_fail. */
  r->err = rmpi.rank == 0 ? rmpi.err : NULL;
  /* A failure on one rank goes through the agreement below with the
  ** others, never a return before it (the others would wait in it). */
  int st = EXIT_OK, stop;
  /* GSOLVE_MPI_BATCH caps a labelling round's updates per rank, in
  ** bytes: the send buffers' size, and under MPI's 2 GiB int counts. */
  const char *batch = getenv("GSOLVE_MPI_BATCH");
  rmpi.batch = RM_BATCH;
  if (batch && *batch) {
    char *end;
    unsigned long long b = strtoull(batch, &end, 10);
    /* Said once, by rank 0 (the ranks share their environment). */
    if (*end || b == 0 || b > (1ull << 30))
      st = rmpi_job_fail(EXIT_USAGE, "GSOLVE_MPI_BATCH must be a number of bytes from 1 to "
                         "1073741824, not '%s'", batch);
    rmpi.batch = (size_t)b;
  }
  if (st == EXIT_OK && retro_scratch(r) < 0) st = rmpi_fail(EXIT_LIMIT, "out of memory");
  rmpi.set = r->canonical ? &r->classes : &r->states;
  rmpi.key = rmpi.set->key_bytes;
  /* An engine that sets a state from its key (the VM): states travel
  ** as their raw keys; the native engines replay paths. */
  int by_state = g->vt->set_state && (!g->vt->pack || g->vt->unpack) && !getenv("GSOLVE_MPI_PATHS");
  /* Every rank must write and read the same records (an environment
  ** variable may differ between nodes): keys only if all agree. */
  MPI_Allreduce(&by_state, &rmpi.by_state, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  rmpi.ckey = malloc(rmpi.key ? rmpi.key : 1);
  rmpi.rkey = malloc(rmpi.key ? rmpi.key : 1);
  rmpi.out = calloc((size_t)rmpi.size, sizeof *rmpi.out);
  rmpi.scount = calloc((size_t)rmpi.size * 4, sizeof(int));
  if (st == EXIT_OK && (!rmpi.ckey || !rmpi.rkey || !rmpi.out || !rmpi.scount))
    st = rmpi_fail(EXIT_LIMIT, "out of memory");
  if (rmpi.by_state && st == EXIT_OK) {
    rmpi.root = malloc(g->state_bytes);
    rmpi.state = malloc(g->state_bytes);
    if (!rmpi.root || !rmpi.state) st = rmpi_fail(EXIT_LIMIT, "out of memory");
    else memcpy(rmpi.root, game_state(g), g->state_bytes);
  }
  if ((st = rmpi_agree(st, &stop)) != EXIT_OK) return r->status = st;
  rmpi.rcount = rmpi.scount + rmpi.size;
  rmpi.sdispl = rmpi.rcount + rmpi.size;
  rmpi.rdispl = rmpi.sdispl + rmpi.size;
  if ((st = enumerate()) != EXIT_OK) return st;
  rmpi.owned = rmpi.set->n;
  r->positions = rmpi_sum(r->states.n);
  r->stored = rmpi_sum(rmpi.owned);
  r->edges = rmpi_sum(rmpi.nedges);
  if (rmpi.rank == 0)
    progress_note(r->progress, "retrograde analysis over MPI, labelling", NULL, r->stored,
                  "positions", -1);
  return EXIT_OK;
}

static int mpi_solve(Retro *r, Search *s) {
  int st;
  double t0 = clock_seconds();
  if ((st = mpi_enumerate(r)) != EXIT_OK) return st;
  double t1 = clock_seconds();
  if ((st = label()) != EXIT_OK) return st;
  r->enumerate_seconds = t1 - t0;
  r->label_seconds = clock_seconds() - t1;
  report_ranks();
  rmpi.ready = 1;
  s->nodes = r->positions;
  return retro_answer(r, s);
}

/* Payoff vectors (retro_mpi_vector.c labels them). */
static int mpi_solve_vector(Retro *r, ExpSolver *s) {
  int st;
  double t0 = clock_seconds();
  if ((st = mpi_enumerate(r)) != EXIT_OK) return st;
  double t1 = clock_seconds();
  if ((st = rmpi_label_vectors()) != EXIT_OK) return st;
  r->enumerate_seconds = t1 - t0;
  r->label_seconds = clock_seconds() - t1;
  report_ranks();
  rmpi.ready = 1;
  return retro_vector_answer(r, s);
}

static void mpi_free(void) {
  for (int d = 0; rmpi.out && d < rmpi.size; d++) free(rmpi.out[d].p);
  free(rmpi.out); free(rmpi.in.p); free(rmpi.queue.p); free(rmpi.send.p);
  free(rmpi.scount);
  free(rmpi.e_child); free(rmpi.e_rank); free(rmpi.e_idx); free(rmpi.e_slot);
  free(rmpi.pstart); free(rmpi.prank); free(rmpi.pidx); free(rmpi.pslot);
  free(rmpi.fstart); free(rmpi.fw_weight); free(rmpi.fw_pay); free(rmpi.fw_value);
  free(rmpi.root); free(rmpi.state);
  free(rmpi.frontier); free(rmpi.next);
  free(rmpi.ckey); free(rmpi.rkey);
}

/* The compact form's table is rank 0's alone after the solve (the
** database it wrote, read back as one process reads its own): its
** database and counts are the single process's, with no collective. */
static int mpi_write(const Retro *r, const char *path, const char *game, const char *params,
                     uint64_t rules_hash, FILE *err) {
  if (r->cpt) return compact_db_write(r, path, game, params, rules_hash, err);
  return rmpi_write(r, path, game, params, rules_hash, err);
}

static int mpi_stats(Retro *r, RetroStats *st) {
  return r->cpt ? retro_stats_local(r, st) : rmpi_stats(r, st);
}

static const RetroDistributed retro_mpi = { mpi_solve, mpi_write, mpi_stats, mpi_solve_vector,
                                             mpi_children, rmpi_compact_solve, rmpi_trapped };

int retro_mpi_start(int *argc, char ***argv) {
  if (MPI_Init(argc, argv) != MPI_SUCCESS) {
    return diag_fail(stderr, EXIT_IO, "MPI_Init failed");
  }
  MPI_Comm_rank(MPI_COMM_WORLD, &rmpi.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &rmpi.size);
  rmpi.err = stderr;
  if (rmpi.rank != 0) {
    /* Every rank runs the command line; rank 0 alone speaks for the
    ** job.  The others keep their own stderr for their own failures. */
    int fd = dup(2);
    rmpi.err = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!freopen("/dev/null", "w", stdout) || !freopen("/dev/null", "w", stderr)) return EXIT_IO;
  }
  retro_distributed = &retro_mpi;
  return EXIT_OK;
}

void rmpi_rest(void) {
  exit(retro_mpi_end(EXIT_OK));
}

int retro_mpi_end(int status) {
  mpi_free();
  int worst = rmpi_meet_at_end(status);
  MPI_Finalize();
  return rmpi.rank == 0 ? status : worst;
}
