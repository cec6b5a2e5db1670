/*
** retro_mpi_db.c -- gsolve-mpi: the database of a distributed retrograde
** table, and --stats' counts over its ranks (compiled only by `make
** mpi`; retro_mpi.c's header comment gives the design).
**
** The database.  Records are sorted by key in both builds (db.h, format
** 3); each rank sorts its share and rank 0 merges the N sorted streams,
** pulling RM_BLOCK records at a time from each rank, so no rank ever
** holds more than its share plus N blocks.
*/
#include <mpi.h>
#include <stdlib.h>
#include <string.h>
#include "retro/db.h"
#include "retro/retro_mpi_int.h"
#include "util/status.h"
#include "util/stop.h"

/* A block of up to RM_BLOCK of this rank's records, in key order, from
** *at on: count (4 bytes), then per record key, value, mover, dist,
** score. */
static size_t make_block(const uint32_t *order, size_t *at, unsigned char *out) {
  Retro *r = rmpi.r;
  uint32_t n = 0;
  size_t rec = rmpi.key + 10, pos = 4;
  for (; n < RM_BLOCK && *at < rmpi.owned; n++, (*at)++) {
    uint32_t i = order[*at];
    memcpy(out + pos, rmpi.set->keys + (size_t)i * rmpi.key, rmpi.key);
    out[pos + rmpi.key] = r->value[i];
    out[pos + rmpi.key + 1] = r->mover[i];
    memcpy(out + pos + rmpi.key + 2, &r->dist[i], 4);
    memcpy(out + pos + rmpi.key + 6, &r->score[i], 4);
    pos += rec;
  }
  memcpy(out, &n, 4);
  return pos;
}

/* The database: every rank's share sorted by key; rank 0 merges them
** into the file, asking each rank for a block at a time. */
int rmpi_write(const Retro *cr, const char *path, const char *game, const char *params,
                     uint64_t rules_hash, FILE *err) {
  size_t rec = rmpi.key + 10, bsize = 4 + RM_BLOCK * rec;
  uint32_t *order = db_key_order(rmpi.set, rmpi.owned);
  unsigned char *mine = malloc(bsize);
  int st = order && mine ? EXIT_OK : rmpi_fail(EXIT_LIMIT, "out of memory writing '%s'", path);
  int stop;
  if ((st = rmpi_agree(st, &stop)) != EXIT_OK) { free(order); free(mine); return st; }
  size_t at = 0;
  if (rmpi.rank != 0) {
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
    unsigned char **blk = calloc((size_t)rmpi.size, sizeof *blk);
    uint32_t *cnt = calloc((size_t)rmpi.size, sizeof *cnt), *pos = calloc((size_t)rmpi.size, sizeof *pos);
    int *done = calloc((size_t)rmpi.size, sizeof *done);
    DbWriter w;
    int open = 0;
    if (!blk || !cnt || !pos || !done) st = rmpi_fail(EXIT_LIMIT, "out of memory writing '%s'", path);
    for (int i = 0; i < rmpi.size && st == EXIT_OK; i++)
      if (!(blk[i] = i == 0 ? mine : malloc(bsize))) st = rmpi_fail(EXIT_LIMIT, "out of memory");
    if (st == EXIT_OK) {
      st = db_write_begin(&w, rmpi.r, rmpi.r->positions, rmpi.r->stored, path, game, params, rules_hash, err);
      open = st == EXIT_OK;
    }
    for (int i = 0; i < rmpi.size; i++) {       /* the first blocks, or the end */
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
      for (int i = 0; i < rmpi.size; i++) {
        if (pos[i] == cnt[i]) continue;
        if (min < 0 || memcmp(blk[i] + 4 + pos[i] * rec, blk[min] + 4 + pos[min] * rec, rmpi.key) < 0)
          min = i;
      }
      if (min < 0) break;
      const unsigned char *p = blk[min] + 4 + pos[min] * rec;
      uint32_t dist;
      int32_t score;
      memcpy(&dist, p + rmpi.key + 2, 4);
      memcpy(&score, p + rmpi.key + 6, 4);
      db_write_record(&w, p, rmpi.key, p[rmpi.key], p[rmpi.key + 1], dist, score);
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
        rmpi_job_fail(st, "%s", msg);
      }
    }
    /* Ranks still serving blocks hear the end. */
    for (int i = 1; i < rmpi.size; i++) {
      if (done[i] || cnt[i] < RM_BLOCK) continue;   /* it sent its last block */
      int ask = 0;
      MPI_Send(&ask, 1, MPI_INT, i, RM_TAG_ASK, MPI_COMM_WORLD);
    }
    if (open) {
      if (st == EXIT_OK) st = db_write_end(&w, err);
      else file_abort(&w.file);
    }
    for (int i = 1; blk && i < rmpi.size; i++) free(blk[i]);
    free(blk); free(cnt); free(pos); free(done);
  }
  free(order);
  free(mine);
  MPI_Bcast(&st, 1, MPI_INT, 0, MPI_COMM_WORLD);
  (void)cr;
  return st;
}

/* --stats' table counts: each rank counts its own share (the positions
** it owns and the raw states kept with them), then the counts and the
** histograms are summed and the longest win's example comes from the
** rank that holds it.  Every rank makes the same collective calls. */
int rmpi_stats(Retro *r, RetroStats *st) {
  size_t stored = r->stored;
  uint64_t positions = r->positions;
  r->stored = rmpi.owned;                 /* the answer's extra records are others' */
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
    struct { int plies, rank; } mine = { (int)st->longest[m], rmpi.rank }, best;
    MPI_Allreduce(&mine, &best, 1, MPI_2INT, MPI_MAXLOC, MPI_COMM_WORLD);
    st->longest[m] = best.plies;
    if (best.plies < 0) continue;
    int have = st->example[m] != NULL, all;
    MPI_Bcast(&have, 1, MPI_INT, best.rank, MPI_COMM_WORLD);
    if (!have) { free(st->example[m]); st->example[m] = NULL; continue; }
    if (!st->example[m] && !(st->example[m] = malloc(rmpi.g->state_bytes))) fail = 1;
    MPI_Allreduce(&fail, &all, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (all) { retro_stats_free(st); return EXIT_LIMIT; }
    MPI_Bcast(st->example[m], (int)rmpi.g->state_bytes, MPI_BYTE, best.rank, MPI_COMM_WORLD);
  }
  return EXIT_OK;
}

