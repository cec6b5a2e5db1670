/* c4game128.c -- the engine's rules (c4rules.h) on 128-bit words: boards
** with 64 < width * (height + 1) <= 128, 10x6 among them. */
#define C4W_BITS 128
#include "engines/connect4/c4rules.h"
