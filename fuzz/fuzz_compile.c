/*
** fuzz_compile.c -- libFuzzer harness: parse, check and compile an input
** as a .game file, disassemble it, and when it compiles, run the VM through
** move generation, apply/undo and the end test for a few plies.
**
** Built by `make fuzz` with clang -fsanitize=fuzzer,address,undefined.
** Without libFuzzer, fuzz/replay.c drives the same entry point over files.
*/
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include "gsolve.h"

/* A short random-free walk: always the first and last legal moves, so a
** rule that fails at run time or corrupts the trail shows up. */
static void walk(Game *g, int plies) {
  Move moves[GAME_MAX_MOVES];
  Outcome o;
  int applied = 0;
  for (int ply = 0; ply < plies; ply++) {
    if (game_ended(g, &o)) break;
    int n = game_generate(g, moves);
    if (n == 0) { game_no_moves(g, &o); break; }
    char buf[256];
    game_format_move(g, &moves[n - 1], buf, sizeof buf);
    game_apply(g, &moves[ply % 2 ? 0 : n - 1]);
    applied++;
    (void)game_eval(g);
  }
  while (applied-- > 0) game_undo(g);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  FILE *devnull = fopen("/dev/null", "w");
  if (!devnull) return 0;
  int status;
  Program *p = gs_compile("fuzz.game", (const char *)data, size, NULL, 0, devnull, &status);
  if (p) {
    gs_disassemble(p, devnull);
    Game *g = vm_new(p, &status);
    if (g) {
      jmp_buf trap;
      g->trap = &trap;
      if (setjmp(trap) == 0) walk(g, 12);
      game_free(g);
    }
    gs_program_free(p);
  }
  fclose(devnull);
  return 0;
}
