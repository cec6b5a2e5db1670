/*
** retro_mpi_compact.c -- gsolve-mpi's retrograde analysis in the compact
** form (--compact; compiled only by `make mpi`).  The single process's
** form is retro_compact.c's: layers of positions one ply apart, each a
** sorted Elias-Fano set of canonical keys with bit-packed values.  Here
** each rank holds its part of each layer (docs/mpi.md, "The compact
** form"; docs/performance.md says what it costs):
**
** Ownership.  A stored position belongs to the rank of a hash of its
** key (splitmix64's finaliser, independent of the gathering set's), so
** a position is met at its owner alone, and the check that two layers
** share a position (a cycle, or two depths) is local to each rank.  Part
** (k, p) is the sorted set of the keys of layer k that rank p owns, with
** its own squeeze, and their values by their rank in that part.
**
** Forward, layer k to k + 1, in rounds: each rank expands up to MC_CHUNK
** positions of its part, sends every child's key to the child's owner
** (MPI_Alltoall of the counts, MPI_Alltoallv of the keys: rmpi_exchange),
** and puts the keys it receives into its gathering set (sorted runs on
** disk beyond its size, as one process does).  One MPI_Allreduce a
** round (the worst status, a stop, whether a rank has positions left)
** decides for every rank alike; after the layer, each builds its part
** of layer k + 1, and the sums of the positions, moves and stored
** positions are every rank's.
**
** Backward, layer k from layer k + 1, in rounds: each rank expands up to
** MC_CHUNK positions of its part, sends their children's keys to the
** owners (the requests), each owner answers with the children's value
** fields in the requests' order (a second exchange, so that no key comes
** back), and the requester folds them as value_here does.
**
** The database (format 2, the single process's byte for byte): once a
** layer is finished (its parents labelled), rank 0 learns its size, key
** bits and largest key by an MPI_Gather, then merges the ranks' parts
** streamed to it in key order (MPI_Send of MC_WRITE keys and fields at a
** time) into the whole layer's set and values, writes the layer's record
** with compact_db_layer, and drops it but for the root's two layers.
** Rank 0 then holds what one process holds after a run with its layers
** on disk: the answer, --all-moves, --pv and --stats read the database
** (its counts and histograms are the single process's by construction).
** The other ranks have nothing left to do: they wait in the job's last
** collective (rmpi_rest).
**
** Errors.  A rank's message goes to a buffer; at the next agreement the
** lowest failing rank's message is sent to rank 0, which prints it once,
** and every rank leaves with the worst status.  A stop (Ctrl-C, SIGTERM
** to a rank, --time-limit) is agreed the same way; rank 0 says it.  The
** database is committed only after the last layer, so nothing is left
** behind a failure.  Games whose positions recur (which the single
** process hands to retro_compact_cycles.c) are refused.
*/
#include <mpi.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "retro/retro_compact.h"
#include "retro/retro_compact_cycles.h"
#include "retro/retro_mpi_int.h"
#include "search/progress.h"
#include "search/value.h"
#include "util/clock.h"
#include "util/diag.h"
#include "util/status.h"
#include "util/stop.h"

#define MC_CHUNK 4096          /* positions a rank expands a round */
#define MC_WRITE 4096          /* keys and fields a chunk sent to rank 0 holds */
#define MC_TAG_LAYER 7         /* those chunks' tag */
#define MC_TAG_MSG 8           /* a failing rank's message to rank 0 */

/* The solve's state on this rank. */
typedef struct MpiCompact {
  RetroCompact *mine;          /* this rank's parts (r->cpt during the solve) */
  RetroCompact *whole;         /* rank 0: the whole layers, as the database holds them */
  FILE *msg;                   /* this rank's errors, relayed at agreement */
  char *msg_text;
  size_t msg_len;
  uint64_t positions, edges, stored;   /* this rank's */
  uint64_t walked;             /* positions expanded so far, both passes */
  size_t peak;                 /* the most bytes held at once */
  /* A backward round's positions: mover, children (-1: an end, its
  ** score in score[]), and each child's owner in order. */
  uint8_t *pmover;
  int *pn;
  int64_t *pscore;
  int *dest;
  size_t dest_cap;
  size_t *req;                 /* per rank: the keys asked of it this round */
} MpiCompact;

static MpiCompact mc;
static int solved;             /* one compact solve a job: the others rest after it */

/* The rank that owns a key. */
static int owner(uint64_t key) {
  uint64_t h = key;
  h ^= h >> 30;
  h *= 0xbf58476d1ce4e5b9ULL;
  h ^= h >> 27;
  h *= 0x94d049bb133111ebULL;
  h ^= h >> 31;
  return (int)(((h >> 32) * (uint64_t)rmpi.size) >> 32);
}

static void note_peak(Retro *r) {
  size_t now = retro_compact_bytes(r) + mc.mine->next.cap * sizeof *mc.mine->next.slot +
               rmpi.in.cap + rmpi.send.cap;
  for (int d = 0; d < rmpi.size; d++) now += rmpi.out[d].cap;
  if (now > mc.peak) mc.peak = now;
}

/* ------------------------------------------------------------------ */
/* Agreeing                                                           */
/* ------------------------------------------------------------------ */

