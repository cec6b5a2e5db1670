/*
** boardview.h -- a position drawn for people: the engine's own drawing
** (game_print), either as it is (plain ASCII) or with its board grid
** redrawn in Unicode box-drawing characters, each player's pieces in
** a colour of their own.
*/
#ifndef GSOLVE_BOARDVIEW_H
#define GSOLVE_BOARDVIEW_H

#include <stdio.h>
#include "game/game.h"

#define BOARDVIEW_MAX_COLS 64    /* widest board redrawn; wider: as it is */

typedef struct BoardStyle {
  int unicode;            /* redraw boards with box-drawing characters */
  int colour;             /* ANSI colours for the players' pieces */
  int hide_to_move;       /* leave out the "to move: P" line */
  int board_only;         /* where a board is drawn, leave out the state
                          ** variables' lines ("filled = 3"): bookkeeping
                          ** of the rules, not what a player looks at */
  int letter_case;        /* the cells hold pieces' letters (a game's
                          ** `pieces`): upper case the first player's,
                          ** lower case the second's */
  int ncol_labels;        /* > 0: the columns are labelled ... */
  char col_labels[BOARDVIEW_MAX_COLS][4];   /* ... with these instead */
} BoardStyle;

/* The style that suits `f`: Unicode when it is a terminal with a UTF-8
** locale, colour when it is a terminal, TERM is not "dumb" and NO_COLOR
** is unset; plain ASCII otherwise, or always with `ascii`. */
void boardview_style_for(FILE *f, int ascii, BoardStyle *st);

/* Where each legal move of the current position changes the board in a
** column of its own (Connect Four drops into a column), labels the
** columns with those moves as they are typed ("1" .. "7") instead of the
** drawing's own labels (a .. g): st->ncol_labels is set and 1 returned.
** Otherwise (a move touches two columns, or two moves one column; a
** column without a move) 0, and st is left as it is. */
int boardview_label_columns_by_moves(Game *g, BoardStyle *st);

/* Draws the current position of g on `out`. */
void boardview_print(Game *g, const BoardStyle *st, FILE *out);

/* The ANSI colour sequence for player p's pieces ("" without colour),
** and the sequence that ends it. */
const char *boardview_player_colour(Game *g, const BoardStyle *st, int p);
const char *boardview_colour_end(const BoardStyle *st);

/* The engine's drawing of the current position (game_print) as a string
** to free; NULL when out of memory. */
char *boardview_text(Game *g);

#endif
