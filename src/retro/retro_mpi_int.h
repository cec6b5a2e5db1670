/*
** retro_mpi_int.h -- what the files of gsolve-mpi's distributed
** retrograde solver share (retro_mpi.c: exchange, enumeration, the
** two-player labelling; retro_mpi_vector.c: payoff vectors;
** retro_mpi_db.c: the database and --stats).  Compiled only by `make
** mpi`; the design is in retro_mpi.c's header comment and docs/mpi.md.
*/
#ifndef GSOLVE_RETRO_MPI_INT_H
#define GSOLVE_RETRO_MPI_INT_H

#include <stdint.h>
#include <stdio.h>
#include "retro/retro.h"
#include "retro/retro_stats.h"

#define RM_BLOCK 4096          /* records per block of the merge */
#define RM_NONE UINT32_MAX     /* no parent (the root) */
#define RM_TAG_ASK 1
#define RM_TAG_BLOCK 2

typedef struct Buf {
  unsigned char *p;
  size_t n, cap, head;
} Buf;

/* This rank's share and its traffic. */
typedef struct RetroMpi {
  Retro *r;
  Game *g;
  int rank, size;
  FILE *err;                   /* this rank's own stderr */
  KeySet *set;                 /* the stored keys: classes, or states */
  size_t owned;                /* stored positions owned (before the answer's extras) */
  size_t key;                  /* key bytes */
  int by_state;                /* positions travel as their raw key, loaded with set_state
                               ** (else as their path from the root) */
  int ready;                   /* labelled: lookups go to the owners (rmpi_children) */
  int entered;                 /* in a distributed solve's collectives (rmpi_enter) */
  unsigned char *root;         /* the root's state (by_state), *state: scratch */
  unsigned char *state;
  Buf *out;                    /* per destination rank */
  Buf in, queue, send;
  int *scount, *rcount, *sdispl, *rdispl;
  /* Reverse edges while enumerating, then by child (CSR); the slot is the
  ** move's index in its parent's generation order (payoff vectors only). */
  uint32_t *e_child, *e_rank, *e_idx, *e_slot;
  size_t nedges, edges_cap;
  uint32_t *pstart, *prank, *pidx, *pslot;
  /* Payoff vectors: each recorded position's moves, in generation order,
  ** from fstart[c]: weight, pay (nplayers each, games with per-move
  ** payoffs), and at labelling the child's value (nplayers + 1 doubles). */
  uint32_t *fstart;
  size_t fstart_cap;
  uint32_t *fw_weight;
  int32_t *fw_pay;
  double *fw_value;
  size_t nfw, fw_cap;
  uint32_t *frontier, *next;
  size_t nfrontier, nnext;
  size_t label_bytes;          /* the two-player labelling's arrays (frontier,
                               ** next, best), counted by rmpi_memory */
  size_t fhead;                /* the frontier's positions already sent */
  size_t batch;                /* update bytes a round sends at most (GSOLVE_MPI_BATCH) */
  unsigned char *ckey, *rkey;
  uint64_t messages, bytes;    /* sent to other ranks */
  uint64_t rounds;
} RetroMpi;

extern RetroMpi rmpi;          /* one solve per process */

/* An error of this rank (printed by it, "rank R:" before it), or of the
** whole job (rank 0 alone prints it); both set the Retro's status. */
int rmpi_fail(int status, const char *fmt, ...);
int rmpi_job_fail(int status, const char *fmt, ...);

int rmpi_room(Buf *b, size_t more);
int rmpi_put(Buf *b, const void *data, size_t n);
int rmpi_put32(Buf *b, uint32_t v);
uint32_t rmpi_get32(const unsigned char *p);

/* The rank that owns a stored key. */
int rmpi_owner(const unsigned char *key);

/* One round: rmpi.out[d] to rank d, what the others sent into rmpi.in
** (collective).  -1 when out of memory (this rank then sent nothing). */
int rmpi_exchange(void);

/* Collective: the sum over the ranks; the worst status and the stop flag. */
uint64_t rmpi_sum(uint64_t v);
int rmpi_agree(int status, int *stop);
/* The ranks meet before a distributed solve (the same collective as the
** end of the job, retro_mpi_end): EXIT_OK, or the status of a rank that
** ended the job before the solve (said by rank 0). */
int rmpi_enter(void);
/* The end of the job on this rank (retro_mpi_end): waits at the
** checkpoint until every rank is there; the worst status of all. */
int rmpi_meet_at_end(int status);
/* RetroDistributed.trapped: MPI_Abort with the status when this rank is
** inside a distributed solve (rmpi.entered). */
void rmpi_trapped(int status);

/* Bytes this rank holds. */
size_t rmpi_memory(void);

/* A new stored position c in the Retro's arrays (and fstart). -1: memory. */
int rmpi_new_class(uint32_t c);

/* The engine's current state's raw key into rmpi.rkey, its stored key
** into rmpi.ckey. */
void rmpi_keys(void);

/* Collective: the labels of the current position's children, from their
** owners, added to every rank's table (extras past rmpi.owned), so that
** retro_answer and retro_vector_answer find them.  The status. */
int rmpi_children(void);

/* The reverse edges by child (CSR: pstart, prank, pidx, pslot). -1: memory. */
int rmpi_build_parents(void);

/* Payoff vectors (retro_mpi_vector.c): the labelling after the
** enumeration, collective.  The status. */
int rmpi_label_vectors(void);

/* retro_mpi_db.c: the database merged at rank 0, --stats over the ranks. */
int rmpi_write(const Retro *r, const char *path, const char *game, const char *params,
               uint64_t rules_hash, FILE *err);
int rmpi_stats(Retro *r, RetroStats *st);

/* retro_mpi_compact.c: retro_solve's --compact over the ranks (the
** hook compact_solve).  The status; ranks other than 0 do not return
** from a solve that succeeds: their part is done once the database is
** written, and they wait for rank 0's end (rmpi_rest). */
int rmpi_compact_solve(Retro *r, Search *s);

/* A rank with nothing left to do: retro_mpi_end's collective (which
** waits for every other rank to reach it), then exit with the job's
** status.  Never returns. */
void rmpi_rest(void) __attribute__((noreturn));

#endif
