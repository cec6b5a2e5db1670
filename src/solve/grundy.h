/*
** grundy.h -- the Grundy value (nimber) of a position of an impartial
** game under normal play, by a memoised depth-first walk (walk.h) over
** every position reachable from it.
**
** G(p) = mex { G(q) : q a position one move from p }, the least number
** that no move reaches; a position without moves is worth 0.  The player
** to move loses exactly when G is 0 (Sprague 1935, Grundy 1939).  See
** docs/cgt.md.
**
** The walk refuses a game that is not impartial (grundy_refusal says why
** from the game's declarations; the walk checks the rest at every
** position it enters, see grundy.c) and a game that goes round in cycles.
*/
#ifndef GSOLVE_GRUNDY_H
#define GSOLVE_GRUNDY_H

#include <stdint.h>
#include <stdio.h>
#include "game/game.h"
#include "search/keyset.h"
#include "search/walk.h"

/* All memory hangs off the Grundy, so it can be freed after a runtime
** error longjmps out of grundy_run. */
typedef struct Grundy {
  Game *g;
  FILE *err;              /* error messages; NULL: silent */
  int base_ply;           /* moves applied to the engine before the root */
  int status;             /* EXIT_OK or the EXIT_* of the error reported */
  uint32_t value;         /* the root's Grundy value */
  uint64_t positions;     /* distinct positions valued */
  uint64_t nodes;         /* positions entered, repeats included */
  int mover_checked;      /* the moves were compared with the mover swapped */
  /* The root's moves and the values of the positions they reach. */
  int nmoves;
  Move *moves;
  uint32_t *move_value;
  /* Working memory. */
  Walk walk;
  KeySet set;             /* positions valued or on the line, by state */
  uint32_t *val;          /* by the set's index; GRUNDY_OPEN: on the line */
  size_t val_cap;
  uint32_t *child;        /* children's values, parallel to the move stack */
  size_t child_cap;
  uint32_t *line_idx;     /* the set's index of each open node, by ply */
  size_t line_cap;
  unsigned char *mark;    /* mex's scratch, GAME_MAX_MOVES + 1 */
  Move *swapped;          /* the moves with the mover swapped */
  unsigned char *buf;     /* 4 states' room */
  size_t memory_limit;    /* bytes the set may take (--memory); 0: none */
  /* A sum (`components V;`): each entry value's Grundy value, by value. */
  int components;         /* the game declares components: solved as a sum */
  uint32_t *comp_val;
  unsigned char *comp_status;   /* 0 unknown, 1 expanded (waiting), 2 known */
  unsigned char *comp_star;      /* the component is a Nim heap (misère play) */
  int misere_win;         /* misère: the player to move wins */
  int misere;             /* a position without moves wins (components only);
                          ** -1 not known yet.  Bouton's misère rule then
                          ** decides value and best, the heaps all Nim heaps */
  size_t comp_cap;
  int32_t *stack;         /* entry values to value, innermost last */
  size_t stack_len, stack_cap;
  Move *mbuf;             /* the moves of one component position */
  uint64_t *kids;         /* digests of the positions they lead to */
  int32_t cur_entry;      /* the entry value being valued (messages) */
  int32_t not_star;        /* an entry met that is not a Nim heap; 0: none */
  /* --grundy-sequence N: G of the entry values 0..N (seq_n; -1: the
  ** position's value instead), the most tokens a move took (the largest
  ** drop of the entries' sum), and the period and pre-period proven by
  ** the Guy-Smith test (period 0: none). */
  int seq_n;
  int32_t max_drop;
  int period, preperiod;
  int ply_here;           /* plies from the root of the position checked */
  /* --solver retro: the values come from retro's labelling (retro.c),
  ** with its value and distance in the solve job's result. */
  int by_retro;
} Grundy;

#define GRUNDY_MAX_SEQUENCE 1000000   /* --grundy-sequence N: N at most */

#define GRUNDY_OPEN UINT32_MAX

/* The refusal of a game that goes round in cycles, the walk's and
** retro's (the message goes on with where the cycle was met). */
#define GRUNDY_CYCLE "--grundy needs a game that ends: a line of play from the root comes " \
                     "back to a position"

void grundy_init(Grundy *gr, Game *g, int base_ply, FILE *err);
void grundy_free(Grundy *gr);

/* NULL when the game's declarations allow an impartial game, else what
** breaks it ("chance moves", ...). */
const char *grundy_refusal(const Game *g);

/* The Grundy value of the current position; EXIT_OK or the status of the
** error reported (exit 2 for a game that is not impartial); the engine is
** then back at the root. */
int grundy_run(Grundy *gr);

/* The walk's checks, for a solver that enumerates the positions itself
** (retro.c, --solver retro --grundy).  grundy_check_begin: the
** declarations (grundy_refusal) and the checks' buffers, once (again:
** nothing).  grundy_check_here at each position entered, ply plies from
** the root: ended (with its outcome o), or its n moves mv (none: a
** position without moves): an end must be a loss for the player to move
** and, with the VM, the position with the other player to move must have
** the same end, moves and effects.  Both: EXIT_OK or the status of the
** error reported (exit 2 for a game that is not impartial); the engine
** is back at the position. */
int grundy_check_begin(Grundy *gr);
int grundy_check_here(Grundy *gr, int ply, int ended, const Outcome *o, const Move *mv, int n);

#endif
