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

typedef struct BoardStyle {
  int unicode;            /* redraw boards with box-drawing characters */
  int colour;             /* ANSI colours for the players' pieces */
  int hide_to_move;       /* leave out the "to move: P" line */
} BoardStyle;

/* The style that suits `f`: Unicode when it is a terminal with a UTF-8
** locale, colour when it is a terminal, TERM is not "dumb" and NO_COLOR
** is unset; plain ASCII otherwise, or always with `ascii`. */
void boardview_style_for(FILE *f, int ascii, BoardStyle *st);

/* Draws the current position of g on `out`. */
void boardview_print(Game *g, const BoardStyle *st, FILE *out);

/* The ANSI colour sequence for player p's pieces ("" without colour),
** and the sequence that ends it. */
const char *boardview_player_colour(Game *g, const BoardStyle *st, int p);
const char *boardview_colour_end(const BoardStyle *st);

#endif
