/*
** valueiter.h -- value iteration: expected values of games whose
** positions repeat, with chance (Pig), per-move payoffs or more than two
** players, where expectimax and Star1 would go round a cycle for ever.
**
** The reachable positions are enumerated once by the retrograde solver's
** step 1 (retro.h: symmetry, --memory, --max-positions, progress); the
** move graph is then laid out compactly (each position's moves as
** successor indices, probabilities at chance's positions, per-move
** payoffs when the game has them) and the Bellman equations are swept
** without the VM, Gauss-Seidel (each position updated in place), one
** strongly connected component of the graph at a time, children's
** components first, each until no expected payoff in it changes by
** `epsilon` or more in a sweep:
**
**   a player's position   the move best for the mover (max^n; two
**                         players: the largest margin, as expectimax)
**   chance's position     the probability-weighted mean of its moves
**   each move             its payoffs added to the position it leads to
**
** Non-terminal positions start at 0, so sweep k computes (at least) the
** values of the game cut off after k plies with nothing paid at the cut:
** the limit gives a line of play that never ends what its moves paid (0
** without per-move payoffs) -- retro's "draw" for endless play.
*/
#ifndef GSOLVE_VALUEITER_H
#define GSOLVE_VALUEITER_H

#include <stdint.h>
#include <stdio.h>
#include "solve/expectimax.h"
#include "search/pv.h"
#include "retro/retro.h"

#define VI_EPSILON     1e-12      /* --epsilon's default */
#define VI_MAX_SWEEPS  1000000    /* a game that does not converge stops here */

typedef struct ValueIter {
  Retro *r;                 /* the enumeration and the values (r->vec) */
  FILE *err;
  int status;
  double epsilon;           /* stop when a sweep changes no payoff by this */
  struct Progress *progress; /* the progress display, or NULL */
  uint64_t sweeps;          /* the most sweeps a component needed */
  double residual;          /* the largest change in a component's last sweep */
  uint64_t updates;         /* Bellman updates of positions, in all */
  double sweep_seconds;     /* time in the sweeps */
  /* The compact graph, positions numbered in sweep order (component by
  ** component, children's first): sweep position k's moves are slots
  ** start[k] .. start[k + 1] - 1. */
  uint32_t *start;          /* stored positions + 1 */
  uint32_t *to;             /* per move: the sweep position it leads to */
  double *prob;             /* per move: its probability (1 at a player's) */
  int32_t *pay;             /* per move: nplayers payoffs, or NULL (no pay) */
  uint32_t *order;          /* sweep position k is stored position order[k] */
  uint32_t *comp;           /* component c: sweep positions comp[c] .. comp[c+1]-1 */
  size_t ncomp;
  int8_t *kind;             /* per sweep position: its mover, VI_CHANCE, VI_END */
  double *val;              /* per sweep position: nplayers expected payoffs */
  double *plies;            /* per sweep position: expected plies to the end */
  unsigned char *moving;    /* per sweep position: its plies grew in the last sweep */
  /* The dense graph (vi_dense.h): then the arrays above are indexed by
  ** position number, not sweep position (order[k] is sweep position k's
  ** number), and these are set. */
  int dense;
  uint32_t **dchunk;        /* packed key -> number + 1, in chunks */
  size_t dchunks;           /* chunks made */
  uint32_t *dkey;           /* per position: its packed key */
  uint32_t *dpstart;        /* per position: its first probability in prob, or UINT32_MAX */
  size_t nprob, dn;         /* probabilities kept; positions found */
  void *dwork;              /* the walk's working state while it runs */
  uint32_t *act;            /* the positions swept (not ends, not folded), by component */
  uint32_t *actstart;       /* component c's: act[actstart[c]] .. act[actstart[c + 1] - 1] */
  uint32_t *prog;           /* or the sweep program (valueiter.c, make_program) */
  size_t *progstart;        /* component c's: prog[progstart[c]] .. */
} ValueIter;

/* VI_FOLDED: a chance position of the dense graph with one move leading
** to it, from a player's position: not swept, its mean computed where
** that move is looked at (the move's slot has VI_FOLD_BIT set), and its
** own value once the sweeps are done. */
enum { VI_CHANCE = -1, VI_END = -2, VI_FOLDED = -3 };
#define VI_FOLD_BIT 0x80000000u

void vi_init(ValueIter *v, Retro *r, FILE *err);
void vi_free(ValueIter *v);

/* Enumerates the positions reachable from the engine's current one
** (r's settings), sweeps to convergence and fills s->result as expectimax
** would (every root move's value, the best ones).  EXIT_OK, or the
** status of the error reported (memory, a game that has a repetition
** rule, no convergence in VI_MAX_SWEEPS sweeps, Ctrl-C, --time-limit). */
int vi_solve(ValueIter *v, ExpSolver *s);

/* After vi_solve: a line of play from the engine's current position, the
** mover's best move (the first of the best in generation order) at each
** player's position, chance's moves drawn by their weights from a
** SplitMix64 sequence seeded by `seed`, to the end of the game (or, in a
** game without chance, to the first repeated position).  The engine is
** back at its position afterwards.  EXIT_OK or an error's status. */
int vi_sample_line(ValueIter *v, Pv *pv, int base_ply, uint64_t seed);

/* After vi_solve: the root's answer again, from the engine's current
** position (which must have been enumerated: play asks it after each
** move), into s->result.  EXIT_OK or an error's status. */
int vi_answer(ValueIter *v, ExpSolver *s);
/* Bytes of the compact graph and the sweep order (for --stats). */
size_t vi_memory(const ValueIter *v);

#endif
