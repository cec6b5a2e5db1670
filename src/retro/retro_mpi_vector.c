/*
** retro_mpi_vector.c -- gsolve-mpi: the payoff-vector mode of the
** retrograde solver (chance, per-move payoffs, more than two players)
** over the MPI ranks (compiled only by `make mpi`).
**
** The single-process solver (retro.c, propagate_vectors) values a
** position once its last child is valued, from its own moves in
** generation order: max^n for a player, the weighted mean for chance,
** each move's pay added to its child's payoffs and one ply to its plies.
** Distributed, the enumeration (retro_mpi.c) leaves on each rank:
**
**   - per owned position it expanded first (the class's recording state),
**     its moves' weights and pays in generation order from fstart[c],
**     and count[c], its number of moves;
**   - per reverse edge into an owned position, the parent's rank, index
**     and the move's slot (its index in the parent's moves).
**
** Labelling is one work queue per rank, cut into rounds: each round, a
** rank sends the payoffs of its next newly valued positions (at most
** GSOLVE_MPI_BATCH bytes of updates: parent index, slot, nplayers + 1
** doubles) to the owners of their parents, with MPI_Alltoall(v) as for
** the two-player mode.  An owner keeps each update in the parent's slot
** and counts down the parent's children; at zero it values the parent
** from the slots in generation order, with the same arithmetic in the
** same order as retro.c, so the doubles come out bit for bit the same,
** and queues it.  No level structure is needed: a value never changes
** once computed, so the rounds' order does not matter.  After each round
** one MPI_Allreduce (retro_mpi.c's agree: status, stop) and a global sum
** of the queued positions decide: go on, or finish when no rank has any
** (no update is in flight then: the exchange is collective).  Positions
** never valued lie on cycles: the single process's error, for the job.
**
** The slots cost nplayers + 1 doubles per recorded move on the parent's
** rank, only while labelling.  With declared symmetries, a class's moves
** are those of the first of its states to reach its owner, which may not
** be the single process's first (a depth-first order): the values agree
** then up to the order of a chance node's sum and ties of max^n.  The
** bundled games of this mode declare none.
*/
#include <mpi.h>
#include <stdlib.h>
#include <string.h>
#include "solve/expectimax.h"
#include "retro/retro_mpi_int.h"
#include "util/status.h"
#include "util/stop.h"

/* Sends the next valued positions' payoffs to their parents' owners (at
** most rmpi.batch bytes, at least one position's) and exchanges them.
** -1 when out of memory. */
static int send_values(size_t vs) {
  Retro *r = rmpi.r;
  size_t np = (size_t)rmpi.g->nplayers, bytes = 0;
  int bad = 0;
  while (rmpi.fhead < rmpi.nfrontier && !bad && (bytes == 0 || bytes < rmpi.batch)) {
    uint32_t x = rmpi.frontier[rmpi.fhead++];
    double v[GAME_MAX_PLAYERS + 1];
    for (size_t i = 0; i < np; i++) v[i] = r->vec[x].pay[i];
    v[np] = r->vec[x].plies;
    for (uint32_t k = rmpi.pstart[x]; k < rmpi.pstart[x + 1]; k++) {
      Buf *b = &rmpi.out[rmpi.prank[k]];
      if (rmpi_put32(b, rmpi.pidx[k]) < 0 || rmpi_put32(b, rmpi.pslot[k]) < 0 ||
          rmpi_put(b, v, vs * sizeof *v) < 0) {
        bad = 1;
        break;
      }
      bytes += 8 + vs * sizeof *v;
    }
  }
  if (rmpi_exchange() < 0) bad = 1;
  return bad ? -1 : 0;
}

