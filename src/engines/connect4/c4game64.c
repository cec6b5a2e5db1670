/* c4game64.c -- the engine's rules (c4rules.h) on 64-bit words: boards
** with width * (height + 1) <= 64, 7x6 among them. */
#define C4W_BITS 64
#include "engines/connect4/c4rules.h"
