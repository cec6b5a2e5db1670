/*
** trap.c -- a call under a trap of its own, for the code that allocates
** work on the heap and must free it when a rule fails at run time (the
** engine longjmps to g->trap: game.h).
*/
#include <setjmp.h>
#include <stdlib.h>
#include "game/game.h"

int game_call_trapped(Game *g, int (*fn)(void *arg), void *arg, int *result) {
  jmp_buf trap, *outer = g->trap;
  int failed = 0;
  g->trap = &trap;
  /* Nothing below changes between setjmp and a longjmp back here but
  ** *result, which is written only on the way that returns. */
  if (setjmp(trap) == 0) *result = fn(arg);
  else failed = 1;
  g->trap = outer;
  return failed;
}

void game_reraise(Game *g) {
  if (g->trap != NULL) longjmp(*g->trap, 1);
  exit(g->error_status);
}
