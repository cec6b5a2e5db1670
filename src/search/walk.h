/*
** walk.h -- the depth-first walk of the game tree that perft, count,
** minimax, expectimax (max^n) and the tree drawing (cli/treedot.c) share.
**
** A line of play may be GAME_MAX_PLY deep, far beyond the C stack, so the
** walk keeps an explicit stack of frames, one per open node of the line,
** and the moves of those nodes on one move stack (game/movestack.h).  The
** engine follows the walk: it is always at the walk's current node.
**
** The caller drives it and decides what a node is; the walk only moves.
** With an event for each step (minimax, expectimax, treedot):
**
**   for (int e = walk_begin(&w); e != WALK_DONE; e = walk_step(&w))
**     switch (e) {
**     case WALK_NODE:  a new node at w.ply (the root first): a leaf for
**                      the caller, or walk_expand() to follow its moves
**     case WALK_BACK:  back at the node at w.ply from its child: fold
**                      the child's result in
**     case WALK_LEAVE: the node at w.ply has no more moves to follow
**     }
**
** Callers that only look at nodes (perft, count) go from an expanded
** node to its first move with walk_into and from a leaf to the next node
** with walk_next: knowing which saves a test and keeps the ply in a
** register, and costs perft about 1% more instructions than its own
** loop of gotos did (native Connect Four, the fastest engine; nothing
** measurable in time).
**
** Not every walk uses it.  alphabeta.c keeps its own loop: it orders the
** moves, tries the table's move first, narrows windows, cuts off and
** deepens iteratively, each of which would be a hook here.  Star1
** (expectimax.c) cuts off too, and recurses in C within EXP_MAX_PLY.
** retro.c's enumeration enters only positions not seen before and adds an
** edge for every move; it could use this walker, but is being changed on
** another branch and keeps its loop for now.
*/
#ifndef GSOLVE_WALK_H
#define GSOLVE_WALK_H

#include <assert.h>
#include <stddef.h>
#include "game/game.h"
#include "game/movestack.h"

/* One open node of the current line. */
typedef struct WalkFrame {
  size_t mbase;           /* its moves start here on the move stack */
  int nmoves;             /* how many */
  int i;                  /* the move followed now (-1 before the first) */
} WalkFrame;

/* All memory hangs off the Walk, so that it can be freed after an engine
** longjmps out of a walk (a runtime error in a rule). */
typedef struct Walk {
  Game *g;
  MoveStack ms;           /* the open nodes' moves, innermost last */
  WalkFrame *frames;      /* frames[0..open): the open nodes, root first */
  size_t cap;             /* frames allocated */
  int ply;                /* the current node: plies below the walk's root */
  int open;               /* open nodes: ply, or ply + 1 once the current
                          ** node is expanded */
} Walk;

enum { WALK_DONE, WALK_NODE, WALK_BACK, WALK_LEAVE };

void walk_init(Walk *w, Game *g);
void walk_free(Walk *w);
/* Doubles the frames (walk_expand's slow path); 0, or -1 out of memory. */
int walk_grow(Walk *w);

/* Starts a walk at the engine's current position, which is the first
** node: returns WALK_NODE. */
static inline int walk_begin(Walk *w) {
  w->ply = w->open = 0;
  w->ms.top = 0;
  return WALK_NODE;
}

/* Expands the current node: generates its moves on the move stack, and
** with any, opens it, so that walk_step follows them in generation order
** (or walk_into enters the first).  Returns their number (0: the node
** stays a leaf), -1 when out of memory.  The node must not be open yet
** (w->open == w->ply). */
static inline int walk_expand(Walk *w) {
  WalkFrame *f;
  int n;
  if ((size_t)w->open == w->cap && walk_grow(w) != 0) return -1;
  f = &w->frames[w->ply];
  f->mbase = w->ms.top;
  if ((n = movestack_generate(&w->ms, w->g)) <= 0) return n;
  f->nmoves = n;
  f->i = -1;
  w->open++;
  return n;
}

/* Closes the current node just expanded without following its moves:
** it becomes a leaf (a cut-off). */
static inline void walk_close(Walk *w) {
  assert(w->open == w->ply + 1);
  w->ms.top = w->frames[w->ply].mbase;
  w->open--;
}

/* The frame of the open node at `ply` (<= w->ply). */
static inline WalkFrame *walk_frame(Walk *w, int ply) {
  return &w->frames[ply];
}

/* The move that led to the current node (w->ply >= 1). */
static inline const Move *walk_move(const Walk *w) {
  const WalkFrame *f = &w->frames[w->ply - 1];
  return &w->ms.moves[f->mbase + (size_t)f->i];
}

/* One step: into the current node's next move (WALK_NODE), out of a
** node whose moves are all followed (WALK_LEAVE, still at it), back from
** a leaf or a left node to its parent (WALK_BACK), or WALK_DONE when the
** root is left: the engine is back at the root. */
static inline int walk_step(Walk *w) {
  if (w->open > w->ply) {
    WalkFrame *f = &w->frames[w->ply];
    if (++f->i < f->nmoves) {
      game_apply(w->g, &w->ms.moves[f->mbase + (size_t)f->i]);
      w->ply++;
      return WALK_NODE;
    }
    w->ms.top = f->mbase;
    w->open--;
    return WALK_LEAVE;
  }
  if (w->ply == 0) return WALK_DONE;
  game_undo(w->g);
  w->ply--;
  return WALK_BACK;
}

/* The fast pair for callers that only look at nodes (perft, count):
** walk_into enters the first move of the node just expanded, walk_next
** leaves a leaf for the next node; each returns WALK_NODE, or WALK_DONE
** once the walk is back at the root.  Knowing which one is called saves
** walk_step's test of the current node and keeps the ply in a register
** across game_undo: perft's inner loop (tests/bench.sh). */
static inline int walk_into(Walk *w) {
  WalkFrame *f = &w->frames[w->ply];
  f->i = 0;
  game_apply(w->g, &w->ms.moves[f->mbase]);
  w->ply++;
  return WALK_NODE;
}

static inline int walk_next(Walk *w) {
  int ply = w->ply;
  for (;;) {
    WalkFrame *f;
    if (ply == 0) {
      w->ply = 0;
      return WALK_DONE;
    }
    game_undo(w->g);
    f = &w->frames[--ply];
    if (++f->i < f->nmoves) {
      game_apply(w->g, &w->ms.moves[f->mbase + (size_t)f->i]);
      w->ply = ply + 1;
      return WALK_NODE;
    }
    w->ms.top = f->mbase;
    w->open = ply;
  }
}

/* Abandons the walk: takes back its moves, so that the engine is at the
** root again, and empties the stacks. */
static inline void walk_unwind(Walk *w) {
  for (; w->ply > 0; w->ply--) game_undo(w->g);
  w->open = 0;
  w->ms.top = 0;
}

/* The share of the tree walked so far, taking the subtrees of a node's
** moves as equal in size: (i1 + (i2 + ...) / n2) / n1, move i_k of n_k at
** each open node.  An estimate for a progress display. */
double walk_share(const Walk *w);

#endif
