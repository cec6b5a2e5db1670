/*
** position.h -- play the moves given with --position.
*/
#ifndef GSOLVE_POSITION_H
#define GSOLVE_POSITION_H

#include <stdio.h>
#include "game/game.h"

/* The moves played, in the engine's own notation.  Everything allocated
** hangs off it, so it can be freed after a runtime error longjmps out of
** position_play. */
typedef struct Position {
  int n;                  /* moves played */
  char **moves;           /* their notation, as game_format_move wrote it */
  int cap;
  char *text;             /* working copy of the input, cut into pieces */
  char **tokens;          /* the input's pieces */
  int ntokens;
  Move *legal;            /* room for GAME_MAX_MOVES moves */
} Position;

/* Plays `text` on g from its current position.  With a comma in it, each
** comma-separated piece is one move; without, the words are matched
** greedily: each time, the legal move whose notation covers the most
** words.  Matching is exact (case included) once runs of blanks are
** collapsed.  Returns EXIT_OK, EXIT_USAGE after reporting an unknown or
** illegal move on `err`, or EXIT_LIMIT (out of memory, or more moves
** than GAME_MAX_PLY).  On an error the moves already played stay played. */
int position_play(Game *g, const char *text, Position *pos, FILE *err);
void position_free(Position *pos);

/* Refuses g's current position when it is not one of the game's
** (GameVtable.invalid: declared ranges, `at most N pieces`, the valid
** block).  EXIT_OK, or EXIT_USAGE after "gsolve: error: WHAT: not a
** position of this game: REASON" on err (WHAT names where the position
** came from: `--fen "..."`); a rule failing at run time on it is
** reported, then refused the same way. */
int position_check(Game *g, const char *what, FILE *err);

#endif