/* The message of the lowest failing rank, printed once by rank 0. */
static void relay(Retro *r) {
  int mine = r->status != EXIT_OK ? rmpi.rank : rmpi.size, who;
  MPI_Allreduce(&mine, &who, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (who >= rmpi.size) return;
  fflush(mc.msg);
  if (rmpi.rank == who && who != 0) {
    int n = (int)mc.msg_len;
    MPI_Send(&n, 1, MPI_INT, 0, MC_TAG_MSG, MPI_COMM_WORLD);
    MPI_Send(mc.msg_text, n, MPI_CHAR, 0, MC_TAG_MSG, MPI_COMM_WORLD);
  } else if (rmpi.rank == 0) {
    char *text = mc.msg_text;
    int n = (int)mc.msg_len;
    if (who != 0) {
      MPI_Recv(&n, 1, MPI_INT, who, MC_TAG_MSG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      text = malloc((size_t)n + 1);
      MPI_Recv(text ? text : mc.msg_text, text ? n : 0, MPI_CHAR, who, MC_TAG_MSG, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
    }
    if (text && rmpi.err) {
      fwrite(text, 1, (size_t)n, rmpi.err);
      fflush(rmpi.err);
    }
    if (text != mc.msg_text) free(text);
  }
}

/* One decision for every rank: the worst status (its message said once),
** a stop (rank 0 says it), and whether any rank has *more (then *more
** is 1 on every rank).  EXIT_OK, or the status every rank leaves with. */
static int agree(Retro *r, int *more) {
  int in[3] = { r->status, stop_requested, *more }, out[3];
  MPI_Allreduce(in, out, 3, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  *more = out[2];
  if (out[0] != EXIT_OK) {
    relay(r);
    return r->status = out[0];
  }
  if (out[1]) {
    uint64_t walked = rmpi_sum(mc.walked);
    char msg[160];
    stop_requested = out[1];
    int st = stop_message(msg, sizeof msg, walked, "positions");
    return rmpi_job_fail(st, "%s", msg);
  }
  return EXIT_OK;
}

/* ------------------------------------------------------------------ */
/* Forward: the parts of each layer                                   */
/* ------------------------------------------------------------------ */

/* The keys this round received into the gathering set (growing it, or
** sending it to disk as a run, as one process does).  The status. */
static int gather_received(Retro *r, RetroCompact *c, int k) {
  CompactGather *next = &c->next;
  for (size_t at = 0; at + 8 <= rmpi.in.n; at += 8) {
    uint64_t key;
    memcpy(&key, rmpi.in.p + at, 8);
    if ((next->n + 1) * 4 > next->cap * 3) {
      int st = retro_compact_room(r, c, k);
      if (st < 0) return r->status ? r->status : retro_fail(r, EXIT_LIMIT, "out of memory");
      if (st > 1) return st;
      if (st == 0 && retro_compact_gather_grow(next) < 0) return retro_fail(r, EXIT_LIMIT, "out of memory");
    }
    retro_compact_gather_put(next, key);
  }
  return EXIT_OK;
}

/* Part k's positions expanded, their children sent to their owners and
** gathered there, in rounds.  The status (agreed). */
static int expand_layer(Retro *r, RetroCompact *c, int k, int64_t *lo, int64_t *hi, int *ends) {
  Game *g = r->g;
  CompactLayer *L = &c->layer[k];
  int by_orbit = r->canonical != NULL;
  EfIter it;
  uint64_t sq, left = L->keys.n;
  efset_iter_init(&it, &L->keys);
  if (retro_compact_gather_grow(&c->next) < 0) retro_fail(r, EXIT_LIMIT, "out of memory");
  for (;;) {
    for (int i = 0; i < MC_CHUNK && left && r->status == EXIT_OK; i++, left--) {
      efset_next(&it, &sq);
      retro_compact_set_key(r, c, retro_compact_unsqueeze(L, sq));
      mc.positions += by_orbit ? g->vt->orbit(g, c->state) : 1;
      r->positions = mc.positions;     /* this rank's, for its messages */
      mc.walked++;
      Outcome o;
      int n = retro_compact_expand(r, c, &o);
      if (n < 0) {
        int64_t m = retro_compact_margin(g, game_to_move(g), &o);
        if (!*ends || m < *lo) *lo = m;
        if (!*ends || m > *hi) *hi = m;
        *ends = 1;
        continue;
      }
      mc.edges += (uint64_t)n;
      for (int j = 0; j < n; j++)
        if (rmpi_put(&rmpi.out[owner(c->child[j])], &c->child[j], 8) < 0) {
          retro_fail(r, EXIT_LIMIT, "out of memory (exchange)");
          break;
        }
    }
    if (rmpi_exchange() < 0 && r->status == EXIT_OK) retro_fail(r, EXIT_LIMIT, "out of memory (exchange)");
    if (r->status == EXIT_OK) gather_received(r, c, k);
    note_peak(r);
    int more = left > 0;
    int st = agree(r, &more);
    if (st != EXIT_OK) return st;
    if (!more) return EXIT_OK;
    if (rmpi.rank == 0 && r->progress) {
      char how[64];
      snprintf(how, sizeof how, "layer %d over %d ranks", k + 1, rmpi.size);
      progress_note(r->progress, "compact retrograde analysis over MPI, enumerating", how,
                    mc.positions, "positions (rank 0's)", -1);
    }
  }
}

/* The refusal of a game whose positions recur (the single process's
** form with cycles runs in one process). */
static int refuse_cycles(void) {
  return rmpi_job_fail(EXIT_USAGE, "gsolve-mpi --compact takes games whose positions each come at "
                       "one depth (placement games: Connect Four, tic-tac-toe); this game's recur or "
                       "come at several depths, which the compact form with cycles solves in one "
                       "process: use gsolve --compact, or gsolve-mpi without --compact");
}

static int forward(Retro *r, RetroCompact *c) {
  Game *g = r->g;
  int by_orbit = r->canonical != NULL;
  r->closure = by_orbit && g->vt->orbit(g, game_state(g)) != 1;
  int64_t lo = 0, hi = 0;
  int ends = 0, more, st;
  CompactGather *next = &c->next;
  if (retro_compact_gather_grow(next) < 0) retro_fail(r, EXIT_LIMIT, "out of memory");
  uint64_t root = retro_compact_key(r);
  if (r->status == EXIT_OK && owner(root) == rmpi.rank) retro_compact_gather_put(next, root);
  if (r->status == EXIT_OK && retro_compact_gather_layer(c, next) < 0) retro_fail(r, EXIT_LIMIT, "out of memory");
  more = 0;
  if ((st = agree(r, &more)) != EXIT_OK) return st;
  for (int k = 0;; k++) {
    if ((st = expand_layer(r, c, k, &lo, &hi, &ends)) != EXIT_OK) return st;
    mc.stored += c->layer[k].keys.n;
    more = next->n > 0 || c->nruns > 0;
    if ((st = agree(r, &more)) != EXIT_OK) return st;
    if (!more) break;
    if (c->nlayers >= COMPACT_MAX_LAYERS)
      return rmpi_job_fail(EXIT_LIMIT, "more than %d layers in the compact form", COMPACT_MAX_LAYERS);
    note_peak(r);
    if (c->nruns) {
      int rc = retro_compact_merge(r, c, next);
      if (rc < 0) retro_fail(r, EXIT_LIMIT, "out of memory");
    } else if (retro_compact_gather_layer(c, next) < 0) retro_fail(r, EXIT_LIMIT, "out of memory");
    /* Part k is expanded: on disk now, when layers are. */
    if (r->status == EXIT_OK && c->spill) compact_spill_keys(r, c, &c->layer[k]);
    if (r->status == EXIT_OK) compact_labels_so_far(r, c);
    int meet = 0;
    for (int j = 0; r->status == EXIT_OK && j < c->nlayers - 1 && !meet; j++) {
      CompactLayer *A = &c->layer[j], *B = &c->layer[c->nlayers - 1];
      if ((A->fixed ^ B->fixed) & ~A->vary & ~B->vary) continue;
      int back = !compact_keys_resident(A);
      if (back) {
        int rc = compact_keys_back(r, c, A);
        if (rc < 0) retro_fail(r, EXIT_LIMIT, "out of memory");
        if (rc) break;
      }
      meet = retro_compact_meet(A, B);
      if (back) compact_db_unload(A);
    }
    if ((st = agree(r, &meet)) != EXIT_OK) return st;
    if (meet) return refuse_cycles();
    /* --max-positions, as one process counts it (stored positions). */
    uint64_t have[2] = { mc.stored, c->layer[c->nlayers - 1].keys.n }, sum[2];
    MPI_Allreduce(have, sum, 2, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
    if (r->max_positions < UINT32_MAX - 1 && sum[0] + sum[1] > r->max_positions)
      return rmpi_job_fail(EXIT_LIMIT, "more than %llu positions (--max-positions)",
                           (unsigned long long)r->max_positions);
  }
  /* Every rank learns the totals and the ends' margins. */
  uint64_t have[3] = { mc.positions, mc.edges, mc.stored }, sum[3];
  MPI_Allreduce(have, sum, 3, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
  r->positions = sum[0];
  r->edges = sum[1];
  r->stored = sum[2];
  int64_t m[2] = { ends ? -lo : INT64_MIN, ends ? hi : INT64_MIN }, most[2];
  MPI_Allreduce(m, most, 2, MPI_INT64_T, MPI_MAX, MPI_COMM_WORLD);
  int64_t smax = 0;
  if (most[0] != INT64_MIN) smax = most[0] > most[1] ? most[0] : most[1];
  if (smax < 0) smax = -smax;
  /* As one process: the score's range is every end's margin and its negation. */
  c->smin = -smax;
  c->sbits = bits_for((uint64_t)(2 * smax));
  return EXIT_OK;
}

/* After the forward pass: the labels' memory on this rank (its parts'
** sets and values; rank 0 also one whole layer while it writes it),
** all in memory or the parts on disk two at a time.  The status (agreed). */
static int plan_labels(Retro *r, RetroCompact *c) {
  size_t all = 0, pair = 0, prev = 0, limit, free_now;
  static uint64_t bytes[COMPACT_MAX_LAYERS], total[COMPACT_MAX_LAYERS];
  for (int k = 0; k < c->nlayers; k++) {
    const CompactLayer *L = &c->layer[k];
    size_t b = sizeof *L + efset_bytes(&L->keys) +
               bits_words(L->keys.n, 1 + c->sbits + bits_for((uint64_t)(c->nlayers - 1 - k))) * 8;
    bytes[k] = b;
    all += b;
    if (b + prev > pair) pair = b + prev;
    prev = b;
  }
  MPI_Allreduce(bytes, total, c->nlayers, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
  size_t writer = 0;
  if (rmpi.rank == 0) {
    /* About the largest whole layer (the parts' sets together are a
    ** little larger than the whole's), and the writer's buffers. */
    for (int k = 0; k < c->nlayers; k++)
      if (total[k] > writer) writer = (size_t)total[k];
    writer += COMPACT_WRITER_BYTES(c->sbits);
  }
  c->need_memory = all + writer;
  c->need_disk = pair + writer;
  size_t held = retro_compact_bytes(r);
  if (r->status == EXIT_OK) {
    if (!c->spill && !r->spill_dir &&
        compact_fits(r, held, c->need_memory > held ? c->need_memory - held : 0, &limit, &free_now)) {
      c->estimate = c->need_memory;
    } else {
      c->spill = 1;
      for (int k = 0; k + 1 < c->nlayers && r->status == EXIT_OK; k++) compact_spill_keys(r, c, &c->layer[k]);
      held = retro_compact_bytes(r);
      c->estimate = c->need_disk;
      if (r->status == EXIT_OK &&
          !compact_fits(r, held, c->need_disk > held ? c->need_disk - held : 0, &limit, &free_now))
        compact_refuse(r, c->need_disk, limit, free_now, "on this rank to label its parts of the two "
                       "largest adjacent layers", c->nlayers);
    }
  }
  int more = 0;
  return agree(r, &more);
}

/* ------------------------------------------------------------------ */
/* Backward: the labels                                               */
/* ------------------------------------------------------------------ */

/* Room for `n` more children's owners in a round. */
static int dest_room(size_t n) {
  if (n <= mc.dest_cap) return 0;
  size_t cap = mc.dest_cap ? mc.dest_cap : 4096;
  while (cap < n) cap *= 2;
  int *d = realloc(mc.dest, cap * sizeof *d);
  if (!d) return -1;
  mc.dest = d;
  mc.dest_cap = cap;
  return 0;
}

/* The requests of this round (children's keys from other ranks) answered
** from part N: each child's value field, in the requests' order, into
** rmpi.out for the exchange back.  fb: a field's bytes. */
static void answer(Retro *r, RetroCompact *c, const CompactLayer *N, int fb) {
  int w = N ? retro_compact_width(c, N) : 0;
  for (int s = 0; s < rmpi.size; s++) {
    const unsigned char *p = rmpi.in.p + rmpi.rdispl[s];
    size_t n = (size_t)rmpi.rcount[s] / 8;
    if (rmpi_room(&rmpi.out[s], n * (size_t)fb) < 0) {
      if (r->status == EXIT_OK) retro_fail(r, EXIT_LIMIT, "out of memory (exchange)");
      continue;
    }
    /* As many answers as requests, whatever failed (zeros then). */
    memset(rmpi.out[s].p, 0, n * (size_t)fb);
    for (size_t i = 0; i < n && r->status == EXIT_OK; i++) {
      uint64_t key, f;
      memcpy(&key, p + 8 * i, 8);
      int64_t rank = N ? retro_compact_rank(N, key) : -1;
      if (rank < 0) {
        retro_fail(r, EXIT_RUNTIME, "a move leads out of the next layer of the compact table (the "
                   "rules are not a function of the position)");
        break;
      }
      f = bits_get(N->vals, (uint64_t)rank * (uint64_t)w, w);
      if (fb == 4) {
        uint32_t f4 = (uint32_t)f;
        memcpy(rmpi.out[s].p + i * 4, &f4, 4);
      } else {
        memcpy(rmpi.out[s].p + i * 8, &f, 8);
      }
    }
    rmpi.out[s].n = n * (size_t)fb;
  }
}

/* Part k labelled from part k + 1's values, in rounds.  The status (agreed). */
static int label_layer(Retro *r, RetroCompact *c, int k) {
  Game *g = r->g;
  CompactLayer *L = &c->layer[k], *N = k + 1 < c->nlayers ? &c->layer[k + 1] : NULL;
  int w = retro_compact_width(c, L);
  int wn = N ? retro_compact_width(c, N) : 1, fb = wn <= 32 ? 4 : 8;
  uint64_t smask = (UINT64_C(1) << c->sbits) - 1;
  EfIter it;
  uint64_t sq, left = L->keys.n, i = 0;
  size_t *req = mc.req;
  efset_iter_init(&it, &L->keys);
  for (;;) {
    /* The round's positions expanded, their children asked for. */
    int np = 0;
    size_t nd = 0;
    for (; np < MC_CHUNK && left && r->status == EXIT_OK; np++, left--) {
      efset_next(&it, &sq);
      retro_compact_set_key(r, c, retro_compact_unsqueeze(L, sq));
      mc.walked++;
      Outcome o;
      int mover = game_to_move(g);
      int n = retro_compact_expand(r, c, &o);
      mc.pmover[np] = (uint8_t)mover;
      mc.pn[np] = n;
      if (n < 0) {
        mc.pscore[np] = retro_compact_margin(g, mover, &o);
        continue;
      }
      if (dest_room(nd + (size_t)n) < 0) {
        retro_fail(r, EXIT_LIMIT, "out of memory");
        break;
      }
      for (int j = 0; j < n; j++) {
        int d = owner(c->child[j]);
        mc.dest[nd++] = d;
        if (rmpi_put(&rmpi.out[d], &c->child[j], 8) < 0) {
          retro_fail(r, EXIT_LIMIT, "out of memory (exchange)");
          break;
        }
      }
    }
    if (rmpi_exchange() < 0 && r->status == EXIT_OK) retro_fail(r, EXIT_LIMIT, "out of memory (exchange)");
    for (int d = 0; d < rmpi.size; d++) req[d] = (size_t)rmpi.scount[d] / 8;
    answer(r, c, N, fb);
    if (rmpi_exchange() < 0 && r->status == EXIT_OK) retro_fail(r, EXIT_LIMIT, "out of memory (exchange)");
    /* A rank that failed may have answered short: its failure is agreed
    ** below, and nothing is folded from a short answer. */
    int whole = r->status == EXIT_OK;
    for (int d = 0; d < rmpi.size; d++)
      if ((size_t)rmpi.rcount[d] != req[d] * (size_t)fb) whole = 0;
    /* The answers, rank by rank in the order asked: each position's value. */
    size_t *at = whole ? malloc((size_t)rmpi.size * sizeof *at) : NULL;
    if (whole && !at) retro_fail(r, EXIT_LIMIT, "out of memory");
    for (int d = 0; at && d < rmpi.size; d++) at[d] = (size_t)rmpi.rdispl[d];
    size_t di = 0;
    for (int p = 0; at && p < np; p++, i++) {
      int mover = mc.pmover[p];
      int64_t score = 0, dist = 0;
      if (mc.pn[p] < 0) {
        score = mc.pscore[p];
      } else {
        Value best = -VALUE_INF;
        for (int j = 0; j < mc.pn[p]; j++) {
          int d = mc.dest[di++];
          uint64_t f = 0;
          if (fb == 4) {
            uint32_t f4;
            memcpy(&f4, rmpi.in.p + at[d], 4);
            f = f4;
          } else {
            memcpy(&f, rmpi.in.p + at[d], 8);
          }
          at[d] += (size_t)fb;
          int cm = (int)(f & 1);
          int64_t cs = c->smin + (int64_t)((f >> 1) & smask), cd = (int64_t)(f >> (1 + c->sbits));
          int64_t sc = cm == mover ? cs : -cs;
          Value v = value_make(sc, cd + 1, mover);
          if (v > best) best = v;
        }
        value_decode(best, &score, &dist);
      }
      if (score != 0) r->labelled++;
      uint64_t f = (uint64_t)(mover & 1) | (uint64_t)(score - c->smin) << 1 |
                   (uint64_t)dist << (1 + c->sbits);
      bits_or(L->vals, i * (uint64_t)w, w, f);
    }
    free(at);
    note_peak(r);
    int more = left > 0;
    int st = agree(r, &more);
    if (st != EXIT_OK || !more) return st;
    if (rmpi.rank == 0 && r->progress)
      progress_note(r->progress, "compact retrograde analysis over MPI, labelling", NULL, mc.walked,
                    "positions (rank 0's)", -1);
  }
}

/* ------------------------------------------------------------------ */
/* The database, written by rank 0                                    */
/* ------------------------------------------------------------------ */

/* The largest key of a part (its last). */
static uint64_t part_last(const CompactLayer *L) {
  const EfSet *e = &L->keys;
  size_t w = (e->high_bits + 63) / 64;
  while (w > 0 && !e->high[w - 1]) w--;
  size_t pos = (w - 1) * 64 + (size_t)(63 - __builtin_clzll(e->high[w - 1]));
  uint64_t h = pos - (e->n - 1);
  return retro_compact_unsqueeze(L, h << e->lbits | bits_get(e->low, (e->n - 1) * (uint64_t)e->lbits, e->lbits));
}

/* Up to MC_WRITE of a part's keys and value fields, from the iterator on,
** into buf (pairs of words); their number. */
static int fill_chunk(RetroCompact *c, const CompactLayer *L, EfIter *it, uint64_t *buf) {
  int w = retro_compact_width(c, L), n = 0;
  uint64_t sq;
  while (n < MC_WRITE && it->index < L->keys.n) {
    uint64_t i = it->index;
    efset_next(it, &sq);
    buf[2 * n] = retro_compact_unsqueeze(L, sq);
    buf[2 * n + 1] = bits_get(L->vals, i * (uint64_t)w, w);
    n++;
  }
  return n;
}

/* Rank p's next chunk at rank 0: its own part's (p = 0) or received. */
static void next_chunk(RetroCompact *c, const CompactLayer *L, EfIter *it, uint64_t **chunk, int *cnt,
                       int *pos, int *last, int p) {
  int got;
  if (p == 0) got = fill_chunk(c, L, it, chunk[0]);
  else {
    MPI_Status ms;
    MPI_Recv(chunk[p], 2 * MC_WRITE, MPI_UINT64_T, p, MC_TAG_LAYER, MPI_COMM_WORLD, &ms);
    MPI_Get_count(&ms, MPI_UINT64_T, &got);
    got /= 2;
  }
  cnt[p] = got;
  pos[p] = 0;
  last[p] = got < MC_WRITE;
}

/* Layer k, finished on every rank: its parts merged at rank 0 into the
** whole layer, whose record goes to the database (then dropped but for
** the root's two layers).  Collective; the status (agreed). */
static int write_layer(Retro *r, RetroCompact *c, int k) {
  CompactLayer *L = &c->layer[k];
  uint64_t part[4] = { L->keys.n, L->keys.n ? L->fixed : ~UINT64_C(0),
                       L->keys.n ? L->fixed | L->vary : 0, L->keys.n ? part_last(L) : 0 };
  uint64_t *parts = rmpi.rank == 0 ? malloc((size_t)rmpi.size * sizeof part) : NULL;
  uint64_t *buf = malloc(2 * MC_WRITE * sizeof *buf);
  if (!buf || (rmpi.rank == 0 && !parts)) retro_fail(r, EXIT_LIMIT, "out of memory writing the compact table");
  int more = 0, st = agree(r, &more);
  if (st != EXIT_OK) {
    free(parts);
    free(buf);
    return st;
  }
  MPI_Gather(part, 4, MPI_UINT64_T, parts, 4, MPI_UINT64_T, 0, MPI_COMM_WORLD);
  EfIter it;
  efset_iter_init(&it, &L->keys);
  if (rmpi.rank != 0) {
    /* This part to rank 0, in order; a chunk short of MC_WRITE is the last. */
    for (;;) {
      int n = fill_chunk(c, L, &it, buf);
      MPI_Send(buf, 2 * n, MPI_UINT64_T, 0, MC_TAG_LAYER, MPI_COMM_WORLD);
      if (n < MC_WRITE) break;
    }
    free(buf);
  } else {
    RetroCompact *wc = mc.whole;
    CompactLayer *W = &wc->layer[k];
    uint64_t n = 0, all = ~UINT64_C(0), any = 0, max = 0;
    for (int p = 0; p < rmpi.size; p++) {
      n += parts[4 * p];
      all &= parts[4 * p + 1];
      any |= parts[4 * p + 2];
      if (parts[4 * p] && parts[4 * p + 3] > max) max = parts[4 * p + 3];
    }
    free(parts);
    W->vary = all ^ any;
    W->fixed = all;
    W->dbits = L->dbits;
    W->cached = -1;
    retro_compact_tables(W);
    int w = retro_compact_width(wc, W), ok = buf != NULL;
    if (ok && efset_begin(&W->keys, n, retro_compact_squeeze(W, max)) < 0) ok = 0;
    if (ok && !(W->vals = calloc(bits_words(n, w), sizeof *W->vals))) ok = 0;
    /* Per rank: its chunk, how many, the next, whether it is the last;
    ** rank 0's own is filled here. */
    uint64_t **chunk = calloc((size_t)rmpi.size, sizeof *chunk);
    int *cnt = calloc((size_t)rmpi.size, sizeof *cnt), *pos = calloc((size_t)rmpi.size, sizeof *pos);
    int *last = calloc((size_t)rmpi.size, sizeof *last);
    if (!chunk || !cnt || !pos || !last) ok = 0;
    for (int p = 1; ok && p < rmpi.size; p++)
      if (!(chunk[p] = malloc(2 * MC_WRITE * sizeof **chunk))) ok = 0;
    if (!ok) {
      /* Every chunk received all the same: the senders must not wait. */
      uint64_t *sink = malloc(2 * MC_WRITE * sizeof *sink);
      for (int p = 1; p < rmpi.size; p++)
        for (int got = MC_WRITE; got == MC_WRITE;) {
          MPI_Status ms;
          MPI_Recv(sink, sink ? 2 * MC_WRITE : 0, MPI_UINT64_T, p, MC_TAG_LAYER, MPI_COMM_WORLD, &ms);
          MPI_Get_count(&ms, MPI_UINT64_T, &got);
          got = sink ? got / 2 : 0;
        }
      free(sink);
    } else {
      chunk[0] = buf;
      uint64_t i = 0;
      /* The first chunk of every rank; then the smallest key next, its
      ** rank's chunk refilled when it runs out. */
      for (int p = 0; p < rmpi.size; p++) next_chunk(c, L, &it, chunk, cnt, pos, last, p);
      for (;;) {
        int min = -1;
        for (int q = 0; q < rmpi.size; q++)
          if (pos[q] < cnt[q] && (min < 0 || chunk[q][2 * pos[q]] < chunk[min][2 * pos[min]])) min = q;
        if (min < 0) break;
        const uint64_t *e = &chunk[min][2 * pos[min]];
        if (i < n) {
          efset_put(&W->keys, i, retro_compact_squeeze(W, e[0]));
          bits_or(W->vals, i * (uint64_t)w, w, e[1]);
        }
        i++;
        if (++pos[min] == cnt[min] && !last[min]) next_chunk(c, L, &it, chunk, cnt, pos, last, min);
      }
      if (i != n) ok = 0;
      chunk[0] = NULL;
    }
    for (int p = 0; chunk && p < rmpi.size; p++) free(chunk[p]);
    free(chunk);
    free(cnt);
    free(pos);
    free(last);
    free(buf);
    if (ok && efset_end(&W->keys) < 0) ok = 0;
    if (!ok) {
      compact_layer_free(W);
      retro_fail(r, EXIT_LIMIT, "out of memory writing the compact table (rank 0 holds one whole "
                 "layer while it writes it)");
    } else {
      /* Rank 0's peak counts the whole layer it holds now. */
      size_t held = efset_bytes(&W->keys) + bits_words(n, w) * sizeof *W->vals;
      note_peak(r);
      if (mc.peak < held + retro_compact_bytes(r)) mc.peak = held + retro_compact_bytes(r);
      r->cpt = wc;
      int rc = compact_db_layer(r, k);
      r->cpt = mc.mine;
      if (rc == 0 && k >= 2) compact_db_unload(W);
      if (W->keys.n > wc->largest) wc->largest = W->keys.n;
    }
  }
  more = 0;
  return agree(r, &more);
}

static int backward(Retro *r, RetroCompact *c) {
  int st;
  mc.pmover = malloc(MC_CHUNK);
  mc.pn = malloc(MC_CHUNK * sizeof *mc.pn);
  mc.pscore = malloc(MC_CHUNK * sizeof *mc.pscore);
  mc.req = malloc((size_t)rmpi.size * sizeof *mc.req);
  if (!mc.pmover || !mc.pn || !mc.pscore || !mc.req) retro_fail(r, EXIT_LIMIT, "out of memory");
  int more = 0;
  if ((st = agree(r, &more)) != EXIT_OK) return st;
  for (int k = c->nlayers - 1; k >= 0; k--) {
    CompactLayer *L = &c->layer[k];
    L->dbits = bits_for((uint64_t)(c->nlayers - 1 - k));
    if (r->status == EXIT_OK && c->spill) {
      int rc = compact_keys_back(r, c, L);
      if (rc < 0) retro_fail(r, EXIT_LIMIT, "out of memory");
    }
    if (r->status == EXIT_OK &&
        !(L->vals = calloc(bits_words(L->keys.n, retro_compact_width(c, L)), sizeof *L->vals)))
      retro_fail(r, EXIT_LIMIT, "out of memory in the compact retrograde analysis (%zu MiB held); "
                 "raise --memory, free memory or add ranks", retro_compact_bytes(r) >> 20);
    if ((st = label_layer(r, c, k)) != EXIT_OK) return st;
    /* Layer k + 1 is done with (its parents are labelled). */
    if (k + 1 < c->nlayers) {
      if ((st = write_layer(r, c, k + 1)) != EXIT_OK) return st;
      compact_layer_free(&c->layer[k + 1]);
    }
  }
  return write_layer(r, c, 0);
}

/* ------------------------------------------------------------------ */
/* The solve                                                          */
/* ------------------------------------------------------------------ */

/* One line per rank on rank 0's stderr, as the hash form's. */
static void report_ranks(void) {
  uint64_t mine[6] = { mc.stored, mc.positions, mc.edges, mc.peak, rmpi.messages, rmpi.bytes };
  uint64_t *all = rmpi.rank == 0 ? malloc((size_t)rmpi.size * sizeof mine) : NULL;
  MPI_Gather(mine, 6, MPI_UINT64_T, all, 6, MPI_UINT64_T, 0, MPI_COMM_WORLD);
  if (rmpi.rank != 0 || !all || !rmpi.err) {
    free(all);
    return;
  }
  for (int i = 0; i < rmpi.size; i++) {
    const uint64_t *a = all + (size_t)i * 6;
    fprintf(rmpi.err, "mpi: rank %d of %d: stored %llu, positions %llu, moves %llu, memory %.2f MiB "
            "(its parts of the compact table at most), sent %llu messages, %llu bytes\n", i, rmpi.size,
            (unsigned long long)a[0], (unsigned long long)a[1], (unsigned long long)a[2],
            (double)a[3] / (1 << 20), (unsigned long long)a[4], (unsigned long long)a[5]);
  }
  fprintf(rmpi.err, "mpi: %llu exchange rounds\n", (unsigned long long)rmpi.rounds);
  free(all);
}

static void free_state(void) {
  free(mc.pmover);
  free(mc.pn);
  free(mc.pscore);
  free(mc.dest);
  free(mc.req);
  mc.req = NULL;
  mc.pmover = NULL;
  mc.pn = NULL;
  mc.pscore = NULL;
  mc.dest = NULL;
  mc.dest_cap = 0;
}

int rmpi_compact_solve(Retro *r, Search *s) {
  Game *g = r->g;
  FILE *err = rmpi.rank == 0 ? rmpi.err : NULL;
  rmpi.r = r;
  rmpi.g = g;
  r->err = err;
  if (solved)                   /* the other ranks rest: no collective now */
    return rmpi_job_fail(EXIT_USAGE, "gsolve-mpi --compact solves one position a run");
  int entered = rmpi_enter();
  if (entered != EXIT_OK) return r->status = entered;
  /* Refusals every rank makes alike (rank 0 says them). */
  const char *why = retro_compact_refusal(r);
  if (why) return retro_fail(r, EXIT_USAGE, "--compact: %s (drop --compact)", why);
  /* The buffers of the exchange (retro_mpi.c's). */
  rmpi.out = calloc((size_t)rmpi.size, sizeof *rmpi.out);
  rmpi.scount = calloc((size_t)rmpi.size * 4, sizeof(int));
  memset(&mc, 0, sizeof mc);
  mc.msg = open_memstream(&mc.msg_text, &mc.msg_len);
  int st = EXIT_OK, more = 0;
  if (!rmpi.out || !rmpi.scount || !mc.msg) st = rmpi_fail(EXIT_LIMIT, "out of memory");
  rmpi.rcount = rmpi.scount + rmpi.size;
  rmpi.sdispl = rmpi.rcount + rmpi.size;
  rmpi.rdispl = rmpi.sdispl + rmpi.size;
  if (st == EXIT_OK) r->err = mc.msg;
  /* Whether the positions recur: the same probe on every rank, agreed
  ** below with the rest (it may run out of memory on one rank alone,
  ** which then left the others waiting). */
  int cycles = st == EXIT_OK ? retro_compact_cycles_wanted(r) : 0;
  if (cycles < 0) st = r->status;
  if (r->canonical && !(g->vt->orbit && g->vt->orbit(g, game_state(g)) != 0)) r->canonical = NULL;
  /* Rank 0's view of the whole table first, then this rank's parts (r->cpt). */
  if (st == EXIT_OK && rmpi.rank == 0) {
    if (retro_compact_scratch(r) < 0) st = retro_fail(r, EXIT_LIMIT, "out of memory");
    mc.whole = r->cpt;
    r->cpt = NULL;
  }
  if (st == EXIT_OK && retro_compact_scratch(r) < 0) st = retro_fail(r, EXIT_LIMIT, "out of memory");
  RetroCompact *c = mc.mine = r->cpt;
  free(r->root_state);
  r->root_state = NULL;         /* not left dangling when st already failed */
  if (st == EXIT_OK && !(r->root_state = malloc(g->state_bytes))) st = retro_fail(r, EXIT_LIMIT, "out of memory");
  if (st == EXIT_OK) memcpy(r->root_state, game_state(g), g->state_bytes);
  if (c) c->spill = r->spill_dir != NULL;
  if ((st = agree(r, &more)) != EXIT_OK) goto out;
  if (cycles) {
    st = refuse_cycles();
    goto out;
  }
  double t0 = clock_seconds();
  if ((st = forward(r, c)) != EXIT_OK) goto out;
  double t1 = clock_seconds();
  if ((st = plan_labels(r, c)) != EXIT_OK) goto out;
  if (rmpi.rank == 0) {
    /* The database's head: the counts, smin and the layers known now. */
    RetroCompact *wc = mc.whole;
    char buf[4096];
    if (!(wc->layer = calloc((size_t)c->nlayers, sizeof *wc->layer)))
      retro_fail(r, EXIT_LIMIT, "out of memory");
    else {
      wc->layer_cap = wc->nlayers = c->nlayers;
      wc->smin = c->smin;
      wc->sbits = c->sbits;
      wc->spill = 1;
      r->cpt = wc;
      int rc = compact_db_open(r, r->db_out, compact_spill_folder(r, buf, sizeof buf), r->db_game,
                               r->db_params, r->db_hash, r->err);
      if (rc != EXIT_OK) r->status = rc;
      r->cpt = c;
    }
  }
  if ((st = agree(r, &more)) != EXIT_OK) goto out;
  if (rmpi.rank == 0)
    progress_note(r->progress, "compact retrograde analysis over MPI, labelling", NULL, 0, "positions", 0);
  mc.walked = 0;
  if ((st = backward(r, c)) != EXIT_OK) goto out;
  uint64_t labelled = rmpi_sum(r->labelled);
  r->labelled = labelled;
  c->peak = mc.peak;
  report_ranks();
  g->vt->set_state(g, r->root_state);
  free_state();
  fclose(mc.msg);
  free(mc.msg_text);
  mc.msg = NULL;
  solved = 1;
  rmpi.entered = 0;             /* rank 0 alone from here: no collective until the end */
  if (rmpi.rank != 0) rmpi_rest();
  /* Rank 0: the database closed (committed when it is --db FILE) and read
  ** back from now on, as one process's after a run with layers on disk. */
  r->err = err;
  retro_compact_free(c);
  mc.mine = NULL;
  r->cpt = mc.whole;
  mc.whole->peak = mc.peak;
  if ((st = compact_db_close(r, r->db_out, err)) != EXIT_OK) return r->status = st;
  r->enumerate_seconds = mc.whole->forward_seconds = t1 - t0;
  r->label_seconds = mc.whole->backward_seconds = clock_seconds() - t1;
  s->nodes = r->positions;
  return retro_answer(r, s);
out:
  /* Every rank agreed on st: nothing is written (the database is dropped). */
  if (g && r->root_state) g->vt->set_state(g, r->root_state);
  free_state();
  if (mc.whole) {
    retro_compact_free(mc.whole);
    mc.whole = NULL;
  }
  if (mc.msg) {
    fclose(mc.msg);
    free(mc.msg_text);
    mc.msg = NULL;
  }
  r->err = err;
  return r->status = st;
}
