/*
** test_native.c -- a native engine against the VM on the same game: along
** random lines of play, both engines give the same legal moves (same
** notation, same order), the same player to move, the same end test and
** outcome, the same eval; and the same perft counts from random positions.
**
** usage: test_native GAMEFILE DEPTH LINES [-D name=value ...]
** prints "N passed, M failed".
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gametest.h"


static uint64_t perft(Game *g, int depth) {
  static Move moves[64][GAME_MAX_MOVES];
  Outcome o;
  if (depth == 0) return 1;
  if (game_ended(g, &o)) return 0;
  int n = game_generate(g, moves[depth]);
  uint64_t total = 0;
  for (int i = 0; i < n; i++) {
    game_apply(g, &moves[depth][i]);
    total += perft(g, depth - 1);
    game_undo(g);
  }
  return total;
}

/* Both engines' legal moves as one string of notations. */
static void move_list(Game *g, char *out, size_t size, Move *moves, int *n) {
  *n = game_generate(g, moves);
  size_t k = 0;
  out[0] = 0;
  for (int i = 0; i < *n && k + 64 < size; i++) {
    k += (size_t)game_format_move(g, &moves[i], out + k, size - k);
    out[k++] = ',';
    out[k] = 0;
  }
}

int main(int argc, char **argv) {
  if (argc < 4) { fprintf(stderr, "usage: test_native GAME DEPTH LINES [-D name=value ...]\n"); return 2; }
  int depth = atoi(argv[2]), lines = atoi(argv[3]);
  rng = 0x2545f4914f6cdd1dULL;   /* this test's own seed, as before */
  Program *p = load_game(argv[1], argc, argv, 4);
  int status;
  if (!p) return 2;
  char why[256];
  Game *vm = vm_new(p, &status), *nat = native_new(p, why, sizeof why, &status);
  if (!vm || !nat) { fprintf(stderr, "no engine: %s\n", why); return 2; }
  static Move mv[GAME_MAX_MOVES], mn[GAME_MAX_MOVES];
  static char sv[1 << 16], sn[1 << 16];
  for (int line = 0; line < lines; line++) {
    int plies = 0;
    for (;;) {
      Outcome ov, on;
      int ev = game_ended(vm, &ov), en = game_ended(nat, &on);
      CHECK(ev == en, "end test differs at line %d ply %d", line, plies);
      if (ev && en) CHECK(memcmp(&ov, &on, sizeof ov) == 0, "outcome differs at line %d ply %d", line, plies);
      CHECK(game_to_move(vm) == game_to_move(nat), "player to move differs");
      CHECK(game_eval(vm) == game_eval(nat), "eval differs at line %d ply %d (%d vs %d)", line,
            plies, game_eval(vm), game_eval(nat));
      if (ev || en) break;
      int nv, nn;
      move_list(vm, sv, sizeof sv, mv, &nv);
      move_list(nat, sn, sizeof sn, mn, &nn);
      CHECK(strcmp(sv, sn) == 0, "legal moves differ at line %d ply %d: vm %s native %s", line, plies, sv, sn);
      if (nv == 0 || nn == 0 || nv != nn) {
        if (nv == 0 && nn == 0) {
          game_no_moves(vm, &ov);
          game_no_moves(nat, &on);
          CHECK(memcmp(&ov, &on, sizeof ov) == 0, "no-move outcome differs");
        }
        break;
      }
      /* Every few plies, perft from here agrees. */
      if (plies % 7 == 3 && depth > 0)
        CHECK(perft(vm, depth) == perft(nat, depth), "perft %d differs at line %d ply %d", depth, line, plies);
      int pick = (int)(next_random() % (unsigned)nv);
      game_apply(vm, &mv[pick]);
      game_apply(nat, &mn[pick]);
      plies++;
    }
    while (plies-- > 0) { game_undo(vm); game_undo(nat); }
  }
  CHECK(perft(vm, depth) == perft(nat, depth), "perft %d from the start", depth);
  game_free(vm);
  game_free(nat);
  gs_program_free(p);
  printf("%d passed, %d failed\n", passed, failed);
  return failed != 0;
}
