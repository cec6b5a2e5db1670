/* c4solve64.c -- the solver (c4search.h) on 64-bit words: boards with
** width * (height + 1) <= 64, 7x6 among them. */
#define C4W_BITS 64
#include "engines/connect4/c4search.h"
#include "engines/connect4/c4root.h"
