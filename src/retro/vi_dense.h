/*
** vi_dense.h -- value iteration's move graph found without a hash set
** (vi_dense.c), for a game whose positions pack into at most 32 bits,
** two players, no per-move payoffs, no symmetry and one process: the
** positions numbered as found, a direct table from packed key to number,
** the moves in compressed rows (ValueIter's start, to, kind, val by
** position number; prob only for chance positions of unequal weights).
*/
#ifndef GSOLVE_VI_DENSE_H
#define GSOLVE_VI_DENSE_H
#include "retro/valueiter.h"

/* 1 when the game qualifies (GSOLVE_VI_HASHED set in the environment
** turns it off: retro's enumeration then runs, for comparison). */
int vid_applies(const ValueIter *v);
/* Enumerates from the engine's current position (left as it was), depth
** first, finding the strongly connected components as it goes (Tarjan):
** each component is numbered and written out when its root finishes, its
** positions in the order they finished, so that the graph comes out in
** sweep order (v->start, to, kind, val, prob, comp, ncomp).  EXIT_OK, or
** the status of the error reported through fail. */
int vid_enumerate(ValueIter *v, int (*fail)(ValueIter *, int, const char *, ...));
/* The number of the engine's current position: 1 if it was found. */
int vid_lookup(ValueIter *v, uint32_t *id);
size_t vid_memory(const ValueIter *v);
/* Folds each chance position that one move of a player's position leads
** to, and no other, into that move (VI_FOLDED; v->to gets VI_FOLD_BIT on
** those moves). */
void vid_fold(ValueIter *v);
void vid_free(ValueIter *v);
#endif
