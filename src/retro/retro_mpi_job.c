/*
** retro_mpi_job.c -- gsolve-mpi's ranks meeting outside the solves: the
** checkpoint before each distributed solve and at the end of the job,
** and a trap in the middle of a solve.  Without them a rank that failed
** alone (out of memory while it compiled the rules, or in its engine
** mid-solve) left the others waiting for ever in a collective it never
** joined (session 24, tests/t_mpi.sh "one rank out of memory").
*/
#include <mpi.h>
#include <stdio.h>
#include "retro/retro_mpi_int.h"
#include "util/diag.h"
#include "util/status.h"

/* The checkpoint: where each rank is, one collective at the start of
** every distributed solve and at the end of the job, so that a rank that
** stopped before a solve (out of memory while it compiled the rules, on
** that rank alone) meets the others there instead of leaving them
** waiting in the solve's first exchange while it waits to finish (a
** hang, session 24).  in: the rank's status, rank + 1 when it is at the
** end, 1 when it is about to solve, rank + 1 when it failed; the largest
** of each over the ranks. */
static void checkpoint(int status, int at_end, int out[4]) {
  int in[4] = { status, at_end ? rmpi.rank + 1 : 0, !at_end, status != EXIT_OK ? rmpi.rank + 1 : 0 };
  MPI_Allreduce(in, out, 4, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
}

int rmpi_enter(void) {
  int out[4];
  checkpoint(EXIT_OK, 0, out);
  if (out[1] == 0) return rmpi.entered = 1, EXIT_OK;
  int st = out[0] != EXIT_OK ? out[0] : EXIT_RUNTIME;
  return rmpi_job_fail(st, "rank %d of %d stopped before the solve (exit status %d); the job "
                       "stops", out[1] - 1, rmpi.size, out[0]);
}

int rmpi_meet_at_end(int status) {
  /* The worst status, once every rank is here: one still about to solve
  ** meets this rank's checkpoint there, stops, and comes here too. */
  int out[4];
  do checkpoint(status, 1, out); while (out[2]);
  int worst = out[0];
  /* A rank that failed alone, once rank 0 had answered: its message went
  ** to its own stderr, which gsolve-mpi silences; rank 0 says it. */
  if (rmpi.rank == 0 && status == EXIT_OK && worst != EXIT_OK && rmpi.err) {
    diag_fail(rmpi.err, worst, "rank %d of %d ended with exit status %d after the answer above "
              "(out of memory, or a limit, on that rank alone)", out[3] - 1, rmpi.size, worst);
    fflush(rmpi.err);
  }
  return worst;
}

void rmpi_trapped(int status) {
  if (!rmpi.entered) return;    /* the end's checkpoint meets the others */
  if (rmpi.err) {
    fprintf(rmpi.err, "gsolve: error: rank %d of %d stopped in the middle of the solve (exit "
            "status %d: a rule's runtime error, or out of memory); the job is aborted\n", rmpi.rank,
            rmpi.size, status);
    fflush(rmpi.err);
  }
  MPI_Abort(MPI_COMM_WORLD, status);
}
