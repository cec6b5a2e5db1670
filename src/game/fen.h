/*
** fen.h -- positions of board games written as FEN (Forsyth-Edwards
** notation), for any game that declares the letters of its pieces
** (`pieces NAME "LETTERS";`): the ranks from the top row down separated
** by '/', a digit run for empty cells, a letter per piece, then the
** player to move ('w' the first player, 'b' the second).  Chess's later
** fields (castling, en passant, the halfmove clock, the fullmove number)
** go to the state variables the game names for them; a game that names
** none ignores them.
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
  /* FEN's later fields, where the game keeps them (`pieces ... castling
  ** V "KQkq" en_passant E halfmove H fullmove F`); slot 0 (the player to
  ** move, never one of these) means the game does not keep the field. */
  const char *castle_letters;  /* castling: the right of letter i is slot castle_base + i */
  int castle_base;
  int ep_slot;              /* en passant: a cell, -1 for '-' */
  int half_slot, full_slot; /* the halfmove clock and the fullmove number */
  int32_t half_lo, half_hi, full_lo, full_hi;   /* their slots' ranges */
} FenBoard;

/* Numbers of FEN's clock fields that the game does not keep are read up
** to this. */
#define FEN_MAX_NUMBER 1000000

/* Reads `fen` into the engine's position (the slots that are not the
** board keep their values).  EXIT_OK, or EXIT_USAGE with a message on
** err naming what is wrong. */
int fen_read(Game *g, const FenBoard *b, const char *fen, FILE *err);

/* Writes a state's board and player to move as FEN into buf; the
** length written (cut at size - 1). */
size_t fen_write(const FenBoard *b, const int32_t *state, int nplayers, char *buf, size_t size);

#endif

/* The move m of the current position in standard algebraic notation,
** derived from the board before and after it: the piece's letter (upper
** case; none for a piece lettered P, a pawn, whose captures start with
** its file), the file, rank or both when another legal move takes a
** piece of the same kind to the same cell, x for a capture, the cell,
** =L when the piece changes (promotion), # when the player to move
** then has no move and loses, else + when the game's check function
** (`pieces ... check F`) says that player is in check.  0, or -1 when the move is not one piece going
** from one cell to another (then buf holds the engine's notation). */
int fen_san(Game *g, const FenBoard *b, const Move *m, char *buf, size_t size);
