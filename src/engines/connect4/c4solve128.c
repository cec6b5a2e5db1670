/* c4solve128.c -- the solver (c4search.h) on 128-bit words: boards with
** 64 < width * (height + 1) <= 128, 10x6 among them. */
#define C4W_BITS 128
#include "engines/connect4/c4search.h"
#include "engines/connect4/c4root.h"
