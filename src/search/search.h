/*
** search.h -- what the minimax and alphabeta solvers share: the search
** context, the explicit stack of frames, the guard against cycles and
** over-long lines, and the handling of the root.
**
** The solvers do not recurse in C: a line of play may be GAME_MAX_PLY
** deep, far beyond the C stack, so each keeps one SearchFrame per ply.
** All memory hangs off the Search, so a caller whose engine longjmps out
** of a search (a runtime error in a rule) can still free it all.
*/
#ifndef GSOLVE_SEARCH_H
#define GSOLVE_SEARCH_H

#include <stdint.h>
#include <stdio.h>
#include "game/game.h"
#include "search/ghi.h"
#include "game/movestack.h"
#include "search/value.h"

/* One node on the current line of play. */
typedef struct SearchFrame {
  Value alpha, beta;      /* window, from the view of this node's mover */
  Value alpha0, beta0;    /* the window the moves are searched in: says
                          ** what bound the result is (alphabeta) */
  Value best;             /* best child value so far (fail-soft) */
  size_t mbase;           /* this node's moves start here in the move stack */
  uint64_t hash;          /* game_hash of the node */
  uint64_t nodes0;        /* node count on entry: the subtree's work */
  uint64_t leaves0;       /* alphabeta's deepening: horizon leaves met
                          ** before this node (none since: it is exact) */
  int exact_entry;        /* deepening: the table held an exact entry */
  int nmoves;             /* legal moves */
  int i;                  /* child being searched (its rank in the order) */
  int best_i;             /* generation index of the best child */
  int mover;              /* player to move */
  int flip;               /* the current child's mover is the other player */
  int line;               /* with a repetition rule: the node's index on
                          ** the line of play, and ... */
  Ghi ghi;                /* ... what its subtree met of the line (ghi.h) */
} SearchFrame;

/* The answer for the root position. */
typedef struct SolveResult {
  int terminal;           /* the root is terminal: value only, no moves */
  int mover;              /* player to move at the root */
  Value value;            /* root value for its mover, root at ply 0 */
  int nmoves;             /* root moves, in generation order */
  Move *moves;
  Value *values;          /* each move's value for the root mover, ... */
  unsigned char *exact;   /* ... valid where exact[i] (all of them with
                          ** minimax, or alphabeta with all_moves) */
  unsigned char *best;    /* move i is optimal */
  int nbest;              /* how many are */
} SolveResult;

/* The current line's interior positions, to detect a repetition: a hash
** table of chains threaded through the entries, so pushing and popping
** (always in stack order) are O(1). */
typedef struct SearchPath {
  size_t len, cap;
  uint64_t *hash;
  int32_t *next;          /* previous entry in the same chain, or -1 */
  unsigned char *state;   /* cap copies of state_bytes bytes */
  int32_t *head;          /* last entry of each chain, or -1 */
} SearchPath;

typedef struct Search {
  Game *g;
  FILE *err;              /* error messages go here; NULL: silent */
  int base_ply;           /* moves applied to the engine before the root */
  int status;             /* EXIT_OK, or the EXIT_* of the error that stopped */
  uint64_t nodes;         /* positions visited */
  uint64_t max_nodes;     /* stop (EXIT_LIMIT) beyond this many; 0: none */
  MoveStack ms;
  SearchFrame *frames;    /* one per ply of the current line */
  size_t nframes;
  SearchPath path;
  SolveResult result;
  /* The working memory of the solver that ran (alphabeta's key, order
  ** and history arrays), kept for the next solve and freed by
  ** search_free: an engine may longjmp out of a solve. */
  void *work;
  void (*free_work)(void *work);
  /* The progress display (progress.h), NULL: none.  The solvers call
  ** search_tick at each node and say which root move they search:
  ** root_pass is 0 for minimax's single pass over the root moves in
  ** order, else the number of root searches so far (alphabeta). */
  struct Progress *progress;
  int root_move;          /* generation index of the root move searched */
  uint64_t root_pass;
  int root_goal_set;      /* a deepening probe asks whether the root move
                          ** reaches root_goal (a score for the root's
                          ** mover), at horizon root_horizon: shown in the
                          ** progress line */
  int64_t root_goal;
  int root_horizon;
} Search;

#define SEARCH_TICK_MASK 0xffff  /* search_tick looks every 65536 nodes */

void progress_update(struct Progress *p, const Search *s, int ply);

/* At a node at `ply`: now and then, the progress display. */
static inline void search_tick(Search *s, int ply) {
  if (s->progress != NULL && (s->nodes & SEARCH_TICK_MASK) == 0)
    progress_update(s->progress, s, ply);
}

void search_init(Search *s, Game *g, int base_ply, FILE *err);
void search_free(Search *s);

/* Reports "gsolve: error: ..." on s->err, records status and returns it. */
int search_fail(Search *s, int status, const char *fmt, ...);

/* The frame for `ply`, growing the stack; NULL (status set) if out of
** memory.  Growing moves the frames: re-fetch pointers after a call. */
SearchFrame *search_frame(Search *s, int ply);

/* Pushes the current position (hash `h`) on the path; 0, or the status
** of a repetition or of running out of memory. */
int search_path_push(Search *s, uint64_t h);
void search_path_pop(Search *s);

/* 1 if a move may be applied at `ply`; else 0 with the status set. */
int search_depth_ok(Search *s, int ply);

/* Takes back the moves of a failed search from `ply` up to `top`, and
** restores the path and the move stack to the lengths they had. */
void search_unwind(Search *s, int ply, int top, size_t path_len,
                   size_t ms_top);

/* Step 1 of every solve: checks the number of players, counts the root,
** settles a terminal root, else generates the root moves into
** s->result and pushes the root on the path.  Returns the status. */
int search_root_begin(Search *s);

/* The first step of every solver's root (minimax, alphabeta,
** expectimax): the root's moves on ms, from its bottom.  Returns their
** number; 0 when the root is an end, *o then its outcome (the game ended
** there, or no move is legal); -1 when out of memory. */
int search_root_moves(Game *g, MoveStack *ms, Outcome *o);

/* A root's n moves copied from `from` into a new array, and its exact
** and best flags, zeroed; -1 when out of memory (the caller frees what
** was made). */
int search_root_arrays(int n, const Move *from, Move **moves, unsigned char **exact,
                       unsigned char **best);

/* Last step: the root value is the best exact move value; marks the
** moves that reach it, and pops the root. */
void search_root_finish(Search *s);

#endif
