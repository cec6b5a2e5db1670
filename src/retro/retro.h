/*
** retro.h -- retrograde analysis: enumerate every position reachable from
** the root, then label each won, lost or drawn for the player to move with
** its exact distance to the end, by backward induction from the ends.
**
** Works on games with cycles (what is never labelled is a draw), stores
** positions that a declared symmetry maps onto each other once, and
** answers with the same values and distances as minimax and alpha-beta.
*/
#ifndef GSOLVE_RETRO_H
#define GSOLVE_RETRO_H

#include <stdint.h>
#include <stdio.h>
#include "game/game.h"
#include "game/movestack.h"
#include "search/search.h"
#include "solve/expectimax.h"
#include "search/keyset.h"

/* The depth-first enumeration goes at most this deep; a new position
** found below it waits in a list and is expanded later from its state
** (engines with set_state; without, lines stop at GAME_MAX_PLY). */
#define RETRO_MAX_DEPTH 4096

/* Plies of a draw that never ends (a cycle): reported as null. */
#define RETRO_ENDLESS (VALUE_BIG / 2 - 1)

typedef struct Retro {
  Game *g;
  FILE *err;
  int status;
  int base_ply;
  uint64_t max_positions;   /* stop beyond this many stored positions */
  size_t memory_limit;      /* bytes; 0: none */
  size_t memory_free;       /* what the machine had free when a growth did
                            ** not fit in it (0: --memory was the bound) */
  struct Progress *progress; /* the progress display, or NULL */
  const char *label;        /* the progress display's name (NULL: "retrograde analysis, enumerating") */
  double enumerate_seconds, label_seconds;
  /* Results of the enumeration. */
  uint64_t positions;       /* distinct reachable positions (see closure) */
  int closure;              /* positions counts the symmetric closure of the
                            ** reachable ones: the root is not symmetric */
  uint64_t stored;          /* positions kept after symmetry reduction */
  uint64_t edges;           /* moves between stored positions */
  uint64_t labelled;        /* won or lost positions (the rest are draws) */
  KeySet states;            /* every reachable state (positions) */
  KeySet classes;           /* canonical forms (stored), or NULL use */
  /* Per stored position. */
  uint8_t *value;           /* RETRO_WIN/LOSS/DRAW for the mover, or 0 */
  uint8_t *mover;
  uint32_t *dist;           /* plies to the end */
  uint32_t *count;          /* children not yet decided */
  uint8_t *terminal;
  uint8_t *expanded;        /* its moves were recorded */
  int32_t *score;           /* the margin for the mover under best play */
  int scored;               /* some end has a margin beyond +-1 */
  /* A table read from a database file (db_read): its path, and the check
  ** of the current position's record and its children's against the rules
  ** that retro_answer runs before it answers (db.c); NULL otherwise. */
  const char *db_path;
  int (*verify_here)(struct Retro *r);
  /* The game's canonical form, or NULL: no symmetry (--no-symmetry). */
  void (*canonical)(Game *g, const void *state, void *out);
  size_t nclass, class_cap; /* stored positions so far; room in the arrays */
  uint32_t *edge_from, *edge_to;    /* the move graph, as pairs */
  size_t nedges_cap;
  uint32_t *parent_start, *parents; /* reverse graph (CSR) */
  uint32_t *queue;
  MoveStack ms;
  struct RetroFrame *frames; size_t nframes;
  int symmetry_checks;      /* classes whose symmetry was checked */
  unsigned char *sym_here;  /* scratch of that check: a state, the moves */
  Move *sym_moves;
  unsigned char *deferred;  /* positions met at RETRO_MAX_DEPTH, to expand
                            ** later: their keys' indices, or raw states */
  size_t ndeferred, deferred_cap;
  unsigned char *canon;     /* scratch: one canonical form */
  unsigned char *key;       /* scratch: one packed key */
  unsigned char *root_state; /* the enumeration's root, set back at its end */
  /* retro_enumerate's look-ahead: per move of the position being
  ** expanded, the child's canonical key, its hash and its mover
  ** (GAME_MAX_MOVES each); per move stack place, the child's class. */
  unsigned char *ahead_key;
  uint64_t *ahead_hash;
  uint8_t *ahead_mover;
  uint32_t *ahead_cls;
  size_t ahead_cap;
  /* Payoff vectors (chance, per-move payoffs, more than two players):
  ** each move's weight and pay, each position's expected payoffs. */
  int vector;
  uint32_t *edge_weight;    /* per edge: the chance move's weight (else 1) */
  int32_t *edge_pay;        /* per edge: nplayers payoffs of the move (games
                            ** with per-move payoffs only, else NULL) */
  uint32_t *wstack;         /* weights of the moves on the move stack */
  size_t wstack_cap;
  ExpValue *vec;            /* per stored position */
  /* --compact: the table in the compact form (retro_compact.h) instead of
  ** the arrays above, which stay empty then. */
  int compact;
  struct RetroCompact *cpt;
  /* --grundy (docs/cgt.md): when set, every position entered passes the
  ** Grundy walk's checks (grundy_check_here; the caller ran
  ** grundy_check_begin) and gets its Grundy value in gvalue; retro_solve
  ** then fills the Grundy's value and the root moves' values. */
  struct Grundy *grundy;
  uint32_t *gvalue;         /* per stored position (also read from a
                            ** database of format 4, db.h) */
  unsigned char *mex_mark;  /* the database check's mex scratch */
  /* --spill DIR: the compact form keeps its layers on disk there (NULL:
  ** only when the table would not fit in memory, then beside the --db
  ** FILE or in $TMPDIR); the --db FILE the solve writes and what names it
  ** (the compact form writes it as its layers finish, then). */
  const char *spill_dir;
  const char *db_out, *db_game, *db_params;
  uint64_t db_hash;
} Retro;

