/*
** fen.h -- positions of board games written as FEN (Forsyth-Edwards
** notation), for any game that declares the letters of its pieces
** (`pieces NAME "LETTERS";`): the ranks from the top row down separated
** by '/', a digit run for empty cells, a letter per piece, then the
** player to move ('w' the first player, 'b' the second).  Chess's later
** fields (castling, en passant, clocks) are read and ignored.
*/
#ifndef GSOLVE_FEN_H
#define GSOLVE_FEN_H

#include <stddef.h>
#include <stdint.h>
#include "game/game.h"

typedef struct FenBoard {
  const char *letters;      /* value k + 1 is letters[k]; 0 an empty cell */
  int base;                 /* first state slot of the board array */
  int width, height;
} FenBoard;

/* Reads `fen` into the engine's position (the slots that are not the
** board keep their values).  EXIT_OK, or EXIT_USAGE with a message on
** err naming what is wrong. */
int fen_read(Game *g, const FenBoard *b, const char *fen, FILE *err);

/* Writes a state's board and player to move as FEN into buf; the
** length written (cut at size - 1). */
size_t fen_write(const FenBoard *b, const int32_t *state, int nplayers, char *buf, size_t size);

#endif
