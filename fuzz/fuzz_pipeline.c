/*
** fuzz_pipeline.c -- libFuzzer harness: the whole pipeline.  Compiles the
** input as a .game file and, when it compiles, runs it on the VM: move
** generation, apply and undo along a few lines of play (checking that undo
** restores the state and the hash), the end and no-moves tests, eval,
** notation, drawing, symmetry and packing; then a short bounded search
** (alpha-beta to depth 3, then exact, each stopped after FUZZ_NODES nodes,
** where the walks met no position of more than FUZZ_SEARCH_MOVES moves);
** the same on the native engine when the rules declare one.
** A rule that fails at run time longjmps to the trap and ends the input.
**
** Built by `make fuzz` with clang -fsanitize=fuzzer,address,undefined.
** Without libFuzzer, fuzz/replay.c drives the same entry point over files.
*/
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gsolve.h"
#include "solve/alphabeta.h"
#include "search/search.h"
#include "search/tt.h"
#include "vm/vm.h"

#define FUZZ_PLIES 16     /* plies of each line of play */
#define FUZZ_NODES 2000   /* node budget of each search */
/* The searches run only where the walks met no position of more moves: a
** node budget bounds nodes, not the moves each one generates and orders
** (connect6's 129,240 two-stone moves a position took minutes). */
#define FUZZ_SEARCH_MOVES 1024
/* The steps and rule runs of the VM for one input in all (vm.h; the fuzz
** build only): each generation of a game with long bounce paths fits the
** node budget but not their sum.  The bundled games take at most 3.6
** million (paper soccer, 1.6 s in the fuzz build; hex 2.6 million). */
#define FUZZ_VM_BUDGET 4000000L

/* A line of play choosing move (ply * 7 + salt) mod n at each ply, with
** every query of the interface along the way; undone at the end, after
** which the state and hash must be those of the start.  `before` holds
** state_bytes, `work` twice that plus key_bytes (allocated by the caller:
** a runtime error longjmps out of here).  Returns the most moves a
** position of the line had. */
static int walk(Game *g, Move *moves, int salt, unsigned char *before,
                unsigned char *work, FILE *out) {
  int most = 0;
  size_t sb = g->state_bytes;
  memcpy(before, game_state(g), sb);
  uint64_t h0 = game_hash(g);
  Outcome o;
  int applied = 0;
  for (int ply = 0; ply < FUZZ_PLIES; ply++) {
    (void)game_to_move(g);
    (void)game_eval(g);
    if (g->vt->canonical) g->vt->canonical(g, game_state(g), work);
    if (g->vt->pack) g->vt->pack(g, game_state(g), work + sb);
    if (game_ended(g, &o)) break;
    int n = game_generate(g, moves);
    if (n == 0) { game_no_moves(g, &o); break; }
    most = n > most ? n : most;
    char buf[256];
    for (int i = 0; i < n && i < 64; i++) game_format_move(g, &moves[i], buf, sizeof buf);
    game_apply(g, &moves[((unsigned)ply * 7u + (unsigned)salt) % (unsigned)n]);
    applied++;
  }
  game_print(g, out);
  while (applied-- > 0) game_undo(g);
  if (memcmp(before, game_state(g), sb) != 0 || game_hash(g) != h0) abort();
  return most;
}

/* One bounded search; the Search is freed by the caller (a runtime error
** may longjmp out of it). */
static void search(Search *s, Tt *tt, int depth) {
  AbOptions o;
  alphabeta_options(&o);
  o.depth = depth;
  s->max_nodes = FUZZ_NODES;
  s->nodes = 0;
  (void)alphabeta_run(s, tt, &o);
}

/* Walks and searches one engine; a runtime error ends it early. */
static void exercise(Game *g, Move *moves, FILE *out) {
  jmp_buf trap;
  Search s;
  Tt *tt = tt_new(1);
  size_t sb = g->state_bytes + 1;
  unsigned char *before = malloc(sb), *work = malloc(2 * sb + g->key_bytes);
  search_init(&s, g, 0, NULL);
  g->trap = &trap;
  if (before && work) {
    if (setjmp(trap) == 0) {
      int most = walk(g, moves, 0, before, work, out);
      int also = walk(g, moves, 3, before, work, out);
      if (most <= FUZZ_SEARCH_MOVES && also <= FUZZ_SEARCH_MOVES) {
        search(&s, tt, 3);
        search(&s, tt, 0);
      }
    }
  }
  g->trap = NULL;
  free(before);
  free(work);
  search_free(&s);
  tt_free(tt);
}

int fuzz_pipeline_one(const uint8_t *data, size_t size) {
  FILE *devnull = fopen("/dev/null", "w");
  if (!devnull) return 0;
  int status;
  Program *p = gs_compile("fuzz.game", (const char *)data, size, NULL, 0, devnull, &status);
#ifdef VM_FUZZ_BUDGET
  vm_fuzz_budget = FUZZ_VM_BUDGET;
#endif
  Move *moves = malloc(GAME_MAX_MOVES * sizeof *moves);
  if (p && moves) {
    Game *g = vm_new(p, &status);
    if (g) {
      exercise(g, moves, devnull);
      game_free(g);
    }
    /* A native engine the rules declare, on whatever parameters they
    ** give it: it must refuse those it cannot handle, not crash. */
    int allowed;
    char why[256];
    if (gs_native_name(p, &allowed) && allowed && (g = native_new(p, why, sizeof why, &status)) != NULL) {
      exercise(g, moves, devnull);
      game_free(g);
    }
  }
#ifdef VM_FUZZ_BUDGET
  vm_fuzz_budget = 0;
#endif
  free(moves);
  gs_program_free(p);
  fclose(devnull);
  return 0;
}

#ifndef FUZZ_NO_MAIN
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  return fuzz_pipeline_one(data, size);
}
#endif