enum { RETRO_UNKNOWN = 0, RETRO_WIN = 1, RETRO_LOSS = 2, RETRO_DRAW = 3 };

void retro_init(Retro *r, Game *g, int base_ply, FILE *err);
void retro_free(Retro *r);

/* "gsolve: error: ..." on r->err (diag_fail), kept in r->status;
** returns status.  For retro's files (retro.c, retro_compact.c). */
int retro_fail(Retro *r, int status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Room in the per-class arrays (value, mover, dist, ...) for n stored
** positions, by doubling; 0, or -1 when out of memory. */
int retro_grow_classes(Retro *r, size_t n);

/* Enumerates and labels every position reachable from the engine's
** current position, then fills s->result (root value, every root move's
** exact value, the optimal moves) as the other solvers do.  Returns
** EXIT_OK or the status of the error it reported. */
int retro_solve(Retro *r, Search *s);

/* The same for games with chance, per-move payoffs or more than two
** players (acyclic ones): backward induction of payoff vectors, max^n at
** the players' positions and the weighted mean at chance's; the answer
** goes to s->result as expectimax_solve would give it. */
int retro_solve_vector(Retro *r, ExpSolver *s);

/* Step 1 alone: enumerates every position reachable from the engine's
** current position into the sets, the per-position arrays and the move
** graph (with weights, and pays with per-move payoffs, when r->vector is
** set); the terminal positions get their outcome.  EXIT_OK or the status
** of the error reported (memory, --max-positions, Ctrl-C). */
int retro_enumerate(Retro *r);

/* The forward graph of the enumeration (CSR over edge numbers): position
** p's moves are edges out[start[p]] .. out[start[p + 1] - 1], in their
** order of generation.  The caller frees both; -1 when out of memory. */
int retro_out_edges(const Retro *r, uint32_t **start, uint32_t **out);

/* The stored position of the engine's current state: 1 and *cls, or 0
** when it was not enumerated. */
int retro_lookup(Retro *r, uint32_t *cls);

/* The root's answer into s->result from r->vec (each position's payoff
** vector): each root move's value with its pay, as expectimax gives it. */
int retro_vector_answer(Retro *r, ExpSolver *s);

/* Allocates the scratch buffers and sets the key sizes; -1 when out of
** memory.  (retro_solve and retro_answer call it; so does db_read.) */
int retro_scratch(Retro *r);

/* The answer for the engine's current position from the labels (after
** retro_solve, or after loading a database). */
int retro_answer(Retro *r, Search *s);

/* --grundy (retro_grundy.c): each stored position's Grundy value into
** r->gvalue, after the labelling (a cycle refused); then the root's and
** its moves' values into r->grundy, after retro_answer (which calls it).
** EXIT_OK or the status of the error reported. */
int retro_label_grundy(Retro *r);
int retro_grundy_answer(Retro *r, Search *s);

/* The terminal label of stored position c (its mover set) from the
** game's outcome; sets r->scored for margins beyond +-1. */
int retro_set_terminal(Retro *r, uint32_t c, const Outcome *o);

/* The distributed solver of gsolve-mpi (src/retro/retro_mpi.c, built
** only by `make mpi`): when set, retro_solve and db_write hand over to
** it.  NULL in the plain build, which has no MPI code at all. */
struct RetroStats;
typedef struct RetroDistributed {
  int (*solve)(Retro *r, Search *s);
  int (*write)(const Retro *r, const char *path, const char *game, const char *params,
               uint64_t rules_hash, FILE *err);
  /* The table's counts (retro_stats_compute) over every rank's share. */
  int (*stats)(Retro *r, struct RetroStats *st);
  /* retro_solve_vector's. */
  int (*solve_vector)(Retro *r, ExpSolver *s);
  /* Before a lookup of the current position's children in r (retro_answer,
  ** retro_vector_answer): brings their labels from the ranks that own
  ** them when r is the distributed table (collective then).  The status. */
  int (*children)(Retro *r);
  /* retro_solve's with --compact (retro_mpi_compact.c): each rank holds
  ** its part of each layer; rank 0 writes the database and answers. */
  int (*compact_solve)(Retro *r, Search *s);
  /* A rule failed at run time, or the engine ran out of memory, on this
  ** rank (main.c, after the trap): inside a distributed solve the other
  ** ranks cannot learn it through the collectives they wait in, so the
  ** job is aborted with the status (before a solve: nothing to do). */
  void (*trapped)(int status);
} RetroDistributed;
extern const RetroDistributed *retro_distributed;

/* Bytes per stored position without its moves (for --stats), and the
** bytes allocated now (for --memory). */
size_t retro_bytes_per_position(const Retro *r);
size_t retro_memory(const Retro *r);

/* The hash form's memory checks (retro_limits.c), made before the large
** allocations: whether `more` bytes fit within --memory and what the
** machine has free (r->memory_free set when the latter failed); the
** refusal when the table cannot grow (its status); whether the
** labelling's reverse graph and queue do not fit (then reported). */
int retro_room_for(Retro *r, size_t more);
int retro_memory_refused(Retro *r);
int retro_labels_refused(Retro *r);

#endif