/* Position p's payoffs from its moves' slots, as retro.c's
** propagate_vectors computes them (the same operations in the same
** order). */
static void value_position(uint32_t p, size_t vs) {
  Retro *r = rmpi.r;
  Game *g = rmpi.g;
  size_t np = (size_t)g->nplayers, first = rmpi.fstart[p], end = first + r->count[p];
  int chance = r->mover[p] == (uint8_t)GAME_CHANCE;
  double total = 0;
  ExpValue best;
  memset(&best, 0, sizeof best);
  if (chance)
    for (size_t e = first; e < end; e++) total += rmpi.fw_weight[e];
  for (size_t e = first; e < end; e++) {
    ExpValue v;
    memset(&v, 0, sizeof v);
    for (size_t i = 0; i < np; i++) v.pay[i] = rmpi.fw_value[e * vs + i];
    v.plies = rmpi.fw_value[e * vs + np];
    if (rmpi.fw_pay) for (size_t i = 0; i < np; i++) v.pay[i] += rmpi.fw_pay[e * np + i];
    v.plies += 1;
    if (chance) {
      double w = rmpi.fw_weight[e] / total;
      for (size_t i = 0; i < np; i++) best.pay[i] += w * v.pay[i];
      best.plies += w * v.plies;
    } else if (e == first || exp_better(g, r->mover[p], &v, &best)) {
      best = v;
    }
  }
  r->vec[p] = best;
}

int rmpi_label_vectors(void) {
  Retro *r = rmpi.r;
  size_t n = rmpi.owned, vs = (size_t)rmpi.g->nplayers + 1;
  int st = EXIT_OK, stop;
  /* frontier: the queue of valued positions (each joins once);
  ** left: per position, the children not yet valued. */
  uint32_t *left = malloc((n + 1) * sizeof *left);
  rmpi.frontier = malloc((n + 1) * sizeof *rmpi.frontier);
  rmpi.fw_value = malloc((rmpi.nfw + 1) * vs * sizeof *rmpi.fw_value);
  if (!left || !rmpi.frontier || !rmpi.fw_value || rmpi_build_parents() < 0)
    st = rmpi_fail(EXIT_LIMIT, "out of memory");
  if (st == EXIT_OK && r->memory_limit && rmpi_memory() > r->memory_limit)
    st = rmpi_fail(EXIT_LIMIT, "memory limit of %zu MiB reached while labelling %zu stored "
                   "positions on this rank; raise --memory or add ranks", r->memory_limit >> 20, n);
  if ((st = rmpi_agree(st, &stop)) != EXIT_OK) { free(left); return r->status = st; }
  rmpi.nfrontier = rmpi.fhead = 0;
  for (size_t c = 0; c < n; c++) {
    left[c] = r->count[c];
    if (r->terminal[c]) rmpi.frontier[rmpi.nfrontier++] = (uint32_t)c;
  }
  for (;;) {
    if (st == EXIT_OK && send_values(vs) < 0) st = rmpi_fail(EXIT_LIMIT, "out of memory");
    else if (st != EXIT_OK) rmpi_exchange();
    size_t rec = 8 + vs * sizeof(double);
    for (size_t at = 0; st == EXIT_OK && at + rec <= rmpi.in.n; at += rec) {
      uint32_t p = rmpi_get32(rmpi.in.p + at), slot = rmpi_get32(rmpi.in.p + at + 4);
      memcpy(rmpi.fw_value + ((size_t)rmpi.fstart[p] + slot) * vs, rmpi.in.p + at + 8,
             vs * sizeof(double));
      if (--left[p] == 0) {
        value_position(p, vs);
        rmpi.frontier[rmpi.nfrontier++] = p;
      }
    }
    int all = rmpi_agree(st, &stop);
    if (all == EXIT_OK && stop) {
      char msg[160];
      all = stop_message(msg, sizeof msg, r->positions, "positions");
      rmpi_job_fail(all, "%s", msg);
    }
    if (all != EXIT_OK) { free(left); return r->status = all; }
    if (rmpi_sum(rmpi.nfrontier - rmpi.fhead) == 0) break;
  }
  free(left);         /* the slots stay until the end: the rank's memory line counts them */
  r->labelled = rmpi_sum(rmpi.nfrontier);
  if (r->labelled < r->stored)
    return rmpi_job_fail(EXIT_USAGE, "this game has cycles: retrograde analysis with chance, "
                         "per-move payoffs or more than two players needs an acyclic game "
                         "(use --solver value-iteration)");
  return EXIT_OK;
}
